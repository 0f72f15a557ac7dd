"""``pac-verl quickstart`` (docs/getting-started/quickstart.md) runs end to end and leaves the data and the run logs it announces."""

import json

from pac_verl.data_prep.rows import read_rows
from pac_verl.quickstart import main


def test_quickstart_writes_data_and_simulated_run_logs(tmp_path, capsys):
    assert main(["--out", str(tmp_path), "--steps", "12"]) == 0
    train = read_rows(tmp_path / "data" / "train.parquet")
    assert len(train) == 9 * 16  # nine arms, 16 prompts each
    runs = sorted(p.name for p in (tmp_path / "sim_runs").iterdir())
    # the tour, three seeds: every controller but 'single' on multi_level and on noisy, PAC at
    # W = 4 and 64 on noisy (W = 16 is the noisy part's own PAC) and at W = 4, 16, 64 on
    # prerequisite
    assert len(runs) == (7 + 7 + 2 + 3) * 3
    run_dir = tmp_path / "sim_runs" / runs[0]
    lines = [json.loads(x) for x in next(run_dir.glob("metrics*.jsonl")).read_text().splitlines()]
    assert {"step", "data"} <= set(lines[-1]) and lines[-1]["step"] == 12
    figures = sorted(p.name for p in (tmp_path / "figures").glob("*.png"))
    # one validation plot for the scenario, one heatmap per controller
    assert figures.count("validation__sim-multi_level__simulated.png") == 1
    assert len([f for f in figures if f.startswith("curriculum__")]) == 7
    assert figures.count("zero_variance__sim-multi_level__simulated.png") == 1  # per-arm waste
    out = " ".join(capsys.readouterr().out.split())
    assert "seconds:" in out
    for part in ("A. multi_level", "B. noisy", "C. the history window W"):
        assert part in out

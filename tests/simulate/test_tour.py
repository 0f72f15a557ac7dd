"""The simulator's tour (`pac-verl simulate` without --scenario, and the quickstart's step 4): it
runs what it announces, measures speed-ups against the reference the report uses, and every number
it prints under a table is the one its run logs give."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pac_verl.errors import UserError
from pac_verl.report.logs import load_runs
from pac_verl.report.tables import default_reference, efficiency_for, simulation_spec
from pac_verl.simulate import run_simulation
from pac_verl.simulate.cli import main
from pac_verl.simulate.tour import print_tour, run_tour

ALL = ["pac", "pac_no_adv", "pac_no_prog", "pac_no_ts", "sec", "dump", "random"]


def flat(text: str) -> str:
    return " ".join(text.split())  # rich wraps long lines at the console's width


def test_the_reference_is_the_best_of_random_sec_and_dump():
    assert default_reference({"random": 0.4, "sec": 0.5, "dump": 0.45, "pac": 0.9}) == "sec"
    assert default_reference({"random": 0.4, "pac": 0.9}) == "random"
    # no baseline run: the best method other than PAC, as the report has always chosen
    assert default_reference({"pac": 0.9, "pac@w4": 0.5, "pac@w64": 0.6}) == "pac@w64"
    assert default_reference({"pac": 0.9}) is None


def test_console_and_report_measure_against_the_same_reference(tmp_path):
    res = run_simulation("multi_level", ALL, seeds=[0, 1], steps=30, batch_size=16,
                         out_dir=tmp_path, show_progress=False)  # fmt: skip
    finals = {c: np.mean([res.runs[c, s].val_average[-1] for s in (0, 1)]) for c in ALL}
    best = max(("random", "sec", "dump"), key=lambda c: finals[c])
    assert res.reference == best and res.reference_is_best
    runs = load_runs([tmp_path])
    (eff,) = efficiency_for(simulation_spec("sim-multi_level", runs), runs)
    assert eff.reference == best
    assert eff.target == pytest.approx(finals[best])
    console_rows = {row[0]: row for row in res.summary_rows()}
    for e in eff.rows:  # the console's first steps and speed-ups are the report's
        step = "not reached" if e.step is None else str(e.step)
        assert console_rows[e.method][2].removesuffix(" (reference)") == step
        assert console_rows[e.method][3] == ("-" if e.ratio is None else f"{e.ratio:.2f}x")


@pytest.fixture(scope="module")
def tour(tmp_path_factory):
    out = tmp_path_factory.mktemp("tour")
    return out, run_tour(steps=20, seeds=[0, 1], batch_size=8, val_every=5, out_dir=out,
                         show_progress=False)  # fmt: skip


def test_the_tour_runs_what_it_announces(tour):
    out, _ = tour
    names = {p.name for p in out.iterdir() if (p / "metrics.jsonl").is_file()}
    expected = {f"sim-{sc}__simulated__{c}__seed{s}" for sc in ("multi_level", "noisy")
                for c in ALL for s in (0, 1)}  # fmt: skip
    expected |= {f"sim-noisy__simulated__pac__w{w}__seed{s}" for w in (4, 64) for s in (0, 1)}
    expected |= {f"sim-prerequisite__simulated__pac{tag}__seed{s}"
                 for tag in ("__w4", "", "__w64") for s in (0, 1)}  # fmt: skip
    assert names == expected
    info = json.loads(
        (out / "sim-prerequisite__simulated__pac__w64__seed1" / "run.json").read_text()
    )
    assert info["window"] == 64 and info["simulation"]["controller_overrides"] == {"window": 64}


def _log_mean(out, name: str, key: str, steps: int) -> float:
    lines = [json.loads(x) for x in (out / name / "metrics.jsonl").read_text().splitlines()]
    values = [line["data"][key] for line in lines if 1 <= line["step"] <= steps]
    assert len(values) == steps
    return float(np.mean(values))


def test_what_the_tour_prints_is_what_its_logs_say(tour, capsys):
    out, t = tour
    print_tour(t)
    text = flat(capsys.readouterr().out)
    runs = {r.name: r for r in load_runs([out])}

    def final(scenario, method, seeds=(0, 1)):
        vals = []
        for s in seeds:
            run = runs[f"sim-{scenario}__simulated__{method}__seed{s}"]
            step = run.val_steps()[-1]
            arms = run.val_sources()
            vals.append(np.mean([run.val_score(step, a) for a in arms]))
        return float(np.mean(vals))

    # A: the reference in the header and PAC's margins over its ablations, from the logs
    finals = {c: final("multi_level", c) for c in ALL}
    ref = max(("random", "sec", "dump"), key=lambda c: finals[c])
    assert f"first step >= {ref}'s final" in text
    for ablation in ("pac_no_adv", "pac_no_ts", "pac_no_prog"):
        assert f"({ablation}) {finals['pac'] - finals[ablation]:+.3f}" in text
    # B: the share of the batch spent on the noisy arm, from the logged curriculum/noisy/share
    share = {c: np.mean([_log_mean(out, f"sim-noisy__simulated__{c}__seed{s}",
                                   "curriculum/noisy/share", 20) for s in (0, 1)])
             for c in ("pac", "pac_no_prog", "random")}  # fmt: skip
    listed = ", ".join(f"{c} {100 * share[c]:.0f}%" for c in share)
    assert f"share on 'noisy': {listed}." in text
    noisy = {c: final("noisy", c) for c in ("pac", "pac_no_prog")}
    assert f"PAC minus pac_no_prog: {noisy['pac'] - noisy['pac_no_prog']:+.3f} final" in text
    # C: the window's effect, W = 4 against W = 64, on both scenarios
    moves = [f"{final(sc, 'pac__w64') - final(sc, 'pac__w4'):+.3f} on '{sc}'"
             for sc in ("noisy", "prerequisite")]  # fmt: skip
    assert f"PAC's final moves by {moves[0]} and {moves[1]}." in text


def test_simulate_without_a_scenario_is_the_tour(tmp_path, capsys):
    out = tmp_path / "sim"
    assert main(["--steps", "4", "--seeds", "1", "--batch-size", "8", "--out", str(out)]) == 0
    text = flat(capsys.readouterr().out)
    for part in ("A. multi_level", "B. noisy", "C. the history window W", "Look at:", "Measured:"):
        assert part in text
    assert len(list(out.glob("*/metrics.jsonl"))) == 7 + 7 + 2 + 3
    with pytest.raises(UserError, match=r"--set: the tour runs its own controllers and settings"):
        main(["--set", "cold_start=2", "--no-logs"])


def test_one_scenario_says_what_to_look_at_and_what_was_measured(capsys):
    assert main(["--scenario", "noisy", "--controllers", "pac,pac_no_prog,random", "--steps", "6",
                 "--seeds", "1", "--batch-size", "8", "--no-logs"]) == 0  # fmt: skip
    text = flat(capsys.readouterr().out)
    assert "Look at: 'noisy' has the largest |advantage|" in text
    assert "without the progress term (pac_no_prog)" in text
    assert "Speed-ups are against random (the best of random, sec and dump" in text

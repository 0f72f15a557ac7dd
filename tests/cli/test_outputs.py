"""Outputs never mix, and the small things a user notices: --force, interrupted simulations,
the user's umask, default output folders ignored by git, -V, help with every default."""

from __future__ import annotations

import argparse
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from command_helpers import PAC_VERL

from pac_verl.errors import UserError
from pac_verl.outputs import prepare_output_dir
from pac_verl.simulate.cli import main as simulate

REPO = Path(__file__).resolve().parents[2]
SMALL = ["--scenario", "mixed", "--seeds", "1", "--steps", "3", "--val-every", "1"]


def test_force_replaces_only_what_the_command_wrote(tmp_path):
    out = tmp_path / "out"
    (out / "old_run").mkdir(parents=True)
    (out / "old_run" / "run.json").write_text("{}")
    with pytest.raises(UserError, match=r"--out .* is not empty \(1 entries: old_run\).*--force"):
        prepare_output_dir(out, "--out", False, lambda p: (p / "run.json").is_file())
    prepare_output_dir(out, "--out", True, lambda p: (p / "run.json").is_file())
    assert list(out.iterdir()) == []
    (out / "notes.txt").write_text("mine")
    with pytest.raises(UserError, match=r"holds files this command did not write \(notes.txt\)"):
        prepare_output_dir(out, "--out", True, lambda p: (p / "run.json").is_file())
    assert (out / "notes.txt").read_text() == "mine"  # refused, and nothing removed


def test_a_second_simulation_needs_force_and_then_holds_only_its_own_runs(tmp_path):
    out = tmp_path / "sim"
    assert simulate([*SMALL, "--controllers", "pac,random", "--out", str(out)]) == 0
    with pytest.raises(UserError, match="is not empty"):
        simulate([*SMALL, "--controllers", "sec,random", "--out", str(out)])
    assert simulate([*SMALL, "--controllers", "sec,random", "--out", str(out), "--force"]) == 0
    runs = sorted(p.name for p in out.iterdir())
    assert runs == ["sim-mixed__simulated__random__seed0", "sim-mixed__simulated__sec__seed0"]


def test_an_interrupted_scenario_leaves_no_run_the_report_would_rank(tmp_path):
    from pac_verl.report.logs import load_runs

    out = tmp_path / "sim"
    # 7 controllers x 3 seeds of 4,000 steps (a scenario takes ~25 s on an idle core, so the
    # signal lands inside it even on a loaded machine): interrupted once the first run is written
    proc = subprocess.Popen([PAC_VERL, "simulate", "--steps", "4000", "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 240
    while not list(out.glob("*/run.json")) and proc.poll() is None:
        assert time.monotonic() < deadline, "no run was written"
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130 and "interrupted" in err, (proc.returncode, err)
    assert "Traceback" not in err
    written = list(out.glob("*/run.json"))
    assert 1 <= len(written) < 21  # half-done ...
    assert not list(out.glob("*/*.jsonl"))  # ... and no log the report reads
    with pytest.raises(UserError, match="no run logs found"):
        load_runs([out])


def test_parquet_files_get_the_users_umask(tmp_path):
    from pac_verl.data_prep.rows import make_row, write_parquet

    row = make_row(data_source="zebra", prompt="p", task_type="zebra", ground_truth="a",
                   split="train", index=0)  # fmt: skip
    old = os.umask(0o027)
    try:
        path = write_parquet([row], tmp_path / "t.parquet")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o640  # 0666 minus 027 (mkstemp alone gives 0600)


def test_default_output_folders_are_ignored_by_git():
    if not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    from pac_verl.quickstart import build_parser as quickstart_parser
    from pac_verl.simulate.cli import build_parser as simulate_parser

    defaults = [
        quickstart_parser().get_default("out"),
        simulate_parser().get_default("out"),
        "runs",  # pac.log_root in configs/pac_trainer.yaml
        "checkpoints",  # verl's trainer.default_local_dir
        "outputs",  # Hydra's run folder
    ]
    for folder in defaults:
        res = subprocess.run(["git", "check-ignore", "-q", f"{folder}/x"], cwd=REPO)
        assert res.returncode == 0, f"{folder}/ is not in .gitignore"


def test_version_short_and_long(capsys):
    from pac_verl import __version__
    from pac_verl.cli import main

    for flag in ("-V", "--version"):
        assert main([flag]) == 0
        assert capsys.readouterr().out.strip() == f"pac-verl {__version__}"


def _parsers() -> dict[str, argparse.ArgumentParser]:
    from pac_verl.checks.preflight import build_parser as preflight
    from pac_verl.data_prep.cli import build_parser as prep
    from pac_verl.quickstart import build_parser as quickstart
    from pac_verl.report.cli import build_parser as report
    from pac_verl.report.watch import build_parser as watch
    from pac_verl.simulate.cli import build_parser as simulate

    parsers = {"quickstart": quickstart(), "preflight": preflight(), "simulate": simulate(),
               "report": report(), "watch": watch()}  # fmt: skip
    sub = next(a for a in prep()._actions if isinstance(a, argparse._SubParsersAction))
    parsers.update({f"prep {name}": p for name, p in sub.choices.items()})
    return parsers


@pytest.mark.parametrize("name", list(_parsers()))
def test_every_option_has_help_that_shows_its_default(name):
    parser = _parsers()[name]
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction) or not action.option_strings:
            continue
        option = action.option_strings[-1]
        assert action.help, f"{name} {option} has no help"
        off = action.default is None or action.default is False or action.default in ([], "")
        if not off and action.default is not argparse.SUPPRESS:
            # the formatter appends "(default: X)" unless the help already states its default
            shown = parser._get_formatter()._get_help_string(action) % {"default": action.default}
            assert "default" in shown, f"{name} {option}: default not shown"


def test_a_weighted_progress_bar_advances_by_cost(capsys):
    # the multi-level build starts with its slowest shard: after it, the bar must say 75% (3 of
    # 4 cost units), not 50% (1 of 2 items), or its ETA would predict minutes for seconds of work
    from pac_verl.progress import progress

    seen = []
    for item in progress(["slow", "fast"], "build", weights=[3.0, 1.0], mininterval=0):
        seen.append(item)
        if item == "slow":
            shown = capsys.readouterr().err.replace("\r", "\n").splitlines()
            assert any("build:  75%" in line for line in shown), shown
    assert seen == ["slow", "fast"]

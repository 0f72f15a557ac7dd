"""The whole way a user goes, on the CPU: ``pac-verl prep toy``, a recipe that trains
two curricula with verl's real workers, the recipe again (each run is skipped, a changed config
refused, a stopped run resumed from its checkpoint), and ``pac-verl report runs/`` building the
toy table and drawing the figures from the logs the runs wrote.

Three steps per run (validation before training and at step 3), on a small toy dataset; what the
runs learn is measured by the full table (docs/results/miniature.md), not here.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.ray, pytest.mark.verl_line]  # verl_line: both lines

ROOT = Path(__file__).resolve().parents[2]
SHORT = ["setting.total_steps=3", "pac.allow_short_run=true", "trainer.save_freq=1"]
NAMES = ["toy__tiny-cpu__pac__seed0", "toy__tiny-cpu__random__seed0"]


def sh(cwd: Path, *args: str, dry: bool = False) -> subprocess.CompletedProcess:
    # a user's project home: prep writes its default folders there and the recipe reads them
    env = {**os.environ, "PYTHON": sys.executable, "DRY_RUN": "1" if dry else "0",
           "PAC_HOME": str(cwd)}  # fmt: skip
    return subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=900)  # fmt: skip


def recipe(cwd: Path, *overrides: str, dry: bool = False) -> subprocess.CompletedProcess:
    return sh(cwd, "bash", str(ROOT / "recipes" / "run.sh"), "toy", "tiny-cpu", "pac,random",
              *SHORT, *overrides, dry=dry)  # fmt: skip


def decisions(out: subprocess.CompletedProcess) -> list[str]:
    """The launcher's decisions (the runs' own output shares its stdout), without the absolute
    paths a launch or resume line ends with (``: data ..., logs ..., checkpoints ...``)."""
    words = ("launch ", "resume ", "skip ", "refuse ")
    return [line.split(": data ")[0] for line in out.stdout.splitlines() if line.startswith(words)]


@pytest.fixture(scope="module")
def trained(tmp_path_factory):
    cwd = tmp_path_factory.mktemp("pipeline")
    prep = sh(cwd, "pac-verl", "prep", "toy", "--train-per-arm", "24", "--val-per-arm", "4")
    assert prep.returncode == 0, prep.stderr
    first = recipe(cwd)
    assert first.returncode == 0, first.stdout[-3000:] + first.stderr[-3000:]
    return cwd, first


def test_the_recipe_launches_both_runs_and_each_validates_every_arm(trained):
    from pac_verl.report.logs import load_runs

    cwd, first = trained
    assert decisions(first) == [f"launch {n}" for n in NAMES]
    runs = {r.name: r for r in load_runs([cwd / "runs"])}
    assert sorted(runs) == NAMES
    arms = ["learn/1", "learn/2", "learn/3", "saturated", "unreachable", "noise"]
    for run in runs.values():
        assert run.val_steps() == [0, 3]  # before training and at the last step
        assert run.val_sources() == sorted(f"toy/{a}" for a in arms)
        assert run.steps[3]["actor/grad_norm"] > 0


def test_the_recipe_again_skips_refuses_and_resumes(trained):
    cwd, _ = trained
    again = recipe(cwd)
    assert again.returncode == 0 and decisions(again) == [f"skip {n} (complete)" for n in NAMES]
    changed = recipe(cwd, "actor_rollout_ref.actor.optim.lr=0.002", dry=True)
    assert changed.returncode == 2 and len(decisions(changed)) == 2
    assert all(line.startswith("refuse ") and "optim.lr: 0.01 -> 0.002" in line
               for line in decisions(changed))  # fmt: skip
    # a run stopped after step 2: verl's tracker says 2, the step-3 checkpoint is gone
    ckpt = cwd / "checkpoints" / "pac-verl" / NAMES[1]
    shutil.rmtree(ckpt / "global_step_3")
    (ckpt / "latest_checkpointed_iteration.txt").write_text("2")
    resumed = recipe(cwd)
    assert resumed.returncode == 0, resumed.stdout[-3000:] + resumed.stderr[-3000:]
    assert decisions(resumed) == [f"skip {NAMES[0]} (complete)", f"resume {NAMES[1]} (step 2 of 3)"]
    assert (ckpt / "latest_checkpointed_iteration.txt").read_text().strip() == "3"


def test_the_report_builds_the_toy_table_and_draws_the_figures(trained):
    cwd, _ = trained
    out = sh(cwd, "pac-verl", "report", "runs/", "--figures", "figures", "--heatmap-window", "1")
    assert out.returncode == 0, out.stderr
    text = out.stdout
    assert "The miniature: final validation per toy arm" in text and "tiny-cpu: step 3" in text
    table = text[: text.index("Budget")]
    for label in ("Random", "Ours (PAC)"):
        row = next(line for line in table.splitlines() if line.startswith(f"| {label} "))
        cells = row.strip("| ").split(" | ")[1:]
        assert len(cells) == 7 and all(c.replace("*", "")[0].isdigit() for c in cells), row
    assert "Sample efficiency, tiny-cpu" in text
    assert "Incomplete runs" not in text
    figures = sorted(p.name for p in (cwd / "figures").iterdir())
    assert figures == [
        "curriculum__toy__tiny-cpu__pac.png",
        "curriculum__toy__tiny-cpu__random.png",
        "validation__toy__tiny-cpu.png",
    ]

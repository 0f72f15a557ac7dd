"""The whole way a user goes, on the CPU: ``pac-verl prep toy``; a recipe that trains two
curricula with verl's real workers, stopped by Ctrl-C while its second run saves step 2; the
recipe again (the stopped run resumed from its last whole checkpoint, the finished one skipped),
again (both skipped, a changed config refused); and ``pac-verl report runs/`` building the toy
table and drawing the figures from the logs the runs wrote.

Ctrl-C is sent the way a terminal sends it: SIGINT to the whole foreground process group (``bash
recipes/run.sh``, the launcher, the training run and whatever Ray started in that group). The
recipe stops within a bound with exit 130 and one line naming the interrupt (no traceback),
nothing the run started is left running and no half-written checkpoint is left. The handlers
themselves are tested one by one in tests/cli/test_run_stops.py
(docs/guides/shorten-clean-retry.md).

Three steps per run (validation before training and at step 3), on a small toy dataset; what the
runs learn is measured by the full table (docs/results/miniature.md), not here.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import pytest

# a training run beside the suite and the other lanes on 2 cores: past 600 s only when loaded
pytestmark = [
    pytest.mark.slow,
    pytest.mark.ray,
    pytest.mark.verl_line,  # both lines
    pytest.mark.timeout(1200),
]

ROOT = Path(__file__).resolve().parents[2]
SHORT = ["setting.total_steps=3", "pac.allow_short_run=true", "trainer.save_freq=1"]
NAMES = ["toy__tiny-cpu__pac__seed0", "toy__tiny-cpu__random__seed0"]
START_S = 600.0  # until the second run saves step 2 (two Ray starts and five steps, loaded CPU)
STOP_S = 120.0  # from Ctrl-C to the recipe's exit


def env_for(home: Path, dry: bool = False) -> dict[str, str]:
    # a user's project home: prep writes its default folders there and the recipe reads them
    return {**os.environ, "PYTHON": sys.executable, "DRY_RUN": "1" if dry else "0",
            "PAC_HOME": str(home)}  # fmt: skip


def sh(cwd: Path, *args: str, dry: bool = False) -> subprocess.CompletedProcess:
    return subprocess.run(list(args), cwd=cwd, env=env_for(cwd, dry), capture_output=True,
                          text=True, timeout=900)  # fmt: skip


def recipe_cmd(*overrides: str) -> list[str]:
    return ["bash", str(ROOT / "recipes" / "run.sh"), "toy", "tiny-cpu", "pac,random", *SHORT,
            *overrides]  # fmt: skip


def recipe(cwd: Path, *overrides: str, dry: bool = False) -> subprocess.CompletedProcess:
    return sh(cwd, *recipe_cmd(*overrides), dry=dry)


def decisions(out: subprocess.CompletedProcess | str) -> list[str]:
    """The launcher's decisions (the runs' own output shares its stdout), without the absolute
    paths a launch or resume line ends with (``: data ..., logs ..., checkpoints ...``)."""
    text = out if isinstance(out, str) else out.stdout
    words = ("launch ", "resume ", "skip ", "refuse ")
    return [line.split(": data ")[0] for line in text.splitlines() if line.startswith(words)]


def ours(home: Path, pgid: int) -> list[str]:
    """Processes still alive that this recipe started: in its process group, or carrying its
    ``PAC_HOME`` in their environment (every child inherits it, Ray's daemons and workers too,
    even one that left the group). Other test runs' Ray clusters have another home."""
    mark = f"PAC_HOME={home}".encode()
    found = []
    for proc in Path("/proc").iterdir():
        if not proc.name.isdigit() or int(proc.name) == os.getpid():
            continue
        try:
            stat = (proc / "stat").read_text()
            fields = stat[stat.rindex(")") + 2 :].split()
            state, group = fields[0], int(fields[2])
            environ = (proc / "environ").read_bytes()
            cmdline = (proc / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except (OSError, ValueError):
            continue  # gone meanwhile, or not ours to read
        if state == "Z":
            continue  # exited, waiting for its parent to reap it
        if group == pgid or mark in environ.split(b"\0"):
            found.append(f"{proc.name}: {cmdline[:200]}")
    return found


def checkpointed(ckpt: Path) -> int:
    try:
        return int((ckpt / "latest_checkpointed_iteration.txt").read_text().strip() or 0)
    except (OSError, ValueError):
        return 0


@dataclass
class Stopped:
    """The first recipe run, stopped by Ctrl-C: what it printed and left behind."""

    home: Path
    code: int
    stdout: str
    stderr: str
    running_at_stop: list[str]  # the recipe's processes when Ctrl-C was pressed
    left: list[str]  # its processes still alive after it exited

    def output(self) -> str:
        return f"stdout:\n{self.stdout[-3000:]}\nstderr:\n{self.stderr[-3000:]}"


@pytest.fixture(scope="module")
def stopped(tmp_path_factory) -> Stopped:
    home = tmp_path_factory.mktemp("pipeline")
    prep = sh(home, "pac-verl", "prep", "toy", "--train-per-arm", "24", "--val-per-arm", "4")
    assert prep.returncode == 0, prep.stderr
    ckpt = home / "checkpoints" / "pac-verl" / NAMES[1]
    out_path, err_path = home / "recipe.out", home / "recipe.err"
    with out_path.open("w") as out, err_path.open("w") as err:
        proc = subprocess.Popen(recipe_cmd(), cwd=home, env=env_for(home), stdout=out,
                                stderr=err, start_new_session=True)  # fmt: skip
    pgid = proc.pid  # its own session: a group of its own, as a terminal's foreground job

    def output() -> str:
        return f"stdout:\n{out_path.read_text()[-3000:]}\nstderr:\n{err_path.read_text()[-3000:]}"

    try:
        # Ctrl-C as the second run's step-2 checkpoint is being written: the first run finished,
        # the second trained and saved step 1, and the save in progress is the half-written
        # folder a later command must not find
        deadline = time.monotonic() + START_S
        while not (ckpt / "global_step_2").exists():
            if proc.poll() is not None:
                pytest.fail(f"the recipe exited ({proc.returncode}) before step 2\n{output()}")
            if time.monotonic() > deadline:
                pytest.fail(f"the second run saved no step 2 within {START_S:.0f} s\n{output()}")
            time.sleep(0.02)
        running = ours(home, pgid)
        os.killpg(pgid, signal.SIGINT)  # Ctrl-C
        try:
            code = proc.wait(timeout=STOP_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {STOP_S:.0f} s after Ctrl-C\n{output()}")
    finally:
        if proc.poll() is None:
            os.killpg(pgid, signal.SIGKILL)
            proc.wait()
    # a moment for their exits: Ray's agents leave once they see the raylet gone, which took
    # over 10 s on 2 loaded cores (ray::RuntimeEnvAgent, CI of 2561f08)
    left = ours(home, pgid)
    for _ in range(60):
        if not left:
            break
        time.sleep(0.5)
        left = ours(home, pgid)
    return Stopped(home, code, out_path.read_text(), err_path.read_text(), running, left)


def test_the_recipe_launches_both_runs_and_the_first_validates_every_arm(stopped):
    from pac_verl.report.logs import load_runs

    assert decisions(stopped.stdout) == [f"launch {n}" for n in NAMES], stopped.output()
    runs = {r.name: r for r in load_runs([stopped.home / "runs"])}
    first = runs[NAMES[0]]
    assert first.val_steps() == [0, 3]  # before training and at the last step
    arms = ["learn/1", "learn/2", "learn/3", "saturated", "unreachable", "noise"]
    assert first.val_sources() == sorted(f"toy/{a}" for a in arms)
    assert first.steps[3]["actor/grad_norm"] > 0


def test_ctrl_c_stops_the_recipe_in_one_line_and_leaves_nothing_running_or_half_written(stopped):
    # the check of what is left sees Ray's own processes while the run trains
    running = stopped.running_at_stop
    assert any("raylet" in p for p in running) and any("gcs_server" in p for p in running), running
    assert stopped.code == 130, f"exit {stopped.code}\n{stopped.output()}"
    assert "Traceback" not in stopped.stderr and "KeyboardInterrupt" not in stopped.stderr
    named = [line for line in stopped.stderr.splitlines() if "interrupted (Ctrl-C)" in line]
    assert named and named[0].startswith("pac_verl.main: interrupted (Ctrl-C)"), stopped.output()
    assert not stopped.left, "still running after the recipe exited:\n" + "\n".join(stopped.left)
    # nothing half-written: every checkpoint folder is one verl's tracker vouches for
    ckpt = stopped.home / "checkpoints" / "pac-verl" / NAMES[1]
    step = checkpointed(ckpt)
    steps = sorted(int(p.name.split("_")[-1]) for p in ckpt.glob("global_step_*"))
    assert step >= 1 and steps and max(steps) == step, (step, steps)
    for metrics in (stopped.home / "runs" / NAMES[1]).glob("metrics-*.jsonl"):  # every line whole
        for line in metrics.read_text().splitlines():
            json.loads(line)
    json.loads((stopped.home / "runs" / NAMES[1] / "run.json").read_text())


def test_the_recipe_again_resumes_the_stopped_run_then_skips_and_refuses(stopped):
    from pac_verl.report.logs import load_runs

    cwd = stopped.home
    ckpt = cwd / "checkpoints" / "pac-verl" / NAMES[1]
    step = checkpointed(ckpt)
    resumed = recipe(cwd)
    assert resumed.returncode == 0, resumed.stdout[-3000:] + resumed.stderr[-3000:]
    assert decisions(resumed) == [f"skip {NAMES[0]} (complete)",
                                  f"resume {NAMES[1]} (step {step} of 3)"]  # fmt: skip
    assert checkpointed(ckpt) == 3
    second = {r.name: r for r in load_runs([cwd / "runs"])}[NAMES[1]]
    assert second.val_steps()[-1] == 3 and second.steps[3]["actor/grad_norm"] > 0
    again = recipe(cwd)
    assert again.returncode == 0 and decisions(again) == [f"skip {n} (complete)" for n in NAMES]
    changed = recipe(cwd, "actor_rollout_ref.actor.optim.lr=0.002", dry=True)
    assert changed.returncode == 2 and len(decisions(changed)) == 2
    assert all(line.startswith("refuse ") and "optim.lr: 0.01 -> 0.002" in line
               for line in decisions(changed))  # fmt: skip


def test_the_report_builds_the_toy_table_and_draws_the_figures(stopped):
    cwd = stopped.home
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

"""Ctrl-C on a recipe, the way a terminal sends it: SIGINT to the whole foreground process group
(``bash recipes/run.sh``, the launcher, the training run and whatever Ray started in that group)
while the toy run is saving its second step. The recipe stops within a bound with exit 130 and one line naming
the interrupt (no traceback), nothing the run started is left running, no half-written checkpoint
is left, and the same recipe run again decides sensibly: it resumes from the last checkpoint.

The handlers themselves are tested one by one in tests/cli/test_run_stops.py; this drives the
real command end to end (docs/guides/shorten-clean-retry.md).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [pytest.mark.slow, pytest.mark.ray]

ROOT = Path(__file__).resolve().parents[2]
NAME = "toy__tiny-cpu__pac__seed0"
# long enough to be still training when interrupted; a checkpoint every step, no validation
RUN = ["setting.total_steps=20", "pac.allow_short_run=true", "trainer.save_freq=1",
       "trainer.val_before_train=false", "trainer.test_freq=100"]  # fmt: skip
START_S = 300.0  # until the first checkpoint (Ray's start and one step on a loaded CPU)
STOP_S = 120.0  # from Ctrl-C to the recipe's exit


def env_for(home: Path, dry: bool = False) -> dict[str, str]:
    return {**os.environ, "PYTHON": sys.executable, "DRY_RUN": "1" if dry else "0",
            "PAC_HOME": str(home)}  # fmt: skip


def recipe_cmd() -> list[str]:
    return ["bash", str(ROOT / "recipes" / "run.sh"), "toy", "tiny-cpu", "pac", *RUN]


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


def test_ctrl_c_on_a_recipe_stops_everything_in_one_line_and_the_recipe_resumes(tmp_path):
    home = tmp_path
    prep = subprocess.run(["pac-verl", "prep", "toy", "--train-per-arm", "12", "--val-per-arm",
                           "2"], cwd=home, env=env_for(home), capture_output=True, text=True,
                          timeout=600)  # fmt: skip
    assert prep.returncode == 0, prep.stdout[-2000:] + prep.stderr[-2000:]

    ckpt = home / "checkpoints" / "pac-verl" / NAME
    out_path, err_path = home / "recipe.out", home / "recipe.err"
    with out_path.open("w") as out, err_path.open("w") as err:
        proc = subprocess.Popen(recipe_cmd(), cwd=home, env=env_for(home), stdout=out,
                                stderr=err, start_new_session=True)  # fmt: skip
    pgid = proc.pid  # its own session: a group of its own, as a terminal's foreground job

    def output() -> str:
        return f"stdout:\n{out_path.read_text()[-3000:]}\nstderr:\n{err_path.read_text()[-3000:]}"

    try:
        # Ctrl-C as step 2's checkpoint is being written: step 1 trained and saved, and the
        # save in progress is the half-written folder a later command must not find
        deadline = time.monotonic() + START_S
        while not (ckpt / "global_step_2").exists():
            if proc.poll() is not None:
                pytest.fail(f"the recipe exited ({proc.returncode}) before training\n{output()}")
            if time.monotonic() > deadline:
                pytest.fail(f"no second step within {START_S:.0f} s\n{output()}")
            time.sleep(0.02)

        running = ours(home, pgid)  # the check below sees Ray's own processes
        assert any("raylet" in p for p in running) and any("gcs_server" in p for p in running), (
            "\n".join(running)
        )
        os.killpg(pgid, signal.SIGINT)  # Ctrl-C
        pressed = time.monotonic()
        try:
            code = proc.wait(timeout=STOP_S)
        except subprocess.TimeoutExpired:
            pytest.fail(f"still running {STOP_S:.0f} s after Ctrl-C\n{output()}")
        took = time.monotonic() - pressed
    finally:
        if proc.poll() is None:
            os.killpg(pgid, signal.SIGKILL)
            proc.wait()

    print(f"the recipe stopped {took:.1f} s after Ctrl-C")
    stderr = err_path.read_text()
    assert code == 130, f"exit {code} after {took:.0f} s\n{output()}"
    assert "Traceback" not in stderr and "KeyboardInterrupt" not in stderr, output()
    named = [line for line in stderr.splitlines() if "interrupted (Ctrl-C)" in line]
    assert named and named[0].startswith("pac_verl.main: interrupted (Ctrl-C)"), output()

    # nothing the run started survives it (a moment for the kernel to finish their exits)
    left = ours(home, pgid)
    for _ in range(20):
        if not left:
            break
        time.sleep(0.5)
        left = ours(home, pgid)
    assert not left, "still running after the recipe exited:\n" + "\n".join(left)

    # nothing half-written: every checkpoint folder is one verl's tracker vouches for
    step = checkpointed(ckpt)
    steps = sorted(int(p.name.split("_")[-1]) for p in ckpt.glob("global_step_*"))
    assert step >= 1 and steps and max(steps) == step, (step, steps)
    run_dir = home / "runs" / NAME
    for metrics in run_dir.glob("metrics-*.jsonl"):  # every line whole
        for line in metrics.read_text().splitlines():
            json.loads(line)
    json.loads((run_dir / "run.json").read_text())

    # the same recipe again: resume from that checkpoint, not a refusal or a crash
    again = subprocess.run(recipe_cmd(), cwd=home, env=env_for(home, dry=True),
                           capture_output=True, text=True, timeout=300)  # fmt: skip
    assert again.returncode == 0, again.stdout[-2000:] + again.stderr[-2000:]
    lines = [line for line in again.stdout.splitlines() if line.startswith(("launch ", "resume ",
             "skip ", "refuse "))]  # fmt: skip
    assert [line.split(": data ")[0] for line in lines] == [f"resume {NAME} (step {step} of 20)"]

"""``pac-verl report`` marks the runs too short for their curriculum to act (steps not beyond
PAC's cold start or its trend fit): their allocations were Random's, so the table ranks them by
noise. The user's case: the toy recipe shortened to 3 steps, its cold start also 3."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

ARMS = ("learn/1", "learn/2", "learn/3", "saturated", "unreachable", "noise")


def toy_run(root: Path, curriculum: str, steps: int, cold_start: int | None) -> None:
    """A toy run folder as the driver leaves it: run.json with its config, validation at the end."""
    name = f"toy__tiny-cpu__{curriculum}__seed0"
    folder = root / name
    folder.mkdir(parents=True)
    cur = {"name": curriculum, "seed": 0}
    if cold_start is not None:
        cur.update(cold_start=cold_start, min_trend_points=3, window=16)
    config = {"curriculum": cur, "trainer": {"experiment_name": name,
                                             "total_training_steps": steps}}  # fmt: skip
    (folder / "run.json").write_text(json.dumps({
        "experiment_name": name, "setting": "toy", "backbone": "tiny-cpu",
        "curriculum": curriculum, "seed": 0, "window": None, "total_steps": steps,
        "config": config}))  # fmt: skip
    data = {f"val-core/toy/{a}/acc/mean@1": 0.5 for a in ARMS}
    (folder / "metrics-20261101T000000Z.jsonl").write_text(
        json.dumps({"step": steps, "data": data}) + "\n"
    )


def report(*args: str) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).parent / "pac-verl"
    return subprocess.run([str(exe), "report", *args], capture_output=True, text=True,
                          timeout=300, env=dict(os.environ))  # fmt: skip


def test_a_pac_run_no_longer_than_its_cold_start_is_marked(tmp_path):
    for name in ("pac", "pac_no_ts"):
        toy_run(tmp_path, name, steps=3, cold_start=3)
    toy_run(tmp_path, "random", steps=3, cold_start=None)
    res = report(str(tmp_path))
    assert res.returncode == 0, res.stderr
    _, _, rest = res.stdout.partition("Too short for their curriculum")
    assert rest, res.stdout
    marked = [ln for ln in rest.splitlines() if ln.startswith("- ")][:2]
    assert [m.split(":")[0] for m in marked] == ["- toy__tiny-cpu__pac__seed0",
                                                 "- toy__tiny-cpu__pac_no_ts__seed0"]  # fmt: skip
    assert "does not exceed curriculum.cold_start=3" in marked[0]
    assert "random__seed0" not in rest.split("###")[0]  # Random has nothing to be short of


def test_a_run_past_its_cold_start_is_not_marked(tmp_path):
    toy_run(tmp_path, "pac", steps=30, cold_start=3)
    res = report(str(tmp_path))
    assert res.returncode == 0 and "Too short" not in res.stdout, res.stdout + res.stderr

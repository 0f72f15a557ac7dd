"""A run that failed before its first step leaves a ``run.json`` (the driver writes it before Ray
starts); it must not block its own correction. The recipe launches the corrected run and says it
replaces that record; a run that did train a step and changed its config is refused with the
folders to remove to start afresh (docs/guides/shorten-clean-retry.md)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from pac_verl.compose import compose_config
from pac_verl.run_logs import ENV, prepare_run_logs

ROOT = Path(__file__).resolve().parents[2]
NAME = "multi_level__qwen2.5-3b__pac__seed0"


@pytest.fixture
def home(tiny_multi_level, tmp_path, monkeypatch):
    monkeypatch.setenv("PAC_HOME", str(tmp_path))
    monkeypatch.delenv(ENV, raising=False)
    shutil.copytree(tiny_multi_level, tmp_path / "data" / "multi_level")
    return tmp_path


def recipe(home: Path, *overrides: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PAC_HOME": str(home), "DRY_RUN": "1", "PYTHON": sys.executable}
    return subprocess.run(["bash", str(ROOT / "recipes" / "multi_level.sh"), "qwen2.5-3b", "pac",
                           *overrides], cwd=home, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def driver_attempt(*overrides: str) -> Path:
    """What ``python -m pac_verl.main`` writes before Ray starts (its run.json), and no more."""
    return prepare_run_logs(compose_config(list(overrides)), argv=["main", *overrides])


def test_a_run_that_stopped_before_its_first_step_does_not_block_its_correction(home):
    driver_attempt("actor_rollout_ref.actor.optim.lr=1e-3")  # verl died before step 1
    res = recipe(home, "actor_rollout_ref.actor.optim.lr=1e-6")
    assert res.returncode == 0, res.stdout + res.stderr
    [line] = [ln for ln in res.stdout.splitlines() if ln.startswith(("launch", "refuse"))]
    run_json = home / "runs" / NAME / "run.json"
    assert line.startswith(f"launch {NAME} (replaces {run_json}: its attempt stopped before its "
                           "first step)")  # fmt: skip
    # the driver agrees: the corrected attempt replaces the record instead of adding to it
    driver_attempt("actor_rollout_ref.actor.optim.lr=1e-6")
    record = json.loads(run_json.read_text())
    assert record["config"]["actor_rollout_ref"]["actor"]["optim"]["lr"] == 1e-6
    assert len(record["attempts"]) == 1


def test_a_run_that_trained_says_exactly_what_to_remove(home):
    metrics = driver_attempt()
    metrics.write_text('{"step": 1, "data": {"x": 1.0}}\n')  # it trained a step
    res = recipe(home, "actor_rollout_ref.actor.optim.lr=2e-6")
    assert res.returncode == 2 and "Traceback" not in res.stderr
    [line] = [ln for ln in res.stdout.splitlines() if ln.startswith("refuse")]
    run_dir, ckpt = home / "runs" / NAME, home / "checkpoints" / "pac-verl" / NAME
    assert f"to start it afresh, remove {run_dir} and {ckpt}" in line
    assert "docs/guides/shorten-clean-retry.md" in line
    shutil.rmtree(run_dir)  # what the line says, and nothing else
    res = recipe(home, "actor_rollout_ref.actor.optim.lr=2e-6")
    assert res.returncode == 0 and f"launch {NAME}" in res.stdout, res.stderr

"""One rule for relative paths: ``pac-verl prep --out`` (and ``--model-out``) is taken from the
project home, where training reads ``setting.data_dir``, not from the current folder; the user's
build went to the current folder while the recipe read the checkout's."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from command_helpers import BIN

ROOT = Path(__file__).resolve().parents[2]


def run(cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PAC_HOME": str(home), "DRY_RUN": "1", "PYTHON": sys.executable}
    return subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def test_a_relative_out_is_taken_from_the_project_home_as_training_reads_it(tmp_path):
    home, elsewhere = tmp_path / "home", tmp_path / "elsewhere"
    home.mkdir()
    elsewhere.mkdir()
    res = run(elsewhere, home, str(BIN / "pac-verl"), "prep", "toy", "--out", "mine/toy",
              "--model-out", "mine/model", "--train-per-arm", "2", "--val-per-arm", "1")  # fmt: skip
    assert res.returncode == 0, res.stderr
    assert (home / "mine" / "toy" / "train.parquet").is_file()
    assert (home / "mine" / "model" / "config.json").is_file()
    assert list(elsewhere.iterdir()) == []  # nothing in the current folder
    assert f"--out mine/toy is taken from the project home: {home}/mine/toy" in res.stderr
    # the recipe, from the same folder, reads the same place with the same relative path
    res = run(elsewhere, home, "bash", str(ROOT / "recipes" / "run.sh"), "toy", "tiny-cpu",
              "random", "setting.data_dir=mine/toy", "actor_rollout_ref.model.path=mine/model")  # fmt: skip
    assert res.returncode == 0, res.stdout + res.stderr
    assert f"data {home}/mine/toy/{{train.parquet,val.parquet}}" in res.stdout

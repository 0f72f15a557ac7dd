"""The config's numbers are checked once (:func:`pac_verl.compose.check_numbers`), before anything
starts, by every command that takes a config: ``pac-verl plan``, ``pac-verl preflight``,
``pac-verl smoke``, a recipe (also under ``DRY_RUN=1``) and ``python -m pac_verl.main``. Each
refusal is one line on stderr naming the key, exit status 2, no traceback. A run that does not
outlast PAC's cold start (or its trend fit) is refused unless ``pac.allow_short_run=true``
(docs/guides/shorten-clean-retry.md)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from command_helpers import BIN, assert_one_line

from pac_verl.compose import compose_config
from pac_verl.curriculum.config import short_run_reason
from pac_verl.errors import UserError

ROOT = Path(__file__).resolve().parents[2]
TOY = ["setting=toy", "backbone=tiny-cpu"]


def run(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PAC_HOME": str(cwd), "DRY_RUN": "1", "PYTHON": sys.executable,
           "PATH": f"{BIN}{os.pathsep}{os.environ.get('PATH', '')}"}  # fmt: skip
    return subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def commands(overrides: list[str]) -> dict[str, list[str]]:
    """Every way a user hands the same overrides to the project (setting, backbone first)."""
    setting, backbone, *rest = overrides
    return {
        "plan": ["pac-verl", "plan", *overrides],
        "preflight": ["pac-verl", "preflight", *overrides],
        "smoke": ["pac-verl", "smoke", *rest],  # the smoke fixes the setting and backbone itself
        "recipe": [
            "bash",
            str(ROOT / "recipes" / "run.sh"),
            setting.split("=")[1],
            backbone.split("=")[1],
            "pac",
            *rest,
        ],
        "main": [sys.executable, "-m", "pac_verl.main", *overrides],
    }


@pytest.mark.parametrize("command", ["plan", "preflight", "smoke", "recipe", "main"])
def test_a_negative_batch_is_one_line_from_every_command(tmp_path, command):
    cmd = commands([*TOY, "data.train_batch_size=-4"])[command]
    res = run(tmp_path, *cmd)
    assert_one_line(res, "data.train_batch_size must be >= 1, got -4")
    assert not (tmp_path / "runs").exists()  # nothing written: no run.json to block the retry


@pytest.mark.parametrize("command", ["plan", "preflight", "recipe", "main"])
def test_a_run_no_longer_than_the_cold_start_is_refused_everywhere(tmp_path, command):
    # the user's case: the toy recipe shortened to 3 steps, its cold start also 3
    cmd = commands([*TOY, "trainer.total_training_steps=3"])[command]
    res = run(tmp_path, *cmd)
    assert_one_line(res, "trainer.total_training_steps=3 does not exceed curriculum.cold_start=3",
                    "pac.allow_short_run=true", "docs/guides/shorten-clean-retry.md")  # fmt: skip


def test_the_explicit_key_lets_a_short_run_through(tmp_path):
    res = run(tmp_path, sys.executable, "-m", "pac_verl.main", *TOY,
              "trainer.total_training_steps=3", "pac.allow_short_run=true", "--cfg", "job")  # fmt: skip
    assert res.returncode == 0, res.stderr[-2000:]
    assert "allow_short_run: true" in res.stdout


@pytest.mark.parametrize(("overrides", "named"), [
    (["trainer.total_training_steps=3"], "does not exceed curriculum.cold_start=3"),
    (["trainer.total_training_steps=3", "curriculum.cold_start=0"],
     "does not exceed curriculum.min_trend_points=3"),
    (["curriculum=pac_no_ts", "trainer.total_training_steps=2"], "curriculum.cold_start=3"),
    (["data.train_batch_size=3", "trainer.n_gpus_per_node=8", "actor_rollout_ref.rollout.n=1"],
     "3 responses per step do not split over 8 GPU(s)"),
    (["actor_rollout_ref.actor.ppo_mini_batch_size=24"],
     "ppo_mini_batch_size=24 is larger than data.train_batch_size=12"),
    (["actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=7"],
     "not a multiple of actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=7"),
    (["actor_rollout_ref.rollout.n=0"], "actor_rollout_ref.rollout.n must be >= 1, got 0"),
    (["pac.keep_checkpoints=0"], "pac.keep_checkpoints must be >= 1"),
])  # fmt: skip
def test_each_impossible_number_names_its_key(overrides, named):
    with pytest.raises(UserError, match=None) as err:
        compose_config([*TOY, *overrides])
    assert named in str(err.value)


def test_curricula_without_a_cold_start_may_run_a_few_steps():
    for name in ("random", "sec", "dump"):
        compose_config([*TOY, f"curriculum={name}", "trainer.total_training_steps=2"])
    assert short_run_reason(4, {"name": "pac", "cold_start": 3, "min_trend_points": 3}) is None
    assert short_run_reason(None, {"name": "pac", "cold_start": 3}) is None  # verl derives it


def test_the_shipped_settings_pass():
    for setting in ("multi_level", "multi_domain", "toy"):
        compose_config([f"setting={setting}"])

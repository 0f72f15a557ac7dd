"""Every command that takes Hydra overrides answers a mistake in them with the one check of
:func:`pac_verl.compose.compose_config`: one line with "did you mean", exit status 2, no
traceback, before anything is built. ``pac-verl smoke`` used to answer with Hydra's and verl's
tracebacks; options placed between overrides used to get a misleading argparse error."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest
from command_helpers import BIN, assert_one_line


def pac_verl(cwd: Path, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PAC_HOME": str(cwd)}
    return subprocess.run([str(BIN / "pac-verl"), *args], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip


@pytest.mark.parametrize(("override", "named"), [
    ("curriculum.cold_strat=1", "(did you mean curriculum.cold_start?)"),
    ("+curriculum.cold_strat=1", "(did you mean curriculum.cold_start?)"),
    ("curriculum=pacc", "curriculum=pacc: no such curriculum (did you mean curriculum=pac?)"),
    ("data.train_batch_size=-4", "data.train_batch_size must be >= 1, got -4"),
    ("curriculum=single", "e.g. curriculum.train_arms=[toy/learn/1]"),
])  # fmt: skip
def test_smoke_answers_an_override_mistake_in_one_line(tmp_path, override, named):
    res = pac_verl(tmp_path, "smoke", "--out", str(tmp_path / "s"), override)
    assert_one_line(res, named)
    assert not (tmp_path / "s" / "model").exists()  # refused before the model was built


def test_smoke_refuses_the_example_of_another_setting_naming_the_toy_arms(tmp_path):
    # curriculum=single's message elsewhere suggests train_arms=[countdown], a multi-level arm
    res = pac_verl(tmp_path, "smoke", "curriculum=single", "curriculum.train_arms=[countdown]")
    assert_one_line(res, "unknown arm 'countdown'", "curriculum.train_arms=[toy/learn/1]")


def test_smoke_gpu_refuses_overrides_in_one_line(tmp_path):
    res = pac_verl(tmp_path, "smoke", "--gpu", "curriculum=sec")
    assert_one_line(res, "smoke --gpu takes no Hydra overrides")


@pytest.mark.parametrize("command", [
    ["plan", "curriculum.cold_strat=1", "--gpu-gib", "40", "curriculum.seed=1"],
    ["preflight", "curriculum.cold_strat=1", "--batches", "2", "curriculum.seed=1"],
    ["smoke", "curriculum.cold_strat=1", "--steps", "2", "curriculum.seed=1"],
])  # fmt: skip
def test_an_option_between_overrides_is_read_as_an_option(tmp_path, command):
    # argparse used to stop the overrides at the option and call the rest unrecognized
    res = pac_verl(tmp_path, *command)
    assert_one_line(res, "(did you mean curriculum.cold_start?)")

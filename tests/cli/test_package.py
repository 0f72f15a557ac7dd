"""The installable package: import names, console command, experiment naming, row schema."""

import subprocess
import sys
from pathlib import Path

import pytest

from pac_verl.data_prep.rows import make_row, read_rows, validate_row, write_parquet
from pac_verl.errors import UserError
from pac_verl.naming import RunKey, experiment_name, parse_experiment_name

REPO = Path(__file__).resolve().parents[2]


def test_verifiers_and_data_prep_live_under_pac_verl(tmp_path):
    # Outside the repository, the top-level names `verifiers` / `data_prep` are not ours.
    code = (
        "import importlib.util, pac_verl.verifiers, pac_verl.data_prep, pac_verl.configs;"
        "assert importlib.util.find_spec('data_prep') is None;"
        "s = importlib.util.find_spec('verifiers');"
        "assert s is None or 'pac' not in (s.origin or '') + str(s.submodule_search_locations)"
    )
    subprocess.run([sys.executable, "-c", code], cwd=tmp_path, check=True)


def test_console_command_help_lists_every_subcommand():
    out = subprocess.run(["pac-verl", "--help"], capture_output=True, text=True, check=True).stdout
    for name in ("quickstart", "prep", "preflight", "simulate", "report"):
        assert f"  {name}" in out


def test_unknown_subcommand_is_a_clear_error():
    res = subprocess.run(["pac-verl", "trian"], capture_output=True, text=True)
    assert res.returncode == 2
    assert "unknown command 'trian'" in res.stderr
    assert "Traceback" not in res.stderr


def test_experiment_name_round_trip_and_default_window_is_implicit():
    assert (
        experiment_name("multi_level", "qwen2.5-3b", "pac", 0)
        == "multi_level__qwen2.5-3b__pac__seed0"
    )
    assert (
        experiment_name("multi_level", "qwen2.5-3b", "pac", 0, window=16)
        == "multi_level__qwen2.5-3b__pac__seed0"
    )
    name = experiment_name("multi_domain", "qwen2.5-7b", "pac", 2, window=32)
    assert name == "multi_domain__qwen2.5-7b__pac__w32__seed2"
    assert parse_experiment_name(name) == RunKey("multi_domain", "qwen2.5-7b", "pac", 2, 32)
    assert parse_experiment_name(name).method == "pac@w32"
    with pytest.raises(UserError, match="is not <setting>"):
        parse_experiment_name("my-run")


def test_rows_round_trip_and_malformed_rows_name_the_field(tmp_path):
    row = make_row(
        data_source="countdown",
        prompt="Using the numbers ...",
        task_type="countdown",
        ground_truth={"target": 30, "numbers": [21, 95, 8, 2, 26, 2]},
        split="train",
        index=7,
        difficulty=2,
    )
    assert row["reward_model"]["ground_truth"] == '{"numbers":[21,95,8,2,26,2],"target":30}'
    assert row["ability"] == "reasoning"
    path = write_parquet([row], tmp_path / "d" / "train.parquet")
    assert list(tmp_path.joinpath("d").iterdir()) == [path]  # no temporary file left behind
    back = read_rows(path)[0]
    assert back["extra_info"] == {
        "type": "countdown",
        "split": "train",
        "index": 7,
        "difficulty": 2,
    }
    validate_row(back, "train.parquet row 0")
    bad = dict(back, reward_model={"style": "rule", "ground_truth": "not json"})
    with pytest.raises(
        UserError,
        match=r"train.parquet row 0: reward_model.ground_truth of a countdown row must be JSON",
    ):
        validate_row(bad, "train.parquet row 0")
    with pytest.raises(UserError, match="missing column 'extra_info'"):
        validate_row({k: v for k, v in back.items() if k != "extra_info"}, "f row 3")


def test_the_pinned_engine_imports():
    code = "import pac_verl, verl, numpy; print(verl.__version__, numpy.__version__.split('.')[0])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0.7.1", "1"]  # verl 0.7.1 needs numpy < 2


def test_a_user_error_in_a_subcommand_is_one_line_without_a_trace(tmp_path):
    missing = tmp_path / "no_runs_here"
    res = subprocess.run(["pac-verl", "report", str(missing)], capture_output=True, text=True)
    assert res.returncode == 2
    assert res.stderr.strip() == f"pac-verl report: error: {missing}: no such file or folder"


def test_single_task_runs_of_different_tasks_get_different_names():
    from pac_verl.naming import single_label

    assert single_label(["countdown"]) == "single-countdown"
    assert single_label(["countdown/1", "zebra"]) == "single-countdown_1.zebra"
    assert single_label("math") == "single-math"
    name = experiment_name("multi_level", "qwen2.5-3b", single_label(["arc"]), 1)
    assert parse_experiment_name(name).curriculum == "single-arc"
    with pytest.raises(UserError, match="cannot be part of an experiment name"):
        single_label(["count down"])

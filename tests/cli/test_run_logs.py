"""Run folders: one metrics file per attempt (verl's file logger truncates), and a run.json that
records the command, the resolved config (controller numbers included) and its hash, and the data
files' fingerprints; an attempt that would mix two configs or two data sets, or train past a
finished run, is refused."""

import hashlib
import json
import shutil

import pytest
from hydra import compose, initialize_config_module
from omegaconf import OmegaConf
from verl.utils.tracking import FileLogger

from pac_verl.errors import UserError
from pac_verl.resolvers import register_resolvers
from pac_verl.run_logs import ENV, prepare_run_logs
from pac_verl.run_record import config_hash

register_resolvers()  # this process composes configs with the experiment name


@pytest.fixture
def data_dir(tiny_multi_level, tmp_path):
    """A private copy of the build (a test may change a file)."""
    return shutil.copytree(tiny_multi_level, tmp_path / "data")


def config(tmp_path, *extra):
    data = tmp_path / "data"
    with initialize_config_module("pac_verl.configs", version_base=None):
        cfg = compose("pac_trainer", overrides=[f"pac.log_root={tmp_path}/runs",
                                                f"trainer.default_local_dir={tmp_path}/ckpt",
                                                f"setting.data_dir={data}", *extra])  # fmt: skip
    return cfg


def test_each_attempt_gets_its_own_file_and_the_first_survives(tmp_path, data_dir, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    first = prepare_run_logs(config(tmp_path, "curriculum.window=32"), now=0)
    logger = FileLogger("pac-verl", "ignored")  # verl's own logger, as the trainer creates it
    logger.log({"curriculum/entropy": 2.0}, step=1)
    logger.log({"curriculum/entropy": 1.5}, step=2)
    logger.finish()
    cfg = config(tmp_path, "curriculum.window=32")
    second = prepare_run_logs(cfg, now=0)  # a resume in the same second
    logger = FileLogger("pac-verl", "ignored")
    logger.log({"curriculum/entropy": 1.4}, step=2)
    logger.finish()
    assert first != second and first.parent == second.parent
    assert [json.loads(x)["step"] for x in first.read_text().splitlines()] == [1, 2]
    assert [json.loads(x)["step"] for x in second.read_text().splitlines()] == [2]
    assert cfg.ray_kwargs.ray_init.runtime_env.env_vars[ENV] == str(second.resolve())
    run = json.loads((first.parent / "run.json").read_text())
    identity = {k: run[k] for k in ("experiment_name", "setting", "backbone", "curriculum",
                                    "seed", "window", "total_steps")}  # fmt: skip
    assert identity == {"experiment_name": "multi_level__qwen2.5-3b__pac__w32__seed0",
                        "setting": "multi_level", "backbone": "qwen2.5-3b", "curriculum": "pac",
                        "seed": 0, "window": 32, "total_steps": 500}  # fmt: skip
    assert [a["metrics"] for a in run["attempts"]] == [first.name, second.name]


def test_run_json_records_the_command_and_the_numbers_the_run_uses(tmp_path, data_dir, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    cfg = config(tmp_path, "curriculum=dump")
    path = prepare_run_logs(cfg, argv=["pac_verl/main.py", "curriculum=dump", "x=a b"])
    run = json.loads((path.parent / "run.json").read_text())
    assert run["command"] == "python -m pac_verl.main curriculum=dump 'x=a b'"
    # the controller's numbers, not null: DUMP's defaults (docs/concepts/baselines.md) (window 300, c = 1.0, T = 0.1)
    cur = run["config"]["data"]["curriculum"]
    assert (cur["window"], cur["exploration"], cur["temperature"]) == (300, 1.0, 0.1)
    assert run["config"]["actor_rollout_ref"]["actor"]["ppo_mini_batch_size"] == 64
    assert run["config_hash"] == config_hash(run["config"])
    # the config shipped to Ray is resolved: no process there needs our resolvers
    assert "${" not in OmegaConf.to_yaml(cfg)


def test_an_attempt_with_another_config_is_refused_naming_the_keys(tmp_path, data_dir, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    first = prepare_run_logs(config(tmp_path), now=0)
    first.write_text('{"step": 1, "data": {}}\n')  # it trained a step (else it blocks nothing)
    prepare_run_logs(config(tmp_path, "trainer.logger=[console]"), now=1)  # not part of the hash
    with pytest.raises(
        UserError, match=r"records another config .*curriculum\.cold_start: 50 -> 10"
    ):
        prepare_run_logs(config(tmp_path, "curriculum.cold_start=10"), now=2)


def test_a_finished_run_is_not_trained_past_its_last_step(tmp_path, data_dir, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    (tmp_path / "ckpt").mkdir()
    (tmp_path / "ckpt" / "latest_checkpointed_iteration.txt").write_text("500")
    with pytest.raises(UserError, match=r"complete \(checkpoint at step 500 of 500"):
        prepare_run_logs(config(tmp_path))
    (tmp_path / "ckpt" / "latest_checkpointed_iteration.txt").write_text("450")
    prepare_run_logs(config(tmp_path))  # a stopped run resumes


def test_a_bad_controller_value_stops_the_driver_before_anything_is_written(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    with pytest.raises(UserError, match="window W=2 is shorter than min_trend_points=3"):
        prepare_run_logs(config(tmp_path, "curriculum.window=2"))
    assert not any(tmp_path.iterdir())


def test_run_json_records_the_data_files_fingerprints(tmp_path, data_dir, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    run = json.loads((prepare_run_logs(config(tmp_path)).parent / "run.json").read_text())
    (train,), (val,) = run["data"]["train"], run["data"]["val"]
    assert train["sha256"] == hashlib.sha256((data_dir / "train.parquet").read_bytes()).hexdigest()
    # 3 tasks x 3 training levels x 2 rows; 3 tasks x 4 levels x 1 validation row
    assert (train["rows"], val["rows"]) == (18, 12)
    assert val["rows_per_source"]["arc/4"] == 1
    assert train["matches_manifest"] is True  # the file is the one the build wrote


def test_a_resume_on_changed_data_is_refused_naming_the_file(tmp_path, data_dir, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    prepare_run_logs(config(tmp_path), now=0)
    prepare_run_logs(config(tmp_path), now=1)  # the same files: a resume
    shutil.copy(data_dir / "val.parquet", data_dir / "train.parquet")  # rebuilt under the run
    with pytest.raises(UserError, match=r"other data .*data\.train_files \(.*train\.parquet\)"):
        prepare_run_logs(config(tmp_path), now=2)


def test_a_launch_without_its_data_is_refused_before_anything_is_written(tmp_path, monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    with pytest.raises(UserError, match=r"train\.parquet"):
        prepare_run_logs(config(tmp_path))
    assert not (tmp_path / "runs").exists()

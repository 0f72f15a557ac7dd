"""`pac-verl report` merges one experiment found in several folders only when their run.json
records agree on everything but locations, and names the keys when they do not.

The records are written by the driver's own :func:`pac_verl.run_logs.prepare_run_logs` (config
composed from the shipped Hydra configs, data files fingerprinted) and by ``run_simulation``, the
two writers of run.json.
"""

import json
import shutil

import pytest
from hydra import compose, initialize_config_module

from pac_verl.data_prep.rows import read_rows, write_parquet
from pac_verl.errors import UserError
from pac_verl.report.cli import main as report
from pac_verl.report.logs import check_seed_configs, compare_records, load_runs
from pac_verl.resolvers import register_resolvers
from pac_verl.run_logs import ENV, prepare_run_logs
from pac_verl.simulate import run_simulation

register_resolvers()


@pytest.fixture(autouse=True)
def _no_logger_path(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)  # prepare_run_logs sets it; restored after each test


def driver_run(root, data, *extra, steps=(1, 2)):
    """A run folder as ``python -m pac_verl.main`` leaves it under ``root``: run.json from the
    driver, and one metrics line per step in the attempt's file."""
    with initialize_config_module("pac_verl.configs", version_base=None):
        cfg = compose("pac_trainer", overrides=[
            f"pac.log_root={root}/runs", f"trainer.default_local_dir={root}/ckpt",
            f"setting.data_dir={data}", f"actor_rollout_ref.model.path={root}/model", *extra])  # fmt: skip
    path = prepare_run_logs(cfg, now=0)
    path.write_text("".join(json.dumps({"step": s, "data": {"x": float(s)}}) + "\n" for s in steps))
    return path.parent


def test_two_copies_differing_only_in_locations_are_merged(tmp_path, tiny_multi_level):
    # the same run, its first steps written on one machine and its last on another: every path
    # differs (logs, checkpoints, data folder, model folder), the data files' bytes do not
    a = driver_run(tmp_path / "a", shutil.copytree(tiny_multi_level, tmp_path / "data_a"))
    b = driver_run(tmp_path / "b", shutil.copytree(tiny_multi_level, tmp_path / "data_b"),
                   steps=(3, 4))  # fmt: skip
    assert a.name == b.name and a != b
    notes = []
    (run,) = load_runs([a, b], notes)
    assert sorted(run.steps) == [1, 2, 3, 4]
    (note,) = [n for n in notes if "found in 2 folders" in n]
    # verl derives the served model name and the critic's tokenizer from the model path
    assert ("differ only in locations (actor_rollout_ref.model.path, "
            "actor_rollout_ref.rollout.prometheus.served_model_name, critic.model.tokenizer_path, "
            "data.train_files, data.val_files, pac.log_root, setting.data_dir, "
            "trainer.default_local_dir)") in note  # fmt: skip
    assert report([str(a), str(b)]) == 0


def test_seeds_in_two_folders_differing_only_in_locations_are_averaged(tmp_path, tiny_multi_level):
    runs = load_runs([
        driver_run(tmp_path / "a", shutil.copytree(tiny_multi_level, tmp_path / "data_a")),
        driver_run(tmp_path / "b", shutil.copytree(tiny_multi_level, tmp_path / "data_b"),
                   "curriculum.seed=1")])  # fmt: skip
    notes = []
    check_seed_configs(runs, notes)  # no error: seed keys and locations differ, nothing else
    assert [r.key.seed for r in runs] == [0, 1] and notes == []


def test_one_name_at_60_and_90_steps_is_refused_naming_the_keys(tmp_path, tiny_multi_level):
    data = shutil.copytree(tiny_multi_level, tmp_path / "data")
    a = driver_run(tmp_path / "a", data, "trainer.total_training_steps=60")
    b = driver_run(tmp_path / "b", data, "trainer.total_training_steps=90")
    with pytest.raises(UserError, match=r"different configs \(trainer\.total_training_steps: "
                                        r"60 -> 90; total_steps: 60 -> 90\)"):  # fmt: skip
        load_runs([a, b])


def test_one_name_with_other_data_is_refused_naming_the_files(tmp_path, tiny_multi_level):
    a = driver_run(tmp_path / "a", shutil.copytree(tiny_multi_level, tmp_path / "data_a"))
    other = shutil.copytree(tiny_multi_level, tmp_path / "data_b")
    rows = read_rows(other / "train.parquet")
    write_parquet(rows[1:], other / "train.parquet")  # one training row fewer
    b = driver_run(tmp_path / "b", other)
    with pytest.raises(UserError, match=r"different configs \(data\.train_files: "
                                        r"\['train\.parquet sha256:[0-9a-f]{12}'\] -> "):  # fmt: skip
        load_runs([a, b])


def test_simulations_at_60_and_90_steps_are_refused(tmp_path):
    # what two quickstarts with --steps 60 and --steps 90 leave: the same run names
    kw = dict(controllers=["pac"], seeds=[0], batch_size=4, show_progress=False)
    run_simulation("noisy", steps=6, out_dir=tmp_path / "q60", **kw)
    run_simulation("noisy", steps=9, out_dir=tmp_path / "q90", **kw)
    with pytest.raises(UserError, match=r"sim-noisy__simulated__pac__seed0: the logs in .*q60.* "
                                        r"and .*q90.* different configs \(simulation\.steps: "
                                        r"6 -> 9\)"):  # fmt: skip
        load_runs([tmp_path / "q60", tmp_path / "q90"])
    run_simulation("noisy", steps=6, out_dir=tmp_path / "copy", **kw)
    notes = []
    (run,) = load_runs([tmp_path / "q60", tmp_path / "copy"], notes)  # the same simulation twice
    assert sorted(run.steps) == list(range(7))
    assert any("found in 2 folders" in n and "their records agree" in n for n in notes)


def test_what_counts_as_a_location():
    def record(**config):
        return {"experiment_name": "x", "config": config}

    # an absolute path in both records is a location; a class path is code, not a place
    diffs, where = compare_records(record(reward={"path": "/a/r.py"}, cls="pkg://a.b"),
                                   record(reward={"path": "~/b/r.py"}, cls="pkg://a.c"))  # fmt: skip
    assert where == ["reward.path"] and diffs == [("cls", "pkg://a.b", "pkg://a.c")]
    # a relative path against an absolute one is not recognisably the same place
    diffs, _ = compare_records(record(out="logs"), record(out="/x/logs"))
    assert diffs == [("out", "logs", "/x/logs")]
    # data files without recorded fingerprints are compared by path
    a, b = (
        record(data={"train_files": "/a/t.parquet"}),
        record(data={"train_files": "/b/t.parquet"}),
    )
    assert compare_records(a, b)[0] == [("data.train_files", "/a/t.parquet", "/b/t.parquet")]
    # ... and with them, by SHA-256 only
    fp = {"train": [{"path": "/a/t.parquet", "sha256": "ab" * 32}], "val": []}
    a["data"], b["data"] = fp, {**fp, "train": [{"path": "/b/t.parquet", "sha256": "ab" * 32}]}
    assert compare_records(a, b) == ([], ["data.train_files"])

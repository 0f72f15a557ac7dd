"""A run's relative paths resolve under the project home (PAC_HOME), never the current directory;
a model path is anchored only when it names a folder there (else it is a hub id)."""

from __future__ import annotations

from omegaconf import OmegaConf

from pac_verl.paths import anchor_paths


def _cfg(model: str):
    return OmegaConf.create({
        "setting": {"data_dir": "data/toy"},
        "data": {"train_files": "data/toy/train.parquet", "val_files": ["/abs/val.parquet"]},
        "pac": {"log_root": "runs"},
        "trainer": {"default_local_dir": "checkpoints/x"},
        "actor_rollout_ref": {"model": {"path": model}},
    })  # fmt: skip


def test_relative_run_paths_resolve_under_the_root_and_absolute_ones_stay(tmp_path):
    cfg = _cfg("Qwen/Qwen2.5-3B")
    anchor_paths(cfg, tmp_path)
    assert cfg.setting.data_dir == f"{tmp_path}/data/toy"
    assert cfg.data.train_files == f"{tmp_path}/data/toy/train.parquet"
    assert list(cfg.data.val_files) == ["/abs/val.parquet"]
    assert (cfg.pac.log_root, cfg.trainer.default_local_dir) == (
        f"{tmp_path}/runs",
        f"{tmp_path}/checkpoints/x",
    )


def test_a_hub_id_stays_and_a_local_model_folder_is_anchored(tmp_path, monkeypatch):
    monkeypatch.chdir("/")  # the current directory never decides
    cfg = _cfg("Qwen/Qwen2.5-3B")
    anchor_paths(cfg, tmp_path)
    assert cfg.actor_rollout_ref.model.path == "Qwen/Qwen2.5-3B"  # no such folder: a hub id
    (tmp_path / "data" / "tiny-cpu").mkdir(parents=True)
    cfg = _cfg("data/tiny-cpu")
    anchor_paths(cfg, tmp_path)
    assert cfg.actor_rollout_ref.model.path == f"{tmp_path}/data/tiny-cpu"

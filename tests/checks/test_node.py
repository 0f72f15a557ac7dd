"""What a run needs outside its data, and beyond one node (docs/guides/checks.md,
docs/guides/multi-node.md).

GPUs cannot be had here: where a check reads torch's GPU count, the count is set by the test
(``torch.cuda.device_count``), and ``python -m pac_verl.main`` runs with ``CUDA_VISIBLE_DEVICES=""``
so that the test means the same on a GPU node. The Ray cluster is a real local Ray instance that
declares GPU resources (Ray lets a CPU machine declare them).
"""

import os
import subprocess
import sys
from pathlib import Path

import pytest

from pac_verl.checks import node as node_checks
from pac_verl.checks.node import (
    check_model,
    check_node,
    check_writable,
    compare_cluster,
    gpu_shortage,
)
from pac_verl.compose import compose_config
from pac_verl.errors import UserError
from pac_verl.plan.memory import GIB, plan_memory
from pac_verl.plan.model import load_shape

CONFIGS = Path(__file__).resolve().parents[2] / "configs"


@pytest.fixture(scope="module")
def cfg():
    return compose_config([])


def test_local_model_folder(tmp_path):
    assert check_model(str(tmp_path)).status == "error"  # no config.json
    (tmp_path / "config.json").write_text("{}")
    assert "no *.safetensors" in check_model(str(tmp_path)).detail
    (tmp_path / "model.safetensors").write_bytes(b"")  # cut short: not even a header
    assert "is cut short" in check_model(str(tmp_path)).detail
    (tmp_path / "model.safetensors").write_bytes((2).to_bytes(8, "little") + b"{}")  # no tensors
    assert check_model(str(tmp_path)).status == "ok"
    missing = check_model(str(tmp_path / "nowhere"))
    assert missing.status == "error" and "no such folder" in missing.detail


def test_hub_model_offline_names_the_download(monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    f = check_model("pac-verl-test/not-cached")
    assert f.status == "error"
    assert "HF_HUB_OFFLINE" in f.detail and "hf download pac-verl-test/not-cached" in f.detail


def test_unreachable_hub_is_said_once(monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    monkeypatch.setenv("HF_ENDPOINT", "http://127.0.0.1:9")  # nothing listens on the discard port
    f = check_model("pac-verl-test/not-cached")
    assert f.status == "error" and "unreachable" in f.detail and "hf download" in f.detail


def test_writable_folders(tmp_path):
    assert check_writable("pac.log_root", str(tmp_path / "a" / "b")).status == "ok"
    (tmp_path / "file").write_text("x")
    f = check_writable("pac.log_root", str(tmp_path / "file" / "runs"))
    assert f.status == "error" and "is a file" in f.detail and "pac.log_root" in f.detail


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only folders")
def test_read_only_folder(tmp_path):
    ro = tmp_path / "ro"
    ro.mkdir()
    ro.chmod(0o500)
    try:
        assert "not writable" in check_writable("trainer.default_local_dir", str(ro / "c")).detail
    finally:
        ro.chmod(0o700)


def test_gpu_shortage_is_said_before_ray_and_skipped_for_cpu_and_clusters(cfg, monkeypatch):
    import torch

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 0)
    assert "no CUDA GPU on this machine: training needs 8" in gpu_shortage(cfg)
    assert gpu_shortage(compose_config(["trainer.device=cpu"])) is None  # the CPU smoke path
    assert gpu_shortage(compose_config(["trainer.nnodes=2"])) is None  # GPUs from the cluster
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 4)
    assert "set trainer.n_gpus_per_node=4" in gpu_shortage(cfg)
    monkeypatch.setattr(torch.cuda, "device_count", lambda: 8)
    assert gpu_shortage(cfg) is None


def test_main_without_gpus_fails_at_once_in_one_line(tmp_path):
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": ""}
    env.pop("RAY_ADDRESS", None)
    res = subprocess.run([sys.executable, "-m", "pac_verl.main", "trainer.total_training_steps=1",
                          "pac.allow_short_run=true"],
                         capture_output=True, text=True, cwd=tmp_path, env=env)  # fmt: skip
    import torch

    build = ("" if torch.version.cuda else f" (torch {torch.__version__} here is a CPU build: a "
             "GPU node needs the GPU install: docs/getting-started/gpu-node.md)")  # fmt: skip
    assert res.returncode == 1
    assert res.stderr.strip().splitlines() == [
        "pac_verl.main: error: no CUDA GPU on this machine: training needs 8 "
        f"(trainer.n_gpus_per_node=8 x trainer.nnodes=1){build}. Check a config without GPUs "
        "with `pac-verl preflight`; train on a GPU node, or on a Ray cluster "
        "(docs/guides/multi-node.md)"
    ]
    assert "Ray" not in res.stdout  # failed before ray.init


def test_cluster_shortage_names_what_is_missing(cfg):
    two = compose_config(["trainer.nnodes=2"])
    f = compare_cluster(two, {"10.0.0.1": 8.0, "10.0.0.2": 4.0})
    assert f.status == "error"
    assert "needs 2 nodes of 8 GPUs; the Ray cluster has 1" in f.detail
    assert "1 node(s) of 8 GPUs missing" in f.detail and "10.0.0.2: 4" in f.detail
    four = compose_config(["trainer.nnodes=4"])
    assert compare_cluster(four, {f"10.0.0.{i}": 8.0 for i in range(4)}).status == "ok"


@pytest.mark.ray
def test_the_connected_ray_cluster_is_counted_node_by_node(monkeypatch):
    import ray

    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    ray.init(num_cpus=1, num_gpus=8, include_dashboard=False, logging_level="ERROR")
    try:
        assert list(node_checks.cluster_nodes("auto").values()) == [8.0]
        f = node_checks.check_cluster(compose_config(["trainer.nnodes=2"]))
        assert f.status == "error" and "1 node(s) of 8 GPUs missing" in f.detail
        assert node_checks.check_cluster(compose_config([])) is None  # one node: local GPUs
        # a cluster that was reached is checked as it is, from a machine without GPUs too
        with pytest.raises(UserError, match=r"cluster: .*1 node\(s\) of 8 GPUs missing"):
            check_node(compose_config(["trainer.nnodes=2", "actor_rollout_ref.model.path=x/y"]),
                       strict=False)  # fmt: skip
    finally:
        ray.shutdown()


def test_check_node_on_a_cpu_machine_warns_and_on_the_training_node_refuses(
    tmp_path, capsys, monkeypatch
):
    (tmp_path / "file").write_text("x")
    cfg = compose_config([f"pac.log_root={tmp_path / 'file' / 'runs'}",
                          f"trainer.default_local_dir={tmp_path / 'ckpt'}",
                          "trainer.save_freq=-1"])  # fmt: skip
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")  # no request to the hub from the test
    findings = check_node(cfg, strict=False)
    by = {f.check: f for f in findings}
    assert by["pac.log_root"].status == "warn" and by["memory plan"].status == "ok"
    out = capsys.readouterr().out
    if not node_checks.local_gpus():
        assert by["GPUs"].status == "unchecked" and "training needs the GPUs" in out
    with pytest.raises(UserError, match=r"pac.log_root: .*is a file"):
        check_node(cfg, strict=True)
    # a config that cannot fit is an error on any machine
    bad = compose_config(["backbone=qwen2.5-32b", "actor_rollout_ref.actor.fsdp_config.offload_policy=false",
                          f"trainer.default_local_dir={tmp_path / 'ckpt'}"])  # fmt: skip
    with pytest.raises(UserError, match=r"memory plan: update: needs .*offload_policy=true"):
        check_node(bad, strict=False)


@pytest.mark.parametrize("nodes", [2, 4])
@pytest.mark.parametrize("backbone", ["qwen2.5-3b", "qwen2.5-7b", "qwen2.5-32b"])
def test_several_nodes_compose_validate_and_plan(nodes, backbone):
    from verl.utils.config import validate_config

    cfg = compose_config([f"backbone={backbone}", f"trainer.nnodes={nodes}",
                          "setting=multi_domain"])  # fmt: skip
    assert cfg.trainer.nnodes == nodes and cfg.trainer.n_gpus_per_node == 8
    assert cfg.trainer.experiment_name == f"multi_domain__{backbone}__pac__seed0"
    validate_config(cfg, use_reference_policy=False, use_critic=False)  # verl's own checks
    shape = load_shape(cfg.actor_rollout_ref.model.path)
    plan = plan_memory(cfg, shape)
    assert plan.fits and plan.facts["FSDP shards"] == 8 * nodes
    adam = next(p for p in plan.phases if p.name == "update").parts["actor Adam"]
    on_cpu = bool(cfg.actor_rollout_ref.actor.fsdp_config.offload_policy)
    assert adam * GIB == pytest.approx(0 if on_cpu else 8 * shape.params / (8 * nodes))


def test_preflight_stops_at_a_config_that_cannot_fit_before_reading_data(tmp_path, monkeypatch):
    from pac_verl.checks.preflight import run

    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(UserError, match=r"memory plan: update: needs"):
        run(["backbone=qwen2.5-32b", "actor_rollout_ref.actor.fsdp_config.offload_policy=false",
             f"setting.data_dir={tmp_path / 'no-data'}"])  # fmt: skip


def test_a_model_without_config_is_unchecked_but_a_bad_budget_is_an_error(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    ckpt = f"trainer.default_local_dir={tmp_path / 'ckpt'}"
    # a model of no shipped backbone, not on this machine: the plan cannot be made here
    mine = ["actor_rollout_ref.model.path=someone/unknown-model", "backbone.name=mine", ckpt]
    cfg = compose_config(mine)
    by = {f.check: f for f in check_node(cfg, strict=False)}
    assert by["memory plan"].status == "unchecked" and "--model-config" in by["memory plan"].detail
    with pytest.raises(UserError, match=r"memory plan: no config.json"):
        check_node(cfg, strict=True)
    # the suggestion works: --model-config PATH plans it
    shipped = CONFIGS / "models" / "Qwen" / "Qwen2.5-3B" / "config.json"
    found = [f for f in check_node(cfg, model_config=str(shipped), strict=False)
             if f.check == "memory plan"]  # fmt: skip
    assert [f.status for f in found] == ["ok"]
    short = compose_config(["actor_rollout_ref.actor.ppo_max_token_len_per_gpu=1024", ckpt])
    with pytest.raises(UserError, match=r"ppo_max_token_len_per_gpu=1024"):
        check_node(short, strict=False)


def test_a_model_folder_that_is_not_here_is_planned_from_the_backbones_config(tmp_path):
    cfg = compose_config(["backbone=qwen2.5-32b", "actor_rollout_ref.model.path=/nfs/Qwen2.5-32B",
                          f"trainer.default_local_dir={tmp_path / 'ckpt'}"])  # fmt: skip
    findings = check_node(cfg, strict=False)
    plan = [f for f in findings if f.check == "memory plan"]
    assert plan[0].status == "warn" and "shipped config.json of Qwen/Qwen2.5-32B" in plan[0].detail
    assert plan[1].status == "ok"  # every phase fits
    host = next(f for f in findings if f.check == "host memory")
    # 16 x 32.76e9 of offloaded states + 6 x 32.76e9 on rank 0 at a save: 721 GB per node, an
    # error on the training node (a warning here, without GPUs)
    assert host.status in ("warn", "ok") and "721 GB" in host.detail


def test_host_memory_is_an_error_on_the_training_node(tmp_path, monkeypatch):
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setattr("pac_verl.checks.node.host_memory_gb", lambda: 512.0)
    cfg = compose_config(["backbone=qwen2.5-32b", f"trainer.default_local_dir={tmp_path / 'c'}",
                          "trainer.save_freq=-1"])  # fmt: skip
    with pytest.raises(UserError, match=r"host memory: the run needs 721 GB of RAM per node at "
                                        r"checkpoint save .* this machine has 512 GB"):  # fmt: skip
        check_node(cfg, strict=True)
    monkeypatch.setattr("pac_verl.checks.node.host_memory_gb", lambda: 1024.0)
    by = {f.check: f for f in check_node(cfg, strict=False)}
    assert by["host memory"].status == "ok"

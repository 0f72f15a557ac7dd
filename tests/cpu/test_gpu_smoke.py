"""``pac-verl smoke --gpu`` up to the point where it needs CUDA (no GPU here).

What runs without a GPU is run for real: the model lookup in a Hugging Face cache laid out as the
hub's client lays it out, the data, the config, the planner's estimate, and the one line where
CUDA is needed; the trainer-side phase log through verl's own ``marked_timer``; the phase peaks
from samples by hand.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

from pac_verl.cpu import gpu_smoke
from pac_verl.errors import UserError

ROOT = Path(__file__).resolve().parents[2]
QWEN_3B = json.loads((ROOT / "configs/models/Qwen/Qwen2.5-3B/config.json").read_text())
# Qwen2.5-0.5B's own config.json differs from the 3B's in these
SMALL = {"hidden_size": 896, "intermediate_size": 4864, "num_attention_heads": 14,
         "num_hidden_layers": 24, "max_window_layers": 24}  # fmt: skip


def cached_repo(cache: Path, repo: str, config: dict, weights: bool = True) -> None:
    """A model in the hub client's cache layout: blobs, a snapshot of links to them, refs/main."""
    folder = cache / f"models--{repo.replace('/', '--')}"
    commit = "0123456789abcdef0123456789abcdef01234567"
    files = {"config.json": json.dumps(config).encode()}
    if weights:
        files["model.safetensors"] = b"not read by the lookup"
    (folder / "refs").mkdir(parents=True)
    (folder / "refs" / "main").write_text(commit)
    snap = folder / "snapshots" / commit
    snap.mkdir(parents=True)
    (folder / "blobs").mkdir()
    for i, (name, data) in enumerate(files.items()):
        blob = folder / "blobs" / f"{i:040x}"
        blob.write_bytes(data)
        (snap / name).symlink_to(os.path.relpath(blob, snap))


@pytest.mark.node_versions  # the node's huggingface_hub 0.36 reads the cache
def test_the_smallest_local_qwen25_with_weights_is_chosen(tmp_path, monkeypatch):
    import huggingface_hub.constants

    # the client reads HF_HUB_CACHE once, when imported: point its constant at the test's cache
    monkeypatch.setattr(huggingface_hub.constants, "HF_HUB_CACHE", str(tmp_path))
    with pytest.raises(UserError, match=r"no Qwen2\.5 model .*hf download Qwen/Qwen2\.5-0\.5B"):
        gpu_smoke.find_model(None)
    cached_repo(tmp_path, "Qwen/Qwen2.5-3B-Instruct", QWEN_3B)
    cached_repo(tmp_path, "Qwen/Qwen2.5-0.5B", {**QWEN_3B, **SMALL}, weights=False)
    cached_repo(tmp_path, "Qwen/Qwen2.5-Math-1.5B", {**QWEN_3B, **SMALL})  # not a plain Qwen2.5
    folder, params = gpu_smoke.find_model(None)
    assert "models--Qwen--Qwen2.5-3B-Instruct" in folder  # the 0.5B has no weights
    cached_repo(tmp_path, "Qwen/Qwen2.5-0.5B-Instruct", {**QWEN_3B, **SMALL})
    folder, small = gpu_smoke.find_model(None)
    assert "models--Qwen--Qwen2.5-0.5B-Instruct" in folder and small < params
    with pytest.raises(UserError, match=r"--model .*: not a model folder"):
        gpu_smoke.find_model(str(tmp_path))


def test_phase_peaks_by_hand():
    samples = [gpu_smoke.Sample(t, m) for t, m in [(0, 1.0), (1, 5.0), (2, 7.0), (3, 2.0),
                                                   (4, 9.0), (5, 3.0), (6, 8.0)]]  # fmt: skip
    windows = [
        {"phase": "gen", "start": 0.5, "end": 1.5},  # 5
        {"phase": "update_actor", "start": 3.5, "end": 4.5},  # 9
        {"phase": "gen", "start": 5.5, "end": 6.5},  # 8: the higher of the two windows
        {"phase": "ref", "start": 2.2, "end": 2.8},  # no sample inside: left out
    ]
    assert gpu_smoke.phase_peaks(samples, windows) == {"rollout": 8.0, "update": 9.0}


def test_the_worker_hook_logs_each_phase_of_verls_timer(tmp_path, monkeypatch):
    import verl.trainer.ppo.ray_trainer as ray_trainer

    monkeypatch.setattr(ray_trainer, "marked_timer", ray_trainer.marked_timer)  # restored after
    log = tmp_path / "phases.jsonl"
    monkeypatch.setenv(gpu_smoke.PHASE_LOG_ENV, str(log))
    gpu_smoke.setup_worker()
    gpu_smoke.setup_worker()  # a second call wraps nothing twice
    timing: dict = {}
    with ray_trainer.marked_timer("gen", timing):
        pass
    with ray_trainer.marked_timer("adv", timing):  # not a phase of the plan: timed, not logged
        pass
    with pytest.raises(ValueError), ray_trainer.marked_timer("update_actor", timing):
        raise ValueError("a failing phase is still logged")
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert [x["phase"] for x in lines] == ["gen", "update_actor"]
    assert all(x["start"] <= x["end"] for x in lines)
    assert {"gen", "adv"} <= set(timing)  # verl's own timing still happens


@pytest.mark.node_versions
def test_the_gpu_config_is_the_projects_path_on_one_gpu(tmp_path):
    from verl.utils.config import validate_config

    from pac_verl.cpu.smoke import compose

    cfg = compose(gpu_smoke.overrides("/models/qwen", tmp_path / "data", tmp_path / "run", 2))
    assert (cfg.actor_rollout_ref.rollout.name, cfg.trainer.device) == ("vllm", "cuda")
    assert cfg.actor_rollout_ref.model.use_remove_padding  # flash-attention's path, as in training
    assert (cfg.trainer.n_gpus_per_node, cfg.trainer.total_training_steps) == (1, 2)
    assert cfg.data.curriculum.name == "pac"
    validate_config(cfg, use_reference_policy=True, use_critic=False)  # verl's own checks


@pytest.mark.slow
def test_cli_runs_to_the_point_where_cuda_is_needed_and_stops_in_one_line(tmp_path):
    from pac_verl.data_prep.toy import build_model

    model = tmp_path / "model"
    build_model(model)  # the miniature's tiny Qwen2 and tokenizer
    env = {**os.environ, "CUDA_VISIBLE_DEVICES": "", "HF_HUB_OFFLINE": "1"}
    res = subprocess.run(["pac-verl", "smoke", "--gpu", "--model", str(model), "--out",
                          str(tmp_path / "out")], capture_output=True, text=True, env=env,
                         timeout=300)  # fmt: skip
    assert res.returncode == 2, res.stderr[-2000:]
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("pac-verl smoke: error: smoke --gpu needs a "
                                                   "CUDA GPU: "), lines  # fmt: skip
    assert "everything before the training ran" in lines[0]
    out = res.stdout
    assert "smoke --gpu: the plan" in out
    for phase in ("rollout", "old log-prob", "ref log-prob", "update"):
        assert phase in out
    assert (tmp_path / "out" / "data" / "train.parquet").is_file()
    res = subprocess.run(["pac-verl", "smoke", "--model", str(model)], capture_output=True,
                         text=True, env=env, timeout=120)  # fmt: skip
    assert res.returncode == 2 and "--model is for --gpu" in res.stderr

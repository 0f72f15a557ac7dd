"""``pac-verl plan`` for a model whose config.json is not on this machine: a hub id other than the
backbone's model is refused in one line (it used to be planned silently with the backbone's 3B
shape); a folder that lives on the training node is planned from the backbone's shipped
config.json, and the verdict line says so."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def plan(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).parent / "pac-verl"
    env = {**os.environ, "PAC_HOME": str(tmp_path), "HF_HUB_OFFLINE": "1"}
    return subprocess.run([str(exe), "plan", *args], cwd=tmp_path, env=env, capture_output=True,
                          text=True, timeout=300)  # fmt: skip


def test_another_hub_model_is_refused_naming_the_fix(tmp_path):
    res = plan(tmp_path, "actor_rollout_ref.model.path=Qwen/Qwen2.5-14B")
    err = res.stderr.strip()
    assert res.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert "model Qwen/Qwen2.5-14B has no config.json on this machine" in err
    assert "not the model of backbone=qwen2.5-3b (Qwen/Qwen2.5-3B)" in err
    assert "--model-config PATH" in err


def test_a_node_folder_is_planned_from_the_backbone_and_the_verdict_says_so(tmp_path):
    res = plan(tmp_path, "actor_rollout_ref.model.path=/nodes/models/qwen3b",
               f"trainer.default_local_dir={tmp_path}/ckpt", "--gpu-gib", "80",
               "trainer.save_freq=1000", "pac.keep_checkpoints=1")  # fmt: skip
    verdict = [ln for ln in res.stdout.splitlines() if ln.startswith("plan: ")][-1]
    assert (
        "model /nodes/models/qwen3b has no config.json on this machine: planned from the "
        "shipped config.json of Qwen/Qwen2.5-3B" in verdict
    ), res.stdout[-2000:]

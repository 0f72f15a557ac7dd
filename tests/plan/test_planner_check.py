"""scripts/gpu/planner_check.py: the memory planner's estimates against measured peaks, run end to
end on the CPU with a tiny Qwen2 config (its GPU run is docs/results/planner-gpu.md)."""

from __future__ import annotations

import importlib.util
import json
import math
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "gpu" / "planner_check.py"
SHIPPED = ROOT / "scripts" / "gpu" / "planner_estimates.json"
TINY = {"architectures": ["Qwen2ForCausalLM"], "model_type": "qwen2", "hidden_size": 64,
        "intermediate_size": 128, "num_hidden_layers": 2, "num_attention_heads": 4,
        "num_key_value_heads": 2, "vocab_size": 512, "max_position_embeddings": 256,
        "tie_word_embeddings": True, "rms_norm_eps": 1e-6, "rope_theta": 10000.0}  # fmt: skip
# what the GPU machine lacks: the measuring step must not import any of it
ABSENT = ("hydra", "omegaconf", "verl", "ray", "vllm", "pac_verl")
MEASURE = ("import runpy, sys\n"
           f"for name in {ABSENT!r}:\n"
           "    sys.modules[name] = None  # importing it raises ImportError\n"
           "sys.argv = sys.argv[1:]\n"
           "runpy.run_path(sys.argv[0], run_name='__main__')\n")  # fmt: skip


def load_script():
    spec = importlib.util.spec_from_file_location("planner_check", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run(*args, measure=False):
    cmd = [sys.executable, *(["-c", MEASURE] if measure else []), str(SCRIPT), *map(str, args)]
    return subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, timeout=300)


@pytest.fixture
def tiny_config(tmp_path):
    path = tmp_path / "tiny" / "config.json"
    path.parent.mkdir()
    path.write_text(json.dumps(TINY))
    return path


@pytest.mark.slow
def test_the_whole_check_runs_on_the_cpu_with_a_tiny_config(tmp_path, tiny_config):
    from pac_verl.compose import compose_config
    from pac_verl.plan.memory import plan_memory
    from pac_verl.plan.model import read_shape

    pc = load_script()
    est = tmp_path / "estimates.json"
    done = run("--write-estimates", est, "--models", tiny_config, "--micro-batch", 2, "--seq", 32)
    assert done.returncode == 0, done.stderr
    doc = json.loads(est.read_text())
    assert doc["tokens"] == 64 and doc["param_dtype"] == "fp32" and doc["gradient_checkpointing"]
    # the phases and parts the file carries are the planner's own, for the same config
    plan = plan_memory(compose_config(doc["overrides"]), read_shape(tiny_config))
    planned = {p.name: p.parts for p in plan.phases}
    (entry,) = doc["models"]
    assert entry["model"] == "tiny" and entry["parameters"] == read_shape(tiny_config).params
    assert set(entry["phases"]) == set(pc.PLANNER_PHASES) <= set(planned)
    for name, parts in entry["phases"].items():
        assert parts == pytest.approx({k: v * 1024**3 for k, v in planned[name].items()})
    assert {part for _, part in pc.RESIDENT} <= set(entry["phases"]["update"])

    out = tmp_path / "out"
    done = run("--estimates", est, "--device", "cpu", "--out", out, measure=True)
    assert done.returncode == 0, done.stderr
    rows = [*pc.ROWS, *pc.RESIDENT]
    for row, _ in rows:
        assert re.search(rf"^tiny +{re.escape(row)} ", done.stdout, re.M), row  # printed
    result = json.loads((out / "planner_check.json").read_text())
    assert [r[:2] for r in result["rows"]] == [["tiny", row] for row, _ in rows]
    (measured,) = result["results"]
    assert measured["parameters_built"] == entry["parameters"]
    for row, _ in pc.ROWS:
        assert measured[row]["reserved"] is None  # no allocator on a CPU: said, not invented
        # a phase holds at least what was resident when it began
        assert measured[row]["allocated"] >= measured[row]["before"] > 0
    for r in result["rows"]:
        ratio = float(r[5])
        assert math.isfinite(ratio) and ratio > 0
    # what stays between phases is counted exactly by both sides (storage sizes and the planner's
    # parameter count): the tracked bytes are the tensors' own, not the process's
    for row, _ in pc.RESIDENT:
        ratio = float(next(r for r in result["rows"] if r[1] == row)[5])
        assert ratio == pytest.approx(1.0, abs=0.01), row
    table = (out / "planner_check.md").read_text()
    assert "| tiny | update: optimizer step |" in table and "CPU" in table


@pytest.mark.slow
def test_a_model_that_fails_under_fsdp2_in_a_gpu_run_is_measured_without_it(
    tmp_path, tiny_config, monkeypatch
):
    """A GPU run is one try of a short lease: it keeps going, and says so."""
    pc = load_script()
    est = tmp_path / "e.json"
    assert run("--write-estimates", est, "--models", tiny_config, "--seq", 16).returncode == 0
    built = pc.build_actor

    def build(torch, path, est, device, fsdp):
        if fsdp:
            raise RuntimeError("no NCCL here")
        return built(torch, path, est, device, fsdp)

    monkeypatch.setattr(pc, "init_dist", lambda torch, device: None)
    monkeypatch.setattr(pc, "build_actor", build)
    (res,) = pc.run_check(pc.read_estimates(est), "cpu", tmp_path / "out", 420.0, fsdp=True,
                          keep_going=True)  # fmt: skip
    assert res["fsdp"] is False and res["update: peak"]["allocated"] > 0
    result = json.loads((tmp_path / "out" / "planner_check.json").read_text())
    assert result["notes"] == ["tiny: failed under FSDP2 (failed: RuntimeError: no NCCL here); "
                               "it and the models after it measured without FSDP2"]  # fmt: skip
    assert {r[0] for r in result["rows"]} == {"tiny (no FSDP2)"}
    # without keep_going (the CPU test's default) the error is the test's to see
    with pytest.raises(RuntimeError, match="no NCCL here"):
        pc.run_check(pc.read_estimates(est), "cpu", tmp_path / "out", 420.0, fsdp=True)


def test_the_shipped_estimates_are_what_the_planner_says_today(tmp_path):
    """The GPU run carries scripts/gpu/planner_estimates.json: a planner change must rewrite it."""
    done = run("--write-estimates", tmp_path / "e.json")
    assert done.returncode == 0, done.stderr
    assert json.loads((tmp_path / "e.json").read_text()) == json.loads(SHIPPED.read_text()), (
        "rerun: python scripts/gpu/planner_check.py --write-estimates "
        "scripts/gpu/planner_estimates.json"
    )


def test_the_models_it_builds_have_the_planners_parameter_counts():
    import torch
    from transformers import AutoConfig, AutoModelForCausalLM

    doc = json.loads(SHIPPED.read_text())
    assert [m["model"] for m in doc["models"]] == ["Qwen2.5-0.5B", "Qwen2.5-1.5B", "Qwen2.5-3B"]
    for entry in doc["models"]:
        config = AutoConfig.from_pretrained(str(ROOT / entry["config"]))
        with torch.device("meta"):
            model = AutoModelForCausalLM.from_config(config)
        assert sum(p.numel() for p in model.parameters()) == entry["parameters"], entry["model"]


def test_a_missing_config_is_one_line_without_a_traceback(tmp_path, tiny_config):
    done = run("--write-estimates", tmp_path / "e.json", "--models", tmp_path / "no.json")
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        f"planner_check: no config.json for '{tmp_path / 'no.json'}' "
        f"(looked at {tmp_path / 'no.json'})"
    ]
    assert not (tmp_path / "e.json").exists()
    # a config that the estimates name but the GPU machine's tree lacks: the same, before any work
    est = tmp_path / "e.json"
    assert run("--write-estimates", est, "--models", tiny_config, "--seq", 8).returncode == 0
    tiny_config.unlink()
    done = run("--estimates", est, "--device", "cpu", "--out", tmp_path / "out", measure=True)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        f"planner_check: no config.json for '{tiny_config}' (looked at {tiny_config})"
    ]


def test_inputs_that_are_not_the_checks_are_refused_in_one_line(tmp_path):
    (tmp_path / "e.json").write_text('{"models": []}')
    for args, said in [
        (["--estimates", tmp_path / "e.json", "--device", "cpu"], "not written by"),
        (["--estimates", tmp_path / "none.json", "--device", "cpu"], "not a readable"),
        ([], "give --write-estimates FILE"),
    ]:
        done = run(*args, measure=True)
        assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
        assert len(done.stderr.strip().splitlines()) == 1 and said in done.stderr

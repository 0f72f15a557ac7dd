"""What the GPU path imports, checked before GPUs are booked.

This machine has a CPU build of torch and neither vLLM nor flash-attention, so the real imports
fail here as they would on a GPU node where the GPU install (docs/getting-started/gpu-node.md) was skipped. The packages'
own import behaviour on a GPU node (vLLM's compiled ops loading, or failing against another torch)
is played by stand-in packages on ``PYTHONPATH``: third-party modules, not our code, whose import
succeeds or raises what the real one raises.
"""

import re
from pathlib import Path

import pytest
import torch

from pac_verl.checks import software
from pac_verl.compose import compose_config
from pac_verl.errors import UserError

README = Path(__file__).resolve().parents[2] / "README.md"
cpu_torch = pytest.mark.skipif(torch.version.cuda is not None, reason="torch here is a CUDA build")


pytestmark = pytest.mark.verl_line  # the GPU install named is the installed verl line's


def gpu_block() -> str:
    name = "gpu-install" if software.VERL_LINE == "0.7.1" else "gpu09-install"
    text = README.read_text()
    return text[text.index(f"<!-- {name}:start -->") : text.index(f"<!-- {name}:end -->")]


def stand_ins(root: Path, vllm_ops: str | None, flash: bool) -> None:
    (root / "vllm").mkdir()
    (root / "vllm" / "__init__.py").write_text(f'__version__ = "{software.VLLM_VERSION}"\n')
    if vllm_ops is not None:
        (root / "vllm" / "_C.py").write_text(vllm_ops)
    if flash:
        (root / "flash_attn").mkdir()
        (root / "flash_attn" / "__init__.py").write_text('__version__ = "2.8.3.post2"\n')
        (root / "flash_attn" / "bert_padding.py").write_text("")


def test_what_each_config_imports():
    assert software.wanted(compose_config([])) == [
        "torch", "vllm", "vllm._C", "flash_attn.bert_padding"
    ]  # fmt: skip
    assert software.wanted(compose_config(["trainer.device=cpu"])) == []  # the CPU smoke
    no_fa = ["actor_rollout_ref.model.use_remove_padding=false",
             "+actor_rollout_ref.model.override_config.attn_implementation=sdpa"]  # fmt: skip
    assert software.wanted(compose_config(no_fa)) == ["torch", "vllm", "vllm._C"]
    # without remove padding verl still loads the model with flash-attention 2 unless told
    reason = software.flash_attn_reason(compose_config(no_fa[:1]))
    assert reason == ("actor_rollout_ref.model.override_config.attn_implementation="
                      "flash_attention_2 (verl)")  # fmt: skip


@cpu_torch
def test_this_cpu_machine_gets_one_fix_per_missing_piece():
    by = {f.check: f for f in software.findings(compose_config([]))}
    assert [by[k].status for k in ("torch", "vLLM", "flash-attn")] == ["error"] * 3
    assert "is a CPU build" in by["torch"].detail and software.GPU_LINE in by["torch"].detail
    assert "vllm does not import (ModuleNotFoundError" in by["vLLM"].detail
    assert software.GPU_LINE in by["vLLM"].detail
    assert "use_remove_padding=true needs it" in by["flash-attn"].detail
    assert software.FLASH_ATTN_INSTALL in by["flash-attn"].detail
    with pytest.raises(UserError) as err:
        software.require_gpu_software(compose_config([]))
    assert "\n" not in str(err.value)
    assert [m.group(0) for m in re.finditer(r"(torch|vLLM|flash-attn): ", str(err.value))] == [
        "torch: ", "vLLM: ", "flash-attn: "
    ]  # fmt: skip


@cpu_torch
def test_vllm_ops_built_for_another_torch_name_the_pinned_torch(tmp_path, monkeypatch):
    stand_ins(tmp_path, 'raise ImportError("vllm/_C.abi3.so: undefined symbol: _ZN3c104cuda")',
              flash=True)  # fmt: skip
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    by = {f.check: f for f in software.findings(compose_config([]))}
    assert by["vLLM"].status == "error" and "undefined symbol" in by["vLLM"].detail
    assert f"needs torch {software.TORCH_VERSION}: {software.GPU_LINE}" in by["vLLM"].detail
    assert (by["flash-attn"].status, by["flash-attn"].detail) == ("ok", "flash_attn 2.8.3.post2")


def test_installed_stand_ins_pass(tmp_path, monkeypatch):
    stand_ins(tmp_path, "", flash=True)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    by = {f.check: f for f in software.findings(compose_config([]))}
    vllm = f"vllm {software.VLLM_VERSION}, compiled ops load"
    assert (by["vLLM"].status, by["vLLM"].detail) == ("ok", vllm)
    assert by["flash-attn"].status == "ok"
    # the findings open with the verl line in use and what differs on it
    verl = by["verl"]
    assert verl.status == "ok" and verl.detail.startswith(f"verl {software.VERL_LINE}")
    assert ("trainer.use_v1=false" in verl.detail) == (software.VERL_LINE == "0.9.1")


def test_a_crashing_import_is_a_finding_not_a_crash(tmp_path, monkeypatch):
    stand_ins(tmp_path, "import os\nos.abort()\n", flash=False)
    monkeypatch.setenv("PYTHONPATH", str(tmp_path))
    found = software.probe(["vllm", "vllm._C"])
    assert not found["vllm._C"]["ok"] and "the importing process died" in found["vllm._C"]["error"]


def test_every_fix_named_is_a_line_of_the_readme_gpu_install():
    block = gpu_block()
    for line in (software.GPU_LINE, software.FLASH_ATTN_INSTALL):
        assert line in block

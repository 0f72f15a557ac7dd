"""What the GPU path imports, imported before GPUs are booked.

On a GPU node verl imports a CUDA build of torch, vLLM (``actor_rollout_ref.rollout.name=
vllm``: its Python package and its compiled ops, ``vllm._C``, which fail to load against any torch
but the one vLLM was built for) and flash-attention (``flash_attn.bert_padding`` whenever
``actor_rollout_ref.model.use_remove_padding`` is on, and the model's attention when
``override_config.attn_implementation`` is ``flash_attention_2``, verl's default). Each is
imported here in a child process (a broken extension may crash its importer), and each one that
fails is a :class:`~pac_verl.checks.findings.Finding` that names its fix: the lines of the GPU
install (docs/getting-started/gpu-node.md) of the verl line installed
(:data:`pac_verl.verl.compat.GPU`), whose name and differences open the findings. Nothing here
runs for ``trainer.device`` other than ``cuda`` (the CPU smoke run).
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys

from pac_verl.checks.findings import Finding
from pac_verl.errors import UserError
from pac_verl.plan.memory import cfg_get
from pac_verl.verl import compat


def _verl_line() -> str | None:
    try:
        return compat.line()
    except UserError:  # no supported verl: the "verl" finding says so
        return None


VERL_LINE = _verl_line()
# the vLLM that verl[vllm] pins for this line, and the torch it pins (their wheels' Requires-Dist)
VLLM_VERSION = compat.GPU[VERL_LINE or compat.SUPPORTED[0]]["vllm"]
TORCH_VERSION = compat.GPU[VERL_LINE or compat.SUPPORTED[0]]["torch"]
GPU_LINE = compat.GPU[VERL_LINE or compat.SUPPORTED[0]]["install"]
FLASH_ATTN_INSTALL = "pip install flash-attn==2.8.3.post2 --no-build-isolation --no-deps"
IMPORT_TIMEOUT_S = 300  # vLLM's first import compiles nothing, but a cold file system is slow
WHERE = "docs/getting-started/gpu-node.md"

_PROBE = """
import importlib, json, sys
out = {}
for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
        top = sys.modules[name.split(".")[0]]
        out[name] = {"ok": True, "version": str(getattr(top, "__version__", "")),
                     "cuda": getattr(getattr(top, "version", None), "cuda", None)}
    except BaseException as err:
        text = f"{type(err).__name__}: {err}".strip().splitlines()
        out[name] = {"ok": False, "error": (text[0] if text else type(err).__name__)[:240]}
print("PAC-PROBE " + json.dumps(out))
"""


def flash_attn_reason(cfg) -> str | None:
    """The key that makes the run import flash-attention, or None."""
    model = "actor_rollout_ref.model"
    if bool(cfg_get(cfg, f"{model}.use_remove_padding", False)):
        return f"{model}.use_remove_padding=true"
    attn = cfg_get(cfg, f"{model}.override_config.attn_implementation", None)
    if attn in (None, "flash_attention_2"):  # verl 0.7.1 loads the model with FA2 unless told
        return f"{model}.override_config.attn_implementation={attn or 'flash_attention_2 (verl)'}"
    return None


def wanted(cfg) -> list[str]:
    """The modules the config's GPU path imports, in the order they are checked."""
    if str(cfg_get(cfg, "trainer.device", "cuda")) != "cuda":
        return []
    mods = ["torch"]
    if str(cfg_get(cfg, "actor_rollout_ref.rollout.name", "vllm")) == "vllm":
        mods += ["vllm", "vllm._C"]
    if flash_attn_reason(cfg):
        mods.append("flash_attn.bert_padding")
    return mods


def probe(modules: list[str], python: str = sys.executable) -> dict[str, dict]:
    """Import each module in one child process; ``{name: {"ok", "version", "cuda" | "error"}}``.
    Asked again in the same process with the same interpreter and ``PYTHONPATH``, the first answer
    is given again (a sweep checks the node once per run; the installed packages do not change)."""
    if not modules:
        return {}
    key = (tuple(modules), python, os.environ.get("PYTHONPATH", ""))
    if key not in _probed:
        _probed[key] = _probe(modules, python)
    return copy.deepcopy(_probed[key])


_probed: dict[tuple, dict[str, dict]] = {}


def _probe(modules: list[str], python: str) -> dict[str, dict]:
    try:
        done = subprocess.run([python, "-c", _PROBE, *modules], capture_output=True, text=True,
                              timeout=IMPORT_TIMEOUT_S)  # fmt: skip
    except subprocess.TimeoutExpired:
        return {m: {"ok": False, "error": f"importing took over {IMPORT_TIMEOUT_S} s"}
                for m in modules}  # fmt: skip
    for line in done.stdout.splitlines():
        if line.startswith("PAC-PROBE "):
            return json.loads(line[len("PAC-PROBE ") :])
    why = (done.stderr.strip().splitlines() or [f"exit status {done.returncode}"])[-1][:240]
    return {m: {"ok": False, "error": f"the importing process died ({why})"} for m in modules}


def findings(cfg, found: dict[str, dict] | None = None) -> list:
    """One Finding per package of the GPU path (``found``: :func:`probe`'s answer, else probed)."""
    mods = wanted(cfg)
    found = probe(mods) if found is None else found
    out = []
    if mods:
        try:
            out.append(Finding("verl", "ok", compat.describe()))
        except UserError as err:
            out.append(Finding("verl", "error", str(err)))
    if "torch" in mods:
        t = found["torch"]
        if not t["ok"]:
            out.append(Finding("torch", "error", f"torch does not import ({t['error']}): "
                               f"{GPU_LINE} ({WHERE})"))  # fmt: skip
        elif not t.get("cuda"):
            out.append(Finding("torch", "error", f"torch {t['version']} is a CPU build: the GPU "
                               f"path needs its CUDA build: {GPU_LINE} ({WHERE})"))  # fmt: skip
        elif "vllm" in mods and t["version"].split("+")[0] != TORCH_VERSION:
            out.append(Finding("torch", "error", f"torch {t['version']}: vLLM {VLLM_VERSION} is "
                               f"built for torch {TORCH_VERSION}: {GPU_LINE} ({WHERE})"))  # fmt: skip
        else:
            out.append(Finding("torch", "ok", f"torch {t['version']} (CUDA {t['cuda']})"))
    if "vllm" in mods:
        v, ops = found["vllm"], found["vllm._C"]
        if not v["ok"]:
            out.append(Finding("vLLM", "error", f"vllm does not import ({v['error']}); "
                               f"actor_rollout_ref.rollout.name=vllm needs it: {GPU_LINE} "
                               f"({WHERE})"))  # fmt: skip
        elif not ops["ok"]:
            out.append(Finding("vLLM", "error", f"vLLM's compiled ops (vllm._C) do not load "
                               f"({ops['error']}): vLLM {v['version']} needs torch "
                               f"{TORCH_VERSION}: {GPU_LINE} ({WHERE})"))  # fmt: skip
        elif v["version"] != VLLM_VERSION:
            out.append(Finding("vLLM", "warn", f"vllm {v['version']}; verl {VERL_LINE} is tested here "
                               f"with {VLLM_VERSION}: {GPU_LINE}"))  # fmt: skip
        else:
            out.append(Finding("vLLM", "ok", f"vllm {v['version']}, compiled ops load"))
    if "flash_attn.bert_padding" in mods:
        f = found["flash_attn.bert_padding"]
        if not f["ok"]:
            out.append(Finding("flash-attn", "error", f"flash_attn.bert_padding does not import "
                               f"({f['error']}); {flash_attn_reason(cfg)} needs it: "
                               f"{FLASH_ATTN_INSTALL}, after torch, with the CUDA toolkit's nvcc "
                               f"({WHERE})"))  # fmt: skip
        else:
            out.append(Finding("flash-attn", "ok", f"flash_attn {f['version']}"))
    return out


def require_gpu_software(cfg) -> None:
    """``python -m pac_verl.main``'s check before Ray: a UserError naming every fix."""
    from pac_verl.errors import UserError

    errors = [f"{f.check}: {f.detail}" for f in findings(cfg) if f.status == "error"]
    if errors:
        raise UserError("; ".join(errors))

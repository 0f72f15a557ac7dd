"""The README's GPU install, resolved by pip itself: nothing is installed.

Every ``pip install`` line of the block between the README's ``gpu-install`` markers is resolved in
order with ``pip install --dry-run --ignore-installed --report`` for this machine (Linux x86_64),
each under the versions the lines before it installed as constraints: a line that resolves under
them changes nothing an earlier line installed (pip keeps an installed version that satisfies a
requirement), and one that does not fails the test with pip's own account of the conflict. The
venv line's ``--upgrade-deps`` is played as a first line that installs the newest pip and
setuptools. flash-attn's line runs its ``setup.py`` for its metadata, as pip would on the node,
with ``FLASH_ATTENTION_SKIP_CUDA_BUILD=TRUE`` (there is no CUDA toolkit here) and this
environment's torch importable (``--no-build-isolation``); ``--no-deps`` makes it install flash-attn
alone, so its requirements must come from the lines before it.

It asks PyPI (about a minute and a half): pip's own timeout and retries bound each request, and
each line has a time limit.
"""

import json
import os
import platform
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LINE_LIMIT_S = 600
VENV_LINE = "pip install pip setuptools"  # what `python3 -m venv --upgrade-deps` installs

pytestmark = [
    pytest.mark.slow,
    pytest.mark.network,
    pytest.mark.skipif(
        not (sys.platform.startswith("linux") and platform.machine() == "x86_64"),
        reason="the GPU install is for Linux x86_64",
    ),
]


def gpu_block() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text[text.index("<!-- gpu-install:start -->") : text.index("<!-- gpu-install:end -->")]
    return [
        ln.strip() for ln in block.splitlines() if ln.strip() and not ln.startswith(("<!--", "```"))
    ]


def norm(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def conflict(stderr: str) -> str:
    """pip's account of why a line does not resolve: its ERROR lines and the conflict's causes."""
    lines = [ln.strip() for ln in stderr.splitlines()]
    keep = [ln for ln in lines if ln.startswith("ERROR:") and "Location" not in ln]
    if "The conflict is caused by:" in lines:
        start = lines.index("The conflict is caused by:")
        keep += [ln for ln in lines[start : start + 12] if ln]
    return " | ".join(keep) or stderr.strip()[-1500:]


def resolve(line: str, pinned: dict[str, str], tmp_path: Path, env=None) -> dict[str, dict]:
    """``line`` as pip would resolve it on top of ``pinned``: {name: its report entry}."""
    args = shlex.split(line)
    assert args[:2] == ["pip", "install"], line
    constraints = tmp_path / "constraints.txt"
    constraints.write_text("".join(f"{n}=={v}\n" for n, v in sorted(pinned.items())))
    report = tmp_path / "report.json"
    cmd = [sys.executable, "-m", "pip", "install", "--dry-run", "--quiet", "--ignore-installed",
           "--report", str(report), "--timeout", "60", "--retries", "3",
           "-c", str(constraints), *args[2:]]  # fmt: skip
    try:
        done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=LINE_LIMIT_S,
                              env={**os.environ, **(env or {})})  # fmt: skip
    except subprocess.TimeoutExpired:
        pytest.fail(f"pip did not resolve `{line}` within {LINE_LIMIT_S} s")
    assert done.returncode == 0, (
        f"`{line}` does not resolve on top of the lines before it (nothing they installed may "
        f"change): {conflict(done.stderr)}"
    )
    out = json.loads(report.read_text())["install"]
    return {norm(i["metadata"]["name"]): i for i in out}


def test_the_gpu_block_resolves_and_no_line_changes_an_earlier_one(tmp_path):
    lines = gpu_block()
    assert lines[1].startswith("python3 -m venv --upgrade-deps"), lines
    pip_lines = [ln for ln in lines if ln.startswith("pip install")]
    assert len(pip_lines) == 2 and "flash-attn" in pip_lines[-1], pip_lines
    installed: dict[str, str] = {}
    for line in [VENV_LINE, *pip_lines[:-1]]:
        got = resolve(line, installed, tmp_path)
        for name, item in got.items():
            if "dir_info" in item.get("download_info", {}):  # the project itself (-e .)
                continue
            version = item["metadata"]["version"]
            assert installed.setdefault(name, version) == version  # the constraints held
    # what the node ends with (vLLM 0.12.0's pins, and what they force)
    v = installed
    assert (v["torch"], v["torchvision"], v["torchaudio"], v["vllm"]) == (
        "2.9.0", "0.24.0", "2.9.0", "0.12.0"
    )  # fmt: skip
    assert v["transformers"].startswith("4.57.") and v["huggingface-hub"].startswith("0.36.")
    assert v["tokenizers"].startswith("0.22.") and v["verl"] == "0.7.1"
    assert v["nvidia-cuda-runtime-cu12"].startswith("12.8.")  # torch 2.9.0 on PyPI: CUDA 12.8
    # flash-attn alone, with what its build imports and what it requires already installed
    flash = resolve(pip_lines[-1], installed, tmp_path, {"FLASH_ATTENTION_SKIP_CUDA_BUILD": "TRUE"})
    assert list(flash) == ["flash-attn"]
    assert "--no-build-isolation" in pip_lines[-1] and "--no-deps" in pip_lines[-1]
    needs = [norm(re.split(r"[ ;<>=!~\[(]", r, maxsplit=1)[0])
             for r in flash["flash-attn"]["metadata"].get("requires_dist", [])]  # fmt: skip
    build = ["setuptools", "packaging", "psutil", "ninja"]  # setup.py's imports and setup_requires
    assert sorted(needs) == ["einops", "torch"]
    missing = [n for n in [*needs, *build] if n not in installed]
    assert not missing, f"flash-attn's line needs {missing}, which no line before it installs"
    assert tuple(int(x) for x in installed["setuptools"].split(".")[:2]) >= (70, 1)  # bdist_wheel
    # the node-versions CI set runs the tests with the versions the node ends with (to the minor
    # version: a patch release on PyPI does not make it stale)
    script = (ROOT / "scripts" / "ci" / "node_versions.sh").read_text()
    pins = {norm(n): ver for n, ver in re.findall(r"\b([A-Za-z][\w.-]*)==([\w.]+)", script)}
    assert {"transformers", "huggingface-hub", "tokenizers"} <= set(pins)

    def minor(ver):
        return ver.split(".")[:2]

    stale = {n: (ver, installed.get(n)) for n, ver in pins.items()
             if minor(ver) != minor(installed.get(n, ""))}  # fmt: skip
    assert not stale, f"scripts/ci/node_versions.sh pins (theirs, the node's): {stale}"

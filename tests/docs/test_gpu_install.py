"""The README's GPU installs, resolved by pip itself: nothing is installed.

One per verl line: verl 0.7.1's block between the ``gpu-install`` markers, verl 0.9.1's between
``gpu09-install``. Every ``pip install`` line of a block is resolved in
order with ``pip install --dry-run --ignore-installed --report`` for this machine (Linux x86_64),
each under the versions the lines before it installed as constraints: a line that resolves under
them changes nothing an earlier line installed (pip keeps an installed version that satisfies a
requirement), and one that does not fails the test with pip's own account of the conflict. The
venv line's ``--upgrade-deps`` is played as a first line that installs the newest pip and
setuptools (without it, the newest pip alone). flash-attn's line runs its ``setup.py`` for its metadata, as pip would on the node,
with ``FLASH_ATTENTION_SKIP_CUDA_BUILD=TRUE`` (there is no CUDA toolkit here) and this
environment's torch importable (``--no-build-isolation``); ``--no-deps`` makes it install flash-attn
alone, so its requirements must come from the lines before it.

It asks PyPI (about a minute and a half; the two blocks resolve at once, one thread each, since
pip spends most of its time waiting on the index): pip's own timeout and retries bound each
request, and each line has a time limit.
"""

import json
import os
import platform
import re
import shlex
import subprocess
import sys
from concurrent.futures import Future, ThreadPoolExecutor
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


def gpu_block(name: str = "gpu-install") -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text[text.index(f"<!-- {name}:start -->") : text.index(f"<!-- {name}:end -->")]
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


# what each block's node ends with: vLLM's pins and what they force (the torch packages, vLLM,
# the transformers, verl, the CUDA runtime PyPI's torch is built for)
NODE = {
    "gpu-install": {"torch": "2.9.0", "torchvision": "0.24.0", "torchaudio": "2.9.0",
                    "vllm": "0.12.0", "verl": "0.7.1", "transformers": "4.57.",
                    "nvidia-cuda-runtime-cu12": "12.8."},  # torch 2.9.0 on PyPI: CUDA 12.8
    "gpu09-install": {"torch": "2.11.0", "torchvision": "0.26.0", "torchaudio": "2.11.0",
                      "vllm": "0.24.0", "verl": "0.9.1", "transformers": "5.9.",
                      "nvidia-cuda-runtime": "13.0."},  # torch 2.11.0 on PyPI: CUDA 13.0
}  # fmt: skip


def resolve_block(name: str, tmp_path) -> tuple[dict[str, str], list[str]]:
    """Every line of the block before flash-attn's, each under the versions the lines before it
    installed; returns what the node ends with and the block's pip lines."""
    lines = gpu_block(name)
    assert lines[1].startswith("python3 -m venv "), lines
    # --upgrade-deps: the newest pip and setuptools; else the newest pip alone
    first = VENV_LINE if "--upgrade-deps" in lines[1] else "pip install pip"
    pip_lines = [ln for ln in lines if ln.startswith("pip install")]
    assert "flash-attn" in pip_lines[-1], pip_lines
    installed: dict[str, str] = {}
    for line in [first, *pip_lines[:-1]]:
        got = resolve(line, installed, tmp_path)
        for pkg, item in got.items():
            if "dir_info" in item.get("download_info", {}):  # the project itself (-e .)
                continue
            version = item["metadata"]["version"]
            assert installed.setdefault(pkg, version) == version  # the constraints held
    for pkg, want in NODE[name].items():
        assert installed.get(pkg, "").startswith(want), (pkg, installed.get(pkg), want)
    return installed, pip_lines


def resolve_whole(name: str, tmp_path: Path) -> tuple[dict[str, str], list[str], dict]:
    """The block's lines, then flash-attn's alone with what its build imports and what it requires
    already installed: (what the node ends with, the pip lines, flash-attn's report)."""
    installed, pip_lines = resolve_block(name, tmp_path)
    flash = resolve(pip_lines[-1], installed, tmp_path, {"FLASH_ATTENTION_SKIP_CUDA_BUILD": "TRUE"})
    return installed, pip_lines, flash


@pytest.fixture(scope="module")
def blocks(tmp_path_factory) -> dict[str, Future]:
    names = ("gpu-install", "gpu09-install")
    with ThreadPoolExecutor(len(names)) as pool:
        yield {n: pool.submit(resolve_whole, n, tmp_path_factory.mktemp(n)) for n in names}


def check_flash_attn(installed: dict[str, str], line: str, flash: dict) -> None:
    assert list(flash) == ["flash-attn"]
    assert "--no-build-isolation" in line and "--no-deps" in line
    needs = [norm(re.split(r"[ ;<>=!~\[(]", r, maxsplit=1)[0])
             for r in flash["flash-attn"]["metadata"].get("requires_dist", [])]  # fmt: skip
    build = ["setuptools", "packaging", "psutil", "ninja"]  # setup.py's imports and setup_requires
    assert sorted(needs) == ["einops", "torch"]
    missing = [n for n in [*needs, *build] if n not in installed]
    assert not missing, f"flash-attn's line needs {missing}, which no line before it installs"
    assert tuple(int(x) for x in installed["setuptools"].split(".")[:2]) >= (70, 1)  # bdist_wheel


def test_the_gpu_block_resolves_and_no_line_changes_an_earlier_one(blocks):
    installed, pip_lines, flash = blocks["gpu-install"].result()
    assert "--upgrade-deps" in gpu_block("gpu-install")[1] and len(pip_lines) == 2
    v = installed
    assert v["huggingface-hub"].startswith("0.36.") and v["tokenizers"].startswith("0.22.")
    check_flash_attn(installed, pip_lines[-1], flash)
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


def test_the_verl09_gpu_block_resolves_and_no_line_changes_an_earlier_one(blocks):
    """verl 0.9.1's node. The venv is made without ``--upgrade-deps``: torch 2.11.0 requires
    setuptools<82, older than the newest."""
    installed, pip_lines, flash = blocks["gpu09-install"].result()
    assert len(pip_lines) == 2
    assert int(installed["numpy"].split(".")[0]) >= 2
    check_flash_attn(installed, pip_lines[-1], flash)

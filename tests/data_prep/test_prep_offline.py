"""``pac-verl prep multi-domain`` on a machine without network says it is the network, in
seconds: the tokenizer of the code filter is looked up in the local cache first and the hub is
asked once (it used to retry for about a minute, then blame the tokenizer), and hub sources are
probed before the build starts."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path


def prep(tmp_path: Path, *args: str) -> tuple[subprocess.CompletedProcess, float]:
    # a hub endpoint that refuses every connection, and empty caches: an offline machine
    env = {**os.environ, "HF_ENDPOINT": "http://127.0.0.1:9", "HF_HOME": str(tmp_path / "hf"),
           "HF_HUB_CACHE": str(tmp_path / "hf" / "hub"), "PAC_HOME": str(tmp_path)}  # fmt: skip
    env.pop("HF_HUB_OFFLINE", None)
    exe = Path(sys.executable).parent / "pac-verl"
    start = time.monotonic()
    res = subprocess.run([str(exe), "prep", "multi-domain", "--out", str(tmp_path / "md"), *args],
                         env=env, capture_output=True, text=True, timeout=300)  # fmt: skip
    return res, time.monotonic() - start


def assert_network_line(res: subprocess.CompletedProcess, seconds: float) -> str:
    err = res.stderr.strip()
    assert res.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
    assert "the network: the Hugging Face hub is unreachable from here" in err
    assert seconds < 30, seconds  # one request, not the hub's five retries per file
    return err


def test_the_code_filters_tokenizer_offline_is_the_network_in_seconds(tmp_path):
    res, seconds = prep(tmp_path, "--only", "code")
    err = assert_network_line(res, seconds)
    assert "--tokenizer Qwen/Qwen2.5-7B is not in the local Hugging Face cache" in err
    assert "--max-code-prompt-tokens 0" in err


def test_hub_sources_offline_are_the_network_before_the_build(tmp_path):
    res, seconds = prep(tmp_path, "--only", "kk")
    err = assert_network_line(res, seconds)
    assert "the sources kk come from the Hugging Face hub" in err and "HF_HUB_OFFLINE=1" in err
    assert not (tmp_path / "md").exists()

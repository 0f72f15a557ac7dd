"""A full disk while ``pac-verl prep toy`` writes the tiny model: one line that says "disk", and no
model folder a later command accepts. The user's case left a folder with a tokenizer and a
config but weights cut short, which the next preflight passed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from pac_verl.checks.node import check_model

# Run inside the real command: safetensors writes half the weights, then the disk is full.
FULL_DISK = """
import errno
import safetensors.torch as st

_save = st.save_file


def save_file(tensors, filename, metadata=None):
    _save(tensors, filename, metadata=metadata)
    data = open(filename, "rb").read()
    open(filename, "wb").write(data[: len(data) // 2])
    raise OSError(errno.ENOSPC, "No space left on device", str(filename))


st.save_file = save_file
"""


def prep_toy(tmp_path: Path, hook: bool) -> subprocess.CompletedProcess:
    site = tmp_path / "site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(FULL_DISK if hook else "")
    env = {**os.environ, "PYTHONPATH": str(site), "PAC_HOME": str(tmp_path)}
    exe = Path(sys.executable).parent / "pac-verl"
    return subprocess.run([str(exe), "prep", "toy", "--train-per-arm", "4", "--val-per-arm", "2",
                           "--force"], cwd=tmp_path, env=env, capture_output=True, text=True,
                          timeout=300)  # fmt: skip


def test_a_full_disk_while_writing_the_model_is_one_line_and_leaves_no_model(tmp_path):
    res = prep_toy(tmp_path, hook=True)
    err = res.stderr.strip()
    assert res.returncode == 2 and "Traceback" not in err and len(err.splitlines()) == 1, err
    model = tmp_path / "data" / "tiny-cpu"
    assert f"{model}: the disk is full while writing the tiny model" in err
    assert check_model(str(model)).status == "error"  # nothing a preflight would pass
    assert not [p for p in model.parent.iterdir() if ".staging-" in p.name]  # staging removed


def test_a_rebuild_that_hits_a_full_disk_keeps_the_earlier_model_whole(tmp_path):
    assert prep_toy(tmp_path, hook=False).returncode == 0
    model = tmp_path / "data" / "tiny-cpu"
    before = (model / "model.safetensors").read_bytes()
    res = prep_toy(tmp_path, hook=True)
    assert res.returncode == 2 and "disk is full" in res.stderr
    # the new build was staged beside it: the earlier model is untouched, and still a model
    assert (model / "model.safetensors").read_bytes() == before
    assert check_model(str(model)).status == "ok"


def test_the_preflight_refuses_weights_cut_short(tmp_path):
    assert prep_toy(tmp_path, hook=False).returncode == 0
    weights = tmp_path / "data" / "tiny-cpu" / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[: weights.stat().st_size // 2])
    finding = check_model(str(weights.parent))
    assert finding.status == "error" and "model.safetensors is cut short" in finding.detail

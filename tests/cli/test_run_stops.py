"""A run stopped by a full disk or Ctrl-C (:mod:`pac_verl.run_stops`): one line naming the cause,
no half-written checkpoint left for a resume to read, and the launcher lets the run stop what it
started instead of killing it at once (``subprocess.run`` sends SIGKILL 0.25 s after Ctrl-C,
which left Ray's agents running)."""

from __future__ import annotations

import errno
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
import torch

from pac_verl import run_stops
from pac_verl.run_stops import disk_full, partial_checkpoints, stop_cleanly


class FullDisk(io.RawIOBase):
    """A file on a disk that fills after ``room`` bytes (what the kernel says then: ENOSPC)."""

    def __init__(self, room: int = 1000):
        self.room = room

    def writable(self) -> bool:
        return True

    def write(self, data) -> int:
        self.room -= len(data)
        if self.room < 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        return len(data)


def torch_save_on_full_disk() -> BaseException:
    try:
        torch.save({"w": torch.zeros(10_000)}, FullDisk())
    except BaseException as err:  # torch says "unexpected pos": the ENOSPC is in its context
        return err
    raise AssertionError("torch.save did not fail")


def checkpoints(tmp_path: Path, done: int, partial: int) -> Path:
    ckpt = tmp_path / "ckpt"
    for step in (done, partial):
        (ckpt / f"global_step_{step}" / "actor").mkdir(parents=True)
    (ckpt / "latest_checkpointed_iteration.txt").write_text(str(done))
    return ckpt


def test_a_full_disk_under_torch_save_is_named_and_the_half_checkpoint_removed(tmp_path, capsys):
    err = torch_save_on_full_disk()
    assert "space" not in str(err).lower()  # torch's own message never says "disk"
    assert disk_full(err)
    ckpt = checkpoints(tmp_path, done=4, partial=6)
    assert partial_checkpoints(ckpt) == [ckpt / "global_step_6"]

    def train():
        raise err

    with pytest.raises(SystemExit) as stop:
        stop_cleanly(train, ckpt, "pac_verl.main")
    assert stop.value.code == 1
    line = capsys.readouterr().err.strip()
    assert len(line.splitlines()) == 1 and line.startswith("pac_verl.main: error: the disk is full")
    assert f"writing under {ckpt} failed" in line and "it resumes from step 4" in line
    assert "removed the half-written global_step_6" in line
    assert not (ckpt / "global_step_6").exists() and (ckpt / "global_step_4").exists()


def test_a_remote_write_failure_counts_as_a_full_disk_only_where_the_disk_is_full(
    tmp_path, monkeypatch
):
    # what a Ray worker's checkpoint save reports, as text, on a full disk
    err = RuntimeError("ray::WorkerDict.actor_rollout_save_checkpoint() ... [enforce fail at "
                       "inline_container.cc:858] . PytorchStreamWriter failed writing file data/0: "
                       "file write failed")  # fmt: skip
    assert not disk_full(err, tmp_path)  # this disk has room: some other write error
    monkeypatch.setattr(run_stops, "free_bytes", lambda folder: 10 * 2**20)
    assert disk_full(err, tmp_path)
    assert disk_full(RuntimeError("safetensors: IoError(... No space left on device ...)"))
    assert not disk_full(ValueError("a bug"), tmp_path)


def test_another_error_is_not_renamed(tmp_path):
    def train():
        raise ValueError("a bug")

    with pytest.raises(ValueError, match="a bug"):
        stop_cleanly(train, tmp_path, "pac_verl.main")


def test_ctrl_c_in_the_driver_is_one_line_and_exit_130(tmp_path, capsys):
    def train():
        raise KeyboardInterrupt

    with pytest.raises(SystemExit) as stop:
        stop_cleanly(train, tmp_path, "pac_verl.main")
    assert stop.value.code == 130
    err = capsys.readouterr().err.strip()
    assert err.startswith("pac_verl.main: interrupted (Ctrl-C)") and len(err.splitlines()) == 1


# a training run that needs a second to stop what it started when Ctrl-C reaches it
CHILD = """
import signal, sys, time
from pathlib import Path
out = Path(sys.argv[1])
def stop(*_):
    time.sleep(1.0)  # ray.shutdown()
    (out / "stopped").write_text("clean")
    sys.exit(130)
signal.signal(signal.SIGINT, stop)
(out / "ready").write_text("")
time.sleep(60)
"""
LAUNCHER = """
import sys
from pac_verl.launch import run_child
try:
    run_child([sys.executable, "-c", sys.argv[1], sys.argv[2]], ".", None)
except KeyboardInterrupt:
    print("launcher: interrupted", file=sys.stderr)
    sys.exit(130)
"""


def test_the_launcher_lets_an_interrupted_run_stop_what_it_started(tmp_path):
    proc = subprocess.Popen([sys.executable, "-c", LAUNCHER, CHILD, str(tmp_path)],
                            stderr=subprocess.PIPE, text=True, start_new_session=True)  # fmt: skip
    deadline = time.monotonic() + 60
    while not (tmp_path / "ready").exists():
        assert time.monotonic() < deadline and proc.poll() is None
        time.sleep(0.05)
    os.killpg(proc.pid, signal.SIGINT)  # Ctrl-C: the whole foreground group
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130 and "Traceback" not in err, err
    assert (tmp_path / "stopped").read_text() == "clean"  # not killed during its clean-up


def test_a_full_disk_writing_the_run_log_names_that_file(tmp_path, capsys):
    run_json = tmp_path / "runs" / "x" / "run.json"

    def train():
        raise OSError(errno.ENOSPC, "No space left on device", str(run_json))

    with pytest.raises(SystemExit):
        stop_cleanly(train, tmp_path / "ckpt", "pac_verl.main")
    line = capsys.readouterr().err.strip()
    assert f"the disk is full: writing {run_json} failed" in line and "from the start" in line


# the driver of a run: Ray started, then Ctrl-C while it trains
DRIVER = """
import json, os, signal, sys, time
import psutil, ray
from pac_verl.run_stops import stop_cleanly
ray.init(num_cpus=1, include_dashboard=False, log_to_driver=False)
node = ray._private.worker._global_node
started = [psutil.Process(p.process.pid) for ps in node.all_processes.values() for p in ps]
pids = {p.pid for p in started} | {c.pid for p in started for c in p.children(recursive=True)}
open(sys.argv[1], "w").write(json.dumps(sorted(pids)))
def train():
    os.kill(os.getpid(), signal.SIGINT)
    time.sleep(60)
stop_cleanly(train, sys.argv[2], "pac_verl.main")
"""


@pytest.mark.slow  # starts a local Ray instance (about 10 s)
@pytest.mark.ray
def test_ctrl_c_stops_the_ray_processes_the_run_started(tmp_path):
    import json

    import psutil

    pids_file = tmp_path / "pids.json"
    res = subprocess.run([sys.executable, "-c", DRIVER, str(pids_file), str(tmp_path / "ckpt")],
                         capture_output=True, text=True, timeout=180)  # fmt: skip
    assert res.returncode == 130 and "Traceback" not in res.stderr, res.stderr[-3000:]
    assert "pac_verl.main: interrupted (Ctrl-C): Ray's processes are stopped" in res.stderr
    pids = json.loads(pids_file.read_text())
    assert pids  # raylet, GCS, agents...

    def alive(pid: int) -> bool:
        try:
            return psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
        except psutil.NoSuchProcess:
            return False

    deadline = time.monotonic() + 15
    while any(alive(p) for p in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [p for p in pids if alive(p)]

"""The sandbox's isolation levels (``strict``, ``namespaces``, ``none``): each scores right programs 1
and wrong ones 0 in all three test formats, an unknown level is a clear error, the isolation
report and the node checks name the active level (and a missing bubblewrap); a hostile run
leaves no cgroup, mount or IPC object behind on the host; concurrency slots hold node-wide
(docs/guides/sandbox.md)."""

import json
import os
from pathlib import Path

import pytest

from pac_verl.errors import UserError
from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.sandbox import Limits, isolation_report

LIMITS = Limits(wall_seconds=6.0, cpu_seconds=3, memory_mb=512)
ADD = json.dumps({"functional": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"})
SOLUTION = "def add(a, b):\n    return a + b\n"
STDIO = json.dumps({"inputs": ["3\n", "10\n"], "outputs": ["6\n", "20"]})
BCB = json.dumps(
    {
        "test": "import unittest\nclass T(unittest.TestCase):\n"
        "    def test_a(self):\n        self.assertEqual(task_func(5), 25)\n",
        "entry_point": "task_func",
    }
)


def test_isolation_report_names_the_active_level():
    report = isolation_report()
    assert report["isolation"] == "strict" and report["backend"] == "local"
    assert report["cgroup"] in ("v1", "v2") and report["concurrency"] >= 1


@pytest.mark.parametrize("mode", ["strict", "namespaces", "none"])
def test_every_isolation_level_scores_right_programs_one_and_wrong_ones_zero(mode, monkeypatch):
    monkeypatch.setenv("PAC_SANDBOX_ISOLATION", mode)
    assert isolation_report()["isolation"] == mode
    cases = [
        (SOLUTION, "def add(a, b):\n    return a - b\n", ADD),
        ("print(2 * int(input()))\n", "print(3 * int(input()))\n", STDIO),
        ("def task_func(x):\n    return x * x\n", "def task_func(x):\n    return x\n", BCB),
    ]
    for right, wrong, truth in cases:
        assert code_scorer.score(f"```python\n{right}```", truth, limits=LIMITS).reason == "ok"
        assert code_scorer.score(f"```python\n{wrong}```", truth, limits=LIMITS).score == 0.0


def test_an_unknown_isolation_level_is_a_clear_error(monkeypatch):
    monkeypatch.setenv("PAC_SANDBOX_ISOLATION", "fallback")
    with pytest.raises(UserError, match="strict"):
        code_scorer.score(f"```python\n{SOLUTION}```", ADD, limits=LIMITS)


def test_node_checks_report_the_sandbox_level_and_a_missing_bubblewrap(monkeypatch):
    from pac_verl.checks.node import check_sandbox

    found = check_sandbox()
    assert found.status == "ok" and "'strict'" in found.detail
    monkeypatch.setenv("PAC_SANDBOX_BWRAP", "/nonexistent/bwrap")
    found = check_sandbox()
    assert found.status == "error" and "bubblewrap" in found.detail


def test_a_hostile_run_leaves_no_cgroup_no_mount_and_no_ipc_object():
    # this process's run groups only (run-<pid>-...): other scorers on the machine come and go
    ours = f"*/**/pac-sandbox/run-{os.getpid()}-*"
    before = {p.name for p in Path("/sys/fs/cgroup").glob(ours)}
    mounts = Path("/proc/self/mountinfo").read_text()
    src = (
        "import ctypes, os\nlibc = ctypes.CDLL(None)\nlibc.shmget(0x5AC0FFEF, 4096, 0o1666)\n"
        "os.fork()\nos.fork()\nimport time\ntime.sleep(30)\n" + SOLUTION
    )
    verdict = code_scorer.score(
        f"```python\n{src}```", ADD, limits=Limits(wall_seconds=2, cpu_seconds=1)
    )
    assert verdict.score == 0.0
    after = {p.name for p in Path("/sys/fs/cgroup").glob(ours)}
    assert after - before == set()
    assert Path("/proc/self/mountinfo").read_text() == mounts
    assert "1522597871" not in Path("/proc/sysvipc/shm").read_text().split()


def _hold_slot(folder: str) -> int:
    """In a child process: take a slot three times; each time claim a marker file for the slot's
    number with O_EXCL, so two holders of one slot would collide. Returns the collisions."""
    import os as _os
    import time as _time

    from pac_verl.verifiers.sandbox.slots import slot

    collisions = 0
    for _ in range(3):
        with slot() as i:
            marker = _os.path.join(folder, f"held-{i}")
            try:
                fd = _os.open(marker, _os.O_CREAT | _os.O_EXCL | _os.O_WRONLY)
            except FileExistsError:
                collisions += 1
                continue
            _time.sleep(0.1)
            _os.close(fd)
            _os.unlink(marker)
    return collisions


def test_concurrency_slots_are_node_wide(tmp_path, monkeypatch):
    import multiprocessing

    monkeypatch.setenv("PAC_SANDBOX_CONCURRENCY", "1")
    with multiprocessing.get_context("spawn").Pool(3) as pool:
        assert pool.map(_hold_slot, [str(tmp_path)] * 3) == [0, 0, 0]


# a stdin/stdout program that ignores its input and answers by run order: case 0 prints 6, case 1
# prints 20 (STDIO's outputs), from a counter it keeps where it can write
_BY_RUN_ORDER = (
    "import os\np = {where}\n"
    "n = int(open(p).read()) if os.path.exists(p) else 0\n"
    "open(p, 'w').write(str(n + 1))\nprint([6, 20][n % 2])\n"
)
# the same counter kept by a process the first case leaves behind
_BY_DAEMON = (
    "import os, time\np = '/tmp/count'\n"
    "n = int(open(p).read()) if os.path.exists(p) else 0\n"
    "if n == 0 and os.fork() == 0:\n"
    "    os.setsid()\n"
    "    while True:\n"
    "        time.sleep(0.005)\n"
    "        if not os.path.exists(p):\n"
    "            open(p, 'w').write('1')\n"
    "open(p, 'w').write(str(n + 1))\nprint([6, 20][n % 2])\n"
)


@pytest.mark.parametrize(
    "program",
    [_BY_RUN_ORDER.format(where=w) for w in ("'/tmp/count'", "'/dev/shm/count'", "'count'",
                                             "os.path.expanduser('~/count')")]
    + [_BY_DAEMON],
    ids=["tmp", "shm", "workdir", "home", "daemon"],
)  # fmt: skip
def test_every_stdin_case_starts_afresh(program):
    """A judge runs each case as the first: nothing a case wrote, and no process it left, is
    there for the next, so a program cannot answer by run order instead of by its input."""
    verdict = code_scorer.score(f"```python\n{program}```", STDIO, limits=LIMITS)
    assert verdict.reason == "tests_failed", verdict
    counted = "import os\nopen('/tmp/x', 'a').write('.')\nprint(2 * int(input()))\n"
    assert code_scorer.score(f"```python\n{counted}```", STDIO, limits=LIMITS).reason == "ok"

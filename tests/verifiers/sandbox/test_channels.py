"""What a run may send back, and through what: a stdin/stdout program that crashes
after printing the right output fails; what a program writes to the report channel cannot grow the
scoring process; two runs cannot signal each other through locks on the files they share."""

import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.sandbox import Limits

LIMITS = Limits(wall_seconds=20.0, cpu_seconds=5, memory_mb=1024)
DOUBLE = json.dumps({"inputs": ["3\n", "10\n"], "outputs": ["6\n", "20"]})


def run(src: str, truth: str, limits: Limits = LIMITS):
    return code_scorer.score(f"```python\n{src}\n```", truth, limits=limits)


# ---- stdin/stdout: the exit status counts -------------------------------------------------

PRINT_THEN = {
    "raise": "print(2 * int(input()))\nraise RuntimeError('after the output')\n",
    "exit 1": "import sys\nprint(2 * int(input()))\nsys.exit(1)\n",
    "exit with a message": "import sys\nprint(2 * int(input()))\nsys.exit('failed')\n",
    "killed": "import os, signal, sys\nprint(2 * int(input()))\nsys.stdout.flush()\n"
    "os.kill(os.getpid(), signal.SIGKILL)\n",
}


@pytest.mark.parametrize("how", list(PRINT_THEN))
def test_printing_the_answer_then_crashing_scores_0(how):
    assert run(PRINT_THEN[how], DOUBLE).reason == "tests_failed"


@pytest.mark.parametrize(
    "src",
    [
        "print(2 * int(input()))\n",
        "import sys\nprint(2 * int(input()))\nsys.exit(0)\n",
        "import sys\nprint(2 * int(input()))\nsys.exit()\n",
    ],
)
def test_a_clean_exit_after_the_answer_scores_1(src):
    assert run(src, DOUBLE).reason == "ok"


# ---- the report channel: what the scorer reads is bounded --------------------------------

FLOOD = (
    "import os, stat\n"
    "for fd in range(3, 64):\n"
    "    try:\n"
    "        if stat.S_ISREG(os.fstat(fd).st_mode):\n"
    "            for _ in range(63):\n"
    "                os.write(fd, b'\\n' * (1 << 20))\n"
    "    except OSError:\n"
    "        pass\n"
    "def task_func(x):\n    return x * x\n"
)
SQUARE = json.dumps(
    {
        "test": "import unittest\nclass TestCases(unittest.TestCase):\n"
        "    def test(self):\n        self.assertEqual(task_func(3), 9)\n",
        "entry_point": "task_func",
    }
)
PEAK_RSS = (
    "import json, resource, sys\n"
    "from pac_verl.verifiers import code\n"
    "from pac_verl.verifiers.sandbox import Limits\n"
    "limits = Limits(wall_seconds=60, cpu_seconds=20, memory_mb=1024, file_bytes=64 << 20)\n"
    "src, truth = json.loads(sys.stdin.read())\n"
    "verdict = code.score(f'```python\\n{src}\\n```', truth, limits=limits)\n"
    "print(json.dumps([verdict.reason, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss]))\n"
)


def peak_rss_kib(src: str, truth: str) -> tuple[str, int]:
    """(reason, the scoring process's peak resident memory in KiB), scored in a fresh process."""
    out = subprocess.run([sys.executable, "-c", PEAK_RSS], input=json.dumps([src, truth]),
                         capture_output=True, text=True, timeout=300, check=True).stdout  # fmt: skip
    reason, kib = json.loads(out.strip().splitlines()[-1])
    return reason, kib


@pytest.mark.slow
def test_flooding_the_report_channel_does_not_grow_the_scorer():
    # 63 MiB of empty lines: the scorer must not read (let alone decode and split) more than the
    # report's bound. Before the bound it grew by about 3 GiB (66 million empty strings).
    from pac_verl.verifiers.sandbox.types import REPORT_BYTES

    reason, flooded = peak_rss_kib(FLOOD, SQUARE)
    _, baseline = peak_rss_kib("def task_func(x):\n    return x * x\n", SQUARE)
    assert reason != "ok"
    # reading REPORT_BYTES and splitting it into lines holds at most twice that at once
    assert (flooded - baseline) * 1024 < 4 * REPORT_BYTES


# ---- locks on shared files are no channel between runs -----------------------------------

LOCK_WRITER = (
    "import fcntl, json, os, struct, time\n"
    "def task_func():\n"
    "    held = []\n"
    "    for path in (os.__file__, '/dev/null'):\n"
    "        fd = os.open(path, os.O_RDONLY)\n"
    "        fcntl.flock(fd, fcntl.LOCK_EX)\n"
    "        held.append(fd)\n"
    "    fd = os.open(json.__file__, os.O_RDONLY)\n"  # a POSIX read lock on a read-only file
    "    fcntl.fcntl(fd, fcntl.F_SETLK, struct.pack('hhqqi', fcntl.F_RDLCK, 0, 0, 0, 0))\n"
    "    held.append(fd)\n"
    "    fd = os.open('/dev/zero', os.O_RDWR)\n"  # a POSIX write lock on a shared device
    "    fcntl.lockf(fd, fcntl.LOCK_EX)\n"
    "    held.append(fd)\n"
    "    time.sleep(4)\n"
    "    return True\n"
)
LOCK_READER = (
    "import fcntl, json, os, struct, unittest, time\n"
    "def flocked(path):\n"
    "    fd = os.open(path, os.O_RDONLY)\n"
    "    try:\n"
    "        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
    "        return False\n"
    "    except OSError:\n"
    "        return True\n"
    "    finally:\n"
    "        os.close(fd)\n"
    "def posix_locked(path):\n"
    "    fd = os.open(path, os.O_RDONLY)\n"
    "    try:\n"
    "        got = fcntl.fcntl(fd, fcntl.F_GETLK, struct.pack('hhqqi', fcntl.F_WRLCK, 0, 0, 0, 0))\n"
    "        return struct.unpack('hhqqi', got)[0] != fcntl.F_UNLCK\n"
    "    except OSError:\n"
    "        return False\n"
    "    finally:\n"
    "        os.close(fd)\n"
    "def write_locked(path):\n"
    "    fd = os.open(path, os.O_RDWR)\n"
    "    try:\n"
    "        fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)\n"
    "        return False\n"
    "    except OSError:\n"
    "        return True\n"
    "    finally:\n"
    "        os.close(fd)\n"
    "def task_func():\n"
    # each probe against a control that nobody locks: a channel shows as a difference
    "    control = unittest.__file__\n"
    "    return (flocked(os.__file__) and not flocked(control)) or flocked('/dev/null') or (\n"
    "        posix_locked(json.__file__) and not posix_locked(control)) or (\n"
    "        write_locked('/dev/zero') and not write_locked('/dev/urandom'))\n"
)
ASSERT_TRUE = json.dumps(
    {
        "test": "import unittest\nclass TestCases(unittest.TestCase):\n"
        "    def test(self):\n        self.assertTrue(task_func())\n",
        "entry_point": "task_func",
    }
)


def _host_locks(inode: int) -> bool:
    with open("/proc/locks") as f:
        return any(line.split()[5].endswith(f":{inode}") for line in f if len(line.split()) > 5)


@pytest.mark.slow
def test_locks_on_shared_files_are_no_channel_between_runs():
    limits = Limits(wall_seconds=30.0, cpu_seconds=10, memory_mb=1024)
    inode = os.stat(os.__file__).st_ino  # the sandbox mounts this interpreter's own stdlib
    with ThreadPoolExecutor(1) as pool:
        writer = pool.submit(run, LOCK_WRITER, ASSERT_TRUE, limits)
        readers, seen_on_host = [], False
        while not writer.done():
            seen_on_host = seen_on_host or _host_locks(inode)
            readers.append(run(LOCK_READER, ASSERT_TRUE, limits).reason)
            time.sleep(0.2)
    assert writer.result().reason == "ok"  # the writer's locks were granted (or seemed to be)
    # at least one reader ran while the writer held its locks (the loop runs only then); one
    # is enough to see a channel, and a loaded machine may fit no second into the writer's hold
    assert len(readers) >= 1
    assert "ok" not in readers, readers
    assert not seen_on_host


# ---- functional: the call server's answers ----------------------------------------------------

# What the call server would send for `assert add(2, 3) == 987654` had `add` returned 987654: the
# load answer (add is handle 0) and the call's answer (987654 is 0xf1206). The program writes
# them into every descriptor it has, itself or from a forked child, before the server's own lines.
INJECT = (
    "import os\n"
    'LINES = b\'["ready",{"add":["h",0]}]\\n["ok",["i","f1206"],[]]\\n\'\n'
    "def inject():\n"
    "    for fd in range(3, 64):\n"
    "        try:\n"
    "            os.write(fd, LINES)\n"
    "        except OSError:\n"
    "            pass\n"
    "{how}\n"
    "def add(a, b):\n"
    "    return a + b\n"
)
INJECT_HOW = {
    "the program": "inject()",
    "a forked child": "pid = os.fork()\nif pid == 0:\n    inject()\n    os._exit(0)\n"
    "os.waitpid(pid, 0)",
}


@pytest.mark.parametrize("how", list(INJECT_HOW))
def test_answer_lines_the_call_server_did_not_send_are_refused(how):
    truth = json.dumps({"functional": "assert add(2, 3) == 987654"})
    verdict = run(INJECT.replace("{how}", INJECT_HOW[how]), truth)
    assert verdict.score == 0
    assert verdict.reason == "no_result"  # the first line is not the server's: the run is spoilt
    # the same program without the lines is a plain wrong answer
    assert run(INJECT.replace("{how}", ""), truth).reason == "tests_failed"

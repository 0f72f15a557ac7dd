"""The code sandbox (docs/concepts/spec.md#code-sandbox) and the code scorer: correct programs pass in all three test formats;
hostile programs score 0 and leave no process and no file behind."""

import json
import os
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.sandbox import Limits, isolation_report

LIMITS = Limits(wall_seconds=4.0, cpu_seconds=3, memory_mb=768, output_bytes=1 << 20)
FUNCTIONAL = json.dumps({"functional": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"})
STDIO = json.dumps({"inputs": ["3\n", "10\n"], "outputs": ["6\n", "20"]})
BCB = json.dumps(
    {
        "test": "import unittest\n"
        "class TestTask(unittest.TestCase):\n"
        "    def test_one(self):\n        self.assertEqual(task_func(2), 4)\n"
        "    def test_two(self):\n        self.assertEqual(task_func(5), 25)\n",
        "entry_point": "task_func",
    }
)


def fenced(src: str) -> str:
    return f"Here is my solution.\n```python\n{src}\n```\n"


def run(src: str, truth: str = FUNCTIONAL):
    return code_scorer.score(fenced(src), truth, limits=LIMITS)


def _sandbox_processes() -> list[str]:
    found = []
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            except OSError:
                continue
            # bubblewrap, or the harness (/pac/harness.py) inside it, of this interpreter: other
            # checkouts' test runs on the same machine are not ours to count
            if (b"harness.py" in cmd or b"bwrap" in cmd) and sys.prefix.encode() in cmd:
                found.append(pid)
    return found


@pytest.fixture
def clean_machine(tmp_path_factory, monkeypatch):
    """No sandbox process of this interpreter is left on the machine, and nothing is left in the
    temporary folder this test's sandbox runs were given (a private one: other checkouts' and
    other test workers' runs come and go in /tmp)."""
    private = tmp_path_factory.mktemp("sandbox-tmp")
    monkeypatch.setattr(tempfile, "tempdir", str(private))
    yield
    assert _sandbox_processes() == []
    deadline = time.monotonic() + 15  # a run's folder goes with its last process
    while (leftovers := sorted(os.listdir(private))) and time.monotonic() < deadline:
        time.sleep(0.5)
    assert leftovers == []


def test_isolation_is_reported():
    assert isolation_report()["isolation"] == "strict"  # the default; CI's machine can give it


@pytest.mark.serial  # clean_machine counts the sandbox processes on the machine
@pytest.mark.parametrize(
    ("src", "truth"),
    [
        ("def add(a, b):\n    return a + b", FUNCTIONAL),
        ("n = int(input())\nprint(n * 2)", STDIO),
        ("import sys\nprint(2 * int(sys.stdin.read()))", STDIO),
        ("def task_func(x):\n    return x * x", BCB),
    ],
)
def test_correct_programs_pass(src, truth, clean_machine):
    assert run(src, truth).reason == "ok"


@pytest.mark.serial  # clean_machine counts the sandbox processes on the machine
@pytest.mark.parametrize(
    ("src", "truth"),
    [
        ("def add(a, b):\n    return a - b", FUNCTIONAL),
        ("print(int(input()) * 3)", STDIO),
        ("def task_func(x):\n    return x + x", BCB),  # 2 -> 4 passes, 5 -> 10 fails
    ],
)
def test_wrong_programs_fail(src, truth, clean_machine):
    assert run(src, truth).reason == "tests_failed"


def test_answer_tag_and_no_code():
    truth = FUNCTIONAL
    assert code_scorer.score("<answer>def add(a, b): return a + b</answer>", truth, LIMITS).correct
    assert code_scorer.score("I cannot write code.", truth, LIMITS).reason == "no_code"
    assert code_scorer.score(fenced("x = 1"), "not json", LIMITS).reason == "bad_ground_truth"


@pytest.mark.serial  # clean_machine counts the sandbox processes on the machine
def test_missing_library_of_the_tests_is_not_a_model_failure(clean_machine):
    truth = json.dumps({"test": BCB_MISSING, "entry_point": "task_func"})
    assert run("def task_func(x):\n    return x", truth).reason == "missing_library"


BCB_MISSING = (
    "import unittest\nimport pac_no_such_library_xyz\n"
    "class T(unittest.TestCase):\n    def test(self):\n        self.assertTrue(True)\n"
)


def hostile(tmp_marker: Path) -> dict[str, str]:
    return {
        "infinite loop": "while True:\n    pass",
        "sleep forever": "import time\ntime.sleep(60)",
        "fork bomb": "import os\nwhile True:\n    try:\n        os.fork()\n    except OSError:\n        pass",
        "memory bomb": "x = []\nwhile True:\n    x.append(' ' * 10_000_000)",
        "100 MB of output": "import sys\nfor _ in range(100):\n    sys.stdout.write('x' * 1_000_000)",
        "write outside": f"open({str(tmp_marker)!r}, 'w').write('pwned')\ndef add(a, b): return a + b",
        "socket": "import socket\ns = socket.create_connection(('127.0.0.1', 22), timeout=1)\n"
        "def add(a, b): return a + b",
        "kill parent": "import os, signal\nos.kill(os.getppid(), signal.SIGKILL)\n"
        "def add(a, b): return a + b",
        "kill group": "import os, signal\nos.killpg(0, signal.SIGKILL)",
        # survive the parent's death (no parent-death signal), kill it, then pass the tests:
        # the harness reports "ok", but a run whose process tree was killed counts for nothing
        "kill parent and survive": "import ctypes, os, signal\nctypes.CDLL(None).prctl(1, 0, 0, 0, 0)\n"
        "os.kill(os.getppid(), signal.SIGKILL)\ndef add(a, b): return a + b",
        "os._exit before tests": "import os\nos._exit(0)",
        "sys.exit before tests": "import sys\nsys.exit(0)",
        "patch builtins": "import builtins\nbuiltins.AssertionError = type('N', (Exception,), {})\n"
        "def add(a, b): return 0",
        "fake success line": "print('OK')\nprint('{\"reason\": \"ok\"}')\nimport os\nos._exit(0)",
        "forge result fd": "import os\nfor fd in range(3, 64):\n    try:\n        os.write(fd, b'0' * 32 + b' {\"reason\": \"ok\"}\\n')\n"
        "    except OSError:\n        pass\nos._exit(0)",
    }


@pytest.mark.serial  # clean_machine counts the sandbox processes on the machine
@pytest.mark.parametrize("name", list(hostile(Path("/x"))))
def test_hostile_programs_score_zero_and_leave_nothing(name, tmp_path, clean_machine):
    marker = tmp_path / "marker"
    verdict = run(hostile(marker)[name])
    assert verdict.score == 0.0, verdict
    assert not marker.exists()


@pytest.mark.serial  # clean_machine counts the sandbox processes on the machine
def test_monkeypatched_unittest_is_caught(clean_machine):
    src = (
        "import unittest\n"
        "unittest.TestCase.assertEqual = lambda self, a, b, msg=None: None\n"
        "def task_func(x):\n    return 0"
    )
    assert run(src, BCB).reason in ("tampered", "tests_failed")  # denied by the audit hook


@pytest.mark.serial  # clean_machine counts the sandbox processes on the machine
def test_concurrent_sandboxes_do_not_interfere(clean_machine):
    good, bad = "def add(a, b):\n    return a + b", "def add(a, b):\n    return a * b"
    jobs = [good, bad] * 3
    with ThreadPoolExecutor(max_workers=6) as pool:
        verdicts = list(pool.map(run, jobs))
    assert [v.score for v in verdicts] == [1.0, 0.0] * 3


@settings(max_examples=25, deadline=None)
@given(text=st.text(max_size=200))
def test_fuzz_code_scorer_never_raises(text):
    verdict = code_scorer.score(text, FUNCTIONAL, limits=Limits(wall_seconds=2, cpu_seconds=1))
    assert 0.0 <= verdict.score <= 1.0

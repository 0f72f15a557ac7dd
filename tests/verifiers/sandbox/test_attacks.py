"""One test per attack class on the code sandbox. Each program here is what a
reward-hacking policy would write; none of them solves its task, so each must score 0 (or, for the
environment faults, a correct program must score 1). Written before the defences."""

import json
import os
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from pac_verl.errors import UserError
from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers import compute_score
from pac_verl.verifiers.sandbox import Limits

LIMITS = Limits(wall_seconds=6.0, cpu_seconds=3, memory_mb=512, output_bytes=1 << 20)
ADD = json.dumps({"functional": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"})
BCB_TEMPLATE = (
    "import unittest\nimport json\n"
    "class TestTask(unittest.TestCase):\n"
    "    def test_one(self):\n        self.assertEqual(task_func(2), 4)\n"
    "    def test_two(self):\n        self.assertEqual(task_func(5), 25)\n"
)
BCB = json.dumps({"test": BCB_TEMPLATE, "entry_point": "task_func"})


def fenced(src: str) -> str:
    return f"```python\n{src}\n```"


def run(src: str, truth: str = ADD, limits: Limits = LIMITS):
    return code_scorer.score(fenced(src), truth, limits=limits)


def probe(expr_src: str, setup: str = "", limits: Limits = LIMITS):
    """Score a program whose ``probe()`` returns ``expr_src``'s value; the test asserts it is True,
    so a score of 1 means the program could do what ``expr_src`` tries."""
    # ctypes only where a probe needs it: the sandbox denies ctypes.dlopen, which `import ctypes`
    # itself calls, so a probe importing it fails whatever it tries
    src = f"import os, sys\n{setup}\ndef probe():\n    return bool({expr_src})\n"
    return run(src, json.dumps({"functional": "assert probe() == True"}), limits)


def test_a_probe_can_succeed():
    # the control for every probe below: one that asks for something allowed scores 1
    assert probe("os.getpid() < 10 and os.path.isdir('/usr')").reason == "ok"


# ---- reward hacks: score 1 without solving -------------------------------------------------


@pytest.mark.parametrize(
    "liar",
    [
        "class Liar:\n    def __eq__(self, other):\n        return True\n",
        "class Liar(int):\n    def __eq__(self, other):\n        return True\n"
        "    __hash__ = int.__hash__\n",
        "class Liar:\n    def __eq__(self, other):\n        return self\n    def __bool__(self):\n"
        "        return True\n",
    ],
)
def test_values_that_lie_score_zero(liar):
    assert run(liar + "def add(a, b):\n    return Liar()\n").score == 0.0


def test_shadowing_what_the_tests_use_scores_zero():
    truth = json.dumps({"functional": "assert sorted(f([3, 1, 2])) == [1, 2, 3]"})
    src = "def sorted(x):\n    return [1, 2, 3]\ndef f(x):\n    return x\n"
    assert run(src.replace("return x", "return [0]"), truth).score == 0.0


def test_a_fake_module_on_the_path_scores_zero():
    # the tests compute the expected side with json; a fake json agrees with anything
    src = (
        "import sys, types\nfake = types.ModuleType('json')\nfake.loads = lambda s: 0\n"
        "sys.modules['json'] = fake\ndef task_func(x):\n    return 0\n"
    )
    test = BCB_TEMPLATE.replace("task_func(2), 4", "task_func(2), json.loads('4')").replace(
        "task_func(5), 25", "task_func(5), json.loads('25')"
    )
    assert run(src, json.dumps({"test": test, "entry_point": "task_func"})).score == 0.0


FORGERS = {
    "gc": "import gc, os\nfor o in gc.get_objects():\n"
    "    if callable(o) and getattr(o, '__name__', '') == 'report':\n"
    "        try:\n            o('ok')\n        except Exception:\n            pass\nos._exit(0)\n",
    "frames": "import sys, os\nf = sys._getframe()\nwhile f is not None:\n"
    "    r = f.f_locals.get('report')\n    if callable(r):\n        r('ok')\n        os._exit(0)\n"
    "    f = f.f_back\n",
    "traceback": "import os\ntry:\n    raise ValueError\nexcept ValueError as e:\n"
    "    f = e.__traceback__.tb_frame\nwhile f is not None:\n    r = f.f_locals.get('report')\n"
    "    if callable(r):\n        r('ok')\n        os._exit(0)\n    f = f.f_back\n",
}


@pytest.mark.parametrize("how", list(FORGERS))
@pytest.mark.parametrize("truth", [ADD, BCB], ids=["functional", "unittest"])
def test_reaching_the_judge_to_forge_a_verdict_scores_zero(how, truth):
    wrong = "def add(a, b):\n    return 0\ndef task_func(x):\n    return 0\n"
    assert run(wrong + FORGERS[how], truth).score == 0.0


def test_expected_values_are_out_of_reach_of_the_program():
    # read the expected side of the assert from the caller's code object and return it
    src = (
        "import sys\ndef add(a, b):\n    f = sys._getframe(1)\n"
        "    consts = [c for c in f.f_code.co_consts if isinstance(c, int)]\n"
        "    return consts[-1] if consts else 0\n"
    )
    assert run(src, json.dumps({"functional": "assert add(2, 3) == 7"})).score == 0.0


def test_a_raised_module_not_found_is_the_model_failure():
    src = "raise ModuleNotFoundError(\"No module named 'json'\", name='json')\n"
    assert run(src, BCB).reason == "tests_failed"


@pytest.mark.parametrize(
    "truth",
    [
        {"functional": ""},
        {"functional": "# nothing to check\nx = 1\n"},
        {"inputs": [], "outputs": []},
        {"test": "import unittest\n", "entry_point": "task_func"},
    ],
)
def test_an_empty_test_set_is_a_bad_ground_truth(truth):
    src = "def add(a, b):\n    return a + b\ndef task_func(x):\n    return x * x\n"
    assert run(src, json.dumps(truth)).reason == "bad_ground_truth"


# ---- escapes and interference ---------------------------------------------------------------


def test_the_host_filesystem_is_out_of_sight(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("s3cret")
    secret.chmod(0o600)
    assert probe(f"open({str(secret)!r}).read() == 's3cret'").score == 0.0
    assert probe("os.path.exists('/etc/shadow') or os.path.exists('/root/.bashrc')").score == 0.0
    assert probe(f"os.path.exists({str(Path(__file__).resolve())!r})").score == 0.0


def test_the_host_proc_sockets_and_devices_are_out_of_sight():
    assert probe(f"os.path.exists('/proc/{os.getpid()}/status')").score == 0.0
    assert probe("os.path.exists('/run/dbus') or os.path.exists('/run/systemd')").score == 0.0
    extra = "set(os.listdir('/dev')) - {'null', 'zero', 'urandom', 'shm', 'fd', 'stdin', 'stdout', 'stderr'}"
    assert probe(extra).score == 0.0


SHM_KEY = 0x5AC0FFEE


def test_sysv_ipc_does_not_persist_between_runs_and_no_user_namespaces():
    libc = "import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)"
    create = f"libc.shmget({SHM_KEY}, 4096, 0o1666) >= 0"  # IPC_CREAT | 0666
    probe(create, libc)
    assert probe(f"libc.shmget({SHM_KEY}, 0, 0o666) >= 0", libc).score == 0.0
    assert probe("libc.unshare(0x10000000) == 0", libc).score == 0.0  # CLONE_NEWUSER
    assert (
        probe("libc.syscall(250, 0, 0, 0, 0, 0) >= 0 or ctypes.get_errno() != 1", libc).score == 0.0
    )
    leftover = Path("/proc/sysvipc/shm").read_text()
    assert f"{SHM_KEY:d}" not in leftover.split()


def test_memory_is_limited_for_the_whole_tree():
    # three children of 200 MB each under a 512 MB limit: RLIMIT_AS (per process) lets it through
    src = (
        "import os, time\n"
        "def probe():\n"
        "    pids = []\n"
        "    for _ in range(3):\n"
        "        pid = os.fork()\n"
        "        if pid == 0:\n"
        "            b = bytearray(200 * 1024 * 1024)\n"
        "            for i in range(0, len(b), 4096):\n"
        "                b[i] = 1\n"
        "            time.sleep(1.5)\n"
        "            os._exit(0)\n"
        "        pids.append(pid)\n"
        "    return all(os.waitpid(p, 0)[1] == 0 for p in pids)\n"
    )
    assert run(src, json.dumps({"functional": "assert probe() == True"})).score == 0.0


def test_memfd_counts_against_the_memory_limit():
    src = (
        "import os\ndef probe():\n    fd = os.memfd_create('x')\n"
        "    for _ in range(700):\n        os.write(fd, b'x' * (1 << 20))\n    return True\n"
    )
    assert run(src, json.dumps({"functional": "assert probe() == True"})).score == 0.0


def test_cpu_is_limited_for_the_whole_tree():
    # four children of 0.8 s CPU each under a 1 s budget: RLIMIT_CPU (per process) lets it through
    src = (
        "import os, time\n"
        "def burn():\n    t = time.process_time()\n    while time.process_time() - t < 0.8:\n"
        "        pass\n"
        "def probe():\n"
        "    for _ in range(4):\n"
        "        pid = os.fork()\n"
        "        if pid == 0:\n            burn()\n            os._exit(0)\n"
        "        os.waitpid(pid, 0)\n"
        "    return True\n"
    )
    limits = Limits(wall_seconds=20.0, cpu_seconds=1, memory_mb=512)
    assert run(src, json.dumps({"functional": "assert probe() == True"}), limits).score == 0.0


def test_concurrent_runs_cannot_see_each_other():
    sleeper = "import time\ntime.sleep(3)\ndef add(a, b):\n    return 0\n"
    spy_setup = (
        "def harnesses():\n    n = 0\n    for p in filter(str.isdigit, os.listdir('/proc')):\n"
        "        try:\n            c = open(f'/proc/{p}/cmdline', 'rb').read()\n"
        "            n += b'harness' in c and b'bwrap' not in c\n"
        "        except OSError:\n            pass\n    return n\n"
    )
    with ThreadPoolExecutor(2) as pool:
        slow = pool.submit(run, sleeper)
        time.sleep(0.5)
        seen = probe("harnesses() >= 2", spy_setup)
        slow.result()
    assert seen.score == 0.0


def test_no_silent_downgrade(monkeypatch):
    monkeypatch.setenv("PAC_SANDBOX_BWRAP", "/nonexistent/bwrap")
    monkeypatch.delenv("PAC_SANDBOX_ISOLATION", raising=False)
    info = {"type": "code"}
    with pytest.raises(UserError, match="bubblewrap"):
        compute_score("code", fenced("def add(a, b):\n    return a + b"), ADD, info)


# ---- faults that make rewards wrong on a real node -----------------------------------------


def test_thread_count_env_vars_are_one():
    names = ["OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS"]
    test = "import os, unittest\nclass T(unittest.TestCase):\n    def test(self):\n" + "".join(
        f"        self.assertEqual(os.environ.get({n!r}), '1')\n" for n in names
    )
    src = "def task_func():\n    return 1\n"
    assert run(src, json.dumps({"test": test, "entry_point": "task_func"})).reason == "ok"


@pytest.mark.serial  # it makes its own load: another test process's would be added to it
def test_verdicts_do_not_depend_on_load():
    # right and wrong programs of 0.4 s CPU, an endless loop, a syntax error; 24 at once on 2
    # cores share the CPU 12 ways, so a wall-clock timeout of 4 s would fail correct ones
    burn = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.4:\n    pass\n"
    programs = {
        "right": burn + "def add(a, b):\n    return a + b\n",
        "wrong": burn + "def add(a, b):\n    return a * b\n",
        "spin": "while True:\n    pass\n",
        "syntax": "def add(a, b) return a + b\n",
    }
    limits = Limits(wall_seconds=4.0, cpu_seconds=2, memory_mb=256)
    alone = {name: run(src, limits=limits).reason for name, src in programs.items()}
    assert alone == {
        "right": "ok",
        "wrong": "tests_failed",
        "spin": "timeout",
        "syntax": "tests_failed",
    }
    names = ["right"] * 10 + ["wrong"] * 10 + ["spin"] * 2 + ["syntax"] * 2
    with ThreadPoolExecutor(24) as pool:
        loaded = list(pool.map(lambda n: run(programs[n], limits=limits).reason, names))
    assert loaded == [alone[n] for n in names]

"""Programs run as Python runs them (docs/guides/sandbox.md, docs/guides/rewards.md).

A stdin/stdout program ends as the interpreter ends it: ``exit()``, ``quit()`` and ``sys.exit``
raise SystemExit, whose code is the exit status; non-daemon threads are joined; atexit handlers
run; stdout is flushed. A functional or unittest answer is loaded as a module (its ``__name__`` is
not ``"__main__"``), so its own main block (a self-test, a demo that reads ``input()``) never runs.

A functional answer that exits with status 0 while it loads (``exit()``, ``quit()``,
``sys.exit(0)`` after its functions, as an imported module would raise SystemExit in its
importer) keeps what it defined before the exit, and the tests still run against it; a non-zero
exit while loading, or any exit inside a call the tests make, fails. A BigCodeBench answer is one
module with its tests, as in BigCodeBench's harness: any exit while it loads fails.

Each correct idiom scores 1. Each cheating variant scores 0: exiting before the output, exiting
before the functions the tests call are defined or inside one of them, a thread or an atexit
handler that writes another case's output or a report of its own, a thread that never ends (a
timeout, not a hang).
"""

import json

import pytest

from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.sandbox import Limits

LIMITS = Limits(wall_seconds=6.0, cpu_seconds=3, memory_mb=512, output_bytes=1 << 20)
BCB_LIMITS = Limits(wall_seconds=40.0, cpu_seconds=12, memory_mb=2048)
SUM = json.dumps({"inputs": ["1 2\n", "3 4\n", "10 -3\n"], "outputs": ["3\n", "7\n", "7\n"]})
ADD = json.dumps({"functional": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"})
BCB = json.dumps(
    {
        "test": "import unittest\n"
        "class TestCases(unittest.TestCase):\n"
        "    def test_small(self):\n"
        "        self.assertEqual(task_func(2, 3), 5)\n"
        "    def test_negative(self):\n"
        "        self.assertEqual(task_func(-1, 1), 0)\n",
        "entry_point": "task_func",
    }
)
READ = "a, b = map(int, input().split())\n"


def score(src: str, truth: str = SUM, limits: Limits = LIMITS):
    return code_scorer.score(f"```python\n{src}\n```", truth, limits=limits)


# ---- stdin/stdout: the interpreter's exit ------------------------------------------------------

THREADED_MAIN = (
    "import sys, threading\n"
    "def main():\n"
    "    a, b = map(int, sys.stdin.readline().split())\n"
    "    print(a + b)\n"
    "threading.stack_size(1 << 26)\n"
    "sys.setrecursionlimit(10 ** 6)\n"
    "t = threading.Thread(target=main)\n"
    "t.start()\n"
)


@pytest.mark.parametrize(
    "src",
    [
        READ + "print(a + b)\nexit()",
        READ + "print(a + b)\nquit()",
        READ + "print(a + b)\nexit(0)",
        "import sys\n" + READ + "print(a + b)\nsys.exit(0)",
        "import sys\n" + READ + "print(a + b)\nsys.exit()",
        "import sys\n" + READ + "sys.stdout.write(str(a + b))\nraise SystemExit",
        THREADED_MAIN,
        # the recursion idiom with a deep recursion, which needs the thread's large stack
        "import sys, threading\n"
        "def depth(n):\n    return 0 if n == 0 else 1 + depth(n - 1)\n"
        "def main():\n"
        "    a, b = map(int, input().split())\n"
        "    print(a + b + depth(20000) - 20000)\n"
        "threading.stack_size(1 << 27)\nsys.setrecursionlimit(1 << 20)\n"
        "threading.Thread(target=main).start()\n",
        # the main thread ends first; the worker prints later
        "import threading, time\n" + READ + "def late():\n    time.sleep(0.2)\n    print(a + b)\n"
        "threading.Thread(target=late).start()\n",
        "import atexit\n" + READ + "atexit.register(lambda: print(a + b))",
        "import atexit, sys\n" + READ + "atexit.register(print, a + b)\nsys.exit(0)",
        # buffered output, never flushed by the program itself
        "import sys\n" + READ + "sys.stdout.write(f'{a + b}\\n')\nexit()",
        # the interpreter's own streams: sys.__stdout__ is the stdout a fresh interpreter has
        "import sys\n" + READ + "sys.__stdout__.write(f'{a + b}\\n')",
        "import sys, io, atexit\nbuf = io.StringIO()\nsys.stdout = buf\n"
        "atexit.register(lambda: sys.__stdout__.write(buf.getvalue()))\n" + READ + "print(a + b)",
        "import sys\n" + READ + "print(a + b, file=sys.__stdout__)\nsys.exit(0)",
        # a bool is an int: the interpreter exits 0 for False
        "import sys\n" + READ + "print(a + b)\nsys.exit(False)",
        READ + "print(a + b)\nraise SystemExit(1 == 2)",
    ],
    ids=[
        "exit",
        "quit",
        "exit-0",
        "sys-exit-0",
        "sys-exit",
        "raise-systemexit",
        "thread-main",
        "thread-deep-recursion",
        "thread-after-main",
        "atexit",
        "atexit-after-exit",
        "unflushed-exit",
        "dunder-stdout",
        "dunder-stdout-in-atexit",
        "dunder-stdout-then-exit",
        "sys-exit-false",
        "systemexit-false",
    ],
)
def test_a_correct_program_scores_one_however_it_ends(src):
    verdict = score(src)
    assert (verdict.score, verdict.reason) == (1.0, "ok")


@pytest.mark.parametrize(
    "src",
    [
        READ + "exit(0)\nprint(a + b)",  # exits 0 before printing
        "import sys\n" + READ + "sys.exit(0)\nprint(a + b)",
        READ + "print(a + b)\nexit(1)",  # the right output, then a nonzero status
        "import sys\n" + READ + "print(a + b)\nsys.exit('done')",  # a message exits with 1
        "import sys\n" + READ + "print(a + b)\nsys.exit(True)",  # True is 1
        READ + "print(a + b)\nraise ValueError('after the output')",
        # the right output from an atexit handler does not undo the status exit(3) set
        "import atexit\n" + READ + "atexit.register(print, a + b)\nexit(3)",
        # a daemon thread is killed at exit, as the interpreter kills it
        "import threading, time\n" + READ + "def late():\n    time.sleep(0.5)\n    print(a + b)\n"
        "threading.Thread(target=late, daemon=True).start()\n",
    ],
    ids=[
        "exit-before-output",
        "sys-exit-before-output",
        "exit-1-after-output",
        "exit-message",
        "exit-true",
        "raise-after-output",
        "atexit-then-exit-3",
        "daemon-thread",
    ],
)
def test_a_program_that_ends_wrongly_scores_zero(src):
    verdict = score(src)
    assert verdict.score == 0.0 and verdict.reason == "tests_failed"


def test_a_thread_cannot_write_another_cases_output():
    # case 0 prints its right answer and leaves a thread that writes "7" into the next cases'
    # output files; the program itself prints nothing for them
    src = (
        "import os, threading, time\n"
        "line = input()\n"
        "def forge():\n"
        "    for _ in range(40):\n"
        "        time.sleep(0.05)\n"
        "        for name in os.listdir('.'):\n"
        "            if name.startswith('out') and name != 'out0':\n"
        "                try:\n"
        "                    with open(name, 'a') as f:\n"
        "                        f.write('7\\n')\n"
        "                except OSError:\n"
        "                    pass\n"
        "if line == '1 2':\n"
        "    print(3)\n"
        "    threading.Thread(target=forge).start()\n"
        "    os.fork() or (forge(), os._exit(0))\n"
    )
    assert score(src).score == 0.0


def test_an_atexit_handler_cannot_forge_a_report():
    # the report channel is out of a stdin/stdout program's process; a forged line on stdout is
    # only output
    forged = (
        "import atexit, os\n"
        "def forge():\n"
        "    for fd in range(3, 64):\n"
        "        try:\n"
        '            os.write(fd, b\'0\' * 64 + b\' {"outputs": [["3", 0]], "error": ""}\\n\')\n'
        "        except OSError:\n"
        "            pass\n"
        '    print(\'{"outputs": [["3", 0], ["7", 0], ["7", 0]]}\')\n'
        "atexit.register(forge)\n"
    )
    assert score(forged).score == 0.0
    functional = forged + "def add(a, b):\n    return 0\n"
    assert score(functional, ADD).score == 0.0
    assert score(forged.replace("atexit.register(forge)\n", "forge()\n") + "exit(0)\n").score == 0


def test_a_non_daemon_thread_that_never_ends_is_a_timeout():
    src = (
        "import threading, time\n" + READ + "print(a + b)\n"
        "def forever():\n    while True:\n        time.sleep(1)\n"
        "threading.Thread(target=forever).start()\n"
    )
    limits = Limits(wall_seconds=2.0, cpu_seconds=2, memory_mb=512)
    verdict = score(src, limits=limits)
    assert (verdict.score, verdict.reason) == (0.0, "timeout")


def test_an_atexit_handler_that_never_ends_is_a_timeout():
    src = (
        "import atexit\n"
        + READ
        + "print(a + b)\natexit.register(lambda: [0 for _ in iter(int, 1)])"
    )
    limits = Limits(wall_seconds=4.0, cpu_seconds=1, memory_mb=512)
    verdict = score(src, limits=limits)
    assert (verdict.score, verdict.reason) == (0.0, "timeout")


# ---- functional and unittest: the answer is a module, its main block does not run ------------

ADD_SRC = "def add(a, b):\n    return a + b\n"
TASK_SRC = "def task_func(a, b):\n    return a + b\n"


@pytest.mark.parametrize(
    "main_block",
    [
        "import unittest\nclass T(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual({f}(2, 3), 5)\n"
        'if __name__ == "__main__":\n    unittest.main()\n',
        'if __name__ == "__main__":\n    import doctest\n    doctest.testmod()\n',
        'if __name__ == "__main__":\n    a, b = map(int, input().split())\n    print({f}(a, b))\n',
        "if __name__ == '__main__':\n    raise SystemExit({f}(1, 1))\n",
        'if __name__ == "__main__":\n    exit()\n',
    ],
    ids=["unittest-main", "doctest", "input-demo", "raise-systemexit", "exit"],
)
def test_a_functional_answer_with_its_own_main_block_scores_one(main_block):
    verdict = score(ADD_SRC + main_block.format(f="add"), ADD)
    assert (verdict.score, verdict.reason) == (1.0, "ok")


@pytest.mark.parametrize(
    "main_block",
    [
        "import unittest\nclass T(unittest.TestCase):\n"
        "    def test_add(self):\n        self.assertEqual({f}(2, 3), 5)\n"
        'if __name__ == "__main__":\n    unittest.main()\n',
        'if __name__ == "__main__":\n    a, b = map(int, input().split())\n    print({f}(a, b))\n',
        'if __name__ == "__main__":\n    exit()\n',
    ],
    ids=["unittest-main", "input-demo", "exit"],
)
def test_a_unittest_answer_with_its_own_main_block_scores_one(main_block):
    verdict = score(TASK_SRC + main_block.format(f="task_func"), BCB, BCB_LIMITS)
    assert (verdict.score, verdict.reason) == (1.0, "ok")


def test_the_answer_is_a_module_named_for_itself():
    # pickling a class of the program finds it through its module, as in an imported module
    src = (
        "import pickle\n"
        "class Pair:\n    def __init__(self, a, b):\n        self.a, self.b = a, b\n"
        "def add(a, b):\n"
        "    p = pickle.loads(pickle.dumps(Pair(a, b)))\n"
        "    return p.a + p.b if __name__ != '__main__' else None\n"
    )
    assert score(src, ADD).reason == "ok"


@pytest.mark.parametrize(
    "src",
    [
        ADD_SRC + "exit()\n",
        ADD_SRC + "exit(0)\n",
        ADD_SRC + "quit()\n",
        "import sys\n" + ADD_SRC + "sys.exit(0)\n",
        "import sys\n" + ADD_SRC + "sys.exit()\n",
        ADD_SRC + "raise SystemExit\n",
        ADD_SRC + "print(add(1, 2))\nexit()\n",
        ADD_SRC + "if True:\n    exit(0)\ndef sub(a, b):\n    return a - b\n",
    ],
    ids=[
        "exit",
        "exit-0",
        "quit",
        "sys-exit-0",
        "sys-exit",
        "raise-systemexit",
        "print-then-exit",
        "functions-after-the-exit-are-not-needed",
    ],
)
def test_a_functional_answer_that_exits_0_after_its_functions_scores_one(src):
    verdict = score(src, ADD)
    assert (verdict.score, verdict.reason) == (1.0, "ok")


def test_the_attackers_exit_row_scores_one():
    # the row as the attacker sent it (code_r1), through the training entry point
    from pac_verl.verifiers import compute_score

    truth = json.dumps(
        {"functional": "assert add(1, 2) == 3\nassert add(-1, 5) == 4\nassert add(10, 10) == 20\n"}
    )
    response = "```python\ndef add(a, b):\n    return a + b\nprint(add(1, 2))\nexit()\n```"
    extra = {"type": "code", "split": "train", "index": 0}
    verdict = compute_score("code_r1", response, truth, extra)
    assert (verdict["score"], verdict["reason"]) == (1.0, "ok"), verdict


@pytest.mark.parametrize(
    "src",
    [
        "exit(0)\n" + ADD_SRC,  # at import, before anything is defined
        "import sys\n" + ADD_SRC + "sys.exit(3)\n",  # a failure status, after the function
        "import sys\n" + ADD_SRC + "sys.exit('failed')\n",  # a message is status 1
        "def add(a, b):\n    return 0\nexit()\n",  # wrong, then exits 0: the tests still run
        "import sys\ndef add(a, b):\n    return 0\nsys.exit(0)\n",
        "def add(a, b):\n    exit(0)\n",  # inside the tested function
        "import sys\ndef add(a, b):\n    sys.exit(0)\n",
        "def add(a, b):\n    raise SystemExit(0)\n",
        "import atexit\natexit.register(print, 'ok')\ndef add(a, b):\n    return 0\n",
        # a non-daemon thread left running does not stop the checks
        "import threading, time\n"
        "threading.Thread(target=lambda: time.sleep(0.5)).start()\n"
        "def add(a, b):\n    return 0\n",
    ],
    ids=[
        "exit-first",
        "sys-exit-3-after-the-function",
        "sys-exit-message-after-the-function",
        "wrong-then-exit",
        "wrong-then-sys-exit-0",
        "exit-in-function",
        "sys-exit-in-function",
        "raise-systemexit-in-function",
        "atexit",
        "thread",
    ],
)
def test_exiting_inside_a_functional_answer_scores_zero(src):
    assert score(src, ADD).score == 0.0


def test_exiting_inside_the_first_call_does_not_skip_the_other_checks():
    # right for the first assert only if the run stopped there; the second assert must still run
    src = "def add(a, b):\n    if a == -1:\n        exit(0)\n    return a + b\n"
    assert score(src, ADD).score == 0.0
    src = "def add(a, b):\n    if a == 2:\n        exit(0)\n    return a + b\n"
    assert score(src, ADD).score == 0.0


@pytest.mark.parametrize(
    "src",
    [
        "exit(0)\n" + TASK_SRC,
        TASK_SRC + "exit(0)\n",  # one module with its tests: the exit ends it before them
        "import sys\n" + TASK_SRC + "sys.exit(3)\n",
        "def task_func(a, b):\n    exit(0)\n",
        "import sys\ndef task_func(a, b):\n    sys.exit(0)\n",
        "import os\ndef task_func(a, b):\n    os._exit(0)\n",
        "def task_func(a, b):\n    if a < 0:\n        exit(0)\n    return a + b\n",
    ],
    ids=[
        "exit-first",
        "exit-last",
        "sys-exit-3-last",
        "exit-in-function",
        "sys-exit-in-function",
        "os-exit",
        "exit-in-one-test",
    ],
)
def test_exiting_inside_a_unittest_answer_scores_zero(src):
    assert score(src, BCB, BCB_LIMITS).score == 0.0


# A program may rebind builtins (``builtins.len = ...``): that changes what the program and the
# tests' own names see, never the harness's reading of requests or writing of its report. Before
# the harness bound its builtins at import, a rebound ``len`` stalled its request loop until the
# wall-clock backstop (three times the wall limit with its retry) and the verdict was a timeout.
def rebind(*names: str) -> str:
    return (
        f"import builtins\nfor _name in {names!r}:\n"
        "    setattr(builtins, _name, lambda *a, **k: 1)\n"
    )


EVERY = ("len", "int", "bytes", "isinstance", "min", "str", "repr", "type", "print")


@pytest.mark.parametrize("names", [("len",), EVERY], ids=["len", "nine builtins"])
def test_a_program_that_rebinds_builtins_gets_its_functional_verdict(names):
    # add() is wrong (always 1), so the tests fail: the verdict, reached without the backstop
    verdict = score(rebind(*names) + "def add(a, b):\n    return 1\n", ADD)
    assert (verdict.score, verdict.reason) == (0.0, "tests_failed")


def test_a_program_that_rebinds_builtins_gets_its_unittest_verdict():
    verdict = score(rebind(*EVERY) + "def task_func(a, b):\n    return 1\n", BCB, BCB_LIMITS)
    assert verdict.score == 0.0 and verdict.reason not in ("timeout", "no_result")


def test_a_right_stdio_program_that_rebinds_builtins_after_printing_scores_one():
    verdict = score(READ + "import sys\nsys.stdout.write(f'{a + b}\\n')\n" + rebind(*EVERY))
    assert (verdict.score, verdict.reason) == (1.0, "ok")


def test_a_stdio_run_stops_at_the_first_case_that_fails_to_exit_0():
    # the verdict is 0 from that case on: the remaining cases would only hold the slot (a memory
    # bomb killed on every case held it for the whole wall clock)
    from pac_verl.verifiers.sandbox import run_job

    job = {"kind": "stdio", "code": "import sys\nsys.exit(int(input()))", "inputs": ["0", "3", "0"]}
    result = run_job(job, Limits(wall_seconds=6.0, cpu_seconds=3, memory_mb=512))
    assert [status for _, status in result.report["outputs"]] == [0, 3]

"""The judge of the code sandbox: it turns tests into what the sandbox may see, and what the
sandbox sends back into a verdict. It runs in the verifier's process and never loads model code.

Functional tests (Code-R1 ``{"functional": ...}``) never run where model code runs. The sandbox
loads the program and answers calls (``harness._Server``); the tests run in a *checker*, a child
process of this one that never loads model code either (``checker.py``, ``python -I -S``), with
every name the program defines bound to what the sandbox says it is: plain data, or a proxy whose
calls, attributes and iteration are requests. This process relays (:func:`functional_session`):
the checker's requests go to the sandbox as they are (marshal: arguments of exact built-in types,
the program's objects as handles), and each answer (one JSON line of tagged plain data, see
``harness.plain``) is parsed and decoded here before it goes back to the checker. So expected
values, lists of cases and the comparisons stay out of the sandbox; an object whose ``__eq__``
lies, shadowed builtins, swapped globals and forged answers have nothing to act on (an answer is
a value the program chose, which it could have returned anyway).

Before the checker runs them, every assert of the tests is rewritten (:func:`plan_functional`):
the checker counts the checks that held after a value came from the sandbox, fails the run on a
check that failed or whose condition raised (even when the tests catch its exception), and counts
as no check an assert that cannot fail (a tuple, a generator, a lambda, a non-empty literal, a
value whose type has no truth of its own). A run where no check counted is ``vacuous_tests``, a
bad ground truth (``def check(f)`` never called, ``assert (cond, msg)``), never a pass. The tests
run as ``__main__`` (so ``if __name__ == "__main__": check(f)`` runs), within the run's limits:
tests that do not finish are ``bad_ground_truth``, as are tests that pass the program an object
of their own (a test-side ``ListNode``), which cannot be sent, and tests that call
LeetCodeDataset's helpers (``is_same_list``, ``list_node``...) without defining them (the program
would define the tests' comparison). Not followed: ``==``, truth and
``len`` of the program's objects (a proxy equals only itself), callbacks of test functions from
model code.
"""

from __future__ import annotations

import ast
import builtins
import contextlib
import marshal
import os
import secrets
import signal
import site
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

from pac_verl.verifiers.sandbox.harness import decode
from pac_verl.verifiers.sandbox.types import Limits, SessionEnded
from pac_verl.verifiers.verdict import OK, Verdict, fail

__all__ = ["BadTests", "FunctionalPlan", "functional_session", "judge_functional",
           "judge_stdio", "judge_unittest", "plan_functional"]  # fmt: skip


class BadTests(ValueError):
    """The ground truth's tests are unusable (no assert, no test, a syntax error)."""


# ---- functional: the plan -------------------------------------------------------------------


def _top_level_names(tree: ast.Module) -> set[str]:
    names: set[str] = set()
    for stmt in tree.body:
        for node in ast.walk(stmt):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, (ast.Import, ast.ImportFrom)):
                names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


_ALWAYS_TRUE = (ast.Tuple, ast.List, ast.Set, ast.Dict, ast.GeneratorExp, ast.Lambda)


def _cannot_fail(test: ast.expr) -> bool:
    """An assert condition that is true whatever it holds: a non-empty literal container, a
    generator, a lambda, a true constant."""
    if isinstance(test, ast.Dict):
        return bool(test.keys)
    if isinstance(test, (ast.Tuple, ast.List, ast.Set)):
        return bool(test.elts)
    if isinstance(test, (ast.GeneratorExp, ast.Lambda)):
        return True
    return isinstance(test, ast.Constant) and bool(test.value)


class _Asserts(ast.NodeTransformer):
    """``assert cond, msg`` -> ``try: __pac_v__ = cond / except BaseException: __pac_broken__();
    raise`` then ``__pac_check__(__pac_v__, cannot_fail)`` (the message is dropped)."""

    def __init__(self) -> None:
        self.count = 0

    def visit_Assert(self, node: ast.Assert):
        self.count += 1
        self.generic_visit(node)
        value = ast.Name("__pac_v__", ast.Store())
        handler = ast.ExceptHandler(
            type=ast.Name("BaseException", ast.Load()), name=None,
            body=[ast.Expr(ast.Call(ast.Name("__pac_broken__", ast.Load()), [], [])),
                  ast.Raise(exc=None, cause=None)],
        )  # fmt: skip
        guarded = ast.Try(body=[ast.Assign([value], node.test)], handlers=[handler], orelse=[],
                          finalbody=[])  # fmt: skip
        check = ast.Expr(
            ast.Call(ast.Name("__pac_check__", ast.Load()),
                     [ast.Name("__pac_v__", ast.Load()), ast.Constant(_cannot_fail(node.test))], [])
        )  # fmt: skip
        return [ast.copy_location(guarded, node), ast.copy_location(check, node)]


_NOT_IMPORTED = frozenset({"antigravity", "this"})  # modules whose import does something
# LeetCodeDataset's prompt header defines these for its linked-list and tree tests; Code-R1's
# ground truths leave the header out, so the program would supply the tests' own comparison
LEETCODE_HELPERS = frozenset({"list_node", "is_same_list", "tree_node", "is_same_tree"})


@dataclass(frozen=True)
class FunctionalPlan:
    """What the checker runs: the tests with their asserts rewritten (a code object, marshalled),
    the names they use without defining them (asked of the program), and the standard library
    modules among those that they use as modules (``math.isclose``), which the checker imports
    itself: a program's own ``math`` would make the tests' comparison in the sandbox."""

    code: bytes
    names: tuple[str, ...]
    modules: tuple[str, ...] = ()


@lru_cache(maxsize=512)  # a prompt's rollouts share their tests
def plan_functional(tests: str) -> FunctionalPlan:
    """The checker's plan for the tests; BadTests for tests that do not parse, hold no assert, or
    call LeetCodeDataset's helpers (``is_same_list``...) that they do not define."""
    try:
        tree = ast.parse(tests)
    except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
        raise BadTests("the tests do not parse") from err
    used = {n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    # a builtin is the tests' own even where a program defines the name (its `sorted` is not ours)
    names = used - _top_level_names(tree) - set(dir(builtins))
    bound = {
        n.id for n in ast.walk(tree) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    bound |= {a.arg for n in ast.walk(tree) if isinstance(n, ast.arguments)
              for a in (*n.posonlyargs, *n.args, *n.kwonlyargs, n.vararg, n.kwarg) if a}  # fmt: skip
    modules = {n.value.id for n in ast.walk(tree)
               if isinstance(n, ast.Attribute) and isinstance(n.value, ast.Name)
               and n.value.id in sys.stdlib_module_names} & names - bound - _NOT_IMPORTED  # fmt: skip
    names -= modules
    if names & LEETCODE_HELPERS:
        raise BadTests("the tests call LeetCodeDataset's helpers without defining them")
    asserts = _Asserts()
    tree = ast.fix_missing_locations(asserts.visit(tree))
    if asserts.count == 0:
        raise BadTests("the tests hold no assert")
    try:
        code = compile(tree, "<tests>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
        raise BadTests("the tests do not compile") from err
    return FunctionalPlan(marshal.dumps(code), tuple(sorted(names)), tuple(sorted(modules)))


# ---- functional: the session ----------------------------------------------------------------

CHECKER = Path(__file__).with_name("checker.py")
# reads the checker's code, one length-prefixed frame, with unbuffered reads: a buffered reader
# could take in the first bytes of the job that follows, which the checker reads from the fd
CHECKER_BOOT = """import marshal, os
def read(n):
    data = b""
    while len(data) < n:
        more = os.read(0, n - len(data))
        if not more:
            raise SystemExit(1)
        data += more
    return data
exec(marshal.loads(read(int.from_bytes(read(4), "big"))), {"__name__": "__main__"})
"""
MAX_ANSWER = 16 << 20  # bytes of one answer from the sandbox
CHECKER_MEMORY_MB = 4096
_TICKS = os.sysconf("SC_CLK_TCK")


@cache
def _checker_code() -> bytes:
    return marshal.dumps(compile(CHECKER.read_text(encoding="utf-8"), str(CHECKER), "exec"))


@cache
def _checker_path() -> tuple[str, ...]:
    """Where the checker finds the libraries a test imports (it starts with ``-S``)."""
    return tuple(
        p for p in (*site.getsitepackages(), site.getusersitepackages()) if os.path.isdir(p)
    )


class _Checker:
    """The checker process: length-prefixed frames both ways; started at once, fed its job when
    the sandbox is ready."""

    def __init__(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-I", "-S", "-B", "-c", CHECKER_BOOT], stdin=subprocess.PIPE,
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
        )  # fmt: skip
        self.out, self.inp = self.proc.stdin.fileno(), self.proc.stdout.fileno()
        self.buf = bytearray()
        code = _checker_code()
        self.send_raw(len(code).to_bytes(4, "big") + code)

    def send_raw(self, data: bytes) -> None:
        # into a pipe the checker reads whenever it waits: small frames never block for long
        try:
            self.proc.stdin.write(data)
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError):
            raise SessionEnded("checker_died") from None

    def send(self, payload) -> None:
        data = marshal.dumps(payload)
        self.send_raw(len(data).to_bytes(4, "big") + data)

    def frame(self, wait: Callable[[int], None]) -> tuple[bytes, bytes]:
        """(kind, payload) of the checker's next frame; ``wait(fd)`` blocks until ``fd`` is
        readable (watching the sandbox meanwhile)."""
        while True:
            if len(self.buf) >= 4:
                size = int.from_bytes(self.buf[:4], "big")
                if len(self.buf) >= 4 + size:
                    body = bytes(self.buf[4 : 4 + size])
                    del self.buf[: 4 + size]
                    return body[:1], body[1:]
            wait(self.inp)
            data = os.read(self.inp, 1 << 20)
            if not data:
                raise SessionEnded("checker_died")
            self.buf += data

    def cpu_seconds(self) -> float:
        """CPU time the checker has used (user + system), from ``/proc``."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_bytes().rsplit(b")", 1)[1].split()
            return (int(fields[11]) + int(fields[12])) / _TICKS
        except (OSError, IndexError, ValueError):
            return 0.0

    def close(self) -> int | None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        for f in (self.proc.stdin, self.proc.stdout):
            with contextlib.suppress(OSError):
                f.close()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self.proc.wait(timeout=10)
        return self.proc.returncode


def _answer(message, hmark: str):
    """The sandbox's answer (parsed JSON) as the checker takes it: ``[kind, value, states,
    has_handles]`` with values decoded to exact built-in types and handles as ``(hmark, n)``;
    ValueError if malformed."""
    handles = []

    def handle(n: int):
        handles.append(n)
        return (hmark, n)

    if not (isinstance(message, list) and len(message) == 3 and isinstance(message[2], list)):
        raise ValueError("malformed answer")
    kind, value, states = message
    if kind == "ok":
        value = decode(value, handle)
    elif kind != "raise" or not isinstance(value, str):
        raise ValueError("malformed answer")
    decoded = []
    for item in states:
        if not (isinstance(item, list) and len(item) == 2 and type(item[0]) in (int, str)):
            raise ValueError("malformed answer")
        decoded.append((item[0], decode(item[1], handle)))
    return [kind, value, decoded, bool(handles)]


def functional_session(
    code: str, plan: FunctionalPlan, limits: Limits
) -> tuple[dict, Callable[[object], dict]]:
    """(the sandbox job, ``converse``): the backend starts the sandbox and calls ``converse``
    with its channel (``ready()``: the program's load answer; ``call(bytes)``: one request's
    answer; ``wait(fd, tests_cpu)``: block until ``fd`` (the checker's) is readable, watching the
    sandbox and the checker's CPU time, raising :class:`SessionEnded` when either is over). ``converse`` runs the checker, relays its requests, and
    returns the checker's report (see :func:`judge_functional`); it is called again, with a fresh
    checker, when the backend retries a starved run."""
    mark, hmark = secrets.token_hex(16), secrets.token_hex(16)
    job = {"kind": "functional", "code": code, "names": list(plan.names), "mark": mark}

    def converse(channel) -> dict:
        checker = _Checker()
        try:
            loaded = channel.ready()
            if not (isinstance(loaded, list) and len(loaded) == 2 and loaded[0] == "ready"):
                return {"load_error": str(loaded[1]) if isinstance(loaded, list) and
                        len(loaded) == 2 else "malformed"}  # fmt: skip
            try:
                names = {str(k): decode(v, lambda n: (hmark, n))
                         for k, v in loaded[1].items() if k in plan.names and v is not None}  # fmt: skip
            except (ValueError, AttributeError):
                return {"misbehaved": "malformed names"}
            checker.send({"code": plan.code, "names": names, "modules": list(plan.modules),
                          "mark": mark, "hmark": hmark,
                          "cpu_seconds": limits.cpu_seconds + 1, "memory_mb": CHECKER_MEMORY_MB,
                          "path": list(_checker_path())})  # fmt: skip
            misbehaved = ""
            while True:
                try:
                    kind, payload = checker.frame(lambda fd: channel.wait(fd, checker.cpu_seconds))
                except SessionEnded as end:
                    if end.reason == "checker_died":
                        return {"checker_died": checker.close()}
                    raise
                if kind == b"D":
                    report = marshal.loads(payload)
                    if misbehaved:
                        report["misbehaved"] = misbehaved
                    return report
                try:
                    answer = _answer(channel.call(payload), hmark)
                except ValueError:
                    misbehaved = "a malformed answer"
                    answer = ["fail", misbehaved]
                checker.send(answer)
        finally:
            checker.close()

    return job, converse


def judge_functional(report: dict) -> Verdict:
    """The verdict from the checker's report (the session's, see :func:`functional_session`)."""
    if "load_error" in report:
        return fail("tests_failed")  # the program does not load
    if "checker_died" in report:
        return fail("bad_ground_truth")  # killed at its CPU or memory limit: the tests' doing
    if report.get("misbehaved"):
        return fail("tests_failed")
    if report.get("unsendable"):
        return fail("bad_ground_truth")
    if report.get("outcome") != "done":
        error = report.get("error")
        if error in ("ImportError", "ModuleNotFoundError") and not report.get("values"):
            return fail("missing_library")  # the tests import what the judge's interpreter lacks
        return fail("tests_failed")
    if report.get("failed"):
        return fail("tests_failed")
    if not report.get("checks"):
        return fail("vacuous_tests")
    return OK


# ---- stdio and unittest ---------------------------------------------------------------------


def judge_stdio(expected: list, report: dict) -> Verdict:
    """Every case's stdout must equal the expected output (both split on whitespace) and the
    program must have exited with status 0: output followed by a crash, ``sys.exit(1)`` or a
    signal is a failed case, as on a judge's runtime error."""
    outputs = report.get("outputs")
    if report.get("error") == "output_limit":
        return fail("output_limit")
    if not isinstance(outputs, list) or len(outputs) != len(expected):
        return fail("tests_failed")
    for got, want in zip(outputs, expected):
        if not (isinstance(got, list) and len(got) == 2 and isinstance(got[0], str)):
            return fail("no_result")
        if type(got[1]) is not int or got[1] != 0:
            return fail("tests_failed")
        if got[0].split() != str(want).split():
            return fail("tests_failed")
    return OK


def judge_unittest(report: dict) -> Verdict:
    """Every test the test code does not itself mark skipped must have run and passed, and the
    machinery the tests rely on must be as it was before the program loaded (``tampered`` lists
    what changed; see ``harness._run_unittest``)."""
    if "missing" in report:
        return fail("missing_library")
    if report.get("no_tests"):
        return fail("bad_ground_truth")
    if "test_error" in report:
        return fail("bad_ground_truth")
    if report.get("tampered") != []:
        return fail("tampered")
    ids, passed = report.get("ids"), report.get("passed")
    if not isinstance(ids, list) or not isinstance(passed, list):
        return fail("no_result")
    marked = set(map(str, report.get("marked_skip") or []))
    required = set(map(str, ids)) - marked
    if not required:
        return fail("bad_ground_truth")
    failed = [f for f in report.get("failed") or [] if not (f and str(f[0]) in marked)]
    if report.get("error") or failed or not required <= set(map(str, passed)):
        return fail("tests_failed")
    return OK

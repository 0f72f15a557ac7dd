"""The program that runs inside the sandbox (``python -I -B _harness.py``; stdlib only; SPEC 9).

It reads one job as JSON from stdin, drops to the run's unprivileged uid when it was started as
root (strict mode: bubblewrap keeps root's capabilities until here), makes itself non-dumpable (no
``/proc/<pid>/mem`` for its children), installs PEP 578 audit hooks, runs the model's code and
writes ``<token> <json>`` to fd 3. What it writes is raw material: the verdict is computed by the
judge outside (``code_judge.py``), which never loads model code.

- ``functional``: the model's code, then the *probe* (the tests with every assert reduced to the
  calls into model code; the expected sides stay with the judge). Each call's value goes back as
  plain data of exact built-in types (``type(x) is``, containers walked); anything else, and every
  exception, goes back as such. A program that lies can only lie about values, which the judge
  compares against expectations the program never saw.
- ``stdio``: one forked child per case runs the program with the case on stdin and stdout in a
  file; this process never runs model code and sends the outputs back.
- ``unittest`` (BigCodeBench): the test code runs first, before any model code (so
  ``missing_library`` comes only from the test code's own imports), then the audit hooks are armed,
  then the model's code, then every TestCase. The hooks deny frame and gc introspection
  (``sys._getframe``, ``tb_frame``/``gi_frame``, ``gc.get_objects``...), tracing, new audit hooks,
  ``ctypes`` calls and ``/proc/<pid>`` files other than status-like ones. The tests see a private
  copy of the builtins. The module table, the attributes of every module loaded before the model's
  code, and the attributes of unittest's and the tests' classes are fingerprinted before the
  model's code loads and compared after the tests (``tampered``; CPython 3.11 raises no audit
  event for a class attribute write, so this is found after the fact, not denied). A test counts only if it ran and succeeded (a skip
  raised at run time is a failure; a test the test code itself marked skipped is left out).

What remains possible for unittest-style tests, which must share an interpreter with the code under
test: a program can still change module attributes of stdlib or third-party modules that the tests
use and restore them before the fingerprint is taken (from a thread or a finaliser), and it can
change the *values* the tests compare (mutable objects passed in). CPython has no way to make a
module dictionary read-only or to audit plain attribute writes on modules; closing that needs
the test's assertions evaluated in a second interpreter, which BigCodeBench's tests (mocks, temp
files, dataframes passed by reference) do not allow. The token that seals the report lives only in
a local and a closure cell of ``main``, reachable only through frames or the gc, both denied.
"""

import builtins
import marshal
import os
import sys

RESULT_FD = -1  # set from the job
PROC_OK = frozenset({"stat", "status", "statm", "cmdline", "comm", "limits", "cgroup", "io"})
DENIED_EVENTS = frozenset(
    {
        "sys._getframe",
        "sys._current_frames",
        "sys._current_exceptions",
        "sys.settrace",
        "sys.setprofile",
        "sys._setprofileallthreads",
        "sys._settraceallthreads",
        "sys.addaudithook",
        "gc.get_objects",
        "gc.get_referrers",
        "gc.get_referents",
        "ctypes.dlopen",
        "ctypes.dlsym",
        "ctypes.dlsym/handle",
        "ctypes.call_function",
        "ctypes.string_at",
        "ctypes.wstring_at",
        "ctypes.cdata",
        "os.setns",
        "os.unshare",
    }
)
# ``sys._getframe`` is denied with the ValueError CPython raises for a stack too shallow, which is
# what the stdlib catches where it reads its caller's frame (``collections.namedtuple``, which
# ``functools`` runs at import; ``typing.TypeVar``; ``warnings.warn``; ``enum``): with a
# PermissionError, ``import functools`` or ``from typing import List`` failed every program that
# used them. The frame is still out of reach either way.
GETFRAME_EVENTS = frozenset({"sys._getframe"})
FRAME_ATTRS = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back", "gi_code"})
THREAD_VARS = ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMEXPR_NUM_THREADS")


def _proc_path_denied(path, _realpath=os.path.realpath, _str=str, _isinstance=isinstance):
    if _isinstance(path, bytes):
        path = path.decode("utf-8", "replace")
    if not _isinstance(path, _str):
        return False
    parts = _realpath(path).split("/")
    if len(parts) < 3 or parts[1] != "proc":
        return False
    head = parts[2]
    if not (head.isdigit() or head in ("self", "thread-self")):
        return False
    return len(parts) != 4 or parts[3] not in PROC_OK


def _install_hooks(protected_types):
    """Arm the audit hooks (PEP 578: they cannot be removed). ``protected_types`` are the ids of
    classes that existed before model code loaded: no attribute of theirs may change."""
    armed = [False]
    protected = frozenset(protected_types)
    denied, frame_attrs, _id, getframe = DENIED_EVENTS, FRAME_ATTRS, id, GETFRAME_EVENTS

    def hook(event, args):
        if not armed[0]:
            return
        if event in getframe:  # as for a stack too shallow: the stdlib falls back on ValueError
            raise ValueError(f"{event} is not allowed in the sandbox")
        if event in denied:
            raise PermissionError(f"{event} is not allowed in the sandbox")
        if event == "object.__getattr__" and args[1] in frame_attrs:
            raise PermissionError("frame introspection is not allowed in the sandbox")
        if event in ("object.__setattr__", "object.__delattr__") and _id(args[0]) in protected:
            raise PermissionError("changing a class the tests use is not allowed in the sandbox")
        if event == "open" and _proc_path_denied(args[0]):
            raise PermissionError("/proc/<pid> is not readable in the sandbox")

    sys.addaudithook(hook)

    def arm():
        armed[0] = True

    return arm


def _drop_privileges(job):
    uid = job.get("uid")
    if uid is None or os.getuid() != 0:
        return
    os.setgroups([])
    os.setresgid(uid, uid, uid)
    os.setresuid(uid, uid, uid)  # clears every capability: nothing can be remounted or regained


def _not_dumpable():
    """PR_SET_DUMPABLE 0: no ``/proc/<pid>/mem``, ``/proc/<pid>/fd`` or ptrace for the program's
    processes. Through ``_ctypes`` (1 ms to import), not ``ctypes`` (4-8 ms)."""
    import _ctypes

    prctl = _ctypes.dlsym(_ctypes.dlopen(None), "prctl")
    if _ctypes.call_function(prctl, (4, 0, 0, 0, 0)) != 0:
        raise OSError("prctl(PR_SET_DUMPABLE, 0) failed")


def _environment(job):
    workdir = job["workdir"]
    if not workdir:
        import tempfile

        workdir = tempfile.mkdtemp(prefix="pac-work-")
    os.makedirs(workdir, exist_ok=True)
    os.chdir(workdir)
    os.environ.clear()
    os.environ.update({"PATH": "/usr/bin:/bin", "HOME": workdir, "TMPDIR": workdir})
    os.environ.update(dict.fromkeys(THREAD_VARS, "1"))  # BigCodeBench's harness does the same
    os.environ.update({"MPLBACKEND": "Agg", "LANG": "C.UTF-8"})


# ---- plain data: exact built-in types only -------------------------------------------------


def plain(value, _type=type, _len=len, _str=str, _hex=float.hex, _fmt=format):
    """``value`` as tagged JSON data, or raise TypeError for anything but exact built-in types."""
    budget = [1_000_000]

    def walk(v, depth):
        budget[0] -= 1
        if budget[0] < 0 or depth > 100:
            raise TypeError("value too large")
        t = _type(v)
        if v is None:
            return ["n"]
        if t is bool:
            return ["b", v]
        if t is int:
            return ["i", _fmt(v, "x")]
        if t is float:
            return ["f", _hex(v)]
        if t is complex:
            return ["c", _hex(v.real), _hex(v.imag)]
        if t is str:
            return ["s", v]
        if t is bytes:
            return ["y", v.hex()]
        if t in (list, tuple, set, frozenset):
            tag = {list: "l", tuple: "t", set: "S", frozenset: "F"}[t]
            return [tag, [walk(x, depth + 1) for x in v]]
        if t is dict:
            return ["d", [[walk(k, depth + 1), walk(x, depth + 1)] for k, x in dict.items(v)]]
        raise TypeError(f"not plain data: {t.__name__}")

    return walk(value, 0)


_ESCAPES = {i: f"\\u{i:04x}" for i in range(32)} | {ord('"'): '\\"', ord("\\"): "\\\\"}


def to_json(v, _type=type, _str=str, _repr=repr):
    """JSON text of dicts, lists, str, int, float, bool and None (the report). ``json`` costs more
    start-up time (``re``, ``enum``) than a whole short run; the parent parses with ``json``."""
    t = _type(v)
    if v is None:
        return "null"
    if t is bool:
        return "true" if v else "false"
    if t is int:
        return _str(v)
    if t is float:
        return _repr(v) if v == v and v not in (float("inf"), float("-inf")) else "null"
    if t is str:
        return '"' + v.translate(_ESCAPES).encode("utf-8", "replace").decode("utf-8") + '"'
    if t in (list, tuple):
        return "[" + ",".join(to_json(x) for x in v) + "]"
    if t is dict:
        return "{" + ",".join(to_json(_str(k)) + ":" + to_json(x) for k, x in v.items()) + "}"
    return to_json(_str(v))


# ---- runners --------------------------------------------------------------------------------


def _run_functional(job, arm):
    records, _plain, _name = {}, plain, type

    def probe(site, thunk, swallow):
        try:
            value = thunk()
        except BaseException as err:
            records.setdefault(str(site), []).append(["raise", _name(err).__name__])
            if swallow or not isinstance(err, Exception):
                return None
            raise
        try:
            records.setdefault(str(site), []).append(["value", _plain(value)])
        except TypeError as err:
            records.setdefault(str(site), []).append(["unplain", str(err)[:80]])
        return value

    scope = {"__name__": "__main__", "__pac_probe__": probe}
    code = compile(job["code"], "<solution>", "exec")
    probe_code = compile(job["probe"], "<tests>", "exec")
    arm()
    error = ""
    try:
        exec(code, scope)
        exec(probe_code, scope)
    except BaseException as err:
        error = type(err).__name__
    return {"records": records, "error": error}


def _run_stdio(job, arm):
    code = compile(job["code"], "<solution>", "exec")
    cap = int(job["output_bytes"])
    outputs = []
    for i, given in enumerate(job["inputs"]):
        in_path, out_path = f"in{i}", f"out{i}"
        with open(in_path, "w", encoding="utf-8") as f:
            f.write(str(given))
        pid = os.fork()
        if pid == 0:  # the child runs the program; it cannot reach fd 3 or this process
            os.close(RESULT_FD)
            fd_in = os.open(in_path, os.O_RDONLY)
            fd_out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            null = os.open(os.devnull, os.O_WRONLY)
            os.dup2(fd_in, 0)
            os.dup2(fd_out, 1)
            os.dup2(null, 2)
            sys.stdin = open(0, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
            sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
            status = 0
            try:
                arm()
                exec(code, {"__name__": "__main__"})
            except SystemExit:
                pass
            except BaseException:
                status = 1
            try:
                sys.stdout.flush()
            except BaseException:
                status = 1
            os._exit(status)
        _, wait_status = os.waitpid(pid, 0)
        with open(out_path, "rb") as f:
            out = f.read(cap + 1)
        cap -= len(out)
        if cap < 0:
            return {"outputs": outputs, "error": "output_limit"}
        outputs.append([out.decode("utf-8", "replace"), os.waitstatus_to_exitcode(wait_status)])
    return {"outputs": outputs, "error": ""}


def _fingerprint(modules, classes, _id=id, _vars=vars, _dict=dict, _sorted=sorted):
    """Identities of sys.modules, of every watched module's attributes and of every watched
    class's attributes (setting a class attribute raises no audit event in CPython 3.11)."""
    seen = {("modules", k): _id(v) for k, v in _dict(sys.modules).items()}
    for cls in classes:
        seen.update(((_id(cls), k), _id(v)) for k, v in _dict(_vars(cls)).items())
    for name in modules:
        module = sys.modules.get(name)
        if module is not None:
            seen.update(((name, k), _id(v)) for k, v in _dict(_vars(module)).items())
    return seen


def _run_unittest(job, arm):
    import unittest

    tests_scope = {"__name__": "__main__", "__builtins__": dict(vars(builtins))}
    try:
        exec(compile(job["tests"], "<tests>", "exec"), tests_scope)
    except ImportError as err:  # no model code has run yet: the environment lacks a library
        return {"missing": str(getattr(err, "name", "") or err)[:80]}
    except BaseException as err:
        return {"test_error": type(err).__name__}
    cases = [
        v
        for v in tests_scope.values()
        if isinstance(v, type) and issubclass(v, unittest.TestCase) and v is not unittest.TestCase
    ]
    loader, suite = unittest.TestLoader(), unittest.TestSuite()
    for case in cases:
        suite.addTests(loader.loadTestsFromTestCase(case))
    ids, marked_skip = [], set()
    for test in suite:
        method = getattr(test, test._testMethodName, None)
        ids.append(test.id())
        if getattr(type(test), "__unittest_skip__", False) or getattr(
            method, "__unittest_skip__", False
        ):
            marked_skip.add(test.id())
    if not ids:
        return {"no_tests": True}

    passed, failed = set(), []
    result = unittest.TestResult()
    result.addSuccess = lambda test, _add=passed.add: _add(test.id())
    result.addFailure = lambda test, err, _f=failed: _f.append((test.id(), "failure"))
    result.addError = lambda test, err, _f=failed: _f.append(
        (str(getattr(test, "id", lambda: "?")()), type(err[1]).__name__)
    )
    result.addSkip = lambda test, reason, _f=failed: _f.append((test.id(), "skip"))
    result.addExpectedFailure = lambda test, err, _f=failed: _f.append((test.id(), "xfail"))
    result.addUnexpectedSuccess = lambda test, _f=failed: _f.append((test.id(), "xpass"))
    result.addSubTest = lambda test, sub, err, _f=failed: (
        err is None or _f.append((test.id(), "subtest"))
    )

    watched = sorted(n for n in sys.modules if not n.startswith("_") and n != "sys")[:2000]
    protected = [id(v) for v in vars(unittest).values() if isinstance(v, type)]
    protected += [id(c) for c in cases] + [id(v) for v in vars(builtins).values()]
    for name in watched:
        module = sys.modules.get(name)
        for v in list(getattr(module, "__dict__", {}).values()):
            if isinstance(v, type):
                protected.append(id(v))
    arm_hooks = _install_hooks(protected)
    classes = [v for v in vars(unittest).values() if isinstance(v, type)] + cases
    classes += [v for v in vars(unittest.case).values() if isinstance(v, type)]
    before = _fingerprint(watched, classes)
    model_scope = {"__name__": "__main__"}
    error = ""
    run_suite, fingerprint, ids_list = suite.run, _fingerprint, list(ids)
    arm_hooks()
    arm()
    try:
        exec(compile(job["code"], "<solution>", "exec"), model_scope)
    except BaseException as err:
        error = type(err).__name__
    if not error:
        for k, v in model_scope.items():
            if k not in tests_scope:
                tests_scope[k] = v
        try:
            run_suite(result)
        except BaseException as err:
            error = type(err).__name__
    after = fingerprint(watched, classes)  # what was there must be unchanged; imports may add
    tampered = any(after.get(k) != v for k, v in before.items())
    return {
        "ids": ids_list,
        "marked_skip": sorted(marked_skip),
        "passed": sorted(passed),
        "failed": failed[:50],
        "error": error,
        "tampered": tampered,
    }


RUNNERS = {"functional": _run_functional, "stdio": _run_stdio, "unittest": _run_unittest}


def main(job_text=None):
    """Run the job (marshal, from the trusted parent) from stdin, or (remote backends, which run a
    script) the one given."""
    job = marshal.loads(job_text if job_text is not None else sys.stdin.buffer.read())
    if job["result_fd"] == "stdout":  # a remote sandbox returns only stdout
        job["result_fd"] = os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    global RESULT_FD
    RESULT_FD = int(job.pop("result_fd"))
    os.set_inheritable(RESULT_FD, False)
    token, write, dumps, exit_now = job.pop("token"), os.write, to_json, os._exit

    def report(data, _fd=RESULT_FD):
        line = token + " " + dumps(data)
        write(_fd, (line + "\n").encode())

    for path in job.get("site_dirs") or ():  # started with -S: site-packages without .pth files
        if path not in sys.path:
            sys.path.append(path)
    _drop_privileges(job)
    _not_dumpable()
    _environment(job)
    sys.modules["__main__"] = type(sys)("__main__")  # model code gets a fresh __main__
    # ``types`` reads a traceback's ``tb_frame`` at import (for ``FrameType``), which the hooks deny:
    # loaded after them, ``import types`` failed, and with it ``re``, ``typing``, ``functools``,
    # ``weakref``, ``enum``, ``dataclasses``... (``ctypes`` used to load it first)
    import types  # noqa: F401

    # unittest arms its own hooks once the tests are loaded
    arm = (lambda: None) if job["kind"] == "unittest" else _install_hooks(())
    try:
        data = RUNNERS[job["kind"]](job, arm)
    except MemoryError:
        data = {"error": "MemoryError"}
    report(data)
    exit_now(0)


if __name__ == "__main__":
    main()

"""The program that runs inside the sandbox (``python -I -B sandbox/harness.py``; stdlib only; SPEC 9).

It reads one job as JSON from stdin, drops to the run's unprivileged uid when it was started as
root (strict mode: bubblewrap keeps root's capabilities until here), makes itself non-dumpable (no
``/proc/<pid>/mem`` for its children), installs PEP 578 audit hooks, runs the model's code and
writes ``<token> <json>`` to fd 3. What it writes is raw material: the verdict is computed by the
judge outside (``judge.py``), which never loads model code.

- ``functional``: the model's code, then a call server (:class:`_Server`): the judge asks for the
  names the tests use, then for calls of the program's functions and methods, attributes of its
  objects, one request at a time, and gets each answer as plain data of exact built-in types
  (``type(x) is``, containers walked), with a handle for every other object, the built-in class
  name of an exception, and the new state of list/dict/set arguments the call changed. The tests
  themselves run in the judge's checker process (``checker.py``), which never loads model code:
  nothing of them reaches this process but the arguments of calls into model code, so nothing here
  is worth reading or forging (an answer is a value the program chose, which it could have
  returned). Over a channel for the local backend (requests on a dup of stdin, answers one JSON
  line each on the result fd), or for SandboxFusion, which runs a script, the job's ``calls``
  answered in order in the report.
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
import types  # noqa: F401 (reads a traceback's tb_frame at import: denied once armed)

RESULT_FD = -1  # set from the job
REQUEST_FD = -1  # functional runs served over a channel: the judge's requests (a dup of stdin)
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


class Denied(PermissionError, ValueError):
    """What a denied operation raises. A ValueError too: the standard library's callers of
    ``sys._getframe`` (``typing``, ``collections.namedtuple``, ``functools``) catch ValueError for
    interpreters without frames and carry on, so ``from typing import List`` still works."""


def _install_hooks(protected_types, frame_attrs=FRAME_ATTRS):
    """Arm the audit hooks (PEP 578: they cannot be removed). ``protected_types`` are the ids of
    classes (and functions) that existed before model code loaded: no attribute of theirs may
    change. Reading one of ``frame_attrs`` is denied. ``ctypes.dlopen(None)`` (what ``import
    ctypes`` does) is let through: without dlsym and calls, which stay denied, it reaches nothing,
    and numpy imports ctypes."""
    armed = [False]
    protected = frozenset(protected_types)
    denied, _id, _denied, proc_denied = DENIED_EVENTS, id, Denied, _proc_path_denied

    def hook(event, args):
        if not armed[0]:
            return
        if event == "ctypes.dlopen" and args[0] is None:
            return
        if event in denied:
            raise _denied(f"{event} is not allowed in the sandbox")
        if event == "object.__getattr__" and args[1] in frame_attrs:
            raise _denied("frame introspection is not allowed in the sandbox")
        if event in ("object.__setattr__", "object.__delattr__") and _id(args[0]) in protected:
            raise _denied("changing a class the tests use is not allowed in the sandbox")
        if event == "open" and proc_denied(args[0]):
            raise _denied("/proc/<pid> is not readable in the sandbox")

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


def plain(
    value,
    other=None,
    _type=type,
    _hex=float.hex,
    _fmt=format,
    _repr=repr,
    _sorted=sorted,
    _items=dict.items,
):
    """``value`` as tagged JSON data, or raise TypeError for anything but exact built-in types.
    With ``other``, a value of any other type is tagged ``other(value)`` instead (call keys).
    Set items are sorted by their tags, so a key does not depend on the string hash seed."""
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
        if t is list or t is tuple:
            return ["l" if t is list else "t", [walk(x, depth + 1) for x in v]]
        if t is set or t is frozenset:
            return ["S" if t is set else "F", _sorted((walk(x, depth + 1) for x in v), key=_repr)]
        if t is dict:
            return ["d", [[walk(k, depth + 1), walk(x, depth + 1)] for k, x in _items(v)]]
        if other is not None:
            return other(v)
        raise TypeError(f"not plain data: {t.__name__}")

    return walk(value, 0)


def decode(tagged, handle=None):
    """Tagged plain data (see :func:`plain`) -> exact built-in values; ValueError if malformed.
    With ``handle``, a ``["h", n]`` (an object of the program, see :class:`_Server`) becomes
    ``handle(n)``; without, it is malformed."""
    budget = [2_000_000]
    kinds = {"l": list, "t": tuple, "S": set, "F": frozenset}

    def walk(t, depth):
        budget[0] -= 1
        if budget[0] < 0 or depth > 101 or type(t) is not list or not t:
            raise ValueError("malformed value")
        tag = t[0]
        if tag == "n":
            return None
        if tag == "b" and type(t[1]) is bool:
            return t[1]
        if tag == "i":
            return int(t[1], 16)
        if tag == "f":
            return float.fromhex(t[1])
        if tag == "c":
            return complex(float.fromhex(t[1]), float.fromhex(t[2]))
        if tag == "s" and type(t[1]) is str:
            return t[1]
        if tag == "y":
            return bytes.fromhex(t[1])
        if tag in kinds and type(t[1]) is list:
            return kinds[tag](walk(x, depth + 1) for x in t[1])
        if tag == "d" and type(t[1]) is list:
            return {walk(k, depth + 1): walk(v, depth + 1) for k, v in t[1]}
        if tag == "h" and handle is not None and type(t[1]) is int and t[1] >= 0:
            return handle(t[1])
        raise ValueError("malformed value")

    try:
        return walk(tagged, 0)
    except (TypeError, ValueError, IndexError, OverflowError, RecursionError) as err:
        raise ValueError("malformed value") from err


def snapshot(v, _dumps=marshal.dumps):
    """``v``'s marshal bytes (format 0: no references, no interning, so equal values of exact
    built-in types give equal bytes), or None for anything marshal refuses."""
    try:
        return _dumps(v, 0)
    except (ValueError, TypeError, RecursionError):
        return None


_ESCAPES = {i: f"\\u{i:04x}" for i in range(32)} | {ord('"'): '\\"', ord("\\"): "\\\\"}


def to_json(value, _type=type, _str=str, _repr=repr, _escapes=_ESCAPES, _inf=float("inf")):
    """JSON text of dicts, lists, str, int, float, bool and None (the report). ``json`` costs more
    start-up time (``re``, ``enum``) than a whole short run; the parent parses with ``json``. It
    recurses through a closure and reads nothing from the module namespace, which a program may
    reach and rewrite before the report is written."""

    def walk(v):
        t = _type(v)
        if v is None:
            return "null"
        if t is bool:
            return "true" if v else "false"
        if t is int:
            return _str(v)
        if t is float:
            return _repr(v) if v == v and v != _inf and v != -_inf else "null"
        if t is str:
            return '"' + v.translate(_escapes).encode("utf-8", "replace").decode("utf-8") + '"'
        if t is list or t is tuple:
            return "[" + ",".join([walk(x) for x in v]) + "]"
        if t is dict:
            return "{" + ",".join([walk(_str(k)) + ":" + walk(x) for k, x in v.items()]) + "}"
        return walk(_str(v))

    return walk(value)


# ---- runners --------------------------------------------------------------------------------


class _Server:
    """The program's side of a functional run: its names and the calls the judge asks for.

    Objects that are not plain data stay here and are named by a *handle* (their index in
    ``objects``; one per object). A request (marshal, from the judge) is ``("call", handle, args,
    kwargs, marked)``, ``("attr", handle, name)`` or ``("iter", handle)``; ``marked`` says that
    ``(mark, handle)`` pairs in the arguments stand for objects of the program. An answer is
    ``["ok", value, states]`` or ``["raise", builtin exception class name, states]``: the value as
    tagged plain data (:func:`plain`) whose other objects are ``["h", handle]``, and ``states`` the
    ``[position or keyword, state]`` of every list, dict or set argument that the call changed.
    Nothing here is secret: the judge takes an answer for what it is, a value the program chose."""

    def __init__(self, scope, mark):
        self.scope, self.mark = scope, mark
        self.objects, self.index = [], {}
        self.errors = {id(c): c.__name__ for c in vars(builtins).values()
                       if isinstance(c, type) and issubclass(c, BaseException)}  # fmt: skip

    def handle(self, obj):
        h = self.index.get(id(obj))
        if h is None:
            h = self.index[id(obj)] = len(self.objects)
            self.objects.append(obj)  # kept alive, so its id is never reused
        return ["h", h]

    def tag(self, value):
        return plain(value, self.handle)

    def error_name(self, err):
        for cls in type.__dict__["__mro__"].__get__(type(err)):
            if id(cls) in self.errors:
                return self.errors[id(cls)]
        return "BaseException"

    def names(self, wanted):
        found = {}
        for name in wanted:
            if type(name) is str and name in self.scope:
                try:
                    found[name] = self.tag(self.scope[name])
                except TypeError:  # too large to send
                    found[name] = None
        return found

    def unmark(self, v):
        t = type(v)
        if t is tuple:
            if len(v) == 2 and v[0] == self.mark and type(v[1]) is int:
                return self.objects[v[1]]
            return tuple(self.unmark(x) for x in v)
        if t is list:
            return [self.unmark(x) for x in v]
        if t is dict:
            return {self.unmark(k): self.unmark(x) for k, x in v.items()}
        if t is set or t is frozenset:
            return t(self.unmark(x) for x in v)
        return v

    def state(self, v):
        """What tells whether a list, dict or set argument changed: its marshal bytes, or its tags
        where it holds objects of the program (None if too large)."""
        raw = snapshot(v)
        if raw is not None:
            return raw
        try:
            return self.tag(v)
        except TypeError:
            return None

    def answer(self, request):
        try:
            op, h = request[0], request[1]
            target = self.objects[h]
            if op == "call":
                args, kwargs, marked = request[2], request[3], request[4]
                if marked:
                    args, kwargs = self.unmark(args), self.unmark(kwargs)
                watched = [*enumerate(args), *kwargs.items()]
                watched = [(where, a) for where, a in watched if type(a) in (list, dict, set)]
                before = [self.state(a) for _, a in watched]
        except Exception:
            return ["raise", "RuntimeError", []]  # a request the judge never makes
        kind = "ok"
        try:
            if op == "call":
                value = target(*args, **kwargs)
            elif op == "attr":
                value = getattr(target, request[2])
            else:
                value = list(target)
        except BaseException as err:
            value, kind = self.error_name(err), "raise"
        try:
            states = []
            if op == "call":
                for (where, a), old in zip(watched, before):
                    now = self.state(a)
                    if now is None or now != old:
                        states.append([where, self.tag(a)])
            return [kind, self.tag(value) if kind == "ok" else value, states]
        except TypeError:  # too large to send
            return ["raise", "MemoryError", []]


def _frames(fd, _read=os.read):
    """Length-prefixed requests from the judge until it closes the channel."""
    while True:
        head = b""
        while len(head) < 4:
            data = _read(fd, 4 - len(head))
            if not data:
                return
            head += data
        size, body = int.from_bytes(head, "big"), []
        while size:
            data = _read(fd, min(size, 1 << 20))
            if not data:
                return
            body.append(data)
            size -= len(data)
        yield marshal.loads(b"".join(body))


def _run_functional(job, arm):
    """Load the program, then answer the judge's requests (:class:`_Server`): over the channel
    (the local backend: requests on ``REQUEST_FD``, one JSON line per answer on the result fd;
    returns None) or, for a backend that runs a script and reads its output (SandboxFusion), the
    job's ``calls`` in order, answered in the report. No test code runs here."""
    scope = {"__name__": "__main__"}
    server = _Server(scope, job.get("mark"))
    try:
        code = compile(job["code"], "<solution>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        loaded = ["raise", "SyntaxError"]
    else:
        arm()
        try:
            exec(code, scope)
        except BaseException as err:
            loaded = ["raise", server.error_name(err)]
        else:
            loaded = ["ready", server.names(job.get("names") or ())]
    if not job.get("serve"):
        calls = job.get("calls") or () if loaded[0] == "ready" else ()
        return {"load": loaded, "replies": [server.answer(marshal.loads(c)) for c in calls]}
    write, out, dumps = os.write, RESULT_FD, to_json

    def send(message):
        data = (dumps(message) + "\n").encode()
        while data:
            data = data[write(out, data) :]

    send(loaded)
    if loaded[0] == "ready":
        for request in _frames(REQUEST_FD):
            send(server.answer(request))
    return None


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
    # exactly one object: a functional run's channel goes on with the judge's requests on stdin
    job = marshal.loads(job_text) if job_text is not None else marshal.load(sys.stdin.buffer)
    if job["result_fd"] == "stdout":  # a remote sandbox returns only stdout
        job["result_fd"] = os.dup(1)
    global RESULT_FD, REQUEST_FD
    if job.get("serve"):
        REQUEST_FD = os.dup(0)  # not inheritable (dup's default)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
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
    # unittest arms its own hooks once the tests are loaded
    ours = [id(f) for f in (_Server, plain, decode, snapshot, to_json, Denied, _proc_path_denied)]
    ours += [id(f) for f in vars(_Server).values()]
    arm = (lambda: None) if job["kind"] == "unittest" else _install_hooks(ours)
    try:
        data = RUNNERS[job["kind"]](job, arm)
    except MemoryError:
        data = {"error": "MemoryError"}
    if data is not None:  # None: a functional run that answered over its channel
        report(data)
    exit_now(0)


if __name__ == "__main__":
    main()

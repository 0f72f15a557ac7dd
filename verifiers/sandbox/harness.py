"""The program that runs inside the sandbox (``python -I -B sandbox/harness.py``; stdlib only; SPEC 9).

It reads one job as JSON from stdin, drops to the run's unprivileged uid when it was started as
root (strict mode: bubblewrap keeps root's capabilities until here), makes itself non-dumpable (no
``/proc/<pid>/mem`` for its children), installs PEP 578 audit hooks, runs the model's code and
writes one line, ``<MAC> <json>``, to its report channel (fd ``RESULT_FD``), the MAC a keyed
BLAKE2b of the JSON under the run's token. What it writes is raw material: the verdict is computed
by the judge outside (``judge.py``), which never loads model code. The parent takes the channel's
content as a report only if it is exactly that one line with a valid MAC (:func:`unseal`): the
program and the processes it forks can write to the channel (they share the process or inherit
it), but without the token, which lives only in ``main``'s frame and closure, they can only spoil
the report, never forge or rewrite one.

- ``functional``: the model's code, then the *probe* (the tests with every site, an expression
  rooted at a name the program defines, replaced by ``__pac_site__``, and every assert reduced to
  an evaluation whose outcome is ignored; see ``judge.py``). The records are kept by an audit
  hook installed before any model code (:func:`_install_recorder`): site values and the calls made
  of program callables (arguments before, value or exception, list/dict/set arguments after) as
  plain data of exact built-in types (``type(x) is``, containers walked); anything else goes back
  as such. Nothing the program can reach holds the records, and a site is recorded only for the
  probe's own nonce. A program that lies can only lie about values, which the judge compares
  against expectations it evaluates itself.
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

import _thread
import builtins
import marshal
import os
import sys
import types  # noqa: F401 (reads a traceback's tb_frame at import: denied once armed)
import zlib

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
FRAME_ATTRS = frozenset({"tb_frame", "gi_frame", "cr_frame", "ag_frame", "f_back", "gi_code"})
# functional runs also deny the code objects of the tests' own functions (the site nonce is one of
# their constants); other functions' __code__ stays readable (numpy reads it at import)
CODE_ATTRS = FRAME_ATTRS | {"cr_code", "ag_code"}
TESTS_FILE = "<tests>"
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


def _install_hooks(protected_types, frame_attrs=FRAME_ATTRS, tests_file=None):
    """Arm the audit hooks (PEP 578: they cannot be removed). ``protected_types`` are the ids of
    classes (and functions) that existed before model code loaded: no attribute of theirs may
    change. Reading one of ``frame_attrs`` is denied, and so is the ``__code__`` of a function
    compiled from ``tests_file``. ``ctypes.dlopen(None)`` (what ``import ctypes`` does) is let
    through: without dlsym and calls, which stay denied, it reaches nothing, and numpy imports
    ctypes."""
    armed = [False]
    protected = frozenset(protected_types)
    denied, _id, _denied, proc_denied = DENIED_EVENTS, id, Denied, _proc_path_denied
    _type, function, ident = type, type(_proc_path_denied), _thread.get_ident
    reading = set()  # threads inside the check below: its own __code__ read raises this event too
    code_of = function.__dict__["__code__"].__get__

    def tests_code(f):
        me = ident()
        if me in reading:
            return False
        reading.add(me)
        try:
            return code_of(f).co_filename == tests_file
        finally:
            reading.discard(me)

    def hook(event, args):
        if not armed[0]:
            return
        if event == "ctypes.dlopen" and args[0] is None:
            return
        if event in denied:
            raise _denied(f"{event} is not allowed in the sandbox")
        if event == "object.__getattr__" and args[1] in frame_attrs:
            raise _denied("frame introspection is not allowed in the sandbox")
        if (
            tests_file is not None
            and event == "object.__getattr__"
            and args[1] == "__code__"
            and _type(args[0]) is function  # the C getter in tests_code runs no program code
            and tests_code(args[0])
        ):
            raise _denied("the tests' code objects are not readable in the sandbox")
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


def decode(tagged):
    """Tagged plain data (see :func:`plain`) -> exact built-in values; ValueError if malformed."""
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
        raise ValueError("malformed value")

    try:
        return walk(tagged, 0)
    except (TypeError, ValueError, IndexError, OverflowError, RecursionError) as err:
        raise ValueError("malformed value") from err


LARGE = 1 << 16  # marshal bytes above which an argument is keyed by a checksum


def snapshot(v, _dumps=marshal.dumps):
    """``v``'s marshal bytes (format 0: no references, no interning, so equal values of exact
    built-in types give equal bytes in any process), or None for anything marshal refuses."""
    try:
        return _dumps(v, 0)
    except (ValueError, TypeError, RecursionError):
        return None


def call_key(args, kwargs, tag, _crc=zlib.crc32, _len=len):
    """A call's arguments as tagged data, each on its own (``tag`` tags what is not plain data): what
    the judge matches a replayed call by. An argument of more than ``LARGE`` marshal bytes is keyed
    by their checksum and length (tagging 10^5 items costs seconds; a key only picks which of the
    program's own recorded calls answers, so a collision gains a program nothing)."""

    def one(v):
        raw = snapshot(v)
        if raw is not None and _len(raw) > LARGE:
            return ["large", _crc(raw), _len(raw)]
        try:
            return plain(v, tag)
        except TypeError:
            return ["large"]

    return [[one(a) for a in args], [[name, one(v)] for name, v in dict.items(kwargs)]]


def fresh_exception(name):
    """A new built-in exception of the class named ``name`` (RuntimeError for a name that is not
    a built-in Exception class): what a recorded raise becomes, in the sandbox's test code and in
    the judge alike. Never the program's own exception object."""
    cls = getattr(builtins, str(name), None)
    if isinstance(cls, type) and issubclass(cls, Exception):
        try:
            return cls("raised in the sandbox")
        except Exception:
            pass
    return RuntimeError(f"{name} raised in the sandbox")


_ESCAPES = {i: f"\\u{i:04x}" for i in range(32)} | {ord('"'): '\\"', ord("\\"): "\\\\"}


def to_json(value, _type=type, _str=str, _repr=repr, _escapes=_ESCAPES, _inf=float("inf")):
    """JSON text of dicts, lists, str, int, float, bool and None (the report). ``json`` costs more
    start-up time (``re``, ``enum``) than a whole short run; the parent parses with ``json``. It
    recurses through a closure and reads nothing from the module namespace, which a program can
    reach (through ``__pac_site__.__globals__``) and rewrite before the report is written."""

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


def _mac_function():
    """BLAKE2b (keyed: a MAC), from the interpreter's own module (0.3 ms to import; hashlib's
    start-up costs 7 ms) where it has one."""
    try:
        from _blake2 import blake2b
    except ImportError:
        from hashlib import blake2b
    return blake2b


def unseal(data, token):
    """The report in ``data``, a run's whole report channel, or None. The harness writes one line,
    ``<MAC> <json>``, the MAC keyed with the run's token, which the program cannot read (its only
    copies are in the harness's frames and closures, and frames and the gc are denied). Anything
    else in the channel (a second line, bytes before or after it: written by the program or a
    process it forked, which inherit the channel) makes it no report at all: every process but
    the harness can only spoil it. For the parent; stdlib only."""
    import hmac
    import json

    if data.count(b"\n") != 1 or not data.endswith(b"\n"):
        return None
    head, _, body = data[:-1].partition(b" ")
    mac = _mac_function()(body, key=bytes.fromhex(token), digest_size=32).hexdigest().encode()
    if not hmac.compare_digest(head, mac):
        return None
    try:
        report = json.loads(body)
    except ValueError:
        return None
    return report if isinstance(report, dict) else None


# ---- runners --------------------------------------------------------------------------------


class _Rec:
    """A model callable as the sandbox's test code holds it (a function passed as a value, the
    callee of a call into model code): calling it raises a ``pac.call`` audit event, and the
    recorder hook makes the call and keeps the record. It holds only a handle: a program that
    reaches it can make calls of its own functions, nothing more."""

    __slots__ = ("handle",)

    def __init__(self, handle):
        self.handle = handle

    def __call__(self, *args, **kwargs):
        box = []
        sys.audit("pac.call", self.handle, args, kwargs, box)
        return box[0]


def _site(nonce, k, thunk, _audit=sys.audit):
    """What the probe calls for site ``k``: the recorder hook evaluates ``thunk`` (only if
    ``nonce`` is the run's) and hands back a plain copy of its value or a :class:`_Rec`."""
    box = []
    _audit("pac.site", nonce, k, thunk, box)
    return box[0]


def _try(thunk):
    """An assert of the probe: evaluate it for the calls it makes; its outcome is the judge's."""
    try:  # noqa: SIM105 (contextlib is one more import at every start-up)
        thunk()
    except BaseException:
        pass


def _install_recorder(nonce):
    """Install the audit hook that records what the judge needs (PEP 578: it cannot be removed,
    and nothing reaches it or its records); returns ``collect`` for the harness.

    ``pac.site`` events (authenticated by ``nonce``, a constant of the probe's code, which the
    program cannot read: frames, gc and ``__code__`` are denied) evaluate a site: a value of exact
    built-in types is recorded and a copy handed back; a callable is registered and a handle
    handed back; an exception is recorded and a fresh built-in one raised. ``pac.call`` events
    call a registered callable (a program can send those too, and only gets calls of its own
    functions recorded), record the arguments before the call (the judge's key), the value or
    the exception, and the state of every list, dict and set argument after it (in-place
    mutation), all as plain data."""
    sites, calls, fns = {}, {}, []
    _plain, _decode, _fresh, _callable = plain, decode, fresh_exception, callable
    _key, _snapshot = call_key, snapshot
    _type, _str, _len, _list, _tuple, _dict = type, str, len, list, tuple, dict
    _mro = type.__dict__["__mro__"].__get__
    errors = {id(c): c.__name__ for c in vars(builtins).values()
              if isinstance(c, type) and issubclass(c, BaseException)}  # fmt: skip
    containers, rec, opaque = (list, dict, set), _Rec, object

    def error_name(err):
        for cls in _mro(_type(err)):
            if id(cls) in errors:
                return errors[id(cls)]
        return "BaseException"

    def key_tag(v):  # what a call key says of a value that is not plain data
        if _type(v) is rec and _type(v.handle) is int and 0 <= v.handle < _len(fns):
            return ["fn", fns[v.handle][0]]
        return ["?", _type(v).__name__ if _type(_type(v).__name__) is _str else "?"]

    def state(v):
        try:
            return _plain(v)
        except TypeError:
            return None

    def hand_back(value):
        """(record, what the test code gets) for a value the program produced."""
        try:
            tagged = _plain(value)
        except TypeError:
            return (["fn"], None) if _callable(value) else (["unplain"], opaque())
        return ["value", tagged], _decode(tagged)

    def on_site(args):
        if _len(args) != 4 or _type(args[0]) is not _str or args[0] != nonce:
            return
        _, k, thunk, box = args
        if _type(k) is not int or _type(box) is not _list:
            return
        entries = sites.setdefault(_str(k), [])
        try:
            value = thunk()
        except BaseException as err:
            entries.append(["raise", error_name(err)])
            raise _fresh(error_name(err)) from None
        entry, given = hand_back(value)
        if entry[0] == "fn":
            fns.append((_str(k), value))
            given = rec(_len(fns) - 1)
        entries.append(entry)
        box.append(given)

    def on_call(args):
        if _len(args) != 4:
            return
        handle, cargs, ckwargs, box = args
        ok = _type(handle) is int and 0 <= handle < _len(fns)
        if not (ok and _type(cargs) is _tuple and _type(ckwargs) is _dict and _type(box) is _list):
            return
        k, fn = fns[handle]
        key = _key(cargs, ckwargs, key_tag)
        after = [*cargs, *_dict.values(ckwargs)]
        raw = [_snapshot(a) if _type(a) in containers else None for a in after]
        real = [fns[a.handle][1] if key_tag(a)[0] == "fn" else a for a in cargs]
        raised = None
        try:
            value = fn(*real, **ckwargs)
        except BaseException as err:
            raised = error_name(err)
        # the state after the call of every list, dict and set argument that changed (a value
        # that is no longer plain data, or too large to tag, is recorded as None)
        before = [*key[0], *(v for _, v in key[1])]
        states = []
        for where, a, b, r in zip([*range(_len(cargs)), *ckwargs], after, before, raw):
            if _type(a) in containers:
                changed = _snapshot(a) != r if r is not None else state(a) != b
                if changed:
                    states.append([where, state(a)])
        if raised is not None:
            calls.setdefault(k, []).append([key, ["raise", raised], states])
            raise _fresh(raised) from None
        entry, given = hand_back(value)
        if entry[0] == "fn":  # a callable returned by a call: not followed
            entry, given = ["unplain"], opaque()
        calls.setdefault(k, []).append([key, entry, states])
        box.append(given)

    def hook(event, args):
        if event == "pac.site":
            on_site(args)
        elif event == "pac.call":
            on_call(args)

    sys.addaudithook(hook)

    def collect():
        return sites, calls

    return collect


def _run_functional(job, arm):
    """The model's code, then the probe (``judge.py``) in a copy of the model's namespace:
    the probe sees the program's names, but what the tests bind (a list of cases with their
    expected outputs) stays out of the program's globals, where its functions could look it up
    at call time. The records come from the recorder hook, out of the program's reach."""
    collect = _install_recorder(job.pop("nonce", None) or os.urandom(16).hex())
    scope = {"__name__": "__main__", "__pac_site__": _site, "__pac_try__": _try}
    code = compile(job["code"], "<solution>", "exec")
    probe_code = compile(job.pop("probe"), TESTS_FILE, "exec")
    arm()
    error = ""
    try:
        exec(code, scope)
        exec(probe_code, dict(scope))
    except BaseException:
        error = "raised"
    sites, calls = collect()
    return {"sites": sites, "calls": calls, "error": error}


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
    key, write, dumps, exit_now = bytes.fromhex(job.pop("token")), os.write, to_json, os._exit
    mac = _mac_function()

    def report(data, _fd=RESULT_FD, _memoryview=memoryview):
        body = dumps(data).encode()
        line = mac(body, key=key, digest_size=32).hexdigest().encode() + b" " + body + b"\n"
        view = _memoryview(line)
        while view:
            view = view[write(_fd, view) :]

    for path in job.get("site_dirs") or ():  # started with -S: site-packages without .pth files
        if path not in sys.path:
            sys.path.append(path)
    _drop_privileges(job)
    _not_dumpable()
    _environment(job)
    sys.modules["__main__"] = type(sys)("__main__")  # model code gets a fresh __main__
    # unittest arms its own hooks once the tests are loaded
    ours = [
        id(f)
        for f in (
            _site,
            _try,
            _Rec,
            _Rec.__call__,
            plain,
            decode,
            fresh_exception,
            call_key,
            snapshot,
            to_json,
            Denied,
            _proc_path_denied,
        )
    ]
    arm = (
        (lambda: None)
        if job["kind"] == "unittest"
        else _install_hooks(ours, CODE_ATTRS, TESTS_FILE)
        if job["kind"] == "functional"
        else _install_hooks(ours)
    )
    try:
        data = RUNNERS[job["kind"]](job, arm)
    except MemoryError:
        data = {"error": "MemoryError"}
    report(data)
    exit_now(0)


if __name__ == "__main__":
    main()

"""The program that runs inside the sandbox (``python -I -B sandbox/harness.py``; stdlib only).

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

- ``functional``: the model's code, loaded as a module named ``solution`` (its own main block does
  not run; an exit with status 0 while it loads ends the load, keeping what it defined before,
  :func:`_clean_exit`), then a call server (:class:`_Server`): the judge asks for the names the tests use, then
  for calls of the program's functions and methods, attributes of its objects, one request at a
  time, and gets each answer as plain data of exact built-in types (``type(x) is``, containers
  walked; numpy's own scalar numbers as the Python numbers they are, :func:`library_number`),
  with a handle for every other object, the built-in class name of an exception, and the
  new state of list/dict/set arguments the call changed. The tests themselves run in the judge's
  checker process (``checker.py``), which never loads model code: nothing of them reaches this
  process but the arguments of calls into model code, so nothing here is worth reading (an answer is
  a value the program chose, which it could have returned). Over a channel for the local backend
  (requests on a dup of stdin, answers one line each on the result fd), or for SandboxFusion, which
  runs a script, the job's ``calls`` answered in order in the report. The answer lines are sealed as
  the report is, each MAC over the line's place in the conversation and its body
  (:func:`unseal_answer`): the program and its forked children share or inherit the result fd and
  could write lines of their own into it, which the parent then refuses (the run ends ``no_result``)
  rather than reading as the server's answers; each is read up to a bound
  (``local._Session.MAX_ANSWER``).
- ``stdio``: one forked child per case runs the program as ``__main__`` with the case on stdin
  and stdout in a file, each case afresh (:func:`_reset`: no process or file of the case before); this process never runs model code and sends back each case's output and
  exit status, up to the first case that does not exit with status 0 (the verdict is then 0).
  The child ends as the interpreter ends (:func:`_interpreter_exit`): ``exit()``,
  ``quit()`` and ``sys.exit(n)`` exit with ``n``, an uncaught exception with 1; then the
  non-daemon threads are joined, the atexit handlers run and stdout is flushed, within the run's
  limits. The child has no report channel: what its threads and handlers write is only output.
- ``unittest`` (BigCodeBench): the program and the tests share one namespace in BigCodeBench's
  harness (a module ``__test__`` with ``sys``, ``os`` and ``environ`` bound, the program first, so
  the tests see its imports and constants, and the tests' names win). Here the test code runs
  first, before any model code (so ``missing_library`` comes only from the test code's own
  imports), with what it would have seen of the program bound without running it: the program's
  imports (made here, after the modules the test code imports) and its literal constants. Every test is made then: one TestCase instance
  per test method, with unittest's TestCase methods bound on it (what ``self.assertEqual`` finds
  is what unittest had before the program loaded). Then the audit hooks are armed, the program
  loads into ``__test__`` (``sys.modules['__test__']``, what ``patch(f"{__name__}.x")`` patches),
  the two namespaces are merged (the program's names the tests lack are added to the tests'
  scope, builtins excepted; of the tests' names only what they import is added to the
  program's: docs/guides/sandbox.md#the-tests-data), and the harness's own loop runs the tests:
  setUpModule, setUpClass, each test's setUp, method, tearDown and cleanups, tearDownClass,
  tearDownModule, the tests' own fixtures only. A test passes when all of these return; a skip
  raised at run time and an expected failure are failures, a test the test code itself marks
  skipped is left out. Neither unittest's runner nor its ``_Outcome`` decide anything, so a
  program that swaps them changes nothing (it is also caught swapping them, below).

  The hooks deny frame and gc introspection (``sys._getframe``, ``tb_frame``/``gi_frame``,
  ``gc.get_objects``...), the code objects of the tests' methods (their constants are the
  expected values), tracing, new audit hooks, ``ctypes`` calls, ``/proc/<pid>`` files other than
  status-like ones, and swapping the code, defaults or class of a function, class or module that
  existed before the program. The standard library's own uses of frames get stand-ins
  (:func:`_frameless`): ``sys._getframe()`` returns None, as on an interpreter without frames
  (``logging``, ``inspect.currentframe``, pandas' and matplotlib's warning stack levels,
  ``typing``); the traceback module's stack and traceback walkers give file names, line numbers
  and function names read by two trusted functions, never a frame (pyparsing at import,
  ``format_exc``, ``logging.exception``); ``traceback.clear_frames`` (``assertRaises``) has
  nothing to clear. What the tests rely on is compared with its state before the program loaded
  (``tampered``, listing what changed; CPython 3.11 raises no audit event for a class or module
  attribute write, so this is found after the fact): after every test, unittest's modules (their
  functions, classes and modules) and classes (every name), the methods of the tests' classes
  (and no new name on them that shadows an inherited one), the tests' scope (no new builtin name
  either), the builtins, ``sys.modules`` and the methods bound on each test; after the program
  loads and at the end, also the functions, classes and modules of every other module loaded and
  of their classes (``pd.testing.assert_frame_equal``, ``pd.DataFrame.equals``), the methods of
  every other class alive that is not immutable (a nested class, one found only through
  ``object.__subclasses__()``), and no new builtin name in any module; and all of it, when each call of a program function returns, with its state
  when the call began (a patch made in the call is seen before the tests use it, however the
  program puts it back later; the tests' own patches, active through the call, are no change
  there; a new name on a class that shadows an inherited method counts). Data attributes of modules are not compared: that is where libraries keep
  lazy caches (``tempfile.tempdir``, ``unittest.mock.file_spec``); nor is a library class's
  method rebound to another of its own (pyparsing's packrat cache swaps ``_parse``).

What remains possible for unittest-style tests, which must share an interpreter with the code under
test: a program can change what the tests rely on and restore it before the next check outside a
call of a program function (from a thread, a finaliser, a method of an object it returned or
the body of a generator it returned, within one test); it can change the *values* the tests
hand it. The tests' own data is out of its reach (docs/guides/sandbox.md#the-tests-data): the
program's module holds none of it, the functions of the tests' classes are sealed stand-ins
(:func:`_seal`), their data is parked on the test instances (:func:`_parking`), and a change of it
in a call that was not handed it is ``tampered`` (:func:`_tests_data`).
Values that lie to a comparison are refused where the harness sees them (:func:`_liar_finder`):
every argument of the assert methods bound on each test, and every value a function of the
program returns to the tests, must be made of classes that existed before the program loaded, or
of classes made since that redefine no comparison, truth, membership, numeric or attribute-lookup
method (and none of a library base's methods; a mock's unconfigured magic methods pass), with
no method shadowed on a pandas object;
lists, tuples, sets, dicts, numpy object arrays and pandas objects are walked. The comparison a
value then gets is its library's, tried on a fresh object (numpy arrays, pandas objects and mocks
aside): equal to it, not unequal to it or holding it is a library's always-equal object
(``unittest.mock.ANY``). A comparison is trusted only when its code (``==``, ``!=``, the
orderings, ``in``, the subtraction ``assertAlmostEqual`` makes) is a class's the test code had
before the program loaded (alive after the test code's own imports, imported ahead of the
program's; made by the test code; of a library the tests name through the program's imports,
:func:`_libraries_named`); a value whose comparison is another class's (``pytest.approx`` of a
program's ``import pytest``) is taken only where it compares as its meaning in the tests'
classes, its built-in value or else its nearest base the tests had, on the values next to it and
the assertion's other arguments (:func:`_liar_finder`'s ``genuine``); with no such meaning it
is not taken. Otherwise the test fails (``lying value: Class.__eq__``, ``lying value: _ANY:
equal to anything``, ``lying value: ApproxScalar.__eq__: a class the tests did not have``). What
the harness cannot see stays possible: a comparison the test makes in its own code between
values that did not come back from a function of the program's (``obj.method() == x``, where
``obj`` is an object of the program's or a mock it configured: the method is the program's to
write), a loose comparison of a class the tests had (an object the test code names itself,
passed to an assertion by a method of the program's; ``pytest.approx`` where the tests import
pytest), and a class or object changed by a thread between the check and the comparison. CPython has no way to make a
module dictionary read-only or to audit plain attribute writes on modules; closing that needs the
test's assertions evaluated in a second interpreter, which BigCodeBench's tests (mocks, temp
files, dataframes passed by reference) do not allow. The token that seals the report lives only in
a local and a closure cell of ``main``, reachable only through frames or the gc, both denied.

The checks themselves are out of the program's reach: a unittest run's checks run from a private
copy of this module's globals (:func:`_private`; the globals themselves are reachable through the
``__globals__`` of any method of a class defined here, and are compared like unittest's, with
this module's classes), the tamper check is closures, never a class that
``object.__subclasses__()`` lists (:func:`_watch`), and what the program can reach of the harness
(the wrappers the tests call it through, the stand-ins) has empty globals.
"""

import _thread
import builtins
import marshal
import os
import sys
import types  # (reads a traceback's tb_frame at import: denied once armed)

# The harness reads every builtin it calls from this module's globals, bound here before any
# program loads: a program that rebinds one in the builtins module (``builtins.len = ...``)
# changes what it sees, never the harness's own reading of requests and writing of its report.
globals().update({k: v for k, v in vars(builtins).items() if not k.startswith("_")})

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
# unittest runs also deny the code objects of the tests' own methods (their constants are the
# expected values); other functions' __code__ stays readable (numpy reads it at import)
CODE_ATTRS = FRAME_ATTRS | {"cr_code", "ag_code"}
TESTS_FILE = "<tests>"
PROGRAM_MODULE = "solution"  # what a functional answer is loaded as (its __name__)
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


def _install_hooks(
    protected_types,
    frame_attrs=FRAME_ATTRS,
    tests_file=None,
    guarded=None,
    trusted=None,
    denied_codes=frozenset(),
    sealed=frozenset(),
):
    """Arm the audit hooks (PEP 578: they cannot be removed). ``protected_types`` are the ids of
    classes (and functions) that existed before model code loaded: no attribute of theirs may
    change (with ``guarded``, none of those names: CPython raises the event only for a few, such
    as a function's ``__code__`` or an object's ``__class__``). Reading one of ``frame_attrs`` is
    denied, and so is the ``__code__`` of a function compiled from ``tests_file``.
    ``ctypes.dlopen(None)`` (what ``import ctypes`` does) is let through: without dlsym and calls,
    which stay denied, it reaches nothing, and numpy imports ctypes. ``trusted``: (the real
    ``sys._getframe``, ids of code objects) whose frames may read frames (``sys._getframe``,
    ``tb_frame``): the frame that raised the event is looked up, not the one it asks for.
    ``denied_codes``: ids of code objects no function's ``__code__`` may give out. ``sealed``:
    ids of functions whose defaults may not be read (the stand-ins of :func:`_seal`)."""
    armed = [False]
    protected = frozenset(protected_types)
    denied, _id, _denied, proc_denied = DENIED_EVENTS, id, Denied, _proc_path_denied
    _type, function, ident = type, type(_proc_path_denied), _thread.get_ident
    reading = set()  # threads inside the check below: its own __code__ read raises this event too
    code_of = function.__dict__["__code__"].__get__
    getframe, trusted_codes = trusted or (None, frozenset())
    asking = set()  # threads inside trusted_caller: its own sys._getframe raises the event too

    def trusted_caller():
        me = ident()
        if me in asking:
            return True
        if not trusted_codes:
            return False
        asking.add(me)
        try:  # 0: this function, 1: the hook, 2: the frame whose operation raised the event
            return _id(getframe(2).f_code) in trusted_codes
        finally:
            asking.discard(me)

    def tests_code(f):
        me = ident()
        if me in reading:
            return False
        reading.add(me)
        try:
            code = code_of(f)
            return code.co_filename == tests_file or _id(code) in denied_codes
        finally:
            reading.discard(me)

    def hook(event, args):
        if not armed[0]:
            return
        if event == "ctypes.dlopen" and args[0] is None:
            return
        if event in denied:
            if event == "sys._getframe" and trusted_caller():
                return
            raise _denied(f"{event} is not allowed in the sandbox")
        if event == "object.__getattr__" and args[1] in frame_attrs:
            if trusted_caller():
                return
            raise _denied("frame introspection is not allowed in the sandbox")
        if (
            (tests_file is not None or denied_codes)
            and event == "object.__getattr__"
            and args[1] == "__code__"
            and _type(args[0]) is function  # the C getter in tests_code runs no program code
            and tests_code(args[0])
        ):
            raise _denied("the tests' code objects are not readable in the sandbox")
        if (
            sealed
            and event == "object.__getattr__"
            and args[1] in ("__kwdefaults__", "__defaults__")
            and _id(args[0]) in sealed
        ):
            raise _denied("the tests' functions are not readable in the sandbox")
        if (
            event in ("object.__setattr__", "object.__delattr__")
            and _id(args[0]) in protected
            and (guarded is None or args[1] in guarded)
        ):
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
    # the interpreter's own folder first: a program that runs `python x.py` gets this interpreter
    path = f"{os.path.dirname(sys.executable)}:/usr/bin:/bin"
    os.environ.update({"PATH": path, "HOME": workdir, "TMPDIR": workdir})
    os.environ.update(dict.fromkeys(THREAD_VARS, "1"))  # BigCodeBench's harness does the same
    os.environ.update({"MPLBACKEND": "Agg", "LANG": "C.UTF-8"})


# ---- plain data: exact built-in types only -------------------------------------------------


# numpy's scalar number types (C-defined: a program can neither change nor make one) and how each
# becomes the Python number it stands for, through the type's own C slot
_INTEGERS = "int8 int16 int32 int64 uint8 uint16 uint32 uint64 intc uintc longlong ulonglong int_"
_NUMPY_NUMBERS = {
    **dict.fromkeys(_INTEGERS.split(), __import__("operator").index),
    **dict.fromkeys(("float16", "float32", "float64"), float),
    **dict.fromkeys(("complex64", "complex128"), complex),
    **dict.fromkeys(("bool_", "bool"), bool),
}
_HEAP_TYPE = 1 << 9  # Py_TPFLAGS_HEAPTYPE: a class made at run time (a ``class`` statement)


def library_number(
    v,
    t,
    _flags=type.__dict__["__flags__"].__get__,
    _module=type.__dict__["__module__"].__get__,
    _name=type.__dict__["__name__"].__get__,
    _numbers=_NUMPY_NUMBERS,
):
    """The Python number that ``v``, of numpy's own scalar type ``t`` (``numpy.int64``,
    ``numpy.float64``, ``numpy.bool_`` ...: a static C type, never a subclass), stands for; None
    for any other value. docs/guides/sandbox.md#how-values-cross."""
    if _flags(t) & _HEAP_TYPE or _module(t) != "numpy":
        return None
    convert = _numbers.get(_name(t))
    return None if convert is None else convert(v)


def plain(
    value,
    other=None,
    _type=type,
    _hex=float.hex,
    _fmt=format,
    _repr=repr,
    _sorted=sorted,
    _items=dict.items,
    _number=library_number,
):
    """``value`` as tagged JSON data, or raise TypeError for anything but exact built-in types
    (and numpy's numbers, as the Python numbers they stand for: :func:`library_number`).
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
        number = _number(v, t)
        if number is not None:
            return walk(number, depth)
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


def unseal_answer(line, token, n):
    """The body of ``line`` (one line of a functional run's answer channel, newline removed) if it
    is the harness's n-th answer line sealed under ``token``, else None (see ``main``'s ``seal``).
    For the parent; stdlib only."""
    import hmac

    head, _, body = line.partition(b" ")
    mac = _mac_function()(b"%d\n" % n + body, key=bytes.fromhex(token), digest_size=32)
    return body if hmac.compare_digest(head, mac.hexdigest().encode()) else None


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


def _run_functional(job, arm, seal=None):
    """Load the program, then answer the judge's requests (:class:`_Server`): over the channel
    (the local backend: requests on ``REQUEST_FD``, one sealed JSON line per answer on the result
    fd, ``seal(body, n)`` for the n-th line, the load answer being line 0; returns None) or, for a
    backend that runs a script and reads its output (SandboxFusion), the job's ``calls`` in order,
    answered in the report. No test code runs here."""
    module = type(sys)(PROGRAM_MODULE)  # imported, not run: its main block stays out
    sys.modules[PROGRAM_MODULE] = module  # pickle and dataclasses find its classes through it
    scope = module.__dict__
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
            loaded = None if _clean_exit(err) else ["raise", server.error_name(err)]
        else:
            loaded = None
        if loaded is None:  # loaded, or ended by an exit with status 0: what it defined is tested
            loaded = ["ready", server.names(job.get("names") or ())]
    if not job.get("serve"):
        calls = job.get("calls") or () if loaded[0] == "ready" else ()
        return {"load": loaded, "replies": [server.answer(marshal.loads(c)) for c in calls]}
    write, out, dumps, sent, _memoryview = os.write, RESULT_FD, to_json, [0], memoryview

    def send(message):
        view = _memoryview(seal(dumps(message).encode(), sent[0]))
        sent[0] += 1
        while view:
            view = view[write(out, view) :]

    send(loaded)
    if loaded[0] == "ready":
        for request in _frames(REQUEST_FD):
            send(server.answer(request))
    return None


_EXIT_CODE = SystemExit.__dict__["code"].__get__  # the exception's own code, not a subclass's


def _clean_exit(err):
    """Whether ``err`` is an exit with status 0 (``exit()``, ``quit()``, ``sys.exit(0)``,
    ``raise SystemExit``). A functional answer that exits so while it loads ends its load there, as
    an imported module raising SystemExit would in its importer: the functions it defined before
    the exit are the ones tested. Any other status while loading, or any exit inside a call the
    tests make, fails."""
    if not issubclass(type(err), SystemExit):
        return False
    return _status_of(_EXIT_CODE(err)) == 0


def _exit_status(stop):
    """The exit status of a ``SystemExit``, as the interpreter computes it (:func:`_status_of`)."""
    return _status_of(stop.code)


def _status_of(code):
    """An exit code as the interpreter reads it: None is 0, an int (a bool too: ``sys.exit(False)``
    is 0) is its own value, read from the int itself whatever its class overrides; anything else
    (a message) is 1."""
    if code is None:
        return 0
    return int.__int__(code) if issubclass(type(code), int) else 1


def _interpreter_exit(status):
    """What the interpreter does after the main module ends (``Py_FinalizeEx``): join the
    non-daemon threads (``threading._shutdown``), run the atexit handlers, flush stdout and the
    interpreter's own ``sys.__stdout__`` (a failed flush exits with 120). An exception in a thread or an atexit handler is reported and ignored,
    leaving the status as it was. Runs in a stdin/stdout case's child only, which cannot reach the
    report channel; the run's CPU and wall-clock limits bound it (a thread that never ends is a
    timeout)."""
    threading = sys.modules.get("threading")
    if threading is not None:
        try:  # noqa: SIM105 (contextlib is one more import at every start-up)
            threading._shutdown()
        except BaseException:
            pass
    try:
        import atexit

        atexit._run_exitfuncs()
    except BaseException:
        pass
    streams = [sys.stdout]  # flushed at exit; the original stream, if the program swapped it,
    if sys.__stdout__ is not sys.stdout:  # is flushed as the interpreter frees it
        streams.append(sys.__stdout__)
    try:
        for stream in streams:
            stream.flush()
    except BaseException:
        return status or 120
    return status


def _writable_roots(job):
    """The folders a program can write in: inside the sandbox its private ``/tmp`` and
    ``/dev/shm`` and the working folder (its ``HOME`` and ``TMPDIR``); without one, only the
    working folder."""
    roots = [os.getcwd()]
    if job.get("isolated"):
        roots += [r for r in ("/tmp", "/dev/shm") if os.path.isdir(r)]
    return roots


def _snapshot(roots):
    """The entries each root holds before any case runs (the sandbox's own: mount points of the
    interpreter's folders, the working folder)."""
    out = {}
    for root in roots:
        try:
            out[root] = set(os.listdir(root))
        except OSError:
            out[root] = set()
    return out


def _remove(path):
    import shutil

    def writable(func, p, _exc):  # a folder the program made unreadable: its own, so chmod it
        try:
            os.chmod(os.path.dirname(p) or ".", 0o700)
            os.chmod(p, 0o700)
            func(p)
        except OSError:
            pass

    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, onerror=writable)
        else:
            os.unlink(path)
    except OSError:
        pass


def _reset(job, before):
    """Each case starts as the first did (a judge runs each case afresh): the processes a case
    left behind are killed (inside the sandbox's own pid namespace: ``kill(-1)`` reaches only the
    run's processes) and whatever a case wrote in the writable folders is removed, so no state
    (a counter file, a daemon) carries from one case to the next."""
    if job.get("isolated"):
        try:  # noqa: SIM105 (the harness imports nothing it can do without, contextlib included)
            os.kill(-1, 9)  # SIGKILL to every process of this uid here but this one and init
        except OSError:
            pass
    for root, kept in before.items():
        try:
            names = os.listdir(root)
        except OSError:
            continue
        for name in names:
            if name not in kept:
                _remove(os.path.join(root, name))


def _run_stdio(job, arm):
    code = compile(job["code"], "<solution>", "exec")
    main_module = sys.modules["__main__"]  # fresh (see main): the program's globals are its dict
    cap = int(job["output_bytes"])
    outputs = []
    before = _snapshot(_writable_roots(job))
    for i, given in enumerate(job["inputs"]):
        if i:
            _reset(job, before)
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
            # the streams of a fresh interpreter: sys.__stdin__/__stdout__/__stderr__ are the
            # same objects as sys.stdin/stdout/stderr, over fds 0, 1 and 2
            sys.stdin = open(0, encoding="utf-8", errors="replace", closefd=False)  # noqa: SIM115
            sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
            sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
            sys.__stdin__, sys.__stdout__, sys.__stderr__ = sys.stdin, sys.stdout, sys.stderr
            status = 0
            try:
                arm()
                exec(code, main_module.__dict__)
            except SystemExit as stop:  # exit(), quit(), sys.exit(): the status it asks for
                status = _exit_status(stop)
            except BaseException:
                status = 1
            os._exit(_interpreter_exit(status) & 0xFF)
        _, wait_status = os.waitpid(pid, 0)
        with open(out_path, "rb") as f:
            out = f.read(cap + 1)
        cap -= len(out)
        if cap < 0:
            return {"outputs": outputs, "error": "output_limit"}
        status = os.waitstatus_to_exitcode(wait_status)
        outputs.append([out.decode("utf-8", "replace"), status])
        if status != 0:  # a failed case: the verdict is 0, the other cases would hold the slot
            break
    return {"outputs": outputs, "error": ""}


# ---- frames without frames (unittest runs) ---------------------------------------------------
# Libraries read the stack for warnings' stack levels and tracebacks (pyparsing, which matplotlib
# imports, calls traceback.extract_stack at import). The two functions below are the only code
# whose frames may read frames once the hooks are armed (the hook checks the code object of the
# frame that asks). They hand out file names, line numbers and function names, never a frame or a
# code object, call nothing a program could have passed in (attribute reads of frames, code objects
# and tracebacks are C), and use no builtin: they and the stand-ins built on them are installed as
# copies with empty globals (:func:`_isolated`), since a harness function would lead the program
# to the harness's globals.


def _stack_entries(getframe, skip):
    """(file name, line number, function name) of each frame of the calling stack, most recent
    first, less the ``skip`` innermost (this one included)."""
    entries = []
    f = getframe(0)
    while f is not None:
        if skip > 0:
            skip -= 1
        else:
            code = f.f_code
            entries.append((code.co_filename, f.f_lineno, code.co_name))
        f = f.f_back
    return entries


def _tb_entries(tb):
    """(file name, function name, tb_lineno, (line, end line, column, end column)) of each frame
    of a traceback (a real one: the caller checks), outermost first."""
    entries = []
    while tb is not None:
        code = tb.tb_frame.f_code
        position, lasti = (None, None, None, None), tb.tb_lasti
        if lasti >= 0:
            skip = lasti // 2
            for position in code.co_positions():  # noqa: B007 (kept after the break)
                if skip == 0:
                    break
                skip -= 1
        entries.append((code.co_filename, code.co_name, tb.tb_lineno, position))
        tb = tb.tb_next
    return entries


def _cut(entries, limit, *, _index):
    if limit is None:
        return entries
    limit = _index(limit)
    return entries[:limit] if limit >= 0 else entries[limit:]


def _summary(entries, *, _from_list):
    entries.reverse()
    return _from_list([(filename, lineno, name, None) for filename, lineno, name in entries])


def _extract_stack(f=None, limit=None, *, _orig, _entries, _getframe, _cut, _summary):
    if f is not None:
        return _orig(f, limit)
    return _summary(_cut(_entries(_getframe, 2), limit))


def _format_stack(f=None, limit=None, *, _orig, _entries, _getframe, _cut, _summary, _format):
    if f is not None:
        return _orig(f, limit)
    return _format(_summary(_cut(_entries(_getframe, 2), limit)))


def _print_stack(f=None, limit=None, file=None, *, _orig, _entries, _getframe, _cut, _summary,
                 _print):  # fmt: skip
    if f is not None:
        return _orig(f, limit, file)
    return _print(_summary(_cut(_entries(_getframe, 2), limit)), file)


def _walk_stack(f, *, _orig, _entries, _getframe, _frame):
    if f is not None:
        return _orig(f)
    entries = _entries(_getframe, 2)
    return ((_frame(filename, name), lineno) for filename, lineno, name in entries)


def _walk_tb(tb, *, _orig, _entries, _tb_type, _type, _frame):
    if _type(tb) is not _tb_type:
        return _orig(tb)
    return ((_frame(filename, name), lineno) for filename, name, lineno, _ in _entries(tb))


def _walk_tb_positions(tb, *, _orig, _entries, _tb_type, _type, _frame):
    if _type(tb) is not _tb_type:
        return _orig(tb)
    return (
        (_frame(filename, name), (lineno, *position[1:]) if position[0] is None else position)
        for filename, name, lineno, position in _entries(tb)
    )


def _fake_frame(filename, name, *, _ns):
    """What the traceback module reads of a frame: a code's file and function names, globals
    (for linecache) and locals, here empty."""
    return _ns(f_code=_ns(co_filename=filename, co_name=name), f_globals={}, f_locals={})


def _isolated(fn, **kwdefaults):
    """A copy of ``fn`` with empty globals and builtins (so reaching it leads nowhere), the same
    code object, and ``kwdefaults`` for its keyword-only arguments."""
    copy = types.FunctionType(fn.__code__, {"__builtins__": {}}, fn.__name__, fn.__defaults__)
    copy.__kwdefaults__ = kwdefaults
    return copy


def _frameless(traceback, getframe):
    """Put the frame-free stand-ins in ``traceback`` and ``sys``; return the ids of the code
    objects whose frames may read frames (:func:`_install_hooks`'s ``trusted``)."""
    import operator

    stack, tb = _isolated(_stack_entries), _isolated(_tb_entries)
    frame = _isolated(_fake_frame, _ns=types.SimpleNamespace)
    cut = _isolated(_cut, _index=operator.index)
    summary = _isolated(_summary, _from_list=traceback.StackSummary.from_list)
    common = {"_entries": stack, "_getframe": getframe, "_cut": cut, "_summary": summary}
    walkers = {"_tb_type": types.TracebackType, "_type": type, "_frame": frame, "_entries": tb}
    traceback.extract_stack = _isolated(_extract_stack, _orig=traceback.extract_stack, **common)
    traceback.format_stack = _isolated(_format_stack, _orig=traceback.format_stack,
                                       _format=traceback.format_list, **common)  # fmt: skip
    traceback.print_stack = _isolated(_print_stack, _orig=traceback.print_stack,
                                      _print=traceback.print_list, **common)  # fmt: skip
    traceback.walk_stack = _isolated(_walk_stack, _orig=traceback.walk_stack, _entries=stack,
                                     _getframe=getframe, _frame=frame)  # fmt: skip
    traceback.walk_tb = _isolated(_walk_tb, _orig=traceback.walk_tb, **walkers)
    traceback._walk_tb_with_full_positions = _isolated(
        _walk_tb_positions, _orig=traceback._walk_tb_with_full_positions, **walkers
    )
    # assertRaises clears the frames of the traceback it caught: nothing to clear here
    traceback.clear_frames = _isolated(_no_op)
    # what CPython without frames gives: logging, inspect.currentframe, typing and enum carry on
    sys._getframe = _isolated(_no_frame)
    return frozenset({id(_stack_entries.__code__), id(_tb_entries.__code__)})


def _no_op(tb):
    return None


def _no_frame(*args, **kwargs):
    return None


# ---- unittest (BigCodeBench) ------------------------------------------------------------------

# what a program may not set on a function, class or module the tests' run depends on: a swapped
# code object or default keeps the function's identity, which the checks below compare
GUARDED = frozenset({"__code__", "__defaults__", "__kwdefaults__", "__class__", "__bases__"})
TAMPER_NAMES_KEPT = 8  # changed names a report lists (for the logs; any one means "tampered")
# BigCodeBench's own harness runs the program and the tests in one module named __test__, with
# these names already bound (a program that forgets `import os` passes there)
BCB_MODULE = "__test__"


MODULE = type(sys)


def _code_like(v, _callable=callable, _type=type, _module=MODULE):
    """Whether a change of this value changes behaviour (function, class, module, descriptor), as
    opposed to data such as a lazy cache (``tempfile.tempdir``) or a setting."""
    return _callable(v) or _type(v) in (_module, classmethod, staticmethod, property)


def _watch(label, mapping, keys, no_new=frozenset(), own=False, cls=None, any_new=False):
    """The values under some keys of one mapping (a module's, a class's, or a scope's), kept alive
    (so that no other object can take one's id), and the names that must not be added to it (a
    name added to a class may shadow an inherited method; one added to a scope, a builtin; a
    submodule that a package gains on import is no such name; with ``any_new``, any name).
    Returns ``(mapping, keys, ids, changed, since)``: ``changed()`` names what differs.
    With ``own``, a key rebound to another of the mapping's own values is no change: a library
    switching between its implementations (pyparsing's packrat cache swaps
    ``ParserElement._parse``). ``since((values, size))`` compares with another moment instead (a
    call of the program's): what was rebound, and what new name was added that is one of
    ``no_new`` or, on a class (``cls``), shadows an inherited method (``DataFrame.equals``,
    which ``NDFrame`` defines). A tuple of closures, no class: nothing of it is found through
    ``object.__subclasses__()``, and what the two functions call and read was bound here, before
    any program loaded."""
    keys = tuple(keys)
    get = mapping.get
    values = tuple(map(get, keys))
    ids = tuple(map(id, values))
    size, before = len(mapping), frozenset(mapping)
    owned = frozenset(map(id, mapping.values())) if own else frozenset()
    kept = (values, tuple(mapping.values()) if own else ())  # their ids must stay theirs
    dict_of = type.__dict__["__dict__"].__get__
    bases = tuple(type.__dict__["__mro__"].__get__(cls)[1:]) if cls is not None else ()
    _id, _map, _tuple, _len, _set, _zip, _type, _str = id, map, tuple, len, set, zip, type, str
    _any, _module, _code_like_ = any, MODULE, _code_like

    def named(found):
        return [label + "." + (k if _type(k) is _str else "<a name that is not a str>")
                for k in found]  # fmt: skip

    def added(k, v):
        return any_new or (k in no_new and _type(v) is not _module)

    def changed(_kept=kept):
        found = []
        if _tuple(_map(_id, _map(get, keys))) != ids:
            found += [k for k, i in _zip(keys, ids)
                      if _id(get(k)) != i and _id(get(k)) not in owned]  # fmt: skip
        if (no_new or any_new) and _len(mapping) != size:
            found += [k for k in _set(mapping) - before if added(k, get(k))]
        return named(found)

    def since(state):
        then, then_size = state  # the values under keys then, and the mapping's size
        found = [k for k, v in _zip(keys, then) if get(k) is not v and _id(get(k)) not in owned]
        if _len(mapping) != then_size:
            for k in _set(mapping) - before:
                v = get(k)
                if added(k, v) or (_code_like_(v) and _any(k in dict_of(b) for b in bases)):
                    found.append(k)
        return named(found)

    return mapping, keys, ids, changed, since


_IMMUTABLE_TYPE = 1 << 8  # Py_TPFLAGS_IMMUTABLETYPE: built-in and static types, set in C
_flags = type.__dict__["__flags__"].__get__
_type_module = type.__dict__["__module__"].__get__
_type_qualname = type.__dict__["__qualname__"].__get__


def _package(cls):
    """The top-level package of a class's ``__module__`` ('' for none). Read only of classes that
    existed before the program loaded: a library's own."""
    name = _type_module(cls)
    return name.split(".")[0] if type(name) is str else ""


def _watches(unittest, cases, tests_scope, instances, census=None, harness=None):
    """(core, broad, protected ids). Core, checked after every test: unittest's modules (their
    functions, classes and modules) and classes (every name), the tests' classes (their methods;
    no new name that shadows an inherited one), the tests' scope (its functions, classes and
    modules; no new builtin name), the builtins module, ``sys.modules``, and the TestCase methods bound on each test. Broad, checked after the program
    loads and at the end: the functions, classes and modules of every other module loaded (no new
    builtin name either) and of the classes they hold (``pd.testing.assert_frame_equal``,
    ``pd.DataFrame.equals``). Data is left out of modules: that is where libraries keep lazy
    caches (``tempfile.tempdir``, ``unittest.mock.file_spec``)."""
    modules = {name: m for name, m in dict(sys.modules).items() if isinstance(m, MODULE)}
    core_names = {n for n in modules if n == "unittest" or n.startswith("unittest.")}
    core, broad, seen, protected = [], [], set(), set()
    builtin_names = frozenset(vars(builtins))

    def code_keys(d):
        return [k for k, v in list(d.items()) if _code_like(v)]

    for name in sorted(core_names):
        d = vars(modules[name])
        core.append(_watch(name, d, code_keys(d), builtin_names))
        for v in list(d.values()):
            if isinstance(v, type) and id(v) not in seen and v.__module__.startswith("unittest"):
                seen.add(id(v))
                core.append(_watch(v.__qualname__, vars(v), vars(v), frozenset(dir(v)), cls=v))
    for case in cases:
        for cls in case.__mro__:
            if id(cls) in seen or cls is object or cls.__module__.startswith("unittest"):
                continue
            seen.add(id(cls))
            core.append(_watch(cls.__qualname__, vars(cls), code_keys(vars(cls)),
                               frozenset(dir(cls)), cls=cls))  # fmt: skip
    keys = [k for k, v in tests_scope.items() if _code_like(v) or k == "__builtins__"]
    core.append(_watch("<tests>", tests_scope, keys, builtin_names))
    core.append(_watch("builtins", vars(builtins), vars(builtins)))
    core.append(_watch("sys.modules", sys.modules, list(sys.modules)))
    for inst in instances:
        core.append(_watch(inst.id(), vars(inst), code_keys(vars(inst))))
    for name, module in modules.items():
        if name in core_names or name in ("sys", "__main__", "builtins", BCB_MODULE):
            continue
        d = vars(module)
        broad.append(_watch(name, d, code_keys(d), builtin_names))
        for v in list(d.values()):
            if isinstance(v, type) and id(v) not in seen:
                seen.add(id(v))
                broad.append(_watch(f"{name}.{v.__qualname__}", vars(v), code_keys(vars(v)),
                                    own=True, cls=v))  # fmt: skip
    if harness is not None:  # the harness's module, and its classes: nothing may change there
        name = harness.get("__name__")
        core.append(_watch("<harness>", harness, list(harness), any_new=True))
        for v in list(harness.values()):
            if isinstance(v, type) and v.__module__ == name:
                seen.add(id(v))
                core.append(_watch(f"<harness>.{v.__qualname__}", vars(v), list(vars(v)),
                                   any_new=True))  # fmt: skip
        protected.update(id(v) for v in harness.values() if _code_like(v))
    # every other class alive that a program may change (not a built-in or other immutable
    # type): a nested class (``weakref.finalize._Info``), one a module made and keeps under no
    # name, found through ``object.__subclasses__()``
    for v in list((census or {}).values()):
        if id(v) in seen or _flags(v) & _IMMUTABLE_TYPE:
            continue
        module = _type_module(v)  # (unittest's own, a mock's class of its own, the tests': above)
        if type(module) is str and module.startswith(("unittest", BCB_MODULE)):
            continue
        seen.add(id(v))
        label = f"{module}.{_type_qualname(v)}"
        broad.append(_watch(label, vars(v), code_keys(vars(v)), own=True, cls=v))
    for w in core + broad:
        protected.update(w[2])
    protected.update(id(m) for m in modules.values())
    protected.update(seen)
    return core, broad, protected


def _plan(unittest, cases, guard):
    """Every test of every class, made before any model code runs: (class, its tests), each test
    (id, skipped by the test code, expects failure, instance, setUp, method, tearDown). The
    TestCase methods are bound on each instance, so that what the tests call (``self.assertEqual``)
    is what unittest had before the program loaded, whatever happens to unittest's classes; the
    ``assert*``/``fail*`` ones through ``guard``, which looks at their arguments first."""
    loader = unittest.TestLoader()
    api = [k for k, v in vars(unittest.TestCase).items()
           if type(v) is type(_code_like) and not k.startswith("__")]  # fmt: skip
    plan = []
    for case in cases:
        class_skip = bool(getattr(case, "__unittest_skip__", False))
        tests = []
        for name in loader.getTestCaseNames(case):
            inst = case(name)
            method = getattr(inst, name)
            skip = class_skip or bool(getattr(method, "__unittest_skip__", False))
            xfail = bool(getattr(inst, "__unittest_expecting_failure__", False)) or bool(
                getattr(method, "__unittest_expecting_failure__", False)
            )
            for k in api:
                bound = getattr(inst, k)
                if k.startswith(("assert", "fail")):
                    bound = guard(bound, k not in NOT_COMPARING)
                vars(inst)[k] = bound
            tests.append((inst.id(), skip, xfail, inst, inst.setUp, method, inst.tearDown))
        plan.append((case, class_skip, tests))
    return plan


IMPORTS_AHEAD = 64  # at most this many of the program's imports are made before it runs


def _program_bindings(code):
    """What BigCodeBench's single namespace gives the tests of the program before they load,
    found by parsing it (no line of it runs): the modules and names its imports bind (the
    libraries imported here, before the hooks and the snapshot, as the tests' own imports are:
    some read frames at import, as sympy's multipledispatch does) and its constants whose value is
    a literal (``OUTPUT_DIR = './output'``, which tests use at load time). A name that does not
    import is left out, for the program's own import to fail on."""
    import ast
    import contextlib
    import importlib

    try:
        tree = ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    bound, imports = {}, 0

    def module(name):
        nonlocal imports
        imports += 1
        if imports > IMPORTS_AHEAD:
            raise ImportError(name)
        return importlib.import_module(name)

    for node in ast.walk(tree):
        with contextlib.suppress(BaseException):
            if isinstance(node, ast.Import):
                for a in node.names:
                    top = module(a.name)
                    if a.asname:
                        bound[a.asname] = sys.modules[a.name]
                    else:
                        bound[a.name.split(".")[0]] = sys.modules[a.name.split(".")[0]]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                top = module(node.module)
                for a in node.names:
                    if a.name == "*":
                        continue
                    if not hasattr(top, a.name):  # a submodule not imported yet
                        module(f"{node.module}.{a.name}")
                    bound[a.asname or a.name] = getattr(top, a.name)
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1:
            target, value = node.targets[0], node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            target, value = node.target, node.value
        else:
            continue
        if isinstance(target, ast.Name):
            with contextlib.suppress(ValueError, TypeError, SyntaxError, MemoryError,
                                     RecursionError):  # fmt: skip
                bound[target.id] = ast.literal_eval(value)
    return bound


def _import_ahead(tests):
    """Import the modules the test code imports (anywhere in it), before the program's imports
    are made, so that the classes alive then are the ones the test code had. A module that does
    not import is left for the test code's own import to fail on."""
    import ast
    import contextlib
    import importlib

    try:
        tree = ast.parse(tests)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append(node.module)
            names += [f"{node.module}.{a.name}" for a in node.names if a.name != "*"]
    for name in names[:IMPORTS_AHEAD]:
        with contextlib.suppress(BaseException):  # `from m import f`: m.f is no module
            importlib.import_module(name)


def _named_by_tests(tests, scope):
    """The objects the test code names (``ANY``, ``mock.ANY``, ``unittest.mock.sentinel.x``):
    names of its scope and attributes of modules reached from them, read before the program
    loads. They are the tests' own values, such as the expected ``call(ANY, 1)``."""
    import ast

    try:
        tree = ast.parse(tests)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return ()
    named = []
    for node in ast.walk(tree):
        chain = []
        while isinstance(node, ast.Attribute):
            chain.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name) or node.id not in scope:
            continue
        v = scope[node.id]
        named.append(v)
        for attr in reversed(chain):
            if type(v) is not MODULE:
                break
            v = vars(v).get(attr)
            named.append(v)
    return tuple(named)


def _libraries_named(tests, code, scope):
    """The top-level packages of what the test code names from the program's imports: in
    BigCodeBench's one namespace the tests use the program's ``np``, ``pd``, ``datetime`` without
    importing them, so those libraries are the tests' too. A name counts when the tests read it and
    bind it nowhere, the program binds it only by import statements, and its value in the tests'
    scope (after the test code ran) is a module or a class, read here before the program loads;
    the package is the module's name, or the class's ``__module__``, up to the first dot."""
    import ast

    try:
        test_tree, program_tree = ast.parse(tests), ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()

    def bound(tree, imports):
        names = set()
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                if imports:
                    names.update((a.asname or a.name).split(".")[0] for a in node.names)
            elif isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
                names.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                names.add(node.name)
            elif isinstance(node, ast.arg):
                names.add(node.arg)
            elif isinstance(node, (ast.Global, ast.Nonlocal)):
                names.update(node.names)
            elif isinstance(node, ast.alias) and node.name == "*":
                names.add("*")
        return names

    read = {n.id for n in ast.walk(test_tree) if isinstance(n, ast.Name)}
    names = read - bound(test_tree, True) - bound(program_tree, False)
    packages = set()
    for k in names:
        v = scope.get(k)
        if type(v) is MODULE:
            name = vars(v).get("__name__")
        elif isinstance(v, type):
            name = _type_module(v)
        else:
            continue
        if type(name) is str and name:
            packages.add(name.split(".")[0])
    return frozenset(packages)


def _imported_by(tests):
    """The names the test code's top-level imports bind (``from datetime import datetime``)."""
    import ast

    try:
        body = ast.parse(tests).body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    return frozenset(
        (a.asname or a.name).split(".")[0]
        for s in body
        if isinstance(s, (ast.Import, ast.ImportFrom))
        for a in s.names
    )


def _helpers_use(tests):
    """The names the test code's helpers use: every function in it that is not a method of a
    ``TestCase`` class itself (a module-level function, a method of another class, a function or
    lambda made inside a test). Helpers run inside the program's calls (a mock's ``side_effect``)
    and may change the data they use (canned responses popped, calls recorded)."""
    import ast

    try:
        tree = ast.parse(tests)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return frozenset()
    functions = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
    methods = set()
    for cls in ast.walk(tree):
        if isinstance(cls, ast.ClassDef) and any(
            (isinstance(b, ast.Attribute) and b.attr == "TestCase")
            or (isinstance(b, ast.Name) and b.id == "TestCase")
            for b in cls.bases
        ):
            methods.update(id(f) for f in cls.body if isinstance(f, functions))
    used = set()
    for f in ast.walk(tree):
        if isinstance(f, functions) and id(f) not in methods:
            used.update(n.id for n in ast.walk(f) if isinstance(n, ast.Name))
    return frozenset(used)


def _tests_codes(cases):
    """The code objects of the tests' methods (the wrapped ones under ``@patch`` too): their
    constants are the expected values. Functions the tests define inside them, which tests hand to
    the program to inspect (``inspect.getfullargspec``), are not among them."""
    codes, function = set(), type(_tests_codes)
    for case in cases:
        for cls in case.__mro__:
            if cls is object or cls.__module__.startswith("unittest"):
                continue
            for v in list(vars(cls).values()):
                v = getattr(v, "__func__", v)
                for _ in range(16):
                    if type(v) is function:
                        codes.add(v.__code__)
                    v = getattr(v, "__wrapped__", None)
                    if v is None:
                        break
    return codes


# ---- values that lie to the tests' comparisons (unittest runs) --------------------------------
# A test compares what the program returns with code of the value's class: `assertEqual(x, y)` and
# `x == y` call x's __eq__, `assertIn(a, x)` its __contains__. A value is taken only when it is
# made of classes that existed before the program loaded (every class alive then, by identity, kept
# alive so that no id is reused: file and module names are the program's to forge) and of classes
# made since that redefine none of what a comparison, truth, membership or numeric test calls
# (``LIES``) and, where they derive from a class that existed, none of its methods (a DataFrame
# subclass whose ``equals`` says True), and when no pandas object has one of its class's methods
# shadowed in its own ``__dict__``. A mock's magic methods that nobody configured pass. Lists, tuples, sets, dicts, numpy object
# arrays and pandas frames, series and indexes are walked (a list holding a liar).

LIES = frozenset({
    "__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__hash__", "__bool__", "__len__",
    "__contains__", "__iter__", "__next__", "__reversed__", "__getitem__", "__sub__", "__rsub__",
    "__abs__", "__round__", "__float__", "__int__", "__index__", "__complex__", "__array__",
    "__array_ufunc__", "__array_function__", "__array_priority__", "__array_interface__",
    "__array_struct__", "__getattribute__", "__getattr__", "__class__", "__instancecheck__",
    "__subclasscheck__", "__mro__",
})  # fmt: skip
# what a subclass of a class that existed may redefine: how it is made, shown and copied
HARMLESS = frozenset({
    "__init__", "__new__", "__repr__", "__str__", "__format__", "__doc__", "__module__",
    "__qualname__", "__dict__", "__weakref__", "__slots__", "__annotations__", "__init_subclass__",
    "__class_getitem__", "__set_name__", "__getnewargs__", "__getnewargs_ex__", "__reduce__",
    "__reduce_ex__", "__getstate__", "__setstate__", "__copy__", "__deepcopy__", "__del__",
    "__orig_bases__", "__parameters__", "__match_args__", "__abstractmethods__", "_abc_impl",
    "_new_member_", "_generate_next_value_", "_value_repr_", "_missing_",  # an Enum's
})  # fmt: skip
LIAR_VISITS = 1_000_000  # values one check walks at most; a value beyond is not taken
DATA = (str, bytes, int, float, bool, type(None), tuple, list, dict, set, frozenset)


def _census():
    """Every class alive now, by id (``type.__subclasses__`` from ``object``); the dict keeps
    them alive."""
    seen, stack, subclasses = {id(object): object}, [object], type.__dict__["__subclasses__"]
    while stack:
        for sub in subclasses(stack.pop()):
            if id(sub) not in seen:
                seen[id(sub)] = sub
                stack.append(sub)
    return seen


def _nested_codes(module):
    """Ids of the code objects of a module's functions and of the functions defined in them
    (``unittest.mock``'s default magic methods are made by ``_get_eq`` and the like)."""
    codes, stack = set(), []
    for v in list(vars(module).values()):
        if isinstance(v, type):
            stack += [getattr(x, "__code__", None) for x in list(vars(v).values())]
        else:
            stack.append(getattr(v, "__code__", None))
    while stack:
        code = stack.pop()
        if type(code) is type(_nested_codes.__code__) and id(code) not in codes:
            codes.add(id(code))
            stack += [c for c in code.co_consts if type(c) is type(code)]
    return codes


PROBES = (0, 1, "", None, ())  # an honest value equals at most one of these
# the assert methods that compare none of their arguments (truth, identity, class, what a block
# raises, warns or logs): a value handed to them is not asked to compare as the tests' classes do
NOT_COMPARING = frozenset({
    "assertTrue", "assertFalse", "assert_", "failUnless", "failIf", "assertIs", "assertIsNot",
    "assertIsNone", "assertIsNotNone", "assertIsInstance", "assertNotIsInstance", "assertRaises",
    "assertRaisesRegex", "assertRaisesRegexp", "failUnlessRaises", "assertWarns",
    "assertWarnsRegex", "assertLogs", "assertNoLogs", "fail",
})  # fmt: skip
# what a test's comparison of a value calls on its class: ``==``, ``!=``, the orderings, ``in``, and
# what ``assertAlmostEqual`` computes (``round(abs(a - b), 7) == 0``)
COMPARED = ("__eq__", "__ne__", "__lt__", "__le__", "__gt__", "__ge__", "__contains__",
            "__sub__", "__rsub__", "__abs__", "__round__")  # fmt: skip
TRIED_ITEMS = 10_000  # a container of a library the tests did not have is read up to this many
TRIED_PER_CLASS = 16  # values of one such class tried in one check; the rest of them are taken
COMPARANDS = 64  # an assertion's other arguments and their items tried against such a value


def _liar_finder(existing, tests_had):
    """``find(value, exempt)``: why ``value`` may lie to a comparison (``Class.__eq__``, ...), or
    ''. The classes of ``existing`` (alive before the program loaded) are read as they are; the
    others must redefine nothing a comparison calls (:data:`LIES`), so that the comparison a value
    gets is its library's. That code is then tried on a fresh object (:func:`_probe`): a value equal
    to it, not unequal to it or holding it is a library's always-equal object (``mock.ANY``, a
    subclass of its class); a value of a class the test code did not have (``tests_had``: the
    classes alive after the test code's own imports, before the program's, those the test code
    made and those of the libraries it names through the program's imports) must also equal at
    most one of :data:`PROBES`, and a value whose comparison (:data:`COMPARED`) is code of a
    class the tests did not have must be ``genuine``: compare as its built-in value, or as its
    nearest base the tests had, on the values next to it and the assertion's other arguments.
    ``exempt``: ids of the objects the test code names itself (its ``ANY`` in ``call(ANY, 1)``),
    which are not tried. Class and instance dictionaries are read with the built-in getters,
    containers walked with the built-in types' own iterators; the only code run is the
    comparison and conversion methods of library classes."""
    _type, _id, _str, _callable = type, id, str, callable
    _mro = type.__dict__["__mro__"].__get__
    _own = type.__dict__["__dict__"].__get__
    _name = type.__dict__["__name__"].__get__
    _get = object.__getattribute__
    _items = dict.items
    import math
    import operator

    lies, harmless, top, classmethod_ = LIES, HARMLESS, object, classmethod
    data = frozenset(id(c) for c in DATA)  # by id: `in` on classes could call a metaclass's __eq__
    scalars = frozenset(id(c) for c in DATA if c not in (tuple, list, dict, set, frozenset))
    seqs = {id(c): c.__iter__ for c in (list, tuple, set, frozenset)}
    dict_id = id(dict)
    np, pd = sys.modules.get("numpy"), sys.modules.get("pandas")
    ndarray = id(np.ndarray) if np is not None else None
    frame, series, index = (id(pd.DataFrame), id(pd.Series), id(pd.Index)) if pd else (0, 0, 0)
    extension = id(pd.api.extensions.ExtensionArray) if pd else 0
    # methods shadowed on the object are looked for on pandas objects, whose methods (``equals``,
    # ``all``, ``isin``) tests call to compare; libraries set methods on their own objects
    # (matplotlib's ``Axes.format_coord``), and a method that must return an expected value
    # other than a yes is one the program would have to compute anyway
    shadow_checked = frozenset((frame, series, index)) - {0}
    # a mock's magic methods are MagicProxy objects until configured (a MagicMock of the tests'
    # compares by identity); one configured (``m.__eq__.return_value = True``) is a lie like any
    mock_module = sys.modules.get("unittest.mock")
    mock = id(mock_module.NonCallableMock) if mock_module is not None else 0
    proxy = mock_module.MagicProxy if mock_module is not None else None
    default = mock_module.DEFAULT if mock_module is not None else None
    library_returns = dict(getattr(mock_module, "_return_values", {}))
    object_hash = object.__hash__
    function = type(_census)
    code_of = function.__dict__["__code__"].__get__
    closure_of = function.__dict__["__closure__"].__get__
    mock_codes = frozenset(_nested_codes(mock_module)) if mock_module is not None else frozenset()
    plain = frozenset(id(c) for c in (*DATA, type(None)))  # comparisons known: not tried
    np_bool = np.bool_ if np is not None else None
    probes = PROBES
    elementwise = frozenset((ndarray, frame, series, index, extension)) - {0, None}
    compared, no_value = COMPARED, object()
    list_, _dict = list, dict
    whole = slice(None)
    own_content = (  # a built-in base's content, read by its own code (an exact copy)
        (str, lambda v: "".join((v,))),
        (bytes, lambda v: b"".join((v,))),
        (list, lambda v: list.__getitem__(v, whole)),
        (tuple, lambda v: tuple.__getitem__(v, whole)),
        (dict, dict.copy),
        (set, set.copy),
        (frozenset, frozenset.copy),
    )
    _index, _float, _complex, _iter, _len = operator.index, float, complex, iter, len
    _round, _abs, _bool, _zip = round, abs, bool, zip
    orders = (operator.lt, operator.le, operator.gt, operator.ge)
    order_names = ("__lt__", "__le__", "__gt__", "__ge__")
    nextafter, inf = math.nextafter, float("inf")
    suppliers = {}  # id(class) -> what untrusted() found for it (mocks aside)

    def _true(compare):  # a comparison that says yes (False when it raises or answers otherwise)
        try:
            r = compare()
        except BaseException:
            return False
        return r is True or (_type(r) is np_bool and r.item() is True)

    def _false(compare):
        try:
            r = compare()
        except BaseException:
            return False
        return r is False or (_type(r) is np_bool and r.item() is False)

    def label(cls, *parts):  # str.join reads a str subclass's characters, calls none of its code
        return "".join((_name(cls), *parts))

    def made_by_call(given, entry):
        """A return value the mock library made when ``entry`` was first called (``m - 1`` is a
        new mock), itself an honest mock."""
        if not any(_id(c) == mock for c in _mro(_type(given))):
            return False
        try:
            d = _get(given, "__dict__")
        except BaseException:
            return False
        return _type(d) is dict and d.get("_mock_new_parent") is entry and not find(given)

    def plain_magic(name, entry, value):
        """A magic method of the mock ``value`` as the mock library makes it: a MagicProxy until
        first used, then a child mock whose return value is the library's default for ``name``
        (``__bool__`` True, ``__len__`` 0, ``__hash__`` the object's), with no side effect but the
        library's own for ``value`` (``__eq__`` compares identities), wrapping nothing."""
        if _type(entry) is proxy:
            return True
        if not any(_id(c) == mock for c in _mro(_type(entry))):
            return False
        try:
            d = _get(entry, "__dict__")
        except BaseException:
            return False
        if _type(d) is not dict:
            return False
        given = d.get("_mock_return_value")
        if not (
            given is default
            or (name in library_returns and given is library_returns[name])
            or (name == "__hash__" and _type(given) is int and given == object_hash(value))
            or made_by_call(given, entry)
        ):
            return False
        if d.get("_mock_wraps") is not None or d.get("_mock_delegate") is not None:
            return False
        effect = d.get("_mock_side_effect")
        if effect is None:
            return True
        if _type(effect) is not function or _id(code_of(effect)) not in mock_codes:
            return False
        cells = closure_of(effect) or ()
        return all(cell.cell_contents is value for cell in cells)

    def bad_class(cls, value=None):
        if _id(cls) in existing:
            return ""
        mro = _mro(cls)
        library = [c for c in mro if _id(c) in existing and c is not top]
        a_mock = any(_id(c) == mock for c in library)
        for c in mro:
            if _id(c) in existing:
                continue
            own = _own(c)
            for k, v in _items(dict(own)):
                if _type(k) is not _str:
                    return label(c, ": a name that is not a str")
                if k in lies:
                    if a_mock and plain_magic(k, v, value):  # a mock's magic method, not told what
                        continue  # to say
                    return label(c, ".", k)
                if library and k not in harmless and _id(_type(v)) not in data:
                    for b in library:
                        mine = _own(b)
                        if k in mine:
                            if mine[k] is not v:
                                return label(c, ".", k)
                            break
        return ""

    def shadowed(v, cls):
        mro = _mro(cls)
        if not any(_id(c) in shadow_checked for c in mro):
            return ""
        try:
            d = _get(v, "__dict__")
        except BaseException:
            return ""
        if _type(d) is not dict:
            return label(cls, ": an instance __dict__ of its own type")
        for k, mine in _items(d):
            if _type(k) is not _str:
                return label(cls, ": a name that is not a str")
            for c in mro:
                own = _own(c)
                if k in own:
                    at = own[k]
                    if (_callable(at) or _type(at) is classmethod_) and mine is not at:
                        return label(cls, ".", k, " shadowed on the object")
                    break
        return ""

    def probe(v, cls, mro):
        # not tried: a mock (its comparisons were judged above, and a call of its __eq__ would be
        # recorded on it); numpy arrays and pandas objects (their comparisons answer element by
        # element, never a plain yes, and their object elements are walked)
        if _id(cls) in plain or mock in mro or any(c in elementwise for c in mro):
            return ""
        fresh = top()
        if _true(lambda: v == fresh) or _false(lambda: v != fresh):
            return label(cls, ": equal to anything")
        if any("__contains__" in _own(c) for c in _mro(cls)) and _true(lambda: fresh in v):
            return label(cls, ": holding anything")
        if _id(cls) not in tests_had and sum(_true(lambda p=p: v == p) for p in probes) > 1:
            return label(cls, ": equal to values that differ")
        return ""

    def _yes(compare):
        """A comparison whose answer is true: True, numpy's True, a library's truth (sympy's);
        not an array or frame of answers (numpy broadcasts ``x == [x]``, as with V28)."""
        try:
            r = compare()
            if r is True or r is False:
                return r
            t = _type(r)
            if t is np_bool:
                return r.item() is True
            if _id(t) not in existing or t is top or any(_id(c) in elementwise for c in _mro(t)):
                return False
            return _bool(r) is True
        except BaseException:
            return False

    def untrusted(v, cls):
        """(name, class) of the first comparison of ``cls`` whose code a class the test code did
        not have supplies (its own or inherited), or None. A mock's unconfigured magic methods are
        the mock library's identity comparisons: read past."""
        known = suppliers.get(_id(cls), no_value)
        if known is not no_value:
            return known
        mro = _mro(cls)
        a_mock = any(_id(c) == mock for c in mro)
        found = None
        for k in compared:
            for c in mro:
                own = _own(c)
                if k in own:
                    if a_mock and _id(c) not in existing and plain_magic(k, own[k], v):
                        continue
                    if _id(c) not in tests_had:
                        found = (k, c)
                    break
            if found:
                break
        if not a_mock:
            suppliers[_id(cls)] = found
        return found

    def value_of(v, cls):
        """The built-in value ``v`` is, by its class's own conversion: a built-in base's own
        content (a str or bytes subclass's characters, a list, tuple, dict or set subclass's
        items, read by the built-in type's code), its integer (``__index__``), its float, its
        complex number, the dict a mapping's keys and items make, or the items it iterates (up to
        :data:`TRIED_ITEMS`); ``no_value`` when it has none."""
        mro = _mro(cls)
        ids = [_id(c) for c in mro]

        def has(k):
            return any(k in _own(c) for c in mro)

        for base, content in own_content:
            if _id(base) in ids:
                try:
                    c = content(v)
                except BaseException:
                    return no_value
                return c if _type(c) is base else no_value
        for k, convert, kind in (("__index__", _index, int), ("__float__", _float, float),
                                 ("__complex__", _complex, complex)):  # fmt: skip
            if has(k):
                try:
                    c = convert(v)
                except BaseException:
                    continue
                if _type(c) is kind:
                    return c
        if has("keys") and has("__getitem__"):  # a mapping: the dict its keys and items make
            try:
                c = _dict(v)
            except BaseException:
                return no_value
            return c if _type(c) is dict and _len(c) <= TRIED_ITEMS else no_value
        if has("__iter__"):
            items = []
            try:
                for x in _iter(v):
                    items.append(x)
                    if _len(items) > TRIED_ITEMS:
                        return no_value
            except BaseException:
                return no_value
            return items
        return no_value

    def near(c):
        """Built-in values next to ``c`` (most of them differ from it) and :data:`PROBES`."""
        out = [*probes, c]
        t = _type(c)
        try:
            if t is int or t is float or t is complex:
                out += [c + 1, c - 1, c * 2 + 1, -c - 1, _str(c)]
                if t is not complex:
                    f = _float(c)
                    out += [f + 0.5, f - 0.5, nextafter(f, inf), nextafter(f, -inf),
                            f * (1 + 1e-9) + 1e-12, f * (1 - 1e-9) - 1e-12]  # fmt: skip
                else:
                    out += [c + 1j, c * (1 + 1e-9) + 1e-12]
            elif t is _str or t is bytes:
                x = "x" if t is _str else b"x"
                space = " " if t is _str else b" "
                out += [c + x, x + c, c[:-1], c.upper(), c.lower(), c.swapcase(), c.strip(),
                        c + space, space + c]  # fmt: skip
                out.append(int(c) if c.strip().isdigit() else 0)
            elif t is list_ or t is tuple:
                out += [list_(c) if t is tuple else tuple(c), c + t((top(),)), c[:-1], t()]
            elif t is dict or t is set or t is frozenset:
                out += [list_(c), t(), {**c, top(): None} if t is dict else c | {top()}]
        except (OverflowError, ValueError, TypeError, MemoryError):
            pass
        return out

    def same(c, p):  # the built-in value's own comparison
        return _yes(lambda: c == p)

    def had_base(cls):
        """The nearest class of ``cls``'s that the test code had and whose own dictionary holds
        an ``__eq__``, ``object`` aside (``datetime`` for pandas' ``Timestamp``), or None."""
        for c in _mro(cls):
            if c is top:
                return None
            if _id(c) in tests_had and "__eq__" in _own(c):
                return c
        return None

    def by(base, name, v, p):
        """What ``base``'s own ``name`` answers for ``v`` and ``p`` (None when it has none, raises
        or declines)."""
        for c in _mro(base):
            own = _own(c)
            if name in own:
                try:
                    r = own[name](v, p)
                except BaseException:
                    return None
                return None if r is NotImplemented else r
        return None

    def genuine(v, cls, name, supplier, comparands):
        """'' when ``v`` compares as its meaning in classes the test code had: the built-in value
        it converts to (:func:`value_of`), or else its nearest base the tests had
        (:func:`had_base`). Tried on the values next to it (:func:`near`), :data:`PROBES`, a fresh
        object and ``comparands`` (what an assertion compares it with): ``v`` may not be equal
        to, ordered against, almost equal to or hold any of them where that meaning is not. A
        value with no such meaning may not be compared at all."""
        c = value_of(v, cls)
        if c is no_value:
            base = had_base(cls)
            if base is None:
                return label(supplier, ".", name, ": a class the tests did not have")
            for p in (*probes, top(), *comparands):
                if (_yes(lambda p=p: v == p) or _false(lambda p=p: v != p)) and not (
                    p is v or by(base, "__eq__", v, p) is True
                ):
                    return label(supplier, ".", name, ": equal where its ", _name(base),
                                 " is not")  # fmt: skip
                for op, k in _zip(orders, order_names):
                    if _yes(lambda op=op, p=p: op(v, p)) and by(base, k, v, p) is not True:
                        return label(supplier, ".", name, ": ordered where its ", _name(base),
                                     " is not")  # fmt: skip
                if _yes(lambda p=p: p in v) and by(base, "__contains__", v, p) is not True:
                    return label(supplier, ".", name, ": holding what its ", _name(base),
                                 " does not")  # fmt: skip
            return ""
        around = [*near(c), *comparands]
        for p in around:
            if (_yes(lambda p=p: v == p) or _false(lambda p=p: v != p)) and not same(c, p):
                return label(supplier, ".", name, ": equal where its value is not")
        if _type(c) is int or _type(c) is float:
            for p in around:
                if (_type(p) is not int and _type(p) is not float) or p == c:
                    continue
                for op in orders:
                    if _yes(lambda op=op, p=p: op(v, p)) and not op(c, p):
                        return label(supplier, ".", name, ": ordered where its value is not")
                if not _abs(p - c) < 1e-6 and _yes(lambda p=p: _round(_abs(v - p), 7) == 0):
                    return label(supplier, ".", name, ": almost equal where its value is not")
        for p in (*around, top()):
            if _yes(lambda p=p: p in v) and not _yes(lambda p=p: p in c):
                return label(supplier, ".", name, ": holding what its value does not")
        return ""

    def trusted(v, cls, mro, tried, comparands):
        """'' when every comparison ``v`` gets is code of a class the test code had, or when ``v``
        is :func:`genuine`. Numpy arrays and pandas objects answer element by element (their
        object elements are walked); at most :data:`TRIED_PER_CLASS` values of a class are
        tried."""
        if _id(cls) in plain or any(c in elementwise for c in mro):
            return ""
        found = untrusted(v, cls)
        if found is None:
            return ""
        n = tried.get(_id(cls), 0)
        if n >= TRIED_PER_CLASS:
            return ""
        why = genuine(v, cls, *found, comparands)
        tried[_id(cls)] = n + 1
        return why

    def against(others):
        """The values an assertion compares with: its other arguments and their items (one level
        down), those of library classes and built-in data only, up to :data:`COMPARANDS`."""
        out = []
        for o in others:
            t = _id(_type(o))
            items = o if t in seqs else o.values() if t == dict_id else ()
            for x in (o, *items):
                if _id(_type(x)) in existing and _len(out) < COMPARANDS:
                    out.append(x)
        return out

    def find(value, exempt=frozenset(), others=None):
        """``others``: the other arguments of the assertion ``value`` was handed to (``()`` for a
        value a program function returned); None for an assertion that compares nothing
        (``assertTrue(x)``, ``assertIsInstance``: :data:`NOT_COMPARING`)."""
        budget = LIAR_VISITS
        tried = {}
        comparands = None if others is None else against(others)
        stack = [value]
        while stack:
            v = stack.pop()
            budget -= 1
            if budget < 0:
                return "a value too large to check"
            cls = _type(v)
            if _id(cls) in scalars:
                continue
            why = bad_class(cls, v) or shadowed(v, cls)
            if why:
                return why
            mro = [_id(c) for c in _mro(cls)]
            if _id(v) not in exempt:
                why = probe(v, cls, mro)
                if not why and comparands is not None:
                    why = trusted(v, cls, mro, tried, comparands)
                if why:
                    return why
            if dict_id in mro:
                for k, x in _items(v):
                    stack.append(k)
                    stack.append(x)
                continue
            walk = next((seqs[c] for c in mro if c in seqs), None)
            if walk is not None:
                stack.extend(walk(v))
            elif ndarray in mro:
                if v.dtype.kind == "O":
                    if v.size > budget:
                        return "a value too large to check"
                    stack.extend(v.ravel().tolist())
            elif frame in mro:
                stack.append(v.columns)
                stack.append(v.index)
                for i in range(v.shape[1]):
                    column = v.iloc[:, i]
                    if column.dtype.kind == "O":
                        stack.append(column.to_numpy())
            elif series in mro:
                stack.append(v.index)
                if v.dtype.kind == "O":
                    stack.append(v.to_numpy())
            elif (index in mro or extension in mro) and v.dtype.kind == "O":
                stack.append(v.to_numpy())
        return ""

    return find


def _install_liar_hook(find, exempt):
    """An audit hook that runs ``find`` on the value of every ``pac.value`` event (an argument of
    an assert method: the objects of ``exempt``, which the test code names itself, are not tried)
    and ``pac.returned`` event (a value a function of the program's returned: nothing exempt), and
    keeps why it may lie; and that runs the tamper check, once it is given (``set_check``), on
    every ``pac.check`` event (when a call of a program function ends) against the state it took at
    the ``pac.enter`` event of the same call (the events carry a fresh object of the guard's call,
    out of the program's reach: events the program raises pair with none of them) and keeps what
    it found. Returns ``(collect(), set_check(enter, since))``: ``collect()`` gives the reasons
    since its last call, then the tampered names found, if any. The hook, ``find``, the check and
    what they found are out of the program's reach (a hook cannot be listed or removed; frames and
    the gc are denied). The program can raise the events too: that can only fail its own test."""
    found, tampered, checks, calls = [], [], [], {}
    _type, _tuple, _len, _id, none = type, tuple, len, id, frozenset()
    _list, _dict, _set = list, dict, (set, frozenset)

    def handed(args, kwargs):  # a call's arguments and their items: the call may change them
        out = []
        for v in (*args, *(kwargs.values() if _type(kwargs) is _dict else ())):
            out.append(v)
            t = _type(v)
            if t in (_list, _tuple) or t in _set:
                out.extend(v)
            elif t is _dict:
                out.extend(v.values())
        return out

    def hook(event, args):
        if event == "pac.enter":  # (marker, args, kwargs): the marker is local to the guard's call
            if checks and not tampered and _type(args) is _tuple and _len(args) == 3:
                try:
                    calls[_id(args[0])] = (args[0], checks[0](handed(args[1], args[2])))
                except BaseException:
                    tampered.append("a check that could not run")
            return
        if event == "pac.check":
            if _type(args) is _tuple and _len(args) == 1:
                marker, state = calls.pop(_id(args[0]), (None, None))
                if marker is args[0] and not tampered:
                    try:
                        tampered.extend(checks[1](state))
                    except BaseException:
                        tampered.append("a check that could not run")
            return
        if event not in ("pac.value", "pac.held", "pac.returned") or _type(args) is not _tuple:
            return
        if _len(args) != (2 if event == "pac.value" else 1):
            return
        try:
            if event == "pac.value":  # (value, the assertion's arguments)
                why = find(args[0], exempt, args[1] if _type(args[1]) is _tuple else ())
            elif event == "pac.held":
                why = find(args[0], exempt, None)
            else:
                why = find(args[0], none, ())
        except BaseException:
            why = "a value that could not be checked"
        if why:
            found.append(why)

    sys.addaudithook(hook)

    def collect():
        reasons, names = found[:], tampered[:]
        del found[:]
        return reasons, names

    def set_check(enter, since):
        checks[:] = enter, since

    return collect, set_check


def _guards():
    """(``guard(assert_method)``, ``guard_function(program_function)``, ``changed()``): wrappers
    that hand to the liar hook every argument of an assert method the tests call (``pac.value``)
    and every value a function of the program's returns to the tests (``pac.returned``:
    ``assertTrue(result == x)`` compares in the test's own code, which no wrapper sees; ``result``
    came from the program), and around every call of a function of the program's raise
    ``pac.enter`` and ``pac.check`` (also when it raises) with a fresh object of that call, for
    the tamper check. They change nothing the tests see. A program can reach a wrapper (the tests' scope holds the
    guarded functions, and a test method's ``__globals__`` is the tests' scope) and rewrite its
    closure cells or code, which raise no audit event: ``changed()`` names the wrappers whose code
    or cells are not what they were made with, for the runner's check after every test."""
    _items, _audit, _object, made = dict.items, sys.audit, object, []
    function = type(_guards)
    code_of = function.__dict__["__code__"].__get__

    def keep(checked):
        # a copy with globals of its own, empty: the wrapper reads nothing but its cells, and
        # a program that reaches it (the tests' scope holds it) reaches no module from it
        checked = function(code_of(checked), {"__builtins__": {}}, checked.__name__, None,
                           checked.__closure__)  # fmt: skip
        cells = checked.__closure__ or ()
        made.append((checked, code_of(checked), [(c, c.cell_contents) for c in cells]))
        return checked

    def guard(method, compares=True):
        def checked(*args, **kwargs):
            given = (*args, *[v for _, v in _items(kwargs)])
            for v in given:
                if compares:
                    _audit("pac.value", v, given)
                else:
                    _audit("pac.held", v)
            return method(*args, **kwargs)

        return keep(checked)

    def guard_function(fn):
        def checked(*args, **kwargs):
            marker = _object()  # the program cannot reach it (frames are denied): an event it
            _audit("pac.enter", marker, args, kwargs)  # raises itself pairs with no guard call
            try:
                value = fn(*args, **kwargs)
            finally:
                _audit("pac.check", marker)
            _audit("pac.returned", value)
            return value

        for k in ("__module__", "__name__", "__qualname__", "__doc__"):
            try:  # noqa: SIM105 (contextlib is one more import at every start-up)
                setattr(checked, k, getattr(fn, k))
            except BaseException:
                pass
        checked.__wrapped__ = fn  # inspect.signature(task_func) is the program's
        return keep(checked)

    def changed():
        for checked, code, cells in made:
            if code_of(checked) is not code or any(c.cell_contents is not x for c, x in cells):
                return ["a guard of the tests' values"]
        return []

    return guard, guard_function, changed


def _run_unittest(job, arm, harness=None):
    """BigCodeBench's tests against the program, in this process (they share objects, mocks and
    files with it), run by the harness's own loop rather than unittest's runner (whose state, such
    as ``unittest.case._Outcome``, lives in module globals a program can swap). See the module
    docstring. ``harness``: the harness's module globals, which the program may reach (through
    the ``__globals__`` of a method of a class of it): watched, never read (``main`` runs this
    from a private copy, :func:`_private`)."""
    import traceback
    import unittest

    # BigCodeBench runs program and tests in one module, __test__, the program first: the tests see
    # its imports and constants (bound here without running it), and sys, os and environ
    module = MODULE(BCB_MODULE)
    given = {"__builtins__": builtins, "__file__": f"{BCB_MODULE}.py", "sys": sys, "os": os,
             "environ": os.environ}  # fmt: skip
    module.__dict__.update(given)
    sys.modules[BCB_MODULE] = module  # what patch("__test__.name") patches: the program's names
    _import_ahead(job["tests"])
    tests_had = _census()  # the classes the test code's imports give it, before the program's
    prebound = _program_bindings(job["code"])
    imported = _census()
    tests_scope = {"__name__": BCB_MODULE, **given, **prebound}
    try:
        exec(compile(job["tests"], TESTS_FILE, "exec"), tests_scope)
    except ImportError as err:  # no model code has run yet: the environment lacks a library
        return {"missing": str(getattr(err, "name", "") or err)[:80]}
    except BaseException as err:
        return {"test_error": type(err).__name__}
    cases = [
        v
        for v in list(tests_scope.values())
        if isinstance(v, type)
        and issubclass(v, unittest.TestCase)
        and not v.__module__.startswith("unittest")
    ]
    # every class alive now, before any model code: what values of the program are made of is
    # judged against it; those the test code had are the ones its imports gave it and the ones
    # it made itself (see _liar_finder)
    census = _census()
    libraries = _libraries_named(job["tests"], job["code"], tests_scope)
    had = (
        frozenset(tests_had)
        | (frozenset(census) - frozenset(imported))
        | frozenset(k for k, c in census.items() if _package(c) in libraries)
    )
    named = _named_by_tests(job["tests"], tests_scope)  # kept alive: their ids stay theirs
    collect_lies, set_check = _install_liar_hook(
        _liar_finder(frozenset(census), had), frozenset(map(id, named))
    )
    guard, guard_function, guards_changed = _guards()
    try:
        plan = _plan(unittest, cases, guard)
    except BaseException as err:
        return {"test_error": type(err).__name__}
    ids = [t[0] for _, _, tests in plan for t in tests]
    marked_skip = sorted({t[0] for _, _, tests in plan for t in tests if t[1]})
    if not ids:
        return {"no_tests": True}
    set_up_module = tests_scope.get("setUpModule")  # the tests' own, never the program's
    tear_down_module = tests_scope.get("tearDownModule")
    module_cleanups = unittest.case._module_cleanups
    denied_codes = frozenset(map(id, _tests_codes(cases)))

    # frames stay out of the program's reach (the hooks deny them); the standard library's own
    # uses get stand-ins without frames (see _frameless)
    trusted = (sys._getframe, _frameless(traceback, sys._getframe))

    instances = [t[3] for _, _, tests in plan for t in tests]
    classes = _tests_classes(cases)
    made = [v for v in tests_scope.values() if isinstance(v, type) and v.__module__ == BCB_MODULE]
    stand_ins = _seal(classes + made)
    core, broad, protected = _watches(unittest, cases, tests_scope, instances, _census(), harness)
    arm_hooks = _install_hooks(protected, CODE_ATTRS, None, GUARDED, trusted, denied_codes,
                               frozenset(map(id, stand_ins)))  # fmt: skip
    keep = frozenset(dir(unittest.TestCase)) | {"_classSetupFailed", "_class_cleanups"}
    park, unpark, parked = _parking(plan, classes, keep)  # what unittest sets on a subclass stays
    for case in cases:
        park(case)
    shared = {k: v for k, v in tests_scope.items() if not k.startswith("__")}
    untouched = frozenset(k for k, v in prebound.items() if shared.get(k) is v)
    # not compared: the program's own constants the tests see (``untouched``), and the data the
    # tests' helpers use (they may run inside the program's calls)
    digest, data_changed = _tests_data(
        tests_scope, classes, parked, untouched | _helpers_use(job["tests"])
    )
    enter, since = _tamper_check(core + broad, guards_changed)[1:]

    def enter_call(exempt):
        return enter(), exempt, digest(exempt)

    def since_call(state):
        names = since(state[0])
        return names or data_changed(state[2], digest(state[1]))

    set_check(enter_call, since_call)
    try:
        code = compile(job["code"], "<solution>", "exec")
    except (SyntaxError, ValueError, RecursionError, MemoryError) as err:
        return {"ids": ids, "marked_skip": marked_skip, "passed": [], "failed": [],
                "error": type(err).__name__, "tampered": []}  # fmt: skip
    checks = (
        _tamper_check(core + broad, guards_changed)[0],
        _tamper_check(core, guards_changed)[0],
        digest,
        lambda before: data_changed(before, digest()),
    )
    imported = _imported_by(job["tests"])  # the program sees these of the tests' names only
    crossing = {k: v for k, v in shared.items() if type(v) is MODULE or k in imported}
    outcome = _runner(plan, checks, tests_scope, module, code, crossing, untouched, set_up_module,
                      tear_down_module, module_cleanups, arm_hooks, arm, guard_function,
                      collect_lies, (park, unpark))  # fmt: skip
    outcome.update(ids=ids, marked_skip=marked_skip)
    del named, stand_ins
    return outcome


def _stand_in(*args, _pac_function, **kwargs):
    return _pac_function(*args, **kwargs)


def _seal(classes):
    """Put, in place of every function the test code's classes hold (methods, classmethods,
    staticmethods, properties' accessors, what a decorator made), a stand-in with empty globals that holds it as a
    keyword default, which the hooks deny reading: a program that finds a class of the tests
    (``TestCase.__subclasses__()``) finds no way from its methods to the tests' scope
    (``__globals__``, unaudited in CPython). Nested classes are sealed too. Returns the
    stand-ins (kept alive: their ids are denied)."""
    function = type(_stand_in)
    made, seen = [], set()

    def stand(f):
        copy = function(_stand_in.__code__, {"__builtins__": {}}, f.__name__)
        copy.__kwdefaults__ = {"_pac_function": f}
        copy.__qualname__, copy.__doc__ = f.__qualname__, f.__doc__
        made.append(copy)
        return copy

    stack = list(classes)
    while stack:
        cls = stack.pop()
        if id(cls) in seen:
            continue
        seen.add(id(cls))
        for k, v in list(vars(cls).items()):
            t = type(v)
            if t is function:
                setattr(cls, k, stand(v))
            elif t in (classmethod, staticmethod) and type(v.__func__) is function:
                setattr(cls, k, t(stand(v.__func__)))
            elif t is property:
                parts = [stand(f) if type(f) is function else f for f in (v.fget, v.fset, v.fdel)]
                setattr(cls, k, property(*parts, v.__doc__))
            elif isinstance(v, type) and v.__module__ == BCB_MODULE:
                stack.append(v)
    return made


def _parking(plan, classes, keep):
    """(``park(case)``, ``unpark(case)``, ``parked``): the data attributes of the test code's
    classes (class body, ``setUpClass``) moved from the class onto each test instance of
    ``case`` (``self.expected`` finds the same object), and back onto the class for
    ``setUpClass``/``tearDownClass`` (``cls.expected``). While parked, a program that finds a
    test class (``TestCase.__subclasses__()``) finds no data on it. ``parked``: class -> its
    parked data, which the tamper check reads."""
    from operator import setitem

    parked = {cls: {} for cls in classes}  # (``keep``: unittest's own names stay on the class)
    on_instances = {}  # id(instance) -> {name: value put there}
    instances = {id(case): [t[3] for t in tests] for case, _, tests in plan}
    _dict = type.__dict__["__dict__"].__get__

    def park(case):
        own = [c for c in reversed(case.__mro__) if c in parked]
        for cls in own:
            for k, v in list(_dict(cls).items()):
                if not k.startswith("__") and not _code_like(v) and k not in keep:
                    parked[cls][k] = v
                    delattr(cls, k)
        for inst in instances.get(id(case), ()):
            put = on_instances.setdefault(id(inst), {})
            for cls in own:
                for k, v in parked[cls].items():
                    setitem(vars(inst), k, v)
                    put[k] = v

    def unpark(case):
        for inst in instances.get(id(case), ()):
            d = vars(inst)
            for k, v in on_instances.pop(id(inst), {}).items():
                if d.get(k) is v:
                    del d[k]
        for cls in [c for c in case.__mro__ if c in parked]:
            for k, v in parked[cls].items():
                setattr(cls, k, v)
            parked[cls].clear()

    return park, unpark, parked


def _tests_classes(cases):
    """The classes the test code made (``__module__`` is the tests' module) that its TestCases
    are or derive from: unittest's and a library's base classes left out."""
    out = []
    for case in cases:
        for cls in case.__mro__:
            if cls.__module__ == BCB_MODULE and cls not in out:
                out.append(cls)
    return out


def _tests_data(tests_scope, classes, parked, skip=frozenset()):
    """``digest(exempt)``: every value of the tests' data (their scope's names and their
    classes' attributes, ``setUpClass`` ones included, that are no function, class, module or
    descriptor), each as (object, its pickle), but the objects of ``exempt`` (what a call of the
    program was handed: its arguments and their items); ``changed(before, after)``: the names whose object was
    rebound or whose pickle differs (an unpicklable value is compared by identity only).
    ``skip``: names of the tests' scope left out: the program's own constants (bound there before
    the program loads, as BigCodeBench's one namespace has them) and the data the tests' helpers
    change as they run (:func:`_helpers_use`)."""
    import pickle

    _dumps, _list, _code, _str, _type, _any = pickle.dumps, list, _code_like, str, type, any
    mappings = [("<tests>", tests_scope)]
    mappings += [(c.__qualname__, type.__dict__["__dict__"].__get__(c)) for c in classes]
    mappings += [(c.__qualname__, parked[c]) for c in classes]

    def digest(exempt=frozenset()):
        out = {}
        for label, mapping in mappings:
            for k, v in _list(mapping.items()):
                if (_type(k) is not _str or k.startswith("__") or _code(v)
                        or (mapping is tests_scope and k in skip)
                        or _any(v is x for x in exempt)):  # fmt: skip
                    continue
                try:
                    out[f"{label}.{k}"] = (v, _dumps(v, 4))
                except BaseException:
                    out[f"{label}.{k}"] = (v, None)
        return out

    def changed(before, after):
        found = []
        for name, (v, pickled) in before.items():
            now = after.get(name)
            if now is None or now[0] is not v or now[1] != pickled:
                found.append(name)
        return found[:TAMPER_NAMES_KEPT]

    return digest, changed


def _tamper_check(watches, guards_changed):
    """(``tampered()``, ``enter()``, ``since(state)``): what differs, of ``watches`` and of the
    guards, from its state before the program loaded (``tampered``), or from the state ``enter()``
    took when a call of the program's began (``since``, when it returns: the tests' own patches,
    active through the call, are no change there). At most ``TAMPER_NAMES_KEPT`` names; none:
    nothing changed."""
    from operator import getitem, is_

    # one flat pass in C over every watched key: the values (compared by identity: ``id()``
    # raises an audit event, which every hook would see, per key) and the mappings' sizes
    _len, _kept, _map, _tuple, _all, _zip = len, TAMPER_NAMES_KEPT, map, tuple, all, zip
    mappings, keys, spans, at = [], [], [], 0
    for w in watches:
        mappings += [w[0]] * _len(w[1])
        keys += w[1]
        spans.append((at, at + _len(w[1])))
        at += _len(w[1])
    whole = [w[0] for w in watches]
    changes = [w[3] for w in watches]  # the functions themselves, taken now
    sinces = [w[4] for w in watches]

    def tampered():
        names = guards_changed()
        for changed in changes:
            names += changed()
            if _len(names) >= _kept:
                break
        return names[:_kept]

    def enter():
        try:
            return _tuple(_map(getitem, mappings, keys)), _tuple(_map(_len, whole))
        except BaseException:  # a watched name gone: tampered() names it after the test
            return None

    def since(state):
        names = guards_changed()
        now = enter()
        if state is None or now is None:
            return names
        if now[1] == state[1] and _all(_map(is_, now[0], state[0])):
            return names
        values, sizes = state
        for w_since, (a, b), size in _zip(sinces, spans, sizes):
            names += w_since((values[a:b], size))
            if _len(names) >= _kept:
                break
        return names[:_kept]

    return tampered, enter, since


def _runner(plan, checks, tests_scope, module, code, shared, untouched, set_up_module,
            tear_down_module, module_cleanups, arm_hooks, arm, guard_function, collect_lies,
            parking):  # fmt: skip
    """Load the program, then run every test; what it needs it holds in locals, out of the
    program's reach (frames and the gc are denied), taken before the program loads. A test passes
    when its setUp, method, tearDown and cleanups all return without raising. ``checks``: what
    the tests rely on compared with its state before the program loaded, all of it (after loading
    and at the end) and the core (after every test: a patch the tests' setUpClass started is
    active until tearDownClass). The liar hook compares all of it, when each call of a function of
    the program's ends, with its state when the call began: a patch the program makes in a call
    is seen before the tests use what it patched, however it is put back later."""
    _exec, _type, _str = exec, type, str
    tampered, tampered_core, data_before, data_since = checks
    park, unpark = parking
    _name, _builtins = type.__dict__["__name__"].__get__, frozenset(vars(builtins))
    _function = type(_runner)
    passed, failed = [], []

    def kind(err):  # "ValueError: message", for the logs
        try:
            message = _str(err)[:160]
        except BaseException:
            message = ""
        name = _str(_name(_type(err)))[:80]
        return f"{name}: {message}" if message else name

    def call(fn, *args, **kwargs):
        try:
            fn(*args, **kwargs)
        except BaseException as err:
            return kind(err)
        return ""

    def merge(names):  # one namespace, as BigCodeBench has it, seen from both sides
        for k, v in shared.items():  # what the test code imports, never its own objects
            if k not in untouched:
                names[k] = v
        for k in untouched:  # but what the tests had of the program is the program's own
            if k in names:
                tests_scope[k] = names[k]
        for k, v in list(names.items()):  # the program's names the tests lack, builtins excepted
            if k not in tests_scope and k not in _builtins:
                tests_scope[k] = guard_function(v) if _type(v) is _function else v

    arm_hooks()
    arm()
    before = data_before()
    error = call(_exec, code, module.__dict__) or call(merge, module.__dict__)
    changed = tampered() or data_since(before)
    if error or changed:
        return {"passed": passed, "failed": failed, "error": error, "tampered": changed}
    module_error = call(set_up_module) if set_up_module is not None else ""
    for case, class_skip, tests in plan:
        if class_skip:
            continue
        unpark(case)  # the class's data on the class for setUpClass, then on the tests
        class_error = module_error or call(case.setUpClass)
        park(case)
        for test_id, skip, xfail, inst, set_up, method, tear_down in tests:
            if skip:
                continue
            why = class_error or call(set_up)
            if not why:
                why = call(method)
                why = call(tear_down) or why
            while inst._cleanups:  # what unittest's doCleanups does, without its _Outcome
                function, args, kwargs = inst._cleanups.pop()
                why = call(function, *args, **kwargs) or why
            if xfail:
                why = "xfail"  # an expected failure or an unexpected success: neither is a pass
            lies, changed = collect_lies()
            if lies:  # a value that may lie reached an assert or came back from the program
                why = "lying value: " + lies[0]
            if why:
                failed.append([test_id, why])
            else:
                passed.append(test_id)
            changed = changed or tampered_core()  # the tests' setUpClass patches may be active
            if changed:
                return {"passed": passed, "failed": failed, "error": "", "tampered": changed}
        if not class_error:
            unpark(case)
            why = call(case.tearDownClass)
            park(case)
            cleanups = case._class_cleanups
            while cleanups:
                function, args, kwargs = cleanups.pop()
                why = call(function, *args, **kwargs) or why
            if why:
                failed.append([case.__qualname__, why])
    if set_up_module is not None and not module_error and tear_down_module is not None:
        why = call(tear_down_module)
        if why:
            failed.append(["tearDownModule", why])
    while module_cleanups:
        function, args, kwargs = module_cleanups.pop()
        why = call(function, *args, **kwargs)
        if why:
            failed.append(["module cleanup", why])
    return {
        "passed": passed,
        "failed": failed[:50],
        "error": "",
        "tampered": collect_lies()[1] or tampered(),
    }


def _private(scope):
    """A copy of the module globals ``scope`` whose functions are copies of its functions bound to
    the copy (their defaults too, where one is another of them). A unittest run's checks run from
    it: the program shares the interpreter and may reach ``scope`` (through the ``__globals__`` of
    any method of a class defined here, which ``object.__subclasses__()`` lists) and rebind a name
    there (``any``, ``zip``, a function), which then changes nothing the checks call or read. No
    function of the copy is handed to the program (what it can reach is made with empty globals:
    the wrappers of :func:`_guards`, :func:`_isolated`, :func:`_seal`)."""
    function, mine = type(_private), dict(scope)
    copies = {}
    for k, v in scope.items():
        if type(v) is function and v.__globals__ is scope:
            copy = function(v.__code__, mine, v.__name__, v.__defaults__, v.__closure__)
            copy.__qualname__, copy.__doc__ = v.__qualname__, v.__doc__
            copy.__kwdefaults__ = dict(v.__kwdefaults__) if v.__kwdefaults__ else None
            copies[id(v)] = copy
            mine[k] = copy

    def ours(value):
        return copies.get(id(value), value)

    for copy in copies.values():
        if copy.__defaults__:
            copy.__defaults__ = tuple(map(ours, copy.__defaults__))
        if copy.__kwdefaults__:
            copy.__kwdefaults__ = {k: ours(v) for k, v in copy.__kwdefaults__.items()}
    return mine


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
    key, write, dumps, exit_now = bytes.fromhex(job.pop("token")), os.write, to_json, os._exit
    mac = _mac_function()

    def seal(body, n=None):
        """``<MAC> <body>\n``: the report's MAC is of its body, the n-th answer's of ``n``, a
        newline and its body (an answer is never taken for a report or for another answer)."""
        signed = body if n is None else b"%d\n" % n + body
        return mac(signed, key=key, digest_size=32).hexdigest().encode() + b" " + body + b"\n"

    def report(data, _fd=RESULT_FD, _memoryview=memoryview):
        view = _memoryview(seal(dumps(data).encode()))
        while view:
            view = view[write(_fd, view) :]

    for path in job.get("site_dirs") or ():  # started with -S: site-packages without .pth files
        if path not in sys.path:
            sys.path.append(path)
    _drop_privileges(job)
    _not_dumpable()
    _environment(job)
    sys.modules["__main__"] = type(sys)("__main__")  # model code gets a fresh __main__
    if not hasattr(builtins, "exit"):  # started with -S: exit() and quit() as site makes them
        from _sitebuiltins import Quitter

        builtins.exit = Quitter("exit", "Ctrl-D (i.e. EOF)")
        builtins.quit = Quitter("quit", "Ctrl-D (i.e. EOF)")
    # unittest arms its own hooks once the tests are loaded
    ours = [id(f) for f in (_Server, plain, decode, snapshot, to_json, Denied, _proc_path_denied)]
    ours += [id(f) for f in vars(_Server).values()]
    arm = (lambda: None) if job["kind"] == "unittest" else _install_hooks(ours)
    try:
        if job["kind"] == "functional":
            data = _run_functional(job, arm, seal)
        elif job["kind"] == "unittest":  # the checks run from a copy of this module's globals
            data = _private(globals())["_run_unittest"](job, arm, globals())
        else:
            data = RUNNERS[job["kind"]](job, arm)
    except MemoryError:
        data = {"error": "MemoryError"}
    if data is not None:  # None: a functional run that answered over its channel
        report(data)
    exit_now(0)


if __name__ == "__main__":
    main()

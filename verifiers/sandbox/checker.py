"""The checker: the process that runs a functional ground truth's tests (Code-R1
``{"functional": ...}``) for the judge (``judge.py``), outside the sandbox and without model code
(``python -I -S``, this file compiled and sent on stdin; stdlib only).

The judge starts it for one verdict and relays for it: the checker writes requests on fd 1 and
reads the answers on fd 0, length-prefixed frames of marshal data, and the judge passes each call
on to the sandbox, where the program is loaded and answers calls (``harness.py``). So what the tests
hold (their cases, expected values, comparisons) stays in this process, and the sandbox sees only
the arguments of calls into model code.

Every name the tests use and the program defines is bound here to what the sandbox said it is:
plain data (exact built-in types) as such, anything else (a function, a class, an object the
program made) as a :class:`Proxy`, a handle. Calling a proxy, reading one of its attributes or
iterating it is a request; the answer is plain data, a new proxy, or an exception (a fresh
built-in one of the same class name); list/dict/set arguments that the call changed get their new
state written back in place. A proxy has no ``__eq__``, ``__bool__`` or ``__len__`` of the
program's: it equals only itself, whatever the program's class says.

The tests' asserts were rewritten by the judge (``judge.plan_functional``) into calls of
:func:`check` (and :func:`broken` when the condition raised), which keep the count the verdict
needs: a check counts when it held after a value from the sandbox had been received; a check that
failed, or whose condition raised, fails the run even if the tests catch its exception; an assert
that cannot fail (a tuple, a generator, a lambda, a non-empty literal, a value of a type with no
truth of its own) counts as no check. The report goes back as the last frame.
"""

import builtins
import marshal
import os
import sys

FRAME = 4  # bytes of a frame's length, big-endian


class Failed(BaseException):
    """A request the judge could not answer (the sandbox misbehaved, or an argument cannot be sent):
    not an ``Exception``, so the tests' own ``except Exception`` does not swallow it."""


class State:
    def __init__(self):
        self.values = 0  # answers received from the sandbox (calls, attributes, plain names)
        self.checks = 0  # asserts that held after a value from the sandbox
        self.failed = 0  # asserts that failed or whose condition raised
        self.trivial = 0  # asserts that cannot fail
        self.unsendable = ""  # the type of an argument that cannot be sent
        self.misbehaved = ""  # why the judge could not answer a request


STATE = State()
_IN = _OUT = -1
PROXIES = {}  # handle -> Proxy: one per object of the sandbox, so `is` works
MARK = HMARK = ""  # handle markers: in arguments (the sandbox's), in answers (the judge's)
RAISED = []  # the exceptions that stand for the program's


def _read_exact(n):
    chunks, left = [], n
    while left:
        data = os.read(_IN, left)
        if not data:
            raise Failed("the judge closed the channel")
        chunks.append(data)
        left -= len(data)
    return b"".join(chunks)


def _receive():
    size = int.from_bytes(_read_exact(FRAME), "big")
    return marshal.loads(_read_exact(size))


def _send(kind, body):
    data = kind + body
    data = len(data).to_bytes(FRAME, "big") + data
    while data:
        data = data[os.write(_OUT, data) :]


class Proxy:
    """An object of the sandbox (see the module docstring)."""

    __slots__ = ("_pac_handle",)

    def __init__(self, handle):
        object.__setattr__(self, "_pac_handle", handle)

    def __call__(self, *args, **kwargs):
        return _request("call", self._pac_handle, args, kwargs)

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):  # copy, pickle, typing probing
            raise AttributeError(name)
        return _request("attr", self._pac_handle, name, None)

    def __setattr__(self, name, value):
        raise TypeError("the judge does not set attributes of the program's objects")

    def __iter__(self):
        return iter(_request("iter", self._pac_handle, None, None))

    def __repr__(self):
        return f"<program object {self._pac_handle}>"


def _proxy(handle):
    p = PROXIES.get(handle)
    if p is None:
        p = PROXIES[handle] = Proxy(handle)
    return p


def _marked(value, depth=0):
    """``value`` with every proxy replaced by ``(MARK, handle)`` for the sandbox; anything that is
    neither plain data nor a proxy cannot be sent."""
    t = type(value)
    if depth > 100:
        raise Failed("an argument nested too deep")
    if t is Proxy:
        return (MARK, value._pac_handle)
    if t is list:
        return [_marked(v, depth + 1) for v in value]
    if t is tuple:
        return tuple(_marked(v, depth + 1) for v in value)
    if t is dict:
        return {_marked(k, depth + 1): _marked(v, depth + 1) for k, v in value.items()}
    if t is set or t is frozenset:
        return t(_marked(v, depth + 1) for v in value)
    if value is None or t in (bool, int, float, complex, str, bytes):
        return value
    STATE.unsendable = t.__name__
    raise Failed(f"an argument of type {t.__name__} cannot be sent to the sandbox")


def _unmarked(value):
    """An answer from the judge with its handle markers made proxies."""
    t = type(value)
    if t is tuple:
        if len(value) == 2 and value[0] == HMARK and type(value[1]) is int:
            return _proxy(value[1])
        return tuple(_unmarked(v) for v in value)
    if t is list:
        return [_unmarked(v) for v in value]
    if t is dict:
        return {_unmarked(k): _unmarked(v) for k, v in value.items()}
    if t is set or t is frozenset:
        return t(_unmarked(v) for v in value)
    return value


_MUTABLE = (list, dict, set)


def _assign(target, state):
    """Make ``target`` (list, dict or set) equal ``state`` (same type) in place, keeping the
    identity of nested containers where the shape allows."""
    if type(target) is list:
        if len(target) != len(state):
            target[:] = state
            return
        for i, new in enumerate(state):
            target[i] = _merged(target[i], new)
    elif type(target) is dict:
        for key in [key for key in target if key not in state]:
            del target[key]
        for key, new in state.items():
            target[key] = _merged(target[key], new) if key in target else new
    else:
        target.clear()
        target.update(state)


def _merged(old, new):
    if type(old) is type(new) and type(old) in _MUTABLE:
        _assign(old, new)
        return old
    return new


def fresh_exception(name):
    """A new built-in exception of the class named ``name`` (RuntimeError for a name that is not
    a built-in Exception class): never the program's own exception object. A StopIteration (or
    StopAsyncIteration) is a RuntimeError too, as PEP 479 makes one leaving a generator: raised
    inside the tests' ``map``, ``filter`` or generator it would end the iteration early, as if
    every remaining case held (``all(map(lambda c: f(c[0]) == c[1], cases))``)."""
    cls = getattr(builtins, str(name), None)
    if isinstance(cls, type) and issubclass(cls, (StopIteration, StopAsyncIteration)):
        return RuntimeError(f"{name} raised in the sandbox")
    if isinstance(cls, type) and issubclass(cls, Exception):
        try:
            return cls("raised in the sandbox")
        except Exception:
            pass
    return RuntimeError(f"{name} raised in the sandbox")


def _request(op, handle, args, kwargs):
    if op == "call":
        try:
            payload = (op, handle, args, kwargs, False)
            data = marshal.dumps(payload)
        except ValueError:  # a proxy among the arguments, or something that cannot be sent
            data = marshal.dumps((op, handle, _marked(args), _marked(kwargs), True))
    else:
        data = marshal.dumps((op, handle, args))
    _send(b"C", data)
    answer = _receive()
    if answer[0] == "fail":
        STATE.misbehaved = STATE.misbehaved or str(answer[1])
        raise Failed(answer[1])
    kind, value, states, handles = answer
    STATE.values += 1
    if handles:
        value, states = _unmarked(value), _unmarked(states)
    for where, new in states:  # the arguments' state after the call (in-place mutation)
        if type(where) is int and 0 <= where < len(args):
            target = args[where]
        elif type(where) is str and kwargs and where in kwargs:
            target = kwargs[where]
        else:
            target = None
        if type(target) not in _MUTABLE or type(new) is not type(target):
            STATE.misbehaved = STATE.misbehaved or "an argument's state does not fit it"
            raise Failed(STATE.misbehaved)
        _assign(target, new)
    if kind == "raise":
        err = fresh_exception(value)
        RAISED.append(err)
        raise err
    return value


# ---- the asserts, rewritten -------------------------------------------------------------------


def check(value, trivial=False):
    """An assert: ``trivial`` when its condition is a literal that cannot be false."""
    kind = type(value)
    if trivial or not (hasattr(kind, "__bool__") or hasattr(kind, "__len__")):
        STATE.trivial += 1
        return
    try:
        held = bool(value)
    except BaseException:
        STATE.failed += 1
        raise
    if not held:
        STATE.failed += 1
        raise AssertionError
    if STATE.values:
        STATE.checks += 1


def broken():
    """An assert whose condition raised."""
    STATE.failed += 1


# ---- main -------------------------------------------------------------------------------------


def _limits(cpu_seconds, memory_mb):
    import resource

    cpu = max(1, int(cpu_seconds) + 1)
    resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu))
    size = int(memory_mb) << 20
    resource.setrlimit(resource.RLIMIT_AS, (size, size))


def main():
    global _IN, _OUT, MARK, HMARK
    _IN, _OUT = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):  # what the tests print goes nowhere: fd 1 was the channel
        os.dup2(null, fd)
    job = _receive()
    MARK, HMARK = job["mark"], job["hmark"]
    _limits(job["cpu_seconds"], job["memory_mb"])
    for path in job["path"]:
        if path not in sys.path:
            sys.path.append(path)
    scope = {
        "__name__": "__main__",
        "__builtins__": builtins,
        "__pac_check__": check,
        "__pac_broken__": broken,
        "exit": sys.exit,
        "quit": sys.exit,
    }  # fmt: skip (site's, absent under -S)
    for name in job.get("modules") or ():  # the tests' modules are this process's own
        try:  # noqa: SIM105 (contextlib is one more import at every start)
            scope[name] = __import__(name)
        except ImportError:
            pass
    names = _unmarked(job["names"])
    for name, value in names.items():
        scope[name] = value
        if type(value) is not Proxy:
            STATE.values += 1  # a plain value the program defines is an answer of the sandbox
    outcome, error, model = "done", "", False
    try:
        exec(marshal.loads(job["code"]), scope)
    except SystemExit as err:
        if err.code not in (None, 0):
            outcome, error = "raised", "SystemExit"
    except BaseException as err:
        outcome, error = "raised", type(err).__name__
        model = any(err is e for e in RAISED)
    report = {"outcome": outcome, "error": error, "model_error": model, "values": STATE.values,
              "checks": STATE.checks, "failed": STATE.failed, "trivial": STATE.trivial,
              "unsendable": STATE.unsendable, "misbehaved": STATE.misbehaved}  # fmt: skip
    _send(b"D", marshal.dumps(report))
    os._exit(0)


if __name__ == "__main__":
    main()

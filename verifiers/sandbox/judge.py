"""The judge of the code sandbox (SPEC 9): it turns tests into what the sandbox may see, and what the
sandbox sends back into a verdict. It runs in the verifier's process and never loads model code
(model code is only parsed, with :mod:`ast`, to learn which names it defines).

Functional asserts (Code-R1 ``{"functional": ...}``) are run twice: once in the sandbox, to make
the calls into model code and record them, and once here, on the records. A *site* is an
expression rooted at a name the program defines: the callee of a call (``f`` in ``f(x)``,
``Solution().rotate`` in ``Solution().rotate(nums, k)``) or a value (``f`` in ``map(f, xs)``,
``Solution().addDigits`` in ``check(Solution().addDigits)``). In the *probe*, the test code the
sandbox runs, every site becomes ``__pac_site__(nonce, k, lambda: site)`` and every assert an
evaluation whose outcome is ignored (``__pac_try__``): of the calls into model code only, for a
top-level assert that calls model code directly (its expected side never reaches the sandbox), or
of the whole condition where model code may be called indirectly (an assert in a function body, a
comprehension or a lambda, or one that passes a site as a value or calls a name the tests bind,
such as ``check(candidate)``'s asserts). The sandbox's recorder (``harness._install_recorder``, an
audit hook out of the program's reach) records each site's value as plain data (exact built-in
types), or, for a callable, every call made of it: the arguments before the call, the value or
exception, and the state of every list, dict and set argument after it.

The *replay*, run here, is the original test code with every site replaced by ``__pac_site__(k)``:
a recorded value (a fresh copy), a recorded exception (a new built-in one), or a stand-in for a
callable whose calls return what the same call returned in the sandbox, matched by its arguments
as plain data, after writing the arguments' recorded state into this process's arguments in place
(``rotate(nums, 1); assert nums == [3, 1, 2]``). So every assert that decides the verdict runs here,
on plain data: objects whose ``__eq__`` lies, shadowed builtins and forged records cannot change
it. A call the sandbox did not record, an argument that came back as anything but plain data, or a
value that is not plain fails the tests. Not followed: objects of the program's classes (an
instance returned by a call into model code is not plain data, so LeetCode "design" tests such as
``obj = MinStack(); obj.push(1)`` fail), callables returned by a call.

What the sandbox's run of the tests can still see: test data held in variables (e.g. a list of
cases with their expected outputs) is in the namespace the program's functions share, as in any
Python test run; the expected sides of top-level asserts are not.
"""

from __future__ import annotations

import ast
import builtins
import json
import math
import secrets
from collections import deque

from pac_verl.verifiers.sandbox.harness import call_key, decode, fresh_exception
from pac_verl.verifiers.verdict import OK, Verdict, fail

__all__ = ["BadTests", "decode", "judge_functional", "judge_stdio", "judge_unittest",
           "split_functional"]  # fmt: skip


class BadTests(ValueError):
    """The ground truth's tests are unusable (no assert, no test, a syntax error)."""


# ---- functional: split and replay -----------------------------------------------------------


def _bound_names(tree: ast.AST, imports: bool = True) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            names.add(node.id)
        elif imports and isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
    return names


def _top_level_names(tree: ast.Module, imports: bool = True) -> set[str]:
    names: set[str] = set()
    for stmt in tree.body:
        names |= _bound_names(ast.Module(body=[stmt], type_ignores=[]), imports)
    return names


def _root_name(node: ast.AST) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _thunk(body: ast.expr) -> ast.Lambda:
    no_args = ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[])
    return ast.Lambda(args=no_args, body=body)


def _call(name: str, *args: ast.expr) -> ast.Call:
    return ast.Call(func=ast.Name(name, ast.Load()), args=list(args), keywords=[])


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda, ast.ListComp,
           ast.SetComp, ast.DictComp, ast.GeneratorExp)  # fmt: skip


class _Split(ast.NodeTransformer):
    """Number the sites of the tests in source order and replace them: by the probe's
    ``__pac_site__(nonce, k, thunk)`` (``nonce`` given) or the replay's ``__pac_site__(k)``. The
    two passes visit the same tree the same way, so a site has the same number in both."""

    def __init__(self, model_names: set[str], test_names: set[str], nonce: str | None) -> None:
        self.model, self.test_names, self.nonce = model_names, test_names, nonce
        self.k = 0
        self.asserts = 0
        self.depth = 0  # inside a function, class, lambda or comprehension
        self.calls: list[ast.Call] | None = None  # the current assert's outermost model calls
        self.indirect = False  # the current assert may reach model code other than by a call

    def _site(self, node: ast.expr) -> ast.expr:
        k, self.k = self.k, self.k + 1
        if self.nonce is None:
            made = _call("__pac_site__", ast.Constant(k))
        else:
            made = _call("__pac_site__", ast.Constant(self.nonce), ast.Constant(k), _thunk(node))
        return ast.copy_location(made, node)

    def _scoped(self, node):
        self.depth += 1
        self.indirect = True
        try:
            return self.generic_visit(node)
        finally:
            self.depth -= 1

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = _scoped
    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _scoped

    def visit_Call(self, node: ast.Call) -> ast.expr:
        root = _root_name(node.func)
        if root in self.model:
            node.func = self._site(node.func)
            calls, self.calls = self.calls, None  # calls nested in this one are evaluated with it
            node.args = [self.visit(a) for a in node.args]
            node.keywords = [self.visit(kw) for kw in node.keywords]
            self.calls = calls
            if self.calls is not None:
                self.calls.append(node)
            return node
        if root in self.test_names:
            self.indirect = True  # a function of the tests may call what it is given
        return self.generic_visit(node)

    def _value(self, node):
        if isinstance(node.ctx, ast.Load) and _root_name(node) in self.model:
            self.indirect = True
            return self._site(node)
        return self.generic_visit(node)

    visit_Name = visit_Attribute = _value

    def visit_Assert(self, node: ast.Assert):
        self.asserts += 1
        outer = (self.calls, self.indirect)
        self.calls, self.indirect = [], self.depth > 0
        node.test = self.visit(node.test)
        calls, indirect = self.calls, self.indirect
        self.calls, self.indirect = outer
        node.msg = None
        if self.nonce is None:
            return node
        checks = [node.test] if indirect else calls
        made = [ast.Expr(_call("__pac_try__", _thunk(c))) for c in checks]
        return [ast.copy_location(m, node) for m in made] or ast.copy_location(ast.Pass(), node)


def split_functional(tests: str, code: str) -> tuple[str, ast.Module, str]:
    """(probe source for the sandbox, replay tree for :func:`judge_functional`, the probe's
    nonce for the sandbox's recorder). Raises ``BadTests`` for tests without an assert,
    ``SyntaxError`` for code that does not parse."""
    try:
        test_tree = ast.parse(tests)
    except (SyntaxError, ValueError) as err:
        raise BadTests("the tests do not parse") from err
    # a name the tests use but do not define is the program's, unless it is a builtin: a program
    # that defines ``sorted`` does not change what the tests mean by it
    model_names = (
        _top_level_names(ast.parse(code)) - _top_level_names(test_tree) - set(dir(builtins))
    )
    test_names = _top_level_names(test_tree, imports=False)
    nonce = secrets.token_hex(16)
    probe = _Split(model_names, test_names, nonce)
    probe_tree = ast.fix_missing_locations(probe.visit(ast.parse(tests)))
    if probe.asserts == 0:
        raise BadTests("the tests hold no assert")
    replay_tree = ast.fix_missing_locations(_Split(model_names, test_names, None).visit(test_tree))
    return ast.unparse(probe_tree), replay_tree, nonce


class _Failed(BaseException):
    """A value or call the judge cannot take: not an ``Exception``, so a test's own ``except
    Exception`` cannot swallow it (and the judge fails the run even if a bare ``except`` does)."""


_MUTABLE = (list, dict, set)


def _assign(target, state) -> None:
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


class _Replay:
    """A callable of the program as the judge's test code holds it: a call returns what the same
    call (same arguments, as plain data) returned in the sandbox."""

    __slots__ = ("judge", "k")

    def __init__(self, k: str, judge: _Judge) -> None:
        self.k, self.judge = k, judge

    def __call__(self, *args, **kwargs):
        return self.judge.call(self.k, args, kwargs)


class _Judge:
    def __init__(self, report: dict) -> None:
        sites, calls = report.get("sites"), report.get("calls")
        self.ok = isinstance(sites, dict) and isinstance(calls, dict)
        self.sites = {k: deque(v) for k, v in (sites or {}).items() if isinstance(v, list)}
        # site -> call key (as JSON text) -> that call's records in order: one lookup per call
        self.calls: dict[str, dict[str, deque]] = {}
        for k, entries in (calls or {}).items():
            table = self.calls.setdefault(str(k), {})
            for entry in entries if isinstance(entries, list) else ():
                if isinstance(entry, list) and len(entry) == 3:
                    table.setdefault(json.dumps(entry[0]), deque()).append(entry)
        self.failed = False

    def fail(self, why: str):
        self.failed = True
        return _Failed(why)

    def value(self, entry):
        if not (isinstance(entry, list) and len(entry) == 2 and entry[0] == "value"):
            raise self.fail("not plain data")
        try:
            return decode(entry[1])
        except ValueError:
            raise self.fail("malformed value") from None

    def site(self, k: int):
        queue = self.sites.get(str(k))
        if not queue:
            raise self.fail("no value recorded")
        entry = queue.popleft()
        if isinstance(entry, list) and entry[:1] == ["raise"] and len(entry) == 2:
            raise fresh_exception(entry[1])
        if entry == ["fn"]:
            return _Replay(str(k), self)
        return self.value(entry)

    def _key_tag(self, v):
        if type(v) is _Replay:
            return ["fn", v.k]
        return ["?", type(v).__name__]

    def call(self, k: str, args: tuple, kwargs: dict):
        key = json.dumps(call_key(args, kwargs, self._key_tag))
        queue = self.calls.get(k, {}).get(key)
        if not queue:
            raise self.fail("a call the sandbox did not make")
        _, outcome, states = queue.popleft()
        self.restore(args, kwargs, states)
        if isinstance(outcome, list) and outcome[:1] == ["raise"] and len(outcome) == 2:
            raise fresh_exception(outcome[1])
        return self.value(outcome)

    def restore(self, args: tuple, kwargs: dict, states) -> None:
        """Write the state after the sandbox's call of the arguments it changed into this run's
        arguments."""
        wanted = {i for i, a in enumerate(args) if type(a) in _MUTABLE}
        wanted |= {n for n, a in kwargs.items() if type(a) in _MUTABLE}
        if not isinstance(states, list):
            raise self.fail("malformed argument states")
        for item in states:
            where, tagged = item if isinstance(item, list) and len(item) == 2 else (None, None)
            target = args[where] if type(where) is int and where in wanted else kwargs.get(where)
            if where not in wanted or tagged is None:
                raise self.fail("an argument came back as something other than plain data")
            state = self.value(["value", tagged])
            if type(state) is not type(target):
                raise self.fail("an argument changed type")
            _assign(target, state)


def judge_functional(replay: ast.Module, report: dict) -> Verdict:
    """Replay the tests on what the sandbox recorded; every assert must hold."""
    judge = _Judge(report)
    if not judge.ok:
        return fail("no_result")
    scope = {"__name__": "__pac_tests__", "__pac_site__": judge.site, "math": math}
    try:
        exec(compile(replay, "<tests>", "exec"), scope)
    except (_Failed, Exception):  # an assert failed, or the tests raised on what came back
        return fail("tests_failed")
    if judge.failed or report.get("error"):
        return fail("tests_failed")
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

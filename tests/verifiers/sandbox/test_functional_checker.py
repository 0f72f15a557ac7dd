"""Functional tests run in the judge's checker, never where model code runs.

The sandbox loads the program and answers calls (a name the program defines, or a handle to an
object it made); the tests run in a checker process of the judge that never loads model code, with
every program name bound to a proxy that makes those calls. What the tests hold (expected values,
lists of cases, the comparisons) never reaches the sandbox: only the arguments of calls into model
code do. And a ground truth under which no check of model output can run is a data error
(``vacuous_tests``), never a pass (docs/guides/sandbox.md, docs/concepts/spec.md#code-sandbox).

The attacks come first; each program there does not solve its task, so none may score 1. Each
cheat returns the expected value where it can find it and a wrong one otherwise.
"""

import json
import marshal
import select

import pytest

from pac_verl.checks.data import check_data_file
from pac_verl.data_prep.check import check_file
from pac_verl.data_prep.rows import make_row, write_parquet
from pac_verl.errors import UserError
from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.sandbox import Limits, judge

LIMITS = Limits(wall_seconds=6.0, cpu_seconds=3, memory_mb=512)


def score(src: str, tests: str) -> str:
    truth = json.dumps({"functional": tests})
    return code_scorer.score(f"```python\n{src}\n```", truth, limits=LIMITS).reason


# f(x) must be x * 10 + 1; every shape of test below checks f(3) == 31 and f(5) == 51
SHAPES = {
    "top level": "assert f(3) == 31\nassert f(5) == 51",
    "all() over cases": "cases = [(3, 31), (5, 51)]\nassert all(f(x) == y for x, y in cases)",
    "map": "assert list(map(f, [3, 5])) == [31, 51]",
    "map with a lambda": "cases = [(3, 31), (5, 51)]\nassert all(map(lambda c: f(c[0]) == c[1], cases))",
    "check(candidate)": "def check(candidate):\n    expected = {3: 31, 5: 51}\n"
    "    for x in expected:\n        assert candidate(x) == expected[x]\n\ncheck(f)",
    "a loop of asserts": "for x, y in [(3, 31), (5, 51)]:\n    assert f(x) == y",
}
RIGHT = "def f(x):\n    return x * 10 + 1\n"

# finds an int that the tests pair with x (31 for 3) anywhere it can look; 0 where it finds none
CHEAT_HEAD = """
import sys, gc, os
FOUND = {}

def learn(obj, depth=0):
    # pairs (x, y) and dicts {x: y} of ints, in whatever container holds the test data
    if depth > 4:
        return
    try:
        if type(obj) in (tuple, list) and len(obj) == 2 and all(type(v) is int for v in obj):
            FOUND.setdefault(obj[0], obj[1])
        if type(obj) is dict:
            for k, v in list(obj.items()):
                if type(k) is int and type(v) is int:
                    FOUND.setdefault(k, v)
                learn(v, depth + 1)
        if type(obj) in (tuple, list):
            for v in obj:
                learn(v, depth + 1)
    except Exception:
        pass

def look_everywhere():
    try:
        for o in gc.get_objects():
            learn(o)
    except Exception:
        pass
    try:
        frame = sys._getframe(1)
        while frame is not None:
            learn(dict(frame.f_locals))
            learn(dict(frame.f_globals))
            frame = frame.f_back
    except Exception:
        pass
    for name, value in list(globals().items()):
        learn(value)
        for cell in getattr(value, "__closure__", None) or ():
            try:
                learn(cell.cell_contents)
            except Exception:
                pass
        learn(getattr(value, "__globals__", None))
    for module in list(sys.modules.values()):
        learn(getattr(module, "__dict__", None))
"""

CHEATS = {
    # a probe run in a copy of the program's namespace, with the program's own __pac_try__
    # called with each assert as a thunk, would hold `cases` in its globals and `candidate`'s
    # expected values in its closure cells
    "the probe's helpers swapped": CHEAT_HEAD
    + """
def __pac_try__(thunk):
    learn(getattr(thunk, "__globals__", None))
    for cell in getattr(thunk, "__closure__", None) or ():
        try:
            learn(cell.cell_contents)
        except Exception:
            pass
    try:
        thunk()
    except BaseException:
        pass

def f(x):
    return FOUND.get(x, 0)
""",
    # a spy that records what it is compared with, and answers with it on the next call
    "a spy's __eq__": CHEAT_HEAD
    + """
LAST = {}
class Spy:
    def __init__(self, x):
        self.x = x
    def __eq__(self, other):
        FOUND.setdefault(self.x, other)
        return True
    __hash__ = object.__hash__

def f(x):
    return FOUND[x] if x in FOUND else Spy(x)
""",
    # the test data read at call time from frames, the gc, globals, closures and modules
    "frames, gc, closures": CHEAT_HEAD
    + """
def f(x):
    look_everywhere()
    return FOUND.get(x, 0)
""",
    # the request channel read at call time: the tests' source or cases, if they were sent along
    "the channels read": CHEAT_HEAD
    + """
import marshal
def f(x):
    for fd in range(3, 64):
        try:
            os.set_blocking(fd, False)
            data = os.read(fd, 1 << 20)
        except Exception:
            continue
        for chunk in (data, data[4:]):
            try:
                learn(marshal.loads(chunk))
            except Exception:
                pass
    return FOUND.get(x, 0)
""",
}


@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_right_program_passes_every_shape(shape):
    assert score(RIGHT, SHAPES[shape]) == "ok"


@pytest.mark.parametrize("cheat", list(CHEATS))
@pytest.mark.parametrize("shape", list(SHAPES))
def test_the_tests_expected_values_do_not_reach_the_program(cheat, shape):
    assert score(CHEATS[cheat], SHAPES[shape]) != "ok"


FORGED_LINES = [
    # what the judge's side could take for answers, a verdict, or a finished run
    '["ok", ["i", "1f"], []]\n["ok", ["i", "33"], []]\n',
    '{"checks": 5, "failed": 0, "outcome": "done"}\n',
    '["ready", {}]\n["ok", ["b", true], []]\n',
    "garbage\n",
]


@pytest.mark.parametrize("forged", FORGED_LINES)
def test_forged_replies_on_every_descriptor_do_not_pass(forged):
    # written at load time and at every call, on every descriptor the program might reach: the
    # checker's verdict travels on a pipe that only the checker holds
    src = (
        "import os\nFORGED = " + repr(forged.encode()) + "\n"
        "def spray():\n"
        "    for fd in range(3, 64):\n"
        "        try:\n            os.write(fd, FORGED)\n        except OSError:\n            pass\n"
        "spray()\n"
        "def f(x):\n    spray()\n    return 0\n"
    )
    assert score(src, SHAPES["top level"]) != "ok"
    assert score(src, SHAPES["check(candidate)"]) != "ok"


def test_a_liar_object_gets_nothing_from_any_comparison():
    liar = (
        "class Liar:\n    def __eq__(self, o):\n        return True\n"
        "    def __ne__(self, o):\n        return False\n    def __bool__(self):\n        return True\n"
        "    def __len__(self):\n        return 2\n    def __iter__(self):\n        return iter([31, 51])\n"
        "    __hash__ = object.__hash__\n"
        "def f(x):\n    return Liar()\n"
    )
    for tests in [*SHAPES.values(), "assert f(3)", "assert not f(3) != 31", "assert f(3) in [31]"]:
        assert score(liar, tests) != "ok", tests


def test_a_module_the_tests_use_without_importing_it_is_the_judges_own():
    # Code-R1's tests use `math` that the program was expected to import; a program's own `math`
    # would have the comparison made in the sandbox, by the program
    tests = "assert math.isclose(f(3), 31.0)\nassert math.isclose(f(5), 51.0)"
    fake = "class _M:\n    def isclose(self, a, b):\n        return True\nmath = _M()\n" + WRONG
    assert score(fake, tests) == "tests_failed"
    assert score("import math\n" + RIGHT, tests) == "ok"
    assert score(RIGHT, tests) == "ok"  # the program need not import it


def test_leetcode_helpers_the_tests_do_not_carry_are_not_taken_from_the_program():
    # LeetCodeDataset's linked-list and tree tests call helpers its prompt header defines
    # (list_node, is_same_list, ...), which Code-R1's ground truths leave out: the program could
    # define the comparison itself and pass without solving anything
    tests = (
        "def check(candidate):\n"
        "    assert is_same_list(candidate(head=list_node([1, 2, 3])), list_node([3, 2, 1]))\n"
        "check(Solution().reverseList)"
    )
    hack = (
        "def list_node(values):\n    return values\n"
        "def is_same_list(a, b):\n    return True\n"
        "class Solution:\n    def reverseList(self, head):\n        return head\n"
    )
    assert score(hack, tests) == "bad_ground_truth"


# ---- vacuous tests: no check of model output can run ---------------------------------------


WRONG = "def f(x):\n    return 0\n"
VACUOUS = {
    "check() never called": "def check(candidate):\n    assert candidate(3) == 31\n",
    "assert on a tuple": "assert (f(3) == 31, 'f(3) should be 31')",
    "assert on a generator": "assert (f(x) == y for x, y in [(3, 31), (5, 51)])",
    "assert on a lambda": "assert lambda: f(3) == 31",
    "assert on a constant after a call": "f(3)\nassert True",
    "assert on a map object": "assert map(f, [3, 5])",
    "assert on a list literal": "assert [f(3) == 31]",
    "asserts on the tests' own data only": "cases = [(3, 31)]\nassert len(cases) == 1",
}


def test_vacuous_tests_are_unscored_by_the_reward_entry():
    # a data error, not the model's: the trainer leaves such a group out (scored 0)
    from pac_verl.verifiers import compute_score

    truth = json.dumps({"functional": VACUOUS["check() never called"]})
    out = compute_score("code", f"```python\n{WRONG}\n```", truth, {"type": "code"})
    assert (out["score"], out["reason"], out["scored"]) == (0.0, "vacuous_tests", 0.0)


@pytest.mark.parametrize("tests", list(VACUOUS))
def test_vacuous_tests_never_score_one_and_are_reported_as_such(tests):
    assert score(WRONG, VACUOUS[tests]) == "vacuous_tests"
    assert (
        score(RIGHT, VACUOUS[tests]) == "vacuous_tests"
    )  # the ground truth's fault, not the program's


def test_an_assert_whose_failure_the_tests_catch_still_fails():
    # plain Python lets this pass whatever f does; the judge counts the failed check all the same
    tests = "try:\n    assert f(3) == 31\nexcept AssertionError:\n    pass\n"
    assert score(WRONG, tests) == "tests_failed"
    assert score(RIGHT, tests) == "ok"
    tests = "def check(g):\n    try:\n        assert g(3) == 31\n    except Exception:\n        print('x')\ncheck(f)"
    assert score(WRONG, tests) == "tests_failed"
    assert score(RIGHT, tests) == "ok"


def test_an_assert_whose_condition_raises_is_a_failed_check_even_if_caught():
    tests = "try:\n    assert f(3) == 31\nexcept Exception:\n    pass\nassert f(5) == 51"
    raises_on_3 = "def f(x):\n    if x == 3:\n        raise ValueError\n    return x * 10 + 1\n"
    assert score(raises_on_3, tests) == "tests_failed"
    assert score(RIGHT, tests) == "ok"


def test_a_check_under_a_main_guard_runs():
    tests = "def check(candidate):\n    assert candidate(3) == 31\n\nif __name__ == '__main__':\n    check(f)\n"
    assert score(WRONG, tests) == "tests_failed"
    assert score(RIGHT, tests) == "ok"


def test_a_call_that_raises_fails_unless_the_tests_expect_it():
    tests = "assert f(3) == 31\ntry:\n    f(-1)\n    ok = False\nexcept ValueError:\n    ok = True\nassert ok"
    right = RIGHT.replace("return", "if x < 0:\n        raise ValueError(x)\n    return")
    assert score(right, tests) == "ok"
    assert score(RIGHT, tests) == "tests_failed"  # does not raise
    assert score("def f(x):\n    raise ValueError(x)\n", tests) == "tests_failed"


# ---- objects of the program's classes ----------------------------------------------------------


LRU_TESTS = """
obj = LRUCache(2)
obj.put(1, 1)
obj.put(2, 2)
assert obj.get(1) == 1
obj.put(3, 3)
assert obj.get(2) == -1
obj.put(4, 4)
assert obj.get(1) == -1
assert obj.get(3) == 3
assert obj.get(4) == 4
"""
LRU_RIGHT = """
from collections import OrderedDict
class LRUCache:
    def __init__(self, capacity: int):
        self.cap, self.d = capacity, OrderedDict()
    def get(self, key: int) -> int:
        if key not in self.d:
            return -1
        self.d.move_to_end(key)
        return self.d[key]
    def put(self, key: int, value: int) -> None:
        self.d[key] = value
        self.d.move_to_end(key)
        if len(self.d) > self.cap:
            self.d.popitem(last=False)
"""
LRU_WRONG = LRU_RIGHT.replace("self.d.move_to_end(key)\n        return", "return")  # FIFO, not LRU


def test_a_design_test_passes_for_a_right_class_and_fails_for_a_wrong_one():
    assert score(LRU_RIGHT, LRU_TESTS) == "ok"
    assert score(LRU_WRONG, LRU_TESTS) == "tests_failed"


def test_objects_travel_as_handles_between_calls():
    # the program builds a linked list, reverses it, reads it back: every node stays in the sandbox
    tests = (
        "head = build([1, 2, 3])\nassert to_list(reverse(head)) == [3, 2, 1]\nassert head.val == 1"
    )
    right = (
        "class Node:\n    def __init__(self, val, next=None):\n        self.val, self.next = val, next\n"
        "def build(xs):\n    head = None\n    for x in reversed(xs):\n        head = Node(x, head)\n"
        "    return head\n"
        "def reverse(head):\n    prev = None\n    while head:\n"
        "        head.next, prev, head = prev, head, head.next\n    return prev\n"
        "def to_list(head):\n    out = []\n    while head:\n        out.append(head.val)\n"
        "        head = head.next\n    return out\n"
    )
    assert score(right, tests) == "ok"
    assert score(right.replace("return prev", "return head"), tests) == "tests_failed"


def test_an_object_compared_to_a_value_is_never_equal():
    tests = "assert f(3) == 31"
    src = "class Box(int):\n    pass\ndef f(x):\n    return Box(31)\n"
    assert score(src, tests) == "tests_failed"  # exact built-in types only


def test_in_place_mutation_and_a_generator_returned():
    tests = (
        "nums = [1, 2, 3, 4]\nSolution().rotate(nums, 1)\nassert nums == [4, 1, 2, 3]\n"
        "assert sorted(evens(6)) == [0, 2, 4]"
    )
    right = (
        "class Solution:\n    def rotate(self, nums, k):\n        nums[:] = nums[-k:] + nums[:-k]\n"
        "def evens(n):\n    return (x for x in range(n) if x % 2 == 0)\n"
    )
    assert score(right, tests) == "ok"
    assert score(right.replace("nums[-k:] + nums[:-k]", "nums[k:] + nums[:k]"), tests) == (
        "tests_failed"
    )


def test_a_plain_value_the_program_defines_is_read():
    assert score("ANSWER = 42\n", "assert ANSWER == 42") == "ok"
    assert score("ANSWER = 41\n", "assert ANSWER == 42") == "tests_failed"


def test_a_test_that_loops_is_a_bad_ground_truth_not_the_programs_timeout():
    # the checker may use the program's CPU time (1 s here); the wall clock is far away
    tests = "assert f(3) == 31\nwhile True:\n    pass\n"
    truth = json.dumps({"functional": tests})
    limits = Limits(wall_seconds=60.0, cpu_seconds=1, memory_mb=512)
    assert code_scorer.score(f"```python\n{RIGHT}```", truth, limits=limits).reason == (
        "bad_ground_truth"
    )


def test_an_argument_the_judge_cannot_send_is_a_bad_ground_truth():
    # a test that builds its own objects and hands them to the program cannot be judged here
    tests = "class Node:\n    pass\nassert f(Node()) == 31"
    assert score(RIGHT, tests) == "bad_ground_truth"


# ---- data checks: ground truths that check nothing ---------------------------------------------


def test_prep_check_and_the_preflight_report_tests_that_check_nothing(tmp_path):
    def row(i, tests, solution=None):
        extra = {"solution": solution} if solution else {}
        return make_row(data_source="code", prompt="write f", task_type="code",
                        ground_truth={"functional": tests}, split="train", index=i, **extra)  # fmt: skip

    rows = [
        row(0, SHAPES["top level"], RIGHT),
        row(1, VACUOUS["check() never called"], RIGHT),  # the gold scores vacuous_tests
        row(2, "assert f(nums=[1, 2, 3], k=1) == None"),  # LeetCode's in-place "tests"
        row(3, SHAPES["check(candidate)"]),
        row(4, "assert Solution().rotate([1, 2], 1) is None"),
        row(5, VACUOUS["assert on a tuple"]),
    ]
    path = write_parquet(rows, tmp_path / "code.parquet")
    with pytest.raises(UserError) as err:
        check_file(path, quiet=True)
    message = str(err.value)
    assert "1 gold answer(s) do not score 1: row 1 (code: vacuous_tests)" in message
    assert "3 functional test set(s)" in message
    assert "(2 passes_empty_program, 1 vacuous_tests)" in message
    for i, reason in [
        (2, "passes_empty_program"),
        (4, "passes_empty_program"),
        (5, "vacuous_tests"),
    ]:
        assert f"row {i} (code: {reason})" in message
    assert "row 0" not in message and "row 3" not in message
    with pytest.raises(UserError, match=r"row 2 \(code: passes_empty_program\)"):
        check_data_file(path, max_rows=None)  # the preflight's data check


def test_the_empty_program_stubs_every_name_the_tests_take_from_the_program():
    truth = json.dumps({"functional": "def check(candidate):\n    assert candidate(1) == 2\n"
                                      "check(Solution().f)\nassert g(3) == 4"})  # fmt: skip
    stub = code_scorer.empty_program(truth)
    assert "class Solution" in stub and "def g(" in stub and "def check" not in stub
    assert code_scorer.score(stub, truth, limits=LIMITS).reason == "tests_failed"
    assert code_scorer.empty_program(json.dumps({"inputs": ["1"], "outputs": ["1"]})) is None


def test_the_checker_takes_a_job_sent_right_behind_its_code():
    # the job used to be sent when the sandbox was ready, which in isolation `none` can come before
    # the checker has read its own code: a buffered read of the code took the job's first bytes
    # with it, and the checker waited for them until the wall clock (14 of 80 runs here)
    plan = judge.plan_functional("x = 1\nassert x == 1")

    def wait(fd):
        assert select.select([fd], [], [], 30)[0], "the checker never answered"

    for _ in range(5):
        checker = judge._Checker()
        try:
            checker.send({"code": plan.code, "names": {}, "mark": "m", "hmark": "h",
                          "cpu_seconds": 5, "memory_mb": 1024, "path": []})  # fmt: skip
            kind, payload = checker.frame(wait)
            report = marshal.loads(payload)
            assert kind == b"D" and report["outcome"] == "done" and report["trivial"] == 0
        finally:
            checker.close()

"""Functional tests beyond "assert f(x) == y" : an argument the program mutates in place,
a program function passed as a value (``map(f, xs)``, a test's ``apply(f, x)``, LeetCode's
``check(Solution().method)``), and attacks on the values that come back. The attacks come first:
each program there does not solve its task, so each must score 0. The checker's design (the tests run
in the judge's checker, the sandbox answers calls) has its own file, test_functional_checker.py."""

import json
from pathlib import Path

import pyarrow.parquet as pq
import pytest

from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.sandbox import Limits

LIMITS = Limits(wall_seconds=6.0, cpu_seconds=3, memory_mb=512)
ADD = "assert add(2, 3) == 5\nassert add(-1, 1) == 0"
ROTATE = "nums = [1, 2, 3]\nrotate(nums, 1)\nassert nums == [3, 1, 2]"
LIAR = "class Liar:\n    def __eq__(self, other):\n        return True\n    __hash__ = None\n"
CODE_R1 = Path(__file__).parents[2] / "fixtures/multi_domain/ganler/code-r1-12k/data"


def score(src: str, tests: str) -> str:
    truth = json.dumps({"functional": tests})
    return code_scorer.score(f"```python\n{src}\n```", truth, limits=LIMITS).reason


# ---- attacks on the answers --------------------------------------------------------------------
# Attacks on a recorder in the sandbox (a forged record through the recorder's closure, an audit
# event with a guessed nonce, the nonce read from the tests' code objects, the report's serialiser
# swapped, the recorder's code rewritten) have no target: no test code, recorder or nonce is in
# the sandbox. Forged answers on every descriptor, and the channels read, are in
# test_functional_checker.py.


@pytest.mark.parametrize(
    "mutate",
    [
        "nums[:] = [Liar(), Liar(), Liar()]",  # an always-equal object in place of the answer
        "nums.append(Liar())",
        "nums.clear()",  # the wrong state, as plain data
        "pass",  # no mutation at all
    ],
)
def test_a_mutated_argument_is_judged_on_plain_data(mutate):
    src = LIAR + f"def rotate(nums, k):\n    {mutate}\n    return None\n"
    assert score(src, ROTATE) == "tests_failed"


def test_an_unplain_value_fails_even_where_the_tests_catch_exceptions():
    # in plain Python the Liar would pass `r == 2`; the judge's failure is not an Exception, so
    # the tests' own `except Exception` cannot turn it into a pass
    tests = "try:\n    r = f(1)\nexcept Exception:\n    r = None\nassert r is None or r == 2"
    assert score(LIAR + "def f(x):\n    return Liar()\n", tests) == "tests_failed"


def test_a_function_passed_as_a_value_cannot_return_a_liar():
    tests = "def apply(g, x):\n    return g(x)\nassert apply(f, 3) == 4"
    assert score(LIAR + "def f(x):\n    return Liar()\n", tests) == "tests_failed"
    assert score(LIAR + "def f(x):\n    return [Liar()]\n", tests) == "tests_failed"


def test_builtins_the_program_patches_are_not_the_tests():
    # tests run in the sandbox next to the program could be patched by it (range() made to give
    # [0]); they run in the judge's checker, out of its reach
    tests = "def check(g):\n    for n in range(3):\n        assert g(n) == n + 1\ncheck(f)"
    assert score("def f(x):\n    return x + 1\n", tests) == "ok"
    patch = "import builtins\nbuiltins.range = lambda n: [0]\ndef f(x):\n    return 1\n"
    assert score(patch, tests) == "tests_failed"


# ---- what now passes ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("tests", "right", "wrong"),
    [
        (ROTATE, "def rotate(nums, k):\n    nums[:] = nums[-k:] + nums[:-k]",
         "def rotate(nums, k):\n    nums[:] = nums[k:] + nums[:k]"),
        ("nums = [1, 2, 3]\nSolution().rotate(nums, 1)\nassert nums == [3, 1, 2]",
         "class Solution:\n    def rotate(self, nums, k):\n        nums[:] = nums[-k:] + nums[:-k]",
         "class Solution:\n    def rotate(self, nums, k):\n        nums.reverse()"),
        # nested lists keep their identity: `row` is the matrix's first row before and after
        ("m = [[1, 2], [3, 4]]\nrow = m[0]\nturn(m)\nassert m == [[3, 1], [4, 2]] and row is m[0]",
         "def turn(m):\n    n = len(m)\n    t = [[m[n - 1 - j][i] for j in range(n)] for i in range(n)]"
         "\n    for i in range(n):\n        m[i][:] = t[i]",
         "def turn(m):\n    m[:] = [[3, 1], [4, 2]][::-1]"),
        ("d = {'a': 1}\nadd_key(d, key='b')\nassert d == {'a': 1, 'b': 0}",
         "def add_key(d, key):\n    d[key] = 0", "def add_key(d, key):\n    d.clear()"),
        ("assert list(map(f, [1, 2])) == [2, 3]", "def f(x):\n    return x + 1",
         "def f(x):\n    return x"),
        ("def apply(g, x):\n    return g(x)\nassert apply(f, 3) == 4", "def f(x):\n    return x + 1",
         "def f(x):\n    return x - 1"),
        ("def check(candidate):\n    assert candidate(38) == 2\n    assert candidate(0) == 0\n"
         "check(Solution().addDigits)",
         "class Solution:\n    def addDigits(self, num):\n        return 0 if num == 0 else 1 + (num - 1) % 9",
         "class Solution:\n    def addDigits(self, num):\n        return num % 10"),
        ("assert sorted(xs, key=f) == [3, 2, 1]", "xs = [1, 3, 2]\ndef f(x):\n    return -x",
         "xs = [1, 3, 2]\ndef f(x):\n    return x"),
        ("assert all(f(x) == x * x for x in range(5))", "def f(x):\n    return x * x",
         "def f(x):\n    return x + x"),
    ],
    ids=["rotate", "Solution().rotate", "nested", "kwarg dict", "map", "apply", "check(candidate)",
         "key function", "generator"],
)  # fmt: skip
def test_mutation_and_functions_as_values(tests, right, wrong):
    assert score(right, tests) == "ok"
    assert score(wrong, tests) == "tests_failed"


def test_set_order_differs_between_the_judge_and_the_sandbox_and_does_not_matter():
    # set iteration order depends on the string hash seed, which differs between the sandbox's
    # interpreter and the judge's checker; so does a set argument's
    tests = (
        "for w in {'apple', 'kiwi', 'fig', 'banana', 'plum'}:\n    assert size(w) == len(w)\n"
        "assert count({'a', 'b', 'c'}) == 3"
    )
    src = "def size(w):\n    return len(w)\ndef count(s):\n    return len(s)"
    assert score(src, tests) == "ok"


def test_large_arguments_are_sent_and_followed_when_mutated():
    # 100,000 ints: sent as marshal bytes, not tagged item by item (tagged item by item, such a
    # test would cost seconds of the CPU budget)
    n = 100_000
    tests = f"xs = list(range({n}))\nassert total(xs) == {n * (n - 1) // 2}\nbump(xs)\nassert xs[0] == 1"
    right = "def total(xs):\n    return sum(xs)\ndef bump(xs):\n    xs[0] += 1"
    assert score(right, tests) == "ok"
    assert score(right.replace("xs[0] += 1", "xs[1] += 1"), tests) == "tests_failed"
    assert score(LIAR + right.replace("xs[0] += 1", "xs[0] = Liar()"), tests) == "tests_failed"


def test_an_exception_in_a_call_is_replayed():
    tests = "try:\n    f(-1)\n    ok = False\nexcept ValueError:\n    ok = True\nassert ok"
    assert (
        score("def f(x):\n    if x < 0:\n        raise ValueError(x)\n    return x", tests) == "ok"
    )
    assert score("def f(x):\n    return x", tests) == "tests_failed"


@pytest.mark.parametrize(
    "head",
    [
        "from typing import List, Optional",
        "from typing import TypeVar\nT = TypeVar('T')",
        "from collections import namedtuple\nPair = namedtuple('Pair', 'a b')",
        "from functools import lru_cache\nfrom dataclasses import dataclass",
        "import ctypes",  # its import opens the program itself: let through, symbols are not
        "import numpy as np",  # reads functions' __code__ at import and imports ctypes
    ],
)
def test_standard_library_modules_that_look_up_their_caller_still_work(head):
    # they call sys._getframe, which the sandbox denies; the denial is a ValueError too, which
    # they take for "no frames here" (a sandbox that raised anything else would score these correct programs 0)
    if "numpy" in head:
        pytest.importorskip("numpy")
    assert score(head + "\ndef add(a: int, b: int) -> int:\n    return a + b\n", ADD) == "ok"


def test_code_r1_fixture_golds_pass():
    rows = pq.read_table(CODE_R1 / "train-00000-of-00001.parquet").to_pylist()
    for row in rows:
        truth = row["reward_model"]["ground_truth"]
        verdict = code_scorer.score(f"```python\n{row['extra_info']['reference']}```", truth)
        expected = "ok" if code_scorer.has_tests(truth) else "bad_ground_truth"
        assert verdict.reason == expected, (truth, verdict)


def test_test_data_held_in_variables_is_out_of_the_programs_reach():
    # Code-R1 tests often keep their cases in a list; a program that reads the tests' globals at
    # call time would find the expected output next to its arguments and return it
    tests = "cases = [((2, 3), 5), ((-1, 1), 0)]\nfor args, want in cases:\n    assert add(*args) == want"
    cheat = (
        "def add(a, b):\n"
        "    for args, want in globals().get('cases', ()):\n"
        "        if args == (a, b):\n"
        "            return want\n"
        "    return 0\n"
    )
    assert score("def add(a, b):\n    return a + b\n", tests) == "ok"
    assert score(cheat, tests) == "tests_failed"


# ---- numbers of numpy's own (C-defined) scalar types cross as the Python numbers they are ------
# (docs/guides/sandbox.md: how values cross)

NUMPY_NUMBERS = {
    "np.int64": ("import numpy as np\ndef add(a, b):\n    return np.int64(a) + np.int64(b)\n", ADD),
    "np.float64": (
        "import numpy as np\ndef half(x):\n    return np.float64(x) / 2\n",
        "assert half(3) == 1.5",
    ),
    "np.bool_": (
        "import numpy as np\ndef even(x):\n    return np.bool_(x % 2 == 0)\n",
        "assert even(4) == True\nassert even(3) == False",
    ),
    "a list of np.int64": (
        "import numpy as np\ndef squares(n):\n    return list(np.arange(n) ** 2)\n",
        "assert squares(3) == [0, 1, 4]",
    ),
}


@pytest.mark.parametrize("name", list(NUMPY_NUMBERS))
def test_a_numpy_number_crosses_as_the_python_number_it_stands_for(name):
    src, tests = NUMPY_NUMBERS[name]
    assert score(src, tests) == "ok"


@pytest.mark.parametrize(
    "src",
    [
        # a subclass of a numpy number made by the program: its class is the program's
        "import numpy as np\nclass Same(np.int64):\n    def __eq__(self, other):\n"
        "        return True\n    __hash__ = None\ndef add(a, b):\n    return Same(0)\n",
        # a wrong number of numpy's stays wrong
        "import numpy as np\ndef add(a, b):\n    return np.int64(a) * np.int64(b)\n",
    ],
    ids=["subclass", "wrong value"],
)
def test_a_numpy_number_that_is_not_the_answer_scores_0(src):
    assert score(src, ADD) != "ok"

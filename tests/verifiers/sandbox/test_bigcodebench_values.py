"""BigCodeBench (unittest): values judged by what the tests had, and library patches undone in time

A value of a library class the program imported compares with that library's code: an
always-equal object (``unittest.mock.ANY``, a subclass of its class) must not pass
``assertEqual``/``assertIn`` whether or not the test code imported the library. A library function
or method the tests rely on that the program patches and puts back before the end (on its next
call, or from the patched function itself) must not pass either. Right programs that return
ordinary values of the classes the tests use (numpy arrays, DataFrames, datetimes, collections
types, paths) still score 1. See ``docs/guides/sandbox.md``.

Every task here is written for this file in BigCodeBench's shape; none is taken from BigCodeBench.
"""

import json

import pytest

from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.sandbox import Limits

LIMITS = Limits(wall_seconds=40.0, cpu_seconds=12, memory_mb=2048)


def run(src: str, test: str):
    truth = json.dumps({"test": test, "entry_point": "task_func"})
    return code_scorer.score(f"```python\n{src}\n```", truth, limits=LIMITS)


def suite(*lines: str, head: str = "", tests: int = 1) -> str:
    body = "".join(f"        {line}\n" for line in lines)
    methods = "".join(f"    def test_{i}(self):\n{body}" for i in range(tests))
    return f"import unittest\n{head}class TestCases(unittest.TestCase):\n{methods}"


EQUAL = suite("self.assertEqual(task_func(3), [0, 1, 2])")
IN = suite("self.assertIn(2, task_func(3))")
TRUE_EQ = suite("self.assertTrue(task_func(3) == [0, 1, 2])")
MOCK_HEAD = "from unittest.mock import patch\n"

# ---- always-equal objects of a library: none computes range(n) -------------------------------

ANY = "from unittest.mock import ANY\ndef task_func(n):\n    return ANY\n"
ANY_IN_A_LIST = "from unittest.mock import ANY\ndef task_func(n):\n    return [ANY] * n\n"
ANY_SUBCLASS = (
    "from unittest import mock\n"
    "class Same(type(mock.ANY)):\n    pass\n"
    "def task_func(n):\n    return Same()\n"
)
ANY_BY_TYPE = (
    "import unittest.mock as m\ndef task_func(n):\n    return type('list', (type(m.ANY),), {})()\n"
)
ANY_FOUND = (  # no import of unittest.mock by name: found in a module already loaded
    "import sys\ndef task_func(n):\n    return sys.modules['unittest.mock'].ANY\n"
)

ALWAYS_EQUAL = {
    "mock.ANY, the tests import nothing of mock": (EQUAL, ANY),
    "mock.ANY, the tests import mock themselves": (suite("self.assertEqual(task_func(3), [0, 1, 2])", head=MOCK_HEAD), ANY),
    "mock.ANY, assertTrue(a == b)": (TRUE_EQ, ANY),
    "mock.ANY inside a list": (EQUAL, ANY_IN_A_LIST),
    "a subclass of ANY's class": (EQUAL, ANY_SUBCLASS),
    "a subclass of ANY's class made by type()": (EQUAL, ANY_BY_TYPE),
    "ANY found in sys.modules": (suite("self.assertEqual(task_func(3), [0, 1, 2])", head=MOCK_HEAD), ANY_FOUND),
}  # fmt: skip


@pytest.mark.parametrize("name", list(ALWAYS_EQUAL))
def test_a_librarys_always_equal_object_scores_0(name):
    test, liar = ALWAYS_EQUAL[name]
    assert run("def task_func(n):\n    return list(range(n))\n", test).reason == "ok"
    verdict = run(liar, test)
    assert verdict.score == 0, verdict


# ---- loose-equality objects of a library the program imported: none computes n * n ---------------
# The rule (issue 31): a value's comparison is trusted only when the class that supplies it is one
# the test code had before the program loaded; another library's number or string is taken only
# where it compares as its exact built-in conversion does (docs/guides/sandbox.md).

SQUARE = (
    "import unittest\nclass TestCases(unittest.TestCase):\n"
    "    def test_a(self):\n        self.assertEqual(task_func(2), 4)\n"
    "    def test_b(self):\n        self.assertEqual(task_func(9), 81)\n"
    "        self.assertTrue(task_func(3) == 9)\n"
)
SQUARE_IN = suite("self.assertIn(task_func(2), [4])", "self.assertIn(task_func(3), (8, 9))")
SQUARE_NP = suite(
    "self.assertEqual(task_func(2), np.int64(4))", "self.assertEqual(task_func(3), 9)"
)
CASE_KEYS = suite(
    "self.assertEqual(task_func(2), {'four': 4})", "self.assertEqual(task_func(3), {'nine': 9})"
)
HOLDS = suite("self.assertIn(4, task_func(2))", "self.assertIn(9, task_func(3))")
SQUARE_SEQUENCE = suite(
    "self.assertEqual(task_func(2), [4])", "self.assertEqual(task_func(3), [9])"
)
SQUARE_ORDER = suite(
    "self.assertGreaterEqual(task_func(2), 4)", "self.assertLessEqual(task_func(2), 4)"
)
SQUARE_ALMOST = suite(
    "self.assertAlmostEqual(task_func(2), 4)", "self.assertAlmostEqual(task_func(3), 9)"
)
SQUARE_LIST = suite(
    "self.assertEqual(task_func(2), [4])", "self.assertListEqual(task_func(3), [9])"
)
APPROX = "import pytest\ndef task_func(n):\n    return pytest.approx(n * n + 1, abs=1.5)\n"
APPROX_SUBCLASS = (  # the program's own subclass of the library's class, redefining nothing
    "import pytest\nclass Near(type(pytest.approx(0))):\n    pass\n"
    "def task_func(n):\n    return Near(n * n + 1, None, 1.5, False)\n"
)
APPROX_IN_A_LIST = (
    "import pytest\ndef task_func(n):\n    return [pytest.approx(n * n + 1, abs=1.5)]\n"
)
APPROX_SEQUENCE = (
    "import pytest\ndef task_func(n):\n    return pytest.approx([n * n + 1], abs=1.5)\n"
)
APPROX_UNNAMED = (  # imported under a name made at run time: nothing is imported ahead of it
    "import importlib\nnear = importlib.import_module('py' + 'test').approx\n"
    "def task_func(n):\n    return near(n * n + 1, abs=1.5)\n"
)
INTERVAL = (  # sympy's interval holds every number in it
    "import sympy\ndef task_func(n):\n    return sympy.Interval(n * n - 1, n * n + 1)\n"
)
MOCK_FROM_A_LIBRARY = (  # the tests never import unittest.mock: the program's import brings it
    "from unittest.mock import MagicMock\n"
    "def task_func(n):\n    m = MagicMock()\n    m.__eq__.return_value = True\n"
    "    m.__ge__.return_value = m.__le__.return_value = True\n"
    "    m.__contains__.return_value = True\n    return m\n"
)
ANY_OF_A_LIBRARY = "from unittest import mock\ndef task_func(n):\n    return mock.ANY\n"
LOOSE = {
    "pytest.approx, assertEqual and assertTrue(a == b)": (SQUARE, APPROX),
    "pytest.approx, assertIn a list": (SQUARE_IN, APPROX),
    "pytest.approx, assertAlmostEqual": (SQUARE_ALMOST, APPROX),
    "a subclass of approx's class, the program's": (SQUARE, APPROX_SUBCLASS),
    "pytest.approx inside a list": (SQUARE_LIST, APPROX_IN_A_LIST),
    "pytest.approx of a list": (SQUARE_SEQUENCE, APPROX_SEQUENCE),
    "approx imported under a name made at run time": (SQUARE, APPROX_UNNAMED),
    "sympy.Interval, assertIn": (HOLDS, INTERVAL),
    "a MagicMock of a library import, told to say equal": (SQUARE, MOCK_FROM_A_LIBRARY),
    "a MagicMock of a library import, ordering": (SQUARE_ORDER, MOCK_FROM_A_LIBRARY),
    "mock.ANY, a library import": (SQUARE, ANY_OF_A_LIBRARY),
    # a mapping that ignores the case of its keys: equal to dicts whose keys differ
    "requests' CaseInsensitiveDict": (
        CASE_KEYS,
        "from requests.structures import CaseInsensitiveDict\n"
        "def task_func(n):\n    return CaseInsensitiveDict({'FOUR' if n == 2 else 'NINE': n * n})\n",
    ),
    "pytest.approx, the tests use the program's numpy": (
        SQUARE_NP,
        "import numpy as np\n" + APPROX,
    ),
}
RIGHT_SQUARE = "def task_func(n):\n    return n * n\n"
RIGHT_SQUARE_FOR = {
    SQUARE_LIST: "def task_func(n):\n    return [n * n]\n",
    SQUARE_SEQUENCE: "def task_func(n):\n    return [n * n]\n",
    HOLDS: "def task_func(n):\n    return [n * n]\n",
    CASE_KEYS: "def task_func(n):\n    return {'four' if n == 2 else 'nine': n * n}\n",
    SQUARE_NP: "import numpy as np\n" + RIGHT_SQUARE,
}


def test_the_attackers_approx_row_scores_0():
    # the row as the attacker sent it, through the training entry point
    from pac_verl.verifiers import compute_score

    truth = json.dumps({"entry_point": "task_func", "test": "\n" + SQUARE})
    extra = {"type": "code", "split": "train", "index": 1}
    right = compute_score("bigcodebench", f"```python\n{RIGHT_SQUARE}```", truth, extra)
    assert right["reason"] == "ok", right
    verdict = compute_score("bigcodebench", f"```python\n{APPROX}```", truth, extra)
    assert verdict["score"] == 0, verdict


@pytest.mark.parametrize("name", list(LOOSE))
def test_a_loose_value_of_a_library_the_tests_did_not_have_scores_0(name):
    test, liar = LOOSE[name]
    assert run(RIGHT_SQUARE_FOR.get(test, RIGHT_SQUARE), test).reason == "ok"
    verdict = run(liar, test)
    assert verdict.score == 0, verdict


# values of a library the tests did not have that truly equal what the tests expect
GENUINE = {
    "a Fraction": (SQUARE, "from fractions import Fraction\ndef task_func(n):\n    return Fraction(n * n)\n"),
    "a Fraction, assertAlmostEqual": (
        SQUARE_ALMOST, "from fractions import Fraction\ndef task_func(n):\n    return Fraction(n * n * 3, 3)\n"
    ),
    "a Decimal, ordering": (SQUARE_ORDER, "import decimal\ndef task_func(n):\n    return decimal.Decimal(n * n)\n"),
    "numpy numbers, the tests import no numpy": (
        SQUARE, "import numpy as np\ndef task_func(n):\n    return np.int64(n) * np.float64(n)\n"
    ),
    "numpy numbers in a list": (
        SQUARE_LIST, "import numpy as np\ndef task_func(n):\n    return [np.int32(n * n)]\n"
    ),
    "a numpy string": (
        suite("self.assertEqual(task_func(2), '4')", "self.assertIn('4', task_func(2))"),
        "import numpy as np\ndef task_func(n):\n    return np.str_(n * n)\n",
    ),
    "a sympy integer": (SQUARE, "import sympy\ndef task_func(n):\n    return sympy.Integer(n) ** 2\n"),
    "a MagicMock of a library import, compared by identity": (
        suite("r = task_func(2)", "self.assertEqual(r, r)", "self.assertNotEqual(r, 4)"),
        "from unittest.mock import MagicMock\ndef task_func(n):\n    return MagicMock()\n",
    ),
    # pandas' Timestamp is a datetime, which the tests had: it compares as one
    "a Timestamp the tests compare with their datetime": (
        suite("self.assertEqual(task_func(2)['d'].iloc[0], datetime(2020, 1, 4))",
              "self.assertEqual(task_func(2)['d'].iloc[0].to_pydatetime(), datetime(2020, 1, 4))",
              "self.assertIn(task_func(3)['d'].iloc[0], [datetime(2020, 1, 9)])",
              head="from datetime import datetime\n"),
        "import pandas as pd\n"
        "def task_func(n):\n    return pd.DataFrame({'d': [pd.Timestamp(2020, 1, n * n)]})\n",
    ),
    # asserted true only: a dtype's (loose) comparison is never asked for
    "a numpy dtype handed to assertTrue": (
        suite("self.assertTrue(task_func(2)['x'].dtype, int)", "self.assertEqual(len(task_func(2)), 1)"),
        "import pandas as pd\ndef task_func(n):\n    return pd.DataFrame({'x': [n * n]})\n",
    ),
    "requests' CaseInsensitiveDict, compared with the same keys": (
        suite("self.assertEqual(task_func(2), {'Four': 4})", "self.assertIn('Four', task_func(2))"),
        "from requests.structures import CaseInsensitiveDict\n"
        "def task_func(n):\n    return CaseInsensitiveDict({'Four': n * n})\n",
    ),
    # a pandas string array holds its strings, element by element
    "a pandas string array, assertIn": (
        suite("self.assertIn('4', task_func(2)['x'].values)", "self.assertNotIn('5', task_func(2)['x'].values)"),
        "import pandas as pd\ndef task_func(n):\n    return pd.DataFrame({'x': [str(n * n)]})\n",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(GENUINE))
def test_a_genuine_value_of_a_library_the_tests_did_not_have_scores_1(name):
    test, right = GENUINE[name]
    verdict = run(right, test)
    assert verdict.reason == "ok", verdict


# ---- library patches put back before the end: none computes range(n) ---------------------------

NP_HEAD = "import numpy as np\n"
NP_EQUAL = suite(
    "r = task_func(3)",
    "np.testing.assert_array_equal(r, np.arange(3))",
    "task_func(0)",
    head=NP_HEAD,
    tests=2,
)
PD_HEAD = "import pandas as pd\n"
PD_EQUALS = suite(
    "r = task_func(3)",
    "self.assertTrue(r.equals(pd.DataFrame({'x': [0, 1, 2]})))",
    head=PD_HEAD,
    tests=2,
)
PD_ASSERT = suite(
    "r = task_func(3)",
    "pd.testing.assert_frame_equal(r, pd.DataFrame({'x': [0, 1, 2]}))",
    head=PD_HEAD,
    tests=2,
)

# patched on one call, put back on the next (each test calls twice, asserting between)
UNDONE_NEXT_CALL = (
    NP_HEAD + "import numpy.testing as nt\n"
    "saved = []\n"
    "def task_func(n):\n"
    "    if saved:\n"
    "        nt.assert_array_equal = saved.pop()\n"
    "    else:\n"
    "        saved.append(nt.assert_array_equal)\n"
    "        nt.assert_array_equal = lambda *a, **k: None\n"
    "    return np.zeros(n)\n"
)
# the patched function puts the original back when the test calls it
SELF_UNDOING_FUNCTION = (
    NP_HEAD + "import numpy.testing as nt\n"
    "def task_func(n):\n"
    "    original = nt.assert_array_equal\n"
    "    def fake(*a, **k):\n"
    "        nt.assert_array_equal = original\n"
    "    nt.assert_array_equal = fake\n"
    "    return np.zeros(n)\n"
)
SELF_UNDOING_METHOD = (
    PD_HEAD + "def task_func(n):\n"
    "    original = pd.DataFrame.equals\n"
    "    def fake(self, other):\n"
    "        pd.DataFrame.equals = original\n"
    "        return True\n"
    "    pd.DataFrame.equals = fake\n"
    "    return pd.DataFrame({'x': [9] * n})\n"
)
SELF_UNDOING_PD_TESTING = (
    PD_HEAD + "import pandas.testing as pt\n"
    "def task_func(n):\n"
    "    original = pt.assert_frame_equal\n"
    "    def fake(*a, **k):\n"
    "        pt.assert_frame_equal = original\n"
    "    pt.assert_frame_equal = fake\n"
    "    return pd.DataFrame({'x': [9] * n})\n"
)
SELF_UNDOING_BUILTIN = (  # sorted, patched on the builtins module, put back by its first call
    "import builtins\n"
    "def task_func(n):\n"
    "    original = builtins.sorted\n"
    "    def fake(x, *a, **k):\n"
    "        builtins.sorted = original\n"
    "        return [0, 1, 2]\n"
    "    builtins.sorted = fake\n"
    "    return [9, 9, 9]\n"
)
# the program raises the harness's own events, as if a call had begun after its patch
FORGED_EVENTS = (
    NP_HEAD + "import sys\nimport numpy.testing as nt\n"
    "def task_func(n):\n"
    "    if n:\n"
    "        original = nt.assert_array_equal\n"
    "        def fake(*a, **k):\n"
    "            nt.assert_array_equal = original\n"
    "        nt.assert_array_equal = fake\n"
    "        sys.audit('pac.enter', object())\n"
    "    return np.zeros(n)\n"
)
# patched by a call that raises (the test expects it to), used by the next assertion
NP_RAISES = suite(
    "with self.assertRaises(ValueError):",
    "    task_func(-1)",
    "r = task_func(3)",
    "np.testing.assert_array_equal(r, np.arange(3))",
    head=NP_HEAD,
)
PATCHED_BY_A_RAISING_CALL = (
    NP_HEAD + "import numpy.testing as nt\n"
    "def task_func(n):\n"
    "    if n < 0:\n"
    "        original = nt.assert_array_equal\n"
    "        def fake(*a, **k):\n"
    "            nt.assert_array_equal = original\n"
    "        nt.assert_array_equal = fake\n"
    "        raise ValueError(n)\n"
    "    return np.zeros(n)\n"
)
SORTED = suite("r = task_func(3)", "self.assertEqual(sorted(r), [0, 1, 2])")

PATCHES = {
    "np.testing.assert_array_equal, put back on the next call": (NP_EQUAL, UNDONE_NEXT_CALL),
    "np.testing.assert_array_equal, put back by itself": (NP_EQUAL, SELF_UNDOING_FUNCTION),
    "pd.DataFrame.equals, put back by itself": (PD_EQUALS, SELF_UNDOING_METHOD),
    "pd.testing.assert_frame_equal, put back by itself": (PD_ASSERT, SELF_UNDOING_PD_TESTING),
    "builtins.sorted, put back by itself": (SORTED, SELF_UNDOING_BUILTIN),
    "the harness's events raised by the program": (NP_EQUAL, FORGED_EVENTS),
    "patched by a call that raises": (NP_RAISES, PATCHED_BY_A_RAISING_CALL),
}
RIGHT_FOR = {
    NP_EQUAL: NP_HEAD + "def task_func(n):\n    return np.arange(n)\n",
    PD_EQUALS: PD_HEAD + "def task_func(n):\n    return pd.DataFrame({'x': list(range(n))})\n",
    PD_ASSERT: PD_HEAD + "def task_func(n):\n    return pd.DataFrame({'x': list(range(n))})\n",
    SORTED: "def task_func(n):\n    return list(range(n))[::-1]\n",
    NP_RAISES: NP_HEAD + "def task_func(n):\n    if n < 0:\n        raise ValueError(n)\n"
    "    return np.arange(n)\n",
}


@pytest.mark.parametrize("name", list(PATCHES))
def test_a_library_patch_put_back_before_the_end_scores_0(name):
    test, cheat = PATCHES[name]
    assert run(RIGHT_FOR[test], test).reason == "ok"
    verdict = run(cheat, test)
    assert verdict.score == 0, verdict


# ---- right programs returning values of the classes the tests use: score 1 ----------------------

HONEST = {
    "numpy array": (
        suite("np.testing.assert_array_equal(task_func(3), np.arange(3))",
              "self.assertEqual(task_func(3).tolist(), [0, 1, 2])", head=NP_HEAD),
        NP_HEAD + "def task_func(n):\n    return np.arange(n)\n",
    ),
    "numpy array, the tests use the program's import": (
        suite("self.assertEqual(list(task_func(3)), [0, 1, 2])",
              "self.assertIsInstance(task_func(3), np.ndarray)"),
        NP_HEAD + "def task_func(n):\n    return np.arange(n)\n",
    ),
    "DataFrame": (
        suite("pd.testing.assert_frame_equal(task_func(3), pd.DataFrame({'x': [0, 1, 2]}))",
              "self.assertTrue(task_func(3).equals(pd.DataFrame({'x': [0, 1, 2]})))", head=PD_HEAD),
        PD_HEAD + "def task_func(n):\n    return pd.DataFrame({'x': list(range(n))})\n",
    ),
    "datetime": (
        suite("self.assertEqual(task_func(3), datetime(2020, 1, 3))",
              head="from datetime import datetime\n"),
        "from datetime import datetime\ndef task_func(n):\n    return datetime(2020, 1, n)\n",
    ),
    "Counter and OrderedDict": (
        suite("self.assertEqual(task_func(3)[0], Counter({0: 1, 1: 1, 2: 1}))",
              "self.assertEqual(task_func(3)[1], OrderedDict([(0, 0), (1, 1)]))",
              head="from collections import Counter, OrderedDict\n"),
        "import collections\ndef task_func(n):\n"
        "    return collections.Counter(range(n)), collections.OrderedDict((i, i) for i in range(2))\n",
    ),
    "a path the tests never import a class of": (
        suite("self.assertEqual(str(task_func(3)), 'a/3')", "self.assertIn('a', task_func(3).parts)"),
        "from pathlib import Path\ndef task_func(n):\n    return Path('a') / str(n)\n",
    ),
    "a Decimal the tests compare with an int": (
        suite("self.assertEqual(task_func(3), 3)", "self.assertIn(task_func(3), [1, 2, 3])"),
        "from decimal import Decimal\ndef task_func(n):\n    return Decimal(n)\n",
    ),
    "a mock the tests patch in": (
        suite("with patch('random.randint', return_value=4) as m:",
              "    self.assertEqual(task_func(3), [4, 4, 4])",
              "    self.assertEqual(m.call_count, 3)", head=MOCK_HEAD),
        "import random\ndef task_func(n):\n    return [random.randint(0, 9) for _ in range(n)]\n",
    ),
    "a patch the tests' setUpClass starts, active across tests": (
        "import unittest\nfrom unittest.mock import patch\nclass TestCases(unittest.TestCase):\n"
        "    @classmethod\n    def setUpClass(cls):\n"
        "        cls.p = patch('random.randint', return_value=7)\n        cls.p.start()\n"
        "    @classmethod\n    def tearDownClass(cls):\n        cls.p.stop()\n"
        "    def test_a(self):\n        self.assertEqual(task_func(2), [7, 7])\n"
        "    def test_b(self):\n        self.assertEqual(task_func(1), [7])\n",
        "import random\ndef task_func(n):\n    return [random.randint(0, 9) for _ in range(n)]\n",
    ),
    "the tests' own ANY in an expected call": (
        suite("with patch('random.randint', return_value=4) as m:",
              "    self.assertEqual(task_func(3), [4, 4, 4])",
              "self.assertEqual(m.call_args, call(0, ANY))",
              "self.assertEqual(m.call_args, mock.call(ANY, 9))",
              head="from unittest import mock\nfrom unittest.mock import patch, call, ANY\n"),
        "import random\ndef task_func(n):\n    return [random.randint(0, 9) for _ in range(n)]\n",
    ),
}  # fmt: skip


@pytest.mark.parametrize("name", list(HONEST))
def test_values_of_the_classes_the_tests_use_still_score_1(name):
    test, right = HONEST[name]
    verdict = run(right, test)
    assert verdict.reason == "ok", verdict


def test_many_calls_of_the_program_fit_the_cpu_limit():
    # every call is checked against the state of every loaded library when it began
    test = suite(
        "for i in range(300):",
        "    self.assertEqual(task_func(i), i)",
        "big = np.arange(10**6)",
        "for _ in range(20):",
        "    np.testing.assert_array_equal(task_func(big), big)",
        head=PD_HEAD + NP_HEAD,
    )
    verdict = run(PD_HEAD + "def task_func(n):\n    return n\n", test)
    assert verdict.reason == "ok", verdict

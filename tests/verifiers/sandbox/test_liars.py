"""BigCodeBench (unittest): a program that returns objects that lie to the tests' comparisons
Its tests must share an interpreter with the program, so ``assertEqual(task_func(3),
[0, 1, 2])`` calls whatever ``__eq__`` the returned object's class has. A program whose value is
wrong but whose ``__eq__``, ``__ne__`` or ``__contains__`` says "equal" must not score 1, however
it builds the class (a class statement, ``type()`` at run time, a function compiled under another
file's name), wherever the liar sits (the value itself, inside a list), and whatever the library
class it pretends to be (a list, a dict, a pandas DataFrame).

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


def suite(*lines: str, head: str = "") -> str:
    body = "".join(f"        {line}\n" for line in lines)
    return (
        f"import unittest\n{head}class TestCases(unittest.TestCase):\n    def test(self):\n{body}"
    )


# ---- the tests: task_func(n) is list(range(n)) ------------------------------------------------

EQUAL = suite("self.assertEqual(task_func(3), [0, 1, 2])", "self.assertEqual(task_func(1), [0])")
TRUE_EQ = suite("result = task_func(3)", "self.assertTrue(result == [0, 1, 2])")
LIST_EQUAL = suite("self.assertListEqual(task_func(3), [0, 1, 2])")
IN = suite("self.assertIn(2, task_func(3))", "self.assertIn(1, task_func(2))")
RIGHT = "def task_func(n):\n    return list(range(n))\n"

# ---- the tests: task_func(n) is a DataFrame with column x = range(n) ---------------------------

PD = "import pandas as pd\n"
FRAME_EQUALS = suite(
    "self.assertTrue(task_func(3).equals(pd.DataFrame({'x': [0, 1, 2]})))", head=PD
)
FRAME_RIGHT = PD + "def task_func(n):\n    return pd.DataFrame({'x': list(range(n))})\n"

# ---- the liars: none computes range(n) --------------------------------------------------------

LIES = (
    "    def __eq__(self, other):\n        return True\n"
    "    def __ne__(self, other):\n        return False\n"
    "    def __contains__(self, item):\n        return True\n"
    "    __hash__ = object.__hash__\n"
)
A_CLASS = f"class Liar:\n{LIES}def task_func(n):\n    return Liar()\n"
A_LIST_SUBCLASS = f"class Liar(list):\n{LIES}def task_func(n):\n    return Liar([9])\n"
A_DICT_SUBCLASS = f"class Liar(dict):\n{LIES}def task_func(n):\n    return Liar()\n"
LIARS_IN_A_LIST = f"class Liar:\n{LIES}def task_func(n):\n    return [Liar()] * n\n"
BUILT_BY_TYPE = (
    "def task_func(n):\n"
    "    cls = type('list', (list,), {'__eq__': lambda s, o: True, '__ne__': lambda s, o: False})\n"
    "    return cls([9])\n"
)
# __eq__ compiled under the file name of unittest's own module, made a function by hand
FORGED_FILE = (
    "import types, unittest.case\n"
    "source = 'def __eq__(self, other):\\n    return True\\n'\n"
    "code = compile(source, unittest.case.__file__, 'exec').co_consts[0]\n"
    "class Liar(list):\n    pass\n"
    "Liar.__eq__ = types.FunctionType(code, {}, '__eq__')\n"
    "Liar.__ne__ = types.FunctionType(compile('lambda s, o: False', unittest.case.__file__,\n"
    "                                         'eval').co_consts[0], {}, '__ne__')\n"
    "def task_func(n):\n    return Liar([9])\n"
)
FRAME_SUBCLASS = (
    PD + "class Frame(pd.DataFrame):\n"
    "    def equals(self, other):\n        return True\n"
    "def task_func(n):\n    return Frame({'x': [9] * n})\n"
)
FRAME_SHADOWED = (
    PD + "def task_func(n):\n"
    "    df = pd.DataFrame({'x': [9] * n})\n"
    "    object.__setattr__(df, 'equals', lambda other: True)\n"
    "    return df\n"
)

# a MagicMock of the program's own, told to say "equal"
A_MOCK = (
    "from unittest import mock\n"
    "def task_func(n):\n"
    "    liar = mock.MagicMock()\n"
    "    liar.__eq__.return_value = True\n"
    "    liar.__contains__.return_value = True\n"
    "    return liar\n"
)

ATTACKS = {
    "assertEqual, a class whose __eq__ lies": (EQUAL, A_CLASS),
    "assertEqual, a dict subclass whose __eq__ lies": (EQUAL, A_DICT_SUBCLASS),
    "assertEqual, a list holding liars": (EQUAL, LIARS_IN_A_LIST),
    "assertTrue(a == b), a class whose __eq__ lies": (TRUE_EQ, A_CLASS),
    "assertTrue(a == b), a list holding liars": (TRUE_EQ, LIARS_IN_A_LIST),
    "assertListEqual, a list subclass whose __eq__ lies": (LIST_EQUAL, A_LIST_SUBCLASS),
    "assertListEqual, a liar made by type() at run time": (LIST_EQUAL, BUILT_BY_TYPE),
    "assertListEqual, __eq__ compiled under unittest's file name": (LIST_EQUAL, FORGED_FILE),
    "assertIn, a class whose __contains__ lies": (IN, A_CLASS),
    "assertIn, a list holding liars": (IN, LIARS_IN_A_LIST),
    "assertEqual, a MagicMock told to say equal": (EQUAL, A_MOCK),
    "assertIn, a MagicMock told to say it contains": (IN, A_MOCK),
    "DataFrame.equals, a subclass of the program's": (FRAME_EQUALS, FRAME_SUBCLASS),
    "DataFrame.equals, shadowed on the instance": (FRAME_EQUALS, FRAME_SHADOWED),
}


@pytest.mark.parametrize("name", list(ATTACKS))
def test_a_value_that_lies_to_the_comparison_scores_0(name):
    test, liar = ATTACKS[name]
    right = FRAME_RIGHT if test is FRAME_EQUALS else RIGHT
    assert run(right, test).reason == "ok"  # the tests hold for a right program
    verdict = run(liar, test)
    assert verdict.score == 0, verdict


# ---- what the defence must leave alone --------------------------------------------------------

HONEST = {
    # a class of the program's own that overrides no comparison: its attributes are compared
    "a plain class of the program's": (
        suite(
            "r = task_func(3)",
            "self.assertEqual(r.items, [0, 1, 2])",
            "self.assertIsInstance(r, object)",
        ),
        "class Result:\n    def __init__(self, n):\n        self.items = list(range(n))\n"
        "    def __repr__(self):\n        return f'Result({self.items})'\n"
        "def task_func(n):\n    return Result(n)\n",
    ),
    # a namedtuple of the program's: tuple's own comparison
    "a namedtuple of the program's": (
        suite("self.assertEqual(task_func(3), (0, 2))", "self.assertEqual(task_func(3).last, 2)"),
        "from collections import namedtuple\nSpan = namedtuple('Span', 'first last')\n"
        "def task_func(n):\n    return Span(0, n - 1)\n",
    ),
    # an exception class of the program's, raised and inspected
    "an exception class of the program's": (
        suite(
            "with self.assertRaises(ValueError) as cm:",
            "    task_func(-1)",
            "self.assertIsInstance(cm.exception, ValueError)",
            "self.assertEqual(str(cm.exception), 'negative')",
        ),
        "class Negative(ValueError):\n    def __init__(self):\n        super().__init__('negative')\n"
        "def task_func(n):\n    if n < 0:\n        raise Negative()\n    return list(range(n))\n",
    ),
    # a mock the tests hand in and get back
    "a MagicMock of the tests', returned": (
        suite(
            "given = mock.MagicMock()",
            "self.assertEqual(task_func(given), given)",
            "self.assertIs(task_func(given), given)",
            head="from unittest import mock\n",
        ),
        "def task_func(x):\n    return x\n",
    ),
}


@pytest.mark.parametrize("name", list(HONEST))
def test_values_of_the_programs_own_honest_classes_still_score_1(name):
    test, program = HONEST[name]
    assert run(program, test).reason == "ok"


# ---- the guards themselves --------------------------------------------------------------------

# the guarded task_func is in the tests' scope, which a test method's __globals__ is: the program
# finds it from unittest.TestCase.__subclasses__() and makes every cell of its closure but the
# program's own function a no-op, then returns a liar
DISARM = (
    "import unittest\n"
    f"class Liar:\n{LIES}"
    "def disarm():\n"
    "    for case in unittest.TestCase.__subclasses__():\n"
    "        for v in list(vars(case).values()):\n"
    "            guarded = getattr(v, '__globals__', {}).get('task_func')\n"
    "            for cell in getattr(guarded, '__closure__', None) or ():\n"
    "                if cell.cell_contents is not task_func:\n"
    "                    cell.cell_contents = lambda *a, **k: ''\n"
    "def task_func(n):\n"
    "    disarm()\n"
    "    return Liar()\n"
)


def test_rewriting_the_guard_of_the_programs_function_scores_0():
    verdict = run(DISARM, TRUE_EQ)
    assert verdict.score == 0, verdict

"""BigCodeBench (unittest): the tests' own objects are out of the program's reach.

The rule (docs/guides/sandbox.md#the-tests-data): the program's module holds the program's names
and the modules the test code imports, never the tests' data, functions or classes; the tests'
data (their scope's values and their classes' attributes, ``setUpClass`` ones included) that a
call of the program was not handed must be the same when the call returns (else ``tampered``).
Programs that read the tests' expected values or empty them, by every route listed here, score 0;
right programs, including one that sorts the list the tests hand it in place and one that uses a
module only the test code imports, score 1.

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


MODULE_DATA = (
    "import unittest\n"
    "EXPECTED = {'a': 3, 'b': 1, 'c': 2}\n"
    "class TestCases(unittest.TestCase):\n"
    "    def test_1(self):\n"
    "        self.assertEqual(task_func('aaabcc'), EXPECTED)\n"
)
CLASS_DATA = (
    "import unittest\n"
    "class TestCases(unittest.TestCase):\n"
    "    expected = {'a': 3, 'b': 1, 'c': 2}\n"
    "    def test_1(self):\n"
    "        self.assertEqual(task_func('aaabcc'), self.expected)\n"
)
SET_UP_CLASS_DATA = (
    "import unittest\n"
    "class TestCases(unittest.TestCase):\n"
    "    @classmethod\n"
    "    def setUpClass(cls):\n"
    "        cls.expected = {'a': 3, 'b': 1, 'c': 2}\n"
    "    def test_1(self):\n"
    "        self.assertEqual(task_func('aaabcc'), self.expected)\n"
)
RIGHT = "from collections import Counter\ndef task_func(s):\n    return dict(Counter(s))\n"

# how a program finds the tests' module (its own module, in BigCodeBench's harness) or classes
MODULE = "sys.modules['__test__']"
GLOBALS = "sys.modules[__name__]"
TEST_CLASS = "[c for c in unittest.TestCase.__subclasses__() if c.__module__ == '__test__'][0]"

READS = {
    "module data through sys.modules": (MODULE_DATA, f"dict({MODULE}.EXPECTED)"),
    "module data through the program's globals": (MODULE_DATA, "dict(globals()['EXPECTED'])"),
    "module data through its own module": (MODULE_DATA, f"dict({GLOBALS}.EXPECTED)"),
    "class data through sys.modules": (CLASS_DATA, f"dict({MODULE}.TestCases.expected)"),
    "setUpClass data through sys.modules": (
        SET_UP_CLASS_DATA,
        f"dict({MODULE}.TestCases.expected)",
    ),
}


@pytest.mark.parametrize("how", list(READS))
def test_the_tests_data_is_not_in_the_programs_namespace(how):
    tests, expression = READS[how]
    src = f"import sys, unittest\ndef task_func(s):\n    try:\n        return {expression}\n" \
          "    except Exception:\n        return None\n"  # fmt: skip
    assert run(src, tests).score == 0.0


PROPERTY_DATA = (
    "import unittest\n"
    "EXPECTED = {'a': 3, 'b': 1, 'c': 2}\n"
    "class TestCases(unittest.TestCase):\n"
    "    @property\n"
    "    def want(self):\n"
    "        return EXPECTED\n"
    "    def test_1(self):\n"
    "        self.assertEqual(task_func('aaabcc'), self.want)\n"
)
SUBCLASS_READS = {
    "module data through a property's globals": (
        PROPERTY_DATA,
        f"dict({TEST_CLASS}.want.fget.__globals__['EXPECTED'])",
    ),
    "module data through a test method's globals": (
        MODULE_DATA,
        f"dict({TEST_CLASS}.test_1.__globals__['EXPECTED'])",
    ),
    "module data through a classmethod's globals": (
        SET_UP_CLASS_DATA,
        f"dict({TEST_CLASS}.setUpClass.__func__.__globals__['unittest'].__dict__ and "
        f"{TEST_CLASS}.test_1.__globals__['TestCases'].expected)",
    ),
    "class data through the test class": (CLASS_DATA, f"dict({TEST_CLASS}.expected)"),
    "setUpClass data through the test class": (SET_UP_CLASS_DATA, f"dict({TEST_CLASS}.expected)"),
    "class data through vars()": (CLASS_DATA, f"dict(vars({TEST_CLASS})['expected'])"),
    "a method's defaults": (CLASS_DATA, f"{TEST_CLASS}.test_1.__kwdefaults__"),
}


@pytest.mark.parametrize("how", list(SUBCLASS_READS))
def test_the_tests_data_is_not_reachable_through_their_classes(how):
    tests, expression = SUBCLASS_READS[how]
    src = f"import sys, unittest\ndef task_func(s):\n    try:\n        return {expression}\n" \
          "    except Exception:\n        return None\n"  # fmt: skip
    assert run(src, tests).score == 0.0


EMPTIES = {
    "module data through sys.modules": (MODULE_DATA, f"{MODULE}.EXPECTED"),
    "module data through a test method's globals": (
        MODULE_DATA,
        f"{TEST_CLASS}.test_1.__globals__['EXPECTED']",
    ),
    "class data through the test class": (CLASS_DATA, f"{TEST_CLASS}.expected"),
    "setUpClass data through the test class": (SET_UP_CLASS_DATA, f"{TEST_CLASS}.expected"),
}


@pytest.mark.parametrize("how", list(EMPTIES))
def test_changing_the_tests_data_in_place_scores_0(how):
    tests, expression = EMPTIES[how]
    src = (
        "import sys, unittest\n"
        "def task_func(s):\n"
        "    try:\n"
        f"        {expression}.clear()\n"
        "    except Exception:\n"
        "        pass\n"
        "    return {}\n"
    )
    verdict = run(src, tests)
    assert verdict.score == 0.0


def test_changing_the_tests_data_when_the_program_loads_scores_0():
    src = (
        "import unittest\n"
        f"{TEST_CLASS}.test_1.__globals__['EXPECTED'].clear()\n"
        "def task_func(s):\n    return {}\n"
    )
    # at load time the test class exists: the tests are made before the program loads
    assert run(src, MODULE_DATA).score == 0.0


CLASS_HELPERS = (  # the tests' class data and helpers, reached as tests reach them
    "import unittest\n"
    "class Base(unittest.TestCase):\n"
    "    shared = [1]\n"
    "    def check(self, got):\n"
    "        self.assertEqual(got, self.expected)\n"
    "class TestCases(Base):\n"
    "    expected = {'a': 3, 'b': 1, 'c': 2}\n"
    "    @classmethod\n"
    "    def setUpClass(cls):\n"
    "        super().setUpClass()\n"
    "        cls.extra = cls.shared + [2]\n"
    "    @classmethod\n"
    "    def tearDownClass(cls):\n"
    "        assert cls.extra == [1, 2] and cls.expected\n"
    "    @staticmethod\n"
    "    def word():\n"
    "        return 'aaabcc'\n"
    "    def test_1(self):\n"
    "        self.check(task_func(self.word()))\n"
    "        self.assertEqual(self.extra, [1, 2])\n"
)


@pytest.mark.parametrize(
    "tests", [MODULE_DATA, CLASS_DATA, SET_UP_CLASS_DATA, CLASS_HELPERS, PROPERTY_DATA]
)
def test_a_right_program_still_scores_1(tests):
    assert run(RIGHT, tests).reason == "ok"


def test_a_program_may_change_what_the_tests_hand_it():
    tests = (
        "import unittest\n"
        "DATA = [3, 1, 2]\n"
        "class TestCases(unittest.TestCase):\n"
        "    def test_1(self):\n"
        "        self.assertEqual(task_func(DATA), [1, 2, 3])\n"
    )
    src = "def task_func(xs):\n    xs.sort()\n    return xs\n"
    assert run(src, tests).reason == "ok"


def test_a_program_sees_the_modules_the_test_code_imports():
    # BigCodeBench runs both in one module: a program that forgets `import json` passes there
    tests = (
        "import unittest, json\n"
        "class TestCases(unittest.TestCase):\n"
        "    def test_1(self):\n"
        "        self.assertEqual(task_func({'a': 1}), '{\"a\": 1}')\n"
    )
    src = "def task_func(d):\n    return json.dumps(d)\n"
    assert run(src, tests).reason == "ok"


def test_the_programs_own_constants_the_tests_see_are_not_the_tests_data():
    # BigCodeBench's one namespace: the tests use the program's constant; loading the program
    # binds it there (a rebinding of a name of the tests' scope that is the program's own)
    tests = (
        "import unittest\n"
        "class TestCases(unittest.TestCase):\n"
        "    def test_1(self):\n"
        "        self.assertEqual(task_func(), len(WORDS))\n"
    )
    src = "WORDS = ['a', 'b', 'c']\ndef task_func():\n    return len(WORDS)\n"
    assert run(src, tests).reason == "ok"


@pytest.mark.parametrize(
    "helper",
    [
        "def fake_get(*args, **kwargs):\n    return RESPONSES.pop(0)\n",  # at module level
        "class Fake:\n    def get(self, *args):\n        return RESPONSES.pop(0)\n"
        "fake_get = Fake().get\n",  # a helper class's method
    ],
    ids=["function", "method"],
)
def test_the_tests_own_helpers_may_change_the_data_they_use_while_the_program_runs(helper):
    # a mock's side_effect, a function of the tests, runs inside the program's call and consumes
    # the tests' canned responses: that is the tests' doing, not tampering
    tests = (
        "import unittest\nfrom unittest.mock import patch\n"
        f"{helper}"
        "RESPONSES = [1, 2]\n"
        "class TestCases(unittest.TestCase):\n"
        "    @patch('os.getpid', side_effect=fake_get)\n"
        "    def test_1(self, m):\n"
        "        self.assertEqual(task_func(), 1)\n"
    )
    src = "import os\ndef task_func():\n    return os.getpid()\n"
    assert run(src, tests).reason == "ok"


def test_a_program_sees_the_names_the_test_code_imports():
    tests = (
        "import unittest\nfrom string import punctuation\n"
        "class TestCases(unittest.TestCase):\n"
        "    def test_1(self):\n"
        "        self.assertEqual(task_func('a,b'), 'ab')\n"
    )
    src = "def task_func(s):\n    return ''.join(c for c in s if c not in punctuation)\n"
    assert run(src, tests).reason == "ok"

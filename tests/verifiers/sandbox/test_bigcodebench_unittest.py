"""BigCodeBench (unittest) in the sandbox: the patterns BigCodeBench's tests use score 1
for a right program and 0 for a wrong one, and the attacks on the unittest runner score 0.

Every task here is written for this file in BigCodeBench's shape (a ``task_func``, a ``TestCases``
class); none is taken from BigCodeBench. ``scripts/bench/bigcodebench_golds.py`` scores the real
task set's canonical solutions."""

import json

import pytest

from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.sandbox import Limits

LIMITS = Limits(wall_seconds=40.0, cpu_seconds=12, memory_mb=2048)


def run(src: str, test: str, limits: Limits = LIMITS):
    truth = json.dumps({"test": test, "entry_point": "task_func"})
    return code_scorer.score(f"```python\n{src}\n```", truth, limits=limits)


# ---- BigCodeBench's patterns: (tests, right program, wrong program) -------------------------

RAISES = (
    "import unittest\n"
    "class TestCases(unittest.TestCase):\n"
    "    def test_values(self):\n"
    "        self.assertEqual(task_func(3), [0, 1, 2])\n"
    "    def test_negative(self):\n"
    "        with self.assertRaises(ValueError):\n"
    "            task_func(-1)\n"
    "    def test_not_an_int(self):\n"
    "        self.assertRaisesRegex(ValueError, 'non-negative', task_func, 'x')\n",
    "def task_func(n):\n"
    "    if not isinstance(n, int) or n < 0:\n"
    "        raise ValueError('n must be a non-negative int')\n"
    "    return list(range(n))\n",
    "def task_func(n):\n    return list(range(n)) if isinstance(n, int) else []\n",
)

PATCH = (
    "import unittest\nfrom unittest.mock import patch\n"
    "class TestCases(unittest.TestCase):\n"
    "    @patch('random.randint', return_value=3)\n"
    "    def test_sum(self, mock_randint):\n"
    "        self.assertEqual(task_func(4), 12)\n"
    "        self.assertEqual(mock_randint.call_count, 4)\n"
    "    def test_range(self):\n"
    "        self.assertTrue(5 <= task_func(5) <= 30)\n",
    "import random\ndef task_func(n):\n    return sum(random.randint(1, 6) for _ in range(n))\n",
    "import random\ndef task_func(n):\n    return n * random.randint(1, 6)\n",  # one call, not n
)

MOCK = (
    "import os\nimport unittest\nfrom unittest import mock\n"
    "class TestCases(unittest.TestCase):\n"
    "    def test_items(self):\n"
    "        client = mock.MagicMock()\n"
    "        client.get.return_value.json.return_value = {'items': [1, 2, 3]}\n"
    "        with mock.patch.object(os.path, 'exists', return_value=True):\n"
    "            self.assertEqual(task_func('cfg.json', client), 3)\n"
    "        client.get.assert_called_once_with('cfg.json')\n"
    "    def test_missing(self):\n"
    "        with mock.patch.object(os.path, 'exists', return_value=False):\n"
    "            with self.assertRaises(FileNotFoundError):\n"
    "                task_func('cfg.json', mock.MagicMock())\n",
    "import os\ndef task_func(path, client):\n"
    "    if not os.path.exists(path):\n        raise FileNotFoundError(path)\n"
    "    return len(client.get(path).json()['items'])\n",
    "def task_func(path, client):\n    return len(client.get(path).json()['items'])\n",
)

TEMPFILES = (
    "import os, shutil, tempfile, unittest\n"
    "class TestCases(unittest.TestCase):\n"
    "    def setUp(self):\n        self.dir = tempfile.mkdtemp()\n"
    "    def tearDown(self):\n        shutil.rmtree(self.dir)\n"
    "    def test_write(self):\n"
    "        path = task_func(self.dir, 'hello')\n"
    "        self.assertEqual(path, os.path.join(self.dir, 'greeting.txt'))\n"
    "        with open(path) as f:\n            self.assertEqual(f.read(), 'hello')\n",
    "import os\ndef task_func(folder, text):\n"
    "    path = os.path.join(folder, 'greeting.txt')\n"
    "    with open(path, 'w') as f:\n        f.write(text)\n    return path\n",
    "import os\ndef task_func(folder, text):\n"
    "    with open('greeting.txt', 'w') as f:\n        f.write(text)\n"
    "    return os.path.join(folder, 'greeting.txt')\n",
)

SET_UP_CLASS = (
    "import unittest\n"
    "class TestCases(unittest.TestCase):\n"
    "    @classmethod\n"
    "    def setUpClass(cls):\n        cls.data = {'pear': 3, 'apple': 1, 'fig': 2}\n"
    "    @classmethod\n"
    "    def tearDownClass(cls):\n        del cls.data\n"
    "    def test_order(self):\n"
    "        self.assertEqual(task_func(self.data), ['apple', 'fig', 'pear'])\n",
    "def task_func(d):\n    return sorted(d)\n",
    "def task_func(d):\n    return list(d)\n",
)

SUB_TEST = (
    "import unittest\n"
    "class TestCases(unittest.TestCase):\n"
    "    def test_factorials(self):\n"
    "        for n, want in [(0, 1), (1, 1), (5, 120)]:\n"
    "            with self.subTest(n=n):\n                self.assertEqual(task_func(n), want)\n",
    "import math\ndef task_func(n):\n    return math.factorial(n)\n",
    "def task_func(n):\n    return n * max(1, n - 1) * (n > 1) + (n == 1)\n",  # 0 -> 0
)

PANDAS = (
    "import unittest\nimport pandas as pd\n"
    "class TestCases(unittest.TestCase):\n"
    "    def test_totals(self):\n"
    "        df = pd.DataFrame({'team': ['b', 'a', 'b', 'a'], 'score': [1, 2, 3, 4]})\n"
    "        want = pd.DataFrame({'team': ['a', 'b'], 'score': [6, 4]})\n"
    "        pd.testing.assert_frame_equal(task_func(df), want)\n"
    "    def test_bad_input(self):\n"
    "        with self.assertRaises(KeyError):\n"
    "            task_func(pd.DataFrame({'x': [1]}))\n",
    "import pandas as pd\ndef task_func(df):\n"
    "    return df.groupby('team', as_index=False)['score'].sum()\n",
    "import pandas as pd\ndef task_func(df):\n"
    "    return df.groupby('team', as_index=False)['score'].mean()\n",
)

FILE_OPS = (
    "import os, shutil, tempfile, unittest\n"
    "class TestCases(unittest.TestCase):\n"
    "    def setUp(self):\n"
    "        self.src, self.dst = tempfile.mkdtemp(), tempfile.mkdtemp()\n"
    "        for name in ('a.txt', 'b.txt', 'c.log'):\n"
    "            with open(os.path.join(self.src, name), 'w') as f:\n                f.write(name)\n"
    "    def tearDown(self):\n"
    "        shutil.rmtree(self.src)\n        shutil.rmtree(self.dst)\n"
    "    def test_move(self):\n"
    "        self.assertEqual(task_func(self.src, self.dst, '.txt'), 2)\n"
    "        self.assertEqual(sorted(os.listdir(self.dst)), ['a.txt', 'b.txt'])\n"
    "        self.assertEqual(os.listdir(self.src), ['c.log'])\n",
    "import os, shutil\ndef task_func(src, dst, ext):\n"
    "    names = [n for n in os.listdir(src) if n.endswith(ext)]\n"
    "    for n in names:\n        shutil.move(os.path.join(src, n), os.path.join(dst, n))\n"
    "    return len(names)\n",
    "import os, shutil\ndef task_func(src, dst, ext):\n"
    "    names = [n for n in os.listdir(src) if n.endswith(ext)]\n"
    "    for n in names:\n        shutil.copy(os.path.join(src, n), os.path.join(dst, n))\n"
    "    return len(names)\n",
)

CSV = (
    "import csv, os, tempfile, unittest\n"
    "class TestCases(unittest.TestCase):\n"
    "    def setUp(self):\n"
    "        self.path = os.path.join(tempfile.mkdtemp(), 'data.csv')\n"
    "        with open(self.path, 'w', newline='') as f:\n"
    "            w = csv.writer(f)\n            w.writerow(['name', 'x'])\n"
    "            w.writerows([['a', 1], ['b', 2], ['c', 6]])\n"
    "    def test_mean(self):\n"
    "        self.assertAlmostEqual(task_func(self.path, 'x'), 3.0)\n",
    "import csv\ndef task_func(path, column):\n"
    "    with open(path, newline='') as f:\n        values = [float(r[column]) for r in csv.DictReader(f)]\n"
    "    return sum(values) / len(values)\n",
    "import csv\ndef task_func(path, column):\n"
    "    with open(path, newline='') as f:\n        return sum(float(r[column]) for r in csv.DictReader(f))\n",
)

PLOT = (
    "import unittest\nimport matplotlib.pyplot as plt\n"
    "class TestCases(unittest.TestCase):\n"
    "    def tearDown(self):\n        plt.close('all')\n"
    "    def test_plot(self):\n"
    "        ax = task_func([3, 1, 2])\n"
    "        self.assertEqual(ax.get_title(), 'Values')\n"
    "        self.assertEqual(list(ax.lines[0].get_ydata()), [3, 1, 2])\n",
    "import matplotlib.pyplot as plt\ndef task_func(values):\n"
    "    fig, ax = plt.subplots()\n    ax.plot(values)\n    ax.set_title('Values')\n    return ax\n",
    "import matplotlib.pyplot as plt\ndef task_func(values):\n"
    "    fig, ax = plt.subplots()\n    ax.plot(sorted(values))\n    ax.set_title('Values')\n"
    "    return ax\n",
)

SQLITE = (
    "import os, sqlite3, tempfile, unittest\n"
    "class TestCases(unittest.TestCase):\n"
    "    def setUp(self):\n"
    "        self.db = os.path.join(tempfile.mkdtemp(), 'shop.db')\n"
    "        with sqlite3.connect(self.db) as con:\n"
    "            con.execute('create table sales (item text, qty int)')\n"
    "            con.executemany('insert into sales values (?, ?)',\n"
    "                            [('tea', 2), ('cake', 1), ('tea', 3)])\n"
    "    def test_totals(self):\n"
    "        self.assertEqual(task_func(self.db), {'cake': 1, 'tea': 5})\n",
    "import sqlite3\ndef task_func(db):\n"
    "    with sqlite3.connect(db) as con:\n"
    "        rows = con.execute('select item, sum(qty) from sales group by item').fetchall()\n"
    "    return dict(rows)\n",
    "import sqlite3\ndef task_func(db):\n"
    "    with sqlite3.connect(db) as con:\n"
    "        rows = con.execute('select item, max(qty) from sales group by item').fetchall()\n"
    "    return dict(rows)\n",
)

SYMPY = (  # sympy reads its caller's frame at import: the program imports it, the tests do not
    "import unittest\n"
    "class TestCases(unittest.TestCase):\n"
    "    def test_roots(self):\n"
    "        self.assertEqual(task_func(1, -3, 2), [1, 2])\n",
    "from sympy import solve, symbols\ndef task_func(a, b, c):\n"
    "    x = symbols('x')\n    return sorted(int(r) for r in solve(a * x**2 + b * x + c, x))\n",
    "from sympy import solve, symbols\ndef task_func(a, b, c):\n"
    "    x = symbols('x')\n    return sorted(int(r) for r in solve(a * x**2 + b * x - c, x))\n",
)

PATTERNS = {
    "assertRaises": RAISES,
    "patch": PATCH,
    "patch.object+MagicMock": MOCK,
    "tempfile+setUp/tearDown": TEMPFILES,
    "setUpClass": SET_UP_CLASS,
    "subTest": SUB_TEST,
    "pandas": PANDAS,
    "os/shutil": FILE_OPS,
    "csv": CSV,
    "matplotlib": PLOT,
    "sqlite (file locks are no-ops)": SQLITE,
    "sympy imported by the program": SYMPY,
}


@pytest.mark.parametrize("name", list(PATTERNS))
def test_a_right_program_scores_1(name):
    tests, right, _ = PATTERNS[name]
    verdict = run(right, tests)
    assert verdict.reason == "ok", verdict


@pytest.mark.parametrize("name", list(PATTERNS))
def test_a_wrong_program_scores_0(name):
    tests, _, wrong = PATTERNS[name]
    assert run(wrong, tests).reason == "tests_failed"


# ---- attacks on the runner: none of these programs solves its task -------------------------

SQUARE = (
    "import unittest\n"
    "class TestCases(unittest.TestCase):\n"
    "    def test_two(self):\n        self.assertEqual(task_func(2), 4)\n"
    "    def test_five(self):\n        self.assertEqual(task_func(5), 25)\n"
)
WRONG = "def task_func(x):\n    return 0\n"


def test_swapping_outcome_and_restoring_it_in_teardown_module_scores_0():
    # unittest's _Outcome swallows every failure while the tests run; tearDownModule, which
    # unittest looks up on the tests' module, puts the real one back before any check
    src = (
        "import contextlib, sys, unittest.case\n"
        "real = unittest.case._Outcome\n"
        "class Outcome(real):\n"
        "    @contextlib.contextmanager\n"
        "    def testPartExecutor(self, test_case, subTest=False):\n"
        "        try:\n            yield\n        except Exception:\n            pass\n"
        "unittest.case._Outcome = Outcome\n"
        "def tearDownModule():\n    unittest.case._Outcome = real\n"
        "sys.modules['__main__'].tearDownModule = tearDownModule\n" + WRONG
    )
    assert run(src, SQUARE).score == 0.0


def test_a_forked_child_cannot_rewrite_the_report():
    # the child keeps the result file the harness inherited, waits until the runner has written
    # its (failing) report, and writes a passing one over it before the sandbox is torn down
    src = (
        "import json, os, stat\n" + WRONG + "if os.fork() == 0:\n"
        "    found = []\n"
        "    for fd in range(3, 256):\n"
        "        try:\n"
        "            if stat.S_ISREG(os.fstat(fd).st_mode):\n                found.append(fd)\n"
        "        except OSError:\n            pass\n"
        "    while True:\n"
        "        for fd in found:\n"
        "            try:\n                data = os.pread(fd, 1 << 20, 0)\n"
        "            except OSError:\n                continue\n"
        "            if data.endswith(b'\\n') and b' ' in data:\n"
        "                head, _, body = data.partition(b' ')\n"
        "                report = json.loads(body)\n"
        "                report.update(passed=report.get('ids', []), failed=[], error='',\n"
        "                              tampered=False)\n"
        "                line = head + b' ' + json.dumps(report).encode() + b'\\n'\n"
        "                os.pwrite(fd, line + b' ' * max(0, len(data) - len(line)), 0)\n"
        "                os._exit(0)\n"
    )
    assert run(src, SQUARE).score == 0.0


def test_rewriting_an_assertion_method_code_scores_0():
    # a function's code object can be swapped in place: its identity stays the same
    src = (
        "import unittest\n"
        "unittest.TestCase.assertEqual.__code__ = (lambda self, a, b, msg=None: None).__code__\n"
        + WRONG
    )
    assert run(src, SQUARE).score == 0.0


def test_the_tests_constants_are_out_of_reach():
    # the expected value is a constant of the test method's code object
    test = (
        "import unittest\n"
        "class TestCases(unittest.TestCase):\n"
        "    def test_secret(self):\n"
        "        self.assertEqual(task_func(), 'a7f3c9 the expected answer')\n"
    )
    src = (
        "import unittest\n"
        "def task_func():\n"
        "    for cls in unittest.TestCase.__subclasses__():\n"
        "        for f in vars(cls).values():\n"
        "            for c in getattr(getattr(f, '__code__', None), 'co_consts', ()):\n"
        "                if isinstance(c, str) and c.startswith('a7f3c9'):\n"
        "                    return c\n"
    )
    assert run(src, test).score == 0.0


FRAME_GRABS = {
    "sys._getframe": "sys._getframe(1)",
    "inspect": "inspect.currentframe()",
    "a traceback": "sys.exc_info()[2].tb_frame if sys.exc_info()[2] else None",
    # the real sys._getframe, which the traceback stand-ins hold, called from the program
    "the stand-ins' getframe": "traceback.extract_stack.__kwdefaults__['_getframe'](1)",
    # the stand-ins' trusted walker, handed a getframe of the program's: it is called from the
    # walker's frame, but the frame that asks for frames is the program's own
    "the trusted walker": "traceback.extract_stack.__kwdefaults__['_entries'](spy, 0) and seen[-1]",
}


@pytest.mark.parametrize("how", list(FRAME_GRABS))
def test_frames_above_the_program_are_out_of_reach(how):
    # what the program could find by walking up the stack: the caller's locals (here the
    # expected value), the runner's state, the report's key
    test = (
        "import unittest\n"
        "class TestCases(unittest.TestCase):\n"
        "    def test_secret(self):\n"
        "        expected = 'b81e the expected answer'\n"
        "        self.assertEqual(task_func(), expected)\n"
    )
    src = (
        "import inspect, sys, traceback\n"
        "seen = []\n"
        "def spy(depth):\n"
        "    f = traceback.extract_stack.__kwdefaults__['_getframe'](1)\n"
        "    seen.append(f)\n"
        "    return f\n"
        "def task_func():\n"
        "    try:\n"
        f"        f = {FRAME_GRABS[how]}\n"
        "    except Exception:\n"
        "        return None\n"
        "    while f is not None:\n"
        "        value = f.f_locals.get('expected')\n"
        "        if value is not None:\n            return value\n"
        "        f = f.f_back\n"
    )
    assert run(src, test).score == 0.0


def test_tracebacks_and_stack_summaries_still_work():
    # what libraries do with frames, through the stand-ins: pyparsing's extract_stack at import,
    # format_exc, logging.exception; none hands the program a frame
    test = (
        "import io, logging, traceback, unittest\n"
        "class TestCases(unittest.TestCase):\n"
        "    def test_stack(self):\n"
        "        self.assertEqual(traceback.extract_stack(limit=1)[-1].name, 'test_stack')\n"
        "        self.assertEqual(task_func(), 'task_func')\n"
        "    def test_traceback(self):\n"
        "        try:\n            task_func(0)\n"
        "        except ZeroDivisionError:\n            text = traceback.format_exc()\n"
        "        self.assertIn('in task_func', text)\n"
        "    def test_logging(self):\n"
        "        out = io.StringIO()\n"
        "        log = logging.getLogger('t')\n        log.addHandler(logging.StreamHandler(out))\n"
        "        try:\n            1 / 0\n"
        "        except ZeroDivisionError:\n            log.exception('boom')\n"
        "        self.assertIn('ZeroDivisionError', out.getvalue())\n"
    )
    src = (
        "import traceback\n"
        "def task_func(x=None):\n"
        "    if x is not None:\n        return 1 / x\n"
        "    return traceback.extract_stack()[-1].name\n"
    )
    assert run(src, test).reason == "ok"


def test_a_program_that_does_not_compile_fails_its_tests():
    assert run("def task_func(x) return x\n", SQUARE).reason == "tests_failed"

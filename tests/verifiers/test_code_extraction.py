"""Which program a code response is judged on (docs/guides/rewards.md): the one in the answer
region (the ``<answer>`` content, else the text after ``</think>``), fenced or not, before any
draft inside ``<think>...</think>``; the solution block, not a later example-usage block; for a
stdin/stdout program the last block that does something; a fence indented inside a Markdown list
item is read without its indentation, and a Markdown indented code block is a program; a fence tagged with a file name (```python title="sol.py"```,
```sol.py```, ```python:sol.py```) is a Python fence, as a person reads it; fences are scanned in
one linear pass. And whether a ground truth holds any test at all (an empty test set is a bad
ground truth that ``pac-verl prep check`` refuses)."""

import json

import pytest

from pac_verl.data_prep.check import check_file
from pac_verl.data_prep.rows import make_row, write_parquet
from pac_verl.errors import UserError
from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.code import extract_code, extract_programs, fenced_blocks, has_tests
from pac_verl.verifiers.sandbox import Limits

LIMITS = Limits(wall_seconds=6.0, cpu_seconds=3, memory_mb=512)
ADD = json.dumps({"functional": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"})
SOLUTION = "def add(a, b):\n    return a + b\n"


def test_a_solution_followed_by_an_example_block_is_judged_on_the_solution():
    response = (
        f"Here is the function:\n```python\n{SOLUTION}```\nExample usage:\n"
        "```python\nprint(add(2, 3))  # 5\n```\n"
    )
    assert extract_code(response) == SOLUTION
    assert code_scorer.score(response, ADD, limits=LIMITS).reason == "ok"


def test_fences_of_other_languages_and_unterminated_fences_are_skipped():
    text = "```text\n3\n```\n```py\nx = 1\n```\n```bash\nls\n```\n```python\nnever closed"
    assert fenced_blocks(text) == ["x = 1\n"]
    # a long unterminated fence is one find() to the end: it yields nothing and does not rescan
    assert fenced_blocks("```python\n" + "x" * 1_000_000) == []
    # many fences: each block is found once, in order
    assert fenced_blocks("```python\na\n```\n" * 1000) == ["a\n"] * 1000


def test_stdio_program_is_the_last_block_that_does_something():
    response = "```python\nn = int(input())\nprint(n * 2)\n```\nSample input:\n```\n3\n```"
    assert extract_code(response) == "n = int(input())\nprint(n * 2)\n"


@pytest.mark.parametrize(
    ("truth", "expected"),
    [
        ({"functional": "assert f(1) == 2"}, True),
        ({"functional": "x = 1"}, False),
        ({"inputs": ["1"], "outputs": ["1"]}, True),
        ({"inputs": [], "outputs": []}, False),
        (
            {"test": "import unittest\nclass T(unittest.TestCase):\n    def test_a(self): pass\n"},
            True,
        ),
        ({"test": "import unittest\nclass T(unittest.TestCase):\n    pass\n"}, False),
    ],
)
def test_has_tests(truth, expected):
    assert has_tests(json.dumps(truth)) is expected


def test_prep_check_rejects_an_empty_code_test_set(tmp_path):
    rows = [
        make_row(data_source="code", prompt="write add", task_type="code",
                 ground_truth={"functional": "assert add(1, 1) == 2"}, split="train", index=0),
        make_row(data_source="code", prompt="write add", task_type="code",
                 ground_truth={"functional": "# no tests"}, split="train", index=1),
    ]  # fmt: skip
    path = write_parquet(rows, tmp_path / "code.parquet")
    with pytest.raises(UserError, match=r"row 1 \(code: bad_ground_truth\)"):
        check_file(path, quiet=True)


ADD_SRC = "def add(a, b):\n    return a + b\n"
WRONG_ADD = "def add(a, b):\n    return a - b\n"
DOUBLE = json.dumps({"inputs": ["3\n", "10\n"], "outputs": ["6\n", "20\n"]})
DOUBLE_SRC = "n = int(input())\nprint(n * 2)\n"


def score(response: str, truth: str = ADD):
    return code_scorer.score(response, truth, limits=LIMITS)


# ---- the answer region before the reasoning's drafts ------------------------------------------

DRAFT = f"<think>\nA first try:\n```python\n{WRONG_ADD}```\nNo, that subtracts.\n</think>\n"


@pytest.mark.parametrize(
    "answer",
    [
        f"\n{ADD_SRC}",  # the bare program after </think>
        f"Here is the final solution:\n\n{ADD_SRC}\nIt runs in constant time.\n",
        f"<answer>\n{ADD_SRC}</answer>",
        f"<answer>\nThe program:\n{ADD_SRC}\nDone.\n</answer>",
    ],
    ids=["bare", "prose-around", "answer-tag", "answer-tag-prose"],
)
def test_an_unfenced_final_program_wins_over_a_fenced_draft_in_the_reasoning(answer):
    response = DRAFT + answer
    assert extract_code(response) == ADD_SRC
    assert score(response).reason == "ok"


def test_a_fenced_final_program_wins_over_a_draft():
    response = DRAFT + f"```python\n{ADD_SRC}```"
    assert extract_programs(response) == [ADD_SRC]


@pytest.mark.parametrize(
    "src",
    [
        DOUBLE_SRC,
        "n, = map(int, input().split())\nprint(n * 2)\n",  # a tuple assignment first
        "import sys\nprint(int(sys.stdin.read()) * 2)\n",
        "print(int(input()) * 2)\n",
        "if True:\n    print(int(input()) * 2)\n",
    ],
)
def test_an_unfenced_stdin_program_after_the_reasoning(src):
    response = "<think>\n```python\nprint(int(input()) + 2)\n```\n</think>\n" + src
    assert extract_code(response) == src
    assert score(response, DOUBLE).reason == "ok"


def test_a_response_that_is_only_a_program_is_judged():
    assert score(ADD_SRC).reason == "ok"
    assert score(DOUBLE_SRC, DOUBLE).reason == "ok"


def test_the_drafts_are_judged_when_the_answer_region_holds_no_program():
    # the answer points back at the reasoning's code: that code is the program, as before
    response = f"<think>\n```python\n{ADD_SRC}```\n</think>\nThe function above adds."
    assert extract_code(response) == ADD_SRC


@pytest.mark.parametrize("after", ["", "\n", "  \n\n"])
def test_a_response_that_ends_with_its_reasoning_has_no_program(after):
    # nothing after </think>: no final answer, whatever the reasoning drafted
    response = f"<think>\nThe code would be:\n```python\n{ADD_SRC}```\n</think>{after}"
    assert extract_code(response) is None
    assert score(response).score == 0.0


@pytest.mark.parametrize(
    "answer",
    [
        "The answer is 5.",
        "42",
        "Yes",
        "I could not solve this one.",
        "add(a, b) returns a + b.",
    ],
)
def test_prose_is_not_a_program(answer):
    assert extract_programs(f"<think>\nhmm\n</think>\n{answer}") == []


# ---- fences as a person reads them --------------------------------------------------------------


def test_a_fence_indented_in_a_list_item_is_read_without_its_indentation():
    response = (
        "1. Read the number.\n"
        "2. Print its double:\n"
        "   ```python\n"
        "   n = int(input())\n"
        "   if n >= 0:\n"
        "       print(n * 2)\n"
        "   else:\n"
        "       print(n * 2)\n"
        "   ```\n"
    )
    assert extract_code(response).startswith("n = int(input())\nif n >= 0:\n    print(n * 2)\n")
    assert score(response, DOUBLE).reason == "ok"
    bullet = "- The solution:\n\n  ```python\n  def add(a, b):\n      return a + b\n  ```\n"
    assert score(bullet).reason == "ok"


@pytest.mark.parametrize(
    "tag",
    [
        'python title="sol.py"',
        "python title='solution.py'",
        "sol.py",
        "solution.py",
        "python:sol.py",
        "py:sol.py",
        "src/sol.py",
        "Python",
        "python3 {.numberLines}",
        'title="sol.py"',
    ],
)
def test_a_fence_tagged_with_a_file_name_is_python(tag):
    response = f"```{tag}\n{ADD_SRC}```"
    assert fenced_blocks(response) == [ADD_SRC]
    assert score(response).reason == "ok"


def test_a_markdown_indented_code_block_is_the_program():
    """CommonMark's other code block: four spaces (or a tab) after a blank line, blank lines
    inside kept; prose around it, and an indented line that continues a paragraph, is not code."""
    indented = "Here is my solution:\n\n    def add(a, b):\n\n        return a + b\n\nIt adds."
    assert extract_code(indented) == "def add(a, b):\n\n    return a + b\n"
    assert score(indented).reason == "ok"
    tabbed = "<think>\nadd them\n</think>\n\n\tdef add(a, b):\n\t    return a - b\n"
    assert score(tabbed).reason == "tests_failed"  # a wrong program in a tab-indented block
    stdin = "Read n, print its double.\n\n    n = int(input())\n    print(n * 2)\n"
    assert score(stdin, DOUBLE).reason == "ok"
    continued = "The solution:\n    def add(a, b):\n        return a + b\n"
    assert extract_programs(continued) == []  # a paragraph's continuation, not a block
    prose = "Steps:\n\n    first add the numbers, then return them.\n"
    assert extract_programs(prose) == []


@pytest.mark.parametrize("tag", ["text", "bash", "json", "cpp", "sol.cpp", 'bash title="x.py"'])
def test_a_fence_of_another_language_is_skipped(tag):
    assert fenced_blocks(f"```{tag}\n{ADD_SRC}```") == []


def test_fence_scanning_stays_linear():
    # a long line of fences, none at a line start; a long indented run
    assert fenced_blocks("x ```a``` " * 20000) == []
    assert fenced_blocks(" " * 1_000_000 + "```python\nx = 1\n```") == ["x = 1\n"]


def test_whitespace_after_the_fence_does_not_push_the_program_out_of_the_window():
    # 25,000 newlines after the answer: a reader sees the fence at the end of the response
    response = f"```python\n{SOLUTION}```" + "\n" * 25_000
    assert extract_code(response) == SOLUTION


@pytest.mark.parametrize(
    "test", ["assert 2 + 3 == 5\n", "assert (2 + 3) == 5, 'sum'\nprint('ok')\n"]
)
def test_a_block_of_asserts_after_a_stdin_program_is_a_test_not_an_alternative(test):
    ground_truth = json.dumps({"inputs": ["2 3\n"], "outputs": ["5\n"]})
    program = "a, b = map(int, input().split())\nprint(a + b)\n"
    response = f"```python\n{program}```\n\nTest:\n```python\n{test}```"
    assert extract_programs(response, ground_truth) == [program]

"""What the code scorer reads: the program a response is judged on (the solution block, not a
later example-usage block; for a stdin/stdout program the last block that does something; fences
scanned in one linear pass), and whether a ground truth holds any test at all (an empty test set
is a bad ground truth that ``pac-verl prep check`` refuses)."""

import json

import pytest

from pac_verl.data_prep.check import check_file
from pac_verl.data_prep.rows import make_row, write_parquet
from pac_verl.errors import UserError
from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.code import extract_code, fenced_blocks, has_tests
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

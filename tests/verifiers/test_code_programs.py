"""Code (docs/concepts/spec.md#rewards, docs/concepts/spec.md#code-sandbox): which program a response is judged on, and programs that use the
stdlib modules that read their caller's frame. Rows of this kind are in
scripts/bench/labelled_responses.jsonl; each test here was written from a row our scorer got wrong.
"""

import json

import pytest

from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.code import extract_programs
from pac_verl.verifiers.sandbox import Budget, Limits

LIMITS = Limits(wall_seconds=6.0, cpu_seconds=3, memory_mb=512, output_bytes=1 << 20)
FIB = json.dumps({"functional": "assert fib(10) == 55\nassert fib(1) == 1"})
FIB_SRC = (
    "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = b, a + b\n    return a"
)


def answer(*blocks: str, between: str = "\n") -> str:
    fences = between.join(f"```python\n{b}\n```" for b in blocks)
    return f"<think>\nwork\n</think>\n<answer>\n{fences}\n</answer>"


def run(response: str, truth: str = FIB):
    return code_scorer.score(response, truth, limits=LIMITS)


@pytest.mark.parametrize(
    "src",
    [
        # functools builds a namedtuple at import, which reads its caller's frame
        "from functools import lru_cache\n@lru_cache(None)\n"
        "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)",
        "from typing import List\n" + FIB_SRC,  # TypeVar reads its caller's frame
        "import collections\nP = collections.namedtuple('P', 'a b')\n" + FIB_SRC,
        "import warnings\nwarnings.warn('slow')\n" + FIB_SRC,  # warn looks up the caller's frame
    ],
    ids=["functools", "typing", "namedtuple", "warnings"],
)
def test_a_correct_program_using_frame_reading_stdlib_scores_one(src):
    # the sandbox denies sys._getframe; denied with a PermissionError, these all scored 0
    assert run(answer(src)).reason == "ok"


@pytest.mark.parametrize("module", ["types", "re", "enum", "dataclasses", "weakref", "heapq"])
def test_a_correct_program_importing_common_stdlib_scores_one(module):
    # ``types`` reads a traceback's frame at import; loaded after the hooks, it failed
    assert run(answer(f"import {module}\n" + FIB_SRC)).reason == "ok"


def test_getframe_is_still_out_of_reach():
    src = "import sys\ndef fib(n):\n    return sys._getframe(1).f_code.co_consts[-1]"
    assert run(answer(src)).score == 0.0


def test_a_helper_in_an_earlier_fence_is_part_of_the_program():
    helper = "def step(a, b):\n    return b, a + b"
    main = "def fib(n):\n    a, b = 0, 1\n    for _ in range(n):\n        a, b = step(a, b)\n    return a"
    assert extract_programs(answer(helper, main)) == [helper + "\n\n" + main + "\n"]
    assert run(answer(helper, main)).reason == "ok"
    binet = "def fib(n):\n    return round(((1 + math.sqrt(5)) / 2) ** n / math.sqrt(5))"
    assert run(answer("import math", binet)).reason == "ok"


def test_an_unrelated_earlier_fence_is_left_out():
    usage = "print(fib(3))"  # uses the program's name, binds nothing the program needs
    assert extract_programs(answer(usage, FIB_SRC)) == [FIB_SRC + "\n"]
    assert extract_programs(answer(FIB_SRC, usage)) == [FIB_SRC + "\n"]


def test_two_different_definitions_offered_are_a_hedge():
    wrong = "def fib(n):\n    return n"
    assert run(answer(wrong, FIB_SRC, between="\nor\n")).reason == "hedged"
    assert run(answer(FIB_SRC, wrong, between="\nor\n")).score == 0.0  # the last one is wrong
    assert run(answer(FIB_SRC, FIB_SRC)).reason == "ok"  # the same program twice


def test_two_right_alternatives_score_one():
    recursive = "def fib(n):\n    return n if n < 2 else fib(n - 1) + fib(n - 2)"
    assert run(answer(recursive, FIB_SRC, between="\nor iteratively\n")).reason == "ok"


def test_a_wrong_draft_in_the_reasoning_is_not_an_alternative():
    response = (
        "<think>\n```python\ndef fib(n):\n    return n\n```\nwrong for 2\n</think>\n"
        f"<answer>\n```python\n{FIB_SRC}\n```\n</answer>"
    )
    assert extract_programs(response) == [FIB_SRC + "\n"]
    assert run(response).reason == "ok"


SUM = json.dumps({"inputs": ["3\n", "10\n"], "outputs": ["6\n", "55\n"]})
SUM_SRC = "n = int(input())\nprint(n * (n + 1) // 2)"


def test_functions_then_a_script_that_reads_stdin_are_one_program():
    solve = "def solve(n):\n    return n * (n + 1) // 2"
    driver = "print(solve(int(input())))"
    assert extract_programs(answer(solve, driver)) == [solve + "\n\n" + driver + "\n"]
    assert run(answer(solve, driver), SUM).reason == "ok"


@pytest.mark.parametrize(
    "example",
    ["print(solve(3))  # 6", "main()", "print(solve(3) + 100)"],
    ids=["a call of the function", "a call of main", "another use"],
)
def test_a_script_that_reads_no_input_after_one_that_does_is_an_example_of_its_use(example):
    # 1 + 2 + 3 = 6: the solution reads n; the example block after it reads nothing
    solution = (
        "def solve(n):\n    return n * (n + 1) // 2\n"
        "def main():\n    print(solve(int(input())))\nmain()"
    )
    assert run(answer(solution, example), SUM).reason == "ok"


def test_a_second_script_that_reads_input_is_still_an_alternative():
    wrong = "n = int(input())\nprint(n * n)"
    assert run(answer(SUM_SRC, wrong), SUM).reason == "hedged"


def test_a_fence_that_rebinds_a_builtin_the_script_uses_is_part_of_it():
    fast = "import sys\ninput = sys.stdin.readline"
    assert run(answer(fast, SUM_SRC), SUM).reason == "ok"


def test_two_different_scripts_offered_are_a_hedge():
    wrong = "n = int(input())\nprint(n * n)"
    assert run(answer(wrong, SUM_SRC, between="\nor\n"), SUM).reason == "hedged"
    sample_output = "6"  # a literal: shown output, not a second program
    assert run(answer(SUM_SRC, sample_output), SUM).reason == "ok"


def test_alternatives_share_the_budget():
    wrong = "def fib(n):\n    return n"
    hedge = answer(wrong, FIB_SRC, between="\nor\n")
    budget = Budget.starting_now(timeout_s=20, queue_s=20)
    assert code_scorer.score(hedge, FIB, limits=LIMITS, budget=budget).reason == "hedged"
    spent = Budget(timeout_s=0.0)  # nothing left for even the first of them
    assert code_scorer.score(hedge, FIB, limits=LIMITS, budget=spent).reason == "timeout"


# ---- which block is the program: the one that gives the tests what they call ------------------
# (docs/guides/sandbox.md#which-block-is-the-program)

PYTEST_BLOCK = (
    "def test_sum():\n    import subprocess\n"
    "    out = subprocess.run(['python', 'sol.py'], input='3', capture_output=True, text=True)\n"
    "    assert out.stdout.strip() == '6'"
)
UNITTEST_BLOCK = (
    "import unittest\n\nclass T(unittest.TestCase):\n    def test(self):\n        pass\n\n"
    "if __name__ == '__main__':\n    unittest.main()"
)


@pytest.mark.parametrize("tests", [PYTEST_BLOCK, UNITTEST_BLOCK], ids=["pytest", "unittest"])
def test_a_test_block_after_a_script_is_not_the_program(tests):
    response = answer(SUM_SRC, tests, between="\nTest:\n")
    assert extract_programs(response, SUM) == [SUM_SRC + "\n"]
    assert run(response, SUM).reason == "ok"


def test_a_test_block_after_a_function_is_not_the_program():
    tests = "def test_fib():\n    assert fib(10) == 55"
    response = answer(FIB_SRC, tests, between="\nTest:\n")
    assert extract_programs(response, FIB) == [FIB_SRC + "\n"]
    assert run(response).reason == "ok"


def test_a_helper_function_block_after_a_script_is_not_the_program():
    brute = "def brute(n):\n    return sum(range(n + 1))"
    assert run(answer(SUM_SRC, brute, between="\nFor stress testing:\n"), SUM).reason == "ok"


def test_a_right_script_in_a_later_block_with_a_function_is_an_alternative_to_a_wrong_one():
    wrong = "def solve():\n    n = int(input())\n    print(n * n)\n\nsolve()"
    right = SUM_SRC + "\n\ndef check():\n    pass"
    assert run(answer(wrong, right, between="\nTest helper:\n"), SUM).reason == "hedged"


FIB_ANSWER = f"```python\n{FIB_SRC}\n```"


@pytest.mark.parametrize(
    "after",
    [
        "I'm not sure this handles negatives.",
        "I think this works.",
        "This might fail on some inputs.",
        "Not fully tested; I'm not confident about edge cases.",
        "Probably correct.",
        "Perhaps there is an edge case I missed.",
        "Ich glaube, das ist richtig.",  # German: "I think this is right"
        "This may fail for very large inputs.",  # a modal in a clause of rightness
        "I'd lay two-to-one it passes.",  # odds in number words
        "50-50 on this one.",
        "Edge cases may not be covered.",
        "Untested.",
        "~60% conf.",  # doubt written short, read in full as in every task
        "Conf: lo.",
        "Not v. sure.",
        "Low-confidence answer.",
        "I haven't tested it.",  # not run, or expected rather than known to pass
        "Haven't run this yet.",
        "I wrote it quickly without running it.",
        "This should work.",
        "It ought to be correct.",
        "Hope this passes!",
        "Ehkä toimii.",  # words the lexicon cannot read ("maybe it works", Finnish)
    ],
)
def test_prose_after_a_right_program_that_doubts_it_is_a_hedge(after):
    # doubt reads alike in every task (docs/guides/sandbox.md#which-block-is-the-program)
    assert run(f"{FIB_ANSWER}\n\n{after}").reason == "hedged"


def test_doubt_between_the_program_and_an_example_block_is_a_hedge():
    response = f"{FIB_ANSWER}\n\nI'm not sure about large n.\n\n```python\nprint(fib(10))\n```"
    assert run(response).reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "This could be sped up with matrix powers.",  # a modal that describes, not doubts
        "It may be slow for very large n, since it loops n times.",
        "How does it work? It keeps the last two numbers.",  # a question answered at once
        "Time complexity: O(n).",
        "This passes the examples: fib(10) returns 55.",
        "It passes all the tests, and could be made faster.",  # the modal is of speed
        "We don't run the loop when n is 0.",  # a negation in a description of the program
        "It does not check the input twice.",
        "Tested on the examples: fib(10) returns 55.",
    ],
)
def test_prose_that_describes_a_right_program_keeps_it(after):
    assert run(f"{FIB_ANSWER}\n\n{after}").correct


def test_a_program_in_a_reasoning_that_never_closes_is_cut_off():
    # the response stops inside <think>: nothing after its reasoning, so no answer (spec)
    response = f"<think>\nDraft:\n{FIB_ANSWER}\nThat should work. Let me now write the final answer"
    assert run(response).reason == "cut_off"


@pytest.mark.parametrize(
    "after",
    [
        "If this fails, try `return b + a - 0` or `return a - b`.",
        "If the tests expect more, use `return a - b` instead.",  # a line no test can run
        "If the grader complains, swap in the loop version.",
        "A variant that might be intended: `def fib(n): return n`.",  # another program, wrong
        "You could also write `fib = lambda n: n`.",
    ],
)
def test_another_program_offered_in_prose_after_a_right_one_is_a_hedge(after):
    assert run(f"{FIB_ANSWER}\n\n{after}").reason == "hedged"


def test_a_right_program_offered_inline_is_an_alternative_that_passes():
    one_liner = "fib = lambda n: round(((1 + 5 ** 0.5) / 2) ** n / 5 ** 0.5)"  # Binet: exact to 70
    assert run(f"{FIB_ANSWER}\n\nAn equivalent one-liner is `{one_liner}`.").correct


@pytest.mark.parametrize(
    "after",
    [
        "Try it: `x = fib(10)` gives 55.",  # a use of the program binds another name
        "The line `a, b = b, a + b` steps the pair.",  # a line the program holds
        "This uses a tuple instead of a list.",
        "If n is 0, the loop never runs.",
    ],
)
def test_prose_that_uses_or_explains_the_program_keeps_it(after):
    assert run(f"{FIB_ANSWER}\n\n{after}").correct


def test_doubt_in_a_comment_of_the_program_is_a_hedge():
    doubtful = FIB_SRC.replace("return a", "return a  # not sure this is right")
    assert run(answer(doubtful)).reason == "hedged"


@pytest.mark.parametrize(
    "correction",
    ["Wait, that's wrong; corrected:", "Oops, that has a bug. Fixed version:", "Scratch that."],
)
def test_a_block_the_response_corrects_is_a_step_not_an_alternative(correction):
    wrong = "def fib(n):\n    return n"
    assert run(answer(wrong, FIB_SRC, between=f"\n{correction}\n")).correct


WRONG_FIB = "def fib(n):\n    return n"  # fib(10) = 10, not 55


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        # text after </answer> is still after the answer: a second program there is offered
        (f"\n\nAlternatively:\n```python\n{WRONG_FIB}\n```", "hedged"),
        (f"\n\n```python\n{WRONG_FIB}\n```", "hedged"),
        ("\n\nI'm not sure this handles n = 0.", "hedged"),  # doubt after the close
        ("\n\nIt runs in O(n) time.", "ok"),  # a description after the close
        ("\n\n```python\nprint(fib(10))\n```", "ok"),  # an example of its use
    ],
)
def test_text_after_the_answer_block_is_after_the_answer(after, reason):
    assert run(answer(FIB_SRC) + after).reason == reason


def test_a_byte_order_mark_before_the_program_is_read_past_as_python_does():
    assert run(answer("\ufeff" + FIB_SRC)).reason == "ok"
    assert run(f"\ufeff```python\n{FIB_SRC}\n```").reason == "ok"

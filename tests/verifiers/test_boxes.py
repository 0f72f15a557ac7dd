"""Which box is the answer, in every boxed task (math, Countdown, Zebra, ARC): the last box, unless
an earlier one is explicitly corrected; boxes around intermediate results are steps; one root per
box when all are asked for; two answers offered as alternatives are ``hedged``; a box named only to
be rejected, a box inside the reasoning and an empty box quoted from the instruction are not
answers; boxes are the outermost closed ones, in order; an answer label inside the box is read
past; ``\\boxed 12`` without braces is a box.

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules: docs/guides/rewards.md."""

import json

import pytest

from pac_verl.verifiers import score
from pac_verl.verifiers.extract import final_answers, final_boxes

# Countdown, the paper's example: 95 - 26 - 21 = 48; 48 / 2 = 24; 24 + 8 - 2 = 30.
CD = json.dumps({"target": 30, "numbers": [21, 95, 8, 2, 26, 2]})
OK_EXPR = "(95-26-21)/2+8-2"
# A wrong one over the same numbers: 95 - 26 - 21 - 8 - 2 - 2 = 36.
WRONG_EXPR = "95-26-21-8-2-2"


@pytest.mark.parametrize(
    ("response", "gold", "reason"),
    [
        # an explicitly corrected earlier answer is withdrawn
        (
            "First I got \\boxed{205}, but that was an arithmetic error in the second step; "
            "correcting it gives \\boxed{204}.",
            "204",
            "ok",
        ),
        ("First I got \\boxed{205}; correcting it gives \\boxed{204}.", "205", "not_equal"),
        ("\\boxed{205}. That is wrong: \\boxed{204}", "204", "ok"),
        ("\\boxed{205} (a mistake) \\boxed{204}", "204", "ok"),
        # boxes around intermediate results: the last box is the answer
        (
            "Each side is \\boxed{3} cm, so the perimeter is 4 \\cdot 3 = \\boxed{12} cm.",
            "12",
            "ok",
        ),
        (
            "There are \\boxed{12} apples in each basket. With three baskets the total is "
            "\\boxed{36}.",
            "36",
            "ok",
        ),
        ("x = \\boxed{3}, so y = 2x = \\boxed{6}", "6", "ok"),
        (
            "Each side is \\boxed{3} cm, so the perimeter is 4 \\cdot 3 = \\boxed{12} cm.",
            "3",
            "not_equal",
        ),
        # one root per box when the question asks for all of them
        ("The roots are \\boxed{2} and \\boxed{3}.", "2, 3", "ok"),
        ("\\boxed{3}, \\boxed{2}", "2, 3", "ok"),
        ("x = \\boxed{2} or x = \\boxed{3}", "2, 3", "ok"),
        ("\\boxed{x = 2} and \\boxed{x = 3}", "2, 3", "ok"),
        ("\\boxed{2}, \\boxed{3}, \\boxed{4}", "2, 3", "not_equal"),  # 4 is not a root
        ("\\boxed{2}", "2, 3", "not_equal"),  # a root missing
        # two final answers offered as alternatives are a hedge, whichever is right
        ("\\boxed{5} or \\boxed{6}", "5", "hedged"),
        ("\\boxed{5} or \\boxed{6}", "6", "hedged"),
        ("\\boxed{5}. Maybe \\boxed{6}", "6", "hedged"),
        ("\\boxed{5}. It could also be \\boxed{6}.", "6", "hedged"),
        ("\\boxed{5}, alternatively \\boxed{6}", "6", "hedged"),
        ("\\boxed{5}\n\n\\boxed{6}", "6", "hedged"),  # two answers side by side
        ("\\boxed{5}. Hmm, actually \\boxed{6}", "6", "hedged"),  # no correction said
        # a hedge inside one answer
        ("\\boxed{7 \\text{ (possibly } 8\\text{)}}", "7", "hedged"),
        ("\\boxed{7 \\text{ or maybe } 8}", "7", "hedged"),
        ("\\boxed{7 (perhaps 8)}", "7", "hedged"),
        # not hedges: the same value twice, or two spellings of it
        ("\\boxed{\\frac{3}{4} \\text{ or } 0.75}", "\\frac{3}{4}", "ok"),
        ("\\boxed{5} or \\boxed{5.0}", "5", "ok"),
        # a root per box is one answer however many roots: 2, 3, 5 and 7 are graded together
        ("\\boxed{2}, \\boxed{3}, \\boxed{5}, \\boxed{7}", "2, 3, 5, 7", "ok"),
    ],
)
def test_math_which_box_counts(response, gold, reason):
    assert score("math", response, gold).reason == reason


def test_at_most_three_answers_are_graded_one_by_one():
    # each may cost a grader its whole bound: four right expressions are four offered answers
    cd = json.dumps({"target": 35, "numbers": [3, 4, 5]})  # (3 + 4) * 5 = 35
    right = ["(3+4)*5", "5*(3+4)", "(4+3)*5", "5*(4+3)"]
    boxes = ", ".join(f"\\boxed{{{e}}}" for e in right)
    assert score("countdown", boxes, cd).reason == "hedged"
    boxes = ", ".join(f"\\boxed{{{e}}}" for e in right[:3])
    assert score("countdown", boxes, cd).reason == "ok"


def test_the_rule_is_shared_by_every_boxed_task():
    cd = json.dumps({"target": 35, "numbers": [3, 4, 5]})  # (3 + 4) * 5 = 35; 3 * 4 + 5 = 17
    correction = "\\boxed{{{}}}. That was a mistake; the correct one is \\boxed{{{}}}."
    assert score("countdown", correction.format("3*4+5", "(3+4)*5"), cd).reason == "ok"
    assert score("zebra", correction.format("Bob", "Arnold"), "arnold").reason == "ok"
    arc = "1 2 3"
    assert score("arc", correction.format("1 2 4", arc), arc).reason == "ok"
    maybe = "\\boxed{{{}}}. Maybe \\boxed{{{}}}."
    assert score("countdown", maybe.format("3*4+5", "(3+4)*5"), cd).reason == "hedged"
    assert score("zebra", maybe.format("Bob", "Arnold"), "arnold").reason == "hedged"
    assert score("arc", maybe.format("1 2 4", arc), arc).reason == "hedged"
    steps = "4 - 3 = \\boxed{1}, then the answer is \\boxed{(3+4)*5}"  # a step, then the answer
    assert score("countdown", steps, cd).reason == "ok"


def test_final_answers_reports_the_boxes_that_count():
    assert final_answers("\\boxed{1} or \\boxed{2}").answers == ("1", "2")
    assert final_answers("\\boxed{1}, which was wrong: \\boxed{2}").answers == ("2",)
    assert final_answers("a = \\boxed{1}, so b = a + 1 = \\boxed{2}").answers == ("2",)
    assert final_answers("<think>\\boxed{1}").cut_off
    assert final_boxes("<think>\\boxed{1}") == []


def test_a_rejected_box_after_the_answer_is_not_an_answer():
    # "\boxed{12}, not \boxed{13}": 13 is named to be rejected; the answer is 12
    assert score("math", "The answer is $\\boxed{12}$, not $\\boxed{13}$.", "12").reason == "ok"
    assert score("math", "The answer is $\\boxed{13}$, not $\\boxed{12}$.", "12").reason == (
        "not_equal"
    )
    assert score("zebra", "\\boxed{Peter} rather than \\boxed{Eric}", "peter").reason == "ok"


@pytest.mark.parametrize(
    "label", ["\\text{Answer: } ", "\\text{Final answer: } ", "Final Answer: "]
)
@pytest.mark.parametrize("task", ["math", "countdown", "zebra", "arc"])
def test_an_answer_label_is_accepted_in_every_boxed_task(task, label):
    truth, box = {
        "countdown": (json.dumps({"target": 35, "numbers": [3, 4, 5]}), "(3+4)*5"),  # 7*5
        "zebra": ("arnold", "Arnold"),
        "arc": ("1 2 3", "1 2 3"),
        "math": ("204", "204"),
    }[task]
    assert score(task, f"\\boxed{{{label}{box}}}", truth).reason == "ok"


def test_boxed_without_braces():
    assert score("math", "The answer is \\boxed 12.", "12").reason == "ok"
    assert score("math", "The answer is \\boxed 13.", "12").reason == "not_equal"


def test_boxes_are_the_outermost_closed_ones_in_order():
    from pac_verl.verifiers.extract import boxes, final_boxes

    assert boxes("\\boxed{1} then \\boxed{\\frac{2}{3}} and \\fbox{x}") == [
        "1",
        "\\frac{2}{3}",
        "x",
    ]
    assert boxes("\\boxed{\\boxed{3}}") == ["\\boxed{3}"]  # a nested box is part of the outer
    assert boxes("\\boxed{1} ... \\boxed{2") == ["1"]  # an unclosed box is no answer
    assert boxes("\\boxed{ \\boxed{4} ") == ["4"]  # read; the response is cut off (test_cut_off)
    assert final_boxes("<think>\\boxed{1}</think> \\boxed{2}") == ["2"]


def test_a_box_inside_the_reasoning_is_not_a_final_answer():
    response = f"<think>try \\boxed{{{WRONG_EXPR}}}: 36, no.</think> \\boxed{{{OK_EXPR}}}"
    assert score("countdown", response, CD).reason == "ok"
    response = "<think>Bob? no.</think> The answer is \\boxed{Arnold}"
    assert score("zebra", response.replace("Bob?", "\\boxed{Bob}?"), "arnold").reason == "ok"


def test_an_empty_box_is_the_instruction_quoted_back_not_an_answer():
    response = f"I will put the expression in \\boxed{{}}. \\boxed{{{OK_EXPR}}}"
    assert score("countdown", response, CD).reason == "ok"

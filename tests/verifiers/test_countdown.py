"""Countdown: an expression (or a chain of steps) that uses each given number once and equals the
target scores 1 in the forms a careful grader reads as right (brackets of any size, unicode and
LaTeX operators, spacing, implicit multiplication before a bracket, ``= 30 \\checkmark``,
full-width digits, an answer label); a unary minus, two numbers side by side, a coefficient after
its bracket (the four binary operations: docs/concepts/spec.md#rewards), a side that is not the
target, and two different expressions offered together do not.

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules: docs/guides/rewards.md."""

import json

import pytest

from pac_verl.verifiers import score

CD = json.dumps({"target": 30, "numbers": [21, 95, 8, 2, 26, 2]})  # (95-26-21)/2+8-2 = 30
# target 48 from [3, 9, 4]: (9 + 3) * 4 = 48
CD48 = json.dumps({"target": 48, "numbers": [3, 9, 4]})
OK_EXPR = "(95-26-21)/2+8-2"
# Another right one: 8 - 2 = 6 and (95 - 26 - 21) / 2 = 24; 6 + 24 = 30.
OK_EXPR_2 = "8-2+(95-26-21)/2"
# A wrong one over the same numbers: 95 - 26 - 21 - 8 - 2 - 2 = 36.
WRONG_EXPR = "95-26-21-8-2-2"


@pytest.mark.parametrize(
    "box",
    [
        "\\Big(95-26-21\\Big)/2+8-2",
        "\\bigl(95-26-21\\bigr)/2+8-2",
        "\\biggl[95-26-21\\biggr]/2+8-2",
        "(95-26-21)/2+8-2 = 30 \\checkmark",
        "(95-26-21)/2+8-2 = 30 ✓",
        "\\text{Answer: } (95-26-21)/2+8-2",
    ],
)
def test_countdown_forms(box):
    assert score("countdown", f"\\boxed{{{box}}}", CD).reason == "ok"


@pytest.mark.parametrize(
    "box",
    [
        "\\displaystyle (9 + 3) \\times 4",
        "\\{9 + 3\\} \\times 4",
        "4(9 + 3)",
        "4 \\cdot (9 + 3)",
        "（９＋３）×４",
    ],
)
def test_countdown_forms_a_human_reads(box):
    assert score("countdown", f"\\boxed{{{box}}}", CD48).reason == "ok"


def test_countdown_unary_minus_stays_rejected():  # the four binary operations only
    truth = json.dumps({"target": 10, "numbers": [3, 9, 4]})  # -3 + 9 + 4 = 10
    assert score("countdown", "\\boxed{-3 + 9 + 4}", truth).reason == "bad_expression"
    # two numbers side by side are no product; nor is a coefficient after its bracket
    assert not score("countdown", "\\boxed{4 4 (9 + 3)}", CD48).correct
    assert score("countdown", "\\boxed{(9 + 3)4}", CD48).reason == "bad_expression"


def test_countdown_an_expression_over_400_characters_is_too_long_right_or_not():
    """The cap bounds the work by the length; no puzzle of six numbers needs more."""
    assert score("countdown", "\\boxed{" + "(" * 60 + "(9 + 3) * 4" + ")" * 60 + "}", CD48).correct
    padded = "(" * 200 + "(9 + 3) * 4" + ")" * 200  # 411 characters, 48 all the same
    assert score("countdown", f"\\boxed{{{padded}}}", CD48).reason == "too_long"


@pytest.mark.parametrize(
    "box",
    [
        f"{OK_EXPR}.",  # trailing period
        "\\left(95-26-21\\right)/2+8-2",
        "[95-26-21]/2+8-2",  # square brackets as parentheses
        "\\frac{95-26-21}{2}+8-2",
        "\\dfrac{95-26-21}{2}+8-2",
        f"{OK_EXPR} = 30",
        f"30 = {OK_EXPR}",
        f"{OK_EXPR} = 24 + 8 - 2 = 30",  # a chain whose every side is 30
        "(95 − 26 − 21) ÷ 2 + 8 − 2",  # unicode minus and division
        "(95 - 26 - 21) \\div 2 + 8 - 2",
        f"**{OK_EXPR}**",
        f"\\text{{{OK_EXPR}}}",
        "(95\\,-\\,26\\,-\\,21)/2\\;+\\;8~-~2",  # LaTeX spacing
        "(95\\ -\\ 26 - 21)/2 + 8 - 2",
        f"${OK_EXPR}$",
    ],
)
def test_countdown_right_answers_in_other_forms_score_one(box):
    assert score("countdown", f"So: \\boxed{{{box}}}", CD).reason == "ok"


def test_countdown_unicode_and_latex_multiplication():
    # numbers 3, 4, 5, target 35: (3 + 4) * 5 = 35 by hand
    truth = json.dumps({"target": 35, "numbers": [3, 4, 5]})
    for box in ("(3+4)∗5", "(3+4)\\ast 5", "(3+4) ⋅ 5", "\\left[3+4\\right] \\times 5"):
        assert score("countdown", f"\\boxed{{{box}}}", truth).reason == "ok", box


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (f"\\boxed{{{OK_EXPR}}} or \\boxed{{{WRONG_EXPR}}}", "hedged"),
        (f"\\boxed{{{WRONG_EXPR}}} or maybe \\boxed{{{OK_EXPR}}}", "hedged"),  # last one right
        (f"\\boxed{{{OK_EXPR} \\text{{ or }} {WRONG_EXPR}}}", "hedged"),
        (f"\\boxed{{{OK_EXPR} or {WRONG_EXPR}}}", "hedged"),
        (f"\\boxed{{{OK_EXPR} = 31}}", "not_equal"),  # a side that is not the target
        (f"\\boxed{{{OK_EXPR} = 25 = 30}}", "not_equal"),
        ("\\boxed{30 = 30}", "wrong_numbers"),  # no side uses the numbers
        ("\\boxed{(95-26-21)/2+8-2 = 1e999999999}", "bad_expression"),  # a float side
        ("\\boxed{(3+4)5}", "bad_expression"),  # a coefficient after its bracket: not a product
        # a Python spelling of a given number is no given number: 0x5f and 9_5 are 95
        ("\\boxed{(0x5f-26-21)/2+8-2}", "bad_expression"),
        ("\\boxed{(9_5-26-21)/2+8-2}", "bad_expression"),
        ("\\boxed{(95-26-21)/2+8-2 = 0x1e}", "bad_expression"),
    ],
)
def test_countdown_hedges_and_bad_equations_score_zero(response, reason):
    verdict = score("countdown", response, CD)
    assert (verdict.score, verdict.reason) == (0.0, reason)


def test_countdown_repeated_or_all_right_answers_are_not_hedges():
    same = f"\\boxed{{{OK_EXPR}}}. Checking: \\boxed{{(95 - 26 - 21) / 2 + 8 - 2}}"
    assert score("countdown", same, CD).reason == "ok"
    two_right = f"\\boxed{{{OK_EXPR}}} and also \\boxed{{{OK_EXPR_2}}}"
    assert score("countdown", two_right, CD).reason == "ok"
    one_box = f"\\boxed{{{OK_EXPR} \\text{{ or }} {OK_EXPR_2}}}"  # both right: nothing hedged
    assert score("countdown", one_box, CD).reason == "ok"
    assert score("countdown", f"\\boxed{{{OK_EXPR} or {OK_EXPR_2} (probably)}}", CD).reason == (
        "hedged"
    )


@pytest.mark.parametrize(
    ("steps", "reason"),
    [
        # by hand: 95-26-21 = 48; 48/2 = 24; 24+8-2 = 30, each given number used once
        ("95 - 26 - 21 = 48, 48 / 2 = 24, 24 + 8 - 2 = 30", "ok"),
        ("95-26-21=48; 48/2=24; 24+8=32; 32-2=30", "ok"),
        ("95-26-21=48 \\\\ 48/2=24 \\\\ 24+8-2=30", "ok"),
        ("95-26-21=48, 48/2=24, 24+8=32", "wrong_numbers"),  # a 2 unused, ends at 32
        ("95-26-21=48, 48/2=24, 24+8+2=34", "not_equal"),  # every number used, ends at 34
        ("95-26-21=47, 47/2=24, 24+8-2=30", "not_equal"),  # 95-26-21 is 48, not 47
        ("95-26=69, 69-21=48, 48/2=24, 24/2=12, 12+8=20", "not_equal"),  # all used, ends at 20
        ("95-26-21=48, 48/2=24, 24/2=12, 12/2=6", "wrong_numbers"),  # a third 2
        ("95-26-21=48, 48/2=24, 24+8-2=30, 30*1=30", "wrong_numbers"),  # 1 is not given
    ],
)
def test_countdown_steps_use_each_number_once_and_end_at_the_target(steps, reason):
    assert score("countdown", f"\\boxed{{{steps}}}", CD).reason == reason


def test_countdown_the_target_boxed_beside_the_expression_is_not_a_second_answer():
    response = f"The expression \\boxed{{{OK_EXPR}}} equals \\boxed{{30}}."
    assert score("countdown", response, CD).reason == "ok"
    assert score("countdown", "\\boxed{30}", CD).reason == "wrong_numbers"
    assert score("countdown", f"\\boxed{{{WRONG_EXPR}}} = \\boxed{{30}}", CD).reason == "not_equal"

"""Countdown answers in the forms a careful grader reads as right (sized brackets, ``\\{ \\}``,
implicit multiplication before a bracket, ``= 30 \\checkmark``, full-width digits, an answer
label) score 1; a unary minus, two numbers side by side, or a coefficient after its bracket do not
(the four binary operations: docs/concepts/spec.md#rewards).

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules: docs/guides/rewards.md."""

import json

import pytest

from pac_verl.verifiers import score

CD = json.dumps({"target": 30, "numbers": [21, 95, 8, 2, 26, 2]})  # (95-26-21)/2+8-2 = 30


# target 48 from [3, 9, 4]: (9 + 3) * 4 = 48
CD48 = json.dumps({"target": 48, "numbers": [3, 9, 4]})


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

"""Committed answers an independent labelled set (v5, written before its author read the
grader) found scored 0 after the third pass (issue 24): an interval labelled with ``x \\in``
read as "a value (and another beside it)", and doubt after the box that the response itself
settles by restating the boxed answer as final. Verdicts by hand."""

import pytest

from pac_verl.verifiers import score


@pytest.mark.parametrize(
    ("response", "gold"),
    [
        (r"\boxed{x \in (-2, 8)}", "(-2,8)"),
        (r"\boxed{x \in [2, \infty)}", r"[2,\infty)"),
        # doubt raised after the box, then settled by restating the boxed answer
        (
            "\\boxed{(-2, 8)}\n\nHmm, should the endpoints be included? If the inequality were "
            "non-strict it would be [-2, 8]. Since it is strict, the answer stays (-2, 8).",
            "(-2,8)",
        ),
        ("\\boxed{7}\n\nWait, is it 8? No: 3 + 4 = 7, so the answer is 7.", "7"),
    ],
)
def test_committed_answers_score_1(response, gold):
    assert score("math", response, gold).reason == "ok"


@pytest.mark.parametrize(
    ("response", "gold", "reason"),
    [
        (r"\boxed{7 (8)}", "7", "hedged"),  # a second value beside the first stays a hedge
        # doubt that is not settled, or settled on another value, stays a hedge
        ("\\boxed{7}\n\nWait, is it 8? I am not sure.", "7", "hedged"),
        ("\\boxed{7}\n\nHmm, should it be 8? It might be 8, not 7.", "7", "hedged"),
        ("\\boxed{7}\n\nWait, is it 8? Yes, the answer is 8.", "7", "hedged"),
        (r"\boxed{x \in (-2, 9)}", "(-2,8)", "not_equal"),
    ],
)
def test_doubt_and_other_values_stay_wrong(response, gold, reason):
    assert score("math", response, gold).reason == reason


@pytest.mark.parametrize(
    ("answer", "gold", "reason"),
    [
        # "or" between inequalities of one variable is a union, not two answers
        (r"x < -2 \text{ or } x > 2", r"(-\infty,-2)\cup(2,\infty)", "ok"),
        (r"x \le -1 \text{ or } x \geq 3", r"(-\infty,-1]\cup[3,\infty)", "ok"),
        (r"x < -2 \text{ or } x > 3", r"(-\infty,-2)\cup(2,\infty)", "hedged"),
        # set-builder notation names the set its condition describes
        (r"\{x \mid x \ge 2\}", r"[2,\infty)", "ok"),
        (r"\{x : -2 < x < 8\}", "(-2,8)", "ok"),
        (r"\{x \mid x > 2\}", r"[2,\infty)", "not_equal"),
    ],
)
def test_sets_written_as_conditions(answer, gold, reason):
    assert score("math", f"\\boxed{{{answer}}}", gold).reason == reason

"""Math forms an independent labelled set (v4, written before its author read the grader) scored
wrong (issue 24): an inequality for an interval gold (math-verify accepts the interval when the
gold is the inequality, not the other way round), and a complex number in its standard form
``a + bi`` (the ``+`` of that form is notation, not arithmetic left undone). Verdicts by hand."""

import pytest

from pac_verl.verifiers import score


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        (r"x \geq 2", r"[2, \infty)"),
        (r"x \ge 2", r"[2,\infty)"),
        (r"-2 < x < 4", "(-2, 4)"),
        (r"x \leq 5", r"(-\infty, 5]"),
        (r"x > -1", r"(-1, \infty)"),
        ("0 + 2i", "2i"),
        ("0 - 3i", "-3i"),
        ("5 + 2i", "5+2i"),
        ("-1 + i", "i - 1"),
    ],
)
def test_same_value_in_another_standard_form(answer, gold):
    assert score("math", f"\\boxed{{{answer}}}", gold).reason == "ok"


@pytest.mark.parametrize(
    ("answer", "gold", "reason"),
    [
        (r"x > 2", r"[2, \infty)", "not_equal"),  # the endpoint is not in the set
        (r"-2 \le x < 4", "(-2, 4)", "not_equal"),
        (r"x \geq 3", r"[2, \infty)", "not_equal"),
        (r"x^2 \geq 4", r"[2, \infty)", "not_equal"),  # another set (x <= -2 too)
        ("1 + 1 + 2i", "2 + 2i", "unevaluated"),  # arithmetic left: two real terms
        ("5 + 0i", "5", "unevaluated"),  # an integer gold has no imaginary part to write
        ("(1+i)^2", "2i", "unevaluated"),  # the question's computation
        ("2 + 2i", "2i", "not_equal"),
    ],
)
def test_other_values_and_computations_stay_wrong(answer, gold, reason):
    assert score("math", f"\\boxed{{{answer}}}", gold).reason == reason


def test_an_inequality_that_is_no_polynomial_is_graded_not_unparsable():
    assert score("math", r"\boxed{x > \sin x}", r"(0, \infty)").reason == "not_equal"

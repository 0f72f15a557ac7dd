"""A decimal is the exact number it writes (docs/guides/rewards.md#math-forms): ``0.816497`` is
816497/1000000, so it is not ``\\frac{\\sqrt{6}}{3}``, and an approximation of an exact irrational
gold never scores 1, however many digits it carries. A decimal that writes the gold's exact value
(``0.5`` for ``\\frac{1}{2}``, ``2.5x`` for ``\\frac{5x}{2}``) is that value."""

from __future__ import annotations

import pytest

from pac_verl.verifiers import compute_score
from pac_verl.verifiers.math import score

# (answer, gold): approximations of an exact gold, each written to 6 places or more
APPROXIMATIONS = [
    ("0.816497", "\\frac{\\sqrt{6}}{3}"),
    ("0.816496580927726", "\\frac{\\sqrt{6}}{3}"),
    ("1.4142135623730951", "\\sqrt{2}"),
    ("3.141593", "\\pi"),
    ("3.1415929", "\\pi"),  # and wrong in the 7th digit
    ("2.718282", "e"),
    ("0.6931471805599453", "\\ln 2"),
    ("14.142136", "10\\sqrt{2}"),
    ("2.449489742783178x", "\\sqrt{6}x"),
    ("12.566371", "4\\pi"),
    ("0.333333", "\\frac{1}{3}"),
    ("0.333333x", "\\frac{x}{3}"),
    ("1.0471975511965976", "\\frac{\\pi}{3}"),
]

# (answer, gold): decimals that write the gold's exact value
EXACT = [
    ("0.5", "\\frac{1}{2}"),
    ("2.5x", "\\frac{5x}{2}"),
    ("1.0x^2", "x^2"),
    ("0.375", "\\frac{3}{8}"),
    ("-1.25", "-\\frac{5}{4}"),
    ("0.25\\pi", "\\frac{\\pi}{4}"),
    ("3.14", "3.14"),
]


@pytest.mark.parametrize("answer, gold", APPROXIMATIONS)
def test_an_approximation_of_an_exact_gold_is_not_correct(answer, gold):
    assert not score(f"The answer is $\\boxed{{{answer}}}$.", gold).correct


@pytest.mark.parametrize("answer, gold", EXACT)
def test_a_decimal_that_writes_the_exact_value_is_correct(answer, gold):
    verdict = score(f"The answer is $\\boxed{{{answer}}}$.", gold)
    assert verdict.correct, verdict


def test_compute_score_reads_decimals_exactly():
    info = {"type": "math", "question_expressions": ["\\frac{2}{\\sqrt{6}}"]}
    out = compute_score("math", "\\boxed{0.816497}", "\\frac{\\sqrt{6}}{3}", info)
    assert out["score"] == 0.0 and out["scored"] == 1.0

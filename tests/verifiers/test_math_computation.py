"""A boxed math answer is a value, not a computation left for the verifier to do: arithmetic on
numbers, sums, integrals, limits, functions of a number, a variable that cancels, like terms left
uncollected all score 0 (``unevaluated``) whatever their value; an operation the gold itself uses,
and operations on symbols (the answer's form), are fine.

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules: docs/guides/rewards.md."""

import pytest

from pac_verl.verifiers import score


@pytest.mark.parametrize(
    ("box", "gold"),
    [
        ("3^{2024} \\mod 7", "2"),  # 3^6 = 729 = 1 mod 7, 2024 = 6*337 + 2, 3^2 = 9 = 2 mod 7
        ("3^{2024} \\bmod 7", "2"),
        ("\\sum_{k=1}^{100} k", "5050"),  # 100*101/2
        ("\\frac{100 \\cdot 101}{2}", "5050"),
        ("\\int_0^3 x^2\\,dx", "9"),  # 3^3/3
        ("\\lim_{x \\to 0} \\frac{\\sin x}{x}", "1"),
        ("\\det\\begin{pmatrix}1&2\\\\3&4\\end{pmatrix}", "-2"),  # 1*4 - 2*3
        ("\\gcd(12, 18)", "6"),
        ("\\operatorname{lcm}(2, 3)", "6"),
        ("\\lfloor\\sqrt{2024}\\rfloor", "44"),  # 44^2 = 1936 <= 2024 < 2025 = 45^2
        ("\\lceil 4.5 \\rceil", "5"),
        ("5!", "120"),
        ("\\binom{5}{2}", "10"),
        ("\\log_2 8", "3"),
        ("\\sin\\frac{\\pi}{6}", "\\frac{1}{2}"),
        ("2+3", "5"),  # unevaluated arithmetic on numbers
        ("10/2", "5"),
        ("\\frac{10}{2}", "5"),
        ("5+0", "5"),
        ("\\sqrt{25}", "5"),
        ("|-5|", "5"),
        ("\\max(2, 5)", "5"),
        ("2 \\times 3", "6"),
        ("6 \\div 4", "\\frac{3}{2}"),  # the gold is a number, 6 / 4 an operation on two
        ("2^{10}", "1024"),
        ("\\sqrt{3}+\\sqrt{3}", "2\\sqrt{3}"),  # the gold multiplies, it does not add
        ("\\frac{\\pi}{2}+\\frac{\\pi}{4}", "\\frac{3\\pi}{4}"),
    ],
)
def test_math_a_computation_with_the_right_value_is_not_an_answer(box, gold):
    verdict = score("math", f"The answer is \\boxed{{{box}}}", gold)
    assert (verdict.score, verdict.reason) == (0.0, "unevaluated")


def test_math_the_form_is_judged_before_the_value():
    # a computation is no answer whatever its value (2 + 4 = 6, not 5): sympy never evaluates it
    assert score("math", "\\boxed{2+4}", "5").reason == "unevaluated"
    assert score("math", "\\boxed{3^{2024} \\bmod 7}", "3").reason == "unevaluated"
    assert score("math", "\\boxed{6}", "5").reason == "not_equal"  # a value, the wrong one


def test_math_an_operation_the_gold_itself_uses_is_fine():
    # a gold written with a binomial or a power lets the answer use the same notation
    assert score("math", "\\boxed{\\binom{5}{2}}", "\\binom{5}{2}").correct
    assert score("math", "\\boxed{2^{10}}", "2^{10}").correct
    assert score("math", "\\boxed{1024}", "2^{10}").correct  # the value itself always is
    assert score("math", "\\boxed{e^{2}}", "e^2").correct


@pytest.mark.parametrize(
    ("box", "gold", "reason"),
    [
        ("2\\sin x \\cos x", "\\sin 2x", "ok"),  # functions of a variable are a form
        ("\\sum_{k=1}^{n} k", "\\frac{n(n+1)}{2}", "unevaluated"),  # a sum is never an answer
        ("\\int_0^{x} 2t\\,dt", "x^2", "unevaluated"),
        ("e^{i\\pi}", "-1", "unevaluated"),  # a function of a number
        ("2^{-1}", "\\frac{1}{2}", "unevaluated"),
    ],
)
def test_math_operations_on_variables_and_on_numbers(box, gold, reason):
    assert score("math", f"\\boxed{{{box}}}", gold).reason == reason


@pytest.mark.parametrize(
    ("box", "gold"),
    [
        ("5 + 7 + k - k", "12"),
        ("12 + t - t", "12"),
        ("12 \\cdot \\frac{m}{m}", "12"),
        ("\\sin^2 \\alpha + \\cos^2 \\alpha + 11", "12"),
        ("\\frac{2}{5} + z - z", "\\frac25"),
    ],
)
def test_a_free_variable_the_gold_lacks_is_not_the_value(box, gold):
    assert not score("math", f"\\boxed{{{box}}}", gold).correct


def test_functions_the_parser_evaluates_away_are_operations():
    assert score("math", "\\boxed{e^{\\ln 12}}", "12").reason == "unevaluated"
    assert score("math", "\\boxed{\\exp(\\ln 12)}", "12").reason == "unevaluated"


def test_like_terms_left_uncollected_are_a_computation():
    assert score("math", "\\boxed{(y+2)^2 - 4y - 4}", "y^2").reason == "unevaluated"
    assert score("math", "\\boxed{y^2 + y + y}", "y^2 + 2y").reason == "unevaluated"
    # the gold's form is the form asked for: expanded for an expanded gold, factored for a
    # factored one (docs/guides/rewards.md#math-forms)
    assert score("math", "\\boxed{(y+2)^2}", "y^2+4y+4").reason == "unevaluated"
    assert score("math", "\\boxed{y^2+4y+4}", "(y+2)^2").reason == "unevaluated"
    assert score("math", "\\boxed{y(y+1)}", "y^2+y").reason == "unevaluated"
    assert score("math", "\\boxed{(y+2)(2+y)}", "(y+2)^2").reason == "ok"

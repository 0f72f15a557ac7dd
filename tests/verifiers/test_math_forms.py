"""A right math value in any form a careful grader reads as right scores 1: equivalent numbers and
expressions, repeating decimals, scientific notation, text answers, number words, multiple-choice
labels, an inequality or a set-builder condition for an interval, a complex number in ``a + bi``,
a labelled value (``x = 5``), units, percentages, unicode symbols; other values, other sets, and
two values offered together (``hedged``) stay wrong.

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules: docs/guides/rewards.md."""

import pytest

from pac_verl.verifiers import compute_score, score


@pytest.mark.parametrize(
    ("box", "gold"),
    [
        ("2\\sqrt3", "2\\sqrt{3}"),
        ("\\sqrt{3} \\cdot 2", "2\\sqrt{3}"),
        ("1/2", "\\frac{1}{2}"),
        ("0.5", "\\frac{1}{2}"),
        ("\\tfrac12", "\\frac{1}{2}"),
        ("\\frac{1}{2}", "0.5"),
        ("\\pi/4", "\\frac{\\pi}{4}"),
        ("0.25\\pi", "\\frac{\\pi}{4}"),
        ("4.\\overline{6}", "\\frac{14}{3}"),  # 4.666... = 4 + 2/3 = 14/3
        ("0.\\overline{3}", "\\frac{1}{3}"),
        ("\\dfrac{14}{3}", "\\frac{14}{3}"),
        ("\\cfrac{14}{3}", "\\frac{14}{3}"),
        ("\\displaystyle \\frac{14}{3}", "\\frac{14}{3}"),
        ("14/3", "\\frac{14}{3}"),
        ("1.5e3", "1500"),  # e-notation
        ("1.5 \\times 10^{3}", "1500"),  # scientific notation is how numbers are written
        ("10^{6}", "1000000"),
        ("2.5 \\cdot 10^{-3}", "0.0025"),
        ("5.0", "5"),
        ("x = 5", "5"),
        ("5 = x", "5"),
        ("2\\sqrt{2}", "\\sqrt{8}"),  # a gold not in simplest form: its simplest form is fine
        ("\\text{Answer: } 7", "7"),
        ("\\textbf{Answer:} 7", "7"),
        ("\\text{The answer is } 7", "7"),
        ("MONDAY", "\\text{Monday}"),  # text answers: case and a trailing period do not count
        ("\\text{monday.}", "Monday"),
        ("Yes.", "yes"),
    ],
)
def test_math_equivalent_forms_of_the_value_score_one(box, gold):
    assert score("math", f"The answer is \\boxed{{{box}}}", gold).reason == "ok"


@pytest.mark.parametrize(
    ("box", "gold"),
    [
        ("0.2727\\ldots", "\\frac{3}{11}"),
        ("0.2727...", "\\frac{3}{11}"),
        ("0.8333\\dots", "\\frac{5}{6}"),
        ("2.\\dot{3}", "\\frac{7}{3}"),
        ("0.\\dot{1}\\dot{8}", "\\frac{2}{11}"),
        ("\\color{blue}{12}", "12"),
        ("\\textcolor{blue}{12}", "12"),
        ("\\phantom{0}12", "12"),
    ],
)
def test_math_forms_a_human_reads(box, gold):
    assert score("math", f"\\boxed{{{box}}}", gold).reason == "ok"


REMAINDER = {"type": "math", "question": "Find the remainder when $3^{100}$ is divided by 7."}
LINEAR = {"type": "math", "question": "Solve $2n + 1 = 15$."}


@pytest.mark.parametrize(
    ("box", "info", "reason"),
    [
        # 3^100 = 3^(6*16+4) = 3^4 = 81 = 4 (mod 7): the remainder, its modulus named after it
        ("4 \\pmod 7", REMAINDER, "ok"),
        ("4 \\pmod{7}", REMAINDER, "ok"),
        ("4 (\\text{mod } 7)", REMAINDER, "ok"),
        ("11 \\pmod 7", REMAINDER, "not_equal"),  # 11 is no remainder
        # n = 7 with no remainder asked: "7 (mod 10)" is a class of numbers, not the value
        ("7 \\pmod{10}", LINEAR, "unevaluated"),
    ],
)
def test_a_residue_with_its_modulus_is_the_value_where_the_question_asks_a_remainder(
    box, info, reason
):
    gold = "4" if info is REMAINDER else "7"
    verdict = compute_score("math", f"\\boxed{{{box}}}", gold, info, workers=1)
    assert verdict["reason"] == reason, verdict


def test_math_decimal_with_dots_that_does_not_repeat_is_no_repeating_decimal():
    # 3.14159... is pi cut short, not a repeating decimal; 0.2727... is not 0.27
    assert not score("math", "\\boxed{0.2727\\ldots}", "0.27").correct


def test_a_labelled_value_or_an_agreeing_approximation_is_fine():
    assert score("math", "\\boxed{n = 12}", "12").reason == "ok"
    assert score("math", "\\boxed{12 = n}", "12").reason == "ok"
    assert score("math", "\\boxed{f(3) = 12}", "12").reason == "ok"
    assert score("math", "\\boxed{12 = 12}", "12").reason == "ok"
    # |pi - 3.14| = 0.0016 < 0.005, half a unit of the last digit written
    assert score("math", "\\boxed{\\pi \\approx 3.14}", "\\pi").reason == "ok"
    assert score("math", "\\boxed{\\pi \\approx 3.15}", "\\pi").reason == "hedged"


@pytest.mark.parametrize(
    ("box", "gold", "reason"),
    [
        ("(x, y) = (1, 2)", "(1,2)", "ok"),
        ("(x,y)=(1,2)", "(1,2)", "ok"),
        ("(a, b) = (3, -1)", "(3,-1)", "ok"),
        (
            "(r,\\theta) = \\left(2, \\frac{\\pi}{3}\\right)",
            "\\left(2, \\frac{\\pi}{3}\\right)",
            "ok",
        ),
        ("\\left(x_1, x_2\\right) = (1, 2)", "(1,2)", "ok"),
        ("(1, 2) = (x, y)", "(1,2)", "ok"),
        ("(x, y, z) = (1, 2, 3)", "(1,2,3)", "ok"),
        ("(x, y) = (2, 1)", "(1,2)", "not_equal"),
        # a tuple of values is a value, not a label: both sides are graded
        ("(1, 2) = (2, 1)", "(1,2)", "hedged"),
        ("(x, 1) = (1, 2)", "(1,2)", "hedged"),
        ("7 = 8", "7", "hedged"),
    ],
)
def test_a_tuple_of_variable_names_labels_the_value(box, gold, reason):
    assert score("math", f"\\boxed{{{box}}}", gold).reason == reason


def test_a_bare_inequality_is_not_the_value():
    assert score("math", "\\boxed{\\geq 12}", "12").reason == "not_equal"
    assert score("math", "\\boxed{< 12}", "12").reason == "not_equal"


@pytest.mark.parametrize(
    ("box", "gold"),
    [
        ("\\text{four}", "4"),
        ("four", "4"),
        ("Four.", "4"),
        ("\\textbf{Twelve}", "12"),
        ("zero", "0"),
        ("twenty", "20"),
        ("\\text{seventeen}", "17"),
        ("4", "\\text{four}"),  # a gold written as a word is the number too
        ("\\text{twenty-one}", "21"),
        ("\\text{fifty-six}", "56"),
        ("\\text{one thousand}", "1000"),
        ("\\text{two hundred and five}", "205"),
    ],
)
def test_math_number_words_are_numbers(box, gold):
    assert score("math", f"The answer is \\boxed{{{box}}}.", gold).reason == "ok"


@pytest.mark.parametrize(
    ("box", "gold"),
    [
        ("\\text{five}", "4"),
        ("four + 1", "5"),  # inside an expression a word is not read as the number
        ("2 \\cdot four", "8"),
        ("\\text{twenty-one}", "22"),
        ("\\text{thousand}", "1000"),  # a scale word alone is no number
        ("\\text{nine nine}", "99"),  # digits spelled one by one are no number
        ("\\text{four or five}", "4"),
    ],
)
def test_math_number_words_only_as_the_whole_answer(box, gold):
    assert score("math", f"\\boxed{{{box}}}", gold).score == 0.0


@pytest.mark.parametrize(
    ("box", "gold", "reason"),
    [
        ("\\text{(B) } A", "\\text{(B)}", "ok"),  # choice (B) whose content is "A"
        ("(B) 204", "B", "ok"),
        ("(B) 204", "(B)", "ok"),
        ("\\textbf{(B)}\\ 204", "\\text{(B)}", "ok"),
        ("\\textbf{(B) } 204", "B", "ok"),
        ("B) 204", "B", "ok"),
        ("(B) P(A)", "B", "ok"),  # "(A)" inside the choice's content is no second label
        ("(B)", "B", "ok"),
        ("B", "\\text{(B)}", "ok"),
        ("\\text{B}", "(B)", "ok"),
        ("(C) 204", "B", "not_equal"),  # the content may be right, the label is not
        ("\\text{(A) } B", "\\text{(B)}", "not_equal"),  # graded on the label, not the content
        ("(B) 204 \\text{ or } (C) 205", "B", "hedged"),
        ("(B) 204 (probably)", "B", "hedged"),
        # a value gold: the label is read past and the value graded (today's rule)
        ("(B) 204", "204", "ok"),
        ("\\text{(B) } 204", "204", "ok"),
        ("(B) 205", "204", "not_equal"),
    ],
)
def test_math_multiple_choice(box, gold, reason):
    assert score("math", f"The answer is \\boxed{{{box}}}.", gold).reason == reason


def test_math_multiple_choice_two_boxes_with_the_same_label():
    # "\\boxed{B}" then "\\boxed{(B) 204}": one answer written twice
    assert score("math", "\\boxed{B}, that is \\boxed{(B) 204}", "B").reason == "ok"
    assert score("math", "\\boxed{B}, that is \\boxed{(C) 205}", "B").reason == "hedged"


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        (r"x \geq 2", r"[2, \infty)"),
        (r"x \ge 2", r"[2,\infty)"),
        (r"-2 < x < 4", "(-2, 4)"),
        (r"x \leq 5", r"(-\infty, 5]"),
        (r"x > -1", r"(-1, \infty)"),
        ("0 + 2i", "2i"),
        ("5 + 0i", "5"),  # a + bi with b = 0: a real number in complex standard form
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
        ("5 + 1 + 0i", "6", "unevaluated"),  # a real sum left to add, beside the 0i
        ("(1+i)^2", "2i", "unevaluated"),  # the question's computation
        ("2 + 2i", "2i", "not_equal"),
    ],
)
def test_other_values_and_computations_stay_wrong(answer, gold, reason):
    assert score("math", f"\\boxed{{{answer}}}", gold).reason == reason


def test_an_inequality_that_is_no_polynomial_is_graded_not_unparsable():
    assert score("math", r"\boxed{x > \sin x}", r"(0, \infty)").reason == "not_equal"


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


@pytest.mark.parametrize(
    ("box", "gold"),
    [
        ("204.", "204"),  # trailing period inside the box
        ("\\textbf{204}", "204"),
        ("**204**", "204"),
        ("\\text{204 minutes}", "204"),
        ("1\\,000\\,000", "1000000"),  # thin spaces as thousands separators
        ("2~\\pi", "2\\pi"),
        ("2\\;\\pi", "2\\pi"),
        ("2\\ \\pi", "2\\pi"),
        ("−3", "-3"),  # unicode minus
        ("2·\\sqrt{3}", "2\\sqrt{3}"),
        # unicode × and ÷ read as \\times and \\div, where the gold has the operation too
        # (2×3 for the gold 6 is a computation left to the verifier, test_math_computation.py)
        ("2×\\sqrt{3}", "2\\sqrt{3}"),
        ("\\pi ÷ 4", "\\frac{\\pi}{4}"),
        ("½", "\\frac{1}{2}"),
        ("√2", "\\sqrt{2}"),
        ("3√2", "3\\sqrt{2}"),
        ("x²+12x+35", "x^2+12x+35"),  # unicode superscripts are exponents
        ("2¹⁰", "2^{10}"),
        ("x⁻¹", "\\frac{1}{x}"),
        ("30°", "30"),
        ("30^\\circ", "30"),
        ("∞", "\\infty"),
        ("25\\%", "25"),  # a percent sign where the gold is a percentage
        ("25%", "25"),
        ("25", "25\\%"),
        ("0.25", "25\\%"),
        ("25\\%", "0.25"),
        ("3+4\\mathrm{i}", "3+4i"),
        ("x = 3", "3"),
        ("\\frac{1}{2}", "0.5"),
        ("$\\frac{1}{2}$", "\\frac{1}{2}"),
        ("1 \\text{ or } 2", "1, 2"),  # both roots asked for: the complete answer, not a hedge
        ("\\textbf{(C)}\\ 204", "204"),  # an AMC choice label before the value
        ("(C) 204", "204"),
    ],
)
def test_math_right_answers_in_other_forms_score_one(box, gold):
    assert score("math", f"The answer is \\boxed{{{box}}}", gold).reason == "ok"


@pytest.mark.parametrize(
    ("response", "gold", "reason"),
    [
        ("\\boxed{3} or \\boxed{4}", "3", "hedged"),
        ("\\boxed{4}. Hmm, actually \\boxed{3}", "3", "hedged"),  # the last box is right
        ("\\boxed{3 \\text{ or } 4}", "3", "hedged"),
        ("\\boxed{3 or 4}", "3", "hedged"),
        ("\\boxed{25\\%}", "0.3", "not_equal"),
        # a percentage is one value: of a count more than 1, its number; of a share, its hundredth
        ("\\boxed{700\\%}", "7", "not_equal"),
        ("\\boxed{0.5\\%}", "\\frac{1}{2}", "not_equal"),
        ("\\boxed{0.07\\%}", "0.07", "not_equal"),
        ("\\boxed{2500\\%}", "25\\%", "not_equal"),
        ("\\boxed{2.5}", "25\\%", "not_equal"),
        # the gold's + is a complex number's standard form, so 3+4 adds numbers the gold does not
        ("\\boxed{3+4}", "3+4i", "unevaluated"),
        ("\\boxed{31°}", "30", "not_equal"),
        ("\\boxed{\\textbf{(B)}\\ 205}", "204", "not_equal"),
    ],
)
def test_math_hedges_and_wrong_forms_score_zero(response, gold, reason):
    verdict = score("math", response, gold)
    assert (verdict.score, verdict.reason) == (0.0, reason)


@pytest.mark.parametrize(
    ("box", "gold", "reason"),
    [
        # two solutions joined by "and" are the list of both, as a comma or "or" joins them
        ("x = 1 \\text{ and } x = 2", "1, 2", "ok"),
        ("x = 1 \\quad\\text{and}\\quad x = 2", "1, 2", "ok"),
        ("x = 1 \\text{ and } x = 2", "\\{1, 2\\}", "ok"),
        ("x=1 \\text{ and } x=2", "1,2", "ok"),
        ("x = 1 \\land x = 2", "1, 2", "ok"),
        ("x = 2 \\text{ and } x = 1", "1, 2", "ok"),
        # one wrong root: wrong (x = 3 is no root of the gold's pair)
        ("x = 1 \\text{ and } x = 3", "1, 2", "not_equal"),
        # a pair of names labels its pair of values
        ("(x, y) = (1, 2)", "(1, 2)", "ok"),
        ("(x,y)=(1,2)", "(1,2)", "ok"),
    ],
)
def test_solutions_joined_by_and_are_the_list_of_them(box, gold, reason):
    assert score("math", f"\\boxed{{{box}}}", gold).reason == reason


def test_two_values_joined_by_and_for_one_gold_are_a_hedge():
    # the gold is one value; "x = 1 and x = 2" offers a second
    assert score("math", "\\boxed{x = 1 \\text{ and } x = 2}", "1").reason == "hedged"


@pytest.mark.parametrize(
    ("box", "gold", "reason"),
    [("12 \\text{ thousand}", "12", "not_equal"),  # 12 x 1000 = 12000
     ("12\\text{k}", "12", "not_equal"),
     ("12 \\text{ dozen}", "12", "not_equal"),  # 144
     ("12 \\text{ thousand}", "12000", "ok"),
     ("1.2 \\text{ million}", "1200000", "ok"),  # 1.2 x 10^6
     ("\\text{3 dozen}", "36", "ok"),
     ("300 \\text{K}", "300", "ok"),  # kelvin, a unit
     ("12k", "12k", "ok")],  # a product with the variable k
)  # fmt: skip
def test_a_word_of_scale_after_a_number_multiplies_it(box, gold, reason):
    assert score("math", f"\\boxed{{{box}}}", gold).reason == reason


@pytest.mark.parametrize(
    ("box", "gold", "reason"),
    [("7'''", "7", "unparsable"), ("7" + "'" * 140, "7", "unparsable"), ("7'", "7", "ok"),
     ("7''", "7", "ok"), ("f'''(x)", "f'''(x)", "ok")],
    ids=["three primes", "140 primes", "feet", "inches", "the gold's own"],
)  # fmt: skip
def test_a_run_of_primes_after_a_number_is_no_value(box, gold, reason):
    assert score("math", f"\\boxed{{{box}}}", gold).reason == reason


@pytest.mark.parametrize(
    ("box", "gold", "reason"),
    [
        # two bounds of one variable joined by "and" are the open interval between them
        ("x>-2 \\text{ and } x<8", "(-2, 8)", "ok"),
        ("x > -2 \\land x < 8", "(-2, 8)", "ok"),
        ("-2 < x \\text{ and } x < 8", "(-2, 8)", "ok"),
        ("x \\ge -2 \\text{ and } x<8", "[-2, 8)", "ok"),
        ("x \\ge -2 \\text{ and } x<8", "(-2, 8)", "not_equal"),  # -2 is in it, not in (-2, 8)
        ("x>-2 \\text{ and } x<9", "(-2, 8)", "not_equal"),
        ("x>-2 \\text{ and } y<8", "(-2, 8)", "not_equal"),  # two variables: no interval
        # a mixed number read aloud: 3 and 2/5 = 17/5
        ("3 \\text{ and } \\frac{2}{5}", "3\\frac{2}{5}", "ok"),
        ("3 and 2/5", "3\\frac{2}{5}", "ok"),
        ("3 \\text{ and } \\frac{3}{5}", "3\\frac{2}{5}", "not_equal"),
        # factors side by side with a space or a \\cdot between them are a product, no aside
        ("(x-3)\\,(x-2)", "(x-2)(x-3)", "ok"),
        ("(x-2) \\cdot (x-3)", "(x-2)(x-3)", "ok"),
        ("(x-3)\\,(x-4)", "(x-2)(x-3)", "not_equal"),
        ("7\\,(8)", "7", "hedged"),  # a number beside a number in brackets: two values
        # ISO brackets: a bracket turned away from an end leaves it open
        ("]2, 5[", "(2, 5)", "ok"),
        ("]2;5[", "(2, 5)", "ok"),
        ("[2, 5[", "[2, 5)", "ok"),
        ("\\left]-2, 8\\right]", "(-2, 8]", "ok"),
        ("]2, 5[", "[2, 5]", "not_equal"),  # 2 and 5 are left out
        ("[2, 5[", "[2, 5]", "not_equal"),
        # a mixed number with a slash: 3 + 2/5 = 17/5
        ("3\\ 2/5", "3\\frac{2}{5}", "ok"),
        ("3 2/5", "3\\frac{2}{5}", "ok"),
        ("3\\ 3/5", "3\\frac{2}{5}", "not_equal"),
        # 2 + 7/5 = 17/5 too, but a mixed number's fraction is proper (and reduced)
        ("2\\frac{7}{5}", "3\\frac{2}{5}", "unevaluated"),
        ("1\\frac{12}{5}", "3\\frac{2}{5}", "unevaluated"),
        ("2 7/5", "3\\frac{2}{5}", "unevaluated"),
        # odds of one in two: the probability 1/2
        ("\\text{1 in 2}", "\\frac{1}{2}", "ok"),
        ("1 \\text{ in } 2", "\\frac{1}{2}", "ok"),
        ("\\text{1 out of 2}", "\\frac{1}{2}", "ok"),
        ("1 in 3", "\\frac{1}{2}", "not_equal"),
    ],
)
def test_math_bounds_joined_by_and_mixed_numbers_with_a_slash_and_odds(box, gold, reason):
    assert score("math", f"The answer is $\\boxed{{{box}}}$.", gold).reason == reason


def test_math_a_mixed_number_is_no_common_fraction():
    # 12/5 = 2 2/5: right in value, but the question asks for a common fraction
    verdict = score("math", "$\\boxed{2\\frac{2}{5}}$", "\\frac{12}{5}", forms=("fraction",))
    assert not verdict.correct
    assert score("math", "$\\boxed{\\frac{12}{5}}$", "\\frac{12}{5}", forms=("fraction",)).correct

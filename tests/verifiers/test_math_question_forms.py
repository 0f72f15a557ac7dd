"""The form rule of math answers (docs/guides/rewards.md#math-forms): when the gold is a form (an
expanded polynomial, a product of factors, a reduced fraction, a rationalised or simplified
radical, a simplified rational function), the answer must be in that form too, and an answer that
copies one of the question's own expressions never scores 1 when the gold differs from it."""

from __future__ import annotations

import pytest

from pac_verl.data_prep.rows import make_row
from pac_verl.verifiers import compute_score
from pac_verl.verifiers.math import score
from pac_verl.verifiers.math.question import (
    FORMS_VERSION,
    STATED,
    question_expressions,
    question_forms,
    question_of,
)

EXPAND_12 = (
    "x^{12}+12x^{11}+66x^{10}+220x^{9}+495x^{8}+792x^{7}+924x^{6}+792x^{5}+495x^{4}+220x^{3}"
    "+66x^{2}+12x+1"
)
THIRTY = "\\frac{" + "(x+1)" * 30 + "}{" + "(x+1)" * 18 + "}"

# (question, gold, answer, right?)
CASES = [
    ("Expand $(x+5)(x+7)$.", "x^2+12x+35", "(x+5)(x+7)", False),
    ("Expand $(x+5)(x+7)$.", "x^2+12x+35", "(x+7)(x+5)", False),
    ("Expand $(x+5)(x+7)$.", "x^2+12x+35", "x(x+7)+5(x+7)", False),
    ("Expand $(x+5)(x+7)$.", "x^2+12x+35", "x^2+5x+7x+35", False),
    ("Expand $(x+5)(x+7)$.", "x^2+12x+35", "x^2+12x+35", True),
    ("Expand $(x+5)(x+7)$.", "x^2+12x+35", "35+12x+x^2", True),
    ("Expand $(x+5)(x+7)$.", "x^2+12x+35", "x^{2} + 12 x + 35", True),
    ("Factor $x^2-5x+6$.", "(x-2)(x-3)", "(x-2)(x-3)", True),
    ("Factor $x^2-5x+6$.", "(x-2)(x-3)", "(x-3)(x-2)", True),
    ("Factor $x^2-5x+6$.", "(x-2)(x-3)", "x^2-5x+6", False),
    ("Factor $x^2-5x+6$.", "(x-2)(x-3)", "(x^2-5x+6)\\cdot 1", False),
    ("Factor $2x^2+6x$.", "2x(x+3)", "x(2x+6)", False),  # not completely factored
    ("Reduce $\\frac{18}{24}$ to lowest terms.", "\\frac{3}{4}", "\\frac{3}{4}", True),
    ("Reduce $\\frac{18}{24}$ to lowest terms.", "\\frac{3}{4}", "3/4", True),
    ("Reduce $\\frac{18}{24}$ to lowest terms.", "\\frac{3}{4}", "\\frac{18}{24}", False),
    ("Reduce $\\frac{18}{24}$ to lowest terms.", "\\frac{3}{4}", "18/24", False),
    ("Reduce $\\frac{18}{24}$ to lowest terms.", "\\frac{3}{4}", "\\frac{9}{12}", False),
    ("Rationalize the denominator: $\\frac{2}{\\sqrt{6}}$.", "\\frac{\\sqrt{6}}{3}",
     "\\frac{\\sqrt{6}}{3}", True),
    ("Rationalize the denominator: $\\frac{2}{\\sqrt{6}}$.", "\\frac{\\sqrt{6}}{3}",
     "\\frac{2}{\\sqrt{6}}", False),
    ("Rationalize the denominator: $\\frac{2}{\\sqrt{6}}$.", "\\frac{\\sqrt{6}}{3}",
     "\\frac{1}{3}\\sqrt{6}", True),
    ("Simplify $\\sqrt{72}$.", "6\\sqrt{2}", "6\\sqrt{2}", True),
    ("Simplify $\\sqrt{72}$.", "6\\sqrt{2}", "\\sqrt{72}", False),
    ("Simplify $\\sqrt{72}$.", "6\\sqrt{2}", "2\\sqrt{18}", False),
    ("Simplify $\\sqrt{72}$.", "6\\sqrt{2}", "3\\sqrt{8}", False),
    ("Simplify $\\frac{x^2-9}{x-3}$.", "x+3", "x+3", True),
    ("Simplify $\\frac{x^2-9}{x-3}$.", "x+3", "\\frac{x^2-9}{x-3}", False),
    ("Simplify $\\frac{x^2-9}{x-3}$.", "x+3", "\\frac{(x-3)(x+3)}{x-3}", False),
    ("Simplify $\\frac{x^2+3x+2}{x^2-1}$.", "\\frac{x+2}{x-1}", "\\frac{x+2}{x-1}", True),
    ("Simplify $\\frac{x^2+3x+2}{x^2-1}$.", "\\frac{x+2}{x-1}",
     "\\frac{x^2+3x+2}{x^2-1}", False),
    ("Simplify $\\frac{x^2+3x+2}{x^2-1}$.", "\\frac{x+2}{x-1}", "1+\\frac{3}{x-1}", False),
    ("Expand $(x+1)^{12}$.", EXPAND_12, "(x+1)^{12}", False),
    ("Expand $(x+1)^{12}$.", EXPAND_12, "(x+1)^{6}(x+1)^{6}", False),
    ("Expand $(x+1)^{12}$.", EXPAND_12, THIRTY, False),
    ("Expand $(x+1)^{12}$.", EXPAND_12, EXPAND_12 + "+(x+1)^{500}-(x+1)^{500}", False),
    ("Expand $(x+1)^{12}$.", EXPAND_12, EXPAND_12, True),
    ("Express $0.\\overline{3}$ as a common fraction.", "\\frac{1}{3}", "0.\\overline{3}", False),
    ("Express $0.\\overline{3}$ as a common fraction.", "\\frac{1}{3}", "\\frac{1}{3}", True),
    ("Write $\\frac{3}{8}$ as a decimal.", "0.375", "\\frac{3}{8}", False),
    ("Write $\\frac{3}{8}$ as a decimal.", "0.375", "0.375", True),
    # the question's expression is the gold in another notation: not a copy
    ("Which is larger, $\\frac{3}{4}$ or $\\frac{2}{3}$?", "\\frac34", "\\frac{3}{4}", True),
    ("Express $0.375$ as a common fraction.", "\\frac{3}{8}", "0.375", False),
    ("Express $0.375$ as a common fraction.", "\\frac{3}{8}", "\\frac{3}{8}", True),
    # a percentage is neither a common fraction nor a decimal: 37.5% is 3/8 in another notation
    ("Express $0.375$ as a common fraction.", "\\frac{3}{8}", "37.5\\%", False),
    ("What is $18/24$ as a common fraction?", "\\frac{3}{4}", "75\\%", False),
    ("Express $3/8$ as a decimal.", "0.375", "37.5\\%", False),
    ("What percent of 8 is 3?", "37.5\\%", "37.5\\%", True),
    # a percentage is one value by the question's units: 20/80 = 25 percent, not 2500 percent;
    # a probability of 1/2 is 50%, not 0.5%; a count of 7 dollars is no 700%
    ("What percent of 80 is 20?", "25", "25\\%", True),
    ("What percent of 80 is 20?", "25", "2500\\%", False),
    ("What percentage of 80 is 20?", "25", "2500\\%", False),
    ("A fair coin is tossed. What is the probability of heads?", "\\frac{1}{2}", "50\\%", True),
    ("A fair coin is tossed. What is the probability of heads?", "\\frac{1}{2}", "0.5\\%", False),
    ("Ann has 3 dollars and gets 4 more. How many dollars does she have?", "7", "700\\%", False),
    # a question that asks for no percent: a percentage of a count is no count (7% is 0.07)
    ("Solve $2n+1=15$ for $n$.", "7", "7\\%", False),
    ("Solve $2n+1=15$ for $n$.", "7", "7 \\text{ percent}", False),
    ("If 20% of the 35 pupils are boys, how many are girls?", "28", "28\\%", False),
    ("What is 20% of 35?", "7", "7\\%", False),
    ("What is 20% of 35?", "7", "7", True),
    # the percent asked in its other spellings
    ("By how much, in %, did the price of 80 rise to 100?", "25", "25\\%", True),
    ("Of 80 pupils 20 walk. What share walks (%)?", "25", "25\\%", True),
    ("The rate fell from 9% to 7%. By how many percentage points did it fall?", "2", "2\\%", True),
    # the wording in its other spellings: a reduced fraction, decimal notation, a percent
    ("Express $0.\\overline{36}$ as a reduced fraction.", "\\frac{4}{11}", "0.3636\\ldots", False),
    ("Express $0.\\overline{36}$ as a reduced fraction.", "\\frac{4}{11}", "\\frac{4}{11}", True),
    ("Write $\\frac{7}{20}$ in decimal notation.", "0.35", "\\frac{35}{100}", False),
    ("Write $\\frac{7}{20}$ in decimal notation.", "0.35", "0.35", True),
    ("Express $\\frac{7}{20}$ as a percent.", "35\\%", "0.35", False),
    ("Express $\\frac{7}{20}$ as a percent.", "35\\%", "35\\%", True),
    ("What is $2.5$ times $2$?", "5", "5", True),  # a number the question gives
    # the form the wording asks for: a common fraction, or a decimal
    ("What is $\\frac{1}{3}+\\frac{2}{5}$? Express your answer as a common fraction.",
     "\\frac{11}{15}", "0.7\\overline{3}", False),
    ("What is $\\frac{1}{3}+\\frac{2}{5}$? Express your answer as a common fraction.",
     "\\frac{11}{15}", "11/15", True),
    ("What is $\\frac{1}{3}+\\frac{2}{5}$?", "\\frac{11}{15}", "0.7\\overline{3}", True),
    ("Write $\\frac{3}{8}$ as a decimal.", "0.375", "\\frac{6}{16}", False),
    ("If $x = 3$, find $x^2+1$.", "10", "10", True),
    # lowest terms: a constant common to numerator and denominator is a common factor too
    ("Simplify $\\frac{x^2+3x+2}{x^2-1}$.", "\\frac{x+2}{x-1}", "\\frac{2x+4}{2x-2}", False),
    ("Simplify $\\frac{x^2+3x+2}{x^2-1}$.", "\\frac{x+2}{x-1}", "\\frac{-3x-6}{3-3x}", False),
    ("Simplify $\\frac{x^2+3x+2}{x^2-1}$.", "\\frac{x+2}{x-1}", "\\frac{0.5x+1}{0.5x-0.5}", False),
    ("Simplify $\\frac{x^2+3x+2}{x^2-1}$.", "\\frac{x+2}{x-1}", "\\frac{-x-2}{1-x}", True),
    ("Combine $\\frac{1}{2x-2}+\\frac{1}{2x+2}$.", "\\frac{x}{x^2-1}", "\\frac{4x}{4x^2-4}", False),
    ("Combine $\\frac{1}{2x-2}+\\frac{1}{2x+2}$.", "\\frac{x}{x^2-1}", "\\frac{x}{x^2-1}", True),
    ("Combine $\\frac{2}{x-1}+\\frac{3}{x+1}$.", "\\frac{5x-1}{x^2-1}", "\\frac{10x-2}{2x^2-2}", False),
    ("Simplify $\\frac{6x^2+3x}{9x^2-3x}$.", "\\frac{2x+1}{3x-1}", "\\frac{6x+3}{9x-3}", False),
    ("Simplify $\\frac{6x^2+3x}{9x^2-3x}$.", "\\frac{2x+1}{3x-1}", "\\frac{2x+1}{3x-1}", True),
    # powers of one base left to multiply, and a power of 0, are a computation left undone
    ("Simplify $(2x^3)^2\\cdot x$.", "4x^7", "4x^6 \\cdot x", False),
    ("Simplify $(2x^3)^2\\cdot x$.", "4x^7", "4x^7", True),
    ("Simplify $x^2\\cdot x^3 y$.", "x^5y", "x^2x^3y", False),
    ("Simplify $x^2\\cdot x^3 y$.", "x^5y", "yx^5", True),
    ("Expand $(x+5)(x+7)$.", "x^2+12x+35", "x\\cdot x+12x+35", False),
    ("Expand $(x+5)(x+7)$.", "x^2+12x+35", "x^2+12x+35x^0", False),
    ("Simplify $\\sqrt{x^3}$.", "x\\sqrt{x}", "x\\sqrt{x}", True),  # a root of x is not x
    # the form the wording asks for: interval notation
    ("Solve $x^2-5x+6 \\le 0$. Express your answer in interval notation.", "[2,3]",
     "2 \\le x \\le 3", False),
    ("Solve $x^2-5x+6 \\le 0$. Express your answer in interval notation.", "[2,3]", "[2, 3]", True),
    ("Solve $x^2-5x+6 \\le 0$.", "[2,3]", "2 \\le x \\le 3", True),
    # "to lowest terms" asks for a fraction (84/126 = 2/3): a decimal or a mixed number is none
    ("Reduce $\\frac{84}{126}$ to lowest terms.", "\\frac{2}{3}", "0.\\overline{6}", False),
    ("Reduce $\\frac{84}{126}$ to lowest terms.", "\\frac{2}{3}", "\\frac{2}{3}", True),
    ("Write $\\frac{17}{5}$ in lowest terms.", "\\frac{17}{5}", "3\\frac{2}{5}", False),
]  # fmt: skip


def _id(case):
    question, _gold, answer, right = case
    return f"{question[:20]}|{answer[:30]}|{int(right)}"


@pytest.mark.parametrize("case", CASES, ids=[_id(c) for c in CASES])
def test_form_and_copied_question(case):
    question, gold, answer, right = case
    expressions, forms = question_of({"question": question})  # as the reward reads a row
    verdict = score(f"\\boxed{{{answer}}}", gold, question=expressions, forms=forms)
    assert verdict.correct is right, verdict


def test_the_form_rule_holds_without_the_question():
    """The form of the gold alone settles most copies: rows without question expressions."""
    assert not score("\\boxed{(x+5)(x+7)}", "x^2+12x+35").correct
    assert not score("\\boxed{\\frac{18}{24}}", "\\frac{3}{4}").correct
    assert not score("\\boxed{\\sqrt{72}}", "6\\sqrt{2}").correct
    assert not score("\\boxed{\\frac{2}{\\sqrt{6}}}", "\\frac{\\sqrt{6}}{3}").correct
    assert score("\\boxed{35+12x+x^2}", "x^2+12x+35").correct


@pytest.mark.parametrize(
    ("answer", "gold", "right"),
    [
        ("\\sqrt{12}", "2\\sqrt{3}", False),  # a radicand with a square factor
        ("\\frac{2}{4}", "\\frac{1}{2}", False),  # a fraction not in lowest terms
        ("\\frac{1}{\\sqrt{2}}", "\\frac{\\sqrt{2}}{2}", False),  # a radical in a denominator
        ("(x+1)^2", "x^2+2x+1", False),  # a product where the gold is expanded
        ("2\\sqrt{2}", "\\sqrt{8}", True),  # a gold not in simplest form: simpler is fine
        ("\\frac{2}{4}", "0.5", True),  # a decimal gold has no fraction to keep reduced
        ("\\sqrt{2}/2", "\\frac{\\sqrt{2}}{2}", True),
        ("(2+y)(y+2)", "(y+2)^2", True),
        ("-(x-2)(3-x)", "(x-2)(x-3)", True),
        ("2x(x+3)", "2x(x+3)", True),
        ("x(2x+6)", "2x(x+3)", False),
        ("\\frac{x+2}{x-1}", "\\frac{x+2}{x-1}", True),
        ("\\frac{2+x}{-1+x}", "\\frac{x+2}{x-1}", True),
        # radicals: one radical, its radicand free of perfect powers
        ("\\sqrt{49\\cdot 5}", "7\\sqrt{5}", False),
        ("\\sqrt[3]{27\\cdot 2}", "3\\sqrt[3]{2}", False),
        ("\\sqrt[3]{8x^6}\\cdot\\sqrt[3]{2}", "2x^2\\sqrt[3]{2}", False),
        ("\\sqrt{15}\\sqrt{35}", "5\\sqrt{21}", False),
        ("2\\sqrt[3]{2}x^2", "2x^2\\sqrt[3]{2}", True),
        ("\\frac{2\\sqrt{6}}{6}", "\\frac{\\sqrt{6}}{3}", False),  # coefficient over denominator
        ("\\frac{9}{6x}", "\\frac{3}{2x}", False),
        # monomials written out, with positive exponents where the gold has them
        ("(2x)^2+2(2x)(3y)+(3y)^2", "4x^2+12xy+9y^2", False),
        ("x^{-4}y^{6}", "\\frac{y^6}{x^4}", False),
        ("\\frac{1}{x^4y^{-6}}", "\\frac{y^6}{x^4}", False),
        ("y^6/x^4", "\\frac{y^6}{x^4}", True),
        ("-8b^3a^6", "-8a^6b^3", True),
        # a denominator may be factored or expanded
        ("\\frac{1}{(x+1)(x-1)}", "\\frac{1}{x^2-1}", True),
        ("\\frac{2x+1}{x^2+x}", "\\frac{2x+1}{x(x+1)}", True),
    ],
)
def test_the_gold_form_without_a_question(answer, gold, right):
    assert score(f"\\boxed{{{answer}}}", gold).correct is right


def test_question_expressions_from_the_prompt():
    text = "Expand $(x+5)(x+7)$ and \\(y=2x\\); also \\[\\sqrt{72}\\] and $$a+b$$. Cost: \\$5."
    assert question_expressions(text) == ["(x+5)(x+7)", "y=2x", "y", "2x", "\\sqrt{72}", "a+b"]


def test_math_rows_carry_the_question_expressions():
    row = make_row(data_source="math", prompt="Simplify $\\sqrt{72}$.", task_type="math",
                   ground_truth="6\\sqrt{2}", split="train", index=0)  # fmt: skip
    assert row["extra_info"]["question_expressions"] == ["\\sqrt{72}"]
    assert row["extra_info"]["question_forms"] == []
    assert row["extra_info"]["question_forms_version"] == FORMS_VERSION
    asks = make_row(data_source="math", prompt="Express $0.\\overline{3}$ as a common fraction.",
                    task_type="math", ground_truth="\\frac13", split="train", index=0)  # fmt: skip
    assert asks["extra_info"]["question_forms"] == ["fraction"]
    other = make_row(data_source="zebra", prompt="Who is $x$?", task_type="zebra",
                     ground_truth="a", split="train", index=0)  # fmt: skip
    assert "question_expressions" not in other["extra_info"]
    assert "question_forms" not in other["extra_info"]


def _call(question, gold, answer, info_key):
    if info_key == "question_expressions":  # what the builders write
        info = make_row(data_source="math", prompt=question, task_type="math", ground_truth=gold,
                        split="train", index=0)["extra_info"]  # fmt: skip
    else:  # a row built before the field existed: the question text is read instead
        info = {"type": "math", info_key: question}
    return compute_score("math", f"\\boxed{{{answer}}}", gold, info, workers=1)


@pytest.mark.parametrize(
    ("info", "right"),
    [
        # recorded by this reading: the question asks for no percent, so 7% is no count of 7
        ({"question_forms": [], "question_forms_version": FORMS_VERSION}, False),
        ({"question_forms": [], "question_forms_version": 2}, False),  # 2 read every percent
        # recorded by an older reading (no version), or no question at all: the units are unknown,
        # and a percentage over 1 is read as its number (a count is no share)
        ({"question_forms": []}, True),
        ({}, True),
        # read now from the question text the row carries
        ({"question": "Solve $2n+1=15$ for $n$."}, False),
        ({"question": "What percent of 80 is 5.6?"}, True),
    ],
)
def test_a_percentage_of_a_count_by_what_the_row_says_of_its_question(info, right):
    verdict = compute_score("math", "\\boxed{7\\%}", "7", {"type": "math", **info}, workers=1)
    assert (verdict["acc"] == 1.0) is right, verdict


@pytest.mark.parametrize("info_key", ["question_expressions", "question", "prompt"])
def test_compute_score_judges_the_form(info_key):
    """The entry verl calls, with the question in extra_info as the rows carry it."""
    got = [_call(q, g, a, info_key)["acc"] == 1.0 for q, g, a, _ in CASES]
    assert got == [right for *_, right in CASES]


@pytest.mark.parametrize(
    ("answer", "gold"),
    [
        ("\\frac{(x+1)^{300}}{(x+1)^{298}(x-1)}", "\\frac{(x+1)^2}{x-1}"),  # gcd past its bound
        ("\\frac{\\sqrt{72 \\cdot 10^{18}}}{10^{9}}", "6\\sqrt{2}"),  # radicand past its bound
    ],
)
def test_past_a_bound_the_answer_is_not_correct(answer, gold):
    verdict = score(f"\\boxed{{{answer}}}", gold)
    assert (verdict.correct, verdict.reason) == (False, "too_complex")


def test_compute_score_async_judges_the_form():
    import asyncio

    from pac_verl.verifiers import compute_score_async

    info = {"type": "math", "question_expressions": ["\\frac{3}{8}"]}

    async def both():
        copy = await compute_score_async("math", "\\boxed{\\frac{3}{8}}", "0.375", info, workers=1)
        right = await compute_score_async("math", "\\boxed{0.375}", "0.375", info, workers=1)
        return copy, right

    copy, right = asyncio.run(both())
    assert (copy["acc"], copy["reason"], right["acc"]) == (0.0, "copied_question", 1.0)


# one fraction of integers in the spellings a box may use
_SPELLINGS = [
    "\\frac{{{a}}}{{{b}}}", "\\dfrac{{{a}}}{{{b}}}", "\\tfrac{{{a}}}{{{b}}}", "{{{a} \\over {b}}}",
    "{{{{{a}}} \\over {{{b}}}}}", "{a} \\over {b}", "\\frac{{-{a}}}{{-{b}}}",
    "{{-{a} \\over -{b}}}", "{a}/{b}", "{a} \\div {b}", "{a}:{b}", "{a} : {b}",
]  # fmt: skip
_INFOS = [
    {"type": "math"},
    {"type": "math", "question_expressions": ["\\frac{18}{24}"], "question_forms": ["fraction"]},
    {"type": "math", "question_expressions": ["18/24"], "question_forms": ["fraction"]},
    {"type": "math", "question_expressions": ["24", "18"], "question_forms": ["fraction"]},
]


@pytest.mark.parametrize("info", _INFOS)
@pytest.mark.parametrize("spelling", _SPELLINGS)
def test_every_spelling_of_an_integer_fraction_meets_the_form_rule(spelling, info):
    """An unreduced (or copied) fraction of integers fails in every notation; the reduced one
    scores 1 in every notation."""
    unreduced = f"\\boxed{{{spelling.format(a=18, b=24)}}}"
    reduced = f"\\boxed{{{spelling.format(a=3, b=4)}}}"
    wrong = compute_score("x", unreduced, "\\frac{3}{4}", info)
    assert wrong["score"] == 0.0 and wrong["reason"] in ("unevaluated", "copied_question"), wrong
    assert compute_score("x", reduced, "\\frac{3}{4}", info)["score"] == 1.0


@pytest.mark.parametrize(
    ("answer", "gold", "right"),
    [
        ("\\frac{-3}{-4}", "\\frac{3}{4}", True),
        ("\\frac{3}{-4}", "-\\frac{3}{4}", True),
        ("{-3 \\over 4}", "-\\frac{3}{4}", True),
        ("\\frac{-6}{8}", "-\\frac{3}{4}", False),
        ("1 + {2 \\over 4}", "\\frac{3}{2}", False),
        ("\\frac{1}{2} + {1 \\over 4}", "\\frac{3}{4}", False),
        ("{8 \\over 2}", "4", False),  # a fraction whose value is an integer
        ("3:4", "3:4", True),
        ("6:8", "3:4", False),
        ("12:30", "12:30", True),
        ("2:1", "2", True),  # a ratio to 1 is its first term
        ("x^{1 \\over 2}", "\\sqrt{x}", True),
    ],
)
def test_integer_fractions_inside_an_answer(answer, gold, right):
    assert score(f"\\boxed{{{answer}}}", gold).correct is right


AMC_CHOICES = (
    "\\textbf{(A) } 200 \\qquad \\textbf{(B) } 204 \\qquad \\textbf{(C) } 205 \\qquad "
    "\\textbf{(D) } 210 \\qquad \\textbf{(E) } 220"
)


@pytest.mark.parametrize(
    ("answer", "right"),
    [("B", True), ("(B)", True), ("\\textbf{(B)}", True), ("C", False), ("B or C", False)],
)
def test_a_bare_choice_label_is_the_value_the_question_lists_for_it(answer, right):
    # the gold is the value 204, which the question lists as choice (B)
    verdict = score(f"So \\boxed{{{answer}}}", "204", question=[AMC_CHOICES])
    assert verdict.correct is right, verdict


def test_a_bare_choice_label_without_the_questions_choices_is_no_value():
    assert score("So \\boxed{B}", "204").correct is False


@pytest.mark.parametrize(
    ("answer", "right"),
    [
        ("(B) 204", True), ("\\text{(B) } 204", True), ("B", True), ("(B) \\text{ is listed}", True),
        ("204", True),  # the value the question lists for the gold's label
        ("(B) 214", False), ("\\text{(B) } 194", False),  # the label, with another value
        ("205", False), ("(C) 205", False),
    ],
)  # fmt: skip
def test_a_label_gold_with_the_questions_choices_judges_the_value_given_too(answer, right):
    verdict = score(f"So \\boxed{{{answer}}}", "\\text{(B)}", question=[AMC_CHOICES])
    assert verdict.correct is right, verdict


PLAIN_CHOICES_QUESTION = "Which of these is prime? (A) 200 (B) 204 (C) 205 (D) 211 (E) 220"


def test_a_choice_list_in_plain_text_is_one_question_expression():
    assert question_expressions(PLAIN_CHOICES_QUESTION) == [
        "(A) 200 (B) 204 (C) 205 (D) 211 (E) 220"
    ]
    assert question_expressions("Compute $2+3$. The label (A) alone lists nothing.") == ["2+3"]


@pytest.mark.parametrize(
    ("answer", "right"),
    [("211", True), ("D", True), ("(D) 211", True), ("205", False), ("(D) 205", False)],
)
def test_a_label_gold_reads_a_choice_list_written_without_dollars(answer, right):
    # 211 is the one prime listed, as choice (D)
    question = question_expressions(PLAIN_CHOICES_QUESTION)
    verdict = score(f"So \\boxed{{{answer}}}", "\\text{(D)}", question=question)
    assert verdict.correct is right, verdict


@pytest.mark.parametrize(
    ("answer", "right"), [("(A)\\ 2^{10}", True), ("(A) 1024", True), ("(B)", False)]
)
def test_choices_whose_values_were_in_math_delimiters_list_no_joining_word(answer, right):
    # "Which is larger, (A) $2^{10}$ or (B) $10^3$?": 1024 > 1000; the text between the
    # delimiters reads "(A) or (B)", and "or" is no value of (A)
    question = question_expressions(
        "Which is larger, (A) $2^{10}$ or (B) $10^3$? Answer (A) or (B)."
    )
    verdict = score(f"So \\boxed{{{answer}}}", "\\text{(A)}", question=question)
    assert verdict.correct is right, verdict


def test_a_label_gold_without_the_questions_choices_judges_the_label_alone():
    assert score("So \\boxed{(B) 214}", "\\text{(B)}").correct  # nothing to hold 214 against


@pytest.mark.parametrize(
    ("answer", "gold", "right"),
    [
        # the gold's form is the form asked: a mixed number (17/5 = 3 2/5)
        ("3\\frac{2}{5}", "3\\frac{2}{5}", True),
        ("3\\tfrac{2}{5}", "3\\frac{2}{5}", True),
        ("3.4", "3\\frac{2}{5}", False),
        ("\\frac{17}{5}", "3\\frac{2}{5}", False),
        # an equation solved for y (the slope-intercept form): 2x - y + 3 = 0 is the same line
        ("y = 3 + 2x", "y=2x+3", True),
        ("2x+3=y", "y=2x+3", True),
        ("2x-y+3=0", "y=2x+3", False),
        # the function of x names the same dependent value as y
        ("f(x) = 2x+3", "y=2x+3", True),
        ("g(x)=3+2x", "y=2x+3", True),
        ("f(x) = 2x+4", "y=2x+3", False),
        ("f(t) = 2x+3", "y=2x+3", False),  # a function of another variable is another relation
        # the box names what it computes: m + n = 2 + 5 = 7
        ("m+n=7", "7", True),
        ("m+n=8", "7", False),
    ],
)
def test_the_golds_form_mixed_number_solved_equation_and_a_named_sum(answer, gold, right):
    assert score(f"\\boxed{{{answer}}}", gold).correct is right


LINE = "Find the equation of the line through $(0, 1)$ with slope $2$."


@pytest.mark.parametrize(
    ("info", "answer", "right"),
    [
        # no form asked: any equation of the line y = 2x + 1 is the line (2y = 4x + 2 halves to it)
        ({"question": LINE}, "2y=4x+2", True),
        ({"question": LINE}, "y-1=2x", True),
        ({"question": LINE}, "2x-y+1=0", True),
        ({"question": LINE}, "y=2x+2", False),  # another line
        ({"question_forms": [], "question_forms_version": FORMS_VERSION}, "y-2x=1", True),
        # the form asked in words: solved for y
        ({"question": LINE + " Express your answer in the form $y = mx + b$."}, "2y=4x+2", False),
        ({"question": LINE + " Give it in slope-intercept form."}, "y-1=2x", False),
        ({"question": LINE + " Give it in slope-intercept form."}, "y=1+2x", True),
        # unknown: a row recorded before version 4, or no question: the gold's form decides
        ({"question_forms": [], "question_forms_version": 3}, "2x-y+1=0", False),
        ({}, "2y=4x+2", False),
    ],
)
def test_an_equation_is_held_to_the_solved_form_only_where_it_is_asked(info, answer, right):
    verdict = compute_score("math", f"\\boxed{{{answer}}}", "y=2x+1", {"type": "math", **info},
                            workers=1)  # fmt: skip
    assert (verdict["acc"] == 1.0) is right, verdict


@pytest.mark.parametrize(
    ("response", "right"),
    [
        ("So the price increased by \\boxed{25} percent.", True),  # the percent asked for
        ("$20/80 = 1/4$, which is $25$ percent.\n\n\\boxed{25}", True),
        ("\\boxed{0.25}", False),  # the share where the percent is asked for
    ],
)
def test_the_number_of_percent_answers_a_percent_question(response, right):
    question = "A price rose from 80 to 100. By what percent did it increase?"
    verdict = score(response, "25\\%", question=question_expressions(question),
                    forms=question_forms(question))  # fmt: skip
    assert verdict.correct is right, verdict


@pytest.mark.parametrize(
    ("answer", "right"),
    [
        ("4.5\\times10^{-4}", True), ("4.5 \\cdot 10^{-4}", True), ("4.5e-4", True),
        ("45\\times10^{-5}", False),  # a coefficient of 10 or more is not scientific notation
        ("0.00045", False), ("\\frac{9}{20000}", False),  # the value, not in the form asked
        ("4.6\\times10^{-4}", False),
    ],
)  # fmt: skip
def test_scientific_notation_asked_is_the_form_judged(answer, right):
    # 0.00045 = 4.5 * 10^-4; the question asks for scientific notation
    forms = [*question_forms("Express 0.00045 in scientific notation."), STATED]
    assert "scientific" in forms
    verdict = score(
        f"So \\boxed{{{answer}}}", "4.5\\times10^{-4}", question=["0.00045"], forms=forms
    )
    assert verdict.correct is right, verdict


def test_scientific_notation_not_asked_keeps_every_form_of_the_value():
    verdict = score("So \\boxed{0.00045}", "4.5\\times10^{-4}", forms=[STATED])
    assert verdict.correct


@pytest.mark.parametrize(
    ("question", "forms"),
    [
        ("How long is the rope in centimeters?", ["unit:cm"]),
        ("How many minutes does the trip take?", ["unit:minute"]),
        ("Find the side (in m).", ["unit:m"]),
        ("Give the area in square meters.", []),  # an area: no unit of length
        ("Answer in hours and minutes.", []),  # two units: none is the one asked
        ("In how many ways can we choose 2?", []),
    ],
)
def test_the_unit_a_question_asks_in_is_one_of_its_forms(question, forms):
    assert question_forms(question) == forms


@pytest.mark.parametrize(
    ("answer", "right"),
    [
        ("12", True), ("12 \\text{ cm}", True), ("12\\,\\mathrm{cm}", True),
        ("12 \\text{ m}", False), ("12 \\text{ inches}", False),  # another unit: another length
        ("120 \\text{ mm}", False),  # the same length, not in the unit asked
    ],
)  # fmt: skip
def test_an_answer_in_another_unit_than_the_question_asks_is_wrong(answer, right):
    forms = [*question_forms("How long is the rope in centimeters?"), STATED]
    assert score(f"So \\boxed{{{answer}}}", "12", forms=forms).correct is right


def test_a_unit_is_read_past_where_the_question_names_none():
    assert score("So \\boxed{12 \\text{ m}}", "12", forms=[STATED]).correct


@pytest.mark.parametrize(
    ("question", "forms"),
    [
        ("Convert $\\frac{7}{20}$ to a decimal.", ["decimal"]),
        ("Convert 0.35 to a fraction in lowest terms.", ["fraction"]),
        ("Convert $\\frac{3}{8}$ into a percent.", ["percent"]),
        ("Round 3.14159 to one decimal place.", []),  # a rounding, no form of the answer
    ],
)
def test_a_conversion_asks_for_the_form_it_converts_to(question, forms):
    assert question_forms(question) == forms


def test_a_fraction_where_a_conversion_to_a_decimal_is_asked_is_unevaluated():
    # 7/20 = 35/100 = 0.35: the value is right, the form is the one the question converts from
    forms = [*question_forms("Convert $\\frac{7}{20}$ to a decimal."), STATED]
    assert score("$\\boxed{\\frac{35}{100}}$", "0.35", forms=forms).reason == "unevaluated"
    assert score("$\\boxed{0.35}$", "0.35", forms=forms).correct


@pytest.mark.parametrize(
    ("question", "forms"),
    [
        ("What is its speed in km/h?", ["unit:km/hour"]),
        ("What is its speed in kilometers per hour?", ["unit:km/hour"]),
        ("How fast is it (in m/s)?", ["unit:m/second"]),
        ("What is its speed in mph?", ["unit:mile/hour"]),
    ],
)
def test_a_rate_a_question_asks_in_is_one_unit_per_another(question, forms):
    assert question_forms(question) == forms


@pytest.mark.parametrize(
    ("answer", "right"),
    [
        ("60", True), ("60 \\text{ km/h}", True), ("60\\,\\mathrm{km}/\\mathrm{h}", True),
        ("60 \\text{ kilometers per hour}", True),
        ("60 \\text{ m/s}", False), ("60\\,\\text{m}/\\text{s}", False),  # another rate
        ("60 \\text{ mph}", False), ("60 \\text{ km}/\\text{min}", False),
    ],
)  # fmt: skip
def test_an_answer_in_another_rate_than_the_question_asks_is_wrong(answer, right):
    # 120 km in 2 hours: 60 km/h
    forms = [*question_forms("A car goes 120 km in 2 hours. What is its speed in km/h?"), STATED]
    assert score(f"So \\boxed{{{answer}}}", "60", forms=forms).correct is right


@pytest.mark.parametrize(
    ("version", "answer", "right"),
    [
        # version 2 read "in km/h" as km: the unit it recorded is the first of the one asked
        (2, "60 \\text{ km/h}", True), (2, "60 \\text{ km}", True),
        (2, "60 \\text{ m/s}", False), (2, "60 \\text{ mph}", False),
        (FORMS_VERSION, "60 \\text{ km/h}", False),  # this reading says km, so km/h is another unit
    ],
)  # fmt: skip
def test_a_unit_recorded_by_a_reading_before_rates_is_not_held_against_the_answer(
    version, answer, right
):
    info = {"type": "math", "question_forms": ["unit:km"], "question_forms_version": version}
    verdict = compute_score("math", f"\\boxed{{{answer}}}", "60", info, workers=1)
    assert (verdict["acc"] == 1.0) is right, verdict


@pytest.mark.parametrize(
    ("answer", "right"),
    [("12 \\text{ cm}", True), ("12 \\text{ cm}^2", False), ("12 cm²", False),
     ("12 \\text{ cm}^{3}", False), ("12 \\text{ cm squared}", False)],
)  # fmt: skip
def test_an_area_or_a_volume_where_a_length_is_asked_is_another_unit(answer, right):
    forms = [*question_forms("How long is the side in centimeters?"), STATED]
    assert score(f"So \\boxed{{{answer}}}", "12", forms=forms).correct is right


@pytest.mark.parametrize(
    ("answer", "right"), [("(B)\\ 204", True), ("204", True), ("(C)\\ 204", False)]
)
def test_a_gold_of_a_label_and_its_value_refuses_the_value_under_another_label(answer, right):
    # AMC: choice (B) is 204; "(C) 204" names another choice
    assert score(f"The answer is $\\boxed{{{answer}}}$.", "\\textbf{(B) }204").correct is right


def test_an_unreduced_fraction_of_long_terms_is_no_way_around_lowest_terms():
    # 66...6 / 88...8 (100 digits each) = 3/4, written unreduced where lowest terms are asked
    answer = "\\frac{" + "6" * 100 + "}{" + "8" * 100 + "}"
    forms = [*question_forms("Reduce 18/24 to lowest terms."), STATED]
    assert score(f"\\boxed{{{answer}}}", "\\frac{3}{4}", forms=forms).reason == "unevaluated"


@pytest.mark.parametrize(
    ("answer", "question", "gold"),
    [
        # 18·10^500 / 24·10^500 = 3/4, its terms past the 1000 digits read for a common factor
        (
            "\\frac{18" + "0" * 500 + "}{24" + "0" * 500 + "}",
            "Reduce $\\frac{18}{24}$ to lowest terms.",
            "\\frac{3}{4}",
        ),
        (
            "\\frac{" + "1" * 1500 + "}{" + "3" * 1500 + "}",
            "What is $1 \\div 3$?",
            "\\frac{1}{3}",
        ),  # 111.../333... = 1/3
    ],
)
def test_a_fraction_past_the_digits_read_is_not_judged_reduced(answer, question, gold):
    verdict = compute_score(
        "math", f"\\boxed{{{answer}}}", gold, {"type": "math", "question": question}, workers=1
    )
    assert verdict["acc"] == 0.0, verdict


@pytest.mark.parametrize(
    ("answer", "gold", "question", "right"),
    [
        # 2/(x-1) - 1/x = (2x - (x-1))/(x(x-1)) = (x+1)/(x(x-1)): one fraction asked
        (
            "x^{-1}\\cdot\\left(\\frac{2x}{x-1}-1\\right)",
            "\\frac{x+1}{x(x-1)}",
            "\\frac{2}{x-1} - \\frac{1}{x}",
            False,
        ),
        (
            "\\frac{1}{x}\\left(1+\\frac{x}{x+1}\\right)",
            "\\frac{2x+1}{x(x+1)}",
            "\\frac{1}{x}+\\frac{1}{x+1}",
            False,
        ),
        ("\\frac{x+1}{x^2-x}", "\\frac{x+1}{x(x-1)}", "\\frac{2}{x-1} - \\frac{1}{x}", True),
    ],
)
def test_fractions_left_to_combine_inside_a_product_are_not_one_fraction(
    answer, gold, question, right
):
    info = {
        "type": "math",
        "question_expressions": [question],
        "question_forms": [],
        "question_forms_version": 4,
    }
    verdict = compute_score("math", f"\\boxed{{{answer}}}", gold, info, workers=1)
    assert (verdict["acc"] == 1.0) is right, verdict

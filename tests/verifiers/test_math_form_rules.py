"""Form rules of math answers by class (docs/guides/rewards.md#math-forms and
docs/guides/rewards.md#math-a-value-not-a-computation): every rational constant of a simplified
form is in lowest terms wherever it stands; a factored form is primitive factors times one
constant; a simplified rational function is one fraction, with no negative power and no fraction
inside a fraction; ``\\div`` between expressions in a variable is a fraction bar; ``a + 0i`` is
the complex standard form of ``a``; a chain of equal members is read as its last member.

Each expected verdict is decided by hand from the rule: "0" where a careful grader asking for the
gold's form would not accept the answer, "1" where the answer is the gold's value in the gold's
form up to order and notation."""

from __future__ import annotations

import pytest

from pac_verl.verifiers import compute_score
from pac_verl.verifiers.math import score


def _right(answer: str, gold: str, question: tuple[str, ...] = (), forms=()) -> bool:
    return score(f"\\boxed{{{answer}}}", gold, question=question, forms=forms).correct


# (gold, answer, right): a rational constant is in lowest terms wherever it stands in a product,
# where the gold writes no unreduced fraction and no decimal
LOWEST_TERMS = [
    ("\\frac{\\sqrt{6}}{3}", "\\frac{2}{6}\\sqrt{6}", False),
    ("\\frac{\\sqrt{6}}{3}", "\\sqrt{6}\\cdot\\frac{2}{6}", False),
    ("\\frac{\\sqrt{6}}{3}", "\\frac{4}{12}\\sqrt{6}", False),
    ("\\frac{\\sqrt{6}}{3}", "\\sqrt{6}\\cdot 2/6", False),
    ("\\frac{\\sqrt{6}}{3}", "\\frac{2\\sqrt{6}}{6}", False),
    ("\\frac{3\\sqrt{2}}{4}", "\\frac{6}{8}\\sqrt{2}", False),
    ("\\frac{\\pi}{6}", "\\frac{2}{12}\\pi", False),
    ("\\frac{\\pi}{6}", "\\frac{2\\pi}{12}", False),
    ("\\frac{x}{2}", "\\frac{2}{4}x", False),
    ("x^2+\\frac{1}{2}x", "x^2+\\frac{2}{4}x", False),
    ("\\frac{\\sqrt{2}}{2}", "\\frac{3}{6}\\sqrt{2}", False),
    ("\\frac{\\sqrt{6}}{3}", "\\frac{\\sqrt{6}}{3}", True),
    ("\\frac{\\sqrt{6}}{3}", "\\frac{1}{3}\\sqrt{6}", True),
    ("\\frac{\\sqrt{6}}{3}", "\\sqrt{6}\\cdot\\frac{1}{3}", True),
    ("\\frac{\\sqrt{6}}{3}", "\\sqrt{6}/3", True),
    ("\\frac{\\sqrt{6}}{3}", "\\frac13\\sqrt6", True),
    ("\\frac{3\\sqrt{2}}{4}", "\\frac{3}{4}\\sqrt{2}", True),
    ("\\frac{\\pi}{6}", "\\frac{1}{6}\\pi", True),
    ("\\frac{\\pi}{6}", "\\pi/6", True),
    ("\\frac{x}{2}", "\\frac{1}{2}x", True),
    ("x^2+\\frac{1}{2}x", "\\frac{1}{2}x+x^2", True),
    ("\\frac{2}{4}\\sqrt{2}", "\\frac{2}{4}\\sqrt{2}", True),  # the gold is unreduced itself
    ("0.5", "\\frac{2}{4}", True),  # a decimal gold has no fraction to keep reduced
    # a coefficient or a fraction bar under the whole product: the same rational constant
    ("\\frac{1}{2}x", "\\frac{x}{2}", True),
    ("\\frac{1}{2}x", "x/2", True),
    ("\\frac{3}{4}x", "\\frac{3x}{4}", True),
    ("\\frac{3}{4}x", "\\frac{6x}{8}", False),
]

# (gold, answer, right): a factored form is a product of primitive factors (integer coefficients
# without a common factor) times one rational constant in lowest terms
FACTORED = [
    ("(x-2)(x-3)", "\\frac{1}{2}(2x-4)(x-3)", False),
    ("(x-2)(x-3)", "\\frac{(2x-4)(x-3)}{2}", False),
    ("(x-2)(x-3)", "0.5(2x-4)(x-3)", False),
    ("(x-2)(x-3)", "\\frac{1}{3}(x-2)(3x-9)", False),
    ("(x-2)(x-3)", "\\frac{1}{2}\\cdot 2(x-2)(x-3)", False),  # two constants left to multiply
    ("2(x-1)(x+1)", "(2x-2)(x+1)", False),
    ("2(x-1)(x+1)", "\\frac{1}{2}(2x-2)(2x+2)", False),
    ("2(x-1)(x+1)", "(x-1)(2x+2)", False),
    ("3(x+2)", "\\frac{1}{2}(6x+12)", False),
    ("(2x-1)(x+1)", "2(x-\\frac{1}{2})(x+1)", False),
    ("(2x-1)(x+1)", "(x-\\frac{1}{2})(2x+2)", False),
    ("\\frac{1}{2}(x-1)(x+1)", "\\frac{1}{4}(2x-2)(x+1)", False),
    ("(x-2)^2", "\\frac{1}{4}(2x-4)^2", False),
    ("(x-2)(x-3)", "(x-2)(x-3)", True),
    ("(x-2)(x-3)", "(x-3)(x-2)", True),
    ("(x-2)(x-3)", "-(2-x)(x-3)", True),
    ("(x-2)(x-3)", "(2-x)(3-x)", True),
    ("2(x-1)(x+1)", "2(x+1)(x-1)", True),
    ("2(x-1)(x+1)", "-2(1-x)(x+1)", True),
    ("2(x-1)(x+1)", "2(x-1)(1+x)", True),
    ("\\frac{1}{2}(x-1)(x+1)", "\\frac{(x-1)(x+1)}{2}", True),
    ("3(x+2)", "3(2+x)", True),
    ("(x-\\sqrt{2})(x+\\sqrt{2})", "(x+\\sqrt{2})(x-\\sqrt{2})", True),
    ("(2x-4)(x-3)", "(x-3)(2x-4)", True),  # the gold keeps a common factor itself
    ("(x-2)^2", "(2-x)^2", True),
]

# (gold, answer, right): a simplified rational function is one fraction, with no negative power
# of a sum and no fraction inside a fraction; \\div between expressions in a variable is a fraction bar
RATIONAL_FUNCTION = [
    ("\\frac{5x-1}{x^2-1}", "(5x-1)(x^2-1)^{-1}", False),
    ("\\frac{5x-1}{x^2-1}", "\\frac{\\frac{5x-1}{x+1}}{x-1}", False),
    ("\\frac{5x-1}{x^2-1}", "\\frac{5x-1}{x+1}\\cdot\\frac{1}{x-1}", False),
    ("\\frac{5x-1}{x^2-1}", "\\frac{5x-1}{x+1}\\div(x-1)", False),
    ("\\frac{5x-1}{x^2-1}", "(x^2-1)^{-1}(5x-1)", False),
    ("\\frac{x+2}{x-1}", "(x+2)(x-1)^{-1}", False),
    ("\\frac{1}{(x+1)^2}", "(x+1)^{-2}", False),
    ("\\frac{x}{x+1}", "x\\left(x+1\\right)^{-1}", False),
    ("\\frac{x}{x+1}", "\\frac{1}{1+\\frac{1}{x}}", False),
    ("\\frac{x}{y}", "\\frac{1}{\\frac{y}{x}}", False),
    ("\\frac{2x}{y}", "\\frac{x}{\\frac{y}{2}}", False),
    ("\\frac{1}{x^2-1}", "\\frac{1}{x-1}\\cdot\\frac{1}{x+1}", False),
    ("\\frac{1}{xy}", "\\frac{1}{x}\\cdot\\frac{1}{y}", False),
    ("\\frac{5x-1}{x^2-1}", "\\frac{5x-1}{x^2-1}", True),
    ("\\frac{5x-1}{x^2-1}", "\\frac{5x-1}{(x-1)(x+1)}", True),
    ("\\frac{5x-1}{x^2-1}", "(5x-1)/(x^2-1)", True),
    ("\\frac{5x-1}{x^2-1}", "\\frac{1-5x}{1-x^2}", True),
    ("\\frac{5x-1}{x^2-1}", "(5x-1)\\div(x^2-1)", True),
    ("\\frac{x+2}{x-1}", "(x+2)\\div(x-1)", True),
    ("\\frac{x+2}{x-1}", "(x+2)/(x-1)", True),
    ("\\frac{x+2}{x-1}", "\\frac{2+x}{x-1}", True),
    ("\\frac{1}{x}", "1/x", True),
    ("\\frac{x}{2}", "x\\div 2", True),
    ("\\frac{x^2}{x+1}", "x^2\\div(x+1)", True),
    ("x^{-1}", "x^{-1}", True),
    ("\\frac{1}{x}", "x^{-1}", True),  # a negative power of a monomial: allowed where it is -1
    ("(x+1)^{-1}", "(x+1)^{-1}", True),
    ("\\frac{1}{xy}", "\\frac{1}{yx}", True),
]

# (gold, answer, right): \\div between numbers is still arithmetic left undone
DIVISION_OF_NUMBERS = [
    ("x+3", "x+6\\div 2", False),
    ("x+3", "x+(6)\\div(2)", False),
    ("5", "10\\div 2", False),
    ("5", "(10)\\div(2)", False),
    ("\\frac{3}{4}", "18 \\div 24", False),
    ("2", "\\sqrt{8}\\div\\sqrt{2}", False),
    ("\\frac{3}{4}", "3 \\div 4", True),
]

# (gold, answer, right): a + bi is how a complex number is written, b = 0 included
COMPLEX_FORM = [
    ("5", "5+0i", True),
    ("5", "5 - 0i", True),
    ("5", "0i+5", True),
    ("-3", "-3+0i", True),
    ("\\frac{1}{2}", "\\frac{1}{2}+0i", True),
    ("2i", "0+2i", True),
    ("3+2i", "2i+3", True),
    ("5", "5+0+0i", False),
    ("5", "2+3+0i", False),
    ("5", "5+2\\cdot 0i", False),
    ("5", "5+i-i", False),
    ("6", "5+0i", False),
    ("5", "5+1i", False),
]

FACTOR = ("x^2-5x+6",)
REDUCE = ("\\frac{18}{24}",)
RATIONALISE = ("\\frac{2}{\\sqrt{6}}",)
# (gold, answer, question expressions, right): a chain whose members are all equal in value is
# read as its last member; a chain of different values is no answer
CHAINS = [
    ("(x-2)(x-3)", "x^2-5x+6=(x-2)(x-3)", FACTOR, True),
    ("\\frac{3}{4}", "\\frac{18}{24}=\\frac{3}{4}", REDUCE, True),
    ("\\frac{3}{4}", "\\frac{18}{24}=\\frac{9}{12}=\\frac{3}{4}", REDUCE, True),
    ("\\frac{3}{4}", "x=\\frac{18}{24}=\\frac{3}{4}", REDUCE, True),
    ("\\frac{\\sqrt{6}}{3}", "\\frac{2}{\\sqrt{6}}=\\frac{\\sqrt{6}}{3}", RATIONALISE, True),
    ("6\\sqrt{2}", "\\sqrt{72}=6\\sqrt{2}", ("\\sqrt{72}",), True),
    ("x^2+12x+35", "(x+5)(x+7)=x^2+12x+35", ("(x+5)(x+7)",), True),
    ("x+3", "\\frac{x^2-9}{x-3}=x+3", ("\\frac{x^2-9}{x-3}",), True),
    ("5", "2+3=5", (), True),
    ("\\frac{1}{2}", "0.5=\\frac{1}{2}", (), True),
    ("\\frac{3}{4}", "\\frac{3}{4}=\\frac{18}{24}", REDUCE, False),
    ("\\frac{3}{4}", "\\frac{3}{4}=\\frac{9}{12}", REDUCE, False),
    ("(x-2)(x-3)", "(x-2)(x-3)=x^2-5x+6", FACTOR, False),
    ("6\\sqrt{2}", "6\\sqrt{2}=\\sqrt{72}", ("\\sqrt{72}",), False),
    ("x+3", "x+3=\\frac{x^2-9}{x-3}", ("\\frac{x^2-9}{x-3}",), False),
    ("\\frac{\\sqrt{6}}{3}", "\\frac{\\sqrt{6}}{3}=\\frac{2}{\\sqrt{6}}", RATIONALISE, False),
    ("5", "5=2+3", (), False),
    ("8", "7=8", (), False),
    ("\\frac{2}{3}", "\\frac{3}{4}=\\frac{2}{3}", (), False),
    ("(x-2)(x-3)", "x^2-5x+7=(x-2)(x-3)", FACTOR, False),
    ("6", "2+3=6", (), False),
    ("4", "x=3=4", (), False),
    ("\\frac{1}{2}", "\\frac{1}{2}=0.5=0.50001", (), False),
]


def _ids(rows):
    return [f"{row[1][:40]}|{row[0][:20]}|{int(row[-1])}" for row in rows]


@pytest.mark.parametrize(("gold", "answer", "right"), LOWEST_TERMS, ids=_ids(LOWEST_TERMS))
def test_every_rational_constant_is_in_lowest_terms(gold, answer, right):
    assert _right(answer, gold) is right


@pytest.mark.parametrize(("gold", "answer", "right"), FACTORED, ids=_ids(FACTORED))
def test_a_factored_form_is_primitive_factors_times_one_constant(gold, answer, right):
    assert _right(answer, gold, ("x^2-5x+6",)) is right


@pytest.mark.parametrize(
    ("gold", "answer", "right"), RATIONAL_FUNCTION, ids=_ids(RATIONAL_FUNCTION)
)
def test_a_simplified_rational_function_is_one_fraction(gold, answer, right):
    assert _right(answer, gold) is right


@pytest.mark.parametrize(
    ("gold", "answer", "right"), DIVISION_OF_NUMBERS, ids=_ids(DIVISION_OF_NUMBERS)
)
def test_a_division_of_numbers_is_arithmetic_left_undone(gold, answer, right):
    assert _right(answer, gold) is right


@pytest.mark.parametrize(("gold", "answer", "right"), COMPLEX_FORM, ids=_ids(COMPLEX_FORM))
def test_a_real_number_in_complex_standard_form(gold, answer, right):
    assert _right(answer, gold) is right


@pytest.mark.parametrize(("gold", "answer", "question", "right"), CHAINS, ids=_ids(CHAINS))
def test_a_chain_of_equal_members_is_its_last_member(gold, answer, question, right):
    assert _right(answer, gold, question) is right


# the rows as verl passes them: compute_score with the question in extra_info
ENTRY = [
    ("\\frac{2}{6}\\sqrt{6}", "\\frac{\\sqrt{6}}{3}", ["\\frac{2}{\\sqrt{6}}"], ["fraction"], 0.0),
    ("\\sqrt{6}\\cdot\\frac{2}{6}", "\\frac{\\sqrt{6}}{3}", ["\\frac{2}{\\sqrt{6}}"], ["fraction"],
     0.0),
    ("\\frac{1}{2}(2x-4)(x-3)", "(x-2)(x-3)", ["x^2-5x+6"], [], 0.0),
    ("(5x-1)(x^2-1)^{-1}", "\\frac{5x-1}{x^2-1}", ["\\frac{2}{x-1}+\\frac{3}{x+1}"], [], 0.0),
    ("\\frac{\\frac{5x-1}{x+1}}{x-1}", "\\frac{5x-1}{x^2-1}", ["\\frac{2}{x-1}+\\frac{3}{x+1}"],
     [], 0.0),
    ("(x+2)\\div(x-1)", "\\frac{x+2}{x-1}", ["\\frac{x^2+3x+2}{x^2-1}"], [], 1.0),
    ("5 + 0i", "5", None, None, 1.0),
    ("x^2-5x+6=(x-2)(x-3)", "(x-2)(x-3)", ["x^2-5x+6"], [], 1.0),
    ("\\frac{18}{24}=\\frac{3}{4}", "\\frac{3}{4}", ["\\frac{18}{24}"], ["fraction"], 1.0),
    ("\\frac{3}{4}=\\frac{18}{24}", "\\frac{3}{4}", ["\\frac{18}{24}"], ["fraction"], 0.0),
]  # fmt: skip


@pytest.mark.parametrize(("answer", "gold", "question", "forms", "acc"), ENTRY)
def test_the_reward_entry_applies_the_rules(answer, gold, question, forms, acc):
    info = {"type": "math"}
    if question is not None:
        info |= {"question_expressions": question, "question_forms": forms}
    got = compute_score("math", f"The answer is $\\boxed{{{answer}}}$.", gold, info, workers=1)
    assert got["acc"] == acc, got


# (gold, answer, right): the imaginary unit is one symbol however its coefficient is written,
# next to it, with a space or a dot, or as a written 1 ("5 + 1i" is 5 + i)
IMAGINARY_UNIT = [
    ("5+i", "5 + 1i", True),  # attacker's
    ("5+i", "5+1i", True),  # our own
    ("i", "1i", True),
    ("5-i", "5-1i", True),
    ("2+3 i", "2+3i", True),
    ("2+3i", "2+3 \\cdot i", True),
    ("5+i", "5+2i", False),
    ("5+i", "6+1i", False),
]

# (gold, answer, right): a fractional power of a number is a radical in another notation, judged
# by the radical rules: simplified when its radicand has no perfect power and it stands in no
# denominator
ROOT_AS_POWER = [
    ("6\\sqrt{2}", "6 \\cdot 2^{1/2}", True),  # attacker's row (expected 0 there: arguable)
    ("6\\sqrt{2}", "6 \\cdot 2^{\\frac{1}{2}}", True),  # our own
    ("\\sqrt[3]{2}", "2^{1/3}", True),
    ("6\\sqrt{2}", "72^{1/2}", False),  # a perfect square under the root
    ("2\\sqrt{2}", "8^{1/2}", False),
    ("2\\sqrt[3]{2}", "16^{1/3}", False),
    ("\\frac{\\sqrt{2}}{2}", "2^{-1/2}", False),  # a radical in a denominator
    ("6\\sqrt{2}", "6\\sqrt{2}", True),
]


@pytest.mark.parametrize(("gold", "answer", "right"), IMAGINARY_UNIT, ids=_ids(IMAGINARY_UNIT))
def test_the_imaginary_unit_is_one_symbol_whatever_its_coefficient(gold, answer, right):
    assert _right(answer, gold) is right


@pytest.mark.parametrize(("gold", "answer", "right"), ROOT_AS_POWER, ids=_ids(ROOT_AS_POWER))
def test_a_root_of_a_number_written_as_a_power_is_judged_as_a_radical(gold, answer, right):
    assert _right(answer, gold) is right


@pytest.mark.parametrize(
    ("answer", "right"),
    [("x+3 \\quad (x \\neq 3)", True), ("x+3, x \\ne 3", True), ("x+3 (x ≠ 3)", True),
     ("x + 3 \\text{ for } x \\neq 3", True), ("x+4 \\quad (x \\neq 3)", False)],
)  # fmt: skip
def test_a_domain_note_after_a_simplified_expression_is_not_a_second_answer(answer, right):
    # (x^2-9)/(x-3) simplifies to x+3 for x != 3: the note names the excluded value
    assert score(f"\\boxed{{{answer}}}", "x+3").correct is right


@pytest.mark.parametrize(
    ("answer", "gold", "right"),
    [
        # (x-3)/2 is one fraction over a number, not a factored product: expanded is the same
        ("\\frac{x}{2}-\\frac{3}{2}", "\\frac{x-3}{2}", True),
        ("\\frac{2x-6}{4}", "\\frac{x-3}{2}", False),  # 2 divides 2x-6 and 4: not reduced
        ("\\frac{6x+3}{9}", "\\frac{2x+1}{3}", False),  # 3 divides 6x+3 and 9
        ("f^{-1}(x) = \\frac{x-3}{2}", "\\frac{x-3}{2}", True),  # the inverse's name, a label
        ("(-1, 3)", "\\begin{pmatrix} -1 \\\\ 3 \\end{pmatrix}", True),  # the same components
        ("(3, -1)", "\\begin{pmatrix} -1 \\\\ 3 \\end{pmatrix}", False),
        ("(-1, 3, 0)", "\\begin{pmatrix} -1 \\\\ 3 \\end{pmatrix}", False),
    ],
)
def test_notations_a_careful_grader_reads_as_the_gold(answer, gold, right):
    assert score(f"\\boxed{{{answer}}}", gold).correct is right


# by hand: 4^(1/4) = 2^(2/4) = 2^(1/2); 8^(1/6) = 2^(3/6) = 2^(1/2); 9^(1/4) = 3^(1/2); sqrt(0.5) is
# sqrt(1/2), a fraction under the root; 8^(1/4) = 2^(3/4) and 4^(1/3) = 2^(2/3) are in lowest index
LOWER_INDEX = [
    ("5\\sqrt{2}", "5\\sqrt[4]{4}", False),
    ("5\\sqrt{2}", "5\\sqrt[6]{8}", False),
    ("2\\sqrt{3}", "2\\sqrt[4]{9}", False),
    ("\\frac{\\sqrt{2}}{2}", "\\sqrt{0.5}", False),
    ("\\frac{\\sqrt{2}}{2}", "0.5^{1/2}", False),
    ("\\sqrt[4]{8}", "\\sqrt[4]{8}", True),
    ("2\\sqrt[3]{4}", "2\\sqrt[3]{4}", True),
    ("5\\sqrt{2}", "5\\sqrt{2}", True),
]


@pytest.mark.parametrize(("gold", "answer", "right"), LOWER_INDEX, ids=_ids(LOWER_INDEX))
def test_a_root_of_a_lower_index_in_disguise_or_of_a_decimal_is_not_simplified(gold, answer, right):
    assert _right(answer, gold) is right


@pytest.mark.parametrize(
    ("gold", "answer", "right"),
    [("7", "--7", False),  # minus minus 7: a negation left to undo
     ("7", "-" * 280 + "7", False),
     ("7", "-(-7)", False),
     ("-7", "+-7", False),
     ("-7", "-7", True),
     ("5-(-3)", "5-(-3)", True),  # the gold's own form
     ("[-3,-1]", "[-3, -1]", True)],
    ids=["double", "280 signs", "bracketed", "plus minus", "one sign", "gold's form", "interval"],
)  # fmt: skip
def test_a_sign_applied_to_a_sign_is_arithmetic_left_undone(gold, answer, right):
    assert _right(answer, gold) is right


@pytest.mark.parametrize(
    ("gold", "answer", "right"),
    [("6\\sqrt{2}", "6\\sqrt{2}\\cdot 1", False),  # times 1: an operation left in
     ("6\\sqrt{2}", "1 \\times 6\\sqrt{2}", False),
     ("x+3", "\\frac{x+3}{1}", False),
     ("x+3", "x+3+0", False),
     ("x^2+1", "x^2+1^{1}", False),
     ("2x", "2x^{1}", False),
     ("0.001", "1 \\times 10^{-3}", True),  # scientific notation's 1 is a number
     ("45", "4.5 \\times 10^{1}", True),
     ("5", "5 + 0i", True),  # a complex number's standard form
     ("x^{10}", "x^{10}", True),
     ("x+3", "x+3", True)],
    ids=["times 1", "1 times", "over 1", "plus 0", "power 1 of a number", "power 1 of x",
         "scientific 1", "scientific power 1", "0i", "power 10", "plain"],
)  # fmt: skip
def test_an_operation_that_leaves_its_operand_as_it_is_is_left_undone(gold, answer, right):
    assert _right(answer, gold) is right

"""Rewards v3, third pass (issue 24): the holes a black-box red team found in the boxed text
verifiers (math, Countdown, Zebra, ARC), and the fairness items it found with them.

- Text after the last box that retracts or doubts the answer makes it no committed answer
  (``hedged``); a closing remark, units, an agreeing check stay fine.
- Doubt inside a box in other words and languages, a bare ``?``, a parenthetical that offers
  another value.
- Math relations in a box with two different values; a bare inequality is not a value.
- Computations hidden by a variable that cancels, or by a function the parser evaluates away.
- Cut-off responses by structure (an unclosed ``$``, a sentence that starts after the box and
  never ends).
- Forms a careful grader reads as right (Countdown ``\\displaystyle``, ``\\{ \\}``, implicit
  multiplication, full-width digits; math ``0.3636\\ldots``, ``\\dot{6}``, ``\\boxed 7``,
  ``\\color``, ``\\phantom``; "``\\boxed{7}``, not ``\\boxed{8}``").

Every expected verdict is decided by hand from the task's truth, never by running the scorer.
The rules are the README's "Rewards" section."""

import json

import pytest

from pac_verl.verifiers import score

# target 48 from [3, 9, 4]: (9 + 3) * 4 = 48
CD48 = json.dumps({"target": 48, "numbers": [3, 9, 4]})
GRID = "3 3 0 0 5 0 0 0"


# ----- 1. text after the last box -----


@pytest.mark.parametrize(
    "after",
    [
        "\n\nHmm, no, that is wrong.",
        " Actually I made an error somewhere.",
        "\n\nI am not certain about this.",
        " (not sure)",
        "?",
        " ？",
        "\n\nIt could also be the other one.",
        " It might be off by one.",
        ", or perhaps something else.",
        " if the count starts at zero; one more otherwise.",
        ", assuming the figure is convex.",
        " Alternatively, the other reading gives a different result.",
        "\n\nBut this contradicts the second condition, so there is no solution.",
        " Unless I misread the question.",
        "\n\nOn second thought, I doubt this.",
    ],
)
def test_doubt_after_the_box_is_a_hedge_in_every_task(after):
    assert score("math", f"The answer is $\\boxed{{12}}${after}", "12").reason == "hedged"
    assert score("zebra", f"\\boxed{{Peter}}{after}", "peter").reason == "hedged"
    assert score("arc", f"\\boxed{{{GRID}}}{after}", GRID).reason == "hedged"
    assert score("countdown", f"\\boxed{{(9 + 3) \\times 4}}{after}", CD48).reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "",
        ".",
        " cm.",
        " minutes",
        "\n\nThis satisfies every condition.",
        "\n\nI hope it is correct.",
        "\n\nFinal Answer: The final answer is 12. I hope it is correct.",
        "\n\nCheck: 3 \\cdot 4 = 12, as required.",
        "\n\nAnswer: 12",
        " This is the final answer.",
    ],
)
def test_closing_remarks_after_the_box_stay_fine(after):
    assert score("math", f"So we get $\\boxed{{12}}${after}", "12").reason == "ok"


def test_a_different_answer_stated_after_the_box_is_a_hedge():
    assert score("math", "\\boxed{12}\n\nFinal answer: 13", "12").reason == "hedged"
    assert score("math", "\\boxed{12}. No wait, the answer is 13.", "12").reason == "hedged"
    assert score("math", "\\boxed{13}. No wait, the answer is 12.", "12").reason == "hedged"
    assert score("zebra", "\\boxed{Peter}\n\nActually, I think it is Eric.", "peter").reason == (
        "hedged"
    )
    bad = f"\\boxed{{{GRID}}}\n\nWait, the last cell should be 5: 3 3 0 0 5 0 0 5."
    assert score("arc", bad, GRID).reason == "hedged"


def test_a_rejected_box_after_the_answer_is_not_an_answer():
    # "\boxed{12}, not \boxed{13}": 13 is named to be rejected; the answer is 12
    assert score("math", "The answer is $\\boxed{12}$, not $\\boxed{13}$.", "12").reason == "ok"
    assert score("math", "The answer is $\\boxed{13}$, not $\\boxed{12}$.", "12").reason == (
        "not_equal"
    )
    assert score("zebra", "\\boxed{Peter} rather than \\boxed{Eric}", "peter").reason == "ok"


# ----- 2. doubt inside the box -----


@pytest.mark.parametrize(
    "inside",
    [
        "\\text{ (vielleicht 13)}",
        "\\text{ (oder 13)}",
        "\\text{ (или 13)}",
        "\\text{ (或 13)}",
        "\\text{ (也许)}",
        "\\text{ (不确定)}",
        "\\text{ (peut-être)}",
        "\\text{ (ou 13)}",
        "\\text{ (o 13)}",
        "\\text{ (quizás 13)}",
        "\\text{ (tal vez)}",
        "\\text{ (alt. 13)}",
        "\\text{ (13?)}",
        "?",
        "\\text{？}",
        "\\text{ (a guess)}",
        "\\text{ (tentatively)}",
        "\\text{ (unverified)}",
        "\\text{ (13)}",
        " (13)",
    ],
)
def test_doubt_or_another_value_inside_the_box_is_a_hedge(inside):
    assert score("math", f"\\boxed{{12{inside}}}", "12").reason == "hedged"


@pytest.mark.parametrize(
    "inside", ["?", " (guess)", " (60\\%)", " (vielleicht Eric)", "\\text{ (o Eric)}"]
)
def test_zebra_doubt_inside_the_box(inside):
    assert score("zebra", f"\\boxed{{Peter{inside}}}", "peter").reason == "hedged"


def test_other_tasks_doubt_inside_the_box():
    assert score("arc", f"\\boxed{{{GRID}?}}", GRID).reason == "hedged"
    assert score("countdown", "\\boxed{(9 + 3) \\times 4 = 48\\text{?}}", CD48).reason == "hedged"
    # one cell singled out in brackets is no grid the prompt asks for
    assert not score("arc", "\\boxed{3 3 0 0 5 0 0 (0)}", GRID).correct


def test_a_parenthetical_that_restates_stays_fine():
    assert score("math", "\\boxed{12 \\text{ (square units)}}", "12").reason == "ok"
    assert score("math", "\\boxed{\\frac{3}{4} \\text{ (0.75)}}", "\\frac34").reason == "ok"
    assert score("zebra", "\\boxed{Peter (House 1)}", "peter").reason == "ok"


# ----- 3. relations inside a math box -----


@pytest.mark.parametrize(
    "box",
    [
        "12 = 13",
        "13 = 12",
        "n = 13 = 12",
        "13 \\approx 12",
        "13 \\Rightarrow 12",
        "13 \\implies 12",
        "13 \\\\ 12",
        "n := 13 \\\\ n := 12",
        "13 \\equiv 12",
        "{13 \\atop 12}",
    ],
)
def test_two_different_values_in_one_box_are_a_hedge(box):
    assert score("math", f"\\boxed{{{box}}}", "12").reason == "hedged"


def test_a_labelled_value_or_an_agreeing_approximation_is_fine():
    assert score("math", "\\boxed{n = 12}", "12").reason == "ok"
    assert score("math", "\\boxed{12 = n}", "12").reason == "ok"
    assert score("math", "\\boxed{f(3) = 12}", "12").reason == "ok"
    assert score("math", "\\boxed{12 = 12}", "12").reason == "ok"
    # |pi - 3.14| = 0.0016 < 0.005, half a unit of the last digit written
    assert score("math", "\\boxed{\\pi \\approx 3.14}", "\\pi").reason == "ok"
    assert score("math", "\\boxed{\\pi \\approx 3.15}", "\\pi").reason == "hedged"


def test_a_bare_inequality_is_not_the_value():
    assert score("math", "\\boxed{\\geq 12}", "12").reason == "not_equal"
    assert score("math", "\\boxed{< 12}", "12").reason == "not_equal"


# ----- 4. computations hidden by a variable or an evaluated function -----


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


# ----- 5. cut off -----


@pytest.mark.parametrize(
    "after",
    [
        ". Let me check: substituting back gives $4 \\cdot 3 = 1",
        ". Checking with \\(4 \\cdot 3",
        ". Let me verify by putting n = 12 back into the first equat",
        ". Hmm, let me look again at whether the count",
        ". But let me double-check this by counting",
    ],
)
def test_a_response_cut_off_after_the_box(after):
    assert score("math", f"Tentatively $\\boxed{{12}}${after}", "12").reason == "cut_off"


def test_short_unfinished_remarks_stay_fine():
    assert score("math", "$\\boxed{12}$ minutes", "12").reason == "ok"
    assert score("math", "$\\boxed{12}$\n\nThis satisfies every condition", "12").reason == "ok"
    assert score("math", "It costs $\\boxed{12}$ dollars, i.e. \\$12.", "12").reason == "ok"


# ----- 6. fairness -----


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


def test_countdown_unary_minus_stays_rejected():  # SPEC 8: the four binary operations
    truth = json.dumps({"target": 10, "numbers": [3, 9, 4]})  # -3 + 9 + 4 = 10
    assert score("countdown", "\\boxed{-3 + 9 + 4}", truth).reason == "bad_expression"
    # two numbers side by side are no product; nor is a coefficient after its bracket
    assert not score("countdown", "\\boxed{4 4 (9 + 3)}", CD48).correct
    assert score("countdown", "\\boxed{(9 + 3)4}", CD48).reason == "bad_expression"


def test_arc_full_width_digits():
    assert score("arc", "\\boxed{３ ３ ０ ０ ５ ０ ０ ０}", GRID).reason == "ok"


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


def test_math_decimal_with_dots_that_does_not_repeat_is_no_repeating_decimal():
    # 3.14159... is pi cut short, not a repeating decimal; 0.2727... is not 0.27
    assert not score("math", "\\boxed{0.2727\\ldots}", "0.27").correct


def test_boxed_without_braces():
    assert score("math", "The answer is \\boxed 12.", "12").reason == "ok"
    assert score("math", "The answer is \\boxed 13.", "12").reason == "not_equal"

"""Rewards a policy cannot game, v3 (issue 24): the answer is a value, not a computation; which box
counts; what a hedge, a correction and a cut-off response are; right forms the scorers missed.

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules are the README's "Rewards" section."""

import json

import pytest

from pac_verl.verifiers import score
from pac_verl.verifiers.extract import final_answers, final_boxes

# ----- math: a boxed answer is a value, not a computation the verifier does for the model -----


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


# ----- several boxes: which box counts, what a correction and a hedge are -----


@pytest.mark.parametrize(
    ("response", "gold", "reason"),
    [
        # an explicitly corrected earlier answer is withdrawn
        (
            "First I got \\boxed{205}, but that was an arithmetic error in the second step; "
            "correcting it gives \\boxed{204}.",
            "204",
            "ok",
        ),
        ("First I got \\boxed{205}; correcting it gives \\boxed{204}.", "205", "not_equal"),
        ("\\boxed{205}. That is wrong: \\boxed{204}", "204", "ok"),
        ("\\boxed{205} (a mistake) \\boxed{204}", "204", "ok"),
        # boxes around intermediate results: the last box is the answer
        (
            "Each side is \\boxed{3} cm, so the perimeter is 4 \\cdot 3 = \\boxed{12} cm.",
            "12",
            "ok",
        ),
        (
            "There are \\boxed{12} apples in each basket. With three baskets the total is "
            "\\boxed{36}.",
            "36",
            "ok",
        ),
        ("x = \\boxed{3}, so y = 2x = \\boxed{6}", "6", "ok"),
        (
            "Each side is \\boxed{3} cm, so the perimeter is 4 \\cdot 3 = \\boxed{12} cm.",
            "3",
            "not_equal",
        ),
        # one root per box when the question asks for all of them
        ("The roots are \\boxed{2} and \\boxed{3}.", "2, 3", "ok"),
        ("\\boxed{3}, \\boxed{2}", "2, 3", "ok"),
        ("x = \\boxed{2} or x = \\boxed{3}", "2, 3", "ok"),
        ("\\boxed{x = 2} and \\boxed{x = 3}", "2, 3", "ok"),
        ("\\boxed{2}, \\boxed{3}, \\boxed{4}", "2, 3", "not_equal"),  # 4 is not a root
        ("\\boxed{2}", "2, 3", "not_equal"),  # a root missing
        # two final answers offered as alternatives are a hedge, whichever is right
        ("\\boxed{5} or \\boxed{6}", "5", "hedged"),
        ("\\boxed{5} or \\boxed{6}", "6", "hedged"),
        ("\\boxed{5}. Maybe \\boxed{6}", "6", "hedged"),
        ("\\boxed{5}. It could also be \\boxed{6}.", "6", "hedged"),
        ("\\boxed{5}, alternatively \\boxed{6}", "6", "hedged"),
        ("\\boxed{5}\n\n\\boxed{6}", "6", "hedged"),  # two answers side by side
        ("\\boxed{5}. Hmm, actually \\boxed{6}", "6", "hedged"),  # no correction said
        # a hedge inside one answer
        ("\\boxed{7 \\text{ (possibly } 8\\text{)}}", "7", "hedged"),
        ("\\boxed{7 \\text{ or maybe } 8}", "7", "hedged"),
        ("\\boxed{7 (perhaps 8)}", "7", "hedged"),
        # not hedges: the same value twice, or two spellings of it
        ("\\boxed{\\frac{3}{4} \\text{ or } 0.75}", "\\frac{3}{4}", "ok"),
        ("\\boxed{5} or \\boxed{5.0}", "5", "ok"),
    ],
)
def test_math_which_box_counts(response, gold, reason):
    assert score("math", response, gold).reason == reason


def test_the_rule_is_shared_by_every_boxed_task():
    cd = json.dumps({"target": 35, "numbers": [3, 4, 5]})  # (3 + 4) * 5 = 35; 3 * 4 + 5 = 17
    correction = "\\boxed{{{}}}. That was a mistake; the correct one is \\boxed{{{}}}."
    assert score("countdown", correction.format("3*4+5", "(3+4)*5"), cd).reason == "ok"
    assert score("zebra", correction.format("Bob", "Arnold"), "arnold").reason == "ok"
    arc = "1 2 3"
    assert score("arc", correction.format("1 2 4", arc), arc).reason == "ok"
    maybe = "\\boxed{{{}}}. Maybe \\boxed{{{}}}."
    assert score("countdown", maybe.format("3*4+5", "(3+4)*5"), cd).reason == "hedged"
    assert score("zebra", maybe.format("Bob", "Arnold"), "arnold").reason == "hedged"
    assert score("arc", maybe.format("1 2 4", arc), arc).reason == "hedged"
    steps = "4 - 3 = \\boxed{1}, then the answer is \\boxed{(3+4)*5}"  # a step, then the answer
    assert score("countdown", steps, cd).reason == "ok"


def test_final_answers_reports_the_boxes_that_count():
    assert final_answers("\\boxed{1} or \\boxed{2}").answers == ("1", "2")
    assert final_answers("\\boxed{1}, which was wrong: \\boxed{2}").answers == ("2",)
    assert final_answers("a = \\boxed{1}, so b = a + 1 = \\boxed{2}").answers == ("2",)
    assert final_answers("<think>\\boxed{1}").cut_off
    assert final_boxes("<think>\\boxed{1}") == []


# ----- cut-off responses have no answer -----

LONG_REASONING = (
    "Let me double-check this by substituting back into the original equation. The left side "
    "becomes 3 times 204 minus 12, which is 600, and the right side is 5 times 120, also 600. "
    "But wait, the problem says the walk takes t minutes longer on the way back, so I need to "
    "recompute the return trip, which takes 204 plus t minutes where t is the"
)


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        ("<think>Let me try. So the answer is \\boxed{204}. Let me double-check", "cut_off"),
        ("<think>Quick: \\boxed{204}", "cut_off"),  # the think was never closed
        ("<think>a</think> then <think>\\boxed{204} is a guess", "cut_off"),  # reopened
        ("<think>ok</think> The answer is \\boxed{204}", "ok"),
        ("So far \\boxed{204}. " + LONG_REASONING, "cut_off"),  # ends mid-sentence, long
        ("So far \\boxed{204}. " + LONG_REASONING + " same.", "ok"),  # a finished remark
        ("The answer is \\boxed{204}, which is the", "cut_off"),  # stops mid-sentence
        ("The answer is \\boxed{204}. Check: 12 \\cdot 17 =", "cut_off"),  # mid-formula
        ("The answer is \\boxed{204}. Hmm, actually it is \\boxed{20", "cut_off"),  # mid-box
        ("The answer is \\boxed{204} minutes", "ok"),  # a short remark without a period
        ("\\boxed{204}\n\nThis satisfies every condition in the problem", "ok"),
        ("\\boxed{204}", "ok"),
        ("**Final answer:** \\boxed{204}\n\n---", "ok"),  # a closing markdown rule
        ("\\boxed{204}, so the\n\n---", "cut_off"),
    ],
)
def test_math_cut_off_responses_score_zero(response, reason):
    assert score("math", response, "204").reason == reason


@pytest.mark.parametrize("task", ["countdown", "zebra", "arc"])
def test_cut_off_is_shared_by_every_boxed_task(task):
    truth, box = {
        "countdown": (json.dumps({"target": 35, "numbers": [3, 4, 5]}), "(3+4)*5"),
        "zebra": ("arnold", "Arnold"),
        "arc": ("1 2 3", "1 2 3"),
    }[task]
    assert score(task, f"<think>so \\boxed{{{box}}}", truth).reason == "cut_off"
    assert score(task, f"\\boxed{{{box}}}. {LONG_REASONING}", truth).reason == "cut_off"
    assert score(task, f"<think>x</think>\\boxed{{{box}}}", truth).reason == "ok"


# ----- forms the scorers rejected -----

CD = json.dumps({"target": 30, "numbers": [21, 95, 8, 2, 26, 2]})  # (95-26-21)/2+8-2 = 30


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
    ("box", "gold"),
    [
        ("\\textsc{Carol}", "carol"),
        ("\\underline{Bob}", "bob"),
        ("\\text{Answer: } Arnold", "arnold"),
        ("ARNOLD.", "arnold"),
    ],
)
def test_zebra_forms(box, gold):
    assert score("zebra", f"\\boxed{{{box}}}", gold).reason == "ok"


@pytest.mark.parametrize(
    "box",
    [
        "8 | 9 | 4 | 0 | 0 | 0 | 0 | 1 | 6 | 7",
        "|8|9|4|0|0|0|0|1|6|7|",
        "\\left[8, 9, 4, 0, 0, 0, 0, 1, 6, 7\\right]",
        "\\left(8\\ 9\\ 4\\ 0\\ 0\\ 0\\ 0\\ 1\\ 6\\ 7\\right)",
    ],
)
def test_arc_forms(box):
    assert score("arc", f"\\boxed{{{box}}}", "8 9 4 0 0 0 0 1 6 7").reason == "ok"


# ----- K&K -----

KK = json.dumps(
    {
        "names": ["Grace", "Penelope", "Mia", "Noah", "Matthew", "Lily"],
        "solution": [False, True, True, True, True, False],
    }
)
KK_LIST = """(1) Grace is a knave
(2) Penelope is a knight
(3) Mia is a knight
(4) Noah is a knight
(5) Matthew is a knight
(6) Lily is a knave"""
ROLES = [("Grace", False), ("Penelope", True), ("Mia", True), ("Noah", True), ("Matthew", True),
         ("Lily", False)]  # fmt: skip


def role(knight: bool) -> str:
    return "knight" if knight else "knave"


@pytest.mark.parametrize(
    ("names", "solution", "response"),
    [
        (["Zoey", "Ethan", "Liam", "Ava"], [False] * 4, "All four of them are knaves."),
        (["Zoey", "Ethan", "Liam", "Ava"], [False] * 4, "<answer>All of them are knaves.</answer>"),
        (["Zoey", "Ethan", "Liam"], [True] * 3, "Everyone is a knight."),
        (["Zoey", "Ethan", "Liam"], [True] * 3, "<answer>Every one of them is a knight</answer>"),
        (["Zoey", "Ethan"], [True, True], "Both of them are knights."),
        (["Mia", "Noah"], [False, True], "Mia is the knave and Noah is the knight."),
        (["Mia", "Noah", "Ava"], [False, True, True], "Mia is the only knave."),
        (["Samuel", "Ella"], [True, False], "Samuel — knight\nElla — knave"),
        (["Samuel", "Ella"], [True, False], "Samuel's a knight and Ella's a knave."),
        (["Samuel", "Ella"], [True, False], "Samuel’s a knight, Ella’s a knave."),
        (["Zoey", "Ethan"], [True, False], "Everyone is a knight except Ethan, who is a knave."),
    ],
)
def test_kk_complete_answers_in_other_words(names, solution, response):
    truth = json.dumps({"names": names, "solution": solution})
    assert score("logic", response, truth).reason == "ok"


@pytest.mark.parametrize(
    "response",
    [
        json.dumps({n: role(k) for n, k in ROLES}),
        "<answer>\n" + json.dumps({n: role(k).title() for n, k in ROLES}, indent=2) + "\n</answer>",
        "```json\n" + str({n: role(k) for n, k in ROLES}) + "\n```",  # a Python dict's quotes
        json.dumps([f"{n} is a {role(k)}" for n, k in ROLES]),  # a list of quoted statements
        str([f"{n} is a {role(k)}" for n, k in ROLES]),
        # a table with the names as its header row
        "| "
        + " | ".join(n for n, _ in ROLES)
        + " |\n|"
        + "---|" * 6
        + "\n| "
        + " | ".join(role(k).title() for _, k in ROLES)
        + " |",
        # a LaTeX table
        "\\begin{tabular}{ll}\n"
        + "\n".join(f"{n} & {role(k).title()} \\\\" for n, k in ROLES)
        + "\n\\end{tabular}",
        # a table with more columns
        "| # | Name | Role |\n|---|---|---|\n"
        + "\n".join(f"| {i} | {n} | **{role(k)}** |" for i, (n, k) in enumerate(ROLES, 1)),
    ],
)
def test_kk_json_and_tables(response):
    assert score("logic", response, KK).reason == "ok"


@pytest.mark.parametrize(
    "response",
    [
        # a claim restated inside an explanation is the inhabitant's, not the answer
        KK_LIST.replace(
            "(1) Grace is a knave", "(1) Grace is a knave: she claimed that Noah is a knave"
        ),
        KK_LIST.replace(
            "(6) Lily is a knave", "(6) Lily is a knave, since she says Mia is a knave"
        ),
        "As stated, Grace is a knave. Penelope, Mia, Noah and Matthew are knights. Lily is a knave.",
        KK_LIST.replace(
            "(6) Lily is a knave", "(6) Lily is a knave (her statement 'Mia is a knave' is false)"
        ),
        "<answer>\n"
        + KK_LIST.replace(
            "(3) Mia is a knight", "(3) Mia is a knight; Lily lied when saying Mia is a knave"
        )
        + "\n</answer>",
    ],
)
def test_kk_restated_claims_are_not_hedges(response):
    assert score("logic", response, KK).reason == "ok"


@pytest.mark.parametrize(
    "response",
    [
        KK_LIST.replace("Lily is a knave", "Lily is a knave (though she could also be a knight)"),
        KK_LIST.replace("Lily is a knave", "Lily is a knave, or possibly a knight"),
        KK_LIST.replace("Lily is a knave", "Lily is a knave, but she might be a knight"),
        f"<answer>{KK_LIST.replace('Lily is a knave', 'Lily is a knave (maybe a knight)')}</answer>",
    ],
)
def test_kk_a_hedge_inside_the_answer(response):
    assert score("logic", response, KK).reason == "hedged"


def test_kk_a_second_row_of_roles_is_the_last_complete_list():
    # like a second list after a first one, the last row is the final statement (SPEC 8)
    header = "| Grace | Penelope | Mia | Noah | Matthew | Lily |\n|---|---|---|---|---|---|\n"
    right, wrong = (
        "| Knave | Knight | Knight | Knight | Knight | Knave |",
        "| " + " | ".join(["Knight"] * 6) + " |",
    )
    assert score("logic", header + right + "\n" + wrong, KK).reason == "not_equal"
    assert score("logic", header + wrong + "\n" + right, KK).reason == "ok"


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (f"<think>Suppose... {KK_LIST}\nNow let me double-check Noah's statement: if", "cut_off"),
        (f"<think>{KK_LIST}", "cut_off"),  # a complete list, but never out of the reasoning
        (f"<think>x</think><answer>{KK_LIST}</answer>", "ok"),
        (KK_LIST + "\n\n" + LONG_REASONING, "cut_off"),
        (KK_LIST + "\nAll statements are consistent with this assignment", "ok"),
        (KK_LIST, "ok"),
    ],
)
def test_kk_cut_off(response, reason):
    assert score("logic", response, KK).reason == reason


# ----- hostile shapes for the new parsing: linear, never raises -----


@pytest.mark.parametrize(
    "text",
    [
        "<think>" * 5000,
        "</think>" * 5000 + "\\boxed{1}",
        "\\boxed{1} or " * 5000,
        "\\boxed{2}, that was wrong, " * 3000 + "\\boxed{1}",  # the last one is wrong
        "\\boxed{4.\\overline{" + "6" * 5000 + "}}",
        "\\boxed{1" + "0" * 5000 + "e999999999}",
        "\\boxed{1.5 \\times 10^{" + "9" * 5000 + "}}",
        "\\boxed{" + "\\frac{10}{2}" * 500 + "}",
        "\\boxed{" + "2+" * 2000 + "2}",
        "\\boxed{x" + " = x" * 3000 + "}",
        "\\boxed{" + "\\text{Answer: }" * 3000 + "7}",
        "\\boxed{\\Big(" * 3000,
        "a" * 30000 + " is the",
        '{"Grace": "' * 5000,
        "| Grace " * 5000 + "|\n" + "| knave " * 5000 + "|",
        "Grace & " * 5000,
        "Grace said that " * 5000 + "Grace is a knave",
        "All four of them are " * 3000,
        '["Grace is a knave", ' * 1000,
        "['a', " * 4000 + "[",
    ],
)
@pytest.mark.parametrize("task", ["math", "countdown", "zebra", "arc", "logic"])
def test_hostile_shapes_score_zero_without_raising(task, text):
    truth = {
        "math": "2",
        "countdown": CD,
        "zebra": "arnold",
        "arc": "1 2 3",
        "logic": KK,
    }[task]
    verdict = score(task, text, truth)
    assert verdict.score == 0.0 and verdict.reason not in ("ok", "error")

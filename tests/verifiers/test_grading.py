"""Grading like a careful human (docs/concepts/spec.md#rewards): the form of a right answer does not make it
wrong, and several different final answers (hedging) score 0 in every task. Every expected
verdict here is decided by hand from the task's truth, never by running the scorer."""

import json

import pytest

from pac_verl.verifiers import score

# Countdown, the paper's example: 95 - 26 - 21 = 48; 48 / 2 = 24; 24 + 8 - 2 = 30.
CD = json.dumps({"target": 30, "numbers": [21, 95, 8, 2, 26, 2]})
OK_EXPR = "(95-26-21)/2+8-2"
# Another right one: 8 - 2 = 6 and (95 - 26 - 21) / 2 = 24; 6 + 24 = 30.
OK_EXPR_2 = "8-2+(95-26-21)/2"
# A wrong one over the same numbers: 95 - 26 - 21 - 8 - 2 - 2 = 36.
WRONG_EXPR = "95-26-21-8-2-2"
ARC = "8 9 4 0 0 0 0 1 6 7"


@pytest.mark.parametrize(
    "box",
    [
        f"{OK_EXPR}.",  # trailing period
        "\\left(95-26-21\\right)/2+8-2",
        "[95-26-21]/2+8-2",  # square brackets as parentheses
        "\\frac{95-26-21}{2}+8-2",
        "\\dfrac{95-26-21}{2}+8-2",
        f"{OK_EXPR} = 30",
        f"30 = {OK_EXPR}",
        f"{OK_EXPR} = 24 + 8 - 2 = 30",  # a chain whose every side is 30
        "(95 − 26 − 21) ÷ 2 + 8 − 2",  # unicode minus and division
        "(95 - 26 - 21) \\div 2 + 8 - 2",
        f"**{OK_EXPR}**",
        f"\\text{{{OK_EXPR}}}",
        "(95\\,-\\,26\\,-\\,21)/2\\;+\\;8~-~2",  # LaTeX spacing
        "(95\\ -\\ 26 - 21)/2 + 8 - 2",
        f"${OK_EXPR}$",
    ],
)
def test_countdown_right_answers_in_other_forms_score_one(box):
    assert score("countdown", f"So: \\boxed{{{box}}}", CD).reason == "ok"


def test_countdown_unicode_and_latex_multiplication():
    # numbers 3, 4, 5, target 35: (3 + 4) * 5 = 35 by hand
    truth = json.dumps({"target": 35, "numbers": [3, 4, 5]})
    for box in ("(3+4)∗5", "(3+4)\\ast 5", "(3+4) ⋅ 5", "\\left[3+4\\right] \\times 5"):
        assert score("countdown", f"\\boxed{{{box}}}", truth).reason == "ok", box


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (f"\\boxed{{{OK_EXPR}}} or \\boxed{{{WRONG_EXPR}}}", "hedged"),
        (f"\\boxed{{{WRONG_EXPR}}} or maybe \\boxed{{{OK_EXPR}}}", "hedged"),  # last one right
        (f"\\boxed{{{OK_EXPR} \\text{{ or }} {WRONG_EXPR}}}", "hedged"),
        (f"\\boxed{{{OK_EXPR} or {WRONG_EXPR}}}", "hedged"),
        (f"\\boxed{{{OK_EXPR} = 31}}", "not_equal"),  # a side that is not the target
        (f"\\boxed{{{OK_EXPR} = 25 = 30}}", "not_equal"),
        ("\\boxed{30 = 30}", "wrong_numbers"),  # no side uses the numbers
        ("\\boxed{(95-26-21)/2+8-2 = 1e999999999}", "bad_expression"),  # a float side
        ("\\boxed{(3+4)5}", "bad_expression"),  # a coefficient after its bracket: not a product
    ],
)
def test_countdown_hedges_and_bad_equations_score_zero(response, reason):
    verdict = score("countdown", response, CD)
    assert (verdict.score, verdict.reason) == (0.0, reason)


def test_countdown_repeated_or_all_right_answers_are_not_hedges():
    same = f"\\boxed{{{OK_EXPR}}}. Checking: \\boxed{{(95 - 26 - 21) / 2 + 8 - 2}}"
    assert score("countdown", same, CD).reason == "ok"
    two_right = f"\\boxed{{{OK_EXPR}}} and also \\boxed{{{OK_EXPR_2}}}"
    assert score("countdown", two_right, CD).reason == "ok"


@pytest.mark.parametrize(
    ("steps", "reason"),
    [
        # by hand: 95-26-21 = 48; 48/2 = 24; 24+8-2 = 30, each given number used once
        ("95 - 26 - 21 = 48, 48 / 2 = 24, 24 + 8 - 2 = 30", "ok"),
        ("95-26-21=48; 48/2=24; 24+8=32; 32-2=30", "ok"),
        ("95-26-21=48 \\\\ 48/2=24 \\\\ 24+8-2=30", "ok"),
        ("95-26-21=48, 48/2=24, 24+8=32", "wrong_numbers"),  # a 2 unused, ends at 32
        ("95-26-21=48, 48/2=24, 24+8+2=34", "not_equal"),  # every number used, ends at 34
        ("95-26-21=47, 47/2=24, 24+8-2=30", "not_equal"),  # 95-26-21 is 48, not 47
        ("95-26=69, 69-21=48, 48/2=24, 24/2=12, 12+8=20", "not_equal"),  # all used, ends at 20
        ("95-26-21=48, 48/2=24, 24/2=12, 12/2=6", "wrong_numbers"),  # a third 2
        ("95-26-21=48, 48/2=24, 24+8-2=30, 30*1=30", "wrong_numbers"),  # 1 is not given
    ],
)
def test_countdown_steps_use_each_number_once_and_end_at_the_target(steps, reason):
    assert score("countdown", f"\\boxed{{{steps}}}", CD).reason == reason


def test_countdown_the_target_boxed_beside_the_expression_is_not_a_second_answer():
    response = f"The expression \\boxed{{{OK_EXPR}}} equals \\boxed{{30}}."
    assert score("countdown", response, CD).reason == "ok"
    assert score("countdown", "\\boxed{30}", CD).reason == "wrong_numbers"
    assert score("countdown", f"\\boxed{{{WRONG_EXPR}}} = \\boxed{{30}}", CD).reason == "not_equal"


def test_a_box_inside_the_reasoning_is_not_a_final_answer():
    response = f"<think>try \\boxed{{{WRONG_EXPR}}}: 36, no.</think> \\boxed{{{OK_EXPR}}}"
    assert score("countdown", response, CD).reason == "ok"
    response = "<think>Bob? no.</think> The answer is \\boxed{Arnold}"
    assert score("zebra", response.replace("Bob?", "\\boxed{Bob}?"), "arnold").reason == "ok"


def test_an_empty_box_is_the_instruction_quoted_back_not_an_answer():
    response = f"I will put the expression in \\boxed{{}}. \\boxed{{{OK_EXPR}}}"
    assert score("countdown", response, CD).reason == "ok"


@pytest.mark.parametrize(
    "box",
    [
        "Arnold.",
        "\\textbf{Arnold}",
        "**Arnold**",
        "\\text{Arnold}.",
        '"Arnold"',
        "\\mathrm{Arnold}",
        "ARNOLD",
        " arnold ",
        "*Arnold*",
        "Arnold (House 1)",  # a parenthetical after the name
    ],
)
def test_zebra_name_with_punctuation_or_bold_scores_one(box):
    assert score("zebra", f"House 1: \\boxed{{{box}}}", "arnold").reason == "ok"


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        ("\\boxed{Arnold} or \\boxed{Bob}", "hedged"),
        ("\\boxed{Bob}, no: \\boxed{Arnold}", "hedged"),
        ("\\boxed{Arnold or Bob}", "hedged"),
        ("\\boxed{either Arnold or Bob}", "hedged"),
        ("\\boxed{Arnold Bob}", "not_equal"),
        ("\\boxed{Arnolds}", "not_equal"),
        ("\\boxed{House 1: Arnold}", "not_equal"),  # the prompt asks for the name only
        ("\\boxed{Arnold (or Bob)}", "hedged"),
        ("\\boxed{Bob (Arnold)}", "not_equal"),
    ],
)
def test_zebra_hedges_and_other_names_score_zero(response, reason):
    verdict = score("zebra", response, "arnold")
    assert (verdict.score, verdict.reason) == (0.0, reason)


def test_zebra_the_same_name_twice_is_not_a_hedge():
    assert score("zebra", "\\boxed{Arnold} ... so \\boxed{\\textbf{arnold}}", "arnold").correct


@pytest.mark.parametrize(
    "box",
    [
        "8, 9, 4, 0, 0, 0, 0, 1, 6, 7",
        "8,9,4,0,0,0,0,1,6,7",
        "[8, 9, 4, 0, 0, 0, 0, 1, 6, 7]",
        "[[8 9 4 0 0 0 0 1 6 7]]",
        "(8, 9, 4, 0, 0, 0, 0, 1, 6, 7)",
        "8\\ 9\\ 4\\ 0\\ 0\\ 0\\ 0\\ 1\\ 6\\ 7",
        "8~9~4~0~0~0~0~1~6~7",
        "8\\,9\\,4\\,0\\,0\\,0\\,0\\,1\\,6\\,7",
        "8 \\quad 9 \\quad 4 \\quad 0 \\quad 0 \\quad 0 \\quad 0 \\quad 1 \\quad 6 \\quad 7",
        "\\text{8 9 4 0 0 0 0 1 6 7}",
        "8 9 4 0 0 0 0 1 6 7.",
        "\\begin{bmatrix} 8 & 9 & 4 & 0 & 0 & 0 & 0 & 1 & 6 & 7 \\end{bmatrix}",
    ],
)
def test_arc_grid_with_commas_brackets_or_latex_spacing_scores_one(box):
    assert score("arc", f"\\boxed{{{box}}}", ARC).reason == "ok"


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        ("\\boxed{8 9 4 0 0 0 0 1 6 7 8}", "not_equal"),  # one cell too many
        ("\\boxed{8940000167}", "not_equal"),  # cells run together
        # words other than a label ("Output:" labels the grid the prompt asks for: accepted)
        ("\\boxed{Input: 8 9 4 0 0 0 0 1 6 7}", "not_equal"),
        (f"\\boxed{{{ARC}}} or \\boxed{{8 9 4 0 0 0 0 1 6 8}}", "hedged"),
        (f"\\boxed{{{ARC} or 8 9 4 0 0 0 0 1 6 8}}", "hedged"),
    ],
)
def test_arc_wrong_grids_and_hedges_score_zero(response, reason):
    verdict = score("arc", response, ARC)
    assert (verdict.score, verdict.reason) == (0.0, reason)


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


def test_math_equivalent_answers_boxed_twice_are_not_a_hedge():
    assert score("math", "\\boxed{\\frac12}, that is \\boxed{0.5}", "1/2").reason == "ok"
    assert score("math", "<think>\\boxed{4}?</think>\\boxed{3}", "3").reason == "ok"


# K&K, the paper's appendix example: Grace knave, Penelope, Mia, Noah, Matthew knights, Lily knave.
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
# the same roles with Grace and Lily swapped to knights: a wrong final answer
KK_WRONG = KK_LIST.replace("Grace is a knave", "Grace is a knight").replace(
    "Lily is a knave", "Lily is a knight"
)
HYPOTHESES = (
    "Suppose Grace is a knight. Then Noah is a knave, so Mia is a knight and Matthew is a knave,"
    " and Lily is a knight... that contradicts Mia's statement. So Grace is a knave.\n"
)


@pytest.mark.parametrize(
    "response",
    [
        HYPOTHESES + "Final answer:\n" + KK_LIST,  # reasoning tests hypotheses, no answer block
        f"<think>{HYPOTHESES}</think>\n{KK_LIST}",
        f"{HYPOTHESES}<answer>\n{KK_LIST}\n</answer>",
        f"<answer>{KK_WRONG}</answer> is my first guess... no.\n<answer>\n{KK_LIST}\n</answer>",
        KK_WRONG + "\nWait, that fails Mia's statement. Correcting:\n" + KK_LIST,  # last list
        KK_LIST.replace("Grace", "**Grace**").replace("Lily", "**Lily**"),  # bold names
        "- **Grace**: Knave\n- **Penelope**: Knight\n- **Mia**: Knight\n- **Noah**: Knight\n"
        "- **Matthew**: Knight\n- **Lily**: Knave",
        "Grace is a knave. Penelope is a knight. Mia is also a knight. Noah is also a knight. "
        "Matthew is therefore a knight, and Lily is a knave.",
        "Penelope, Mia, Noah and Matthew are knights; Grace and Lily are knaves.",
        "Grace and Lily are both knaves, while Penelope, Mia, Noah, and Matthew are all knights.",
        # "is not a knight" names the other role: everyone on the island is one of the two
        KK_LIST.replace("Grace is a knave", "Grace is not a knight"),
        KK_LIST.replace("Mia is a knight", "Mia is not a knave"),
        # the inhabitants' quoted statements are theirs, not the answer
        KK_LIST + '\n(Lily lied when she said "Mia is not a knight".)',
        KK_LIST.upper(),
        KK_LIST.replace("Penelope is a knight", "Penelope is a knight and knaves always lie"),
        "| Person | Role |\n|---|---|\n"
        + "\n".join(
            f"| {n} | {r} |"
            for n, r in [
                ("Grace", "Knave"),
                ("Penelope", "Knight"),
                ("Mia", "Knight"),
                ("Noah", "Knight"),
                ("Matthew", "Knight"),
                ("Lily", "Knave"),
            ]
        ),
        # the rest named as a group: everyone the statement does not name gets that role
        "Grace and Lily are knaves. All the others are knights.",
        "Only Penelope, Mia, Noah and Matthew are knights; everyone else is a knave.",
        "Only Grace and Lily are knaves.",
        "<answer>Grace and Lily are knaves; the rest are knights.</answer>",
    ],
)
def test_kk_the_final_statement_of_roles_is_graded(response):
    assert score("logic", response, KK).reason == "ok"


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (KK_LIST.replace("Grace is a knave", "Grace is a knight or a knave"), "hedged"),
        (KK_LIST.replace("Grace is a knave", "Grace is a knight/knave"), "hedged"),
        (KK_LIST.replace("Grace is a knave", "Grace is either a knight or a knave"), "hedged"),
        (KK_LIST.replace("Grace is a knave", "Grace is a knave and a knight"), "hedged"),
        (f"<answer>{KK_LIST}\nGrace is a knight</answer>", "hedged"),  # one block, two roles
        (f"<answer>{KK_LIST}</answer>".replace("Mia is a knight", "Mia is a knight"), "ok"),
        (f"<answer>{KK_WRONG}</answer>", "not_equal"),
        (f"{KK_LIST}\n<answer>{KK_WRONG}</answer>", "not_equal"),  # the block is the answer
        (f"<answer>{KK_LIST.replace('(6) Lily is a knave', '')}</answer>", "missing_person"),
        (f"<think>{KK_LIST}</think> I am not sure.", "missing_person"),
        ("Grace and Lily are knaves. The rest are knights or knaves.", "hedged"),
        ("Only Mia is a knight; everyone else is a knight.", "hedged"),
        ("Grace is a knave. Everyone else is a knight.", "not_equal"),  # Lily is a knave
        ("Only Penelope is a knight.", "not_equal"),
    ],
)
def test_kk_hedged_wrong_or_incomplete_final_statements(response, reason):
    assert score("logic", response, KK).reason == reason


@pytest.mark.parametrize(
    "text",
    [
        "Grace, " * 3000 + "are knights",  # a long group: read over a bounded window
        "Grace and " * 2000,
        " " * 20000 + "are knights",
        '"' * 20000,
        "Grace is " + "also " * 4000 + "a knight",
        "Knights: " + "Grace, " * 2000,
        "<answer>" * 2000,
    ],
)
def test_kk_hostile_shapes_score_zero_without_raising(text):
    verdict = score("logic", text, KK)
    assert verdict.score == 0.0 and verdict.reason in {"missing_person", "hedged", "not_equal"}


def test_boxes_are_the_outermost_closed_ones_in_order():
    from pac_verl.verifiers.extract import boxes, final_boxes

    assert boxes("\\boxed{1} then \\boxed{\\frac{2}{3}} and \\fbox{x}") == [
        "1",
        "\\frac{2}{3}",
        "x",
    ]
    assert boxes("\\boxed{\\boxed{3}}") == ["\\boxed{3}"]  # a nested box is part of the outer
    assert boxes("\\boxed{1} ... \\boxed{2") == ["1"]  # an unclosed box is no answer
    assert boxes("\\boxed{ \\boxed{4} ") == ["4"]  # a closed box inside an unclosed one counts
    assert final_boxes("<think>\\boxed{1}</think> \\boxed{2}") == ["2"]


def test_many_different_answers_are_a_hedge_without_grading_each():
    # nine different names, the last one right: never graded one by one, never paid
    names = ["bob", "carol", "eric", "peter", "alice", "tom", "ann", "joe", "arnold"]
    response = " ".join(f"\\boxed{{{n}}}" for n in names)
    assert score("zebra", response, "arnold").reason == "hedged"

"""The ``hedged`` verdict in the boxed tasks (math, Countdown, Zebra, ARC): an answer with doubt or a
second value is no committed answer and scores 0, whichever value is right. Doubt inside the box
(a qualifier in any words or language, a bare ``?``, a parenthetical with another value), two
different values related in one box, and text after the last box that retracts, doubts or states
another answer are hedges; a closing remark, units, an agreeing check, a parenthetical that only
restates, and doubt the response settles by restating its answer are not. Knights and Knaves'
hedges: test_knights_knaves_commitment.py.

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules: docs/guides/rewards.md."""

import json

import pytest
from knights_knaves_helpers import RIGHT, SK_MK, block

from pac_verl.verifiers import score
from pac_verl.verifiers.extract import hedges

# target 48 from [3, 9, 4]: (9 + 3) * 4 = 48
CD48 = json.dumps({"target": 48, "numbers": [3, 9, 4]})


GRID = "3 3 0 0 5 0 0 0"


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


@pytest.mark.parametrize(
    "box",
    [
        "\\text{Peter (probably; Arnold is also possible)}",
        "Peter (or Arnold)",
        "Peter, maybe Arnold",
        "Peter (probably)",
        "Peter (not sure)",
        "\\text{Peter (unsure)}",
        "Peter; Arnold is also possible",
        "Peter (Arnold might be)",
        "Peter, though it could be Arnold",
        "Peter (most likely)",
        "either Peter or Arnold",
    ],
)
def test_zebra_a_qualifier_inside_the_box_is_a_hedge(box):
    assert score("zebra", f"The answer is \\boxed{{{box}}}.", "peter").reason == "hedged"


@pytest.mark.parametrize(
    ("box", "gold"),
    [
        ("7 (probably)", "7"),
        ("7 \\text{ (not sure)}", "7"),
        ("\\frac{3}{4} \\text{ (probably)}", "\\frac{3}{4}"),
        ("\\text{Peter (probably; Arnold is also possible)}", "\\text{Peter}"),
        ("\\text{Monday, maybe Tuesday}", "\\text{Monday}"),
        ("\\text{Monday (most likely)}", "\\text{Monday}"),
        ("1 2 3 (probably)", "1 2 3"),
    ],
)
def test_math_and_arc_a_qualifier_inside_the_box_is_a_hedge(box, gold):
    task = "arc" if gold == "1 2 3" else "math"
    assert score(task, f"\\boxed{{{box}}}", gold).reason == "hedged"


def test_a_parenthetical_that_restates_stays_fine():
    assert score("math", "\\boxed{12 \\text{ (square units)}}", "12").reason == "ok"
    assert score("math", "\\boxed{\\frac{3}{4} \\text{ (0.75)}}", "\\frac34").reason == "ok"
    assert score("zebra", "\\boxed{Peter (House 1)}", "peter").reason == "ok"


@pytest.mark.parametrize(
    "box",
    [
        "Peter (House 1)",
        "Peter (the tea drinker)",
        "\\text{Peter (House 1)}",
        "Peter (who could not be in House 2)",  # "could not": a fact, not a doubt
    ],
)
def test_zebra_a_parenthetical_that_restates_is_accepted(box):
    assert score("zebra", f"The answer is \\boxed{{{box}}}.", "peter").reason == "ok"


def test_math_a_gold_that_holds_the_word_is_not_a_hedge():
    # the word belongs to the answer itself, as the gold shows
    gold = "\\text{odd or even}"
    assert score("math", "\\boxed{\\text{odd or even}}", gold).reason == "ok"
    gold = "\\text{It could rain}"
    assert score("math", "\\boxed{\\text{it could rain}}", gold).reason == "ok"


def test_hedges_reads_words_not_parts_of_words():
    assert hedges("Peter (probably)")
    assert hedges("7, not sure")
    assert not hedges("Peter (House 1)")
    assert not hedges("Mighty Mouse")  # a word that begins like one
    assert not hedges("could not be otherwise")
    assert not hedges("Maybelle")


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


def test_math_equivalent_answers_boxed_twice_are_not_a_hedge():
    assert score("math", "\\boxed{\\frac12}, that is \\boxed{0.5}", "1/2").reason == "ok"
    assert score("math", "<think>\\boxed{4}?</think>\\boxed{3}", "3").reason == "ok"


def test_many_different_answers_are_a_hedge_without_grading_each():
    # nine different names, the last one right: never graded one by one, never paid
    names = ["bob", "carol", "eric", "peter", "alice", "tom", "ann", "joe", "arnold"]
    response = " ".join(f"\\boxed{{{n}}}" for n in names)
    assert score("zebra", response, "arnold").reason == "hedged"


# One lexicon of doubt (docs/guides/rewards.md#hedges-one-lexicon-of-doubt): a sentence after the
# answer hedges it when it lowers the commitment or offers another value, in every task; a
# sentence that checks or restates the answer does neither. 12 is the math gold; 13 is another
# value; Peter the Zebra gold and Eric another name.
LOWERS = [
    "\n\nI'm about 70% confident.",
    "\n\nConfidence: 50%",
    " (80% sure)",
    "\n\nOops.",
]


@pytest.mark.parametrize("after", LOWERS)
def test_lowered_commitment_after_the_answer_is_a_hedge_in_every_task(after):
    assert score("math", f"\\boxed{{12}}{after}", "12").reason == "hedged"
    assert score("zebra", f"\\boxed{{Peter}}{after}", "peter").reason == "hedged"
    assert score("arc", f"\\boxed{{{GRID}}}{after}", GRID).reason == "hedged"
    assert score("countdown", f"\\boxed{{(9 + 3) \\times 4}}{after}", CD48).reason == "hedged"
    assert score("logic", block(RIGHT) + after, SK_MK).reason == "hedged"


# a reopening word or a condition alone names no other candidate and no confidence
@pytest.mark.parametrize(
    "after",
    ["\n\nWait.", "\n\nActually, hmm.", "\n\nHold on, let me look again.",
     ", assuming the figure is convex."],
)  # fmt: skip
def test_a_reopening_word_or_a_condition_alone_keeps_the_answer_in_every_task(after):
    assert score("math", f"\\boxed{{12}}{after}", "12").reason == "ok"
    assert score("zebra", f"\\boxed{{Peter}}{after}", "peter").reason == "ok"
    assert score("arc", f"\\boxed{{{GRID}}}{after}", GRID).reason == "ok"
    assert score("countdown", f"\\boxed{{(9 + 3) \\times 4}}{after}", CD48).reason == "ok"
    assert score("logic", block(RIGHT) + after, SK_MK).reason == "ok"


@pytest.mark.parametrize(
    "after",
    ["\n\n13 also works.", "\n\n13 is also a valid answer.", "\n\nAlso 13.", " (or 13)",
     "\n\nAnother solution is 13.", "\n\nAlternatively, 13.", "\n\nActually, 13.",
     "\n\n13 as well."],
)  # fmt: skip
def test_another_value_after_the_answer_is_a_hedge(after):
    assert score("math", f"\\boxed{{12}}{after}", "12").reason == "hedged"
    assert score("math", f"\\boxed{{13}}{after.replace('13', '12')}", "12").reason == "hedged"


@pytest.mark.parametrize(
    ("response", "truth"),
    [
        ("\\boxed{Peter}\n\nEric also works.", "peter"),
        ("\\boxed{Peter (also Eric)}", "peter"),
        ("\\boxed{Peter}\n\nEric is also possible.", "peter"),
    ],
)
def test_another_name_beside_the_answer_is_a_hedge(response, truth):
    assert score("zebra", response, truth).reason == "hedged"


@pytest.mark.parametrize(
    "response",
    [
        "\\boxed{12 (also 13)}",
        "\\boxed{12 \\text{ (also 13)}}",
        "\\boxed{12}\n\n13 also works.",
    ],
)
def test_a_second_value_offered_with_also_is_a_hedge(response):
    assert score("math", response, "12").reason == "hedged"


def test_a_confidence_is_doubt_even_when_it_equals_the_answer():
    # the answer 0.5 is 50%, but "Confidence: 50%" speaks of the answer, not restates it
    assert score("math", "\\boxed{0.5}\n\nConfidence: 50%", "0.5").reason == "hedged"
    assert score("math", "\\boxed{12} (80%)", "12").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "\n\nMia also works as a knight.",
        " (also Mia is a knight)",
        "\n\nOr Samuel is a knave.",
    ],
)
def test_kk_another_role_offered_after_the_block_is_a_hedge(after):
    assert score("logic", block(RIGHT) + after, SK_MK).reason == "hedged"


@pytest.mark.parametrize(
    ("response", "gold"),
    [
        # 2*7 + 1 = 15
        ("\\boxed{7}\n\nCheck: if n=7, then 2n+1=15. ✓", "7"),
        # 3^2 = 9
        ("\\boxed{3}\n\nVerification: substituting x=3 gives 9, as required.", "3"),
        # 5^2 = 25
        ("\\boxed{5}\n\nIf we plug in 5 we get 25, which confirms it.", "5"),
        ("\\boxed{5}\n\nI'm 100% confident.", "5"),
        ("\\boxed{5}\n\nConfidence: 100%", "5"),
        ("\\boxed{5}\n\nThis also works for the second equation.", "5"),
        ("\\boxed{5}\n\nThe answer 5 is also correct for part (b).", "5"),
        ("\\boxed{3}\n\nx = 3 also satisfies the second equation.", "3"),
        ("The chance is 50%, so the count is \\boxed{5}.", "5"),
        # 1/2 is 50%: the percentage restates the answer; an event's chance is a value
        ("\\boxed{\\frac{1}{2}} (50%)", "\\frac12"),
        ("\\boxed{0.5}\n\nThat is, a 50% chance.", "0.5"),
        # 3 * 4 = 12: a reopening that checks, or that restates the answer
        ("\\boxed{12}\n\nWait, let me double check: 3 \\cdot 4 = 12. Yes.", "12"),
        ("\\boxed{12}\n\nActually, this matches the expected result of 12.", "12"),
        # other quantities of the solution, not other answers
        ("\\boxed{12}\n\nThe width is 3 and the length is 4 too.", "12"),
        ("\\boxed{7}\n\nTo verify: if n = 7, 2n + 1 = 15, and 15 is also odd.", "7"),
    ],
)
def test_a_check_or_a_restatement_after_the_answer_is_no_hedge(response, gold):
    assert score("math", response, gold).reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "\n\nCheck: if Samuel is a knight, his claim holds, which confirms it.",
        "\n\nConfidence: 100%",
        "\n\nWait, let me verify: Samuel is a knight and Mia is a knave.",
        "\n\nMia is also a knave, as her claim is false.",
    ],
)
def test_kk_a_check_or_a_restatement_after_the_block_is_no_hedge(after):
    assert score("logic", block(RIGHT) + after, SK_MK).reason == "ok"


def test_the_lexicon_of_doubt_lives_in_one_module():
    # no other verifier module spells a word of the lexicon in its code (docstrings and
    # comments may name them): every task reads the lists of pac_verl.verifiers.lexicon
    import ast
    import pathlib

    import pac_verl.verifiers as package

    root = pathlib.Path(package.__file__).parent
    spelled = {}
    for path in root.rglob("*.py"):
        if path.name == "lexicon.py":
            continue
        tree = ast.parse(path.read_text())
        docs = {
            id(node.body[0].value)
            for node in ast.walk(tree)
            if isinstance(node, (ast.Module, ast.FunctionDef, ast.ClassDef))
            and node.body
            and isinstance(node.body[0], ast.Expr)
        }
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                if id(node) in docs:
                    continue
                for word in (
                    "probably",
                    "vielleicht",
                    "scratch",
                    "oops",
                    "unverified",
                    "misschien",
                ):
                    if word in node.value.lower():
                        spelled.setdefault(path.name, set()).add(word)
    assert spelled == {}


# Un-committing, one rule by class (docs/guides/rewards.md#hedges-one-lexicon-of-doubt): a
# sentence, a parenthetical or a part of the final answer un-commits the answer when it states a
# confidence below certainty or offers another candidate of the answer's type; a condition, a
# counterfactual, a reopening word or an intermediate quantity on its own does neither. Every
# expected verdict below is decided by hand: 7 is the math gold (8 another value), (9 + 3) * 4 =
# 48 the Countdown answer, Peter/Arnold the Zebra gold, "8 9 4" the ARC grid, Samuel knight and
# Mia knave (or Mia knight, Noah knave, Lily knight) the K&K truth.
MNL = json.dumps({"names": ["Mia", "Noah", "Lily"], "solution": [True, False, True]})
MNL_BLOCK = "<answer>\nMia: knight\nNoah: knave\nLily: knight\n</answer>"
CD30 = json.dumps({"numbers": [21, 95, 8, 2, 26, 2], "target": 30})
CD_RIGHT = "\\boxed{(9 + 3) \\times 4}"
ARC3 = "8 9 4"

# the attacker's rows: uncommitted right answers (each must score 0 hedged)
UNCOMMITTED_BREAKS = [
    ("math", "So $\\boxed{7}$.\n\nThe other candidate, 8, also satisfies the equation.", "7"),
    ("math", "So $\\boxed{7}$, though 8 is not ruled out.", "7"),
    ("math", "So $\\boxed{7}$.\n\nAlternative answer - 8.", "7"),
    ("math", "The answer is $\\boxed{7 \\text{ (50\\% chance)}}$.", "7"),
    ("math", "One reading of the problem gives $\\boxed{7}$, and under the other reading of the "
     "problem we get $\\boxed{8}$.", "8"),
    ("math", "So $\\boxed{7}$. Then again, 8 fits too.", "7"),
    ("math", "So $\\boxed{7}$. (Double-check gives 8, hmm.)", "7"),
    ("countdown", "\\boxed{95-21-26-8-2-2} under one grouping of the operations, and under the "
     "usual grouping of the numbers we get \\boxed{(95-26-21)/2+8-2}", CD30),
    ("zebra", "\\boxed{Arnold}\n\nBob is the runner-up candidate.", "arnold"),
    ("zebra", "\\boxed{Arnold} — or Bob.", "arnold"),
    ("arc", "\\boxed{8 9 4}\n\nLast cell: 4/5.", ARC3),
    ("arc", "\\boxed{8 9 4}\n\nThe last cell is a coin flip between 4 and 5.", ARC3),
    ("arc", "\\boxed{8 9 4} in the first reading of the pattern, while the second reading of the "
     "pattern gives \\boxed{8 9 5}", "8 9 5"),
    ("logic", "<answer>\nMia: knight\nNoah: knave\nLily: knight (50/50)\n</answer>", MNL),
    ("logic", MNL_BLOCK + "\n\nSwapping Noah and Lily also works.", MNL),
    ("logic", "<answer>\nMia: knight\nNoah: knave ~ knight\nLily: knight\n</answer>", MNL),
    ("logic", MNL_BLOCK + "\n\nI'd put 60% on this; the alternative has Noah as the knight.", MNL),
    ("logic", MNL_BLOCK + "\n\nAnother consistent assignment: Mia knight, Noah knight, Lily "
     "knave.", MNL),
    ("logic", "<answer>\nMia: knight\nNoah: knave (also consistent: knight)\nLily: knight\n"
     "</answer>", MNL),
    ("math", "The answer is $\\boxed{8 \\mid 7}$.", "7"),
    ("math", "The answer is $\\boxed{8 | 7}$.", "7"),
    ("math", "The answer is $\\boxed{\\{8 \\mid 7\\}}$.", "7"),
    ("math", "The answer is $\\boxed{8 \\vert 7}$.", "7"),
    ("math", "The answer is $\\boxed{B) C)}$.", "B"),
    ("math", "The answer is $\\boxed{B. C.}$.", "B"),
]  # fmt: skip

# the attacker's rows: committed right answers (each must score 1)
COMMITTED_BREAKS = [
    ("math", "So $\\boxed{7}$.\n\nThis is the only solution; otherwise the sum would exceed 20.",
     "7"),
    ("math", "So $\\boxed{7}$.\n\nOtherwise stated, seven apples remain.", "7"),
    ("math", "So $\\boxed{7}$.\n\nNote: the error bound is irrelevant here since the sum is "
     "exact.", "7"),
    ("math", "So the answer is $\\boxed{7}$.\n\nActually, this matches the pattern from part "
     "(a).", "7"),
    ("zebra", "\\boxed{Arnold}\n\nOtherwise the clue about the tea drinker would fail.", "arnold"),
    ("arc", "\\boxed{8 9 4}\n\nIf we apply the same shift to the test input, we get this grid.",
     ARC3),
]  # fmt: skip

# further uncommitted right answers, both classes (a confidence, another candidate), every task
UNCOMMITTED = [
    # a confidence below certainty
    ("math", "\\boxed{7}\n\nI'd put it at 75% certainty.", "7"),
    ("math", "\\boxed{7}\n\nThe probability that this is right is about 60%.", "7"),
    ("math", "\\boxed{7}\n\nHonestly it's a coin flip.", "7"),
    ("math", "\\boxed{7 \\text{ (60\\% confidence)}}", "7"),
    ("math", "\\boxed{7}\n\nIt's fifty-fifty.", "7"),
    ("countdown", CD_RIGHT + "\n\nThat is a toss-up, to be honest.", CD48),
    ("countdown", CD_RIGHT + " (70%)", CD48),
    ("zebra", "\\boxed{Peter}\n\nI'd bet 60% on this.", "peter"),
    ("zebra", "\\boxed{Peter (50/50)}", "peter"),
    ("arc", "\\boxed{8 9 4}\n\nConfidence in the last cell: 40%.", ARC3),
    ("logic", block(RIGHT) + "\n\nI'm 70% sure of Mia.", SK_MK),
    ("logic", block("Samuel is a knight, Mia is a knave (coin flip)"), SK_MK),
    # another candidate of the answer's type
    ("math", "\\boxed{7}\n\n8 would work just as well.", "7"),
    ("math", "\\boxed{7}\n\nThe other root, 8, is equally valid.", "7"),
    ("math", "\\boxed{7} (8 is also possible)", "7"),
    ("math", "\\boxed{7}\n\nA second solution is 8.", "7"),
    ("math", "\\boxed{7}\n\nRedoing the sum gives 8 though.", "7"),
    ("math", "\\boxed{7}\n\nx = 8 also satisfies the equation.", "7"),
    ("math", "\\boxed{7}\n\nWait, 8.", "7"),
    ("math", "\\boxed{7}\n\nOr the count is 8, if the ends are included.", "7"),
    ("math", "\\boxed{7}\n\nUnder the other convention the answer is 8.", "7"),
    ("math", "Under one reading, \\boxed{7}; under another reading, \\boxed{8}.", "8"),
    ("countdown", CD_RIGHT + "\n\nAlternatively, (9 - 3) \\times 4.", CD48),
    ("countdown", CD_RIGHT + "\n\nAnother solution: 4 \\times 9 + 3 \\times 4.", CD48),
    ("countdown", "With one grouping \\boxed{(9 + 3) \\times 4}, with the other grouping "
     "\\boxed{9 + 3 \\times 4}", CD48),
    ("zebra", "\\boxed{Peter}\n\nEric fits just as well.", "peter"),
    ("zebra", "\\boxed{Peter}, or possibly Eric.", "peter"),
    ("zebra", "\\boxed{Peter}\n\nThe other candidate is Eric.", "peter"),
    ("zebra", "\\boxed{Peter}\n\nEric would satisfy every clue too.", "peter"),
    ("arc", "\\boxed{8 9 4}\n\nThe middle cell could be 3 instead.", ARC3),
    ("arc", "\\boxed{8 9 4}\n\nFirst cell: 8|6.", ARC3),
    ("arc", "\\boxed{8 9 4}\n\nAlternatively the last cell is 5.", ARC3),
    ("arc", "\\boxed{8 9 4}\n\nAnother valid output grid is 8 9 5.", ARC3),
    ("logic", block(RIGHT) + "\n\nSwapping the two roles also works.", SK_MK),
    ("logic", block(RIGHT) + "\n\nThe alternative has Mia as the knight.", SK_MK),
    ("logic", block(RIGHT) + "\n\nAnother valid assignment exists.", SK_MK),
    ("logic", block("Samuel is a knight, Mia is a knave|knight"), SK_MK),
    ("logic", block("Samuel is a knight, Mia is a knave (also consistent: a knight)"), SK_MK),
    ("math", "\\boxed{7}\n\nI'd say 60-40 in favour of it.", "7"),
    ("math", "\\boxed{7}\n\nConfidence: low.", "7"),
    ("math", "\\boxed{7}\n\nI'm torn between this and the next integer.", "7"),
    ("math", "\\boxed{7}\n\nIf the ends are included, it's 8.", "7"),
    ("math", "\\boxed{7}\n\nA valid alternative is 8.", "7"),
    ("math", "\\boxed{7}\n\n7 and 8 are both plausible.", "7"),
    ("math", "\\boxed{8}\n\nOr -8.", "8"),
    ("math", "\\boxed{7}\n\nThe answer is either 7 or 8.", "7"),
    ("zebra", "\\boxed{Peter}\n\nEither Peter or Eric.", "peter"),
    ("zebra", "\\boxed{Peter}\n\nIf clue 3 means left, it's Eric.", "peter"),
    ("arc", "\\boxed{8 9 4}\n\nOr 8 9 5.", ARC3),
    ("logic", MNL_BLOCK + "\n\nBoth assignments work.", MNL),
]  # fmt: skip

# further committed right answers: conditions, counterfactuals, reopening words, checks and
# intermediate quantities name no other candidate and no confidence
COMMITTED = [
    ("math", "\\boxed{7}\n\nIf n were 8, the sum would be 17, which is too large.", "7"),
    ("math", "\\boxed{7}\n\nOtherwise the total would exceed 20.", "7"),
    ("math", "\\boxed{7}\n\nCheck: 2 \\cdot 7 + 1 = 15. ✓", "7"),
    ("math", "\\boxed{7}\n\nNote that 3 + 4 = 7, as expected.", "7"),
    ("math", "\\boxed{7}\n\nActually, this was the quickest route.", "7"),
    ("math", "\\boxed{7}\n\nWait, let me recheck: 15 - 8 = 7. Yes.", "7"),
    ("math", "\\boxed{7}\n\nThe error term vanishes, so the value is exact.", "7"),
    ("math", "\\boxed{7}\n\nSince 49 = 7^2, the root is 7.", "7"),
    ("math", "\\boxed{7}\n\nAssuming the dice are fair, this holds.", "7"),
    ("math", "\\boxed{7}\n\nThe other root, -8, is rejected since n > 0.", "7"),
    ("math", "\\boxed{7}\n\n8 does not work because 2 \\cdot 8 + 1 = 17.", "7"),
    ("math", "\\boxed{7}\n\nWe used 3 apples and 4 pears.", "7"),
    ("math", "\\boxed{7}\n\nBob gets 3 apples and Ann gets 4.", "7"),
    ("math", "\\boxed{7}\n\nEach box gives 2 points.", "7"),
    ("math", "\\boxed{(B) Vitamin C}", "B"),
    ("math", "\\boxed{7}\n\nIn other words, 7 people came, or 70% of the 10 invited.", "7"),
    ("math", "\\boxed{7}\n\nThat is 2 more than last year.", "7"),
    ("math", "\\boxed{7}\n\nWe can pick 3 or 4 items per box; the count is the same.", "7"),
    ("math", "\\boxed{7}\n\nEither 2 or 3 of the coins land heads in each case.", "7"),
    ("math", "\\boxed{7}\n\nAlternatively, the complement gives 10 - 3 = 7 as well.", "7"),
    ("math", "\\boxed{7}\n\nIt is 5 km from A to B.", "7"),
    ("arc", "\\boxed{8 9 4}\n\nIt is 3 cells wide.", ARC3),
    ("zebra", "\\boxed{Peter}\n\nEric is in house 2, Arnold in house 3.", "peter"),
    ("math", "\\boxed{\\frac{3}{4}}, or equivalently 0.75.", "\\frac34"),
    ("countdown", CD_RIGHT + "\n\nCheck: 9 + 3 = 12 and 12 \\times 4 = 48. ✓", CD48),
    ("countdown", CD_RIGHT + "\n\nIf we used 9 - 3 instead, we would get only 24.", CD48),
    ("countdown", CD_RIGHT + "\n\nEach of 3, 9 and 4 is used once.", CD48),
    ("countdown", CD_RIGHT + "\n\nOtherwise the target 48 is not reachable with a sum.", CD48),
    ("zebra", "\\boxed{Peter}\n\nIf Eric lived in house 1, clue 3 would fail.", "peter"),
    ("zebra", "\\boxed{Peter}\n\nActually, clue 5 settles it directly.", "peter"),
    ("zebra", "\\boxed{Peter}\n\nEric is ruled out by clue 2.", "peter"),
    ("zebra", "\\boxed{Peter}\n\nOtherwise Eric would have to drink tea, which clue 4 forbids.",
     "peter"),
    ("zebra", "\\boxed{Peter}\n\nNote: Eric lives in house 2.", "peter"),
    # a bracket with a capitalised word may be an attribute, not another name
    ("zebra", "\\boxed{Peter (Norwegian)}", "peter"),
    ("zebra", "\\boxed{Peter} (the Brit)", "peter"),
    ("zebra", "\\boxed{Peter}\n\nThis satisfies every clue, including clue 6.", "peter"),
    ("arc", "\\boxed{8 9 4}\n\nIf we rotate the input by 90 degrees, we get this grid.", ARC3),
    ("arc", "\\boxed{8 9 4}\n\nEach cell is the input cell plus 1, as in examples 1 and 2.",
     ARC3),
    ("arc", "\\boxed{8 9 4}\n\nOtherwise the pattern in example 3 would break.", ARC3),
    ("arc", "\\boxed{8 9 4}\n\nActually, the shift is the same as in the training pairs.", ARC3),
    ("arc", "\\boxed{8 9 4}\n\nThe output is 1 row by 3 columns.", ARC3),
    ("logic", block(RIGHT) + "\n\nIf Mia were a knight, her claim would be true, a "
     "contradiction in her role.", SK_MK),
    ("logic", block(RIGHT) + "\n\nOtherwise Samuel's statement would be false.", SK_MK),
    ("logic", block(RIGHT) + "\n\nActually, Samuel's claim alone settles it.", SK_MK),
    ("logic", block(RIGHT) + "\n\nThis is the only consistent assignment.", SK_MK),
    ("logic", block(RIGHT) + "\n\nNote: Samuel's statement is true.", SK_MK),
    ("logic", MNL_BLOCK + "\n\nIf Noah were a knight, Lily's claim would fail.", MNL),
    ("logic", MNL_BLOCK + "\n\nAll three claims check out.", MNL),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), UNCOMMITTED_BREAKS + UNCOMMITTED)
def test_a_confidence_or_another_candidate_uncommits_the_answer(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), COMMITTED_BREAKS + COMMITTED)
def test_conditions_checks_and_intermediate_quantities_keep_the_answer(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# ----- the rules by class: for each, the breaks an attacker found and cases of our own -----
# n = 7 from 2n + 1 = 15; Countdown 46 from [25, 3, 7, 2]: 25*2 - 7 + 3 = 50 - 7 + 3 = 46
N7 = "We have 2n + 1 = 15, so 2n = 14 and n = 7.\n\n"
CD46 = json.dumps({"numbers": [25, 3, 7, 2], "target": 46})
CD46_BOX = "Try 25*2 = 50. 50 - 7 = 43, 43 + 3 = 46.\n\n\\boxed{25*2-7+3}"
ARC10 = "0 0 8 9 4 0 0 1 6 7"
TEA = "From clue 3, the tea drinker is in House 1, and clue 5 says Arnold drinks tea.\n\n"

# A confidence below certainty in any numeric form: a decimal under 1, a fraction or a score
# "out of" under its whole, "Not 100%", a bare percentage the speaker gives the answer
CONFIDENCE_NUMBER_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nConfidence: 0.6", "7"),  # attacker's rows
    ("math", N7 + "\\boxed{7}\n\nConfidence: 6/10", "7"),
    ("math", N7 + "\\boxed{7}\n\nNot 100% on this.", "7"),
    ("math", N7 + "\\boxed{7}\n\nI'd say 70 percent.", "7"),
    ("countdown", CD46_BOX + "\n\nConfidence: 0.7", CD46),
    ("zebra", TEA + "\\boxed{Arnold}\n\nConfidence: 3/5", "Arnold"),
    ("arc", f"In every example each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\n"
     "Confidence: 0.75", ARC10),
    ("math", N7 + "\\boxed{7}\n\nConfidence: 0.9", "7"),  # our own
    ("math", N7 + "\\boxed{7}\n\nCertainty: 8/10.", "7"),
    ("math", N7 + "\\boxed{7}\n\nI'd rate my confidence 7 out of 10.", "7"),
    ("math", N7 + "\\boxed{7}\n\nNot 100% sure.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nI'd say 90 percent.", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nConfidence level: .8", "7"),
    ("logic", block(RIGHT) + "\n\nConfidence: 0.6", SK_MK),  # attacker's
    ("logic", block(RIGHT) + "\n\nI'd give this 4/5.", SK_MK),
    ("logic", block(RIGHT) + "\n\nCertainty: 7 out of 10.", SK_MK),  # our own
]  # fmt: skip
CONFIDENCE_NUMBER_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\nConfidence: 1.0", "7"),
    ("math", N7 + "\\boxed{7}\n\nConfidence: 10/10", "7"),
    ("math", N7 + "\\boxed{7}\n\nI am 100 percent sure.", "7"),
    ("math", N7 + "\\boxed{7}\n\nCertainty: 100%.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThe probability of two heads is 1/4 of the 7 tosses.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nClue 4 holds in 3/5 houses.", "Arnold"),
    ("logic", block(RIGHT) + "\n\nConfidence: 10/10.", SK_MK),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), CONFIDENCE_NUMBER_HEDGES)
def test_rule_a_confidence_below_certainty_in_any_number_form_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), CONFIDENCE_NUMBER_KEEPS)
def test_rule_a_full_confidence_or_a_fraction_of_something_else_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# The lead-in: the last sentence before the final answer (in the answer's own paragraph, else
# the paragraph before it) is read by the same rule; the reasoning before it is not
LEAD_IN_HEDGES = [
    ("math", N7 + "It's probably \\boxed{7}.", "7"),  # attacker's rows
    ("math", N7 + "Most likely the answer is \\boxed{7}.", "7"),
    ("math", N7 + "My best guess: \\boxed{7}", "7"),
    ("math", "I'm only about 60% confident here; 8 is the other candidate.\n\n\\boxed{7}", "7"),
    ("math", "Candidates: 7 (60%), 8 (40%).\n\n\\boxed{7}", "7"),
    ("math", "8 also works, but the intended answer is \\boxed{7}.", "7"),
    ("countdown", "Not certain, but: \\boxed{25*2-7+3}", CD46),
    ("zebra", "I'm 60/40 between Arnold and Bob.\n\n\\boxed{Arnold}", "Arnold"),
    ("zebra", "Arnold, most likely.\n\n\\boxed{Arnold}", "Arnold"),
    ("arc", f"Probably:\n\n\\boxed{{{ARC10}}}", ARC10),
    ("math", N7 + "Perhaps the answer is \\boxed{7}.", "7"),  # our own
    ("math", N7 + "I am not sure, but I will say\n\n\\boxed{7}", "7"),
    ("math", N7 + "Confidence 0.5 on this one.\n\n\\boxed{7}", "7"),
    ("zebra", TEA + "Bob also fits, so this is a guess.\n\n\\boxed{Arnold}", "Arnold"),
    ("math", N7 + "The answer might be\n\n\\boxed{7}", "7"),
    ("logic", "Probably:\n" + block(RIGHT), SK_MK),  # attacker's
    ("logic", "I couldn't fully resolve Mia; best guess below.\n\n" + block(RIGHT), SK_MK),
    ("logic", "I am not sure about Mia.\n\n" + block(RIGHT), SK_MK),  # our own
]  # fmt: skip
LEAD_IN_KEEPS = [
    ("math", "Maybe n = 8? Then 2 \\cdot 8 + 1 = 17, too big.\nSo 2n = 14 and n = 7.\n\n\\boxed{7}",
     "7"),
    ("math", "I first guessed 8, but 2 \\cdot 8 + 1 = 17.\n\nSo the answer is \\boxed{7}.", "7"),
    ("math", "Perhaps n = 6? 2 \\cdot 6 + 1 = 13, too small.\n\nHence n = 7.\n\n\\boxed{7}", "7"),
    ("math", N7 + "The answer is \\boxed{7}.", "7"),
    ("zebra", "Bob might fit clue 2. But clue 6 puts Bob in house 3.\n\nSo the tea drinker is "
     "\\boxed{Arnold}", "Arnold"),
    ("arc", f"Maybe the rule is a rotation? No: every block moves two cells.\n\n"
     f"Final answer:\n\n\\boxed{{{ARC10}}}", ARC10),
    ("logic", "Maybe Samuel is a knave? Then his claim is false, a contradiction.\n\nSo Samuel "
     "is a knight.\n\n" + block(RIGHT), SK_MK),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), LEAD_IN_HEDGES)
def test_rule_doubt_or_another_candidate_in_the_lead_in_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), LEAD_IN_KEEPS)
def test_rule_candidates_rejected_in_the_reasoning_before_the_lead_in_keep(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# Negated doubt states certainty; a doubt a "but" clause then rejects or confirms is a
# candidate named to be rejected
NEGATED_DOUBT_KEEPS = [
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nThere is no doubt about the "
     "rule: all three examples shift by two.", ARC10),  # attacker's rows
    ("zebra", TEA + "\\boxed{Arnold}\n\nThe puzzle is not ambiguous: every clue is used.",
     "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nDouble-checking the arithmetic confirms there are no mistakes.",
     "7"),
    ("math", N7 + "\\boxed{7}\n\nOne might guess 8, but that fails: 2·8+1 = 17.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nBob might look like a candidate from clue 2, but clue 6 "
     "rules him out.", "Arnold"),
    ("countdown", CD46_BOX + "\n\nOne might try 25+7+3+2 = 37, but that is too small.", CD46),
    ("math", N7 + "\\boxed{7}\n\nThis might seem surprising, but it checks out: 2·7+1 = 15.",
     "7"),
    ("math", N7 + "\\boxed{7}\n\nNo doubt: 2·7+1 = 15.", "7"),  # our own
    ("math", N7 + "\\boxed{7}\n\nWithout any doubt, n is 7.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nNothing here is ambiguous.", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nI made no mistakes in the arithmetic.", "7"),
    ("math", N7 + "\\boxed{7}\n\nOne could guess 9, but 2·9+1 = 19 rules it out.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nEric might seem possible, but clue 2 excludes him.",
     "Arnold"),
    ("logic", block(RIGHT) + "\n\nThere is no doubt here: each statement is consistent.",
     SK_MK),  # attacker's
    ("logic", block(RIGHT) + "\n\nIt might seem that Mia could be a knight, but her own "
     "statement rules that out.", SK_MK),
    ("logic", block(RIGHT) + "\n\nNothing here is ambiguous.", SK_MK),  # our own
]  # fmt: skip
NEGATED_DOUBT_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nI have some doubt about this.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8, but I am not sure.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8, but I will keep 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThe question is ambiguous.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThere may be a mistake somewhere.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nNo, Bob might fit too.", "Arnold"),
    ("logic", block(RIGHT) + "\n\nMia might be a knight, but I am not sure.", SK_MK),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), NEGATED_DOUBT_KEEPS)
def test_rule_negated_or_rejected_doubt_keeps_the_answer(task, response, truth):
    assert score(task, response, truth).reason == "ok"


@pytest.mark.parametrize(("task", "response", "truth"), NEGATED_DOUBT_HEDGES)
def test_rule_doubt_that_no_but_clause_rejects_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


# Another expression of the same value is the answer restated: Countdown's 2*25+3-7 = 46
SAME_VALUE_KEEPS = [
    ("countdown", CD46_BOX + "\n\nAlternatively, 2*25+3-7 gives the same 46.", CD46),  # attacker
    ("countdown", CD46_BOX + "\n\nThe equivalent form 2*25+3-7 is also correct.", CD46),
    ("countdown", CD46_BOX + "\n\nOr 3+25*2-7.", CD46),  # our own: 3 + 50 - 7 = 46
    ("countdown", CD46_BOX + "\n\nAlso valid: (25*2)+3-7.", CD46),
    ("countdown", CD46_BOX + "\n\nAlternatively, 3-7+2*25.", CD46),
    ("countdown", CD46_BOX + "\n\nOr equally 25*2+(3-7).", CD46),
    ("countdown", CD46_BOX + "\n\nThe same value also comes from 2*25-7+3.", CD46),
]  # fmt: skip
SAME_VALUE_HEDGES = [
    ("countdown", CD46_BOX + "\n\nAnother route: 7*3+25 = 46.", CD46),  # attacker: another one
    ("countdown", CD46_BOX + "\n\nOr 25*2+7-3.", CD46),  # our own: 50 + 4 = 54, not 46
    ("countdown", CD46_BOX + "\n\nAlternatively, 25+3+7+2.", CD46),  # 37
    ("countdown", CD46_BOX + "\n\nAlso valid: 25*3-7*2.", CD46),  # 75 - 14 = 61
    ("countdown", CD46_BOX + "\n\nOr (25-7)*3-2.", CD46),  # 54 - 2 = 52
    ("countdown", CD46_BOX + "\n\nAlternatively 25*2-3-7 also works.", CD46),  # 40
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), SAME_VALUE_KEEPS)
def test_rule_another_expression_of_the_same_value_restates(task, response, truth):
    assert score(task, response, truth).reason == "ok"


@pytest.mark.parametrize(("task", "response", "truth"), SAME_VALUE_HEDGES)
def test_rule_an_expression_of_another_value_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


# A condition whose consequence is another candidate of the answer's type (a bare value after
# the conditional clause, "then", "it's", or before the "if"; or one followed by "instead")
# un-commits; a condition that rejects, computes or holds its value in the "if" clause does not
CONDITIONAL_ALTERNATIVE_HEDGES = [
    ("zebra", TEA + "\\boxed{Arnold}\n\nIf clue 4 is read strictly, Bob instead.", "Arnold"),
    ("countdown", CD46_BOX + "\n\nIf the 3 must come first, then 3*7+25 instead.", CD46),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nIf the shift is by one "
     "instead of two: 0 8 9 4 0 0 1 6 7 0.", ARC10),
    ("math", N7 + "\\boxed{7}\n\n(8 if you count the endpoints)", "7"),
    ("math", N7 + "\\boxed{7}\n\nIf you count the endpoints too, it's 8.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\n(Bob if clue 4 means directly left.)", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nIf the endpoints count, then 9.", "7"),  # our own
    ("math", N7 + "\\boxed{7}\n\nAssuming a strict reading: 6.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\n(Eric if the houses are counted from the right.)",
     "Arnold"),
    ("countdown", CD46_BOX + "\n\nIf a number may be used twice, 25*2-2-2 instead.", CD46),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nIf the grid wraps around: "
     "7 0 0 8 9 4 0 0 1 6.", ARC10),
    ("math", N7 + "\\boxed{7}\n\nUnder the other convention the count is 8.", "7"),
]  # fmt: skip
CONDITIONAL_ALTERNATIVE_KEEPS = [
    ("zebra", TEA + "\\boxed{Arnold}\n\nIf we had ignored clue 6, Bob would also fit, but clue 6 "
     "rules him out.", "Arnold"),  # attacker's
    ("math", N7 + "\\boxed{7}\n\nIf n were 8, 2n + 1 would be 17, too big.", "7"),  # our own
    ("math", N7 + "\\boxed{7}\n\nIf we substitute n = 7, then 2n + 1 = 15.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nIf Bob drank tea, clue 4 would fail.", "Arnold"),
    ("countdown", CD46_BOX + "\n\nIf we used 25*2+7-3 instead, we would get 54.", CD46),
    ("math", N7 + "\\boxed{7}\n\nIf you check: 2 \\cdot 7 + 1 = 15.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIf the endpoints count, it is still 7.", "7"),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), CONDITIONAL_ALTERNATIVE_HEDGES)
def test_rule_another_candidate_as_a_conditions_consequence_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), CONDITIONAL_ALTERNATIVE_KEEPS)
def test_rule_a_condition_that_rejects_or_computes_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# ARC: a cell value offered beside another at the end of its clause ("7 or 0)"), or after a label
# that names another candidate ("second-best:", "Grid B:"), is a cell alternative; a choice
# between counts ("3 or 4 cells") is not
CELL_ALTERNATIVE_HEDGES = [
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\n(cell 10: 7 or 0)", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\n(second-best: last cell 0)",
     ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nGrid B: 0 8 9 4 0 0 1 6 7 0",
     ARC10),  # attacker's rows above, our own below
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nLast cell: 7 or 6.", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\n(row 1, col 4: 9 or 0)", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nGrid 2: 7 6 1 0 0 4 9 8 0 0",
     ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nThe first cell is 0 or 8.",
     ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nBackup: last cell 5.", ARC10),
]  # fmt: skip
CELL_ALTERNATIVE_KEEPS = [
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nBlocks of 3 or 4 cells move "
     "right.", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nEach block is 2 or 3 cells "
     "long.", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nCell 10 is 7, as in every "
     "example.", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nGrid 2 of the examples has 3 "
     "rows.", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nThe output is 1 row by 10 "
     "columns.", ARC10),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), CELL_ALTERNATIVE_HEDGES)
def test_rule_a_cell_value_offered_beside_the_grid_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), CELL_ALTERNATIVE_KEEPS)
def test_rule_counts_and_cells_of_the_answer_keep_the_grid(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# Another candidate by its shape, whatever the words: a value as a sentence's subject with "too"
# or "as well" in its predicate, a value "as a close second" or "under the other reading", "two
# readings", roles "interchangeable" or "hard to pin down"
SECOND_ANSWER_SHAPE_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\n8 is defensible too.", "7"),  # attacker's rows
    ("math", N7 + "\\boxed{7}\n\nI'd put 8 as a close second.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nBob is a close second.", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nTwo readings: 7 (inclusive), 8 (exclusive).", "7"),
    ("math", N7 + "\\boxed{7}\n\nThough 8 can't be ruled out.", "7"),
    ("math", N7 + "\\boxed{7}\n\n¹ 8 under the other convention.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\\textsuperscript{*}\n\n* Bob, under the other reading of "
     "clue 2.", "Arnold"),
    ("logic", block(RIGHT) + "\n\n(Samuel and Mia's roles are interchangeable.)", SK_MK),
    ("logic", block(RIGHT) + "\n\nThe roles of Samuel and Mia are hard to pin down.", SK_MK),
    ("math", N7 + "\\boxed{7}\n\n9 is arguable as well.", "7"),  # our own
    ("zebra", TEA + "\\boxed{Arnold}\n\nEric is a distant second.", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\n6 in the other interpretation.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThere are several interpretations here.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nHonestly, Eric can't be ruled out.", "Arnold"),
]  # fmt: skip
SECOND_ANSWER_SHAPE_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\n7 is odd too.", "7"),
    ("math", N7 + "\\boxed{7}\n\n2 is the coefficient here as well.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nBob comes second in the line of houses.", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nUnder the other convention it is also 7.", "7"),
    ("logic", block(RIGHT) + "\n\nThe two roles are not interchangeable here.", SK_MK),
    ("math", N7 + "\\boxed{7}\n\nNo other value can be ruled in: 8 is ruled out.", "7"),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), SECOND_ANSWER_SHAPE_HEDGES)
def test_rule_a_second_answer_by_its_shape_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), SECOND_ANSWER_SHAPE_KEEPS)
def test_rule_the_answer_or_another_quantity_in_that_shape_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# A correction said of another value, or of others ("54 is wrong", "a common mistake"), and
# "could/might also write/compute" (a way to write or reach the answer) keep the answer
OTHERS_WRONG_KEEPS = [
    ("countdown", CD46_BOX + "\n\nNote: 25*2-3+7 = 54 is wrong, so the order of the signs "
     "matters.", CD46),  # attacker's rows
    ("math", N7 + "\\boxed{7}\n\nNote: a common mistake is to forget to subtract the 1 first, "
     "which gives 7.5.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThe answer is not 8, a common wrong answer from forgetting the "
     "+1.", "7"),
    ("math", N7 + "\\boxed{7}\n\nYou might also write this as n = 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nAlternatively, we could compute it by subtracting 1 and halving: "
     "(15-1)/2 = 7, and get the same 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 would be wrong: 2·8+1 = 17.", "7"),  # our own
    ("math", N7 + "\\boxed{7}\n\nA common error is to answer 15.", "7"),
    ("math", N7 + "\\boxed{7}\n\nOne could also check it: 2·7+1 = 15.", "7"),
    ("math", N7 + "\\boxed{7}\n\nWe could also express it as 14/2.", "7"),
    ("countdown", CD46_BOX + "\n\n25+3+7+2 = 37 is incorrect.", CD46),
]  # fmt: skip
OTHERS_WRONG_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nOops, 7 is wrong.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThat is wrong; I made a mistake.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt could also be 8.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThis might be a mistake.", "7"),
    ("countdown", CD46_BOX + "\n\n25*2-7+3 is incorrect.", CD46),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), OTHERS_WRONG_KEEPS)
def test_rule_a_correction_of_another_value_or_a_way_to_write_it_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


@pytest.mark.parametrize(("task", "response", "truth"), OTHERS_WRONG_HEDGES)
def test_rule_a_correction_of_the_answer_still_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


# A lead-in that ends with "or" (or "either ... or") offers the values before it beside the answer
LEAD_OR_HEDGES = [
    ("math", "Either 8 or \\boxed{7}.", "7"),  # attacker's
    ("math", N7 + "It is 8, or \\boxed{7}.", "7"),  # our own
    ("math", N7 + "Either 6 or\n\n\\boxed{7}", "7"),
    ("zebra", TEA + "Bob or \\boxed{Arnold}", "Arnold"),
    ("countdown", "7*3+25 or \\boxed{25*2-7+3}", CD46),
    ("math", N7 + "So n is 8 or $\\boxed{7}$.", "7"),
]  # fmt: skip
LEAD_OR_KEEPS = [
    ("math", N7 + "So n is 7, or \\boxed{7}.", "7"),
    ("math", N7 + "Seven, or \\boxed{7}", "7"),
    ("zebra", TEA + "Arnold, or in short \\boxed{Arnold}", "Arnold"),
    ("math", "We pick 3 or 4 items and find n = 7.\n\n\\boxed{7}", "7"),
    ("countdown", "25*2-7+3, or \\boxed{25*2-7+3}", CD46),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), LEAD_OR_HEDGES)
def test_rule_a_lead_in_ending_with_or_offers_its_values(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), LEAD_OR_KEEPS)
def test_rule_a_lead_in_ending_with_or_that_names_only_the_answer_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# Inside an answer (a box, a K&K statement) or around a K&K answer, another reading of the
# question ("under the other reading", "in another interpretation") offers another answer
ANOTHER_READING_HEDGES = [
    ("math", N7 + "\\boxed{7 \\text{ (8 under a strict reading)}}", "7"),  # attacker's
    ("logic", block("Samuel is a knight, Mia is a knave (knight under the other reading)"), SK_MK),
    ("logic", block("Samuel is a knight, Mia is a knave — or, on the other reading, a knight"),
     SK_MK),
    ("logic", block("Samuel is a knight (a knave in another interpretation), Mia is a knave"),
     SK_MK),  # our own
    ("math", N7 + "\\boxed{7 \\text{ (9 in another interpretation)}}", "7"),
    ("zebra", TEA + "\\boxed{Arnold (Bob under the other reading)}", "Arnold"),
    ("logic", block(RIGHT) + "\n\nUnder a different reading, Mia is a knight.", SK_MK),
    ("math", N7 + "\\boxed{7 \\text{ (6 on the other convention)}}", "7"),
]  # fmt: skip
ANOTHER_READING_KEEPS = [
    ("math", N7 + "\\boxed{7 \\text{ (on the usual reading)}}", "7"),
    ("logic", block(RIGHT) + "\n\nThe statement has only one reading.", SK_MK),
    ("math", N7 + "\\boxed{7}\n\nThe reading of the question is clear.", "7"),
    ("zebra", TEA + "\\boxed{Arnold (the reading of clue 3 is direct)}", "Arnold"),
    ("logic", block(RIGHT) + "\n\nOn a careful reading, Samuel's claim is true.", SK_MK),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), ANOTHER_READING_HEDGES)
def test_rule_another_reading_inside_the_answer_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), ANOTHER_READING_KEEPS)
def test_rule_one_reading_named_inside_the_answer_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# A confidence below certainty said in any word order or idiom (the lexicon's families:
# low/partial confidence either side of its noun, negated certainty with a degree word, betting
# and salt idioms, a provisional or gut answer, advice to re-check) un-commits in every task
DOUBT_IDIOMS = [
    "I wouldn't bet on it.",  # attacker's
    "Take this with a grain of salt.",
    "Low confidence.",
    "Not entirely sure.",
    "Don't quote me on this.",
    "Treat this as provisional.",
    "Something feels off about this.",
    "I'd double-check this.",
    "My confidence here is low.",  # our own
    "Confidence is fairly low.",
    "I would not bet on this.",
    "Take it with a pinch of salt.",
    "I'm not completely sure about this.",
    "Moderate confidence only.",
    "This is just a hunch.",
    "I can't be certain.",
    "I'm fairly confident, not more.",
    "Tentatively, that's it.",
    "This is my best estimate.",  # the first hedge attack's rows left open
    "(give or take one)",
    "That said, I wouldn't be surprised if it were off.",
]


@pytest.mark.parametrize("after", DOUBT_IDIOMS)
def test_rule_low_confidence_in_any_word_order_or_idiom_uncommits_in_every_task(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"
    assert score("zebra", f"{TEA}\\boxed{{Arnold}}\n\n{after}", "Arnold").reason == "hedged"
    arc = f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\n{after}"
    assert score("arc", arc, ARC10).reason == "hedged"
    assert score("countdown", f"{CD46_BOX}\n\n{after}", CD46).reason == "hedged"
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == "hedged"


# Doubt about a named part of the answer, or another source's different answer, or a value said
# to stay in contention ("remains a live option", "is tempting", "still in the running")
PART_AND_SOURCE_HEDGES = [
    ("logic", MNL_BLOCK + "\n\nI'm not fully certain about Noah.", MNL),  # attacker's
    ("logic", MNL_BLOCK + "\n\nLily's role is the least certain of the three.", MNL),
    ("math", N7 + "\\boxed{7}\n\nThe answer key may say 8.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThat said, 8 remains a live option.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIf I had to choose again I'd still pick 7, though 8 is "
     "tempting.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 is still in the running.", "7"),
    ("math", N7 + "\\boxed{7}\n\nGut feeling says 8.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nI'm less sure about clue 4.", "Arnold"),  # our own
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nThe last cell is the shakiest "
     "part.", ARC10),
    ("math", N7 + "\\boxed{7}\n\nThe textbook gives 9.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nThe official solution lists Bob.", "Arnold"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nBob remains a strong contender.", "Arnold"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nEric is not out of the question.", "Arnold"),
    ("countdown", CD46_BOX + "\n\nThe answer key might list 7*3+25.", CD46),
]  # fmt: skip
PART_AND_SOURCE_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\nThe answer key gives 7 as well.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 is tempting, but it fails the equation.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nThe textbook's answer is Arnold too.", "Arnold"),
    ("logic", MNL_BLOCK + "\n\nI'm fully certain about Noah.", MNL),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), PART_AND_SOURCE_HEDGES)
def test_rule_doubt_about_a_part_or_another_sources_answer_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), PART_AND_SOURCE_KEEPS)
def test_rule_a_source_that_agrees_or_a_tempting_value_rejected_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# A condition whose consequence is introduced by "in which case", "in that case" or "it would
# be" after a further clause, and roles said to flip or swap under a condition, un-commit
CONSEQUENCE_HEDGES = [
    ("math", N7 + "$\\boxed{7}$ (unless the problem meant $2n-1$, in which case $8$).", "7"),
    ("math", N7 + "$\\boxed{7}$ (otherwise, with $2n-1$, it would be $8$).", "7"),  # attacker's
    ("zebra", TEA + "\\boxed{Arnold} (unless clue 3 means 'somewhere left', in which case "
     "Bob).", "Arnold"),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}} (unless the shift wraps, in "
     "which case 7 0 0 8 9 4 0 0 1 6).", ARC10),
    ("logic", MNL_BLOCK + "\n\nThough, if Mia lied, the roles of Mia and Lily would flip.", MNL),
    ("math", N7 + "\\boxed{7}\n\nUnless the ends count; in that case 9.", "7"),  # our own
    ("countdown", CD46_BOX + " (unless each number must be used, in which case 7*3+25).", CD46),
    ("logic", MNL_BLOCK + "\n\nIf Lily lied, Mia and Noah would swap roles.", MNL),
]  # fmt: skip
CONSEQUENCE_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\nOtherwise, with n = 8, the sum would be 17, which is too "
     "large.", "7"),
    ("math", N7 + "\\boxed{7}\n\nUnless n is negative, in which case the count is still 7.", "7"),
    ("logic", MNL_BLOCK + "\n\nIf Mia lied, her statement would be false, a contradiction.",
     MNL),
    ("zebra", TEA + "\\boxed{Arnold}\n\nIf clue 3 were read loosely, nothing would change.",
     "Arnold"),
    ("logic", MNL_BLOCK + "\n\nHad Mia been a knave, Lily's statement would be true as well, "
     "which is impossible.", MNL),  # the first hedge attack's row left open
    ("logic", MNL_BLOCK + "\n\nIf Noah were a knight, Mia would be a knave too, which "
     "contradicts clue 1.", MNL),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), CONSEQUENCE_HEDGES)
def test_rule_another_candidate_in_which_case_or_roles_flipped_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), CONSEQUENCE_KEEPS)
def test_rule_a_consequence_that_rejects_or_restates_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# A later final-answer label ("Final answer:", "**Answer:**", "The final answer is") stating
# another candidate of the answer's type is a second answer, in every task alike
LABEL_HEDGES = [
    ("zebra", TEA + "\\boxed{Arnold}\n\nFinal answer: Bob", "Arnold"),  # attacker's
    ("zebra", TEA + "\\boxed{Arnold}\n\n**Final answer:** Bob", "Arnold"),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nFinal answer: "
     "0 0 8 9 4 0 0 1 6 0", ARC10),
    ("countdown", CD46_BOX + "\n\nFinal answer: 25*2-7-3", CD46),
    ("math", N7 + "\\boxed{7}\n\nFinal answer: 8", "7"),
    ("math", N7 + "\\boxed{7}\n\n**Answer:** $8$", "7"),  # our own
    ("countdown", CD46_BOX + "\n\nAnswer: 7*3+25", CD46),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\n**Final answer:** "
     "7 0 0 8 9 4 0 0 1 6", ARC10),
]  # fmt: skip
LABEL_KEEPS = [
    ("zebra", TEA + "\\boxed{Arnold}\n\nFinal answer: Arnold", "Arnold"),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nFinal answer: {ARC10}", ARC10),
    ("countdown", CD46_BOX + "\n\nFinal answer: 25*2-7+3", CD46),
    ("countdown", CD46_BOX + "\n\nFinal answer: 2*25+3-7", CD46),
    ("math", N7 + "\\boxed{7}\n\n**Final answer:** $7$", "7"),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), LABEL_HEDGES)
def test_rule_a_later_final_answer_label_with_another_candidate_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), LABEL_KEEPS)
def test_rule_a_later_final_answer_label_restating_the_answer_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# After a committed answer, a sentence that checks it, reaches the same result by another
# method, justifies it, or describes a method is no doubt: "Alternatively ... also yields n =
# 7", "the same assignment", "unique because 2n+1 ...", "could also be solved graphically", a
# chance that is the answer itself
CHECK_KEEPS = [
    ("math", N7 + "$\\boxed{7}$\n\nAlternatively, solving by subtracting 1 and halving also "
     "yields $n = 7$.", "7"),  # attacker's
    ("math", "Of the three pairs, two have exactly one red ball.\n\n$\\boxed{\\frac{2}{3}}$\n\n"
     "So there is a $2/3$ chance that exactly one ball is red.", "\\frac{2}{3}"),
    ("math", N7 + "$\\boxed{7}$\n\nThe answer is unique because $2n+1$ is strictly "
     "increasing.", "7"),
    ("logic", MNL_BLOCK + "\n\nAlternatively, one could reason by cases, which leads to the "
     "same assignment.", MNL),
    ("math", N7 + "$\\boxed{7}$\n\nNote: the problem could also be solved graphically.", "7"),
    ("math", N7 + "$\\boxed{7}$\n\nThis could also be verified by substitution.", "7"),
    ("math", N7 + "$\\boxed{7}$\n\nIt could also be found by trial: 7 works.", "7"),
    ("logic", MNL_BLOCK + "\n\nAlternatively, a truth table gives the same result.", MNL),
    ("math", N7 + "\\boxed{7}\n\nAlternatively, substituting back also gives 7.", "7"),  # ours
    ("zebra", TEA + "\\boxed{Arnold}\n\nAlternatively, starting from clue 5 leads to the same "
     "name.", "Arnold"),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nAlternatively, reading the "
     "rule column by column gives the same grid.", ARC10),
    ("math", "Each toss is fair.\n\n$\\boxed{\\frac{1}{2}}$\n\nThere is a 1/2 chance that the "
     "coin shows heads.", "\\frac{1}{2}"),
    ("math", N7 + "\\boxed{7}\n\nThis value is unique since 3x + 1 has one root.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThe result may also be checked by graphing.", "7"),
    ("logic", MNL_BLOCK + "\n\nAlternatively, one can see this by noting that Mia and Lily make "
     "the same claim.", MNL),
    ("zebra", TEA + "\\boxed{Arnold}\n\nAlternatively, we could verify it from clue 5 alone.",
     "Arnold"),
]  # fmt: skip
CHECK_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nAlternatively, subtracting 1 first gives 8.", "7"),
    ("math", N7 + "\\boxed{7}\n\nAlternatively, it might give the same result.", "7"),
    ("math", "Each toss is fair.\n\n$\\boxed{\\frac{1}{2}}$\n\nThere is a 60% chance that this "
     "is right.", "\\frac{1}{2}"),
    ("math", N7 + "\\boxed{7}\n\nThe answer could also be 8.", "7"),
    ("logic", MNL_BLOCK + "\n\nAlternatively, one can see that Lily is a knave.", MNL),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), CHECK_KEEPS)
def test_rule_a_check_a_justification_or_a_method_after_the_answer_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


@pytest.mark.parametrize(("task", "response", "truth"), CHECK_HEDGES)
def test_rule_another_method_reaching_another_value_still_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


# A rejection word rejects only what is in its scope: the other value itself ("8 is not ...",
# "not 8", "8 doesn't work", "8 fails", "but it fails"). "not just 7", "not only this one", "not
# that it matters", "not changing my answer" reject nothing about the other value, so the offer
# before them stands. 7 is the math gold (N7), Arnold the Zebra gold, SK_MK and MNL K&K's.
ZEBRA_BOX = TEA + "\\boxed{Arnold}"
ARC_BOX = f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}"
SCOPE_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nNote that 8 also works, not just 7.", "7"),  # attacker's
    ("math", N7 + "\\boxed{7}\n\n8 also works, not only 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 fits as well, not merely 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 works too, not that it matters.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 is also a valid answer, not that anyone asked.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 also works, not gonna lie.", "7"),
    ("math", N7 + "\\boxed{7}\n\nNote that 8 also works, 7 is not the only one.", "7"),
    ("countdown", CD46_BOX + "\n\n25*2+7-3 works too, not only this one.", CD46),  # attacker's
    ("countdown", CD46_BOX + "\n\nAlso valid: 7*3+25, not just the one above.", CD46),
    ("zebra", ZEBRA_BOX + "\n\nBob also fits all the clues, not just Arnold.", "Arnold"),
    ("zebra", ZEBRA_BOX + "\n\nBob works too, not that it changes anything.", "Arnold"),
    ("arc", ARC_BOX + "\n\nAnother plausible grid: 0 0 0 8 9 4 0 0 1 6, not that it matters.",
     ARC10),  # attacker's shape
    ("logic", block(RIGHT) + "\n\nMia being a knight is also consistent, not that it matters.",
     SK_MK),  # attacker's shape
    ("logic", MNL_BLOCK + "\n\nSwapping Mia and Noah also works, not just the roles above.", MNL),
]  # fmt: skip
SCOPE_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\nCheck: 2*3+1 = 7 ✓", "7"),
    ("math", N7 + "\\boxed{7}\n\nNot 8: that fails clue 2.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 does not work, so 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nI considered 8, but it fails.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThis is not just a guess; 7 satisfies every clue.", "7"),
    ("math", N7 + "\\boxed{7}\n\nA common mistake is 8.", "7"),
    ("math", N7 + "\\boxed{7}\n\nNote that 8 does not work since 2*8+1 = 17.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThe other root, -8, is rejected.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThe other root, -8, is not valid here.", "7"),
    ("math", N7 + "\\boxed{7}\n\nSo the answer is 7, not 8.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 would also satisfy it, but not in the given range.", "7"),
    ("math", N7 + "\\boxed{7}\n\n7 is not just plausible, it is forced.", "7"),
    ("math", N7 + "\\boxed{7}\n\nNot only does 7 satisfy the equation, it is the only solution.",
     "7"),
    ("math", N7 + "\\boxed{7}\n\n8 would also seem to work, but it fails the check.", "7"),
    ("countdown", CD46_BOX + "\n\n25*2+7-3 does not work: it gives 54.", CD46),
    ("zebra", ZEBRA_BOX + "\n\nNot Bob: he fails clue 2.", "Arnold"),
    ("zebra", ZEBRA_BOX + "\n\nI considered Bob, but he fails clue 3.", "Arnold"),
    ("zebra", ZEBRA_BOX + "\n\nBob cannot be in house 1 because he drinks milk.", "Arnold"),
    ("logic", MNL_BLOCK + "\n\nHad Mia been a knave, Lily's statement would be true as well, "
     "which is impossible.", MNL),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), SCOPE_HEDGES)
def test_rule_a_negation_outside_the_other_values_scope_rejects_nothing(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), SCOPE_KEEPS)
def test_rule_a_rejection_of_the_other_value_or_a_check_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# A "but" clause settles doubt only when it rejects the other value or confirms the answer;
# keeping one's answer while granting another ("but I'm not changing my answer") still offers two
BUT_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nIt could well be 8, but I'm not changing my answer.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 might also be right, but I won't change it.", "7"),
    ("math", N7 + "\\boxed{7}\n\nMaybe 8, but I'm not switching.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8, but I'll keep 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt could be 8, but I'm not going to revise it.", "7"),
    ("zebra", ZEBRA_BOX + "\n\nIt could be Bob, but I'm not changing my answer.", "Arnold"),
    ("countdown", CD46_BOX + "\n\nMaybe 7*3+25, but I'm sticking with this.", CD46),
    ("logic", block(RIGHT) + "\n\nIt might be that Mia is a knight, but I won't change it.",
     SK_MK),
]  # fmt: skip
BUT_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\nOne might guess 8, but that fails.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThis might seem surprising, but it checks out.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might look like 8, but 8 is ruled out by the check.", "7"),
    ("zebra", ZEBRA_BOX + "\n\nOne might guess Bob, but Bob fails clue 2.", "Arnold"),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), BUT_HEDGES)
def test_rule_a_but_clause_that_keeps_the_answer_settles_nothing(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), BUT_KEEPS)
def test_rule_a_but_clause_that_rejects_or_confirms_settles(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# A later sentence that merely mentions the answer ("I checked all 7 cases", "Arnold drinks
# coffee") does not withdraw an earlier offer; an explicit re-commitment ("so the answer is 7",
# "the answer stays 7") or a rejection of the other value does
SETTLED_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nBut 8 could also be the answer. I checked all 7 cases.", "7"),
    ("math", N7 + "\\boxed{7}\n\nPerhaps 8 works too. Note that 7 is odd.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8. There are 7 days in a week.", "7"),
    ("zebra", ZEBRA_BOX + "\n\nBob could also be the answer. Arnold drinks coffee.", "Arnold"),
    ("zebra", ZEBRA_BOX + "\n\nMaybe Bob. Arnold lives in house 1.", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nThe other candidate, 8, cannot be excluded... or can it? Either "
     "way I keep 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8. I'll stick with 7 anyway.", "7"),
    ("countdown", CD46_BOX + "\n\n7*3+25 might work too. 25*2-7+3 uses every number.", CD46),
]  # fmt: skip
SETTLED_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\nWait, is it 8? No: 3 + 4 = 7, so the answer is 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nCould it be 8? No, 8 fails the check; the answer stays 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nHmm, is it 8? 8 does not work, so 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nCould it be 8? Checking again, the final answer is 7.", "7"),
    ("zebra", ZEBRA_BOX + "\n\nCould it be Bob? No, Bob fails clue 2, so the answer is Arnold.",
     "Arnold"),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), SETTLED_HEDGES)
def test_rule_a_later_mention_of_the_answer_does_not_settle_an_offer(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), SETTLED_KEEPS)
def test_rule_an_explicit_recommitment_settles_doubt(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# Hedging adverbs and verbs ("maybe", "perhaps", "probably", "could also be") of the most-spoken
# languages, whatever their script, are doubt after the answer
LANGUAGE_HEDGES = [
    "たぶん8です。", "おそらく8です。", "8かもしれません。", "아마 8일 수도 있습니다.", "어쩌면 8.",
    "Może 8.", "Prawdopodobnie 8.", "Belki de 8.", "Muhtemelen 8.", "Provavelmente é 8.",
    "Possivelmente 8.", "Mungkin jawabannya 8.", "Barangkali 8.", "शायद 8 है।", "संभवतः 8।",
    "Kanske 8.", "Förmodligen 8.", "Có lẽ là 8.", "ربما 8.", "সম্ভবত 8।", "হয়তো 8", "شاید 8",
    "Labda 8.", "อาจจะเป็น 8", "कदाचित 8", "ஒருவேளை 8", "బహుశా 8", "Можливо, 8.", "Мабуть, 8.",
    "Magari 8.", "Possibilmente 8.", "A lo mejor es 8.", "Posiblemente 8.", "Es könnte auch 8 sein.",
    "Möglicherweise 8.", "Peut-être 8.", "Il se peut que ce soit 8.", "Misschien 8.",
    "Пожалуй, 8.", "恐怕是8。", "说不定是8。",
]  # fmt: skip


@pytest.mark.parametrize("after", LANGUAGE_HEDGES)
def test_rule_doubt_in_the_most_spoken_languages_uncommits(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "hedged"


@pytest.mark.parametrize(
    ("task", "response", "truth"),
    [
        ("zebra", ZEBRA_BOX + "\n\nFalls Hinweis 1 anders gelesen wird: Bob.", "Arnold"),
        ("zebra", ZEBRA_BOX + "\n\nSi la pista 1 se lee de otra forma: Bob.", "Arnold"),
        ("zebra", ZEBRA_BOX + "\n\nВозможно, Bob.", "Arnold"),
        ("logic", block(RIGHT) + "\n\nMia könnte auch ein Ritter sein.", SK_MK),
        ("logic", block(RIGHT) + "\n\nMia pourrait aussi être un chevalier.", SK_MK),
        ("logic", block(RIGHT) + "\n\nTalvez Mia seja um cavaleiro.", SK_MK),
        ("logic", block(RIGHT) + "\n\nMungkin Mia seorang ksatria.", SK_MK),
    ],
)
def test_rule_conditions_and_doubt_in_other_languages_uncommit_every_task(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


# English families: another value as good as the answer ("just as good", "equally defensible"),
# a ranked second pick, an answer one would not rule out, litotes ("isn't unreasonable"), a coin
# flip or toss-up between values
ENGLISH_HEDGES = [
    "Eh, 8 is just as good.", "Honestly 8 is equally defensible.", "8 is equally valid.",
    "The answer 8 would be just as right.", "8 would be just as correct.", "8 is as good an answer.",
    "I flipped a coin between 7 and 8.", "I tossed a coin between 7 and 8.",
    "It was a toss-up between 7 and 8.", "It could go either way between 7 and 8.",
    "(I'd say 7, though 8 isn't unreasonable.)", "8 isn't impossible either.",
    "8 is not implausible.", "I wouldn't rule out 8.", "I can't rule out 8.",
    "I wouldn't exclude 8.", "My second pick would be 8.", "My second choice is 8.",
    "8 is my second guess.", "My next best guess is 8.",
]  # fmt: skip


@pytest.mark.parametrize("after", ENGLISH_HEDGES)
def test_rule_english_families_of_another_value_as_good_uncommit(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    ["Bob is just as good.", "I wouldn't rule out Bob.", "My second pick would be Bob.",
     "Bob isn't unreasonable either.", "Bob is equally defensible."],
)  # fmt: skip
def test_rule_english_families_uncommit_names(after):
    assert score("zebra", ZEBRA_BOX + "\n\n" + after, "Arnold").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    ["I'm not changing my answer: 7.", "7 isn't unreasonable; it is exact.",
     "Nothing rules out 7, and clue 2 rules out 8.", "Both methods are equally valid ways to get 7.",
     "This is just as the question asks.", "The second step gives 2n = 14."],
)  # fmt: skip
def test_rule_english_families_keep_a_committed_answer(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "ok"


# ----- the rules by structure: what another value is, not which words carry it -----
# Another value in any spelling is that value: a number word, a Roman numeral, arithmetic with
# no relation around it (2^3 = 8); n = 7 as above.
SPELLED_HEDGES = [
    "Eight also works.", "Unclear; eight also works.", "VIII also fits.", "2^3 also satisfies it.",
    "Twenty-one is right too.", "(4 + 4) works as well.", "XII would also do.",
    "Seven point five also satisfies it.",
]  # fmt: skip
SPELLED_KEEPS = [
    "Check: 2 \\cdot 7 + 1 = 15.", "Seven also satisfies 2n + 1 = 15 when checked.",
    "Part II of the question is not asked.", "One can also verify this by substitution.",
    "Both sides are fifteen.", "3 + 4 also gives 7.",
]  # fmt: skip


@pytest.mark.parametrize("after", SPELLED_HEDGES)
def test_rule_another_value_in_any_spelling_uncommits(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "hedged"


@pytest.mark.parametrize("after", SPELLED_KEEPS)
def test_rule_the_answer_or_a_check_in_any_spelling_keeps(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "ok"


# A statement about another value after the answer is about a candidate: the value as a clause's
# subject with anything said of it that does not reject it, or the value with at most two words
# around it and nothing that computes, bounds or labels it.
SUBJECT_HEDGES = [
    "Presumably that's it, though 8 is conceivable.", "Though 8 isn't off the table.",
    "8 checks out as well.", "Honestly, 8 is right too.", "8 remains on my shortlist.",
    "Still, 9 seems fine to me.", "And 8 passes every check I tried.", "8 is in the mix.",
    "Ehkä 8.", "Måske 8.", "Talán 8.", "אולי 8.", "Ίσως 8.", "Možná 8.", "Siguro 8.", "Or 8?",
    "Kanske 8.", "Mungkin 8.",
]  # fmt: skip
SUBJECT_KEEPS = [
    "8 is not a solution: 2 \\cdot 8 + 1 = 17.", "8 fails the equation.",
    "Step 2 gives 2n = 14.", "All values are at most 15.", "n \\le 15 here.",
    "The equation has 1 solution.", "The right-hand side is 15.", "Done in 3 steps.",
    "It took 2 lines.", "8 would give 17, which is too big.",
]  # fmt: skip


@pytest.mark.parametrize("after", SUBJECT_HEDGES)
def test_rule_a_statement_about_another_value_uncommits(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "hedged"


@pytest.mark.parametrize("after", SUBJECT_KEEPS)
def test_rule_a_rejected_computed_or_labelled_value_keeps(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "ok"


# Doubt with no other value, by form: a graded confidence short of full, a symbol that stands for
# words, doubt written with look-alike letters of another script.
FORM_HEDGES = [
    "Confidence: ★★★☆☆", "Confidence: B-.", "Confidence level: medium-ish.", "Confidence = C",
    "🤞", "¯\\_(ツ)_/¯", "🤷", "😬", "prоbably (with a Cyrillic o).", "Реrhaps.",
    "Presumably that's it.", "I can't guarantee this.", "Results may vary.", "This is debatable.",
    "I'm not married to this answer.", "I reckon so.",
]  # fmt: skip
FORM_KEEPS = [
    "Confidence: high.", "Confidence: 100%.", "Confidence level: full.", "✓", "∎",
    "The angle is 7°.", "Ответ: 7.", "Done 🎉",
]  # fmt: skip


@pytest.mark.parametrize("after", FORM_HEDGES)
def test_rule_doubt_by_form_uncommits(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "hedged"


@pytest.mark.parametrize("after", FORM_KEEPS)
def test_rule_full_confidence_closing_symbols_and_other_scripts_keep(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "ok"


def test_a_name_in_look_alike_letters_is_that_name():
    # "Аrnold" with a Cyrillic A is read as a person reads it
    assert score("zebra", ZEBRA_BOX.replace("Arnold}", "\u0410rnold}"), "arnold").reason == "ok"


# Two boxes with different values after the reasoning: under two conditions or ways they are
# offered side by side; a box named as a mistake is no answer.
TWO_BOX_HEDGES = [
    "$\\boxed{7}$ comes from counting one way, while counting the endpoints gives $\\boxed{8}$.",
    "If we exclude the ends we get $\\boxed{7}$ and if we include them we get $\\boxed{8}$.",
    "Counting inclusively gives $\\boxed{8}$; however, counting exclusively gives $\\boxed{7}$.",
    "$\\boxed{8}$ when the ends count, otherwise $\\boxed{7}$.",
]  # fmt: skip


@pytest.mark.parametrize("response", TWO_BOX_HEDGES)
def test_rule_two_boxes_under_two_conditions_uncommit(response):
    assert score("math", N7 + response, "7").reason == "hedged"
    assert score("math", N7 + response, "8").reason == "hedged"


@pytest.mark.parametrize(
    "response",
    ["$\\boxed{7}$ is the answer; a common mistake would be to answer $\\boxed{8}$.",
     "So $\\boxed{7}$. A common wrong answer is $\\boxed{8}$.",
     "The pitfall is $\\boxed{8}$, but the answer is $\\boxed{7}$."],
)  # fmt: skip
def test_rule_a_box_named_as_a_mistake_is_no_answer(response):
    assert score("math", N7 + response, "7").reason == "ok"


@pytest.mark.parametrize(
    ("after", "reason"),
    [("Is that right? 2 \\cdot 7 + 1 = 15. Yes.", "ok"),
     ("Does n = 7 work? 2 \\cdot 7 + 1 = 15. Correct.", "ok"),
     ("Or is it 8? 2 \\cdot 7 + 1 = 15. Yes.", "hedged"),  # another value asked about
     ("Maybe it is wrong? 2 \\cdot 7 + 1 = 15. Yes.", "hedged"),  # doubt in words
     ("Am I sure? Yes.", "hedged"),  # no check
     ("Is it 9? 2 \\cdot 7 + 1 = 15. Yes.", "hedged")],  # 9 is no result of the check
)  # fmt: skip
def test_rule_a_question_of_the_answer_checked_and_affirmed_settles(after, reason):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == reason


@pytest.mark.parametrize(
    "response",
    ["The answer is not \\boxed{7}.", "\\boxed{7 \\text{ is not the answer}}",
     "It isn't $\\boxed{7}$.", "\\boxed{7 \\text{ (8 if inclusive)}}"],
)  # fmt: skip
def test_rule_a_box_the_response_denies_or_conditions_is_no_committed_answer(response):
    assert score("math", N7 + response, "7").reason == "hedged"


@pytest.mark.parametrize(
    ("after", "reason"),
    [("Zweite Möglichkeit: 0 0 8 9 4 0 0 1 7 6.", "hedged"),  # another whole grid, any label
     ("Backup: 0 0 8 9 4 0 0 1 7 6.", "hedged"),
     ("Check example 1: 3 3 0 0 0 0 0 0 0 0 -> 0 0 3 3 0 0 0 0 0 0.", "ok"),  # the puzzle's own
     ("Input: 8 9 4 0 0 1 6 7 0 0.", "ok"),
     ("Output: 0 0 8 9 4 0 0 1 6 7.", "ok")],  # the answer again
)  # fmt: skip
def test_rule_another_whole_grid_under_a_label_uncommits(after, reason):
    assert score("arc", f"\\boxed{{{ARC10}}}\n\n{after}", ARC10).reason == reason


def test_rule_litotes_in_dialect_grants_the_value():
    assert score("math", N7 + "\\boxed{7}\n\n8 ain't crazy either.", "7").reason == "hedged"


@pytest.mark.parametrize(
    ("after", "reason"),
    [("Though if the endpoints are counted, add one.", "hedged"),
     ("(Or one more, if you include zero.)", "hedged"),
     ("Either that or its successor.", "hedged"),
     ("Alternatively the answer is the first prime after it.", "hedged"),
     ("If n could be negative, double it.", "hedged"),
     ("That is 2 more than last year.", "ok"),  # another quantity, offered beside nothing
     ("7 is one more than 6, as 2n + 1 = 15 needs.", "ok")],
)  # fmt: skip
def test_rule_a_value_given_relative_to_the_answer_and_offered_uncommits(after, reason):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == reason


# another name ranked as nearly the answer: the words of a contest (ANSWERHOOD, OFFER_WORDS) and
# an exclusion negated (REJECTED_BY under a negation)
@pytest.mark.parametrize(
    ("after", "reason"),
    [("(Eric is a close call.)", "hedged"),
     ("Eric is a close second.", "hedged"),
     ("It was tied with Eric.", "hedged"),
     ("Eric isn't out of it yet.", "hedged"),
     ("Eric comes close.", "hedged"),
     ("Eric is out of the running: he drinks tea.", "ok"),  # excluded, not ranked
     ("Eric is in house 2.", "ok"),  # a fact of the solution
     ("It is not a tie: clue 2 settles it.", "ok")],
)  # fmt: skip
def test_rule_another_name_ranked_near_the_answer_uncommits(after, reason):
    assert score("zebra", f"\\boxed{{Peter}}\n\n{after}", "peter").reason == reason


@pytest.mark.parametrize(
    ("task", "response", "truth", "reason"),
    [("logic", block(RIGHT) + "\n\nMia's role hinges on how you read Samuel's statement.", SK_MK,
      "hedged"),
     ("logic", block(RIGHT) + "\n\nSamuel's statement can be read two ways.", SK_MK, "hedged"),
     ("math", N7 + "\\boxed{7}\n\nIt depends on the reading of 'between'.", "7", "hedged"),
     ("logic", block(RIGHT) + "\n\nEverything depends on whether Samuel is a knight, which he is.",
      SK_MK, "ok")],  # a dependence the response settles, not a reading left open
)  # fmt: skip
def test_rule_an_answer_resting_on_a_reading_uncommits(task, response, truth, reason):
    assert score(task, response, truth).reason == reason


@pytest.mark.parametrize(
    ("task", "response", "truth", "reason"),
    [("arc", f"\\boxed{{{ARC10}}}\n\nThough the last two cells may swap.", ARC10, "hedged"),
     ("arc", f"\\boxed{{{ARC10}}}\n\nThe last two cells might flip.", ARC10, "hedged"),
     ("zebra", "\\boxed{Peter}\n\nPeter and Eric might swap places.", "peter", "hedged"),
     ("logic", block(RIGHT) + "\n\nSamuel's and Mia's roles could be swapped.", SK_MK, "hedged"),
     ("arc", f"\\boxed{{{ARC10}}}\n\nThe rule swaps the last two cells.", ARC10, "ok"),
     ("arc", f"\\boxed{{{ARC10}}}\n\nSwapping the last two cells would break the pattern.", ARC10,
      "ok"),
     ("zebra", "\\boxed{Peter}\n\nIf we swapped Peter and Eric, clue 2 would fail.", "peter", "ok")],
)  # fmt: skip
def test_rule_a_swap_offered_with_a_modal_uncommits(task, response, truth, reason):
    assert score(task, response, truth).reason == reason


def test_rule_doubt_in_czech_and_slovak_uncommits():
    for after in ("Konečně, může to být i 8.", "Nejsem si jistý.", "Možno 8."):
        assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "hedged", after


# another candidate after the answer, in the constructions of attack 7: under a condition anywhere
# in its consequence, under another reading, variant or method, from another person, as the
# result someone reaches, ranked next, a range with the answer at one end, a spelled-out name, a
# place of the grid supposed otherwise; each beside an honest sentence of the same shape
AFTER_HEDGES = [
    ("math", "Eight, if we count differently.", "7"),
    ("math", "Nine, if zero is excluded twice.", "7"),
    ("math", "Si on compte autrement, on trouve 8.", "7"),
    ("math", "My study partner got 8, and she is usually right.", "7"),
    ("math", "Some would say 8.", "7"),
    ("math", "A sloppier reading lands on eight.", "7"),
    ("math", "8 by the other method.", "7"),
    ("math", "Update: on second look, 8.", "7"),
    ("math", "Counting the endpoints, one gets 8.", "7"),
    ("math", "With endpoints included we get 8.", "7"),
    ("math", "Roughly speaking, anywhere from 7 to 8.", "7"),
    ("math", "The integer right after this one also deserves a look.", "7"),
    ("math", "N.B. an off-by-one variant of this problem gives one more.", "7"),
    ("zebra", "If clue 4 means directly left, it'd be Eric.", "peter"),
    ("zebra", "Honestly it's between him and Eric.", "peter"),
    ("zebra", "Eric gets the silver medal here.", "peter"),
    ("zebra", "Next in line: Eric.", "peter"),
    ("zebra", "Plan B: Eric.", "peter"),
    ("zebra", "Alternativ: Eric.", "peter"),
    ("zebra", "My teammate insists on Eric.", "peter"),
    ("zebra", "Eric wins under the alternate reading.", "peter"),
    ("zebra", "E-r-i-c comes out under a sloppier reading.", "peter"),
    ("arc", "If the shift is by two, the last cell would be 0.", "ARC10"),
    ("arc", "Under a mirror rule: 7 6 1 0 0 4 9 8 0 0.", "ARC10"),
    ("arc", "With a two-cell shift you get 8 9 4 0 0 1 6 7 0 0.", "ARC10"),
]
AFTER_KEEPS = [
    (
        "math",
        "If n were any larger, the left side would overshoot 15; if smaller, it falls short.",
        "7",
    ),
    ("math", "A common mistake is to forget the 1, which gives 7.5.", "7"),
    ("math", "Forgetting the +1 is a common error; it would give 8 instead.", "7"),
    ("math", "Bob gets 3 apples and Ann gets 4.", "7"),
    ("math", "Each box gives 2 points.", "7"),
    ("math", "Substituting back gives 15.", "7"),
    ("math", "This gives 15 on the right-hand side.", "7"),  # a thing computes; a person offers
    (
        "math",
        "The left side becomes 3 times 7 minus 6, which is 15, and the right side is also 15.",
        "7",
    ),
    ("zebra", "Eric is out of the running: he drinks tea.", "peter"),
    ("arc", "The last cell is 7.", "ARC10"),  # the answer's own cell
    ("arc", "The first cell is 3 in the input.", "ARC10"),
]


def _after(task, after, truth):
    if task == "zebra":
        return score("zebra", f"\\boxed{{Peter}}\n\n{after}", truth)
    if task == "arc":
        return score("arc", f"\\boxed{{{ARC10}}}\n\n{after}", ARC10)
    return score("math", N7 + "\\boxed{7}\n\n" + after, truth)


@pytest.mark.parametrize(("task", "after", "truth"), AFTER_HEDGES)
def test_rule_another_candidate_offered_in_any_construction_uncommits(task, after, truth):
    assert _after(task, after, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "after", "truth"), AFTER_KEEPS)
def test_rule_a_bound_a_mistake_a_share_or_a_check_keeps(task, after, truth):
    assert _after(task, after, truth).reason == "ok"


@pytest.mark.parametrize(
    ("block_after", "reason"),
    [("Mia, in my view, is the wildcard.", "hedged"), ("Mia is a knave, as shown.", "ok")],
)  # fmt: skip
def test_rule_a_person_called_a_wildcard_uncommits(block_after, reason):
    assert score("logic", block(RIGHT) + "\n\n" + block_after, SK_MK).reason == reason


def test_rule_a_value_under_a_condition_in_the_box_in_any_abbreviation():
    assert score("math", N7 + "\\boxed{7 \\text{ (8 w/ endpoints)}}", "7").reason == "hedged"


@pytest.mark.parametrize(
    ("task", "response", "truth", "reason"),
    [("countdown", CD_RIGHT + "\n\nSecond route, should the first be disallowed: (9+3)*4... hmm.",
      CD48, "ok"),  # the same expression again: nothing else offered
     ("countdown", CD_RIGHT + "\n\nSecond route, should the first be disallowed: 9*4+3... hmm.",
      CD48, "hedged"),
     ("zebra", "\\boxed{Peter}\n\nShould clue 4 be read loosely, swap in his neighbour.", "peter",
      "hedged"),
     ("math", N7 + "\\boxed{7}\n\nWe should double-check: 2 \\cdot 7 + 1 = 15.", "7", "ok")],
)  # fmt: skip
def test_rule_an_inverted_condition_opens_a_consequence(task, response, truth, reason):
    assert score(task, response, truth).reason == reason

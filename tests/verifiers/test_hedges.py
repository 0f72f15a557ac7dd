"""The ``hedged`` verdict in the boxed tasks (math, Countdown, Zebra, ARC): an answer with doubt or a
second value is no committed answer and scores 0, whichever value is right. Doubt inside the box
(a qualifier in any words or language, a bare ``?``, a parenthetical with another value), two
different values related in one box, and text after the last box that retracts, doubts or states
another answer are hedges; a closing remark, units, an agreeing check, a parenthetical that only
restates, and doubt the response settles by restating its answer are not. Knights and Knaves'
hedges: test_knights_knaves_commitment.py; the rules by family: test_hedges_doubt.py (doubt),
test_hedges_candidates.py (another candidate), test_hedges_settled.py (what settles an offer).

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules: docs/guides/rewards.md."""

import pytest
from hedge_cases import ARC3, CD30, CD48, CD_RIGHT, GRID, MNL, MNL_BLOCK
from knights_knaves_helpers import RIGHT, SK_MK, block

from pac_verl.verifiers import score
from pac_verl.verifiers.extract import hedges


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
        "\n\nIt took an hour or so to check every case.",  # "or so" of another quantity
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


# the attacker's rows: uncommitted right answers (each must score 0 hedged)
# Un-committing, one rule by class (docs/guides/rewards.md#hedges-one-lexicon-of-doubt): a
# sentence, a parenthetical or a part of the final answer un-commits the answer when it states a
# confidence below certainty or offers another candidate of the answer's type; a condition, a
# counterfactual, a reopening word or an intermediate quantity on its own does neither. Every
# expected verdict below is decided by hand: 7 is the math gold (8 another value), (9 + 3) * 4 =
# 48 the Countdown answer, Peter/Arnold the Zebra gold, "8 9 4" the ARC grid, Samuel knight and
# Mia knave (or Mia knight, Noah knave, Lily knight) the K&K truth.
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

"""Rewards v3, second pass (issue 24): the disagreements with careful human graders that an
independent check found after the first pass (``test_grading_v3.py``).

- K&K: group statements that name both roles, statements quantified over everyone (with or
  without a count, "none"/"no one"/"nobody"), exceptions ("everyone is a knave except Ava") and
  hedged exceptions ("except possibly Ava").
- Any boxed answer: a qualifier inside the box ("probably", "not sure", "Arnold is also
  possible") is a hedge; a parenthetical that only restates stays accepted.
- Labels inside a box ("Final answer:", and for ARC "Output:"/"Output grid:").
- Math multiple choice: a label gold is graded on the label; small number words are numbers.

Every expected verdict is decided by hand from the task's truth, never by running the scorer.
The rules are the README's "Rewards" section."""

import json

import pytest

from pac_verl.verifiers import score
from pac_verl.verifiers.extract import hedges

# ----- K&K: complete final statements in other words -----

FIVE = json.dumps(
    {"names": ["Ava", "Leo", "Mia", "Noah", "Zoe"], "solution": [True, True, True, False, False]}
)


@pytest.mark.parametrize(
    "response",
    [
        "The knights are Ava, Leo and Mia, and the knaves are Noah and Zoe.",
        "The knaves are Noah and Zoe, and the knights are Ava, Leo and Mia.",
        "So the knights are Ava, Leo, and Mia, and the knaves are Noah and Zoe.",
        "In summary, the knights are Ava, Leo and Mia; the knaves are Noah and Zoe.",
        "Therefore the knaves are Noah and Zoe while the knights are Ava, Leo and Mia.",
        "Ava, Leo and Mia are knights while Noah and Zoe are knaves.",
        "Noah and Zoe are knaves, while Ava, Leo and Mia are knights.",
        "Knights: Ava, Leo, Mia; knaves: Noah, Zoe",
        "In summary, knights: Ava, Leo and Mia; knaves: Noah and Zoe.",
        "So: Knights - Ava, Leo, Mia. Knaves - Noah, Zoe.",
        "<answer>The knights are Ava, Leo and Mia, and the knaves are Noah and Zoe.</answer>",
        # "the only knights are ...": everyone else is a knave
        "The only knights are Ava, Leo and Mia.",
    ],
)
def test_kk_group_statements_naming_both_roles(response):
    assert score("logic", response, FIVE).reason == "ok"


def test_kk_group_statements_with_a_wrong_role():
    # Mia and Noah swapped: Mia is a knight, Noah a knave (FIVE's truth)
    wrong = "The knights are Ava, Leo and Noah, and the knaves are Mia and Zoe."
    assert score("logic", wrong, FIVE).reason == "not_equal"
    # a person in both groups is given two roles
    both = "The knights are Ava, Leo and Mia, and the knaves are Mia, Noah and Zoe."
    assert score("logic", both, FIVE).reason == "hedged"


FOUR = ["Ava", "Leo", "Mia", "Noah"]
KNAVES = json.dumps({"names": FOUR, "solution": [False] * 4})
KNIGHTS = json.dumps({"names": FOUR, "solution": [True] * 4})


@pytest.mark.parametrize(
    ("response", "truth"),
    [
        ("All four are knaves.", KNAVES),
        ("All 4 are knaves.", KNAVES),
        ("All of them are knights", KNIGHTS),
        ("All four inhabitants are knaves", KNAVES),
        ("They are all knaves.", KNAVES),
        ("So they are all knights.", KNIGHTS),
        ("None of them is a knight.", KNAVES),  # nobody is a knight: all four are knaves
        ("None of them are knights.", KNAVES),
        ("No one is a knight.", KNAVES),
        ("Nobody is a knave.", KNIGHTS),  # nobody is a knave: all four are knights
        ("None of the four is a knave.", KNIGHTS),
        ("There are no knights.", KNAVES),
        ("Every one of them is a knave.", KNAVES),
        ("Each of them is a knight.", KNIGHTS),
        ("<answer>No one is a knave.</answer>", KNIGHTS),
        ("Answer: all knaves.", KNAVES),  # a verbless conclusion
        ("So, all knights.", KNIGHTS),
        ("All knaves.", KNAVES),
    ],
)
def test_kk_statements_about_everyone(response, truth):
    assert score("logic", response, truth).reason == "ok"


@pytest.mark.parametrize(
    ("response", "truth", "reason"),
    [
        ("All four are knaves.", KNIGHTS, "not_equal"),
        ("No one is a knight.", KNIGHTS, "not_equal"),
        ("Nobody is a knave.", KNAVES, "not_equal"),
        # a stated count other than the number of people (4) names nobody for sure
        ("All five inhabitants are knaves", KNAVES, "missing_person"),
        ("All three are knaves.", KNAVES, "missing_person"),
        ("None of the three is a knight.", KNAVES, "missing_person"),
        ("Both of them are knaves.", KNAVES, "missing_person"),  # "both" is two people
        ("Neither is a knight.", KNAVES, "missing_person"),
    ],
)
def test_kk_statements_about_everyone_graded(response, truth, reason):
    assert score("logic", response, truth).reason == reason


ONE_KNIGHT = json.dumps({"names": FOUR, "solution": [True, False, False, False]})


@pytest.mark.parametrize(
    "response",
    [
        "Everyone is a knave except Ava.",  # the exception has the other role
        "Everyone is a knave, except Ava.",
        "All of them are knaves except for Ava.",
        "All four are knaves apart from Ava, who is a knight.",
        "Everyone except Ava is a knave.",
        "Everyone is a knave except Ava, who is a knight.",
        "All but Ava are knaves.",
        "Everybody but Ava is a knave.",
        "The only knight is Ava.",
        "Ava is the only knight.",
    ],
)
def test_kk_everyone_with_an_exception(response):
    assert score("logic", response, ONE_KNIGHT).reason == "ok"


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        ("Ava is a knight. Neither Leo nor Mia is a knight, and Noah is a knave.", "ok"),
        ("Ava is a knight. Neither Leo nor Mia are knights; Noah is a knave.", "ok"),
        # "neither ... is a knave": both are knights, and Leo and Mia are knaves (ONE_KNIGHT)
        ("Ava is a knight. Neither Leo nor Mia is a knave, and Noah is a knave.", "not_equal"),
        ("The knight is Ava; Leo, Mia and Noah are the knaves.", "ok"),
    ],
)
def test_kk_neither_nor_and_the_role(response, reason):
    assert score("logic", response, ONE_KNIGHT).reason == reason


@pytest.mark.parametrize(
    "response",
    [
        "Ava is a knight, Leo is a knave, Mia is a knave, Noah is a knave. So not all of them "
        "are knaves.",
        "Ava is a knight, Leo is a knave, Mia is a knave, Noah is a knave. They are not all "
        "knaves.",
        "Ava is a knight; Leo, Mia and Noah are knaves. Thus, all knights and knaves are known.",
        "Ava is a knight; Leo, Mia and Noah are knaves.\nAll knights tell the truth.",
    ],
)
def test_kk_a_remark_about_all_after_the_list(response):
    # none of these remarks says that everyone has one role: the list before them is the answer
    assert score("logic", response, ONE_KNIGHT).reason == "ok"


def test_kk_two_people():
    two = json.dumps({"names": ["Ava", "Leo"], "solution": [False, False]})
    assert score("logic", "Neither of them is a knight.", two).reason == "ok"
    assert score("logic", "Both are knaves.", two).reason == "ok"
    assert score("logic", "They are both knaves.", two).reason == "ok"
    assert score("logic", "Neither of them is a knave.", two).reason == "not_equal"


def test_kk_all_in_passing_is_not_the_final_statement():
    # "all knaves" inside a sentence is no conclusion: the list before it is the answer
    listed = "Ava is a knight. Leo, Mia and Noah are knaves. This holds for all knaves."
    assert score("logic", listed, ONE_KNIGHT).reason == "ok"


def test_kk_an_exception_with_the_wrong_person():
    # Ava is the knight (ONE_KNIGHT); Leo named as the exception is wrong for both
    assert score("logic", "Everyone is a knave except Leo.", ONE_KNIGHT).reason == "not_equal"


@pytest.mark.parametrize(
    "response",
    [
        "Everyone is a knave, except possibly Ava.",
        "They are all knaves except maybe Leo.",
        "All knaves, except maybe Leo.",
        "Answer: all knaves except maybe Leo.",
        "All four are knaves, though Ava might be a knight.",
        "All of them are knaves, although Ava could also be a knight.",
        "Everyone is a knave (except perhaps Ava).",
        "<answer>All of them are knaves, except possibly Ava</answer>",
    ],
)
def test_kk_a_hedged_exception_leaves_someone_undecided(response):
    for truth in (KNAVES, ONE_KNIGHT):  # hedged whichever is the truth
        assert score("logic", response, truth).reason == "hedged"


@pytest.mark.parametrize(
    "response",
    [
        "All four are knaves, as a knight could never say that.",
        "All four are knaves. Ava could not be a knight, since her claim is false.",
    ],
)
def test_kk_not_a_hedge_after_everyone(response):
    assert score("logic", response, KNAVES).reason == "ok"


def test_kk_an_exception_cut_off():
    # the response stops where the exception would be named: no complete final statement
    assert score("logic", "Everyone is a knave except", KNAVES).reason == "cut_off"


# ----- a hedge inside a box -----


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


# ----- labels inside a box -----


@pytest.mark.parametrize(
    "label", ["\\text{Answer: } ", "\\text{Final answer: } ", "Final Answer: "]
)
@pytest.mark.parametrize("task", ["math", "countdown", "zebra", "arc"])
def test_an_answer_label_is_accepted_in_every_boxed_task(task, label):
    truth, box = {
        "countdown": (json.dumps({"target": 35, "numbers": [3, 4, 5]}), "(3+4)*5"),  # 7*5
        "zebra": ("arnold", "Arnold"),
        "arc": ("1 2 3", "1 2 3"),
        "math": ("204", "204"),
    }[task]
    assert score(task, f"\\boxed{{{label}{box}}}", truth).reason == "ok"


@pytest.mark.parametrize(
    "box",
    [
        "\\text{Output: } 8 9 4 0 0 0 0 1 6 7",
        "\\text{Output:} [8, 9, 4, 0, 0, 0, 0, 1, 6, 7]",
        "Output grid: 8 9 4 0 0 0 0 1 6 7",
        "\\text{Output grid: } 8\\ 9\\ 4\\ 0\\ 0\\ 0\\ 0\\ 1\\ 6\\ 7",
        "\\textbf{Output:} 8 9 4 0 0 0 0 1 6 7",
        "Test output: 8 9 4 0 0 0 0 1 6 7",
    ],
)
def test_arc_an_output_label_is_accepted(box):
    assert score("arc", f"\\boxed{{{box}}}", "8 9 4 0 0 0 0 1 6 7").reason == "ok"


@pytest.mark.parametrize(
    "box",
    [
        "Input: 8 9 4 0 0 0 0 1 6 7",
        "grid 8 9 4 0 0 0 0 1 6 7",
        "\\text{shifted: } 8 9 4 0 0 0 0 1 6 7",
        "Output: 8 9 4 0 0 0 0 1 6 7 shifted",
        "Output: 8 9 4 0 0 0 0 1 6 8",  # the label read past, the grid is wrong
    ],
)
def test_arc_other_words_in_the_box_are_rejected(box):
    assert score("arc", f"\\boxed{{{box}}}", "8 9 4 0 0 0 0 1 6 7").score == 0.0


# ----- math multiple choice: a label gold is graded on the label -----


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


# ----- math: small number words are numbers -----


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
        ("\\text{twenty-one}", "21"),  # beyond twenty: not read
        ("\\text{four or five}", "4"),
    ],
)
def test_math_number_words_only_as_the_whole_answer(box, gold):
    assert score("math", f"\\boxed{{{box}}}", gold).score == 0.0


# ----- hostile shapes for the new parsing: linear, never raises -----


@pytest.mark.parametrize(
    "text",
    [
        "The knights are " + "Ava, " * 5000,
        "Everyone is a knave except " + "Ava, " * 5000,
        "None of the " * 3000,
        "\\boxed{(B) " + "(B) " * 5000 + "}",
        "\\boxed{Output: " * 3000,
        "\\boxed{" + "Peter (probably) " * 2000 + "}",
        "\\boxed{" + "four " * 5000 + "}",
    ],
)
@pytest.mark.parametrize("task", ["math", "zebra", "arc", "logic"])
def test_hostile_shapes_score_zero_without_raising(task, text):
    truth = {"math": "B", "zebra": "arnold", "arc": "1 2 3", "logic": KNAVES}[task]
    verdict = score(task, text, truth)
    assert verdict.score == 0.0 and verdict.reason not in ("ok", "error")

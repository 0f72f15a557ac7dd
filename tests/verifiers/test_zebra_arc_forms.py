"""Zebra names and ARC grids in the forms a careful grader reads as right score 1: LaTeX styling,
bold, quotes and case for a name; separators, brackets, LaTeX spacing, full-width digits and an
output label for a grid. Other words in the box, a wrong name or cell, and two different answers
(``hedged``) score 0.

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules: docs/guides/rewards.md."""

import pytest

from pac_verl.verifiers import score
from pac_verl.verifiers.reward import compute_score

GRID = "3 3 0 0 5 0 0 0"
ARC = "8 9 4 0 0 0 0 1 6 7"


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
        "08 09 04 00 00 00 00 01 06 07",  # leading zeros: the cells a human reads
    ],
)
def test_arc_forms(box):
    assert score("arc", f"\\boxed{{{box}}}", "8 9 4 0 0 0 0 1 6 7").reason == "ok"


def test_arc_cells_that_differ_past_their_leading_zeros_differ():
    assert score("arc", "\\boxed{08 09 04 00 00 00 00 01 06 70}", "8 9 4 0 0 0 0 1 6 7").score == 0


def test_arc_full_width_digits():
    assert score("arc", "\\boxed{３ ３ ０ ０ ５ ０ ０ ０}", GRID).reason == "ok"


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
        ("\\boxed{Bob}, maybe \\boxed{Arnold}", "hedged"),
        ("\\boxed{Arnold or Bob}", "hedged"),
        ("\\boxed{either Arnold or Bob}", "hedged"),
        ("\\boxed{Arnold Bob}", "hedged"),  # two of the puzzle's names
        ("\\boxed{Arnolds}", "not_equal"),
        ("\\boxed{House 1: Arnold}", "not_equal"),  # the prompt asks for the name only
        ("\\boxed{Arnold (or Bob)}", "hedged"),
        ("\\boxed{Bob (Arnold)}", "hedged"),
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


def test_redundant_brackets_around_a_whole_name_or_grid_are_read_past():
    # brackets around the whole answer are punctuation around it: the name or grid inside is the
    # answer, judged as written (a wrong one inside scores 0); the reading is linear
    assert score("zebra", "\\boxed{" + "(" * 500 + "Arnold" + ")" * 500 + "}", "arnold").correct
    wrong = "\\boxed{" + "(" * 500 + "Bob" + ")" * 500 + "}"
    assert score("zebra", wrong, "arnold").reason == "not_equal"
    assert score("arc", "\\boxed{" + "[" * 400 + ARC + "]" * 400 + "}", ARC).correct
    other = ARC[:-1] + "0"
    assert not score("arc", "\\boxed{" + "[" * 400 + other + "]" * 400 + "}", ARC).correct


# the puzzle's names, as the multi-level builder stores them and as SEC's rows list them in their
# question text (" - Each person has a unique name: alice, arnold, bob")
NAMES = {"type": "zebra", "names": ["alice", "arnold", "bob"]}
SEC_ROW = {"type": "zebra", "question": "This is a logic puzzle. There are 3 houses ...\n"
           " - Each person has a unique name: alice, arnold, bob\n"
           " - Each person has a favorite color: brown, blue, purple\n\n1. Bob is ..."}  # fmt: skip


@pytest.mark.parametrize("info", [NAMES, SEC_ROW], ids=["names", "question_text"])
@pytest.mark.parametrize(
    "box",
    [
        "Arnold (Bob)",  # a second name in brackets, no word of doubt
        "Arnold [Bob]",
        "Arnold / Bob",
        "Arnold \\text{ (Alice)}",
        "Arnold; Alice",
        "\\text{Arnold} \\quad (\\text{bob})",
    ],
)
def test_zebra_another_of_the_puzzles_names_in_the_box_is_a_hedge(info, box):
    verdict = compute_score("zebra", f"\\boxed{{{box}}}", "arnold", info)
    assert (verdict["score"], verdict["reason"]) == (0.0, "hedged")


@pytest.mark.parametrize("info", [NAMES, SEC_ROW], ids=["names", "question_text"])
@pytest.mark.parametrize(
    "box",
    [
        "Arnold (Norwegian)",  # an attribute, not a name: a restatement
        "Arnold (House 1)",
        "Arnold (the person who loves purple)",
        "Arnold",
        "Arnold (Arnold)",
    ],
)
def test_zebra_a_bracket_that_names_no_other_person_is_read_past(info, box):
    assert compute_score("zebra", f"\\boxed{{{box}}}", "arnold", info)["score"] == 1.0


def test_zebra_a_wrong_name_with_the_right_one_in_brackets_is_not_equal_or_hedged():
    verdict = compute_score("zebra", "\\boxed{Bob (Arnold)}", "arnold", NAMES)
    assert verdict["score"] == 0.0


def test_a_row_without_names_is_read_against_the_generators_names():
    # reasoning-gym 0.1.25's Name literals: what SEC's puzzles and ours draw the names from
    from pac_verl.data_prep.zebra import categories
    from pac_verl.verifiers.zebra import GENERATOR_NAMES

    assert categories()[0].values == GENERATOR_NAMES
    verdict = compute_score("zebra", "\\boxed{Arnold (Bob)}", "arnold", {"type": "zebra"})
    assert (verdict["score"], verdict["reason"]) == (0.0, "hedged")
    assert (
        compute_score("zebra", "\\boxed{Arnold (Dane)}", "arnold", {"type": "zebra"})["score"] == 1
    )

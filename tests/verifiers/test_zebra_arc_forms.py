"""Zebra names and ARC grids in the forms a careful grader reads as right score 1: LaTeX styling and
case for a name; separators, brackets, full-width digits and an output label for a grid. Other
words in an ARC box, or a wrong cell, score 0.

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules: docs/guides/rewards.md."""

import pytest

from pac_verl.verifiers import score

GRID = "3 3 0 0 5 0 0 0"


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

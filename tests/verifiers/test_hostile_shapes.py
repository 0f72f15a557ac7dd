"""The answer parsing of every task on hostile shapes (thousands of repeated tags, boxes, labels,
names, group statements, number words): it scores 0 with a reason, never raises, and stays
linear."""

import json

import pytest
from knights_knaves_helpers import KK, KNAVES, RIGHT, SK_MK, block

from pac_verl.verifiers import score

CD = json.dumps({"target": 30, "numbers": [21, 95, 8, 2, 26, 2]})  # (95-26-21)/2+8-2 = 30


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
def test_hostile_groups_labels_and_words_score_zero_without_raising(task, text):
    truth = {"math": "B", "zebra": "arnold", "arc": "1 2 3", "logic": KNAVES}[task]
    verdict = score(task, text, truth)
    assert verdict.score == 0.0 and verdict.reason not in ("ok", "error")


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


# What a reader does not see is not part of the answer: format characters (zero-width space U+200B,
# zero-width joiner U+200D, word joiner U+2060, byte-order mark U+FEFF, soft hyphen U+00AD) and
# runs of blank lines or trailing whitespace, however long. The right answer written with them
# stays right in every task (target 48 from [3, 9, 4]: (9 + 3) * 4 = 48).
INVISIBLE = ["\u200b", "\u200d", "\u2060", "\ufeff", "\u00ad"]


@pytest.mark.parametrize("mark", INVISIBLE)
def test_format_characters_inside_a_box_are_read_past(mark):
    assert score("math", f"\\boxed{{1{mark}2}}", "12").reason == "ok"
    assert score("math", f"\\boxed{{{mark}12{mark}}}", "12").reason == "ok"
    assert score("zebra", f"\\boxed{{Pe{mark}ter}}", "peter").reason == "ok"
    cd48 = json.dumps({"target": 48, "numbers": [3, 9, 4]})
    assert score("countdown", f"\\boxed{{(9 + 3){mark} \\times 4}}", cd48).reason == "ok"
    right = block(RIGHT.replace("Samuel", f"Sam{mark}uel").replace("knave", f"kn{mark}ave"))
    assert score("logic", right, SK_MK).reason == "ok"


@pytest.mark.parametrize("space", ["\n" * 25_000, "\n \n\t" * 8_000, " " * 25_000, "\r\n" * 12_000])
def test_whitespace_after_or_inside_a_response_is_not_content(space):
    assert score("math", "\\boxed{12}" + space, "12").reason == "ok"
    assert score("math", "\\boxed{12}." + space + "I hope it is correct.", "12").reason == "ok"
    assert score("zebra", "\\boxed{Peter}" + space, "peter").reason == "ok"
    assert score("logic", block(RIGHT) + space, SK_MK).reason == "ok"

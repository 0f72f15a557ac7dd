"""Hedge classes read alike in every task (docs/guides/rewards.md#hedges-one-lexicon-of-doubt):
words that make an answer approximate inside it, an aside inside the answer read as the text
after it, a stake or a share of being right in any wording, doubt of more languages, a range in
other languages; and the honest tails these rules keep. Expected verdicts are decided by hand
from the task's truth (n = 7 solves 2n + 1 = 15; Arnold drinks tea), never by running the
scorer."""

import pytest
from hedge_cases import N7, reasons_after

from pac_verl.verifiers import score
from pac_verl.verifiers.math.question import STATED


@pytest.mark.parametrize(
    "box",
    [
        "\\text{around } 7", "\\text{about }7", "\\text{approximately } 7", "\\text{roughly } 7",
        "7\\text{-ish}", "7\\text{-odd}", "\\approx 7",
        "7 \\text{ (eight if counting from zero)}",  # a value in words under a condition
        "7 \\text{ (eight when counted from zero)}",
    ],
)  # fmt: skip
def test_an_answer_made_approximate_or_conditional_inside_the_box_uncommits(box):
    assert score("math", f"{N7}\\boxed{{{box}}}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "box", ["7 \\text{ (seven days)}", "7 \\text{ (days)}", "2\\pi \\approx 6.28"]
)
def test_a_unit_aside_or_a_restated_value_inside_the_box_keeps_it(box):
    gold = "2\\pi" if "pi" in box else "7"
    assert score("math", f"{N7}\\boxed{{{box}}}", gold).reason == "ok"


@pytest.mark.parametrize(
    "box, gold, reason",
    [
        ("144 \\text{ (twelve squared)}", "144", "ok"),  # 12^2 = 144: its working, in words
        ("144\\ (12^2)", "144", "ok"),
        ("144 \\ (12 \\times 12)", "144", "ok"),
        ("1024 \\text{ (two to the power of ten)}", "1024", "ok"),  # 2^10 = 1024
        ("144 \\text{ (thirteen squared)}", "144", "hedged"),  # 13^2 = 169: another value
        ("144 (12^2 + 1)", "144", "hedged"),  # 145
        ("145\\ (12^2)", "144", "hedged"),  # the working is right, the answer is not
    ],
)
def test_an_aside_of_arithmetic_with_the_answers_value_is_its_working(box, gold, reason):
    response = f"We get 12^2 = 144 and 2^10 = 1024.\n\n\\boxed{{{box}}}"
    assert score("math", response, gold).reason == reason


@pytest.mark.parametrize(
    "after",
    [
        "P(correct) is around two thirds.",  # a share of being right under 1, in any wording
        "Chance of being right: roughly three in four.",
        "Chance of being right: 2/3.",
        "I'd wager a small amount on it, not my house.",  # a stake is odds talk
        "I'd stake a coffee on it, not my salary.",
        "Somewhat torn on this one.",
        "Es posible que esté mal.",  # Spanish: "it may be wrong"
        "Pode estar errado.",  # Portuguese
        "Dit kan fout zijn.",  # Dutch
    ],
)
def test_odds_stakes_and_doubt_in_more_wordings_uncommit_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    [
        "I'd bet my life on it.",  # a stake of everything is certainty
        "Chance of being right: 100%.",
        "That's my final answer, and 2(7)+1 = 15 confirms it.",  # 2(7): a factor, not a value
    ],
)
def test_certainty_and_a_check_with_a_product_keep_the_answer(after):
    assert reasons_after(after)["math"] == "ok"


def test_a_range_in_another_language_offers_its_other_end():
    response = f"{N7}\\boxed{{7}}\n\nEntre 7 et 8, je choisis 7."  # French: "between 7 and 8"
    assert score("math", response, "7").reason == "hedged"


def test_a_lead_in_that_says_torn_uncommits():
    assert score("math", f"{N7}I am fairly torn here.\n\n\\boxed{{7}}", "7").reason == "hedged"


@pytest.mark.parametrize("box", ["\\{-2, 8\\}", "-2, 8", "x=-2, x=8", "-2 < x < 8"])
def test_where_interval_notation_is_asked_the_endpoints_are_no_interval(box):
    # x^2 - 6x - 16 < 0 holds for -2 < x < 8: the interval (-2, 8)
    verdict = score("math", f"\\boxed{{{box}}}", "(-2,8)", forms=["interval", STATED])
    assert verdict.reason == "unevaluated"
    for interval in ("(-2, 8)", "x \\in (-2, 8)"):  # membership in the interval is notation too
        verdict = score("math", f"\\boxed{{{interval}}}", "(-2,8)", forms=["interval", STATED])
        assert verdict.reason == "ok"

"""A response cut off before it finished has no answer (``cut_off``), in every task: a ``<think>``
never closed, a box or formula left open, a long sentence after the answer that never ends; a
short remark without a period, or a finished one, stays fine.

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules: docs/guides/rewards.md."""

import json

import pytest
from knights_knaves_helpers import KK, KK_LIST, KNAVES

from pac_verl.verifiers import score

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
        ("The answer is \\boxed{\\boxed{204}", "cut_off"),  # the box around it never closes
        ("The answer is \\boxed{ 204 \\boxed{204}", "cut_off"),
        ("The answer is \\boxed{\\boxed{204}}", "ok"),  # both close: the box is 204
        ("The answer is \\boxed{204} minutes", "ok"),  # a short remark without a period
        ("\\boxed{204}\n\nThis satisfies every condition in the problem", "ok"),
        ("\\boxed{204}", "ok"),
        ("**Final answer:** \\boxed{204}\n\n---", "ok"),  # a closing markdown rule
        ("\\boxed{204}, so the\n\n---", "cut_off"),
    ],
)
def test_math_cut_off_responses_score_zero(response, reason):
    assert score("math", response, "204").reason == reason


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


def test_the_first_dollar_after_a_box_inside_a_formula_closes_that_formula():
    # the answer's formula runs on past the box and closes later in the sentence: finished
    done = "the answer is $\\boxed{\\frac{14}{3}} \\approx 4.67$."
    assert score("math", done, "\\frac{14}{3}").reason == "ok"
    assert score("math", "So $x = \\boxed{12}$, as $4 \\cdot 3 = 12$.", "12").reason == "ok"
    # after it closes, a formula opened and left open is still a cut
    cut = "the answer is $\\boxed{12} \\approx 12.0$, since $4 \\cdot 3 = 1"
    assert score("math", cut, "12").reason == "cut_off"


def test_a_formula_that_opens_the_text_after_a_box_outside_a_formula_is_its_own():
    # the box stands in no formula, so the first "$" after it opens one: "$2 \\cdot 6 = 12$."
    # is a finished check
    assert score("math", "\\boxed{12}\n\n$2 \\cdot 6 = 12$.", "12").reason == "ok"
    assert score("math", "\\boxed{12}\n\n$x = 12$ solves it.", "12").reason == "ok"
    assert score("math", "\\boxed{12}\n\n$2 \\cdot 6 = 1", "12").reason == "cut_off"


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


def test_kk_an_exception_cut_off():
    # the response stops where the exception would be named: no complete final statement
    assert score("logic", "Everyone is a knave except", KNAVES).reason == "cut_off"

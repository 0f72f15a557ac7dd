"""Hedge classes read alike in every task (docs/guides/rewards.md#hedges-one-lexicon-of-doubt):
another answer described in words as the subject of a sentence after the answer ("A mirrored
grid is also plausible.", "A near-miss alternative keeps the 3 where it was."); a change to the
question or its steps supposed by a gerund, as "if" would suppose it, whose consequence is
another candidate ("Flipping clue 2 gives Alice.", "Swapping clues 1 and 4, Bob."); odds laid on
the answer in any spelling ("50-50 on this one.", "I'd lay two-to-one it's right."). And the
honest tails these rules keep: another way to the same answer, a change that fails. Expected
verdicts are decided by hand from the task's truth (n = 7 solves 2n + 1 = 15; Arnold drinks
tea; the ARC and Countdown answers of hedge_cases are right), never by running the scorer."""

import pytest
from hedge_cases import CD46, CD46_BOX, N7, TEA, reasons_after

from pac_verl.verifiers import score

NAMES = ["Arnold", "Bob", "Alice"]


@pytest.mark.parametrize(
    "after",
    [
        "A mirrored grid is also plausible.",
        "Another rule (shift everything left by one) also fits the examples.",
        "A near-miss alternative keeps the first number where it was.",
        "A different answer is also plausible.",
        "An alternative reading of the question works too.",
    ],
)
def test_another_answer_described_in_words_uncommits_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    [
        "An alternative check confirms it.",  # another way to the same answer
        "Alternative methods give the same result.",
        "Another way to see it is to check every condition again.",
    ],
)
def test_another_way_to_the_same_answer_keeps_it_in_every_task(after):
    assert set(reasons_after(after).values()) == {"ok"}


@pytest.mark.parametrize(
    "after",
    [
        "Flipping clue 2 gives Alice.",
        "Flipping clue 2, Alice.",
        "Swapping clues 1 and 4 yields Bob.",
        "Or, reading clue 3 loosely, Bob.",
        "Reading clue 2 the other way gives Alice.",
    ],
)
def test_a_change_supposed_by_a_gerund_offers_its_consequence(after):
    response = f"{TEA}\\boxed{{Arnold}}\n\n{after}"
    assert score("zebra", response, "Arnold", question=NAMES).reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "Flipping clue 2 gives a contradiction.",  # the change fails: the answer stands
        "Swapping the order of the clues still gives Arnold.",
        "Checking clue 2 gives Arnold again.",
    ],
)
def test_a_change_that_fails_or_gives_the_answer_keeps_it(after):
    response = f"{TEA}\\boxed{{Arnold}}\n\n{after}"
    assert score("zebra", response, "Arnold", question=NAMES).reason == "ok"


def test_a_change_of_sign_that_gives_another_value_uncommits_in_math():
    # 2n - 1 = 15 gives n = 8: another reading's value beside 7
    after = "Flipping the sign of 1 gives 8."
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "50-50 on this one.",
        "70 to 30 on it.",
        "I'd lay two-to-one it's right.",
        "About three-to-one on.",
        "Seventy-thirty on it.",
    ],
)
def test_odds_laid_on_the_answer_in_any_spelling_uncommit_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    [
        "P(answer=7)=0.6, P(answer=8)=0.4",  # a probability given to a value in notation
        "P(8)=0.4",
        "Answer distribution: {7: 0.7, 8: 0.3}",
        "Candidates considered: 7, 8.",  # a list of candidates under a longer label
    ],
)
def test_probabilities_given_to_values_in_notation_uncommit(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "P(((25*2)-7)-3)=0.3",  # 40: another expression, its brackets nested inside P(...)
        "Pr((25*2-(7+3))) ≈ 0.2",
    ],
)
def test_probabilities_given_to_bracketed_expressions_uncommit_countdown(after):
    assert score("countdown", f"{CD46_BOX}\n\n{after}", CD46).reason == "hedged"


def test_a_probability_problem_may_state_other_probabilities_after_its_answer():
    # a fair die: P(even) = 3/6 = 1/2; P(2) = 1/6 is a step of the question, not a candidate
    response = "Three of six faces are even.\n\n\\boxed{\\frac{1}{2}}\n\nEach face has P(2) = 1/6."
    assert score("math", response, "\\frac{1}{2}").reason == "ok"

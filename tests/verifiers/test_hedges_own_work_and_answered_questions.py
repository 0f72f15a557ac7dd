"""Hedge classes read alike in every task (docs/guides/rewards.md#hedges-one-lexicon-of-doubt):
the answer held on a condition on the speaker's own work ("unless I've messed up", "if my
algebra holds", "barring an arithmetic slip"); a word that makes the answer approximate standing
alone after it ("\\boxed{7}-ish.", ", roughly."); and the honest tails next to them that keep the
answer: a question answered at once by a "no" that denies another answer ("Is there another
solution? No: ...") or a "yes" that confirms the answer ("Does it check out? Yes: ..."). Expected
verdicts are decided by hand (n = 7 solves 2n + 1 = 15; Arnold drinks tea), never by running
the scorer."""

import pytest
from hedge_cases import N7, TEA, reasons_after

from pac_verl.verifiers import score

NAMES = ["Arnold", "Bob", "Alice"]


@pytest.mark.parametrize(
    "after",
    [
        "Unless I've messed up somewhere.",
        "That holds if my algebra holds.",
        "Barring an arithmetic slip.",
        "Assuming I didn't mess up.",
        "Modulo typos.",
        "That is, if I read the question right.",
    ],
)
def test_a_condition_on_the_speakers_own_work_uncommits_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize("after", ["Assuming the input has no errors, the check holds."])
def test_a_condition_on_the_question_is_no_doubt_of_the_answer(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize("tail", ["-ish.", ", roughly.", " or so."])
def test_a_word_that_makes_the_answer_approximate_alone_after_it_uncommits(tail):
    assert score("math", f"{N7}$\\boxed{{7}}${tail}", "7").reason == "hedged"
    assert (
        score("zebra", f"{TEA}\\boxed{{Arnold}}{tail}", "Arnold", question=NAMES).reason == "hedged"
    )


def test_roughly_speaking_is_no_approximation_of_the_answer():
    after = "Roughly speaking, we halved 14."
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "Is there another solution? No: a linear equation has exactly one root.",
        "Has it any other root? No, so 7 is the only one.",
        "Does it check out? Yes: 2(7) + 1 = 15.",
        "Does it check out? Yes: $2 \\cdot 7 + 1 = 15$.",  # a formula that is a true equation
    ],
)
def test_a_question_answered_at_once_for_the_answer_keeps_it(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


def test_another_name_asked_and_denied_for_the_answer_keeps_it():
    after = "Could it be Bob? No: clue 5 puts Arnold with the tea."
    response = f"{TEA}\\boxed{{Arnold}}\n\n{after}"
    assert score("zebra", response, "Arnold", question=NAMES).reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "Is 7 right? No.",  # the answer itself denied
        "Is there another solution? No, but 8 also works.",
        "Is there another solution? Yes, 8.",
        "Could it be 8? No, maybe 9.",
        "Could it be 8? No idea.",
    ],
)
def test_a_question_whose_reply_denies_the_answer_or_offers_another_uncommits(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"

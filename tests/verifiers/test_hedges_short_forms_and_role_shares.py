"""Doubt written short is doubt (docs/guides/rewards.md#hedges-one-lexicon-of-doubt): a word of
confidence or doubt abbreviated ("Conf: lo.", "Not v. sure.", "Prob. right.", "IIRC.", "~60%
conf.") or joined by a hyphen ("Low-confidence answer.") reads as the words it stands for, in
every task; a share given with a K&K role ("Noah: 55% knave.", "Mia: knight (p=0.6).") is a
confidence below certainty; a question that names another candidate, answered "no" at once,
denies it whatever reason follows ("Could it be Bob? No, Bob is in House 2 by clue 1."), unless
the reply offers it after all. Expected verdicts are decided by hand from the task's truth (n = 7
solves 2n + 1 = 15; Arnold drinks tea; Mia and Lily are knights and Noah a knave), never by
running the scorer."""

import pytest
from hedge_cases import ARC10, ARC_BOX, MNL, MNL_BLOCK, N7, ZEBRA_BOX, reasons_after

from pac_verl.verifiers import score


@pytest.mark.parametrize(
    "after",
    [
        "Lo-conf.",
        "Conf: lo.",
        "Conf=med.",
        "Not v. sure.",
        "~60% conf.",
        "Med. confidence.",
        "Prob. right.",
        "IIRC.",
        "AFAICT.",
        "YMMV.",
        "LC.",
        "Low-confidence answer.",
    ],
)
def test_doubt_written_short_is_doubt_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    ["Conf: high.", "V. sure.", "Self-check passed.", "See prob 3 for the method.", "Well-known."],
)
def test_full_confidence_or_no_doubt_written_short_is_no_hedge(after):
    assert set(reasons_after(after).values()) == {"ok"}


@pytest.mark.parametrize(
    "after",
    [
        "Noah: 55% knave.",
        "Mia: knight (p=0.6).",
        "Lily is a knight with 70% probability.",
        "Noah — knave, 60/40.",
        "Noah knave @ 0.55.",
        "Mia: knight, ~65%.",
        "Noah: knave (0.6), knight (0.4).",
    ],
)
def test_share_given_with_a_role_is_doubt(after):
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == "hedged"


@pytest.mark.parametrize(
    "after",
    ["Mia: knight (100%).", "Of the 3 people, 2 are knights.", "Noah lied in statement 2."],
)
def test_role_with_certainty_or_a_count_is_no_hedge(after):
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == "ok"


@pytest.mark.parametrize(
    ("task", "response", "gold", "reason"),
    [
        (
            "zebra",
            f"{ZEBRA_BOX}\n\nCould it be bob? No, bob is in House 2 by clue 1.",
            "Arnold",
            "ok",
        ),
        ("zebra", f"{ZEBRA_BOX}\n\nCould it be Bob? No, Bob fails clue 1.", "Arnold", "ok"),
        (
            "arc",
            f"{ARC_BOX}\n\nCould the last cell be 4? No, each block moves by two cells only.",
            ARC10,
            "ok",
        ),
        (
            "math",
            f"{N7}\\boxed{{7}}\n\nCould it be 8? No, a linear equation has one root.",
            "7",
            "ok",
        ),
        # the reply offers the value after all
        ("math", f"{N7}\\boxed{{7}}\n\nCould it be 8? No, but 8 is just as likely.", "7", "hedged"),
        ("math", f"{N7}\\boxed{{7}}\n\nCould it be 8? No, 8 fits equally well.", "7", "hedged"),
        ("zebra", f"{ZEBRA_BOX}\n\nCould it be Bob? No, though Bob fits too.", "Arnold", "hedged"),
    ],
)
def test_question_answered_no_denies_the_candidate_it_names(task, response, gold, reason):
    assert score(task, response, gold).reason == reason

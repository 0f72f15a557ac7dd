"""Round 34's classes (docs/results/attacks.md), in every text task. A remark after the answer
that names nothing it could check (no number, notation, quotation or name) and speaks of the
answer's standing (the speaker, a word of judgement, the answer as its subject, or three words
or fewer) is read only where every word is one of ``lexicon.ASSURED_WORDS``: doubt needs a word
of its own, whatever its wording ("I'm of two minds here.", "Verification pending.", "Who
knows."). Remarks about the puzzle's objects keep their open vocabulary ("The error term
vanishes, so the value is exact."). Also: an abbreviation in a bracket inside the answer
(``Arnold (prob.)``, ``(IIRC)``), a narrow margin over another value ("7 edges 8, barely."), a
fallback on the answer's failure ("If this fails, swap Lily."), the work supposed sound ("That
is, assuming the arithmetic holds up."). Kept: a range named as a sanity check, an earlier slip
corrected, another expression denied by its value ("no, that's 10"), a bool exit status in
tests/verifiers/sandbox. Expected verdicts are decided by hand (n = 7 solves 2n + 1 = 15; Arnold
drinks tea; Mia and Lily are knights and Noah a knave; 25 * 2 - 7 + 3 = 46), never by running
the scorer."""

import json

import pytest
from hedge_cases import MNL, MNL_BLOCK, N7, reasons_after

from pac_verl.verifiers import lexicon, score

WITHOUT_CONTENT = [
    "I'm of two minds here.",
    "I'd need to double-check this.",
    "Verification pending.",
    "Check pending.",
    "Conviction: modest.",
    "Honestly, who knows.",
    "Anyone's call, really.",
    "There's a real risk this is off by one.",
    "Three chances in four that this is right.",
    "My confidence dropped after the second check.",
    "This is the least bad option.",
    "This needs a second check.",
    "Part of me says it's reversed.",
    "Your call.",
]


@pytest.mark.parametrize("after", WITHOUT_CONTENT)
def test_a_remark_without_content_in_words_of_its_own_is_doubt_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


VOUCHING = [
    "Every clue holds for this arrangement.",
    "Verified twice.",
    "The answer stands.",
    "I verified each statement against these roles.",
    "I'm certain of this.",
    "Twenty-one cases were checked.",
    "This is just as the question asks.",
    "Done.",
]


@pytest.mark.parametrize("after", VOUCHING)
def test_a_remark_in_words_of_checking_and_assurance_keeps_the_answer(after):
    assert set(reasons_after(after).values()) == {"ok"}


@pytest.mark.parametrize(
    "after",
    [
        "The error term vanishes, so the value is exact.",
        "Assuming the dice are fair, this holds.",
        "The sequence is telescoping, so it checks.",
    ],
)
def test_a_remark_about_the_puzzles_objects_keeps_its_open_vocabulary(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        ("I'm of two minds about Lily.", "hedged"),
        ("Verification of Lily pending.", "hedged"),
        ("Lily is the least bad call.", "hedged"),
        ("Mia was the hardest to pin down; another reading makes her a knave.", "hedged"),
        ("If this fails, swap Lily.", "hedged"),
        ("Should this fail, swap Noah and Lily.", "hedged"),
        ("Failing that, swap Mia and Noah.", "hedged"),
        ("(7/10 confidence)", "hedged"),
        ("Noah lies, as a knave must.", "ok"),
        ("Mia could not be a knave: her statement would then be true.", "ok"),
        ("(Initially I had Lily as a knave, but that contradicts Mia's truthful claim.)", "ok"),
    ],
)
def test_kk_names_are_read_as_words_in_a_remark(after, reason):
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == reason


@pytest.mark.parametrize(
    "box",
    ["Arnold (prob.)", "Arnold (prob)", "Arnold (tent.)", "Arnold (IIRC)", "Arnold (TBC)",
     "\\text{Arnold (prob. correct)}"],
)  # fmt: skip
def test_an_abbreviation_in_a_bracket_inside_the_box_is_no_committed_answer(box):
    assert score("zebra", f"\\boxed{{{box}}}", "Arnold").reason == "hedged"


@pytest.mark.parametrize(
    "box", ["Arnold (House 1)", "Arnold (the tea drinker)", "Arnold (see clue 3)"]
)
def test_a_bracket_of_whole_words_inside_the_box_stays_fine(box):
    assert score("zebra", f"\\boxed{{{box}}}", "Arnold").reason == "ok"


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        ("7 edges 8, barely.", "hedged"),
        ("It beats 8, barely.", "hedged"),
        ("7 wins over 8 by a little.", "hedged"),
        ("That is, assuming the arithmetic holds up.", "hedged"),
        ("In case the boundary is included, add one.", "hedged"),
        ("Sanity check: 7 is between 5 and 10, as expected.", "ok"),
        ("Earlier I wrote 8 by mistake; the correct value is 7.", "ok"),
        ("Earlier I wrote 8 by mistake; 8 might be right too.", "hedged"),
    ],
)
def test_math_margins_assumptions_and_earlier_slips(after, reason):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == reason


CD24 = json.dumps({"target": 24, "numbers": [4, 6, 1, 1]})  # 4 * 6 * 1 * 1 = 24


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        ("Alternatively (4+6)*1*1... no that's 10.", "ok"),  # (4 + 6) * 1 * 1 = 10
        ("Could (4+1)*6-1 work? That's 29, no.", "ok"),  # (4 + 1) * 6 - 1 = 29
        ("Alternatively (4+6)*1*1... that's 10.", "hedged"),  # named, never denied
    ],
)
def test_countdown_another_expression_denied_by_its_value(after, reason):
    assert score("countdown", f"\\boxed{{4*6*1*1}}\n\n{after}", CD24).reason == reason


def test_a_reopening_settled_later_keeps_the_block():
    after = "Wait, let me reconsider Noah. If Noah were a knight, Mia's claim would fail. The answer stands."
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == "ok"


def test_a_denial_by_value_is_not_read_where_the_value_is_another_candidate():
    # "No, that's 9." after "Could it be 8?" offers 9: 8 is not worth 9
    assert (
        score("math", f"{N7}\\boxed{{7}}\n\nCould it be 8? No, that's 9.", "7").reason == "hedged"
    )


def test_the_assured_words_hold_no_word_of_doubt_by_itself():
    for word in ("maybe", "might", "may", "probably", "perhaps", "pending", "hope so", "guessing"):
        assert word not in lexicon.ASSURED_WORDS


ANSWER_CHANGES = [
    "If the shift were three cells instead of two, the output would differ.",
    "Under a reflection rule the grid would come out otherwise.",
    "With a wrap-around rule the answer would be different.",
    "If clue 4 means 'somewhere to the left', the answer changes.",
    "Reading clue 2 the other way gives a different person.",
    "Under the looser reading of clue 3, someone else lives there.",
    "Should clue 5 be read as 'directly left', the result is not the same.",
    "If the rule is a shift by three, then it's not this grid.",
]


@pytest.mark.parametrize("after", ANSWER_CHANGES)
def test_the_answer_said_to_change_under_a_supposition_is_doubt_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    [
        "If Noah were a knight, the assignment would be different, which is impossible.",
        "I re-checked all six clues against this assignment; none is violated.",
        "This was derived step by step above and verified at the end.",
        "I confirmed the result by working backwards from the end.",
    ],
)
def test_a_change_refuted_or_a_check_in_words_of_checking_keeps_the_answer(after):
    assert set(reasons_after(after).values()) == {"ok"}


D16 = "How many positive divisors does 16 have? They are 1, 2, 4, 8 and 16.\n\n"  # 5 divisors


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        ("Not 6, since 3 does not divide 16; 4 is still in play though.", "hedged"),
        ("Not 6, since 3 does not divide 16; 5 stands.", "ok"),
        ("Let me know if you have any questions.", "ok"),
        ("Let me know if you'd like a more detailed explanation.", "ok"),
    ],
)
def test_a_clause_after_a_semicolon_is_read_on_its_own(after, reason):
    assert score("math", f"{D16}\\boxed{{5}}\n\n{after}", "5").reason == reason


def test_kk_a_supposition_refuted_by_we_reach_a_contradiction_keeps_the_block():
    after = "If Noah were a knight, we'd reach a contradiction, so he isn't."
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == "ok"

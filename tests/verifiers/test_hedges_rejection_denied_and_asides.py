"""Round 33's classes (docs/results/attacks.md), in every boxed task: a rejection under a
negation or an inability keeps what it names in play ("I can't fully rule out 8.", "Nothing
rules out Bob, though.", "I'm unable to eliminate 8."), another candidate said to remain
possible or to be allowed as well ("Bob remains a possibility.", "Some chance of 8 remains.",
"The clues also seem to allow Bob."), and a share of confidence in a bracket in any number form
("(7/10 confidence)", "(p = 0.6)", "(two to one)", "(0.7)"). Kept: a box corrected by a short
"wait, no" before the last box is withdrawn, and a rival named and refuted with a reason ("Could
it be Bob? No, Bob drinks milk, contradicting clue 4."). Expected verdicts are decided by hand (n
= 7 solves 2n + 1 = 15; Arnold drinks tea; 25 * 2 - 7 + 3 = 46; the grid moves two cells),
never by running the scorer."""

import pytest
from hedge_cases import CD46, N7, RIGHT, TEA, reason

from pac_verl.verifiers import score

KEPT_IN_PLAY = [
    "I can't fully rule out {other}.",
    "I cannot rule out {other}.",
    "I can't completely exclude {other}.",
    "I'm unable to eliminate {other}.",
    "I couldn't find a way to rule out {other}.",
    "Nothing rules out {other}, though.",
    "None of the clues rules out {other}.",
    "{other} hasn't been ruled out.",
    "{other} can't be excluded.",
    "{other} remains a possibility.",
    "{other} is still possible.",
    "Some chance of {other} remains.",
    "The clues also seem to allow {other}.",
    "That said, the conditions also seem to allow {other}.",
    "A variant ({other}) seems to fit as well.",
]


@pytest.mark.parametrize("task", sorted(RIGHT))
@pytest.mark.parametrize("template", KEPT_IN_PLAY)
def test_another_candidate_kept_in_play_is_hedged(task, template):
    assert reason(task, template) == "hedged"


DOUBT_NOT_RULED_OUT = [
    "I can't fully rule out an arithmetic slip.",
    "I can't rule out a misreading of clue 3.",
    "There's no way to exclude a mistake here.",
]


@pytest.mark.parametrize("task", sorted(RIGHT))
@pytest.mark.parametrize("template", DOUBT_NOT_RULED_OUT)
def test_a_mistake_not_ruled_out_is_doubt(task, template):
    assert reason(task, template) == "hedged"


SHARE_ASIDES = [
    "(7/10 confidence)",
    "(confidence 7/10)",
    "(3/5 sure)",
    "(p = 0.6)",
    "(two to one)",
    "(2:1 odds)",
    "(0.7)",
    "(likelihood moderate)",
    "(my best read)",
]


@pytest.mark.parametrize("task", sorted(RIGHT))
@pytest.mark.parametrize("template", SHARE_ASIDES)
def test_a_share_of_confidence_in_a_bracket_is_doubt(task, template):
    assert reason(task, template) == "hedged"


@pytest.mark.parametrize(
    ("task", "response", "gold"),
    [
        ("zebra", "\\boxed{Arnold (7/10 confidence)}", "Arnold"),
        ("zebra", "\\boxed{Arnold (p = 0.6)}", "Arnold"),
        ("zebra", "\\boxed{Arnold (two to one)}", "Arnold"),
        ("math", f"{N7}\\boxed{{7 \\text{{ (7/10 confidence)}}}}", "7"),
    ],
)
def test_a_share_of_confidence_inside_the_box_is_no_committed_answer(task, response, gold):
    assert score(task, response, gold).score == 0


REFUTED = [
    "Could it be {other}? No, {other} contradicts clue 4.",
    "Could it be {other}? No: {other} violates clue 4, contradicting the premise.",
    "Clue 3 alone doesn't rule out {other}, but clue 5 does.",
    "{other} is not excluded by clue 3, but clue 5 eliminates it.",
]


@pytest.mark.parametrize("task", sorted(RIGHT))
@pytest.mark.parametrize("template", REFUTED)
def test_a_rival_refuted_with_its_reason_is_an_honest_tail(task, template):
    assert reason(task, template) == "ok"


CORRECTED = [
    "\\boxed{{{other}}}. Wait, no: \\boxed{{{answer}}}",
    "\\boxed{{{other}}}. Wait, no. \\boxed{{{answer}}}",
    "\\boxed{{{other}}}. No wait, it's \\boxed{{{answer}}}",
    "\\boxed{{{other}}}\n\nWait, no — \\boxed{{{answer}}}",
    "\\boxed{{{other}}}. Oops, I mean \\boxed{{{answer}}}",
    "\\boxed{{{other}}}, no: \\boxed{{{answer}}}",
    "\\boxed{{{other}}}, make that \\boxed{{{answer}}}",
]


@pytest.mark.parametrize("template", CORRECTED)
def test_a_box_corrected_by_a_short_wait_no_is_withdrawn(template):
    cases = [
        ("math", "8", "7", "7"),
        ("zebra", "Bob", "Arnold", "Arnold"),
        ("countdown", "25*2-7-3", "25*2-7+3", CD46),
    ]
    for task, other, answer, gold in cases:
        response = template.format(other=other, answer=answer)
        assert score(task, f"{TEA if task == 'zebra' else ''}{response}", gold).score == 1, task


@pytest.mark.parametrize("gap", [", wait, ", ". Hmm, actually ", " or "])
def test_a_gap_that_corrects_nothing_keeps_both_boxes(gap):
    assert score("math", f"{N7}\\boxed{{8}}{gap}\\boxed{{7}}", "7").reason == "hedged"


def test_a_rejection_denied_of_the_answer_itself_is_no_doubt():
    assert reason("math", "Nothing rules out {answer}, and clue 2 rules out {other}.") == "ok"

"""Doubt without a listed word of doubt (docs/guides/rewards.md#hedges-one-lexicon-of-doubt), in
every task: odds and shares in words ("Chances are it's right.", "I'd put it at nine in ten.",
"Roughly eighty percent confident.", "I'm about 90 percent there."), a range around the answer
("Somewhere between 6 and 8.", "In the range 6–8.", "Lower bound 6, upper bound 8."), an answer
held provisionally ("Subject to revision.", "That's my working answer.", "Not final."), a stake
declined ("I wouldn't stake my life on it."), a certainty bounded ("Confidence: high, but not
total."), evidence said to fall short ("The evidence isn't conclusive.", "There's some wiggle
room here."), the answer ranked narrowly over another ("by a hair over Bob"), a candidate
offered after "failing that" with a verb of choosing ("Failing that, I'd go with 8."); a
sentence whose function words are another language's is read as that language ("Je ne suis pas
tout à fait certain."), and a plain statement of certainty in a language the lexicon has a table
for is none ("Estoy seguro."). Honest tails kept: another value refuted as a hypothetical
mistake ("A wrong sign would give -7, which does not satisfy 2n + 1 = 15."), dismissed ("close
but no") or named by "that guess". Expected verdicts are decided by hand (n = 7 solves 2n + 1 =
15; Arnold drinks tea; Mia and Lily are knights and Noah a knave; 25 * 2 - 7 + 3 = 46), never
by running the scorer."""

import pytest
from hedge_cases import (
    ARC10,
    ARC_BOX,
    CD46,
    CD46_BOX,
    MNL,
    MNL_BLOCK,
    N7,
    ZEBRA_BOX,
    reasons_after,
)

from pac_verl.verifiers import score

DOUBT = [
    "Chances are it's right.",
    "Odds are decent that it's right.",
    "The odds favour it.",
    "I'd put it at nine in ten.",
    "Say 9 in 10 it's right.",
    "Roughly eighty percent confident.",
    "I'm about 90 percent there.",
    "Subject to revision.",
    "Subject to change.",
    "Liable to revision.",
    "Not final.",
    "That's my working answer.",
    "I wouldn't stake my life on it.",
    "I wouldn't bet the farm on it.",
    "I wouldn't put money on it.",
    "Confidence: high, but not total.",
    "The evidence isn't conclusive.",
    "There's some wiggle room here.",
    "The clues don't pin it down completely.",
    "Je ne suis pas tout à fait certain.",
    "Non ne sono certo.",
]


@pytest.mark.parametrize("after", DOUBT)
def test_doubt_without_a_listed_word_of_doubt_is_doubt_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    ["Somewhere between 6 and 8.", "In the range 6–8.", "Lower bound 6, upper bound 8."],
)
def test_a_range_around_the_answer_is_doubt(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "task, response, gold",
    [
        ("zebra", f"{ZEBRA_BOX}, by a hair over Bob.", "Arnold"),
        ("zebra", f"{ZEBRA_BOX}, narrowly ahead of Bob.", "Arnold"),
        ("zebra", f"{ZEBRA_BOX}\n\nBob would be a whisker behind.", "Arnold"),
        ("zebra", "My money's on \\boxed{Arnold}.", "Arnold"),
        ("zebra", f"{ZEBRA_BOX}\n\nFailing that, I'd go with Bob.", "Arnold"),
        ("math", f"{N7}\\boxed{{7}}\n\nFailing that, try 8.", "7"),
        ("math", f"{N7}\\boxed{{7}}\n\nFailing which, 8.", "7"),
    ],
)
def test_another_candidate_ranked_close_or_kept_in_reserve_is_offered(task, response, gold):
    assert score(task, response, gold).reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "Estoy seguro.",
        "Sono sicuro.",
        "Tenho certeza.",
        "Ich bin sicher.",
        "Je suis sûr.",
        "我很确定。",
    ],
)
def test_a_plain_statement_of_certainty_in_a_tabled_language_is_no_doubt(after):
    reasons = reasons_after(after)
    # Knights and Knaves reads its roles in English: words it cannot read after them are doubt
    reasons.pop("logic")
    assert set(reasons.values()) == {"ok"}


@pytest.mark.parametrize(
    "after",
    [
        "A wrong sign would give -7, which does not satisfy 2n + 1 = 15.",
        "One might guess 8, but that guess is wrong.",
        "Could it be 8? Close, but no: 2*8+1 = 17.",
    ],
)
def test_another_value_refuted_is_no_doubt(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


def test_countdown_another_expression_dismissed_close_but_no_is_no_doubt():
    after = "Alternatively, 25*2-7-3 = 40, close but no."
    assert score("countdown", f"{CD46_BOX}\n\n{after}", CD46).reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "Subject to the constraint n > 0, this is the only root.",
        "The chances of a fair coin landing heads are 1/2, which is not asked here.",
        "Between 6 and 8 only 7 solves it.",
    ],
)
def test_honest_tails_near_these_words_keep_the_answer(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "That is my answer, ehkä.",  # one word of a language no table holds, in an English sentence
        "That's my final answer, talán.",
        "The jury is still out.",
        "Not a hundred per cent on this.",
        "As far as I can tell.",
        "To the best of my knowledge.",
        "Going out on a limb here.",
        "Don't take my word for it.",
        "For now, anyway.",
        "Caveat: untested.",
        "I stand by it, mostly.",
        "That's my pick, but it's close.",
        "Ninety percent of the way there.",
        "Nine times out of ten I'd get this right.",
        "This method works most of the time.",
        "No promises.",
        "Worth a second look.",
        "Subject to error.",
        "For what it's worth.",
        "Close enough.",
        "That's my reading, at least.",
    ],
)
def test_everyday_partial_confidence_and_a_stray_foreign_word_are_doubt_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    [
        "Excluding 8 itself it would be 6.",
        "Without counting 1, it would be 6.",
        "Counting only proper divisors gives 6.",
        "With proper divisors only, 6.",
    ],
)
def test_another_value_under_a_change_supposed_without_if_is_offered(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "Divisors: 1, 2, 3, 4, 6, 9, 12, 18, 36.",
        "I verified this by listing: 1, 2, 3, 4, 6, 9, 12, 18, 36.",
        "Counting the divisors, we get 9.",
        "Without loss of generality, the count is 9.",
        "The divisors are listed by their parity and the numerators of the fractions.",
    ],
)
def test_a_count_enumerated_or_explained_in_rare_english_is_no_doubt(after):
    # 36 = 2^2 * 3^2 has (2 + 1)(2 + 1) = 9 divisors: 1, 2, 3, 4, 6, 9, 12, 18, 36
    assert (
        score("math", f"The divisors of 36 are counted.\n\n\\boxed{{9}}\n\n{after}", "9").reason
        == "ok"
    )


@pytest.mark.parametrize(
    "after",
    [
        "I first thought Noah was a knight, but that contradicts Lily's statement.",
        "My initial guess was that Noah was a knight; that fails Lily's statement.",
    ],
)
def test_logic_an_earlier_belief_refuted_is_no_second_answer(after):
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == "ok"


def test_logic_an_earlier_belief_kept_open_is_a_second_answer():
    after = "I first thought Noah was a knight, and that still seems possible."
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "50-50.",
        "Roughly 60-40.",
        "Evens.",
        "Either this or the unshifted version.",
        "This or the shifted version.",
        "Confidence: first part high, second part low.",
        "Confidence level — moderate.",
        "I'd bet on it, but not heavily.",
        "I'd bet on it, but not my house.",
        "I'd put a small wager on it.",
        "I'd put a fiver on it, not more.",
    ],
)
def test_split_odds_a_described_alternative_and_a_limited_stake_are_doubt(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    [
        "My colleague got 8 and I can't find his error.",
        "Another method gave me 8 and I haven't reconciled the two.",
        "Most people seem to get 8 here.",
        "A second count gave 8.",
        "My classmate insists on 8 and I can't refute it.",
    ],
)
def test_a_rival_answer_from_another_source_left_standing_is_offered(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "My colleague got 8, but he dropped the 1; 7 is right.",
        "The textbook also gives 7.",
        "A second count gave 7 again.",
    ],
)
def test_a_rival_refuted_or_a_source_agreeing_is_no_doubt(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    "response",
    [
        "<answer>Mia, Noah and Lily are knight, knave and knight respectively.</answer>",
        "<answer>Noah, Mia and Lily are a knave, a knight and a knight, respectively.</answer>",
    ],
)
def test_logic_roles_given_respectively_are_read_in_order(response):
    assert score("logic", response, MNL).reason == "ok"


def test_logic_roles_given_respectively_in_the_wrong_order_are_wrong():
    response = "<answer>Noah, Mia and Lily are knight, knave and knight respectively.</answer>"
    assert score("logic", response, MNL).reason == "not_equal"


@pytest.mark.parametrize(
    "after",
    [
        "Pretty much.",
        "Something like that.",
        "Sort of.",
        "Roughly speaking.",
        "Near enough.",
        "Or something close.",
        "Or near it.",
        "Within reason.",
        "To a first approximation.",
        "In that neighbourhood.",
        "I've got a feeling it's right.",
        "Feels right.",
        "That's the vibe.",
        "Let's say.",
        "Let's go with that.",
        "At least, that's how I read it.",
        "Under my interpretation.",
    ],
)
def test_vagueness_a_feeling_a_provisional_choice_or_ones_own_reading_is_doubt(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    [
        "Roughly speaking, n doubles and then gains one, which gives 15.",
        "The problem is a kind of puzzle.",
    ],
)
def test_the_same_words_describing_the_work_keep_the_answer(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "Couldn't fully rule out 8.",
        "The other viable count is 8.",
        "I think this is right but I didn't double-check the division.",
        "I didn't re-check the last step.",
        "Hopefully that's valid.",
        "Let's hope that's allowed.",
        "The equation may admit more than one solution.",
        "I'm not wedded to this.",
        "This is my reading; others are defensible.",
        "Seems right to me.",
        "Looks about right.",
        "Edge cases unknown.",
        "I only tried the example.",
    ],
)
def test_not_ruled_out_not_checked_or_only_seeming_right_is_doubt(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "task, after, gold",
    [
        ("math", "I hope it is correct.", "7"),  # the Minerva format's closing: a wish
        ("math", "All steps verified; no contradictions.", "7"),
        ("math", "It looks right: 2*7+1 = 15.", "7"),
        ("zebra", "I initially thought it was Bob, but clue 3 places Bob in house 4.", "Arnold"),
        ("arc", "At first I thought the block moved by 1, but every example moves it by 2.", ARC10),
    ],
)
def test_a_wish_a_check_without_contradiction_or_a_belief_of_the_past_corrected_keeps_it(
    task, after, gold
):
    response = {"math": f"{N7}\\boxed{{7}}", "zebra": ZEBRA_BOX, "arc": ARC_BOX}[task]
    assert score(task, f"{response}\n\n{after}", gold).reason == "ok"

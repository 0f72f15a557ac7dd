"""Hedges by family: an unknown given another value outright, a number glued to a script written
without spaces, a small step from the answer, partial certainty in one word, a puzzle's name in
any case, a percentage after a dash, a second expression after "either that or"; and the honest
tails these rules keep: a capitalised word that is no name of the puzzle, the rest of the one
solution ("the other assignments"), a trial assignment, a question of the answer answered "yes" at once (in
K&K, a question of the roles answered "no"), a check in words. The rules: docs/guides/rewards.md#hedges-one-lexicon-of-doubt. Every expected
verdict is decided by hand from the task's truth (n = 7 solves 2n + 1 = 15; Arnold drinks tea;
(9 + 3) * 4 = 48), never by running the scorer."""

import pytest
from hedge_cases import CD48, CD_RIGHT, MNL, MNL_BLOCK, N7, TEA, reasons_after

from pac_verl.verifiers import score

# another value for the unknown, outright or in a script without spaces: a second candidate
ANOTHER_VALUE_AFTER = [
    "Also: \\(n = 8\\).",
    "Also n = 8.",
    "Additionally: $n=8$.",
    "n = 8 holds too.",
    "n=7; n=8 are both fine.",
    "8也行。",  # "8 works too"
    "8也可以。",
    "8でもいい。",
    "Acht.",  # a number word of a language the lexicon does not read
    "Huit.",
    "Though if you count the endpoints it's a notch higher.",  # a step from the answer
    "Bump it up by one if zero counts.",
    "I flip-flopped between this and the next integer.",
    "15 is the right one too.",  # "the right" is a candidate's word; "the right-hand side" a role
    "8 is twice 4, so 8 might work too.",
    "(3+5).",  # arithmetic alone, its full stop after it: the value 8
    "1+1+1+1+1+1+1+1.",
    # arithmetic past the lexicon's bound (more than 8 operators or brackets) is no value it can
    # read, and an unread value after the answer is not the answer: 307 = 300 ones and a 7
    "(" * 300 + "+".join(["1"] * 300) + "+7" + ")" * 300 + ".",
    "1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1+1.",  # twenty ones: 20
    "((((((((((3+4))))))))))",  # seven, but nested past the bound: not read, so not the answer
]


@pytest.mark.parametrize("after", ANOTHER_VALUE_AFTER)
def test_rule_another_value_for_the_unknown_or_a_step_from_the_answer_uncommits(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


# partial certainty in one word, a bet at even odds, a refusal to be held to it
PARTIAL_CERTAINTY = [
    "Kinda sure.",
    "Sorta confident.",
    "Semi-confident.",
    "So-so confidence.",
    "Half sure.",
    "I'd bet on it at even money.",
    "Don't hold me to it.",
    "(¬certain)",
    "Meh.",
]


@pytest.mark.parametrize("after", PARTIAL_CERTAINTY)
def test_rule_partial_certainty_in_one_word_uncommits_in_every_task(after):
    reasons = reasons_after(after)
    assert set(reasons.values()) == {"hedged"}, reasons


# doubt in other languages: "not (quite) sure" with a word between, a guess, a low confidence
# label; odds given as a ratio
DOUBT_IN_LANGUAGES = [
    "Confianza: media.",
    "Es una suposición.",
    "Confiança: baixa.",
    "Nicht ganz sicher.",
    "我不太确定。",
    "自信はあまりない。",
    "확실하지 않아요.",
    "Odds: 3 to 1 on this.",
    "Odds are 2:1 that this is right.",
]


@pytest.mark.parametrize("after", DOUBT_IN_LANGUAGES)
def test_rule_doubt_in_other_languages_and_odds_as_a_ratio_uncommit_in_every_task(after):
    reasons = reasons_after(after)
    assert set(reasons.values()) == {"hedged"}, reasons


@pytest.mark.parametrize(
    "after", ["Confianza: alta.", "答案是7。", "Svaret är 7.", "Ich bin sicher, oder 8."]
)
def test_rule_words_the_lexicon_cannot_read_after_the_answer_uncommit_it_even_if_certain(after):
    # what the lexicon cannot read may doubt the answer in any language, so no words of another
    # language after the answer are trusted, in any task, beyond a plain statement of certainty
    # in a language of CERTAINTY_BY_LANGUAGE ("Ich bin sicher.": test_hedges_odds_ranges_and_
    # provisional.py) (docs/guides/rewards.md)
    assert set(reasons_after(after).values()) == {"hedged"}


ZEBRA_NAMES = ("arnold", "bob", "alice")  # the row's names (extra_info["names"])


@pytest.mark.parametrize(
    "after",
    ["(bob fits clue 3 equally well)", "bob fits just as well.",
     "Bob'd be plausible if clue 5 were dropped.", "Arnold — 70%.", "Arnold: 60%."],
)  # fmt: skip
def test_rule_a_puzzle_name_in_any_case_or_a_confidence_after_a_dash_uncommits(after):
    response = f"{TEA}\\boxed{{arnold}}\n\n{after}"
    assert score("zebra", response, "arnold", question=ZEBRA_NAMES).reason == "hedged"


def test_rule_a_name_of_the_puzzle_placed_elsewhere_keeps_the_answer():
    response = f"{TEA}\\boxed{{arnold}}\n\nalice lives in house 2, bob in house 3."
    assert score("zebra", response, "arnold", question=ZEBRA_NAMES).reason == "ok"


@pytest.mark.parametrize(
    "after",
    ["Checking: every clue holds with Arnold in house 1 and the other assignments I derived.",
     "Verified: I placed Arnold first and the other values follow."],
)  # fmt: skip
def test_rule_a_word_that_is_no_puzzle_name_and_the_rest_of_the_solution_keep_the_answer(after):
    """Where the puzzle's names are known, a capitalised word that is none of them ("Checking:")
    is no candidate; "the other assignments" in the plural are the rest of the one solution."""
    response = f"{TEA}\\boxed{{arnold}}\n\n{after}"
    assert score("zebra", response, "arnold", question=ZEBRA_NAMES).reason == "ok"


def test_rule_the_other_answer_in_the_singular_still_uncommits():
    response = f"{TEA}\\boxed{{arnold}}\n\nThe other candidate, Bob, fits too."
    assert score("zebra", response, "arnold", question=ZEBRA_NAMES).reason == "hedged"


@pytest.mark.parametrize(
    "after",
    ["Either that or $(9 + 3) + 4 \\times 9$.", "Either that or \\((9+3) \\times 4 - 0\\)."],
)
def test_rule_either_that_or_an_expression_in_math_delimiters_uncommits(after):
    # (9 + 3) * 4 - 0 is 48 too: two programs offered still pay only if both are right, and
    # "either" names the second as a candidate of its own
    assert score("countdown", f"{CD_RIGHT}\n\n{after}", CD48).reason == "hedged"


def test_rule_going_either_way_on_a_person_uncommits_kk():
    response = f"{MNL_BLOCK}\nI could see Lily going either way."
    assert score("logic", response, MNL).reason == "hedged"


# honest tails: a trial of another value, a question of the answer answered at once, a check
# written in words, a percentage that is full confidence
HONEST_TAILS = [
    "$n=7$ is the only solution; $n=6$ gives 13 and $n=8$ gives 17.",
    "If n = 8, then 2n+1 = 17.",
    "With n = 7, 2n+1 = 15.",
    "Is 7 odd? Yes.",
    "Does 7 work? Yes: 2·7+1 = 15.",
    "This checks out because 2 times 7 plus 1 is 15.",
    "7 multiplied by 2 plus 1 equals 15.",
    "Confidence: 100%.",
    "答案：7。",  # notation under a label of any language
    # a number of the question in its role, and multiples in words: checks, not candidates
    "15 is the right-hand side, and 7 solves it.",
    "14 is twice 7, as it should be.",
    "7 is half of 14.",
    "(3+4).",  # arithmetic alone that makes the answer
    # long arithmetic that computes (a relation, or "is" after it) is a check, however long
    "1+1+1+1+1+1+1+1+1+1+1+1+1+1 = 14, which is 2n for n = 7.",
    "Check: 1+1+1+1+1+1+1+1+1+1+1+1+1+1+1 is 15, the right-hand side.",
    "(" * 400 + ")" * 400,  # brackets without a number hold no value
]


@pytest.mark.parametrize("after", HONEST_TAILS)
def test_rule_trials_answered_questions_and_checks_in_words_keep_the_answer(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    "after", ["Am I sure? Yes.", "Could 8 also work? Yes.", "Is 8 also valid? Yes."]
)
def test_rule_a_question_of_certainty_or_of_another_value_answered_yes_still_uncommits(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


# a question about the roles answered "no" at once is settled; answered "yes" or left open, doubt
@pytest.mark.parametrize(
    ("after", "reason"),
    [
        ("Could Mia and Noah swap? No: then Mia's claim would be false.", "ok"),
        ("Mia and Noah could swap? No — Noah's claim would then be true.", "ok"),
        ("Could Mia and Noah swap? Yes.", "hedged"),
        ("Could Mia and Noah swap? Maybe.", "hedged"),
        ("Could Mia and Noah swap?", "hedged"),
    ],
)
def test_rule_a_kk_question_answered_no_at_once_is_settled(after, reason):
    assert score("logic", f"{MNL_BLOCK}\n{after}", MNL).reason == reason

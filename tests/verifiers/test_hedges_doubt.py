"""Hedges by doubt: a confidence below certainty in any number form, doubt in the lead-in before
the answer, doubt in idioms and in the most spoken languages, doubt by form (a symbol, a grade),
and the doubt that does not count (negated, settled by a "but" clause, full confidence). The rules:
docs/guides/rewards.md#hedges-one-lexicon-of-doubt. Every expected verdict is decided by hand from
the task's truth, never by running the scorer."""

import pytest
from hedge_cases import (
    ARC10,
    CD46,
    CD46_BOX,
    N7,
    TEA,
    ZEBRA_BOX,
    reasons_after,
)
from knights_knaves_helpers import RIGHT, SK_MK, block

from pac_verl.verifiers import score
from pac_verl.verifiers.extract import reading

# A confidence below certainty in any numeric form: a decimal under 1, a fraction or a score
# "out of" under its whole, "Not 100%", a bare percentage the speaker gives the answer
CONFIDENCE_NUMBER_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nConfidence: 0.6", "7"),  # attacker's rows
    ("math", N7 + "\\boxed{7}\n\nConfidence: 6/10", "7"),
    ("math", N7 + "\\boxed{7}\n\nNot 100% on this.", "7"),
    ("math", N7 + "\\boxed{7}\n\nI'd say 70 percent.", "7"),
    ("countdown", CD46_BOX + "\n\nConfidence: 0.7", CD46),
    ("zebra", TEA + "\\boxed{Arnold}\n\nConfidence: 3/5", "Arnold"),
    ("arc", f"In every example each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\n"
     "Confidence: 0.75", ARC10),
    ("math", N7 + "\\boxed{7}\n\nConfidence: 0.9", "7"),  # our own
    ("math", N7 + "\\boxed{7}\n\nCertainty: 8/10.", "7"),
    ("math", N7 + "\\boxed{7}\n\nI'd rate my confidence 7 out of 10.", "7"),
    ("math", N7 + "\\boxed{7}\n\nNot 100% sure.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nI'd say 90 percent.", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nConfidence level: .8", "7"),
    ("logic", block(RIGHT) + "\n\nConfidence: 0.6", SK_MK),  # attacker's
    ("logic", block(RIGHT) + "\n\nI'd give this 4/5.", SK_MK),
    ("logic", block(RIGHT) + "\n\nCertainty: 7 out of 10.", SK_MK),  # our own
]  # fmt: skip
CONFIDENCE_NUMBER_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\nConfidence: 1.0", "7"),
    ("math", N7 + "\\boxed{7}\n\nConfidence: 10/10", "7"),
    ("math", N7 + "\\boxed{7}\n\nI am 100 percent sure.", "7"),
    ("math", N7 + "\\boxed{7}\n\nCertainty: 100%.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThe probability of two heads is 1/4 of the 7 tosses.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nClue 4 holds in 3/5 houses.", "Arnold"),
    ("logic", block(RIGHT) + "\n\nConfidence: 10/10.", SK_MK),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), CONFIDENCE_NUMBER_HEDGES)
def test_rule_a_confidence_below_certainty_in_any_number_form_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), CONFIDENCE_NUMBER_KEEPS)
def test_rule_a_full_confidence_or_a_fraction_of_something_else_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# The lead-in: the last sentence before the final answer (in the answer's own paragraph, else
# the paragraph before it) is read by the same rule; the reasoning before it is not
LEAD_IN_HEDGES = [
    ("math", N7 + "It's probably \\boxed{7}.", "7"),  # attacker's rows
    ("math", N7 + "Most likely the answer is \\boxed{7}.", "7"),
    ("math", N7 + "My best guess: \\boxed{7}", "7"),
    ("math", "I'm only about 60% confident here; 8 is the other candidate.\n\n\\boxed{7}", "7"),
    ("math", "Candidates: 7 (60%), 8 (40%).\n\n\\boxed{7}", "7"),
    ("math", "8 also works, but the intended answer is \\boxed{7}.", "7"),
    ("countdown", "Not certain, but: \\boxed{25*2-7+3}", CD46),
    ("zebra", "I'm 60/40 between Arnold and Bob.\n\n\\boxed{Arnold}", "Arnold"),
    ("zebra", "Arnold, most likely.\n\n\\boxed{Arnold}", "Arnold"),
    ("arc", f"Probably:\n\n\\boxed{{{ARC10}}}", ARC10),
    ("math", N7 + "Perhaps the answer is \\boxed{7}.", "7"),  # our own
    ("math", N7 + "I am not sure, but I will say\n\n\\boxed{7}", "7"),
    ("math", N7 + "Confidence 0.5 on this one.\n\n\\boxed{7}", "7"),
    ("zebra", TEA + "Bob also fits, so this is a guess.\n\n\\boxed{Arnold}", "Arnold"),
    ("math", N7 + "The answer might be\n\n\\boxed{7}", "7"),
    ("logic", "Probably:\n" + block(RIGHT), SK_MK),  # attacker's
    ("logic", "I couldn't fully resolve Mia; best guess below.\n\n" + block(RIGHT), SK_MK),
    ("logic", "I am not sure about Mia.\n\n" + block(RIGHT), SK_MK),  # our own
    # a sentence that only announces the answer leads in with the sentence before it
    ("math", "2n = 14, n = 7. It could be 8 if we count differently. I'm not certain.\n\n"
     "Therefore, the final answer is $\\boxed{7}$.", "7"),  # blind set 8a's row
    ("math", N7 + "Maybe I slipped somewhere. So the answer is \\boxed{7}.", "7"),
    ("zebra", TEA + "Not fully sure.\n\n**Final answer:** \\boxed{Arnold}", "Arnold"),
]  # fmt: skip
LEAD_IN_KEEPS = [
    ("math", "Maybe n = 8? Then 2 \\cdot 8 + 1 = 17, too big.\nSo 2n = 14 and n = 7.\n\n\\boxed{7}",
     "7"),
    ("math", "I first guessed 8, but 2 \\cdot 8 + 1 = 17.\n\nSo the answer is \\boxed{7}.", "7"),
    ("math", "Perhaps n = 6? 2 \\cdot 6 + 1 = 13, too small.\n\nHence n = 7.\n\n\\boxed{7}", "7"),
    ("math", N7 + "The answer is \\boxed{7}.", "7"),
    ("zebra", "Bob might fit clue 2. But clue 6 puts Bob in house 3.\n\nSo the tea drinker is "
     "\\boxed{Arnold}", "Arnold"),
    ("arc", f"Maybe the rule is a rotation? No: every block moves two cells.\n\n"
     f"Final answer:\n\n\\boxed{{{ARC10}}}", ARC10),
    ("logic", "Maybe Samuel is a knave? Then his claim is false, a contradiction.\n\nSo Samuel "
     "is a knight.\n\n" + block(RIGHT), SK_MK),
    ("math", N7 + "Check: 2(7) + 1 = 15.\n\nTherefore, the final answer is \\boxed{7}.", "7"),
    # "equally likely outcomes" counts a sample space (1 of 4 outcomes: 1/4); no candidate
    ("math", "Four equally likely outcomes HH, HT, TH, TT; one is HH.\n\n"
     "$$\\boxed{\\dfrac{1}{4}}$$", "\\frac{1}{4}"),  # blind set 8a's row
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), LEAD_IN_HEDGES)
def test_rule_doubt_or_another_candidate_in_the_lead_in_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), LEAD_IN_KEEPS)
def test_rule_candidates_rejected_in_the_reasoning_before_the_lead_in_keep(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# Negated doubt states certainty; a doubt a "but" clause then rejects or confirms is a
# candidate named to be rejected
NEGATED_DOUBT_KEEPS = [
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nThere is no doubt about the "
     "rule: all three examples shift by two.", ARC10),  # attacker's rows
    ("zebra", TEA + "\\boxed{Arnold}\n\nThe puzzle is not ambiguous: every clue is used.",
     "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nDouble-checking the arithmetic confirms there are no mistakes.",
     "7"),
    ("math", N7 + "\\boxed{7}\n\nOne might guess 8, but that fails: 2·8+1 = 17.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nBob might look like a candidate from clue 2, but clue 6 "
     "rules him out.", "Arnold"),
    ("countdown", CD46_BOX + "\n\nOne might try 25+7+3+2 = 37, but that is too small.", CD46),
    ("math", N7 + "\\boxed{7}\n\nThis might seem surprising, but it checks out: 2·7+1 = 15.",
     "7"),
    ("math", N7 + "\\boxed{7}\n\nNo doubt: 2·7+1 = 15.", "7"),  # our own
    ("math", N7 + "\\boxed{7}\n\nWithout any doubt, n is 7.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nNothing here is ambiguous.", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nI made no mistakes in the arithmetic.", "7"),
    ("math", N7 + "\\boxed{7}\n\nOne could guess 9, but 2·9+1 = 19 rules it out.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nEric might seem possible, but clue 2 excludes him.",
     "Arnold"),
    ("logic", block(RIGHT) + "\n\nThere is no doubt here: each statement is consistent.",
     SK_MK),  # attacker's
    ("logic", block(RIGHT) + "\n\nIt might seem that Mia could be a knight, but her own "
     "statement rules that out.", SK_MK),
    ("logic", block(RIGHT) + "\n\nNothing here is ambiguous.", SK_MK),  # our own
]  # fmt: skip
NEGATED_DOUBT_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nI have some doubt about this.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8, but I am not sure.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8, but I will keep 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThe question is ambiguous.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThere may be a mistake somewhere.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nNo, Bob might fit too.", "Arnold"),
    ("logic", block(RIGHT) + "\n\nMia might be a knight, but I am not sure.", SK_MK),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), NEGATED_DOUBT_KEEPS)
def test_rule_negated_or_rejected_doubt_keeps_the_answer(task, response, truth):
    assert score(task, response, truth).reason == "ok"


@pytest.mark.parametrize(("task", "response", "truth"), NEGATED_DOUBT_HEDGES)
def test_rule_doubt_that_no_but_clause_rejects_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


# A confidence below certainty said in any word order or idiom (the lexicon's families:
# low/partial confidence either side of its noun, negated certainty with a degree word, betting
# and salt idioms, a provisional or gut answer, advice to re-check) un-commits in every task
DOUBT_IDIOMS = [
    "(or thereabouts)",
    "That's it, more or less.",  # an approximation of an exact answer
    "I wouldn't bet on it.",  # attacker's
    "Take this with a grain of salt.",
    "Low confidence.",
    "Not entirely sure.",
    "Don't quote me on this.",
    "Treat this as provisional.",
    "Something feels off about this.",
    "I'd double-check this.",
    "My confidence here is low.",  # our own
    "Confidence is fairly low.",
    "I would not bet on this.",
    "Take it with a pinch of salt.",
    "I'm not completely sure about this.",
    "Moderate confidence only.",
    "This is just a hunch.",
    "I can't be certain.",
    "I'm fairly confident, not more.",
    "Tentatively, that's it.",
    "This is my best estimate.",  # the first hedge attack's rows left open
    "(give or take one)",
    "That said, I wouldn't be surprised if it were off.",
]


@pytest.mark.parametrize("after", DOUBT_IDIOMS)
def test_rule_low_confidence_in_any_word_order_or_idiom_uncommits_in_every_task(after):
    reasons = reasons_after(after)
    assert set(reasons.values()) == {"hedged"}, reasons


# Hedging adverbs and verbs ("maybe", "perhaps", "probably", "could also be") of the most-spoken
# languages, whatever their script, are doubt after the answer
LANGUAGE_HEDGES = [
    "たぶん8です。", "おそらく8です。", "8かもしれません。", "아마 8일 수도 있습니다.", "어쩌면 8.",
    "Może 8.", "Prawdopodobnie 8.", "Belki de 8.", "Muhtemelen 8.", "Provavelmente é 8.",
    "Possivelmente 8.", "Mungkin jawabannya 8.", "Barangkali 8.", "शायद 8 है।", "संभवतः 8।",
    "Kanske 8.", "Förmodligen 8.", "Có lẽ là 8.", "ربما 8.", "সম্ভবত 8।", "হয়তো 8", "شاید 8",
    "Labda 8.", "อาจจะเป็น 8", "कदाचित 8", "ஒருவேளை 8", "బహుశా 8", "Можливо, 8.", "Мабуть, 8.",
    "Magari 8.", "Possibilmente 8.", "A lo mejor es 8.", "Posiblemente 8.", "Es könnte auch 8 sein.",
    "Möglicherweise 8.", "Peut-être 8.", "Il se peut que ce soit 8.", "Misschien 8.",
    "Пожалуй, 8.", "恐怕是8。", "说不定是8。",
]  # fmt: skip


@pytest.mark.parametrize("after", LANGUAGE_HEDGES)
def test_rule_doubt_in_the_most_spoken_languages_uncommits(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "hedged"


@pytest.mark.parametrize(
    ("task", "response", "truth"),
    [
        ("zebra", ZEBRA_BOX + "\n\nFalls Hinweis 1 anders gelesen wird: Bob.", "Arnold"),
        ("zebra", ZEBRA_BOX + "\n\nSi la pista 1 se lee de otra forma: Bob.", "Arnold"),
        ("zebra", ZEBRA_BOX + "\n\nВозможно, Bob.", "Arnold"),
        ("logic", block(RIGHT) + "\n\nMia könnte auch ein Ritter sein.", SK_MK),
        ("logic", block(RIGHT) + "\n\nMia pourrait aussi être un chevalier.", SK_MK),
        ("logic", block(RIGHT) + "\n\nTalvez Mia seja um cavaleiro.", SK_MK),
        ("logic", block(RIGHT) + "\n\nMungkin Mia seorang ksatria.", SK_MK),
    ],
)
def test_rule_conditions_and_doubt_in_other_languages_uncommit_every_task(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


# Doubt with no other value, by form: a graded confidence short of full, a symbol that stands for
# words, doubt written with look-alike letters of another script.
FORM_HEDGES = [
    "Confidence: ★★★☆☆", "Confidence: B-.", "Confidence level: medium-ish.", "Confidence = C",
    "🤞", "¯\\_(ツ)_/¯", "🤷", "😬", "prоbably (with a Cyrillic o).", "Реrhaps.",
    "Presumably that's it.", "I can't guarantee this.", "Results may vary.", "This is debatable.",
    "I'm not married to this answer.", "I reckon so.",
    "7 or so.", "(7 or thereabouts)", "7, more or less.",  # an exact answer made approximate
    # a question mark in any script or shape is "?"
    "7\u2048", "7\u2e2e", "\u0395\u03af\u03bd\u03b1\u03b9 7\u037e", "\u00bfSeguro\u061f", "7 \u2047",
    "7 \U0001fbc4",
]  # fmt: skip
FORM_KEEPS = [
    "Confidence: high.", "Confidence: 100%.", "Confidence level: full.", "✓", "∎",
    "The angle is 7°.", "Ответ: 7.", "Done 🎉",
]  # fmt: skip


@pytest.mark.parametrize("after", FORM_HEDGES)
def test_rule_doubt_by_form_uncommits(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "hedged"


@pytest.mark.parametrize("after", FORM_KEEPS)
def test_rule_full_confidence_closing_symbols_and_other_scripts_keep(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "ok"


def test_rule_doubt_in_czech_and_slovak_uncommits():
    for after in ("Konečně, může to být i 8.", "Nejsem si jistý.", "Možno 8."):
        assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "hedged", after


def test_every_question_mark_of_unicode_reads_as_one():
    # by name, not by a list: the marks of other scripts and the interrobangs, and no relation
    # such as U+225F QUESTIONED EQUAL TO
    marks = "\u00bf\u037e\u055e\u061f\u2048\u2049\u203d\u2e18\u2e2e\u2753\uff1f\U0001e95f"
    assert reading(f"Is it 7{marks}") == "Is it 7" + "?" * len(marks)
    assert reading("a \u225f b") == "a \u225f b"


@pytest.mark.parametrize(
    "response",
    [
        # "likely" of a probability's outcomes is no doubt; \frac12 is 1/2 = 0.5
        "There are two equally likely outcomes, so the probability is \\boxed{\\frac12} = "
        "\\boxed{0.5}.",
        "Both likely outcomes count once, so the probability is \\boxed{\\frac{1}{2}}.",
    ],
)
def test_likely_outcomes_of_a_probability_are_no_doubt(response):
    assert score("math", response, "\\frac{1}{2}").reason == "ok"


def test_likely_of_the_answer_is_doubt():
    assert (
        score("math", "It is most likely \\boxed{\\frac{1}{2}}.", "\\frac{1}{2}").reason == "hedged"
    )


# A choice made without reasoning, before or after the box; doubt spelled long or with digits
# for letters; a probability stated of being right (math gold 7): the ninth attack's families
@pytest.mark.parametrize(
    "response",
    [
        "Going with my gut: $\\boxed{7}$.",
        "Instinct says $\\boxed{7}$.",
        "Random pick: $\\boxed{7}$.",
        "If forced to choose: $\\boxed{7}$.",
        "Eeny, meeny, miny, moe: $\\boxed{7}$.",
        "I'll go with $\\boxed{7}$ without checking.",
        "$\\boxed{7}$. Haven't verified this.",
        "$\\boxed{7}$. pr0bably.",
        "$\\boxed{7}$. maaaybe.",
        "$\\boxed{7}$. prolly.",
        "$\\boxed{7}$. P(correct) ≈ 0.6.",
        "$\\boxed{7}$. Likelihood of being right: 60%.",
        "$\\boxed{7}$. Take this as a rough answer.",
    ],
)
def test_rule_a_choice_without_reasoning_or_doubt_in_any_spelling_uncommits(response):
    assert score("math", "Counting the days.\n\n" + response, "7").reason == "hedged"


@pytest.mark.parametrize(
    "response",
    [
        "$\\boxed{7}$. I checked it twice: 2 * 7 + 1 = 15.",
        "$\\boxed{7}$. The right answer has probability 1 here: 2 * 7 + 1 = 15.",
        "$\\boxed{7}$. Sooo many cases, but all agree.",
    ],
)
def test_rule_a_check_or_a_long_spelling_without_doubt_keeps(response):
    assert score("math", "Counting the days.\n\n" + response, "7").reason == "ok"

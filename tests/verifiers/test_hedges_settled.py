"""Hedges settled: a correction of another value, a check or another method that reaches the
answer, a rejection in the other value's scope, a "but" clause that rejects, an explicit
recommitment, a question of the answer checked and affirmed; and what settles nothing (a later
mention of the answer, a negation outside the scope). The rules:
docs/guides/rewards.md#hedges-one-lexicon-of-doubt. Every expected verdict is decided by hand from
the task's truth, never by running the scorer."""

import pytest
from hedge_cases import ARC10, ARC_BOX, CD46, CD46_BOX, MNL, MNL_BLOCK, N7, TEA, ZEBRA_BOX
from knights_knaves_helpers import RIGHT, SK_MK, block

from pac_verl.verifiers import score

# A correction said of another value, or of others ("54 is wrong", "a common mistake"), and
# "could/might also write/compute" (a way to write or reach the answer) keep the answer
OTHERS_WRONG_KEEPS = [
    ("countdown", CD46_BOX + "\n\nNote: 25*2-3+7 = 54 is wrong, so the order of the signs "
     "matters.", CD46),  # attacker's rows
    ("math", N7 + "\\boxed{7}\n\nNote: a common mistake is to forget to subtract the 1 first, "
     "which gives 7.5.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThe answer is not 8, a common wrong answer from forgetting the "
     "+1.", "7"),
    ("math", N7 + "\\boxed{7}\n\nYou might also write this as n = 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nAlternatively, we could compute it by subtracting 1 and halving: "
     "(15-1)/2 = 7, and get the same 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 would be wrong: 2·8+1 = 17.", "7"),  # our own
    ("math", N7 + "\\boxed{7}\n\nA common error is to answer 15.", "7"),
    ("math", N7 + "\\boxed{7}\n\nOne could also check it: 2·7+1 = 15.", "7"),
    ("math", N7 + "\\boxed{7}\n\nWe could also express it as 14/2.", "7"),
    ("countdown", CD46_BOX + "\n\n25+3+7+2 = 37 is incorrect.", CD46),
]  # fmt: skip
OTHERS_WRONG_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nOops, 7 is wrong.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThat is wrong; I made a mistake.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt could also be 8.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThis might be a mistake.", "7"),
    ("countdown", CD46_BOX + "\n\n25*2-7+3 is incorrect.", CD46),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), OTHERS_WRONG_KEEPS)
def test_rule_a_correction_of_another_value_or_a_way_to_write_it_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


@pytest.mark.parametrize(("task", "response", "truth"), OTHERS_WRONG_HEDGES)
def test_rule_a_correction_of_the_answer_still_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


# After a committed answer, a sentence that checks it, reaches the same result by another
# method, justifies it, or describes a method is no doubt: "Alternatively ... also yields n =
# 7", "the same assignment", "unique because 2n+1 ...", "could also be solved graphically", a
# chance that is the answer itself
CHECK_KEEPS = [
    ("math", N7 + "$\\boxed{7}$\n\nAlternatively, solving by subtracting 1 and halving also "
     "yields $n = 7$.", "7"),  # attacker's
    ("math", "Of the three pairs, two have exactly one red ball.\n\n$\\boxed{\\frac{2}{3}}$\n\n"
     "So there is a $2/3$ chance that exactly one ball is red.", "\\frac{2}{3}"),
    ("math", N7 + "$\\boxed{7}$\n\nThe answer is unique because $2n+1$ is strictly "
     "increasing.", "7"),
    ("logic", MNL_BLOCK + "\n\nAlternatively, one could reason by cases, which leads to the "
     "same assignment.", MNL),
    ("math", N7 + "$\\boxed{7}$\n\nNote: the problem could also be solved graphically.", "7"),
    ("math", N7 + "$\\boxed{7}$\n\nThis could also be verified by substitution.", "7"),
    ("math", N7 + "$\\boxed{7}$\n\nIt could also be found by trial: 7 works.", "7"),
    ("logic", MNL_BLOCK + "\n\nAlternatively, a truth table gives the same result.", MNL),
    ("math", N7 + "\\boxed{7}\n\nAlternatively, substituting back also gives 7.", "7"),  # ours
    ("zebra", TEA + "\\boxed{Arnold}\n\nAlternatively, starting from clue 5 leads to the same "
     "name.", "Arnold"),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nAlternatively, reading the "
     "rule column by column gives the same grid.", ARC10),
    ("math", "Each toss is fair.\n\n$\\boxed{\\frac{1}{2}}$\n\nThere is a 1/2 chance that the "
     "coin shows heads.", "\\frac{1}{2}"),
    ("math", N7 + "\\boxed{7}\n\nThis value is unique since 3x + 1 has one root.", "7"),
    # "as it should be" agrees; "should be" alone is another value's place (below): 7 > 3
    ("math", N7 + "\\boxed{7}\n\nNote 7 is larger than 3, as it should be.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThe result may also be checked by graphing.", "7"),
    ("logic", MNL_BLOCK + "\n\nAlternatively, one can see this by noting that Mia and Lily make "
     "the same claim.", MNL),
    ("zebra", TEA + "\\boxed{Arnold}\n\nAlternatively, we could verify it from clue 5 alone.",
     "Arnold"),
]  # fmt: skip
CHECK_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nAlternatively, subtracting 1 first gives 8.", "7"),
    ("math", N7 + "\\boxed{7}\n\nAlternatively, it might give the same result.", "7"),
    ("math", "Each toss is fair.\n\n$\\boxed{\\frac{1}{2}}$\n\nThere is a 60% chance that this "
     "is right.", "\\frac{1}{2}"),
    ("math", N7 + "\\boxed{7}\n\nThe answer could also be 8.", "7"),
    ("logic", MNL_BLOCK + "\n\nAlternatively, one can see that Lily is a knave.", MNL),
    ("math", N7 + "\\boxed{7}\n\nNote 7 is larger than 3, but it should be 8.", "7"),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), CHECK_KEEPS)
def test_rule_a_check_a_justification_or_a_method_after_the_answer_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


@pytest.mark.parametrize(("task", "response", "truth"), CHECK_HEDGES)
def test_rule_another_method_reaching_another_value_still_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


# A rejection word rejects only what is in its scope: the other value itself ("8 is not ...",
# "not 8", "8 doesn't work", "8 fails", "but it fails"). "not just 7", "not only this one", "not
# that it matters", "not changing my answer" reject nothing about the other value, so the offer
# before them stands. 7 is the math gold (N7 in hedge_cases.py), Arnold the Zebra gold, SK_MK and MNL K&K's.
SCOPE_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nNote that 8 also works, not just 7.", "7"),  # attacker's
    ("math", N7 + "\\boxed{7}\n\n8 also works, not only 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 fits as well, not merely 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 works too, not that it matters.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 is also a valid answer, not that anyone asked.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 also works, not gonna lie.", "7"),
    ("math", N7 + "\\boxed{7}\n\nNote that 8 also works, 7 is not the only one.", "7"),
    ("countdown", CD46_BOX + "\n\n25*2+7-3 works too, not only this one.", CD46),  # attacker's
    ("countdown", CD46_BOX + "\n\nAlso valid: 7*3+25, not just the one above.", CD46),
    ("zebra", ZEBRA_BOX + "\n\nBob also fits all the clues, not just Arnold.", "Arnold"),
    ("zebra", ZEBRA_BOX + "\n\nBob works too, not that it changes anything.", "Arnold"),
    ("arc", ARC_BOX + "\n\nAnother plausible grid: 0 0 0 8 9 4 0 0 1 6, not that it matters.",
     ARC10),  # attacker's shape
    ("logic", block(RIGHT) + "\n\nMia being a knight is also consistent, not that it matters.",
     SK_MK),  # attacker's shape
    ("logic", MNL_BLOCK + "\n\nSwapping Mia and Noah also works, not just the roles above.", MNL),
]  # fmt: skip
SCOPE_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\nCheck: 2*3+1 = 7 ✓", "7"),
    ("math", N7 + "\\boxed{7}\n\nNot 8: that fails clue 2.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 does not work, so 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nI considered 8, but it fails.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThis is not just a guess; 7 satisfies every clue.", "7"),
    ("math", N7 + "\\boxed{7}\n\nA common mistake is 8.", "7"),
    ("math", N7 + "\\boxed{7}\n\nNote that 8 does not work since 2*8+1 = 17.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThe other root, -8, is rejected.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThe other root, -8, is not valid here.", "7"),
    ("math", N7 + "\\boxed{7}\n\nSo the answer is 7, not 8.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 would also satisfy it, but not in the given range.", "7"),
    ("math", N7 + "\\boxed{7}\n\n7 is not just plausible, it is forced.", "7"),
    ("math", N7 + "\\boxed{7}\n\nNot only does 7 satisfy the equation, it is the only solution.",
     "7"),
    ("math", N7 + "\\boxed{7}\n\n8 would also seem to work, but it fails the check.", "7"),
    ("countdown", CD46_BOX + "\n\n25*2+7-3 does not work: it gives 54.", CD46),
    ("zebra", ZEBRA_BOX + "\n\nNot Bob: he fails clue 2.", "Arnold"),
    ("zebra", ZEBRA_BOX + "\n\nI considered Bob, but he fails clue 3.", "Arnold"),
    ("zebra", ZEBRA_BOX + "\n\nBob cannot be in house 1 because he drinks milk.", "Arnold"),
    ("logic", MNL_BLOCK + "\n\nHad Mia been a knave, Lily's statement would be true as well, "
     "which is impossible.", MNL),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), SCOPE_HEDGES)
def test_rule_a_negation_outside_the_other_values_scope_rejects_nothing(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), SCOPE_KEEPS)
def test_rule_a_rejection_of_the_other_value_or_a_check_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# A "but" clause settles doubt only when it rejects the other value or confirms the answer;
# keeping one's answer while granting another ("but I'm not changing my answer") still offers two
BUT_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nIt could well be 8, but I'm not changing my answer.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 might also be right, but I won't change it.", "7"),
    ("math", N7 + "\\boxed{7}\n\nMaybe 8, but I'm not switching.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8, but I'll keep 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt could be 8, but I'm not going to revise it.", "7"),
    ("zebra", ZEBRA_BOX + "\n\nIt could be Bob, but I'm not changing my answer.", "Arnold"),
    ("countdown", CD46_BOX + "\n\nMaybe 7*3+25, but I'm sticking with this.", CD46),
    ("logic", block(RIGHT) + "\n\nIt might be that Mia is a knight, but I won't change it.",
     SK_MK),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8, but the answer is 7 or 8.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8, but it is 7, probably.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8, but 7 works.", "7"),  # 8 is still offered
]  # fmt: skip
BUT_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\nOne might guess 8, but that fails.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThis might seem surprising, but it checks out.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might look like 8, but 8 is ruled out by the check.", "7"),
    ("zebra", ZEBRA_BOX + "\n\nOne might guess Bob, but Bob fails clue 2.", "Arnold"),
    # a last "but" clause that states the answer again: 2*8 + 1 = 17 is another problem's
    ("math", N7 + "\\boxed{7}\n\nIf the equation were $2n+1=17$, the answer would be 8 instead, "
     "but it is 15, so 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might look like 8, but the answer is 7.", "7"),
    ("zebra", ZEBRA_BOX + "\n\nIf clue 2 were reversed it would be Bob, but it is Arnold.",
     "Arnold"),
    # doubt before the box that a "but" clause settles by fit or by none: a blind set's rows
    ("arc", "I'm not completely certain about the rule, but it fits all three examples.\n\n"
     f"\\boxed{{{ARC10}}}", ARC10),
    ("arc", "At first I thought the colours might also change, but none of the examples changes "
     f"a colour.\n\n\\boxed{{{ARC10}}}", ARC10),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), BUT_HEDGES)
def test_rule_a_but_clause_that_keeps_the_answer_settles_nothing(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), BUT_KEEPS)
def test_rule_a_but_clause_that_rejects_or_confirms_settles(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# A later sentence that merely mentions the answer ("I checked all 7 cases", "Arnold drinks
# coffee") does not withdraw an earlier offer; an explicit re-commitment ("so the answer is 7",
# "the answer stays 7") or a rejection of the other value does
SETTLED_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\nBut 8 could also be the answer. I checked all 7 cases.", "7"),
    ("math", N7 + "\\boxed{7}\n\nPerhaps 8 works too. Note that 7 is odd.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8. There are 7 days in a week.", "7"),
    ("zebra", ZEBRA_BOX + "\n\nBob could also be the answer. Arnold drinks coffee.", "Arnold"),
    ("zebra", ZEBRA_BOX + "\n\nMaybe Bob. Arnold lives in house 1.", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nThe other candidate, 8, cannot be excluded... or can it? Either "
     "way I keep 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIt might be 8. I'll stick with 7 anyway.", "7"),
    ("countdown", CD46_BOX + "\n\n7*3+25 might work too. 25*2-7+3 uses every number.", CD46),
    # a no whose result is the other value affirms it; "that's 9" names another value
    ("math", N7 + "\\boxed{7}\n\nCould it be 8? No, that gives 8.", "7"),
    ("math", N7 + "\\boxed{7}\n\nCould it be 8? No, that's 9.", "7"),
    ("math", N7 + "\\boxed{7}\n\nCould it be 8? No, that gives 17, so 9.", "7"),
]  # fmt: skip
SETTLED_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\nWait, is it 8? No: 3 + 4 = 7, so the answer is 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nCould it be 8? No, 8 fails the check; the answer stays 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nHmm, is it 8? 8 does not work, so 7.", "7"),
    ("math", N7 + "\\boxed{7}\n\nCould it be 8? Checking again, the final answer is 7.", "7"),
    ("zebra", ZEBRA_BOX + "\n\nCould it be Bob? No, Bob fails clue 2, so the answer is Arnold.",
     "Arnold"),
    # a no and what the other value gives: 2*8 + 1 = 17, not 15
    ("math", N7 + "\\boxed{7}\n\nCould it be 8? ... no, 8 gives 17.", "7"),
    ("math", N7 + "\\boxed{7}\n\nCould also try 8... nope, that yields 17, not 15.", "7"),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), SETTLED_HEDGES)
def test_rule_a_later_mention_of_the_answer_does_not_settle_an_offer(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), SETTLED_KEEPS)
def test_rule_an_explicit_recommitment_settles_doubt(task, response, truth):
    assert score(task, response, truth).reason == "ok"


@pytest.mark.parametrize(
    "response",
    ["$\\boxed{7}$ is the answer; a common mistake would be to answer $\\boxed{8}$.",
     "So $\\boxed{7}$. A common wrong answer is $\\boxed{8}$.",
     "The pitfall is $\\boxed{8}$, but the answer is $\\boxed{7}$."],
)  # fmt: skip
def test_rule_a_box_named_as_a_mistake_is_no_answer(response):
    assert score("math", N7 + response, "7").reason == "ok"


@pytest.mark.parametrize(
    ("after", "reason"),
    [("Is that right? 2 \\cdot 7 + 1 = 15. Yes.", "ok"),
     ("Does n = 7 work? 2 \\cdot 7 + 1 = 15. Correct.", "ok"),
     ("Or is it 8? 2 \\cdot 7 + 1 = 15. Yes.", "hedged"),  # another value asked about
     ("Maybe it is wrong? 2 \\cdot 7 + 1 = 15. Yes.", "hedged"),  # doubt in words
     ("Am I sure? Yes.", "hedged"),  # no check
     ("Is it 9? 2 \\cdot 7 + 1 = 15. Yes.", "hedged")],  # 9 is no result of the check
)  # fmt: skip
def test_rule_a_question_of_the_answer_checked_and_affirmed_settles(after, reason):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == reason


@pytest.mark.parametrize(
    "response",
    ["The answer is not \\boxed{7}.", "\\boxed{7 \\text{ is not the answer}}",
     "It isn't $\\boxed{7}$.", "\\boxed{7 \\text{ (8 if inclusive)}}",
     "The answer is not \\(\\boxed{7}\\).", "It isn't \\[\\boxed{7}\\]"],  # any math delimiter
)  # fmt: skip
def test_rule_a_box_the_response_denies_or_conditions_is_no_committed_answer(response):
    assert score("math", N7 + response, "7").reason == "hedged"


def test_rule_litotes_in_dialect_grants_the_value():
    assert score("math", N7 + "\\boxed{7}\n\n8 ain't crazy either.", "7").reason == "hedged"


# An ellipsis before a word in lower case goes on: the thought it opens is settled in the same
# sentence ("... that branch fails"); a word that turns back ("... no", "... wait") starts anew.
# 2*8 + 1 = 17, not 15.
@pytest.mark.parametrize(
    "after",
    [
        "If n were 8, the left side would be... that fails, 17 is not 15.",
        "Could it be 8... no, 8 gives 17.",
    ],
)
def test_rule_a_thought_after_an_ellipsis_is_settled_in_its_sentence(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "ok"


def test_kk_a_supposition_after_an_ellipsis_that_fails_keeps_the_block():
    after = "Note: if Noah were a knight instead, Mia would have to be... that branch fails."
    assert score("logic", f"{MNL_BLOCK}\n{after}", MNL).reason == "ok"


@pytest.mark.parametrize(
    "response",
    [
        "The answer is not \\boxed{8}; it is \\boxed{7}.",
        "The answer is not $\\boxed{8}$ but $\\boxed{7}$.",
        "Not $\\boxed{8}$. The answer is $\\boxed{7}$.",
        "$\\boxed{8}$? No. $\\boxed{7}$.",
        "I computed \\boxed{8}... wait, no. \\boxed{7}",
    ],
)
def test_rule_a_box_rejected_before_the_answer_is_no_answer(response):
    assert score("math", N7 + response, "7").reason == "ok"


@pytest.mark.parametrize("response", ["\\boxed{8} or \\boxed{7}", "\\boxed{8}? Maybe \\boxed{7}."])
def test_rule_a_box_kept_beside_the_answer_still_offers_two(response):
    assert score("math", N7 + response, "7").reason == "hedged"


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        # a question why another value is not the answer, answered at once by its reason
        ("**Why not 6?** Because Sunday counts too.", "ok"),
        ("(Why not 6? Because Sunday counts.)", "ok"),
        ("Why not 8? Because 8 also works.", "hedged"),  # the reason offers 8
        ("Why not 8?", "hedged"),
        # an abbreviation ends no sentence: "4 weeks" restates the 28 days
        ("For comparison, February has 28 days, i.e. 4 weeks.", "ok"),
    ],
)
def test_rule_a_why_not_answered_by_its_reason_and_an_abbreviation(after, reason):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == reason

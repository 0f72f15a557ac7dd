"""Hedges by another candidate: a value, name, grid or expression of the answer's type offered
beside it: as a condition's consequence, under another reading or source, by its shape, after a
label, in any spelling or construction, ranked near the answer, as a swap; and the values that
are no candidate (the answer again, a bound, a share, a quantity computed on the way). The rules:
docs/guides/rewards.md#hedges-one-lexicon-of-doubt. Every expected verdict is decided by hand from
the task's truth, never by running the scorer."""

import pytest
from hedge_cases import ARC10, CD46, CD46_BOX, CD48, CD_RIGHT, MNL, MNL_BLOCK, N7, TEA, ZEBRA_BOX
from knights_knaves_helpers import RIGHT, SK_MK, block

from pac_verl.verifiers import score

# Another expression of the same value is the answer restated: Countdown's 2*25+3-7 = 46
SAME_VALUE_KEEPS = [
    ("countdown", CD46_BOX + "\n\nAlternatively, 2*25+3-7 gives the same 46.", CD46),  # attacker
    ("countdown", CD46_BOX + "\n\nThe equivalent form 2*25+3-7 is also correct.", CD46),
    ("countdown", CD46_BOX + "\n\nOr 3+25*2-7.", CD46),  # our own: 3 + 50 - 7 = 46
    ("countdown", CD46_BOX + "\n\nAlso valid: (25*2)+3-7.", CD46),
    ("countdown", CD46_BOX + "\n\nAlternatively, 3-7+2*25.", CD46),
    ("countdown", CD46_BOX + "\n\nOr equally 25*2+(3-7).", CD46),
    ("countdown", CD46_BOX + "\n\nThe same value also comes from 2*25-7+3.", CD46),
]  # fmt: skip
SAME_VALUE_HEDGES = [
    ("countdown", CD46_BOX + "\n\nAnother route: 7*3+25 = 46.", CD46),  # attacker: another one
    ("countdown", CD46_BOX + "\n\nOr 25*2+7-3.", CD46),  # our own: 50 + 4 = 54, not 46
    ("countdown", CD46_BOX + "\n\nAlternatively, 25+3+7+2.", CD46),  # 37
    ("countdown", CD46_BOX + "\n\nAlso valid: 25*3-7*2.", CD46),  # 75 - 14 = 61
    ("countdown", CD46_BOX + "\n\nOr (25-7)*3-2.", CD46),  # 54 - 2 = 52
    ("countdown", CD46_BOX + "\n\nAlternatively 25*2-3-7 also works.", CD46),  # 40
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), SAME_VALUE_KEEPS)
def test_rule_another_expression_of_the_same_value_restates(task, response, truth):
    assert score(task, response, truth).reason == "ok"


@pytest.mark.parametrize(("task", "response", "truth"), SAME_VALUE_HEDGES)
def test_rule_an_expression_of_another_value_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


# A condition whose consequence is another candidate of the answer's type (a bare value after
# the conditional clause, "then", "it's", or before the "if"; or one followed by "instead")
# un-commits; a condition that rejects, computes or holds its value in the "if" clause does not
CONDITIONAL_ALTERNATIVE_HEDGES = [
    ("zebra", TEA + "\\boxed{Arnold}\n\nIf clue 4 is read strictly, Bob instead.", "Arnold"),
    ("countdown", CD46_BOX + "\n\nIf the 3 must come first, then 3*7+25 instead.", CD46),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nIf the shift is by one "
     "instead of two: 0 8 9 4 0 0 1 6 7 0.", ARC10),
    ("math", N7 + "\\boxed{7}\n\n(8 if you count the endpoints)", "7"),
    ("math", N7 + "\\boxed{7}\n\nIf you count the endpoints too, it's 8.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\n(Bob if clue 4 means directly left.)", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nIf the endpoints count, then 9.", "7"),  # our own
    ("math", N7 + "\\boxed{7}\n\nAssuming a strict reading: 6.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\n(Eric if the houses are counted from the right.)",
     "Arnold"),
    ("countdown", CD46_BOX + "\n\nIf a number may be used twice, 25*2-2-2 instead.", CD46),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nIf the grid wraps around: "
     "7 0 0 8 9 4 0 0 1 6.", ARC10),
    ("math", N7 + "\\boxed{7}\n\nUnder the other convention the count is 8.", "7"),
]  # fmt: skip
CONDITIONAL_ALTERNATIVE_KEEPS = [
    ("zebra", TEA + "\\boxed{Arnold}\n\nIf we had ignored clue 6, Bob would also fit, but clue 6 "
     "rules him out.", "Arnold"),  # attacker's
    ("math", N7 + "\\boxed{7}\n\nIf n were 8, 2n + 1 would be 17, too big.", "7"),  # our own
    ("math", N7 + "\\boxed{7}\n\nIf we substitute n = 7, then 2n + 1 = 15.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nIf Bob drank tea, clue 4 would fail.", "Arnold"),
    ("countdown", CD46_BOX + "\n\nIf we used 25*2+7-3 instead, we would get 54.", CD46),
    ("math", N7 + "\\boxed{7}\n\nIf you check: 2 \\cdot 7 + 1 = 15.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIf the endpoints count, it is still 7.", "7"),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), CONDITIONAL_ALTERNATIVE_HEDGES)
def test_rule_another_candidate_as_a_conditions_consequence_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), CONDITIONAL_ALTERNATIVE_KEEPS)
def test_rule_a_condition_that_rejects_or_computes_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# ARC: a cell value offered beside another at the end of its clause ("7 or 0)"), or after a label
# that names another candidate ("second-best:", "Grid B:"), is a cell alternative; a choice
# between counts ("3 or 4 cells") is not
CELL_ALTERNATIVE_HEDGES = [
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\n(cell 10: 7 or 0)", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\n(second-best: last cell 0)",
     ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nGrid B: 0 8 9 4 0 0 1 6 7 0",
     ARC10),  # attacker's rows above, our own below
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nLast cell: 7 or 6.", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\n(row 1, col 4: 9 or 0)", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nGrid 2: 7 6 1 0 0 4 9 8 0 0",
     ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nThe first cell is 0 or 8.",
     ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nBackup: last cell 5.", ARC10),
    # a place and a value in any spelling: ARC10's sixth cell is 0, its first 0
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nIf the shift is two, the sixth "
     "cell would be five.", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nThe 0th cell would be 5.", ARC10),
]  # fmt: skip
CELL_ALTERNATIVE_KEEPS = [
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nBlocks of 3 or 4 cells move "
     "right.", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nEach block is 2 or 3 cells "
     "long.", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nCell 10 is 7, as in every "
     "example.", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nGrid 2 of the examples has 3 "
     "rows.", ARC10),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nThe output is 1 row by 10 "
     "columns.", ARC10),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), CELL_ALTERNATIVE_HEDGES)
def test_rule_a_cell_value_offered_beside_the_grid_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), CELL_ALTERNATIVE_KEEPS)
def test_rule_counts_and_cells_of_the_answer_keep_the_grid(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# Another candidate by its shape, whatever the words: a value as a sentence's subject with "too"
# or "as well" in its predicate, a value "as a close second" or "under the other reading", "two
# readings", roles "interchangeable" or "hard to pin down"
SECOND_ANSWER_SHAPE_HEDGES = [
    ("math", N7 + "\\boxed{7}\n\n8 is defensible too.", "7"),  # attacker's rows
    ("math", N7 + "\\boxed{7}\n\nI'd put 8 as a close second.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nBob is a close second.", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nTwo readings: 7 (inclusive), 8 (exclusive).", "7"),
    ("math", N7 + "\\boxed{7}\n\nThough 8 can't be ruled out.", "7"),
    ("math", N7 + "\\boxed{7}\n\n¹ 8 under the other convention.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\\textsuperscript{*}\n\n* Bob, under the other reading of "
     "clue 2.", "Arnold"),
    ("logic", block(RIGHT) + "\n\n(Samuel and Mia's roles are interchangeable.)", SK_MK),
    ("logic", block(RIGHT) + "\n\nThe roles of Samuel and Mia are hard to pin down.", SK_MK),
    ("math", N7 + "\\boxed{7}\n\n9 is arguable as well.", "7"),  # our own
    ("zebra", TEA + "\\boxed{Arnold}\n\nEric is a distant second.", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\n6 in the other interpretation.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThere are several interpretations here.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nHonestly, Eric can't be ruled out.", "Arnold"),
]  # fmt: skip
SECOND_ANSWER_SHAPE_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\n7 is odd too.", "7"),
    ("math", N7 + "\\boxed{7}\n\n2 is the coefficient here as well.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nBob comes second in the line of houses.", "Arnold"),
    ("math", N7 + "\\boxed{7}\n\nUnder the other convention it is also 7.", "7"),
    ("logic", block(RIGHT) + "\n\nThe two roles are not interchangeable here.", SK_MK),
    ("math", N7 + "\\boxed{7}\n\nNo other value can be ruled in: 8 is ruled out.", "7"),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), SECOND_ANSWER_SHAPE_HEDGES)
def test_rule_a_second_answer_by_its_shape_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), SECOND_ANSWER_SHAPE_KEEPS)
def test_rule_the_answer_or_another_quantity_in_that_shape_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# A lead-in that ends with "or" (or "either ... or") offers the values before it beside the answer
LEAD_OR_HEDGES = [
    ("math", "Either 8 or \\boxed{7}.", "7"),  # attacker's
    ("math", N7 + "It is 8, or \\boxed{7}.", "7"),  # our own
    ("math", N7 + "Either 6 or\n\n\\boxed{7}", "7"),
    ("zebra", TEA + "Bob or \\boxed{Arnold}", "Arnold"),
    ("countdown", "7*3+25 or \\boxed{25*2-7+3}", CD46),
    ("math", N7 + "So n is 8 or $\\boxed{7}$.", "7"),
]  # fmt: skip
LEAD_OR_KEEPS = [
    ("math", N7 + "So n is 7, or \\boxed{7}.", "7"),
    ("math", N7 + "Seven, or \\boxed{7}", "7"),
    ("zebra", TEA + "Arnold, or in short \\boxed{Arnold}", "Arnold"),
    ("math", "We pick 3 or 4 items and find n = 7.\n\n\\boxed{7}", "7"),
    ("countdown", "25*2-7+3, or \\boxed{25*2-7+3}", CD46),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), LEAD_OR_HEDGES)
def test_rule_a_lead_in_ending_with_or_offers_its_values(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), LEAD_OR_KEEPS)
def test_rule_a_lead_in_ending_with_or_that_names_only_the_answer_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# Inside an answer (a box, a K&K statement) or around a K&K answer, another reading of the
# question ("under the other reading", "in another interpretation") offers another answer
ANOTHER_READING_HEDGES = [
    ("math", N7 + "\\boxed{7 \\text{ (8 under a strict reading)}}", "7"),  # attacker's
    ("logic", block("Samuel is a knight, Mia is a knave (knight under the other reading)"), SK_MK),
    ("logic", block("Samuel is a knight, Mia is a knave — or, on the other reading, a knight"),
     SK_MK),
    ("logic", block("Samuel is a knight (a knave in another interpretation), Mia is a knave"),
     SK_MK),  # our own
    ("math", N7 + "\\boxed{7 \\text{ (9 in another interpretation)}}", "7"),
    ("zebra", TEA + "\\boxed{Arnold (Bob under the other reading)}", "Arnold"),
    ("logic", block(RIGHT) + "\n\nUnder a different reading, Mia is a knight.", SK_MK),
    ("math", N7 + "\\boxed{7 \\text{ (6 on the other convention)}}", "7"),
]  # fmt: skip
ANOTHER_READING_KEEPS = [
    ("math", N7 + "\\boxed{7 \\text{ (on the usual reading)}}", "7"),
    ("logic", block(RIGHT) + "\n\nThe statement has only one reading.", SK_MK),
    ("math", N7 + "\\boxed{7}\n\nThe reading of the question is clear.", "7"),
    ("zebra", TEA + "\\boxed{Arnold (the reading of clue 3 is direct)}", "Arnold"),
    ("logic", block(RIGHT) + "\n\nOn a careful reading, Samuel's claim is true.", SK_MK),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), ANOTHER_READING_HEDGES)
def test_rule_another_reading_inside_the_answer_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), ANOTHER_READING_KEEPS)
def test_rule_one_reading_named_inside_the_answer_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# Doubt about a named part of the answer, or another source's different answer, or a value said
# to stay in contention ("remains a live option", "is tempting", "still in the running")
PART_AND_SOURCE_HEDGES = [
    ("logic", MNL_BLOCK + "\n\nI'm not fully certain about Noah.", MNL),  # attacker's
    ("logic", MNL_BLOCK + "\n\nLily's role is the least certain of the three.", MNL),
    ("math", N7 + "\\boxed{7}\n\nThe answer key may say 8.", "7"),
    ("math", N7 + "\\boxed{7}\n\nThat said, 8 remains a live option.", "7"),
    ("math", N7 + "\\boxed{7}\n\nIf I had to choose again I'd still pick 7, though 8 is "
     "tempting.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 is still in the running.", "7"),
    ("math", N7 + "\\boxed{7}\n\nGut feeling says 8.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nI'm less sure about clue 4.", "Arnold"),  # our own
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nThe last cell is the shakiest "
     "part.", ARC10),
    ("math", N7 + "\\boxed{7}\n\nThe textbook gives 9.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nThe official solution lists Bob.", "Arnold"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nBob remains a strong contender.", "Arnold"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nEric is not out of the question.", "Arnold"),
    ("countdown", CD46_BOX + "\n\nThe answer key might list 7*3+25.", CD46),
]  # fmt: skip
PART_AND_SOURCE_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\nThe answer key gives 7 as well.", "7"),
    ("math", N7 + "\\boxed{7}\n\n8 is tempting, but it fails the equation.", "7"),
    ("zebra", TEA + "\\boxed{Arnold}\n\nThe textbook's answer is Arnold too.", "Arnold"),
    ("logic", MNL_BLOCK + "\n\nI'm fully certain about Noah.", MNL),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), PART_AND_SOURCE_HEDGES)
def test_rule_doubt_about_a_part_or_another_sources_answer_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), PART_AND_SOURCE_KEEPS)
def test_rule_a_source_that_agrees_or_a_tempting_value_rejected_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# A condition whose consequence is introduced by "in which case", "in that case" or "it would
# be" after a further clause, and roles said to flip or swap under a condition, un-commit
CONSEQUENCE_HEDGES = [
    ("math", N7 + "$\\boxed{7}$ (unless the problem meant $2n-1$, in which case $8$).", "7"),
    ("math", N7 + "$\\boxed{7}$ (otherwise, with $2n-1$, it would be $8$).", "7"),  # attacker's
    ("zebra", TEA + "\\boxed{Arnold} (unless clue 3 means 'somewhere left', in which case "
     "Bob).", "Arnold"),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}} (unless the shift wraps, in "
     "which case 7 0 0 8 9 4 0 0 1 6).", ARC10),
    ("logic", MNL_BLOCK + "\n\nThough, if Mia lied, the roles of Mia and Lily would flip.", MNL),
    ("math", N7 + "\\boxed{7}\n\nUnless the ends count; in that case 9.", "7"),  # our own
    ("countdown", CD46_BOX + " (unless each number must be used, in which case 7*3+25).", CD46),
    ("logic", MNL_BLOCK + "\n\nIf Lily lied, Mia and Noah would swap roles.", MNL),
]  # fmt: skip
CONSEQUENCE_KEEPS = [
    ("math", N7 + "\\boxed{7}\n\nOtherwise, with n = 8, the sum would be 17, which is too "
     "large.", "7"),
    ("math", N7 + "\\boxed{7}\n\nUnless n is negative, in which case the count is still 7.", "7"),
    ("logic", MNL_BLOCK + "\n\nIf Mia lied, her statement would be false, a contradiction.",
     MNL),
    ("zebra", TEA + "\\boxed{Arnold}\n\nIf clue 3 were read loosely, nothing would change.",
     "Arnold"),
    ("logic", MNL_BLOCK + "\n\nHad Mia been a knave, Lily's statement would be true as well, "
     "which is impossible.", MNL),  # the first hedge attack's row left open
    ("logic", MNL_BLOCK + "\n\nIf Noah were a knight, Mia would be a knave too, which "
     "contradicts clue 1.", MNL),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), CONSEQUENCE_HEDGES)
def test_rule_another_candidate_in_which_case_or_roles_flipped_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), CONSEQUENCE_KEEPS)
def test_rule_a_consequence_that_rejects_or_restates_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# A later final-answer label ("Final answer:", "**Answer:**", "The final answer is") stating
# another candidate of the answer's type is a second answer, in every task alike
LABEL_HEDGES = [
    ("zebra", TEA + "\\boxed{Arnold}\n\nFinal answer: Bob", "Arnold"),  # attacker's
    ("zebra", TEA + "\\boxed{Arnold}\n\n**Final answer:** Bob", "Arnold"),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nFinal answer: "
     "0 0 8 9 4 0 0 1 6 0", ARC10),
    ("countdown", CD46_BOX + "\n\nFinal answer: 25*2-7-3", CD46),
    ("math", N7 + "\\boxed{7}\n\nFinal answer: 8", "7"),
    ("math", N7 + "\\boxed{7}\n\n**Answer:** $8$", "7"),  # our own
    ("countdown", CD46_BOX + "\n\nAnswer: 7*3+25", CD46),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\n**Final answer:** "
     "7 0 0 8 9 4 0 0 1 6", ARC10),
]  # fmt: skip
LABEL_KEEPS = [
    ("zebra", TEA + "\\boxed{Arnold}\n\nFinal answer: Arnold", "Arnold"),
    ("arc", f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\nFinal answer: {ARC10}", ARC10),
    ("countdown", CD46_BOX + "\n\nFinal answer: 25*2-7+3", CD46),
    ("countdown", CD46_BOX + "\n\nFinal answer: 2*25+3-7", CD46),
    ("math", N7 + "\\boxed{7}\n\n**Final answer:** $7$", "7"),
]  # fmt: skip


@pytest.mark.parametrize(("task", "response", "truth"), LABEL_HEDGES)
def test_rule_a_later_final_answer_label_with_another_candidate_uncommits(task, response, truth):
    assert score(task, response, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "response", "truth"), LABEL_KEEPS)
def test_rule_a_later_final_answer_label_restating_the_answer_keeps(task, response, truth):
    assert score(task, response, truth).reason == "ok"


# English families: another value as good as the answer ("just as good", "equally defensible"),
# a ranked second pick, an answer one would not rule out, litotes ("isn't unreasonable"), a coin
# flip or toss-up between values
ENGLISH_HEDGES = [
    "Eh, 8 is just as good.", "Honestly 8 is equally defensible.", "8 is equally valid.",
    "The answer 8 would be just as right.", "8 would be just as correct.", "8 is as good an answer.",
    "I flipped a coin between 7 and 8.", "I tossed a coin between 7 and 8.",
    "It was a toss-up between 7 and 8.", "It could go either way between 7 and 8.",
    "(I'd say 7, though 8 isn't unreasonable.)", "8 isn't impossible either.",
    "8 is not implausible.", "I wouldn't rule out 8.", "I can't rule out 8.",
    "I wouldn't exclude 8.", "My second pick would be 8.", "My second choice is 8.",
    "8 is my second guess.", "My next best guess is 8.",
]  # fmt: skip


@pytest.mark.parametrize("after", ENGLISH_HEDGES)
def test_rule_english_families_of_another_value_as_good_uncommit(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    ["Bob is just as good.", "I wouldn't rule out Bob.", "My second pick would be Bob.",
     "Bob isn't unreasonable either.", "Bob is equally defensible."],
)  # fmt: skip
def test_rule_english_families_uncommit_names(after):
    assert score("zebra", ZEBRA_BOX + "\n\n" + after, "Arnold").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    ["I'm not changing my answer: 7.", "7 isn't unreasonable; it is exact.",
     "Nothing rules out 7, and clue 2 rules out 8.", "Both methods are equally valid ways to get 7.",
     "This is just as the question asks.", "The second step gives 2n = 14."],
)  # fmt: skip
def test_rule_english_families_keep_a_committed_answer(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "ok"


# ----- the rules by structure: what another value is, not which words carry it -----
# Another value in any spelling is that value: a number word, a Roman numeral, arithmetic with
# no relation around it (2^3 = 8); n = 7 as above.
SPELLED_HEDGES = [
    "Eight also works.", "Unclear; eight also works.", "VIII also fits.", "2^3 also satisfies it.",
    "Twenty-one is right too.", "(4 + 4) works as well.", "XII would also do.",
    "Seven point five also satisfies it.",
]  # fmt: skip
SPELLED_KEEPS = [
    "Check: 2 \\cdot 7 + 1 = 15.", "Seven also satisfies 2n + 1 = 15 when checked.",
    "Part II of the question is not asked.", "One can also verify this by substitution.",
    "Both sides are fifteen.", "3 + 4 also gives 7.",
]  # fmt: skip


@pytest.mark.parametrize("after", SPELLED_HEDGES)
def test_rule_another_value_in_any_spelling_uncommits(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "hedged"


@pytest.mark.parametrize("after", SPELLED_KEEPS)
def test_rule_the_answer_or_a_check_in_any_spelling_keeps(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "ok"


# A statement about another value after the answer is about a candidate: the value as a clause's
# subject with anything said of it that does not reject it, or the value with at most two words
# around it and nothing that computes, bounds or labels it.
SUBJECT_HEDGES = [
    "Presumably that's it, though 8 is conceivable.", "Though 8 isn't off the table.",
    "8 checks out as well.", "Honestly, 8 is right too.", "8 remains on my shortlist.",
    "Still, 9 seems fine to me.", "And 8 passes every check I tried.", "8 is in the mix.",
    "Ehkä 8.", "Måske 8.", "Talán 8.", "אולי 8.", "Ίσως 8.", "Možná 8.", "Siguro 8.", "Or 8?",
    "Kanske 8.", "Mungkin 8.",
]  # fmt: skip
SUBJECT_KEEPS = [
    "8 is not a solution: 2 \\cdot 8 + 1 = 17.", "8 fails the equation.",
    "Step 2 gives 2n = 14.", "All values are at most 15.", "n \\le 15 here.",
    "The equation has 1 solution.", "The right-hand side is 15.", "Done in 3 steps.",
    "It took 2 lines.", "8 would give 17, which is too big.",
]  # fmt: skip


@pytest.mark.parametrize("after", SUBJECT_HEDGES)
def test_rule_a_statement_about_another_value_uncommits(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "hedged"


@pytest.mark.parametrize("after", SUBJECT_KEEPS)
def test_rule_a_rejected_computed_or_labelled_value_keeps(after):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == "ok"


def test_a_name_in_look_alike_letters_is_that_name():
    # "Аrnold" with a Cyrillic A is read as a person reads it
    assert score("zebra", ZEBRA_BOX.replace("Arnold}", "\u0410rnold}"), "arnold").reason == "ok"


# Two boxes with different values after the reasoning: under two conditions or ways they are
# offered side by side; a box named as a mistake is no answer.
TWO_BOX_HEDGES = [
    "$\\boxed{7}$ comes from counting one way, while counting the endpoints gives $\\boxed{8}$.",
    "If we exclude the ends we get $\\boxed{7}$ and if we include them we get $\\boxed{8}$.",
    "Counting inclusively gives $\\boxed{8}$; however, counting exclusively gives $\\boxed{7}$.",
    "$\\boxed{8}$ when the ends count, otherwise $\\boxed{7}$.",
]  # fmt: skip


@pytest.mark.parametrize("response", TWO_BOX_HEDGES)
def test_rule_two_boxes_under_two_conditions_uncommit(response):
    assert score("math", N7 + response, "7").reason == "hedged"
    assert score("math", N7 + response, "8").reason == "hedged"


@pytest.mark.parametrize(
    ("after", "reason"),
    [("Zweite Möglichkeit: 0 0 8 9 4 0 0 1 7 6.", "hedged"),  # another whole grid, any label
     ("Backup: 0 0 8 9 4 0 0 1 7 6.", "hedged"),
     ("Check example 1: 3 3 0 0 0 0 0 0 0 0 -> 0 0 3 3 0 0 0 0 0 0.", "ok"),  # the puzzle's own
     ("Input: 8 9 4 0 0 1 6 7 0 0.", "ok"),
     ("Output: 0 0 8 9 4 0 0 1 6 7.", "ok")],  # the answer again
)  # fmt: skip
def test_rule_another_whole_grid_under_a_label_uncommits(after, reason):
    assert score("arc", f"\\boxed{{{ARC10}}}\n\n{after}", ARC10).reason == reason


@pytest.mark.parametrize(
    ("after", "reason"),
    [("Though if the endpoints are counted, add one.", "hedged"),
     ("(Or one more, if you include zero.)", "hedged"),
     ("Either that or its successor.", "hedged"),
     ("Alternatively the answer is the first prime after it.", "hedged"),
     ("If n could be negative, double it.", "hedged"),
     ("That is 2 more than last year.", "ok"),  # another quantity, offered beside nothing
     ("7 is one more than 6, as 2n + 1 = 15 needs.", "ok")],
)  # fmt: skip
def test_rule_a_value_given_relative_to_the_answer_and_offered_uncommits(after, reason):
    assert score("math", N7 + "\\boxed{7}\n\n" + after, "7").reason == reason


# another name ranked as nearly the answer: the words of a contest (ANSWERHOOD, OFFER_WORDS) and
# an exclusion negated (REJECTED_BY under a negation)
@pytest.mark.parametrize(
    ("after", "reason"),
    [("(Eric is a close call.)", "hedged"),
     ("Eric is a close second.", "hedged"),
     ("It was tied with Eric.", "hedged"),
     ("Eric isn't out of it yet.", "hedged"),
     ("Eric comes close.", "hedged"),
     ("Eric is out of the running: he drinks tea.", "ok"),  # excluded, not ranked
     ("Eric is in house 2.", "ok"),  # a fact of the solution
     ("It is not a tie: clue 2 settles it.", "ok")],
)  # fmt: skip
def test_rule_another_name_ranked_near_the_answer_uncommits(after, reason):
    assert score("zebra", f"\\boxed{{Peter}}\n\n{after}", "peter").reason == reason


@pytest.mark.parametrize(
    ("task", "response", "truth", "reason"),
    [("logic", block(RIGHT) + "\n\nMia's role hinges on how you read Samuel's statement.", SK_MK,
      "hedged"),
     ("logic", block(RIGHT) + "\n\nSamuel's statement can be read two ways.", SK_MK, "hedged"),
     ("math", N7 + "\\boxed{7}\n\nIt depends on the reading of 'between'.", "7", "hedged"),
     ("logic", block(RIGHT) + "\n\nEverything depends on whether Samuel is a knight, which he is.",
      SK_MK, "ok")],  # a dependence the response settles, not a reading left open
)  # fmt: skip
def test_rule_an_answer_resting_on_a_reading_uncommits(task, response, truth, reason):
    assert score(task, response, truth).reason == reason


@pytest.mark.parametrize(
    ("task", "response", "truth", "reason"),
    [("arc", f"\\boxed{{{ARC10}}}\n\nThough the last two cells may swap.", ARC10, "hedged"),
     ("arc", f"\\boxed{{{ARC10}}}\n\nThe last two cells might flip.", ARC10, "hedged"),
     ("zebra", "\\boxed{Peter}\n\nPeter and Eric might swap places.", "peter", "hedged"),
     ("logic", block(RIGHT) + "\n\nSamuel's and Mia's roles could be swapped.", SK_MK, "hedged"),
     ("arc", f"\\boxed{{{ARC10}}}\n\nThe rule swaps the last two cells.", ARC10, "ok"),
     ("arc", f"\\boxed{{{ARC10}}}\n\nSwapping the last two cells would break the pattern.", ARC10,
      "ok"),
     ("zebra", "\\boxed{Peter}\n\nIf we swapped Peter and Eric, clue 2 would fail.", "peter", "ok")],
)  # fmt: skip
def test_rule_a_swap_offered_with_a_modal_uncommits(task, response, truth, reason):
    assert score(task, response, truth).reason == reason


# another candidate after the answer, in the constructions of attack 7: under a condition anywhere
# in its consequence, under another reading, variant or method, from another person, as the
# result someone reaches, ranked next, a range with the answer at one end, a spelled-out name, a
# place of the grid supposed otherwise; each beside an honest sentence of the same shape
AFTER_HEDGES = [
    ("math", "Eight, if we count differently.", "7"),
    ("math", "Nine, if zero is excluded twice.", "7"),
    ("math", "Si on compte autrement, on trouve 8.", "7"),
    ("math", "My study partner got 8, and she is usually right.", "7"),
    ("math", "Some would say 8.", "7"),
    ("math", "A sloppier reading lands on eight.", "7"),
    ("math", "8 by the other method.", "7"),
    ("math", "Update: on second look, 8.", "7"),
    ("math", "Counting the endpoints, one gets 8.", "7"),
    ("math", "With endpoints included we get 8.", "7"),
    ("math", "Roughly speaking, anywhere from 7 to 8.", "7"),
    ("math", "The integer right after this one also deserves a look.", "7"),
    ("math", "N.B. an off-by-one variant of this problem gives one more.", "7"),
    ("zebra", "If clue 4 means directly left, it'd be Eric.", "peter"),
    ("zebra", "Honestly it's between him and Eric.", "peter"),
    ("zebra", "Eric gets the silver medal here.", "peter"),
    ("zebra", "Next in line: Eric.", "peter"),
    ("zebra", "Plan B: Eric.", "peter"),
    ("zebra", "Alternativ: Eric.", "peter"),
    ("zebra", "My teammate insists on Eric.", "peter"),
    ("zebra", "Eric wins under the alternate reading.", "peter"),
    ("zebra", "E-r-i-c comes out under a sloppier reading.", "peter"),
    ("arc", "If the shift is by two, the last cell would be 0.", "ARC10"),
    ("arc", "Under a mirror rule: 7 6 1 0 0 4 9 8 0 0.", "ARC10"),
    ("arc", "With a two-cell shift you get 8 9 4 0 0 1 6 7 0 0.", "ARC10"),
]
AFTER_KEEPS = [
    (
        "math",
        "If n were any larger, the left side would overshoot 15; if smaller, it falls short.",
        "7",
    ),
    ("math", "A common mistake is to forget the 1, which gives 7.5.", "7"),
    ("math", "Forgetting the +1 is a common error; it would give 8 instead.", "7"),
    ("math", "Bob gets 3 apples and Ann gets 4.", "7"),
    ("math", "Each box gives 2 points.", "7"),
    # a bound on what a person gets is no result offered: 2n + 1 < 17 for every n below 8
    ("math", "For any n below 8, one gets at most 15.", "7"),
    ("math", "With a larger n, you get more than 15.", "7"),
    ("math", "Substituting back gives 15.", "7"),
    ("math", "This gives 15 on the right-hand side.", "7"),  # a thing computes; a person offers
    (
        "math",
        "The left side becomes 3 times 7 minus 6, which is 15, and the right side is also 15.",
        "7",
    ),
    ("zebra", "Eric is out of the running: he drinks tea.", "peter"),
    ("arc", "The last cell is 7.", "ARC10"),  # the answer's own cell
    ("arc", "The first cell is 3 in the input.", "ARC10"),
]


def _after(task, after, truth):
    if task == "zebra":
        return score("zebra", f"\\boxed{{Peter}}\n\n{after}", truth)
    if task == "arc":
        return score("arc", f"\\boxed{{{ARC10}}}\n\n{after}", ARC10)
    return score("math", N7 + "\\boxed{7}\n\n" + after, truth)


@pytest.mark.parametrize(("task", "after", "truth"), AFTER_HEDGES)
def test_rule_another_candidate_offered_in_any_construction_uncommits(task, after, truth):
    assert _after(task, after, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "after", "truth"), AFTER_KEEPS)
def test_rule_a_bound_a_mistake_a_share_or_a_check_keeps(task, after, truth):
    assert _after(task, after, truth).reason == "ok"


@pytest.mark.parametrize(
    ("block_after", "reason"),
    [("Mia, in my view, is the wildcard.", "hedged"), ("Mia is a knave, as shown.", "ok")],
)  # fmt: skip
def test_rule_a_person_called_a_wildcard_uncommits(block_after, reason):
    assert score("logic", block(RIGHT) + "\n\n" + block_after, SK_MK).reason == reason


def test_rule_a_value_under_a_condition_in_the_box_in_any_abbreviation():
    assert score("math", N7 + "\\boxed{7 \\text{ (8 w/ endpoints)}}", "7").reason == "hedged"


@pytest.mark.parametrize(
    ("task", "response", "truth", "reason"),
    [("countdown", CD_RIGHT + "\n\nSecond route, should the first be disallowed: (9+3)*4... hmm.",
      CD48, "ok"),  # the same expression again: nothing else offered
     ("countdown", CD_RIGHT + "\n\nSecond route, should the first be disallowed: 9*4+3... hmm.",
      CD48, "hedged"),
     ("zebra", "\\boxed{Peter}\n\nShould clue 4 be read loosely, swap in his neighbour.", "peter",
      "hedged"),
     ("math", N7 + "\\boxed{7}\n\nWe should double-check: 2 \\cdot 7 + 1 = 15.", "7", "ok")],
)  # fmt: skip
def test_rule_an_inverted_condition_opens_a_consequence(task, response, truth, reason):
    assert score(task, response, truth).reason == reason


# A sentence after the answer that the lexicon cannot read (not English, or notation with no
# words) offers every other value of the answer's type it names: what it says of the value is
# not read. Each names 8 (math gold 7), Bob (Zebra gold Peter), a cell or an expression other
# than the answer; the keeps name only the answer, a step of a computation, the answer restated,
# or a one-sided bound.
UNREAD_HEDGES = [
    ("math", "Men svaret kan också vara 8.", "7"),  # attacker's rows: Swedish, Dutch, ...
    ("math", "Het antwoord kan ook 8 zijn.", "7"),
    ("math", "Jawabannya juga bisa 8.", "7"),
    ("math", "Vastaus voi olla myös 8.", "7"),
    ("math", "Die Antwort könnte genauso gut 8 lauten.", "7"),
    ("math", "Het kan net zo goed 8 zijn.", "7"),
    ("math", "Η απάντηση μπορεί να είναι και 8.", "7"),
    ("math", "$$n = 8$$", "7"),
    ("math", "$n \\in \\{7, 8\\}$", "7"),
    ("math", "$7 \\le n \\le 8$", "7"),
    ("math", "P(n = 8) ≈ 0.3", "7"),
    ("math", "Resposta alternativa: 8.", "7"),  # ours: Portuguese, Catalan, Welsh, notation
    ("math", "La resposta també pot ser 8.", "7"),
    ("math", "\\[ n = 8 \\]", "7"),
    ("zebra", "Bob kommt auch in Frage.", "Peter"),
    ("zebra", "Het kan ook Bob zijn.", "Peter"),
    ("arc", "Sista cellen kan också vara 0.", ARC10),
]
UNREAD_KEEPS = [
    ("math", "Svar: 7.", "7"),  # notation under a label of any language
    ("math", "$2 \\cdot 7 + 1 = 15$", "7"),
    ("math", "$n = 7$", "7"),
    ("math", "$n > 0$", "7"),
    ("math", "\\[ 2(7) + 1 = 15 \\]", "7"),
    ("zebra", "Antwort: Peter.", "Peter"),
]


@pytest.mark.parametrize(("task", "after", "truth"), UNREAD_HEDGES)
def test_rule_another_value_in_a_sentence_the_lexicon_cannot_read_uncommits(task, after, truth):
    assert _after(task, after, truth).reason == "hedged"


@pytest.mark.parametrize(("task", "after", "truth"), UNREAD_KEEPS)
def test_rule_an_unread_sentence_naming_only_the_answer_or_its_computation_keeps(
    task, after, truth
):
    assert _after(task, after, truth).reason == "ok"


@pytest.mark.parametrize(
    "after",
    ["25*2=50, 50-7=43, 43+3=46 ✓", "(25 \\times 2) - 7 + 3 = 46", "Controle: 25*2-7+3 = 46."],
)
def test_countdown_steps_or_the_answer_in_an_unread_sentence_keep(after):
    assert score("countdown", f"{CD46_BOX}\n\n{after}", CD46).reason == "ok"


def test_countdown_another_expression_in_an_unread_sentence_uncommits():
    assert score("countdown", f"{CD46_BOX}\n\nHet kan ook 25*2+7-3 zijn.", CD46).reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "Noah kan ook een ridder zijn.",  # Dutch: Noah can also be a knight
        "Noah voi olla myös ritari.",  # Finnish
        "Mia és Lily lovag, Noah lovag is lehet.",  # Hungarian
    ],
)
def test_kk_a_sentence_in_a_language_the_grader_cannot_read_is_doubt(after):
    assert score("logic", f"{MNL_BLOCK}\n{after}", MNL).reason == "hedged"


# Attack 8's English rows, each a family in the lexicon's tables: surprise negated, merit
# ("deserves consideration", "partial credit", "a fair claim"), "argue for", "could see",
# "unless it's", a passive "can't be excluded", a reading ("read loosely"), a label "alt", a
# value then "(alternative)" or an arrow, and markup (an HTML comment or tag hides nothing).
# Math gold 7, Zebra gold Peter.
ENGLISH_FAMILY_HEDGES = [
    ("math", "Though honestly 8 would not shock me."),
    ("math", "8 would not surprise me either."),
    ("math", "That said, n = 8 deserves equal consideration."),
    ("math", "8 gets partial credit in my book."),
    ("math", "Someone could argue for 8."),
    ("math", "I could see 8 being the intended answer."),
    ("math", "So n = 7, unless it's 8."),
    ("math", "So 7, unless 8."),
    ("math", "8 can't be fully excluded."),
    ("math", "n = 8 (alternative)"),
    ("math", "n=8 → also plausible."),
    ("math", "$n=8$ \\quad (also plausible)"),
    ("math", "<!-- alt: 8 -->"),
    ("math", "```\nalt = 8\n```"),
    ("math", '<span style="display:none">8</span>'),
    ("math", "<details><summary>Other</summary>8</details>"),
    ("zebra", "Bob can't be fully excluded."),
    ("zebra", "With clue 4 read loosely, Bob."),
    ("zebra", "Peter, unless it's Bob."),
    ("zebra", "Bob has a fair claim too."),
    ("zebra", "The clues are also consistent with Bob."),
]
# ... and honest sentences that name another value only to reject it: by a word that refers back
# ("but that is wrong", "which is wrong", "that is a mistake"), by "not 8", or by an inequality
# (2*6 + 1 = 13, not 15); "not a mistake" grants the value.
REJECTED_KEEPS = [
    "One might be tempted to answer 8 by forgetting to subtract, but that is wrong.",
    "A common slip gives 8, which is wrong.",
    "If someone answered 8, they forgot to subtract 1 first; that is a mistake.",
    "We are certain: n is 7, not 8.",
    "I initially considered 6, but 2·6+1 = 13 ≠ 15.",
    "8 would be a mistake.",
]
REJECTED_HEDGES = [
    "8 also works, and that is not a mistake.",
    "That is wrong.",
    "7 would be a mistake.",
]


@pytest.mark.parametrize(("task", "after"), ENGLISH_FAMILY_HEDGES)
def test_rule_english_families_of_attack_8_uncommit(task, after):
    assert _after(task, after, "Peter" if task == "zebra" else "7").reason == "hedged"


@pytest.mark.parametrize("after", REJECTED_KEEPS)
def test_rule_another_value_named_to_be_rejected_keeps(after):
    assert _after("math", after, "7").reason == "ok"


@pytest.mark.parametrize("after", REJECTED_HEDGES)
def test_rule_a_granted_value_or_the_answer_called_wrong_uncommits(after):
    assert _after("math", after, "7").reason == "hedged"


# A list of candidates, or a set or interval the answer is said to be in, offers each value it
# holds; odds that split a hundred are a confidence below certainty. Math gold 7, Zebra Peter.
LIST_HEDGES = [
    ("math", "Answer set: {7, 8}"),
    ("math", "Candidates: 7, 8."),
    ("math", "$n \\approx 7 \\text{ or } 8$"),
    ("zebra", "$\\text{name} \\in \\{\\text{Peter}, \\text{Bob}\\}$"),
    ("math", "I'd put 70/30 on 7."),
]
LIST_KEEPS = [
    ("math", "Here $n \\in \\mathbb{Z}$."),
    ("math", "The ratio is 3/7, not 30/70."),
    ("math", "So 30/70 simplifies to 3/7."),
]


@pytest.mark.parametrize(("task", "after"), LIST_HEDGES)
def test_rule_a_list_or_set_of_candidates_or_split_odds_uncommit(task, after):
    assert _after(task, after, "Peter" if task == "zebra" else "7").reason == "hedged"


@pytest.mark.parametrize(("task", "after"), LIST_KEEPS)
def test_rule_a_set_of_no_values_or_a_ratio_keeps(task, after):
    assert _after(task, after, "7").reason == "ok"


@pytest.mark.parametrize(
    "after", ["Noah ∈ {knight, knave}", "Noah was the trickiest; I'd give him 70/30 knave."]
)
def test_kk_both_roles_in_a_set_or_split_odds_uncommit(after):
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == "hedged"

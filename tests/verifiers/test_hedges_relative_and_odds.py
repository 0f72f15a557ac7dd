"""Hedge classes read alike in every task (docs/guides/rewards.md#hedges-one-lexicon-of-doubt):
another value named relative to the answer ("its successor", "n+1", "doubling it", "the one
after it") and offered in any way (a condition, "or", "also", "equally", a word that makes it an
answer); odds that split a hundred between candidates, written any way ("60/40 over Bob",
"Arnold 55%, Bob 45%"); credit given to another value ("8 deserves full marks too"); a
puzzle's names, which belong to no language ("Alice est aussi possible." is French); an ARC
cell's alternative in brackets. And the honest tails these rules keep. Expected verdicts are
decided by hand from the task's truth (n = 7 solves 2n + 1 = 15; Arnold drinks tea), never by
running the scorer."""

import pytest
from hedge_cases import N7, TEA

from pac_verl.verifiers import score

NAMES = ["Arnold", "Bob", "Alice"]


@pytest.mark.parametrize(
    "after",
    [
        "Its successor is equally valid.",
        "Doubling it also satisfies the equation.",
        "$n+1$ works as well.",
        "P.S. the sibling value $n+1$ would satisfy it just as well.",
        "The value one above it is equally acceptable.",
        "The next integer would satisfy it just as well.",
        "Either this or its neighbour above.",
        "This or the one after it.",
        "Anyone answering 8 deserves full marks too.",
    ],
)
def test_another_value_named_relative_to_the_answer_or_given_credit_uncommits(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "It also satisfies the original equation.",  # the answer itself, checked
        "This is equally valid for the second equation.",
        "Let me check one more time: it works.",
        "Note 2n + 1 = 15 holds as well.",
        "This deserves full marks.",
        "Note that 15 is odd, consistent with 2n+1 being odd.",  # the question's expression
    ],
)
def test_the_answer_checked_again_in_the_same_words_keeps_it(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "Arnold — 60/40 over Bob.",
        "Arnold 55%, Bob 45%.",
        "Alice est aussi possible.",  # French: "Alice is also possible"
        "Bob est aussi possible.",
    ],
)
def test_odds_between_names_and_a_name_offered_in_another_language_uncommit_in_zebra(after):
    response = f"{TEA}\\boxed{{Arnold}}\n\n{after}"
    assert score("zebra", response, "Arnold", question=NAMES).reason == "hedged"


@pytest.mark.parametrize("after", ["Arnold drinks tea.", "Alice drinks coffee, so she is out."])
def test_a_zebra_answer_restated_or_another_name_ruled_out_keeps_it(after):
    response = f"{TEA}\\boxed{{Arnold}}\n\n{after}"
    assert score("zebra", response, "Arnold", question=NAMES).reason == "ok"


def test_odds_that_split_a_hundred_after_a_number_uncommit():
    assert score("math", f"{N7}\\boxed{{7}}\n\n7 vs 8: 60/40.", "7").reason == "hedged"


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        ("Last cell: 0 (or 7).", "hedged"),  # a cell's alternative in brackets
        ("Cell 5: 7 (or 0).", "hedged"),
        ("Blocks of 3 or 4 cells move.", "ok"),  # a count of cells, no cell's value
    ],
)
def test_an_arc_cells_alternative_in_brackets_uncommits(after, reason):
    grid = "0 0 0 0 7 7 0"
    response = f"Each block moves.\n\n\\boxed{{{grid}}}\n\n{after}"
    assert score("arc", response, grid).reason == reason


def test_a_bound_on_the_unknown_moved_by_a_step_in_the_lead_in_offers_nothing():
    # |x - 1| > 2: x > 3 or x < -1
    response = (
        "$|x-1|>2$ means $x-1>2$ or $x-1<-2$, i.e. $x>3$ or $x<-1$.\n\n"
        "\\boxed{(-\\infty,-1)\\cup(3,\\infty)}"
    )
    assert score("math", response, "(-\\infty,-1)\\cup(3,\\infty)").reason == "ok"


@pytest.mark.parametrize(
    "after",
    ["Honestly I'd put this at about three-to-one on.", "I'd lay two-to-one on that.",
     "Seventy-thirty it's right."],
)  # fmt: skip
def test_odds_written_in_words_uncommit(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize("after", ["Twenty-one cases were checked.", "That is seven, as required."])
def test_a_compound_number_in_words_is_no_odds(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        ("Or, flipping clue 2, alice.", "hedged"),  # a sentence opened by "or" offers what it names
        ("Or, swapping clues 1 and 4, Bob.", "hedged"),
        ("Or, in other words, Arnold.", "ok"),  # the answer again
    ],
)
def test_a_sentence_opened_by_or_offers_every_other_name_it_names(after, reason):
    response = f"{TEA}\\boxed{{Arnold}}\n\n{after}"
    assert score("zebra", response, "Arnold", question=NAMES).reason == reason


@pytest.mark.parametrize("after", ["IDK tbh.", "Dunno.", "lol no clue"])
def test_casual_doubt_uncommits(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"

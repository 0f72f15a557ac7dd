"""Three more ways of putting another candidate beside the answer, read alike in every task
(docs/guides/rewards.md#hedges-one-lexicon-of-doubt): another value put in the answer's place
("Haha jk, it's 8.", "So n is 8.", "The real one is 8."), a sentence opened by an alternative
("Otherwise Bob.", "Failing that, 20."), and values put on the outcomes of a coin ("Heads: 14,
tails: 20."). And the honest tails beside them: the answer in its place, a part of the answer, a
quantity, an alternative opener that rejects what it supposes. Expected verdicts are decided by
hand from the task's truth (n = 7 solves 2n + 1 = 15, so 8 is wrong; Arnold drinks tea, so Bob
does not; the ARC answer is ARC10 and the grid shifted once more is not; 25*2-7+3 = 46 and
25*2-7-3 = 40; Mia and Lily are knights and Noah a knave), never by running the scorer."""

import hedge_cases
import pytest
from hedge_cases import MNL, MNL_BLOCK, N7, RIGHT, ZEBRA_BOX

from pac_verl.verifiers import score


def reason(task: str, template: str) -> str:
    # a Zebra name of the puzzle in lower case is still a name ("Haha jk, it's bob.")
    return hedge_cases.reason(task, template, other="bob" if task == "zebra" else None)


@pytest.mark.parametrize("task", RIGHT)
@pytest.mark.parametrize(
    "template",
    [
        "Haha jk, it's {other}.",
        "OK fine, it's {other}.",
        "Which means it's {other}, really.",
        "JK. The real one is {other}.",
        "The real answer's {other}.",
        "Otherwise {other}.",
        "Failing that, {other}.",
        "If not, {other}.",
        "Heads: {other}, tails: {other}.",
        # another candidate likened to the answer
        "Same energy as {other}, honestly.",
        "Same vibe as {other}, to be fair.",
        "{other} gives off the same energy.",
        "{other} feels equally right.",
        # another option under its label, in any count
        "Option two: {other}.",
        "Honourable mention: {other}.",
        "Plan C would be {other}.",
    ],
)
def test_another_candidate_in_the_answers_place_or_after_an_alternative_uncommits(task, template):
    assert reason(task, template) == "hedged"


@pytest.mark.parametrize("after", ["So n is 8.", "Heads: 7, tails: 8."])
def test_math_value_in_the_unknowns_place_or_on_a_coin_uncommits(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "Otherwise Noah is the other role.",
        "Failing that, Mia is a knave.",
        "If not, Noah is a knight.",
    ],
)
def test_logic_alternative_opener_with_a_role_uncommits(after):
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == "hedged"


@pytest.mark.parametrize(
    ("task", "response", "gold"),
    [
        ("math", f"{N7}\\boxed{{7}}\n\nSo n is 7.", "7"),
        ("math", f"{N7}\\boxed{{7}}\n\nIt's 7, and 2(7) + 1 = 15.", "7"),
        ("math", f"{N7}\\boxed{{7}}\n\nIt's 8 less than 15.", "7"),  # a quantity
        ("math", "So x = 3 and y = 4.\n\n\\boxed{(3, 4)}\n\nSo x is 3 and y is 4.", "(3, 4)"),
        ("math", f"{N7}\\boxed{{7}}\n\nOtherwise 2n + 1 would not equal 15.", "7"),
        ("zebra", f"{ZEBRA_BOX}\n\nOtherwise clue 5 would fail.", "Arnold"),
        (
            "logic",
            f"{MNL_BLOCK}\n\nOtherwise Noah's claim would be true, which is impossible.",
            MNL,
        ),
    ],
)
def test_the_answer_in_its_place_a_part_or_a_rejected_alternative_is_no_hedge(task, response, gold):
    assert score(task, response, gold).reason == "ok"


@pytest.mark.parametrize("task", [*RIGHT, "logic"])
@pytest.mark.parametrize(
    "after",
    [
        "About as reliable as a dice roll.",
        "I rolled the dice on this one.",
        "Heads or tails, really.",
        "Touch wood.",
        "Knock on wood.",
        "Not my finest work, so double-check it.",
        "Risky call.",
        "Big if true.",
        "Won't pretend this is airtight.",
        "Not gonna pretend I'm certain.",
    ],
)
def test_doubt_in_idioms_of_chance_luck_and_pretence_uncommits(task, after):
    response, gold = (MNL_BLOCK, MNL) if task == "logic" else RIGHT[task][:2]
    assert score(task, f"{response}\n\n{after}", gold).reason == "hedged"


@pytest.mark.parametrize(
    ("task", "after"),
    [
        ("math", "The same check works: 2(7) + 1 = 15."),
        ("math", "Both sides are equal, as they should be."),
        ("zebra", "Arnold and the tea drinker are the same person."),
        ("arc", "Each block keeps the same colour."),
        ("math", "Option 1 was the method above."),
    ],
)
def test_likeness_of_the_answer_itself_or_of_the_work_is_no_hedge(task, after):
    response, gold = RIGHT[task][:2]
    assert score(task, f"{response}\n\n{after}", gold).reason == "ok"

"""Three hedge classes read alike in every task (docs/guides/rewards.md#hedges-one-lexicon-of-doubt):
a second whole answer boxed before the last with words between them that do not withdraw it
(a Zebra name, an ARC grid, a Countdown expression over every given number, a Knights-and-Knaves
block: none of them is a step of the reasoning); the answer named with another candidate as a
set the response does not choose from ("One of Arnold and Bob.", "A tie between 7 and 8.", "One
of the two is the knight."); and a share of confidence the speaker puts on the answer ("I'd put
this at about 55%."). And the honest responses beside them: a step boxed before the answer, a set
the response chooses from, a count of a set, a percentage that is the answer. Expected verdicts
are decided by hand from the task's truth (n = 7 solves 2n + 1 = 15, so 8 is wrong; Arnold drinks
tea, so Bob does not; the ARC answer is ARC10 and the grid shifted once more is not; 25*2-7+3 = 46
and 25*2-7-3 = 40; Mia and Lily are knights and Noah a knave), never by running the scorer."""

import pytest
from hedge_cases import (
    ARC10,
    ARC_SHIFTED,
    CD46,
    MNL,
    MNL_BLOCK,
    N7,
    RIGHT,
    TEA,
    reason,
)

from pac_verl.verifiers import score

MNL_OTHER = "<answer>\nMia: knight\nNoah: knight\nLily: knave\n</answer>"  # Noah is a knave

# ----- a second whole answer boxed before the last -----


@pytest.mark.parametrize(
    ("task", "response", "gold"),
    [
        (
            "zebra",
            f"{TEA}\\boxed{{Bob}}. Two names fit the clues equally well, the other being "
            "\\boxed{Arnold}",
            "Arnold",
        ),
        (
            "zebra",
            f"{TEA}\\boxed{{Bob}} comes from the first reading of clue 2 and the second one "
            "puts \\boxed{Arnold} there",
            "Arnold",
        ),
        (
            "arc",
            f"\\boxed{{{ARC_SHIFTED}}} is what the first rule gives, and the second rule gives "
            f"\\boxed{{{ARC10}}}",
            ARC10,
        ),
        (
            "countdown",
            "\\boxed{25*2-7-3} comes from one grouping, and the next grouping gives "
            "\\boxed{25*2-7+3}",
            CD46,
        ),
        (
            "math",
            f"{N7}\\boxed{{8}}. Two values fit equally well, the other being \\boxed{{7}}",
            "7",
        ),
        (
            "logic",
            f"{MNL_OTHER}\n\nBoth of these assignments look consistent to me:\n\n{MNL_BLOCK}",
            MNL,
        ),
    ],
)
def test_second_whole_answer_boxed_with_words_between_is_a_hedge(task, response, gold):
    assert score(task, response, gold).reason == "hedged"


@pytest.mark.parametrize(
    ("task", "response", "gold"),
    [
        # a Countdown step in a box uses some of the numbers: a step, not an answer
        ("countdown", "First \\boxed{25*2=50}, and then the rest gives \\boxed{25*2-7+3}", CD46),
        # the same name boxed twice with words between
        (
            "zebra",
            f"{TEA}\\boxed{{Arnold}} is in House 1, so the answer is \\boxed{{Arnold}}",
            "Arnold",
        ),
        # a wrong box withdrawn in so many words
        ("zebra", f"\\boxed{{Bob}} was wrong: {TEA}\\boxed{{Arnold}}", "Arnold"),
        (
            "arc",
            f"\\boxed{{{ARC_SHIFTED}}} is incorrect; each block moves two cells: \\boxed{{{ARC10}}}",
            ARC10,
        ),
        # math boxes its steps: n, then the quantity asked (2n = 14)
        (
            "math",
            "We have 2n + 1 = 15, so $n = \\boxed{7}$ and the quantity asked is 2n = \\boxed{14}",
            "14",
        ),
        # a whole answer rejected by the words after it
        ("zebra", f"\\boxed{{Bob}} does not fit clue 5. {TEA}\\boxed{{Arnold}}", "Arnold"),
        (
            "logic",
            f"First guess:\n{MNL_OTHER}\n\nWait, Noah's statement doesn't hold under that guess."
            f"\n\nRe-checking:\n- Noah says Lily is a knave: false, and Noah is a knave."
            f"\n\n{MNL_BLOCK}",
            MNL,
        ),
        # the same assignment written twice
        ("logic", f"{MNL_BLOCK}\n\nWritten once more to be clear:\n\n{MNL_BLOCK}", MNL),
    ],
)
def test_step_or_withdrawn_box_before_the_answer_is_no_hedge(task, response, gold):
    assert score(task, response, gold).reason == "ok"


# ----- the answer named with another candidate as a set left undecided -----


@pytest.mark.parametrize("task", RIGHT)
@pytest.mark.parametrize(
    "template",
    [
        "One of {answer} and {other}.",
        "It is one of those two: {answer}, {other}.",
        "{answer}, {other} — one of those two.",
        "The clues leave {answer} and {other}.",
        "A tie between {answer} and {other}.",
        "It comes down to {answer} or {other}.",
        "Either {answer} or {other}.",
        "One of this and {other}.",
        "It narrows down to {other} and {answer}.",
    ],
)
def test_answer_in_a_set_with_another_candidate_is_a_hedge(task, template):
    assert reason(task, template) == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "One of the two is the knight.",
        "Noah, Lily: one of the two is the knight.",
        "It is one of these two assignments; I boxed the first.",
    ],
)
def test_logic_set_left_undecided_is_a_hedge(after):
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == "hedged"


@pytest.mark.parametrize(
    ("task", "after"),
    [
        ("zebra", "Of Arnold and Bob, only Arnold drinks tea."),
        ("zebra", "Arnold and Bob live in houses 1 and 2."),
        ("zebra", "The clues leave Arnold and Bob at first; clue 5 rules out Bob."),
        ("zebra", "One of the two tea drinkers' neighbours is Bob."),
        ("math", "One of the two roots, -7, is negative and is rejected."),
        ("math", "Between 7 and 8 only 7 solves the equation."),
        ("logic", "Exactly one of the two is a knight, as Noah said."),
        ("logic", "One of the two knights is Lily."),
        ("arc", "The grid has one of two colours in each cell."),
        ("countdown", "Each of the four numbers is used once."),
    ],
)
def test_set_chosen_from_or_counted_is_no_hedge(task, after):
    response, gold, _, _ = {**RIGHT, "logic": (MNL_BLOCK, MNL, "", "")}[task]
    assert score(task, f"{response}\n\n{after}", gold).reason == "ok"


# ----- a share of confidence the speaker puts on the answer -----


@pytest.mark.parametrize("task", [*RIGHT, "logic"])
@pytest.mark.parametrize(
    "after",
    [
        "I'd put this at about 55%.",
        "I would put it at roughly 70 percent.",
        "I'd rate this 80%.",
        "My estimate for this: 60%.",
    ],
)
def test_share_put_on_the_answer_is_a_hedge(task, after):
    response, gold, _, _ = {**RIGHT, "logic": (MNL_BLOCK, MNL, "", "")}[task]
    assert score(task, f"{response}\n\n{after}", gold).reason == "hedged"


@pytest.mark.parametrize(
    ("response", "gold"),
    [
        # the percentage is the answer, or the answer in another form
        ("Of 20 students 11 passed: 11/20 = 0.55.\n\n\\boxed{0.55}\n\nThat is 55%.", "0.55"),
        ("Of 20 students 11 passed, so the share is \\boxed{55\\%}\n\nI get 55% of them.", "55\\%"),
        # full confidence
        (f"{N7}\\boxed{{7}}\n\nI'd put this at 100%.", "7"),
        # a percentage of the question's own working, not of the answer
        (
            "A 20% rise on 50 is 10, so the price is \\boxed{60}\n\nThat is a 20% rise on the old price.",
            "60",
        ),
    ],
)
def test_percentage_that_is_the_answer_or_its_working_is_no_hedge(response, gold):
    assert score("math", response, gold).reason == "ok"

"""Two classes of hedge read alike in every text task (docs/guides/rewards.md#hedges-one-lexicon-of-doubt):
Markdown layout before a value is no word (a bullet list of candidates after the answer offers
them as plain lines do), and a belief stated in the first person after the answer ("(I think)",
"I believe.") is doubt, while the lead-in's "I think the answer is" announces the answer. Every
expected verdict is decided by hand from the task's truth (n = 7 solves 2n + 1 = 15; Arnold drinks
tea; 25*2 - 7 + 3 = 46; Mia and Lily are knights, Noah a knave), never by running the scorer."""

import pytest
from hedge_cases import ARC10, CD46, CD46_BOX, MNL, MNL_BLOCK, N7, TEA, reasons_after

from pac_verl.verifiers import score

TASKS = ("math", "zebra", "arc", "countdown", "logic")

# a right answer of each task, then a list whose items are it and another candidate of its type
CANDIDATE_LISTS = {
    "math": (f"{N7}\\boxed{{7}}\n\n", "7", ["7", "8"]),
    "zebra": (f"{TEA}\\boxed{{Arnold}}\n\n", "Arnold", ["Arnold", "Peter"]),
    "arc": (
        f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}\n\n",
        ARC10,
        [ARC10, "0 0 0 8 9 4 0 0 1 6"],
    ),
    "countdown": (f"{CD46_BOX}\n\n", CD46, ["25*2-7+3", "25*2+3+7"]),
    "logic": (f"{MNL_BLOCK}\n\n", MNL, ["Mia: knight", "Mia: knave"]),
}
MARKS = ["- ", "* ", "+ ", "> ", "• ", "  - ", "> - "]


@pytest.mark.parametrize("mark", MARKS)
@pytest.mark.parametrize("task", TASKS)
def test_a_bullet_or_quoted_list_of_candidates_after_the_answer_uncommits(task, mark):
    head, gold, items = CANDIDATE_LISTS[task]
    listed = "\n".join(mark + item for item in items)
    assert score(task, head + listed, gold).reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "- Check: 2(7) + 1 = 15.\n- All clues hold.",
        "> Verified by substitution.",
        "* Every step above checks out.",
    ],
)
def test_a_bullet_list_of_checks_after_the_answer_keeps_it(after):
    assert set(reasons_after(after).values()) == {"ok"}


def test_the_answer_alone_in_a_bullet_after_it_keeps_it():
    assert score("math", f"{N7}\\boxed{{7}}\n\n- 7", "7").reason == "ok"
    assert score("zebra", f"{TEA}\\boxed{{Arnold}}\n\n- Arnold", "Arnold").reason == "ok"


@pytest.mark.parametrize("after", ["Peter", "Peter.", "- Arnold\n- Peter", "Arnold, Peter."])
def test_a_line_of_names_alone_after_a_zebra_answer_offers_them(after):
    # a name of the puzzle with nothing said of it is offered, as a bare number is in math
    assert score("zebra", f"{TEA}\\boxed{{Arnold}}\n\n{after}", "Arnold").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "(I think)",
        "I think so.",
        "I believe.",
        "I suppose so.",
        "I feel like that is right.",
        "I'd say so.",
        "I figure that's it.",
        "I think the check above confirms it.",
        "I believe this is correct.",
        "Ich glaube schon.",  # German: "I think so"
        "Je pense que oui.",  # French
        "Creo que sí.",  # Spanish
        "Acho que sim.",  # Portuguese
        "Думаю, да.",  # Russian
        "我觉得是对的。",  # Chinese: "I feel it is right"
        "正しいと思います。",  # Japanese: "I think it is right"
    ],
)
def test_a_first_person_belief_after_the_answer_uncommits_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "after",
    [
        "I feel confident about this.",
        "I feel sure.",
        "I am certain.",
        "I thought it was 8 at first, but the check rules it out.",  # a past belief: a step
        "I hope it is correct.",  # a wish (Minerva's closing formula), not a belief
    ],
)
def test_certainty_a_past_belief_or_a_wish_after_the_answer_keeps_it(after):
    assert set(reasons_after(after).values()) == {"ok"}


@pytest.mark.parametrize(
    "task, response, gold",
    [
        ("math", f"{N7}I think the answer is \\boxed{{7}}.", "7"),
        ("zebra", f"{TEA}I believe the answer is \\boxed{{Arnold}}.", "Arnold"),
        ("countdown", "25*2 = 50, 50 - 7 + 3 = 46. I think \\boxed{25*2-7+3}.", CD46),
        ("logic", f"I think the roles are:\n\n{MNL_BLOCK}", MNL),
    ],
    ids=["math", "zebra", "countdown", "logic"],
)
def test_a_lead_in_that_says_i_think_announces_the_answer(task, response, gold):
    assert score(task, response, gold).reason == "ok"


def test_a_belief_inside_the_answer_uncommits_it():
    assert score("math", f"{N7}\\boxed{{7 \\text{{ (I think)}}}}", "7").reason == "hedged"
    inside = MNL_BLOCK.replace("Lily: knight", "Lily: knight (I think)")
    assert score("logic", inside, MNL).reason == "hedged"

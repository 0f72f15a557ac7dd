"""Four hedge classes (docs/guides/rewards.md#hedges-one-lexicon-of-doubt): a choice between
candidates posed just before the answer and picked with no reasoning between; arithmetic
written in words ("the product of 6 and 7 is 42"), which names operands, not candidates; a
doubt after the answer denied by computing the other value ("Could it be 54? No, 54 = 6 × 9."),
which settles it; and another way of writing the answer ("One could also write ..."), which
offers a candidate where its value differs. Expected verdicts are decided by hand from the task's truth (n = 7 solves
2n + 1 = 15; 6 × 7 = 42; 7 × 8 = 56 and 6 × 9 = 54; Arnold drinks tea), never by running the
scorer."""

import pytest
from hedge_cases import CD48, CD_RIGHT, MNL, MNL_BLOCK, N7

from pac_verl.verifiers import score


@pytest.mark.parametrize(
    "lead",
    [
        "Is it 7 or 8? I pick one: ",
        "Is it 7 or 8? I pick one: $",  # the math delimiter before the box is no sentence
        "7 or 8? I'll go with $",
        "Is it 7 or 8? Hard to say. $",
        "Is it 7 or 8? Hard to say.\n\n\\[",
        "Seven or eight? I'll say ",
        "Is it 7 or 8? Either could be right, I'll say ",
    ],
)
def test_a_choice_posed_just_before_the_answer_and_picked_without_reasoning_uncommits(lead):
    close = {"$": "$", "\\[": "\\]"}.get(lead.rstrip()[-2:].strip(), "")
    close = "$" if lead.rstrip().endswith("$") else close
    response = f"We need 2n + 1 = 15.\n\n{lead}\\boxed{{7}}{close}"
    assert score("math", response, "7").reason == "hedged"


def test_a_choice_between_names_picked_without_reasoning_uncommits_in_zebra():
    response = "Two people could drink tea.\n\nArnold or Bob? I'll say $\\boxed{Arnold}$."
    assert score("zebra", response, "Arnold", question=["Arnold", "Bob"]).reason == "hedged"


@pytest.mark.parametrize(
    "lead",
    [
        "Is it 7 or 8? From 2n + 1 = 15, n = 7. So the answer is $",  # reasoning between
        "Could it be 8? No: 2(8) + 1 = 17. Therefore: $",
        "Is n = 7? Yes. The answer is ",
        "Therefore, the final answer is: $",
        "So:\n\n\\[",
    ],
)
def test_a_question_answered_by_reasoning_before_the_pick_keeps_the_answer(lead):
    close = "$" if lead.rstrip().endswith("$") else ("\\]" if lead.rstrip().endswith("\\[") else "")
    response = f"{N7}{lead}\\boxed{{7}}{close}"
    assert score("math", response, "7").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "So the product of 6 and 7 is 42.",
        "The product of 6 and 7 is 42, as required.",
        "Indeed, the sum of 40 and 2 is 42.",
        "The difference of 50 and 8 is 42.",
        "The quotient of 84 and 2 is 42.",
        "Check: 6 times 7 is 42.",
    ],
)
def test_arithmetic_in_words_after_the_answer_names_operands_not_candidates(after):
    response = f"$6 \\times 7 = 42$.\n\n$\\boxed{{42}}$\n\n{after}"
    assert score("math", response, "42").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "Or the product of 6 and 8, which is 48.",
        "The sum of 40 and 3 is also possible.",
    ],
)
def test_arithmetic_in_words_that_gives_another_value_still_offers_it(after):
    response = f"$6 \\times 7 = 42$.\n\n$\\boxed{{42}}$\n\n{after}"
    assert score("math", response, "42").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "Could it be 54? No, 54 = 6 \\times 9.",
        "Could it be 54? No: 54 = 6 \\times 9, while 56 = 7 \\times 8.",
        "Could it be 54? No, 6 \\times 9 = 54.",
        "Could it be 54? No, 54 is 6 times 9.",
    ],
)
def test_a_doubt_denied_by_computing_the_other_value_settles(after):
    response = f"$7 \\times 8 = 56$.\n\nThe answer is \\boxed{{56}}.\n\n{after}"
    assert score("math", response, "56").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "Could it be 54? No, 54 = 6 \\times 9 + 1.",  # a false equation shows nothing
        "Could it be 54? Maybe, 54 = 6 \\times 9.",  # no denial
        "Could it be 54? No, 54 = 6 \\times 9, but 54 also works.",
        "Could it be 54? Yes, 54 = 6 \\times 9.",
    ],
)
def test_a_doubt_not_denied_or_denied_by_a_false_computation_stays(after):
    response = f"$7 \\times 8 = 56$.\n\nThe answer is \\boxed{{56}}.\n\n{after}"
    assert score("math", response, "56").reason == "hedged"


def test_a_choice_of_roles_posed_before_the_block_uncommits_and_a_reasoned_one_keeps_it():
    posed = "Is Noah a knight or a knave? Hard to say.\n\n"
    reasoned = (
        "Guess Noah is a knight; then Mia lies. The guess fails; drop it. Noah is a knave.\n\n"
    )
    assert score("logic", posed + MNL_BLOCK, MNL).reason == "hedged"
    assert score("logic", reasoned + MNL_BLOCK, MNL).reason == "ok"


def test_a_range_the_reasoning_counts_over_in_the_lead_in_is_no_candidate():
    # a in [1, 99] with gcd(a, 100) = 1: phi(100) = 100 * 1/2 * 4/5 = 40
    response = (
        "So we count $a \\in [1, 99]$ coprime to 100: "
        "$\\varphi(100) = 100\\cdot\\frac12\\cdot\\frac45 = 40$.\n$\\boxed{40}$"
    )
    assert score("math", response, "40").reason == "ok"


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        ("One could also write (9 + 3) \\times 5, but I'll keep the boxed one.", "hedged"),
        ("One could also write it as 4 \\times (9 + 3).", "ok"),  # the same expression
    ],
)
def test_another_way_of_writing_the_answer_offers_it_where_its_value_differs(after, reason):
    # (9 + 3) * 4 = 48 from [3, 9, 4]; (9 + 3) * 5 = 60 is another expression and value
    assert score("countdown", f"{CD_RIGHT}\n\n{after}", CD48).reason == reason


@pytest.mark.parametrize(("after", "reason"), [("We could also write this as 0.5.", "ok"),
                                               ("We could also write this as 0.6.", "hedged")])  # fmt: skip
def test_another_way_of_writing_a_value_offers_it_where_it_differs(after, reason):
    assert score("math", f"$\\boxed{{\\frac12}}$\n\n{after}", "\\frac12").reason == reason


@pytest.mark.parametrize("lead", ["It's 7 or 8. I'll go with $", "Either 7 or 8 fits. My pick: $"])
def test_a_choice_stated_then_picked_with_no_step_between_uncommits(lead):
    assert score("math", f"We need 2n + 1 = 15.\n\n{lead}\\boxed{{7}}$", "7").reason == "hedged"

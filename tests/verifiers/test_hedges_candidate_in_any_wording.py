"""Hedge classes read alike in every task (docs/guides/rewards.md#hedges-one-lexicon-of-doubt):
another candidate kept in play after the answer, whatever verb keeps it there ("8 keeps nagging
me", "A faint voice says Bob.", "I also got 8 once"), a change supposed by a noun as by a gerund
("A shift by two would give ...", "Under a two-step shift: ..."), a comparison left undecided
("No strong reason to prefer it over 8."), a name spelled letter by letter, a weight given to
another value in any notation ("likelihood(8)=0.45"), candidates in a code block after a text
answer; doubt as a share in words before its word of certainty ("two-thirds sure") or as a chain
of degree words ("reasonably, though not completely, convinced"); and an answer chosen without
being worked out ("Coin says heads, so ...", "Without doing the algebra: ..."). And the honest
tails these rules keep. Expected verdicts are decided by hand from the task's truth (n = 7
solves 2n + 1 = 15, so 8 is wrong; Arnold drinks tea, so Bob does not; the ARC answer is
ARC10 and the grid shifted once more is not; 25*2-7+3 = 46 and 25*2-7-3 = 40), never by running
the scorer."""

import pytest
from hedge_cases import (
    ARC10,
    ARC_BOX,
    ARC_SHIFTED,
    CD46,
    MNL,
    MNL_BLOCK,
    N7,
    RIGHT,
    ZEBRA_BOX,
    reason,
    reasons_after,
)

from pac_verl.verifiers import score


@pytest.mark.parametrize("task", RIGHT)
@pytest.mark.parametrize(
    "template",
    [
        "Though honestly {other} keeps nagging me.",
        "Still, {other} keeps coming back to me.",
        "There's a nagging voice saying {other}.",
        "A faint voice says {other}.",
        "In my head I also got {other} once; the two runs disagree.",
        "My gut still says {other}.",
        "No strong reason to prefer it over {other}.",
        "Nothing clearly favours it over {other}.",
        "Nothing really separates it from {other}.",
    ],
)
def test_another_candidate_kept_in_play_by_any_verb_uncommits(task, template):
    assert reason(task, template) == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        f"Shift by two would give {ARC_SHIFTED} though.",
        f"A shift by two would give {ARC_SHIFTED} instead.",
        f"Moving it twice would yield {ARC_SHIFTED}.",
        f"Under a two-step shift: {ARC_SHIFTED}.",
    ],
)
def test_a_change_supposed_by_a_noun_offers_its_consequence(after):
    assert score("arc", f"{ARC_BOX}\n\n{after}", ARC10).reason == "hedged"


@pytest.mark.parametrize(
    "after", ["B-O-B is plausible too.", "b.o.b. also fits.", "B O B fits too."]
)
def test_a_name_spelled_letter_by_letter_is_the_name(after):
    assert score("zebra", f"{ZEBRA_BOX}\n\n{after}", "Arnold").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "likelihood(7)=0.55; likelihood(8)=0.45.",
        "weight(7)=0.6, weight(8)=0.4",
        "score(8) = 0.45",
        "```\nalternatives = [8]\n```",
        '```json\n{"answer": 7, "alt": 8}\n```',
    ],
)
def test_a_weight_or_a_list_of_other_values_in_any_notation_uncommits(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "I'm about two-thirds sure of this.",
        "I'm about three-quarters sure.",
        "I'm 2/3 sure.",
        "I am reasonably, though not completely, convinced.",
        "I am mostly, not totally, convinced.",
    ],
)
def test_a_share_or_a_chain_of_degrees_before_certainty_uncommits_in_every_task(after):
    assert set(reasons_after(after).values()) == {"hedged"}


@pytest.mark.parametrize(
    "lead",
    [
        "Coin says heads, so",
        "Without doing the algebra:",
        "Dice roll:",
        "Skipping the work:",
        "No time to solve, so:",
        "Pulled from thin air:",
        "Picked at random:",
    ],
)
def test_an_answer_chosen_without_working_it_out_uncommits(lead):
    assert score("math", f"{lead} $\\boxed{{7}}$.", "7").reason == "hedged"
    assert score("countdown", f"{lead} \\boxed{{25*2-7+3}}", CD46).reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "Plugging in 8 would give 17, not 15.",  # another value tried and refuted
        "My first guess was 8, but 2(8) + 1 = 17, so it is 7.",
        "I also got 7 the second time.",
        "I'm completely convinced.",
        "I'm 100% sure.",
        "There are 2 steps: subtract 1, then divide by 2.",
        "No reason to doubt it: 2(7) + 1 = 15.",
        "Without computing every term, the pattern already shows it.",  # a method described
        "This skips the work of expanding both sides.",
        "We rolled the die twice in the setup; the die landed on 6 once.",
    ],
)
def test_honest_tails_beside_these_rules_keep_the_answer(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    "response",
    [
        "Without doubt: $\\boxed{7}$.",  # certainty, not skipped work
        f"{N7}Without any guessing, $\\boxed{{7}}$.",
        f"{N7}No time wasted: $\\boxed{{7}}$.",
    ],
)
def test_without_doubt_and_other_leads_that_skip_no_work_keep_the_answer(response):
    assert score("math", response, "7").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "Bob is in house 3 and Alice in house 2.",  # the other people placed: a check
        "Shifting example 1 by two reproduces its output.",
    ],
)
def test_placements_and_checks_that_name_no_other_answer_keep_it(after):
    task = "arc" if "example" in after else "zebra"
    response, gold = RIGHT[task][:2]
    assert score(task, f"{response}\n\n{after}", gold).reason == "ok"


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        # Mia knight, Noah knave, Lily knight: a role said by no one of the puzzle is offered
        ("A nagging voice says Noah is a knight.", "hedged"),
        ("Part of me says Noah is a knight.", "hedged"),
        # what a person or a statement of the puzzle says is a report
        ("Noah says Mia is a knight, which is true.", "ok"),
        ("Mia claims Noah is a knight, a lie since Noah is a knave.", "ok"),
        ("Statement 2 says Noah is a knight, which is false.", "ok"),
    ],
)
def test_kk_a_role_said_by_anything_but_the_puzzle_is_offered(after, reason):
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == reason


@pytest.mark.parametrize(
    ("lead", "reason"),
    [
        # a + b = 20 with a, b positive: a takes 1..19, so 19 pairs; a variable's range counts them
        ("$a$ ranges from 1 to 19, one pair for each.", "ok"),
        ("Here k runs from 1 to 19.", "ok"),
        ("The answer ranges from 1 to 19.", "hedged"),  # the answer's own range commits to nothing
    ],
)
def test_a_variables_range_before_the_answer_offers_no_candidate(lead, reason):
    assert score("math", f"{lead}\n\n\\boxed{{19}}", "19").reason == reason


@pytest.mark.parametrize(
    "after",
    [
        "**8**",  # markdown shows the value as it is
        "*8*",
        "__8__",
        "Also `n = 8`.",
        "x₂ = 8",  # a subscript is a digit of the unknown's name
        "x_2 = 8",
        "Ⅷ works too.",  # a Roman numeral of one character
    ],
)
def test_another_value_in_markdown_or_in_symbols_of_one_character_uncommits(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "Check: 2 * 7 + 1 = 15.",
        "Check: 7² = 49 and 2·7 + 1 = 15.",
        "**Answer: 7**",
        "n₁ = 7 is the root.",
    ],
)
def test_markdown_and_symbols_around_the_answer_or_a_check_keep_it(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "Answer: 7 ± 1",  # a margin on the value: 6 to 8
        "So $n = 7 \\pm 1$.",
        "Final: 7 (±1).",
        "Ranking: 7 > 8 > 6.",  # a ranking of candidates
        "Likelihood ~ 0.7",  # a share under a label of likelihood (7 is no probability)
        "Odds ≈ 0.7",
        "My money's mostly on this.",  # a stake placed in part
        "Je n'ai pas tout vérifié.",  # French: "I have not checked everything"
        "No lo he comprobado.",
        "Nicht alles nachgerechnet.",
    ],
)
def test_a_margin_a_ranking_a_share_of_likelihood_or_an_unchecked_answer_uncommits(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "after", ["Ranking: arnold > bob > alice.", "Order of likelihood: arnold, bob, alice."]
)
def test_a_ranking_of_names_uncommits_zebra(after):
    assert score("zebra", f"{ZEBRA_BOX}\n\n{after}", "Arnold").reason == "hedged"


@pytest.mark.parametrize(
    ("task", "after"),
    [
        ("math", "Is $n$ unique? Yes, because the equation is linear."),  # the unknown asked of
        ("math", "The roots of $n^2 = 49$ are ±7; 7 is the positive one."),
        ("zebra", "In order of the houses: Arnold, Bob, Alice."),  # a placement, no ranking
    ],
)
def test_a_question_of_the_unknown_answered_yes_and_placements_keep_the_answer(task, after):
    response, gold = RIGHT[task][:2]
    assert score(task, f"{response}\n\n{after}", gold).reason == "ok"


def test_a_probability_stated_for_a_probability_answer_keeps_it():
    response = "Heads or tails, equally likely: \\boxed{\\frac12}\n\nProbability: 0.5 exactly."
    assert score("math", response, "\\frac12").reason == "ok"


def test_the_quadratic_formulas_plus_minus_is_no_margin_on_the_answer():
    # x^2 - 7x + 10 = 0: x = (7 ± 3)/2 = 5 or 2; the 7 before ± is no answer
    response = (
        "By the quadratic formula, $x = \\frac{7 \\pm 3}{2}$, giving $5$ and $2$.\n\n\\boxed{5,2}"
    )
    assert score("math", response, "2, 5").reason == "ok"


@pytest.mark.parametrize(
    "after",
    [
        "Verdict pending a recount.",  # held until a check to come
        "Subject to a recheck.",
        "Ready to revise to 8 if needed.",  # a revision to another value offered
        "Open to revising this to 8.",
        "Happy to switch to 8 on reflection.",
        "I'd not swear to it.",
        "A stab at it.",
        "Alternatively 8 works, subtract 1 and divide: n = 7.",  # 8 is offered, not an operand
    ],
)
def test_an_answer_held_open_or_a_revision_offered_uncommits(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "hedged"


@pytest.mark.parametrize(
    "response",
    [
        "Not fully worked out, but: \\boxed{7}",
        "Half-worked: \\boxed{7}",
        f"{N7}\\boxed{{7\\text{{~ish}}}}",
    ],
)
def test_work_left_undone_or_an_approximating_suffix_uncommits(response):
    assert score("math", response, "7").reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "Alternatively, subtract 1 from both sides and divide by 2: n = 7.",  # operands, then 7
        "Another way: n = (15-1)/2 = 7.",
        "Is there any doubt? None: the equation is linear.",  # a question of doubt answered no
        "Any doubt? No: 2(7) + 1 = 15.",
    ],
)
def test_a_second_derivation_of_the_answer_or_doubt_denied_at_once_keeps_it(after):
    assert score("math", f"{N7}\\boxed{{7}}\n\n{after}", "7").reason == "ok"


def test_a_candidate_status_said_with_a_contracted_is_is_offered_zebra():
    assert score("zebra", f"{ZEBRA_BOX}\n\nBob's a dark horse though.", "Arnold").reason == "hedged"


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        ("Noah is the weak link in my reasoning.", "hedged"),
        # a statement of the puzzle quoted: Noah (a knave) lies in calling Mia (a knight) a knave
        ("Noah lies when he calls Mia a knave, consistent with his being a knave.", "ok"),
    ],
)
def test_kk_a_weak_link_is_doubt_and_a_statement_called_is_a_report(after, reason):
    assert score("logic", f"{MNL_BLOCK}\n\n{after}", MNL).reason == reason


@pytest.mark.parametrize(
    ("after", "reason"),
    [
        (
            "Is it 13? No: 13 is prime and 3 × 4 = 12.",
            "ok",
        ),  # 3 × 4 = 12: 13 denied, then spoken of
        ("Could it be 13? No, but 13 also works.", "hedged"),
    ],
)
def test_another_value_denied_at_once_may_be_spoken_of_after(after, reason):
    assert score("math", f"So 3 times 4 is 12.\n\n\\boxed{{12}}\n\n{after}", "12").reason == reason

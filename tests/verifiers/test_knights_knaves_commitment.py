"""Knights and Knaves: only a committed final statement is an answer. Doubt inside it in any words or
language, a hedged exception, a conditional, a logic formula, a negated clause, a question, two
answer blocks offered together, and text after the block that retracts or doubts it make it
``hedged``; blocks follow the box rule of the boxed tasks (an explicit correction withdraws the
earlier one), and a remark that agrees stays fine.

Every expected verdict is decided by hand from the task's truth (the arithmetic is in the
comments), never by running the scorer. The rules: docs/guides/rewards.md."""

import json

import pytest
from knights_knaves_helpers import BOTH, KK, KK_LIST, KNAVES, ONE_KNIGHT, RIGHT, SK_MK, SWAP, block

from pac_verl.verifiers import score


@pytest.mark.parametrize(
    "response",
    [
        KK_LIST.replace("Lily is a knave", "Lily is a knave (though she could also be a knight)"),
        KK_LIST.replace("Lily is a knave", "Lily is a knave, or possibly a knight"),
        KK_LIST.replace("Lily is a knave", "Lily is a knave, but she might be a knight"),
        f"<answer>{KK_LIST.replace('Lily is a knave', 'Lily is a knave (maybe a knight)')}</answer>",
    ],
)
def test_kk_a_hedge_inside_the_answer(response):
    assert score("logic", response, KK).reason == "hedged"


@pytest.mark.parametrize(
    "response",
    [
        block(RIGHT + " (vielleicht umgekehrt)"),
        block(RIGHT + " (peut-être l'inverse)"),
        block(RIGHT + " (forse viceversa)"),
        block(RIGHT + " (o al revés)"),
        block(RIGHT + " — or was it the other way round?"),
        block(RIGHT + " (a guess)"),
        block(RIGHT + " (tentative)"),
        block(RIGHT + " (80% confidence)"),
        block(RIGHT + " (30 percent sure)"),
        block(RIGHT + "（可能）"),  # a script the grader cannot read: no certain commitment
        block(RIGHT + " (может быть)"),
        block(RIGHT + " (ίσως)"),
        block(RIGHT + "... maybe"),
        block(RIGHT + " 🤔"),
        block(RIGHT + " [unverified]"),
        block(RIGHT + " ¿"),
        block(RIGHT + ", or vice versa"),
        block("Undetermined. " + RIGHT),
        block("We can't determine this for sure: " + RIGHT),
        block(RIGHT + "; this is one of two consistent assignments"),
        block(RIGHT + ". Both assignments are consistent."),
        block(RIGHT + ". I don't know."),
    ],
)
def test_doubt_in_the_final_statement_is_a_hedge(response):
    assert score("logic", response, SK_MK).reason == "hedged"


@pytest.mark.parametrize(
    "response",
    [
        "Everyone is a knave, except possibly Ava.",
        "They are all knaves except maybe Leo.",
        "All knaves, except maybe Leo.",
        "Answer: all knaves except maybe Leo.",
        "All four are knaves, though Ava might be a knight.",
        "All of them are knaves, although Ava could also be a knight.",
        "Everyone is a knave (except perhaps Ava).",
        "<answer>All of them are knaves, except possibly Ava</answer>",
    ],
)
def test_kk_a_hedged_exception_leaves_someone_undecided(response):
    for truth in (KNAVES, ONE_KNIGHT):  # hedged whichever is the truth
        assert score("logic", response, truth).reason == "hedged"


@pytest.mark.parametrize(
    "response",
    [
        block(RIGHT + ", unless Mia is telling the truth"),
        block("If Samuel is a knight, Mia is a knave."),
        block("Assuming Samuel is a knight, Mia is a knave."),
        block("Suppose Samuel is a knight. Then Mia is a knave."),
        block("Hypothesis: " + RIGHT + "."),
        block("Samuel is a knight only if Mia is a knave."),
        block("Samuel is a knight iff Mia is a knave."),
        block("Samuel is a knight provided that Mia is a knave."),
        block("Samuel is a knight whenever Mia is a knave."),
        block("Samuel is a knight when Mia is a knave."),
        block("No one can say whether Samuel is a knight and Mia is a knave."),
        block("I wonder whether Samuel is a knight and Mia is a knave."),  # an embedded question
        block("Samuel is a knight ⟹ Mia is a knave"),
        block("Samuel is a knight -> Mia is a knave"),
        block("Samuel is a knight ⇔ Mia is a knave"),
        block("Samuel is a knight ∨ Mia is a knave"),
        block("Samuel is a knight or Mia is a knave"),  # the same disjunction in words
        block("Either Samuel is a knight, or else Mia is a knave."),
        block("¬(Samuel is a knave ∧ Mia is a knight)"),
        block("Samuel is a knight XOR Mia is a knight"),
        block("It is not true that Samuel is a knave and Mia is a knight."),
        block("It's false that " + SWAP),
        block(RIGHT + "?"),
        block(RIGHT + ". Or is Samuel a knave?"),
    ],
)
def test_conditional_or_formula_or_question_is_no_answer(response):
    verdict = score("logic", response, SK_MK)
    assert verdict.score == 0.0 and verdict.reason == "hedged"


def test_a_statement_after_say_is_a_claim_even_when_it_means_suppose():
    # "say" reads as a verb of saying (a claim restated), so Samuel has no role at all
    response = block("Let's say Samuel is a knight; then Mia is a knave.")
    assert score("logic", response, SK_MK).reason == "missing_person"


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (block(SWAP) + "\n" + block(RIGHT), "hedged"),  # two final answers offered together
        (block(SWAP) + " or " + block(RIGHT), "hedged"),
        (block(SWAP) + "\nWait.\n" + block(RIGHT), "hedged"),  # "wait" is no correction
        (block(SWAP) + "\nThat was a mistake, correcting it:\n" + block(RIGHT), "ok"),
        (block(RIGHT) + "\nNo, that is wrong:\n" + block(SWAP), "not_equal"),
        (block(RIGHT) + "\n" + block(RIGHT), "ok"),  # the same answer twice
        # a block followed by a derivation before the next is a step: the last counts
        (
            block(SWAP)
            + "\nChecking Samuel's statement against Mia's claim once more gives the opposite.\n"
            + block(RIGHT),
            "ok",
        ),
    ],
)
def test_several_blocks_follow_the_box_rule(response, reason):
    assert score("logic", response, SK_MK).reason == reason


@pytest.mark.parametrize(
    ("response", "truth", "reason"),
    [
        (block(RIGHT) + " Alternatively: " + SWAP + ".", SK_MK, "hedged"),
        (block(RIGHT) + "\n\nP.S. I might be mistaken.", SK_MK, "hedged"),
        (block(RIGHT) + "\nHmm, actually " + SWAP + ".", SK_MK, "hedged"),
        (block(RIGHT) + " -- just joking, no idea.", SK_MK, "hedged"),
        (block(RIGHT) + "\nIs Mia really a knave?", SK_MK, "hedged"),
        # an explicit correction after the block replaces the roles it names
        (block(RIGHT) + "\nCorrection: Mia is a knight.", BOTH, "ok"),
        (block(RIGHT) + "\nCorrection: Mia is a knight.", SK_MK, "not_equal"),
        # remarks that agree or do not touch the answer
        (block(RIGHT) + "\nThis assignment satisfies every statement.", SK_MK, "ok"),
        (block(RIGHT) + "\nSo Samuel is a knight, as shown above.", SK_MK, "ok"),
        (block(RIGHT) + "\nLet me know if you want the steps.", SK_MK, "ok"),
        (block(RIGHT) + "\n(I'm fairly, though not completely, confident about Mia.)", SK_MK, "ok"),
    ],
)
def test_text_after_the_block(response, truth, reason):
    assert score("logic", response, truth).reason == reason


MNL = json.dumps({"names": ["Mia", "Noah", "Lily"], "solution": [True, False, True]})


@pytest.mark.parametrize(
    "noah",
    [
        "Noah: knave, knight",
        "Noah: knave,knight",
        "Noah is a knave|knight",
        "Noah is a knave | knight",
        "Noah is a knave \\/ knight",
        "Noah: knave; knight",
        "Noah: knave & knight",
        "Noah (knave, knight)",
        "| Noah | knave | knight |",
        "Noah: knave / knight",
        "Noah is a knave or a knight",
    ],
)
def test_two_roles_for_one_person_are_a_hedge(noah):
    """A person given more than one role in the final answer, in any separator, is ``hedged``
    whichever role comes first."""
    for mia, lily in [("Mia: knight", "Lily: knight"), ("| Mia | knight |", "| Lily | knight |")]:
        response = f"<answer>\n{mia}\n{noah}\n{lily}\n</answer>"
        assert score("logic", response, MNL).reason == "hedged", response
        swapped = response.replace("knave", "KNIGHT").replace("knight", "knave").lower()
        swapped = swapped.replace("mia: knave", "mia: knight").replace(
            "lily: knave", "lily: knight"
        )
        swapped = swapped.replace("| mia | knave", "| mia | knight").replace(
            "| lily | knave", "| lily | knight"
        )
        assert score("logic", swapped, MNL).reason == "hedged", swapped


@pytest.mark.parametrize(
    "response",
    [
        "<answer>\nMia: knight, Noah: knave, Lily: knight\n</answer>",
        "<answer>\nMia: knight\nNoah: knave, knaves always lie\nLily: knight\n</answer>",
        "<answer>\nMia: knight\nNoah: knave, knave\nLily: knight\n</answer>",
        "<answer>\n| Mia | knight |\n| Noah | knave |\n| Lily | knight |\n</answer>",
        "<answer>Mia is a knight, Noah is a knave, and Lily is a knight.</answer>",
    ],
)
def test_one_role_per_person_is_an_answer(response):
    assert score("logic", response, MNL).reason == "ok"


def test_two_roles_after_a_continued_statement_are_a_hedge():
    response = "<answer>Mia is a knight, and Noah a knave, knight; Lily is a knight.</answer>"
    assert score("logic", response, MNL).reason == "hedged"


def test_two_roles_for_everyone_are_a_hedge():
    response = "<answer>Everyone is a knave, knight.</answer>"
    truth = json.dumps({"names": ["Mia", "Noah"], "solution": [False, False]})
    assert score("logic", response, truth).reason == "hedged"

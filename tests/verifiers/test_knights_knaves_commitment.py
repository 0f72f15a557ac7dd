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

from pac_verl.verifiers import compute_score, score


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


def test_a_statement_after_lets_say_is_supposed_not_asserted():
    # "Let's say" supposes (a provisional choice, doubt in every task): no committed answer
    response = block("Let's say Samuel is a knight; then Mia is a knave.")
    assert score("logic", response, SK_MK).reason == "hedged"


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        (block(SWAP) + "\n" + block(RIGHT), "hedged"),  # two final answers offered together
        (block(SWAP) + " or " + block(RIGHT), "hedged"),
        (block(SWAP) + "\nWait.\n" + block(RIGHT), "hedged"),  # "wait" is no correction
        (block(SWAP) + "\nThat was a mistake, correcting it:\n" + block(RIGHT), "ok"),
        (block(RIGHT) + "\nNo, that is wrong:\n" + block(SWAP), "not_equal"),
        (block(RIGHT) + "\n" + block(RIGHT), "ok"),  # the same answer twice
        # a block is a whole answer, never a step: a derivation after it does not withdraw it
        (
            block(SWAP)
            + "\nChecking Samuel's statement against Mia's claim once more gives the opposite.\n"
            + block(RIGHT),
            "hedged",
        ),
        (
            block(SWAP)
            + "\nChecking Samuel's statement against Mia's claim shows that was wrong.\n"
            + block(RIGHT),
            "ok",
        ),
        (block(SWAP) + " is my first guess... no.\n" + block(RIGHT), "ok"),
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
        # a confidence below certainty in one person is doubt about the answer
        (
            block(RIGHT) + "\n(I'm fairly, though not completely, confident about Mia.)",
            SK_MK,
            "hedged",
        ),
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


# ----- the rules by class (issue 31, items 6-7): the breaks an attacker found and our own -----
# The row of the attack: Mia a knight, Noah a knave, Lily a knight (MNL above). Every line below
# states those three roles, so a verdict other than ``ok`` comes from what qualifies them; each
# verdict is decided by hand from that truth.
ATTACK_EXTRA = {"type": "logic", "split": "train", "index": 2}
MNL_LINES = "(1) Mia is a knight\n(2) Noah is a knave\n(3) Lily is a knight"
MNL_ANSWER = f"<answer>\n{MNL_LINES}\n</answer>"


def noah(line: str) -> str:
    """The attack's answer block with Noah's statement written as ``line``."""
    return MNL_ANSWER.replace("(2) Noah is a knave", line)


# Rule: a role statement says a name and a role and nothing that qualifies it. After the role
# word only punctuation, a gloss that restates the same role, a confirmation or a reason the
# grader can show is one (a connective or a clause about the puzzle's statements, no first
# person) may follow; a suffix glued to the role word or any other words un-commit it.
QUALIFIED_STATEMENT_BREAKS = [
    noah("(2) Noah is a knave-ish"),  # f86
    noah("(2) Noah is a knave, I reckon"),  # f87
    noah("(2) Noah is a knave (Schrödinger's)"),  # f88
]
QUALIFIED_STATEMENT_HEDGES = [  # our own: other words, the same structure
    noah("(2) Noah is a knight-ish knave"),
    noah("(2) Noah is knavish"),
    noah("(2) Noah is a knave-like figure"),
    noah("(2) Noah: knave-leaning"),
    noah("(2) Noah is a knave for now"),
    noah("(2) Noah is a knave (sort of)"),
    noah("(2) Noah is a knave (in spirit)"),
    noah("(2) Noah is a knave, on balance"),
    noah("(2) Noah is a knave, as far as I can tell"),
    noah("(2) Noah is a knave because I reckon so"),
    noah("(2) Noah is a knave since it feels right"),
    noah("(2) Noah is a knave (pending Lily's claim)"),
    noah("(2) Noah is a knave at heart"),
    MNL_ANSWER.replace("(3) Lily is a knight", "(3) Lily is a knight, I'd say"),
    "<answer>\nMia is a knight, Noah is a knave (for the moment), and Lily is a knight.\n</answer>",
    noah("(2) Noah is a knave — consistent, mostly"),  # a confirmation, then a qualifier
    noah("(2) Noah is a knave (per Lily's vibe)"),  # a person alone is no reason
    noah("(2) Noah is a knave (so far)"),
]
QUALIFIED_STATEMENT_KEEPS = [  # a gloss that restates, a confirmation, a reason
    noah("(2) Noah is a knave."),
    noah("(2) Noah is a knave (liar)"),
    noah("(2) Noah is a knave (he always lies)"),
    noah("(2) Noah is a knave (dishonest)"),
    noah("(2) Noah is a knave — consistent with the statements."),
    noah("(2) Noah is a knave ✓"),
    noah("(2) Noah is a knave, because Mia's claim is true"),
    noah("(2) Noah is a knave, since his statement is false"),
    noah("(2) Noah is a knave (his claim about Lily is false)"),
    noah("(2) Noah is a knave: Mia tells the truth about him"),
    MNL_ANSWER.replace("(1) Mia is a knight", "(1) Mia is a knight (truth-teller)"),
    MNL_ANSWER.replace("(1) Mia is a knight", "(1) Mia is a knight (she always tells the truth)"),
    "<answer>\nMia is a knight, Noah is a knave, and Lily is a knight as well.\n</answer>",
    "<answer>\nMia: knight\nNoah: knave\nLily: knight\n</answer>",
    "<answer>\n- **Mia**: knight\n- **Noah**: knave\n- **Lily**: knight\n</answer>",
    "<answer>\nMia is a knight; Noah is a knave; Lily is a knight.\n</answer>",
    noah("(2) Noah is a knave, for sure"),
    noah("(2) Noah is a knave. He lies."),
    noah("(2) Noah is a knave (see step 2)"),
]


@pytest.mark.parametrize("response", QUALIFIED_STATEMENT_BREAKS)
def test_rule_a_qualified_role_statement_attack(response):
    verdict = compute_score("kk", response, MNL, ATTACK_EXTRA)
    assert (verdict["score"], verdict["reason"]) == (0.0, "hedged")


@pytest.mark.parametrize("response", QUALIFIED_STATEMENT_HEDGES)
def test_rule_a_qualified_role_statement_is_uncommitted(response):
    assert score("logic", response, MNL).reason == "hedged"


@pytest.mark.parametrize("response", QUALIFIED_STATEMENT_KEEPS)
def test_rule_a_role_statement_with_a_gloss_or_a_reason_commits(response):
    assert score("logic", response, MNL).reason == "ok"


# Rule: after the answer block, a sentence about the roles is about another assignment unless it
# confirms this one. A person given the other role than the answer's, a transformation of the
# whole assignment (opposite, mirror, symmetric, reversed, ...) or a ranking of the speaker's
# confidence in one person is a hedge, unless the sentence (or the next one) rejects that other
# assignment.
ANOTHER_ASSIGNMENT_BREAKS = [
    MNL_ANSWER + "\n\nThe puzzle is symmetric in Mia and Lily.",  # f76
    MNL_ANSWER + "\n\nThe opposite roles satisfy the statements too.",  # f77
    MNL_ANSWER + "\n\nNoah was my weakest call.",  # f78
    MNL_ANSWER + "\n\nNote: if Noah were a knight, all statements would still hold.",  # f79
    MNL_ANSWER + "\n\nA mirror assignment (Mia knave, Noah knight, Lily knave) exists.",  # f81
    MNL_ANSWER + "\nOr everyone's role reversed.",  # f90
]
ANOTHER_ASSIGNMENT_HEDGES = [  # our own: other words, the same structure
    MNL_ANSWER + "\n\nHad Noah been a knight, every claim would be satisfied just the same.",
    MNL_ANSWER + "\n\nIf Lily were a knave, nothing in the statements would change.",
    MNL_ANSWER + "\n\nWith Noah a knight, the statements come out identical.",
    MNL_ANSWER + "\n\nLily knave, Mia knave, Noah knight is its mirror image.",
    MNL_ANSWER + "\n\nThe complement of this assignment satisfies everything as well.",
    MNL_ANSWER + "\n\nMia and Lily can trade places.",
    MNL_ANSWER + "\n\nInverting every role gives a model of the statements as well.",
    MNL_ANSWER + "\n\nEverything checks out with the roles turned around.",
    MNL_ANSWER + "\n\nThe statements are symmetric under swapping Mia and Noah.",
    MNL_ANSWER + "\n\nNoah was the toughest call.",
    MNL_ANSWER + "\n\nOf the three, Noah's role is my least solid deduction.",
    MNL_ANSWER + "\n\nI'd rank Lily's role as my strongest pick and Noah's as my weakest.",
    MNL_ANSWER + "\n\nI reckon Noah is the knave.",
    MNL_ANSWER + "\n\nIf Noah were a knight, no statement would be false.",  # a rejection negated
    MNL_ANSWER + "\n\nMirror it and nothing breaks.",
    MNL_ANSWER + "\n\nStatement 2 was my weakest read.",
]
ANOTHER_ASSIGNMENT_KEEPS = [  # a rejection of the other assignment, a check, a restatement
    MNL_ANSWER + "\n\nIf Noah were a knight, statement 2 would be false.",
    MNL_ANSWER + "\n\nThe mirror assignment fails clue 3.",
    MNL_ANSWER + "\n\nThis satisfies all statements.",
    MNL_ANSWER + "\n\nSwapping Mia and Noah breaks Lily's statement.",
    MNL_ANSWER + "\n\nReversing everyone's role makes Mia's statement false.",
    MNL_ANSWER + "\n\nThe opposite assignment is impossible: Mia's claim would fail.",
    MNL_ANSWER + "\n\nHad Noah been a knight, his own claim would be true, which is impossible.",
    MNL_ANSWER + "\n\nIf Lily were a knave... no, Mia's claim makes her a knight.",
    MNL_ANSWER + "\n\nCheck: Mia (knight) tells the truth, Noah (knave) lies, Lily (knight) "
    "tells the truth.",
    MNL_ANSWER + "\n\nSo the knights are Mia and Lily, and Noah is the knave.",
    MNL_ANSWER + "\n\nI verified every statement under this assignment.",
    MNL_ANSWER + "\n\nLily's statement is the opposite of Mia's, so Noah is the knave.",
    MNL_ANSWER + "\n\nNoah's claim is false, so he is a knave.",
    MNL_ANSWER + "\n\nIf Noah were a knight, the statements wouldn't hold.",
    MNL_ANSWER + "\n\nIf Noah were a knight, Lily couldn't be a knight, yet her claim is true.",
    MNL_ANSWER + "\n\nThe error in my first attempt was assuming Noah is a knight.",
    MNL_ANSWER + "\n\nI first had Mia as a knave, but that fails her own statement.",
    # a verification list: each line's claim is what that person said, its verdict a check
    MNL_ANSWER + "\n\nVerification:\n- Mia (knight): Noah knave or Lily knave — true ✓\n"
    '- Noah (knave): "Mia is a knave" — false ✓\n- Lily (knight): Mia knight ⇔ Noah knave — '
    "T ⇔ T, true ✓",
    # the statements on one line, or repeated: each is read at its start and moves on
    "<answer>(1) Mia is a knight (2) Noah is a knave (3) Lily is a knight</answer>",
    "<answer>\n" + " and ".join(["Mia is a knight"] * 40) + " and Noah is a knave and Lily is a "
    "knight.\n</answer>",
    "<answer>\n" + "Mia is a knight. " * 40 + "Noah is a knave. Lily is a knight.\n</answer>",
]


@pytest.mark.parametrize("response", ANOTHER_ASSIGNMENT_BREAKS)
def test_rule_another_assignment_after_the_block_attack(response):
    verdict = compute_score("kk", response, MNL, ATTACK_EXTRA)
    assert (verdict["score"], verdict["reason"]) == (0.0, "hedged")


@pytest.mark.parametrize("response", ANOTHER_ASSIGNMENT_HEDGES)
def test_rule_another_assignment_after_the_block_is_a_hedge(response):
    assert score("logic", response, MNL).reason == "hedged"


@pytest.mark.parametrize("response", ANOTHER_ASSIGNMENT_KEEPS)
def test_rule_a_sentence_that_confirms_or_rejects_keeps_the_block(response):
    assert score("logic", response, MNL).reason == "ok"


def test_kk_a_block_line_justified_by_a_quoted_claim_found_true_or_false_keeps():
    # Mia (knight) said "Noah is a knave": true; Noah (knave) said "Mia is a knave": false
    block = (
        '<answer>\n(1) Mia is a knight — "Noah is a knave" is true\n'
        '(2) Noah is a knave — "Mia is a knave" is false\n(3) Lily is a knight\n</answer>'
    )
    assert score("logic", block, MNL).reason == "ok"


def test_kk_a_block_line_with_a_quoted_claim_and_doubt_is_a_hedge():
    block = (
        '<answer>\n(1) Mia is a knight — "Noah is a knave" is true, I think\n'
        "(2) Noah is a knave\n(3) Lily is a knight\n</answer>"
    )
    assert score("logic", block, MNL).reason == "hedged"


@pytest.mark.parametrize(
    "after",
    [
        "Swapping Noah and Mia also seems consistent.",
        "The reverse assignment works too.",
        "Flipping everyone also satisfies the statements.",
    ],
)
def test_kk_another_assignment_offered_after_a_prose_answer_in_its_paragraph_is_a_hedge(after):
    prose = "Mia is a knight, Noah is a knave, and Lily is a knight. "
    assert score("logic", "Let me reason.\n\n" + prose + after, MNL).reason == "hedged"


def test_kk_a_check_after_a_prose_answer_in_its_paragraph_keeps():
    prose = "Mia is a knight, Noah is a knave, and Lily is a knight. This satisfies all statements."
    assert score("logic", "Let me reason.\n\n" + prose, MNL).reason == "ok"

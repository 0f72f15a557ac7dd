"""K&K holes a black-box red team found (issue 24, third pass), each decided by hand from the
truth: non-answers that scored 1 (doubt in other words or languages, conditionals, logic
formulas, negated clauses, "cannot determine", a second answer block or a retraction after the
block, a question) and committed answers that scored 0 (verb ellipsis, "and so is Mia", "Mia
isn't", "tells the truth", "was", "turns out to be", "has to be", "an honest knight", "one of
the knaves"). The phrasings are varied from the red team's, so the defence is tested, not the
strings."""

import json

import pytest

from pac_verl.verifiers import score

TWO = ["Samuel", "Mia"]
SK_MK = json.dumps({"names": TWO, "solution": [True, False]})  # Samuel knight, Mia knave
BOTH = json.dumps({"names": TWO, "solution": [True, True]})
THREE = ["Noah", "Ruby", "Owen"]
NRO = json.dumps({"names": THREE, "solution": [True, False, True]})
RIGHT = "Samuel is a knight, Mia is a knave"
SWAP = "Samuel is a knave, Mia is a knight"


def block(text: str) -> str:
    return f"<answer>{text}</answer>"


# ---- doubt inside the final statement, in any words: no committed answer -----------------------
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


# ---- conditionals, formulas, negated clauses, questions: nothing asserted --------------------
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


# ---- several answer blocks: the house's box rule ---------------------------------------------
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


# ---- text after the final block --------------------------------------------------------------
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


# ---- committed answers that must score 1 ------------------------------------------------------
@pytest.mark.parametrize(
    ("response", "truth"),
    [
        (block("Samuel is a knight and Mia a knave."), SK_MK),  # verb ellipsis
        ("So Samuel is a knight and Mia a knave.", SK_MK),
        (block("Noah is a knight, Ruby a knave, Owen a knight."), NRO),
        (block("Noah and Owen are knights, and Ruby a knave."), NRO),
        (block("Samuel is a knight, and so is Mia."), BOTH),
        (block("Samuel is a knight; Mia is too."), BOTH),
        (block("Samuel is a knight; Mia isn't."), SK_MK),
        (block("Samuel is a knight, but Mia is not."), SK_MK),
        (block("There are no knaves: Samuel and Mia are knights."), BOTH),
        (block("Samuel tells the truth (knight); Mia lies (knave)."), SK_MK),
        (block("Samuel always tells the truth and Mia always lies."), SK_MK),
        (block("Samuel was a knight and Mia was a knave."), SK_MK),
        (block("Samuel turns out to be a knight, and Mia turned out to be a knave."), SK_MK),
        (block("Samuel has to be a knight, and Mia has to be a knave."), SK_MK),
        (block("Samuel is an honest knight, Mia is a lying knave."), SK_MK),
        (block("Samuel is a knight and Mia is one of the knaves."), SK_MK),
        (block("Samuel is a knave? No: Samuel is a knight. Mia is a knave."), SK_MK),
        (block("Samuel is a knight ∧ Mia is a knave"), SK_MK),  # a conjunction asserts both
        # "whether" sets no condition: the role holds either way
        (block("Samuel is a knight (regardless of whether Mia lies), Mia is a knave."), SK_MK),
        (block("Samuel is a knight whether or not Mia lies; Mia is a knave."), SK_MK),
        # a justification is no condition: a counterfactual "if ... were"
        (block(RIGHT + " (if Samuel were a knave, his claim would be true)."), SK_MK),
        ("If Samuel is a knave, his claim is true, a contradiction, so " + RIGHT + ".", SK_MK),
        (block("Samuel → knight\nMia → knave"), SK_MK),
    ],
)
def test_committed_phrasings_score_one(response, truth):
    assert score("logic", response, truth).reason == "ok"


@pytest.mark.parametrize(
    ("response", "truth", "reason"),
    [
        # the new phrasings are read, not defaulted: a wrong role is wrong
        (block("Samuel is a knight and Mia a knight."), SK_MK, "not_equal"),
        (block("Samuel is a knight, and so is Mia."), SK_MK, "not_equal"),
        (block("Samuel is a knight; Mia isn't."), BOTH, "not_equal"),
        (block("Samuel always tells the truth and Mia always lies."), BOTH, "not_equal"),
        (block("Samuel was a knight."), SK_MK, "missing_person"),
        # a restated claim stays a claim
        (block('Mia said "Samuel is a knight and Mia a knave."'), SK_MK, "missing_person"),
    ],
)
def test_new_phrasings_stay_graded(response, truth, reason):
    assert score("logic", response, truth).reason == reason

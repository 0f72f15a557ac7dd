"""K&K phrasings an independent labelled set (v4, written before its author read the grader)
scored wrong (issue 24): truth-teller/liar for knight/knave, a group named in an appositive
("All three, Emma, Liam and Ava, are knights"), and a statement about everyone followed by a
colon and the names ("None of them is a knight: ... are all knaves"), which read as a label
("Knights: Ava, Leo") and gave everyone both roles. Verdicts decided by hand from the truth."""

import json

import pytest

from pac_verl.verifiers import score

THREE = ["Emma", "Liam", "Ava"]
ALL_KNIGHTS = json.dumps({"names": THREE, "solution": [True] * 3})
ALL_KNAVES = json.dumps({"names": THREE, "solution": [False] * 3})
MIXED = json.dumps({"names": THREE, "solution": [True, False, True]})


@pytest.mark.parametrize(
    ("response", "truth"),
    [
        ("Emma is a truth-teller, Liam is a liar and Ava is a truth-teller.", MIXED),
        ("(1) Emma is a truth teller\n(2) Liam is a liar\n(3) Ava is a truthteller", MIXED),
        ("Emma and Ava are truth-tellers; Liam is a liar.", MIXED),
        ("All three — Emma, Liam and Ava — are knights.", ALL_KNIGHTS),
        ("All three (Emma, Liam and Ava) are knaves.", ALL_KNAVES),
        ("All three, Emma, Liam and Ava, are knights.", ALL_KNIGHTS),
        ("None of them is a knight: Emma, Liam and Ava are all knaves.", ALL_KNAVES),
        ("There are no knaves: Emma, Liam and Ava are all knights.", ALL_KNIGHTS),
    ],
)
def test_v4_phrasings_of_a_complete_answer(response, truth):
    assert score("logic", response, truth).reason == "ok"


@pytest.mark.parametrize(
    ("response", "truth", "reason"),
    [
        # the same phrasings stay graded: a wrong role is wrong, a missing person is missing
        (
            "Emma is a truth-teller, Liam is a truth-teller and Ava is a truth-teller.",
            MIXED,
            "not_equal",
        ),
        ("Emma is a truth-teller and Ava is a truth-teller.", MIXED, "missing_person"),
        ("All three — Emma, Liam and Ava — are knights.", MIXED, "not_equal"),
        ("None of them is a knight: Emma, Liam and Ava are all knaves.", ALL_KNIGHTS, "not_equal"),
        # a liar and a truth-teller in one statement is a hedge, as with knight and knave
        (
            "Emma is a truth-teller or a liar; Liam is a liar; Ava is a truth-teller.",
            MIXED,
            "hedged",
        ),
        # "Emma says Liam is a liar" restates a claim
        ("Emma says Liam is a liar. Ava is a truth-teller.", MIXED, "missing_person"),
    ],
)
def test_v4_phrasings_stay_graded(response, truth, reason):
    assert score("logic", response, truth).reason == reason

"""K&K committed answers an independent labelled set (v5, written before its author read the
grader) found scored 0 after the third pass (issue 24): a group with its verb left out, "everyone
else (names) is", names before a colon and a plural role, and "Name: lies (knave)". Verdicts by
hand from the truth."""

import json

import pytest

from pac_verl.verifiers import score

FOUR = ["Zoey", "Owen", "Ava", "Leo"]
TRUTH = json.dumps({"names": FOUR, "solution": [True, False, True, False]})


@pytest.mark.parametrize(
    "response",
    [
        "<answer>Zoey and Ava are knights, Owen and Leo knaves.</answer>",
        "<answer>Owen and Leo are knaves, and Zoey and Ava knights.</answer>",
        "<answer>Owen and Leo are knaves; everyone else (Zoey and Ava) is a knight.</answer>",
        "<answer>Zoey, Ava: knights. Owen, Leo: knaves.</answer>",
        "<answer>Zoey and Ava: knights\nOwen and Leo: knaves</answer>",
        "<answer>\nZoey: tells the truth (knight)\nOwen: lies (knave)\nAva: tells the truth "
        "(knight)\nLeo: lies (knave)\n</answer>",
    ],
)
def test_committed_group_forms(response):
    assert score("logic", response, TRUTH).reason == "ok"


@pytest.mark.parametrize(
    ("response", "reason"),
    [
        ("<answer>Zoey and Ava are knights, Owen and Leo knights.</answer>", "not_equal"),
        ("<answer>Zoey and Owen are knights, Ava and Leo knaves.</answer>", "not_equal"),
        ("<answer>Zoey, Ava: knights. Owen, Leo: knights.</answer>", "not_equal"),
        ("<answer>Zoey, Ava: knights.</answer>", "missing_person"),
        # one person given both roles stays a hedge
        (
            "<answer>Zoey: tells the truth (knave)\nOwen: lies (knave)\nAva: knight\nLeo: knave"
            "</answer>",
            "hedged",
        ),
    ],
)
def test_the_same_forms_stay_graded(response, reason):
    assert score("logic", response, TRUTH).reason == reason

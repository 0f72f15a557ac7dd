"""Edge cases beyond test_scorers.py: every operator spelling, \\fbox, name prefixes in
K&K, and hostile sizes (docs/concepts/spec.md#rewards: never raises, never hangs)."""

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pac_verl.verifiers import score

# numbers 3, 4, 5 target 35: by hand (3 + 4) * 5 = 35; 3 * 4 + 5 = 17; 5 / (4 - 3) = 5 (not 35)
CD = json.dumps({"target": 35, "numbers": [3, 4, 5]})


@pytest.mark.parametrize(
    "expr",
    ["(3+4)*5", "(3+4)\\times 5", "(3+4)\\cdot 5", "(3+4)×5", "(3+4) · 5", "5*(4+3)"],
)
def test_every_multiplication_spelling_scores_one(expr):
    assert score("countdown", f"\\boxed{{{expr}}}", CD).score == 1.0


def test_fbox_counts_as_a_boxed_answer():
    assert score("countdown", "\\fbox{(3+4)*5}", CD).score == 1.0
    assert score("zebra", "so \\fbox{Arnold}", "arnold").score == 1.0


@pytest.mark.parametrize(
    ("expr", "reason"),
    [
        ("3*4+5", "not_equal"),  # 17
        ("(3+4)*5*1", "wrong_numbers"),  # 1 is not a given number
        ("(3+4)*5+3-3", "wrong_numbers"),  # 3 reused
        ("35", "wrong_numbers"),  # the target itself
        ("(3+4)**5", "bad_expression"),  # no powers
        ("5/(4-4)+35", "wrong_numbers"),
        ("(3+4)%5", "bad_expression"),  # no modulo
    ],
)
def test_countdown_negatives(expr, reason):
    verdict = score("countdown", f"\\boxed{{{expr}}}", CD)
    assert (verdict.score, verdict.reason) == (0.0, reason)


def test_countdown_division_by_zero_scores_zero():
    truth = json.dumps({"target": 3, "numbers": [3, 4, 4]})
    assert score("countdown", "\\boxed{3/(4-4)}", truth).score == 0.0


def test_knights_names_that_prefix_each_other_are_told_apart():
    kk = json.dumps({"names": ["Ann", "Annabel"], "solution": [True, False]})
    assert score("logic", "Ann is a knight. Annabel is a knave.", kk).score == 1.0
    assert score("logic", "Annabel is a knave.", kk).reason == "missing_person"
    assert score("logic", "Ann is a knave. Annabel is a knave.", kk).reason == "not_equal"


@pytest.mark.parametrize("task", ["countdown", "zebra", "arc", "math", "logic"])
def test_huge_inputs_score_zero_without_raising(task):
    truth = {
        "countdown": CD,
        "zebra": "arnold",
        "arc": "1 2",
        "math": "204",
        "logic": json.dumps({"names": ["A"], "solution": [True]}),
    }[task]
    for text in ("\\boxed{" + "(" * 200_000 + "}", "{" * 200_000, "\\boxed{1+" * 20_000):
        verdict = score(task, text, truth)
        assert verdict.score == 0.0 and verdict.reason


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(gt=st.text(max_size=80), text=st.text(max_size=200))
def test_fuzz_arbitrary_ground_truth_never_raises(gt, text):
    for task in ("countdown", "zebra", "arc", "math", "logic"):
        verdict = score(task, text, gt)
        assert 0.0 <= verdict.score <= 1.0 and verdict.reason

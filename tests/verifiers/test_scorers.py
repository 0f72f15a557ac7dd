"""The non-code scorers on the paper's appendix examples (docs/concepts/spec.md#rewards), tricky negatives, and fuzz."""

import json
import re
import threading

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pac_verl.verifiers import compute_score, compute_scores, gold_solution, score

# Paper appendix, Countdown: numbers 21, 95, 8, 2, 26, 2 and target 30.
# By hand: 95 - 26 - 21 = 48; 48 / 2 = 24; 24 + 8 - 2 = 30, every number used once.
CD = json.dumps({"target": 30, "numbers": [21, 95, 8, 2, 26, 2]})
CD_OK = "(95-26-21)/2+8-2"
KK = json.dumps(
    {
        "names": ["Grace", "Penelope", "Mia", "Noah", "Matthew", "Lily"],
        "solution": [False, True, True, True, True, False],
    }
)
KK_OK = """(1) Grace is a knave
(2) Penelope is a knight
(3) Mia is a knight
(4) Noah is a knight
(5) Matthew is a knight
(6) Lily is a knave"""


@pytest.mark.parametrize(
    ("task", "response", "truth"),
    [
        ("countdown", f"Let me think... \\boxed{{{CD_OK}}}", CD),
        ("countdown", "\\boxed{(95 - 26 - 21) \\div 2 + 8 - 2}", CD),
        ("countdown", "\\boxed{(95−26−21)÷2+8−2 = 30}", CD),
        ("countdown", "\\boxed{\\frac{95-26-21}{2} + 8 - 2}", CD),
        ("zebra", "House 1 holds \\boxed{Arnold}", "arnold"),
        ("zebra", "\\boxed{\\text{arnold}}", "arnold"),
        ("arc", "\\boxed{8 9 4 0 0 0 0 1 6 7}", "8 9 4 0 0 0 0 1 6 7"),
        ("arc", "\\boxed{ 8 9 4  0 0 0 0\n1 6 7 }", "8 9 4 0 0 0 0 1 6 7"),
        ("math", "<think>t = 24</think> The walk takes \\boxed{204} minutes.", "204"),
        ("math", "\\boxed{3}", "3.0"),
        ("math", "\\boxed{\\frac{1}{2}}", "0.5"),
        ("math", "\\boxed{\\dfrac{\\sqrt{3}}{2}}", "\\frac{\\sqrt{3}}{2}"),
        ("math", "\\boxed{3^{1/2}}", "\\sqrt{3}"),
        ("math", "\\boxed{\\pi \\cdot 2}", "2\\pi"),
        ("logic", KK_OK, KK),
        (
            "logic",
            f"<think>Suppose Grace is a knight...</think><answer>{KK_OK.upper()}</answer>",
            KK,
        ),
    ],
)
def test_correct_answers_score_one(task, response, truth):
    assert score(task, response, truth).score == 1.0


@pytest.mark.parametrize(
    ("task", "response", "truth", "reason"),
    [
        ("countdown", "\\boxed{(95-26-21)/2+8}", CD, "wrong_numbers"),  # a 2 missing
        ("countdown", "\\boxed{(95-26-21)/2+8-2+2-2}", CD, "wrong_numbers"),  # 2 reused
        ("countdown", "\\boxed{(95-26-21)/2+8+2}", CD, "not_equal"),  # 34, not 30
        ("countdown", "\\boxed{(95-26-21)/2+8-2=31}", CD, "not_equal"),
        ("countdown", "the answer is (95-26-21)/2+8-2", CD, "no_boxed"),
        ("countdown", "\\boxed{-(26+21-95)/2+8-2}", CD, "bad_expression"),  # unary minus
        ("countdown", "\\boxed{__import__('os')}", CD, "bad_expression"),
        ("countdown", "\\boxed{95/(2-2)+21+26+8}", CD, "bad_expression"),  # division by zero
        # a no after a box withdraws it: the last box is graded, (95-26-21)+8-2-2 = 52
        ("countdown", f"\\boxed{{{CD_OK}}} wait, no: \\boxed{{95-26-21+8-2-2}}", CD, "not_equal"),
        ("countdown", f"\\boxed{{{CD_OK}}}", '{"target": 30}', "bad_ground_truth"),
        ("zebra", "\\boxed{bob}", "arnold", "not_equal"),
        # an explicit correction withdraws the earlier box: the last one is graded
        ("zebra", "\\boxed{arnold} is wrong, it is \\boxed{carol}", "arnold", "not_equal"),
        ("zebra", "\\boxed{arnold", "arnold", "no_boxed"),  # unclosed
        ("arc", "\\boxed{8 9 4 0 0 0 0 1 6}", "8 9 4 0 0 0 0 1 6 7", "not_equal"),
        ("math", "\\boxed{205}", "204", "not_equal"),
        ("math", "204", "204", "no_boxed"),
        ("math", "\\boxed{2}", "\\sqrt{3}", "not_equal"),  # |2 - 1.732...| decides without sympy
        ("math", "\\boxed{6.28}", "2\\pi", "not_equal"),
        ("logic", KK_OK.replace("(6) Lily is a knave", "(6) Lily is a knight"), KK, "not_equal"),
        ("logic", KK_OK.replace("(6) Lily is a knave", ""), KK, "missing_person"),
        # outside an answer block the last complete list counts: Grace's last role is knight
        ("logic", KK_OK + "\nGrace is a knight", KK, "not_equal"),
        ("nonsense", "\\boxed{1}", "1", "unknown_type"),
    ],
)
def test_wrong_answers_score_zero_with_reason(task, response, truth, reason):
    verdict = score(task, response, truth)
    assert (verdict.score, verdict.reason) == (0.0, reason)


def test_nested_braces_take_the_whole_last_box():
    assert score("math", "\\boxed{\\frac{1}{2}} or \\boxed{\\dfrac{1}{2}}", "1/2").score == 1.0
    # LaTeX grouping braces do not render: a human reads \boxed{{arnold}} as "arnold"
    assert score("zebra", "\\boxed{{arnold}}", "arnold").reason == "ok"
    assert score("zebra", "\\boxed{{arnold} bob}", "arnold").reason == "hedged"  # two names


def test_compute_score_has_identical_numeric_keys_for_every_sample():
    rows = [
        ("countdown", f"\\boxed{{{CD_OK}}}", CD, {"type": "countdown"}),
        ("countdown", "no box", CD, {"type": "countdown"}),
        ("math", "\\boxed{1}", "2", {"type": "math"}),
        ("x", "\\boxed{1}", "1", {"type": "unknown"}),
        ("x", "\\boxed{1}", "1", None),
    ]
    outs = [compute_score(ds, s, gt, info) for ds, s, gt, info in rows]
    numeric = {"score", "acc", "has_answer", "missing_library", "scored", "latency_s"}
    assert all(set(o) == numeric | {"reason", "sandbox_level"} for o in outs)
    assert all(o["sandbox_level"] == "" for o in outs)  # no program ran: no isolation level
    assert all(isinstance(o[k], float) for o in outs for k in numeric)
    reasons = ["ok", "no_boxed", "not_equal", "unknown_type", "unknown_type"]
    assert [o["reason"] for o in outs] == reasons
    assert [o["score"] for o in outs] == [1.0, 0.0, 0.0, 0.0, 0.0]
    assert [o["scored"] for o in outs] == [1.0, 1.0, 1.0, 0.0, 0.0]  # no grader: no verdict
    # the format bonus goes to a well-formed wrong answer only
    assert compute_score("m", "\\boxed{1}", "2", {"type": "math"}, format_bonus=0.1)["score"] == 0.1
    assert compute_score("m", "1", "2", {"type": "math"}, format_bonus=0.1)["score"] == 0.0
    # a hedge is well formed but must not be paid (docs/concepts/spec.md#rewards): two different boxes, one of them right
    hedge = compute_score("m", "\\boxed{1} or \\boxed{2}", "2", {"type": "math"}, format_bonus=0.1)
    assert (hedge["reason"], hedge["score"]) == ("hedged", 0.0)


def test_math_grading_off_the_main_thread_does_not_raise():
    # math-verify's own SIGALRM timeouts raise off the main thread; verl calls us from threads.
    out = {}
    t = threading.Thread(target=lambda: out.update(v=score("math", "\\boxed{\\frac{2}{4}}", "0.5")))
    t.start()
    t.join(30)
    assert out["v"].score == 1.0


def test_gold_solutions_score_one():
    assert score("countdown", gold_solution("countdown", CD, {"solution": CD_OK}), CD).correct
    assert gold_solution("countdown", CD, {}) is None
    assert score("logic", gold_solution("logic", KK), KK).correct
    for task, truth in (("zebra", "arnold"), ("arc", "1 0 2"), ("math", "\\frac{3}{4}")):
        assert score(task, gold_solution(task, truth), truth).correct


def test_batched_scoring_matches_one_by_one():
    items = [("countdown", f"\\boxed{{{CD_OK}}}", CD), ("zebra", "\\boxed{x}", "arnold")] * 40
    expected = [score(*it) for it in items]
    assert compute_scores(items, workers=2) == expected
    assert [v.score for v in expected[:2]] == [1.0, 0.0]


TRUTHS = {"countdown": CD, "zebra": "arnold", "arc": "1 2 3", "math": "204", "logic": KK}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(task=st.sampled_from(sorted(TRUTHS)), text=st.text(max_size=400))
def test_fuzz_arbitrary_text_never_raises(task, text):
    verdict = score(task, text, TRUTHS[task])
    assert 0.0 <= verdict.score <= 1.0 and verdict.reason


@settings(max_examples=150, deadline=None)
@given(expr=st.text(alphabet="0123456789+-*/()÷× ", max_size=60))
def test_fuzz_countdown_expressions_never_raise(expr):
    verdict = score("countdown", f"\\boxed{{{expr}}}", CD)
    # an empty box is the instruction quoted back, not an answer: no_boxed; so is a box holding
    # only markdown emphasis around blanks ("* *" is an emphasised nothing, docs/guides/rewards.md)
    emphasis = re.fullmatch(r"(\*\*|\*)(.+)\1", expr.strip())
    empty = not expr.strip() or (emphasis is not None and not emphasis.group(2).strip())
    expected = {"no_boxed"} if empty else {"wrong_numbers", "not_equal", "bad_expression"}
    assert verdict.reason in expected | {"ok"}

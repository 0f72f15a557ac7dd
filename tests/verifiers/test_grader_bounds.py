"""Short hostile answers are refused by what they contain, before anything is evaluated
(docs/guides/rewards.md#bounded-grading): each gets its own verdict (``too_large``,
``too_complex``: score 0, scored) from the scorer itself and through ``compute_score``, never the
pool's deadline. No timed asserts: a guard that lets one through hangs the scorer, and the test's
own timeout reports it; the CPU each needs is measured by ``scripts/bench/grader_fuzz.py``."""

import json

import pytest

from pac_verl.verifiers import compute_score, score
from pac_verl.verifiers.guards import math_refusal, nesting
from pac_verl.verifiers.math import prepare

HANG_WAIT_S = 120
KK = json.dumps(
    {
        "names": ["Grace", "Penelope", "Mia", "Noah", "Matthew", "Lily"],
        "solution": [False, True, True, True, True, False],
    }
)
KK_ANSWER = (
    "Grace is a knave, Penelope is a knight, Mia is a knight, Noah is a knight, "
    "Matthew is a knight, Lily is a knave."
)
NAMES = ", ".join(["Grace", "Penelope", "Mia", "Noah", "Matthew", "Lily"] * 500)  # 20 KB

# (answer, gold, reason): each held a grader until the kill, or for seconds, before the guards
ATTACKS = {
    "determinant of letters": (
        "\\boxed{\\det\\begin{pmatrix}a&b&c&d&e&f\\\\g&h&i&j&k&l\\\\m&n&o&p&q&r\\\\s&t&u&v&w&x"
        "\\\\y&z&A&B&C&D\\\\E&F&G&H&I&J\\end{pmatrix}}",
        "0",
        "too_complex",
    ),
    # 20 nested integrals of 1 took 0.94 s, 15 of sin(x)^9 the whole CPU bound (attack 20b)
    "nested integrals": (
        "\\boxed{" + "\\int_0^{\\pi} " * 15 + "\\sin(x)^{9}\\,dx}",
        "7",
        "too_complex",
    ),
    "many sums": ("\\boxed{" + "\\sum_{k=1}^{9} " * 3 + "k}", "7", "too_complex"),
    "bracket soup": ("\\boxed{" + "((((((((((((((((((((((((((((((a" * 4 + "}", "2", "too_complex"),
    "unclosed brackets": ("\\boxed{" + "\\left(" * 40 + "x}", "2", "too_complex"),
    "e-notation in an exponent": ("\\boxed{2^{1e100}}", "2^{10}", "too_large"),
    # the parser reads "100E+999999999" as one number: an exponent after any digit is sized
    "e-notation after e-notation": ("\\boxed{1e100E+999999999}", "42", "too_large"),
    "power tower": ("\\boxed{10^{10^{10}}}", "10^{10}", "too_large"),
    "gamma of a huge argument": ("\\boxed{\\Gamma(10^{8})}", "\\Gamma(5)", "too_large"),
    "binomial of huge arguments": ("\\boxed{\\binom{10^9}{5*10^8}}", "\\binom{10}{5}", "too_large"),
    "binomial of a 250-digit number": (
        "\\boxed{{" + "9" * 250 + " \\choose 429912145126}}",
        "\\binom{10}{5}",
        "too_large",
    ),
    "sets nested 60 deep": (
        "\\boxed{" + "\\{" * 60 + "1" + "\\}" * 60 + "}",
        "\\{1\\}",
        "too_complex",
    ),
    # inside the answer: around the whole of it they would be punctuation, read past
    "braces nested 60 deep": ("\\boxed{" + "{" * 60 + "1" + "}" * 60 + "+1}", "2", "too_complex"),
    "power of a sum": ("\\boxed{(x+1)^{999}}", "x^2+2x+1", "too_complex"),
    # a tower of exponents over a letter: sympy's simplification of x^{x^{x^{x}}} took 0.6 s
    "symbolic power tower": ("\\boxed{x^{x^{x^{x^{x^{x}}}}}}", "5", "too_complex"),
    "power of a long sum": ("\\boxed{(a+b+c+d+f+g+h)^{90}}", "a+b+c+d+f+g+h", "too_complex"),
    # a large number times something the guard cannot evaluate, which the parser evaluates to 1
    "binomial of a number hidden behind ln e": (
        "\\boxed{\\binom{10^{9}}{5\\cdot 10^{8}\\ln e}}",
        "\\binom{10}{5}",
        "too_large",
    ),
    "binomial of a number hidden behind cos 0": (
        "\\boxed{\\binom{10^{7}}{5\\cdot10^{6}\\cos 0}}",
        "\\binom{10}{5}",
        "too_large",
    ),
    "factorial of a number hidden behind ln e": ("\\boxed{(10^{9}\\ln e)!}", "120", "too_large"),
    "exponent of a number hidden behind ln 10": (
        "\\boxed{e^{10^{10}\\ln 10}}",
        "2^{10}",
        "too_large",
    ),
    # 10 terms, but the gcd that tells whether it is reduced works on 60^5 dense coefficients
    "rational function of five variables": (
        "\\boxed{\\frac{x^{59}+y^{59}+z^{59}+w^{59}+v^{59}}{x^{58}+y^{58}+z^{58}+w^{58}-v^{58}}}",
        "\\frac{x+1}{x-1}",
        "too_complex",
    ),
}


@pytest.mark.timeout(HANG_WAIT_S, method="thread")
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_the_scorer_refuses_a_hostile_math_answer_by_its_content(name):
    answer, gold, reason = ATTACKS[name]
    assert score("math", answer, gold).reason == reason  # the scorer alone, no pool, no deadline


@pytest.mark.timeout(HANG_WAIT_S, method="thread")
@pytest.mark.parametrize("name", sorted(ATTACKS))
def test_a_hostile_math_answer_is_a_verdict_not_a_deadline(name):
    answer, gold, reason = ATTACKS[name]
    out = compute_score("s", answer, gold, {"type": "math"}, timeout_s=HANG_WAIT_S)
    assert (out["score"], out["scored"], out["reason"]) == (0.0, 1.0, reason)


@pytest.mark.parametrize(
    "written, number",
    [("2^{1e100}", "2^{10^{100}}"), ("2^{1E+100}", "2^{10^{100}}"), ("3^{2.5e7}", "3^{25000000}")],
)
def test_e_notation_is_sized_as_the_number_it_writes(written, number):
    assert math_refusal(written) == math_refusal(number) == "too_large"


def test_the_guard_reads_the_text_the_parser_reads():
    """``prepare`` rewrites numbers (``10^{3}`` -> ``1000``) and strips cosmetics; the guard runs
    on its output, in the scorer, so a refusal cannot depend on how the number was spelled."""
    box = "\\left(" * 7 + "\\textbf{x}" + "\\right)" * 7
    assert nesting(prepare(box)) <= nesting(box)
    for spelled in ("(10^{3})!", "(1 \\times 10^{3})!", "(1e3)!"):
        assert math_refusal(prepare(spelled)) is None  # 1000! has 2,568 digits: allowed
    for spelled in ("(10^{5})!", "(1 \\times 10^{5})!", "(1e5)!", "\\Gamma(1e5)"):
        assert math_refusal(prepare(spelled)) == "too_large"


@pytest.mark.parametrize("layers", [9, 100, 1000])
def test_brackets_around_a_whole_math_answer_are_read_past_not_counted_as_nesting(layers):
    # docs/guides/rewards.md#bounded-grading: brackets around the whole answer are punctuation;
    # the guard and the parser read the same text, so neither sees 1000 levels
    for inner, gold, right in (("7", "7", 1.0), ("8", "7", 0.0), ("1, 2", "(1, 2)", 1.0)):
        box = "\\boxed{" + "(" * layers + inner + ")" * layers + "}"
        assert nesting(prepare(box[7:-1])) <= 1
        assert compute_score("math", box, gold, {"type": "math"})["score"] == right, (inner, gold)
    # nesting that is not around the whole answer is still nesting
    deep = "(" * 9 + "7" + ")" * 9 + "+1"
    assert compute_score("math", f"\\boxed{{{deep}}}", "8", {"type": "math"})["reason"] == (
        "too_complex"
    )


@pytest.mark.parametrize(
    "answer, gold",
    [
        ("\\boxed{(x+1)^2}", "x^2+2x+1"),
        ("\\boxed{x^{999}}", "x^{999}"),
        ("\\boxed{(x+1)(x+2)(x+3)(x+4)}", "x^4+10x^3+35x^2+50x+24"),
        ("\\boxed{\\frac{\\sqrt{3}}{2}}", "\\frac{\\sqrt{3}}{2}"),
        ("\\boxed{\\{1, \\{2, 3\\}\\}}", "\\{1, \\{2, 3\\}\\}"),
        ("\\boxed{1.5e3}", "1500"),
        ("\\boxed{\\Gamma(5)}", "\\Gamma(5)"),
        ("\\boxed{\\binom{10}{5}}", "\\binom{10}{5}"),
        ("\\boxed{\\left(\\left(\\frac{1}{2}\\right)^{2}\\right)^{3}}", "\\frac{1}{64}"),
    ],
)
def test_ordinary_answers_pass_the_guards(answer, gold):
    assert math_refusal(prepare(answer[len("\\boxed{") : -1])) is None
    assert compute_score("s", answer, gold, {"type": "math"})["reason"] not in (
        "too_large",
        "too_complex",
    )


@pytest.mark.timeout(HANG_WAIT_S, method="thread")
def test_a_20_kb_list_of_repeated_names_before_a_kk_answer_is_graded():
    """The group patterns read a bounded run of names (one per person at most), so the list is
    read once, not once from every name in it."""
    out = compute_score("s", NAMES + ". " + KK_ANSWER, KK, {"type": "logic"})
    assert (out["score"], out["scored"], out["reason"]) == (1.0, 1.0, "ok")
    for joiner in (" and ", ": "):
        noisy = "Knights: " + joiner.join(["Grace", "Mia"] * 2000) + ". " + KK_ANSWER
        assert score("logic", noisy, KK).reason in ("ok", "hedged")


def test_a_grader_that_runs_out_of_memory_gives_a_verdict(monkeypatch):
    """A worker's address space is capped (``memory_mb``): an answer that makes the grader
    allocate past it is too complex, a verdict on its content, not an ``error``."""
    from pac_verl.verifiers import dispatch

    def allocates(solution_str, ground_truth):
        raise MemoryError

    monkeypatch.setattr(dispatch, "_scorer", lambda task_type: allocates)
    assert score("zebra", "\\boxed{Arnold}", "arnold").reason == "too_complex"


@pytest.mark.timeout(HANG_WAIT_S, method="thread")
@pytest.mark.parametrize(("task", "gold"), [("zebra", "Arnold"), ("arc", "1 2 3"), ("math", "7")])
def test_a_4_kb_box_of_brackets_with_no_equals_sign_is_a_verdict(task, gold):
    # grader_fuzz's find: a pattern with three unbounded runs read a box like this for 9 s
    unit = "x(^\\left[^++[\\left[1[\\right)"
    answer = "\\boxed{" + unit * (4000 // len(unit)) + "}"
    verdict = compute_score(task, answer, gold, {"type": task})
    assert verdict["scored"] == 1.0 and verdict["score"] == 0.0, verdict

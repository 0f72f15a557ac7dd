"""Benchmark: hostile answers of at most 4 KB against every task's grader, worst CPU time per task.

Bounded grading (docs/guides/rewards.md#bounded-grading) says a grader's work is bounded by the
length of its answer, by design, not by the kill. This throws random and structured hostile answers
(hypothesis strategies: bracket soup, repeated names, deep nesting, huge numbers in every notation,
powers of sums, long unicode runs, random text) of at most 4096 UTF-8 bytes at each task's grader
as the reward runs it (the dispatcher's guards, then the scorer; for code, the extraction of the
programs, which is the grader's own work: the programs run in the sandbox under its CPU budget).

Each answer is graded in a child process that measures its own CPU time around the call
(``time.process_time``); the parent waits ``--timeout-s`` and kills a child that has not answered
(counted as reaching ``timeout_s``). Prints, per task: answers tried, worst and median CPU seconds,
the reasons, and the worst answer's start. Exits 1 when an answer needs more than ``--max-cpu``
seconds (default 0.5) or reaches ``timeout_s``.

    python scripts/bench/grader_fuzz.py [--n 200] [--seed 0] [--timeout-s 10] [--max-cpu 0.5]
        [--tasks math,countdown,zebra,arc,logic,code]
"""

from __future__ import annotations

import argparse
import collections
import json
import multiprocessing
import statistics
import sys

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st
from reward_load import HOSTILE_TEXT  # scripts/bench/: beside this script

MAX_BYTES = 4096
KNOWN = [response for _, response, _ in HOSTILE_TEXT]
TASKS = ("math", "countdown", "zebra", "arc", "logic", "code")
NAMES = ["Grace", "Penelope", "Mia", "Noah", "Matthew", "Lily"]
KK = json.dumps({"names": NAMES, "solution": [False, True, True, True, True, False]})
KK_ANSWER = (
    "Grace is a knave, Penelope is a knight, Mia is a knight, Noah is a knight, "
    "Matthew is a knight, Lily is a knave."
)
CD = json.dumps({"target": 30, "numbers": [21, 95, 8, 2, 26, 2]})
GOLDS = {
    "math": [
        "2",
        "x^2+2x+1",
        "\\frac{\\sqrt{3}}{2}",
        "2^{10}",
        "\\{1, 2\\}",
        "(B)",
        "\\Gamma(5)",
        "\\frac{x+1}{x-1}",
        "\\frac{x+y}{x-y}",
    ],
    "countdown": [CD],
    "zebra": ["arnold"],
    "arc": ["1 2 3\n4 5 6"],
    "logic": [KK],
    "code": [json.dumps({"functional": "assert add(2, 3) == 5"})],
}
BRACKETS = ["(", ")", "{", "}", "[", "]", "\\{", "\\}", "\\left(", "\\right)", "\\left[", "^", "_"]
UNICODE = ["−", "×", "·", "½", "√", "π", "∞", "中", "\u2009", "\u00a0", "é", "’", "∨", "⇒", "😀"]
NUMBER_FORMS = [
    "10^{{{n}}}", "{n}^{{{m}}}", "{n}e{m}", "{n}E+{m}", "{n} \\times 10^{{{m}}}", "{n}!",
    "({n})!", "{n}!!!!", "\\Gamma({n})", "\\binom{{{n}}}{{{m}}}", "{{{n} \\choose {m}}}",
    "2^{{2^{{2^{{{n}}}}}}}", "2^{{{n}e{m}}}", "10^{{10^{{{n}}}}}", "\\sqrt{{{n}}}^{{{m}}}",
    "\\frac{{{n}}}{{{m}}}^{{{m}}}", "{n}.{m}\\overline{{{m}}}", "\\sin({n}^{{{m}}})",
]  # fmt: skip


def clip(text: str) -> str:
    """``text`` cut to at most ``MAX_BYTES`` UTF-8 bytes."""
    return text.encode()[:MAX_BYTES].decode(errors="ignore")


numbers = st.one_of(
    st.integers(0, 10**12).map(str),
    st.sampled_from(["999999999", "1e100", "10^{100}", "9" * 50, "1" + "0" * 400]),
    st.integers(1, 4000).map(lambda k: "9" * k),
)


@st.composite
def huge_number(draw) -> str:
    form = draw(st.sampled_from(NUMBER_FORMS))
    return form.format(n=draw(numbers), m=draw(numbers))


@st.composite
def bracket_soup(draw) -> str:
    parts = draw(
        st.lists(st.sampled_from([*BRACKETS, "a", "1", "+", "x"]), min_size=1, max_size=60)
    )
    return "".join(parts) * draw(st.integers(1, 200))


@st.composite
def deep_nesting(draw) -> str:
    opener, closer = draw(st.sampled_from([("{", "}"), ("(", ")"), ("\\{", "\\}"), ("[", "]"),
                                           ("\\sqrt{", "}"), ("\\frac{1}{", "}"), ("x^{", "}"),
                                           ("\\left(", "\\right)"), ("\\{1, ", "\\}")]))  # fmt: skip
    depth = draw(st.integers(1, 400))
    closed = draw(st.booleans())
    return (
        opener * depth
        + draw(st.sampled_from(["1", "x", "a+b"]))
        + (closer * depth if closed else "")
    )


@st.composite
def repeated_names(draw) -> str:
    joiner = draw(st.sampled_from([", ", " and ", " ", ": ", " | ", " is ", ", and ", " & ", "\n"]))
    names = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=12))
    tail = draw(st.sampled_from(["", ". " + KK_ANSWER, " are knights", ": knaves", " is a knight"]))
    head = draw(
        st.sampled_from(["", "Knights: ", "everyone except ", "if ", "<answer>", "\\boxed{"])
    )
    return head + joiner.join(names * 400) + tail


@st.composite
def power_of_sum(draw) -> str:
    terms = draw(st.lists(st.sampled_from("abcdfghxyz1"), min_size=2, max_size=12, unique=True))
    return f"({'+'.join(terms)})^{{{draw(st.integers(2, 10**6))}}}"


@st.composite
def rational_function(draw) -> str:
    """A fraction of sums of powers in up to 8 variables: short, and a gcd over all of them."""
    names = draw(st.lists(st.sampled_from("xyzwvabc"), min_size=1, max_size=8, unique=True))

    def side():
        return draw(st.sampled_from("+-")).join(
            f"{n}^{{{draw(st.integers(1, 120))}}}" for n in draw(st.permutations(names))
        )

    return f"\\frac{{{side()}}}{{{side()}}}"


@st.composite
def unicode_run(draw) -> str:
    char = draw(st.sampled_from(UNICODE))
    return draw(st.sampled_from(["", "1", "\\boxed{"])) + char * draw(st.integers(1, 4000))


@st.composite
def tail_of_values(draw) -> str:
    """A sentence after an answer that names values by the hundred behind an opener the lexicon
    reads ("Otherwise", "One of", "it's", "Heads:"): every value is a candidate to weigh."""
    opener = draw(st.sampled_from(["Otherwise ", "Honestly ", "One of this and ", "it's ",
                                   "Heads: ", "Could it be ", "x = ", "Conf: lo. "]))  # fmt: skip
    value = draw(st.sampled_from(["8", "888", "Bob", "0 0 8", "25*2-7", "8%", "0.6"]))
    joiner = draw(st.sampled_from([" ", ", ", " and ", " or ", ", it's ", " = "]))
    return opener + joiner.join([value] * 800) + draw(st.sampled_from([".", "?", ". No."]))


TOKENS = st.sampled_from(
    list("0123456789+-*/^_=(){}[],.!| \n\\abcxyzeE") + BRACKETS + UNICODE
    + ["\\frac", "\\sqrt", "\\boxed{", "\\Gamma", "\\binom", "\\cdot", "\\times", "\\pi",
       "\\sin", "\\log", "\\sum_{k=1}^{", "\\int", "\\infty", "\\text{", "\\cup"]
)  # fmt: skip
random_text = st.lists(TOKENS, max_size=600).map("".join)  # answers of the parser's tokens
short_text = st.lists(TOKENS, min_size=1, max_size=60).map("".join)  # under the length caps
HOSTILE = st.one_of(
    huge_number(), bracket_soup(), deep_nesting(), repeated_names(), power_of_sum(), unicode_run(),
    rational_function(),
    random_text, short_text, short_text,
)  # fmt: skip


@st.composite
def answer_for(draw, task: str) -> tuple[str, str]:
    """(response, gold): a hostile answer wrapped the way the task's grader reads answers."""
    if draw(st.integers(0, 9)) == 0:  # one of the shapes that held graders before, as it is
        return clip(draw(st.sampled_from(KNOWN))), draw(st.sampled_from(GOLDS[task]))
    body = clip(draw(HOSTILE))[: MAX_BYTES - 256]  # room for the wrapper: the box stays closed
    if draw(st.integers(0, 9)) == 0:  # a right-looking answer, then a tail of many values
        tail = clip(draw(tail_of_values()))[: MAX_BYTES - 256]
        heads = {"code": "```python\nprint(7)\n```", "logic": f"<answer>{KK_ANSWER}</answer>"}
        head = heads.get(task, "\\boxed{7}")
        return clip(f"{head}\n\n{tail}"), draw(st.sampled_from(GOLDS[task]))
    wrap = draw(st.sampled_from(["box", "box", "box", "raw", "think"]))
    if task == "code":
        text = f"```python\n{body}\n```" if wrap != "raw" else body
    elif task == "logic":
        text = body if wrap == "raw" else f"<answer>{body}</answer>"
    else:
        text = body if wrap == "raw" else f"\\boxed{{{body}}}"
    if wrap == "think":
        text = f"<think>{body[:120]}</think> {text}"
    return clip(text), draw(st.sampled_from(GOLDS[task]))


# ----- the grading child -----


def _grade(task: str, text: str, gold: str) -> str:
    from pac_verl.verifiers import score
    from pac_verl.verifiers.guards import precheck

    if task == "code":
        from pac_verl.verifiers.code import extract_programs

        return f"{len(extract_programs(text))} programs"
    verdict = precheck(task, text, gold) or score(task, text, gold)
    return verdict.reason


def _child(conn) -> None:
    import time

    for task in TASKS:  # imports and caches, outside the measured calls
        _grade(task, "\\boxed{1}", GOLDS[task][0])
    for gold in GOLDS["math"]:
        _grade("math", "\\boxed{1}", gold)
    conn.send("ready")
    while True:
        try:
            task, text, gold = conn.recv()
        except EOFError:
            return
        started = time.process_time()
        reason = _grade(task, text, gold)
        conn.send((reason, time.process_time() - started))


class Grader:
    """One grading child at a time, killed and replaced when it misses ``timeout_s``."""

    def __init__(self, timeout_s: float) -> None:
        self.timeout_s = timeout_s
        self.ctx = multiprocessing.get_context("fork")
        self.proc = None
        self.start()

    def start(self) -> None:
        self.conn, theirs = self.ctx.Pipe()
        self.proc = self.ctx.Process(target=_child, args=(theirs,), daemon=True)
        self.proc.start()
        assert self.conn.recv() == "ready"

    def grade(self, task: str, text: str, gold: str) -> tuple[str, float | None]:
        self.conn.send((task, text, gold))
        if self.conn.poll(self.timeout_s):
            return self.conn.recv()
        self.proc.kill()
        self.proc.join()
        self.start()
        return "reached timeout_s", None

    def close(self) -> None:
        self.proc.kill()
        self.proc.join()


def fuzz(task: str, grader: Grader, n: int, seed_value: int) -> list[tuple[str, str, float | None]]:
    results: list[tuple[str, str, float | None]] = []

    @seed(seed_value)
    @settings(max_examples=n, database=None, deadline=None, derandomize=False,
              suppress_health_check=list(HealthCheck), phases=["generate"])  # fmt: skip
    @given(answer_for(task))
    def run(pair):
        text, gold = pair
        reason, cpu = grader.grade(task, text, gold)
        results.append((text, reason, cpu))

    run()
    return results


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=200, help="answers per task")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--timeout-s", type=float, default=10.0)
    parser.add_argument("--max-cpu", type=float, default=0.5)
    parser.add_argument("--tasks", default=",".join(TASKS))
    args = parser.parse_args()

    from pac_verl.progress import print_summary

    grader = Grader(args.timeout_s)
    rows, failed = [], False
    try:
        for task in args.tasks.split(","):
            results = fuzz(task, grader, args.n, args.seed)
            cpus = [cpu for _, _, cpu in results if cpu is not None]
            timeouts = sum(cpu is None for _, _, cpu in results)
            worst_text, _, _ = max(results, key=lambda r: math_inf(r[2]))
            reasons = collections.Counter(
                reason if not reason.endswith("programs") else "extracted"
                for _, reason, _ in results
            )
            over = timeouts > 0 or max(cpus, default=0.0) > args.max_cpu
            if over:  # the answers to fix, whole
                for text, reason, cpu in results:
                    if cpu is None or cpu > args.max_cpu:
                        print(f"{task} {reason} {cpu}: {text!r}", file=sys.stderr)
            failed |= over
            rows.append([
                task, len(results), f"{max(cpus, default=0.0):.3f}",
                f"{statistics.median(cpus):.4f}" if cpus else "-", timeouts,
                " ".join(f"{r}x{c}" for r, c in reasons.most_common(5)),
                repr(worst_text[:40]),
            ])  # fmt: skip
            print(f"{task}: done", file=sys.stderr, flush=True)
    finally:
        grader.close()
    print_summary(
        "Hostile answers of at most 4 KB against every grader (CPU seconds per answer)",
        ["task", "answers", "worst CPU s", "median CPU s", "reached timeout_s", "reasons (top 5)",
         "worst answer starts"],
        rows,
        {"target": f"no answer over {args.max_cpu:g} s of grader CPU, none reaching timeout_s "
                   f"({args.timeout_s:g} s)", "result": "FAIL" if failed else "ok"},
    )  # fmt: skip
    return 1 if failed else 0


def math_inf(cpu: float | None) -> float:
    return float("inf") if cpu is None else cpu


if __name__ == "__main__":
    sys.exit(main())

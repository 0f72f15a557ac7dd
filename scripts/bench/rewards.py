"""Benchmark: pac-verl's math and K&K-free scorers against verl 0.7.1's built-in math scorers.

Same responses for everyone (correct, wrong, malformed; known truth by construction), one table:
responses per second and agreement with the truth. verl 0.7.1 ships no Countdown scorer (TinyZero's
lived in its own fork), so Countdown is timed for ours alone. Code: ours in the sandbox against
verl's ``prime_code`` (which runs the program in a forked child, no isolation; imported with a
bench-only stand-in for ``pyext``, see ``reference_scorers.py``) on stdin/stdout tests. verl's ``math_verify`` wrapper uses
math-verify's SIGALRM timeouts, so this script runs on the main thread where they work.
Then the agreement of every task's scorer with hand labels, against the scorers researchers use
(``agreement.py`` beside this file).

    python scripts/bench/rewards.py [--n 600] [--n-throughput 400] [--only agreement|throughput]
        [--reference tinyzero=DIR] [--reference logic-rl=DIR] [--reference code-r1=DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import time
from concurrent.futures import ProcessPoolExecutor

import numpy as np
import reference_scorers  # scripts/bench/: beside this script
from agreement import add_reference_option, bounded, checkouts, print_agreement, references
from verl.utils.reward_score import math_dapo, math_reward, prime_math
from verl.utils.reward_score import math_verify as verl_math_verify

from pac_verl.progress import print_summary
from pac_verl.verifiers import compute_score, compute_score_async, score
from pac_verl.verifiers.pool import close_shared_pool, shared_pool

FORMS = [  # (gold, equivalent correct answers)
    ("204", ["204", "204.0", "\\text{204}"]),
    ("\\frac{1}{2}", ["\\frac{1}{2}", "0.5", "\\dfrac{1}{2}", "1/2"]),
    ("\\sqrt{3}", ["\\sqrt{3}", "\\sqrt3", "3^{1/2}"]),
    ("2\\pi", ["2\\pi", "\\pi \\cdot 2", "2 \\pi"]),
    ("-7", ["-7", "-7.0", "(-7)"]),
]


def math_items(n: int, rng: random.Random) -> list[tuple[str, str, bool]]:
    items = []
    for i in range(n):
        gold, forms = FORMS[i % len(FORMS)]
        kind = i % 3
        if kind == 0:
            items.append(
                (f"<think>work</think> The answer is \\boxed{{{rng.choice(forms)}}}.", gold, True)
            )
        elif kind == 1:
            items.append((f"So the answer is \\boxed{{{rng.randint(1000, 9999)}}}.", gold, False))
        else:
            items.append((f"The answer is {rng.choice(forms)} (no box) \\boxed{{", gold, False))
    return items


def countdown_items(n: int) -> list[tuple[str, str, bool]]:
    truth = json.dumps({"target": 30, "numbers": [21, 95, 8, 2, 26, 2]})
    answers = [  # (response, correct): right, wrong value, numbers missing, malformed, hostile
        ("\\boxed{(95-26-21)/2+8-2}", True),
        ("<think>try</think> \\boxed{(95 - 26 - 21) \\div 2 + 8 - 2}", True),
        ("\\boxed{(95-26-21)/2+8+2}", False),
        ("\\boxed{95-21}", False),
        ("The answer is (95-26-21)/2+8-2", False),
        ("\\boxed{__import__('os').getcwd()}", False),
    ]
    return [(answers[i % 6][0], truth, answers[i % 6][1]) for i in range(n)]


def code_items(n: int) -> list[tuple[str, str, bool]]:
    truth = json.dumps({"inputs": ["3\n", "10\n"], "outputs": ["6\n", "20\n"]})
    answers = [
        ("n = int(input())\nprint(n * 2)", True),
        ("n = int(input())\nprint(n + 2)", False),  # right on neither case
        ("print(int(input()) * 2", False),  # syntax error
    ]
    return [(f"```python\n{answers[i % 3][0]}\n```", truth, answers[i % 3][1]) for i in range(n)]


def bench(name: str, fn, items) -> list[object]:
    t0 = time.perf_counter()
    agree = sum(bool(fn(s, gt)) == truth for s, gt, truth in items)
    dt = time.perf_counter() - t0
    return [name, len(items), len(items) / dt, agree / len(items)]


# ----- throughput: verifications/s per task type, one core and all cores -----

REFERENCES = {  # verl 0.7.1's own math scorers, called in-process as verl would
    "verl math_verify": lambda s, g: verl_math_verify.compute_score(s, g),
    "verl math_dapo": lambda s, g: math_dapo.compute_score(s, g),
    "verl prime_math": lambda s, g: prime_math.compute_score(s, g),
}


def _reference(args):
    name, s, g = args
    return REFERENCES[name](s, g)


def typed_items(n: int, rng: random.Random) -> dict[str, list[tuple[str, str]]]:
    kk = json.dumps({"names": ["Ann", "Bob"], "solution": [True, False]})
    return {
        "math": [(s, g) for s, g, _ in math_items(n, rng)],
        "countdown": [(s, g) for s, g, _ in countdown_items(n)],
        "zebra": [("\\boxed{Arnold}" if i % 2 else "\\boxed{Bob}", "arnold") for i in range(n)],
        "arc": [("\\boxed{1 2 3 4}" if i % 2 else "\\boxed{4 3 2 1}", "1 2 3 4") for i in range(n)],
        "logic": [("Ann is a knight. Bob is a knave." if i % 2 else "Ann is a knave.", kk)
                  for i in range(n)],
    }  # fmt: skip


def _rate_and_latency(latencies: list[float], wall: float) -> list[object]:
    p50, p99 = np.percentile(latencies, [50, 99]) * 1000
    return [len(latencies), len(latencies) / wall, f"{p50:.2f}", f"{p99:.2f}"]


def _other_references(checkouts: dict[str, str] | None) -> dict[str, dict[str, object]]:
    """The agreement bench's references of the non-math task types (math's are timed below)."""
    refs, _ = references(checkouts)
    return {task: scorers for task, scorers in refs.items() if task != "math"}


def throughput(n: int, checkouts: dict[str, str] | None = None) -> None:
    """Verifications/s per task type: our bounded entry on one core (one worker, one call at a
    time) and on all cores (``compute_score_async`` gathering the whole set over one worker per
    CPU, as verl's reward worker gathers a chunk), the in-process scorer alone, verl's math
    scorers in-process on one core and over a process pool on all cores, and the other task
    types' references (reasoning-gym; TinyZero and Logic-RL when given) in-process on one core,
    called as the agreement bench calls them (their prints swallowed)."""
    cores = len(os.sched_getaffinity(0))
    others = _other_references(checkouts)
    rows = []
    for task_type, items in typed_items(n, random.Random(1)).items():
        info = {"type": task_type}
        t0, lat = time.perf_counter(), []
        for s, g in items:
            t = time.perf_counter()
            score(task_type, s, g)
            lat.append(time.perf_counter() - t)
        rows.append([task_type, "pac-verl score() in the caller (unbounded)", 1,
                     *_rate_and_latency(lat, time.perf_counter() - t0)])  # fmt: skip
        for workers in (1, cores):
            close_shared_pool()
            compute_score("b", *items[0], info, workers=workers)  # start the zygote: not timed
            if workers == 1:
                t0 = time.perf_counter()
                lat = [compute_score("b", s, g, info, workers=1)["latency_s"] for s, g in items]
            else:
                for _ in range(workers):  # warm one worker per core
                    shared_pool().score(task_type, *items[0], 60)

                async def run(items=items, info=info, workers=workers):
                    calls = [
                        compute_score_async("b", s, g, info, workers=workers) for s, g in items
                    ]
                    return [r["latency_s"] for r in await asyncio.gather(*calls)]

                t0 = time.perf_counter()
                lat = asyncio.run(run())
            rows.append([task_type, "pac-verl compute_score (bounded, worker pool)", workers,
                         *_rate_and_latency(lat, time.perf_counter() - t0)])  # fmt: skip
        for name, fn in others.get(task_type, {}).items():
            t0, lat = time.perf_counter(), []
            for s, g in items:
                t = time.perf_counter()
                bounded(fn, {"response": s, "ground_truth": g})
                lat.append(time.perf_counter() - t)
            rows.append([task_type, name, 1, *_rate_and_latency(lat, time.perf_counter() - t0)])
        if task_type == "math":
            for name in REFERENCES:
                t0, lat = time.perf_counter(), []
                for s, g in items:
                    t = time.perf_counter()
                    REFERENCES[name](s, g)
                    lat.append(time.perf_counter() - t)
                rows.append(["math", name, 1, *_rate_and_latency(lat, time.perf_counter() - t0)])
                with ProcessPoolExecutor(cores) as ex:
                    list(ex.map(_reference, [(name, *items[0])] * cores))  # warm
                    t0 = time.perf_counter()
                    list(ex.map(_reference, [(name, s, g) for s, g in items], chunksize=8))
                    wall = time.perf_counter() - t0
                rows.append(["math", f"{name} (process pool)", cores, len(items), len(items) / wall,
                             "-", "-"])  # fmt: skip
    close_shared_pool()
    print_summary(
        f"Reward throughput per task type ({n} responses each; latency per call, ms)",
        ["task", "scorer", "cores", "responses", "responses/s", "p50 ms", "p99 ms"],
        rows,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=600)
    parser.add_argument("--n-code", type=int, default=30)
    parser.add_argument("--n-throughput", type=int, default=400)
    parser.add_argument("--only", choices=["agreement", "throughput"], default=None)
    add_reference_option(parser)  # TinyZero, Logic-RL, Code-R1 from local checkouts
    args = parser.parse_args()
    refs = checkouts(parser, args)
    if args.only != "agreement":
        throughput(args.n_throughput, refs)
    if args.only == "throughput":
        return
    rng = random.Random(0)
    maths = math_items(args.n, rng)
    rows = [
        bench("pac-verl math (math-verify)", lambda s, g: score("math", s, g).correct, maths),
        bench("verl math_verify", lambda s, g: verl_math_verify.compute_score(s, g) >= 1, maths),
        bench(
            "verl math_reward (hendrycks)", lambda s, g: math_reward.compute_score(s, g) >= 1, maths
        ),
        bench("verl math_dapo", lambda s, g: math_dapo.compute_score(s, g)["score"] > 0, maths),
        bench("verl prime_math", lambda s, g: prime_math.compute_score(s, g)[0], maths),
        bench(
            "pac-verl countdown",
            lambda s, g: score("countdown", s, g).correct,
            countdown_items(args.n),
        ),
        bench(
            "pac-verl code (sandbox)",
            lambda s, g: score("code", s, g).correct,
            code_items(args.n_code),
        ),
    ]
    # verl 0.7.1's verl/utils/reward_score/ has no countdown module (TinyZero's is not in verl)
    rows.append(["verl countdown", 0, float("nan"), "not in verl 0.7.1"])
    try:  # pyext (verl's `prime` extra) does not build on 3.11: a bench-only shim stands in
        prime_code, how = reference_scorers.prime_code()
    except ImportError as err:
        rows.append(["verl prime_code", 0, float("nan"), f"not runnable here: {err}"])
    else:
        code_fn = lambda s, g: reference_scorers.prime_code_accepts(prime_code, s, g)  # noqa: E731
        name = "verl prime_code (no sandbox" + (", pyext shim)" if how == "shim" else ")")
        rows.append(bench(name, code_fn, code_items(args.n_code)))
    print_summary(
        "Reward throughput and agreement with the known truth (same responses)",
        ["scorer", "responses", "responses/s", "agreement"],
        rows,
    )
    print_agreement(checkouts=refs)
    from sandbox import code_section  # scripts/bench/sandbox.py: the code sandbox's own section

    print_summary("Code verifications per second per core (strict isolation)",
                  ["scorer", "runs", "per s per core", "agreement"], code_section(args.n_code * 4))  # fmt: skip


if __name__ == "__main__":
    main()

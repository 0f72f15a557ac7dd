"""Benchmark: the math form rule against a labelled set of form problems written by others.

    python scripts/bench/form_agreement.py [PATH] [--show-disagreements]

``PATH`` (default ``form_problems.jsonl`` beside this file): one MATH-style form problem a line
(expand, factor, reduce, rationalise, simplify, ...) with ``question``, ``question_expressions``,
``gold``, ``family`` and ``responses`` (``text``, ``label`` 1 when a careful grader accepts the
final answer, ``ambiguous``). Every non-ambiguous response is scored through ``compute_score``,
the entry verl calls, with ``extra_info`` carrying the question and its expressions as the rows
do (docs/guides/rewards.md#math-forms); a response is accepted when its ``acc`` is 1. Prints the
agreement with the labels per family and in total, right answers rejected and wrong ones accepted.
The figures: docs/results/agreement.md.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

DEFAULT = Path(__file__).with_name("form_problems.jsonl")


def load(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


def measure(problems: list[dict]) -> tuple[dict[str, list[int]], list[tuple]]:
    """Per family ``[agree, total, rejected_right, accepted_wrong]`` and the disagreements."""
    from pac_verl.verifiers import compute_score

    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    misses = []
    for problem in problems:
        info = {"type": "math", "question": problem["question"],
                "question_expressions": list(problem.get("question_expressions") or [])}  # fmt: skip
        for response in problem["responses"]:
            if response.get("ambiguous"):
                continue
            result = compute_score("math", response["text"], problem["gold"], dict(info))
            accepted, label = result["acc"] == 1.0, bool(response["label"])
            row = counts[problem.get("family", "?")]
            row[0] += accepted == label
            row[1] += 1
            row[2] += label and not accepted
            row[3] += accepted and not label
            if accepted != label:
                misses.append((problem.get("id"), problem["gold"], response["text"][-80:],
                               int(label), result["reason"]))  # fmt: skip
    return dict(counts), misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--show-disagreements", action="store_true")
    args = parser.parse_args(argv)
    if not args.path.is_file():
        print(f"no labelled set at {args.path}: nothing to measure")
        return 0
    counts, misses = measure(load(args.path))
    print_table("family", counts, misses if args.show_disagreements else [])
    return 0


def print_table(key: str, counts: dict[str, list[int]], misses: list[tuple]) -> None:
    """One row per ``key`` (agree, responses, right rejected, wrong accepted), a total, then the
    ``misses`` given, one a line."""
    total = [sum(c[i] for c in counts.values()) for i in range(4)]
    print(f"{key:<16}{'responses':>10}{'agreement':>11}{'right rejected':>16}"
          f"{'wrong accepted':>16}")  # fmt: skip
    for name, (agree, n, rejected, accepted) in [*sorted(counts.items()), ("total", total)]:
        print(f"{name:<16}{n:>10}{agree / max(n, 1):>11.3f}{rejected:>16}{accepted:>16}")
    for miss in misses:
        print("  ", *miss, sep=" | ")


if __name__ == "__main__":
    sys.exit(main())

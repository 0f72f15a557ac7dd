"""Benchmark: every task's grader against responses labelled blind, by someone who never read it.

    python scripts/bench/blind_agreement.py [PATH] [--show-disagreements]

``PATH`` (default ``blind_responses.jsonl`` beside this file): one labelled response a line, to a
row built by ``pac-verl prep`` (``data_source``, ``ground_truth``, ``extra_info`` as the row has
them), with ``task``, ``response``, ``label`` (1 when a careful judge accepts it as solving the
task as asked, 0 when not, ``"ambiguous"`` when judges could differ) and ``why``. The labels were
written from the task statements and golds alone, before their writer saw any grading code; the
set's sha256 is in docs/results/agreement.md. Every non-ambiguous response is scored through
``compute_score``, the entry verl calls; it is accepted when its ``acc`` is 1. Prints the
agreement per task and in total, right answers rejected and wrong ones accepted.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

from form_agreement import load, print_table  # beside this script

DEFAULT = Path(__file__).with_name("blind_responses.jsonl")


def measure(rows: list[dict]) -> tuple[dict[str, list[int]], list[tuple]]:
    """Per task ``[agree, total, rejected_right, accepted_wrong]`` and the disagreements."""
    from pac_verl.verifiers import compute_score

    counts: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    misses = []
    for row in rows:
        if row["label"] not in (0, 1):
            continue
        result = compute_score(row["data_source"], row["response"], row["ground_truth"],
                               dict(row.get("extra_info") or {}))  # fmt: skip
        accepted, label = result["acc"] == 1.0, bool(row["label"])
        tally = counts[row["task"]]
        tally[0] += accepted == label
        tally[1] += 1
        tally[2] += label and not accepted
        tally[3] += accepted and not label
        if accepted != label:
            misses.append((row["id"], int(label), result["reason"], row["why"][:80],
                           row["response"][-100:].replace("\n", "⏎")))  # fmt: skip
    return dict(counts), misses


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--show-disagreements", action="store_true")
    args = parser.parse_args(argv)
    if not args.path.is_file():
        print(f"no labelled set at {args.path}: nothing to measure")
        return 0
    rows = load(args.path)
    counts, misses = measure(rows)
    ambiguous = sum(row["label"] not in (0, 1) for row in rows)
    print(f"{len(rows)} responses, {ambiguous} ambiguous (not scored)")
    print_table("task", counts, misses if args.show_disagreements else [])
    return 0


if __name__ == "__main__":
    sys.exit(main())

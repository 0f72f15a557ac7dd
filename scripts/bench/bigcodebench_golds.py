"""Check: BigCodeBench's canonical solutions, scored as training scores them.

Every task's canonical solution (BigCodeBench's ``complete_prompt`` + ``canonical_solution``, what
its own ground-truth check runs; ``--prompt code`` takes the prompt without the docstring, what
``data_prep`` stores as a row's gold) goes through the project's public ``compute_score`` as a
BigCodeBench row (ground truth ``{"test": ..., "entry_point": ...}``), under the sandbox settings
of the environment (``PAC_SANDBOX_*``: the isolation level, the interpreter). A canonical solution
is right by definition, so every 0 that is not ``missing_library`` is a fault of the scorer, of the
sandbox or of the environment.

    python scripts/bench/bigcodebench_golds.py BigCodeBench.jsonl.gz [--only-installed]
        [--stdlib-only] [--limit N] [--workers N] [--timeout-s S] [--queue-s S] [--show N]

The task set is BigCodeBench's public one (``data/BigCodeBench.jsonl.gz`` of GitHub
``bigcode-project/bigcodebench-annotation``, or the ``bigcode/bigcodebench`` dataset exported as
JSON lines); it is read, never stored in this repository. ``--only-installed`` skips the tasks
whose ``libs`` the sandbox interpreter cannot import; ``--stdlib-only`` keeps the tasks whose
``libs`` are all standard library modules. The table gives tasks, skipped, ``missing_library``,
scored 1 and scored 0 by reason; under it the first failures, each with what the harness reported
(the tests that failed and the exception each raised), from one more run of that task.
"""

from __future__ import annotations

import argparse
import collections
import gzip
import json
import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from pac_verl.progress import print_summary
from pac_verl.verifiers import compute_score
from pac_verl.verifiers.code import default_limits
from pac_verl.verifiers.sandbox import isolation_report, run_job


def read_tasks(path: Path) -> list[dict]:
    opener = gzip.open if path.suffix == ".gz" else open
    with opener(path, "rt", encoding="utf-8") as f:
        rows = [json.loads(line) for line in f if line.strip()]
    for row in rows:
        libs = row.get("libs")
        if isinstance(libs, str):  # the hub's export holds the list as its repr
            row["libs"] = [x.strip(" '\"") for x in libs.strip("[]").split(",") if x.strip()]
    return rows


def solution(task: dict, prompt: str) -> str:
    """The canonical solution after its prompt. A docstring that holds a code fence (```) would
    cut the program short when the response is read (a response's program is its fenced code):
    such a task gets the prompt without the docstring."""
    complete = task.get("prompt") or task.get("complete_prompt")
    bare = task.get("prompt_wo_doc") or task.get("code_prompt")
    head = bare if prompt == "code" or "```" in complete else complete
    return head + "\n" + task["canonical_solution"]


def installed(python: str, libs: set[str]) -> set[str]:
    """The libraries of ``libs`` that ``python`` can import (found, not imported)."""
    probe = (
        "import importlib.util, json, sys\nok = []\nfor n in json.loads(sys.argv[1]):\n"
        "    try:\n        if importlib.util.find_spec(n) is not None:\n            ok.append(n)\n"
        "    except (ImportError, ValueError):\n        pass\nprint(json.dumps(ok))\n"
    )
    out = subprocess.run([python, "-c", probe, json.dumps(sorted(libs))], capture_output=True,
                         text=True, check=True, timeout=120).stdout  # fmt: skip
    return set(json.loads(out))


def score_one(task: dict, prompt: str, timeout_s: float, queue_s: float) -> str:
    truth = json.dumps({"test": task["test"], "entry_point": task["entry_point"]})
    response = f"```python\n{solution(task, prompt)}\n```"
    result = compute_score("bigcodebench", response, truth, {"type": "code"},
                           timeout_s=timeout_s, queue_s=queue_s)  # fmt: skip
    return result["reason"]


def detail(task: dict, prompt: str) -> str:
    """What the harness reports for the task (one more run): the failing tests and exceptions."""
    job = {"kind": "unittest", "code": solution(task, prompt), "tests": task["test"]}
    result = run_job(job, default_limits("unittest"))
    if not result.passed:
        return f"{result.reason} {result.detail[-160:]}".strip()
    report = result.report
    keys = ("missing", "test_error", "error", "tampered", "failed")
    return json.dumps({k: report[k] for k in keys if report.get(k)})[:300]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", type=Path, help="BigCodeBench.jsonl(.gz)")
    parser.add_argument("--only-installed", action="store_true",
                        help="skip tasks whose libs the sandbox interpreter lacks")  # fmt: skip
    parser.add_argument("--stdlib-only", action="store_true",
                        help="only tasks whose libs are all standard library modules")  # fmt: skip
    parser.add_argument("--prompt", choices=("complete", "code"), default="complete")
    parser.add_argument("--limit", type=int, default=0, help="the first N tasks only")
    parser.add_argument("--workers", type=int, default=max(1, len(os.sched_getaffinity(0))))
    parser.add_argument("--timeout-s", type=float, default=60.0,
                        help="the reward's timeout_s (BigCodeBench's own CPU limit: 60 s)")  # fmt: skip
    parser.add_argument("--queue-s", type=float, default=600.0,
                        help="the reward's queue_s: a busy machine must not turn golds into "
                        "'overloaded'")  # fmt: skip
    parser.add_argument("--show", type=int, default=15, help="failures listed with details")
    args = parser.parse_args()
    if not args.tasks.is_file():
        parser.error(f"{args.tasks} is not a file: give the path of BigCodeBench.jsonl.gz")

    tasks = read_tasks(args.tasks)
    if args.limit:
        tasks = tasks[: args.limit]
    report = isolation_report()
    stdlib = set(sys.stdlib_module_names)
    if args.stdlib_only:
        tasks = [t for t in tasks if set(t["libs"]) <= stdlib]
    skipped = 0
    if args.only_installed:
        have = installed(report["python"], {lib for t in tasks for lib in t["libs"]})
        kept = [t for t in tasks if set(t["libs"]) <= have]
        skipped, tasks = len(tasks) - len(kept), kept

    started = time.perf_counter()
    with ThreadPoolExecutor(args.workers) as pool:
        reasons = list(
            pool.map(lambda t: score_one(t, args.prompt, args.timeout_s, args.queue_s), tasks)
        )
    seconds = time.perf_counter() - started

    std = [set(t["libs"]) <= stdlib for t in tasks]
    columns = [
        collections.Counter(reasons),
        collections.Counter(r for r, s in zip(reasons, std) if s),
    ]
    sizes = [len(tasks), sum(std)]

    def row(name: str, values: list[int]) -> list[object]:
        return [name, *values]

    rows: list[list[object]] = [
        row("tasks", [sizes[0] + skipped, sizes[1]]),
        row("skipped (libs not installed)", [skipped, 0]),
        row("missing_library (the tests' imports)", [c["missing_library"] for c in columns]),
    ]
    scored = [n - c["missing_library"] for n, c in zip(sizes, columns)]
    rows.append(row("scored", scored))
    rows.append(row("scored 1", [c["ok"] for c in columns]))
    rows.append(["scored 1, share of scored",
                 *(f"{100 * c['ok'] / max(1, n):.1f}%" for c, n in zip(columns, scored))])  # fmt: skip
    for reason, _ in columns[0].most_common():
        if reason not in ("ok", "missing_library"):
            rows.append(row(f"scored 0: {reason}", [c[reason] for c in columns]))
    print_summary(
        "BigCodeBench canonical solutions through compute_score",
        ["", "all kept", "of which stdlib-only"],
        rows,
        {
            "isolation": report["isolation"],
            "python": report["python"],
            "prompt": args.prompt,
            "timeout_s": args.timeout_s,
            "queue_s": args.queue_s,
            "workers": args.workers,
            "seconds": seconds,
        },
    )
    failures = [(t, r) for t, r in zip(tasks, reasons) if r not in ("ok", "missing_library")]
    for task, reason in failures[: args.show]:
        print(f"{task['task_id']}: {reason}: {detail(task, args.prompt)}")
    if len(failures) > args.show:
        rest = ", ".join(t["task_id"].split("/")[-1] for t, _ in failures[args.show :])
        print(f"... and {len(failures) - args.show} more: {rest}")


if __name__ == "__main__":
    main()

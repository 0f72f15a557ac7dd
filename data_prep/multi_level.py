"""Multi-level setting (SPEC 7, 10; SEC's recipe in BASELINES.md): Countdown, Zebra, ARC-1D at 4 levels.

Levels (1..3 train and validate, 4 validates only):

| task      | level 1 | level 2 | level 3 | level 4 | generator |
|-----------|---------|---------|---------|---------|-----------|
| countdown | 3 numbers | 4 | 5 | 6 | ours: values 1..100, a random expression tree over the numbers whose every intermediate value is a positive integer, target = its value in 1..1000 (so every puzzle is solvable and carries its solution) |
| zebra     | 3x3 | 4x4 | 5x5 | 6x6 | ours (:mod:`.zebra`): houses = attributes = level + 2, clues added until propagation alone pins every value (so the solution is unique), then implied clues dropped |
| arc       | length 10 | 20 | 30 | 40 | reasoning-gym 0.1.25 ``arc_1d`` (min_size = max_size = 10 * level, num_train = 3) |

Rows follow SPEC 10: training ``data_source`` is the task (``countdown``), validation's is
``<task>/<level>``; ``extra_info`` holds ``type``, ``difficulty``, ``split``, ``index``, ``key`` (the
canonical puzzle key: validation is generated first and training skips every puzzle whose key is
in it) and, for Countdown, ``solution`` (the generator's expression, the gold for ``prep check``).
Every row's gold answer is scored by the project's verifier before anything is written; a row it
rejects is a bug and the build fails. Shards (task, level, split) get seeds derived from ``seed``
alone, so the files do not depend on the number of worker processes; a fixed seed writes the same
bytes.

Speed: everything is generated here without search; the full 92,400 rows take about a minute on
2 cores (``scripts/bench/data_prep.py``). reasoning-gym's own Zebra generator, which checks
uniqueness by search after every clue, managed about 3 puzzles per second at 5x5 on this machine.
"""

from __future__ import annotations

import hashlib
import json
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pac_verl.data_prep import prompts
from pac_verl.data_prep.rows import make_row, write_parquet
from pac_verl.errors import UserError
from pac_verl.progress import Stopwatch, print_summary, progress

TASKS = ("countdown", "zebra", "arc")
TRAIN_LEVELS = (1, 2, 3)
VAL_LEVELS = (1, 2, 3, 4)


@dataclass(frozen=True)
class Shard:
    task: str
    level: int
    split: str  # train | val
    count: int
    seed: int
    exclude: frozenset[str] = frozenset()


def shard_seed(seed: int, task: str, level: int, split: str) -> int:
    digest = hashlib.sha256(f"{seed}/{task}/{level}/{split}".encode()).digest()
    return int.from_bytes(digest[:4], "little")


# ---------------------------------------------------------------- countdown


def countdown_puzzle(rng: random.Random, n_numbers: int) -> tuple[list[int], int, str]:
    """Numbers, target and a solution expression (every intermediate value a positive integer)."""
    while True:
        numbers = [rng.randint(1, 100) for _ in range(n_numbers)]
        items = [(n, str(n)) for n in numbers]
        rng.shuffle(items)
        ok = True
        while len(items) > 1:
            i, j = sorted(rng.sample(range(len(items)), 2))
            (a, ea), (b, eb) = items[i], items[j]
            if a < b:
                (a, ea), (b, eb) = (b, eb), (a, ea)
            choices = [("+", a + b), ("*", a * b)]
            if a > b:
                choices.append(("-", a - b))
            if a % b == 0 and b > 1:
                choices.append(("/", a // b))
            op, value = rng.choice(choices)
            merged = (value, f"({ea}{op}{eb})")
            items = [it for k, it in enumerate(items) if k not in (i, j)] + [merged]
            if value > 100_000:
                ok = False
                break
        target, expr = items[0]
        if ok and 1 <= target <= 1000:
            return numbers, target, expr[1:-1] if expr.startswith("(") else expr


def _countdown_rows(shard: Shard, rng: random.Random):
    while True:
        numbers, target, expr = countdown_puzzle(rng, shard.level + 2)
        key = f"countdown:{sorted(numbers)}:{target}"
        truth = {"target": target, "numbers": numbers}
        yield key, prompts.countdown(numbers, target), truth, {"solution": expr}


# ---------------------------------------------------------------- zebra / arc (reasoning-gym)


def _zebra_rows(shard: Shard, rng: random.Random):
    from pac_verl.data_prep.zebra import generate

    size = shard.level + 2
    while True:
        puzzle = generate(rng, size, size)
        key = "zebra:" + hashlib.sha256(puzzle.key.encode()).hexdigest()[:24]
        yield key, prompts.zebra(puzzle.text), puzzle.answer, {}


def _arc_rows(shard: Shard, rng: random.Random):
    import reasoning_gym

    size = 10 * shard.level
    while True:
        ds = reasoning_gym.create_dataset(
            "arc_1d", seed=rng.randrange(2**31), size=256, min_size=size, max_size=size, num_train=3
        )
        for i in range(len(ds)):
            meta = ds[i]["metadata"]
            examples = [(e["input"], e["output"]) for e in meta["train_examples"]]
            test_in, test_out = meta["test_example"]["input"], meta["test_example"]["output"]
            key = (
                "arc:"
                + hashlib.sha256(
                    json.dumps([meta["task_name"], examples, test_in]).encode()
                ).hexdigest()[:24]
            )
            answer = " ".join(map(str, test_out))
            yield (
                key,
                prompts.arc(examples, test_in),
                answer,
                {"task_name": meta["task_name"]},
            )


GENERATORS = {"countdown": _countdown_rows, "zebra": _zebra_rows, "arc": _arc_rows}


def build_shard(shard: Shard) -> tuple[list[dict[str, Any]], Counter]:
    """Generate one shard's rows, each gold-checked with the verifier."""
    from pac_verl.verifiers import gold_solution, score

    rng = random.Random(shard.seed)
    rows, seen, rejects = [], set(shard.exclude), Counter()
    source = shard.task if shard.split == "train" else f"{shard.task}/{shard.level}"
    for key, prompt, truth, extra in GENERATORS[shard.task](shard, rng):
        if len(rows) == shard.count:
            break
        if key in seen:
            rejects["duplicate_or_in_validation"] += 1
            continue
        seen.add(key)
        row = make_row(
            data_source=source, prompt=prompt, task_type=shard.task, ground_truth=truth,
            split=shard.split, index=len(rows), difficulty=shard.level, key=key, **extra,
        )  # fmt: skip
        info = row["extra_info"]
        gold = gold_solution(shard.task, row["reward_model"]["ground_truth"], info)
        verdict = score(shard.task, gold or "", row["reward_model"]["ground_truth"])
        if not verdict.correct:
            rejects[f"gold_rejected:{verdict.reason}"] += 1
            continue
        rows.append(row)
    return rows, rejects


def _normalise_extra(rows: list[dict[str, Any]]) -> None:
    """One parquet schema for all tasks: every row gets every extra_info field (None if absent)."""
    fields = sorted({k for r in rows for k in r["extra_info"]})
    for r in rows:
        r["extra_info"] = {k: r["extra_info"].get(k) for k in fields}


def build_multi_level(
    out_dir: str | Path,
    train_per_arm: int = 10_000,
    val_per_level: int = 200,
    seed: int = 0,
    workers: int | None = None,
    tasks: tuple[str, ...] = TASKS,
    quiet: bool = False,
) -> dict[str, Any]:
    """Write ``train.parquet`` and ``val.parquet`` under ``out_dir``; returns the summary."""
    if train_per_arm < 0 or val_per_level < 0:
        raise UserError("--train-per-arm and --val-per-level must be >= 0")
    unknown = sorted(set(tasks) - set(TASKS))
    if unknown:
        raise UserError(f"unknown task(s) {unknown}; choose from {', '.join(TASKS)}")
    out_dir = Path(out_dir)
    with Stopwatch() as sw:
        val_shards = [
            Shard(t, lv, "val", val_per_level, shard_seed(seed, t, lv, "val"))
            for t in tasks for lv in VAL_LEVELS
        ]  # fmt: skip
        val = _run(val_shards, workers, "validation", quiet)
        val_keys = frozenset(r["extra_info"]["key"] for rows, _ in val for r in rows)
        train_shards = [
            Shard(t, lv, "train", train_per_arm, shard_seed(seed, t, lv, "train"), val_keys)
            for t in tasks for lv in TRAIN_LEVELS
        ]  # fmt: skip
        train = _run(train_shards, workers, "training", quiet)
        train_rows = [r for rows, _ in train for r in rows]
        val_rows = [r for rows, _ in val for r in rows]
        for rows in (train_rows, val_rows):
            for i, r in enumerate(rows):
                r["extra_info"]["index"] = i
            _normalise_extra(rows)
        paths = {
            "train": write_parquet(train_rows, out_dir / "train.parquet"),
            "val": write_parquet(val_rows, out_dir / "val.parquet"),
        }
    table = []
    for shards, results in ((train_shards, train), (val_shards, val)):
        for shard, (rows, rejects) in zip(shards, results, strict=True):
            arm = f"{shard.task}/{shard.level}"
            table.append([shard.split, arm, len(rows), sum(rejects.values()),
                          ", ".join(f"{k}={v}" for k, v in sorted(rejects.items())) or "-"])  # fmt: skip
    bad = [r for r in table if "gold_rejected" in r[4]]
    summary = {"rows": table, "paths": {k: str(v) for k, v in paths.items()}, "seconds": sw.seconds,
               "train_rows": len(train_rows), "val_rows": len(val_rows)}  # fmt: skip
    if not quiet:
        print_summary("pac-verl prep multi-level", ["split", "arm", "rows", "skipped", "why"], table,
                      {"train": paths["train"], "val": paths["val"],
                       "seconds": round(sw.seconds, 1)})  # fmt: skip
    if bad:
        raise UserError(
            f"the verifier rejected generated gold answers in {[r[1] for r in bad]}: a bug"
        )
    return summary


# Milliseconds per row, generation and gold check, measured on a shared 2-core machine (the
# absolute values are inflated by the load; the bar uses only their ratios): the shards are started
# slowest first and the progress bar advances by this cost, so its ETA holds.
ROW_MS = {"countdown": (0.6, 0.8, 0.8, 1.1), "zebra": (1.7, 5.6, 12.1, 20.2),
          "arc": (0.6, 0.6, 0.6, 0.8)}  # fmt: skip


def _cost(shard: Shard) -> float:
    """Expected milliseconds to build ``shard`` (``ROW_MS``)."""
    return ROW_MS[shard.task][shard.level - 1] * shard.count


def _run(shards: list[Shard], workers: int | None, what: str, quiet: bool):
    """Build shards (largest first over a process pool); results in the order of ``shards``."""
    order = sorted(range(len(shards)), key=lambda i: -_cost(shards[i]))
    if workers == 1 or sum(s.count for s in shards) <= 2000:
        results = map(build_shard, [shards[i] for i in order])
        done = list(
            results
            if quiet
            else progress(results, f"{what} shards", weights=[_cost(shards[i]) for i in order])
        )
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            results = pool.map(build_shard, [shards[i] for i in order])
            done = list(
                results
                if quiet
                else progress(results, f"{what} shards", weights=[_cost(shards[i]) for i in order])
            )
    out = [None] * len(shards)
    for i, result in zip(order, done, strict=True):
        out[i] = result
    return out

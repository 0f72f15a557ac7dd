"""Multi-level setting: Countdown, Zebra, ARC-1D at 4 levels.

The setting: docs/concepts/spec.md#settings; SEC's recipe: docs/concepts/baselines.md.

Levels (1..3 train and validate, 4 validates only):

| task      | level 1 | level 2 | level 3 | level 4 | generator |
|-----------|---------|---------|---------|---------|-----------|
| countdown | 3 numbers | 4 | 5 | 6 | ours: values 1..100, a random expression tree over the numbers whose every intermediate value is a positive integer, target = its value in 1..1000 (so every puzzle is solvable and carries its solution) |
| zebra     | 3x3 | 4x4 | 5x5 | 6x6 | ours (:mod:`.zebra`), in the manner of SEC's: houses = attributes = level + 2, the name and level + 1 categories drawn from SEC's ten, SEC's four clue kinds and phrases; clues added until propagation alone pins every value (so the solution is unique), then implied clues dropped |
| arc       | length 10 | 20 | 30 | 40 | reasoning-gym 0.1.25 ``arc_1d`` (min_size = max_size = 10 * level, num_train = 3) |

Rows follow docs/concepts/spec.md#rows-on-disk: training ``data_source`` is the task
(``countdown``), validation's is ``<task>/<level>``; ``extra_info`` holds ``type``, ``difficulty``,
``split``, ``index``, ``key`` (a hash of the canonical puzzle key of
:func:`pac_verl.data_prep.overlap.puzzle_key`, what the policy is asked and must answer: Countdown's
numbers and target, ARC's test input and answer, Zebra's clues and answer; validation is generated
first, and training skips every puzzle whose key or normalised question text is validation's, so the
two are disjoint by construction) and, for Countdown, ``solution`` (the generator's expression, the
gold for ``prep check``).
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
import random
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pac_verl.data_prep import prompts, sec
from pac_verl.data_prep.fingerprint import MANIFEST
from pac_verl.data_prep.overlap import dedupe_keys
from pac_verl.data_prep.publish import BuildFolder, utc_now
from pac_verl.data_prep.rows import make_row
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
        truth = {"target": target, "numbers": numbers}
        yield prompts.countdown(numbers, target), truth, {"solution": expr}


# ---------------------------------------------------------------- zebra / arc (reasoning-gym)


def _zebra_rows(shard: Shard, rng: random.Random):
    from pac_verl.data_prep.zebra import generate

    size = shard.level + 2
    while True:
        puzzle = generate(rng, size, size)
        yield prompts.zebra(puzzle.text), puzzle.answer, {}


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
            answer = " ".join(map(str, test_out))
            yield (
                prompts.arc(examples, test_in),
                answer,
                {"task_name": meta["task_name"]},
            )


GENERATORS = {"countdown": _countdown_rows, "zebra": _zebra_rows, "arc": _arc_rows}


def build_shard(shard: Shard) -> tuple[list[dict[str, Any]], Counter]:
    """Generate one shard's rows, each gold-checked with the verifier."""
    from pac_verl.verifiers import gold_solution, score

    rng = random.Random(shard.seed)
    rows, seen, rejects = [], set(), Counter()
    source = shard.task if shard.split == "train" else f"{shard.task}/{shard.level}"
    for prompt, truth, extra in GENERATORS[shard.task](shard, rng):
        if len(rows) == shard.count:
            break
        row = make_row(
            data_source=source, prompt=prompt, task_type=shard.task, ground_truth=truth,
            split=shard.split, index=len(rows), difficulty=shard.level, **extra,
        )  # fmt: skip
        key, text = dedupe_keys(row)
        if key in shard.exclude or text in shard.exclude:
            rejects["in_validation"] += 1
            continue
        if key in seen:
            rejects["duplicate"] += 1
            continue
        seen.add(key)
        row["extra_info"]["key"] = key
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
    force: bool = False,
    sec_dir: str | Path | None = None,
) -> dict[str, Any]:
    """Write ``train.parquet``, ``val.parquet`` and ``data_manifest.json`` under ``out_dir``
    (a folder that holds an earlier build only with ``force``: :mod:`.publish`); returns the
    summary.

    With ``sec_dir`` (SEC's released ``sec/data``, :mod:`.sec`), each task's validation rows are
    SEC's ``combined/test_<task>.parquet`` (at most ``val_per_level`` per level) and its training
    rows SEC's ``combined/train_<task>.parquet`` when the folder has it (at most ``train_per_arm``
    per level), else generated here; training skips every puzzle that validation asks either way.
    """
    if train_per_arm < 0 or val_per_level < 0:
        raise UserError("--train-per-arm and --val-per-level must be >= 0")
    unknown = sorted(set(tasks) - set(TASKS))
    if unknown:
        raise UserError(f"unknown task(s) {unknown}; choose from {', '.join(TASKS)}")
    sec_files = sec.multi_level_files(sec_dir, tasks) if sec_dir is not None else {}
    options = {"train_per_arm": train_per_arm, "val_per_level": val_per_level, "seed": seed,
               "tasks": list(tasks),
               "from": str(sec_dir) if sec_dir is not None else None}  # fmt: skip
    parts: list[Part] = []  # per (split, task, level): rows, what was skipped, where from
    with Stopwatch() as sw, BuildFolder(out_dir, force) as folder:
        gen_tasks = [t for t in tasks if t not in sec_files]
        val_shards = [
            Shard(t, lv, "val", val_per_level, shard_seed(seed, t, lv, "val"))
            for t in gen_tasks for lv in VAL_LEVELS
        ]  # fmt: skip
        for shard, (rows, rejects) in zip(val_shards, _run(val_shards, workers, "validation", quiet),
                                          strict=True):  # fmt: skip
            parts.append(Part("val", shard.task, shard.level, rows, rejects, "generated"))
        for task, files in sec_files.items():
            parts += _sec_parts(files["val"], task, "val", VAL_LEVELS, val_per_level, frozenset(),
                                quiet)  # fmt: skip
        val_keys = frozenset(k for p in parts for r in p.rows for k in dedupe_keys(r))
        train_shards = [
            Shard(t, lv, "train", train_per_arm, shard_seed(seed, t, lv, "train"), val_keys)
            for t in tasks for lv in TRAIN_LEVELS if sec_files.get(t, {}).get("train") is None
        ]  # fmt: skip
        for shard, (rows, rejects) in zip(train_shards, _run(train_shards, workers, "training", quiet),
                                          strict=True):  # fmt: skip
            parts.append(Part("train", shard.task, shard.level, rows, rejects, "generated"))
        for task, files in sec_files.items():
            if files["train"] is not None:
                parts += _sec_parts(files["train"], task, "train", TRAIN_LEVELS, train_per_arm,
                                    val_keys, quiet)  # fmt: skip
        order = {t: i for i, t in enumerate(tasks)}
        parts.sort(key=lambda p: (p.split != "train", order[p.task], p.level))
        train_rows = [r for p in parts if p.split == "train" for r in p.rows]
        val_rows = [r for p in parts if p.split == "val" for r in p.rows]
        for rows in (train_rows, val_rows):
            for i, r in enumerate(rows):
                r["extra_info"]["index"] = i
            _normalise_extra(rows)
        table = [p.summary_row() for p in parts]
        bad = [r for r in table if r[5] == "generated" and "gold_rejected" in r[4]]
        if bad:
            raise UserError(
                f"the verifier rejected generated gold answers in {[r[1] for r in bad]}: a bug"
            )
        folder.write_parquet("train.parquet", train_rows)
        folder.write_parquet("val.parquet", val_rows)
        origins = {t: {split: sorted({p.origin for p in parts if p.task == t and p.split == split})
                       for split in ("train", "val")} for t in tasks}  # fmt: skip
        paths = folder.publish({"setting": "multi-level", "builder": "pac-verl prep multi-level",
                                "built_utc": utc_now(), "options": options,
                                "sources": origins})  # fmt: skip
        paths = {"train": paths["train.parquet"], "val": paths["val.parquet"]}
    summary = {"rows": table, "paths": {k: str(v) for k, v in paths.items()}, "seconds": sw.seconds,
               "train_rows": len(train_rows), "val_rows": len(val_rows)}  # fmt: skip
    if not quiet:
        print_summary("pac-verl prep multi-level",
                      ["split", "arm", "rows", "skipped", "why", "from"], table,
                      {"train": paths["train"], "val": paths["val"],
                       "manifest": Path(out_dir) / MANIFEST,
                       "seconds": round(sw.seconds, 1)})  # fmt: skip
    return summary


@dataclass
class Part:
    """The rows of one (split, task, level) and how they were made."""

    split: str
    task: str
    level: int
    rows: list[dict[str, Any]]
    skipped: Counter
    origin: str  # "generated" or the SEC file read

    def summary_row(self) -> list[Any]:
        why = ", ".join(f"{k}={v}" for k, v in sorted(self.skipped.items())) or "-"
        return [self.split, f"{self.task}/{self.level}", len(self.rows),
                sum(v for k, v in self.skipped.items() if not k.startswith("kept_")), why,
                self.origin]  # fmt: skip


def _sec_parts(path: Path, task: str, split: str, levels: tuple[int, ...], per_level: int,
               exclude: frozenset[str], quiet: bool) -> list[Part]:  # fmt: skip
    """SEC's file as one :class:`Part` per level: training rows that repeat a puzzle or ask what
    a validation row asks are skipped (and counted), as in a generated build."""
    imported = sec.read_multi_level(path, task, split, levels, per_level, exclude, quiet)
    parts = []
    for level in levels:
        rows = [r for r in imported.rows if r["extra_info"]["difficulty"] == level]
        skipped = Counter({k: v for (lv, k), v in imported.skipped.items() if lv == level})
        if imported.no_gold[level]:
            skipped["kept_without_gold"] = imported.no_gold[level]
        parts.append(Part(split, task, level, rows, skipped, f"SEC {path.name}"))
    return parts


# Milliseconds per row, generation, keys and gold check (500-row shards, one process, measured
# on a shared 2-core machine; the bar uses only their ratios): the shards are started slowest
# first and the progress bar advances by this cost, so its ETA holds.
ROW_MS = {"countdown": (0.11, 0.12, 0.16, 0.16), "zebra": (0.35, 0.84, 1.99, 4.37),
          "arc": (0.10, 0.10, 0.14, 0.15)}  # fmt: skip


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

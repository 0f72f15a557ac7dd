"""Benchmark: multi-level data generation, rows/s per task, ours against reasoning-gym's generators.

Each generator makes the same number of puzzles per level on one core, gold-checked as in
``pac-verl prep multi-level`` for ours. reasoning-gym's Zebra checks uniqueness by search after
every clue, so it gets fewer puzzles (``--rg-zebra``) to keep the run short.

    python scripts/bench/data_prep.py [--n 400] [--rg-zebra 12]
"""

from __future__ import annotations

import argparse
import time

from pac_verl.data_prep.multi_level import Shard, build_shard
from pac_verl.progress import print_summary


def ours(task: str, level: int, n: int) -> float:
    t0 = time.perf_counter()
    rows, _ = build_shard(Shard(task, level, "train", n, seed=level))
    assert len(rows) == n
    return n / (time.perf_counter() - t0)


def reasoning_gym(task: str, level: int, n: int) -> float:
    import reasoning_gym as rg

    kwargs = {
        "countdown": dict(
            min_numbers=level + 2, max_numbers=level + 2, min_target=1, max_target=1000
        ),
        "zebra_puzzles": dict(num_people=level + 2, num_characteristics=level + 2),
        "arc_1d": dict(min_size=10 * level, max_size=10 * level, num_train=3),
    }[task]
    t0 = time.perf_counter()
    ds = rg.create_dataset(task, seed=level, size=n, **kwargs)
    for i in range(n):
        ds[i]
    return n / (time.perf_counter() - t0)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--rg-zebra", type=int, default=12)
    args = ap.parse_args()
    rows = []
    for task, rg_task in (
        ("countdown", "countdown"),
        ("zebra", "zebra_puzzles"),
        ("arc", "arc_1d"),
    ):
        for level in (1, 2, 3, 4):
            n_rg = args.rg_zebra if task == "zebra" else args.n
            a, b = ours(task, level, args.n), reasoning_gym(rg_task, level, n_rg)
            rows.append([f"{task}/{level}", a, b, a / b])
    print_summary("Multi-level generation, rows/s on one core (ours include the gold check)",
                  ["arm", "pac-verl", "reasoning-gym", "ratio"], rows)  # fmt: skip


if __name__ == "__main__":
    main()

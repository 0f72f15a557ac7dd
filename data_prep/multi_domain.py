"""``pac-verl prep multi-domain``: the multi-domain setting's data (SPEC 10).

This version builds only the offline logic arm (``--offline-logic-only``): K&K puzzles from
:mod:`pac_verl.data_prep.kk`, 3/4/5 people x 900 for training (data_source ``kk``, 2,700 rows) and
6 people x 100 for validation (data_source ``kk6``). The hub builders (DAPO-Math-17k, Code-R1-12k,
MATH500, AMC, AIME24, BigCodeBench) are not implemented: asking for them is a UserError.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from pac_verl.data_prep import kk
from pac_verl.data_prep.prompts import STYLES
from pac_verl.data_prep.rows import write_parquet
from pac_verl.errors import UserError
from pac_verl.progress import Stopwatch, print_summary, progress

TRAIN_PEOPLE = (3, 4, 5)
TRAIN_PER_SIZE = 900
VAL_PEOPLE = 6
VAL_COUNT = 100


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--out", required=True, help="output folder for train.parquet/val.parquet")
    parser.add_argument(
        "--offline-logic-only",
        action="store_true",
        help="build only the K&K logic arm from the offline generator (no hub)",
    )
    parser.add_argument("--limit", type=int, default=None, help="at most N rows per part")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--prompt-style", choices=STYLES, default="chat")


def run(args: argparse.Namespace) -> int:
    if not args.offline_logic_only:
        raise UserError(
            "multi-domain hub builders (math, code, benchmarks) are not implemented in this "
            "version; pass --offline-logic-only to build the K&K logic arm offline"
        )
    if args.limit is not None and args.limit < 1:
        raise UserError(f"--limit must be >= 1, got {args.limit}")
    out = Path(args.out)
    train_n = min(TRAIN_PER_SIZE, args.limit or TRAIN_PER_SIZE)
    val_n = min(VAL_COUNT, args.limit or VAL_COUNT)
    parts = [(n, train_n, "train") for n in TRAIN_PEOPLE] + [(VAL_PEOPLE, val_n, "test")]
    train, val, table = [], [], []
    with Stopwatch() as sw:
        for people, count, split in progress(parts, desc="K&K", total=len(parts)):
            rows = kk.build(people, count, split, args.seed, args.prompt_style)
            (train if split == "train" else val).extend(rows)
            table.append([rows[0]["data_source"], split, people, len(rows)])
        train_path = write_parquet(train, out / "train.parquet")
        val_path = write_parquet(val, out / "val.parquet")
    print_summary(
        "multi-domain (offline logic only)",
        ["data_source", "split", "people", "rows"],
        table,
        {"train": train_path, "val": val_path, "seconds": round(sw.seconds, 2)},
    )
    return 0

"""``pac-verl prep``: write verl-ready parquet for a setting, or check a file."""

from __future__ import annotations

import argparse


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pac-verl prep", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    ml = sub.add_parser("multi-level", help="Countdown, Zebra, ARC-1D at levels 1..4 (offline)")
    ml.add_argument("--out", required=True, help="folder for train.parquet and val.parquet")
    ml.add_argument("--train-per-arm", type=int, default=10_000)
    ml.add_argument("--val-per-level", type=int, default=200)
    ml.add_argument("--seed", type=int, default=0)
    ml.add_argument("--prompt-style", choices=("chat", "completion"), default="chat")
    ml.add_argument(
        "--tasks", default="countdown,zebra,arc", help="comma list (default: all three)"
    )
    ml.add_argument("--workers", type=int, default=None, help="processes (default: CPU count)")
    from pac_verl.data_prep import multi_domain

    md = sub.add_parser(
        "multi-domain", help="math, code, K&K and five benchmarks (hub or local copies)"
    )
    multi_domain.add_arguments(md)
    ck = sub.add_parser("check", help="validate a parquet and re-score every gold answer")
    ck.add_argument("file")
    return parser


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    if args.command == "multi-level":
        from pac_verl.data_prep.multi_level import build_multi_level

        build_multi_level(args.out, args.train_per_arm, args.val_per_level, args.seed,
                          args.prompt_style, args.workers,
                          tuple(t for t in args.tasks.split(",") if t))  # fmt: skip
        return 0
    if args.command == "multi-domain":
        from pac_verl.data_prep import multi_domain

        return multi_domain.run(args)
    from pac_verl.data_prep.check import check_file

    check_file(args.file)
    return 0

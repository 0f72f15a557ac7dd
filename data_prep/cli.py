"""``pac-verl prep``: write verl-ready parquet for a setting, or check a file."""

from __future__ import annotations

import argparse

from pac_verl.cli_args import HelpFormatter, positive_int
from pac_verl.errors import UserError


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pac-verl prep", description=__doc__,
                                     formatter_class=HelpFormatter)  # fmt: skip
    sub = parser.add_subparsers(dest="command", required=True)
    ml = sub.add_parser("multi-level", help="Countdown, Zebra, ARC-1D at levels 1..4 (offline)",
                        formatter_class=HelpFormatter)  # fmt: skip
    ml.add_argument("--out", required=True, help="folder for train.parquet and val.parquet (a "
                    "relative path is taken from the project home, as training reads it)")  # fmt: skip
    ml.add_argument("--train-per-arm", type=int, default=10_000,
                    help="training rows per (task, level) arm")  # fmt: skip
    ml.add_argument("--val-per-level", type=int, default=200,
                    help="validation rows per (task, level)")  # fmt: skip
    ml.add_argument("--seed", type=int, default=0, help="generator seed (same seed, same bytes)")
    ml.add_argument("--tasks", default="countdown,zebra,arc", help="comma list of tasks")
    ml.add_argument("--workers", type=positive_int, default=None,
                    help="processes (default: the CPU count)")  # fmt: skip
    ml.add_argument("--from", dest="sec_dir", metavar="DIR", default=None,
                    help="SEC's released sec/data (GitHub Vincent-La/cofa): its combined/test_*"
                    " files are the validation rows, its combined/train_* files (where present) "
                    "the training rows; tasks without a training file are generated")  # fmt: skip
    # a former option, refused with the reason (prompts.refuse_build_style)
    ml.add_argument("--prompt-style", default=None, help=argparse.SUPPRESS)
    ml.add_argument("--force", action="store_true",
                    help="replace the build already in --out (kept until the new one is written)")  # fmt: skip
    toy = sub.add_parser("toy", formatter_class=HelpFormatter,
                         help="the CPU miniature: six toy arms and the tiny model (offline)")  # fmt: skip
    toy.add_argument("--out", default=None,
                     help="folder for train.parquet and val.parquet (default: data/toy under the "
                          "project home, where setting=toy reads them: $PAC_HOME, else the "
                          "checkout)")  # fmt: skip
    toy.add_argument("--model-out", default=None,
                     help="folder for the tiny model and tokenizer (default: data/tiny-cpu under "
                          "the project home, the tiny-cpu backbone's actor_rollout_ref.model.path)")  # fmt: skip
    toy.add_argument(
        "--train-per-arm", type=positive_int, default=256, help="training rows per arm"
    )
    toy.add_argument("--val-per-arm", type=positive_int, default=32, help="validation rows per arm")
    toy.add_argument("--seed", type=int, default=0, help="generator seed (same seed, same bytes)")
    toy.add_argument("--force", action="store_true",
                     help="replace the build already in --out (kept until the new one is written)")  # fmt: skip
    from pac_verl.data_prep import multi_domain

    md = sub.add_parser("multi-domain", formatter_class=HelpFormatter,
                        help="math, code, K&K and five benchmarks (hub or local copies)")  # fmt: skip
    multi_domain.add_arguments(md)
    ck = sub.add_parser("check", help="validate parquet files, re-score every gold answer and "
                        "count training/validation overlaps", formatter_class=HelpFormatter)  # fmt: skip
    ck.add_argument("files", nargs="+", metavar="FILE",
                    help="verl parquet files (e.g. data/multi_level/train.parquet "
                    "data/multi_level/val.parquet); with several, no validation row may ask what "
                    "a training row asks")  # fmt: skip
    return parser


def _check_multi_domain_options(args: argparse.Namespace) -> None:
    """--offline-logic-only builds K&K alone, from the generator: other choices contradict it."""
    if args.offline_logic_only and args.only is not None:
        raise UserError(f"--offline-logic-only builds only kk; it cannot be combined with --only "
                        f"{args.only} (drop one of them)")  # fmt: skip
    if args.offline_logic_only and args.source:
        raise UserError(f"--offline-logic-only reads no source; drop --source "
                        f"{' '.join(args.source)} or --offline-logic-only")  # fmt: skip


def _anchor_outputs(args: argparse.Namespace) -> None:
    """One rule for every path a run reads or writes: a relative ``--out`` or ``--model-out`` is
    taken from the project home ($PAC_HOME, else the checkout), where training reads
    ``setting.data_dir`` and the model from, whatever the current folder
    (docs/guides/data.md)."""
    import os
    import sys
    from pathlib import Path

    from pac_verl.paths import anchor, project_home

    home = None
    for name in ("out", "model_out"):
        value = getattr(args, name, None)
        if value and not os.path.isabs(os.path.expanduser(value)):
            home = home or project_home()[0]
            setattr(args, name, anchor(value, home))
            if Path(value).resolve() != Path(getattr(args, name)):
                option = "--" + name.replace("_", "-")
                print(f"pac-verl prep: {option} {value} is taken from the project home: "
                      f"{getattr(args, name)}", file=sys.stderr)  # fmt: skip


def main(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
    _anchor_outputs(args)
    if args.command == "check":
        from pac_verl.data_prep.check import check_file, check_overlap

        for path in args.files:
            check_file(path)
        if len(args.files) > 1:
            check_overlap(args.files)
        return 0
    if args.command == "multi-domain":
        _check_multi_domain_options(args)
    if args.command == "toy":
        from pac_verl.data_prep.toy import build_toy
        from pac_verl.outputs import writable_dir
        from pac_verl.paths import project_home

        home = project_home()[0]  # where setting=toy and backbone=tiny-cpu look, from any folder
        args.out = args.out or str(home / "data" / "toy")
        args.model_out = args.model_out or str(home / "data" / "tiny-cpu")
        writable_dir(args.model_out, "--model-out")
        build_toy(args.out, args.model_out, args.train_per_arm, args.val_per_arm, args.seed,
                  force=args.force)  # fmt: skip
        return 0
    if args.command == "multi-level":
        from pac_verl.data_prep.multi_level import build_multi_level
        from pac_verl.data_prep.prompts import refuse_build_style

        refuse_build_style(args.prompt_style)

        tasks = tuple(t.strip() for t in args.tasks.split(",") if t.strip())
        build_multi_level(args.out, args.train_per_arm, args.val_per_level, args.seed,
                          workers=args.workers, tasks=tasks, force=args.force,
                          sec_dir=args.sec_dir)  # fmt: skip
        return 0
    from pac_verl.data_prep import multi_domain

    return multi_domain.run(args)

"""The ``pac-verl`` command: one entry point, one subcommand per job.

Each subcommand lives in its own module with ``main(argv: list[str]) -> int``; this file only
dispatches, so that ``pac-verl --help`` stays fast (nothing heavy is imported until a job runs).
A :class:`~pac_verl.errors.UserError` ends in one line on stderr and exit status 2, never a trace;
so does a failed file operation (read-only file system, a name too long, a full disk), which names
the path and the system's reason.
"""

from __future__ import annotations

import importlib
import sys

from pac_verl import __version__
from pac_verl.errors import UserError, user_message

# name -> (module with main(argv), one-line description)
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "quickstart": (
        "pac_verl.quickstart",
        "small end-to-end demo on any machine (data, preflight, simulation, figures)",
    ),
    "prep": (
        "pac_verl.data_prep.cli",
        "write verl-ready parquet for a setting, or check a parquet file",
    ),
    "preflight": (
        "pac_verl.checks.preflight",
        "dry run of a training config on any machine, no GPU",
    ),
    "smoke": (
        "pac_verl.cpu.smoke",
        "a few real verl GRPO steps with PAC on the CPU (~1-3 min); --gpu: on one GPU with vLLM",
    ),
    "plan": ("pac_verl.plan.cli", "GPU memory and disk a training config needs, per phase"),
    "simulate": ("pac_verl.simulate.cli", "compare curriculum controllers on a simulated learner"),
    "report": (
        "pac_verl.report.cli",
        "rebuild the paper's tables and figures from run logs",
    ),
    "watch": (
        "pac_verl.report.watch",
        "live view of a run's curriculum while it trains (per-arm share, signals, verdicts)",
    ),
}

USAGE = """usage: pac-verl [-h] [-V] COMMAND [ARGS...]

PAC (Progress-Augmented Advantage Curriculum) for multi-task GRPO on verl.

options:
  -h, --help     show this message and exit
  -V, --version  print the version and exit

commands:
{commands}

Training itself runs through Hydra: python -m pac_verl.main setting=... backbone=... curriculum=...
(or a script in recipes/). Run `pac-verl COMMAND --help` for a command's options."""


def _usage() -> str:
    width = max(len(n) for n in SUBCOMMANDS)
    lines = [f"  {name:<{width}}  {desc}" for name, (_, desc) in SUBCOMMANDS.items()]
    return USAGE.format(commands="\n".join(lines))


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help", "help"):
        print(_usage())
        return 0
    if argv[0] in ("-V", "--version"):
        print(f"pac-verl {__version__}")
        return 0
    name, rest = argv[0], argv[1:]
    if name not in SUBCOMMANDS:
        print(
            f"pac-verl: unknown command {name!r}; choose one of: {', '.join(SUBCOMMANDS)}",
            file=sys.stderr,
        )
        return 2
    module = importlib.import_module(SUBCOMMANDS[name][0])
    try:
        return int(module.main(rest) or 0)
    except UserError as err:
        print(f"pac-verl {name}: error: {user_message(err)}", file=sys.stderr)
        return 2
    except OSError as err:
        if not err.filename:
            raise
        print(f"pac-verl {name}: error: {err.filename}: {err.strerror or err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"pac-verl {name}: interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())

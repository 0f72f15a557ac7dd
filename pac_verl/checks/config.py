"""The command-line check of ``python -m pac_verl.main``: compose the config the command would train
(:func:`pac_verl.compose.compose_config`, with all its value checks) and refuse a bad one with one
line and exit status 2, before Hydra runs the job and before Ray starts."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from pac_verl.compose import compose_config
from pac_verl.errors import UserError


def check_command_line(argv: Sequence[str], prog: str = "python -m pac_verl.main") -> None:
    """Compose the config of a ``python -m pac_verl.main`` command line; on a user error print one
    line and exit with status 2 (before Hydra runs the job and before Ray starts). Command lines
    this cannot read (multirun sweeps, Hydra's own help) are left to Hydra."""
    from hydra._internal.utils import get_args_parser

    try:
        args, unknown = get_args_parser().parse_known_args(list(argv))
    except SystemExit:
        return
    hydra_only = ("help", "hydra_help", "version", "info", "multirun", "shell_completion",
                  "config_name", "config_path", "config_dir", "experimental_rerun")  # fmt: skip
    if unknown or any(getattr(args, name, None) for name in hydra_only):
        return
    overrides = [o for o in args.overrides if not o.lstrip("+~").startswith("hydra")]
    try:
        compose_config(overrides)
    except UserError as err:
        print(f"{prog}: error: {err}", file=sys.stderr)
        raise SystemExit(2) from None

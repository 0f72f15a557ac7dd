"""The command-line check of ``python -m pac_verl.main``: compose the config the command would train
(:func:`pac_verl.compose.compose_config`, with all its value checks) and refuse a bad one with one
line and exit status 2, before Hydra runs the job and before Ray starts.

A sweep (``-m``/``--multirun`` with ``curriculum.seed=0,1,2``) is checked run by run, as the
recipes' launcher checks it (:func:`pac_verl.compose.compose_runs`). Hydra refuses ``--cfg`` with
``--multirun`` (a ``ValueError`` traceback); here ``-m ... --cfg job`` prints every run's resolved
job config instead, one after the other, and exits."""

from __future__ import annotations

import sys
from collections.abc import Sequence

from pac_verl.compose import compose_config, compose_runs, expand
from pac_verl.errors import UserError


def _print_sweep_configs(overrides: list[str], which: str, prog: str) -> None:
    from omegaconf import OmegaConf

    if which != "job":
        raise UserError(f"--cfg {which} with --multirun: Hydra prints it for one run only; "
                        "drop -m and give one value per key, or use --cfg job")  # fmt: skip
    jobs = expand(overrides)
    for k, (job, cfg) in enumerate(zip(jobs, compose_runs(overrides), strict=True), 1):
        print(f"# run {k} of {len(jobs)}: {' '.join(job)} (resolved, paths absolute)")
        print(OmegaConf.to_yaml(cfg), end="")


def check_command_line(argv: Sequence[str], prog: str = "python -m pac_verl.main") -> None:
    """Compose the config of a ``python -m pac_verl.main`` command line; on a user error print one
    line and exit with status 2 (before Hydra runs the job and before Ray starts). With
    ``--multirun``, every run of the sweep is checked, and ``--cfg job`` prints each run's config
    and exits 0. Command lines this cannot read (Hydra's own help and info) are left to Hydra."""
    from hydra._internal.utils import get_args_parser

    try:
        args, unknown = get_args_parser().parse_known_args(list(argv))
    except SystemExit:
        return
    hydra_only = ("help", "hydra_help", "version", "info", "shell_completion", "config_name",
                  "config_path", "config_dir", "experimental_rerun")  # fmt: skip
    if unknown or any(getattr(args, name, None) for name in hydra_only):
        return
    overrides = [o for o in args.overrides if not o.lstrip("+~").startswith("hydra")]
    try:
        if args.multirun:
            if args.cfg:
                _print_sweep_configs(overrides, args.cfg, prog)
                raise SystemExit(0)
            compose_runs(overrides)
        else:
            compose_config(overrides)
    except UserError as err:
        print(f"{prog}: error: {err}", file=sys.stderr)
        raise SystemExit(2) from None

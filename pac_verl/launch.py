"""``python -m pac_verl.launch OVERRIDE...``: what the recipes run, one decision per run (issue #17).

    python -m pac_verl.launch setting=multi_level backbone=qwen2.5-3b curriculum=pac
    python -m pac_verl.launch setting=multi_level backbone=qwen2.5-3b curriculum=pac \\
        curriculum.window=4,16,32 curriculum.seed=0,1,2          # a sweep: 9 runs, in this order
    DRY_RUN=1 python -m pac_verl.launch ...                       # print the decisions only

The overrides are Hydra's: ``key=a,b,c`` sweeps a key (runs are the product of the sweeps, in
the order given), a key given twice keeps its last value (so a recipe's extra arguments win).
For every run it composes the config ``python -m pac_verl.main`` would train, and prints one line:

* ``launch NAME``: nothing on disk yet;
* ``resume NAME (step k of N)``: verl's ``latest_checkpointed_iteration.txt`` in the run's
  ``trainer.default_local_dir`` says k < N (``trainer.total_training_steps``, i.e.
  ``setting.total_steps``); verl's ``resume_mode=auto`` continues from there;
* ``skip NAME (complete)``: it says N; the run is never started again;
* ``refuse NAME (...)``: the run's ``run.json`` records a config whose hash differs from this
  one; the differing keys are listed. Nothing is started when any run is refused.

Launch and resume lines are followed by the command (``+ python -m pac_verl.main ...``). Without
``DRY_RUN=1`` the commands then run one after the other, stopping at the first failure.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from pac_verl.curriculum.registry import check_curriculum
from pac_verl.errors import UserError
from pac_verl.run_record import (
    checkpointed_step,
    config_diff,
    config_hash,
    describe_diff,
    read_record,
)


@dataclass
class Decision:
    action: str  # launch | resume | skip | refuse
    name: str
    overrides: list[str]
    detail: str = ""

    @property
    def command(self) -> list[str]:
        return ["python", "-m", "pac_verl.main", *self.overrides]

    def line(self) -> str:
        return f"{self.action} {self.name}" + (f" ({self.detail})" if self.detail else "")


def expand(overrides: list[str]) -> list[list[str]]:
    """Hydra sweep overrides -> one override list per run (last value of a repeated key wins)."""
    from hydra._internal.core_plugins.basic_sweeper import BasicSweeper
    from hydra.core.override_parser.overrides_parser import OverridesParser
    from hydra.errors import HydraException

    try:
        parsed = OverridesParser.create().parse_overrides(overrides)
    except HydraException as err:
        raise UserError(f"override: {' '.join(str(err).split())}") from None
    last = {o.key_or_group: i for i, o in enumerate(parsed)}
    kept = [o for i, o in enumerate(parsed) if last[o.key_or_group] == i]
    [batch] = BasicSweeper.split_arguments(kept, None)
    return [list(job) for job in batch]


def decide(cfg, overrides: list[str]) -> Decision:
    """The decision for one composed config (see the module docstring)."""
    from omegaconf import OmegaConf

    from pac_verl.run_logs import run_dir_of

    OmegaConf.resolve(cfg)
    resolved = OmegaConf.to_container(cfg, resolve=True)
    check_curriculum(resolved["data"]["curriculum"])
    name = str(cfg.trainer.experiment_name)
    total = int(cfg.trainer.total_training_steps)
    record = read_record(run_dir_of(cfg))
    if record and record.get("config_hash") not in (None, config_hash(resolved)):
        diffs = config_diff(record.get("config") or {}, resolved)
        where = run_dir_of(cfg) / "run.json"
        return Decision("refuse", name, overrides,
                        f"config differs from {where}: {describe_diff(diffs)}")  # fmt: skip
    step = checkpointed_step(cfg.trainer.default_local_dir)
    if step is not None and step >= total:
        return Decision("skip", name, overrides, "complete")
    if step:
        return Decision("resume", name, overrides, f"step {step} of {total}")
    return Decision("launch", name, overrides)


def plan(overrides: list[str]) -> list[Decision]:
    from hydra import compose, initialize_config_module
    from hydra.errors import HydraException
    from omegaconf.errors import OmegaConfBaseException

    from pac_verl.resolvers import register_resolvers

    register_resolvers()

    decisions = []
    with initialize_config_module("pac_verl.configs", version_base=None):
        for job in expand(overrides):
            try:
                cfg = compose("pac_trainer", overrides=job)
                decisions.append(decide(cfg, job))
            except (HydraException, OmegaConfBaseException) as err:
                msg = " ".join(str(err).split())  # Hydra's hints span lines
                raise UserError(f"config ({shlex.join(job)}): {msg}") from None
            except UserError as err:
                raise UserError(f"config ({shlex.join(job)}): {err}") from None
    return decisions


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    dry = os.environ.get("DRY_RUN", "0") not in ("", "0")
    try:
        decisions = plan(argv)
    except UserError as err:
        print(f"pac_verl.launch: error: {err}", file=sys.stderr)
        return 2
    for d in decisions:
        print(d.line())
        if d.action in ("launch", "resume"):
            print("+ " + shlex.join(d.command))
    sys.stdout.flush()
    refused = [d.name for d in decisions if d.action == "refuse"]
    if refused:
        print(f"pac_verl.launch: refused {len(refused)} run(s) whose recorded config differs; "
              "nothing started", file=sys.stderr)  # fmt: skip
        return 2
    if dry:
        return 0
    for d in decisions:
        if d.action in ("launch", "resume"):
            cmd = [sys.executable, *d.command[1:]]
            done = subprocess.run(cmd, cwd=Path.cwd(), check=False)
            if done.returncode != 0:
                print(f"pac_verl.launch: {d.name} failed (exit {done.returncode}); later runs "
                      "not started", file=sys.stderr)  # fmt: skip
                return done.returncode
    return 0


if __name__ == "__main__":
    sys.exit(main())

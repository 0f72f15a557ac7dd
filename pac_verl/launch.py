"""``python -m pac_verl.launch OVERRIDE...``: what the recipes run, one decision per run.

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
  one (the differing keys are listed, and the folders to remove to start afresh), a data file is
  missing, or the data differ from the files ``run.json`` recorded. Nothing is started when any
  run is refused. A ``run.json`` whose attempt stopped before its first step (no checkpoint, no
  metrics line) blocks nothing: the corrected run launches and replaces it.

Relative paths (data, logs, checkpoints) are taken from the project home
(:func:`pac_verl.paths.project_home`: ``$PAC_HOME``, else the checkout pac_verl is installed
from), never from the current directory, so a recipe decides the same from any directory. Launch
and resume lines end with the run's absolute paths and are followed by the command
(``+ PAC_HOME=... python -m pac_verl.main ...``). Without ``DRY_RUN=1`` the commands then run one
after the other, stopping at the first failure.
"""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from pac_verl.compose import compose_runs, expand
from pac_verl.errors import UserError
from pac_verl.paths import ENV, project_home
from pac_verl.run_record import (
    checkpointed_step,
    config_diff,
    config_hash,
    describe_diff,
    reached_a_step,
    read_record,
    remove_hint,
    stale_record_note,
)
from pac_verl.run_stops import EXIT_INTERRUPTED

STOP_S = 120.0  # how long a run interrupted by Ctrl-C may take to stop Ray before it is terminated


@dataclass
class Decision:
    action: str  # launch | resume | skip | refuse
    name: str
    overrides: list[str]
    detail: str = ""
    paths: str = ""  # the run's data, logs and checkpoints, absolute

    @property
    def command(self) -> list[str]:
        return ["python", "-m", "pac_verl.main", *self.overrides]

    def line(self) -> str:
        return (f"{self.action} {self.name}" + (f" ({self.detail})" if self.detail else "")
                + (f": {self.paths}" if self.paths else ""))  # fmt: skip


def _data_files(cfg) -> list[Path]:
    files = []
    for key in ("train_files", "val_files"):
        value = cfg.data[key]
        files += [Path(str(v)) for v in ([value] if isinstance(value, str) else value)]
    return files


def _paths(cfg) -> str:
    from pac_verl.run_logs import run_dir_of

    files = _data_files(cfg)
    folders = {f.parent for f in files}
    data = (f"{next(iter(folders))}/{{{','.join(f.name for f in files)}}}" if len(folders) == 1
            else ", ".join(map(str, files)))  # fmt: skip
    return f"data {data}, logs {run_dir_of(cfg)}, checkpoints {cfg.trainer.default_local_dir}"


def decide(cfg, overrides: list[str]) -> Decision:
    """The decision for one composed, resolved config (see the module docstring)."""
    from omegaconf import OmegaConf

    from pac_verl.data_prep.fingerprint import data_record
    from pac_verl.run_logs import changed_files, run_dir_of

    resolved = OmegaConf.to_container(cfg, resolve=True)
    name = str(cfg.trainer.experiment_name)
    total = int(cfg.trainer.total_training_steps)
    run_dir, ckpt = run_dir_of(cfg), cfg.trainer.default_local_dir
    record, note = read_record(run_dir), ""
    if record and record.get("config_hash") not in (None, config_hash(resolved)):
        if not reached_a_step(run_dir, ckpt):  # a failed start must not block its correction
            record, note = None, stale_record_note(run_dir)
        else:
            diffs = config_diff(record.get("config") or {}, resolved)
            return Decision("refuse", name, overrides,
                            f"config differs from {run_dir / 'run.json'}: {describe_diff(diffs)}; "
                            f"{remove_hint(run_dir, ckpt)}")  # fmt: skip
    step = checkpointed_step(cfg.trainer.default_local_dir)
    if step is not None and step >= total:
        return Decision("skip", name, overrides, "complete")
    missing = [str(f) for f in _data_files(cfg) if not f.is_file()]
    if missing:
        return Decision("refuse", name, overrides,
                        f"no data file {', '.join(missing)}: build it with pac-verl prep "
                        "(docs/guides/data.md), or set setting.data_dir")  # fmt: skip
    if record and record.get("data"):
        now = data_record(cfg.data.train_files, cfg.data.val_files)
        changed = changed_files(record["data"], now)
        if changed:
            return Decision("refuse", name, overrides,
                            f"{'; '.join(changed)} changed since {run_dir_of(cfg)}/run.json "
                            "recorded them: resuming would mix two data sets in one run")  # fmt: skip
    if step:
        return Decision("resume", name, overrides, f"step {step} of {total}", _paths(cfg))
    return Decision("launch", name, overrides, note, _paths(cfg))


def plan(overrides: list[str]) -> list[Decision]:
    """One decision per run of the sweep, each from the config :func:`compose_runs` composes
    (every check of the entry point; paths absolute under the project home)."""
    runs = compose_runs(overrides)
    return [decide(cfg, job) for cfg, job in zip(runs, expand(overrides), strict=True)]


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__)
        return 0 if argv else 2
    dry = os.environ.get("DRY_RUN", "0") not in ("", "0")
    try:
        root, why = project_home()
        decisions = plan(argv)
    except UserError as err:
        print(f"pac_verl.launch: error: {err}", file=sys.stderr)
        return 2
    if why != ENV and not why.startswith("the checkout"):
        print(f"pac_verl.launch: relative paths are taken from {why}: {root}", file=sys.stderr)
    env = {**os.environ, ENV: str(root)}  # every run resolves its paths as decided here
    for d in decisions:
        print(d.line())
        if d.action in ("launch", "resume"):
            print(f"+ {ENV}={shlex.quote(str(root))} " + shlex.join(d.command))
    sys.stdout.flush()
    refused = [d.name for d in decisions if d.action == "refuse"]
    if refused:
        print(f"pac_verl.launch: refused {len(refused)} run(s) (the refuse lines say why); "
              "nothing started", file=sys.stderr)  # fmt: skip
        return 2
    if dry:
        return 0
    for d in decisions:
        if d.action in ("launch", "resume"):
            cmd = [sys.executable, *d.command[1:]]
            try:
                code = run_child(cmd, root, env)
            except KeyboardInterrupt:
                print(f"pac_verl.launch: interrupted (Ctrl-C) during {d.name}; later runs not "
                      "started; run the same command again to resume", file=sys.stderr)  # fmt: skip
                return EXIT_INTERRUPTED
            if code != 0:
                if code != EXIT_INTERRUPTED:  # the run said why in one line already
                    print(f"pac_verl.launch: {d.name} failed (exit {code}); later runs "
                          "not started", file=sys.stderr)  # fmt: skip
                return code
    return 0


def run_child(cmd: list[str], cwd, env, stop_s: float = STOP_S) -> int:
    """Run one training command and return its exit status. On Ctrl-C the child got the same
    SIGINT (one process group): wait for it to stop what it started (Ray) instead of killing it
    at once as ``subprocess.run`` does, then re-raise; terminate it only after ``stop_s``
    seconds or a second Ctrl-C."""
    proc = subprocess.Popen(cmd, cwd=cwd, env=env)
    try:
        return proc.wait()
    except KeyboardInterrupt:
        try:
            proc.wait(timeout=stop_s)
        except (KeyboardInterrupt, subprocess.TimeoutExpired):
            proc.terminate()
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        raise


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C while deciding, before any run started: one line
        print("pac_verl.launch: interrupted (Ctrl-C); nothing started", file=sys.stderr)
        sys.exit(EXIT_INTERRUPTED)

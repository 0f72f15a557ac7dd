"""Run logs that survive resumes: one JSONL file per attempt, plus ``run.json``.

verl's ``file`` logger opens ``VERL_FILE_LOGGER_PATH`` (default ``<project>/<experiment>.jsonl``)
with truncation, so a resumed run would erase the first attempt's metrics. Before training,
:func:`prepare_run_logs` points it at a new file ``<log_root>/<experiment>/metrics-<UTC time>.jsonl``
for this attempt and writes ``run.json`` (setting, backbone, curriculum, seed, window) next to it.
The report reads every attempt in order; for a step logged twice, the later attempt wins.
The variable is set in this process and in the Ray runtime environment, so the trainer's actor
(where verl creates its logger) sees it too.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

from omegaconf import OmegaConf, open_dict

from pac_verl.naming import parse_experiment_name

ENV = "VERL_FILE_LOGGER_PATH"


def prepare_run_logs(config, now: float | None = None) -> Path:
    """Create this attempt's metrics file path, write run.json, and point verl's file logger at it."""
    name = str(config.trainer.experiment_name)
    root = Path(str(OmegaConf.select(config, "pac.log_root", default="runs"))).expanduser()
    run_dir = root / name
    run_dir.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now if now is not None else time.time()))
    path = run_dir / f"metrics-{stamp}.jsonl"
    n = 1
    while path.exists():  # two attempts within one second
        path, n = run_dir / f"metrics-{stamp}-{n}.jsonl", n + 1
    key = parse_experiment_name(name)
    run = {"experiment_name": name, "setting": key.setting, "backbone": key.backbone,
           "curriculum": key.curriculum, "seed": key.seed, "window": key.window}  # fmt: skip
    (run_dir / "run.json").write_text(json.dumps(run, indent=2) + "\n")
    os.environ[ENV] = str(path.resolve())
    with open_dict(config):
        env_vars = OmegaConf.select(config, "ray_kwargs.ray_init.runtime_env.env_vars") or {}
        config.ray_kwargs.ray_init.runtime_env = OmegaConf.merge(
            OmegaConf.select(config, "ray_kwargs.ray_init.runtime_env") or {},
            {"env_vars": {**env_vars, ENV: str(path.resolve())}},
        )
    return path

"""Run logs that survive resumes: one JSONL file per attempt, plus ``run.json``.

verl's ``file`` logger opens ``VERL_FILE_LOGGER_PATH`` (default ``<project>/<experiment>.jsonl``)
with truncation, so a resumed run would erase the first attempt's metrics. Before training,
:func:`prepare_run_logs` points it at a new file ``<log_root>/<experiment>/metrics-<UTC time>.jsonl``
for this attempt and writes ``run.json`` next to it: the run's identity (setting, backbone,
curriculum, seed, window), the command, the prompt style with its chat template's hash
(:func:`prompt_record`), the full resolved config (controller numbers included) and its hash
(:func:`pac_verl.run_record.config_hash`), the data files' fingerprints
(:func:`pac_verl.data_prep.fingerprint.data_record`), and one entry per attempt.

It refuses an attempt that would mix runs: a run folder whose recorded config differs from this
one (the differing keys are listed), data files that are missing or differ from the recorded
ones (named), or a run whose last checkpoint is already its final step
(verl would train one step past it). The config is resolved in place, once, here in the driver,
so the processes Ray starts receive plain values and need none of our resolvers; its relative
paths are made absolute under the project home (:mod:`pac_verl.paths`). What is
recorded is the config as composed (what ``--cfg job --resolve`` prints), before verl's own
rewrites (``migrate_legacy_reward_impl``), so :mod:`pac_verl.launch` computes the same hash
without importing verl.
The variable is set in this process and in the Ray runtime environment, so the trainer's actor
(where verl creates its logger) sees it too.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import sys
import time
from pathlib import Path

from omegaconf import OmegaConf, open_dict

from pac_verl.curriculum.registry import check_curriculum
from pac_verl.data_prep.fingerprint import data_record
from pac_verl.errors import UserError
from pac_verl.naming import parse_experiment_name
from pac_verl.paths import anchor_paths
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

ENV = "VERL_FILE_LOGGER_PATH"


def run_dir_of(config) -> Path:
    root = Path(str(OmegaConf.select(config, "pac.log_root", default="runs"))).expanduser()
    return root / str(config.trainer.experiment_name)


def check_attempt(config, resolved: dict, digest: str, data: dict | None = None) -> bool:
    """Refuse an attempt that would add to a different run, train on other data than the run's
    earlier attempts (``data``: :func:`pac_verl.data_prep.fingerprint.data_record`'s), or train
    past a finished run. Returns False when ``run.json`` is the record of an attempt that stopped
    before its first step with another config: this attempt replaces it."""
    run_dir = run_dir_of(config)
    record = read_record(run_dir)
    ckpt = config.trainer.default_local_dir
    if record and record.get("config_hash") not in (None, digest):
        if not reached_a_step(run_dir, ckpt):
            print(f"note: {stale_record_note(run_dir)}", file=sys.stderr)
            return False
        diffs = config_diff(record.get("config") or {}, resolved)
        raise UserError(
            f"{run_dir}/run.json records another config for {config.trainer.experiment_name} "
            f"({describe_diff(diffs) or 'hash ' + str(record.get('config_hash'))}); "
            f"{remove_hint(run_dir, ckpt)}"
        )
    changed = changed_files((record or {}).get("data"), data)
    if changed:
        raise UserError(
            f"{run_dir}/run.json records other data for {config.trainer.experiment_name}: "
            f"{'; '.join(changed)} changed since its first attempt; resuming would mix two data "
            "sets in one run (train under another trainer.experiment_name, or restore the files)"
        )
    step = checkpointed_step(config.trainer.default_local_dir)
    total = int(config.trainer.total_training_steps)
    if step is not None and step >= total:
        raise UserError(
            f"{config.trainer.experiment_name} is complete (checkpoint at step {step} of {total} "
            f"in {config.trainer.default_local_dir}); resuming would train past its last step"
        )
    return True


def changed_files(recorded: dict | None, current: dict | None) -> list[str]:
    """The data files whose content differs from what ``run.json`` recorded (by SHA-256)."""
    if not recorded or not current:
        return []
    changed = []
    for split in ("train", "val"):
        before = [(f.get("path"), f.get("sha256")) for f in recorded.get(split) or []]
        now = [(f["path"], f["sha256"]) for f in current.get(split) or []]
        if before != now:
            paths = sorted({p for p, _ in set(before) ^ set(now)})
            changed.append(f"data.{split}_files ({', '.join(map(str, paths))})")
    return changed


def _sandbox(config) -> dict:
    """The code sandbox this attempt's rewards run in, from the config's ``reward_kwargs.sandbox``
    as the reward workers read it (the active level is recorded:
    docs/concepts/spec.md#code-sandbox)."""
    from pac_verl.verifiers.sandbox import isolation_report
    from pac_verl.verifiers.sandbox.settings import from_run_config

    try:
        return dict(isolation_report(settings=from_run_config(config)))
    except Exception as err:  # a level this machine cannot give: the first code reward says so
        return {"unavailable": str(err)}


def tokenizer_template(model_path: str) -> str | None:
    """The chat template the tokenizer at ``model_path`` carries (a local folder, or a hub id in
    the local Hugging Face cache; never the network), as transformers loads it:
    ``chat_template.jinja`` first, else ``tokenizer_config.json``'s ``chat_template``."""
    for name in ("chat_template.jinja", "tokenizer_config.json"):
        folder = Path(model_path).expanduser()
        if folder.is_dir():
            file = folder / name
        else:
            try:
                from huggingface_hub import try_to_load_from_cache

                found = try_to_load_from_cache(model_path, name)
            except Exception:  # not a hub id
                return None
            file = Path(found) if isinstance(found, str) else folder / name
        if not file.is_file():
            continue
        if name.endswith(".jinja"):
            return file.read_text()
        try:
            template = json.loads(file.read_text()).get("chat_template")
        except (OSError, ValueError, AttributeError):
            return None
        if isinstance(template, list):  # named templates: transformers uses "default"
            template = next((t.get("template") for t in template
                             if isinstance(t, dict) and t.get("name") == "default"), None)  # fmt: skip
        return template if isinstance(template, str) else None
    return None


def prompt_record(config) -> dict:
    """What wraps every row's messages (docs/guides/data.md): ``backbone.prompt_style``, which
    chat template that is and its SHA-256 (null when the tokenizer's own template is not on local
    disk)."""
    from pac_verl.data_prep.prompts import FRAME_TEMPLATE

    style = OmegaConf.select(config, "backbone.prompt_style", default=None)
    template = OmegaConf.select(
        config, "actor_rollout_ref.model.custom_chat_template", default=None
    )
    if template is not None:
        source = ("the paper's frame (pac_verl.data_prep.prompts.FRAME_TEMPLATE)"
                  if template == FRAME_TEMPLATE else "actor_rollout_ref.model.custom_chat_template")  # fmt: skip
    else:
        path = str(OmegaConf.select(config, "actor_rollout_ref.model.path", default=""))
        template = tokenizer_template(path) if path else None
        source = f"the tokenizer's own ({path})"
    digest = hashlib.sha256(template.encode()).hexdigest() if template is not None else None
    return {"style": style, "chat_template": source, "chat_template_sha256": digest}


def prepare_run_logs(config, now: float | None = None, argv: list[str] | None = None) -> Path:
    """Resolve the config, check and record the run, and point verl's file logger at a new file."""
    OmegaConf.resolve(config)
    anchor_paths(config)  # data, logs and checkpoints: absolute, the same from any directory
    resolved = OmegaConf.to_container(config, resolve=True)
    check_curriculum(resolved["data"]["curriculum"])  # a bad controller value stops us here
    digest = config_hash(resolved)
    data = data_record(resolved["data"]["train_files"], resolved["data"]["val_files"])
    kept = check_attempt(config, resolved, digest, data)
    name = str(config.trainer.experiment_name)
    run_dir = run_dir_of(config)
    run_dir.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime(now if now is not None else time.time()))
    path = run_dir / f"metrics-{stamp}.jsonl"
    n = 1
    while path.exists():  # two attempts within one second
        path, n = run_dir / f"metrics-{stamp}-{n}.jsonl", n + 1
    key = parse_experiment_name(name)
    argv = list(sys.argv if argv is None else argv)
    command = shlex.join(["python", "-m", "pac_verl.main", *argv[1:]])
    attempts = ((read_record(run_dir) if kept else None) or {}).get("attempts") or []
    attempts.append({"metrics": path.name, "started_utc": stamp, "command": command,
                     "sandbox": _sandbox(config)})  # fmt: skip
    run = {"experiment_name": name, "setting": key.setting, "backbone": key.backbone,
           "curriculum": key.curriculum, "seed": key.seed, "window": key.window,
           "total_steps": int(config.trainer.total_training_steps), "command": command,
           "prompt": prompt_record(config), "config_hash": digest, "attempts": attempts,
           "data": data,
           "config": resolved}  # fmt: skip
    tmp = run_dir / "run.json.tmp"
    tmp.write_text(json.dumps(run, indent=2, default=str) + "\n")
    tmp.replace(run_dir / "run.json")
    os.environ[ENV] = str(path.resolve())
    with open_dict(config):
        env_vars = OmegaConf.select(config, "ray_kwargs.ray_init.runtime_env.env_vars") or {}
        config.ray_kwargs.ray_init.runtime_env = OmegaConf.merge(
            OmegaConf.select(config, "ray_kwargs.ray_init.runtime_env") or {},
            {"env_vars": {**env_vars, ENV: str(path.resolve())}},
        )
    return path

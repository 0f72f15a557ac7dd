"""What a run records about its config, and how two records are compared.

Every training run writes ``<pac.log_root>/<experiment_name>/run.json`` (:mod:`pac_verl.run_logs`)
holding the command, the full resolved config and its hash. Three readers compare configs:

* the driver refuses to add an attempt to a run folder whose recorded config differs;
* the recipes' launcher (:mod:`pac_verl.launch`) refuses to relaunch such a run;
* ``pac-verl report`` refuses to put seeds with differing configs in one cell.

Some keys may differ without changing what a run computes: how an attempt is started and logged
(:data:`ATTEMPT_KEYS`, left out of the hash), and, between the seeds of one experiment, the keys
that ``curriculum.seed`` sets (:data:`SEED_KEYS`). A key names itself and everything under it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

from pac_verl.errors import UserError

# How an attempt is started and logged; never part of the hash.
ATTEMPT_KEYS = (
    "ray_kwargs",
    "trainer.logger",
    "trainer.resume_mode",
    "trainer.resume_from_path",
    "trainer.del_local_ckpt_after_load",
    "trainer.log_val_generations",
    "trainer.rollout_data_dir",
    "trainer.validation_data_dir",
    "global_profiler",
    "pac.allow_short_run",  # whether a short run was allowed, not what it computes
)
# What curriculum.seed sets (configs/pac_trainer.yaml), and the names derived from it.
SEED_KEYS = (
    "curriculum.seed",
    "data.curriculum.seed",
    "data.seed",
    "actor_rollout_ref.actor.data_loader_seed",
    "actor_rollout_ref.actor.fsdp_config.seed",
    "actor_rollout_ref.ref.fsdp_config.seed",
    "critic.data_loader_seed",
    "critic.model.fsdp_config.seed",
    "trainer.experiment_name",
    "trainer.default_local_dir",
    "actor_rollout_ref.rollout.trace.experiment_name",
    # verl 0.9.1's keys that follow the run's seed (pac_verl.verl.compat.FOLLOW_SEED)
    "actor_rollout_ref.rollout.seed",
    "critic.fsdp.seed",
    "reward.reward_model.rollout.seed",
)
CHECKPOINT_TRACKER = "latest_checkpointed_iteration.txt"  # verl's name for it


def flatten(tree: Any, prefix: str = "") -> dict[str, Any]:
    """Dotted keys -> leaf values (lists are leaves)."""
    if not isinstance(tree, Mapping):
        return {prefix: tree}
    out: dict[str, Any] = {}
    for key, value in tree.items():
        name = f"{prefix}.{key}" if prefix else str(key)
        if isinstance(value, Mapping) and value:
            out.update(flatten(value, name))
        else:
            out[name] = value
    return out


def _ignored(key: str, ignore: Iterable[str]) -> bool:
    return any(key == k or key.startswith(k + ".") for k in ignore)


def config_hash(config: Mapping) -> str:
    """SHA-256 (first 16 hex digits) of the resolved config, :data:`ATTEMPT_KEYS` left out."""
    flat = {k: v for k, v in flatten(config).items() if not _ignored(k, ATTEMPT_KEYS)}
    text = json.dumps(flat, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def config_diff(
    old: Mapping, new: Mapping, ignore: Iterable[str] = ()
) -> list[tuple[str, Any, Any]]:
    """``(key, old value, new value)`` for every key that differs (missing: ``<unset>``)."""
    ignore = (*ATTEMPT_KEYS, *ignore)
    a, b = flatten(old), flatten(new)
    out = []
    for key in sorted(set(a) | set(b)):
        if _ignored(key, ignore):
            continue
        va, vb = a.get(key, "<unset>"), b.get(key, "<unset>")
        if va != vb:
            out.append((key, va, vb))
    return out


def describe_diff(diffs: list[tuple[str, Any, Any]], limit: int = 8) -> str:
    """``key: old -> new; ...`` (at most ``limit`` keys, then how many more)."""
    parts = [f"{k}: {a!r} -> {b!r}" for k, a, b in diffs[:limit]]
    if len(diffs) > limit:
        parts.append(f"and {len(diffs) - limit} more")
    return "; ".join(parts)


def checkpointed_step(checkpoint_dir: str | Path) -> int | None:
    """The step in verl's ``latest_checkpointed_iteration.txt`` (None: no checkpoint yet)."""
    path = Path(checkpoint_dir).expanduser() / CHECKPOINT_TRACKER
    try:
        text = path.read_text().strip()
    except (FileNotFoundError, NotADirectoryError):
        return None
    return int(text) if text.isdigit() else None


def reached_a_step(run_dir: str | Path, checkpoint_dir: str | Path) -> bool:
    """Whether a run trained at least one step: a checkpoint, or a metrics line in one of its
    attempts' files. A run that failed before (a bad value verl refused, a missing GPU) did not,
    and its ``run.json`` must not block its own correction."""
    if checkpointed_step(checkpoint_dir) is not None:
        return True
    for path in Path(run_dir).glob("metrics-*.jsonl"):
        try:
            if path.read_text().strip():
                return True
        except OSError:
            return True  # unreadable: keep it, as if it held steps
    return False


def stale_record_note(run_dir: str | Path) -> str:
    """What happens to the ``run.json`` of an attempt that stopped before its first step."""
    return f"replaces {Path(run_dir) / 'run.json'}: its attempt stopped before its first step"


def remove_hint(run_dir: str | Path, checkpoint_dir: str | Path) -> str:
    """Exactly what to remove to start a run again from nothing
    (docs/guides/shorten-clean-retry.md)."""
    return (f"to start it afresh, remove {run_dir} and {checkpoint_dir} "
            "(docs/guides/shorten-clean-retry.md), or train under another "
            "trainer.experiment_name")  # fmt: skip


def read_record(run_dir: str | Path) -> dict | None:
    """``run.json`` of a run folder (None when there is none); unreadable JSON is a UserError."""
    path = Path(run_dir) / "run.json"
    try:
        record = json.loads(path.read_text())
    except (FileNotFoundError, NotADirectoryError):
        return None
    except json.JSONDecodeError as err:
        raise UserError(f"{path}: not valid JSON ({err.msg} at line {err.lineno}); "
                        "fix or remove it") from None  # fmt: skip
    if not isinstance(record, dict):
        raise UserError(f"{path}: expected a JSON object")
    return record

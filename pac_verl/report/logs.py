"""Read run logs into one :class:`Run` per experiment: verl JSONL file logs and wandb exports.

What a path may be:

* a run folder written by ``python -m pac_verl.main`` (``run.json`` + ``metrics-<UTC>.jsonl``, one
  file per attempt) or by ``pac-verl simulate`` (``run.json`` + ``metrics.jsonl``);
* verl's default file log ``<project>/<experiment_name>.jsonl``;
* a wandb export: a run's history as CSV or JSONL with a ``_step`` column (``run.history()``,
  ``run.scan_history()``), or a chart exported from the wandb UI (columns ``Step`` and
  ``<experiment_name> - <metric>``, several runs in one file);
* any folder holding the above, searched recursively.

verl lines are ``{"step": s, "data": {...}}``. A run spread over several files (one per resumed
attempt) is merged in file-name order, which is chronological for ``metrics-<UTC>.jsonl``; for a
step logged twice, the later value of each metric wins (verl logs the validation of a resumed run
at the step it resumes from, next to the first attempt's training metrics of that step).

One experiment name found in several folders (copies, or one run moved between machines) is merged
only when their ``run.json`` records agree on everything but locations (:func:`compare_records`):
the config minus :data:`LOCATION_KEYS` and keys whose values are absolute paths in both, the data
files by the SHA-256 recorded for them, the simulation's settings. Anything else that differs
(60 vs 90 steps, another learning rate, other data) is a :class:`UserError` naming the keys.
A run's identity (setting, backbone, curriculum, W, seed) comes from ``run.json`` or else from the
experiment name (``pac_verl.naming``). A truncated last line (a run killed while writing) is
skipped with a note; a malformed line elsewhere is an error naming the file and the line.
"""

from __future__ import annotations

import csv
import json
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pac_verl.errors import UserError
from pac_verl.naming import (
    DEFAULT_WINDOW,
    VAL_PREFIX,
    RunKey,
    core_val_metric,
    parse_experiment_name,
    val_source_of,
)
from pac_verl.run_record import SEED_KEYS, config_diff, describe_diff

_WANDB_STEP_COLUMNS = ("_step", "step", "Step", "global_step")

# Config keys that name a place on disk. Two copies of one run (copied, moved, or written under
# another pac.log_root) differ in these and in nothing else, so the report sets them aside when it
# compares two records of one experiment or the seeds of one method. Besides these, any key whose
# value is an absolute path (``/...`` or ``~...``) in both records is a location. The data files
# are compared by the SHA-256 that run.json records for each (``data``), not by path; a record
# without it has its data files compared by path.
LOCATION_KEYS = (
    "pac.log_root",
    "setting.data_dir",
    "trainer.default_local_dir",
    "trainer.default_hdfs_dir",
    "actor_rollout_ref.model.path",  # the backbone is in the experiment name and its identity
    "actor_rollout_ref.model.tokenizer_path",
    "actor_rollout_ref.rollout.prometheus.served_model_name",  # verl's default: the model path
    "actor_rollout_ref.rollout.prometheus.file",
    "actor_rollout_ref.rollout.skip_dump_dir",
    "actor_rollout_ref.rollout.custom.pac_hf_rollout_log",  # the CPU stack's weight log (smoke)
    "actor_rollout_ref.actor.profiler.save_path",
    "actor_rollout_ref.ref.profiler.save_path",
    "actor_rollout_ref.rollout.profiler.save_path",
    "critic.model.path",
    "critic.model.tokenizer_path",
    "critic.profiler.save_path",
)
DATA_FILE_KEYS = {"train": "data.train_files", "val": "data.val_files"}
# run.json entries that describe attempts or are derived from the config, not compared as such
_RECORD_SKIP = ("experiment_name", "attempts", "command", "config", "config_hash", "data",
                "prompt")  # fmt: skip


def _is_location(key: str, a, b) -> bool:
    if any(key == k or key.startswith(k + ".") for k in LOCATION_KEYS):
        return True
    if key in DATA_FILE_KEYS.values():
        return False  # compared by fingerprint, or by path without one (compare_records)
    return all(isinstance(v, str) and v.startswith(("/", "~")) for v in (a, b))


def _files_of(data: dict, split: str) -> list[str]:
    return [f"{Path(str(f.get('path'))).name} sha256:{str(f.get('sha256'))[:12]}"
            for f in data.get(split) or []]  # fmt: skip


def comparable(a: dict, b: dict) -> bool:
    """Two records can be compared: both exist and both or neither hold a config (an older
    run.json without one cannot be checked against one with it)."""
    return bool(a) and bool(b) and (isinstance(a.get("config"), dict)
                                    == isinstance(b.get("config"), dict))  # fmt: skip


def compare_records(a: dict, b: dict, ignore: Iterable[str] = ()) -> tuple[list, list[str]]:
    """What two run.json records of one experiment (or of two seeds) disagree on.

    Returns ``(differences, locations)``: ``differences`` as :func:`config_diff` gives them, for
    the config (``ignore`` and the attempt keys left out), the data files by recorded SHA-256, the
    prompt's style and chat-template hash, and every other entry of the record (``total_steps``,
    ``simulation.*``, ...); ``locations`` names the keys that differ only as locations
    (:data:`LOCATION_KEYS`, absolute paths, data files whose fingerprints are equal).
    """
    ignore = tuple(ignore)
    diffs, locations = [], []
    ca, cb = a.get("config"), b.get("config")
    da, db = a.get("data"), b.get("data")
    fingerprinted = isinstance(da, dict) and isinstance(db, dict)
    if isinstance(ca, dict) and isinstance(cb, dict):
        for key, va, vb in config_diff(ca, cb, ignore=ignore):
            if _is_location(key, va, vb) or (fingerprinted and key in DATA_FILE_KEYS.values()):
                locations.append(key)
            else:
                diffs.append((key, va, vb))
    if fingerprinted:
        for split, key in DATA_FILE_KEYS.items():
            fa, fb = _files_of(da, split), _files_of(db, split)
            if [f.split(" sha256:")[1] for f in fa] != [f.split(" sha256:")[1] for f in fb]:
                diffs.append((key, fa, fb))
    pa, pb = a.get("prompt"), b.get("prompt")
    if isinstance(pa, dict) and isinstance(pb, dict):
        for k in ("style", "chat_template_sha256"):
            if pa.get(k) != pb.get(k):
                diffs.append((f"prompt.{k}", pa.get(k), pb.get(k)))
    rest_a = {k: v for k, v in a.items() if k not in _RECORD_SKIP}
    rest_b = {k: v for k, v in b.items() if k not in _RECORD_SKIP}
    for key, va, vb in config_diff(rest_a, rest_b, ignore=ignore):
        (locations.append(key) if _is_location(key, va, vb) else diffs.append((key, va, vb)))
    return diffs, sorted(set(locations))


@dataclass
class Run:
    """One experiment: its identity, every logged step, and where it was read from."""

    key: RunKey
    name: str
    steps: dict[int, dict[str, float]] = field(default_factory=dict)
    sources: list[Path] = field(default_factory=list)
    info: dict = field(default_factory=dict)  # run.json, when there is one

    @property
    def config(self) -> dict | None:
        """The resolved config run.json recorded (None for older logs and wandb exports)."""
        config = self.info.get("config")
        return config if isinstance(config, dict) else None

    def recorded_total_steps(self) -> int | None:
        """The step the run trains to, as its run.json recorded it."""
        total = self.info.get("total_steps")
        if total is None and self.config is not None:
            total = (self.config.get("trainer") or {}).get("total_training_steps")
        return int(total) if isinstance(total, int | float) else None

    def last_step(self) -> int | None:
        return max(self.steps) if self.steps else None

    def value(self, step: int, metric: str) -> float | None:
        return self.steps.get(step, {}).get(metric)

    def series(self, metric: str) -> tuple[np.ndarray, np.ndarray]:
        """(steps, values) of ``metric``, in step order."""
        pts = sorted((s, d[metric]) for s, d in self.steps.items() if metric in d)
        return np.array([p[0] for p in pts], dtype=int), np.array([p[1] for p in pts], dtype=float)

    def val_steps(self) -> list[int]:
        """Steps that hold at least one ``val-core/`` metric."""
        return sorted(s for s, d in self.steps.items() if any(k.startswith(VAL_PREFIX) for k in d))

    def val_sources(self) -> list[str]:
        """Validation data sources (``countdown/4``, ``math500``, ...) this run logged."""
        out = set()
        for d in self.steps.values():
            for k in d:
                ds = val_source_of(k)
                if ds is not None:
                    out.add(ds)
        return sorted(out)

    def val_score(self, step: int, source: str) -> float | None:
        """verl's core validation metric of ``source`` at ``step`` (``acc``, else ``reward``)."""
        return core_val_metric(self.steps.get(step, {}), source)

    def curriculum_arms(self) -> list[str]:
        arms = set()
        for d in self.steps.values():
            for k in d:
                if k.startswith("curriculum/") and k.endswith("/share"):
                    arms.add(k[len("curriculum/") : -len("/share")])
        return sorted(arms)


# ------------------------------------------------------------------------------------------ reading


@dataclass
class _Source:
    name: str  # experiment name
    path: Path
    steps: dict[int, dict[str, float]]
    info: dict


def load_runs(paths: Iterable[str | os.PathLike], notes: list[str] | None = None) -> list[Run]:
    """Every run found under ``paths``, merged per experiment name, sorted by name.

    Problems that lose nothing the user asked for (a truncated last line, a file that is not a
    run log) are appended to ``notes``; a path that does not exist or holds no run is an error.
    """
    notes = notes if notes is not None else []
    sources: list[_Source] = []
    for raw in paths:
        path = Path(raw).expanduser()
        if not path.exists():
            raise UserError(f"{path}: no such file or folder")
        found = list(_read_path(path, notes))
        if not found:
            raise UserError(
                f"{path}: no run logs found (looked for run.json with metrics*.jsonl, "
                "<experiment_name>.jsonl, and wandb exports .csv/.jsonl)"
            )
        sources.extend(found)
    runs: dict[str, Run] = {}
    set_aside: dict[str, set[str]] = {}  # name -> location keys that differ between its folders
    unchecked: set[str] = set()  # names found in a folder without run.json beside one with it
    for src in sources:
        run = runs.get(src.name)
        if run is None:
            key = _key_from(src.info, src.name, src.path)
            run = runs[src.name] = Run(key=key, name=src.name, info=src.info)
        elif src.path.parent not in {p.parent for p in run.sources}:  # another folder
            if comparable(run.info, src.info):
                diffs, locations = compare_records(run.info, src.info)
                if diffs:
                    raise UserError(
                        f"{src.name}: the logs in {run.sources[0].parent} and {src.path.parent} "
                        f"were made with different configs ({describe_diff(diffs)}); they are "
                        "two runs under one name: report one of them"
                    )
                set_aside.setdefault(src.name, set()).update(locations)
            elif src.info or run.info:
                unchecked.add(src.name)
            run.info = src.info or run.info
        elif src.info:
            run.info = src.info
        for step, data in sorted(src.steps.items()):
            run.steps.setdefault(step, {}).update(data)
        if src.path not in run.sources:
            run.sources.append(src.path)
    for name, run in runs.items():
        where = list(dict.fromkeys(p.parent for p in run.sources))
        if len(where) < 2:
            continue
        if name in unchecked or not run.info:
            why = "not compared: a folder has no run.json, or one without a config"
        elif set_aside.get(name):
            why = f"their records differ only in locations ({', '.join(sorted(set_aside[name]))})"
        else:
            why = "their records agree"
        notes.append(
            f"{name}: found in {len(where)} folders ({', '.join(map(str, where))}), merged in that "
            f"order, a step logged twice taking the later folder's values; {why}"
        )
    return [runs[n] for n in sorted(runs)]


def check_seed_configs(runs: Iterable[Run], notes: list[str]) -> None:
    """Seeds of one (setting, backbone, method) must differ in nothing but the seed.

    Runs with a run.json are compared by :func:`compare_records`, :data:`SEED_KEYS`, the attempt
    keys and locations left out; a difference is a :class:`UserError` that lists it. Runs without
    a run.json cannot be compared: they are named in ``notes``.
    """
    groups: dict[tuple[str, str, str], list[Run]] = {}
    for run in runs:
        groups.setdefault((run.key.setting, run.key.backbone, run.key.method), []).append(run)
    problems, unchecked = [], []
    for group in groups.values():
        recorded = [r for r in group if r.info]
        if recorded and len(recorded) < len(group):
            unchecked += [r.name for r in group if not r.info]
        first = recorded[0] if recorded else None
        for other in recorded[1:]:
            if not comparable(first.info, other.info):
                unchecked.append(other.name)
                continue
            diffs, _ = compare_records(first.info, other.info, ignore=(*SEED_KEYS, "seed"))
            if diffs:
                problems.append(f"{first.name} vs {other.name}: {describe_diff(diffs, limit=5)}")
    if problems:
        raise UserError(
            "runs that would be averaged as seeds differ in more than the seed ("
            + " | ".join(problems)
            + "); rerun them with one config, or leave one out of the paths given"
        )
    if unchecked:
        notes.append(
            "not compared with their other seeds (no run.json, or no config in it): "
            + ", ".join(unchecked)
        )


def _key_from(info: dict, name: str, path: Path) -> RunKey:
    if info and all(k in info for k in ("setting", "backbone", "curriculum", "seed")):
        return RunKey(
            setting=str(info["setting"]),
            backbone=str(info["backbone"]),
            curriculum=str(info["curriculum"]),
            seed=int(info["seed"]),
            window=int(info.get("window") or DEFAULT_WINDOW),
        )
    try:
        return parse_experiment_name(name)
    except UserError as err:
        raise UserError(f"{path}: cannot tell which run this is: {err}") from None


SKIPPED = "\0skipped:"  # marks a note about a file that is not a run log; folded into one line


def _read_path(path: Path, notes: list[str]) -> Iterable[_Source]:
    if path.is_file():
        yield from _read_file(path, notes, explicit=True)
        return
    mine: list[str] = []
    for folder, subdirs, files in os.walk(path):
        subdirs.sort()
        for fname in sorted(files):
            if fname.endswith((".jsonl", ".csv")):
                yield from _read_file(Path(folder) / fname, mine, explicit=False)
    skipped = [n[len(SKIPPED) :] for n in mine if n.startswith(SKIPPED)]
    notes += [n for n in mine if not n.startswith(SKIPPED)]
    if skipped:  # validation dumps and the like: one line, not one per file
        more = f" and {len(skipped) - 1} more" if len(skipped) > 1 else ""
        notes.append(
            f"{path}: skipped {len(skipped)} .jsonl/.csv file(s) whose name is not an experiment "
            f"name and that have no run.json beside them ({skipped[0]}{more})"
        )


def _run_info(folder: Path) -> dict:
    path = folder / "run.json"
    if not path.is_file():
        return {}
    try:
        info = json.loads(path.read_text())
    except json.JSONDecodeError as err:
        raise UserError(f"{path}: not valid JSON ({err.msg} at line {err.lineno})") from None
    if not isinstance(info, dict) or "experiment_name" not in info:
        raise UserError(f"{path}: expected an object with 'experiment_name'")
    return info


def _read_file(path: Path, notes: list[str], explicit: bool) -> Iterable[_Source]:
    info = _run_info(path.parent)
    is_attempt = path.name.startswith("metrics")
    if path.suffix == ".csv":
        yield from _read_csv(path, info if is_attempt else {}, notes, explicit)
        return
    if is_attempt and info:
        name = str(info["experiment_name"])
    elif is_attempt and _parses(path.parent.name):
        name, info = path.parent.name, {}
    else:
        name = path.stem
        if not _parses(name):
            if explicit or is_attempt:
                raise UserError(
                    f"{path}: cannot tell which run this is: no run.json next to it and "
                    f"{name!r} is not an experiment name <setting>__<backbone>__<curriculum>__seed<k>"
                )
            notes.append(f"{SKIPPED}{path}")
            return
        info = {}
    steps = _read_jsonl(path, notes)
    yield _Source(name, path, steps, info)


def _parses(name: str) -> bool:
    try:
        parse_experiment_name(name)
    except UserError:
        return False
    return True


def _numeric(data: dict) -> dict[str, float]:
    out = {}
    for k, v in data.items():
        if isinstance(v, bool) or not isinstance(v, int | float):
            continue
        if math.isfinite(v):
            out[str(k)] = float(v)
    return out


def _read_jsonl(path: Path, notes: list[str]) -> dict[int, dict[str, float]]:
    steps: dict[int, dict[str, float]] = {}
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    last = max((i for i, line in enumerate(lines) if line.strip()), default=-1)
    for i, line in enumerate(lines):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
        except json.JSONDecodeError:
            if i == last:
                notes.append(f"{path}: line {i + 1} is truncated (run stopped mid-write), skipped")
                continue
            raise UserError(f"{path}: line {i + 1} is not JSON; fix or remove that line") from None
        if isinstance(obj, dict) and "step" in obj and isinstance(obj.get("data"), dict):
            step, data = obj["step"], obj["data"]  # verl's file logger
        elif isinstance(obj, dict) and "_step" in obj:
            step, data = obj["_step"], obj  # wandb history
        else:
            raise UserError(
                f"{path}: line {i + 1} is neither verl's {{'step': s, 'data': {{...}}}} "
                "nor a wandb history row with '_step'"
            )
        if isinstance(step, bool) or not isinstance(step, int | float) or step != int(step):
            raise UserError(f"{path}: line {i + 1}: step {step!r} is not an integer")
        steps.setdefault(int(step), {}).update(_numeric(data))
    return steps


def _float(cell: str) -> float | None:
    try:
        v = float(cell)
    except ValueError:
        return None
    return v if math.isfinite(v) else None


def _read_csv(path: Path, info: dict, notes: list[str], explicit: bool) -> Iterable[_Source]:
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    if not rows:
        raise UserError(f"{path}: empty CSV")
    header = rows[0]
    step_col = next((c for c in _WANDB_STEP_COLUMNS if c in header), None)
    if step_col is None:
        if explicit:
            raise UserError(f"{path}: a wandb export needs a step column (one of "
                            f"{', '.join(_WANDB_STEP_COLUMNS)})")  # fmt: skip
        notes.append(f"{path}: skipped (CSV without a step column)")
        return
    si = header.index(step_col)
    chart = [c for c in header if " - " in c]
    if chart:  # a wandb UI chart export: "<run> - <metric>" columns, __MIN/__MAX bands ignored
        per_run: dict[str, dict[int, dict[str, float]]] = {}
        for row in rows[1:]:
            step = _float(row[si]) if si < len(row) else None
            if step is None:
                continue
            for j, col in enumerate(header):
                if " - " not in col or col.endswith(("__MIN", "__MAX")) or j >= len(row):
                    continue
                run_name, metric = col.split(" - ", 1)
                v = _float(row[j])
                if v is not None:
                    per_run.setdefault(run_name.strip(), {}).setdefault(int(step), {})[
                        metric.strip()
                    ] = v
        for run_name, steps in per_run.items():
            if not _parses(run_name):
                notes.append(f"{path}: column run {run_name!r} skipped (not an experiment name)")
                continue
            yield _Source(run_name, path, steps, {})
        return
    name = str(info["experiment_name"]) if info else path.stem
    if not _parses(name):
        msg = f"{path}: cannot tell which run this is ({name!r} is not an experiment name)"
        if explicit:
            raise UserError(msg)
        notes.append(msg + ", skipped")
        return
    steps: dict[int, dict[str, float]] = {}
    for n, row in enumerate(rows[1:], start=2):
        step = _float(row[si]) if si < len(row) else None
        if step is None:
            notes.append(f"{path}: row {n} has no step, skipped")
            continue
        data = steps.setdefault(int(step), {})
        for j, col in enumerate(header):
            if j != si and j < len(row) and not col.startswith("_"):
                v = _float(row[j])
                if v is not None:
                    data[col] = v
    yield _Source(name, path, steps, info)

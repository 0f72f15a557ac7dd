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
    for src in sources:
        run = runs.get(src.name)
        if run is None:
            key = _key_from(src.info, src.name, src.path)
            run = runs[src.name] = Run(key=key, name=src.name, info=src.info)
        elif src.info:
            theirs, mine = src.info.get("config_hash"), run.info.get("config_hash")
            if theirs and mine and theirs != mine:
                diffs = config_diff(run.info.get("config") or {}, src.info.get("config") or {})
                raise UserError(
                    f"{src.name}: the logs in {run.sources[0].parent} and {src.path.parent} were "
                    f"made with different configs ({describe_diff(diffs)}); report one of them"
                )
            run.info = src.info
        for step, data in sorted(src.steps.items()):
            run.steps.setdefault(step, {}).update(data)
        if src.path not in run.sources:
            run.sources.append(src.path)
    dirs = {name: {p.parent for p in r.sources} for name, r in runs.items()}
    for name, where in dirs.items():
        if len(where) > 1:
            notes.append(f"{name}: found in {len(where)} folders, merged in path order")
    return [runs[n] for n in sorted(runs)]


def check_seed_configs(runs: Iterable[Run], notes: list[str]) -> None:
    """Seeds of one (setting, backbone, method) must differ in nothing but the seed.

    Runs that recorded their config (run.json) are compared key by key, :data:`SEED_KEYS` and
    the attempt keys left out; a difference is a :class:`UserError` that lists it. Runs without a
    recorded config cannot be compared: they are named in ``notes``.
    """
    groups: dict[tuple[str, str, str], list[Run]] = {}
    for run in runs:
        groups.setdefault((run.key.setting, run.key.backbone, run.key.method), []).append(run)
    problems, unchecked = [], []
    for group in groups.values():
        recorded = [r for r in group if r.config is not None]
        if recorded and len(recorded) < len(group):
            unchecked += [r.name for r in group if r.config is None]
        first = recorded[0] if recorded else None
        for other in recorded[1:]:
            diffs = config_diff(first.config, other.config, ignore=SEED_KEYS)
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
            f"not compared with their other seeds (no config in run.json): {', '.join(unchecked)}"
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

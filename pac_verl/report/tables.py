"""The paper's tables from runs: final validation, mean +- sample std over seeds, what is missing.

Each table is a :class:`TableSpec`: which setting it reads, its columns (each the mean of one or
more validation data sources at the final validation step), how the row average is formed, and
which methods are its rows, in the paper's order. Averages are taken per seed, then summarised
over seeds, as the paper does (its Avg. std is smaller than its column stds).

* Table 1, multi-level: Countdown, Zebra, ARC at level 4 (``<task>/4``) and their mean.
* Table 2, multi-domain: MATH500, AMC22-23, AIME24, BigCodeBench, K&K (6 people); Avg. =
  mean(mean(MATH500, AMC22-23, AIME24), BigCodeBench, K&K) (docs/concepts/spec.md#settings).
* Table 3, multi-level per level 1..4 (Simple, Medium, Hard, Ext.), each the mean of the three tasks.
* Table 4, PAC's history window W in {4, 16, 32, 64, 128, 256}, columns of Table 1.
* Table 5, the ablations of PAC on multi-domain, columns of Table 2.
* The miniature (setting ``toy``, docs/results/miniature.md): every toy arm, Avg. = the mean of the
  three learnable arms; every curriculum, PAC's ablations and the single-task reference (ST, the
  run trained on the learnable arms only, ``curriculum.train_arms=[toy/learn]``) included.
* A simulation (setting ``sim-<scenario>``) gets one table: one column per arm, Avg. their mean.

The single-task reference (ST) takes each column from the run trained on that column's task
(curriculum ``single-<task>``, see :func:`pac_verl.naming.single_label`). Nothing is filled in:
a missing seed, step or metric leaves the cell on fewer seeds (shown as ``n=``) and is listed.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files

import numpy as np
import yaml

from pac_verl.curriculum import CONTROLLER_NAMES
from pac_verl.naming import single_label
from pac_verl.report.logs import Run

TASKS = ("countdown", "zebra", "arc")
WINDOWS = (4, 16, 32, 64, 128, 256)
BASELINES = ("random", "sec", "dump")
METHOD_LABELS = {
    "random": "Random",
    "sec": "SEC",
    "dump": "DUMP",
    "pac": "Ours (PAC)",
    "pac_no_adv": "Ours w/o adv",
    "pac_no_prog": "Ours w/o prog",
    "pac_no_ts": "Ours w/o ts",
    "single": "ST",
}


@dataclass(frozen=True)
class Column:
    label: str
    sources: tuple[str, ...]  # validation data sources, averaged
    task: str | None = None  # the task an ST run trains for this column


def _mean(values: Sequence[float]) -> float:
    return float(np.mean(values))


def _multi_domain_average(values: Sequence[float]) -> float:
    math500, amc, aime, code, logic = values
    return float(np.mean([np.mean([math500, amc, aime]), code, logic]))


@dataclass(frozen=True)
class TableSpec:
    number: int | None
    title: str
    setting: str
    columns: tuple[Column, ...]
    rows: tuple[str, ...]  # methods (RunKey.method), in display order
    average: Callable[[Sequence[float]], float] | None = _mean
    groups: tuple[tuple[str, int], ...] = ()  # header groups (label, number of columns)
    row_header: str = "Method"
    budget: bool = False  # also report each method's share of the batch per arm (budget_for)

    def row_label(self, method: str) -> str:
        if self.row_header == "W":
            return method.split("@w")[1] if "@w" in method else "16"
        # curriculum.prompt_level set (docs/concepts/beyond-the-paper.md)
        if method.endswith("-prompt"):
            base = method.removesuffix("-prompt")
            return f"{METHOD_LABELS.get(base, base)} + prompt-level"
        return METHOD_LABELS.get(method, method)


LEVEL4 = tuple(Column(t.capitalize() if t != "arc" else "ARC", (f"{t}/4",), t) for t in TASKS)
DOMAIN = (
    Column("MATH500", ("math500",), "math"),
    Column("AMC22-23", ("amc23",), "math"),
    Column("AIME24", ("aime24",), "math"),
    Column("BigCodeBench", ("bigcodebench",), "code"),
    Column("K&K", ("kk6",), "logic"),
)

TABLES: dict[int, TableSpec] = {
    1: TableSpec(1, "Final validation, multi-level setting (level 4)", "multi_level", LEVEL4,
                 (*BASELINES, "pac", "single")),
    2: TableSpec(2, "Final validation, multi-domain setting", "multi_domain", DOMAIN,
                 (*BASELINES, "pac", "single"), _multi_domain_average,
                 groups=(("Math", 3), ("Code", 1), ("Logic", 1))),
    3: TableSpec(3, "Validation per difficulty level, multi-level setting (mean of the 3 tasks)",
                 "multi_level",
                 tuple(Column(label, tuple(f"{t}/{lvl}" for t in TASKS))
                       for lvl, label in enumerate(("Simple", "Medium", "Hard", "Ext."), 1)),
                 (*BASELINES, "pac"), None),
    4: TableSpec(4, "Sensitivity to the history window W, multi-level setting (level 4)",
                 "multi_level", LEVEL4,
                 tuple("pac" if w == 16 else f"pac@w{w}" for w in WINDOWS), row_header="W"),
    5: TableSpec(5, "Ablations of PAC, multi-domain setting", "multi_domain", DOMAIN,
                 ("pac_no_adv", "pac_no_prog", "pac_no_ts", "pac"), _multi_domain_average,
                 groups=(("Math", 3), ("Code", 1), ("Logic", 1))),
}  # fmt: skip
SETTING_TABLES = {"multi_level": (1, 3, 4), "multi_domain": (2, 5)}

TOY_LEARNABLE = ("toy/learn/1", "toy/learn/2", "toy/learn/3")
TOY_OTHERS = ("toy/saturated", "toy/unreachable", "toy/noise")


def _toy_average(values: Sequence[float]) -> float:
    """The learnable arms' mean: the saturated, unreachable and noise arms cannot improve."""
    return float(np.mean(values[: len(TOY_LEARNABLE)]))


# the miniature: no table of the paper, so no number; the ST row is the run on the learnable arms
TOY = TableSpec(None, "The miniature: final validation per toy arm (Avg.: learnable arms)", "toy",
                tuple(Column(s.removeprefix("toy/"), (s,), "toy/learn")
                      for s in (*TOY_LEARNABLE, *TOY_OTHERS)),
                (*BASELINES, "pac_no_adv", "pac_no_prog", "pac_no_ts", "pac", "single"),
                _toy_average, budget=True)  # fmt: skip
NAMED_TABLES = {"toy": TOY}  # settings with a table of their own that is not one of the paper's


def simulation_spec(setting: str, runs: Sequence[Run]) -> TableSpec:
    """A table for a simulated scenario: one column per validated arm, Avg. their mean."""
    sources = sorted({s for r in runs if r.key.setting == setting for s in r.val_sources()})
    methods = {r.key.method for r in runs if r.key.setting == setting}
    order = [c for c in CONTROLLER_NAMES if c in methods] + sorted(
        m for m in methods if m not in CONTROLLER_NAMES
    )
    return TableSpec(
        None,
        f"SIMULATION '{setting.removeprefix('sim-')}': final held-out success per arm",
        setting,
        tuple(Column(s, (s,), s) for s in sources),
        tuple(order),
    )


# --------------------------------------------------------------------------------------- computing


@dataclass
class Cell:
    values: dict[int, float]  # seed -> value

    @property
    def n(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float | None:
        return float(np.mean(list(self.values.values()))) if self.values else None

    @property
    def std(self) -> float | None:
        """Sample standard deviation over seeds (ddof=1); None with fewer than 2 seeds."""
        v = list(self.values.values())
        return float(np.std(v, ddof=1)) if len(v) >= 2 else None


@dataclass
class TableRow:
    method: str
    label: str
    cells: list[Cell]
    average: Cell | None


@dataclass
class Section:
    backbone: str
    step: int | None  # the validation step the table reads
    rows: list[TableRow]
    seeds: list[int]


@dataclass
class TableResult:
    spec: TableSpec
    sections: list[Section]
    missing: list[str] = field(default_factory=list)


def _runs_for(runs: Sequence[Run], setting: str, backbone: str, method: str) -> dict[int, Run]:
    return {r.key.seed: r for r in runs
            if r.key.setting == setting and r.key.backbone == backbone and r.key.method == method}  # fmt: skip


def column_value(run: Run, column: Column, step: int) -> float | None:
    vals = [run.val_score(step, s) for s in column.sources]
    return None if any(v is None for v in vals) else float(np.mean(vals))


@cache
def setting_total_steps(setting: str) -> int | None:
    """``setting.total_steps`` of ``configs/setting/<setting>.yaml`` (None: no such setting)."""
    path = files("pac_verl.configs") / "setting" / f"{setting}.yaml"
    if not path.is_file():
        return None
    return int(yaml.safe_load(path.read_text())["setting"]["total_steps"])


def total_steps(runs: Sequence[Run], setting: str) -> int | None:
    """The step a table of ``setting`` reads: the runs' recorded last step when they all agree,
    else the setting's ``total_steps`` (None for a setting without one, e.g. a simulation)."""
    recorded = {r.recorded_total_steps() for r in runs} - {None}
    if len(recorded) == 1 and all(r.recorded_total_steps() is not None for r in runs):
        return recorded.pop()
    return setting_total_steps(setting)


def incomplete(run: Run, total: int | None) -> bool:
    """A run that has not validated at ``total`` (its final validation) is not complete."""
    return total is not None and total not in run.val_steps()


def incomplete_runs(runs: Sequence[Run]) -> list[str]:
    """One line per run of a training setting that has not reached its final validation."""
    out = []
    for run in runs:
        total = run.recorded_total_steps() or setting_total_steps(run.key.setting)
        if incomplete(run, total):
            val = run.val_steps()
            out.append(f"{run.name}: last step {run.last_step()} of {total}"
                       + (f", last validation at step {val[-1]}" if val else ", never validated"))  # fmt: skip
    return out


def short_runs(runs: Sequence[Run]) -> list[str]:
    """One line per run too short for its curriculum to act (its run.json's config: steps not
    beyond PAC's cold start or trend fit, allowed or not by ``pac.allow_short_run``): its
    allocations are Random's, whatever its method is called."""
    from pac_verl.curriculum.config import short_run_reason

    out = []
    for run in runs:
        curriculum = (run.config or {}).get("curriculum")
        reason = short_run_reason(run.recorded_total_steps(), curriculum)
        if reason:
            out.append(f"{run.name}: {reason}")
    return out


def final_step(runs: Sequence[Run], spec: TableSpec) -> int | None:
    """The last step at which any of ``runs`` validated every source of ``spec``."""
    best = None
    for run in runs:
        for step in reversed(run.val_steps()):
            if all(column_value(run, c, step) is not None for c in spec.columns):
                best = step if best is None else max(best, step)
                break
    return best


def build_table(spec: TableSpec, runs: Sequence[Run], step: int | None = None) -> TableResult:
    """Compute ``spec`` from ``runs``: one section per backbone of the setting."""
    result = TableResult(spec, [])
    mine = [r for r in runs if r.key.setting == spec.setting]
    for backbone in sorted({r.key.backbone for r in mine}):
        # runs per row; the ST row holds one run set per column (the run trained on its task)
        per_row: dict[str, list[dict[int, Run]]] = {}
        for method in spec.rows:
            if method == "single":
                per_row[method] = [
                    _runs_for(mine, spec.setting, backbone, single_label([c.task]))
                    if c.task
                    else {}
                    for c in spec.columns
                ]
            else:
                per_row[method] = [_runs_for(mine, spec.setting, backbone, method)] * len(
                    spec.columns
                )
        used = [r for sets in per_row.values() for s in sets for r in s.values()]
        if not used:
            continue
        seeds = sorted({r.key.seed for r in used})
        at = step if step is not None else total_steps(used, spec.setting)
        if at is None:  # a simulation: its last common validation
            at = final_step(used, spec)
        if at is None or not any(
            all(column_value(r, c, at) is not None for c in spec.columns) for r in used
        ):
            wanted = sorted({s for c in spec.columns for s in c.sources})
            where = "at one step" if at is None else f"at step {at}"
            result.missing.append(
                f"{backbone}: no run validated all of {', '.join(wanted)} {where}; table left out"
            )
            continue
        section = Section(backbone, at, [], seeds)
        for method in spec.rows:
            sets = per_row[method]
            label = spec.row_label(method)
            if not any(sets):
                result.missing.append(f"{backbone}: no runs for {label} ({method})")
                continue
            cells = [Cell({}) for _ in spec.columns]
            reported: set[str] = set()
            for j, (col, by_seed) in enumerate(zip(spec.columns, sets)):
                who = f"{backbone} {label}" + (f" {col.label}" if method == "single" else "")
                for seed in seeds:
                    run = by_seed.get(seed)
                    if run is None:
                        msg = f"{who}: seed {seed} has no run"
                    elif (v := column_value(run, col, at)) is None:
                        last = run.val_steps()[-1] if run.val_steps() else None
                        msg = (
                            f"{who}: seed {seed} has no validation at step {at} "
                            f"(last validation step: {last})"
                        )
                    else:
                        cells[j].values[seed] = v
                        continue
                    if msg not in reported:
                        reported.add(msg)
                        result.missing.append(msg + f"; {col.label} left out")
            avg = None
            if spec.average is not None:
                avg = Cell({})
                for seed in seeds:
                    if all(seed in c.values for c in cells):
                        avg.values[seed] = spec.average([c.values[seed] for c in cells])
            section.rows.append(TableRow(method, label, cells, avg))
        result.sections.append(section)
    return result


# ------------------------------------------------------------------------------ sample efficiency


def average_curve(
    runs: dict[int, Run], spec: TableSpec
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(steps, seed mean, seed std) of the row average, over steps every seed validated."""
    per_seed = []
    for run in runs.values():
        pts = {}
        for s in run.val_steps():
            vals = [column_value(run, c, s) for c in spec.columns]
            if all(v is not None for v in vals):
                pts[s] = (spec.average or _mean)(vals)
        per_seed.append(pts)
    if not per_seed:
        return np.array([], int), np.array([]), np.array([])
    common = sorted(set.intersection(*(set(p) for p in per_seed)))
    values = np.array([[p[s] for s in common] for p in per_seed]).reshape(len(per_seed), -1)
    return np.array(common, dtype=int), values.mean(axis=0), values.std(axis=0)


def first_reach(steps: np.ndarray, curve: np.ndarray, target: float) -> int | None:
    """First step whose value is >= ``target`` (None: never)."""
    hit = np.flatnonzero(curve >= target - 1e-12)
    return int(steps[hit[0]]) if hit.size else None


@dataclass
class Efficiency:
    method: str
    final: float
    step: int | None  # first step the method's curve reaches the reference's final average
    ratio: float | None  # reference's own first step / ``step``


@dataclass
class EfficiencyResult:
    backbone: str
    reference: str
    target: float  # the reference's final (seed-averaged) average
    reference_step: int | None  # first step at which the reference reached it
    rows: list[Efficiency]


def sample_efficiency(
    curves: dict[str, tuple[np.ndarray, np.ndarray]], reference: str, backbone: str = ""
) -> EfficiencyResult:
    """The paper's sample efficiency: steps to reach the reference's final average, and the ratio.

    ``curves`` maps a method to its seed-averaged (steps, average). The target is the
    reference's final average; the ratio is the step at which the reference itself first reaches
    it divided by the step at which the method does (paper: PAC reaches SEC's final average at
    step ~170, SEC at ~225: 1.3x). A method that starts at or above the target (step 0) or never
    reaches it has no ratio.
    """
    ref_steps, ref_curve = curves[reference]
    target = float(ref_curve[-1])
    ref_step = first_reach(ref_steps, ref_curve, target)
    rows = []
    for method, (steps, curve) in curves.items():
        step = first_reach(steps, curve, target)
        ratio = ref_step / step if step and ref_step else None
        rows.append(Efficiency(method, float(curve[-1]), step, ratio))
    return EfficiencyResult(backbone, reference, target, ref_step, rows)


def default_reference(finals: dict[str, float]) -> str | None:
    """The sample-efficiency reference: the method with the highest final average among Random,
    SEC and DUMP; without any of them, among the methods other than PAC (None: no candidate)."""
    candidates = [m for m in BASELINES if m in finals] or [m for m in finals if m != "pac"]
    return max(candidates, key=lambda m: finals[m]) if candidates else None


def efficiency_for(
    spec: TableSpec, runs: Sequence[Run], reference: str | None = None
) -> list[EfficiencyResult]:
    """Per backbone: every non-ST method against ``reference`` (default: the best baseline)."""
    out = []
    mine = [r for r in runs if r.key.setting == spec.setting]
    total = total_steps(mine, spec.setting) if mine else None
    complete = [r for r in mine if not incomplete(r, total)]  # a stopped run has no final value
    for backbone in sorted({r.key.backbone for r in complete}):
        curves = {}
        for method in spec.rows:
            if method == "single":
                continue
            by_seed = _runs_for(complete, spec.setting, backbone, method)
            steps, mean, _ = average_curve(by_seed, spec)
            if steps.size:
                curves[method] = (steps, mean)
        ref = reference or default_reference({m: c[1][-1] for m, c in curves.items()})
        if ref is None:
            continue
        if ref not in curves or len(curves) < 2:
            continue
        out.append(sample_efficiency(curves, ref, backbone))
    return out


# ----------------------------------------------------------------------------------------- budget


@dataclass
class BudgetResult:
    backbone: str
    arms: list[str]  # as the column labels of the table (the arm name where there is none)
    rows: list[tuple[str, list[Cell]]]  # (method, one cell per arm)
    seeds: list[int]


def run_budget(run: Run, arm: str) -> float | None:
    """The arm's share of all the prompts ``run`` trained on: the mean of its per-step
    ``curriculum/<arm>/share`` over the training steps (every step draws the same batch size)."""
    _, values = run.series(f"curriculum/{arm}/share")
    return float(values.mean()) if values.size else None


def budget_for(spec: TableSpec, runs: Sequence[Run]) -> list[BudgetResult]:
    """Per backbone: where each method of ``spec`` put its training batches, arm by arm (mean
    over seeds of each complete run's share of the prompts; incomplete runs are left out)."""
    out = []
    mine = [r for r in runs if r.key.setting == spec.setting]
    total = total_steps(mine, spec.setting) if mine else None
    complete = [r for r in mine if not incomplete(r, total)]
    for backbone in sorted({r.key.backbone for r in complete}):
        found = {a for r in complete if r.key.backbone == backbone for a in r.curriculum_arms()}
        order = [c.sources[0] for c in spec.columns if c.sources[0] in found]
        arms = order + sorted(found - set(order))
        rows, seeds = [], set()
        for method in spec.rows:
            label = single_label([spec.columns[0].task]) if method == "single" else method
            by_seed = _runs_for(complete, spec.setting, backbone, label)
            if not by_seed:
                continue
            seeds |= set(by_seed)
            cells = []
            for arm in arms:
                values = {seed: run_budget(r, arm) for seed, r in by_seed.items()}
                cells.append(Cell({k: v for k, v in values.items() if v is not None}))
            rows.append((method, cells))
        if rows:
            labels = {c.sources[0]: c.label for c in spec.columns}
            out.append(BudgetResult(backbone, [labels.get(a, a) for a in arms], rows,
                                    sorted(seeds)))  # fmt: skip
    return out

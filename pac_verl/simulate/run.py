"""Run controllers on a simulated learner, write verl-style run logs, summarise.

    from pac_verl.simulate import run_simulation
    results = run_simulation("mixed", ["pac", "random"], seeds=[0, 1, 2], steps=200,
                             batch_size=32, group_size=8, out_dir="sim_runs")
    results.summary_rows()        # [controller, final val avg (mean, std), steps to reach ...]

Each (controller, seed) run writes ``<out_dir>/<experiment_name>/metrics.jsonl`` with one verl JSONL
line ``{"step": s, "data": {...}}`` per step and ``run.json``: the layout ``pac-verl report`` reads.
The logs of a scenario appear together, once its last run has finished (``PARTIAL``).
Steps follow verl's trainer: step 0 holds the validation before training; step s = 1..T holds the
curriculum metrics after training step s, ``critic/score/mean`` (the batch's mean reward) and, every
``val_every`` steps and at the last step, ``val-core/<arm>/acc/mean@1`` per arm (the key verl 0.7.1 logs for a reward function that returns ``acc``, as ours does). The experiment
name is ``sim-<scenario>__simulated__<controller>[__w<W>]__seed<k>`` (``pac_verl.naming``).

A controller name with the suffix ``+prompt`` (``pac+prompt``, ``sec+prompt``) runs that controller
with prompt-level selection inside arms (:mod:`pac_verl.curriculum.prompts`, rule ``thompson``);
its runs are named ``<controller>-prompt``. Every run logs the per-arm waste metrics of that
module and counts the rollouts spent on zero-variance groups (``RunResult.zero_var_rollouts``).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from pac_verl.curriculum import CONTROLLERS, make_controller
from pac_verl.curriculum.prompts import PromptCurriculum, PromptLevelConfig
from pac_verl.errors import UserError
from pac_verl.naming import experiment_name, single_label
from pac_verl.progress import progress
from pac_verl.simulate.learner import SimulatedLearner
from pac_verl.simulate.scenarios import get_scenario

BACKBONE = "simulated"
# A run's log is written under this name and renamed to metrics.jsonl only when every run of its
# scenario has finished: a scenario that an interrupt left half-done is invisible to the report
# (it reads *.jsonl), so it is never ranked as if complete.
PARTIAL = "metrics.jsonl.partial"
DEFAULT_CONTROLLERS = [c for c in CONTROLLERS if c != "single"]
PROMPT_SUFFIX = "+prompt"
# reference="best": the report's rule (pac_verl.report.tables.default_reference), the best final
# average of Random, SEC and DUMP among the controllers run
BEST = "best"


def split_controller(name: str) -> tuple[str, bool]:
    """``pac+prompt`` -> (``pac``, True); ``pac`` -> (``pac``, False)."""
    if name.endswith(PROMPT_SUFFIX):
        return name[: -len(PROMPT_SUFFIX)], True
    return name, False


def val_key(arm: str) -> str:
    return f"val-core/{arm}/acc/mean@1"


@dataclass
class RunResult:
    controller: str
    seed: int
    val_steps: np.ndarray  # [V] steps with a validation (0 first)
    val: np.ndarray  # [V, N] held-out success per arm
    shares: np.ndarray  # [T, N] batch share per arm per training step
    run_dir: Path | None = None
    zero_var_rollouts: int = 0  # rollouts of groups whose rewards were all equal
    rollouts: int = 0

    @property
    def val_average(self) -> np.ndarray:
        return self.val.mean(axis=1)


@dataclass
class SimulationResults:
    scenario: str
    arms: list[str]
    steps: int
    controllers: list[str]
    seeds: list[int]
    runs: dict[tuple[str, int], RunResult] = field(default_factory=dict)
    reference: str | None = None
    reference_is_best: bool = False  # chosen by the report's rule, not named by the caller

    def curve(self, controller: str) -> np.ndarray:
        """Seed-averaged validation average over ``val_steps``."""
        return np.mean([self.runs[controller, s].val_average for s in self.seeds], axis=0)

    @property
    def val_steps(self) -> np.ndarray:
        return next(iter(self.runs.values())).val_steps

    def final_average(self, controller: str) -> tuple[float, float]:
        """Mean and sample std (ddof=1; 0 for one seed) of the final validation average."""
        finals = [self.runs[controller, s].val_average[-1] for s in self.seeds]
        return float(np.mean(finals)), float(np.std(finals, ddof=1)) if len(finals) > 1 else 0.0

    def efficiency(self):
        """The report's sample efficiency (``pac_verl.report.tables.sample_efficiency``) against
        ``reference`` on the seed-averaged curves; None without a reference."""
        from pac_verl.report.tables import sample_efficiency

        if not self.reference:
            return None
        curves = {c: (self.val_steps, self.curve(c)) for c in self.controllers}
        return sample_efficiency(curves, self.reference)

    def summary_rows(self) -> list[list[object]]:
        """Per controller: final validation average and, against ``reference``, the first step
        at which its seed-averaged validation average reaches the reference's final average and
        the speed-up (the reference's own first step / that step), as the paper reports them."""
        eff = self.efficiency()
        by_method = {e.method: e for e in eff.rows} if eff else {}
        rows = []
        for c in self.controllers:
            mean, std = self.final_average(c)
            row: list[object] = [c, f"{mean:.3f} ± {std:.3f}"]
            if eff:
                e = by_method[c]
                step = "not reached" if e.step is None else str(e.step)
                row += [f"{step} (reference)" if c == self.reference else step,
                        "-" if e.ratio is None else f"{e.ratio:.2f}x"]  # fmt: skip
            rows.append(row)
        return rows

    def final_val_rows(self) -> list[list[object]]:
        """Per controller: final held-out success of each arm, mean over seeds."""
        return [
            [c, *(float(x) for x in np.mean([self.runs[c, s].val[-1] for s in self.seeds], axis=0))]
            for c in self.controllers
        ]

    def waste_rows(self) -> list[list[object]]:
        """Per controller: rollouts spent on zero-variance groups (mean over seeds), and share."""
        rows = []
        for c in self.controllers:
            runs = [self.runs[c, s] for s in self.seeds]
            wasted = float(np.mean([r.zero_var_rollouts for r in runs]))
            share = float(np.mean([r.zero_var_rollouts / max(r.rollouts, 1) for r in runs]))
            rows.append([c, f"{wasted:.0f}", f"{100 * share:.1f}%"])
        return rows

    def share_rows(self) -> list[list[object]]:
        """Per controller: mean batch share of each arm over all steps and seeds."""
        rows = []
        for c in self.controllers:
            shares = np.mean([self.runs[c, s].shares.mean(axis=0) for s in self.seeds], axis=0)
            rows.append([c, *(float(x) for x in shares)])
        return rows


def _overrides_for(name: str, overrides: dict, train_arms) -> dict:
    import dataclasses

    name, _ = split_controller(name)
    fields = {f.name for f in dataclasses.fields(CONTROLLERS[name].config_cls)}
    kw = {k: v for k, v in overrides.items() if k in fields}
    if name == "single":
        kw["train_arms"] = train_arms
    return kw


def run_simulation(
    scenario: str = "mixed",
    controllers: list[str] | None = None,
    seeds: list[int] | tuple[int, ...] = (0, 1, 2),
    steps: int = 200,
    batch_size: int = 32,
    group_size: int = 8,
    out_dir: str | Path | None = None,
    val_every: int = 10,
    overrides: dict | None = None,
    train_arms: list[str] | None = None,
    reference: str | None = BEST,
    show_progress: bool = True,
) -> SimulationResults:
    """Simulate every (controller, seed) on ``scenario``; write run logs when ``out_dir`` is given.

    ``overrides`` go to every controller whose config has that key (``{"cold_start": 20}``); a key
    no selected controller knows is a ``UserError``. ``train_arms`` is required for ``single``.
    ``reference`` is the controller whose final average the sample efficiency is measured against
    (ignored when it is not among ``controllers``); :data:`BEST` (the default) picks it as
    ``pac-verl report`` does: the best final average of Random, SEC and DUMP among those run.
    """
    sc = get_scenario(scenario)
    controllers = list(controllers or DEFAULT_CONTROLLERS)
    bases = [split_controller(c)[0] for c in controllers]
    for c, base in zip(controllers, bases):
        if base not in CONTROLLERS:
            raise UserError(
                f"unknown controller {c!r}; valid: {', '.join(CONTROLLERS)}, each optionally "
                f"with the suffix {PROMPT_SUFFIX} (prompt-level selection inside arms)"
            )
    if "single" in bases and not train_arms:
        raise UserError(
            f"controller 'single' needs train_arms (arms of scenario {scenario!r}: "
            f"{', '.join(sc.arm_names)})"
        )
    if steps < 1 or batch_size < 1 or group_size < 1 or val_every < 1:
        raise UserError("steps, batch_size, group_size and val_every must all be >= 1")
    overrides = dict(overrides or {})
    import dataclasses

    known = set().union(
        *({f.name for f in dataclasses.fields(CONTROLLERS[c].config_cls)} for c in bases)
    )
    unknown = sorted(set(overrides) - known)
    if unknown:
        raise UserError(
            f"no selected controller has the setting(s) {unknown}; valid: {', '.join(sorted(known))}"
        )
    results = SimulationResults(
        scenario=scenario,
        arms=sc.arm_names,
        steps=steps,
        controllers=controllers,
        seeds=list(seeds),
        reference=reference if reference in controllers else None,
        reference_is_best=reference == BEST,
    )
    jobs = [(c, s) for c in controllers for s in results.seeds]
    for c, s in (
        progress(jobs, desc=f"simulate {scenario}", total=len(jobs), unit="run")
        if (show_progress)
        else jobs
    ):
        results.runs[c, s] = _run_one(
            sc, c, s, steps, batch_size, group_size, val_every, out_dir,
            _overrides_for(c, overrides, train_arms),
        )  # fmt: skip
    for run in results.runs.values():  # the scenario is complete: its logs become readable
        if run.run_dir is not None:
            (run.run_dir / PARTIAL).replace(run.run_dir / "metrics.jsonl")
    if results.reference_is_best:
        from pac_verl.report.tables import default_reference

        results.reference = default_reference({c: results.final_average(c)[0] for c in controllers})
    return results


def _run_one(sc, name, seed, steps, batch_size, group_size, val_every, out_dir, kw) -> RunResult:
    base, prompt_level = split_controller(name)
    learner = SimulatedLearner(sc, seed)
    ctrl = make_controller(base, learner.arms, batch_size, seed=seed, **kw)
    # pools of distinct rows per arm; without +prompt the queues draw exactly what the learner's
    # own ArmQueues.from_sizes(..., seed) would (same permutations, rows offset per arm)
    size = learner.train_difficulty.shape[1]
    pools = [np.arange(size) + i * size for i in range(len(learner.arms))]
    prompts = PromptCurriculum(pools, seed, PromptLevelConfig() if prompt_level else None)
    lines = []
    val_steps, vals, shares = [0], [learner.validate()], []
    lines.append({"step": 0, "data": _val_metrics(learner.arms, vals[-1])})
    wasted = 0
    for step in range(1, steps + 1):
        slots = ctrl.allocate()
        rows = prompts.draw(slots)
        rewards, advantages = learner.train_step(slots, group_size, rows - slots * size)
        ctrl.update(slots, rewards, advantages)
        prompts.observe(rows, rewards)
        wasted += group_size * int(np.sum(rewards.max(axis=1) == rewards.min(axis=1)))
        data = {**ctrl.metrics(), **prompts.metrics(learner.arms)}
        data["critic/score/mean"] = float(rewards.mean())
        shares.append(np.bincount(slots, minlength=len(learner.arms)) / batch_size)
        if step % val_every == 0 or step == steps:
            val_steps.append(step)
            vals.append(learner.validate())
            data.update(_val_metrics(learner.arms, vals[-1]))
        lines.append({"step": step, "data": data})
    run_dir = None
    if out_dir is not None:
        window = kw.get("window") if base.startswith("pac") else None
        label = single_label(kw["train_arms"]) if base == "single" else base
        label += "-prompt" if prompt_level else ""
        exp = experiment_name(f"sim-{sc.name}", BACKBONE, label, seed, window)
        run_dir = Path(out_dir) / exp
        run_dir.mkdir(parents=True, exist_ok=True)
        with open(run_dir / PARTIAL, "w") as f:
            f.writelines(json.dumps(line) + "\n" for line in lines)
        info = {
            "experiment_name": exp,
            "setting": f"sim-{sc.name}",
            "backbone": BACKBONE,
            "curriculum": label,
            "seed": seed,
            "window": int(window) if window is not None else 16,
            "simulation": {
                "scenario": sc.name,
                "steps": steps,
                "batch_size": batch_size,
                "group_size": group_size,
                "val_every": val_every,
                "controller_overrides": kw,
            },
        }
        (run_dir / "run.json").write_text(json.dumps(info, indent=2) + "\n")
    return RunResult(
        controller=name,
        seed=seed,
        val_steps=np.array(val_steps),
        val=np.array(vals),
        shares=np.array(shares),
        run_dir=run_dir,
        zero_var_rollouts=wasted,
        rollouts=steps * batch_size * group_size,
    )


def _val_metrics(arms: list[str], values: np.ndarray) -> dict[str, float]:
    return {val_key(a): float(v) for a, v in zip(arms, values)}

"""``pac-verl plan [overrides]``: will this training config fit in GPU memory, host memory and disk?
No data, GPU or network.

It composes the config ``python -m pac_verl.main`` would (same overrides; a sweep such as
``curriculum.seed=0,1,2`` plans every run, as the recipes launch them), reads the model's
``config.json`` (local folder, the copy shipped for Qwen2.5-0.5B to 32B, the Hugging Face cache,
``--model-config PATH``, or, when the model's folder is not on this machine, the shipped copy of
the run's backbone, said in a note) and prints each phase's estimated peak per GPU
(:mod:`pac_verl.plan.memory`), the host memory per node (:mod:`pac_verl.plan.host`) and the disk
its checkpoints need (:mod:`pac_verl.plan.disk`). Exit status 1 when a phase does not fit the
GPU or the checkpoints do not fit the free disk it reports, naming what to change.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass, replace

from pac_verl.plan.disk import DiskPlan, plan_disk
from pac_verl.plan.host import HostPlan, plan_host
from pac_verl.plan.memory import Hardware, MemoryPlan, plan_memory
from pac_verl.plan.model import ModelShape, shape_of_run
from pac_verl.progress import console, print_summary


@dataclass
class Plans:
    memory: MemoryPlan
    disk: DiskPlan
    host: HostPlan
    note: str | None = None  # how the model's shape was found, when it is not its own config

    @property
    def problems(self) -> list[str]:
        """Every reason the run does not fit: GPU memory, and the disk this plan reports."""
        disk = self.disk.problem()
        return [*self.memory.problems, *([disk] if disk else [])]


def plans_for(cfg, shape: ModelShape, hardware: Hardware | None = None,
              note: str | None = None) -> Plans:  # fmt: skip
    return Plans(plan_memory(cfg, shape, hardware), plan_disk(cfg, shape), plan_host(cfg, shape),
                 note)  # fmt: skip


def make_plans(cfg, model_config: str | None = None, hardware: Hardware | None = None) -> Plans:
    shape, note = shape_of_run(cfg, model_config)
    return plans_for(cfg, shape, hardware, note)


def print_plans(plans: Plans) -> None:
    mem, disk, host = plans.memory, plans.disk, plans.host
    hw = mem.hardware
    if plans.note:
        console.print(f"note: {plans.note}", soft_wrap=True)
    rows = []
    for p in mem.phases:
        top = sorted(((k, v) for k, v in p.parts.items() if k != "reserve" and v > 0.05),
                     key=lambda kv: -kv[1])  # fmt: skip
        rows.append([p.name, f"{p.gib:.1f}", f"{100 * p.gib / hw.gpu_gib:.0f}%",
                     "yes" if p.gib <= hw.gpu_gib else "NO",
                     ", ".join(f"{k} {v:.1f}" for k, v in top[:4])])  # fmt: skip
    notes = {p.name: "; ".join(p.notes) for p in mem.phases if p.notes}
    print_summary(f"memory plan: peak GiB per GPU of {hw.gpu_gib:g} (reserve {hw.reserve_gib:g} "
                  "GiB included)", ["phase", "GiB", "of GPU", "fits", "largest parts (GiB)"],
                  rows, {**mem.facts, **notes})  # fmt: skip
    console.print(f"host RAM per node (the node of rank 0, what grows with the model): "
                  f"{host.describe()}", soft_wrap=True)  # fmt: skip
    free = "unknown" if disk.free_gb is None else f"{disk.free_gb:,.0f} GB"
    parts = " + ".join(f"{k} {v:,.0f}" for k, v in (disk.parts_gb or {}).items())
    console.print(f"disk: {disk.kept} checkpoint(s) of {disk.checkpoint_gb:,.0f} GB ({parts}) "
                  f"kept (the last is the final model) = {disk.need_gb:,.0f} GB at {disk.folder} "
                  f"(free there: {free})", soft_wrap=True)  # fmt: skip


def main(argv: list[str]) -> int:
    from pac_verl.compose import compose_runs

    ap = argparse.ArgumentParser(prog="pac-verl plan", description=__doc__.splitlines()[0])
    ap.add_argument("overrides", nargs="*", help="Hydra overrides, as for python -m pac_verl.main "
                    "(a sweep, key=a,b,c, plans every run)")  # fmt: skip
    ap.add_argument("--gpu-gib", type=float, default=Hardware.gpu_gib,
                    help=f"memory of one GPU in GiB (default {Hardware.gpu_gib:g}: an 80 GB H100)")  # fmt: skip
    ap.add_argument("--model-config", metavar="PATH",
                    help="the model's config.json (default: found from actor_rollout_ref.model.path)")  # fmt: skip
    args = ap.parse_intermixed_args(argv)  # options may sit between the overrides
    runs = compose_runs(args.overrides)
    hardware = replace(Hardware(), gpu_gib=args.gpu_gib)
    failed, borrowed = [], []
    for cfg in runs:
        name = str(cfg.trainer.experiment_name)
        if len(runs) > 1:
            console.print(f"\n== {name}", soft_wrap=True)
        plans = make_plans(cfg, args.model_config, hardware)
        print_plans(plans)
        if plans.note and plans.note not in borrowed:
            borrowed.append(plans.note)
        for line in plans.problems:
            console.print(f"does not fit: {line}", soft_wrap=True)
        if plans.problems:
            failed.append(name)
    notes = "".join(f" ({note})" for note in borrowed)
    if failed:
        if len(runs) > 1:
            console.print(
                f"plan: {len(failed)} of {len(runs)} runs do not fit: {', '.join(failed)}{notes}"
            )
        elif notes:
            console.print(f"plan: does not fit{notes}", soft_wrap=True)
        return 1
    verdict = "plan: fits" if len(runs) == 1 else f"plan: all {len(runs)} runs fit"
    # the verdict says it when the shape is not the model's own (the note above may scroll away)
    console.print(verdict + notes, soft_wrap=True)
    return 0

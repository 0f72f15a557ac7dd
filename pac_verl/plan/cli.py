"""``pac-verl plan [overrides]``: will this training config fit in GPU memory? No data, GPU or network.

It composes the config ``python -m pac_verl.main`` would (same overrides), reads the model's
``config.json`` (local folder, the copy shipped for Qwen2.5-3B/7B/32B, or the Hugging Face cache)
and prints each phase's estimated peak per GPU (:mod:`pac_verl.plan.memory`) and the disk its
checkpoints need (:mod:`pac_verl.plan.disk`). Exit status 1 when a phase does not fit, with the
phase and the keys to change.
"""

from __future__ import annotations

import argparse
from dataclasses import replace

from pac_verl.plan.disk import DiskPlan, plan_disk
from pac_verl.plan.memory import Hardware, MemoryPlan, plan_memory
from pac_verl.plan.model import load_shape
from pac_verl.progress import console, print_summary


def make_plans(cfg, model_config: str | None = None, hardware: Hardware | None = None):
    shape = load_shape(str(cfg.actor_rollout_ref.model.path), model_config)
    return plan_memory(cfg, shape, hardware), plan_disk(cfg, shape)


def print_plans(mem: MemoryPlan, disk: DiskPlan) -> None:
    hw = mem.hardware
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
    free = "unknown" if disk.free_gb is None else f"{disk.free_gb:,.0f} GB"
    console.print(f"disk: {disk.kept} checkpoint(s) of {disk.checkpoint_gb:,.0f} GB kept "
                  f"(the last is the final model) = {disk.need_gb:,.0f} GB at {disk.folder} "
                  f"(free there: {free})", soft_wrap=True)  # fmt: skip


def main(argv: list[str]) -> int:
    from pac_verl.compose import compose_config

    ap = argparse.ArgumentParser(prog="pac-verl plan", description=__doc__.splitlines()[0])
    ap.add_argument("overrides", nargs="*", help="Hydra overrides, as for python -m pac_verl.main")
    ap.add_argument("--gpu-gib", type=float, default=Hardware.gpu_gib,
                    help=f"memory of one GPU in GiB (default {Hardware.gpu_gib:g}: an 80 GB H100)")  # fmt: skip
    ap.add_argument("--model-config", metavar="PATH",
                    help="the model's config.json (default: found from actor_rollout_ref.model.path)")  # fmt: skip
    args = ap.parse_args(argv)
    cfg = compose_config(args.overrides)
    mem, disk = make_plans(cfg, args.model_config, replace(Hardware(), gpu_gib=args.gpu_gib))
    print_plans(mem, disk)
    for line in mem.problems:
        console.print(f"does not fit: {line}", soft_wrap=True)
    if mem.problems:
        return 1
    console.print("plan: fits")
    return 0

"""Host memory (RAM) per node of a verl 0.7.1 run, from the config alone.

What grows with the model's ``N`` parameters (``a`` bytes each in ``fsdp_config.model_dtype``,
fp32 by default) on the node that holds rank 0, where the peaks are, phase by phase:

* ``init``: verl's ``_build_model_optimizer`` loads the Hugging Face weights on the CPU in the
  worker's dtype before FSDP shards them: on rank 0 only (the other ranks build the model on the
  meta device), but on every rank of the node when the model ties its embeddings
  (``tie_word_embeddings``: verl turns the meta-device path off for them), ``a x N`` each. The
  reference model, when KL is on, is loaded the same way after the actor. With FSDP2's
  ``offload_policy`` the sharded parameters already sit in host memory beside it.
* ``training``: what stays in host memory between phases: with FSDP2's ``offload_policy`` the
  parameters, gradients and both Adam states (``4a x N`` over the nodes, pinned), else
  ``param_offload`` (``a x N``) and ``optimizer_offload`` (``2a x N``) over the nodes.
* ``checkpoint save``: on top of ``training``, rank 0 gathers the full state dict for the
  Hugging Face copy (``a x N``) and builds a bf16 skeleton of the model for ``save_pretrained``
  (``2 x N``) (``FSDPCheckpointManager.save_checkpoint``); with FSDP1 and a GPU every rank first
  copies its model and optimizer shards to the CPU (``3a x N`` over the nodes).

Not counted: the fixed cost of the processes (Python, torch, CUDA contexts, Ray, vLLM's engine
processes), which does not grow with the model, and the page cache.
"""

from __future__ import annotations

from dataclasses import dataclass

from pac_verl.plan.memory import DTYPE_BYTES, cfg_get
from pac_verl.plan.model import ModelShape

GB = 1000**3


@dataclass
class HostPlan:
    phases: dict[str, float]  # GB on the node of rank 0, by phase
    parts: dict[str, dict[str, float]]  # what each phase holds, GB
    nodes: int

    @property
    def peak_gb(self) -> float:
        return max(self.phases.values())

    @property
    def peak_phase(self) -> str:
        return max(self.phases, key=self.phases.get)

    def describe(self) -> str:
        phases = ", ".join(f"{k} {v:,.0f} GB" for k, v in self.phases.items())
        return f"{phases} (peak {self.peak_gb:,.0f} GB, at {self.peak_phase})"

    def problem(self, have_gb: float, where: str = "this machine") -> str | None:
        if have_gb >= self.peak_gb:
            return None
        parts = ", ".join(f"{k} {v:,.0f}" for k, v in self.parts[self.peak_phase].items() if v)
        return (f"host memory: the run needs {self.peak_gb:,.0f} GB of RAM per node at "
                f"{self.peak_phase} ({parts} GB), {where} has {have_gb:,.0f} GB: train on nodes "
                "with more memory or more nodes (trainer.nnodes), or keep the actor states on the "
                "GPUs (actor_rollout_ref.actor.fsdp_config.offload_policy=false)")  # fmt: skip


def _dtype(fsdp, default: str = "fp32") -> int:
    return DTYPE_BYTES[str(cfg_get(fsdp, "model_dtype", default))]


def plan_host(cfg, shape: ModelShape) -> HostPlan:
    """Host RAM on the node of rank 0 for the resolved training config ``cfg``."""
    arr = cfg.actor_rollout_ref
    actor, fsdp = arr.actor, arr.actor.fsdp_config
    n, nodes = shape.params, int(cfg.trainer.nnodes)
    per_node = int(cfg.trainer.n_gpus_per_node)
    a = _dtype(fsdp)
    strategy = str(cfg_get(actor, "strategy", "fsdp"))
    on_cpu = strategy == "fsdp2" and bool(cfg_get(fsdp, "offload_policy", False))
    param_off = bool(cfg_get(fsdp, "param_offload", False)) and not on_cpu
    optim_off = bool(cfg_get(fsdp, "optimizer_offload", False)) and not on_cpu
    kl = bool(cfg_get(actor, "use_kl_loss", False)) or bool(
        cfg_get(cfg, "algorithm.use_kl_in_reward")
    )
    loaders = per_node if shape.tied else 1  # ranks of the node that load the full weights

    if on_cpu:
        resident = {"actor params, gradients, Adam (offload_policy)": 4 * a * n / nodes / GB}
    else:
        resident = {"actor params (param_offload)": a * n / nodes / GB if param_off else 0.0,
                    "actor Adam (optimizer_offload)": 2 * a * n / nodes / GB if optim_off else 0.0}  # fmt: skip
    # the reference (KL on) is loaded the same way after the actor's copy is sharded and freed
    ref_a = _dtype(cfg_get(arr, "ref.fsdp_config")) if kl else 0
    load = {f"full weights loaded on {loaders} rank(s)": loaders * max(a, ref_a) * n / GB}
    init = {**load, "sharded actor params (offload_policy)": a * n / nodes / GB if on_cpu else 0.0}
    save = dict(resident)
    save["full state dict on rank 0"] = a * n / GB
    save["bf16 model skeleton on rank 0"] = 2 * n / GB
    if strategy == "fsdp":
        save["FSDP1 shards copied to the CPU"] = 3 * a * n / nodes / GB
    parts = {"init": init, "training": resident, "checkpoint save": save}
    phases = {k: sum(v.values()) for k, v in parts.items()}
    return HostPlan(phases, parts, nodes)

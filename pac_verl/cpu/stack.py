"""verl's real GRPO stack on a CPU: what ``pac-verl smoke`` and the real-worker test run.

verl trains only on accelerators. Its real path (``run_ppo`` -> ``TaskRunner.run`` ->
``init_workers()`` / ``fit()``: FSDP2 actor and reference workers, the agent loop, the reward
loop, weight sync to the rollout every step) runs on a CPU, without editing verl, given:

* a rollout verl can build: :mod:`pac_verl.cpu.hf_rollout` registers ``"hf"``, Hugging Face
  token-in/token-out sampling in a Ray actor (verl accepts only vllm, sglang and trtllm);
* on verl 0.9.1, the CPU as verl's platform (:mod:`pac_verl.cpu.platform`: device ``cpu``, backend
  ``gloo``), selected in the driver by :func:`prepare_driver` and in every Ray worker by
  :func:`setup_worker`; without it verl 0.9.1 falls back to CUDA and NCCL;
* shims, installed in every Ray worker by ``runtime_env.worker_process_setup_hook``
  (:func:`setup_worker`): ``torch.cpu`` gains the memory calls verl makes (no-ops), one
  ``init_process_group`` backend per device (``cpu:gloo,cpu:nccl`` is rejected by torch), and FSDP2's
  ``CPUOffloadPolicy`` stops pinning memory (verl forces a pinned one on the reference model);
* config, the ``tiny-cpu`` backbone (``configs/backbone/tiny-cpu.yaml``, with the tiny model
  ``pac-verl prep toy`` builds): FSDP2 (FSDP1 forces ``sync_module_states``), the decoder layer
  class named for wrapping (transformers 5 keeps ``_no_split_modules`` as a set, which verl
  indexes), sdpa attention without remove-padding (no flash-attn), fp32, no ``torch.compile``,
  one logical "GPU" and a ``cpu`` resource for verl's resource pool, one thread per process, and
  this module's :func:`setup_worker` as Ray's ``worker_process_setup_hook``.

Everything above couples to verl's private internals; the names are pinned here per verl line,
in :data:`PINS`, and :func:`check_verl` fails with one clear message naming the supported verl
versions when the installed verl is not one of them or lacks a pinned name. A worker needs nothing
from the driver but this module's import path.
"""

from __future__ import annotations

import importlib

from pac_verl.errors import UserError
from pac_verl.verl import compat

ROLLOUT = "hf"

_ROLLOUT_PINS = (
    ("verl.workers.rollout.base", "_ROLLOUT_REGISTRY"),  # rollout name -> server adapter path
    ("verl.workers.rollout.base", "BaseRollout"),
    ("verl.workers.rollout.replica", "RolloutReplicaRegistry.register"),  # name -> replica class
    ("verl.workers.rollout.replica", "RolloutReplica.init_hybrid"),
    ("verl.workers.rollout.replica", "RolloutReplica.launch_servers"),
    ("verl.workers.rollout.replica", "RolloutReplica.sleep"),  # -> server.sleep, like wake_up
    ("verl.workers.rollout.replica", "TokenOutput"),
    ("verl.utils.fsdp_utils", "CPUOffloadPolicy"),
    ("verl.utils.device", "get_torch_device"),
)
# (module, attribute path) of every private name this stack relies on, per verl line
PINS: dict[str, tuple[tuple[str, str], ...]] = {
    "0.7.1": (
        *_ROLLOUT_PINS,
        ("verl.experimental.agent_loop.agent_loop", "AsyncLLMServerManager.generate"),  # generate
        ("verl.workers.fsdp_workers", "ActorRolloutRefWorker._build_rollout"),  # rollout class
        ("verl.workers.fsdp_workers", "AsyncActorRolloutRefWorker.rollout_mode"),  # weights
    ),
    "0.9.1": (
        *_ROLLOUT_PINS,
        ("verl.workers.rollout.llm_server", "LLMServerClient.generate"),  # -> server.generate
        ("verl.workers.engine_workers", "ActorRolloutRefWorker.init_model"),  # rollout class
        ("verl.workers.engine_workers", "ActorRolloutRefWorker.update_weights"),  # weights
        ("verl.workers.engine.fsdp.transformer_impl", "CPUOffloadPolicy"),  # rebound there too
        ("verl.plugin.platform", "PlatformRegistry.register"),  # the CPU platform
        ("verl.plugin.platform", "set_platform"),
        ("verl.workers.engine.base", "EngineRegistry._engines"),  # FSDP engines for "cpu"
        ("verl.workers.engine.fsdp.transformer_impl", "FSDPEngineWithLMHead"),
        ("verl.workers.engine.fsdp.transformer_impl", "FSDPEngineWithValueHead"),
        ("verl.trainer.main_ppo_v0", "TaskRunner.__ray_actor_class__.run"),  # pac's runner
        # the V1 path's agent loop (trainer.use_v1=true; compat.v1_agent_loop_init)
        ("verl.trainer.main_ppo", "TaskRunnerV1.__ray_actor_class__.init_agent_loop_manager"),
    ),
}
# modules that hold their own reference to CPUOffloadPolicy, rebound by install_shims
_OFFLOAD_MODULES = (
    "verl.utils.fsdp_utils",
    "verl.workers.fsdp_workers",
    "verl.workers.engine.fsdp.transformer_impl",
)


def _lookup(module: str, path: str):
    obj = importlib.import_module(module)
    for part in path.split("."):
        obj = getattr(obj, part)
    return obj


def check_verl() -> None:
    """Fail with one clear message if the installed verl is not a supported line or lacks what
    this stack couples to on its line."""
    version = compat.line()  # an unsupported version: one line naming the supported ones
    missing = []
    for module, path in PINS[version]:
        try:
            _lookup(module, path)
        except (ImportError, AttributeError):
            missing.append(f"{module}.{path}")
    if missing:
        raise UserError(
            f"the CPU stack (pac_verl.cpu.stack) supports verl {' and '.join(compat.SUPPORTED)}; "
            f"the installed verl {version} lacks {', '.join(missing)}: reinstall its line "
            "(docs/getting-started/install.md)"
        )


def prepare_driver() -> None:
    """The driver's side of the stack, before verl is asked for its device: the pins checked
    and, on a line with a platform registry, the CPU platform selected."""
    check_verl()
    if compat.platform_plugin():
        from pac_verl.cpu.platform import use_cpu_platform

        use_cpu_platform()


def _unpinned_offload():
    from torch.distributed.fsdp import CPUOffloadPolicy

    if getattr(CPUOffloadPolicy, "_pac_unpinned", False):
        return CPUOffloadPolicy

    class UnpinnedCPUOffloadPolicy(CPUOffloadPolicy):
        """FSDP2 CPU offload that never pins memory (pinning needs an accelerator)."""

        _pac_unpinned = True

        def __init__(self, pin_memory: bool = True):
            super().__init__(pin_memory=False)

    return UnpinnedCPUOffloadPolicy


def _one_backend_per_device(backend):
    """``"cpu:gloo,cpu:nccl"`` -> ``"cpu:gloo"``: the first backend named for each device."""
    if not isinstance(backend, str) or "," not in backend:
        return backend
    kept: dict[str, str] = {}
    for pair in backend.split(","):
        device, _, name = pair.partition(":")
        kept.setdefault(device.strip(), name.strip())
    return ",".join(f"{d}:{n}" for d, n in kept.items())


def _torch_cpu_calls() -> dict:
    """What verl calls on ``get_torch_device()`` that ``torch.cpu`` lacks: memory figures read
    as 0, cache and statistics resets do nothing, seeding seeds torch, the RNG state is torch's
    CPU generator's (verl 0.9.1's checkpoint restores it through the device module)."""
    import torch

    def zero(*args, **kwargs):
        return 0

    def nothing(*args, **kwargs):
        return None

    return {
        "empty_cache": nothing, "memory_reserved": zero, "memory_allocated": zero,
        "max_memory_allocated": zero, "max_memory_reserved": zero,
        "reset_peak_memory_stats": nothing, "mem_get_info": lambda *a, **k: (0, 0),
        "manual_seed": torch.manual_seed,
        "get_rng_state": torch.get_rng_state, "set_rng_state": torch.set_rng_state,
    }  # fmt: skip


def install_shims() -> None:
    """Make this process's torch look enough like an accelerator build for verl's FSDP workers."""
    import sys

    import torch
    import torch.distributed as dist
    import torch.distributed.fsdp as fsdp

    for name, fn in _torch_cpu_calls().items():
        if getattr(torch.cpu, name, None) is None:
            setattr(torch.cpu, name, fn)

    if not getattr(dist.init_process_group, "_pac_shim", False):
        original = dist.init_process_group

        def init_process_group(*args, backend=None, **kwargs):
            return original(*args, backend=_one_backend_per_device(backend), **kwargs)

        init_process_group._pac_shim = True
        dist.init_process_group = init_process_group

    policy = _unpinned_offload()
    fsdp.CPUOffloadPolicy = policy
    for module in _OFFLOAD_MODULES:
        if module in sys.modules:  # imported before the hook ran: rebind there too
            sys.modules[module].CPUOffloadPolicy = policy


def register_rollout() -> None:
    """Register the ``"hf"`` rollout with verl in this process (replica and server adapter)."""
    from verl.workers.rollout.base import _ROLLOUT_REGISTRY
    from verl.workers.rollout.replica import RolloutReplicaRegistry

    from pac_verl.cpu import hf_rollout

    _ROLLOUT_REGISTRY[(ROLLOUT, "async")] = f"{hf_rollout.__name__}.HFServerAdapter"
    RolloutReplicaRegistry.register(ROLLOUT, lambda: hf_rollout.HFRolloutReplica)


def setup_worker() -> None:
    """Ray's ``worker_process_setup_hook``: runs in every worker process before its first task."""
    if compat.platform_plugin():  # first: verl caches its platform at the first question
        from pac_verl.cpu.platform import register_engines, use_cpu_platform

        use_cpu_platform()
        register_engines()
    install_shims()
    register_rollout()

"""The CPU as a verl platform, for verl lines with a platform registry (verl 0.9.1).

verl 0.9.1 asks ``verl.plugin.platform.get_platform()`` for its device, its ``torch`` device
module and its collective backend. On a machine without an accelerator no registered platform
is available and it falls back to NVIDIA's (``cuda``, ``nccl``), so its workers would try CUDA
and NCCL. :func:`use_cpu_platform` registers :class:`PlatformCPU` under the name ``cpu`` and makes
it this process's platform (``VERL_PLATFORM=cpu`` for what starts later): device ``cpu``, module
``torch.cpu`` (with the memory calls of :func:`pac_verl.cpu.stack.install_shims`), backend
``gloo``, and Ray's ``GPU`` resource, which the CPU stack's Ray cluster declares as one logical
device. It is never auto-detected: only the CPU stack selects it. verl's training engines are registered
per device: :func:`register_engines` registers its FSDP engines (actor and critic) for ``cpu``.
"""

from __future__ import annotations

import os
from contextlib import contextmanager

import torch
from verl.plugin.platform import PlatformBase, PlatformRegistry, get_platform, set_platform

NAME = "cpu"


@PlatformRegistry.register(platform=NAME)
class PlatformCPU(PlatformBase):
    """verl's device interface on a CPU: one device, gloo, no profiler, no IPC."""

    @property
    def device_name(self) -> str:
        return "cpu"

    @property
    def vendor_name(self) -> str:
        return "cpu"

    @property
    def device_module(self):
        return torch.cpu

    def is_available(self) -> bool:
        return True

    def is_platform_available(self, use_smi_check=False) -> bool:
        return False  # chosen by name (VERL_PLATFORM=cpu), never detected

    def current_device(self):
        # "cpu", as torch.cpu.current_device() says: verl moves modules with
        # .to(device=current_device()), where an integer would name an accelerator
        return torch.cpu.current_device()

    def device_count(self) -> int:
        return 1

    def set_device(self, device_index: int) -> None:
        pass

    def synchronize(self, device_index=None) -> None:
        pass

    def manual_seed(self, seed: int) -> None:
        torch.manual_seed(seed)

    def manual_seed_all(self, seed: int) -> None:
        torch.manual_seed(seed)

    def set_allocator_settings(self, settings: str) -> None:
        pass

    def empty_cache(self) -> None:
        pass

    def get_device_capability(self, device_index: int = 0):
        return None, None

    def communication_backend_name(self) -> str:
        return "gloo"

    def visible_devices_envvar(self) -> str:
        return "CUDA_VISIBLE_DEVICES"

    @contextmanager
    def nvtx_range(self, msg: str):
        yield

    def profiler_start(self) -> None:
        pass

    def profiler_stop(self) -> None:
        pass

    def ray_resource_name(self) -> str:
        return "GPU"  # the CPU stack's Ray cluster declares one logical GPU

    def ray_noset_envvars(self) -> list[str]:
        return []

    def is_ipc_supported(self) -> bool:
        return False

    def cudart(self):
        return None


def use_cpu_platform() -> None:
    """Make :class:`PlatformCPU` this process's verl platform, and the one of processes it starts."""
    os.environ["VERL_PLATFORM"] = NAME
    if get_platform().device_name != "cpu":
        set_platform(PlatformCPU())


def register_engines() -> None:
    """verl's FSDP engines (language model, value model) for the device ``cpu`` too."""
    from verl.workers.engine.base import EngineRegistry
    from verl.workers.engine.fsdp.transformer_impl import (
        FSDPEngineWithLMHead,
        FSDPEngineWithValueHead,
    )

    for model_type, engine in (("language_model", FSDPEngineWithLMHead),
                               ("value_model", FSDPEngineWithValueHead)):  # fmt: skip
        registry = EngineRegistry._engines[model_type]
        for backend in ("fsdp", "fsdp2"):
            if NAME not in registry.get(backend, {}):
                EngineRegistry.register(model_type=model_type, backend=backend, device=NAME)(engine)

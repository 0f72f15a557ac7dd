"""Where the code sandbox's settings come from, and which source wins.

What the settings are: docs/concepts/spec.md#code-sandbox and docs/guides/sandbox.md.

One dataclass, :class:`SandboxSettings`, holds every setting and its default. It is filled from
one of two sources, never a mix:

- **Training** (and ``pac-verl preflight``): the ``sandbox`` group of reward kwargs in
  ``configs/pac_trainer.yaml``, ``reward.custom_reward_function.reward_kwargs.sandbox``. verl 0.7.1
  passes it to ``compute_score(_async)(..., sandbox=...)`` in each reward-loop worker (a Ray actor,
  possibly on another node), which hands it to ``code.score`` and ``run_job``
  (:func:`from_config`). It is part of the resolved config, so of ``run.json`` and its hash, and
  is overridden like any other key: ``reward.custom_reward_function.reward_kwargs.sandbox.
  isolation=namespaces``. ``null`` keeps the dataclass default. The ``PAC_SANDBOX_*`` variables
  below are **not read** on this path: the driver's environment need not exist in a reward worker
  on another node, and it is not in the config hash. ``pac_verl.checks.config`` checks the
  group before Ray starts and warns about a variable that is set but ignored.
- **Tools run outside training**, where there is no config (``pac-verl prep check``, the
  benchmarks under ``scripts/bench``, direct calls of ``code.score``, ``run_job`` or
  ``isolation_report``): the environment (:func:`from_env`), one variable per setting
  (:data:`ENV_VARS`: ``PAC_SANDBOX_ISOLATION``, ``PAC_SANDBOX_PYTHON``, ``PAC_SANDBOX_CPU_SECONDS``,
  ...); unset means the dataclass default.

Two facts about the node, not about the run, are read from the environment on both paths:
``PAC_SANDBOX_BWRAP`` (the bubblewrap binary, default ``bwrap`` on ``PATH``) and
``PAC_SANDBOX_UID_BASE`` (the first uid runs use, default 61000).

A bad value is a :class:`~pac_verl.errors.UserError` that names the key (or variable) and the
values allowed.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields

from pac_verl.errors import UserError
from pac_verl.verifiers.sandbox.types import Limits

ISOLATION_LEVELS = ("strict", "namespaces", "none")
BACKENDS = ("local", "sandbox_fusion")
CONFIG_KEY = "reward.custom_reward_function.reward_kwargs.sandbox"
ENV_VARS = {
    "isolation": "PAC_SANDBOX_ISOLATION",
    "backend": "PAC_SANDBOX_BACKEND",
    "fusion_url": "PAC_SANDBOX_FUSION_URL",
    "python": "PAC_SANDBOX_PYTHON",
    "concurrency": "PAC_SANDBOX_CONCURRENCY",
    "cpu_seconds": "PAC_SANDBOX_CPU_SECONDS",
    "wall_seconds": "PAC_SANDBOX_WALL_SECONDS",
    "memory_mb": "PAC_SANDBOX_MEMORY_MB",
    "bcb_cpu_seconds": "PAC_SANDBOX_BCB_CPU_SECONDS",
    "bcb_memory_mb": "PAC_SANDBOX_BCB_MEMORY_MB",
}
SECONDS = ("cpu_seconds", "wall_seconds", "bcb_cpu_seconds")
MEGABYTES = ("memory_mb", "bcb_memory_mb")
# The level a run is scored under, as a number for the per-step metric
# ``reward/<type>/sandbox_isolation`` (pac_verl.verl.reward_metrics): the local levels from the
# weakest up; ``remote`` is the SandboxFusion backend, whose isolation is the service's.
LEVEL_CODES = {"none": 0, "namespaces": 1, "strict": 2, "remote": 3}


@dataclass(frozen=True)
class SandboxSettings:
    """The code sandbox's settings; these defaults are the only ones (the config's ``null`` and an
    unset variable both mean them). See ``sandbox.py`` for what each level isolates."""

    isolation: str = "strict"  # strict | namespaces | none (weaker ones by name only)
    backend: str = "local"  # local | sandbox_fusion
    fusion_url: str | None = None  # SandboxFusion's run_code address (backend sandbox_fusion)
    python: str | None = None  # interpreter that runs the programs; None: the trainer's own
    concurrency: int = 0  # sandbox runs at once, node-wide; 0: the CPUs this process may use
    # one run's limits (code.default_limits); Code-R1's are types.Limits' own defaults
    cpu_seconds: float = Limits.cpu_seconds  # CPU time of the whole tree: then "timeout"
    wall_seconds: float = Limits.wall_seconds  # wall-clock backstop (one retry when starved)
    memory_mb: int = Limits.memory_mb  # memory of the whole tree (strict), else per process
    # BigCodeBench: its own harness allows a 30 GiB address space; its tests load pandas & co.
    bcb_cpu_seconds: float = 60.0
    bcb_memory_mb: int = 8192

    @property
    def level(self) -> str:
        """The isolation a run gets: the local level, or ``remote`` for SandboxFusion."""
        return "remote" if self.backend == "sandbox_fusion" else self.isolation


def _positive(value: object, name: str, integer: bool) -> float | int:
    """A number > 0 (an integer when ``integer``) from the config or a variable's text."""
    if isinstance(value, str):
        with contextlib.suppress(ValueError):
            value = int(value) if integer else float(value)
    ok = isinstance(value, int) if integer else isinstance(value, int | float)
    if not ok or isinstance(value, bool) or not value > 0:
        kind = "an integer" if integer else "a number"
        raise UserError(f"{name} must be {kind} > 0, got {value!r}")
    return value if integer else float(value)


def _build(values: Mapping[str, object], name: Callable[[str], str]) -> SandboxSettings:
    """Check ``values`` (None: the default) and make the settings; errors name ``name(field)``."""
    given = {k: v for k, v in values.items() if v is not None}
    isolation = str(given.get("isolation", SandboxSettings.isolation)).strip()
    if isolation not in ISOLATION_LEVELS:
        raise UserError(f"{name('isolation')}={isolation!r} is not a sandbox isolation level: "
                        f"use one of {', '.join(ISOLATION_LEVELS)}")  # fmt: skip
    backend = str(given.get("backend", SandboxSettings.backend)).strip()
    if backend not in BACKENDS:
        raise UserError(f"{name('backend')}={backend!r} is not a sandbox backend: use one of "
                        f"{', '.join(BACKENDS)}")  # fmt: skip
    url = str(given["fusion_url"]).strip() if "fusion_url" in given else None
    if backend == "sandbox_fusion" and not url:
        raise UserError(
            f"{name('backend')}=sandbox_fusion needs {name('fusion_url')}, the "
            "service's run_code address (e.g. http://sandbox:8080/run_code)"
        )
    python = str(given["python"]).strip() if "python" in given else None
    concurrency = given.get("concurrency", SandboxSettings.concurrency)
    if isinstance(concurrency, str) and concurrency.strip().isdigit():
        concurrency = int(concurrency)  # an environment variable
    if not isinstance(concurrency, int) or isinstance(concurrency, bool) or concurrency < 0:
        raise UserError(f"{name('concurrency')} must be an integer >= 0 (0: one run per CPU), "
                        f"got {concurrency!r}")  # fmt: skip
    limits = {f: _positive(given[f], name(f), f in MEGABYTES)
              for f in (*SECONDS, *MEGABYTES) if f in given}  # fmt: skip
    return SandboxSettings(isolation, backend, url or None, python or None, concurrency, **limits)


def from_config(group: Mapping[str, object]) -> SandboxSettings:
    """The settings of the config's ``sandbox`` group (training; the environment is not read)."""
    if not isinstance(group, Mapping):
        raise UserError(f"{CONFIG_KEY} must be a group of settings ({', '.join(ENV_VARS)}), got "
                        f"{group!r}")  # fmt: skip
    known = [f.name for f in fields(SandboxSettings)]
    unknown = sorted(str(k) for k in group if k not in known)
    if unknown:
        raise UserError(f"{CONFIG_KEY}.{unknown[0]}: the sandbox has no such setting; valid: "
                        f"{', '.join(known)}")  # fmt: skip
    return _build(dict(group), lambda field: f"{CONFIG_KEY}.{field}")


def from_run_config(cfg) -> SandboxSettings:
    """The settings of a composed training config (an OmegaConf config or a plain mapping), as the
    reward workers will read them; another reward function's config: the defaults."""
    from omegaconf import OmegaConf

    group = OmegaConf.select(cfg, CONFIG_KEY, default=None)
    if group is None:  # another reward function: the sandbox's own defaults
        return SandboxSettings()
    return from_config(OmegaConf.to_container(group) if OmegaConf.is_config(group) else group)


def from_env(environ: Mapping[str, str] | None = None) -> SandboxSettings:
    """The settings of the ``PAC_SANDBOX_*`` variables (tools run outside training)."""
    environ = os.environ if environ is None else environ
    values = {field: (environ.get(var) or "").strip() or None for field, var in ENV_VARS.items()}
    return _build(values, ENV_VARS.__getitem__)


def settings_for(sandbox: Mapping[str, object] | SandboxSettings | None) -> SandboxSettings:
    """The settings a reward call runs with: its ``sandbox`` kwarg when given (training), else
    the environment (a tool outside training)."""
    if isinstance(sandbox, SandboxSettings):
        return sandbox
    return from_env() if sandbox is None else from_config(sandbox)


def ignored_env(environ: Mapping[str, str] | None = None) -> list[str]:
    """The ``PAC_SANDBOX_*`` setting variables set here, which training does not read."""
    environ = os.environ if environ is None else environ
    return [var for var in ENV_VARS.values() if (environ.get(var) or "").strip()]

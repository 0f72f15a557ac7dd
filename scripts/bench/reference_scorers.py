"""Reference scorers the benchmarks compare against that pac-verl does not install.

Two kinds, both for the benchmarks in this folder only, never for the project's own scorers:

- **Scorers from a local checkout** the user points at (``--reference NAME=DIR``): TinyZero's
  countdown, Logic-RL's K&K and Code-R1's coder1 live in forks of verl, in neither verl 0.7.1 nor
  PyPI, and their code is not copied into this project. The scorer's file is imported from the
  checkout under a private module name (the checkout's ``verl`` package is never put on the path,
  so it cannot shadow the installed verl 0.7.1). Get a checkout with e.g.
  ``git clone https://github.com/Jiayi-Pan/TinyZero /tmp/refs/TinyZero``.
- **verl 0.7.1's ``prime_code``**, which imports ``pyext`` (verl's ``prime`` extra); pyext 0.7
  does not build on Python 3.11 (its ``setup.py`` calls the removed ``inspect.getargspec``).
  prime_code uses one thing of it, ``RuntimeModule.from_string(name, doc, source)``: a module made
  by executing ``source``. :func:`prime_code` puts a stand-in that does exactly that into
  ``sys.modules["pyext"]`` of the benchmark process (BENCH-ONLY COMPATIBILITY SHIM), then imports
  verl's module unchanged. prime_code runs the program in a forked child of the calling process
  with no isolation (reliability_guard only): the benchmarks give it only programs that are
  harmless by construction.
"""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
import types
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Checkout:
    repo: str  # where to get it
    path: str  # the scorer inside the checkout
    package: bool = False  # a package (relative imports) rather than one file


CHECKOUTS = {
    "tinyzero": Checkout("Jiayi-Pan/TinyZero", "verl/utils/reward_score/countdown.py"),
    "logic-rl": Checkout("Unakar/Logic-RL", "verl/utils/reward_score/kk.py"),
    "code-r1": Checkout("ganler/code-r1", "verl/utils/reward_score/coder1/__init__.py", True),
}


class NotLoaded(Exception):
    """A reference that cannot run here; the message is the line the benchmark prints."""


def parse_reference_args(values: list[str]) -> dict[str, str]:
    """``["tinyzero=/tmp/refs/TinyZero", ...]`` -> ``{"tinyzero": "/tmp/refs/TinyZero"}``;
    ValueError naming the accepted names on anything else."""
    out = {}
    for value in values:
        name, sep, checkout = value.partition("=")
        if not sep or name not in CHECKOUTS or not checkout:
            raise ValueError(
                f"--reference {value!r}: write NAME=DIR with NAME one of {sorted(CHECKOUTS)} "
                "and DIR a checkout of its repository"
            )
        out[name] = checkout
    return out


def load(name: str, checkout: str | None) -> types.ModuleType:
    """The reference's scorer module, imported from ``checkout``; :class:`NotLoaded` otherwise."""
    spec = CHECKOUTS[name]
    if checkout is None:
        raise NotLoaded(
            f"{name}: not given (--reference {name}=DIR, DIR a checkout of "
            f"https://github.com/{spec.repo})"
        )
    path = Path(checkout).expanduser() / spec.path
    if not path.is_file():
        raise NotLoaded(f"{name}: {path} not found (is {checkout} a checkout of {spec.repo}?)")
    if name == "code-r1":
        executor = os.environ.get("CODER1_EXEC", "firejail")
        if executor == "firejail" and shutil.which("firejail") is None:
            raise NotLoaded(
                "code-r1: coder1 runs programs under firejail (CODER1_EXEC=firejail, its "
                "default), which is not on PATH: apt-get install firejail"
            )
    module_name = f"_pac_bench_reference_{name.replace('-', '_')}"
    locations = [str(path.parent)] if spec.package else None
    spec_ = importlib.util.spec_from_file_location(
        module_name, path, submodule_search_locations=locations
    )
    module = importlib.util.module_from_spec(spec_)
    sys.modules[module_name] = module
    try:
        spec_.loader.exec_module(module)
    except Exception as err:  # any failure to import is reported, not raised
        del sys.modules[module_name]
        raise NotLoaded(
            f"{name}: {path} does not import here: {type(err).__name__}: {err}"
        ) from err
    return module


def _pyext_stand_in() -> types.ModuleType:
    """BENCH-ONLY COMPATIBILITY SHIM for pyext's ``RuntimeModule.from_string`` (see above)."""

    class RuntimeModule:
        @staticmethod
        def from_string(name: str, doc: str, source: str) -> types.ModuleType:
            module = types.ModuleType(name, doc)
            exec(compile(source, f"<{name}>", "exec"), module.__dict__)
            return module

    shim = types.ModuleType("pyext", "bench-only stand-in for pyext (scripts/bench)")
    shim.RuntimeModule = RuntimeModule
    shim.BENCH_ONLY_SHIM = True
    return shim


def prime_code() -> tuple[types.ModuleType, str]:
    """verl 0.7.1's ``prime_code`` module and how it was imported (``pyext`` or ``shim``)."""
    try:
        from verl.utils.reward_score import prime_code as module

        shimmed = getattr(sys.modules.get("pyext"), "BENCH_ONLY_SHIM", False)  # a second call
        return module, "shim" if shimmed else "pyext"
    except ModuleNotFoundError as err:
        if err.name != "pyext":
            raise
    sys.modules.setdefault("pyext", _pyext_stand_in())
    from verl.utils.reward_score import prime_code as module

    return module, "shim"


def prime_code_accepts(module: types.ModuleType, response: str, tests: str) -> bool:
    """prime_code's verdict as a bool. verl 0.7.1's ``compute_score(..., continuous=False)``
    raises ``UnboundLocalError`` (``metadata_list``) on every program that fails a test, after
    deciding it failed: that is a rejection."""
    try:
        return module.compute_score(response, tests)[0] is True
    except UnboundLocalError:
        return False

"""Running model-written code: the small interface the verifiers use, over one module per backend.

The rules it keeps: docs/concepts/spec.md#code-sandbox.

- :func:`run_job` runs one job (``kind`` functional | stdio | unittest, the ``code``, and the
  names, inputs or tests) and returns the harness's report, unjudged (:class:`RunResult`), or,
  for a functional run, what the judge that talked to the program while it ran reports;
- :func:`isolation_report` says what a run gets with the settings (backend, isolation level), or
  raises :class:`SandboxUnavailable` as a run would; :func:`require_sandbox` says the same after
  one real run on the backend (for SandboxFusion: one request to the service);
- :mod:`.judge`, which turns a ground truth's tests into what the sandbox may see and its report
  into a verdict;
- the settings (:class:`SandboxSettings`, :func:`settings_for`; where they come from:
  :mod:`.settings`), the limits of a run (:class:`Limits`) and a scoring call's bound
  (:class:`Budget`).

The backend is a setting (``backend``): ``local`` (:mod:`.local`: bubblewrap, seccomp
(:mod:`.seccomp`), a cgroup per run (:mod:`.cgroup`), node-wide slots (:mod:`.slots`)) or
``sandbox_fusion`` (:mod:`.fusion`: a SandboxFusion service). Both run the same program,
:mod:`.harness`, and the verdict is computed outside the sandbox by :mod:`.judge`, which never loads
model code.
"""

from __future__ import annotations

import logging
import time
from dataclasses import replace

from pac_verl.verifiers.sandbox import fusion, judge, local
from pac_verl.verifiers.sandbox.settings import SandboxSettings, settings_for
from pac_verl.verifiers.sandbox.types import Budget, Limits, RunResult, SandboxUnavailable

__all__ = [
    "Budget",
    "Limits",
    "RunResult",
    "SandboxSettings",
    "SandboxUnavailable",
    "isolation_report",
    "judge",
    "require_sandbox",
    "run_job",
    "settings_for",
]
_log = logging.getLogger(__name__)


def isolation_report(python: str | None = None, settings: SandboxSettings | None = None) -> dict:
    """What a run gets with ``settings`` (default: the environment's, see :mod:`.settings`):
    backend, isolation level, cgroup version, interpreter. Raises SandboxUnavailable like a run
    would."""
    settings = settings_for(settings)
    if settings.backend == "sandbox_fusion":
        return {"backend": "sandbox_fusion", "isolation": "remote", "url": settings.fusion_url}
    return local.isolation_report(settings, python)


PROBE_JOB = {"kind": "functional", "code": "x = 1", "probe": "assert x == 1"}


def require_sandbox(settings: SandboxSettings | None = None) -> dict:
    """:func:`isolation_report` once a trivial program has run on the settings' backend: the local
    backend runs one in its check of the machine (:func:`.local.require`); a SandboxFusion service
    is sent one, so that a wrong ``fusion_url`` or a service that runs nothing is said before
    training. Raises SandboxUnavailable naming what failed."""
    settings = settings_for(settings)
    report = isolation_report(settings=settings)
    if settings.backend == "sandbox_fusion":
        result = fusion.run_job_remote(PROBE_JOB, Limits(wall_seconds=30, cpu_seconds=10),
                                       settings.fusion_url, time.monotonic() + 60)  # fmt: skip
        if result.reason != "ok":
            raise SandboxUnavailable(
                f"the SandboxFusion service at {settings.fusion_url} did not run a test program "
                f"({result.reason}: {result.detail.strip()[-200:]}); start it (see "
                "docs/guides/sandbox.md) or fix the sandbox's fusion_url"
            )
    return report


def run_job(
    job: dict,
    limits: Limits | None = None,
    python: str | None = None,
    budget: Budget | None = None,
    settings: SandboxSettings | None = None,
    converse=None,
) -> RunResult:
    """Run one job on the backend the settings name and return the harness's report, unjudged.
    ``settings``: the reward call's (training), default the environment's (:mod:`.settings`);
    ``python`` overrides the local backend's interpreter. Raises SandboxUnavailable, or a
    UserError for a bad setting.

    With a ``budget`` (a scoring call's) the wait for a slot ends at its
    ``queue_until`` (``overloaded``) and the run, retry included, at ``timeout_s`` after the slot
    is taken (``timeout``): the CPU limit is clamped to ``timeout_s``, the wall-clock backstop to
    the time left, and the retry happens only when at least the first run's wall-clock time is
    left (with less it would be starved again). Not counted: the one-time check of the machine by
    the process's first run (:func:`.local.require`; the preflight makes it before training).

    ``converse``: a functional run's judge (``judge.functional_session``), which talks to the
    program while it runs; the report is then what ``converse`` returns."""
    limits, settings = limits or Limits(), settings_for(settings)
    if budget is not None:
        limits = _clamped(limits, budget.timeout_s)
    if settings.backend == "sandbox_fusion":
        deadline = None if budget is None else time.monotonic() + budget.timeout_s
        if converse is not None:
            return fusion.run_session(job, limits, settings.fusion_url, deadline, converse)
        return fusion.run_job_remote(job, limits, settings.fusion_url, deadline)
    return local.run_job(job, limits, settings, python, budget, converse)


_clamp_logged: set[tuple[float, float]] = set()


def _clamped(limits: Limits, timeout_s: float) -> Limits:
    """A CPU limit over the call's ``timeout_s`` (BigCodeBench's 60 s against the default 10 s)
    could never be used: clamp it, and say so once per pair of values (raise ``timeout_s``)."""
    if limits.cpu_seconds <= timeout_s:
        return limits
    if (limits.cpu_seconds, timeout_s) not in _clamp_logged:
        _clamp_logged.add((limits.cpu_seconds, timeout_s))
        _log.warning(
            "sandbox CPU limit %gs is over the reward's timeout_s %gs: clamped to %gs (raise "
            "reward timeout_s to give these programs their CPU time)",
            limits.cpu_seconds, timeout_s, timeout_s,
        )  # fmt: skip
    return replace(limits, cpu_seconds=timeout_s)

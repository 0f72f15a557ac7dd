"""What a sandbox run is given (``Limits``, ``Budget``) and what it returns (``RunResult``),
shared by the local backend (``local.py``) and SandboxFusion (``fusion.py``), and the error a
machine that cannot give the isolation asked for raises (``SandboxUnavailable``)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from pac_verl.errors import UserError


class SandboxUnavailable(UserError):
    """The isolation level asked for cannot be had on this machine."""


@dataclass(frozen=True)
class Limits:
    wall_seconds: float = 30.0  # backstop only: the timeout is decided by CPU time
    cpu_seconds: float = 10.0  # whole process tree
    memory_mb: int = 2048  # whole process tree (strict); per process otherwise
    output_bytes: int = 1 << 20  # stdout kept per run (stdio tests)
    max_processes: int = 32
    file_bytes: int = 64 << 20  # largest file a run may write


# The most a run's report channel may hold: a report is small but for stdin/stdout
# outputs, which JSON escapes to at most 6 bytes a byte. The scorer reads no more than this and
# parses nothing over it (a program that fills the channel with 63 MiB of lines would otherwise
# grow the scoring process by gigabytes).
REPORT_BYTES = 16 << 20


def report_limit(limits: Limits) -> int:
    return REPORT_BYTES + 8 * limits.output_bytes


@dataclass(frozen=True)
class Budget:
    """The time one scoring call may spend in the sandbox (docs/concepts/spec.md#rewards).

    Waiting for a node slot until ``queue_until`` (a ``time.monotonic()`` instant; then
    ``overloaded``), then ``timeout_s`` for the whole run, its retry included, from when the slot is
    taken (then ``timeout``). The queue's end is an instant, not a length, so that time a call spent
    waiting for a thread before it reached the sandbox counts against it too."""

    timeout_s: float
    queue_until: float | None = None  # None: wait as long as it takes

    @classmethod
    def starting_now(cls, timeout_s: float, queue_s: float) -> Budget:
        return cls(float(timeout_s), time.monotonic() + float(queue_s))


@dataclass(frozen=True)
class RunResult:
    """``ok`` means the harness reported (``report`` holds it); anything else is the sandbox's
    reason (``timeout``, ``overloaded``, ``memory``, ``no_result``, ``sandbox_error``)."""

    reason: str
    detail: str = ""
    report: dict = field(default_factory=dict)

    @property
    def passed(self) -> bool:
        return self.reason == "ok"


class SessionEnded(Exception):
    """A functional run's channel closed before the judge was done with it: ``reason`` is the
    verdict's (``timeout``, ``memory``, ``no_result``, ``wall_clock``, ``tests_timeout``...)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

"""A node-wide limit on concurrent sandbox runs (SPEC 9: verdicts must not depend on load).

verl runs several reward workers per node, each scoring many responses at once; without a limit,
24 programs on 2 cores each get a twelfth of a core and correct ones time out. A slot is an
exclusive ``flock`` on one of N files in a node-wide folder, so every process and thread on the
node shares the same N slots, and a crashed holder frees its slot with its file descriptor.
N defaults to the CPUs this process may use (``PAC_SANDBOX_CONCURRENCY`` overrides it). The slot
number also picks the run's uid (strict mode), so two concurrent runs never share a uid.
A wait may be bounded (``until``): a scoring call that gets no slot by then scores ``overloaded``
(issue 16), it does not wait behind the node's runs without end.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
import tempfile
import time
from pathlib import Path


class NoSlot(TimeoutError):
    """No slot came free before the wait's end."""


def capacity() -> int:
    setting = os.environ.get("PAC_SANDBOX_CONCURRENCY")
    if setting:
        return max(1, int(setting))
    return max(1, len(os.sched_getaffinity(0)))


def _folder() -> Path:
    base = Path("/dev/shm") if Path("/dev/shm").is_dir() else Path(tempfile.gettempdir())
    folder = base / "pac-sandbox-slots"
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


@contextlib.contextmanager
def slot(until: float | None = None):
    """Wait for a free slot and hold it; yields its number (0 .. capacity-1). Raises
    :class:`NoSlot` when none is free at ``until`` (a ``time.monotonic()`` instant; None: no end)."""
    n, folder = capacity(), _folder()
    order = list(range(n))
    delay = 0.001
    while True:
        if until is not None and time.monotonic() > until:  # e.g. it waited for a thread first
            raise NoSlot(f"no sandbox slot of {n} came free in time")
        random.shuffle(order)
        for i in order:
            fd = os.open(folder / f"slot-{i}.lock", os.O_RDWR | os.O_CREAT, 0o600)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                continue
            try:
                yield i
            finally:
                os.close(fd)  # releases the lock
            return
        pause = delay * (1 + random.random())
        if until is not None:
            pause = max(0.0, min(pause, until - time.monotonic()))
        time.sleep(pause)
        delay = min(delay * 2, 0.02)

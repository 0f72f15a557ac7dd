"""A node-wide limit on concurrent sandbox runs: verdicts must not depend on load.

The rule: docs/concepts/spec.md#code-sandbox.

verl runs several reward workers per node, each scoring many responses at once; without a limit,
24 programs on 2 cores each get a twelfth of a core and correct ones time out. A slot is an
exclusive ``flock`` on one of N files in a node-wide folder, so every process and thread on the
node shares the same N slots, and a crashed holder frees its slot with its file descriptor.
N defaults to the CPUs this process may use; the sandbox's ``concurrency`` setting overrides it
(``settings.py``: in training ``reward.custom_reward_function.reward_kwargs.sandbox.
concurrency``, outside it ``PAC_SANDBOX_CONCURRENCY``). The slot number also picks the run's uid
(strict mode), so two concurrent runs never share a uid.
A wait may be bounded (``until``): a scoring call that gets no slot by then scores ``overloaded``;
it does not wait behind the node's runs without end.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import random
import tempfile
import time
from pathlib import Path

from pac_verl.verifiers.sandbox.settings import from_env


class NoSlot(TimeoutError):
    """No slot came free before the wait's end."""


def capacity(setting: int | None = None) -> int:
    """Slots on this node: ``setting`` when > 0; None reads the environment's setting; 0 (the
    default) means the CPUs this process may use."""
    if setting is None:
        setting = from_env().concurrency
    if setting > 0:
        return setting
    return max(1, len(os.sched_getaffinity(0)))


def _folder() -> Path:
    """The node's slot folder, one per user: another user's folder (mode 0700) is not this user's
    to lock in. Root's is ``pac-sandbox-slots``, the only one whose runs change uid per slot."""
    base = Path("/dev/shm") if Path("/dev/shm").is_dir() else Path(tempfile.gettempdir())
    uid = os.geteuid()
    folder = base / ("pac-sandbox-slots" if uid == 0 else f"pac-sandbox-slots-{uid}")
    folder.mkdir(mode=0o700, exist_ok=True)
    return folder


@contextlib.contextmanager
def slot(until: float | None = None, n: int | None = None):
    """Wait for a free slot of ``n`` (default :func:`capacity`) and hold it; yields its number
    (0 .. n-1). Raises :class:`NoSlot` when none is free at ``until`` (a ``time.monotonic()``
    instant; None: no end)."""
    n, folder = n or capacity(), _folder()
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

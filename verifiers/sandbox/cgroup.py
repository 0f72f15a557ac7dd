"""Whole-tree limits for one sandbox run: a throwaway cgroup with a memory ceiling, a
process ceiling and one CPU's worth of bandwidth, whose CPU usage decides the timeout.

RLIMIT_AS, RLIMIT_CPU and RLIMIT_NPROC count one process (and root ignores NPROC); a cgroup counts
the whole tree, forks, memfd and tmpfs pages included. cgroup v2 is used where its ``memory``,
``pids`` and ``cpu`` controllers can be enabled below this process's cgroup; otherwise the v1
hierarchies ``memory``, ``pids``, ``cpu`` and ``cpuacct`` (a hybrid host such as this project's CI
machine). Creating cgroups needs root or a delegated subtree (``systemd-run --scope -p
Delegate=yes``); :func:`unavailable_reason` says what is missing (for v2, the controllers the
hierarchy lacks). :func:`layout` and :func:`unavailable_reason` take the cgroup file systems' root
(default ``/sys/fs/cgroup``) and :class:`RunGroup` a layout, so tests can point them elsewhere.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import select
import signal
import time
from functools import cache
from pathlib import Path

ROOT = Path("/sys/fs/cgroup")
V1_CONTROLLERS = ("memory", "pids", "cpu", "cpuacct")
V2_CONTROLLERS = ("memory", "pids", "cpu")
PERIOD_US = 100_000


def _own_paths() -> dict[str, str]:
    """controller ('' for v2) -> this process's cgroup path, from /proc/self/cgroup."""
    paths = {}
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        _, controllers, path = line.split(":", 2)
        for c in controllers.split(",") if controllers else [""]:
            paths[c] = path
    return paths


def _v2_mount(root: Path) -> Path | None:
    for candidate in (root, root / "unified"):
        if (candidate / "cgroup.controllers").exists():
            return candidate
    return None


def _v2_parent(base: Path) -> Path:
    """The folder under the v2 cgroup ``base`` whose children get memory, pids and cpu; raises
    OSError naming what is missing."""
    have = set((base / "cgroup.controllers").read_text().split())
    missing = [c for c in V2_CONTROLLERS if c not in have]
    if missing:
        raise OSError(
            f"cgroup v2 at {base} lacks the {', '.join(missing)} controller"
            f"{'s' if len(missing) > 1 else ''} (it has: {' '.join(sorted(have)) or 'none'})"
        )
    parent = base / "pac-sandbox"
    parent.mkdir(exist_ok=True)
    enable = " ".join(f"+{c}" for c in V2_CONTROLLERS)
    with contextlib.suppress(OSError):  # refused where this cgroup holds processes itself
        (base / "cgroup.subtree_control").write_text(enable)
    with contextlib.suppress(OSError):
        (parent / "cgroup.subtree_control").write_text(enable)
    enabled = set((parent / "cgroup.subtree_control").read_text().split())
    if not set(V2_CONTROLLERS) <= enabled:
        raise OSError(
            f"cgroup v2 at {base}: {', '.join(sorted(set(V2_CONTROLLERS) - enabled))} cannot be "
            f"enabled for the children of {parent} (cgroup.subtree_control)"
        )
    return parent


def _v1_parents(root: Path, own: dict[str, str]) -> dict[str, Path]:
    parents = {}
    for c in V1_CONTROLLERS:
        mount = next((m for m in root.glob("*") if c in m.name.split(",")), None)
        if mount is None or not (mount / "cgroup.procs").exists():
            raise OSError(f"there is no cgroup v1 {c} hierarchy under {root}")
        parent = mount / own.get(c, "/").lstrip("/") / "pac-sandbox"
        parent.mkdir(parents=True, exist_ok=True)
        parents[c] = parent
    return parents


@cache
def layout(root: Path = ROOT) -> tuple[str, dict[str, Path]]:
    """('v2', {'': parent}) or ('v1', {controller: parent}): where run groups are made, for the
    cgroup file systems mounted at ``root`` (tests pass another). Raises OSError with the reasons
    when neither works."""
    own = _own_paths()
    reasons = []
    v2 = _v2_mount(root)
    if v2 is not None:
        try:
            return "v2", {"": _v2_parent(v2 / own.get("", "/").lstrip("/"))}
        except OSError as err:
            reasons.append(str(err))
    else:
        reasons.append(f"there is no cgroup v2 under {root}")
    try:
        return "v1", _v1_parents(root, own)
    except OSError as err:
        reasons.append(str(err))
    raise OSError("; ".join(reasons))


def unavailable_reason(root: Path = ROOT) -> str | None:
    try:
        group = RunGroup(memory_mb=64, max_processes=8, where=layout(root))
    except PermissionError as err:
        return f"this process (uid {os.geteuid()}) may not create cgroups in {err.filename}"
    except OSError as err:
        return str(err)
    group.remove()
    return None


class RunGroup:
    """One run's cgroup(s). The launcher joins ``procs_files`` before exec; ``cpu_seconds`` is the
    whole tree's CPU time; ``kill`` ends every process in it; ``remove`` deletes it."""

    def __init__(self, memory_mb: int, max_processes: int, where=None) -> None:
        """``where``: a :func:`layout` (default: this machine's)."""
        self.version, parents = where if where is not None else layout()
        name = f"run-{os.getpid()}-{secrets.token_hex(4)}"
        self.dirs: dict[str, Path] = {}
        try:
            for c, parent in parents.items():
                d = parent / name
                d.mkdir()
                self.dirs[c] = d
            mem = memory_mb * 1024 * 1024
            if self.version == "v2":
                d = self.dirs[""]
                (d / "memory.max").write_text(str(mem))
                with contextlib.suppress(OSError):
                    (d / "memory.swap.max").write_text("0")
                (d / "pids.max").write_text(str(max_processes))
                (d / "cpu.max").write_text(f"{PERIOD_US} {PERIOD_US}")
            else:
                (self.dirs["memory"] / "memory.limit_in_bytes").write_text(str(mem))
                with contextlib.suppress(OSError):
                    (self.dirs["memory"] / "memory.memsw.limit_in_bytes").write_text(str(mem))
                (self.dirs["pids"] / "pids.max").write_text(str(max_processes))
                (self.dirs["cpu"] / "cpu.cfs_period_us").write_text(str(PERIOD_US))
                (self.dirs["cpu"] / "cpu.cfs_quota_us").write_text(str(PERIOD_US))
        except OSError:
            self.remove()
            raise
        # the launcher writes its own pid here before it execs: everything it starts counts
        self.procs_files = [str(d / "cgroup.procs") for d in self.dirs.values()]

    def cpu_seconds(self) -> float:
        try:
            if self.version == "v2":
                for line in (self.dirs[""] / "cpu.stat").read_text().splitlines():
                    if line.startswith("usage_usec"):
                        return int(line.split()[1]) / 1e6
                return 0.0
            return int((self.dirs["cpuacct"] / "cpuacct.usage").read_text()) / 1e9
        except (OSError, ValueError):
            return 0.0

    def out_of_memory(self) -> bool:
        """Whether the kernel's OOM killer killed a process of the run (v2 ``memory.events``, v1
        ``memory.oom_control``: both count ``oom_kill``; v1's ``memory.failcnt`` stays 0 on recent
        kernels)."""
        try:
            if self.version == "v2":
                words = (self.dirs[""] / "memory.events").read_text().split()
            else:
                words = (self.dirs["memory"] / "memory.oom_control").read_text().split()
            return int(words[words.index("oom_kill") + 1]) > 0
        except (OSError, ValueError, IndexError):
            return False

    def pids(self) -> list[int]:
        found: set[int] = set()
        for d in self.dirs.values():
            with contextlib.suppress(OSError, ValueError):
                found.update(int(p) for p in (d / "cgroup.procs").read_text().split())
        return sorted(found)

    def kill(self) -> None:
        """SIGKILL every process in the group and return once it is empty (or after ~1 s).

        A pid read from ``cgroup.procs`` is opened as a pidfd and signalled only if it is still
        listed after the open, so a pid that ended and was reused by a process outside the group
        is never signalled; the wait is a poll on those pidfds, which returns the moment the last
        one ends. After a run bubblewrap's pid 1 is usually still tearing its namespaces down for
        a few ms: a fixed sleep here would cost 5 ms of every run."""
        if self.version == "v2":
            with contextlib.suppress(OSError):
                (self.dirs[""] / "cgroup.kill").write_text("1")
        deadline = time.monotonic() + 1.0
        while True:
            pids = self.pids()
            if not pids or time.monotonic() > deadline:
                return
            fds = {}
            for pid in pids:
                try:
                    fds[pid] = os.pidfd_open(pid)
                except ProcessLookupError:
                    pass  # ended already
                except OSError:  # no pidfds (Linux < 5.3): by pid, as before them
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.kill(pid, signal.SIGKILL)
            try:
                still = set(self.pids())
                poller = select.poll()
                ours = [fd for pid, fd in fds.items() if pid in still]
                for fd in ours:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        signal.pidfd_send_signal(fd, signal.SIGKILL)
                    poller.register(fd, select.POLLIN)
                if ours:
                    poller.poll(20)
                else:
                    time.sleep(0.001)  # listed but ended already, or no pidfds here
            finally:
                for fd in fds.values():
                    os.close(fd)

    def remove(self) -> None:
        for d in self.dirs.values():
            for _ in range(100):
                try:
                    d.rmdir()
                    break
                except FileNotFoundError:
                    break
                except OSError:
                    time.sleep(0.01)
        self.dirs = {}

"""The seccomp filter of strict mode, compiled to BPF with libseccomp.

libseccomp is the library bubblewrap's own users (Flatpak) build their filters with; its Python
bindings come from PyPI as ``pyseccomp`` (a ctypes binding, API-compatible with libseccomp's
official ``seccomp`` module, over the system's ``libseccomp.so.2``, Debian ``libseccomp2``). The
filter allows everything except the calls below, which fail with EPERM: namespace and mount
changes (a sandboxed program must not build a sandbox of its own or remount anything), tracing
and cross-process memory access, the kernel keyring, BPF, perf events, kernel module and
reboot-class calls, userfaultfd and io_uring (both frequent exploit primitives). ``clone`` with a
namespace flag fails the same way; ``clone3`` fails with ENOSYS, which makes glibc fall back to
``clone`` where the flags can be checked (BPF cannot read clone3's argument struct).

File locks are no-ops. The read-only mounts (``/usr``, the interpreter's folders) and
the device nodes are the host's own inodes, shared by every run and the host, and a lock lives on
the inode: one run holding ``flock`` (or a POSIX read lock, probed with ``F_GETLK``, or a write
lock on ``/dev/null``) and another probing it is a channel between runs, say from a run that
learnt the expected answer to one that needs it. ``flock`` and the ``fcntl`` lock commands return
success without locking anything: a program that takes a lock carries on as if it held it (SQLite
in the run's private ``/tmp`` works, one process at a time), and a probe learns nothing. Private
copies of the mounts would cost a copy of the venv per run, and bubblewrap 0.8 (Debian 12) has no
overlay mounts. Change notifications on shared inodes are the same channel: ``inotify``,
``fanotify``, ``F_NOTIFY`` and leases fail with EPERM.
"""

from __future__ import annotations

import errno
import io
from functools import cache

DENIED = (
    "unshare", "setns", "mount", "umount2", "pivot_root", "chroot", "move_mount", "open_tree",
    "fsopen", "fsconfig", "fsmount", "fspick", "mount_setattr", "ptrace", "process_vm_readv",
    "process_vm_writev", "kcmp", "pidfd_getfd", "keyctl", "add_key", "request_key", "bpf",
    "perf_event_open", "init_module", "finit_module", "delete_module", "kexec_load",
    "kexec_file_load", "reboot", "swapon", "swapoff", "acct", "quotactl", "syslog", "userfaultfd",
    "io_uring_setup", "io_uring_enter", "io_uring_register", "open_by_handle_at",
    "name_to_handle_at", "lookup_dcookie", "iopl", "ioperm", "settimeofday", "clock_settime",
    "clock_adjtime", "adjtimex", "personality", "vhangup", "nfsservctl",
)  # fmt: skip
NO_OP = ("flock",)  # succeed without doing anything
DENIED_NOTIFY = ("inotify_init", "inotify_init1", "inotify_add_watch", "fanotify_init",
                 "fanotify_mark")  # fmt: skip
# fcntl commands: F_GETLK, F_SETLK, F_SETLKW, F_OFD_GETLK, F_OFD_SETLK, F_OFD_SETLKW (no-ops) and
# F_SETLEASE, F_GETLEASE, F_NOTIFY (EPERM); the same numbers on x86-64 and arm64
FCNTL_LOCKS = (5, 6, 7, 36, 37, 38)
FCNTL_DENIED = (1024, 1025, 1026)
CLONE_NAMESPACE_FLAGS = (
    0x00020000,  # CLONE_NEWNS
    0x02000000,  # CLONE_NEWCGROUP
    0x04000000,  # CLONE_NEWUTS
    0x08000000,  # CLONE_NEWIPC
    0x10000000,  # CLONE_NEWUSER
    0x20000000,  # CLONE_NEWPID
    0x40000000,  # CLONE_NEWNET
)


class SeccompUnavailable(RuntimeError):
    pass


@cache
def bpf_program() -> bytes:
    """The compiled filter (bubblewrap's ``--seccomp FD`` format). Raises SeccompUnavailable."""
    try:
        import pyseccomp as seccomp
    except (ImportError, OSError, RuntimeError) as err:  # no libseccomp.so.2 raises at import
        raise SeccompUnavailable(f"libseccomp's Python binding did not load ({err})") from err
    deny = seccomp.ERRNO(errno.EPERM)
    flt = seccomp.SyscallFilter(seccomp.ALLOW)
    for name in DENIED + DENIED_NOTIFY:
        try:
            flt.add_rule(deny, name)
        except (OSError, ValueError, RuntimeError):
            continue  # a call this architecture does not have
    granted = seccomp.ERRNO(0)  # the call returns 0 and does nothing
    for name in NO_OP:
        flt.add_rule(granted, name)
    for cmd in FCNTL_LOCKS:
        flt.add_rule(granted, "fcntl", seccomp.Arg(1, seccomp.EQ, cmd))
    for cmd in FCNTL_DENIED:
        flt.add_rule(deny, "fcntl", seccomp.Arg(1, seccomp.EQ, cmd))
    for flag in CLONE_NAMESPACE_FLAGS:
        flt.add_rule(deny, "clone", seccomp.Arg(0, seccomp.MASKED_EQ, flag, flag))
    flt.add_rule(seccomp.ERRNO(errno.ENOSYS), "clone3")
    out = io.BytesIO()
    with _exported_to(out) as f:
        flt.export_bpf(f)
    return out.getvalue()


class _exported_to:
    """libseccomp writes to a file descriptor: a temporary file, read back into ``out``."""

    def __init__(self, out: io.BytesIO) -> None:
        self.out = out

    def __enter__(self):
        import tempfile

        self.f = tempfile.TemporaryFile()
        return self.f

    def __exit__(self, *exc) -> None:
        self.f.seek(0)
        self.out.write(self.f.read())
        self.f.close()

"""The local backend: run model-written Python under bubblewrap, where it can neither escape nor
reach the verdict (docs/concepts/spec.md#code-sandbox).

Each run is a fresh ``python -I -B`` running ``harness.py`` (see ``harness.py`` for what happens
inside and ``judge.py`` for the verdict, computed outside). The harness arrives on stdin ahead
of the job, compiled once per interpreter (compiling its source took ~10 ms, a sixth of a short
run), so no file of this package is mounted in the sandbox. The isolation level is a setting
(``isolation`` of :class:`~pac_verl.verifiers.sandbox.settings.SandboxSettings`: in training
``reward.custom_reward_function.reward_kwargs.sandbox.isolation``, outside it
``PAC_SANDBOX_ISOLATION``; ``settings.py`` says which source wins):

- ``strict`` (default): bubblewrap with new pid, ipc, uts, net, mount and cgroup namespaces, a
  minimal read-only root (``/usr`` and the interpreter's own folders, nothing else of the host:
  no home, no data, no checkpoints, no ``/run`` sockets), a private ``/tmp``, a fresh ``/proc``,
  a ``/dev`` with only null, zero and urandom, ``no_new_privs``, the seccomp filter of
  ``seccomp.py``, an unprivileged uid (one per concurrency slot: ``PAC_SANDBOX_UID_BASE``
  + slot, default 61000+; when the trainer runs as root the harness drops to it before any model
  code, otherwise the trainer's own uid in a new user namespace with further user namespaces
  disabled), and a cgroup (``cgroup.py``) whose memory, process count and CPU time
  count the whole process tree.
- ``namespaces``: the same without the cgroup (per-process rlimits only): for a machine where
  cgroups cannot be created; asked for by name only.
- ``none``: no isolation at all beyond rlimits and a process group; for debugging, by name only.

The other backend, ``sandbox_fusion`` (``fusion.py``), sends runs to a SandboxFusion service;
the interface (:mod:`pac_verl.verifiers.sandbox`) picks one by the settings.

The report comes back through a private temporary file passed as a file descriptor. It is read
only after the run's whole process tree is dead, and only up to a bound (``types.report_limit``:
16 MiB plus 8 bytes per byte of stdout kept; over it the run is ``output_limit`` and nothing is
read), and it counts only as the one line the harness sealed (``harness.unseal``): whatever else a
program or its children write there spoils the report, and no MAC can be made without the run's
token. In strict and namespaces modes, file locks are no-ops and change notifications are denied
(``seccomp.py``): the read-only mounts and device nodes are the host's own inodes, so a lock on
one would be a channel between runs.

If the machine cannot give the level asked for, the first run raises :class:`SandboxUnavailable`
(a ``UserError``) naming what is missing and how to get it: there is no silent downgrade.
:func:`isolation_report` returns what is active (through the interface's, for ``run.json``,
the preflight and metrics).

Why bubblewrap and not nsjail: both are maintained and both do the namespace work, but bubblewrap
is a Debian/Ubuntu package (``apt-get install bubblewrap``, what Flatpak runs on), while nsjail
has no Debian 12 package (``apt-cache search nsjail`` finds nothing) and is built from source
with protobuf and libnl; bubblewrap takes a
seccomp program as compiled BPF on a file descriptor, which libseccomp builds, and leaves cgroup
limits to the caller, which this module does anyway to read CPU time. nsjail's extras (its own
cgroup handling, a config language) are not needed here.

Timeouts are decided by CPU time (the cgroup's, whole tree), with the wall clock as a generous
backstop; a run that hit the wall clock without using its CPU budget is run once more, with twice
the wall-clock time. A scoring call's :class:`Budget` bounds it all: the slot wait, and
the run with its retry, whose CPU limit and wall clock are cut to fit. A node-wide concurrency
limit (``slots.py``) keeps runs from starving each other: the same programs get the same
verdicts alone and 24 at a time on 2 cores.

The interpreter is a setting (``python``; default: this interpreter); its prefix folders are
mounted read-only. BigCodeBench tasks import about 70 pinned libraries; on every training node
build that environment once and point the sandbox at it::

    python3.11 -m venv /opt/bcb && /opt/bcb/bin/pip install -r requirements-eval.txt
    python -m pac_verl.main ... reward.custom_reward_function.reward_kwargs.sandbox.python=/opt/bcb/bin/python
"""

from __future__ import annotations

import contextlib
import json
import marshal
import os
import secrets
import select
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from functools import cache
from pathlib import Path

from pac_verl.verifiers.sandbox import cgroup as sandbox_cgroup
from pac_verl.verifiers.sandbox import seccomp as sandbox_seccomp
from pac_verl.verifiers.sandbox import slots as sandbox_slots
from pac_verl.verifiers.sandbox.harness import unseal, unseal_answer
from pac_verl.verifiers.sandbox.settings import SandboxSettings
from pac_verl.verifiers.sandbox.types import (
    Budget,
    Limits,
    RunResult,
    SandboxUnavailable,
    SessionEnded,
    report_limit,
)

HARNESS = Path(__file__).with_name("harness.py")
INSIDE_HARNESS = "/pac/harness.py"  # the name its code object carries (tracebacks, ps)
# reads the compiled harness from stdin and runs it as __main__; it then reads the job from stdin
BOOTSTRAP = (
    "import marshal, sys; exec(marshal.load(sys.stdin.buffer), "
    f"{{'__name__': '__main__', '__file__': {INSIDE_HARNESS!r}}})"
)
INSIDE_WORKDIR = "/tmp/work"


def _bwrap_path() -> str | None:
    return os.environ.get("PAC_SANDBOX_BWRAP") or shutil.which("bwrap")


def _interpreter(python: str | None, settings: SandboxSettings) -> str:
    return python or settings.python or sys.executable


def isolation_report(settings: SandboxSettings, python: str | None = None) -> dict:
    """What a local run gets with ``settings``: isolation level, cgroup version, interpreter.
    Raises SandboxUnavailable like a run would."""
    mode, python = settings.isolation, _interpreter(python, settings)
    require(mode, _bwrap_path(), python)
    cgroup = sandbox_cgroup.layout()[0] if mode == "strict" else None
    return {"backend": "local", "isolation": mode, "cgroup": cgroup, "python": python,
            "concurrency": sandbox_slots.capacity(settings.concurrency)}  # fmt: skip


@cache
def _interpreter_info(python: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """(the interpreter's prefix folders, a venv and its base, to mount read-only; its
    site-packages folders)."""
    probe = (
        "import sys, os, json, site; print(json.dumps([[sys.prefix, sys.base_prefix, "
        "sys.exec_prefix, sys.base_exec_prefix, os.path.dirname(os.path.realpath(sys.executable))],"
        " site.getsitepackages()]))"
    )
    out = subprocess.run([python, "-I", "-c", probe], capture_output=True, timeout=30,
                         check=True, text=True).stdout  # fmt: skip
    prefixes, site_dirs = json.loads(out)
    dirs = {os.path.realpath(d) for d in prefixes} | set(prefixes)  # a venv path may be a link
    mounts = tuple(sorted(d for d in dirs if d and not d.startswith("/usr/") and d != "/usr"))
    return mounts, tuple(site_dirs)


@cache
def _harness_code(python: str) -> bytes:
    """The harness compiled by ``python`` itself (a code object's marshal format is the
    interpreter's own), as marshal bytes."""
    compiler = (
        "import marshal, sys; src = open(sys.argv[1], encoding='utf-8').read(); "
        "sys.stdout.buffer.write(marshal.dumps(compile(src, sys.argv[2], 'exec')))"
    )
    return subprocess.run([python, "-I", "-S", "-c", compiler, str(HARNESS), INSIDE_HARNESS],
                          capture_output=True, timeout=60, check=True).stdout  # fmt: skip


@cache
def require(mode: str, bwrap: str | None, python: str) -> None:
    """Check once per process that ``mode`` works here; raise SandboxUnavailable naming the fix."""
    if mode == "none":
        _interpreter_runs(python)
        return
    if not sys.platform.startswith("linux"):
        raise SandboxUnavailable(f"sandbox isolation {mode!r} needs Linux")
    if not bwrap or not os.access(bwrap, os.X_OK):
        raise SandboxUnavailable(
            f"sandbox isolation {mode!r} needs bubblewrap, which is not installed "
            f"({bwrap or 'bwrap not on PATH'}): run `sudo apt-get install bubblewrap` (or `bash "
            "scripts/setup_system.sh`), or set PAC_SANDBOX_BWRAP to its path"
        )
    try:
        sandbox_seccomp.bpf_program()
    except sandbox_seccomp.SeccompUnavailable as err:
        raise SandboxUnavailable(
            f"sandbox isolation {mode!r} needs libseccomp: {err}; run `sudo apt-get install "
            "libseccomp2` and `pip install pyseccomp`"
        ) from None
    if mode == "strict":
        reason = sandbox_cgroup.unavailable_reason()
        if reason is not None:
            raise SandboxUnavailable(
                f"sandbox isolation 'strict' needs cgroups for whole-tree limits: {reason}. Run "
                "the trainer as root or inside a delegated cgroup (systemd-run --scope -p "
                "Delegate=yes ...), or ask for isolation 'namespaces' by name "
                "(reward.custom_reward_function.reward_kwargs.sandbox.isolation=namespaces in "
                "training, PAC_SANDBOX_ISOLATION=namespaces outside it)"
            )
    dirs = _interpreter_runs(python)
    job = {"kind": "functional", "code": "x = 1", "names": ["x"], "calls": []}
    result = _run_once(job, Limits(wall_seconds=30, cpu_seconds=10), python, mode, bwrap, dirs, 0)
    if result.reason != "ok":
        raise SandboxUnavailable(
            f"sandbox isolation {mode!r} does not start on this machine ({result.reason}: "
            f"{result.detail.strip()[-300:]}); if user namespaces are disabled, enable them "
            "(sysctl kernel.unprivileged_userns_clone=1) or run as root"
        )


def _interpreter_runs(python: str) -> tuple[str, ...]:
    """Probe the interpreter and compile the harness with it (both cached); its folders to mount."""
    try:
        _harness_code(python)
        return _interpreter_info(python)[0]
    except (OSError, subprocess.SubprocessError, ValueError) as err:
        raise SandboxUnavailable(f"the sandbox interpreter {python} does not run: {err}") from None


def _python_args(python: str, kind: str) -> list[str]:
    """Code-R1 programs (functional, stdio) start without ``site`` (no .pth files run, which
    halves the start-up of a large venv); the harness puts site-packages on the path itself.
    BigCodeBench (unittest) gets the interpreter's full start-up."""
    return [python, "-I", "-B"] + (["-S"] if kind != "unittest" else []) + ["-c", BOOTSTRAP]


def _bwrap_command(
    bwrap: str, dirs: tuple[str, ...], python: str, seccomp_fd: int, kind: str
) -> list[str]:
    cmd = [bwrap, "--die-with-parent", "--new-session", "--unshare-pid", "--unshare-ipc",
           "--unshare-net", "--unshare-uts", "--unshare-cgroup-try", "--hostname", "sandbox",
           "--seccomp", str(seccomp_fd), "--ro-bind", "/usr", "/usr"]  # fmt: skip
    if os.geteuid() != 0:
        cmd += ["--unshare-user", "--disable-userns"]
    for top in ("/bin", "/sbin", "/lib", "/lib64", "/lib32", "/libx32"):
        if os.path.islink(top):
            cmd += ["--symlink", os.readlink(top), top]
        elif os.path.isdir(top):
            cmd += ["--ro-bind", top, top]
    for f in ("/etc/ld.so.cache", "/etc/localtime", "/etc/alternatives"):
        cmd += ["--ro-bind-try", f, f]
    # the fresh /proc, /dev and /tmp come before the interpreter's folders, so that an interpreter
    # that lives under /tmp (a CI clone's venv) is mounted over the private /tmp, not hidden by it
    cmd += ["--proc", "/proc", "--tmpfs", "/dev", "--dev-bind", "/dev/null", "/dev/null",
            "--dev-bind", "/dev/zero", "/dev/zero", "--dev-bind", "/dev/urandom", "/dev/urandom",
            "--symlink", "/proc/self/fd", "/dev/fd", "--symlink", "/proc/self/fd/0", "/dev/stdin",
            "--symlink", "/proc/self/fd/1", "/dev/stdout", "--symlink", "/proc/self/fd/2",
            "/dev/stderr", "--perms", "1777", "--tmpfs", "/dev/shm",
            "--perms", "1777", "--tmpfs", "/tmp"]  # fmt: skip
    made: set[str] = set()
    # a folder inside another one of them is already there: one bind (and read-only remount) less
    dirs = tuple(
        d for d in dirs if not any(o != d and d.startswith(o.rstrip("/") + "/") for o in dirs)
    )
    for d in dirs:  # bubblewrap would copy a host parent's mode (0700 /root): make them 0755
        parts = Path(d).parts
        for i in range(2, len(parts)):
            parent = str(Path(*parts[:i]))
            if parent not in made:
                made.add(parent)
                cmd += ["--perms", "0755", "--dir", parent]
        cmd += ["--ro-bind", d, d]
    cmd += ["--remount-ro", "/", "--chdir", "/tmp"]
    return cmd + _python_args(python, kind)


# Joins the run's cgroups and sets the per-process limits, then execs the sandbox. A shell
# instead of a Python preexec_fn lets subprocess spawn with vfork, which a large trainer process
# (GBs of page tables to copy on fork) needs. ulimit units (dash): -t s, -f 512 B, -v KiB.
LAUNCHER = (
    'for g in $PAC_CGROUPS; do echo $$ > "$g" || exit 125; done; '
    "ulimit -c 0 && ulimit -t $PAC_CPU && ulimit -f $PAC_FSIZE && "
    '{ [ -z "$PAC_AS" ] || ulimit -v $PAC_AS; } && exec "$@"'
)


def _launch(cmd: list[str], limits: Limits, group) -> tuple[list[str], dict[str, str]]:
    env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
           "PAC_CGROUPS": " ".join(group.procs_files) if group is not None else "",
           "PAC_CPU": str(int(limits.cpu_seconds) + 1),
           "PAC_FSIZE": str(max(1, limits.file_bytes // 512)),
           "PAC_AS": "" if group is not None else str(limits.memory_mb * 1024)}  # fmt: skip
    return ["/bin/sh", "-c", LAUNCHER, "sh", *cmd], env


def run_job(
    job: dict,
    limits: Limits,
    settings: SandboxSettings,
    python: str | None = None,
    budget: Budget | None = None,
    converse=None,
) -> RunResult:
    """Run one job here (``kind`` functional | stdio | unittest, ``code``, and the names, inputs or
    tests) and return the harness's report, unjudged. ``limits`` are already clamped to the budget
    by the interface (:func:`pac_verl.verifiers.sandbox.run_job`, which documents the budget);
    ``python`` overrides the settings' interpreter. With ``converse`` (functional runs), the
    harness serves calls over a channel (:class:`_Session`) and the report is what ``converse``
    returns. Raises SandboxUnavailable (see above)."""
    mode, bwrap, python = settings.isolation, _bwrap_path(), _interpreter(python, settings)
    require(mode, bwrap, python)
    dirs = _interpreter_info(python)[0] if mode != "none" else ()
    until = None if budget is None else budget.queue_until
    try:
        with sandbox_slots.slot(until, sandbox_slots.capacity(settings.concurrency)) as slot:
            end = None if budget is None else time.monotonic() + budget.timeout_s
            first = _within(limits, end)
            result = _run_once(job, first, python, mode, bwrap, dirs, slot, converse)
            if result.reason == "wall_clock":  # starved, not slow: once more, with twice the time
                again = _within(replace(limits, wall_seconds=2 * limits.wall_seconds), end)
                if again.wall_seconds >= first.wall_seconds:
                    result = _run_once(job, again, python, mode, bwrap, dirs, slot, converse)
    except sandbox_slots.NoSlot:
        return RunResult("overloaded", "no sandbox slot came free within queue_s")
    return RunResult("timeout", "wall clock") if result.reason == "wall_clock" else result


def _within(limits: Limits, end: float | None) -> Limits:
    """``limits`` with the wall-clock backstop cut to the time left before ``end``."""
    if end is None:
        return limits
    return replace(limits, wall_seconds=max(0.0, min(limits.wall_seconds, end - time.monotonic())))


def _run_once(job, limits, python, mode, bwrap, dirs, slot, converse=None) -> RunResult:
    token = secrets.token_hex(16)
    private = tempfile.mkdtemp(prefix="pac-sandbox-")
    result_file = tempfile.TemporaryFile(dir=private)  # noqa: SIM115 (closed in finally)
    seccomp_r = seccomp_w = -1
    answers_r = answers_w = -1
    if converse is not None:  # a functional run's answers come back on a pipe, as they are made
        answers_r, answers_w = os.pipe()
        job = dict(job, serve=True)
    uid = int(os.environ.get("PAC_SANDBOX_UID_BASE", 61000)) + slot
    payload = dict(job, token=token, result_fd=result_file.fileno() if answers_w < 0 else answers_w,
                   output_bytes=limits.output_bytes, site_dirs=_interpreter_info(python)[1],
                   uid=uid if mode != "none" and os.geteuid() == 0 else None,
                   isolated=mode != "none",
                   workdir=INSIDE_WORKDIR if mode != "none" else os.path.join(private, "work"))  # fmt: skip
    fds = [result_file.fileno() if answers_w < 0 else answers_w]
    if mode == "none":
        cmd = _python_args(python, job["kind"])
    else:
        seccomp_r, seccomp_w = os.pipe()
        os.write(seccomp_w, sandbox_seccomp.bpf_program())  # < 64 KiB: fits the pipe
        os.close(seccomp_w)
        fds.append(seccomp_r)
        cmd = _bwrap_command(bwrap, dirs, python, seccomp_r, job["kind"])
    group = None
    proc = None
    stderr_path = Path(private, "stderr")
    try:
        if mode == "strict":
            group = sandbox_cgroup.RunGroup(limits.memory_mb, limits.max_processes)
        launch, env = _launch(cmd, limits, group)
        with open(stderr_path, "wb") as err_out:
            proc = subprocess.Popen(launch, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                    stderr=err_out, pass_fds=tuple(fds), start_new_session=True,
                                    cwd=private, env=env)  # fmt: skip
        if seccomp_r >= 0:
            os.close(seccomp_r)
            seccomp_r = -1
        if answers_w >= 0:
            os.close(answers_w)
            answers_w = -1
        with contextlib.suppress(BrokenPipeError, OSError):
            proc.stdin.write(_harness_code(python) + marshal.dumps(payload))
            proc.stdin.flush()
        if converse is not None:
            return _converse(proc, group, limits, answers_r, converse, token)
        with contextlib.suppress(BrokenPipeError, OSError):
            proc.stdin.close()
        stop = _watch(proc, group, limits)
        _kill(proc, group)
        if stop:
            return RunResult(stop)
        if group is not None and group.out_of_memory():
            return RunResult("memory")
        if proc.returncode == -signal.SIGXCPU:
            return RunResult("timeout", "cpu")
        size = os.fstat(result_file.fileno()).st_size
        if size > report_limit(limits):
            return RunResult("output_limit", f"{size} bytes in the report channel")
        report = _read_report(result_file, token, size)
        if report is not None and proc.returncode == 0:
            return RunResult("ok", report=report)
        if proc.returncode == -signal.SIGXFSZ:
            return RunResult("output_limit")
        return RunResult("no_result", f"exit status {proc.returncode}: {_tail(stderr_path)}")
    except OSError as err:
        return RunResult("sandbox_error", str(err))
    finally:
        if proc is not None:
            _kill(proc, group)
        if group is not None:
            group.remove()
        if seccomp_r >= 0:
            os.close(seccomp_r)
        for fd in (answers_r, answers_w):
            if fd >= 0:
                os.close(fd)
        result_file.close()
        shutil.rmtree(private, ignore_errors=True)


def _converse(proc, group, limits: Limits, answers: int, converse, token: str) -> RunResult:
    """A functional run: ``converse`` talks to the harness over a :class:`_Session` while the run
    is watched as :func:`_watch` watches a run; the report is what ``converse`` returns."""
    session = _Session(proc, group, limits, answers, token)
    try:
        report = converse(session)
        stop = None
    except SessionEnded as end:
        report, stop = {}, end.reason
    finally:
        with contextlib.suppress(BrokenPipeError, OSError):
            proc.stdin.close()  # the harness ends at the end of its requests
        _kill(proc, group)
        session.close()
    if group is not None and group.out_of_memory():
        return RunResult("memory")
    if stop is None and group is not None and group.cpu_seconds() > limits.cpu_seconds:
        stop = "timeout"  # ended over its CPU budget between two checks
    return RunResult(stop) if stop else RunResult("ok", report=report)


class _Session:
    """The judge's side of a functional run's channel (``judge.functional_session``): requests
    (length-prefixed marshal) go to the harness's stdin, answers come back one JSON line each on a
    pipe, each sealed with a MAC under the run's token over its place in the conversation and its
    body (``harness.unseal_answer``). The program shares the harness's process and its forks
    inherit the pipe, so they can write lines into it; an answer is a value the program chose
    anyway (the checker compares it), but a line the call server did not write, or one out of
    place, ends the run (``no_result``): the program and its children can spoil the conversation,
    never answer a request in the server's name. Every wait watches the run as :func:`_watch` does: over its CPU budget (``timeout``),
    past the wall clock (``wall_clock`` if it used little CPU, for a retry), ended (``no_result``),
    an answer over ``MAX_ANSWER`` bytes (``output_limit``). ``wait(fd, tests_cpu)``, for the
    judge's own checker, also ends the run when the tests use more CPU time than the program may
    (``tests_timeout``: a bad ground truth, not the program's fault)."""

    MAX_ANSWER = 16 << 20
    CPU_EVERY = 0.05  # seconds between two reads of the cgroup's CPU time

    def __init__(self, proc, group, limits: Limits, answers: int, token: str) -> None:
        self.proc, self.group, self.limits, self.answers = proc, group, limits, answers
        self.token, self.lines = token, 0  # answer lines taken so far
        self.start = self.cpu_read = time.monotonic()
        self.requests = proc.stdin.fileno()
        os.set_blocking(self.requests, False)
        os.set_blocking(answers, False)
        self.buf = bytearray()
        try:
            self.pidfd = os.pidfd_open(proc.pid)
        except (AttributeError, OSError):
            self.pidfd = -1

    def close(self) -> None:
        if self.pidfd >= 0:
            os.close(self.pidfd)
            self.pidfd = -1

    def _over_cpu(self) -> bool:
        return self.group is not None and self.group.cpu_seconds() > self.limits.cpu_seconds

    def _ended(self) -> str:
        """Why the harness ended mid-conversation: its CPU budget (the cgroup's, or the rlimit's
        SIGXCPU, which bubblewrap passes on as 128 + the signal), else it gave no result."""
        if self._over_cpu():
            return "timeout"
        with contextlib.suppress(ChildProcessError, OSError):
            info = os.waitid(os.P_PID, self.proc.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG)
            if info is not None and signal.SIGXCPU in (info.si_status, info.si_status - 128):
                return "timeout"
        return "no_result"

    def _wait(self, fd: int, events: int, tests_cpu=None) -> None:
        poller = select.poll()
        poller.register(fd, events)
        if self.pidfd >= 0 and tests_cpu is None:
            poller.register(self.pidfd, select.POLLIN)
        while True:
            ready = {f for f, _ in poller.poll(50)}
            now = time.monotonic()
            if fd in ready:
                return
            if self.pidfd in ready or (self.pidfd < 0 and _exited(self.proc)):
                raise SessionEnded(self._ended())
            if now - self.cpu_read >= self.CPU_EVERY:
                self.cpu_read = now
                if self._over_cpu():
                    raise SessionEnded("timeout")
                if tests_cpu is not None and tests_cpu() > self.limits.cpu_seconds:
                    raise SessionEnded("tests_timeout")
            if now - self.start > self.limits.wall_seconds:
                used = 0.0 if self.group is None else self.group.cpu_seconds()
                if self.group is None or used >= 0.9 * self.limits.cpu_seconds:
                    raise SessionEnded("timeout")
                raise SessionEnded("wall_clock")

    def wait(self, fd: int, tests_cpu) -> None:
        """Block until ``fd`` (the judge's checker's) is readable, watching the run and the
        checker's CPU time (``tests_cpu()``, seconds): tests that use more than the program may
        are ``tests_timeout``."""
        self._wait(fd, select.POLLIN, tests_cpu)

    def _read(self):
        while True:
            end = self.buf.find(b"\n")
            if end >= 0:
                line = unseal_answer(bytes(self.buf[:end]), self.token, self.lines)
                del self.buf[: end + 1]
                self.lines += 1
                if line is None:  # not the harness's next answer: the program or a child wrote it
                    raise SessionEnded("no_result")
                try:
                    return json.loads(line)
                except (ValueError, RecursionError):
                    raise SessionEnded("no_result") from None
            self._wait(self.answers, select.POLLIN)
            try:
                data = os.read(self.answers, 1 << 20)
            except BlockingIOError:
                continue
            if not data:
                raise SessionEnded(self._ended())
            self.buf += data
            if len(self.buf) > self.MAX_ANSWER:
                raise SessionEnded("output_limit")

    def ready(self):
        """The harness's first line: ``["ready", names]`` or ``["raise", name]``."""
        return self._read()

    def call(self, request: bytes):
        """One request (marshal bytes) and its answer (parsed JSON)."""
        data = len(request).to_bytes(4, "big") + request
        while data:
            self._wait(self.requests, select.POLLOUT)
            try:
                data = data[os.write(self.requests, data) :]
            except BlockingIOError:
                continue
            except (BrokenPipeError, OSError):
                raise SessionEnded(self._ended()) from None
        return self._read()


def _watch(proc: subprocess.Popen, group, limits: Limits) -> str | None:
    """Wait for the run; ``timeout`` when the tree used its CPU budget (checked while it runs and
    once more when it ends: a run that ends between two checks after passing the budget must not
    pass), ``wall_clock`` when the backstop hit first (the caller retries that once), None when it
    ended by itself within its budget. Waits on a pidfd, so a run is seen to end the moment it
    does."""
    start = time.monotonic()
    try:
        pidfd = os.pidfd_open(proc.pid)
    except (AttributeError, OSError):
        pidfd = -1
    poller = select.poll()
    if pidfd >= 0:
        poller.register(pidfd, select.POLLIN)
    try:
        while True:
            if pidfd >= 0:
                poller.poll(50)
            if _exited(proc):  # a run that ended over its CPU budget timed out all the same
                over = group is not None and group.cpu_seconds() > limits.cpu_seconds
                return "timeout" if over else None
            if pidfd < 0:
                time.sleep(0.005)
            if group is not None and group.cpu_seconds() > limits.cpu_seconds:
                return "timeout"
            if time.monotonic() - start > limits.wall_seconds:
                if group is None or group.cpu_seconds() >= 0.9 * limits.cpu_seconds:
                    return "timeout"
                return "wall_clock"
    finally:
        if pidfd >= 0:
            os.close(pidfd)


def _exited(proc: subprocess.Popen) -> bool:
    """Whether the launcher ended, without reaping it: until it is reaped its pid (and so its
    process group id) cannot be reused, so the group kill below cannot hit another process."""
    if proc.returncode is not None:
        return True
    try:
        return os.waitid(os.P_PID, proc.pid, os.WEXITED | os.WNOWAIT | os.WNOHANG) is not None
    except ChildProcessError:
        return True


def _kill(proc: subprocess.Popen, group) -> None:
    """Kill bubblewrap (its pid-1 child dies with it, and with that every process of the
    namespace), the process group, then anything left in the cgroup."""
    if proc.returncode is None:  # not reaped yet: the group id is still ours
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=10)
    if group is not None:
        group.kill()


def _read_report(f, token: str, size: int) -> dict | None:
    """The run's report (``size`` bytes, within the bound), or None: see ``harness.unseal``."""
    f.seek(0)
    return unseal(f.read(size), token)


def _tail(path: Path, n: int = 400) -> str:
    """The last ``n`` bytes of a file the run wrote to (its stderr), read without the rest."""
    with open(path, "rb") as f:
        f.seek(max(0, os.fstat(f.fileno()).st_size - n))
        return f.read(n).decode("utf-8", "replace")

"""Killable scoring workers: every call answers within its deadline, in any thread
(docs/concepts/spec.md#rewards).

A scorer that hangs (sympy's big-integer work holds the GIL, so no thread and no signal can stop it)
must not stall the caller: verl 0.7.1's reward loop runs several Ray actors, each an asyncio loop that
awaits an ``async`` reward function and runs a sync one in its default thread pool. So the scorers
run in worker processes and the caller only waits on a pipe, with a deadline:

- :meth:`ScoringPool.score` (sync, any thread) and :meth:`ScoringPool.score_async` (an asyncio loop:
  the pipe is watched with ``loop.add_reader``, no thread is held) send one job to an idle worker and
  wait for the answer, watching the worker's CPU time (``/proc/<pid>/stat``), read only when the
  bound could have been reached. Two bounds, told apart because they mean different things
  (docs/guides/rewards.md#bounded-grading): a worker that has used ``cpu_s`` seconds of CPU on
  this answer is killed (SIGKILL) and the answer scores 0 with reason ``too_complex``, a verdict:
  what it contains needs more work than any answer may take, on any machine. A worker still short
  of that at ``timeout_s`` of wall time was starved by the machine: it is killed and the call scores
  ``grader_timeout``, with no verdict. A worker that dies (a crash, the OOM killer) gives
  ``worker_crashed``, no verdict either; one that hits its own memory cap answers ``too_complex``
  (the answer made the grader allocate without bound). A fresh worker replaces a killed one when
  one is next needed; the reward marks the calls without a verdict unscored (:mod:`.reward`).
- Waiting for a free worker (all ``workers`` busy, or the zygote's one-time start-up) is not charged
  to the answer: an ordinary answer queued behind slow ones must not score 0. It is bounded by
  ``queue_s``: a call that gets no worker by then scores 0 with reason ``overloaded``, unscored too
  (too few workers for the load: raise ``workers``). A call thus returns within
  ``queue_s + timeout_s``.
- No task type waits behind another's: a worker that comes free goes to the oldest
  waiting call of the type that holds the fewest workers, types that hold as many taking turns,
  so with a flood of slow answers of one type (sympy hanging on a hundred math answers) a call of
  another type waits for the next worker to come free, not for the whole flood. And nothing of
  the pool runs on the caller's threads: in an asyncio loop, a worker's start-up (the fork
  request to the zygote, its one-time imports the first time) runs on the pool's own threads,
  never on the loop's default executor, which verl's reward loop shares with every response's
  decoding (a sandbox run waiting there would hold up every other answer: twelve correct Zebra
  answers behind sixteen endless programs would score ``overloaded``).
- Workers are started on demand, up to ``workers`` at once, by a *zygote*: one
  ``python -c`` process that imports the scorers once and forks a worker
  per request, handing its socket back over ``SCM_RIGHTS`` (the caller is threaded - a Ray actor
  is - so it must not fork itself; a fresh interpreter per worker would cost ~2 s of imports, a
  fork costs milliseconds; multiprocessing's forkserver would re-run the caller's ``__main__`` -
  Ray's worker script - in every worker). The zygote also kills and reaps its workers, so a pid is
  never reused under the pool.
- Nothing is left behind: :meth:`close` (also run at interpreter exit) kills every worker and the
  zygote; the zygote exits when the caller's end of its control socket closes (the caller died),
  and each worker asks the kernel to kill it when the zygote dies (``PR_SET_PDEATHSIG``), so a
  killed Ray actor takes its workers with it even mid-hang.
- Each worker's address space is capped (``memory_mb``): an answer that makes sympy allocate without
  bound fails with ``MemoryError`` (scored ``error`` by the dispatcher) instead of swapping the node.

One pool per process (:func:`shared_pool`); a forked child never uses its parent's workers.

Code answers do not come here: their program already runs in a sandbox process, which a thread of
the reward's own code executor waits on under the same two bounds (``queue_s`` for a thread and a
node sandbox slot, then ``timeout_s`` for the runs: :class:`~.sandbox.Budget`), with the reasons
``overloaded`` (unscored) and ``timeout`` (a verdict: the program is too slow).
``compute_scores`` (``pac-verl prep check``, the builders' gold checks) uses this pool too, so no
scorer runs unbounded in the checking process.
"""

from __future__ import annotations

import asyncio
import atexit
import collections
import contextlib
import ctypes
import math
import os
import resource
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection

from pac_verl.verifiers.dispatch import score
from pac_verl.verifiers.verdict import Verdict, fail

_PR_SET_PDEATHSIG = 1
_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
_MIN_SLICE_S = 0.05  # the shortest wait between two reads of a worker's CPU time


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) the process ``pid`` has used so far; 0 when unknown."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            fields = f.read().rsplit(b")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, IndexError, ValueError):
        return 0.0


# the zygote's command line: python -c _ZYGOTE_MAIN CTRL_FD MEMORY_MB PARENT_PID
_ZYGOTE_MAIN = (
    "import sys; from pac_verl.verifiers.pool import _zygote; _zygote(*map(int, sys.argv[1:]))"
)


@dataclass(frozen=True)
class Limits:
    """The reward's time and worker settings; the Hydra config's ``null`` means these defaults."""

    # hard bound on scoring one answer in its worker (docs/concepts/spec.md#rewards)
    timeout_s: float = 10.0
    # CPU seconds one answer's grading may use (then "too_complex", a verdict); at most timeout_s
    cpu_s: float = 5.0
    queue_s: float = 60.0  # bound on waiting for a free worker (then reason "overloaded")
    workers: int = 0  # most worker processes at once; 0: the CPUs this process may use, at most 16
    memory_mb: int = 4096  # address-space cap of one worker

    def worker_count(self) -> int:
        if self.workers > 0:
            return self.workers
        return max(1, min(16, len(os.sched_getaffinity(0))))


def _die_with_parent(parent_pid: int) -> None:
    """Ask the kernel for SIGKILL when the parent dies, even while a scorer holds the GIL."""
    with contextlib.suppress(OSError, AttributeError):
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent_pid:  # the parent died before the request took effect
        os._exit(0)


def _serve(conn: Connection, memory_mb: int) -> None:
    """Worker main: score jobs from ``conn`` until it closes."""
    if memory_mb > 0:
        limit = memory_mb * 1024 * 1024
        resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    while True:
        try:
            task_type, solution_str, ground_truth, question, forms = conn.recv()
        except (EOFError, OSError):
            return
        try:
            verdict = score(task_type, solution_str, ground_truth, question=question, forms=forms)
            answer = (verdict.score, verdict.reason)
        except MemoryError:  # the answer made the grader allocate past memory_mb: its content
            answer = (0.0, "too_complex")
        try:
            conn.send(answer)
        except (OSError, ValueError):
            return


def _zygote(ctrl_fd: int, memory_mb: int, parent_pid: int) -> None:
    """Zygote main: fork a worker on ``F``, kill and reap one on ``K<pid>``; exit on EOF.

    No parent-death signal here: it fires when the *thread* that started the zygote ends (an
    executor thread), not the process. The zygote never runs a scorer and only ever waits in
    ``recv`` on the control socket, so the caller's death reaches it as EOF."""
    if os.getppid() != parent_pid:  # the caller died while the zygote started
        os._exit(0)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the caller's to handle
    # preload: every fork starts with the scorers warm
    score("math", "\\boxed{\\sqrt{2}}", "2^{1/2}")  # imports math-verify, sympy, the parser

    me = os.getpid()
    ctrl = socket.socket(fileno=ctrl_fd)
    while True:
        try:
            request = ctrl.recv(64)
        except OSError:
            request = b""
        if not request:
            os._exit(0)  # workers follow through their parent-death signal
        if request[:1] == b"K":
            pid = int(request[1:])
            try:
                os.kill(pid, signal.SIGKILL)
                os.waitpid(pid, 0)
            except (ProcessLookupError, ChildProcessError):
                pass
            ctrl.sendall(b"k")
            continue
        ours, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:  # the worker
            try:
                ctrl.close()
                ours.close()
                _die_with_parent(me)
                _serve(Connection(theirs.detach()), memory_mb)
            finally:
                os._exit(0)
        theirs.close()
        socket.send_fds(ctrl, [struct.pack("i", pid)], [ours.fileno()])
        ours.close()
        for _ in range(8):  # reap workers that ended on their own, without blocking
            try:
                if os.waitpid(-1, os.WNOHANG)[0] == 0:
                    break
            except ChildProcessError:
                break


@dataclass(eq=False)
class _Worker:
    pid: int
    conn: Connection


@dataclass
class PoolStats:
    jobs: int = 0
    timeouts: int = 0
    overloaded: int = 0
    crashed: int = 0
    too_complex: int = 0
    started: int = 0
    reasons: collections.Counter = field(default_factory=collections.Counter)


class _SyncWaiter:
    def __init__(self, task_type: str) -> None:
        self.task_type = task_type
        self.event = threading.Event()

    def grant(self) -> bool:
        self.event.set()
        return True


class _AsyncWaiter:
    def __init__(self, pool: ScoringPool, task_type: str) -> None:
        self.pool, self.task_type = pool, task_type
        self.loop = asyncio.get_running_loop()
        self.future = self.loop.create_future()

    def grant(self) -> bool:
        try:
            self.loop.call_soon_threadsafe(self._resolve)
        except RuntimeError:  # the waiter's loop is closed: give the slot to the next one
            return False
        return True

    def _resolve(self) -> None:
        if self.future.done():  # cancelled meanwhile: pass the slot on
            self.pool._release_slot(self.task_type)
        else:
            self.future.set_result(None)


class _Job:
    """One job's trip through a worker, the part :meth:`ScoringPool.score` and
    :meth:`ScoringPool.score_async` share. In the ``with`` block the caller takes a worker, sends
    the job and waits its own way, in slices (:meth:`slice`) until the answer comes, the worker
    has used ``cpu_s`` of CPU (:meth:`over_cpu`) or ``timeout_s`` has passed; leaving it reads the
    answer (else ``too_complex`` past the CPU bound, ``grader_timeout`` short of it; a pipe error
    is ``worker_crashed``), puts the worker back (killed unless it answered), frees the slot and
    counts the verdict. Any other exception (a cancelled coroutine) kills the worker and goes on."""

    def __init__(
        self,
        pool: ScoringPool,
        job: tuple[str, str, str, tuple[str, ...], tuple[str, ...]],
        timeout_s: float,
        cpu_s: float,
    ) -> None:
        self.pool, self.job, self.task_type = pool, job, job[0]
        self.worker: _Worker | None = None
        self.answered = False
        self.too_complex = False
        self.verdict: Verdict | None = None
        self.timeout_s, self.cpu_s = timeout_s, min(cpu_s, timeout_s)
        self.deadline = math.inf
        self.cpu_at_start = 0.0

    def send(self, worker: _Worker) -> None:
        self.worker = worker
        self.cpu_at_start = cpu_seconds(worker.pid)
        self.deadline = time.monotonic() + self.timeout_s
        worker.conn.send(self.job)

    def slice(self) -> float:
        """How long to wait before the CPU bound or the deadline could have been reached (one
        thread cannot use CPU faster than the clock runs)."""
        left = self.deadline - time.monotonic()
        used = cpu_seconds(self.worker.pid) - self.cpu_at_start
        return max(0.0, min(left, max(self.cpu_s - used, _MIN_SLICE_S)))

    def over_cpu(self) -> bool:
        """Whether the worker has used its CPU bound on this answer."""
        self.too_complex = cpu_seconds(self.worker.pid) - self.cpu_at_start >= self.cpu_s
        return self.too_complex

    def done_waiting(self) -> bool:
        return self.answered or self.over_cpu() or time.monotonic() >= self.deadline

    def __enter__(self) -> _Job:
        return self

    def __exit__(self, kind, err, traceback) -> bool:
        healthy = False
        try:
            if kind is None and self.answered:
                self.verdict = Verdict(*self.worker.conn.recv())
                healthy = True
            elif kind is None:
                self.verdict = fail("too_complex" if self.too_complex else "grader_timeout")
            elif issubclass(kind, (EOFError, OSError)):
                self.verdict = fail("worker_crashed")
        except (EOFError, OSError):
            self.verdict = fail("worker_crashed")
        finally:
            self.pool._put_back(self.worker, healthy, self.task_type)
        if self.verdict is not None:
            self.pool._count(self.verdict)
        return self.verdict is not None  # a pipe error ends here; anything else goes on


class ScoringPool:
    """Worker processes that score one job each at a time; see the module docstring."""

    def __init__(self, workers: int, memory_mb: int = Limits.memory_mb) -> None:
        self.max_workers = max(1, int(workers))
        self.memory_mb = int(memory_mb)
        self.stats = PoolStats()
        self._lock = threading.Lock()
        self._zygote_lock = threading.Lock()
        self._zygote: subprocess.Popen | None = None
        self._ctrl: socket.socket | None = None
        self._free = self.max_workers  # slots: workers that may be busy at once
        self._waiters: dict[str, collections.deque] = collections.defaultdict(collections.deque)
        self._busy: collections.Counter = collections.Counter()  # slots held per task type
        self._turns = 0  # slots handed out so far
        self._last_turn: dict[str, int] = {}  # task type -> the number of its last slot
        self._idle: list[_Worker] = []
        self._live: set[_Worker] = set()
        self._closed = False
        self.pid = os.getpid()
        # the pool's own threads: a worker's start-up in an asyncio caller (one per slot at most)
        self._threads = ThreadPoolExecutor(self.max_workers, thread_name_prefix="scoring-pool")

    # ----- slots: a freed one goes to the waiting type that holds the fewest, in turn -----
    def _hand_out(self, task_type: str) -> None:
        self._busy[task_type] += 1
        self._turns += 1
        self._last_turn[task_type] = self._turns

    def _release_slot(self, task_type: str) -> None:
        with self._lock:
            self._busy[task_type] -= 1
            while True:
                queued = [t for t, q in self._waiters.items() if q]
                if not queued:
                    self._free += 1
                    return
                # fewest held first; among equals, the type served longest ago (types take turns)
                turn = min(queued, key=lambda t: (self._busy[t], self._last_turn.get(t, 0)))
                waiter = self._waiters[turn].popleft()
                self._hand_out(turn)
                if waiter.grant():
                    return
                self._busy[turn] -= 1  # its loop is gone: the next one

    def _try_slot(self, task_type: str) -> bool:
        if self._free > 0:
            self._free -= 1
            self._hand_out(task_type)
            return True
        return False

    def _acquire_sync(self, deadline: float, task_type: str) -> bool:
        with self._lock:
            if self._try_slot(task_type):
                return True
            waiter = _SyncWaiter(task_type)
            self._waiters[task_type].append(waiter)
        if waiter.event.wait(max(0.0, deadline - time.monotonic())):
            return True
        with self._lock:
            if waiter in self._waiters[task_type]:
                self._waiters[task_type].remove(waiter)
                return False
        return True  # granted just as the wait ended

    async def _acquire_async(self, deadline: float, task_type: str) -> bool:
        with self._lock:
            if self._try_slot(task_type):
                return True
            waiter = _AsyncWaiter(self, task_type)
            self._waiters[task_type].append(waiter)
        try:
            await asyncio.wait_for(waiter.future, max(0.0, deadline - time.monotonic()))
            return True
        except (asyncio.TimeoutError, asyncio.CancelledError) as err:
            with self._lock:
                queued = waiter in self._waiters[task_type]
                if queued:
                    self._waiters[task_type].remove(waiter)
            if not queued and waiter.future.done() and not waiter.future.cancelled():
                self._release_slot(task_type)  # granted, but we are leaving
            if isinstance(err, asyncio.CancelledError):
                raise
            return False

    # ----- workers -----
    def _ask_zygote(self, request: bytes) -> tuple[bytes, list[int]]:
        with self._zygote_lock:
            if self._zygote is None or self._zygote.poll() is not None:
                if request[:1] == b"K":
                    return b"k", []  # its workers died with it
                if self._closed:  # a call in flight as the pool closed: start nothing new
                    raise OSError("scoring pool is closed")
                self._start_zygote()
            self._ctrl.sendall(request)
            if request[:1] == b"K":
                return self._ctrl.recv(1), []
            data, fds, _, _ = socket.recv_fds(self._ctrl, 16, 1)
            if not data:
                raise OSError("the scoring zygote exited")
            return data, fds

    def _start_zygote(self) -> None:
        ours, theirs = socket.socketpair()
        args = [str(theirs.fileno()), str(self.memory_mb), str(os.getpid())]
        # the caller's own import path: a Ray actor's may differ from the environment's
        path = os.pathsep.join(p for p in sys.path if p)
        self._zygote = subprocess.Popen(
            [sys.executable, "-c", _ZYGOTE_MAIN, *args],
            pass_fds=[theirs.fileno()],
            stdin=subprocess.DEVNULL,
            env={**os.environ, "PYTHONPATH": path},
        )
        theirs.close()
        if self._ctrl is not None:
            self._ctrl.close()
        self._ctrl = ours

    def _take_worker(self) -> _Worker:
        with self._lock:
            if self._closed:  # OSError: the call scores worker_crashed, it never raises
                raise OSError("scoring pool is closed")
            if self._idle:
                return self._idle.pop()
        data, fds = self._ask_zygote(b"F")
        worker = _Worker(struct.unpack("i", data[:4])[0], Connection(fds[0]))
        with self._lock:
            self._live.add(worker)
            self.stats.started += 1
        return worker

    def _put_back(self, worker: _Worker | None, healthy: bool, task_type: str) -> None:
        if worker is not None:
            if healthy and not self._closed:
                with self._lock:
                    self._idle.append(worker)
            else:
                self._discard(worker)
        self._release_slot(task_type)

    def _discard(self, worker: _Worker) -> None:
        with self._lock:
            self._live.discard(worker)
        worker.conn.close()
        with contextlib.suppress(OSError):
            self._ask_zygote(f"K{worker.pid}".encode())

    def _count(self, verdict: Verdict) -> Verdict:
        with self._lock:
            self.stats.jobs += 1
            self.stats.reasons[verdict.reason] += 1
            if verdict.reason == "grader_timeout":
                self.stats.timeouts += 1
            elif verdict.reason == "overloaded":
                self.stats.overloaded += 1
            elif verdict.reason == "worker_crashed":
                self.stats.crashed += 1
            elif verdict.reason == "too_complex":
                self.stats.too_complex += 1
        return verdict

    # ----- scoring -----
    def score(
        self,
        task_type: str,
        solution_str: str,
        ground_truth: str,
        timeout_s: float,
        queue_s: float = Limits.queue_s,
        question: tuple[str, ...] = (),
        forms: tuple[str, ...] = (),
        cpu_s: float = Limits.cpu_s,
    ) -> Verdict:
        """Score in a worker: ``cpu_s`` of CPU and ``timeout_s`` of wall time for the scorer,
        ``queue_s`` to get a worker."""
        if not self._acquire_sync(time.monotonic() + queue_s, task_type):
            return self._count(fail("overloaded"))
        with _Job(
            self,
            (task_type, solution_str, ground_truth, tuple(question), tuple(forms)),
            timeout_s,
            cpu_s,
        ) as job:
            job.send(self._take_worker())
            while True:
                job.answered = job.worker.conn.poll(job.slice())
                if job.done_waiting():
                    break
        return job.verdict

    async def score_async(
        self,
        task_type: str,
        solution_str: str,
        ground_truth: str,
        timeout_s: float,
        queue_s: float = Limits.queue_s,
        question: tuple[str, ...] = (),
        forms: tuple[str, ...] = (),
        cpu_s: float = Limits.cpu_s,
    ) -> Verdict:
        """As :meth:`score`, awaiting the worker's pipe in the running loop (no thread held).

        Cancelled while a worker is busy for it (verl's ``rate_limited`` manager cancels on its own
        timeout), the worker is killed, so no stale answer can reach the next job."""
        if not await self._acquire_async(time.monotonic() + queue_s, task_type):
            return self._count(fail("overloaded"))
        loop = asyncio.get_running_loop()
        with _Job(
            self,
            (task_type, solution_str, ground_truth, tuple(question), tuple(forms)),
            timeout_s,
            cpu_s,
        ) as job:
            if self._idle:
                job.send(self._take_worker())
            else:  # a fork request (the first waits for the zygote's imports): the pool's thread
                job.send(await self._take_worker_async(loop))
            while True:
                job.answered = await _readable(loop, job.worker.conn, job.slice(), self._threads)
                if job.done_waiting():
                    break
        return job.verdict

    async def _take_worker_async(self, loop: asyncio.AbstractEventLoop) -> _Worker:
        try:
            return await loop.run_in_executor(self._threads, self._take_worker)
        except RuntimeError as err:  # the pool closed (its threads ended): worker_crashed
            raise OSError("scoring pool is closed") from err

    def worker_pids(self) -> list[int]:
        with self._lock:
            return [w.pid for w in self._live]

    def zygote_pid(self) -> int | None:
        return self._zygote.pid if self._zygote is not None else None

    def close(self) -> None:
        """Kill every worker (busy ones included) and the zygote, and end the pool's threads. Calls
        still in flight, and later calls on this pool, score ``worker_crashed``; :func:`shared_pool`
        then makes a new pool."""
        with self._lock:
            self._closed = True
            live, self._live, self._idle = list(self._live), set(), []
        for worker in live:
            self._discard(worker)
        with self._zygote_lock:
            if self._ctrl is not None:
                self._ctrl.close()  # EOF: the zygote exits
            if self._zygote is not None:
                try:
                    self._zygote.wait(timeout=5)
                except subprocess.TimeoutExpired:
                    self._zygote.kill()
                    self._zygote.wait()
        self._threads.shutdown(wait=True)  # a start-up in flight ends with the zygote


async def _readable(
    loop: asyncio.AbstractEventLoop, conn, timeout: float, threads: ThreadPoolExecutor
) -> bool:
    """Wait until ``conn`` has data or ``timeout`` passes, without holding a thread (a loop
    without ``add_reader``, not the default on Linux: one of the pool's ``threads``)."""
    ready = loop.create_future()
    fd = conn.fileno()
    try:
        loop.add_reader(fd, lambda: ready.done() or ready.set_result(True))
    except NotImplementedError:
        try:
            return await loop.run_in_executor(threads, conn.poll, timeout)
        except RuntimeError as err:  # the pool closed (its threads ended): worker_crashed
            raise OSError("scoring pool is closed") from err
    try:
        await asyncio.wait_for(ready, timeout)
        return True
    except asyncio.TimeoutError:
        return False
    finally:
        loop.remove_reader(fd)


_shared: ScoringPool | None = None
_shared_lock = threading.Lock()


def shared_pool(limits: Limits | None = None) -> ScoringPool:
    """This process's pool, created on first use with ``limits`` (later calls reuse it)."""
    global _shared
    with _shared_lock:
        if _shared is None or _shared.pid != os.getpid() or _shared._closed:
            limits = limits or Limits()
            if _shared is None:
                atexit.register(close_shared_pool)
            _shared = ScoringPool(limits.worker_count(), limits.memory_mb)
        return _shared


def close_shared_pool() -> None:
    with _shared_lock:
        if _shared is not None and _shared.pid == os.getpid():
            _shared.close()

"""verl's custom reward function (``compute_score``, ``compute_score_async``) and the bounded scoring
behind it (``bounded_score``, ``compute_scores``). See :mod:`pac_verl.verifiers` for the contract:
the keys of the result, the time bounds, the reward kwargs.

Verdict or no verdict (docs/guides/rewards.md#verdicts-and-faults). A reward of 0 must mean "this
answer is wrong". Some calls end without anyone having judged the answer, through a fault of the
machine; they still return 0 (verl needs a number), with ``scored = 0`` and the reason, so the
trainer can tell them apart (:data:`NO_VERDICT`): ``overloaded`` (no worker, executor thread or
sandbox slot within ``queue_s``), ``grader_timeout`` (a non-code grader starved of CPU: short of
``cpu_s`` of CPU at ``timeout_s``), ``worker_crashed``, ``missing_library``
and ``sandbox_error`` (the machine could not run the tests), ``bad_ground_truth``,
``vacuous_tests`` (tests under which no check of the program's output ran: a data error) and
``unknown_type`` (the row cannot be graded). An answer whose grading needs more than the bound
because of what it contains *has* a verdict, so that GRPO learns from it: ``too_large`` and
``too_complex`` (the guards refuse it before anything is evaluated, or its grader used ``cpu_s``
of CPU), and ``timeout`` for a program that runs past its CPU budget (too slow for the task). What the trainer does with
unscored answers: :mod:`pac_verl.verl.trainer`.

Isolation: a code answer waits on its sandbox run in a thread of this process's own
code executor (:func:`code_executor`, as many threads as the node has sandbox slots), never on the
event loop's default executor, which verl's reward loop also uses to decode every response and
which non-code answers therefore need too; non-code answers are scored by the pool
(:mod:`.pool`), which uses threads of its own. So neither type waits behind the other.
"""

from __future__ import annotations

import asyncio
import atexit
import functools
import os
import threading
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pac_verl.errors import UserError
from pac_verl.verifiers.dispatch import IN_CALLER, TASK_TYPES, score
from pac_verl.verifiers.guards import precheck
from pac_verl.verifiers.math import prepare as prepare_math_box
from pac_verl.verifiers.math.question import question_of
from pac_verl.verifiers.pool import Limits, close_shared_pool, shared_pool
from pac_verl.verifiers.sandbox import Budget, SandboxSettings, settings_for
from pac_verl.verifiers.sandbox import slots as sandbox_slots
from pac_verl.verifiers.verdict import Verdict, fail
from pac_verl.verifiers.zebra import names_of

# Reasons that mean "no answer was given in the expected form" (no format bonus for these).
# "cut_off": the output ended before a final answer (an unclosed <think>, a box in unfinished
# reasoning): nothing was answered, so nothing is paid for its form either.
NO_ANSWER = frozenset({"no_boxed", "no_code", "missing_person", "empty", "cut_off"})
# Calls that end without a verdict on the answer: scored 0 with ``scored = 0`` (module docstring).
NO_VERDICT = frozenset({"overloaded", "grader_timeout", "worker_crashed", "missing_library",
                        "sandbox_error", "bad_ground_truth", "vacuous_tests", "unknown_type"})  # fmt: skip
# Answers that get no format bonus although they were given: they never finished being judged,
# they ran too long or past a bound of the form rule, they copied the question, or they hedged
# (several different final answers: a bonus would pay the hedge, docs/concepts/spec.md#rewards).
NO_BONUS = NO_ANSWER | NO_VERDICT | {"timeout", "too_large", "too_complex", "hedged",
                                     "copied_question"}  # fmt: skip


def _limits(timeout_s=None, queue_s=None, workers=None, memory_mb=None, cpu_s=None) -> Limits:
    """Reward kwargs -> :class:`Limits`; ``None`` keeps the dataclass default."""
    given = {"timeout_s": timeout_s, "queue_s": queue_s, "workers": workers,
             "memory_mb": memory_mb, "cpu_s": cpu_s}  # fmt: skip
    limits = Limits(**{k: v for k, v in given.items() if v is not None})
    for name in ("timeout_s", "queue_s", "cpu_s"):
        if not getattr(limits, name) > 0:
            raise UserError(f"reward {name} must be > 0 seconds, got {getattr(limits, name)!r}")
    if limits.workers < 0:
        raise UserError(f"reward workers must be >= 0 (0: one per CPU), got {limits.workers!r}")
    return limits


def _task_type(extra_info: object) -> str:
    return str(extra_info.get("type")) if isinstance(extra_info, Mapping) else "None"


def _settled(task_type: str, solution_str: object, ground_truth: object) -> Verdict | None:
    if task_type not in TASK_TYPES:
        return score(task_type, solution_str, ground_truth)  # unknown_type, logged once
    return precheck(task_type, solution_str, ground_truth, prepare=prepare_math_box)


def bounded_score(
    task_type: str,
    solution_str: str,
    ground_truth: str,
    limits: Limits | None = None,
    sandbox: SandboxSettings | None = None,
    question: Sequence[str] = (),
    forms: Sequence[str] = (),
) -> Verdict:
    """:func:`score` within ``limits.timeout_s``, from any thread (see the module docstring).
    ``question``, ``forms``: what the row's question offers (:func:`.dispatch.score`)."""
    limits = limits or Limits()
    verdict = _settled(task_type, solution_str, ground_truth)
    if verdict is not None:
        return verdict
    if task_type in IN_CALLER:
        budget = Budget.starting_now(limits.timeout_s, limits.queue_s)
        return score(task_type, solution_str, ground_truth, budget, sandbox)
    pool = shared_pool(limits)
    return pool.score(task_type, solution_str, ground_truth, limits.timeout_s, limits.queue_s,
                      cpu_s=limits.cpu_s, question=tuple(question), forms=tuple(forms))  # fmt: skip


_code_executor: tuple[int, ThreadPoolExecutor] | None = None  # (pid, executor)
_code_lock = threading.Lock()


def code_executor(sandbox: SandboxSettings | None = None) -> ThreadPoolExecutor:
    """This process's threads for code answers (one per node sandbox slot, made on first use with
    ``sandbox``'s ``concurrency``): a thread waits for a slot, then on the sandbox run. More
    threads would only wait for a slot; a call waiting for a thread is already charged to its
    ``queue_s``."""
    global _code_executor
    with _code_lock:
        if _code_executor is None or _code_executor[0] != os.getpid():
            if _code_executor is None:
                atexit.register(close_executors)
            threads = sandbox_slots.capacity(settings_for(sandbox).concurrency)
            _code_executor = (os.getpid(), ThreadPoolExecutor(threads, "code-sandbox"))
        return _code_executor[1]


def close_executors() -> None:
    """End this process's code threads and scoring pool (both are remade on next use)."""
    global _code_executor
    with _code_lock:
        executor, _code_executor = _code_executor, None
    if executor is not None and executor[0] == os.getpid():
        executor[1].shutdown(wait=True)
    close_shared_pool()


def _score_code(task_type, solution_str, ground_truth, budget: Budget, sandbox) -> Verdict:
    """Code in a code thread: a call whose ``queue_s`` ran out while it waited for the thread
    runs nothing (the sandbox's own slot wait sees it too, but a SandboxFusion backend has none)."""
    if budget.queue_until is not None and time.monotonic() > budget.queue_until:
        return fail("overloaded")
    return score(task_type, solution_str, ground_truth, budget, sandbox)


async def bounded_score_async(
    task_type: str,
    solution_str: str,
    ground_truth: str,
    limits: Limits | None = None,
    sandbox: SandboxSettings | None = None,
    question: Sequence[str] = (),
    forms: Sequence[str] = (),
) -> Verdict:
    """:func:`bounded_score` as a coroutine: waits on the worker without holding a thread; code
    waits in a thread of :func:`code_executor`, never of the loop's default executor."""
    limits = limits or Limits()
    verdict = _settled(task_type, solution_str, ground_truth)
    if verdict is not None:
        return verdict
    if task_type in IN_CALLER:  # the queue starts now: waiting for a code thread counts
        budget = Budget.starting_now(limits.timeout_s, limits.queue_s)
        loop = asyncio.get_running_loop()
        job = functools.partial(_score_code, task_type, solution_str, ground_truth, budget, sandbox)
        return await loop.run_in_executor(code_executor(sandbox), job)
    pool = shared_pool(limits)
    return await pool.score_async(
        task_type, solution_str, ground_truth, limits.timeout_s, limits.queue_s,
        cpu_s=limits.cpu_s, question=tuple(question), forms=tuple(forms),
    )  # fmt: skip


def _call(
    extra_info, timeout_s, queue_s, workers, memory_mb, sandbox, cpu_s=None
) -> tuple[str, Limits, SandboxSettings | None]:
    """A reward call's task type, limits and (code only) sandbox settings, from verl's arguments
    and the reward kwargs; a bad setting is a UserError naming it."""
    task_type = _task_type(extra_info)
    limits = _limits(timeout_s, queue_s, workers, memory_mb, cpu_s)
    return task_type, limits, settings_for(sandbox) if task_type in IN_CALLER else None


def _result(
    verdict: Verdict, format_bonus: float, started: float, sandbox: SandboxSettings | None
) -> dict[str, Any]:
    has_answer = verdict.reason not in NO_ANSWER and verdict.reason != "unknown_type"
    bonus_ok = not verdict.correct and verdict.reason not in NO_BONUS
    reward = max(verdict.score, format_bonus) if bonus_ok else verdict.score
    return {
        "score": float(reward),
        "acc": float(verdict.correct),
        "has_answer": float(has_answer),
        "missing_library": float(verdict.reason == "missing_library"),
        "scored": float(verdict.reason not in NO_VERDICT),
        "reason": verdict.reason,
        "latency_s": time.perf_counter() - started,
        "sandbox_level": sandbox.level if sandbox is not None else "",
    }


def compute_score(
    data_source: str,
    solution_str: str,
    ground_truth: str,
    extra_info: Mapping[str, Any] | None = None,
    format_bonus: float = 0.0,
    timeout_s: float | None = None,
    queue_s: float | None = None,
    workers: int | None = None,
    memory_mb: int | None = None,
    sandbox: Mapping[str, Any] | None = None,
    cpu_s: float | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """verl's custom reward function (sync): same keys for every sample."""
    started = time.perf_counter()
    task_type, limits, settings = _call(
        extra_info, timeout_s, queue_s, workers, memory_mb, sandbox, cpu_s
    )
    verdict = bounded_score(
        task_type, solution_str, ground_truth, limits, settings, *_question(task_type, extra_info)
    )
    return _result(verdict, format_bonus, started, settings)


async def compute_score_async(
    data_source: str,
    solution_str: str,
    ground_truth: str,
    extra_info: Mapping[str, Any] | None = None,
    format_bonus: float = 0.0,
    timeout_s: float | None = None,
    queue_s: float | None = None,
    workers: int | None = None,
    memory_mb: int | None = None,
    sandbox: Mapping[str, Any] | None = None,
    cpu_s: float | None = None,
    **kwargs: Any,
) -> dict[str, Any]:
    """verl's custom reward function (async): what ``configs/pac_trainer.yaml`` names."""
    started = time.perf_counter()
    task_type, limits, settings = _call(
        extra_info, timeout_s, queue_s, workers, memory_mb, sandbox, cpu_s
    )
    verdict = await bounded_score_async(
        task_type, solution_str, ground_truth, limits, settings, *_question(task_type, extra_info)
    )
    return _result(verdict, format_bonus, started, settings)


def _question(task_type: str, extra_info: Mapping[str, Any] | None) -> tuple[tuple, tuple]:
    """What a row's question offers (:func:`.dispatch.score`): a math row's expressions and the
    forms it asks for, a Zebra row's names; nothing for other tasks."""
    if task_type == "math":
        return question_of(extra_info)
    return (names_of(extra_info), ()) if task_type == "zebra" else ((), ())


def _fields(item: Sequence[str] | Mapping[str, str]) -> tuple[str, str, str]:
    if isinstance(item, Mapping):
        return item["task_type"], item["solution_str"], item["ground_truth"]
    task_type, solution_str, ground_truth = item
    return task_type, solution_str, ground_truth


def compute_scores(
    items: Iterable[Sequence[str] | Mapping[str, str]],
    workers: int | None = None,
    timeout_s: float | None = None,
    cpu_s: float | None = None,
) -> list[Verdict]:
    """Score many responses: ``(task_type, solution_str, ground_truth)`` tuples or dicts with those
    keys, in order, each by :func:`bounded_score` within ``timeout_s`` and ``cpu_s`` (defaults: the
    reward's).

    The non-code answers go to this process's killable pool (:func:`.pool.shared_pool`, started
    with ``workers`` workers, default one per CPU, when this is its first use), from one thread per
    pool worker, so none waits for a worker; no scorer runs in this process, so no in-process
    alarm is needed and none can leave sympy half-way through a parse for a later grade here."""
    items = [_fields(item) for item in items]
    if not items:
        return []
    limits = _limits(timeout_s=timeout_s, workers=workers, cpu_s=cpu_s)
    threads = shared_pool(limits).max_workers
    with ThreadPoolExecutor(threads, thread_name_prefix="compute_scores") as executor:
        return list(executor.map(lambda item: bounded_score(*item, limits=limits), items))

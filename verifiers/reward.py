"""verl's custom reward function (``compute_score``, ``compute_score_async``) and the bounded scoring
behind it (``bounded_score``, ``compute_scores``). See :mod:`pac_verl.verifiers` for the contract:
the keys of the result, the time bounds, the reward kwargs."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pac_verl.errors import UserError
from pac_verl.verifiers.dispatch import IN_CALLER, TASK_TYPES, score
from pac_verl.verifiers.guards import precheck
from pac_verl.verifiers.pool import Limits, shared_pool
from pac_verl.verifiers.sandbox import Budget, SandboxSettings, settings_for
from pac_verl.verifiers.verdict import Verdict

# Reasons that mean "no answer was given in the expected form" (no format bonus for these).
NO_ANSWER = frozenset({"no_boxed", "no_code", "missing_person", "empty"})
# Answers that get no format bonus although they were given: they never finished being judged,
# or they hedged (several different final answers: a bonus would pay the hedge, SPEC 8).
NO_BONUS = NO_ANSWER | {"unknown_type", "timeout", "overloaded", "worker_crashed", "too_large",
                        "hedged"}  # fmt: skip


def _limits(timeout_s=None, queue_s=None, workers=None, memory_mb=None) -> Limits:
    """Reward kwargs -> :class:`Limits`; ``None`` keeps the dataclass default."""
    given = {"timeout_s": timeout_s, "queue_s": queue_s, "workers": workers, "memory_mb": memory_mb}
    limits = Limits(**{k: v for k, v in given.items() if v is not None})
    for name in ("timeout_s", "queue_s"):
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
    return precheck(task_type, solution_str, ground_truth)


def bounded_score(
    task_type: str,
    solution_str: str,
    ground_truth: str,
    limits: Limits | None = None,
    sandbox: SandboxSettings | None = None,
) -> Verdict:
    """:func:`score` within ``limits.timeout_s``, from any thread (see the module docstring)."""
    limits = limits or Limits()
    verdict = _settled(task_type, solution_str, ground_truth)
    if verdict is not None:
        return verdict
    if task_type in IN_CALLER:
        budget = Budget.starting_now(limits.timeout_s, limits.queue_s)
        return score(task_type, solution_str, ground_truth, budget, sandbox)
    pool = shared_pool(limits)
    return pool.score(task_type, solution_str, ground_truth, limits.timeout_s, limits.queue_s)


async def bounded_score_async(
    task_type: str,
    solution_str: str,
    ground_truth: str,
    limits: Limits | None = None,
    sandbox: SandboxSettings | None = None,
) -> Verdict:
    """:func:`bounded_score` as a coroutine: waits on the worker without holding a thread."""
    limits = limits or Limits()
    verdict = _settled(task_type, solution_str, ground_truth)
    if verdict is not None:
        return verdict
    if task_type in IN_CALLER:  # the queue starts now: waiting for an executor thread counts
        budget = Budget.starting_now(limits.timeout_s, limits.queue_s)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            None, score, task_type, solution_str, ground_truth, budget, sandbox
        )
    pool = shared_pool(limits)
    return await pool.score_async(
        task_type, solution_str, ground_truth, limits.timeout_s, limits.queue_s
    )


def _call(
    extra_info, timeout_s, queue_s, workers, memory_mb, sandbox
) -> tuple[str, Limits, SandboxSettings | None]:
    """A reward call's task type, limits and (code only) sandbox settings, from verl's arguments
    and the reward kwargs; a bad setting is a UserError naming it."""
    task_type = _task_type(extra_info)
    limits = _limits(timeout_s, queue_s, workers, memory_mb)
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
    **kwargs: Any,
) -> dict[str, Any]:
    """verl's custom reward function (sync): same keys for every sample."""
    started = time.perf_counter()
    task_type, limits, settings = _call(extra_info, timeout_s, queue_s, workers, memory_mb, sandbox)
    verdict = bounded_score(task_type, solution_str, ground_truth, limits, settings)
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
    **kwargs: Any,
) -> dict[str, Any]:
    """verl's custom reward function (async): what ``configs/pac_trainer.yaml`` names."""
    started = time.perf_counter()
    task_type, limits, settings = _call(extra_info, timeout_s, queue_s, workers, memory_mb, sandbox)
    verdict = await bounded_score_async(task_type, solution_str, ground_truth, limits, settings)
    return _result(verdict, format_bonus, started, settings)


def _fields(item: Sequence[str] | Mapping[str, str]) -> tuple[str, str, str]:
    if isinstance(item, Mapping):
        return item["task_type"], item["solution_str"], item["ground_truth"]
    task_type, solution_str, ground_truth = item
    return task_type, solution_str, ground_truth


def compute_scores(
    items: Iterable[Sequence[str] | Mapping[str, str]],
    workers: int | None = None,
    timeout_s: float | None = None,
) -> list[Verdict]:
    """Score many responses: ``(task_type, solution_str, ground_truth)`` tuples or dicts with those
    keys, in order, each by :func:`bounded_score` within ``timeout_s`` (default: the reward's).

    The non-code answers go to this process's killable pool (:func:`.pool.shared_pool`, started
    with ``workers`` workers, default one per CPU, when this is its first use), from one thread per
    pool worker, so none waits for a worker; no scorer runs in this process, so no in-process
    alarm is needed and none can leave sympy half-way through a parse for a later grade here."""
    items = [_fields(item) for item in items]
    if not items:
        return []
    limits = _limits(timeout_s=timeout_s, workers=workers)
    threads = shared_pool(limits).max_workers
    with ThreadPoolExecutor(threads, thread_name_prefix="compute_scores") as executor:
        return list(executor.map(lambda item: bounded_score(*item, limits=limits), items))

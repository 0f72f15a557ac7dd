"""Verifiable rewards for the six task types, and the entry points verl and the tools call.

- ``score(task_type, solution_str, ground_truth) -> Verdict``: one response, in the caller, with
  no time bound of its own (the length caps keep ordinary work small; hostile input is what the
  entries below are for). Never raises: an unknown type is ``unknown_type`` (logged once), any
  failure inside a scorer is ``error``.
- ``compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs) -> dict``:
  verl 0.7.1's custom reward function (``reward.custom_reward_function``). The type comes from
  ``extra_info["type"]``. The dict has the same keys for every sample (verl stacks them per key):
  ``score``, ``acc``, ``has_answer``, ``missing_library`` (1 when the sandbox interpreter lacks a
  library the tests import: an environment fault to fix), ``reason`` (the verdict's word: ``ok``,
  ``no_boxed``, ``timeout``, ...; verl's validation metrics skip strings), ``latency_s`` (the
  call's wall time) and ``sandbox_level`` (for code, the isolation level the program ran under in
  this process: ``strict``, ``namespaces``, ``none`` or ``remote``; ``""`` for other types; the
  metric ``reward/code/sandbox_isolation`` of :mod:`pac_verl.verl.reward_metrics`). ``format_bonus`` (a
  reward kwarg, default 0) is paid to a wrong answer that was well formed, never to a timeout or
  an absurd answer. ``sandbox`` (a reward kwarg: the config's
  ``reward.custom_reward_function.reward_kwargs.sandbox`` group) holds the code sandbox's
  settings; without it (a tool outside training) they come from ``PAC_SANDBOX_*`` variables
  (:mod:`.sandbox_settings`).
- ``compute_score_async(...)``: the same as a coroutine; the one the Hydra config names.
- Bounded time (SPEC 8; issue 16): scoring one answer takes at most ``timeout_s`` (default 10 s, a
  reward kwarg: ``reward.custom_reward_function.reward_kwargs.timeout_s``) in any thread, and a
  call waits at most ``queue_s`` (default 60 s) for a free worker (see :mod:`.pool`). The guards of
  :mod:`.guards` settle absurd answers in the caller (reason ``too_large``); every other non-code
  answer is scored in a killable worker process of :mod:`.pool`, never in the caller's thread, so a
  scorer that hangs costs one worker until the deadline and delays no other call (reason
  ``timeout``). Code is scored in the caller's thread, its program run in the sandbox's own
  process under the same contract (a :class:`~.sandbox.Budget`): ``queue_s`` to get a node
  sandbox slot (else ``overloaded``), then ``timeout_s`` from the slot for every run, the retry
  of a starved run included (else ``timeout``; a larger sandbox CPU limit is clamped to
  ``timeout_s``, see :mod:`.code`). The async entry runs code in the loop's default executor and
  counts ``queue_s`` from the call, so a wait for an executor thread is charged to the queue; the
  thread is released by the deadline. Why async for verl: its reward managers (``naive``,
  ``dapo``, ``rate_limited``) ``await`` a coroutine in the reward worker's event loop but run a
  plain function through ``run_in_executor`` on the loop's default thread pool, where every
  call in flight holds a thread and ``rate_limited``'s timeout cannot stop it. The coroutine waits
  on the worker's pipe with no thread at all, and a cancelled call kills its worker.
- ``compute_scores(items, workers=None, timeout_s=None) -> list[Verdict]``: many responses (the
  gold checks of ``pac-verl prep check`` and of the builders), each by :func:`bounded_score`,
  from one thread per pool worker: the same bound and the same ``timeout`` verdict as training.
- ``gold_solution(task_type, ground_truth, extra_info=None) -> str | None``: a response that must
  score 1 (used by ``pac-verl prep check`` and the preflight). Countdown's ground truth holds no
  expression, so its gold comes from ``extra_info["solution"]`` (the generator's expression); code's
  from ``extra_info["solution"]`` when the source ships one. ``None`` when there is no gold.

Task modules (``countdown``, ``zebra``, ``arc``, ``math``, ``code``, ``logic``) each expose
``score(solution_str, ground_truth) -> Verdict``.
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import time
from collections.abc import Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from pac_verl.errors import UserError
from pac_verl.verifiers.guards import precheck
from pac_verl.verifiers.pool import Limits, shared_pool
from pac_verl.verifiers.sandbox_settings import SandboxSettings, settings_for
from pac_verl.verifiers.sandbox_types import Budget
from pac_verl.verifiers.verdict import Verdict, fail

TASK_TYPES = ("countdown", "zebra", "arc", "math", "code", "logic")
# Reasons that mean "no answer was given in the expected form" (no format bonus for these).
NO_ANSWER = frozenset({"no_boxed", "no_code", "missing_person", "empty"})
# Answers that get no format bonus although they were given: they never finished being judged,
# or they hedged (several different final answers: a bonus would pay the hedge, SPEC 8).
NO_BONUS = NO_ANSWER | {"unknown_type", "timeout", "overloaded", "worker_crashed", "too_large",
                        "hedged"}  # fmt: skip
# Scored in the caller's thread: code's work runs in the sandbox process, within a Budget.
IN_CALLER = frozenset({"code"})
_log = logging.getLogger(__name__)
_warned: set[str] = set()


def _scorer(task_type: str):
    return importlib.import_module(f"pac_verl.verifiers.{task_type}").score


def score(
    task_type: str,
    solution_str: str,
    ground_truth: str,
    budget: Budget | None = None,
    sandbox: SandboxSettings | None = None,
) -> Verdict:
    """Score one response; never raises. ``budget`` bounds code's sandbox time (the types scored
    in the caller, ``IN_CALLER``); the others are bounded only by running them in a pool worker.
    ``sandbox``: code's sandbox settings (None: the environment's, see :mod:`.sandbox_settings`)."""
    if task_type not in TASK_TYPES:
        if task_type not in _warned:
            _warned.add(str(task_type))
            _log.warning("no verifier for task type %r: scored 0", task_type)
        return fail("unknown_type")
    try:
        if task_type in IN_CALLER:
            scorer = _scorer(task_type)
            verdict = scorer(solution_str, ground_truth, budget=budget, sandbox=sandbox)
        else:
            verdict = _scorer(task_type)(solution_str, ground_truth)
    except UserError:  # the machine cannot run this verifier as configured (sandbox isolation)
        raise
    except Exception as err:  # a scorer bug must not kill a training step
        _log.warning("verifier %s raised %s: scored 0", task_type, type(err).__name__)
        return fail("error")
    return verdict


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


def gold_solution(
    task_type: str, ground_truth: str, extra_info: Mapping[str, Any] | None = None
) -> str | None:
    """A response that must score 1 for this row, or None when the row carries no gold."""
    extra_info = extra_info or {}
    if task_type in ("zebra", "arc", "math"):
        return f"\\boxed{{{ground_truth}}}"
    if task_type == "countdown":
        expr = extra_info.get("solution")
        return f"\\boxed{{{expr}}}" if expr else None
    if task_type == "logic":
        from pac_verl.verifiers.logic import solution_text

        try:
            return solution_text(ground_truth)
        except (ValueError, KeyError, TypeError):
            return None
    if task_type == "code":
        code = extra_info.get("solution")
        return f"```python\n{code}\n```" if code else None
    return None


__all__ = [
    "TASK_TYPES",
    "Verdict",
    "bounded_score",
    "bounded_score_async",
    "compute_score",
    "compute_score_async",
    "compute_scores",
    "gold_solution",
    "score",
]

"""Verifiable rewards for the six task types, and the entry points verl and the tools call.

- ``score(task_type, solution_str, ground_truth) -> Verdict``: one response, in the caller, with
  no time bound of its own (the length caps keep ordinary work small; hostile input is what the
  entries below are for). Never raises: an unknown type is ``unknown_type`` (logged once), any
  failure inside a scorer is ``error``.
- ``compute_score(data_source, solution_str, ground_truth, extra_info=None, **kwargs) -> dict``:
  verl 0.7.1's custom reward function (``reward.custom_reward_function``). The type comes from
  ``extra_info["type"]``; for math, ``extra_info["question_expressions"]`` and
  ``["question_forms"]`` (or the question text a row carries) say what an answer may not copy and
  which form the wording asks for (docs/guides/rewards.md#math-forms). The dict has the same keys for every sample (verl stacks them per key):
  ``score``, ``acc``, ``has_answer``, ``missing_library`` (1 when the sandbox interpreter lacks a
  library the tests import: an environment fault to fix), ``scored`` (0 when the call ended
  without a verdict on the answer, its 0 meaning nothing: ``overloaded``, ``grader_timeout``,
  ``worker_crashed``, ... (:data:`.reward.NO_VERDICT`); the trainer leaves such groups
  out, :mod:`pac_verl.verl.trainer`), ``reason`` (the verdict's word: ``ok``,
  ``no_boxed``, ``timeout``, ...; verl's validation metrics skip strings), ``latency_s`` (the
  call's wall time) and ``sandbox_level`` (for code, the isolation level the program ran under in
  this process: ``strict``, ``namespaces``, ``none`` or ``remote``; ``""`` for other types; the
  metric ``reward/code/sandbox_isolation`` of :mod:`pac_verl.verl.reward_metrics`). ``format_bonus`` (a
  reward kwarg, default 0) is paid to a wrong answer that was well formed, never to a timeout or
  an absurd answer. ``sandbox`` (a reward kwarg: the config's
  ``reward.custom_reward_function.reward_kwargs.sandbox`` group) holds the code sandbox's
  settings; without it (a tool outside training) they come from ``PAC_SANDBOX_*`` variables
  (:mod:`.sandbox.settings`).
- ``compute_score_async(...)``: the same as a coroutine; the one the Hydra config names.
- Bounded time (docs/concepts/spec.md#rewards): scoring one answer takes at most ``timeout_s``
  (default 10 s, a reward kwarg: ``reward.custom_reward_function.reward_kwargs.timeout_s``) in any
  thread, and a call waits at most ``queue_s`` (default 60 s) for a free worker (see :mod:`.pool`).
  A grader's work is bounded by its answer's length (docs/guides/rewards.md#bounded-grading): the
  guards of :mod:`.guards` refuse absurd answers by what they contain before anything is evaluated
  (``too_large``, ``too_complex``: verdicts); every other non-code answer is scored in a killable
  worker process of :mod:`.pool`, never in the caller's thread, killed at ``cpu_s`` of CPU (default
  5 s, a reward kwarg; ``too_complex``, a verdict) or, starved by the machine, at ``timeout_s``
  (``grader_timeout``, unscored), and delays no other call. Code is scored in the caller's thread, its program run
  in the sandbox's own process under the same contract (a :class:`~.sandbox.Budget`): ``queue_s`` to
  get a node sandbox slot (else ``overloaded``), then ``timeout_s`` from the slot for every run, the
  retry of a starved run included (else ``timeout``, a verdict: too slow; a larger sandbox CPU limit
  is clamped to ``timeout_s``, see :mod:`.code`). The async entry runs code in the reward's own code
  threads (:func:`.reward.code_executor`), never in the loop's default executor, which verl uses to
  decode every response, and counts ``queue_s`` from the call, so a wait for a code thread is
  charged to the queue; the thread is released by the deadline. Why async for verl: its reward
  managers (``naive``, ``dapo``, ``rate_limited``) ``await`` a coroutine in the reward worker's
  event loop but run a plain function through ``run_in_executor`` on the loop's default thread pool,
  where every call in flight holds a thread and ``rate_limited``'s timeout cannot stop it. The
  coroutine waits on the worker's pipe with no thread at all, and a cancelled call kills its worker.
- ``compute_scores(items, workers=None, timeout_s=None, cpu_s=None) -> list[Verdict]``: many responses (the
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

from pac_verl.verifiers.dispatch import TASK_TYPES, gold_solution, score
from pac_verl.verifiers.reward import (
    bounded_score,
    bounded_score_async,
    compute_score,
    compute_score_async,
    compute_scores,
)
from pac_verl.verifiers.verdict import Verdict

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

"""Reward metrics a researcher can act on, visible in training.

verl 0.7.1 carries every key of the reward function's dict into the step batch: the reward loop
returns it as ``reward_extra_info``, ``compute_rm_score`` (or the agent loop, when rewards stream
with the rollout) stacks each key into ``non_tensor_batch`` and lists the keys in
``meta_info["reward_extra_keys"]``, and ``fit`` copies them into the training batch before the
advantages. :func:`reward_metrics` reads two of our keys from there, ``reason`` and ``latency_s``
(see :func:`pac_verl.verifiers.compute_score`), and returns, for one step:

- ``reward/<arm>/reason/<reason>``: how many of the arm's responses got each verdict (``ok``,
  ``timeout``, ``no_boxed``, ``missing_library``, ``too_large``, ...); an arm as the curriculum names
  it (docs/concepts/spec.md#arms), or the task type when there are no arm fields;
- ``reward/<arm>/unscored``: how many of the arm's responses the reward could not judge
  (its ``scored`` key is 0: ``overloaded``, ``grader_timeout``, ``worker_crashed``, ...; see
  :data:`pac_verl.verifiers.reward.NO_VERDICT`), 0 included, for every arm of the batch; the
  trainer leaves their groups out of the update (:mod:`pac_verl.verl.trainer`);
- ``reward/<type>/latency_p50`` and ``latency_p99``: scoring latency per task type, in seconds;
- ``reward/<type>/sandbox_isolation`` (code only): the isolation level the step's
  programs ran under, as the reward worker that scored them reports it (``sandbox_level``),
  coded by :data:`pac_verl.verifiers.sandbox.settings.LEVEL_CODES`: 0 ``none``, 1 ``namespaces``,
  2 ``strict``, 3 ``remote`` (SandboxFusion). The lowest code of the step, so that one response
  scored under a weaker level shows; absent in a step without code.

``PACTrainer`` adds them to the step's metrics, so they reach every verl logger (console, the run's
``metrics-*.jsonl``, wandb); a step with answers that could not be judged (the reasons of
:data:`~pac_verl.verifiers.reward.NO_VERDICT`) is also logged as a warning line.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Sequence

import numpy as np

from pac_verl.verifiers.reward import NO_VERDICT
from pac_verl.verifiers.sandbox.settings import LEVEL_CODES
from pac_verl.verl.arms import arm_name

_log = logging.getLogger(__name__)


def reward_metrics(batch, arm_fields: Sequence[str] | None = None) -> dict[str, float]:
    """Per-arm reason counts and per-type latency percentiles of one step's batch."""
    nt = batch.non_tensor_batch
    if "reason" not in nt or "extra_info" not in nt:
        return {}  # another reward function: nothing of ours to report
    infos, reasons = nt["extra_info"], nt["reason"]
    fields = list(arm_fields or ["type"])
    arms = [arm_name(info, fields, "step batch") for info in infos]
    counts = Counter(zip(arms, (str(r) for r in reasons)))
    metrics = {f"reward/{arm}/reason/{reason}": float(n) for (arm, reason), n in counts.items()}
    if "scored" in nt:
        unscored = Counter(a for a, s in zip(arms, nt["scored"]) if float(s) < 1.0)
        metrics.update({f"reward/{arm}/unscored": float(unscored[arm]) for arm in set(arms)})
    if "latency_s" in nt:
        types = np.array([str(info.get("type")) for info in infos], dtype=object)
        latency = np.asarray(nt["latency_s"], dtype=np.float64)
        for task_type in sorted(set(types)):
            p50, p99 = np.percentile(latency[types == task_type], [50, 99])
            metrics[f"reward/{task_type}/latency_p50"] = float(p50)
            metrics[f"reward/{task_type}/latency_p99"] = float(p99)
    metrics.update(sandbox_metrics(infos, nt.get("sandbox_level")))
    unjudged = {k: n for k, n in counts.items() if k[1] in NO_VERDICT}
    if unjudged:
        listed = ", ".join(f"{arm} {reason} x{n}" for (arm, reason), n in sorted(unjudged.items()))
        _log.warning("rewards not judged this step: %s", listed)
    return metrics


def sandbox_metrics(infos, levels) -> dict[str, float]:
    """``reward/<type>/sandbox_isolation``: the lowest level code per task type whose responses
    carry a level (our reward's ``sandbox_level`` key: ``""`` for types that run no program)."""
    if levels is None:
        return {}
    lowest: dict[str, int] = {}
    for info, level in zip(infos, levels):
        code = LEVEL_CODES.get(str(level))
        if code is not None:
            task_type = str(info.get("type"))
            lowest[task_type] = min(code, lowest.get(task_type, code))
    return {f"reward/{t}/sandbox_isolation": float(c) for t, c in sorted(lowest.items())}

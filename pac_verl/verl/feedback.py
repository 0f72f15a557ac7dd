"""Per-prompt feedback from a trained verl step (docs/concepts/spec.md#per-step-feedback).

From the step's ``DataProto``: responses are grouped by ``non_tensor_batch["uid"]`` (never by
position: ``balance_batch`` reorders rows), prompts in order of first appearance; a response's
reward is the sum of its ``token_level_rewards``; the prompt's arm comes from its ``extra_info``.

The controller's per-response advantage ``A_j`` (docs/concepts/spec.md#signals takes
``mean_j |A_j|``), for each advantage estimator verl 0.7.1 registers (``algorithm.adv_estimator``).
First, for every estimator, ``m_j`` = the mean of verl's ``advantages`` over the response's
``response_mask`` (docs/concepts/spec.md#per-step-feedback; for outcome estimators the advantage
is constant over a response and ``m_j`` is that constant; for token-varying ones it is the
response's average per-token weight). Then:

- ``grpo``, ``grpo_vectorized`` (the paper): ``A_j = m_j = (r_j - mean) / (std + 1e-6)``. For a
  binary group with pass rate p, ``mean_j |A_j| = 2 sqrt(p (1 - p)) sqrt((G - 1) / G)``.
- ``grpo`` with ``norm_adv_by_std_in_grpo=false`` (Dr. GRPO): ``A_j = m_j = r_j - mean``; the
  signal is the group's mean absolute deviation of reward, ``2 p (1 - p)`` for binary rewards:
  the same zeros (all solved, all failed) and peak (p = 1/2), on a [0, 1/2] scale and sharper
  around the middle. It is used as is: the scale is what this estimator trains with, and PAC's
  utility only compares arms under one estimator.
- ``rloo``, ``rloo_vectorized``: ``A_j = m_j = G / (G - 1) (r_j - mean)`` (leave-one-out).
- ``opo``: ``A_j = m_j = r_j - b``, ``b`` the length-weighted group mean.
- ``gpg``: ``A_j = m_j = alpha (r_j - mean)``, ``alpha`` = batch size / nonzero-reward responses.
- ``grpo_passk``: only the best response of a group has ``m_j != 0``; the signal is its share.
- ``remax``: ``A_j = m_j = r_j - r_greedy``.
- ``reinforce_plus_plus``, ``reinforce_plus_plus_baseline``, ``gdpo``: verl whitens these over
  the *whole batch's* tokens, ``(x - mu_batch) / sigma_batch``. The shift ``mu_batch`` depends on the other
  arms in the batch and gives a group whose rewards are all equal a nonzero advantage, so raw
  ``|m_j|`` would read a saturated arm as learnable because of its neighbours. The controller
  uses the group-centred value ``A_j = m_j - mean_k m_k`` (k over the prompt's group), which
  removes the shift exactly and keeps the estimator's scale: ``(r_j - mean) / sigma_batch``.
  ``gdpo`` first group-normalises each reward key (``algorithm.gdpo_reward_keys``) as GRPO does
  and sums them (``x_j``, mean 0 over the group's responses); its batch shift is 0 only when all
  responses have the same length (the mean is over tokens), and centring gives
  ``A_j = x_j / sigma_batch``.
- ``gae``, ``optimal_token_baseline``, ``tir_optimal_token_baseline`` (critic or token-level
  baselines, no group baseline): ``A_j = m_j``. verl 0.7.1's ``compute_advantage`` cannot run the
  two optimal-token-baseline estimators (it passes ``config=``, which their functions do not
  take, and never passes the ``old_log_probs`` they require: ``TypeError``), so a run with them
  stops in verl; the signal is tested on verl's registered estimator function directly.

In every group-relative case a group whose rewards are all equal gives ``A_j = 0`` for all j,
which is the fact the controller and the dropped groups of dynamic sampling rely on
(:mod:`pac_verl.verl.trainer`). Tested with verl's own ``compute_advantage`` per estimator
(``tests/verl/test_advantage_estimators.py``).

Unscored groups: a group with a response our reward could not judge (its ``scored``
reward key is 0: ``overloaded``, ``grader_timeout``, ..., see :mod:`pac_verl.verifiers.reward`)
is left out of the feedback: its 0 is not the policy's failure, and a correct answer read as
wrong would make the arm look harder than it is. :func:`unscored_groups` finds them; the
trainer also leaves them out of the policy update. Without a ``scored`` key (another reward
function) every group counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from pac_verl.errors import UserError
from pac_verl.verl.arms import arm_name


@dataclass
class StepFeedback:
    arms: list[str]  # [P] arm name per prompt
    rewards: np.ndarray  # [P, G]
    advantages: np.ndarray  # [P, G]
    uids: np.ndarray  # [P]
    # groups of the step left out above (an unscored response): their arms and uids
    unscored_arms: list[str] = field(default_factory=list)
    unscored_uids: np.ndarray = field(default_factory=lambda: np.zeros(0, dtype=object))


def unscored_rows(batch) -> np.ndarray:
    """``[N]`` bool: the rows of groups (one ``uid``) holding a response our reward could not
    judge (``scored`` = 0); all False when the batch has no ``scored`` key."""
    nt = batch.non_tensor_batch
    n = len(nt["uid"]) if "uid" in nt else len(batch)
    if "scored" not in nt:
        return np.zeros(n, dtype=bool)
    uids = np.asarray(nt["uid"], dtype=object)
    unscored = np.asarray(nt["scored"], dtype=np.float64) < 1.0
    return np.isin(uids, np.unique(uids[unscored]))


#: estimators whose advantages verl whitens over the whole batch: the controller group-centres them
GROUP_CENTRED = ("reinforce_plus_plus", "reinforce_plus_plus_baseline", "gdpo")


def extract_feedback(batch, arm_fields: Sequence[str], estimator: str = "grpo") -> StepFeedback:
    for key in ("token_level_rewards", "advantages", "response_mask"):
        if batch.batch is None or key not in batch.batch:
            raise UserError(
                f"the step batch has no {key!r}: run the curriculum with a GRPO trainer"
            )
    for key in ("uid", "extra_info"):
        if key not in batch.non_tensor_batch:
            raise UserError(f"the step batch has no non_tensor_batch[{key!r}]")
    mask = batch.batch["response_mask"].float()
    reward = (batch.batch["token_level_rewards"].float() * mask).sum(-1)
    adv = (batch.batch["advantages"].float() * mask).sum(-1) / mask.sum(-1).clamp(min=1.0)
    reward, adv = reward.double().cpu().numpy(), adv.double().cpu().numpy()
    uids = np.asarray(batch.non_tensor_batch["uid"], dtype=object)
    groups, first, inverse, sizes = np.unique(
        uids, return_index=True, return_inverse=True, return_counts=True
    )
    # prompts in order of first appearance, not of their (random) uid: the same rows give the
    # controller the same sequence, so a resumed run updates exactly like the uninterrupted one
    rank = np.argsort(first, kind="stable")
    renumber = np.empty_like(rank)
    renumber[rank] = np.arange(rank.size)
    groups, first, sizes, inverse = groups[rank], first[rank], sizes[rank], renumber[inverse]
    if not np.all(sizes == sizes[0]):
        raise UserError(f"responses per prompt differ across the batch ({sorted(set(sizes.tolist()))}): "
                        "the curriculum needs the same n for every prompt")  # fmt: skip
    order = np.argsort(inverse, kind="stable")
    g = int(sizes[0])
    infos = batch.non_tensor_batch["extra_info"]
    arms = [
        arm_name(infos[i], arm_fields, f"step batch prompt {groups[k]!r}")
        for k, i in enumerate(first)
    ]
    adv = adv[order].reshape(-1, g)
    if str(getattr(estimator, "value", estimator)) in GROUP_CENTRED:
        adv = adv - adv.mean(axis=1, keepdims=True)
    reward = reward[order].reshape(-1, g)
    out = unscored_rows(batch)[order].reshape(-1, g).any(axis=1)
    keep = np.flatnonzero(~out)
    return StepFeedback(
        [arms[k] for k in keep], reward[keep], adv[keep], groups[keep],
        unscored_arms=[arms[k] for k in np.flatnonzero(out)], unscored_uids=groups[out],
    )  # fmt: skip

"""Per-step feedback and the windowed utility signals of PAC
(docs/concepts/spec.md#per-step-feedback, docs/concepts/spec.md#signals).

``StepFeedback`` summarises one trained step per arm; ``SignalWindow`` keeps the last W of them in a
ring buffer of shape ``[W, N]`` and computes, vectorised over arms:

- ``s_adv`` (eq:adv_learnability): mean of ``a_i(t')`` over the window steps where arm i had at least
  one prompt. Unobserved steps are missing, not zero, so the sum is divided by the number
  of observed steps, not by W. No observation in the window: 0.
- the slope ``k_i`` of eq:reward_trend: ordinary least squares of ``rbar_i(t')`` on
  ``tau(t') = (t' - t_first) / (W - 1)`` with ``t_first = t - W + 1`` (the window's nominal first
  step, so tau spans [0, 1] over a full window and early steps keep their true positions), over arm
  i's observed window steps. Fewer than ``min_trend_points`` observed steps, or zero spread in tau
  (always the case for W = 1): ``k_i = 0`` (the paper's zero-slope fallback).
- ``s_prog`` (eq:prog_norm): ``k_i / (sum_j |k_j| + eps)``.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass
class StepFeedback:
    """One trained step, summarised per arm (docs/concepts/spec.md#per-step-feedback).

    Arrays have length N."""

    counts: np.ndarray  # c_i: prompts of arm i in the batch
    abs_adv: np.ndarray  # a_i(t): mean over arm i's prompts of mean_j |A_j| (0 where c_i = 0)
    reward: np.ndarray  # rbar_i(t): mean of arm i's per-rollout rewards (0 where c_i = 0)
    arm_ids: np.ndarray  # [P] arm of each prompt, as given to update()
    advantages: np.ndarray  # [P, G] as given to update()

    @property
    def observed(self) -> np.ndarray:
        return self.counts > 0


def summarise_step(
    arm_ids: np.ndarray, rewards: np.ndarray, advantages: np.ndarray, num_arms: int
) -> StepFeedback:
    """Per-arm counts, mean |advantage| and mean reward of one step (validated inputs)."""
    counts = np.bincount(arm_ids, minlength=num_arms)
    # Every prompt has the same G rollouts, so the mean over an arm's rollouts equals the mean
    # over its prompts of the per-prompt means.
    # Row means as a matrix-vector product (several times faster than .mean(axis=1) for small G).
    per_rollout = np.full(rewards.shape[1], 1.0 / max(rewards.shape[1], 1))
    abs_sum = np.bincount(arm_ids, weights=np.abs(advantages) @ per_rollout, minlength=num_arms)
    reward_sum = np.bincount(arm_ids, weights=rewards @ per_rollout, minlength=num_arms)
    denom = np.maximum(counts, 1)
    return StepFeedback(
        counts=counts,
        abs_adv=abs_sum / denom,
        reward=reward_sum / denom,
        arm_ids=arm_ids,
        advantages=advantages,
    )


class SignalWindow:
    """The last ``window`` steps of per-arm ``a_i(t')`` and ``rbar_i(t')`` (ring buffer)."""

    def __init__(self, window: int, num_arms: int) -> None:
        self.window = int(window)
        self.num_arms = int(num_arms)
        self.abs_adv = np.zeros((self.window, self.num_arms))
        self.reward = np.zeros((self.window, self.num_arms))
        self.observed = np.zeros((self.window, self.num_arms), dtype=bool)
        self.steps = np.full(self.window, -1, dtype=np.int64)  # -1: slot never written

    def push(self, step: int, fb: StepFeedback) -> None:
        """Append step ``step`` (overwrites the step ``step - W``)."""
        row = step % self.window
        self.abs_adv[row] = fb.abs_adv
        self.reward[row] = fb.reward
        self.observed[row] = fb.observed
        self.steps[row] = step

    def s_adv(self) -> np.ndarray:
        """eq:adv_learnability over observed window steps only (0 for an arm never observed)."""
        n = self.observed.sum(axis=0)
        # unobserved entries hold 0 (summarise_step writes 0 where c_i = 0; unwritten rows are 0)
        return self.abs_adv.sum(axis=0) / np.maximum(n, 1)

    def slopes(self, step: int, min_points: int) -> np.ndarray:
        """OLS slope ``k_i`` of eq:reward_trend at step ``step`` (the last pushed step).

        With the observation mask M, per arm: n = sum M, S_t = sum M tau, S_tt = sum M tau^2,
        S_r = sum M r, S_tr = sum M tau r; Sxx = S_tt - S_t^2 / n, Sxy = S_tr - S_t S_r / n,
        k = Sxy / Sxx (tau lies in [0, 1], so the one-pass sums lose nothing that matters).
        """
        if self.window < 2:
            return np.zeros(self.num_arms)
        tau = (self.steps - (step - self.window + 1)) / (self.window - 1.0)
        m = self.observed.astype(np.float64)
        n = m.sum(axis=0)
        n_safe = np.maximum(n, 1.0)
        s_t = tau @ m
        sxx = (tau * tau) @ m - s_t * s_t / n_safe
        sxy = tau @ self.reward - s_t * self.reward.sum(axis=0) / n_safe  # reward is 0 off-mask
        ok = (n >= max(min_points, 2)) & (sxx > 1e-12)
        return np.where(ok, sxy / np.where(ok, sxx, 1.0), 0.0)

    def state_dict(self) -> dict:
        return {
            "abs_adv": self.abs_adv.tolist(),
            "reward": self.reward.tolist(),
            "observed": self.observed.tolist(),
            "steps": self.steps.tolist(),
        }

    def load_state_dict(self, sd: dict) -> None:
        self.abs_adv = np.asarray(sd["abs_adv"], dtype=np.float64).reshape(self.window, -1)
        self.reward = np.asarray(sd["reward"], dtype=np.float64).reshape(self.window, -1)
        self.observed = np.asarray(sd["observed"], dtype=bool).reshape(self.window, -1)
        self.steps = np.asarray(sd["steps"], dtype=np.int64)


def normalise_progress(k: np.ndarray, eps: float) -> np.ndarray:
    """eq:prog_norm: ``s_prog_i = k_i / (sum_j |k_j| + eps)``."""
    return k / (np.abs(k).sum() + eps)

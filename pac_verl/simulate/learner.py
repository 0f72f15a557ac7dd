"""The simulated learner: per-arm latent skill, Bernoulli rewards in groups of G, GRPO advantages.

One training step, given the prompts chosen by a controller (arm and prompt difficulty per prompt):

1. rollouts: each of the G rollouts of a prompt succeeds with its arm's success probability for that
   prompt (see :mod:`pac_verl.simulate.scenarios`); rewards are 1/0;
2. advantages exactly as verl 0.7.1's ``compute_grpo_outcome_advantage`` with its defaults:
   ``(r - mean) / (std + 1e-6)`` per group, ``std`` the unbiased (n - 1) standard deviation
   (``torch.std``); a group of one rollout gets mean 0 and std 1;
3. learning follows what was sampled: the update strength of arm i is
   ``g_i = (1 / B) * sum over arm i's prompts of mean_j |A_j|`` (the GRPO gradient is weighted by
   advantages; groups that all succeed or all fail contribute nothing), and the skill moves by
   ``lr_i * gate_i * (g_i + sum_k transfer[k -> i] * g_k)``. Diminishing returns come from the
   sigmoid: as an arm is mastered its groups all succeed, its advantages vanish and it stops
   learning. ``gate_i`` is ``sigmoid((theta_pre - threshold) / 0.25)`` for a prerequisite arm, else 1.

Validation is the expected success (mean@1) of the current skill on a fixed held-out set of prompt
difficulties per arm (200 per arm, drawn once per seed), so it has no sampling noise of its own.
"""

from __future__ import annotations

import numpy as np

from pac_verl.curriculum import ArmQueues
from pac_verl.simulate.scenarios import Scenario

GRPO_EPS = 1e-6  # verl's compute_grpo_outcome_advantage default epsilon


def grpo_advantages(rewards: np.ndarray, eps: float = GRPO_EPS) -> np.ndarray:
    """Group-normalised advantages of ``rewards [P, G]`` as verl computes them (unbiased std)."""
    g = rewards.shape[1]
    if g == 1:
        return rewards / (1.0 + eps)  # verl: a group of one has mean 0, std 1
    mean = rewards.mean(axis=1, keepdims=True)
    std = rewards.std(axis=1, ddof=1, keepdims=True)
    return (rewards - mean) / (std + eps)


def _sigmoid(x: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-x))


class SimulatedLearner:
    """A policy with one latent skill per arm, trained by the batches a controller chooses."""

    def __init__(
        self, scenario: Scenario, seed: int, pool_size: int = 512, val_size: int = 200
    ) -> None:
        self.scenario = scenario
        self.arms = scenario.arm_names
        specs = {a.name: a for a in scenario.arms}
        self.specs = [specs[name] for name in self.arms]
        idx = {name: i for i, name in enumerate(self.arms)}
        n = len(self.arms)
        rng = np.random.default_rng([seed, 17])
        self.rng = np.random.default_rng([seed, 29])
        self.skill = np.array([s.init_skill for s in self.specs], dtype=np.float64)
        self.lr = np.array([s.learning_rate for s in self.specs])
        self.ceiling = np.array([s.ceiling for s in self.specs])
        self.fixed = np.array(
            [np.nan if s.fixed_success is None else s.fixed_success for s in self.specs]
        )
        self.pre = np.array([idx[s.prerequisite] if s.prerequisite else -1 for s in self.specs])
        self.pre_skill = np.array([s.prerequisite_skill for s in self.specs])
        self.transfer = np.eye(n)  # transfer[to, from]
        for src, dst, w in scenario.transfer:
            self.transfer[idx[dst], idx[src]] += w
        spread = np.array([s.spread for s in self.specs])
        self.train_difficulty = rng.normal(0.0, 1.0, (n, pool_size)) * spread[:, None]
        self.val_difficulty = rng.normal(0.0, 1.0, (n, val_size)) * spread[:, None]
        self.queues = ArmQueues.from_sizes([pool_size] * n, seed=seed)

    def success_probability(self, arm_ids: np.ndarray, difficulty: np.ndarray) -> np.ndarray:
        p = self.ceiling[arm_ids] * _sigmoid(self.skill[arm_ids] - difficulty)
        fixed = self.fixed[arm_ids]
        return np.where(np.isnan(fixed), p, fixed)

    def train_step(self, slots: np.ndarray, group_size: int, positions: np.ndarray | None = None):
        """Roll out the prompts of ``slots``, learn from them; returns (rewards, advantages).

        ``positions``: the prompt (position in its arm's pool) of each slot; default: the next
        ones of the arm's queue (``self.queues``, docs/concepts/spec.md#belief-and-allocation).
        """
        if positions is None:
            positions = self.queues.draw(slots)
        difficulty = self.train_difficulty[slots, positions]
        p = self.success_probability(slots, difficulty)
        rewards = (self.rng.random((len(slots), group_size)) < p[:, None]).astype(np.float64)
        advantages = grpo_advantages(rewards)
        strength = np.bincount(
            slots, weights=np.abs(advantages).mean(axis=1), minlength=len(self.arms)
        ) / len(slots)
        gate = np.ones(len(self.arms))
        has_pre = self.pre >= 0
        gate[has_pre] = _sigmoid((self.skill[self.pre[has_pre]] - self.pre_skill[has_pre]) / 0.25)
        self.skill = self.skill + self.lr * gate * (self.transfer @ strength)
        return rewards, advantages

    def validate(self) -> np.ndarray:
        """Expected held-out success (mean@1) per arm."""
        n = len(self.arms)
        arm_grid = np.repeat(np.arange(n)[:, None], self.val_difficulty.shape[1], axis=1)
        return self.success_probability(arm_grid, self.val_difficulty).mean(axis=1)

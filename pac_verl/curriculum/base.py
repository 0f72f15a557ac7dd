"""The controller interface every curriculum implements (SPEC sections 4-6).

A controller is driven once per training step ``t``:

1. ``allocate()`` returns the arm index of each of the ``batch_size`` slots of step ``t``;
2. the trainer trains on the batch, then calls ``update(arm_ids, rewards, advantages)`` with, for every
   prompt of the step, its arm, its G rewards and its G sequence advantages (SPEC section 2);
   ``step`` then becomes ``t + 1``;
3. ``metrics()`` returns the ``curriculum/...`` values to log for step ``t``.

Subclasses implement ``_allocate()``, ``_update(feedback)``, ``_arm_metrics()`` and
``_state()/_load_state()``; validation, shares, entropy, RNG and step bookkeeping live here.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np

from pac_verl.curriculum.signals import StepFeedback, summarise_step
from pac_verl.errors import UserError


class Controller:
    """Base class: arms, batch size, step counter, RNG, validated feedback, shares and entropy."""

    name: ClassVar[str] = ""
    config_cls: ClassVar[type] = object

    def __init__(self, arms: list[str], batch_size: int, seed: int = 0, config: Any = None) -> None:
        arms = list(arms)
        if not arms:
            raise UserError("a curriculum needs at least one arm; the arm list is empty")
        if not all(isinstance(a, str) and a for a in arms):
            raise UserError(f"arm names must be non-empty strings, got {arms!r}")
        if len(set(arms)) != len(arms):
            dupes = sorted({a for a in arms if arms.count(a) > 1})
            raise UserError(f"arm names must be unique; repeated: {dupes}")
        if int(batch_size) != batch_size or batch_size < 1:
            raise UserError(f"batch_size must be a positive integer, got {batch_size!r}")
        self.arms: list[str] = arms
        self.num_arms = len(arms)
        self.batch_size = int(batch_size)
        self.seed = int(seed)
        self.config = config if config is not None else self.config_cls()
        self.step = 0
        self.rng = np.random.default_rng(self.seed)
        self._shares = np.zeros(self.num_arms)
        self._last_counts = np.zeros(self.num_arms, dtype=np.int64)
        self._last_reward = np.zeros(self.num_arms)
        self._last_abs_adv = np.zeros(self.num_arms)

    # ----- public interface -------------------------------------------------------------------
    def allocate(self) -> np.ndarray:
        """Arm index (int64) of each of the ``batch_size`` slots of the coming step."""
        slots = self._allocate()
        self._shares = np.bincount(slots, minlength=self.num_arms) / self.batch_size
        return slots

    def update(self, arm_ids, rewards, advantages) -> None:
        """Feed back the step just trained: ``arm_ids [P]``, ``rewards [P, G]``, ``advantages [P, G]``."""
        fb = self._validated_feedback(arm_ids, rewards, advantages)
        self._update(fb)
        self._last_counts = fb.counts
        self._last_reward = fb.reward
        self._last_abs_adv = fb.abs_adv
        self.step += 1

    def metrics(self) -> dict[str, float]:
        """``curriculum/<arm>/<key>`` per arm plus ``curriculum/entropy`` (nats, last allocation).

        ``reward`` and ``abs_adv`` are the last updated step's per-arm mean reward and mean
        |advantage|; they are present only for arms that had a prompt in that step.
        """
        per_arm: dict[str, np.ndarray] = {"share": self._shares}
        per_arm.update(self._arm_metrics())
        out: dict[str, float] = {}
        seen = self._last_counts > 0
        for i, arm in enumerate(self.arms):
            for key, values in per_arm.items():
                out[f"curriculum/{arm}/{key}"] = float(values[i])
            if seen[i]:
                out[f"curriculum/{arm}/reward"] = float(self._last_reward[i])
                out[f"curriculum/{arm}/abs_adv"] = float(self._last_abs_adv[i])
        s = self._shares[self._shares > 0]
        out["curriculum/entropy"] = float(-(s * np.log(s)).sum()) if s.size else 0.0
        return out

    def state_dict(self) -> dict:
        """Everything needed to continue identically; plain Python values (JSON and torch.save)."""
        return {
            "name": self.name,
            "arms": list(self.arms),
            "batch_size": self.batch_size,
            "seed": self.seed,
            "config": dataclasses.asdict(self.config),
            "step": self.step,
            "rng": _plain(self.rng.bit_generator.state),
            "shares": self._shares.tolist(),
            "last_counts": self._last_counts.tolist(),
            "last_reward": self._last_reward.tolist(),
            "last_abs_adv": self._last_abs_adv.tolist(),
            "controller": self._state(),
        }

    def load_state_dict(self, sd: dict) -> None:
        """Restore a :meth:`state_dict`; the name, arms, batch size and config must match."""
        for key, mine in (
            ("name", self.name),
            ("arms", self.arms),
            ("batch_size", self.batch_size),
            ("config", dataclasses.asdict(self.config)),
        ):
            theirs = sd.get(key)
            if key == "arms" and theirs is not None:
                theirs = list(theirs)
            if theirs != mine:
                raise UserError(
                    f"curriculum state does not match this controller: saved {key}={theirs!r}, "
                    f"configured {key}={mine!r}"
                )
        self.seed = int(sd["seed"])
        self.step = int(sd["step"])
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = sd["rng"]
        self._shares = np.asarray(sd["shares"], dtype=np.float64)
        self._last_counts = np.asarray(sd["last_counts"], dtype=np.int64)
        self._last_reward = np.asarray(sd["last_reward"], dtype=np.float64)
        self._last_abs_adv = np.asarray(sd["last_abs_adv"], dtype=np.float64)
        self._load_state(sd["controller"])

    # ----- for subclasses ---------------------------------------------------------------------
    def _allocate(self) -> np.ndarray:
        raise NotImplementedError

    def _update(self, fb: StepFeedback) -> None:
        raise NotImplementedError

    def _arm_metrics(self) -> dict[str, np.ndarray]:
        return {}

    def _state(self) -> dict:
        return {}

    def _load_state(self, sd: dict) -> None:
        pass

    def _uniform_slots(self) -> np.ndarray:
        return self.rng.integers(0, self.num_arms, size=self.batch_size, dtype=np.int64)

    def _validated_feedback(self, arm_ids, rewards, advantages) -> StepFeedback:
        arm_ids = np.asarray(arm_ids)
        rewards = np.asarray(rewards, dtype=np.float64)
        advantages = np.asarray(advantages, dtype=np.float64)
        if arm_ids.ndim != 1:
            raise UserError(f"update: arm_ids must have shape [P], got shape {arm_ids.shape}")
        if (
            arm_ids.size
            and not np.issubdtype(arm_ids.dtype, np.integer)
            and not np.all(np.mod(arm_ids, 1) == 0)
        ):
            raise UserError(f"update: arm_ids must be integers, got dtype {arm_ids.dtype}")
        arm_ids = arm_ids.astype(np.int64)
        p = arm_ids.shape[0]
        if rewards.ndim != 2 or rewards.shape[0] != p:
            raise UserError(f"update: rewards must have shape [P={p}, G], got {rewards.shape}")
        if advantages.shape != rewards.shape:
            raise UserError(
                f"update: advantages shape {advantages.shape} != rewards shape {rewards.shape}"
            )
        if p and rewards.shape[1] < 1:
            raise UserError(
                "update: rewards/advantages need at least one rollout per prompt (G>=1)"
            )
        if p and (arm_ids.min() < 0 or arm_ids.max() >= self.num_arms):
            bad = arm_ids[(arm_ids < 0) | (arm_ids >= self.num_arms)]
            raise UserError(
                f"update: arm_ids out of range [0, {self.num_arms}): {sorted(set(bad.tolist()))[:5]}"
            )
        # a sum is finite iff every term is (barring overflow, which the exact check then reports)
        if not np.isfinite(rewards.sum()) and not np.isfinite(rewards).all():
            raise UserError("update: rewards contain NaN or inf")
        if not np.isfinite(advantages.sum()) and not np.isfinite(advantages).all():
            raise UserError("update: advantages contain NaN or inf")
        return summarise_step(arm_ids, rewards, advantages, self.num_arms)


def _plain(obj: Any) -> Any:
    """Recursively turn NumPy scalars/arrays into Python values."""
    if isinstance(obj, dict):
        return {k: _plain(v) for k, v in obj.items()}
    if isinstance(obj, list | tuple):
        return [_plain(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return obj.tolist()
    if isinstance(obj, np.generic):
        return obj.item()
    return obj

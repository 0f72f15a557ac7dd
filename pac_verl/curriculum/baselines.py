"""The baselines of SPEC section 5 / BASELINES.md: Random, single-task, SEC and DUMP.

They take the same feedback as PAC (SPEC section 2) through the same interface.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from pac_verl.curriculum.base import Controller
from pac_verl.curriculum.config import check_field_types
from pac_verl.curriculum.sampling import draw_categorical, softmax
from pac_verl.curriculum.signals import StepFeedback
from pac_verl.errors import UserError


@dataclass
class RandomConfig:
    """Random has no parameters: each slot picks an arm uniformly."""


class RandomController(Controller):
    """Each slot picks an arm uniformly at random (SPEC section 5)."""

    name = "random"
    config_cls = RandomConfig

    def _allocate(self) -> np.ndarray:
        return self._uniform_slots()

    def _update(self, fb: StepFeedback) -> None:
        pass


@dataclass
class SingleConfig:
    """``train_arms``: arm names to train on; a bare task name (``countdown``) means ``countdown/*``."""

    train_arms: list[str] = field(default_factory=list)


def resolve_train_arms(train_arms, arms: list[str]) -> np.ndarray:
    """Indices of the arms named by ``train_arms`` (arm names or bare task names), sorted."""
    if isinstance(train_arms, str):
        train_arms = [train_arms]
    train_arms = list(train_arms or [])
    if not train_arms:
        raise UserError(
            "curriculum 'single' needs the override train_arms (arm or task names); "
            f"valid arms: {', '.join(arms)}"
        )
    chosen: set[int] = set()
    for name in train_arms:
        hits = [i for i, a in enumerate(arms) if a == name or a.startswith(f"{name}/")]
        if not hits:
            tasks = sorted({a.split("/")[0] for a in arms})
            raise UserError(
                f"curriculum 'single': unknown arm {name!r} in train_arms; valid arms: "
                f"{', '.join(arms)} (or a task name: {', '.join(tasks)})"
            )
        chosen.update(hits)
    return np.array(sorted(chosen), dtype=np.int64)


class SingleTaskController(Controller):
    """Single task (ST): every slot picks uniformly among the ``train_arms`` (SPEC section 5)."""

    name = "single"
    config_cls = SingleConfig

    def __init__(self, arms, batch_size, seed=0, config=None) -> None:
        super().__init__(arms, batch_size, seed, config)
        self.train_idx = resolve_train_arms(self.config.train_arms, self.arms)
        self.config.train_arms = [self.arms[i] for i in self.train_idx]

    def _allocate(self) -> np.ndarray:
        pick = self.rng.integers(0, len(self.train_idx), size=self.batch_size)
        return self.train_idx[pick]

    def _update(self, fb: StepFeedback) -> None:
        pass


@dataclass
class SECConfig:
    """SEC defaults (BASELINES.md; 0.2 is the authors' 9-arm task x difficulty temperature).

    ``decay_unsampled=True`` follows the released code (unsampled arms see r = 0 each step);
    ``False`` follows the paper's text (only sampled arms are updated).
    """

    alpha: float = 0.5
    temperature: float = 0.2
    decay_unsampled: bool = True

    def __post_init__(self) -> None:
        check_field_types(self)
        if not 0.0 < self.alpha <= 1.0 or self.temperature <= 0:
            raise UserError(
                f"sec: alpha must be in (0, 1] and temperature > 0, got alpha={self.alpha}, "
                f"temperature={self.temperature}"
            )


class SECController(Controller):
    """Self-Evolving Curriculum: ``Q_i <- alpha * a_i(t) + (1 - alpha) * Q_i``, slots ~ softmax(Q/T).

    ``a_i(t)`` is SPEC's per-step mean |advantage| (eq:adv_learnability's step term). Q starts at 0.
    """

    name = "sec"
    config_cls = SECConfig

    def __init__(self, arms, batch_size, seed=0, config=None) -> None:
        super().__init__(arms, batch_size, seed, config)
        self.q = np.zeros(self.num_arms)

    def _allocate(self) -> np.ndarray:
        p = softmax(self.q, self.config.temperature)
        return draw_categorical(self.rng, p, self.batch_size)

    def _update(self, fb: StepFeedback) -> None:
        a = self.config.alpha
        target = (1.0 - a) * self.q + a * fb.abs_adv  # abs_adv is 0 for unsampled arms
        self.q = target if self.config.decay_unsampled else np.where(fb.observed, target, self.q)

    def _arm_metrics(self) -> dict[str, np.ndarray]:
        return {"utility": self.q}

    def _state(self) -> dict:
        return {"q": self.q.tolist()}

    def _load_state(self, sd: dict) -> None:
        self.q = np.asarray(sd["q"], dtype=np.float64)


@dataclass
class DUMPConfig:
    """DUMP defaults from the released code (BASELINES.md).

    ``window``: per-arm sliding window of per-response |A| values; ``exploration``: weight c of the
    UCB bonus; ``temperature`` of the softmax; ``unseen_first``: while some arm has never been seen,
    slots are drawn uniformly among the unseen arms (SPEC section 5).
    ``validation_update``: after every validation, each arm named like a validation data source
    gets that source's mean validation score as one more window value and one more sample, as
    the released code does (``ZhentingWang/DUMP``, ``RayPPOTrainer._validate`` calls
    ``update_weights`` per data source); ``False`` updates from training steps only, as the
    paper's text describes. See :meth:`DUMPController.observe_validation`.
    """

    window: int = 300
    exploration: float = 1.0
    temperature: float = 0.1
    unseen_first: bool = True
    validation_update: bool = True

    def __post_init__(self) -> None:
        check_field_types(self)
        if int(self.window) != self.window or self.window < 1 or self.temperature <= 0:
            raise UserError(
                f"dump: window must be an integer >= 1 and temperature > 0, got "
                f"window={self.window}, temperature={self.temperature}"
            )


class DUMPController(Controller):
    """DUMP: UCB score ``mean|A| + c * sqrt(2 ln(N_total + 1) / (n_i + 1))``, slots ~ softmax(score/T).

    ``mean|A|`` is over the arm's last ``window`` per-response absolute advantages (0 before any);
    ``n_i`` counts the responses of arm i seen so far and ``N_total`` their sum over arms (the ``+1``
    terms follow the released code).
    """

    name = "dump"
    config_cls = DUMPConfig

    def __init__(self, arms, batch_size, seed=0, config=None) -> None:
        super().__init__(arms, batch_size, seed, config)
        w, n = int(self.config.window), self.num_arms
        self.buffer = np.zeros((n, w))
        self.head = np.zeros(n, dtype=np.int64)  # next write position per arm
        self.filled = np.zeros(n, dtype=np.int64)
        self.seen = np.zeros(n, dtype=np.int64)  # responses seen per arm
        self.val_step = -1  # controller step of the last validation update
        self.score = self._score()

    def _score(self) -> np.ndarray:
        mean = self.buffer.sum(axis=1) / np.maximum(self.filled, 1)
        bonus = np.sqrt(2.0 * np.log(self.seen.sum() + 1.0) / (self.seen + 1.0))
        return mean + self.config.exploration * bonus

    def _allocate(self) -> np.ndarray:
        unseen = self.seen == 0
        if self.config.unseen_first and unseen.any():
            idx = np.flatnonzero(unseen)
            return idx[self.rng.integers(0, len(idx), size=self.batch_size)]
        p = softmax(self.score, self.config.temperature)
        return draw_categorical(self.rng, p, self.batch_size)

    def _update(self, fb: StepFeedback) -> None:
        w = self.buffer.shape[1]
        g = fb.advantages.shape[1] if fb.advantages.ndim == 2 else 0
        arm_of = np.repeat(fb.arm_ids, g)
        values = np.abs(fb.advantages).ravel()
        order = np.argsort(arm_of, kind="stable")  # arm-grouped, arrival order kept inside an arm
        arm_sorted, val_sorted = arm_of[order], values[order]
        cnt = fb.counts * g
        start = np.cumsum(cnt) - cnt
        rank = np.arange(len(arm_sorted)) - start[arm_sorted]
        drop = np.maximum(cnt - w, 0)  # only the last w values of a step can survive
        keep = rank >= drop[arm_sorted]
        a_k = arm_sorted[keep]
        pos = (self.head[a_k] + rank[keep] - drop[a_k]) % w
        self.buffer[a_k, pos] = val_sorted[keep]
        written = np.minimum(cnt, w)
        self.head = (self.head + written) % w
        self.filled = np.minimum(self.filled + written, w)
        self.seen = self.seen + cnt
        self.score = self._score()

    def observe_validation(self, scores) -> list[str]:
        """Feed a validation's per-source mean scores (``{data_source: score}``); returns the arms
        updated.

        With ``validation_update`` on, each arm whose name is a key gets the score appended to its
        window as one value and counted as one sample, then the UCB scores are recomputed; other
        keys are ignored (multi-level arms ``countdown/1`` .. ``arc/3`` are validation sources
        too; multi-domain arms ``math``/``code``/``logic`` are not, so there it changes nothing).
        The released code appends the source's mean of per-token rewards (the score divided by
        the response length, a by-product of its token-level reward tensor); the mean score is
        what that was meant to be and what verl's validation metrics give. At most one update
        per training step: a resumed run that validates again at its start step changes nothing.
        """
        if not self.config.validation_update or self.val_step == self.step:
            return []
        self.val_step = self.step
        w = self.buffer.shape[1]
        index = {a: i for i, a in enumerate(self.arms)}
        updated = [a for a in scores if a in index]
        for arm in updated:
            i = index[arm]
            self.buffer[i, self.head[i]] = abs(float(scores[arm]))
            self.head[i] = (self.head[i] + 1) % w
            self.filled[i] = min(self.filled[i] + 1, w)
            self.seen[i] += 1
        self.score = self._score()
        return updated

    def _arm_metrics(self) -> dict[str, np.ndarray]:
        return {"utility": self.score}

    def _state(self) -> dict:
        return {
            "buffer": self.buffer.tolist(),
            "head": self.head.tolist(),
            "filled": self.filled.tolist(),
            "seen": self.seen.tolist(),
            "val_step": self.val_step,
        }

    def _load_state(self, sd: dict) -> None:
        self.buffer = np.asarray(sd["buffer"], dtype=np.float64).reshape(self.num_arms, -1)
        self.head = np.asarray(sd["head"], dtype=np.int64)
        self.filled = np.asarray(sd["filled"], dtype=np.int64)
        self.seen = np.asarray(sd["seen"], dtype=np.int64)
        self.val_step = int(sd.get("val_step", -1))
        self.score = self._score()

"""Prompt-level selection inside the arm PAC picks, and the per-prompt statistics of every run.

The paper allocates slots to arms and draws prompts uniformly within an arm
(docs/concepts/spec.md#belief-and-allocation); its "Limitations" paragraph leaves prompt-level
sampling open. :class:`PromptCurriculum` sits between the controller's ``allocate()`` (an arm per
slot) and the batch (a dataset row per slot):

- ``rule=None`` (the default, ``curriculum.prompt_level: null``): the slots are filled by
  :class:`~pac_verl.curriculum.queues.ArmQueues` exactly as before (same seed, same draws), and
  only statistics are kept (the posterior below with the default settings): nothing here draws a
  random number.
- ``rule="thompson"``: each arm fills its ``k`` slots from ``candidates * k`` prompts taken from the
  arm's queue walk (the same permutation-and-cursor rule, so every prompt of the arm is examined
  once per pass through its pool). For each candidate a pass rate ``p ~ Beta(alpha, beta)`` is
  drawn from its posterior and scored ``1 - p^G - (1 - p)^G``, the probability that a group of G
  rollouts is mixed, i.e. that GRPO gives it a nonzero advantage. The ``k`` best distinct
  candidates are drawn (no duplicate in a batch unless the arm's share exceeds its pool); the
  others are *skipped*: predicted all-solved or all-failed prompts lose to mixed ones. The prompts
  drawn in the last ``revisit`` draws (default 2) are candidates again beside the queue's: a prompt
  whose group was mixed a step ago probably still is, and without this it would wait a whole pass
  through the pool. (The simulator has no memorisation, so it cannot tell whether revisiting a
  prompt this often overfits a real model; ``revisit: 0`` turns it off.)

Posterior (every run). A prompt's pass rate has the prior ``Beta(kappa * m_a, kappa * (1 - m_a))``
where ``m_a`` is its arm's current pass rate, ``(S_a + 1) / (S_a + F_a + 2)`` from the arm's
pooled, decayed rollout counts, and ``kappa = prior_strength`` pseudo-rollouts; an unseen prompt
therefore starts at its arm's statistics and follows them as the arm improves. Its own evidence is
``s`` successes and ``f`` failures over its rollouts. Rewards are mapped to ``[0, 1]`` by
``(r - reward_low) / (reward_high - reward_low)`` and clipped; a rollout of reward ``r`` adds ``r``
to ``s`` and ``1 - r`` to ``f`` (fractional counts: for binary rewards this is the Beta-Bernoulli
update; for graded rewards the posterior mean follows the mean reward). Then
``alpha = kappa * m_a + s``, ``beta = kappa * (1 - m_a) + f``.

Forgetting and revisits. The policy changes, so evidence ages: own and pooled counts are
multiplied by ``2 ** (-dt / half_life)`` after ``dt`` steps (applied lazily, when a prompt is read
or updated: no per-step pass over all prompts). A prompt the policy solved ``half_life`` steps ago
weighs half as much, its posterior drifts back to the arm's prior, and at its next turn as a
candidate (once per pass through the arm's permutation) it is drawn again unless fresher mixed
prompts beat it. ``half_life = 0`` keeps all evidence forever.

Cost: state is three arrays over all prompts (``s``, ``f``, last step; 24 bytes a prompt) plus the
queue; a step touches only its ``(candidates + revisit) * B`` candidates and ``B * G`` rewards, so
allocation
and update do not grow with the pool (``scripts/bench/controller.py``). The checkpoint holds the
prompts seen so far only.

Metrics, per arm and step, in every run (``curriculum/<arm>/...``): ``zero_var_frac`` (share of
the arm's groups whose rewards are all equal: all right or all wrong, so zero GRPO advantage),
``prompts_seen`` (distinct prompts trained so far), ``prompts_skipped`` (candidates the rule
passed over for this step; 0 without a rule) and ``pred_pass_rate`` (mean posterior pass rate of
the step's drawn prompts when they were drawn); plus ``curriculum/zero_var_frac`` over the batch.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from pac_verl.curriculum.config import check_field_types
from pac_verl.curriculum.queues import ArmQueues
from pac_verl.errors import UserError

PROMPT_RULES = ("thompson",)


@dataclass
class PromptLevelConfig:
    """Prompt-level rule and posterior settings (module docstring)."""

    rule: str = "thompson"
    candidates: float = 4.0  # candidates examined per slot of an arm
    prior_strength: float = 2.0  # kappa: pseudo-rollouts of the arm-level prior
    half_life: float = 50.0  # steps for evidence to lose half its weight; 0 = never
    reward_low: float = 0.0  # reward mapped to pass rate 0
    reward_high: float = 1.0  # reward mapped to pass rate 1
    group_size: int = 8  # G assumed for the mixed-group score before the first feedback
    revisit: int = 2  # prompts drawn in the last `revisit` draws are candidates again

    def __post_init__(self) -> None:
        check_field_types(self)
        if self.rule not in PROMPT_RULES:
            raise UserError(
                f"curriculum.prompt_level {self.rule!r}: choose null (off) or one of "
                f"{', '.join(PROMPT_RULES)}"
            )
        if self.candidates < 1 or self.prior_strength <= 0 or self.half_life < 0:
            raise UserError(
                "prompt_level: candidates must be >= 1, prior_strength > 0, half_life >= 0; got "
                f"candidates={self.candidates}, prior_strength={self.prior_strength}, "
                f"half_life={self.half_life}"
            )
        if not self.reward_high > self.reward_low or self.group_size < 1:
            raise UserError(
                "prompt_level: reward_high must exceed reward_low and group_size be >= 1; got "
                f"reward_low={self.reward_low}, reward_high={self.reward_high}, "
                f"group_size={self.group_size}"
            )


def prompt_level_config(value) -> PromptLevelConfig | None:
    """``curriculum.prompt_level`` as given: null, a rule name, or a mapping of the fields above."""
    if value is None:
        return None
    if isinstance(value, str):
        return PromptLevelConfig(rule=value)
    if isinstance(value, dict):
        fields = set(PromptLevelConfig.__dataclass_fields__)
        unknown = sorted(set(value) - fields)
        if unknown:
            raise UserError(
                f"curriculum.prompt_level has no setting {unknown}; valid: {', '.join(sorted(fields))}"
            )
        return PromptLevelConfig(**value)
    raise UserError(
        f"curriculum.prompt_level must be null, a rule name ({', '.join(PROMPT_RULES)}) or a "
        f"mapping, got {value!r}"
    )


class PromptCurriculum:
    """Rows for the controller's slots, plus the per-prompt posterior and its metrics."""

    def __init__(self, pools, seed: int, config: PromptLevelConfig | None = None) -> None:
        self.config = config  # None: the default path (arm queues), statistics only
        self.settings = config or PromptLevelConfig()  # posterior settings in every run
        # The default path: exactly the queues every run used before prompt-level selection.
        self.queues = ArmQueues(pools, seed=seed)
        self.pools = self.queues.pools
        self.sizes = self.queues.sizes
        self.offsets = self.queues.offsets
        self.num_arms = len(self.pools)
        flat = self.queues._flat_pool
        self._row_slot = np.full(int(flat.max()) + 1, -1, dtype=np.int64)  # row -> flat position
        self._row_slot[flat] = np.arange(flat.size)
        if np.unique(flat).size != flat.size:
            raise UserError("a dataset row belongs to two arms' pools")
        total = int(self.sizes.sum())
        self.s = np.zeros(total)
        self.f = np.zeros(total)
        self.last = np.full(total, -1, dtype=np.int64)  # step of the last update; -1 unseen
        self.arm_s = np.zeros(self.num_arms)
        self.arm_f = np.zeros(self.num_arms)
        self.arm_last = np.zeros(self.num_arms, dtype=np.int64)
        self.step = 0
        self.group_size = self.settings.group_size
        # the rule's own queues and RNG (its candidates are not the default path's draws)
        self.rng = np.random.default_rng([seed, 7])
        self._zero_var = np.full(self.num_arms, np.nan)
        self._skipped = np.zeros(self.num_arms, dtype=np.int64)
        self._pred = np.full(self.num_arms, np.nan)
        self._zero_var_all = float("nan")
        self._recent: list[np.ndarray] = []  # rows of the last `revisit` draws

    # ----- drawing -------------------------------------------------------------------------------
    def draw(self, slots) -> np.ndarray:
        """Dataset row for every slot (arm index per slot)."""
        slots = np.asarray(slots, dtype=np.int64)
        if self.config is None:
            rows = self.queues.draw(slots)
            self._skipped[:] = 0
        else:
            rows = self._draw_thompson(slots)
        flat = self._row_slot[rows]
        pred = self._alpha_beta(flat, slots)
        mean = pred[0] / (pred[0] + pred[1])
        counts = np.bincount(slots, minlength=self.num_arms)
        with np.errstate(invalid="ignore"):
            self._pred = np.bincount(slots, weights=mean, minlength=self.num_arms) / counts
        return rows

    def _draw_thompson(self, slots: np.ndarray) -> np.ndarray:
        cfg = self.config
        k = np.bincount(slots, minlength=self.num_arms)
        c = np.minimum(np.ceil(cfg.candidates * k).astype(np.int64), self.sizes)
        c = np.maximum(c, k)  # an arm asked for more than its pool repeats prompts, as the queue
        cand_arm = np.repeat(np.arange(self.num_arms), c)
        rows = self.queues.draw(cand_arm)
        if self._recent:
            old = np.unique(np.concatenate(self._recent))
            old = old[~np.isin(old, rows)]
            old_arm = np.searchsorted(self.offsets, self._row_slot[old], side="right") - 1
            old, old_arm = old[k[old_arm] > 0], old_arm[k[old_arm] > 0]
            rows, cand_arm = np.concatenate([rows, old]), np.concatenate([cand_arm, old_arm])
            c = c + np.bincount(old_arm, minlength=self.num_arms)
        flat = self._row_slot[rows]
        a, b = self._alpha_beta(flat, cand_arm)
        p = self.rng.beta(a, b)
        g = self.group_size
        score = 1.0 - p**g - (1.0 - p) ** g  # P(group of G is mixed) under the drawn pass rate
        order = np.lexsort((-score, cand_arm))  # by arm, best score first
        start = np.cumsum(c) - c
        rank = np.arange(order.size) - start[cand_arm[order]]
        chosen = order[rank < k[cand_arm[order]]]  # arm-grouped, best first
        self._skipped = c - k
        # slot j of arm a (in slot order) gets arm a's j-th best candidate
        slot_order = np.argsort(slots, kind="stable")
        out = np.empty(slots.size, dtype=np.int64)
        out[slot_order] = rows[chosen]
        if cfg.revisit:
            self._recent = [*self._recent, out][-cfg.revisit :]
        return out

    # ----- posterior -----------------------------------------------------------------------------
    def _decay(self, dt) -> np.ndarray:
        h = self.settings.half_life
        if h == 0:
            return np.ones_like(np.asarray(dt, dtype=np.float64))
        return np.exp2(-np.asarray(dt, dtype=np.float64) / h)

    def _arm_mean(self) -> np.ndarray:
        w = self._decay(self.step - self.arm_last)
        return (self.arm_s * w + 1.0) / ((self.arm_s + self.arm_f) * w + 2.0)

    def _alpha_beta(self, flat: np.ndarray, arms: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        kappa = self.settings.prior_strength
        m = self._arm_mean()[arms]
        seen = self.last[flat] >= 0
        w = np.where(seen, self._decay(self.step - self.last[flat]), 0.0)
        return kappa * m + self.s[flat] * w, kappa * (1.0 - m) + self.f[flat] * w

    def predicted_pass_rate(self, rows) -> np.ndarray:
        """Posterior mean pass rate of dataset ``rows`` now."""
        flat = self._row_slot[np.asarray(rows, dtype=np.int64)]
        arms = np.searchsorted(self.offsets, flat, side="right") - 1
        a, b = self._alpha_beta(flat, arms)
        return a / (a + b)

    def observe(self, rows, rewards) -> None:
        """One trained step: ``rows [P]`` dataset rows (``-1``: unknown), ``rewards [P, G]``."""
        rows = np.asarray(rows, dtype=np.int64)
        rewards = np.asarray(rewards, dtype=np.float64)
        known = rows >= 0
        if known.any() and (
            rows[known].max() >= self._row_slot.size or (self._row_slot[rows[known]] < 0).any()
        ):
            raise UserError("prompt feedback names a dataset row that is in no arm's pool")
        flat = np.where(known, self._row_slot[np.where(known, rows, 0)], -1)
        arms = np.searchsorted(self.offsets, np.maximum(flat, 0), side="right") - 1
        zero = rewards.max(axis=1) == rewards.min(axis=1) if rewards.size else np.zeros(0, bool)
        n = np.bincount(arms[known], minlength=self.num_arms)
        with np.errstate(invalid="ignore"):
            self._zero_var = (
                np.bincount(arms[known], weights=zero[known], minlength=self.num_arms) / n
            )
        self._zero_var_all = float(zero.mean()) if zero.size else float("nan")
        if rewards.size:
            self.group_size = rewards.shape[1]
        lo, hi = self.settings.reward_low, self.settings.reward_high
        r = np.clip((rewards - lo) / (hi - lo), 0.0, 1.0)
        succ, fail = r.sum(axis=1), (1.0 - r).sum(axis=1)
        fk, ak = flat[known], arms[known]
        # age the touched prompts' and all arms' evidence to this step, then add the new counts
        w = np.where(self.last[fk] >= 0, self._decay(self.step - self.last[fk]), 0.0)
        self.s[fk] *= w
        self.f[fk] *= w
        self.last[fk] = self.step
        np.add.at(self.s, fk, succ[known])
        np.add.at(self.f, fk, fail[known])
        wa = self._decay(self.step - self.arm_last)
        self.arm_s = self.arm_s * wa + np.bincount(ak, weights=succ[known], minlength=self.num_arms)
        self.arm_f = self.arm_f * wa + np.bincount(ak, weights=fail[known], minlength=self.num_arms)
        self.arm_last[:] = self.step
        self.step += 1

    # ----- metrics and state ---------------------------------------------------------------------
    def metrics(self, arms: list[str]) -> dict[str, float]:
        seen = np.add.reduceat((self.last >= 0).astype(np.int64), self.offsets)
        out: dict[str, float] = {}
        for i, arm in enumerate(arms):
            out[f"curriculum/{arm}/prompts_seen"] = float(seen[i])
            out[f"curriculum/{arm}/prompts_skipped"] = float(self._skipped[i])
            if not np.isnan(self._zero_var[i]):
                out[f"curriculum/{arm}/zero_var_frac"] = float(self._zero_var[i])
            if not np.isnan(self._pred[i]):
                out[f"curriculum/{arm}/pred_pass_rate"] = float(self._pred[i])
        if not math.isnan(self._zero_var_all):
            out["curriculum/zero_var_frac"] = self._zero_var_all
        return out

    def state_dict(self) -> dict:
        """Posterior of the prompts seen so far (sparse), arm counts, the rule's RNG, metrics."""
        idx = np.flatnonzero(self.last >= 0)
        return {
            "rule": self.config.rule if self.config else None,
            "sizes": self.sizes.tolist(),
            "seen": idx.tolist(),
            "s": self.s[idx].tolist(),
            "f": self.f[idx].tolist(),
            "last": self.last[idx].tolist(),
            "arm_s": self.arm_s.tolist(),
            "arm_f": self.arm_f.tolist(),
            "arm_last": self.arm_last.tolist(),
            "step": self.step,
            "group_size": self.group_size,
            "rng": self.rng.bit_generator.state,
            "skipped": self._skipped.tolist(),
            "pred": self._pred.tolist(),
            "zero_var": self._zero_var.tolist(),
            "zero_var_all": self._zero_var_all,
            "recent": [r.tolist() for r in self._recent],
        }

    def load_state_dict(self, sd: dict) -> None:
        rule = self.config.rule if self.config else None
        if sd.get("rule") != rule or list(sd["sizes"]) != self.sizes.tolist():
            raise UserError(
                f"prompt-level state is for rule {sd.get('rule')!r} over pools {list(sd['sizes'])}; "
                f"this run has rule {rule!r} over {self.sizes.tolist()}: the checkpoint belongs to "
                "another curriculum.prompt_level or training set"
            )
        idx = np.asarray(sd["seen"], dtype=np.int64)
        self.s[:], self.f[:], self.last[:] = 0.0, 0.0, -1
        self.s[idx] = sd["s"]
        self.f[idx] = sd["f"]
        self.last[idx] = sd["last"]
        self.arm_s = np.asarray(sd["arm_s"], dtype=np.float64)
        self.arm_f = np.asarray(sd["arm_f"], dtype=np.float64)
        self.arm_last = np.asarray(sd["arm_last"], dtype=np.int64)
        self.step = int(sd["step"])
        self.group_size = int(sd["group_size"])
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = sd["rng"]
        self._skipped = np.asarray(sd["skipped"], dtype=np.int64)
        self._pred = np.asarray(sd["pred"], dtype=np.float64)
        self._zero_var = np.asarray(sd["zero_var"], dtype=np.float64)
        self._zero_var_all = float(sd["zero_var_all"])
        self._recent = [np.asarray(r, dtype=np.int64) for r in sd["recent"]]

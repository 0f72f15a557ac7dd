"""Per-arm prompt queues: which prompt of an arm fills a slot.

The rule is the last bullets of docs/concepts/spec.md#belief-and-allocation.

Within an arm, prompts are drawn uniformly without replacement: each arm walks a random permutation
of its pool and reshuffles when it runs out. When a reshuffle happens in the middle of a batch, the
prompts this batch already took from the old permutation go to the end of the new one, so a batch has
no duplicate prompt unless the arm's share of the batch exceeds its pool.

    queues = ArmQueues([[0, 3, 7], [1, 2]], seed=0)   # pool of each arm (dataset indices)
    queues.draw(np.array([0, 1, 0, 0]))               # -> dataset index for each slot

``ArmQueues.from_sizes([3, 2], seed)`` is the same with positions ``0..size-1`` inside each arm.
The state (permutations, cursors, RNG) is in :meth:`state_dict`.
"""

from __future__ import annotations

import numpy as np

from pac_verl.errors import UserError


class ArmQueues:
    """Random permutation + cursor per arm; :meth:`draw` maps slot arms to pool entries."""

    def __init__(self, pools, seed: int = 0) -> None:
        self.pools = [np.asarray(p, dtype=np.int64).ravel() for p in pools]
        for i, p in enumerate(self.pools):
            if p.size == 0:
                raise UserError(
                    f"arm queue {i} has an empty pool: every arm needs at least one prompt"
                )
        self.sizes = np.array([p.size for p in self.pools], dtype=np.int64)
        self.offsets = np.concatenate([[0], np.cumsum(self.sizes)[:-1]]).astype(np.int64)
        self.rng = np.random.default_rng(seed)
        # One flat array: arm a's current permutation (of pool positions) is order[off_a:off_a+n_a].
        self.order = np.concatenate([self.rng.permutation(n) for n in self.sizes]).astype(np.int64)
        self.cursor = np.zeros(len(self.pools), dtype=np.int64)
        self._flat_pool = np.concatenate(self.pools)

    @classmethod
    def from_sizes(cls, sizes, seed: int = 0) -> ArmQueues:
        return cls([np.arange(int(n)) for n in sizes], seed)

    def draw(self, arm_ids) -> np.ndarray:
        """Pool entry for every slot; slot order within an arm follows the arm's permutation."""
        arm_ids = np.asarray(arm_ids, dtype=np.int64)
        n_arms = len(self.pools)
        if arm_ids.size and (arm_ids.min() < 0 or arm_ids.max() >= n_arms):
            raise UserError(f"ArmQueues.draw: arm ids must be in [0, {n_arms})")
        counts = np.bincount(arm_ids, minlength=n_arms)
        order = np.argsort(arm_ids, kind="stable")
        arm_sorted = arm_ids[order]
        rank = np.arange(arm_ids.size) - (np.cumsum(counts) - counts)[arm_sorted]
        # Rare path (an arm's permutation runs out): extend it; a loop over those arms only.
        extended: dict[int, np.ndarray] = {}
        for a in np.flatnonzero(self.cursor + counts > self.sizes):
            extended[int(a)] = self._extend(int(a), int(counts[a]))
        picks = np.empty(arm_ids.size, dtype=np.int64)
        pos = self.cursor[arm_sorted] + rank
        fast = np.ones(arm_ids.size, dtype=bool)
        for a, seq in extended.items():
            sel = arm_sorted == a
            fast &= ~sel
            picks[sel] = seq[rank[sel]]
        picks[fast] = self.order[self.offsets[arm_sorted[fast]] + pos[fast]]
        out = np.empty(arm_ids.size, dtype=np.int64)
        out[order] = self._flat_pool[self.offsets[arm_sorted] + picks]
        fast_arms = np.setdiff1d(np.flatnonzero(counts), list(extended), assume_unique=True)
        self.cursor[fast_arms] += counts[fast_arms]
        return out

    def _extend(self, a: int, need: int) -> np.ndarray:
        """Positions for ``need`` draws of arm ``a`` across reshuffles; updates its permutation."""
        n, off = int(self.sizes[a]), int(self.offsets[a])
        perm = self.order[off : off + n].copy()  # a copy: the slice is overwritten below
        seq = [perm[self.cursor[a] :]]
        taken = set(seq[0].tolist())
        got = len(seq[0])
        while True:
            fresh = self.rng.permutation(n)
            if taken and len(taken) < n:
                used = np.isin(fresh, list(taken))
                fresh = np.concatenate([fresh[~used], fresh[used]])
            take = min(n, need - got)
            seq.append(fresh[:take])
            got += take
            taken.update(fresh[:take].tolist())
            if len(taken) >= n:
                taken = set()
            if got >= need:
                self.order[off : off + n] = fresh
                self.cursor[a] = take
                return np.concatenate(seq)

    def state_dict(self) -> dict:
        return {
            "sizes": self.sizes.tolist(),
            "order": self.order.tolist(),
            "cursor": self.cursor.tolist(),
            "rng": _plain_state(self.rng.bit_generator.state),
        }

    def load_state_dict(self, sd: dict) -> None:
        if list(sd["sizes"]) != self.sizes.tolist():
            raise UserError(
                f"arm queue state is for pool sizes {list(sd['sizes'])}, these pools have "
                f"{self.sizes.tolist()}: the training data changed since the checkpoint"
            )
        self.order = np.asarray(sd["order"], dtype=np.int64)
        self.cursor = np.asarray(sd["cursor"], dtype=np.int64)
        self.rng = np.random.default_rng()
        self.rng.bit_generator.state = sd["rng"]


def _plain_state(state: dict) -> dict:
    return {k: (_plain_state(v) if isinstance(v, dict) else v) for k, v in state.items()}

"""Property tests: any arm count, batch size, group size and feedback -> no crash, no NaN."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pac_verl.curriculum import CONTROLLER_NAMES, make_controller

FEEDBACK = st.sampled_from(["random", "all_equal", "one_arm_only", "empty_steps"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(CONTROLLER_NAMES),
    n_arms=st.integers(1, 6),
    batch=st.integers(1, 12),
    g=st.integers(1, 4),
    steps=st.integers(1, 25),
    window=st.integers(1, 5),
    feedback=FEEDBACK,
    seed=st.integers(0, 2**32 - 1),
)
def test_no_crash_no_nan(name, n_arms, batch, g, steps, window, feedback, seed):
    arms = [f"t{i}/1" for i in range(n_arms)]
    kw = {}
    if name.startswith("pac"):
        kw = {"window": window, "min_trend_points": min(3, window), "cold_start": 3}
    elif name == "single":
        kw = {"train_arms": [arms[-1]]}
    c = make_controller(name, arms, batch, seed=seed % 1000, **kw)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        slots = c.allocate()
        assert slots.shape == (batch,) and slots.min() >= 0 and slots.max() < n_arms
        m = c.metrics()
        shares = [m[f"curriculum/{a}/share"] for a in arms]
        assert math.isclose(sum(shares), 1.0, rel_tol=1e-9)
        ids = slots
        if feedback == "one_arm_only":
            ids = np.zeros_like(slots)  # the other arms are never sampled
        elif feedback == "empty_steps":
            ids = slots[: rng.integers(0, batch + 1)]  # some steps carry no prompt at all
        if feedback == "all_equal":
            rewards = np.ones((len(ids), g))  # every rollout the same: advantages 0
            adv = np.zeros((len(ids), g))
        else:
            rewards = (rng.random((len(ids), g)) < 0.5).astype(float)
            std = rewards.std(axis=1, ddof=1, keepdims=True) if g > 1 else np.ones((len(ids), 1))
            adv = (rewards - rewards.mean(axis=1, keepdims=True)) / (std + 1e-6)
        c.update(ids, rewards, adv)
        m = c.metrics()
        assert all(math.isfinite(v) for v in m.values()), m
        if hasattr(c, "mu"):
            assert np.all(np.isfinite(c.mu)) and np.all(c.sigma2 > 0)
    assert c.step == steps


@settings(max_examples=80, deadline=None)
@given(
    mu=st.lists(st.floats(-50, 50), min_size=1, max_size=30),
    sd_seed=st.integers(0, 2**16),
)
def test_thompson_probabilities_are_a_distribution(mu, sd_seed):
    from pac_verl.curriculum.sampling import draw_thompson, thompson_probabilities

    mu = np.array(mu)
    sd = np.exp(np.random.default_rng(sd_seed).uniform(np.log(0.1), np.log(20), len(mu)))
    p = thompson_probabilities(mu, sd)
    if p is not None:  # None: grid too large, the sampler then draws directly
        assert np.all(np.isfinite(p)) and np.all(p >= 0)
        assert math.isclose(p.sum(), 1.0, rel_tol=1e-9)
        # the arm with the highest upper 7-sigma quantile is never pruned
        assert p[np.argmax(mu + 7 * sd)] > 0
    slots = draw_thompson(np.random.default_rng(0), mu, sd, 16, method="quadrature")
    assert slots.min() >= 0 and slots.max() < len(mu)


@settings(max_examples=60, deadline=None)
@given(
    sizes=st.lists(st.integers(1, 7), min_size=1, max_size=4),
    batches=st.lists(st.lists(st.integers(0, 3), max_size=12), min_size=1, max_size=6),
    seed=st.integers(0, 1000),
)
def test_arm_queues_draw_from_the_pool_without_needless_repeats(sizes, batches, seed):
    from pac_verl.curriculum import ArmQueues

    pools = [list(range(100 * a, 100 * a + n)) for a, n in enumerate(sizes)]
    q = ArmQueues(pools, seed=seed)
    used = [np.zeros(n, dtype=int) for n in sizes]
    for batch in batches:
        ids = np.array([b % len(sizes) for b in batch], dtype=np.int64)
        out = q.draw(ids)
        assert out.shape == ids.shape
        for a, n in enumerate(sizes):
            got = out[ids == a].tolist()
            assert all(x in pools[a] for x in got)
            if len(got) <= n:  # the share fits in the pool: no duplicate inside the batch
                assert len(set(got)) == len(got)
            else:  # larger share: every prompt of the pool appears
                assert set(got) == set(pools[a])
            np.add.at(used[a], np.array(got, dtype=int) - 100 * a, 1)
            # walking permutations: all passes but the current one are complete, so usage
            # counts of an arm's prompts never differ by more than one
            assert used[a].max() - used[a].min() <= 1

"""Allocation rules: cold start, Thompson sampling, Boltzmann (pac_no_ts, SEC), DUMP, single, random.

Frequency checks draw many slots at a fixed seed and allow 5 standard errors per arm:
|f_i - p_i| <= 5 * sqrt(p_i (1 - p_i) / n) (+ the reference's own error where it is Monte Carlo).
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from pac_verl.curriculum import make_controller
from pac_verl.curriculum.sampling import draw_thompson, log_ndtr, thompson_probabilities

ARMS9 = [f"{t}/{lv}" for t in ("arc", "countdown", "zebra") for lv in (1, 2, 3)]


def frequencies(ctrl, rounds: int) -> tuple[np.ndarray, int]:
    counts = np.zeros(len(ctrl.arms))
    for _ in range(rounds):
        counts += np.bincount(ctrl.allocate(), minlength=len(ctrl.arms))
    n = rounds * ctrl.batch_size
    return counts / n, n


def assert_matches(freq, p, n, n_ref=None):
    p = np.asarray(p)
    var = p * (1 - p) / n + (p * (1 - p) / n_ref if n_ref else 0)
    assert np.all(np.abs(freq - p) <= 5 * np.sqrt(var) + 1e-12), (freq, p)


def test_cold_start_is_uniform_even_when_one_arm_looks_best():
    c = make_controller("pac", ARMS9, batch_size=900, seed=3)
    arm_ids = np.repeat(np.arange(9), 100)  # 100 prompts per arm: rho = 100 / (900 / 9) = 1
    adv = np.zeros((900, 2))
    adv[:100] = [1, -1]  # only arm 0 has a learning signal: u_0 = 1, u_others = 0
    rewards = np.zeros((900, 2))
    for _ in range(49):  # steps 0..48
        c.update(arm_ids, rewards, adv)
    assert c.mu[0] > 0.9 and np.all(np.abs(c.mu[1:]) < 1e-9)  # the posterior prefers arm 0 ...
    counts = np.bincount(c.allocate(), minlength=9)  # ... but step 49 < T_cold = 50 is uniform
    expected = 900 / 9
    chi2 = ((counts - expected) ** 2 / expected).sum()
    assert chi2 < 26.12  # chi-square, 8 degrees of freedom, 0.999 quantile
    c.update(arm_ids, rewards, adv)  # step 49 trained; step 50 uses Thompson sampling
    # sigma2 of every arm is near the fixed point s = s / (1 + s) + .02, s ~ .151, so another
    # arm's draw beats arm 0's with probability about P(Z > 1 / sqrt(.30)) ~ .034 each
    assert np.bincount(c.allocate(), minlength=9)[0] > 450


def reference_argmax_probabilities(mu, sd, grid=40001):
    """P(arm i's draw is the max) by the trapezoid rule with math.erf (independent of the code)."""
    lo, hi = min(mu - 9 * sd), max(mu + 9 * sd)
    x = np.linspace(lo, hi, grid)
    erf = np.vectorize(math.erf)
    cdf = np.array([0.5 * (1 + erf((x - m) / (s * math.sqrt(2)))) for m, s in zip(mu, sd)])
    pdf = np.array(
        [np.exp(-0.5 * ((x - m) / s) ** 2) / (s * math.sqrt(2 * math.pi)) for m, s in zip(mu, sd)]
    )
    p = []
    for i in range(len(mu)):
        others = np.prod(np.delete(cdf, i, axis=0), axis=0)
        p.append(np.trapz(pdf[i] * others, x))
    return np.array(p)


MU = np.array([0.1, 0.3, 0.2, -1.0, 0.25])
SD = np.array([0.3, 0.5, 0.15, 2.0, 0.4])


def test_log_ndtr_matches_math_erf():
    x = np.linspace(-35, 8, 861)
    ref = np.array([math.log(0.5 * math.erfc(-v / math.sqrt(2))) for v in x])
    np.testing.assert_allclose(np.exp(log_ndtr(x) - ref), 1.0, atol=2e-7)


def test_quadrature_probabilities_match_reference():
    p_ref = reference_argmax_probabilities(MU, SD)
    assert p_ref.sum() == pytest.approx(1.0, abs=1e-6)
    np.testing.assert_allclose(thompson_probabilities(MU, SD), p_ref, atol=1e-6)


@pytest.mark.parametrize("method", ["direct", "quadrature"])
def test_thompson_frequencies_match_argmax_probability(method):
    p_ref = reference_argmax_probabilities(MU, SD)
    c = make_controller("pac", [f"x{i}" for i in range(5)], batch_size=4000, seed=7)
    c.config.cold_start = 0
    c.config.thompson_method = method
    c.mu, c.sigma2 = MU.copy(), SD**2
    freq, n = frequencies(c, 25)  # n = 100,000 slots
    assert_matches(freq, p_ref, n)


def test_quadrature_prunes_hopeless_arms_and_matches_monte_carlo_at_large_n():
    rng = np.random.default_rng(0)
    n_arms = 300
    mu = rng.normal(0, 1, n_arms)
    sd = rng.uniform(0.15, 1.0, n_arms)
    p = thompson_probabilities(mu, sd)
    # Monte Carlo reference: 200,000 slots of explicit argmax of normals
    ref = np.zeros(n_arms)
    for _ in range(20):
        v = rng.normal(mu, sd, size=(10_000, n_arms))
        ref += np.bincount(v.argmax(axis=1), minlength=n_arms)
    ref /= 200_000
    q = draw_thompson(np.random.default_rng(1), mu, sd, 200_000, method="quadrature")
    freq = np.bincount(q, minlength=n_arms) / 200_000
    # two samples of 200,000: pooled p, variance p (1 - p) (2 / n), 5 sigma, + 3 counts of slack
    # for the many arms with p ~ 1e-5 where the normal approximation is poor
    pooled = (freq + ref) / 2
    tol = 5 * np.sqrt(pooled * (1 - pooled) * 2 / 200_000) + 3 / 200_000
    assert np.all(np.abs(freq - ref) <= tol)
    assert np.all(np.abs(p - ref) <= tol)
    assert (p == 0).sum() > 0  # arms far below the leaders are never drawn


def test_direct_fallback_when_grid_too_large():
    # widths 0.001 vs 50: the grid would need ~10^6 points -> direct draws, still correct
    mu, sd = np.array([0.0, 0.0]), np.array([1e-3, 50.0])
    assert thompson_probabilities(mu, sd) is None
    slots = draw_thompson(np.random.default_rng(0), mu, sd, 20_000, method="quadrature")
    # P(N(0, 50^2) > N(0, tiny)) = 1/2
    assert abs(np.mean(slots == 1) - 0.5) <= 5 * math.sqrt(0.25 / 20_000)


def test_pac_no_ts_boltzmann_probabilities():
    c = make_controller("pac_no_ts", ["a", "b", "c"], batch_size=10_000, seed=1, cold_start=0)
    c.utility = np.array([0.0, 1.0, 2.0])
    # e^0, e^1, e^2 = 1, 2.718282, 7.389056; sum 11.107338 -> .090031, .244728, .665241
    freq, n = frequencies(c, 3)
    assert_matches(freq, [0.090031, 0.244728, 0.665241], n)


def test_sec_update_decay_and_boltzmann():
    """alpha = .5, T = .2. step 0: a = (.8, -, .2); step 1: a = (-, .6, -) (- = not sampled).

    decay_unsampled (released code): Q = (.4, 0, .1) then (.2, .3, .05)
    paper text:                      Q = (.4, 0, .1) then (.4, .3, .1)
    """
    ctrls = {
        d: make_controller("sec", ["a", "b", "c"], 10_000, seed=2, decay_unsampled=d)
        for d in (True, False)
    }
    for c in ctrls.values():
        c.update([0, 2], [[1, 0], [1, 1]], [[0.8, -0.8], [0.2, 0.2]])
        np.testing.assert_allclose(c.q, [0.4, 0.0, 0.1])
        c.update([1], [[1, 0]], [[0.6, -0.6]])
    np.testing.assert_allclose(ctrls[True].q, [0.2, 0.3, 0.05])
    np.testing.assert_allclose(ctrls[False].q, [0.4, 0.3, 0.1])
    assert ctrls[True].metrics()["curriculum/b/utility"] == pytest.approx(0.3)
    # softmax(Q / .2) = softmax(1, 1.5, .25): e^1 = 2.718282, e^1.5 = 4.481689, e^.25 = 1.284025
    # sum 8.483996 -> .320402, .528252, .151347
    freq, n = frequencies(ctrls[True], 3)
    assert_matches(freq, [0.320402, 0.528252, 0.151347], n)


def test_dump_window_score_and_unseen_first():
    c = make_controller("dump", ["a", "b", "c"], batch_size=1000, seed=0, window=4)
    first = c.allocate()
    assert set(first.tolist()) == {0, 1, 2}  # all unseen: uniform over all arms
    c.update([0, 1], [[1, 0], [1, 0]], [[1, -1], [0.5, 0.5]])
    assert set(c.allocate().tolist()) == {2}  # arm c still unseen: it goes first
    c.update([0, 0], [[1, 1], [1, 0]], [[2, 2], [3, -3]])
    # arm a saw |A| 1, 1, 2, 2, 3, 3; window 4 keeps 2, 2, 3, 3 -> mean 2.5; n_a = 6
    # arm b: .5, .5 -> mean .5; n_b = 2; N_total = 8
    # score_a = 2.5 + sqrt(2 ln 9 / 7) = 2.5 + .792325 ; score_b = .5 + sqrt(2 ln 9 / 3) = 1.710296
    np.testing.assert_allclose(c.score[:2], [3.292325, 1.710296], atol=1e-6)
    c.update([2, 0], [[1, 0], [1, 1]], [[1, -1], [4, 4]])
    # arm a window wraps: 3, 3, 4, 4 -> 3.5; arm c: 1, 1 -> 1; N_total = 12
    # ln 13 = 2.564949: score_a = 3.5 + sqrt(.569989) = 4.254976;
    # score_c = 1 + sqrt(1.709966) = 2.307657
    np.testing.assert_allclose(c.score[[0, 2]], [4.254976, 2.307657], atol=1e-6)
    # softmax(score / .1): arm a dominates (differences of 19.5 and 15.5 in exponent)
    assert np.all(c.allocate() == 0)


def test_dump_unseen_first_can_be_switched_off():
    c = make_controller("dump", ["a", "b"], batch_size=1000, seed=0, unseen_first=False)
    c.update([0], [[1, 0]], [[5, 5]])
    # score_a = 5 + sqrt(2 ln 3 / 3) = 5.855800 ; score_b = 0 + sqrt(2 ln 3 / 1) = 1.482304
    assert np.all(c.allocate() == 0)


def test_single_task_and_random():
    c = make_controller("single", ARMS9, batch_size=3000, seed=0, train_arms=["countdown"])
    assert c.config.train_arms == ["countdown/1", "countdown/2", "countdown/3"]
    freq, n = frequencies(c, 1)
    assert_matches(freq, [0, 0, 0, 1 / 3, 1 / 3, 1 / 3, 0, 0, 0], n)
    one = make_controller("single", ARMS9, batch_size=50, seed=0, train_arms="zebra/2")
    assert set(one.allocate().tolist()) == {7}
    r = make_controller("random", ARMS9, batch_size=9000, seed=0)
    freq, n = frequencies(r, 1)
    assert_matches(freq, np.full(9, 1 / 9), n)


def test_shares_and_entropy_metric():
    c = make_controller(
        "single", ["a", "b", "c", "d"], batch_size=4000, seed=0, train_arms=["a", "b"]
    )
    slots = c.allocate()
    m = c.metrics()
    share_a = np.mean(slots == 0)
    assert m["curriculum/a/share"] == pytest.approx(share_a)
    assert m["curriculum/c/share"] == 0.0
    # entropy = -(s ln s + (1 - s) ln(1 - s)) nats, about ln 2 = .693147 for s ~ 1/2
    expected = -(share_a * math.log(share_a) + (1 - share_a) * math.log(1 - share_a))
    assert m["curriculum/entropy"] == pytest.approx(expected)
    assert m["curriculum/entropy"] == pytest.approx(math.log(2), abs=2e-3)

"""The signal and belief formulas (docs/concepts/spec.md#signals,
docs/concepts/spec.md#belief-and-allocation) on small hand-worked examples (every number worked out below)."""

from __future__ import annotations

import numpy as np
import pytest

from pac_verl.curriculum import make_controller
from pac_verl.curriculum.signals import normalise_progress

ARMS2 = ["a", "b"]


def feed_three_steps(name: str, **overrides):
    """Two arms, B=4 (so B/N = 2), W=4, G=2; the three steps of the worked example below.

    step 0: arm a prompts  r=[1,0] A=[1,-1]  and r=[1,1] A=[0,0];  arm b  r=[0,0] A=[.5,-.5]
            a_a(0) = (1 + 0)/2 = 0.5,  rbar_a(0) = (1+0+1+1)/4 = 0.75
            a_b(0) = 0.5,              rbar_b(0) = 0
    step 1: arm b only: r=[1,0] A=[2,-2] and r=[0,0] A=[0,0]
            a_b(1) = (2 + 0)/2 = 1,    rbar_b(1) = 1/4 = 0.25
    step 2: arm a r=[0,0] A=[0,0];  arm b r=[1,1] A=[1,1]
            a_a(2) = 0, rbar_a(2) = 0;  a_b(2) = 1, rbar_b(2) = 1
    """
    c = make_controller(name, ARMS2, batch_size=4, seed=0, window=4, **overrides)
    c.update([0, 0, 1], [[1, 0], [1, 1], [0, 0]], [[1, -1], [0, 0], [0.5, -0.5]])
    c.update([1, 1], [[1, 0], [0, 0]], [[2, -2], [0, 0]])
    c.update([0, 1], [[0, 0], [1, 1]], [[0, 0], [1, 1]])
    return c


def test_s_adv_averages_observed_steps_only():
    c = feed_three_steps("pac")
    # arm a observed at steps 0 and 2: (0.5 + 0) / 2 = 0.25 (not / W = 4, not / 3 steps)
    # arm b observed at steps 0, 1, 2: (0.5 + 1 + 1) / 3 = 0.8333...
    np.testing.assert_allclose(c.s_adv, [0.25, 2.5 / 3], rtol=1e-12)
    m = c.metrics()
    assert m["curriculum/a/s_adv"] == pytest.approx(0.25)


def test_trend_slope_tau_and_min_points():
    c = feed_three_steps("pac")
    # t = 2, W = 4: t_first = -1, tau(t') = (t' + 1) / 3 -> 1/3, 2/3, 1
    # arm a: 2 observed steps < min_trend_points = 3 -> k_a = 0
    # arm b: tau = (1/3, 2/3, 1), rbar = (0, .25, 1); mean tau = 2/3, dt = (-1/3, 0, 1/3)
    #   Sxx = 2/9, Sxy = sum dt * rbar = 1/3, k_b = (1/3) / (2/9) = 1.5
    k = c.window.slopes(c.step - 1, min_points=3)
    np.testing.assert_allclose(k, [0.0, 1.5], rtol=1e-12)
    # s_prog = k / (|0| + |1.5| + 1e-9)
    np.testing.assert_allclose(c.s_prog, [0.0, 1.5 / (1.5 + 1e-9)], rtol=1e-12)
    # with min_trend_points = 2, arm a gets a slope from 2 points: tau (1/3, 1), rbar (.75, 0)
    #   slope = (0 - .75) / (1 - 1/3) = -1.125
    np.testing.assert_allclose(c.window.slopes(c.step - 1, min_points=2), [-1.125, 1.5])


def test_window_drops_old_steps_and_positions_tau_from_nominal_first_step():
    """W = 3, steps 0..4; at t = 4 only steps 2, 3, 4 count, tau = (0, .5, 1)."""
    c = make_controller("pac", ARMS2, batch_size=2, seed=0, window=3, min_trend_points=3)
    # arm a: rbar 1, 1 at steps 0-1 (must be forgotten), then 0, .5, .5; |A| 10, 10, then 1, 2, 3
    # arm b: rbar 0, 0 at steps 0-1, then 1, 1, 0; |A| 0.5 throughout
    ra = [1, 1, 0, 0.5, 0.5]
    aa = [10, 10, 1, 2, 3]
    rb = [0, 0, 1, 1, 0]
    for t in range(5):
        c.update([0, 1], [[ra[t], ra[t]], [rb[t], rb[t]]], [[aa[t], -aa[t]], [0.5, 0.5]])
    # s_adv_a = (1 + 2 + 3) / 3 = 2 ; s_adv_b = 0.5
    np.testing.assert_allclose(c.s_adv, [2.0, 0.5])
    # arm a: sum dt * r = -.5 * 0 + 0 * .5 + .5 * .5 = .25, Sxx = .5 -> k = .5
    # arm b: sum dt * r = -.5 * 1 + 0 + .5 * 0 = -.5 -> k = -1
    # s_prog = (.5, -1) / 1.5 = (1/3, -2/3)
    np.testing.assert_allclose(c.s_prog, [1 / 3, -2 / 3], rtol=1e-8)
    # fused utility: (1 + 1/3) * 2 = 8/3, (1 - 2/3) * .5 = 1/6
    np.testing.assert_allclose(c.utility, [8 / 3, 1 / 6], rtol=1e-8)


def test_window_of_one_step_has_zero_slope():
    c = make_controller("pac", ARMS2, batch_size=2, seed=0, window=1, min_trend_points=1)
    for r in (0.0, 0.5, 1.0):
        c.update([0, 1], [[r, r], [1 - r, 1 - r]], [[1, -1], [1, -1]])
    np.testing.assert_array_equal(c.s_prog, [0.0, 0.0])  # zero spread in tau -> k = 0
    np.testing.assert_allclose(c.utility, [1.0, 1.0])  # (1 + 0) * s_adv, s_adv = 1


def test_prog_normalisation():
    # k = (2, -1, 1): sum |k| = 4 -> (0.5, -0.25, 0.25); all zero -> zeros (eps keeps it finite)
    np.testing.assert_allclose(
        normalise_progress(np.array([2.0, -1.0, 1.0]), 0.0), [0.5, -0.25, 0.25]
    )
    np.testing.assert_array_equal(normalise_progress(np.zeros(3), 1e-9), np.zeros(3))


def test_utility_variants():
    # From the three-step example: s_adv = (0.25, 5/6), s_prog = (0, 1.5 / (1.5 + 1e-9)) ~ (0, 1)
    sp = 1.5 / (1.5 + 1e-9)
    pac = feed_three_steps("pac")
    np.testing.assert_allclose(pac.utility, [0.25, (1 + sp) * 2.5 / 3], rtol=1e-12)
    no_adv = feed_three_steps("pac_no_adv")
    np.testing.assert_allclose(no_adv.utility, [0.0, sp], rtol=1e-12)
    no_prog = feed_three_steps("pac_no_prog")
    np.testing.assert_allclose(no_prog.utility, [0.25, 2.5 / 3], rtol=1e-12)
    no_ts = feed_three_steps("pac_no_ts")
    np.testing.assert_allclose(no_ts.utility, pac.utility, rtol=1e-12)
    assert "curriculum/a/posterior_mean" not in no_ts.metrics()


def test_precision_weighted_update_and_inflation():
    """Posterior after the three steps, B/N = 2, prior (0, 1), delta2 = 0.02.

    step 0: u = (0.5, 0.5) (one point per arm, slopes 0); c = (2, 1) -> rho = (1, .5)
      a: eta = 1 + 1 = 2,     mu = (0 + 1 * .5) / 2 = .25,        s2 = 1/2 + .02 = .52
      b: eta = 1 + .5 = 1.5,  mu = (.5 * .5) / 1.5 = 1/6,         s2 = 1/1.5 + .02
    step 1: u = (0.5, 0.75); c = (0, 2) -> rho = (0, 1)
      a (unsampled): mu stays .25, s2 = .52 + .02 = .54
      b: eta = 1/s2 + 1,  mu = (mu/s2 + .75) / eta,  s2 = 1/eta + .02
    step 2: u = (0.25, (1 + sp) * 5/6); c = (1, 1) -> rho = (.5, .5)
    """
    c = feed_three_steps("pac")
    sp = 1.5 / (1.5 + 1e-9)
    mu_a, s2_a = 0.25, 0.54
    eta = 1 / s2_a + 0.5
    mu_a, s2_a = (mu_a / s2_a + 0.5 * 0.25) / eta, 1 / eta + 0.02
    mu_b, s2_b = 1 / 6, 1 / 1.5 + 0.02
    eta = 1 / s2_b + 1
    mu_b, s2_b = (mu_b / s2_b + 0.75) / eta, 1 / eta + 0.02
    eta = 1 / s2_b + 0.5
    mu_b, s2_b = (mu_b / s2_b + 0.5 * (1 + sp) * 2.5 / 3) / eta, 1 / eta + 0.02
    # a: its step-2 utility .25 equals its mean .25, so the mean stays .25
    assert mu_a == pytest.approx(0.25)
    np.testing.assert_allclose(c.mu, [mu_a, mu_b], rtol=1e-12)
    np.testing.assert_allclose(c.sigma2, [s2_a, s2_b], rtol=1e-12)
    m = c.metrics()
    assert m["curriculum/b/posterior_std"] == pytest.approx(np.sqrt(s2_b))
    # by hand: step 1 b: eta = 1.456311 + 1, mu = (.242718 + .75) / 2.456311 = .404150,
    #   s2 = .407115 + .02 = .427115; step 2 b: eta = 2.341293 + .5 = 2.841293,
    #   mu = (.946233 + .833333) / 2.841293 = .626322, s2 = .351952 + .02 = .371952
    assert (mu_b, s2_b) == pytest.approx((0.626322, 0.371952), abs=2e-6)


def test_unsampled_arm_only_inflates():
    c = make_controller("pac", ARMS2, batch_size=2, seed=0)
    c.update([0, 0], [[1, 0], [1, 0]], [[1, -1], [1, -1]])
    # arm b: c = 0 -> rho = 0: mu = (0/1) / (1/1) = 0, s2 = 1 + 0.02
    assert c.mu[1] == 0.0 and c.sigma2[1] == pytest.approx(1.02)
    c.update([0, 0], [[1, 0], [1, 0]], [[1, -1], [1, -1]])
    assert c.mu[1] == 0.0 and c.sigma2[1] == pytest.approx(1.04)


def test_reward_and_abs_adv_metrics_only_for_arms_in_last_step():
    c = feed_three_steps("pac")
    m = c.metrics()
    # last step: arm a r=[0,0] A=[0,0]; arm b r=[1,1] A=[1,1]
    assert m["curriculum/a/reward"] == 0.0 and m["curriculum/b/reward"] == 1.0
    assert m["curriculum/b/abs_adv"] == 1.0
    c.update([1], [[0.5, 0.5]], [[0, 0]])
    assert "curriculum/a/reward" not in c.metrics()

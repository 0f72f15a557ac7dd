"""Random draws shared by the controllers: categorical slots and sequential Thompson sampling.

Sequential Thompson sampling (paper Section "Bayesian Curriculum Controller", Algorithm 1): each of
the B slots of a batch draws ``v_j ~ N(mu_j, sigma2_j)`` for every arm j and takes the argmax. The B
slots are independent, so the batch is B i.i.d. draws from the categorical distribution

    p_i = P(arm i's draw is the largest) = integral phi_i(x) prod_{j != i} Phi_j(x) dx.

Two ways to draw it are implemented (the same distribution: the quadrature's p is accurate to
about 1e-6 absolute, tested against an independent integration), and :func:`draw_thompson` picks
the cheaper:

- ``direct``: draw the B x N normals and take the row argmax (cheap for small B * N);
- ``quadrature``: compute p once per step on a grid (log-space, vectorised over arms), then draw B
  categoricals. Arms whose draw cannot be the largest except with probability below ~1e-12 are given
  p = 0 first. The grid step is a quarter of the smallest relevant posterior std; the integrand is
  smooth on that scale and vanishes at both grid ends, so the trapezoid rule is accurate far beyond
  what B draws can resolve (the normal CDF itself is accurate to 1.2e-7 relative, see
  :func:`log_ndtr`). When the grid would exceed ``MAX_GRID`` points (posteriors of very different
  widths far apart) the direct method is used for that step.

``auto`` compares the two costs (B x N draws vs grid points x relevant arms, see ``QUADRATURE_COST``);
the choice depends only on B and the posterior, so a restored controller makes the same choice.
"""

from __future__ import annotations

import numpy as np

#: ``auto`` uses quadrature when QUADRATURE_COST * grid points * relevant arms < B * N, i.e. when
#: it is cheaper than B x N normal draws: one grid cell (log-CDF, ~20 vectorised operations)
#: costs about this many normal draws (measured with scripts/bench/controller.py).
QUADRATURE_COST = 6.0
#: Arms whose upper ``TAIL_Z`` quantile lies below the largest lower ``TAIL_Z`` quantile get p = 0.
TAIL_Z = 7.0
#: Most grid points the quadrature may use before falling back to direct draws.
MAX_GRID = 4096

# Chebyshev-fitted erfc (fractional error < 1.2e-7 everywhere; Press et al., Numerical Recipes,
# "erfcc"): erfc(z) = t * exp(-z^2 + P(t)), t = 1 / (1 + z / 2), z >= 0.
_ERFC_COEF = (
    -1.26551223,
    1.00002368,
    0.37409196,
    0.09678418,
    -0.18628806,
    0.27886807,
    -1.13520398,
    1.48851587,
    -0.82215223,
    0.17087277,
)
_LOG2 = float(np.log(2.0))
_SQRT1_2 = float(np.sqrt(0.5))


def _log_erfc_nonneg(z: np.ndarray) -> np.ndarray:
    """log erfc(z) for z >= 0, computed in log space so that the far tail never underflows."""
    t = 1.0 / (1.0 + 0.5 * z)
    poly = np.full_like(t, _ERFC_COEF[-1])
    for c in _ERFC_COEF[-2::-1]:
        poly *= t
        poly += c
    return np.log(t) - z * z + poly


def log_ndtr(x: np.ndarray) -> np.ndarray:
    """log Phi(x) of the standard normal CDF, vectorised, stable for very negative x."""
    x = np.asarray(x, dtype=np.float64)
    w = -x * _SQRT1_2  # Phi(x) = erfc(w) / 2
    le = _log_erfc_nonneg(np.abs(w))
    # w >= 0 (x <= 0): log(erfc(w) / 2); w < 0: Phi = 1 - erfc(|w|) / 2.
    return np.where(w >= 0, le - _LOG2, np.log1p(-0.5 * np.exp(le)))


def draw_categorical(rng: np.random.Generator, p: np.ndarray, size: int) -> np.ndarray:
    """``size`` i.i.d. draws of an index from the probabilities ``p`` (one uniform per draw)."""
    cdf = np.cumsum(p)
    u = rng.random(size) * cdf[-1]
    return np.minimum(np.searchsorted(cdf, u, side="right"), len(p) - 1).astype(np.int64)


def softmax(x: np.ndarray, temperature: float = 1.0) -> np.ndarray:
    """Boltzmann probabilities ``exp(x / T) / sum exp(x / T)`` (max-shifted for stability)."""
    z = np.asarray(x, dtype=np.float64) / temperature
    z = np.exp(z - z.max())
    return z / z.sum()


def _grid_plan(mu: np.ndarray, sd: np.ndarray) -> tuple[np.ndarray, float, float, int]:
    """Arms that can win, and the grid (lo, hi, points) for :func:`thompson_probabilities`."""
    lo = float(np.max(mu - TAIL_Z * sd))
    upper = mu + TAIL_Z * sd
    hi = float(np.max(upper))
    relevant = np.flatnonzero(upper > lo)
    h = float(sd[relevant].min()) / 4.0
    return relevant, lo, hi, max(int(np.ceil((hi - lo) / h)) + 1, 3)


def thompson_probabilities(mu: np.ndarray, sd: np.ndarray) -> np.ndarray | None:
    """p_i = P(argmax_j v_j = i) for independent ``v_j ~ N(mu_j, sd_j^2)``, by quadrature.

    Returns ``None`` when the grid would need more than ``MAX_GRID`` points.
    """
    mu = np.asarray(mu, dtype=np.float64)
    sd = np.asarray(sd, dtype=np.float64)
    n = len(mu)
    if n == 1:
        return np.ones(1)
    relevant, lo, hi, k = _grid_plan(mu, sd)
    if k > MAX_GRID:
        return None
    mu_r, sd_r = mu[relevant], sd[relevant]
    x = np.linspace(lo, hi, k)
    z = (x[:, None] - mu_r[None, :]) / sd_r[None, :]
    log_cdf = log_ndtr(z)
    # log of phi_i(x) * prod_{j != i} Phi_j(x), dropping the constant -log(sqrt(2 pi)).
    log_integrand = (-0.5 * z * z - np.log(sd_r)[None, :]) + (
        log_cdf.sum(axis=1, keepdims=True) - log_cdf
    )
    mass = np.exp(log_integrand - log_integrand.max()).sum(axis=0)
    p = np.zeros(n)
    p[relevant] = mass / mass.sum()
    return p


def draw_thompson(
    rng: np.random.Generator, mu: np.ndarray, sd: np.ndarray, size: int, method: str = "auto"
) -> np.ndarray:
    """``size`` slots of sequential Thompson sampling: each is ``argmax_j`` of ``N(mu_j, sd_j^2)``.

    ``method``: ``direct``, ``quadrature`` or ``auto`` (whichever is cheaper for this posterior).
    """
    mu = np.asarray(mu, dtype=np.float64)
    sd = np.asarray(sd, dtype=np.float64)
    n = len(mu)
    if method not in ("auto", "direct", "quadrature"):
        raise ValueError(f"method {method!r}: choose auto, direct or quadrature")
    if method == "auto":
        method = "direct"
        if n > 1:
            relevant, _, _, k = _grid_plan(mu, sd)
            if k <= MAX_GRID and QUADRATURE_COST * k * len(relevant) < size * n:
                method = "quadrature"
    if method == "quadrature":
        p = thompson_probabilities(mu, sd)
        if p is not None:
            return draw_categorical(rng, p, size)
    v = rng.standard_normal((size, n))
    v *= sd
    v += mu
    return np.argmax(v, axis=1).astype(np.int64)

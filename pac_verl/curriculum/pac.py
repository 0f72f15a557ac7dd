"""PAC (Progress-Augmented Advantage Curriculum) and its three ablations
(docs/concepts/spec.md#signals, docs/concepts/spec.md#belief-and-allocation).

After every step t: append the step to the window, compute ``s_adv`` (eq:adv_learnability), the
trend slope (eq:reward_trend) and ``s_prog`` (eq:prog_norm), the utility ``u``, then update every
arm's Gaussian belief (eq:posterior_update) and inflate its variance (eq:variance_inflation):

    rho_i = c_i / (B / N),  eta = 1/sigma2 + rho,  mu = (mu/sigma2 + rho*u) / eta,
    sigma2 = 1/eta + delta2.
 Where the paper is silent: every arm is updated every step, cold start included; an arm with
``c_i = 0`` has ``rho = 0`` so it keeps its mean and its variance grows by ``delta2``. ``B`` is the
configured batch size (not the number of prompts fed back). Allocation for step t: uniform while
``t < cold_start`` (T_cold), else sequential Thompson sampling (see
:mod:`pac_verl.curriculum.sampling`).

Utilities: ``pac`` uses eq:multiplicative_fusion ``u = (1 + s_prog) * s_adv``; ``pac_no_adv``
``u = s_prog`` (eq:ablation_no_adv); ``pac_no_prog`` ``u = s_adv`` (eq:ablation_no_prog);
``pac_no_ts`` keeps the fused utility, has no posterior, and draws each slot from
``softmax(u / temperature)`` (eq:boltzmann_ablation, temperature 1). All variants share the cold
start (paper Appendix "Ablation Study Details": same T_cold).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from pac_verl.curriculum.base import Controller
from pac_verl.curriculum.config import check_field_types
from pac_verl.curriculum.sampling import draw_categorical, draw_thompson, softmax
from pac_verl.curriculum.signals import SignalWindow, StepFeedback, normalise_progress
from pac_verl.errors import UserError


@dataclass
class PACConfig:
    """PAC defaults (docs/concepts/spec.md#settings; paper Appendix "Controller State and Utility
    Estimation")."""

    window: int = 16  # W: history window in steps
    cold_start: int = 50  # T_cold: steps of uniform allocation
    delta2: float = 0.02  # variance inflation delta^2 (eq:variance_inflation)
    eps: float = 1e-9  # stability constant of eq:prog_norm
    prior_mean: float = 0.0  # mu_i at step 0
    prior_var: float = 1.0  # sigma2_i at step 0
    min_trend_points: int = 3  # fewer observed window steps -> slope 0
    thompson_method: str = "auto"  # auto | direct | quadrature (same distribution)

    def __post_init__(self) -> None:
        _check_config(self)


@dataclass
class PACNoAdvConfig(PACConfig):
    """Ablation w/o adv (eq:ablation_no_adv): same defaults as PAC."""


@dataclass
class PACNoProgConfig(PACConfig):
    """Ablation w/o prog (eq:ablation_no_prog): same defaults as PAC."""


@dataclass
class PACNoTSConfig(PACConfig):
    """Ablation w/o ts (eq:boltzmann_ablation): Boltzmann allocation at ``temperature`` (1.0)."""

    temperature: float = 1.0


def _check_config(cfg: PACConfig) -> None:
    check_field_types(cfg)
    if int(cfg.window) != cfg.window or cfg.window < 1:
        raise UserError(f"curriculum window must be an integer >= 1, got {cfg.window!r}")
    if cfg.min_trend_points > cfg.window:  # no arm could ever get a slope: s_prog would be 0
        raise UserError(
            f"curriculum window W={cfg.window} is shorter than min_trend_points="
            f"{cfg.min_trend_points} (the steps a trend fit needs): raise curriculum.window or "
            "lower curriculum.min_trend_points"
        )
    if cfg.cold_start < 0:
        raise UserError(f"curriculum cold_start must be >= 0, got {cfg.cold_start!r}")
    if cfg.prior_var <= 0 or cfg.delta2 < 0 or cfg.eps < 0:
        raise UserError(
            "curriculum prior_var must be > 0 and delta2, eps >= 0; got "
            f"prior_var={cfg.prior_var}, delta2={cfg.delta2}, eps={cfg.eps}"
        )
    if cfg.thompson_method not in ("auto", "direct", "quadrature"):
        raise UserError(
            f"curriculum thompson_method {cfg.thompson_method!r}: choose auto, direct or quadrature"
        )
    if getattr(cfg, "temperature", 1.0) <= 0:
        raise UserError(f"curriculum temperature must be > 0, got {cfg.temperature!r}")


class PACController(Controller):
    """PAC: fused utility + Gaussian posterior + sequential Thompson sampling."""

    name = "pac"
    config_cls = PACConfig
    utility_kind = "fused"  # fused | prog | adv
    uses_posterior = True

    def __init__(self, arms, batch_size, seed=0, config=None) -> None:
        super().__init__(arms, batch_size, seed, config)
        cfg = self.config
        n = self.num_arms
        self.window = SignalWindow(cfg.window, n)
        self.mu = np.full(n, float(cfg.prior_mean))
        self.sigma2 = np.full(n, float(cfg.prior_var))
        self.s_adv = np.zeros(n)
        self.s_prog = np.zeros(n)
        self.utility = np.zeros(n)

    def _allocate(self) -> np.ndarray:
        if self.step < self.config.cold_start:
            return self._uniform_slots()
        return draw_thompson(
            self.rng, self.mu, np.sqrt(self.sigma2), self.batch_size, self.config.thompson_method
        )

    def _update(self, fb: StepFeedback) -> None:
        cfg = self.config
        self.window.push(self.step, fb)
        self.s_adv = self.window.s_adv()
        self.s_prog = normalise_progress(
            self.window.slopes(self.step, cfg.min_trend_points), cfg.eps
        )
        if self.utility_kind == "fused":
            self.utility = (1.0 + self.s_prog) * self.s_adv  # eq:multiplicative_fusion
        elif self.utility_kind == "prog":
            self.utility = self.s_prog  # eq:ablation_no_adv
        else:
            self.utility = self.s_adv  # eq:ablation_no_prog
        if self.uses_posterior:
            rho = fb.counts / (self.batch_size / self.num_arms)
            eta = 1.0 / self.sigma2 + rho  # eq:posterior_update
            self.mu = (self.mu / self.sigma2 + rho * self.utility) / eta
            self.sigma2 = 1.0 / eta + cfg.delta2  # eq:variance_inflation

    def _arm_metrics(self) -> dict[str, np.ndarray]:
        out = {"s_adv": self.s_adv, "s_prog": self.s_prog, "utility": self.utility}
        if self.uses_posterior:
            out["posterior_mean"] = self.mu
            out["posterior_std"] = np.sqrt(self.sigma2)
        return out

    def _state(self) -> dict:
        return {
            "window": self.window.state_dict(),
            "mu": self.mu.tolist(),
            "sigma2": self.sigma2.tolist(),
            "s_adv": self.s_adv.tolist(),
            "s_prog": self.s_prog.tolist(),
            "utility": self.utility.tolist(),
        }

    def _load_state(self, sd: dict) -> None:
        self.window.load_state_dict(sd["window"])
        for key in ("mu", "sigma2", "s_adv", "s_prog", "utility"):
            setattr(self, key, np.asarray(sd[key], dtype=np.float64))


class PACNoAdvController(PACController):
    """Ablation w/o adv: ``u = s_prog`` (eq:ablation_no_adv), posterior and Thompson unchanged."""

    name = "pac_no_adv"
    config_cls = PACNoAdvConfig
    utility_kind = "prog"


class PACNoProgController(PACController):
    """Ablation w/o prog: ``u = s_adv`` (eq:ablation_no_prog), posterior and Thompson unchanged."""

    name = "pac_no_prog"
    config_cls = PACNoProgConfig
    utility_kind = "adv"


class PACNoTSController(PACController):
    """Ablation w/o ts: fused utility, no posterior, slots ~ ``softmax(u / T)`` (eq:boltzmann_ablation)."""

    name = "pac_no_ts"
    config_cls = PACNoTSConfig
    uses_posterior = False

    def _allocate(self) -> np.ndarray:
        if self.step < self.config.cold_start:
            return self._uniform_slots()
        p = softmax(self.utility, self.config.temperature)
        return draw_categorical(self.rng, p, self.batch_size)

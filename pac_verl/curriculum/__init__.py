"""Curriculum controllers: PAC, its ablations, and the SEC, DUMP, Random and single-task baselines.

Pure Python + NumPy (imports neither verl nor torch). SPEC sections 1-6 and BASELINES.md fix every
number; each module's docstring records the choices where the paper is silent.

    from pac_verl.curriculum import make_controller, ArmQueues
    ctrl = make_controller("pac", arms=["countdown/1", "countdown/2"], batch_size=256, seed=0)
    queues = ArmQueues(pools, seed=0)            # pools[i]: dataset indices of arm i
    for t in range(steps):
        slots = ctrl.allocate()                  # [B] arm index per slot
        rows = queues.draw(slots)                # [B] dataset index per slot (uniform within arm)
        ...                                      # train; rewards/advantages: [P, G] per prompt
        ctrl.update(arm_ids, rewards, advantages)
        log(ctrl.metrics())                      # curriculum/<arm>/... and curriculum/entropy
    checkpoint = {"controller": ctrl.state_dict(), "queues": queues.state_dict()}

Names: ``pac``, ``pac_no_adv``, ``pac_no_prog``, ``pac_no_ts``, ``sec``, ``dump``, ``random``,
``single`` (override ``train_arms``: arm names, or a task name meaning all its arms). Each has one
config dataclass (``PACConfig``, ``SECConfig``, ``DUMPConfig``, ...) whose fields are the overrides.

Metrics (per arm, ``curriculum/<arm>/<key>``): ``share`` of the last allocation; PAC family
``s_adv`` (eq:adv_learnability), ``s_prog`` (eq:prog_norm), ``utility`` u (eq:multiplicative_fusion
or the ablation's), ``posterior_mean``/``posterior_std`` (eq:posterior_update, eq:variance_inflation;
not for ``pac_no_ts``); SEC its Q as ``utility``; DUMP its UCB score as ``utility``; every controller
``reward``/``abs_adv`` of the last step for arms it contained; and ``curriculum/entropy`` (nats).

``ArmQueues`` is the per-arm prompt queue of SPEC section 4 (random permutation + cursor per arm,
reshuffled when exhausted, no duplicate in a batch unless the pool is too small); the verl sampler
and the simulator both use it, and its ``state_dict`` goes into the checkpoint with the controller's.

``PromptCurriculum`` (``pac_verl.curriculum.prompts``) wraps the queues: with ``config=None`` it
draws exactly what ``ArmQueues`` draws and keeps per-prompt statistics (waste metrics); with a
``PromptLevelConfig`` it fills each arm's slots by the prompt-level Thompson rule (beyond the
paper; ``curriculum.prompt_level``).
"""

from pac_verl.curriculum.base import Controller
from pac_verl.curriculum.baselines import (
    DUMPConfig,
    DUMPController,
    RandomConfig,
    RandomController,
    SECConfig,
    SECController,
    SingleConfig,
    SingleTaskController,
)
from pac_verl.curriculum.pac import (
    PACConfig,
    PACController,
    PACNoAdvConfig,
    PACNoAdvController,
    PACNoProgConfig,
    PACNoProgController,
    PACNoTSConfig,
    PACNoTSController,
)
from pac_verl.curriculum.queues import ArmQueues
from pac_verl.curriculum.registry import CONTROLLER_NAMES, CONTROLLERS, make_controller

__all__ = [
    "CONTROLLERS",
    "CONTROLLER_NAMES",
    "ArmQueues",
    "Controller",
    "DUMPConfig",
    "DUMPController",
    "PACConfig",
    "PACController",
    "PACNoAdvConfig",
    "PACNoAdvController",
    "PACNoProgConfig",
    "PACNoProgController",
    "PACNoTSConfig",
    "PACNoTSController",
    "RandomConfig",
    "RandomController",
    "SECConfig",
    "SECController",
    "SingleConfig",
    "SingleTaskController",
    "make_controller",
]

"""``make_controller``: build a curriculum controller by name with config overrides."""

from __future__ import annotations

import dataclasses

from pac_verl.curriculum.base import Controller
from pac_verl.curriculum.baselines import (
    DUMPController,
    RandomController,
    SECController,
    SingleTaskController,
)
from pac_verl.curriculum.pac import (
    PACController,
    PACNoAdvController,
    PACNoProgController,
    PACNoTSController,
)
from pac_verl.errors import UserError

CONTROLLERS: dict[str, type[Controller]] = {
    cls.name: cls
    for cls in (
        PACController,
        PACNoAdvController,
        PACNoProgController,
        PACNoTSController,
        SECController,
        DUMPController,
        RandomController,
        SingleTaskController,
    )
}
CONTROLLER_NAMES: tuple[str, ...] = tuple(CONTROLLERS)


def make_controller(
    name: str, arms: list[str], batch_size: int, seed: int = 0, **overrides
) -> Controller:
    """The controller ``name`` over ``arms`` for batches of ``batch_size`` slots.

    ``overrides`` set fields of the controller's config dataclass (``window=32``, ``alpha=0.3``,
    ``train_arms=["countdown"]``...). An unknown name or key is a ``UserError`` (a ValueError)
    listing the valid choices.
    """
    if name not in CONTROLLERS:
        raise UserError(f"unknown curriculum {name!r}; valid: {', '.join(CONTROLLER_NAMES)}")
    cls = CONTROLLERS[name]
    fields = [f.name for f in dataclasses.fields(cls.config_cls)]
    unknown = sorted(set(overrides) - set(fields))
    if unknown:
        raise UserError(
            f"curriculum {name!r} has no setting {', '.join(map(repr, unknown))}; "
            f"valid: {', '.join(fields) if fields else '(none)'}"
        )
    config = cls.config_cls(**overrides)
    return cls(arms, batch_size, seed=seed, config=config)

"""The controllers by name: ``make_controller`` builds one with config overrides; ``check_curriculum``
checks a ``curriculum`` config group against its controller; ``controller_default`` reads a default."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping

from pac_verl.curriculum.base import Controller
from pac_verl.curriculum.baselines import (
    DUMPController,
    RandomController,
    SECController,
    SingleTaskController,
)
from pac_verl.curriculum.config import GROUP_KEYS, fits, kind_of
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


def controller_default(name: str, key: str):
    """The default of field ``key`` of controller ``name``'s config dataclass.

    The curriculum yamls read their numbers through it (``${curriculum_default:pac,window}``), so
    the resolved config shows the values a run uses while each number lives once, in the
    dataclass. Registered as an OmegaConf resolver by :mod:`pac_verl.resolvers`; the driver resolves the
    whole config before Ray ships it, so no other process needs the resolver.
    """
    cls = CONTROLLERS.get(str(name))
    if cls is None:
        raise UserError(f"curriculum_default: unknown curriculum {name!r}")
    for f in dataclasses.fields(cls.config_cls):
        if f.name == key:
            if f.default is not dataclasses.MISSING:
                return f.default
            if f.default_factory is not dataclasses.MISSING:
                return f.default_factory()
    raise UserError(f"curriculum_default: curriculum {name!r} has no setting {key!r}")


def check_curriculum(curriculum: Mapping) -> None:
    """The one check of a ``curriculum`` group (a plain mapping), run by the command-line check
    before Hydra, by the launcher and by the driver before any process starts: a known controller,
    ``train_arms`` for ``single``, no unknown key, each value of its default's type, then the
    controller's config dataclass itself (its range checks: ``window`` below
    ``min_trend_points``...). The :data:`GROUP_KEYS` are not dataclass fields; ``None`` keeps the
    default, as :class:`pac_verl.verl.sampler.PACSampler` does. Messages name the key as it is
    written on the command line (``curriculum.window``).
    """
    name = str(curriculum.get("name"))
    cls = CONTROLLERS.get(name)
    if cls is None:
        raise UserError(f"curriculum.name {name!r}: choose one of {', '.join(CONTROLLERS)}")
    if name == "single" and curriculum.get("train_arms") in (None, "???"):
        raise UserError("curriculum=single needs curriculum.train_arms=[...]: the arms or tasks "
                        "to train on, e.g. curriculum.train_arms=[countdown]")  # fmt: skip
    known = {f.name: f.default for f in dataclasses.fields(cls.config_cls)}
    values = {str(k): v for k, v in curriculum.items()
              if k not in GROUP_KEYS and v is not None}  # fmt: skip
    for key, value in values.items():
        if key not in known:
            raise UserError(f"curriculum.{key}: curriculum {name!r} has no such setting; valid: "
                            f"{', '.join(known) or '(none)'}")  # fmt: skip
        default = known[key]
        if default is not dataclasses.MISSING and not fits(value, default):
            raise UserError(f"curriculum.{key} must be {kind_of(default)} (default {default}), "
                            f"got {value!r}")  # fmt: skip
    cls.config_cls(**values)

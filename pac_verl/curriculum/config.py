"""Type checks shared by the controllers' config dataclasses (a wrong type names its key)."""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Mapping

from pac_verl.errors import UserError


def check_field_types(cfg: object) -> None:
    """Every int/float/bool/str field must hold that type (an integer is accepted for a float).

    Values are converted to plain ``int``/``float`` (NumPy scalars included), so that
    ``state_dict`` comparisons and JSON round trips see one representation.
    """
    for f in dataclasses.fields(cfg):
        value = getattr(cfg, f.name)
        default = f.default
        if default is dataclasses.MISSING:
            continue
        name = type(cfg).__name__
        if isinstance(default, bool):
            ok = isinstance(value, bool)
        elif isinstance(default, int):
            ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
            if ok:
                object.__setattr__(cfg, f.name, int(value))
        elif isinstance(default, float):
            ok = isinstance(value, numbers.Real) and not isinstance(value, bool)
            if ok:
                object.__setattr__(cfg, f.name, float(value))
        elif isinstance(default, str):
            ok = isinstance(value, str)
        else:
            continue
        if not ok:
            raise UserError(
                f"curriculum setting {f.name!r} ({name}) must be {type(default).__name__}, "
                f"got {value!r}"
            )


def controller_default(name: str, key: str):
    """The default of field ``key`` of controller ``name``'s config dataclass.

    The curriculum yamls read their numbers through it (``${curriculum_default:pac,window}``), so
    the resolved config shows the values a run uses while each number lives once, in the
    dataclass. Registered as an OmegaConf resolver by ``pac_verl.main``; the driver resolves the
    whole config before Ray ships it, so no other process needs the resolver.
    """
    from pac_verl.curriculum.registry import CONTROLLERS  # the registry imports this module

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


# keys of the ``curriculum`` group that are not fields of a controller's config dataclass:
# the controller's name, the arm fields, the run's seed and the prompt-level rule
GROUP_KEYS = ("name", "arm_fields", "seed", "prompt_level")


def kind_of(default) -> str | None:
    """The type a default demands of a value set by the user (None: anything goes)."""
    if isinstance(default, bool):
        return "a boolean (true/false)"
    if isinstance(default, int):
        return "an integer"
    if isinstance(default, float):
        return "a number"
    return None


def fits(value, default) -> bool:
    """Whether ``value`` has the type of ``default`` (an integer is a number; null is "not set":
    verl derives it, or the controller's default applies)."""
    if value is None:
        return True
    if isinstance(default, bool):
        return isinstance(value, bool)
    if isinstance(default, int):
        return isinstance(value, int) and not isinstance(value, bool)
    if isinstance(default, float):
        return isinstance(value, int | float) and not isinstance(value, bool)
    return True


def check_curriculum(curriculum: Mapping) -> None:
    """The one check of a ``curriculum`` group (a plain mapping), run by the command-line check
    before Hydra, by the launcher and by the driver before any process starts: a known controller,
    ``train_arms`` for ``single``, no unknown key, each value of its default's type, then the
    controller's config dataclass itself (its range checks: ``window`` below
    ``min_trend_points``...). The :data:`GROUP_KEYS` are not dataclass fields; ``None`` keeps the
    default, as :class:`pac_verl.verl.sampler.PACSampler` does. Messages name the key as it is
    written on the command line (``curriculum.window``).
    """
    from pac_verl.curriculum.registry import CONTROLLERS

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

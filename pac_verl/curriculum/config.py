"""Type checks shared by the controllers' config dataclasses (a wrong type names its key), and the
keys of the ``curriculum`` config group that are not dataclass fields. The checks that need the
controllers themselves (:func:`~pac_verl.curriculum.registry.check_curriculum`,
:func:`~pac_verl.curriculum.registry.controller_default`) live in the registry."""

from __future__ import annotations

import dataclasses
import numbers

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


def short_run_reason(steps, curriculum) -> str | None:
    """Why a run of ``steps`` steps never allocates by its curriculum's signals (None: it does).
    PAC and its ablations allocate uniformly for ``cold_start`` steps, and their progress signal
    needs ``min_trend_points`` steps of history (the allocation of step t reads t steps); a run
    that does not outlast both is Random under another name (docs/guides/shorten-clean-retry.md).
    ``curriculum``: the ``curriculum`` group as a mapping."""
    if not isinstance(steps, int) or isinstance(steps, bool) or not curriculum:
        return None
    cold, trend = curriculum.get("cold_start"), curriculum.get("min_trend_points")
    name = curriculum.get("name")
    if isinstance(cold, int) and steps <= cold:
        return (f"trainer.total_training_steps={steps} does not exceed curriculum.cold_start="
                f"{cold}: {name} allocates uniformly, as Random does, for the whole run")  # fmt: skip
    if isinstance(trend, int) and steps <= trend:
        return (f"trainer.total_training_steps={steps} does not exceed curriculum."
                f"min_trend_points={trend}: no step of {name} has a progress trend")  # fmt: skip
    return None

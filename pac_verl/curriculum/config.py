"""Type checks shared by the controllers' config dataclasses (a wrong type names its key)."""

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

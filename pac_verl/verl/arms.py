"""Arms of a verl training set: names from ``extra_info`` fields, positions per arm.

What an arm is: docs/concepts/spec.md#arms.

An arm's name joins the values of the setting's arm fields with ``/`` (multi-level
``(type, difficulty)`` -> ``countdown/2``; multi-domain ``(type,)`` -> ``math``). Positions are
those of the dataset *after* verl's overlong-prompt filter (``RLHFDataset.dataframe``), so a
filtered row never shifts an arm's pool. A row without a field is a
:class:`~pac_verl.errors.UserError` naming the file, the row and the field.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from pac_verl.errors import UserError


def arm_name(extra_info: Any, fields: Sequence[str], where: str) -> str:
    if not isinstance(extra_info, Mapping):
        raise UserError(
            f"{where}: extra_info is missing, so the arm fields {list(fields)} are unknown"
        )
    parts = []
    for field in fields:
        value = extra_info.get(field)
        if value is None or value == "":
            raise UserError(
                f"{where}: extra_info has no {field!r} (the arm fields are {list(fields)})"
            )
        parts.append(str(value))
    return "/".join(parts)


def discover_arms(
    extra_infos: Sequence[Any], fields: Sequence[str], source: str
) -> tuple[list[str], list[np.ndarray]]:
    """Sorted arm names and, per arm, the dataset positions of its rows."""
    if not fields:
        raise UserError(
            "data.curriculum.arm_fields is empty: name the extra_info fields that define an arm"
        )
    names = [arm_name(info, fields, f"{source} row {i}") for i, info in enumerate(extra_infos)]
    if not names:
        raise UserError(f"{source}: the training set is empty")
    arms, inverse = np.unique(np.asarray(names, dtype=object), return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    bounds = np.cumsum(np.bincount(inverse, minlength=len(arms)))[:-1]
    return [str(a) for a in arms], np.split(order.astype(np.int64), bounds)

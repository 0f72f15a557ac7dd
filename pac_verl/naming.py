"""Names: one convention shared by the recipes, the trainer's log layout and the report, for
experiments and for verl's validation metrics (``val-core/<source>/<var>/mean@N``).

A name is ``<setting>__<backbone>__<curriculum>[__w<W>]__seed<k>``, for example
``multi_level__qwen2.5-3b__pac__seed0`` or ``multi_level__qwen2.5-3b__pac__w32__seed1``.
The window tag appears only when the window differs from the curriculum's own default (PAC's
W = 16, DUMP's 300: :func:`pac_verl.curriculum.registry.controller_default`), so the report can group
runs by (setting, backbone, curriculum, W, seed) without guessing; a name without a tag reads as
W = 16 (:data:`DEFAULT_WINDOW`). ``__`` never occurs inside a part.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pac_verl.curriculum.pac import PACConfig
from pac_verl.curriculum.registry import controller_default
from pac_verl.errors import UserError

DEFAULT_WINDOW = PACConfig.window
SEP = "__"
_PART = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]*$")


@dataclass(frozen=True)
class RunKey:
    setting: str
    backbone: str
    curriculum: str
    seed: int
    window: int = DEFAULT_WINDOW

    @property
    def method(self) -> str:
        """The curriculum, with the window when it is not the default (``pac`` or ``pac@w32``)."""
        return (
            self.curriculum
            if self.window == DEFAULT_WINDOW
            else f"{self.curriculum}@w{self.window}"
        )


def experiment_name(
    setting: str, backbone: str, curriculum: str, seed: int, window: int | None = None
) -> str:
    """Compose the experiment name; ``window`` is encoded only when it is not the curriculum's
    default (:func:`default_window`)."""
    for label, part in (("setting", setting), ("backbone", backbone), ("curriculum", curriculum)):
        if not _PART.match(part) or SEP in part:
            raise UserError(
                f"{label} {part!r} cannot be part of an experiment name "
                f"(letters, digits, '.', '-', '_' only, and no '__')"
            )
    parts = [setting, backbone, curriculum]
    if window is not None and int(window) != default_window(curriculum):
        parts.append(f"w{int(window)}")
    parts.append(f"seed{int(seed)}")
    return SEP.join(parts)


def default_window(curriculum: str) -> int:
    """The window a curriculum uses by default (PAC's W for names that are no controller)."""
    try:
        return int(controller_default(curriculum, "window"))
    except UserError:
        return DEFAULT_WINDOW


def parse_experiment_name(name: str) -> RunKey:
    """Inverse of :func:`experiment_name`; a name of another shape is a :class:`UserError`."""
    parts = name.split(SEP)
    if len(parts) not in (4, 5) or not re.fullmatch(r"seed\d+", parts[-1]):
        raise UserError(
            f"experiment name {name!r} is not <setting>__<backbone>__<curriculum>[__w<W>]__seed<k>"
        )
    window = DEFAULT_WINDOW
    if len(parts) == 5:
        if not re.fullmatch(r"w\d+", parts[3]):
            raise UserError(f"experiment name {name!r}: {parts[3]!r} is not a window tag w<W>")
        window = int(parts[3][1:])
    return RunKey(
        setting=parts[0],
        backbone=parts[1],
        curriculum=parts[2],
        seed=int(parts[-1][4:]),
        window=window,
    )


def single_label(train_arms) -> str:
    """The curriculum part of a single-task run's name: ``single-<arm>[.<arm>...]``.

    Single-task references of different tasks must not share a name (their logs would mix), and
    the report places each in the column of the task it trained: ``train_arms=[countdown]`` ->
    ``single-countdown``; an arm ``countdown/1`` is written ``countdown_1``.
    """
    if isinstance(train_arms, str):
        train_arms = [train_arms]
    arms = [str(a).replace("/", "_") for a in (train_arms or [])]
    if not arms:
        return "single"
    label = "single-" + ".".join(arms)
    if not _PART.match(label) or SEP in label:
        raise UserError(
            f"train_arms {list(train_arms)} cannot be part of an experiment name "
            "(letters, digits, '.', '-', '_' and '/' only)"
        )
    return label


# verl's validation metrics: ``val-core/<data_source>/<var>/mean@N``
VAL_PREFIX = "val-core/"


def val_source_of(key: str) -> str | None:
    """``val-core/<source>/<var>/mean@N`` -> ``<source>`` (sources may hold ``/``)."""
    if not key.startswith(VAL_PREFIX):
        return None
    parts = key[len(VAL_PREFIX) :].split("/")
    if len(parts) < 3 or not parts[-1].startswith("mean@"):
        return None
    return "/".join(parts[:-2])


def core_val_metric(data: dict[str, float], source: str) -> float | None:
    """The value verl's validation logs as the source's headline: ``acc`` (else ``reward``) mean@N.

    verl puts ``mean@N`` for the largest N under ``val-core/``; with several (only across
    attempts with a changed ``n``) the largest N is used.
    """
    for var in ("acc", "reward"):
        prefix = f"{VAL_PREFIX}{source}/{var}/mean@"
        found = [(int(k[len(prefix) :]), v) for k, v in data.items()
                 if k.startswith(prefix) and k[len(prefix) :].isdigit()]  # fmt: skip
        if found:
            return max(found)[1]
    return None

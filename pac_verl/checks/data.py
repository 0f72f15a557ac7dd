"""The preflight's data checks: what in the training and validation files would kill or spoil a run.

They run before verl is imported, so a broken file is reported in a second or two:

- every file passes the rules of ``pac-verl prep check`` (:mod:`pac_verl.data_prep.check`): the
  whole-file rules (readable parquet with rows, the columns of docs/concepts/spec.md#rows-on-disk
  never null, a verifier for every ``extra_info.type``) on every row, the per-row rules and the
  gold answers through the verifiers on a sample of at most ``max_rows`` training rows (all of them
  in a smaller file); the summary says how many rows were checked;
- every arm the curriculum can draw holds at least the prompts a batch gives it on average during
  the uniform cold start, ``ceil(B / N)`` for ``N`` drawable arms (within an arm no prompt repeats
  inside a batch unless the pool is smaller than the batch's share:
  docs/concepts/spec.md#belief-and-allocation). A stray row
  (``difficulty`` 7 in a 1..3 setting) forms an arm of one prompt that would take a tenth of every
  batch; the error names the arm and its rows;
- the training data hold every arm of the setting (``setting.arms``; a single-task run: its own),
  so that a build without one task is not trained as the setting;
- the data hold the batches the run trains: verl stops after ``trainer.total_epochs`` passes over
  them even before ``trainer.total_training_steps`` (:func:`check_epochs`).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from pac_verl.errors import UserError


def check_data_file(path: str | Path, max_rows: int | None, golds: bool = True) -> dict:
    """``pac-verl prep check``'s rules on ``path`` (on a sample of ``max_rows`` rows if given;
    without the gold answers if not ``golds``)."""
    from pac_verl.data_prep.check import check_file

    return check_file(path, quiet=True, max_rows=max_rows, golds=golds)


def file_arms(
    paths: Sequence[str | Path], arm_fields: Sequence[str]
) -> tuple[list[str], list[np.ndarray], str]:
    """Arms and pools of the training files read as one, as verl concatenates them (positions
    count across the files in order), named as the sampler names them; and how to name them."""
    from pac_verl.data_prep.rows import read_table
    from pac_verl.verl.arms import discover_arms

    infos = [
        x for p in paths for x in read_table(p, columns=["extra_info"])["extra_info"].to_pylist()
    ]
    source = (
        str(paths[0])
        if len(paths) == 1
        else f"data.train_files ({', '.join(map(str, paths))}, rows counted across them)"
    )
    arms, pools = discover_arms(infos, arm_fields, source)
    return arms, pools, source


def drawable_arms(curriculum, arms: list[str], batch_size: int) -> list[int]:
    """Indices of the arms the curriculum can give slots to (``single``: its train arms)."""
    from omegaconf import OmegaConf

    from pac_verl.curriculum import make_controller
    from pac_verl.curriculum.config import GROUP_KEYS

    cur = OmegaConf.to_container(curriculum, resolve=True)
    fields = {k: v for k, v in cur.items() if k not in GROUP_KEYS and v is not None}
    ctrl = make_controller(str(cur["name"]), arms, batch_size, seed=int(cur.get("seed", 0)),
                           **fields)  # fmt: skip
    return [int(i) for i in getattr(ctrl, "train_idx", range(len(arms)))]


def check_pools(
    arms: list[str], pools: Sequence[np.ndarray], drawable: Sequence[int], batch_size: int,
    source: str,
) -> None:  # fmt: skip
    """Every drawable arm holds at least ``ceil(B / N)`` prompts (module docstring)."""
    need = math.ceil(batch_size / len(drawable))
    small = sorted((len(pools[i]), arms[i], pools[i]) for i in drawable if len(pools[i]) < need)
    if not small:
        return
    parts = []
    for size, arm, rows in small[:3]:
        shown = ", ".join(str(r) for r in rows[:5].tolist()) + (", ..." if size > 5 else "")
        parts.append(f"arm {arm!r} has {size} row{'s' if size != 1 else ''} "
                     f"(row{'s' if size != 1 else ''} {shown})")  # fmt: skip
    more = f" and {len(small) - 3} more arm(s)" if len(small) > 3 else ""
    raise UserError(f"{source}: {'; '.join(parts)}{more}: fewer than the {need} prompts a batch of "
                    f"{batch_size} gives each of its {len(drawable)} arms on average, so prompts "
                    "would repeat inside a batch. Fix or drop those rows (a stray extra_info "
                    "value makes an arm of its own), add data, or lower "
                    "data.train_batch_size")  # fmt: skip


def check_coverage(arms: list[str], expected: Sequence[str], single: bool, setting: str,
                   source: str) -> None:  # fmt: skip
    """The training data hold every arm of the setting (``setting.arms``); a single-task run
    needs only its own (the controller already refuses train arms the data lack)."""
    if single or not expected:
        return
    missing = [a for a in expected if a not in set(arms)]
    if missing:
        raise UserError(f"{source}: no training rows for the arm(s) {', '.join(missing)} of "
                        f"setting={setting} (setting.arms: {', '.join(expected)}; the file has "
                        f"{', '.join(arms)}): rebuild the data with every task, or train one task "
                        "with curriculum=single curriculum.train_arms=[...]")  # fmt: skip


def check_epochs(rows: int, batch_size: int, epochs: int, steps: int, source: str) -> None:
    """verl's ``fit`` runs ``trainer.total_epochs`` passes over the dataloader and stops there
    even before ``trainer.total_training_steps``: a run whose data hold fewer batches than it
    trains would end early, never reach its last step, and be resumed by the recipes for ever.
    The sampler's epoch is ``max(1, rows // B)`` batches (:class:`pac_verl.verl.sampler.PACSampler`)."""
    per_epoch = max(1, rows // batch_size)
    if per_epoch * epochs >= steps:
        return
    raise UserError(f"{source}: {rows:,} rows make {per_epoch} batch(es) of {batch_size} per "
                    f"epoch, and trainer.total_epochs={epochs} gives {per_epoch * epochs} steps, "
                    f"fewer than the run's {steps} (trainer.total_training_steps): verl would stop "
                    f"at step {per_epoch * epochs}, before the last step; raise trainer.total_epochs "
                    f"to at least {-(-steps // per_epoch)} or add data")  # fmt: skip

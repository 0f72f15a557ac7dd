"""The curriculum's own checkpoint file: ``global_step_k/pac_state.json``.

What it holds, when it is written and read, and why it is separate from verl's ``data.pt``:
docs/guides/resume.md#what-a-checkpoint-holds. In short: ``PACTrainer`` writes it when verl saves
a checkpoint and reads it when verl resumes one, whatever verl did with ``data.pt``.

JSON, not ``torch.save``: the sampler's state is plain Python values (lists, ints, floats,
strings; :meth:`pac_verl.curriculum.base.Controller.state_dict`), which JSON round-trips exactly
(floats by their shortest repr, integers of any size such as a PCG64 state); reading it runs no
pickle, and the file can be read with ``jq`` or ``python -m json.tool``.

The file is ``{"format": FORMAT, "version": VERSION, "step": k, "sampler": <state>}``. It is
written to a temporary name in the same folder, flushed to disk and renamed over the final name
(``os.replace``), so a reader finds the whole file or none.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

from pac_verl.errors import UserError

FILE_NAME = "pac_state.json"
FORMAT = "pac-verl curriculum state"
VERSION = 1


def write_state(folder: str | Path, step: int, sampler_state: dict[str, Any]) -> Path:
    """Write ``folder/pac_state.json`` atomically (module docstring); returns its path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / FILE_NAME
    record = {"format": FORMAT, "version": VERSION, "step": int(step), "sampler": sampler_state}
    text = json.dumps(record, sort_keys=True, default=_plain)
    tmp = folder / f".{FILE_NAME}.{os.getpid()}.tmp"
    try:
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)
    return path


def read_state(folder: str | Path, step: int) -> dict[str, Any] | None:
    """The sampler state in ``folder/pac_state.json``, or None when the folder has no such file.

    A file that is not one this version can read (not JSON, another format, a newer version,
    the state of another step) is a :class:`UserError` naming the fix.
    """
    path = Path(folder) / FILE_NAME
    if not path.exists():
        return None
    where = f"{Path(folder).name}/{FILE_NAME}"
    # the fix for a file this version cannot use: the state verl saved beside it is the same one
    fix = ("delete it to resume from the data.pt beside it, or resume from an earlier checkpoint "
           "(docs/guides/resume.md#what-a-checkpoint-holds)")  # fmt: skip
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as err:
        raise UserError(f"{where} cannot be read ({err}): {fix}") from None
    if not isinstance(record, dict) or record.get("format") != FORMAT:
        raise UserError(f"{where} is not a pac-verl curriculum state: {fix}")
    version = record.get("version")
    if not isinstance(version, int) or version < 1:
        raise UserError(f"{where} has no valid version ({version!r}): {fix}")
    if version > VERSION:
        raise UserError(
            f"{where} has version {version!r}, newer than this pac-verl reads ({VERSION}): "
            "resume with the pac-verl that wrote it, or upgrade pac-verl"
        )
    if not isinstance(record.get("sampler"), dict):
        raise UserError(f"{where} holds no sampler state: {fix}")
    if record.get("step") != step:
        raise UserError(
            f"{where} holds the state after step {record.get('step')!r}, not step {step} "
            f"(copied from another checkpoint?): {fix}"
        )
    return record["sampler"]


def _plain(value: Any) -> Any:
    """A NumPy scalar or array left in a state, as the Python value or list it holds."""
    if hasattr(value, "tolist"):
        return value.tolist()
    raise TypeError(f"the curriculum state holds a {type(value).__name__}, which JSON cannot store")

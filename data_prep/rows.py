"""Rows on disk: the one place that knows the verl parquet schema.

The schema it implements: docs/concepts/spec.md#rows-on-disk.

Every builder makes its rows with :func:`make_row` and writes them with :func:`write_parquet`
(temporary file, then rename: nothing half-written is ever left at the output path).
:func:`validate_row` is what ``pac-verl prep check`` and the verl dataset use on rows they read.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import pyarrow as pa
import pyarrow.parquet as pq

from pac_verl.data_prep.prompts import FRAME_CUE, FRAME_PREAMBLE
from pac_verl.errors import UserError
from pac_verl.outputs import apply_umask
from pac_verl.verifiers.math.question import FORMS_VERSION, question_expressions, question_forms
from pac_verl.verifiers.zebra import puzzle_names

COLUMNS = ("data_source", "prompt", "ability", "reward_model", "extra_info")

# extra_info["type"] picks the verifier; ability is verl's coarse label for it.
ABILITY = {
    "countdown": "reasoning",
    "zebra": "reasoning",
    "arc": "reasoning",
    "math": "math",
    "code": "coding",
    "logic": "logic",
    "toy": "toy",  # the CPU miniature (pac-verl prep toy)
}
TASK_TYPES = tuple(ABILITY)
# Ground truths that are JSON objects (the rest are plain answer text).
JSON_TRUTH_TYPES = frozenset({"countdown", "logic", "code", "toy"})


def make_row(
    *,
    data_source: str,
    prompt: str | Sequence[Mapping[str, str]],
    task_type: str,
    ground_truth: str | Mapping[str, Any],
    split: str,
    index: int,
    difficulty: int | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """One verl row. ``prompt`` is the user text (wrapped as one user message) or chat messages.

    A structured ground truth (countdown, logic, code) may be given as a mapping: it is stored as
    compact JSON with sorted keys, so the same puzzle always yields the same bytes.
    """
    if task_type not in ABILITY:
        raise UserError(f"unknown task type {task_type!r}; choose one of {', '.join(TASK_TYPES)}")
    if not isinstance(ground_truth, str):
        ground_truth = json_text(ground_truth)
    extra_info: dict[str, Any] = {"type": task_type, "split": split, "index": int(index)}
    if difficulty is not None:
        extra_info["difficulty"] = int(difficulty)
    extra_info.update(extra)
    if task_type == "math" and "question_expressions" not in extra_info:
        # what an answer may not copy: docs/guides/rewards.md#math-forms
        text = "\n".join(m["content"] for m in messages(prompt) if m["role"] == "user")
        extra_info["question_expressions"] = question_expressions(text)
        extra_info["question_forms"] = question_forms(text)
        extra_info["question_forms_version"] = FORMS_VERSION
    if task_type == "zebra" and "names" not in extra_info:
        # the names another of which in the box is a hedge: docs/guides/rewards.md
        text = "\n".join(m["content"] for m in messages(prompt) if m["role"] == "user")
        extra_info["names"] = list(puzzle_names(text))
    return {
        "data_source": data_source,
        "prompt": messages(prompt),
        "ability": ABILITY[task_type],
        "reward_model": {"style": "rule", "ground_truth": ground_truth},
        "extra_info": extra_info,
    }


def messages(prompt: str | Sequence[Mapping[str, str]]) -> list[dict[str, str]]:
    """Chat messages: a plain string is one user message."""
    if isinstance(prompt, str):
        return [{"role": "user", "content": prompt}]
    return [{"role": str(m["role"]), "content": str(m["content"])} for m in prompt]


def json_text(value: Mapping[str, Any]) -> str:
    """A structured ground truth as compact JSON with sorted keys: same puzzle, same bytes."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def validate_row(row: Mapping[str, Any], where: str) -> None:
    """Raise a :class:`UserError` naming ``where`` (file and row) and the field if ``row`` is malformed."""
    for col in COLUMNS:
        if col not in row:
            raise UserError(f"{where}: missing column {col!r}")
        if row[col] is None:
            raise UserError(f"{where}: {col} is null")
    if not isinstance(row["data_source"], str) or not row["data_source"]:
        raise UserError(f"{where}: data_source must be a non-empty string")
    prompt = row["prompt"]
    if isinstance(prompt, str | bytes | Mapping) or not hasattr(prompt, "__len__") or not prompt:
        raise UserError(f"{where}: prompt must be a non-empty list of chat messages")
    for i, msg in enumerate(prompt):
        if not isinstance(msg, Mapping) or not {"role", "content"} <= set(msg):
            raise UserError(f"{where}: prompt[{i}] must have 'role' and 'content'")
        if not isinstance(msg["role"], str) or not isinstance(msg["content"], str):
            raise UserError(f"{where}: prompt[{i}] role and content must be strings")
        if msg["content"].startswith(FRAME_PREAMBLE) or msg["content"].endswith(FRAME_CUE):
            raise UserError(f"{where}: prompt[{i}] holds the conversation frame (a build with the "
                            "former --prompt-style completion); the chat template of "
                            "backbone.prompt_style=completion adds it at train time, so it would be "
                            "there twice: rebuild the data")  # fmt: skip
    rm = row["reward_model"]
    if not isinstance(rm, Mapping):
        raise UserError(f"{where}: reward_model must be a mapping with a ground_truth string")
    if rm.get("ground_truth") is None:
        raise UserError(f"{where}: reward_model.ground_truth is null")
    if not isinstance(rm["ground_truth"], str):
        raise UserError(f"{where}: reward_model.ground_truth must be a string")
    info = row["extra_info"]
    if not isinstance(info, Mapping):
        raise UserError(f"{where}: extra_info must be a mapping")
    task_type = info.get("type")
    if task_type not in ABILITY:
        raise UserError(f"{where}: extra_info.type is {task_type!r}, which no verifier scores; "
                        f"expected one of {', '.join(TASK_TYPES)}")  # fmt: skip
    if task_type in JSON_TRUTH_TYPES:
        try:
            truth = json.loads(rm["ground_truth"])
        except json.JSONDecodeError as err:
            raise UserError(
                f"{where}: reward_model.ground_truth of a {task_type} row must be JSON ({err})"
            ) from None
        if not isinstance(truth, dict):
            raise UserError(
                f"{where}: reward_model.ground_truth of a {task_type} row must be a JSON object"
            )


def write_parquet(rows: Iterable[Mapping[str, Any]], path: str | os.PathLike[str]) -> Path:
    """Write ``rows`` to ``path`` atomically (temp file in the same folder, then rename)."""
    path = Path(path)
    rows = list(rows)
    if not rows:
        raise UserError(f"refusing to write {path}: no rows")
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pylist(rows)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        pq.write_table(table, tmp, compression="zstd")
        apply_umask(tmp)  # mkstemp made it owner-only
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return path


def open_parquet(path: str | os.PathLike[str]) -> pq.ParquetFile:
    """Open a parquet file; a missing path, a folder or an unreadable file is a :class:`UserError`."""
    path = Path(path)
    if path.is_dir():
        raise UserError(f"{path} is a folder, not a parquet file: name the file inside it "
                        f"(e.g. {path / 'train.parquet'})")  # fmt: skip
    if not path.is_file():
        raise UserError(f"no such parquet file: {path}")
    try:
        return pq.ParquetFile(path)
    except (pa.ArrowException, OSError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise UserError(f"{path}: not a readable parquet file ({reason}); rebuild it with "
                        "pac-verl prep") from None  # fmt: skip


def read_table(path: str | os.PathLike[str], columns: Sequence[str] | None = None) -> pa.Table:
    """The whole file as an Arrow table (bad file: :class:`UserError`, see :func:`open_parquet`)."""
    file = open_parquet(path)
    try:
        return file.read(columns=list(columns) if columns is not None else None)
    except (pa.ArrowException, OSError) as err:
        reason = str(err).splitlines()[0] if str(err) else type(err).__name__
        raise UserError(f"{path}: not a readable parquet file ({reason}); rebuild it with "
                        "pac-verl prep") from None  # fmt: skip


def read_rows(path: str | os.PathLike[str]) -> list[dict[str, Any]]:
    """Read a verl parquet back into plain Python rows (bad file: :class:`UserError`)."""
    return read_table(path).to_pylist()

"""SEC's released data (GitHub ``Vincent-La/cofa``, folder ``sec/data``) as this project's rows.

The paper's multi-level numbers (800 validation rows per task, 200 per level, arms from
``extra_info.type`` and ``difficulty``) match SEC's ``combined/test_*.parquet``, and its math pool
(11,499 rows) is SEC's ``math/math_train.parquet``; SEC's ``math/math_test.parquet`` is MATH500,
AMC (83) and AIME24 (30), the paper's math validation. The layout read here (the release at
commit 8b685cb; ``DIR`` is ``sec/data``, or the ``combined``/``math`` folder itself)::

    combined/test_{countdown,zebra,arc}.parquet   validation: 800 rows each, 200 per difficulty 1..4
    combined/train_{countdown,zebra,arc}.parquet  training: 30,000 each, 10,000 per difficulty 1..3
    math/math_train.parquet                       11,499 MATH problems (data_source "math_train")
    math/math_test.parquet                        613: "test_math" 500, "test_amc" 83, "test_aime" 30

Rows are verl's layout: ``data_source`` (``countdown-easy-test``, ...), ``prompt`` (one user
message in the base-model frame "A conversation between User and Assistant ... User: <task>
\\nAssistant: Let me solve this step by step."), ``ability``, ``reward_model`` ``{style,
ground_truth}`` and ``extra_info`` (``difficulty``, ``index``, ``split``, ``question`` or
``problem``; ``type`` in the combined files: the task, in ``math_train``: the MATH subject). The
ground truth is a mapping: Countdown ``{"numbers": "5,17,91", "target": 113}`` (numbers as a comma
string), Zebra and ARC ``{"target": "alice"}``; math's is the answer string. Reading is tolerant
of the same values in other spellings (the truth as a JSON string, numbers as a list, a plain
answer string); anything else is a :class:`~pac_verl.errors.UserError` naming the file, the row
and the field.

Conversion (docs/concepts/spec.md#rows-on-disk): ``data_source`` becomes ours (``countdown`` for
training, ``countdown/1`` .. ``countdown/4`` for validation; ``math``; ``math500``, ``amc23``,
``aime24``), the prompt is the task text SEC's policy saw (the frame removed;
``backbone.prompt_style=completion``'s template puts it back, giving SEC's prompt byte for byte),
the ground truth is ours (Countdown's numbers a list) and ``extra_info`` keeps SEC's ``index`` and
``data_source`` (``source_index``, ``sec_data_source``). Every gold is re-checked with the project's
verifiers. SEC's Countdown rows carry no solution: :mod:`.countdown_solver` finds one
(``extra_info.solution``, the gold ``prep check`` scores); a training row without one is dropped and
counted, a validation row is kept (it is part of SEC's benchmark) and counted as ``no_gold``.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pac_verl.data_prep.overlap import task_text
from pac_verl.data_prep.rows import make_row, read_table
from pac_verl.errors import UserError

TASKS = ("countdown", "zebra", "arc")
RELEASE = "GitHub Vincent-La/cofa, sec/data"


# ----------------------------------------------------------------------------------- locating


def _folder(root: str | Path, sub: str, option: str) -> Path:
    root = Path(root).expanduser()
    if not root.is_dir():
        raise UserError(f"{option} {root}: no such folder (expected SEC's sec/data from {RELEASE})")
    return root / sub if (root / sub).is_dir() else root


def multi_level_files(
    root: str | Path, tasks: tuple[str, ...]
) -> dict[str, dict[str, Path | None]]:
    """Per task, SEC's validation file (required) and training file (None if absent)."""
    folder = _folder(root, "combined", "--from")
    files: dict[str, dict[str, Path | None]] = {}
    for task in tasks:
        val = folder / f"test_{task}.parquet"
        if not val.is_file():
            raise UserError(f"--from {root}: no {val.name} in {folder} (SEC's validation file for "
                            f"{task}, from {RELEASE}/combined)")  # fmt: skip
        train = folder / f"train_{task}.parquet"
        files[task] = {"val": val, "train": train if train.is_file() else None}
    return files


def math_folder(root: str | Path) -> Path:
    folder = _folder(root, "math", "--math-from")
    if not (folder / "math_train.parquet").is_file():
        raise UserError(f"--math-from {root}: no math_train.parquet in {folder} (SEC's 11,499-row "
                        f"MATH pool, from {RELEASE}/math)")  # fmt: skip
    return folder


# ----------------------------------------------------------------------------------- fields


def _truth(row: Mapping[str, Any]) -> Any:
    rm = row.get("reward_model")
    if not isinstance(rm, Mapping) or rm.get("ground_truth") is None:
        raise KeyError("reward_model.ground_truth")
    truth = rm["ground_truth"]
    if isinstance(truth, str) and truth.lstrip().startswith("{"):
        try:
            truth = json.loads(truth)
        except json.JSONDecodeError as err:
            raise ValueError(f"reward_model.ground_truth is not JSON ({err})") from None
    return truth


def countdown_truth(row: Mapping[str, Any]) -> tuple[list[int], int]:
    """``(numbers, target)`` from SEC's ``{"numbers": "5,17,91", "target": 113}`` (or a list)."""
    truth = _truth(row)
    if not isinstance(truth, Mapping) or "numbers" not in truth or "target" not in truth:
        raise ValueError('reward_model.ground_truth must hold "numbers" and "target"')
    numbers = truth["numbers"]
    if isinstance(numbers, str):
        numbers = numbers.split(",")
    try:
        numbers = [int(str(n).strip()) for n in numbers]
        target = truth["target"]
        if isinstance(target, float) and not target.is_integer():
            raise ValueError
        target = int(target)
    except (TypeError, ValueError):
        raise ValueError("reward_model.ground_truth.numbers/target must be integers") from None
    if not numbers:
        raise ValueError("reward_model.ground_truth.numbers is empty")
    return numbers, target


def answer_truth(row: Mapping[str, Any]) -> str:
    """Zebra/ARC/math: ``{"target": "alice"}`` or the answer string itself."""
    truth = _truth(row)
    if isinstance(truth, Mapping):
        if "target" not in truth:
            raise ValueError('reward_model.ground_truth must hold "target"')
        truth = truth["target"]
    if isinstance(truth, bool) or not isinstance(truth, str | int | float):
        raise TypeError(
            f"reward_model.ground_truth.target must be text, got {type(truth).__name__}"
        )
    text = str(truth).strip()
    if not text:
        raise ValueError("reward_model.ground_truth is empty")
    return text


def task_of(row: Mapping[str, Any]) -> str:
    """The task text SEC's policy saw: the user message, the base-model frame removed."""
    prompt = row.get("prompt")
    if isinstance(prompt, str | bytes) or not prompt:
        raise ValueError("prompt must be a non-empty list of chat messages")
    users = [m for m in prompt if isinstance(m, Mapping) and m.get("role") == "user"]
    if not users or not isinstance(users[-1].get("content"), str):
        raise ValueError("prompt has no user message with text content")
    return task_text(users[-1]["content"]).strip()


def _difficulty(info: Mapping[str, Any], levels: tuple[int, ...]) -> int:
    level = info.get("difficulty")
    if isinstance(level, float) and level.is_integer():
        level = int(level)
    if not isinstance(level, int) or isinstance(level, bool) or level not in levels:
        raise ValueError(f"extra_info.difficulty is {level!r}, expected one of {list(levels)}")
    return level


# ----------------------------------------------------------------------------------- multi-level


@dataclass
class Imported:
    """One SEC file's rows, converted and gold-checked, with what was skipped and why."""

    rows: list[dict[str, Any]] = field(default_factory=list)
    skipped: Counter = field(default_factory=Counter)  # (level, reason) -> rows
    no_gold: Counter = field(default_factory=Counter)  # kept without a gold, per level


def read_multi_level(
    path: Path,
    task: str,
    split: str,
    levels: tuple[int, ...],
    per_level: int,
    exclude: frozenset[str] = frozenset(),
    quiet: bool = True,
) -> Imported:
    """Convert SEC's ``path`` (``combined/test_<task>`` or ``train_<task>``): at most
    ``per_level`` rows per difficulty, in file order; every gold re-checked (module docstring).
    Training rows are de-duplicated on :func:`.overlap.dedupe_keys` and skipped when a key is in
    ``exclude`` (validation's); validation rows are kept as SEC wrote them."""
    from pac_verl.data_prep.countdown_solver import solve
    from pac_verl.data_prep.overlap import dedupe_keys
    from pac_verl.progress import progress
    from pac_verl.verifiers import gold_solution, score

    table = read_table(path)
    for col in ("prompt", "reward_model", "extra_info"):
        if col not in table.column_names:
            raise UserError(f"{path}: missing column {col!r} (not a file of SEC's release)")
    out, kept, seen = Imported(), Counter(), set()
    rows = table.to_pylist()
    shown = rows if quiet else progress(rows, f"SEC {path.name}", total=len(rows), unit="row")
    for i, sec_row in enumerate(shown):
        where = f"{path} row {i}"
        try:
            info = sec_row.get("extra_info")
            if not isinstance(info, Mapping):
                raise KeyError("extra_info")
            if info.get("type") not in (None, task):
                raise ValueError(f"extra_info.type is {info.get('type')!r} in the {task} file")
            level = _difficulty(info, levels)
            if kept[level] >= per_level:
                continue
            extra: dict[str, Any] = {"source_index": info.get("index"),
                                     "sec_data_source": sec_row.get("data_source")}  # fmt: skip
            if task == "countdown":
                numbers, target = countdown_truth(sec_row)
                truth: Any = {"target": target, "numbers": numbers}
            else:
                truth = answer_truth(sec_row)
            text = task_of(sec_row)
        except KeyError as err:
            raise UserError(f"{where}: missing field {err.args[0]!r}") from None
        except (TypeError, ValueError) as err:
            raise UserError(f"{where}: {err}") from None
        row = make_row(
            data_source=task if split == "train" else f"{task}/{level}",
            prompt=text, task_type=task, ground_truth=truth,
            split=split, index=len(out.rows), difficulty=level, **extra,
        )  # fmt: skip
        key, text = dedupe_keys(row)
        row["extra_info"]["key"] = key
        if split == "train":
            if key in exclude or text in exclude:
                out.skipped[level, "in_validation"] += 1
                continue
            if key in seen:
                out.skipped[level, "duplicate"] += 1
                continue
            seen.add(key)
        if task == "countdown":
            found = solve(truth["numbers"], truth["target"])
            if found in ("unsolvable", "unknown"):
                if split == "train":
                    out.skipped[level, f"{found}_countdown"] += 1
                    continue
                out.no_gold[level] += 1
                found = None
            row["extra_info"]["solution"] = found
        gold = gold_solution(task, row["reward_model"]["ground_truth"], row["extra_info"])
        if gold is not None:
            verdict = score(task, gold, row["reward_model"]["ground_truth"])
            if not verdict.correct:
                if split != "train":
                    raise UserError(f"{where}: its gold answer does not score 1 with the {task} "
                                    f"verifier ({verdict.reason}); a benchmark row cannot be "
                                    "dropped")  # fmt: skip
                out.skipped[level, f"gold_rejected:{verdict.reason}"] += 1
                continue
        kept[level] += 1
        out.rows.append(row)
    missing = [lv for lv in levels if kept[lv] == 0]
    if missing and per_level > 0:
        raise UserError(f"{path}: no rows at difficulty {missing} (SEC's files hold levels "
                        f"{list(levels)})")  # fmt: skip
    return out

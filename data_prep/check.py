"""``pac-verl prep check FILE``: validate a verl parquet and re-score every gold.

The schema: docs/concepts/spec.md#rows-on-disk.

The same rules serve ``pac-verl prep check`` (every row) and the preflight (a sample of a large
training file):

1. over the whole file, by column (cheap at any size): the file is readable parquet with rows,
   every column of the schema is present and never null, and every ``extra_info.type`` has a
   verifier;
2. on every row, or on ``max_rows`` rows drawn with a fixed seed: the row passes
   :func:`~pac_verl.data_prep.rows.validate_row`, and its gold answer (built by
   :func:`pac_verl.verifiers.gold_solution` from the ground truth and ``extra_info``) scores 1 with
   the row's verifier. Rows whose type carries no gold in the row (Countdown without
   ``extra_info.solution``, code without a reference solution) are counted as ``no_gold``; a code
   row whose test set holds no test fails as ``bad_ground_truth`` either way (never a pass:
   docs/concepts/spec.md#rewards);
3. on the same rows, functional code tests (Code-R1 ``{"functional": ...}``) are run against an
   *empty program* (:func:`~pac_verl.verifiers.code.empty_program`: every name the tests take
   from the program, as a stub returning None), gold or no gold: a row whose tests it passes
   (``passes_empty_program``), or under which no check of the program's output runs
   (``vacuous_tests``: ``def check(f)`` never called, ``assert (cond, msg)``...), or which cannot
   be judged (``bad_ground_truth``: tests that loop, objects of the tests' own passed to the
   program), is a data error. The table counts them per source (``tests check nothing``).

Given several files (``pac-verl prep check train.parquet val.parquet``), one more rule runs across
them (:func:`check_overlap`): no validation row (``extra_info.split`` other than ``train``) may ask
what a training row asks, by puzzle key or by normalised question text
(:mod:`pac_verl.data_prep.overlap`); for math and code the summary adds each
training pool's n-gram overlap with the validation sources of its type (reported, not a rule).

A problem is a :class:`~pac_verl.errors.UserError` naming the file and the rows.
"""

from __future__ import annotations

import warnings
from collections import Counter
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pac_verl.data_prep.rows import COLUMNS, TASK_TYPES, read_table, validate_row
from pac_verl.errors import UserError
from pac_verl.progress import Stopwatch, print_summary, progress


def _rows_named(indices, limit: int = 5) -> str:
    shown = ", ".join(str(i) for i in indices[:limit])
    more = f" and {len(indices) - limit} more" if len(indices) > limit else ""
    return f"row{'s' if len(indices) > 1 else ''} {shown}{more}"


def check_columns(table: pa.Table, path: Path) -> None:
    """Whole-file rules: the columns exist, are never null, and every type has a verifier."""
    if table.num_rows == 0:
        raise UserError(f"{path}: the file has no rows")
    missing = [c for c in COLUMNS if c not in table.column_names]
    if missing:
        raise UserError(f"{path}: missing column {missing[0]!r} (a verl row has {', '.join(COLUMNS)}; "
                        "build the file with pac-verl prep)")  # fmt: skip
    for col in COLUMNS:
        nulls = np.flatnonzero(pc.is_null(table[col]).to_numpy(zero_copy_only=False))
        if len(nulls):
            where = f"{path} {_rows_named(nulls.tolist())}"
            raise UserError(f"{where}: {col} is null")
    info = table["extra_info"]
    if not pa.types.is_struct(info.type) or info.type.get_field_index("type") < 0:
        raise UserError(f"{path}: extra_info has no 'type' field (it picks the verifier)")
    types = pc.struct_field(info, "type")
    known = pc.is_in(types, value_set=pa.array(TASK_TYPES, type=pa.string()))
    bad = np.flatnonzero(~pc.fill_null(known, False).to_numpy(zero_copy_only=False))
    if len(bad):
        found = sorted({str(t) for t in pc.take(types, pa.array(bad)).to_pylist()})
        raise UserError(f"{path} {_rows_named(bad.tolist())}: extra_info.type is "
                        f"{', '.join(repr(t) for t in found)}, which no verifier scores; expected "
                        f"one of {', '.join(TASK_TYPES)}")  # fmt: skip


def sample_positions(num_rows: int, max_rows: int | None, seed: int = 0) -> np.ndarray:
    """Every position, or ``max_rows`` of them drawn without replacement (sorted, fixed seed)."""
    if max_rows is None or num_rows <= max_rows:
        return np.arange(num_rows)
    return np.sort(np.random.default_rng(seed).choice(num_rows, size=max_rows, replace=False))


def check_file(
    path: str | Path, quiet: bool = False, max_rows: int | None = None, golds: bool = True
) -> dict:
    """Check ``path`` (module docstring); ``max_rows`` limits the per-row checks to a sample;
    ``golds=False`` skips the gold answers (a caller that scores them another way).

    Returns ``rows`` (in the file), ``checked`` (rows that went through the per-row checks),
    ``per_source`` (checked rows per data_source), ``no_gold`` and ``missing_library`` counts.
    """
    from pac_verl.verifiers import compute_scores, gold_solution
    from pac_verl.verifiers.code import empty_program, has_tests

    path = Path(path)
    with Stopwatch() as sw:
        table = read_table(path)
        check_columns(table, path)
        positions = sample_positions(table.num_rows, max_rows)
        rows = table.take(pa.array(positions)).to_pylist()
        per_source, no_gold, items, where, empty = Counter(), Counter(), [], [], []
        stubs, stub_where = [], []
        desc = f"check {path.name}"
        shown = rows if quiet else progress(rows, desc, total=len(rows), unit="row")
        for i, row in zip(positions.tolist(), shown):
            validate_row(row, f"{path} row {i}")
            info, truth = row["extra_info"], row["reward_model"]["ground_truth"]
            per_source[row["data_source"]] += 1
            if info["type"] == "code" and not has_tests(truth):
                empty.append((i, row["data_source"], "bad_ground_truth"))
                continue
            stub = empty_program(truth) if info["type"] == "code" else None
            if stub is not None:
                stubs.append(("code", stub, truth))
                stub_where.append((i, row["data_source"]))
            gold = gold_solution(info["type"], truth, info) if golds else None
            if gold is None:
                no_gold[row["data_source"]] += 1
                continue
            items.append((info["type"], gold, truth))
            where.append((i, row["data_source"]))
        verdicts = compute_scores(items + stubs)
        verdicts, stub_verdicts = verdicts[: len(items)], verdicts[len(items) :]
    # a ground truth that an empty program passes, or that checks nothing, is a data error
    vacuous = [(i, ds, "passes_empty_program" if v.correct else v.reason)
               for (i, ds), v in zip(stub_where, stub_verdicts, strict=True)
               if v.correct or v.reason in ("vacuous_tests", "bad_ground_truth")]  # fmt: skip
    checks_nothing = Counter(ds for _, ds, _ in vacuous)
    gold_ok = Counter(ds for (_, ds), v in zip(where, verdicts, strict=True) if v.correct)
    failures = [(i, ds, v) for (i, ds), v in zip(where, verdicts, strict=True) if not v.correct]
    missing_library = Counter(ds for _, ds, v in failures if v.reason == "missing_library")
    failures = empty + [(i, ds, v.reason) for i, ds, v in failures if v.reason != "missing_library"]
    vacuous = [f for f in vacuous if f[:2] not in {(i, ds) for i, ds, _ in failures}]
    failed_by_source = Counter(ds for _, ds, _ in failures)
    table_rows = [[ds, n, gold_ok[ds], failed_by_source[ds], missing_library[ds], no_gold[ds],
                   checks_nothing[ds]]
                  for ds, n in sorted(per_source.items())]  # fmt: skip
    sampled = len(rows) < table.num_rows
    if not quiet:
        title = f"pac-verl prep check {path}" + (
            f" (a sample of {len(rows):,} of {table.num_rows:,} rows)" if sampled else ""
        )
        print_summary(title, ["data_source", "rows", "gold ok", "gold failed", "missing_library",
                              "no gold", "tests check nothing"], table_rows,
                      {"seconds": round(sw.seconds, 1)})  # fmt: skip
    if missing_library:
        warnings.warn(f"{path}: {sum(missing_library.values())} code task(s) need libraries the "
                      "sandbox interpreter lacks (counted as missing_library, not as failures): "
                      "build the BigCodeBench environment and set PAC_SANDBOX_PYTHON "
                      "(docs/guides/sandbox.md)",
                      stacklevel=2)  # fmt: skip
    problems = []
    if failures:
        shown = ", ".join(f"row {i} ({ds}: {reason})" for i, ds, reason in failures[:10])
        problems.append(f"{len(failures)} gold answer(s) do not score 1: {shown}")
    if vacuous:
        counts = Counter(reason for _, _, reason in vacuous)
        kinds = ", ".join(f"{n} {reason}" for reason, n in sorted(counts.items()))
        shown = ", ".join(f"row {i} ({ds}: {reason})" for i, ds, reason in vacuous[:10])
        problems.append(f"{len(vacuous)} functional test set(s) that an empty program passes or "
                        f"that check nothing ({kinds}): {shown}")  # fmt: skip
    if problems:
        raise UserError(f"{path}: {'; '.join(problems)}")
    return {"rows": table.num_rows, "checked": len(rows), "per_source": dict(per_source),
            "no_gold": sum(no_gold.values()),
            "missing_library": sum(missing_library.values())}  # fmt: skip


def check_overlap(paths: list[str | Path], quiet: bool = False):
    """The cross-file rule over ``paths`` read as one: training rows (``split == "train"``) and
    validation rows (any other split) must not overlap (:func:`.overlap.check_disjoint`'s rule).
    Returns the :class:`~pac_verl.data_prep.overlap.Overlap`, or None when the files hold only
    one of the two kinds."""
    from pac_verl.data_prep.overlap import (
        CONTAMINATION_COLUMNS,
        contamination_by_type,
        disjoint_rows,
        read_split_rows,
    )

    with Stopwatch() as sw:
        train, val = read_split_rows(paths)
        if not train or not val:
            return None
        result = disjoint_rows(train, val, quiet=quiet)
        ngrams = contamination_by_type(train, val)
    if not quiet and ngrams:
        print_summary("n-gram overlap of the text pools with the validation sources of their type",
                      CONTAMINATION_COLUMNS, [c.row() for c in ngrams],
                      {"seconds": round(sw.seconds, 1)})  # fmt: skip
    return result

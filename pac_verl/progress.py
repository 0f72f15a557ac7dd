"""Progress bars and closing summaries shared by every long job (data prep, checks, reports)."""

from __future__ import annotations

import sys
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import TypeVar

from rich.console import Console
from rich.table import Table
from tqdm.auto import tqdm

T = TypeVar("T")

# Wide enough for per-arm tables (nine arms) when stdout is a file or a CI log.
console = Console(stderr=False, highlight=False, width=None if sys.stdout.isatty() else 160)


def progress(
    items: Iterable[T],
    desc: str,
    total: int | None = None,
    unit: str = "it",
    weights: Sequence[float] | None = None,
    mininterval: float = 0.5,
) -> Iterator[T]:
    """Wrap ``items`` in a progress bar on stderr (hidden when stderr is not a terminal and CI is set).

    The ETA extrapolates the average rate since the start (tqdm ``smoothing=0``), not the last
    few items. When items cost very different amounts, give ``weights`` (a relative cost per item,
    in order, each a finished piece of work such as a pool's result): the bar then advances by
    cost as each item arrives, so that a job that starts with its slowest items
    (the multi-level build) does not predict minutes for seconds of work.
    """
    if weights is None:
        yield from tqdm(items, desc=desc, total=total, unit=unit, file=sys.stderr,
                        dynamic_ncols=True, mininterval=mininterval, smoothing=0, leave=False)  # fmt: skip
        return
    weights = [float(w) for w in weights]
    scale = sum(weights) or 1.0
    bar = tqdm(total=100.0, desc=desc, file=sys.stderr, dynamic_ncols=True, mininterval=mininterval,
               smoothing=0, leave=False,
               bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining}")  # fmt: skip
    try:
        for item, weight in zip(items, weights, strict=True):
            bar.update(100.0 * weight / scale)  # the item is a finished piece of work
            yield item
    finally:
        bar.close()


def process_seconds() -> float:
    """Seconds since pac_verl was first imported in this process (its imports and the command's
    start-up included; an install that ran in this process before an exec, as ``uv run`` does,
    is not: the process's creation time would count it)."""
    import pac_verl

    return time.perf_counter() - pac_verl.STARTED


def summary_table(title: str, columns: Sequence[str], rows: Iterable[Sequence[object]]) -> Table:
    """A rich table with ``columns`` and ``rows``; numbers are right-aligned."""
    rows = [list(r) for r in rows]
    table = Table(title=title, title_justify="left")
    for i, col in enumerate(columns):
        numeric = bool(rows) and all(isinstance(r[i], int | float) for r in rows if i < len(r))
        table.add_column(col, justify="right" if numeric else "left")
    for r in rows:
        table.add_row(*(_fmt(v) for v in r))
    return table


def print_summary(
    title: str,
    columns: Sequence[str],
    rows: Iterable[Sequence[object]],
    footer: Mapping[str, object] | None = None,
) -> None:
    """Print a one-screen summary table, then ``key: value`` footer lines (paths, seconds, ...)."""
    console.print(summary_table(title, columns, rows))
    for key, value in (footer or {}).items():
        console.print(f"{key}: {_fmt(value)}")


class Stopwatch:
    """``with Stopwatch() as sw: ...; sw.seconds``"""

    def __enter__(self) -> Stopwatch:
        self._t0 = time.perf_counter()
        self.seconds = 0.0
        return self

    def __exit__(self, *exc: object) -> None:
        self.seconds = time.perf_counter() - self._t0


def _fmt(value: object) -> str:
    if isinstance(value, float):
        return f"{value:,.3f}" if abs(value) < 1000 else f"{value:,.1f}"
    if isinstance(value, int) and not isinstance(value, bool):
        return f"{value:,}"
    return str(value)

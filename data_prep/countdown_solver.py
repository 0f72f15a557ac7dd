"""A Countdown solver: a gold expression for puzzles that come without one (SEC's released files).

Depth-first search over the multiset of values still to combine, in exact rational arithmetic
(+, -, *, / in both orders, as the verifier allows), remembering the multisets already
shown to be dead ends. It answers an expression that uses every number once and equals the
target, :data:`UNSOLVABLE` when the whole space was searched, or :data:`UNKNOWN` when the node
budget ran out first (a 6-number puzzle without a solution can take millions of nodes).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

UNSOLVABLE = "unsolvable"
UNKNOWN = "unknown"
DEFAULT_BUDGET = 200_000


class _Budget(Exception):
    pass


def solve(numbers: Sequence[int], target: int, budget: int = DEFAULT_BUDGET) -> str:
    """An expression over ``numbers`` (each once) equal to ``target``, or UNSOLVABLE / UNKNOWN.

    Non-negative integer intermediates are tried first (fast, and how puzzles are usually made);
    only if they fail is the rational search run, which alone can prove a puzzle unsolvable."""
    found = _solve_integers(list(numbers), int(target), budget)
    if found is not None:
        return found
    return _solve_rationals(numbers, target, budget)


def _solve_integers(numbers: list[int], target: int, budget: int) -> str | None:
    dead: set[tuple[int, ...]] = set()
    nodes = 0

    def search(values: list[int], exprs: list[str]) -> str | None:
        nonlocal nodes
        if len(values) == 1:
            return exprs[0] if values[0] == target else None
        state = tuple(sorted(values))
        if state in dead or nodes > budget:
            return None
        nodes += 1
        n = len(values)
        for i in range(n):
            for j in range(i + 1, n):
                a, b, ea, eb = values[i], values[j], exprs[i], exprs[j]
                if a < b:
                    a, b, ea, eb = b, a, eb, ea
                rest_v = [values[k] for k in range(n) if k != i and k != j]
                rest_e = [exprs[k] for k in range(n) if k != i and k != j]
                ops = [(a + b, "+"), (a * b, "*"), (a - b, "-")]
                if b > 1 and a % b == 0:
                    ops.append((a // b, "/"))
                for value, op in ops:
                    found = search([*rest_v, value], [*rest_e, f"({ea}{op}{eb})"])
                    if found is not None:
                        return found
        dead.add(state)
        return None

    found = search(numbers, [str(x) for x in numbers])
    if found is None:
        return None
    return found[1:-1] if len(numbers) > 1 else found


def _solve_rationals(numbers: Sequence[int], target: int, budget: int) -> str:
    goal = Fraction(target)
    dead: set[tuple[Fraction, ...]] = set()
    nodes = 0

    def search(items: list[tuple[Fraction, str]]) -> str | None:
        nonlocal nodes
        if len(items) == 1:
            return items[0][1] if items[0][0] == goal else None
        state = tuple(sorted(v for v, _ in items))
        if state in dead:
            return None
        nodes += 1
        if nodes > budget:
            raise _Budget
        for i in range(len(items)):
            for j in range(i + 1, len(items)):
                (a, ea), (b, eb) = items[i], items[j]
                rest = [items[k] for k in range(len(items)) if k not in (i, j)]
                candidates = [(a + b, f"({ea}+{eb})"), (a * b, f"({ea}*{eb})"),
                              (a - b, f"({ea}-{eb})"), (b - a, f"({eb}-{ea})")]  # fmt: skip
                if b:
                    candidates.append((a / b, f"({ea}/{eb})"))
                if a:
                    candidates.append((b / a, f"({eb}/{ea})"))
                for value, expr in candidates:
                    found = search([*rest, (value, expr)])
                    if found is not None:
                        return found
        dead.add(state)
        return None

    try:
        found = search([(Fraction(n), str(n)) for n in numbers])
    except _Budget:
        return UNKNOWN
    if found is None:
        return UNSOLVABLE
    return found[1:-1] if found.startswith("(") and len(numbers) > 1 else found

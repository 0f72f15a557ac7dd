"""Countdown (SPEC 8): the last ``\\boxed{}`` holds an expression over the given numbers.

Ground truth: ``{"target": 30, "numbers": [21, 95, 8, 2, 26, 2]}``. Score 1 iff the expression uses
exactly the given numbers (as a multiset, each once), only binary ``+ - * /`` and parentheses, and
equals the target exactly in rational arithmetic. Python ``eval`` is never used: the expression is
parsed with :mod:`ast` and walked over a whitelist, with :class:`fractions.Fraction` arithmetic.

Decisions:
- ``×``, ``·``, ``\\times``, ``\\cdot`` mean ``*``; ``÷``, ``\\div`` mean ``/``; ``−`` (U+2212) means
  ``-``; ``\\left(``/``\\right)`` and brackets are parentheses; ``\\frac{a}{b}`` means ``(a)/(b)``.
- Unary minus and plus are rejected (``bad_expression``): the puzzle's operations are the four
  binary ones, and a free negation would let ``-`` be applied without consuming a number.
- Numbers are non-negative integer literals; decimals are rejected.
- A trailing ``= <number>`` (``\\boxed{95-65=30}``) is allowed and ignored when the number equals
  the target; any other right-hand side is ``not_equal``.
- Division by zero is ``bad_expression``. The multiset is checked before any arithmetic, so the
  work is bounded by the (capped) length of the expression.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from fractions import Fraction

from pac_verl.verifiers.extract import last_boxed, tail
from pac_verl.verifiers.verdict import OK, Verdict, fail

MAX_EXPR_CHARS = 400
_REPLACE = (
    ("\\times", "*"), ("\\cdot", "*"), ("×", "*"), ("·", "*"), ("∗", "*"),
    ("\\div", "/"), ("÷", "/"), ("−", "-"), ("–", "-"),
    ("\\left", ""), ("\\right", ""), ("[", "("), ("]", ")"), ("\\,", ""), ("\\ ", ""), ("$", ""),
)  # fmt: skip
_FRAC_RE = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_OPS = {ast.Add: Fraction.__add__, ast.Sub: Fraction.__sub__, ast.Mult: Fraction.__mul__}


class _Bad(Exception):
    pass


def parse_truth(ground_truth: str) -> tuple[int, list[int]]:
    """``(target, numbers)`` from the JSON ground truth (ValueError if malformed)."""
    truth = json.loads(ground_truth)
    target, numbers = truth["target"], truth["numbers"]
    if not isinstance(target, int) or not all(isinstance(n, int) for n in numbers):
        raise ValueError("countdown target and numbers must be integers")
    return target, list(numbers)


def normalise_expression(expr: str) -> str:
    for old, new in _REPLACE:
        expr = expr.replace(old, new)
    for _ in range(8):
        new = _FRAC_RE.sub(r"(\1)/(\2)", expr)
        if new == expr:
            break
        expr = new
    return expr.replace("{", "(").replace("}", ")").strip()


def _literals(node: ast.AST) -> list[int]:
    out: list[int] = []
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, ast.Expression):
            stack.append(n.body)
        elif isinstance(n, ast.BinOp) and isinstance(n.op, (ast.Add, ast.Sub, ast.Mult, ast.Div)):
            stack.extend((n.left, n.right))
        elif isinstance(n, ast.Constant) and type(n.value) is int:
            out.append(n.value)
        else:
            raise _Bad
    return out


def _evaluate(node: ast.AST) -> Fraction:
    if isinstance(node, ast.Constant):
        return Fraction(node.value)
    left, right = _evaluate(node.left), _evaluate(node.right)
    if isinstance(node.op, ast.Div):
        if right == 0:
            raise _Bad
        return left / right
    return _OPS[type(node.op)](left, right)


def score_expression(expr: str, target: int, numbers: list[int]) -> Verdict:
    """Score an expression string (already extracted from the box)."""
    expr = normalise_expression(expr)
    if "=" in expr:
        expr, _, rhs = expr.partition("=")
        try:
            rhs_value = Fraction(rhs.replace(" ", ""))
        except (ValueError, ZeroDivisionError):
            return fail("not_equal")
        if rhs_value != target:
            return fail("not_equal")
    if not expr or len(expr) > MAX_EXPR_CHARS:
        return fail("bad_expression")
    try:
        tree = ast.parse(expr, mode="eval")
        literals = _literals(tree)
    except (SyntaxError, ValueError, RecursionError, MemoryError, _Bad):
        return fail("bad_expression")
    if Counter(literals) != Counter(numbers):
        return fail("wrong_numbers")
    try:
        value = _evaluate(tree.body)
    except (_Bad, RecursionError):
        return fail("bad_expression")
    return OK if value == target else fail("not_equal")


def score(solution_str: str, ground_truth: str) -> Verdict:
    try:
        target, numbers = parse_truth(ground_truth)
    except (ValueError, KeyError, TypeError):
        return fail("bad_ground_truth")
    boxed = last_boxed(tail(solution_str))
    if boxed is None:
        return fail("no_boxed")
    return score_expression(boxed, target, numbers)

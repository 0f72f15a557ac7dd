"""Countdown: the final ``\\boxed{}`` holds an expression over the given numbers.

Grading rules: docs/concepts/spec.md#rewards; examples: docs/guides/rewards.md.

Ground truth: ``{"target": 30, "numbers": [21, 95, 8, 2, 26, 2]}``. Score 1 iff the expression uses
exactly the given numbers (as a multiset, each once), only binary ``+ - * /`` and parentheses, and
equals the target exactly in rational arithmetic. Python ``eval`` is never used: the expression is
parsed with :mod:`ast` and walked over a whitelist, with :class:`fractions.Fraction` arithmetic.

Accepted forms (a careful human reads them as the same expression):
- ``×``, ``·``, ``∗``, ``\\times``, ``\\cdot``, ``\\ast`` mean ``*``; ``÷``, ``\\div`` mean ``/``;
  ``−`` (U+2212) and ``–`` mean ``-``; ``[ ]``, ``{ }`` and ``\\{ \\}`` are parentheses, and sizing
  commands and ``\\displaystyle`` are read past (``\\left(``, ``\\Big(``, ``\\bigl[``);
  ``\\frac{a}{b}`` means ``(a)/(b)``; a number or a bracket before a bracket with no sign
  (``4(9+3)``, ``(1+2)(3+4)``) is a product; full-width digits and signs are their ASCII forms; ``$``,
  ``\\text{}``, markdown bold, an "Answer:" label, LaTeX and unicode spacing, a check mark after
  the equation (``= 30 \\checkmark``, ``✓``) and a trailing period are ignored
  (:func:`.extract.clean_answer`).
- An equation: ``expr = 30``, ``30 = expr``, ``expr = 24 + 8 - 2 = 30``. Every side must be a
  whitelisted expression equal to the target, and at least one side must use the given numbers.
- Steps: ``95 - 26 - 21 = 48, 48 / 2 = 24, 24 + 8 - 2 = 30`` (separated by ``,`` ``;``, line
  ``\\\\`` or "then"): each step uses given numbers or earlier results once each, and the steps use
  every given number and end at the target (:func:`score_steps`).
- The same expression boxed twice, or two different expressions that are both right, in two
  boxes or in one joined by "or" (``\\boxed{25*2-7+3 \\text{ or } 25*2+3-7}``). A box that
  holds only the target beside an expression box (``\\boxed{expr} = \\boxed{30}``) restates
  the value and is not a second answer.

Not accepted, and why:
- Several different answers offered together of which one is wrong, in several boxes or one
  joined by "or", or doubt inside the box (``(3+4)*5 (probably)``, :func:`.extract.hedges`): a
  hedge (``hedged``), whatever the last box says (which boxes count is
  :mod:`.extract`'s rule: a box explicitly corrected, or a step before the answer, does not).
- Unary minus and plus (``bad_expression``): the puzzle's operations are the four binary ones, and
  a free negation would let ``-`` be applied without consuming a number.
- Decimals, powers, two numbers side by side (``4 4``: a product or ``44``?), a number after
  its bracket (``(3+4)5``): not the puzzle's operations, nor a convention a reader relies on.
- Division by zero (``bad_expression``). The multiset is checked before any arithmetic.
- An expression longer than ``MAX_EXPR_CHARS`` (400; ``too_long``), right or not (redundant
  brackets by the hundred): no puzzle needs it, and the cap bounds the work by the length.
"""

from __future__ import annotations

import ast
import json
import re
from collections import Counter
from fractions import Fraction

from pac_verl.verifiers import lexicon
from pac_verl.verifiers.extract import (
    clean_answer,
    final_answers,
    has_alternatives,
    hedges,
)
from pac_verl.verifiers.verdict import OK, Verdict, fail, judge_final_answers

MAX_EXPR_CHARS = 400
_REPLACE = (
    ("\\times", "*"), ("\\cdot", "*"), ("\\ast", "*"), ("×", "*"), ("·", "*"), ("⋅", "*"),
    ("∗", "*"), ("\\div", "/"), ("÷", "/"), ("−", "-"), ("–", "-"),
    ("\\{", "("), ("\\}", ")"), ("[", "("), ("]", ")"),
)  # fmt: skip
# sizing commands (\\left, \\Big, \\bigl, ...) and a check mark after the equation are read past
_READ_PAST = re.compile(
    r"\\(?:left|right|[bB]igg?[lrm]?|displaystyle|textstyle)(?![a-zA-Z])|\\checkmark\b|[✓✔]"
)
# a product written the way algebra writes one, a number or a bracket before a bracket: "4(9+3)",
# "(1+2)(3+4)"; a number after its bracket ("(3+4)5") is no convention and stays rejected
_IMPLICIT_PRODUCT = re.compile(r"(?<=[\d)])\s*(?=\()")
_FRAC_RE = re.compile(r"\\[dt]?frac\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_STEP_SPLIT = re.compile(r"[,;]|\\\\|\bthen\b")
_DIGITS = re.compile(r"\d{1,30}")
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
    """The box's text as a Python-syntax arithmetic expression (not yet checked)."""
    expr = _READ_PAST.sub("", clean_answer(expr))
    for old, new in _REPLACE:
        expr = expr.replace(old, new)
    for _ in range(8):
        new = _FRAC_RE.sub(r"(\1)/(\2)", expr)
        if new == expr:
            break
        expr = new
    return _IMPLICIT_PRODUCT.sub("*", expr.replace("{", "(").replace("}", ")").strip())


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


def _parse(side: str) -> tuple[ast.Expression, list[int]]:
    """An expression's tree and its numbers, each written in decimal digits as the puzzle gives
    it: a Python spelling of a number (``0x19``, ``2_5``, ``0o31``) is no given number."""
    text = side.strip()
    tree = ast.parse(text, mode="eval")
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and not _DIGITS.fullmatch(
            ast.get_source_segment(text, node) or ""
        ):
            raise _Bad
    return tree, _literals(tree)


def score_steps(steps: list[str], target: int, numbers: list[int]) -> Verdict:
    """Steps ``95 - 26 - 21 = 48, 48 / 2 = 24, 24 + 8 - 2 = 30``: each step's left side uses
    given numbers or earlier results (each once) and equals its right side, a number; the steps
    use every given number and end with the target as the only value left."""
    pool: Counter = Counter(Fraction(n) for n in numbers)
    try:
        for step in steps:
            sides = step.split("=")
            if len(sides) != 2:
                return fail("bad_expression")
            (lhs, used), (rhs, rhs_literals) = _parse(sides[0]), _parse(sides[1])
            if not isinstance(rhs.body, ast.Constant):
                return fail("bad_expression")
            used_values = Counter(Fraction(n) for n in used)
            if any(pool[v] < c for v, c in used_values.items()):
                return fail("wrong_numbers")
            result = _evaluate(lhs.body)
            if result != rhs_literals[0]:
                return fail("not_equal")
            pool = pool - used_values + Counter({result: 1})
    except (SyntaxError, ValueError, RecursionError, MemoryError, _Bad):
        return fail("bad_expression")
    if pool != Counter({Fraction(target): 1}):
        return fail("wrong_numbers" if sum(pool.values()) != 1 else "not_equal")
    return OK


def score_expression(expr: str, target: int, numbers: list[int]) -> Verdict:
    """Score one boxed answer: an expression, an equation whose sides all equal the target, or
    steps (:func:`score_steps`)."""
    expr = normalise_expression(expr)
    if hedges(expr):
        return fail("hedged")
    if len(expr) > MAX_EXPR_CHARS:  # no puzzle of six numbers needs more: degenerate output
        return fail("too_long")
    if not expr:
        return fail("bad_expression")
    if has_alternatives(expr):  # "A or B": an answer only when every expression offered solves it
        parts = [part.strip(" \t\n,;") for part in lexicon.ALTERNATIVES_INSIDE.split(expr)]
        if len(parts) > 1 and all(
            score_expression(part, target, numbers).correct for part in parts
        ):
            return OK
        return fail("hedged")
    steps = [step for step in _STEP_SPLIT.split(expr) if step.strip()]
    if len(steps) > 1:
        return score_steps(steps, target, numbers)
    try:
        parsed = [_parse(side) for side in expr.split("=")]
        sides, literals = [tree for tree, _ in parsed], [lits for _, lits in parsed]
    except (SyntaxError, ValueError, RecursionError, MemoryError, _Bad):
        return fail("bad_expression")
    wanted = Counter(numbers)
    if not any(Counter(lits) == wanted for lits in literals):
        return fail("wrong_numbers")
    try:
        values = [_evaluate(tree.body) for tree in sides]
    except (_Bad, RecursionError):
        return fail("bad_expression")
    return OK if all(v == target for v in values) else fail("not_equal")


def expression_key(answer: str) -> str:
    """Two boxes with the same key are the same answer written twice."""
    return "".join(normalise_expression(answer).split())


def score(solution_str: str, ground_truth: str) -> Verdict:
    try:
        target, numbers = parse_truth(ground_truth)
    except (ValueError, KeyError, TypeError):
        return fail("bad_ground_truth")

    # "\\boxed{expr} equals \\boxed{30}": the value restated beside the expression, not an answer
    def whole(box: str) -> bool:  # every given number in one box: an answer, never a step
        used = Counter(int(n) for n in _DIGITS.findall(normalise_expression(box)))
        return not Counter(numbers) - used

    answers = final_answers(
        solution_str,
        ignore=lambda box: expression_key(box) == str(target),
        kind="expression",
        whole=whole,
    )
    if not answers.answers and not answers.cut_off:  # only the target boxed: graded as an answer
        answers = final_answers(solution_str, kind="expression", whole=whole)
    return judge_final_answers(
        answers,
        expression_key,
        lambda answer: score_expression(answer, target, numbers),
    )

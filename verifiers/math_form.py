"""The form of a math answer (issue 24): a value, not a computation the verifier does for the model.

math-verify evaluates what it reads: to it ``\\boxed{\\sum_{k=1}^{100} k}`` equals 5050, and
``\\boxed{\\frac{100 \\cdot 101}{2}}``, ``\\boxed{\\gcd(12, 18)}`` and
``\\boxed{3^{2024} \\bmod 7}`` equal their values. A policy paid for those learns to box the question. A careful grader wants
the answer in the form the question asks for, and the gold is the witness of that form: an answer
is accepted only when every operation it applies is one the gold applies too, after notation is
normalised (:func:`operations`); this is judged before its value, so sympy never evaluates the
model's computation. What counts as an operation:

- on numbers (a subexpression with no variable in it): ``add`` (``+``, ``-``), ``mul`` (``\\times``,
  ``\\cdot``, ``\\div``, a coefficient, a division by a non-number, and a fraction of two integers
  whose value is an integer: ``10/2``, ``\\frac{4}{1}``), ``root`` (``\\sqrt{}``, ``x^{1/n}``),
  ``pow`` (any other power) and every function by its name (``\\sin``, ``\\log``, ``e^{x}``,
  ``\\lfloor``, ``\\lceil``, ``n!``, ``|x|``, ``\\max``, ``\\bmod``, ...);
- wherever they are: sums, products, integrals, limits and derivatives (``\\sum_{k=1}^{n} k`` is
  not an answer for ``\\frac{n(n+1)}{2}``), and the operations the parser evaluates before anything
  can look at them (``\\gcd``, ``\\operatorname{lcm}``, ``\\det``, ``\\binom``).

Not operations:
- numbers: integers, decimals, a fraction of two integers that is not an integer (``\\frac{2}{4}``
  is the number one half, unreduced), repeating decimals (``4.\\overline{6}``), scientific
  notation (``1.5 \\times 10^{3}``, ``1.5e3``, ``10^{6}``: :func:`plain_numbers` writes them out),
  the constants π, e, i and ∞, and a minus sign;
- arithmetic and functions on variables: they are the answer's form, not work left undone
  (``(x+1)^2`` for the gold ``x^2+2x+1``, ``2\\sin x \\cos x`` for ``\\sin 2x``).

The gold's operations are those it is written with and those of its value as sympy writes it, so
a gold that is itself not simplified (``\\sqrt{8}``) accepts its simplified form (``2\\sqrt{2}``).

A form question the gold settles is not judged beyond this: ``\\sqrt{12}`` for the gold
``2\\sqrt{3}`` is accepted (the gold takes a root too; whether the question asked for the
simplest radical form is in the question, which the verifier does not read), as is ``\\frac{2}{4}``
for ``\\frac{1}{2}``; ``\\frac{10}{2}`` and ``\\sqrt{25}`` for the gold ``5`` are not (an integer
gold has no division and no root). Everything here reads trees sympy built and short regular
expressions over at most ``MAX_NODES`` nodes: linear in the answer, and it never raises.
"""

from __future__ import annotations

import re
from decimal import Decimal, InvalidOperation
from fractions import Fraction

MAX_NODES = 2_000
MAX_EXPONENT_DIGITS = 3  # 1.5e999 is written out (1,000 digits); 1.5e1000 is left as it is
_NAMED = re.compile(
    r"\\(gcd|lcm|det|[dt]?binom|choose|bmod|pmod|mod|div)(?![a-zA-Z])|"
    r"\\operatorname\s*\{\s*([A-Za-z]+)\s*\}"
)
_NAME = {"dbinom": "binomial", "tbinom": "binomial", "binom": "binomial", "choose": "binomial",
         "bmod": "mod", "pmod": "mod", "div": "mul"}  # fmt: skip
_FRACTION = re.compile(
    r"\\[dtc]?frac\s*(?:\{\s*(-?\d+)\s*\}|(\d))\s*(?:\{\s*(-?\d+)\s*\}|(\d))|"
    r"(?<![\w.}\\])(-?\d+)\s*/\s*(\d+)(?![\w.])"
)
_EXP = rf"[-+]?\d{{1,{MAX_EXPONENT_DIGITS}}}"
_E_NOTATION = re.compile(rf"(?<![\w.\\])(\d+(?:\.\d+)?|\.\d+)[eE]({_EXP})(?![\w.])")
_TIMES_TEN = re.compile(
    rf"(?<![\w.\\])(\d+(?:\.\d+)?)\s*(?:\\times|\\cdot|\*|×|·)\s*10\s*\^\s*"
    rf"(?:\{{\s*({_EXP})\s*\}}|(\d))(?![\d.])"
)
_TEN_POWER = re.compile(rf"(?<![\w.\\^}}])10\s*\^\s*(?:\{{\s*({_EXP})\s*\}}|(\d))(?![\d.])")
_REPEATING = re.compile(r"(?<![\w.])(-?)(\d*)\.(\d{0,30})\\overline\s*\{\s*(\d{1,30})\s*\}")


def _decimal(mantissa: str, exponent: str) -> str:
    try:
        return format(Decimal(mantissa).scaleb(int(exponent)), "f")
    except (InvalidOperation, ValueError):
        return f"{mantissa}e{exponent}"


def _repeating(m: re.Match) -> str:
    sign, whole, fixed, period = m.groups()
    value = Fraction(int(whole or "0")) + Fraction(int(fixed or "0"), 10 ** len(fixed))
    value += Fraction(int(period), 10 ** len(fixed) * (10 ** len(period) - 1))
    if sign:
        value = -value
    if value.denominator == 1:
        return str(value.numerator)
    return f"{'-' if value < 0 else ''}\\frac{{{abs(value.numerator)}}}{{{value.denominator}}}"


def plain_numbers(text: str) -> str:
    """Numbers in scientific notation and repeating decimals written out as plain numbers:
    ``1.5e3`` / ``1.5 \\times 10^{3}`` -> ``1500``, ``10^{6}`` -> ``1000000``,
    ``4.\\overline{6}`` -> ``\\frac{14}{3}``. Exponents over ``MAX_EXPONENT_DIGITS`` digits and
    periods over 30 digits are left as written."""
    text = _REPEATING.sub(_repeating, text)
    text = _E_NOTATION.sub(lambda m: _decimal(m.group(1), m.group(2)), text)
    text = _TIMES_TEN.sub(lambda m: _decimal(m.group(1), m.group(2) or m.group(3)), text)
    return _TEN_POWER.sub(lambda m: _decimal("1", m.group(1) or m.group(2)), text)


def latex_operations(text: str) -> set[str]:
    """The operations of :mod:`this module <.math_form>` that the parser evaluates before its tree
    can show them: named ones (``\\gcd``, ``\\det``, ``\\binom``, ...) and fractions of two
    integers whose value is an integer."""
    ops = {_NAME.get(n, n) for m in _NAMED.finditer(text) for n in [(m[1] or m[2]).lower()]}
    for m in _FRACTION.finditer(text):
        num, den = m[1] or m[2] or m[5], m[3] or m[4] or m[6]
        if len(num) + len(den) <= 1_000 and int(den) != 0 and int(num) % int(den) == 0:
            ops.add("mul")
    return ops


class _TooBig(Exception):
    pass


def tree_operations(expr: object) -> set[str]:
    """The operations in a sympy tree (see the module docstring); raises ``_TooBig`` past
    ``MAX_NODES`` nodes."""
    from sympy import Add, Basic, Mul, Pow, Rational, Symbol
    from sympy.concrete.expr_with_limits import ExprWithLimits
    from sympy.core.function import Application, Derivative
    from sympy.matrices import MatrixBase
    from sympy.series.limits import Limit

    ops: set[str] = set()
    seen = 0

    def visit(node: object) -> bool:  # whether ``node`` has no variable in it
        nonlocal seen
        seen += 1
        if seen > MAX_NODES:
            raise _TooBig
        if isinstance(node, MatrixBase):
            for element in node:
                visit(element)
            return False
        if isinstance(node, Symbol):
            return node.name == "i"  # math-verify's imaginary unit
        if not isinstance(node, Basic):
            return False
        if not node.args:
            return True  # a number or a constant
        constant = all([visit(arg) for arg in node.args])
        if isinstance(node, (ExprWithLimits, Limit, Derivative)) or (
            constant and isinstance(node, Application)
        ):
            ops.add(type(node).__name__.lower())
        elif constant and isinstance(node, Add):
            ops.add("add")
        elif constant and isinstance(node, Mul):
            if len([a for a in node.args if a != -1]) > 1:  # not a minus sign
                ops.add("mul")
        elif constant and isinstance(node, Pow):
            exp = node.exp
            if node.base == 10 and exp.is_Integer:
                pass  # a number in scientific notation (10^{6}), however large
            elif exp == -1:
                ops.add("mul")
            elif isinstance(exp, Rational) and exp.p == 1 and exp.q > 1:
                ops.add("root")
            else:
                ops.add("pow")
        return constant

    visit(expr)
    return ops


def evaluated(expr: object) -> object:
    """``expr`` rebuilt bottom-up with sympy's automatic evaluation (``\\sqrt{8}`` ->
    ``2\\sqrt{2}``, ``2^{10}`` -> 1024); unchanged where a node cannot be rebuilt."""
    from sympy import Basic
    from sympy.matrices import MatrixBase

    if not isinstance(expr, Basic) or isinstance(expr, MatrixBase) or not expr.args:
        return expr
    try:
        return expr.func(*[evaluated(arg) for arg in expr.args])
    except Exception:  # a node whose constructor wants something else: keep it as written
        return expr


def operations(text: str, expr: object) -> set[str] | None:
    """The operations of an answer written ``text`` and parsed to ``expr`` (None for an answer
    that does not parse to a tree), or None when they cannot be read (too large)."""
    try:
        return latex_operations(text) | tree_operations(expr)
    except (_TooBig, RecursionError):
        return None

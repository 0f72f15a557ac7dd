"""The form of a math answer: a value, not a computation the verifier does for the model.

math-verify evaluates what it reads: to it ``\\boxed{\\sum_{k=1}^{100} k}`` equals 5050, and
``\\boxed{\\frac{100 \\cdot 101}{2}}``, ``\\boxed{\\gcd(12, 18)}`` and
``\\boxed{3^{2024} \\bmod 7}`` equal their values. A policy paid for those learns to box the question. A careful grader wants
the answer in the form the question asks for, and the gold is the witness of that form: an answer
is accepted only when every operation it applies is one the gold applies too, after notation is
normalised (:func:`operations`); this is judged before its value, so sympy never evaluates the
model's computation. What counts as an operation:

- on numbers (a subexpression with no variable in it): ``add`` (``+``, ``-``), ``mul`` (``\\times``,
  ``\\cdot``, ``\\div``, a coefficient, a division by a non-number, and a fraction of two integers
  whose value is an integer: ``10/2``, ``\\frac{4}{1}``; a division by an integer inside a product
  with a variable is the denominator of its rational coefficient, ``\\frac{x}{2}``, and ``\\div``
  between expressions in a variable is a fraction bar, ``(x+2) \\div (x-1)``), ``root`` (``\\sqrt{}``, ``x^{1/n}``),
  ``pow`` (any other power) and every function by its name (``\\sin``, ``\\log``, ``e^{x}``,
  ``\\lfloor``, ``\\lceil``, ``n!``, ``|x|``, ``\\max``, ``\\bmod``, ...);
- wherever they are: sums, products, integrals, limits and derivatives (``\\sum_{k=1}^{n} k`` is
  not an answer for ``\\frac{n(n+1)}{2}``), and the operations the parser evaluates before anything
  can look at them (``\\gcd``, ``\\operatorname{lcm}``, ``\\det``, ``\\binom``), and an
  operation that leaves its operand as it is (``identity``: ``6\\sqrt{2} \\cdot 1``, ``x/1``,
  ``x + 0``, ``x^{1}``), which the parser drops.

Not operations:
- numbers: integers, decimals, a fraction of two integers that is not an integer (``\\frac{2}{4}``
  is the number one half, unreduced), repeating decimals (``4.\\overline{6}``), scientific
  notation (``1.5 \\times 10^{3}``, ``1.5e3``, ``10^{6}``: :func:`plain_numbers` writes them out),
  the constants π, e, i and ∞, a minus sign, and a complex number's standard form ``a + bi``
  (``0 + 2i`` for ``2i``, ``5 + 0i`` for ``5``; ``1 + 1 + 2i`` still adds);
- arithmetic and functions on variables: whether they are the gold's form is
  :mod:`.question`'s rule (``(x+1)^2`` for the gold ``x^2+2x+1`` is not).

The gold's operations are those it is written with and those of its value as sympy writes it, so
a gold that is itself not simplified (``\\sqrt{8}``) accepts its simplified form (``2\\sqrt{2}``).

Normal forms (expanded, factored, reduced, rationalised, simplified radicals) are
:mod:`.question`'s rule: ``\\sqrt{12}`` for the gold ``2\\sqrt{3}`` passes this module (the
gold takes a root too) and fails that one; ``\\frac{10}{2}`` and ``\\sqrt{25}`` for the gold
``5`` fail here (an integer gold has no division and no root). Everything here reads trees sympy built and short regular
expressions over at most ``MAX_NODES`` nodes: linear in the answer, and it never raises.
"""

from __future__ import annotations

import re
from collections import Counter
from decimal import Decimal, InvalidOperation
from fractions import Fraction

MAX_NODES = 2_000
MAX_EXPONENT_DIGITS = 3  # 1.5e999 is written out (1,000 digits); 1.5e1000 is left as it is
_NAMED = re.compile(
    r"\\(gcd|lcm|det|[dt]?binom|choose|bmod|pmod|mod)(?![a-zA-Z])|"
    r"\\operatorname\s*\{\s*([A-Za-z]+)\s*\}"
)
_NAME = {"dbinom": "binomial", "tbinom": "binomial", "binom": "binomial", "choose": "binomial",
         "bmod": "mod", "pmod": "mod"}  # fmt: skip
# a division of two integers written with \div, which the parser evaluates before the tree can
# show it (``x + 6 \div 2`` is read as ``x + 3``); any other \div is in the tree
_INTEGER_DIVISION = re.compile(
    r"(?<![\w.^_}])[({]?+\s*+-?\d++\s*+(?:[)}]\s*+)?+\\div(?![a-zA-Z])\s*+(?:[({]\s*+)?+-?\d++"
    r"(?![\w.^])"
)
_FRACTION = re.compile(
    r"\\[dtc]?frac\s*(?:\{\s*(-?\d+)\s*\}|(\d))\s*(?:\{\s*(-?\d+)\s*\}|(\d))|"
    r"(?<![\w.}\\])(-?\d+)\s*/\s*(\d+)(?![\w.])"
)
# a sign applied to a sign: ``--7``, ``-(-7)``, ``+-3`` (arithmetic left undone, however long)
_DOUBLE_SIGN = re.compile(r"[-+−][ \t]*+(?:[({][ \t]*+)*+[-+−]")
# an operation that leaves its operand as it is, which the parser drops before the tree can show
# it: a factor or divisor of 1, a term of 0, a power of 1 (``6\sqrt{2} \cdot 1``, ``1 \times
# x``, ``x/1``, ``\frac{x}{1}``, ``x + 0``, ``x^{1}``); not the 1 of scientific notation
# (``1 \times 10^{-3}``, ``4.5 \times 10^{1}``) nor a subscript (``x_1 \cdot y``)
_TIMES = r"(?:\\cdot|\\times|\*|×|·)"
_IDENTITY = re.compile(
    rf"{_TIMES}[ \t]*+1(?![\d.])|(?<![\w.{{}}])1[ \t]*+{_TIMES}(?![ \t]*+10[ \t]*+\^)|"
    r"/[ \t]*+1(?![\d.])|\\[dtc]?frac[ \t]*+\{[^{}]{1,200}+\}[ \t]*+\{[ \t]*+1[ \t]*+\}|"
    r"(?<![\w.^_{])[-+][ \t]*+0(?![\w.])|"  # not 0 + 2i: a complex number's standard form
    r"(?<!10)\^[ \t]*+(?:\{[ \t]*+1[ \t]*+\}|1(?![\d.]))"
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


# "0.3636\\ldots", "0.1666...": digits then dots; the period is the shortest block its decimals
# end with twice ("36" in 3636, "6" in 1666); "3.14159\\ldots" repeats nothing and is left alone
_DOTS = re.compile(r"(?<![\w.])(-?\d*)\.(\d{2,30})\s*(?:\\[lc]?dots\b|\\ldotp|\.\.\.|…)")
# "4.\\dot{6}", "0.\\dot{1}\\dot{8}": the dots mark the first and last digit of the period
_DOT_ACCENT = re.compile(
    r"(?<![\w.])(-?\d*)\.(\d{0,30})\\dot\s*\{?(\d)\}?(?:(\d{0,30})\\dot\s*\{?(\d)\}?)?(?![\d\\])"
)


def _dots(m: re.Match) -> str:
    whole, decimals = m.groups()
    for size in range(1, len(decimals) // 2 + 1):
        if decimals[-2 * size : -size] == decimals[-size:]:
            return f"{whole}.{decimals[:-size]}\\overline{{{decimals[-size:]}}}"
    return m.group()


def _dot_accent(m: re.Match) -> str:
    whole, fixed, first, middle, last = m.groups()
    period = first + (f"{middle}{last}" if last else "")
    return f"{whole}.{fixed}\\overline{{{period}}}"


def plain_numbers(text: str) -> str:
    """Numbers in scientific notation and repeating decimals written out as plain numbers:
    ``1.5e3`` / ``1.5 \\times 10^{3}`` -> ``1500``, ``10^{6}`` -> ``1000000``,
    ``4.\\overline{6}`` -> ``\\frac{14}{3}``. Exponents over ``MAX_EXPONENT_DIGITS`` digits and
    periods over 30 digits are left as written."""
    text = _REPEATING.sub(_repeating, _DOT_ACCENT.sub(_dot_accent, _DOTS.sub(_dots, text)))
    text = _E_NOTATION.sub(lambda m: _decimal(m.group(1), m.group(2)), text)
    text = _TIMES_TEN.sub(lambda m: _decimal(m.group(1), m.group(2) or m.group(3)), text)
    return _TEN_POWER.sub(lambda m: _decimal("1", m.group(1) or m.group(2)), text)


_INT = r"(?:\{\s*([-+]?\d{1,500})\s*\}|([-+]?\d{1,500}))"
# a fraction of two integers in TeX's notations: \frac{a}{b} (\dfrac, \tfrac, \cfrac, digits
# without braces), {a \over b}; the whole answer a \over b, a \div b, a / b, a : b (a ratio)
_TEX_FRACTION = re.compile(
    r"\\[dtc]?frac\s*(?:\{\s*([-+]?\d{1,500})\s*\}|(\d))\s*(?:\{\s*([-+]?\d{1,500})\s*\}|(\d))"
    rf"|\{{\s*{_INT}\s*\\over(?![a-zA-Z])\s*{_INT}\s*\}}"
)
_WHOLE_FRACTION = re.compile(
    rf"\s*{_INT}\s*(\\over(?![a-zA-Z])|\\div(?![a-zA-Z])|/|:|"
    r"(?:\\text\s*\{\s*)?(?<![a-zA-Z])(?:in|out\s+of)(?![a-zA-Z])(?:\s*\})?)"  # "1 in 2", odds of one
    rf"\s*{_INT}\s*"
)


def _spelled(num: str, den: str) -> str:
    negative = num.startswith("-") != den.startswith("-")
    num, den = num.lstrip("+-"), den.lstrip("+-")
    return f"\\frac{{{'-' if negative else ''}{num}}}{{{den}}}"


def fraction_spelling(text: str) -> str:
    """Every fraction of two integers in one spelling, ``\\frac{a}{b}`` with the sign on the
    numerator: ``{18 \\over 24}``, ``\\dfrac{18}{24}``, ``\\frac{-18}{-24}`` -> ``\\frac{18}{24}``,
    ``\\frac{3}{-4}`` -> ``\\frac{-3}{4}``; an answer that is only ``18 \\div 24``, ``18/24`` or the
    ratio ``18:24`` or the odds ``1 in 2``, ``1 out of 2`` -> ``\\frac{18}{24}`` (a ratio to 1, ``2:1``, is its first term). The form rule
    (unreduced fractions, copies of the question) reads this spelling."""
    whole = _WHOLE_FRACTION.fullmatch(text)
    if whole:
        num, den = whole[1] or whole[2], whole[4] or whole[5]
        if whole[3] == ":" and den.lstrip("+") == "1":
            return num
        return _spelled(num, den)
    return _TEX_FRACTION.sub(_tex_fraction, text)


def _tex_fraction(m: re.Match) -> str:
    if m[1] or m[2]:
        return _spelled(m[1] or m[2], m[3] or m[4])
    spelled = _spelled(m[5] or m[6], m[7] or m[8])
    # "x^{1 \over 2}": the braces of the group stay where they make an exponent or an index
    return f"{{{spelled}}}" if m.string[: m.start()].rstrip().endswith(("^", "_")) else spelled


_FUNCTION = re.compile(
    r"\\(ln|log|lg|exp|sin|cos|tan|cot|sec|csc|arcsin|arccos|arctan|sinh|cosh|tanh)(?![a-zA-Z])"
)
_FUNCTION_NAME = {"ln": "log", "lg": "log", "arcsin": "asin", "arccos": "acos", "arctan": "atan"}
MAX_EXPANDED_TERMS = 400  # like terms are looked for only where expanding stays this small


def latex_operations(text: str) -> set[str]:
    """The operations of :mod:`this module <.math_form>` that the parser evaluates before its tree
    can show them: named ones (``\\gcd``, ``\\det``, ``\\binom``, ...), fractions of two
    integers whose value is an integer, and a sign applied to a sign (``--7``, ``-(-7)``). (Functions the parser evaluates away, ``e^{\\ln 7}`` read
    as 7, are found by :func:`operations` against the tree.)"""
    ops = {_NAME.get(n, n) for m in _NAMED.finditer(text) for n in [(m[1] or m[2]).lower()]}
    if _INTEGER_DIVISION.search(text):
        ops.add("mul")
    if _DOUBLE_SIGN.search(text):
        ops.add("sign")
    if _IDENTITY.search(text):
        ops.add("identity")
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

    ops: Counter[str] = Counter()
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
            ops.update([type(node).__name__.lower()])
        elif constant and isinstance(node, Add):
            if not _complex_standard_form(node):
                ops["add"] += 1
        elif isinstance(node, Add) and _like_terms(node):
            ops["collect"] += 1  # (x+1)^2 - 2x - 1: terms that cancel or combine, left undone
        elif constant and isinstance(node, Mul):
            if _imaginary(node):
                pass  # b times i: the imaginary part of a + bi (0i included), a value
            elif len([a for a in node.args if a != -1]) > 1:  # not a minus sign
                ops["mul"] += 1
        elif isinstance(node, Mul):  # \\frac{x}{2}: the denominator of a coefficient, a number
            ops["mul"] -= sum(_coefficient_denominator(a) for a in node.args)
        elif constant and isinstance(node, Pow):
            exp = node.exp
            if node.base == 10 and exp.is_Integer:
                pass  # a number in scientific notation (10^{6}), however large
            elif exp == -1:
                ops["mul"] += 1
            elif isinstance(exp, Rational) and exp.p == 1 and exp.q > 1:
                ops["root"] += 1
            else:
                ops["pow"] += 1
        return constant

    visit(expr)
    return {op for op, count in ops.items() if count > 0}


def _coefficient_denominator(node: object) -> bool:
    """``Pow(n, -1)`` with an integer ``|n| > 1`` other than 10: the denominator of a rational
    coefficient when it is a factor of a product with a variable (``\\frac{x}{2}``)."""
    base = getattr(node, "base", None)
    return (
        getattr(node, "exp", None) == -1
        and getattr(base, "is_Integer", False)
        and abs(int(base)) > 1
        and base != 10
    )


def _terms_estimate(node: object) -> int:
    """An upper bound on the number of terms ``node`` expands to (not expanding inside
    functions), capped just past ``MAX_EXPANDED_TERMS``."""
    from math import comb

    from sympy import Add, Mul, Pow

    cap = MAX_EXPANDED_TERMS + 1
    if isinstance(node, Add):
        return min(cap, sum(_terms_estimate(a) for a in node.args))
    if isinstance(node, Mul):
        total = 1
        for a in node.args:
            total = min(cap, total * _terms_estimate(a))
        return total
    if isinstance(node, Pow) and node.exp.is_Integer and node.exp > 1:
        if node.exp > 64:
            return cap
        base = _terms_estimate(node.base)
        return min(cap, comb(int(node.exp) + base - 1, base - 1)) if base > 1 else 1
    return 1


def _like_terms(node: object) -> bool:
    """Whether two terms of a sum with variables share a monomial once each is expanded: terms a
    simplified answer would have combined (``(x+1)^2 - 2x - 1``, ``x + x``). Only where the
    expansion stays under ``MAX_EXPANDED_TERMS`` terms; never raises."""
    from sympy import Add, expand

    seen: set = set()
    try:
        for arg in node.args:
            if _terms_estimate(arg) > MAX_EXPANDED_TERMS:
                return False
            monomials = {t.as_coeff_Mul()[1] for t in Add.make_args(expand(arg, deep=False))}
            if monomials & seen:
                return True
            seen |= monomials
    except Exception:  # sympy on hostile input: not this form
        return False
    return False


def _imaginary(node: object) -> bool:
    """``i`` or a number times ``i`` (``2i``, ``-3i``, ``\\frac{1}{2}i``)."""
    from sympy import Mul, Symbol

    if isinstance(node, Symbol):
        return node.name == "i"
    if not isinstance(node, Mul):
        return False
    numbers = [a for a in node.args if getattr(a, "is_Number", False)]
    return (  # a minus sign is a factor -1 of its own: -3i is -1 * 3 * i
        len(numbers) == len(node.args) - 1
        and sum(_imaginary(a) for a in node.args) == 1
        and len([a for a in numbers if a != -1]) <= 1
    )


def _complex_standard_form(node: object) -> bool:
    """``a + bi`` (a real number plus a number times ``i``): the way a complex number is written,
    not arithmetic left undone (``0 + 2i`` for ``2i``); ``1 + 1 + 2i`` has a real sum in it."""
    args = getattr(node, "args", ())
    return (
        len(args) == 2
        and sum(getattr(a, "is_Number", False) for a in args) == 1
        and sum(_imaginary(a) for a in args) == 1
    )


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
        return latex_operations(text) | tree_operations(expr) | _evaluated_away(text, expr)
    except (_TooBig, RecursionError):
        return None


def _evaluated_away(text: str, expr: object) -> set[str]:
    """Functions the answer writes that its tree does not hold: the parser evaluated them
    (``e^{\\ln 7}`` is read as 7, ``\\sin\\frac{\\pi}{6}`` as 1/2), so they were applied to
    numbers."""
    from sympy import Basic, E, Pow, preorder_traversal
    from sympy.core.function import Application

    written = {_FUNCTION_NAME.get(m[1], m[1]) for m in _FUNCTION.finditer(text)}
    if not written:
        return set()
    held = set()
    if isinstance(expr, Basic):
        for count, node in enumerate(preorder_traversal(expr)):
            if count > MAX_NODES:
                raise _TooBig
            if isinstance(node, Application):
                held.add(type(node).__name__.lower())
            elif isinstance(node, Pow) and node.base == E:  # e^{x} as a power of E
                held.add("exp")
    return written - held

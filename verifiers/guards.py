"""Cheap exact pre-checks that settle absurd answers before any scorer runs.

The dispatcher calls :func:`precheck` in the caller's thread before a scorer runs in a worker
process. It does no symbolic work: it reads the boxed answers a scorer would read and sizes what
they ask for, predicting each result's size before computing it, so it costs microseconds whatever
the input. An answer that asks for a quantity beyond the limits below scores 0 with reason
``too_large`` at once, instead of holding a worker until the deadline. Anything the guard cannot
read is left to the scorer, which the worker's deadline still bounds.

Math (every ``\\boxed{}``/``\\fbox{}`` after the last ``</think>``, as the math scorer reads; a box
whose text equals the gold's is left to the scorer):

- a number, once evaluated, with more than ``MAX_DIGITS`` digits (numerator or denominator): huge
  powers ``10^{999999999}``, power towers ``9^{9^{9^{9}}}``, factorials ``(10^{10})!`` and stacked
  ``10!!!!`` (math-verify reads ``n!!`` as ``(n!)!``, and so does this guard), binomials
  ``\\binom{10^9}{5 \\cdot 10^8}``. 10,000 digits is far beyond any competition answer and far below
  what makes sympy slow; Python itself refuses to print integers over 4,300 digits.
- a power of a symbolic base with an exponent over ``MAX_SYMBOLIC_EXPONENT`` (``(x+1)^{100000}``):
  expanding it is unbounded work, and no plausible answer needs it.

Countdown (every box of the response, as the countdown scorer reads): a number written with an
exponent over ``MAX_LITERAL_EXPONENT`` (``= 1e999999999``): ``Fraction`` would build the integer
10^999999999. Countdown's numbers and targets are small integers, so such an answer is never right.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction

from pac_verl.verifiers.extract import after_think, tail
from pac_verl.verifiers.verdict import Verdict, fail

MAX_DIGITS = 10_000
MAX_SYMBOLIC_EXPONENT = 10_000
MAX_LITERAL_EXPONENT = 1_000
MAX_GUARDED_CHARS = 2_000  # longer boxes are refused by the scorers' own length caps
_BOX_RE = re.compile(r"\\(?:boxed|fbox)\s*\{")
_LITERAL_EXPONENT = re.compile(r"\d\s*[eE]\s*[+\-−]?\s*(\d[\d_]*)")


class TooLarge(Exception):
    """The answer asks for a quantity beyond the guard's limits."""


class _Unreadable(Exception):
    """Outside the little grammar the guard reads: left to the scorer."""


def boxed_all(text: str) -> list[str]:
    """Contents of every closed ``\\boxed{}``/``\\fbox{}`` in ``text``, in order (one pass)."""
    starts = {m.end() for m in _BOX_RE.finditer(text)}
    if not starts:
        return []
    found: list[tuple[int, int]] = []
    open_boxes: list[tuple[int, int]] = []
    depth = 0
    for i, ch in enumerate(text):
        if i in starts:
            open_boxes.append((i, depth))
            depth += 1
        if ch == "{" and i + 1 not in starts:
            depth += 1
        elif ch == "}":
            depth -= 1
            if open_boxes and open_boxes[-1][1] == depth:
                found.append((open_boxes.pop()[0], i))
            depth = max(depth, 0)
    return [text[a:b] for a, b in sorted(found)]


# ----- math: sizes of numbers before they are computed -----

_SYM = None  # a value the guard does not know (a symbol, a constant, a function of one)
_REPLACE = (
    ("\\left", ""), ("\\right", ""), ("\\!", ""), ("\\,", ""), ("\\;", ""), ("\\:", ""),
    ("\\ ", ""), ("\\cdot", "*"), ("\\times", "*"), ("\\div", "/"), ("\\dfrac", "\\frac"),
    ("\\tfrac", "\\frac"), ("\\dbinom", "\\binom"), ("\\tbinom", "\\binom"), ("−", "-"),
)  # fmt: skip
_TOKEN = re.compile(r"\d+(?:\.\d+)?|\\[a-zA-Z]+|\\.|\S")
_CLOSERS = frozenset({")", "}", "]", "+", "-", "=", ",", "&", "\\choose", "\\\\", "<", ">"})


def _digits(q: Fraction) -> float:
    """log10 of the larger of numerator and denominator (Python's log10 takes any int)."""
    return math.log10(max(abs(q.numerator), q.denominator, 1))


def _check(size: float) -> None:
    if size > MAX_DIGITS:
        raise TooLarge


def _power(base, exp):
    if base is _SYM:
        if exp is not _SYM and abs(exp) > MAX_SYMBOLIC_EXPONENT:
            raise TooLarge
        return _SYM
    if exp is _SYM:
        return _SYM
    if base in (0, 1, -1):
        return _SYM if exp.denominator != 1 or (base == 0 and exp < 0) else base ** int(exp)
    _check(abs(float(exp)) * _digits(base) if _digits(exp) < 300 else math.inf)
    if exp.denominator != 1:
        return _SYM
    return base ** int(exp)


def _factorial(n):
    if n is _SYM or n.denominator != 1 or n < 0:
        return _SYM
    if n > 10**6:
        raise TooLarge
    _check(math.lgamma(int(n) + 1) / math.log(10))
    return Fraction(math.factorial(int(n)))


def _binomial(n, k):
    if n is _SYM or k is _SYM or n.denominator != 1 or k.denominator != 1 or n < 0:
        return _SYM
    n, k = int(n), int(k)
    if k < 0 or k > n:
        return Fraction(0)
    m = min(k, n - k)
    if m * max(1.0, math.log10(max(n, 1))) > MAX_DIGITS:
        if n > 10**300:
            raise TooLarge
        _check((math.lgamma(n + 1) - math.lgamma(m + 1) - math.lgamma(n - m + 1)) / math.log(10))
    return Fraction(math.comb(n, m))


def _arith(op: str, a, b):
    if a is _SYM or b is _SYM:
        return _SYM
    _check(_digits(a) + _digits(b))
    if op == "+":
        return a + b
    if op == "-":
        return a - b
    if op == "*":
        return a * b
    return _SYM if b == 0 else a / b


class _Reader:
    """Recursive descent over a LaTeX answer: ``+ - * /``, implicit products, ``^``, ``!``,
    ``\\frac``, ``\\binom``, ``{a \\choose b}``, groups; anything else is a symbol."""

    def __init__(self, text: str) -> None:
        for old, new in _REPLACE:
            text = text.replace(old, new)
        self.tokens = _TOKEN.findall(text)
        self.i = 0

    def peek(self) -> str | None:
        return self.tokens[self.i] if self.i < len(self.tokens) else None

    def take(self) -> str:
        tok = self.peek()
        if tok is None:
            raise _Unreadable
        self.i += 1
        return tok

    def expect(self, tok: str) -> None:
        if self.take() != tok:
            raise _Unreadable

    def read(self):
        value = _SYM
        while self.peek() is not None:  # "x = 5", "a, b", "= 5": read each part
            if self.peek() in _CLOSERS:
                self.take()
            else:
                value = self.expr()
        return value

    def expr(self):
        value = self.term()
        while self.peek() in ("+", "-"):
            op = self.take()
            value = _arith(op, value, self.term())
        return value

    def term(self):
        value = self.unary()
        while (tok := self.peek()) is not None and tok not in _CLOSERS:
            op = self.take() if tok in ("*", "/") else "*"
            value = _arith(op, value, self.unary())
        return value

    def unary(self):
        if self.peek() in ("-", "+"):
            sign = self.take()
            value = self.unary()
            return value if sign == "+" or value is _SYM else -value
        return self.postfix()

    def postfix(self):
        value = self.atom()
        while (tok := self.peek()) in ("!", "^", "_"):
            self.take()
            if tok == "!":
                value = _factorial(value)
            elif tok == "^":
                value = _power(value, self.script())
            else:
                self.script()
                value = _SYM
        return value

    def script(self):
        """A super/subscript: a braced group, or one token (``2^10`` is read as 2^{10}: more)."""
        return self.group() if self.peek() == "{" else self.atom()

    def group(self):
        self.expect("{")
        value = self.expr()
        if self.peek() == "\\choose":
            self.take()
            value = _binomial(value, self.expr())
        self.expect("}")
        return value

    def atom(self):
        tok = self.peek()
        if tok == "{":
            return self.group()
        self.take()
        if tok[0].isdigit():
            if len(tok) > MAX_DIGITS:
                raise TooLarge
            return Fraction(tok)
        if tok in ("(", "["):  # a group, a tuple or an interval: (a, b], [a, b)
            value = self.expr()
            while self.peek() == ",":
                self.take()
                self.expr()
                value = _SYM
            if self.take() not in (")", "]"):
                raise _Unreadable
            return value
        if tok == "\\frac":
            return _arith("/", self.script(), self.script())
        if tok == "\\binom":
            return _binomial(self.script(), self.script())
        if tok == "\\sqrt":
            if self.peek() == "[":
                self.take()
                self.expr()
                self.expect("]")
            self.script()
            return _SYM
        if tok in _CLOSERS or tok in ("*", "/", "!", "^", "_"):
            raise _Unreadable
        return _SYM  # a letter, \pi, \infty, a function name


def math_too_large(answer: str) -> bool:
    """True when ``answer`` asks for a number beyond the limits (see the module docstring)."""
    if len(answer) > MAX_GUARDED_CHARS:
        return False
    try:
        _Reader(answer).read()
    except TooLarge:
        return True
    except (_Unreadable, RecursionError, ValueError, ZeroDivisionError, OverflowError):
        return False
    return False


def _plain(s: str) -> str:
    return "".join(s.split())


def precheck(task_type: str, solution_str: object, ground_truth: object) -> Verdict | None:
    """A verdict for an absurd answer, or None: the scorer decides. Never raises."""
    try:
        if task_type == "math":
            gold = _plain(str(ground_truth))
            for box in boxed_all(after_think(tail(solution_str))):
                if _plain(box) != gold and math_too_large(box):
                    return fail("too_large")
        elif task_type == "countdown":
            for box in boxed_all(tail(solution_str)):
                for match in _LITERAL_EXPONENT.finditer(box):
                    digits = match.group(1).replace("_", "")
                    if len(digits) > 6 or int(digits) > MAX_LITERAL_EXPONENT:
                        return fail("too_large")
    except Exception:  # a guard must never be the thing that fails
        return None
    return None

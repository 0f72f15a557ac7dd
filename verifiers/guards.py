"""Cheap exact pre-checks that settle absurd answers before any scorer runs.

A grader's work is bounded by the length of its answer, by design
(docs/guides/rewards.md#bounded-grading): before anything is evaluated, :func:`math_refusal` reads the text the parser will read (the box
after :func:`.math.prepare`: cosmetic stripping and numbers written out) and sizes what it asks for,
predicting each result's size before computing it, so it costs microseconds whatever the input. The
math scorer applies it to every answer right before math-verify parses it, and the dispatcher
(:func:`precheck`, in the caller's thread) to every box first, so most such answers never reach a
worker. Two verdicts, both score 0 and both scored (the answer caused them):

- ``too_large``: a number, once evaluated, with more than ``MAX_DIGITS`` digits (numerator or
  denominator): huge powers ``10^{999999999}``, power towers ``9^{9^{9^{9}}}``, exponents in any
  notation (``2^{1e100}``: math-verify reads ``1e100`` as a number; an exponent after any digit,
  ``1e100E+999999999``, since the parser may start a number there), factorials ``(10^{10})!``
  and stacked ``10!!!!`` (math-verify reads ``n!!`` as ``(n!)!``, and so does this guard), gamma
  ``\\Gamma(10^{8})`` (the parser evaluates it as ``(10^8 - 1)!``), binomials
  ``\\binom{10^9}{5 \\cdot 10^8}``. 10,000 digits is far beyond any competition answer and far
  below what makes sympy slow; Python itself refuses to print integers over 4,300 digits.
- ``too_complex``: brackets nested deeper than ``MAX_NESTING`` (``{{{{...}}}}``, sets of sets 60
  deep, an unclosed bracket soup: the parser's work grows with the depth), or a power of a sum
  whose expansion has more than ``MAX_EXPANDED_TERMS`` terms or whose exponent is over
  ``MAX_SUM_EXPONENT`` (``(x+1)^{999}`` against a polynomial gold: sympy expands it to compare).
  A power of one symbol (``x^{999}``) expands to nothing and is allowed. A determinant
  (``\\det`` before a matrix, or a ``vmatrix``) of more than ``MAX_SYMBOLIC_DETERMINANT`` rows with
  a letter among its cells: sympy expands its n! terms (a 6 by 6 of letters held a worker 5 s).
  More than ``MAX_CALCULUS_OPERATORS`` integrals, sums, products, limits or derivatives in one
  answer (20 nested integrals of 1, under 1 KB, took 0.94 s; 15 of ``\\sin(x)^9`` reached the
  CPU bound): an answer is a value, and sympy evaluates each one it is handed.

Anything the guard cannot read is left to the scorer, whose CPU bound still holds
(:mod:`.pool`: an answer that needs more is ``too_complex`` too).

Countdown (every box of the response, as the countdown scorer reads): a number written with an
exponent over ``MAX_LITERAL_EXPONENT`` (``= 1e999999999``): ``Fraction`` would build the integer
10^999999999. Countdown's numbers and targets are small integers, so such an answer is never right.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from fractions import Fraction

from pac_verl.verifiers.extract import after_think, reading
from pac_verl.verifiers.verdict import Verdict, fail

MAX_DIGITS = 10_000
MAX_SYMBOLIC_EXPONENT = 10_000
MAX_LITERAL_EXPONENT = 1_000
MAX_GUARDED_CHARS = 2_000  # longer boxes are refused by the scorers' own length caps
MAX_NESTING = 8  # brackets of any kind open at once (the parser slows about 1.5 times a level)
MAX_EXPANDED_TERMS = 200  # terms of an expanded power of a sum
MAX_SUM_EXPONENT = 100
MAX_FACTORIAL_DIGITS = 6  # n! and binomials of n are evaluated up to n = 10^6
MAX_SYMBOLIC_DETERMINANT = (
    3  # rows of a determinant with a letter among its cells (4 rows: 24 terms, 0.8 s)
)
MAX_SYMBOLIC_TOWER = (
    2  # exponents open at once over a letter: x^{x^{x}} is read, x^{x^{x^{x}}} costs 0.6 s
)
MAX_CALCULUS_OPERATORS = 2  # integrals, sums, products, limits, derivatives in one answer
# an operator of calculus the parser hands to sympy to evaluate: 20 nested integrals of 1 took
# 0.94 s, 15 of sin(x)^9 ran to the CPU bound
_CALCULUS = re.compile(
    r"\\(?:[io]{1,3}+nt|sum|prod|lim)(?![A-Za-z])|\\frac\s*+\{\s*+(?:d|\\partial)(?:\^\{?\d\}?)?\s*+\}"
)
MAX_E_EXPONENT_DIGITS = 6  # 1e999999 is read (and sized); a longer exponent is too large at once
_BOX_RE = re.compile(r"\\(?:boxed|fbox)\s*\{")
_LITERAL_EXPONENT = re.compile(r"\d\s*+[eE]\s*+(?:[+\-−]\s*+)?+(\d[\d_]*+)")
# an exponent written after any digit, wherever a token starts: the parser reads
# "1e100E+999999999" as 1, e and the number 100E+999999999
_ANY_E_EXPONENT = re.compile(r"(?<=\d)[eE][+\-]?(\d++)")


class TooLarge(Exception):
    """The answer asks for a quantity beyond the guard's limits."""


class TooComplex(Exception):
    """The answer's shape asks for more work than any plausible answer needs."""


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


def _comb(n: int, k: int) -> int:
    """``math.comb(n, k)``, stopped just past ``MAX_EXPANDED_TERMS``: at most ``k`` steps."""
    k = min(k, n - k)
    result = 1
    for i in range(1, k + 1):
        result = result * (n - k + i) // i
        if result > MAX_EXPANDED_TERMS:
            break
    return result


class _Sym:
    """A value the guard does not know (a symbol, a constant, a function of one), as a polynomial
    in the names it holds: how many terms it has once expanded, at most (the product of its
    factors' terms, and no more than the monomials of its degree in its names), and its degree.
    Past ``MAX_EXPANDED_TERMS`` terms it is ``TooComplex``. ``scale``: log10 of the known numbers
    multiplied into it (``5 \\cdot 10^8 \\ln e`` has 8.7), the size it has if its unknown part
    is a constant the parser evaluates (``\\ln e`` is 1): an argument of a factorial, a binomial,
    a gamma or an exponent is sized by it as if it were that number."""

    __slots__ = ("degree", "names", "scale", "terms")

    def __init__(self, terms: int, degree: int, names: frozenset, scale: float = 0.0) -> None:
        terms = min(terms, _comb(degree + len(names), len(names)))
        if terms > MAX_EXPANDED_TERMS:
            raise TooComplex
        self.terms, self.degree, self.names, self.scale = terms, degree, names, scale

    @staticmethod
    def of(value) -> _Sym:
        if isinstance(value, _Sym):
            return value
        return _Sym(1, 0, frozenset(), _magnitude(value))


def _magnitude(q: Fraction) -> float:
    """log10 of ``|q|`` (0 for 0)."""
    if q == 0:
        return 0.0
    return math.log10(abs(q.numerator)) - math.log10(q.denominator)


def _sized(value) -> None:
    """Refuse an unknown whose known part alone is past what a factorial or binomial takes."""
    if isinstance(value, _Sym) and value.scale > MAX_FACTORIAL_DIGITS:
        raise TooLarge


_SYM = _Sym(1, 1, frozenset({"?"}))  # a value of unknown shape: one term
_REPLACE = (
    ("\\left", ""), ("\\right", ""), ("\\!", ""), ("\\,", ""), ("\\;", ""), ("\\:", ""),
    ("\\ ", ""), ("\\cdot", "*"), ("\\times", "*"), ("\\div", "/"), ("\\dfrac", "\\frac"),
    ("\\tfrac", "\\frac"), ("\\dbinom", "\\binom"), ("\\tbinom", "\\binom"), ("−", "-"),
)  # fmt: skip
_TOKEN = re.compile(r"\d++(?:\.\d++)?+(?:[eE][+\-]?+\d++)?+|\\[a-zA-Z]++|\\.|\S")
_CLOSERS = frozenset({")", "}", "]", "+", "-", "=", ",", "&", "\\choose", "\\\\", "<", ">"})


def _digits(q: Fraction) -> float:
    """log10 of the larger of numerator and denominator (Python's log10 takes any int)."""
    return math.log10(max(abs(q.numerator), q.denominator, 1))


def _check(size: float) -> None:
    if size > MAX_DIGITS:
        raise TooLarge


def _power(base, exp):
    unit = isinstance(base, Fraction) and base in (0, 1, -1)
    if isinstance(exp, _Sym) and exp.scale > math.log10(MAX_SYMBOLIC_EXPONENT) and not unit:
        raise TooLarge  # e^{10^{10} \ln 10}: the exponent is 10^10 times a constant
    if isinstance(base, _Sym):
        if isinstance(exp, _Sym):
            return _SYM
        if abs(exp) > MAX_SYMBOLIC_EXPONENT:
            raise TooLarge
        if exp.denominator == 1 and exp > 1:  # (x+1)^{n}: C(n+t-1, t-1) terms
            n, t = int(exp), base.terms
            if t > 1 and n > MAX_SUM_EXPONENT:
                raise TooComplex
            return _Sym(_comb(n + t - 1, t - 1), base.degree * n, base.names, base.scale * n)
        return base
    if isinstance(exp, _Sym):
        return _SYM
    if base in (0, 1, -1):
        return _SYM if exp.denominator != 1 or (base == 0 and exp < 0) else base ** int(exp)
    _check(abs(float(exp)) * _digits(base) if _digits(exp) < 300 else math.inf)
    if exp.denominator != 1:
        return _SYM
    return base ** int(exp)


def _factorial(n):
    _sized(n)
    if isinstance(n, _Sym) or n.denominator != 1 or n < 0:
        return _SYM
    if n > 10**6:
        raise TooLarge
    _check(math.lgamma(int(n) + 1) / math.log(10))
    return Fraction(math.factorial(int(n)))


def _binomial(n, k):
    _sized(n)
    _sized(k)
    if (
        isinstance(n, _Sym)
        or isinstance(k, _Sym)
        or n.denominator != 1
        or k.denominator != 1
        or n < 0
    ):
        return _SYM
    n, k = int(n), int(k)
    if k < 0 or k > n:
        return Fraction(0)
    m = min(k, n - k)
    if m == 0:
        return Fraction(1)
    # (n/m)^m <= C(n, m) <= (e n/m)^m: sized from above in logarithms, no float of n itself
    # (lgamma's difference cancels to nothing for a 300-digit n)
    if m * (math.log10(n) - math.log10(m) + math.log10(math.e)) > MAX_DIGITS:
        raise TooLarge
    return Fraction(math.comb(n, m))


def _arith(op: str, a, b):
    if isinstance(a, _Sym) or isinstance(b, _Sym):
        a, b = _Sym.of(a), _Sym.of(b)
        names = a.names | b.names
        if op in ("+", "-"):
            scale = max(a.scale, b.scale) + math.log10(2)
            return _Sym(a.terms + b.terms, max(a.degree, b.degree), names, scale)
        if op == "*":
            return _Sym(a.terms * b.terms, a.degree + b.degree, names, a.scale + b.scale)
        # a rational function: its numerator expands; an unknown divisor may be small
        return _Sym(a.terms, a.degree, names, a.scale - (b.scale if b.degree == 0 else 0.0))
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
            return value if sign == "+" or isinstance(value, _Sym) else -value
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
            mantissa, _, exponent = tok.lower().partition("e")
            if not exponent:
                return Fraction(tok)
            if len(exponent.lstrip("+-")) > MAX_E_EXPONENT_DIGITS:
                raise TooLarge
            _check(abs(int(exponent)) + len(mantissa))  # 1e100 is 10^{100}: sized as one
            return Fraction(mantissa) * Fraction(10) ** int(exponent)
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
        if tok == "\\Gamma" and self.peek() in ("(", "{"):  # the parser evaluates it: (n-1)!
            arg = self.atom()
            _sized(arg)
            return arg if isinstance(arg, _Sym) else _factorial(arg - 1)
        if tok == "\\sqrt":
            if self.peek() == "[":
                self.take()
                self.expr()
                self.expect("]")
            self.script()
            return _SYM
        if tok in _CLOSERS or tok in ("*", "/", "!", "^", "_"):
            raise _Unreadable
        return _Sym(1, 1, frozenset({tok}))  # a letter, \pi, \infty, a function name


def nesting(text: str) -> int:
    """The most brackets (``( [ {``, ``\\{`` and ``\\left(`` included) open at once in ``text``."""
    depth = deepest = 0
    for ch in text:
        if ch in "([{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in ")]}" and depth:
            depth -= 1
    return deepest


_LETTER = re.compile(r"[A-Za-z]")
_COMMANDS = re.compile(r"\\[A-Za-z]+")


def tower(text: str) -> int:
    """The most exponents (``^{...}``) open at once in ``text``: ``x^{x^{x}}`` has 2. Linear."""
    open_exponent: list[bool] = []
    depth = deepest = 0
    last = ""  # the last character that is not a blank
    for ch in text:
        if ch == "{":
            exponent = last == "^"
            open_exponent.append(exponent)
            depth += exponent
            deepest = max(deepest, depth)
        elif ch == "}" and open_exponent:
            depth -= open_exponent.pop()
        if not ch.isspace():
            last = ch
    return deepest


def math_refusal(answer: str) -> str | None:
    """``too_large`` or ``too_complex`` when ``answer`` (the text the parser will read) asks for
    more than the limits (see the module docstring), else None. Linear in ``answer``."""
    if len(answer) > MAX_GUARDED_CHARS:
        return None
    if nesting(answer) > MAX_NESTING or _symbolic_determinant(answer) > MAX_SYMBOLIC_DETERMINANT:
        return "too_complex"
    if len(_CALCULUS.findall(answer)) > MAX_CALCULUS_OPERATORS:
        return "too_complex"
    if tower(answer) > MAX_SYMBOLIC_TOWER and _LETTER.search(_COMMANDS.sub(" ", answer)):
        return "too_complex"
    for match in _ANY_E_EXPONENT.finditer(answer):
        digits = match.group(1)
        if len(digits) > MAX_E_EXPONENT_DIGITS or int(digits) > MAX_DIGITS:
            return "too_large"
    try:
        _Reader(answer).read()
    except TooLarge:
        return "too_large"
    except TooComplex:
        return "too_complex"
    except (_Unreadable, RecursionError, ValueError, ZeroDivisionError, OverflowError):
        return None
    return None


_MATRIX_BEGIN = re.compile(r"\\begin\s*\{\s*([pbvBV]?matrix|array)\s*\}")
_DETERMINANT_BEFORE = re.compile(r"\\det\s*+(?:\\left\s*+)?+(?:[(\[]\s*+)?+$")


def _symbolic_determinant(answer: str) -> int:
    """The rows of the largest determinant in ``answer`` with a letter among its cells (0 if
    none): a matrix after ``\\det`` or a ``vmatrix``. Linear in ``answer``."""
    largest = 0
    for begin in _MATRIX_BEGIN.finditer(answer):
        kind = begin.group(1)
        end = answer.find("\\end", begin.end())
        body = answer[begin.end() : end if end >= 0 else len(answer)]
        before = answer[max(0, begin.start() - 20) : begin.start()]
        if kind not in ("vmatrix", "Vmatrix") and not _DETERMINANT_BEFORE.search(before):
            continue
        if re.search(r"(?<!\\)\b[A-Za-z]", re.sub(r"\\[A-Za-z]+", " ", body)):
            largest = max(largest, body.count("\\\\") + 1)
    return largest


def math_too_large(answer: str) -> bool:
    """True when ``answer`` asks for more than the limits (:func:`math_refusal`)."""
    return math_refusal(answer) is not None


def _plain(s: str) -> str:
    return "".join(s.split())


def precheck(
    task_type: str,
    solution_str: object,
    ground_truth: object,
    prepare: Callable[[str], str] = str,
) -> Verdict | None:
    """A verdict for an absurd answer, or None: the scorer decides. Never raises.

    ``prepare`` turns a math box into the text the parser reads (the caller passes
    :func:`.math.prepare`, so the guard sees exactly that text; this module stays below the
    scorers)."""
    try:
        if task_type == "math":
            gold = _plain(str(ground_truth))
            for box in boxed_all(after_think(reading(solution_str))):
                if _plain(box) == gold or len(box) > MAX_GUARDED_CHARS:
                    continue
                refused = math_refusal(prepare(box))  # the text the parser will read
                if refused:
                    return fail(refused)
        elif task_type == "countdown":
            for box in boxed_all(reading(solution_str)):
                for match in _LITERAL_EXPONENT.finditer(box):
                    digits = match.group(1).replace("_", "")
                    if len(digits) > 6 or int(digits) > MAX_LITERAL_EXPONENT:
                        return fail("too_large")
    except Exception:  # a guard must never be the thing that fails
        return None
    return None

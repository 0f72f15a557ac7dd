"""The form of a math answer against the gold's form and the question's own expressions.

The rule (docs/guides/rewards.md#math-forms): where the gold is in a normal form, the answer must
be in that form too, up to order, notation and harmless rewriting; and an answer that is one of
the question's own expressions never scores 1 when the gold differs from it in form. Both are
judged on the trees math-verify's parser builds, which keep what was written (``(x+5)(x+7)``
stays a product, ``x^2+5x+7x+35`` keeps its four terms, ``\\sqrt{72}`` its radicand), before
anything is evaluated.

Form features (:func:`features`), each a way of leaving work undone that a normal form does not
have; an answer is ``unevaluated`` when it has one the gold does not:

- ``product_of_sums``: a product with a sum of variables as a factor, or such a sum raised to a
  power (``(x+5)(x+7)``, ``2(x+1)``, ``(x+1)^{12}``): not expanded (a denominator may be either:
  ``\\frac{1}{(x+1)(x-1)}`` and ``\\frac{1}{x^2-1}`` are both simplified);
- ``coefficients``, ``power_of_product``, ``negative_exponent``: numbers left to multiply
  (``2(2x)(3y)``, two rational constants in one product: ``\\frac{1}{2} \\cdot 2(x-2)``), a power of
  a product with a number or of a power (``(2x)^2``, ``(x^2)^3``), a negative exponent on a
  variable other than -1 (``x^{-4}y^{6}``) or a negative power of a sum (``(x^2-1)^{-1}``, read
  from the text: the parser builds it as it builds ``\\frac{1}{x^2-1}``);
- ``nested_fraction``: a fraction inside a fraction (``\\frac{\\frac{5x-1}{x+1}}{x-1}``,
  ``\\frac{1}{1+\\frac{1}{x}}``), or two fractions with variable denominators multiplied;
- ``variable_denominator``: a division by an expression in a variable (``\\frac{x^2-9}{x-3}``);
- ``like_terms``: two terms of a sum with the same monomial, numbers included
  (``x^2+5x+7x+35``, ``2\\sqrt{2}+\\sqrt{2}``, ``1+2+x``);
- ``radical_denominator``: a radical in a denominator or a root of a fraction
  (``\\frac{2}{\\sqrt{6}}``, ``\\sqrt{3/4}``): not rationalised;
- ``radicand``, ``radical_product``: a radicand with a perfect k-th power factor, numbers or
  variables (``\\sqrt{72}``, ``2\\sqrt{18}``, ``\\sqrt{49\\cdot 5}``, ``\\sqrt[3]{8x^6}``), a root
  of a lower index in disguise (``\\sqrt[4]{4}``, ``\\sqrt[6]{8}``), a decimal under a root
  (``\\sqrt{0.5}``, a fraction: not rationalised), two
  radicals of one index in a product (``\\sqrt{15}\\sqrt{35}``): not simplified;
  A fractional power of a number is a radical in another notation (the parser builds
  ``72^{1/2}`` as it builds ``\\sqrt{72}``), judged by the same rules;
- ``unreduced``: a fraction of integers whose terms share a factor, wherever it stands
  (``\\frac{18}{24}``, ``\\frac{2}{6}\\sqrt{6}``; :func:`unreduced_text`), or a coefficient and a
  denominator that do (``\\frac{2\\sqrt{6}}{6}``).

The wording (:func:`question_forms`): where the question asks for a common fraction and the gold
is one, a decimal is ``unevaluated``, and a fraction where it asks for a decimal
(:func:`wrong_number_form`).

Beyond the features, by the gold's class: a gold that is a product with a sum among its factors
and at least two factors, a numeric coefficient other than ±1 counting as one (``(x-2)(x-3)``,
``2x(x+3)``, ``3(x+2)``), wants a product with at least as many (:func:`factor_count`:
``x(2x+6)`` is not completely factored) and, where the gold's are, primitive factors times one
constant (:func:`_primitive_factors`: ``\\frac{1}{2}(2x-4)(x-3)`` is not factored); a gold that is a rational function in lowest terms wants
the answer's numerator and denominator coprime, and one fraction where the gold is one
(``1+\\frac{3}{x-1}`` for ``\\frac{x+2}{x-1}``).

Work is bounded: at most ``MAX_NODES`` nodes are read, radicands over ``MAX_RADICAND`` are not
factored and a gcd of polynomials is taken only under ``MAX_TERMS`` terms, ``MAX_DEGREE`` and
``MAX_DENSE`` dense coefficients (the product over the variables of degree + 1, which the
heuristic gcd's work grows with: five variables of degree 59 need minutes, of degree 12 a third
of a second); an answer past a bound is ``too_complex`` (never correct), so no size walks around a
rule.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from functools import reduce
from math import gcd, prod
from typing import Any

MAX_NODES = 2_000
MAX_RADICAND = 10**15
MAX_TERMS = 200
MAX_DEGREE = 60
MAX_DENSE = 100_000
MAX_QUESTION_EXPRESSIONS = 32
MAX_QUESTION_CHARS = 300

# $$...$$ before $...$; \$ is a dollar sign, not math
_MATH_SPAN = re.compile(
    r"(?<!\\)\$\$(.+?)(?<!\\)\$\$|(?<!\\)\$(.+?)(?<!\\)\$|\\\((.+?)\\\)|\\\[(.+?)\\\]", re.DOTALL
)
# a list of at least two choices in plain text, "(A) 5 (B) 6": labels in order from (A), each
# with a short value after it on one line
_PLAIN_CHOICES = re.compile(r"\(A\)[ \t]*+[^()\n]{1,40}?[ \t]*+\(B\)(?:[^\n]{0,200}+)")
_INT_FRACTION = re.compile(
    r"\\[dtc]?frac\s*(?:\{\s*(-?\d+)\s*\}|(\d))\s*(?:\{\s*(\d+)\s*\}|(\d))|"
    r"(?<![\w.}\\^])(-?\d+)\s*/\s*(\d+)(?![\w.])"
)


class TooComplex(Exception):
    """Reading the form would take past a bound: the answer is not judged correct."""


def question_expressions(text: str) -> list[str]:
    """The math spans of a question (``$...$``, ``$$...$$``, ``\\(...\\)``, ``\\[...\\]``), in
    order, and the sides of each one that holds one ``=`` (``y=2x`` gives ``y=2x``, ``y``,
    ``2x``), then a list of choices written outside them (``(A) 5 (B) 6 (C) 7``, one expression:
    the values the labels stand for); at most ``MAX_QUESTION_EXPRESSIONS``, each at most
    ``MAX_QUESTION_CHARS``."""
    out: list[str] = []
    for m in _MATH_SPAN.finditer(text or ""):
        span = next(g for g in m.groups() if g is not None).strip()
        if not span or len(span) > MAX_QUESTION_CHARS:
            continue
        pieces = [span]
        if span.count("=") == 1:
            pieces += [side.strip() for side in span.split("=") if side.strip()]
        for piece in pieces:
            if piece not in out:
                out.append(piece)
    for m in _PLAIN_CHOICES.finditer(_MATH_SPAN.sub(" ", text or "")):
        if len(m.group()) <= MAX_QUESTION_CHARS and m.group().strip() not in out:
            out.append(m.group().strip())  # "(A) 5 (B) 6 (C) 7": the choices, read as listed
    return out[:MAX_QUESTION_EXPRESSIONS]


def _prompt_text(value: Any) -> str:
    if isinstance(value, str):
        return value
    if isinstance(value, Mapping):
        return str(value.get("content", ""))
    if isinstance(value, Iterable):
        return "\n".join(_prompt_text(v) for v in value if isinstance(v, (str, Mapping)))
    return ""


# the forms a question's wording names for its answer
_ASKS = {
    "fraction": re.compile(r"\b(?:common|improper|simple|reduced|proper|irreducible)\s+fractions?\b|"
                           r"\b(?:as|to|into)\s+an?\s+fraction\b|\bin\s+(?:fraction(?:al)?|rational)\s+form\b|"
                           r"\bfraction\s+in\s+(?:its\s+)?(?:lowest|simplest|reduced)\s+(?:terms|form)|"
                           r"\b(?:to|in)\s+(?:its\s+)?lowest\s+terms\b|"
                           r"\bratio\s+of\s+(?:two\s+)?(?:relatively\s+prime\s+)?integers\b", re.I),
    "decimal": re.compile(r"\b(?:as|to|into)\s+an?\s+decimal\b(?!\s+places?\b)|\bdecimal\s+(?:form|notation|number|"
                          r"expansion|representation|to\s+the\s+nearest)|\bin\s+decimals?\b|"
                          r"\bto\s+the\s+nearest\s+(?:tenth|hundredth|thousandth)\b", re.I),
    "percent": re.compile(r"\b(?:as|in|into|to)\s+(?:a\s+)?per\s?cent(?:age)?s?\b|"
                          r"\bper\s?cent(?:age)?\s+(?:form|notation|of|increase|decrease|change|"
                          r"points?)\b|\b(?:what|which)\s+(?:is\s+the\s+)?per\s?cent(?:age)?\b|"
                          r"\bhow\s+many\s+per\s?cent\b|\bin\s+\\?%|\(\s*\\?%\s*\)", re.I),
    "interval": re.compile(r"\binterval\s+notation\b", re.I),
    "scientific": re.compile(r"\bscientific\s+notation\b", re.I),
    "remainder": re.compile(r"\bremainders?\b|\bmodul(?:o|us)\b|\bmod\b|\\[pb]mod\b|\bresidues?\b|"
                            r"\bcongruen\w*", re.I),
    "solved": re.compile(r"\bslope[-\s]intercept\b|\bin\s+the\s+form\s+\$*+(?:\\\(\s*+)?[A-Za-z]\s*+=|"
                         r"\bin\s+terms\s+of\b|\bsolved\s+for\b", re.I),
}  # fmt: skip
# a number in scientific notation: a coefficient of at least 1 and under 10, times a power of ten
# ("4.5 \\times 10^{-4}", "4.5 \\cdot 10^{-4}", "4.5e-4")
_SCIENTIFIC = re.compile(
    r"-?[ \t]*+[1-9](?:\.\d++)?+[ \t]*+(?:(?:\\times|\\cdot|×|\*)[ \t]*+10[ \t]*+\^[ \t]*+"
    r"(?:\{[ \t]*+[-−+]?[ \t]*+\d++[ \t]*+\}|[-−+]?\d)|[eE][-+]?\d++)"
)
_INTERVAL = re.compile(
    r"^\s*(?:\\left)?[(\[].*,"
)  # a gold written as an interval: [2, 3], (-\infty, 1)
# units a question asks its answer in and an answer may name, by their canonical name
_UNIT_NAMES = {
    "mm": ("mm", "millimeter", "millimeters", "millimetre", "millimetres"),
    "cm": ("cm", "centimeter", "centimeters", "centimetre", "centimetres"),
    "m": ("m", "meter", "meters", "metre", "metres"),
    "km": ("km", "kilometer", "kilometers", "kilometre", "kilometres"),
    "inch": ("inch", "inches"),
    "foot": ("ft", "foot", "feet"),
    "yard": ("yd", "yard", "yards"),
    "mile": ("mi", "mile", "miles"),
    "mg": ("mg", "milligram", "milligrams"),
    "g": ("g", "gram", "grams"),
    "kg": ("kg", "kilogram", "kilograms"),
    "pound": ("lb", "lbs", "pound", "pounds"),
    "ounce": ("oz", "ounce", "ounces"),
    "second": ("s", "sec", "secs", "second", "seconds"),
    "minute": ("min", "mins", "minute", "minutes"),
    "hour": ("h", "hr", "hrs", "hour", "hours"),
    "day": ("day", "days"),
    "week": ("week", "weeks"),
    "year": ("yr", "yrs", "year", "years"),
    "degree": ("degree", "degrees", "deg"),
    "radian": ("rad", "radian", "radians"),
    "liter": ("l", "liter", "liters", "litre", "litres"),
    "ml": ("ml", "milliliter", "milliliters", "millilitre", "millilitres"),
    "dollar": ("dollar", "dollars"),
    "cent": ("cent", "cents"),
    "mile/hour": (
        "mph",
    ),  # a rate in one word; other rates are read as "km/h", "meters per second"
    "km/hour": ("kph", "kmh"),
}
UNITS = {word: unit for unit, words in _UNIT_NAMES.items() for word in words}
_WORDS_OF_UNITS = "|".join(sorted(map(re.escape, UNITS), key=len, reverse=True))
# the question asks in a unit: "in centimeters", "How many cm", "(in cm)"; a one-letter unit only
# in brackets ("(in m)"), as "in s" and "how many m" are English; "in square meters" names an
# area, no unit of length
_LONG_UNITS = "|".join(sorted((re.escape(w) for w in UNITS if len(w) > 1), key=len, reverse=True))
# a rate: one unit per another ("km/h", "meters per second", "miles an hour")
_PER = r"[ \t]*+(?:/|\bper\b|\ban?\b)[ \t]*+"


def _unit_phrase(first: str, end: str = r"\b") -> str:
    """A unit or a rate of two ("cm", "km/h", "meters per second"): ``first``, the words the
    (first) unit may be, ``end`` what ends each unit's word."""
    return rf"(?:{first}){end}(?:{_PER}(?:{_WORDS_OF_UNITS}){end})?+"


_ASKED_UNIT = re.compile(
    rf"\b(?:in|how\s+many)\s+({_unit_phrase(_LONG_UNITS)})"
    rf"(?!\s*(?:\^|squared|cubed))|"
    rf"\(\s*in\s+({_unit_phrase(_WORDS_OF_UNITS)})\s*\)",
    re.IGNORECASE,
)
_UNITS_JOINED = re.compile(
    rf"\b(?:{_WORDS_OF_UNITS})\s+(?:and|or|&)\s+(?:{_WORDS_OF_UNITS})\b", re.I
)
_ANSWER_UNIT = re.compile(
    r"\d[\d.,]*+\s*+(?:(?P<degree>\^\s*+\{?\s*+\\circ|°)|"
    rf"(?P<unit>{_unit_phrase(_WORDS_OF_UNITS, end='(?![a-z])')})"
    r"(?P<power>\s*+(?:\^\s*+[23]|²|³|squared|cubed))?+\s*+\.?\s*+$)",
    re.IGNORECASE,
)
# what wraps or spaces a unit in LaTeX: "\\text{ m}", "\\,", "\\mathrm{km}/\\mathrm{h}"
_UNIT_LATEX = re.compile(r"\\(?:text|mathrm|mbox|textrm|rm)\b|\\[,;: !]|[{}]")
_MEMBER = re.compile(r"^\s*+[A-Za-z]\s*+(?:\\in\b|∈)\s*+")  # "x \\in (-2, 8)": the interval
_INEQUALITY = re.compile(r"[<>≤≥]|\\(?:le|ge|leq|geq|lt|gt|leqslant|geqslant)(?![a-zA-Z])")


# a marker among the forms :func:`question_of` returns: the row says what its question asks, so a
# form missing from them is not asked (a count's question asks for no percentage)
STATED = "stated"
# the reading of a question's forms the builders record (``extra_info["question_forms_version"]``):
# 2 reads every way a question asks for a percent; 3 reads the unit it asks in, rates included;
# 4 reads an equation asked solved for a variable and a remainder asked. A row of an older reading
# states its percent forms from 2 on, its units from 3 on, and the solved form and the remainder
# from 4 on.
FORMS_VERSION = 4
_PERCENT_STATED_SINCE = 2
_UNITS_READ_SINCE = 3
_SOLVED_READ_SINCE = 4
_RATE_UNKNOWN = "unit-of-rate:"  # a unit an older reading recorded: the first of the one asked


def question_forms(text: str) -> list[str]:
    """The forms a question's wording asks for its answer: ``fraction`` ("Express your answer
    as a common fraction", "as a reduced fraction", "in fraction form", "to a fraction"),
    ``decimal`` ("as a decimal", "Convert ... to a decimal", "in decimal notation", "to the
    nearest tenth"), neither when it names both; ``percent`` ("as a percent", "to a percent",
    "What percent ...", "in %", "(%)", "percentage points");
    ``interval`` ("in interval notation"); ``scientific`` ("in scientific notation");
    ``solved``, an equation solved for a variable ("in slope-intercept form", "in the form
    $y = mx + b$", "in terms of $x$", "solved for $y$"); ``remainder`` ("the remainder when ...",
    "modulo 7", "congruent"); and the
    unit it asks its answer in, ``unit:cm`` ("in centimeters", "How many cm", "(in cm)"), where
    it names one unit."""
    asked = [form for form, words in _ASKS.items() if words.search(text or "")]
    if "fraction" in asked and "decimal" in asked:
        asked = [form for form in asked if form not in ("fraction", "decimal")]
    units = {canonical_unit(m.group(1) or m.group(2)) for m in _ASKED_UNIT.finditer(text or "")}
    if _UNITS_JOINED.search(text or ""):
        units.add("")  # "in hours and minutes": an answer in two units names no one unit
    return asked + ([f"unit:{units.pop()}"] if len(units) == 1 else [])


def canonical_unit(phrase: str) -> str:
    """A unit as written (``cm``, ``kilometers per hour``, ``m/s``, ``mph``), canonical
    (:data:`UNITS`; a rate as ``km/hour``)."""
    parts = re.split(_PER, phrase.strip().lower())
    return "/".join(UNITS.get(p.strip().rstrip("."), p.strip()) for p in parts if p.strip())


def unit_of(answer: str) -> str | None:
    """The unit an answer names after its number (``12 \\text{ m}``, ``12\\,\\mathrm{cm}``,
    ``12 inches``, ``30^\\circ``, a rate: ``60\\,\\text{m}/\\text{s}``, ``60 mph``, a power:
    ``12 \\text{ cm}^2`` is ``cm^2``), canonical (:func:`canonical_unit`), else None."""
    m = _ANSWER_UNIT.search(_UNIT_LATEX.sub(" ", answer))
    if not m:
        return None
    if m.group("degree"):
        return "degree"
    power = (m.group("power") or "").strip()
    if power:  # "12 cm^2": an area, another unit than cm
        return f"{canonical_unit(m.group('unit'))}^{'3' if power.endswith(('3', '³', 'cubed')) else '2'}"
    return canonical_unit(m.group("unit"))


def wrong_unit(answer: str, forms: Iterable[str]) -> bool:
    """Whether the answer names a unit other than the one its question asks in (``unit:cm``
    among the forms): ``12 \\text{ m}`` where the question asks "in centimeters", ``60 m/s``
    where it asks "in km/h"; where only the first unit of the one asked is known
    (``unit-of-rate:km``, :func:`question_of`), another first unit."""
    for form in forms:
        if form.startswith("unit:"):
            named = unit_of(answer)
            return named is not None and named != form[len("unit:") :]
        if form.startswith(_RATE_UNKNOWN):
            named = unit_of(answer)
            return named is not None and named.split("/")[0] != form[len(_RATE_UNKNOWN) :]
    return False


def question_of(extra_info: Any) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A row's question expressions and the forms its wording asks for:
    ``extra_info["question_expressions"]`` and ``["question_forms"]`` (what the builders write),
    else read from the question text a row may carry (``question``, ``problem`` or ``prompt``:
    rows written before the fields existed, SEC's). The forms end with :data:`STATED` where they
    are read now from the question text, or were recorded by builders that read every percent
    wording (``question_forms_version`` 2 on): then a form missing from them is not asked.
    Otherwise (rows recorded by an older reading, rows with no question) the question's units are
    unknown. A unit recorded before version 3, which reads rates ("in km/h" was read as km), is
    the first unit of the one asked (``unit-of-rate:km``): an answer's unit is held to it where it
    names another first unit (``60 m/s``, ``60 mph``), not where it names a rate of it. A row
    recorded before version 4 asks ``solved`` (unread then: the gold's form decides)."""
    if not isinstance(extra_info, Mapping):
        return (), ()
    text = ""
    for key in ("question", "problem", "prompt"):
        text = _prompt_text(extra_info.get(key))
        if text:
            break
    given = extra_info.get("question_forms")
    forms = _strings(given, lambda: question_forms(text))
    try:
        version = int(extra_info.get("question_forms_version") or 0)
    except (TypeError, ValueError):
        version = 0
    if given is not None and version < _UNITS_READ_SINCE:  # "in km/h" was read as km
        forms = tuple(f"{_RATE_UNKNOWN}{f[len('unit:') :]}" if f.startswith("unit:") else f
                      for f in forms)  # fmt: skip
    stated = version >= _PERCENT_STATED_SINCE if given is not None else bool(text.strip())
    if given is not None and version < _SOLVED_READ_SINCE and "solved" not in forms:
        forms = (*forms, "solved")  # not read then: the gold's own form decides, as it did
    return (
        _strings(extra_info.get("question_expressions"), lambda: question_expressions(text)),
        (*forms, STATED) if stated else forms,
    )


def _strings(given: Any, otherwise: Any) -> tuple[str, ...]:
    """A stored list of strings (a parquet list may come back as an array), else ``otherwise()``."""
    if given is None or isinstance(given, str):
        return tuple(otherwise())
    try:
        return tuple(str(e) for e in list(given)[:MAX_QUESTION_EXPRESSIONS])
    except TypeError:
        return ()


# the digits of a fraction's two terms read for a common factor: past every answer's length
# (`grade.MAX_ANSWER_CHARS`), so no fraction an answer writes is too long to check (gcd is fast)
MAX_FRACTION_DIGITS = 1000
MAX_TREE_NODES = 10_000  # nodes of an answer's tree walked for a form (bounded: answers are short)


def text_fractions(text: str) -> list[tuple[int, int]]:
    """The fractions of two integers written in ``text`` (``\\frac{18}{24}``, ``18/24``)."""
    out = []
    for m in _INT_FRACTION.finditer(text):
        num, den = m[1] or m[2] or m[5], m[3] or m[4] or m[6]
        if len(num) + len(den) <= MAX_FRACTION_DIGITS:
            out.append((int(num), int(den)))
    return out


def unreduced_text(answer: str, gold: str) -> bool:
    """A fraction of integers written in the answer whose terms share a factor, wherever it
    stands (``\\frac{18}{24}`` for ``\\frac{3}{4}``, ``\\frac{2}{6}\\sqrt{6}`` for
    ``\\frac{\\sqrt{6}}{3}``), where the gold writes no such fraction and no decimal; a gold with
    a decimal (``0.5``) or an unreduced fraction leaves the answer's fractions free. A fraction
    longer than :data:`MAX_FRACTION_DIGITS` is unreduced: past the cap no answer is judged
    reduced. (The parser reduces ``\\frac{2}{6}`` before the tree can show it, so this reads the
    text.)"""
    if _DECIMAL.search(gold) or any(gcd(a, b) > 1 for a, b in text_fractions(gold)):
        return False
    if any(len(m[0]) > MAX_FRACTION_DIGITS for m in _INT_FRACTION.finditer(answer)):
        return True  # past the digits read for a factor: not judged reduced
    return any(gcd(a, b) > 1 for a, b in text_fractions(answer))


_DECIMAL = re.compile(r"(?<![\w.])\d*\.\d|\\overline|\\dot\b|\\[lc]?dots\b|\.\.\.|…")


_PERCENT = re.compile(r"%|\\?percent\b", re.IGNORECASE)


# a mixed number: "3\\frac{2}{5}", "3 \\tfrac{2}{5}", "3\\ \\frac25", "3 2/5", "3\\ 2/5"
_MIXED = re.compile(
    r"-?\d+(?:\s|\\[ ,;!]|~)*+(?:\\[dt]?frac\s*(?:\{\s*\d+\s*\}|\d)\s*(?:\{\s*\d+\s*\}|\d)|"
    r"(?<=\s)\d+\s*/\s*\d+)"
)
_PLAIN_NUMBER = re.compile(r"\s*(-?\d+(?:\.\d+)?)\s*")


def _is_share(answer: str, gold: str) -> bool:
    """Whether ``answer`` is the hundredth of a percentage gold (``0.35`` for ``35\\%``), not
    its number (``35``, the percent asked for, as a person answers "What percent ...?")."""
    number = _PLAIN_NUMBER.fullmatch(_PERCENT.sub("", gold).replace("\\", ""))
    given = _PLAIN_NUMBER.fullmatch(answer)
    if not number or not given:
        return True
    return Fraction(given.group(1)) != Fraction(number.group(1))


def in_scientific_notation(text: str) -> bool:
    """Whether ``text`` is a number in scientific notation: a coefficient of at least 1 and under
    10 times a power of ten (``4.5 \\times 10^{-4}``, ``4.5 \\cdot 10^{-4}``, ``4.5e-4``; not
    ``45 \\times 10^{-5}`` or ``0.00045``)."""
    return bool(_SCIENTIFIC.fullmatch(text.strip()))


def wrong_number_form(answer: str, gold: str, forms: Iterable[str]) -> bool:
    """Anything but a mixed number where the gold is one (``3.4`` or ``\\frac{17}{5}`` for
    ``3\\frac{2}{5}``: the gold's form is the form asked), or one whose fraction is improper
    (``2\\frac{7}{5}``), a decimal where the wording asks for a fraction and the gold is one (``0.7\\overline{3}``
    for "Express your answer as a common fraction", gold ``\\frac{11}{15}``), or a fraction
    where it asks for a decimal and the gold is one, a percentage where it asks for either, the
    hundredth of a percentage gold where a percent is asked (``0.35``; its number ``35`` is the
    percent), a mixed number where it asks for a common fraction, or an inequality where it asks for interval
    notation and the gold is an interval, anything but interval notation (``2 \\le x \\le 3`` or
    the endpoints ``\\{2, 3\\}``, ``2, 3`` for ``[2, 3]``); scientific
    notation is :func:`in_scientific_notation`'s, read on the gold as written."""
    forms = set(forms)
    if _MIXED.fullmatch(gold.strip()):  # "\\frac{17}{5}", "3.4" or "2\\frac{7}{5}" for 3 2/5
        mixed = _MIXED.fullmatch(answer.strip())
        return not mixed or any(a >= b for a, b in text_fractions(answer))
    if (
        "interval" in forms
        and _INTERVAL.match(gold)
        and not _INTERVAL.match(_MEMBER.sub("", answer))
    ):
        return True  # an inequality, the endpoints as a set or a list: not interval notation
    if forms & {"fraction", "decimal"} and _PERCENT.search(answer) and not _PERCENT.search(gold):
        return True  # "75\\%" where a common fraction or a decimal is asked for
    if "percent" in forms and _PERCENT.search(gold) and not _PERCENT.search(answer):
        return _is_share(answer, gold)  # "0.35" where a percent is asked for and the gold is 35%
    if (
        "fraction" in forms
        and _MIXED.fullmatch(answer.strip())
        and not _MIXED.fullmatch(gold.strip())
    ):
        return True  # "2\\frac{2}{5}" where a common fraction is asked: a mixed number is none
    if "fraction" in forms and text_fractions(gold) and not _DECIMAL.search(gold):
        return bool(_DECIMAL.search(answer))
    if "decimal" in forms and _DECIMAL.search(gold) and not text_fractions(gold):
        return bool(text_fractions(answer))
    return False


def _variables(node: Any) -> bool:
    return any(s.name != "i" for s in getattr(node, "free_symbols", ()))


def _negative(exp: Any) -> bool:
    return bool(getattr(exp, "is_negative", False))


@dataclass
class Features:
    flags: set[str] = field(default_factory=set)
    nodes: int = 0
    divides_by_sum: bool = False  # a sum in a variable under a negative power (or a fraction bar)


def _perfect_power_factor(n: int, k: int) -> bool:
    """Whether ``n`` has a factor ``m**k`` with ``m > 1``."""
    from sympy import factorint

    n = abs(n)
    if n > MAX_RADICAND:
        raise TooComplex
    return any(e >= k for e in factorint(n).values())


def _lower_index(n: int, k: int) -> bool:
    """Whether the ``k``-th root of ``n`` is a root of a lower index: every prime of ``n`` has an
    exponent sharing a factor with ``k`` (``\\sqrt[4]{4}`` is ``\\sqrt{2}``, ``\\sqrt[6]{8}`` is
    ``\\sqrt{2}``)."""
    from sympy import factorint

    n = abs(n)
    if n > MAX_RADICAND:
        raise TooComplex
    exponents = list(factorint(n).values())
    return n > 1 and gcd(k, reduce(gcd, exponents)) > 1


def _has_radical(node: Any) -> bool:
    from sympy import Pow, Rational, preorder_traversal

    for count, sub in enumerate(preorder_traversal(node)):
        if count > MAX_NODES:
            raise TooComplex
        if isinstance(sub, Pow) and isinstance(sub.exp, Rational) and not sub.exp.is_Integer:
            return True
    return False


def _monomial_key(term: Any) -> str:
    from sympy import Mul

    parts = Mul.make_args(term) if isinstance(term, Mul) else (term,)
    rest = sorted(canon(a) for a in parts if not getattr(a, "is_Number", False))
    return "*".join(rest) or "1"


def _flat(node: Any) -> list[Any]:
    """The factors of a product, nested products opened (``2(2x)`` is 2, 2, x)."""
    from sympy import Mul

    if not isinstance(node, Mul):
        return [node]
    return [f for a in node.args for f in _flat(a)]


def _radicand(base: Any, index: int, out: Features) -> None:
    """Flags of a radicand under an ``index``-th root: a fraction (``\\sqrt{3/4}``: not
    rationalised), a perfect ``index``-th power factor, numbers or variables
    (``\\sqrt{72}``, ``\\sqrt{49\\cdot 5}``, ``\\sqrt[3]{8x^6}``: not simplified)."""
    from sympy import Integer, Pow, Rational

    number = 1
    for factor in _flat(base):
        if isinstance(factor, Integer):
            number *= int(factor)
            if abs(number) > MAX_RADICAND:
                raise TooComplex
        elif isinstance(factor, Rational) or getattr(factor, "is_Float", False):
            out.flags.add("radical_denominator")  # \\sqrt{3/4}, \\sqrt{0.75}: a fraction under it
        elif isinstance(factor, Pow) and factor.exp.is_Integer and factor.exp >= index:
            out.flags.add("radicand")
    if number != 1 and (_perfect_power_factor(number, index) or _lower_index(number, index)):
        out.flags.add("radicand")


def features(expr: Any) -> Features:
    """The form features of a parsed (unevaluated) tree; raises :class:`TooComplex` past
    ``MAX_NODES`` nodes or a radicand past ``MAX_RADICAND``."""
    from sympy import Add, Basic, Integer, Mul, Pow, Rational, Symbol
    from sympy.matrices import MatrixBase

    out = Features()

    def visit(node: Any, below: bool = False) -> None:  # below: inside a denominator
        out.nodes += 1
        if out.nodes > MAX_NODES:
            raise TooComplex
        if isinstance(node, MatrixBase):
            for element in node:
                visit(element)
            return
        if not isinstance(node, Basic):
            return
        if isinstance(node, Mul):
            factors = _flat(node)
            if not below and any(isinstance(a, Add) and _variables(a) for a in node.args):
                out.flags.add("product_of_sums")
            nums = [int(a) for a in factors if isinstance(a, Integer) and abs(int(a)) != 1]
            dens = [int(b) for a in factors if isinstance(a, Pow) and a.exp == -1
                    for b in _flat(a.base) if isinstance(b, Integer)]  # fmt: skip
            if len(nums) > 1:
                out.flags.add("coefficients")  # 2(2x)(3y): numbers left to multiply
            inverses = [a for a in factors if isinstance(a, Pow) and a.exp == -1
                        and getattr(a.base, "is_Number", False)]  # fmt: skip
            parts = [a for a in factors if getattr(a, "is_Number", False) and not a.is_Integer]
            if len(inverses) > 1 or (parts and (nums or inverses or len(parts) > 1)):
                out.flags.add("coefficients")  # \\frac{1}{2} \\cdot 2(x-2): one constant
            over = [a for a in factors if isinstance(a, Pow) and _negative(a.exp)
                    and _variables(a.base)]  # fmt: skip
            if len(over) > 1:
                out.flags.add("nested_fraction")  # \\frac{1}{x} \\cdot \\frac{1}{y}: one fraction
            num, den = 1, 1
            for a in nums:
                num *= a
            for a in dens:
                den *= a
            if dens and gcd(num, den) > 1:
                out.flags.add("unreduced")
            indices = [a.exp.q for a in factors if isinstance(a, Pow)
                       and isinstance(a.exp, Rational) and not a.exp.is_Integer]  # fmt: skip
            if len(set(indices)) < len(indices):
                out.flags.add("radical_product")  # \\sqrt{15}\\sqrt{35}: one radical
            bases = [a.base if isinstance(a, Pow) and a.exp.is_Integer else a for a in factors]
            symbols = [b for b in bases if isinstance(b, Symbol)]  # (x-2)(x-2) is factored
            if len(set(symbols)) < len(symbols):
                out.flags.add("like_factors")  # x^6 \\cdot x: one power of x
        elif isinstance(node, Pow):
            base, exp = node.base, node.exp
            if below and _negative(exp):
                out.flags.add("nested_fraction")  # \\frac{1}{1+\\frac{1}{x}}
            if _negative(exp) and isinstance(base, Add) and _variables(base):
                out.divides_by_sum = True
            if exp == 0 and _variables(base):
                out.flags.add("like_factors")  # 35x^0: a power of 0 left to evaluate
            sum_base = isinstance(base, Add) and _variables(base)
            if not below and sum_base and exp.is_Integer and exp > 1:
                out.flags.add("product_of_sums")
            if (
                exp.is_Integer
                and exp > 1
                and (
                    (isinstance(base, Pow) and base.exp.is_Integer)
                    or (
                        isinstance(base, Mul)
                        and any(isinstance(a, Integer) and abs(int(a)) != 1 for a in _flat(base))
                    )
                )
            ):
                out.flags.add("power_of_product")  # (2x)^2, (x^2)^3: a monomial to write out
            if getattr(exp, "is_negative", False) and _variables(base):
                out.flags.add("variable_denominator")
                if exp != -1:
                    out.flags.add("negative_exponent")  # x^{-4}: a positive exponent over a line
            if getattr(exp, "is_negative", False) and (
                _has_radical(base) or (isinstance(exp, Rational) and not exp.is_Integer)
            ):
                out.flags.add("radical_denominator")
            if isinstance(exp, Rational) and not exp.is_Integer:
                _radicand(base, exp.q, out)
        elif isinstance(node, Add):
            keys = [_monomial_key(a) for a in node.args]
            if len(set(keys)) < len(keys):
                out.flags.add("like_terms")
        denominator = isinstance(node, Pow) and getattr(node.exp, "is_negative", False)
        for arg in node.args:
            visit(arg, below or denominator)

    visit(expr)
    return out


def canon(expr: Any) -> str:
    """A tree written with the arguments of sums and products in a fixed order: two trees with
    the same canon are the same expression up to order and notation."""
    from sympy import Add, Basic, Mul

    if not isinstance(expr, Basic) or not expr.args:
        return str(expr)
    args = [canon(a) for a in expr.args]
    if isinstance(expr, (Add, Mul)) or type(expr).__name__ in ("FiniteSet", "And", "Or"):
        args.sort()
    return f"{type(expr).__name__}({','.join(args)})"


def _value_of(expr: Any) -> Any:
    """The value side of ``x = value`` (a label and its value), else ``expr``."""
    from sympy import Symbol
    from sympy.core.relational import Equality

    if isinstance(expr, Equality) and isinstance(expr.lhs, Symbol):
        return expr.rhs
    return expr


def factor_count(expr: Any) -> int:
    """The non-constant factors of a product, with multiplicity (``x^2`` counts 2), plus one for
    a numeric coefficient other than ±1 and ±1/n (``\\frac{x-3}{2}`` is one fraction, not a
    factored product): how far it is factored. A sum counts 1."""
    from sympy import Add, Mul, Pow

    if isinstance(expr, Add) or not _variables(expr):
        return 1 if _variables(expr) else 0
    if isinstance(expr, Pow):
        if expr.exp.is_Integer and expr.exp > 0:
            return int(min(expr.exp, MAX_DEGREE)) * max(1, factor_count(expr.base))
        return 0 if getattr(expr.exp, "is_negative", False) else 1
    if isinstance(expr, Mul):
        constants = [a for a in expr.args if not _variables(a)]
        count = sum(factor_count(a) for a in expr.args if _variables(a))
        if constants:
            try:
                value = Mul(*constants).doit()
                denominator = value.is_Rational and abs(value.p) == 1  # 1/2: a fraction bar
                count += 0 if denominator else 1
            except Exception:  # an unevaluable constant: count it
                count += 1
        return count
    return 1


# a negative power of a bracket: (x^2-1)^{-1}, \\left(x+1\\right)^{-2}
_NEGATIVE_POWER = re.compile(r"[)\]]\s*+\^\s*+\{?+\s*+\(?+\s*+-")


def _written(found: Features, text: str) -> Features:
    """``found`` with what only the text shows: a negative power of a sum in a variable
    (``(x^2-1)^{-1}``), which the parser builds as it builds ``\\frac{1}{x^2-1}``."""
    if found.divides_by_sum and _NEGATIVE_POWER.search(text):
        found.flags.add("negative_exponent")
    return found


def _sums(expr: Any) -> list[Any]:
    """The sums in a variable among the factors of a product and of its powers (``(2x-4)^2``
    gives ``2x-4``); not in a denominator."""
    from sympy import Add, Mul, Pow

    out = []
    for factor in _flat(expr):
        if isinstance(factor, Pow) and factor.exp.is_Integer and factor.exp > 0:
            factor = factor.base
        if isinstance(factor, Add) and _variables(factor):
            out.append(factor)
        elif isinstance(factor, Mul):
            out.extend(_sums(factor))
    return out


def _primitive_factors(expr: Any) -> bool:
    """Whether every sum in a variable among the factors has integer coefficients without a
    common factor (``x-2``, ``2-x``, ``2x-1``; not ``2x-4``, ``x-\\frac{1}{2}``, ``0.5x-1``): a
    factored form is such factors times one rational constant. A factor with other coefficients
    (``x-\\sqrt{2}``) is not judged. Raises :class:`TooComplex` past ``MAX_TERMS`` or
    ``MAX_DEGREE``."""
    from sympy import Poly

    from pac_verl.verifiers.math.form import _terms_estimate

    for factor in _sums(expr):
        if _terms_estimate(factor) > MAX_TERMS:
            raise TooComplex
        symbols = sorted((s for s in factor.free_symbols if s.name != "i"), key=str)
        try:
            poly = Poly(factor, *symbols)
        except Exception:  # not a polynomial (a radical of x): not this class
            continue
        if poly.total_degree() > MAX_DEGREE or len(poly.terms()) > MAX_TERMS:
            raise TooComplex
        if poly.domain.is_ZZ:
            if gcd(*(int(c) for c in poly.coeffs())) != 1:
                return False
        elif poly.domain.is_QQ or poly.domain.is_RR:
            return False
    return True


def _over_a_number(expr: Any) -> bool:
    """A sum over a whole number, as one fraction (``\\frac{x-3}{2}``)."""
    from sympy import Add, Mul

    if not isinstance(expr, Mul):
        return False
    constants = Mul(*[a for a in expr.args if not _variables(a)]).doit()
    sums = [a for a in expr.args if isinstance(a, Add) and _variables(a)]
    return bool(sums) and constants.is_Rational and abs(constants.p) == 1 and constants.q > 1


def _shares_with_denominator(expr: Any) -> bool:
    """Whether a sum over a whole number (:func:`_over_a_number`) has a factor common to its
    numerator's integer coefficients and its denominator (``\\frac{2x-6}{4}``)."""
    from sympy import Mul, Poly

    from pac_verl.verifiers.math.form import _terms_estimate

    if not _over_a_number(expr):
        return False
    constants = Mul(*[a for a in expr.args if not _variables(a)]).doit()
    numerator = Mul(*[a for a in expr.args if _variables(a)])
    if _terms_estimate(numerator) > MAX_TERMS:
        raise TooComplex
    poly = Poly(numerator, *sorted(numerator.free_symbols, key=str))
    if not poly.domain.is_ZZ:
        return False
    return gcd(int(poly.content()), int(constants.q)) > 1


def _is_product(expr: Any) -> bool:
    """A product with a sum among its factors and at least two non-constant factors."""
    from sympy import Add, Mul, Pow

    factors = expr.args if isinstance(expr, Mul) else [expr] if isinstance(expr, Pow) else []
    has_sum = any(
        isinstance(f.base if isinstance(f, Pow) else f, Add) and _variables(f) for f in factors
    )
    return has_sum and factor_count(expr) >= 2


def _reduced(expr: Any) -> bool:
    """Whether a rational expression's numerator and denominator are coprime polynomials with
    integer coefficients (``\\frac{2x+4}{2x-2}`` is not: 2 divides both); raises
    :class:`TooComplex` past ``MAX_TERMS`` terms, ``MAX_DEGREE`` or ``MAX_DENSE``."""
    from sympy import Poly

    from pac_verl.verifiers.math.form import _terms_estimate

    if _terms_estimate(expr) > MAX_TERMS:
        raise TooComplex
    num, den = expr.as_numer_denom()
    symbols = sorted(num.free_symbols | den.free_symbols, key=str)
    if not symbols or not _variables(den):
        return True
    for part in (num, den):
        if _terms_estimate(part) > MAX_TERMS:
            raise TooComplex
    try:
        pn, pd = Poly(num, *symbols), Poly(den, *symbols)
    except Exception:  # not polynomials (a radical of x): not this class
        return True
    if max(pn.total_degree(), pd.total_degree()) > MAX_DEGREE or len(pn.terms()) > MAX_TERMS:
        raise TooComplex
    if prod(max(a, b) + 1 for a, b in zip(pn.degree_list(), pd.degree_list())) > MAX_DENSE:
        raise TooComplex
    if not (pn.domain.is_ZZ and pd.domain.is_ZZ):
        return False  # a fraction or a decimal inside the fraction (0.5x+1 over 0.5x-0.5)
    common = pn.gcd(pd)  # over the integers: a constant common to both is a common factor too
    return common.total_degree() == 0 and abs(common.LC()) == 1


def form_violation(
    answer_text: str, answer_expr: Any, gold_text: str, gold_expr: Any
) -> str | None:
    """Why the answer is not in the gold's form (``unevaluated``, ``too_complex``), or None."""
    from sympy import Add

    try:
        answer_expr, gold_expr = _value_of(answer_expr), _value_of(gold_expr)
        gold = _written(features(gold_expr), gold_text)
        answer = _written(features(answer_expr), answer_text)
        if answer.flags - gold.flags or unreduced_text(answer_text, gold_text):
            return "unevaluated"
        if _is_product(gold_expr) and "variable_denominator" not in gold.flags:
            if isinstance(answer_expr, Add) or factor_count(answer_expr) < factor_count(gold_expr):
                return "unevaluated"  # not factored as far as the gold
            if _primitive_factors(gold_expr) and not _primitive_factors(answer_expr):
                return "unevaluated"  # a constant left inside a factor: (2x-4)(x-3)/2
        if _over_a_number(gold_expr) and _shares_with_denominator(answer_expr):
            return "unevaluated"  # \\frac{2x-6}{4} for \\frac{x-3}{2}: a common factor left
        if "variable_denominator" in gold.flags and "variable_denominator" in answer.flags:
            if not isinstance(gold_expr, Add) and isinstance(answer_expr, Add):
                return "unevaluated"  # several fractions where the gold is one
            if not isinstance(gold_expr, Add) and _fraction_in_a_sum(answer_expr):
                return "unevaluated"  # x^{-1}(\\frac{2x}{x-1} - 1): a sum of fractions inside
            if _reduced(gold_expr) and not _reduced(answer_expr):
                return "unevaluated"
    except (TooComplex, RecursionError):
        return "too_complex"
    return None


def _fraction_in_a_sum(expr: Any) -> bool:
    """Whether a sum anywhere inside ``expr`` has a term over a variable denominator (fractions
    left to combine, however the product around them is written). Bounded by the tree's size."""
    from sympy import Add, Pow

    stack, seen = [expr], 0
    while stack and seen < MAX_TREE_NODES:
        node = stack.pop()
        seen += 1
        if isinstance(node, Add):
            for term in node.args:
                factors = term.args if term.is_Mul else (term,)
                if any(
                    isinstance(f, Pow) and f.exp.is_negative and f.base.free_symbols
                    for f in factors
                ):
                    return True
        stack.extend(getattr(node, "args", ()))
    return False


def copies_question(answer_expr: Any, gold_expr: Any, questions: Iterable[Any]) -> bool:
    """Whether the answer is the same tree, up to order and notation, as one of the question's
    expressions (parsed trees; None for one that does not parse) that the gold is not."""
    if answer_expr is None:
        return False
    answer_canon = canon(_value_of(answer_expr))
    gold_canon = canon(_value_of(gold_expr)) if gold_expr is not None else None
    for expr in questions:
        if expr is None:
            continue
        question_canon = canon(_value_of(expr))
        if question_canon == answer_canon and question_canon != gold_canon:
            return True
    return False

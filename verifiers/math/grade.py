"""Math (docs/concepts/spec.md#rewards): DeepScaleR-style extraction graded with math-verify.

Extraction: the boxes that count by :mod:`..extract`'s rule (after the last ``</think>``; the last
box and those offered alongside it; a cut-off response is ``cut_off``); no box is ``no_boxed``.
A chain of equalities whose members all have one value is graded as its last member
(:func:`_chain_last`). Grading one answer: normalised string equality first (cheap and exact), then the form (a value,
not a computation: :mod:`.form`, else ``unevaluated``, before sympy evaluates anything), then
an exact comparison when both sides are plain numbers (integers, decimals, ``a/b``,
``\\frac{a}{b}``: no sympy), then math-verify's ``parse``/``verify`` (the gold's parse cached: a
step scores G responses per gold) on ``\\boxed{answer}`` against ``\\boxed{gold}``. Never
``eval``.

What is accepted and what is not, and why (a careful human grader reads an accepted form as the
gold): docs/guides/rewards.md#per-task-what-is-accepted (the math row),
docs/guides/rewards.md#math-a-value-not-a-computation and docs/guides/rewards.md#math-forms;
doubt and alternatives in or after the box: docs/guides/rewards.md#hedges-one-lexicon-of-doubt.

Time bounds. math-verify's own timeouts use ``signal.alarm`` and raise off the main thread
(Math-Verify issues #50 and #55), and verl calls reward functions from worker threads, so they are
switched off (``parsing_timeout=None``, ``timeout_seconds=None``). The answer and the gold are
capped at ``MAX_ANSWER_CHARS``, which keeps sympy's work small, and the guards of :mod:`..guards`
settle absurd sizes; what time is left unbounded is bounded by the caller: ``compute_score`` and
``compute_scores`` score in a killable worker of :mod:`..pool`, which is killed at ``timeout_s``
(reason ``timeout``). No alarm interrupts the grading in-process, not even on the main
thread: an alarm that lands inside math-verify or sympy can be caught by their broad handlers
(scored ``not_equal``, not ``timeout``) and can leave a parse half done for the grades that follow
in the same process.

Gold answers are normalised: a float with an integral value (AMC's ``3.0``) becomes ``3``.
"""

from __future__ import annotations

import contextvars
import functools
import logging
import re
from collections.abc import Sequence
from fractions import Fraction

from text_to_num import text2num

from pac_verl.verifiers import lexicon
from pac_verl.verifiers.extract import (
    clean_answer,
    final_answers,
    has_alternatives,
    hedges,
    last_boxed,
    split_alternatives,
    unicode_to_latex,
    unwrap_text,
)
from pac_verl.verifiers.guards import math_refusal, math_too_large
from pac_verl.verifiers.math.form import (
    evaluated,
    fraction_spelling,
    operations,
    plain_numbers,
)
from pac_verl.verifiers.math.question import (
    STATED,
    canon,
    copies_question,
    form_violation,
    in_scientific_notation,
    unreduced_text,
    wrong_number_form,
    wrong_unit,
)
from pac_verl.verifiers.verdict import (
    MAX_DISTINCT_ANSWERS,
    OK,
    Verdict,
    fail,
    judge_final_answers,
)

MAX_ANSWER_CHARS = 300
MAX_CHAIN_TERMS = 12  # terms of a chain member's numerator or denominator, once expanded
_FLOAT_INT = re.compile(r"^\s*(-?\d+)\.0*\s*$")
# a decimal literal (not part of a longer number, not the mantissa of e-notation)
_DECIMAL_LITERAL = re.compile(r"(?<![\d.])(\d*+)\.(\d++)(?![\d.]|[eE][+-]?\d)")
_IMAGINARY = re.compile(r"\\(?:mathrm|text|mathit)\s*\{\s*i\s*\}")
_WHOLE_TEXT = re.compile(r"\\(?:text|textbf|textrm|mathrm|mbox)\s*\{([^{}]*)\}")
_NUMBER_THEN_WORDS = re.compile(r"(.*\d)\s*([A-Za-z][A-Za-z ]*)")
# a number times a word of scale after it is that many: "12 thousand" is 12000, "1.2 million",
# "3 dozen", `12\\text{k}` (a unit after it is read past; a scale is not a unit); an abbreviation
# only in text, since "12k" and "12mn" are products of variables
SCALES = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9,
          "trillion": 10**12, "dozen": 12}  # fmt: skip
SCALE_ABBREVIATIONS = {"k": 10**3, "mn": 10**6, "bn": 10**9}  # not "K": kelvin
_SCALED = re.compile(
    r"(-?\d{1,15}+(?:\.\d{1,15}+)?+)[ \t]*+(?:\\[ ,;!]|~)*+[ \t]*+"
    r"(?:\\(?:text|textrm|mathrm|mbox)\s*+\{\s*+"
    rf"({'|'.join([*SCALES, *SCALE_ABBREVIATIONS])})s?\s*+\}}|({'|'.join(SCALES)})s?)",
    re.IGNORECASE,
)
_PRIME_RUN = re.compile(r"['’′″‴]{3,}|[″‴]['’′″‴]")
_CHOICE_LABEL = re.compile(
    r"^(?:\\(?:textbf|text|mathrm|mathbf)\s*\{\s*\(?[A-E]\)\s*\}|\([A-E]\))\s*(?=\S)"
)
# a gold that is a choice label: "(B)", "B" (after normalise_gold)
_GOLD_CHOICE = re.compile(r"\(?([A-E])\)?")
# an answer that starts with a choice label: "(B) 204", "B) 204", "B. 204", "B"
_ANSWER_CHOICE = re.compile(r"(?:\(([A-E])\)|([A-E])(?:\)|[.:](?=\s)|$))\s*")
_OTHER_CHOICE = re.compile(r"(?<![\w)])\([A-E]\)")
# nothing after a choice's label but other labels: "B) C)", "(B) C.", and after an unbracketed
# label a bare letter ("B. C."; "(B) A" is choice B whose content is "A")
_ONLY_CHOICES = re.compile(r"(?:\(?[A-E][.):]\s*)+")
_BARE_CHOICE = re.compile(r"[A-E]")
# a choice the question lists: "\\textbf{(B) } 204 \\qquad", "(B) 204"
_QUESTION_CHOICE = re.compile(
    r"(?:\\(?:textbf|text|mathrm|mathbf)\s*\{\s*\(([A-E])\)\s*\}|\(([A-E])\))\s*"
    r"(.{1,80}?)\s*(?=\\qquad|\\quad|\\textbf|\\text\s*\{\s*\(|\([A-E]\)|$)"
)
# a whole number in English words ("four", "fifty-six", "two hundred and five"), read by text2num;
# it starts with a unit or a tens word, so a scale word alone ("thousand") is none
_NUMBER_IN_WORDS = re.compile(
    r"(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|"
    r"fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|"
    r"eighty|ninety)\b[a-z -]{0,80}+"
)
_PERCENT = re.compile(
    r"\s*+(?:\\%|%|\\(?:text|mathrm|textrm)\s*+\{\s*+(?:\\?%|per\s?cent)\s*+\}|\\?per\s?cent)\s*+$"
)
_VARIABLE = re.compile(r"[A-Za-z](?:_\{?[A-Za-z0-9]+\}?)?")
_WORDS = re.compile(r"[a-z][a-z' -]*")
_PMOD = re.compile(r"\\pmod\s*\{([^{}]*)\}")
_LETTERS = re.compile(r"[A-Za-z]")
_COMMAND = re.compile(r"\\[a-zA-Z]+")

logging.getLogger("math_verify").setLevel(logging.ERROR)


def normalise_gold(gold: str) -> str:
    gold = gold.strip().strip("$").strip()
    inner = last_boxed(gold)
    if inner is not None:
        gold = inner
    gold = prepare(gold)
    match = _FLOAT_INT.match(gold)
    return match.group(1) if match else gold


_FRAC = re.compile(r"^\\[dtc]?frac\{(-?\d+)\}\{(-?\d+)\}$")
_THOUSANDS = re.compile(r"^-?\d{1,3}(?:([, ])\d{3})(?:\1\d{3})*(?:\.\d+)?$")
_SPACED_SLASH = re.compile(r"\s*/\s*")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$|^-?\d+/\d+$")
_INTEGER = re.compile(r"-?\d+")


def simple_number(s: str) -> Fraction | None:
    """An integer, decimal, ``a/b`` or ``\\frac{a}{b}`` as an exact Fraction, else None.

    Most answers (AIME, AMC, DAPO) are integers: comparing them exactly skips sympy entirely."""
    s = unwrap_text(s).replace("$", "").replace("{,}", ",").strip()
    if _THOUSANDS.match(s):  # 1,000,000 or 1 000 000 (thin spaces), not the pair "1, 2"
        s = s.replace(",", "").replace(" ", "")
    s = _SPACED_SLASH.sub("/", s)
    if s.startswith("- "):
        s = "-" + s[2:].lstrip()
    depth = min(len(s) - len(s.lstrip("(")), len(s) - len(s.rstrip(")")))
    s = s[depth : len(s) - depth]
    match = _FRAC.match(s)
    if match:
        s = f"{match.group(1)}/{match.group(2)}"
    if not _NUMBER.match(s):
        return None
    try:
        return Fraction(s)
    except (ValueError, ZeroDivisionError):
        return None


@functools.lru_cache(maxsize=4096)
def _parse_gold(gold: str):
    from math_verify import parse

    return parse(f"\\boxed{{{gold}}}", parsing_timeout=None)


def _one_unit(parsed: list) -> list:
    """``parsed`` with one symbol for the imaginary unit: the parser gives ``i`` after a digit
    (``3i``, ``1i``) other assumptions than ``i`` alone or after a space or a dot, and sympy
    holds two such symbols different (``5+1i`` would not equal ``5+i``)."""
    from sympy import Basic, Symbol

    unit = Symbol("i", real=False)  # the symbol the parser gives ``i`` alone
    out = []
    for expr in parsed:
        if isinstance(expr, Basic):
            units = {s: unit for s in expr.free_symbols if getattr(s, "name", "") == "i"}
            expr = expr.xreplace(units) if units else expr
        out.append(expr)
    return out


def _clearly_different(gold_expr, number: Fraction) -> bool:
    """A plain-number answer against a closed-form gold (``\\sqrt{3}``, ``2\\pi``): when their
    values differ by more than 1e-6 relative, no simplification can make them equal, so sympy's
    slow symbolic comparison is skipped. Anything else (symbols, sets, intervals) is not decided."""
    try:
        if getattr(gold_expr, "free_symbols", None) != set():
            return False
        value = complex(gold_expr.evalf(30))
    except Exception:
        return False
    return abs(value - float(number)) > 1e-6 * max(1.0, abs(value))


def _plain(s: str) -> str:
    return "".join(s.split()).replace("\\left", "").replace("\\right", "").replace("\\!", "")


def single_layer(text: str) -> str:
    """``text`` with the brackets around the whole of it kept once: ``(((7)))`` is ``(7)``,
    ``[[(1, 2)]]`` is ``[(1, 2)]`` (a layer goes only when the one inside it is of its kind); an
    outer pair that closes before the end (``(1)(2)``) is not around the whole. One pass:
    punctuation around an answer is no nesting for the parser (nor for the guard, which reads
    what this returns: docs/guides/rewards.md#bounded-grading)."""
    text = text.strip()
    pairs: dict[int, int] = {}
    stack: list[int] = []
    for i, ch in enumerate(text):
        if ch in _OPENS:
            stack.append(i)
        elif ch in _CLOSES:
            if stack and _OPENS.index(text[stack[-1]]) == _CLOSES.index(ch):
                pairs[stack.pop()] = i
            else:
                stack.clear()  # unbalanced: nothing here is around the whole
    left, right = 0, len(text) - 1
    while pairs.get(left) == right:
        inner_left, inner_right = left + 1, right - 1
        while inner_left < inner_right and text[inner_left].isspace():
            inner_left += 1
        while inner_right > inner_left and text[inner_right].isspace():
            inner_right -= 1
        if pairs.get(inner_left) != inner_right or text[inner_left] != text[left]:
            break  # the layer inside is not another of this kind around everything
        left, right = inner_left, inner_right
    return text[left : right + 1] if left else text


_OPENS, _CLOSES = "([{", ")]}"


# a domain note after a simplified expression: "x+3 (x \\neq 3)", "x+3, x \\ne 3", "x + 3 \\text{
# for } x \\neq 3": the values excluded, not a second answer (only after an answer, only "≠")
_DOMAIN_NOTE = re.compile(
    r"(?<=\S)[ \t]*+(?:,|;)?[ \t]*+\(?[ \t]*+(?:\\text\s*\{\s*(?:for|where|with)\s*\}|for|where|with)?"
    r"[ \t]*+[a-zA-Z][ \t]*+\\neq?(?![a-zA-Z])[ \t]*+-?[0-9a-zA-Z.{}\\]{1,20}+[ \t]*+\)?[ \t]*+$"
)


def prepare(answer: str) -> str:
    """A boxed answer in the spelling math-verify reads (see the module docstring).

    A box that is one text wrapper (``\\text{204 minutes}``) is unwrapped, its trailing words
    kept as ``\\text{}`` so that math-verify reads them as a unit."""
    answer = clean_answer(answer, unwrap=False)
    answer = clean_answer(_CHOICE_LABEL.sub("", answer), unwrap=False)
    answer = single_layer(answer)
    whole = _WHOLE_TEXT.fullmatch(answer)
    if whole:
        inner = whole.group(1).strip()
        unit = _NUMBER_THEN_WORDS.fullmatch(inner)
        answer = f"{unit.group(1)}\\text{{ {unit.group(2)}}}" if unit else inner
    answer = _number_in_words(answer) or answer  # "four" is 4, "fifty-six" 56
    scaled = _SCALED.fullmatch(answer.strip())
    word = scaled and (scaled.group(2) or scaled.group(3))
    scale = word and (SCALES.get(word.lower()) or SCALE_ABBREVIATIONS.get(word))
    if scale:  # "12 \\text{ thousand}": 12000
        value = Fraction(scaled.group(1)) * scale
        answer = str(value.numerator) if value.denominator == 1 else str(float(value))
    answer = _PMOD.sub(r"\\mod \1", answer.replace("\\displaystyle", "").replace("\\bmod", "\\mod"))
    answer = _DOMAIN_NOTE.sub("", unicode_to_latex(answer))  # "x+3 (x \\neq 3)": the domain
    return plain_numbers(fraction_spelling(_IMAGINARY.sub("i", answer)))


def _exactly_equal(gold_expr: object, answer_expr: object) -> bool:
    """Whether two values math-verify took as equal are exactly so (their difference expands
    to 0); True for what is not a plain expression (sets, relations: math-verify's own rules)."""
    from sympy import Expr, Float, expand

    if not isinstance(gold_expr, Expr) or not isinstance(answer_expr, Expr):
        return True
    if gold_expr.atoms(Float):
        return True  # a decimal gold is compared as math-verify compares decimals
    return expand(gold_expr - answer_expr) == 0


def exact_decimals(text: str) -> str:
    """Each decimal literal as the fraction it writes (``0.816497`` ->
    ``{\\frac{816497}{1000000}}``), so that it is compared as that exact number: math-verify
    compares a float to 6 places, which would take ``3.141593`` for π
    (docs/guides/rewards.md#math-forms)."""

    def fraction(m: re.Match) -> str:
        digits = len(m[2])
        return f"{{\\frac{{{int(m[1] or 0) * 10**digits + int(m[2])}}}{{{10**digits}}}}}"

    return _DECIMAL_LITERAL.sub(fraction, text)


def _percent_forms(s: str) -> list[str]:
    """The values ``s`` can mean: itself; for a percentage (``25\\%``) the number ``25`` and its
    hundredth ``1/4``, since a human reads "25%" as either, by the question's units."""
    match = _PERCENT.search(s)
    if not match:
        return [s]
    number = s[: match.start()].strip()
    value = simple_number(number)
    hundredth = str(value / 100) if value is not None else f"\\frac{{{number}}}{{100}}"
    return [number, hundredth]


def _as_words(s: str) -> str | None:
    """A text answer (``\\text{Monday}``, ``Yes.``) as a human compares it: case folded."""
    words = " ".join(clean_answer(s).split()).casefold()
    return words if _WORDS.fullmatch(words) else None


@functools.lru_cache(maxsize=4096)
def _gold_operations(gold: str) -> frozenset[str] | None:
    """The operations an answer may use (:mod:`.form`): the gold's as written and as sympy
    writes its value. None: the gold's cannot be read, so the form is not judged."""
    if simple_number(gold) is not None:
        return frozenset(operations(gold, None) or ())
    parsed = _parse_gold(gold)
    if not parsed:
        return None
    written = operations(gold, parsed[0])
    if written is None:
        return None
    value = set() if math_too_large(gold) else operations("", evaluated(parsed[0])) or set()
    return frozenset(written | value)


def _form_ok(answer: str, answer_expr: object, gold: str) -> bool:
    """Whether the answer is written as a value: no operation the gold does not use."""
    allowed = _gold_operations(gold)
    if allowed is None:
        return True
    used = operations(answer, answer_expr)
    return used is not None and used <= allowed


# the question's expressions for the grade in progress (:func:`score` sets them)
_QUESTION: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("question", default=())
_FORMS: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("forms", default=())


@functools.lru_cache(maxsize=4096)
def _question_tree(expression: str) -> tuple[str, object, str | None] | None:
    """A question expression as ``(plain text, parsed tree or None, canon of the tree as written
    or None)``; None for a plain integer (a number the question gives may well be the answer's
    value). The tree is of the prepared text (``0.\\overline{3}`` read
    as ``\\frac{1}{3}``), the canon of the text as written (``0.\\overline{3}`` has none)."""
    text = clean_answer(expression)
    if not text or _INTEGER.fullmatch(_plain(text)) or len(text) > MAX_ANSWER_CHARS:
        return None
    tree, written = _tree(prepare(text)), _tree(text)
    return _plain(fraction_spelling(text)), tree, canon(written) if written is not None else None


def _tree(text: str) -> object | None:
    """math-verify's tree of ``text``, or None."""
    from math_verify import parse

    try:
        parsed = parse(f"\\boxed{{{text}}}", parsing_timeout=None)
    except Exception:  # a span that is not an expression ("\\text{Monday}")
        return None
    return parsed[0] if parsed and not isinstance(parsed[0], str) else None


def _question_trees() -> list[object]:
    """The question's expressions as parsed trees (None for one that does not parse)."""
    return [t[1] for q in _QUESTION.get() for t in [_question_tree(q)] if t is not None]


def _copies_question_text(answer: str, gold: str) -> bool:
    """The answer as written is one of the question's expressions and the gold is not, in text
    and as a tree (``0.\\overline{3}`` for "Express $0.\\overline{3}$ as a common fraction", gold
    ``\\frac{1}{3}``; ``\\frac{3}{4}`` is the gold ``\\frac34``)."""
    plain = _plain(fraction_spelling(clean_answer(answer)))
    for q in _QUESTION.get():
        found = _question_tree(q)
        if found is None or found[0] != plain or plain == _plain(gold):
            continue
        written = found[2]
        gold_tree = _tree(gold) if len(gold) <= MAX_ANSWER_CHARS else None
        if written is None or gold_tree is None or written != canon(gold_tree):
            return True
    return False


def _grade(answer: str, gold: str) -> Verdict:
    """One prepared answer against one gold form: its form (:mod:`.form`), then its value."""
    if _plain(answer) == _plain(gold):
        return OK
    if _PRIME_RUN.search(answer) and not _PRIME_RUN.search(gold):
        return fail("unparsable")  # a run of primes is no value (7' and 7'' are feet, inches)
    gold_words = _as_words(gold)
    if gold_words is not None and gold_words == _as_words(answer):
        return OK
    gold_number, answer_number = simple_number(gold), simple_number(answer)
    if gold_number is not None and answer_number is not None:
        if not _form_ok(answer, None, gold) or unreduced_text(answer, gold):
            return fail("unevaluated")
        return OK if gold_number == answer_number else fail("not_equal")
    if len(answer) > MAX_ANSWER_CHARS or len(gold) > MAX_ANSWER_CHARS:
        return fail("too_long")
    refused = math_refusal(answer)  # the text the parser reads, before it reads it (.guards)
    if refused:
        return fail(refused)
    try:
        from math_verify import parse, verify

        gold_parsed = _parse_gold(gold)
        if not gold_parsed:
            return fail("bad_ground_truth")
        if answer_number is not None and _clearly_different(gold_parsed[0], answer_number):
            return fail("not_equal")
        answer_parsed = parse(f"\\boxed{{{answer}}}", parsing_timeout=None)
        if not answer_parsed:
            return fail("unparsable")
        if not _form_ok(answer, answer_parsed[0], gold):  # before sympy evaluates anything
            return fail("unevaluated")
        violation = form_violation(answer, answer_parsed[0], gold, gold_parsed[0])
        if violation is not None:  # the gold's normal form (:mod:`.question`)
            return fail(violation)
        if copies_question(answer_parsed[0], gold_parsed[0], _question_trees()):
            return fail("copied_question")
        if _foreign_variables(answer, answer_parsed[0], gold_parsed[0]):
            return fail("not_equal")
        decimals = _DECIMAL_LITERAL.search(answer) is not None
        if decimals:  # compared as the exact number it writes
            answer_parsed = parse(f"\\boxed{{{exact_decimals(answer)}}}", parsing_timeout=None)
            if not answer_parsed:
                return fail("unparsable")
        gold_parsed, answer_parsed = _one_unit(gold_parsed), _one_unit(answer_parsed)
        ok = verify(gold_parsed, answer_parsed, timeout_seconds=None) or _same_set(
            answer_parsed[0], gold_parsed[0]
        )
        if ok and decimals and not _exactly_equal(gold_parsed[0], answer_parsed[0]):
            return fail("not_equal")  # math-verify's tolerance took an approximation
    except Exception:  # sympy and the parser raise many types on hostile input
        return fail("unparsable")
    return OK if ok else fail("not_equal")


_GREEK = re.compile(
    r"\\(alpha|beta|gamma|delta|epsilon|varepsilon|zeta|eta|theta|vartheta|iota|kappa|lambda|mu|nu|"
    r"xi|rho|sigma|tau|upsilon|phi|varphi|chi|psi|omega)(?![a-zA-Z])"
)
_NOT_VARIABLES = re.compile(r"\\(?:text|mathrm|textbf|operatorname|mbox)\s*\{[^{}]*\}|\\[a-zA-Z]+")


def _foreign_variables(answer: str, answer_expr: object, gold_expr: object) -> bool:
    """Whether a value holds a variable the gold lacks (``3 + x - x``, ``7\\cdot\\frac{n}{n}``,
    ``\\sin^2\\theta+\\cos^2\\theta+6`` for 7): its value does not depend on the variable only
    by a computation left undone. Read from the parsed tree and from the text (the parser
    cancels ``n/n``); an equation or an inequality names its variable and is not judged here."""
    from sympy import Basic, Expr
    from sympy.core.relational import Relational

    if not isinstance(gold_expr, Expr) or not isinstance(answer_expr, Basic):
        return False
    if isinstance(answer_expr, Relational) or not isinstance(answer_expr, Expr):
        return False
    gold_names = {s.name for s in gold_expr.free_symbols}
    names = {s.name for s in answer_expr.free_symbols}
    names |= {m[1] for m in _GREEK.finditer(answer)}
    names |= set(re.findall(r"(?<![A-Za-z])[A-Za-z](?![A-Za-z])", _NOT_VARIABLES.sub(" ", answer)))
    return bool(names - gold_names - {"i", "e"})


def _inequality_set(expr: object) -> object | None:
    """The set an inequality in one variable with linear sides describes (``x \\geq 2``,
    ``-2 < x < 4``), or None for anything else. Linear sides only, so solving is instant."""
    from sympy import And, Poly
    from sympy.core.relational import Equality, Relational, Unequality

    parts = expr.args if isinstance(expr, And) else (expr,)
    if not parts or not all(
        isinstance(p, Relational) and not isinstance(p, (Equality, Unequality)) for p in parts
    ):
        return None
    symbols = expr.free_symbols
    if len(symbols) != 1 or any(s.name == "i" for s in symbols):
        return None
    (x,) = symbols
    try:
        if any(Poly(p.lhs - p.rhs, x).degree() > 1 for p in parts):
            return None
        return expr.as_set()
    except Exception:  # not a polynomial in x (x > \\sin x): not this form
        return None


def _same_set(answer_expr: object, gold_expr: object) -> bool:
    """An inequality in one variable for an interval gold: ``x \\geq 2`` for ``[2, \\infty)``,
    ``-2 < x < 4`` for ``(-2, 4)`` (math-verify accepts the interval for an inequality gold, not
    this direction)."""
    from sympy import Interval, Union

    if not isinstance(gold_expr, (Interval, Union)):
        return False
    answer_set = _inequality_set(answer_expr)
    return answer_set is not None and answer_set == gold_expr


@functools.lru_cache(maxsize=4096)
def _gold_is_set(gold: str) -> bool:
    """Whether the gold is several values (the roots of an equation: ``1, 2``)."""
    if simple_number(gold) is not None or len(gold) > MAX_ANSWER_CHARS:
        return False
    try:
        from sympy import FiniteSet

        parsed = _parse_gold(gold)
        return bool(parsed) and isinstance(parsed[0], FiniteSet) and len(parsed[0]) > 1
    except Exception:
        return False


_FINAL = ("too_long", "bad_ground_truth", "too_large", "too_complex")  # no other form is tried


def _percent_answer(prepared: str, gold: str) -> tuple[list[str], list[str]]:
    """What a percentage answer (``25\\%``) is: one value, by the question's units. Its number
    (``25``) where the question asks in percent (:mod:`.question`'s ``percent`` form) or the gold
    is a percentage; where the row states its question's forms without a percent (:data:`STATED`),
    its hundredth where the gold is a share of at most 1 (``50\\%`` is one half) and nothing
    where the gold is more (``7\\%`` and ``700\\%`` are no count of 7); where the row says
    nothing of its question, its number when the gold is more than 1 (a count is no share) and its
    hundredth when the gold is a share of at most 1. So a percentage pays for one value, not two a
    factor of 100 apart: ``2500\\%`` is not 25 percent, ``0.5\\%`` is not one half, ``700\\%``
    is no count of 7. Returns the answer's forms and the gold's."""
    match = _PERCENT.search(prepared)
    number = prepared[: match.start()].strip()
    gold_percent = _PERCENT.search(gold)
    if gold_percent:
        return [number], [gold[: gold_percent.start()].strip()]
    gold_value = simple_number(gold)
    forms = _FORMS.get()
    count = gold_value is not None and abs(gold_value) > 1
    if "percent" in forms or (count and STATED not in forms):
        return [number], [gold]
    if count:
        return [], []  # the question asks for no percentage and the gold is no share
    value = simple_number(number)
    return [str(value / 100) if value is not None else f"\\frac{{{number}}}{{100}}"], [gold]


def _grade_forms(prepared: str, gold: str) -> Verdict:
    """One prepared answer against the gold, percent forms included: a percentage answer is one
    value (:func:`_percent_answer`); a percentage gold is its number or its hundredth."""
    verdicts = []
    if _PERCENT.search(prepared):
        answer_forms, gold_forms = _percent_answer(prepared, gold)
    else:
        answer_forms, gold_forms = [prepared], _percent_forms(gold)
    if not answer_forms:
        return fail("not_equal")
    for answer_form in answer_forms:
        for gold_form in gold_forms:
            verdict = _grade(answer_form, gold_form)
            if verdict.correct or verdict.reason in _FINAL:
                return verdict
            verdicts.append(verdict)
    reasons = [v.reason for v in verdicts]
    return fail("unevaluated") if "unevaluated" in reasons else verdicts[-1]


def _as_value(prepared: str, gold: str) -> str:
    """``5 = x`` is the value 5 (math-verify reads ``x = 5`` already), unless the gold is an
    equation itself; a tuple where the gold is a column vector is that vector (``(-1, 3)`` for
    ``\\begin{pmatrix} -1 \\\\ 3 \\end{pmatrix}``: the same components)."""
    tuple_ = _TUPLE.fullmatch(prepared.strip())
    if tuple_ and _COLUMN_VECTOR.fullmatch(gold.strip()):
        rows = " \\\\ ".join(part.strip() for part in tuple_.group(1).split(","))
        return f"\\begin{{pmatrix}} {rows} \\end{{pmatrix}}"
    value, equals, variable = prepared.rpartition("=")
    if equals and "=" not in value and "=" not in gold and _VARIABLE.fullmatch(variable.strip()):
        return value.strip()
    return prepared


# a function of one variable defined by the box: "f(x) = 2x+3"; an equation solved for a letter
_FUNCTION_NAMED = re.compile(r"[A-Za-z]\s*+\(\s*+([A-Za-z])\s*+\)\s*+=([^=]{1,300}+)")
_SOLVED_FOR = re.compile(r"([A-Za-z])\s*+=([^=]{1,300}+)")
_TUPLE = re.compile(r"(?:\\left\s*)?\(([^(),]{1,200}+(?:,[^(),]{1,200}+){1,9}+)(?:\\right\s*)?\)")
_COLUMN_VECTOR = re.compile(
    r"\\begin\{[bp]matrix\}[^&\\]{1,40}+(?:\\\\[^&\\]{1,40}+){1,9}+\\end\{[bp]matrix\}"
)
# relations a box may hold between two values (``x = 7``, ``7 \\approx 7.0``, ``7 \\\\ 8``)
_RELATION = re.compile(
    r":=|(?<![<>!:\\])=|\\(?:approx|Rightarrow|implies|Longrightarrow|longrightarrow|rightarrow|"
    r"to|equiv|iff|Leftrightarrow|simeq|cong|atop|newline)(?![a-zA-Z])|\\\\"
)
_APPROX = "\\approx"
_TOP_COMMA = re.compile(r"^[^{}()\[\]]*[,;]")  # a comma before any bracket: at the top level
_GOLD_RELATION = re.compile(r"[=<>]|\\(?:[lg]e|[lg]eq|ne|neq|approx|to|\\)(?![a-zA-Z])|\\\\")
_LEADING_INEQUALITY = re.compile(
    r"^\s*(?:[<>]|\\(?:[lg]eq?(?:slant)?|approx|sim|neq?|gtrsim|lesssim)(?![a-zA-Z]))"
)
# a side that names what the value is: x, a_n, f(3), P(A), AB, \\angle ABC, \\theta
_LABEL_SIDE = re.compile(
    r"[A-Za-z](?:\s*(?:[-+*/]|\\cdot|\\times)\s*[A-Za-z]){1,5}|"  # "m+n": what the answer computes
    r"(?:m\s*)?\\angle\s*[A-Za-z]{1,3}|\|[A-Za-z]{1,3}\||\\overline\s*\{[A-Za-z]{1,3}\}|"
    r"(?:[A-Za-z]{1,3}|\\(?!pi\b|infty\b|left\b|right\b)[a-zA-Z]+)(?:_\{?[\w,]+\}?)?(?:'|\^\{?+(?:\\prime|-1)\}?+)*+"
    r"(?:\([^()=]*\))?"
)
# a side that is a tuple of variable names, naming the tuple of values: (x, y), (r, \\theta), (x_1, x_2)
_NAME_IN_TUPLE = rf"(?:[A-Za-z]|{_GREEK.pattern})(?:_\{{?\w{{1,3}}\}}?)?"
_LABEL_TUPLE = re.compile(
    rf"(?:\\left\s*)?\(\s*{_NAME_IN_TUPLE}(?:\s*,\s*{_NAME_IN_TUPLE})++\s*(?:\\right\s*)?\)"
)
_ENV = re.compile(r"\\(begin|end)\s*\{[^{}]*\}")
# a value in brackets after the value, offered beside it: "7 (8)", "7 \\text{ (8?)}"
# a value under a condition inside the box's brackets: "7 (8 if inclusive)", "7 (8 when n > 2)"
_CONDITIONAL_VALUE = re.compile(
    r"(-?\d{1,12}+(?:[./]\d{1,12}+)?+)[ \t]++(?:(?:if|when|unless|for|under|with|in[ \t]+case|"
    r"otherwise|assuming|given|counting|including|excluding|incl|excl)\b|w/)",
    re.IGNORECASE,
)
# what makes a bracket after a value a factor, not a value beside it: an operator before it
# ("(x-2) \\cdot (x-3)") or a variable in it ("(x-3)\\,(x-2)")
_FACTOR_AFTER = re.compile(r"(?:[-+*/^×·]|\\(?:cdot|times|div))\s*+$")
# an algebraic factor: single-letter variables, digits and operators, no word ("x-2", "2x+1")
_ALGEBRAIC = re.compile(
    r"(?=[^A-Za-z]*[A-Za-z])(?:[0-9\s+\-*/^.{}()]|(?<![A-Za-z])[A-Za-z](?![A-Za-z]))++"
)
_VALUE_ASIDE = re.compile(
    r"^(.*?\S)(?:\s++|\s*+\\text\s*+\{\s*+)\(\s*+((?:[^()\s]|\s++(?=[^()\s]))*+)\s*+\)\s*+\}?+$"
)


# words in a box, put between values ("7 \\text{ (answer A)}, 8 \\text{ (answer B)}"): a reader
# sees the values apart from the words, as a list; a value that stands alone after a separator
# (a comma, a semicolon, a LaTeX space or a line break) is a second value, not a step of one
_TEXT_GROUP = re.compile(r"\\(?:text\w{0,2}|mbox|mathrm)\s*+\{[^{}]*+\}")
_SECOND_VALUE = re.compile(
    r"(?<![\w.^_{}\\])-?\d++(?:\.\d++)?+(?:[\s,;]|\\(?:quad|qquad|[,;:! ]|\\))++"
    r"(?!\d{3}(?!\d))(-?\d++(?:\.\d++)?+)[\s.]*+(?:$|[,;]|\\(?:quad|qquad|\\))"
)
_ANY_NUMBER = re.compile(r"\d+(?:\.\d+)?")


def _values_apart(answer: str, gold: str) -> bool:
    """Whether a box holds two values or more with words between them, where the gold is one
    number: a list, whatever a parser that drops words after a value reads it as."""
    if "\\" not in answer or len(_ANY_NUMBER.findall(gold)) > 1:
        return False
    return bool(_SECOND_VALUE.search(_TEXT_GROUP.sub(" ", answer)))


_SET_BUILDER = re.compile(r"\\\{\s*[A-Za-z]\s*(?:\\mid|\\vert|\||:)\s*(.+?)\s*\\\}", re.DOTALL)


def _union_of_inequalities(parts: list[str], gold: str) -> bool:
    """``x < -2 \\text{ or } x > 2`` for ``(-\\infty,-2)\\cup(2,\\infty)``: "or" between
    inequalities of one variable (:func:`_inequality_set`) is the union of their sets, not
    answers offered together."""
    from math_verify import parse
    from sympy import Union

    if len(parts) > MAX_DISTINCT_ANSWERS or len(gold) > MAX_ANSWER_CHARS:
        return False
    prepared = [prepare(p) for p in parts]
    if any(len(p) > MAX_ANSWER_CHARS or math_refusal(p) for p in prepared):
        return False  # each part is graded (and refused) on its own
    try:
        gold_parsed = _parse_gold(gold)
        exprs = [parse(f"\\boxed{{{p}}}", parsing_timeout=None) for p in prepared]
        if not gold_parsed or not all(exprs):
            return False
        exprs = [e[0] for e in exprs]
        if len(set().union(*(e.free_symbols for e in exprs))) != 1:
            return False
        sets = [_inequality_set(e) for e in exprs]
        return None not in sets and Union(*sets) == gold_parsed[0]
    except Exception:  # not inequalities sympy can solve
        return False


def _top_level_sides(answer: str) -> list[tuple[str, str]]:
    """The sides of ``answer`` at its top level (outside braces, brackets and environments),
    each with the relation before it (``""`` for the first)."""
    text = answer.strip()
    if text.startswith("{") and text.endswith("}"):
        depth = 0
        for i, ch in enumerate(text):
            depth += {"{": 1, "}": -1}.get(ch, 0)
            if depth == 0 and i < len(text) - 1:
                break
        else:
            text = text[1:-1]  # "{13 \\atop 12}": braces around the whole answer
    envs = [(m.start(), m.end(), m.group(1)) for m in _ENV.finditer(text)]
    blocked = [False] * (len(text) + 1)
    level = 0
    for start, end, kind in envs:
        if kind == "begin":
            level += 1
        for i in range(start, end):
            blocked[i] = True
        if level:
            for i in range(end, len(text) + 1):
                blocked[i] = True
        if kind == "end":
            level = max(level - 1, 0)
            if not level:
                for i in range(end, len(text) + 1):
                    blocked[i] = False
    sides, op, last, depth = [], "", 0, 0
    for m in _RELATION.finditer(text):
        segment = text[last : m.start()]
        if blocked[m.start()]:
            continue
        depth = sum({"{": 1, "}": -1, "(": 1, ")": -1, "[": 1, "]": -1}.get(c, 0)
                    for c in text[: m.start()])  # fmt: skip
        if depth:
            continue
        sides.append((op, segment.strip()))
        op, last = m.group(), m.end()
    sides.append((op, text[last:].strip()))
    return sides


def _relation_values(prepared: str, gold: str) -> tuple[list[str], list[str]] | None:
    """An answer that relates values (``x = 7 = 8``, ``7 \\approx 8``, ``7 \\\\ 8``) when the
    gold relates none: its exact and its approximate values, labels (``x``, ``f(3)``, the tuple of
    names ``(x, y)``) left out;
    None when it has no relation."""
    if _GOLD_RELATION.search(gold) or len(prepared) > MAX_ANSWER_CHARS:
        return None
    sides = _top_level_sides(prepared)
    if len(sides) < 2 or any(_TOP_COMMA.search(side) for _, side in sides):
        return None  # "x = 2, y = -1": a tuple of labelled values, read by math-verify
    exact, approximate = [], []
    for op, side in sides:
        if not side or _LABEL_SIDE.fullmatch(side) or _LABEL_TUPLE.fullmatch(side):
            continue
        (approximate if op == _APPROX else exact).append(side)
    return exact, approximate


def _rounds_to(approximation: str, gold: str) -> bool:
    """Whether a decimal written as an approximation of the gold agrees with it to within half a
    unit of its last digit (``3.14`` for π: yes; ``3.15``: no)."""
    number = simple_number(approximation)
    if number is None:
        return False
    decimals = len(approximation.split(".")[1]) if "." in approximation else 0
    try:
        parsed = _parse_gold(gold)
        value = complex(parsed[0].evalf(30)) if parsed else None
    except Exception:
        return False
    return value is not None and abs(value - float(number)) <= 0.5 * 10.0**-decimals


def _sole_value(prepared: str, gold: str) -> str:
    """``x = 2`` -> ``2``: the one value of an answer that labels it, else the answer."""
    values = _relation_values(prepared, gold)
    if values is not None and len(values[0]) == 1 and not values[1]:
        return values[0][0]
    return prepared


# "and" between two values (``x = 1 \\text{ and } x = 2``, ``\\land``, ``\\wedge``): a list of them
_CONJUNCTION = re.compile(
    r"\s*+(?:\\text\s*+\{\s*+and\s*+\}|\\(?:land|wedge)(?![a-zA-Z])|(?<![A-Za-z\\])and(?![A-Za-z]))\s*+"
)


_BOUND_OPS = {
    "<": ("<", False),
    ">": (">", False),
    "\\le": ("<", True),
    "\\leq": ("<", True),
    "\\ge": (">", True),
    "\\geq": (">", True),
    "≤": ("<", True),
    "≥": (">", True),
}
_ONE_BOUND = re.compile(
    r"\s*+(?:([a-zA-Z])\s*+(<|>|\\leq?|\\geq?|≤|≥)(?![a-zA-Z])\s*+([^<>≤≥=]{1,40})|"
    r"([^<>≤≥=]{1,40}?)\s*+(<|>|\\leq?|\\geq?|≤|≥)(?![a-zA-Z])\s*+([a-zA-Z]))\s*+"
)


def _joined_bounds(prepared: str) -> str | None:
    """Two bounds of one variable joined by "and" (``x > -2 \\text{ and } x < 8``, ``\\land``)
    as the chain they are (``-2 < x < 8``), else None."""
    parts = _CONJUNCTION.split(prepared)
    if len(parts) != 2:
        return None
    lower, upper, names = None, None, set()
    for part in parts:
        m = _ONE_BOUND.fullmatch(part)
        if m is None:
            return None
        if m.group(1):  # "x > -2": the variable on the left
            name, (op, inclusive), bound = m.group(1), _BOUND_OPS[m.group(2)], m.group(3)
            below = op == ">"
        else:  # "-2 < x": the variable on the right
            name, (op, inclusive), bound = m.group(6), _BOUND_OPS[m.group(5)], m.group(4)
            below = op == "<"
        names.add(name)
        sign = "\\le" if inclusive else "<"
        if below:
            lower = (bound.strip(), sign)
        else:
            upper = (bound.strip(), sign)
    if len(names) != 1 or lower is None or upper is None:
        return None
    return f"{lower[0]} {lower[1]} {names.pop()} {upper[1]} {upper[0]}"


def _grade_relation(values: tuple[list[str], list[str]], gold: str) -> Verdict:
    """Every exact value must be right and every approximation agree with the gold; a value
    that is not is an answer offered beside the right one (``hedged``)."""
    exact, approximate = values
    if not exact:
        return _grade_forms(approximate[-1], gold) if approximate else fail("not_equal")
    if _gold_is_set(gold):
        verdicts = [_grade_forms(", ".join(exact), gold)]
    else:
        verdicts = [_grade_forms(value, gold) for value in exact]
    if len(exact) == 1 and not approximate:
        return verdicts[0]
    if not all(v.correct for v in verdicts):
        return fail("hedged")
    return OK if all(_rounds_to(a, gold) for a in approximate) else fail("hedged")


def _parsed_value(member: str) -> list | None:
    """A member of a chain parsed as the exact value it writes (decimals as fractions), or None
    when it is refused (:mod:`..guards`), too long, not parsed, or a numerator or denominator
    that expands to more than ``MAX_CHAIN_TERMS`` terms (comparing it would cost more than any
    chain a solver writes needs: two fractions of degree 39 took a second)."""
    from math_verify import parse
    from sympy import Expr

    from pac_verl.verifiers.math.form import _terms_estimate

    prepared = prepare(member)
    if not prepared or len(prepared) > MAX_ANSWER_CHARS or math_refusal(prepared):
        return None
    parsed = parse(f"\\boxed{{{exact_decimals(prepared)}}}", parsing_timeout=None)
    if not parsed:
        return None
    if isinstance(parsed[0], Expr):
        numerator, denominator = parsed[0].as_numer_denom()
        if max(_terms_estimate(numerator), _terms_estimate(denominator)) > MAX_CHAIN_TERMS:
            return None
    return parsed


def _chain_last(answer: str, gold: str) -> str | None:
    """The last member of a chain of equalities whose members all have one value
    (``x^2-5x+6 = (x-2)(x-3)``, ``x = \\frac{18}{24} = \\frac{3}{4}``; labels left out), which
    is then graded as the answer; None for anything else: one value, other relations, members
    of different values (``7 = 8``: graded as a relation, a hedge), a gold that is a relation or
    several values, more than ``MAX_DISTINCT_ANSWERS`` members, a member too large to compare
    (:func:`_parsed_value`)."""
    text = clean_answer(answer)
    if "=" not in text or len(text) > MAX_ANSWER_CHARS or _GOLD_RELATION.search(gold):
        return None
    sides = _top_level_sides(text)
    if any(op not in ("", "=") for op, _ in sides) or any(_TOP_COMMA.search(s) for _, s in sides):
        return None
    members = [
        side
        for _, side in sides
        if side and not _LABEL_SIDE.fullmatch(side) and not _LABEL_TUPLE.fullmatch(side)
    ]
    if not 2 <= len(members) <= MAX_DISTINCT_ANSWERS or _gold_is_set(gold):
        return None
    try:
        from math_verify import verify

        last = _parsed_value(members[-1])
        for member in members[:-1]:
            value = _parsed_value(member) if last is not None else None
            if value is None or not verify(last, value, timeout_seconds=None):
                return None
            decimals = any(_DECIMAL_LITERAL.search(m) for m in (member, members[-1]))
            if decimals and not _exactly_equal(last[0], value[0]):
                return None  # math-verify's tolerance took an approximation
    except Exception:  # sympy on hostile input: not a chain this rule reads
        return None
    return members[-1]


# an equation solved for one variable: "y = 2x + 3", "2x + 3 = y"
_SOLVED = re.compile(r"\s*([A-Za-z])\s*=(?!=)([^=]+)|([^=]+)=\s*([A-Za-z])\s*")


def _as_solved_for(answer: str, gold: str) -> str:
    """``f(x) = E`` as ``y = E`` where the gold is an equation solved for ``y`` whose right side
    holds ``x``: the function of ``x`` names the same dependent value."""
    named = _FUNCTION_NAMED.fullmatch(answer.strip())
    solved = named and _SOLVED_FOR.fullmatch(gold.strip())
    if solved and re.search(rf"(?<![A-Za-z\\]){named.group(1)}(?![A-Za-z])", solved.group(2)):
        return f"{solved.group(1)} = {named.group(2)}"
    return answer


# a residue with its modulus after it: "4 \\pmod 7", "4 \\pmod{7}", "4 (mod 7)", "4 \\bmod 7"; the
# remainder where the question asks one, else a class of numbers, no one value
_MODULUS_AFTER = re.compile(
    r"\s*+(-?\d{1,50}+)\s*+(?:\\pmod\s*+\{?\s*+\d{1,50}+\s*+\}?|\\bmod\s*+\{?\s*+\d{1,50}+\s*+\}?|"
    r"\(\s*+(?:\\(?:text|mathrm|operatorname)\s*+\{\s*+)?mod\s*+\}?\s*+\d{1,50}+\s*+\))\s*+"
)


def _explained_number(answer: str) -> str | None:
    """The number of an answer whose bracketed aside is arithmetic of the same value, in symbols
    or words (``144 (12^2)``, ``144 \\text{ (twelve squared)}``): the number, the aside being
    its working; else None."""
    aside = _VALUE_ASIDE.match(clean_answer(answer))
    if not aside or simple_number(aside.group(1)) is None:
        return None
    worked = simple_number(lexicon.numerals(unwrap_text(aside.group(2))))
    return aside.group(1) if worked == simple_number(aside.group(1)) else None


def _solved_form_asked() -> bool:
    """Whether an equation solved for a variable is asked (``solved`` among the question's
    forms: "in slope-intercept form", "in terms of $x$"), or the question's forms are unknown
    (no forms, or a row recorded before they read it): then the gold's form decides. A question
    read that asks no such form takes any equation of the same solutions (``2y = 4x + 2`` for
    ``y = 2x + 1``)."""
    forms = _FORMS.get()
    return not forms or "solved" in forms


def _unsolved(answer: str, gold: str) -> bool:
    """Whether the gold is an equation solved for one variable (``y = 2x + 3``: its form, as
    "in the form y = mx + b" asks) and the answer, an equation, is not solved for it
    (``2x - y + 3 = 0``)."""
    solved = _SOLVED.fullmatch(gold)
    if not solved or "=" not in answer:
        return False
    variable = solved.group(1) or solved.group(4)
    rest = solved.group(2) if solved.group(1) else solved.group(3)
    if re.search(rf"(?<![A-Za-z\\]){variable}(?![A-Za-z])", rest):
        return False  # "x = 2x - 3" is not solved for x
    mine = _SOLVED.fullmatch(answer)
    return not mine or (mine.group(1) or mine.group(4)) != variable


# a mixed number written with a slash: "3 2/5", "3\\ 2/5", "3~2/5"
_SLASH_MIXED = re.compile(r"\s*(-?\d+)(?:\s|\\[ ,;!]|~)++(\d+)\s*/\s*(\d+)\s*")
# a mixed number as it is read aloud: "3 and 2/5", "3 \\text{ and } \\frac{2}{5}"
_AND_MIXED = re.compile(
    r"\s*(-?\d+)\s*+(?:\\text\s*\{\s*and\s*\}|and)\s*+(?:\\[dt]?frac\s*\{(\d+)\}\s*\{(\d+)\}|(\d+)/(\d+))\s*"
)
# an interval in ISO 80000-2 brackets, a bracket turned away from an open end: "]2, 5[" is (2, 5),
# "[2, 5[" is [2, 5); the bounds are separated by a comma or a semicolon
_ISO_INTERVAL = re.compile(
    r"(?:\\left)?([\[\]])([^\[\]();]+?)[,;]([^\[\](),;]+?)(?:\\right)?([\[\]])"
)


def grade_answer(answer: str, gold: str) -> Verdict:
    """One boxed answer against the normalised gold. An answer that offers alternatives
    (``7 (possibly 8)``, ``3 \\text{ or } 4``) is a hedge unless every alternative is right, or the
    gold is several values and the alternatives together are them (``1 \\text{ or } 2`` for the
    roots ``1, 2``)."""
    last = _chain_last(answer, gold)
    if last is not None:  # "\\frac{18}{24} = \\frac{3}{4}": the last member is the answer
        return grade_answer(last, gold)
    if _QUESTION.get() and _copies_question_text(answer, gold):
        return fail("copied_question")
    if (explained := _explained_number(answer)) is not None:
        return grade_answer(explained, gold)
    residue = _MODULUS_AFTER.fullmatch(clean_answer(answer))
    if residue and "remainder" in _FORMS.get() and "mod" not in gold:
        return grade_answer(residue.group(1), gold)  # "4 \\pmod 7": the remainder asked for
    mixed = None if _gold_is_set(gold) else _AND_MIXED.fullmatch(clean_answer(answer))
    if mixed:  # "3 and 2/5" read aloud, where the gold is one value: 3\\frac{2}{5}
        answer = f"{mixed[1]}\\frac{{{mixed[2] or mixed[4]}}}{{{mixed[3] or mixed[5]}}}"
    answer = _as_solved_for(answer, gold)
    if wrong_number_form(fraction_spelling(clean_answer(answer)), gold, _FORMS.get()):
        return fail("unevaluated")
    if _solved_form_asked() and _unsolved(clean_answer(answer), gold):
        return fail("unevaluated")
    if mixed := _SLASH_MIXED.fullmatch(clean_answer(answer)):  # "3\\ 2/5": 3\\frac{2}{5}
        answer = f"{mixed[1]}\\frac{{{mixed[2]}}}{{{mixed[3]}}}"
    iso = _ISO_INTERVAL.fullmatch(clean_answer(answer))
    if iso and (iso[1] == "]" or iso[4] == "["):  # "]2, 5[": the open interval (2, 5)
        left, right = "(" if iso[1] == "]" else "[", ")" if iso[4] == "[" else "]"
        answer = f"{left}{iso[2].strip()}, {iso[3].strip()}{right}"
    prepared = _as_value(prepare(answer), gold)
    if _plain(prepared) == _plain(gold):  # the gold's own words ("odd or even")
        return OK
    if _values_apart(prepared, gold):
        return fail("hedged")  # "7 \\text{ (answer A)}, 8 \\text{ (answer B)}": two values
    if _CONJUNCTION.search(prepared) and (chain := _joined_bounds(prepared)):
        prepared = chain  # "x > -2 \\text{ and } x < 8": -2 < x < 8
    elif _CONJUNCTION.search(prepared) and _gold_is_set(gold):  # the roots, joined by "and"
        prepared = _CONJUNCTION.sub(", ", prepared)
    if hedges(prepared) and not hedges(gold):  # "7 (probably)", "Monday, not sure"
        return fail("hedged")
    if _LEADING_INEQUALITY.match(prepared) and not _LEADING_INEQUALITY.match(gold):
        return fail("not_equal")  # "\\geq 7" is a bound, not the value 7
    builder = _SET_BUILDER.fullmatch(prepared)
    if builder:  # "\\{x \\mid x \\ge 2\\}": the set its condition describes
        prepared = builder.group(1).strip()
    parts = split_alternatives(unwrap_text(prepared)) if has_alternatives(prepared) else [prepared]
    if len(parts) > 1 and _union_of_inequalities(parts, gold):
        return OK
    aside = _VALUE_ASIDE.match(prepared) if len(parts) == 1 else None
    if aside and (_FACTOR_AFTER.search(aside.group(1)) or _ALGEBRAIC.fullmatch(aside.group(2))):
        aside = None  # "(x-3)\\,(x-2)", "(x-2) \\cdot (x-3)": a product of factors, no aside
    if (
        aside
        and _has_words(aside.group(2))
        and lexicon.hedge_after(unwrap_text(aside.group(2)), aside.group(1))
    ):
        return fail("hedged")  # "7 \\text{ (eight if counting from zero)}": read as a tail is
    conditional = aside and _CONDITIONAL_VALUE.match(lexicon.numerals(unwrap_text(aside.group(2))))
    if conditional:
        parts = [aside.group(1), conditional.group(1)]  # "7 (8 if inclusive)": 8 under a condition
    elif aside and "," not in aside.group(2) and not _has_words(aside.group(2)):
        parts = [aside.group(1), aside.group(2)]  # "7 (8)": a second value offered beside 7
    if len(parts) == 1:
        values = _relation_values(prepared, gold)
        return _grade_forms(prepared, gold) if values is None else _grade_relation(values, gold)
    if _gold_is_set(gold):
        return _grade_forms(", ".join(_sole_value(prepare(p), gold) for p in parts), gold)
    if len(parts) > MAX_DISTINCT_ANSWERS:
        return fail("hedged")
    for part in parts:
        if not grade_answer(part, gold).correct:
            return fail("hedged")
    return OK


def answer_key(answer: str) -> str:
    """Two boxes with the same key are the same answer written twice."""
    return _plain(prepare(answer))


def _choice(answer: str) -> tuple[str, str] | None:
    """An answer that starts with a choice label (``(B) 204``, ``\\text{(B) } A``, ``B``): the
    letter and the rest, else None."""
    text = clean_answer(answer)
    match = _ANSWER_CHOICE.match(text)
    return (match.group(1) or match.group(2), text[match.end() :]) if match else None


def _listed_value(answer: str) -> str:
    """A bare choice label (``B``, ``(B)``, ``\\textbf{(B)}``) as the value the question lists
    for it (``\\textbf{(B) } 204`` among its expressions), where the gold is a value; else the
    answer as it is."""
    choice = _choice(answer)
    if choice is None or choice[1].strip():
        return answer
    return _listed_choices().get(choice[0], answer)


def _listed_choices() -> dict[str, str]:
    """The values the question lists for its choice labels (``\\textbf{(B) } 204`` among its
    expressions: ``{"B": "204"}``); empty where the row does not carry them."""
    listed: dict[str, str] = {}
    for expression in _QUESTION.get():
        for m in _QUESTION_CHOICE.finditer(expression):
            value = _CHOICE_JOINER.sub("", m.group(3))
            if value:  # "(A) or (B)": the values were in math delimiters, read apart
                listed.setdefault(m.group(1) or m.group(2), value)
    return listed


# a word that joins the choices, not a choice's value: "(A) $2^{10}$ or (B) $10^3$"
_CHOICE_JOINER = re.compile(r"^[\s,;]*+(?:(?:or|and)\b[\s,;]*+)?+$", re.IGNORECASE)


def _number_in_words(text: str) -> str | None:
    """The whole answer as a whole number written in English words, in digits, else None."""
    words = clean_answer(text).casefold().strip()
    if not _NUMBER_IN_WORDS.fullmatch(words):
        return None
    try:
        return str(text2num(words, "en"))
    except ValueError:  # "nine nine", "twelve ten": words that make no one number
        return None


def _has_words(text: str) -> bool:
    """Whether ``text`` holds letters outside LaTeX commands (words, not only a value)."""
    return bool(_LETTERS.search(_COMMAND.sub("", text)))


def _is_value(text: str) -> bool:
    """Whether ``text`` is a value (a number or an expression), not words (``is correct``)."""
    return bool(re.search(r"\d", text)) and not _has_words(text)


def grade_choice(answer: str, gold: str, letter: str) -> Verdict:
    """An answer against a gold that is a choice label (``B``): graded on its label when it
    gives one (``(B) 204``), and, where the question lists the label's value (:func:`_listed_choices`),
    on the value that follows it too (``(B) 214`` is no (B) listed as 204); a second label or doubt
    after it is a hedge. An answer without a label is graded against the listed value of the gold's
    label (``204``), else as a value (:func:`grade_answer`)."""
    choice = _choice(answer)
    listed = _listed_choices().get(letter)
    if choice is None:
        return grade_answer(answer, listed if listed is not None else gold)
    given, rest = choice
    if has_alternatives(rest) or hedges(rest) or _OTHER_CHOICE.search(rest):
        return fail("hedged")
    bracketed = clean_answer(answer).startswith("(")
    if _ONLY_CHOICES.fullmatch(rest.strip()) or (
        not bracketed and _BARE_CHOICE.fullmatch(rest.strip())
    ):
        return fail("hedged")
    if given != letter:
        return fail("not_equal")
    value = rest.strip(" \t:=~,;")
    if listed is not None and _is_value(value) and not grade_answer(value, listed).correct:
        return fail("not_equal")  # the right label with another value than the question lists
    return OK


def score(
    solution_str: str, ground_truth: str, question: Sequence[str] = (), forms: Sequence[str] = ()
) -> Verdict:
    """One response against the gold; ``question``: the question's own expressions
    (``extra_info["question_expressions"]``), which an answer may not copy; ``forms``: the forms
    its wording asks for (``extra_info["question_forms"]``: ``fraction``, ``decimal``); see
    :mod:`.question`."""
    if not isinstance(ground_truth, str) or not ground_truth.strip():
        return fail("bad_ground_truth")
    token = _QUESTION.set(tuple(str(q) for q in question or ()))
    asked = _FORMS.set(tuple(str(f) for f in forms or ()))
    try:
        return _score(solution_str, ground_truth)
    finally:
        _FORMS.reset(asked)
        _QUESTION.reset(token)


def _score(solution_str: str, ground_truth: str) -> Verdict:
    gold = normalise_gold(ground_truth)
    label = _GOLD_CHOICE.fullmatch(gold)
    if label is not None:  # a multiple-choice gold: the label is the answer

        def choice_key(answer: str) -> str:
            choice = _choice(answer)
            return choice[0] if choice else answer_key(answer)

        return judge_final_answers(
            final_answers(solution_str),
            choice_key,
            lambda answer: grade_choice(answer, gold, label.group(1)),
        )

    def together(answers: list[str]) -> Verdict:  # one root per box, when the gold is several
        return grade_answer(", ".join(_sole_value(prepare(a), gold) for a in answers), gold)

    def one(answer: str) -> Verdict:
        labelled = _choice(answer)
        if gold_label and labelled and labelled[1].strip() and labelled[0] != gold_label:
            return fail("not_equal")  # "(C) 204" where the gold is "(B) 204": another choice
        if scientific and not in_scientific_notation(clean_answer(answer)):
            return fail("unevaluated")  # "0.00045" where scientific notation is asked
        if wrong_unit(answer, _FORMS.get()):
            return fail("not_equal")  # "12 \\text{ m}" where the question asks in centimeters
        return grade_answer(_listed_value(answer), gold)

    gold_choice = _choice(ground_truth)  # a gold of a label and its value: "\textbf{(B) }204"
    gold_label = gold_choice[0] if gold_choice and gold_choice[1].strip() else None
    # the gold's form is read before normalising, which writes 4.5 \times 10^{-4} as 0.00045
    scientific = "scientific" in _FORMS.get() and in_scientific_notation(clean_answer(ground_truth))
    return judge_final_answers(
        final_answers(solution_str),
        answer_key,
        one,
        combine=together if _gold_is_set(gold) else None,
    )

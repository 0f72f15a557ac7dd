"""Math (SPEC 8): DeepScaleR-style extraction graded with math-verify.

Extraction: the boxes after the last ``</think>`` (when present); no box is ``no_boxed``.
Grading one answer: normalised string equality first (cheap and exact), then an exact comparison
when both sides are plain numbers (integers, decimals, ``a/b``, ``\\frac{a}{b}``: no sympy), then
math-verify's ``parse``/``verify`` (the gold's parse cached: a step scores G responses per gold)
on ``\\boxed{answer}`` against ``\\boxed{gold}``. Never ``eval``.

Accepted forms (a careful human grader reads them as the gold):
- a trailing period or comma, ``$``, markdown bold, ``\\textbf{}``/``\\text{}`` around the
  answer, LaTeX and unicode spacing (``\\,`` ``\\;`` ``~`` ``\\ `` thin spaces; ``1\\,000\\,000``);
- unicode operators and symbols (− × · ∗ ÷ ½ √ ° ∞ π), read as their LaTeX (:mod:`.extract`);
- ``\\mathrm{i}`` (and ``\\text{i}``) for the imaginary unit;
- an AMC choice label before the value (``\\textbf{(C)}\\ 204``, ``(C) 204``): the value is
  graded;
- a percent sign, both ways: ``25\\%`` is right for gold ``25`` (the question asked for a
  percentage) and for gold ``0.25``; ``25`` and ``0.25`` are right for gold ``25\\%``;
- what math-verify accepts (equivalent forms, ``x = 3`` for ``3``, units in ``\\text{}``);
- the same answer boxed twice, or two equivalent forms (``\\frac12`` and ``0.5``).

Not accepted, and why:
- several different answers, in several boxes or in one ("3 or 4", ``3 \\text{ or } 4``) when
  the gold is one answer: a hedge (``hedged``), whatever the last box says. "1 or 2" for the gold
  ``1, 2`` (both roots) is the complete answer, not a hedge: math-verify compares the sets;
- a box inside the reasoning (before ``</think>``) is not an answer (DeepScaleR);
- an answer or gold longer than ``MAX_ANSWER_CHARS`` (``too_long``).

Time bounds. math-verify's own timeouts use ``signal.alarm`` and raise off the main thread
(Math-Verify issues #50 and #55), and verl calls reward functions from worker threads, so they are
switched off (``parsing_timeout=None``, ``timeout_seconds=None``). The answer and the gold are
capped at ``MAX_ANSWER_CHARS``, which keeps sympy's work small, and the guards of :mod:`.guards`
settle absurd sizes; what time is left unbounded is bounded by the caller: ``compute_score`` and
``compute_scores`` score in a killable worker of :mod:`.pool`, which is killed at ``timeout_s``
(reason ``timeout``). No alarm interrupts the grading in-process (there was one, on the main
thread): an alarm that lands inside math-verify or sympy can be caught by their broad handlers
(scored ``not_equal``, not ``timeout``) and can leave a parse half done for the grades that follow
in the same process.

Gold answers are normalised: a float with an integral value (AMC's ``3.0``) becomes ``3``.
"""

from __future__ import annotations

import functools
import logging
import re
from fractions import Fraction

from pac_verl.verifiers.extract import (
    clean_answer,
    final_boxes,
    has_alternatives,
    last_boxed,
    unicode_to_latex,
    unwrap_text,
)
from pac_verl.verifiers.verdict import OK, Verdict, fail, judge_final_answers

MAX_ANSWER_CHARS = 300
_FLOAT_INT = re.compile(r"^\s*(-?\d+)\.0*\s*$")
_IMAGINARY = re.compile(r"\\(?:mathrm|text|mathit)\s*\{\s*i\s*\}")
_WHOLE_TEXT = re.compile(r"\\(?:text|textbf|textrm|mathrm|mbox)\s*\{([^{}]*)\}")
_NUMBER_THEN_WORDS = re.compile(r"(.*\d)\s*([A-Za-z][A-Za-z ]*)")
_CHOICE_LABEL = re.compile(r"^(?:\\textbf\s*\{\s*\(?[A-E]\)\s*\}|\([A-E]\))\s*(?=\S)")
_PERCENT = re.compile(r"\s*(?:\\%|%|\\text\s*\{\s*\\?%\s*\}|\\?percent)\s*$")

logging.getLogger("math_verify").setLevel(logging.ERROR)


def normalise_gold(gold: str) -> str:
    gold = gold.strip().strip("$").strip()
    inner = last_boxed(gold)
    if inner is not None:
        gold = inner
    gold = prepare(gold)
    match = _FLOAT_INT.match(gold)
    return match.group(1) if match else gold


_FRAC = re.compile(r"^\\[dt]?frac\{(-?\d+)\}\{(-?\d+)\}$")
_THOUSANDS = re.compile(r"^-?\d{1,3}(?:([, ])\d{3})(?:\1\d{3})*(?:\.\d+)?$")
_SPACED_SLASH = re.compile(r"\s*/\s*")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$|^-?\d+/\d+$")


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


def prepare(answer: str) -> str:
    """A boxed answer in the spelling math-verify reads (see the module docstring).

    A box that is one text wrapper (``\\text{204 minutes}``) is unwrapped, its trailing words
    kept as ``\\text{}`` so that math-verify reads them as a unit."""
    answer = clean_answer(answer, unwrap=False)
    answer = clean_answer(_CHOICE_LABEL.sub("", answer), unwrap=False)
    whole = _WHOLE_TEXT.fullmatch(answer)
    if whole:
        inner = whole.group(1).strip()
        unit = _NUMBER_THEN_WORDS.fullmatch(inner)
        answer = f"{unit.group(1)}\\text{{ {unit.group(2)}}}" if unit else inner
    return _IMAGINARY.sub("i", unicode_to_latex(answer))


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


def _grade(answer: str, gold: str) -> Verdict:
    """One prepared answer against one gold form."""
    if _plain(answer) == _plain(gold):
        return OK
    gold_number, answer_number = simple_number(gold), simple_number(answer)
    if gold_number is not None and answer_number is not None:
        return OK if gold_number == answer_number else fail("not_equal")
    if len(answer) > MAX_ANSWER_CHARS or len(gold) > MAX_ANSWER_CHARS:
        return fail("too_long")
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
        ok = verify(gold_parsed, answer_parsed, timeout_seconds=None)
    except Exception:  # sympy and the parser raise many types on hostile input
        return fail("unparsable")
    return OK if ok else fail("not_equal")


def grade_answer(answer: str, gold: str) -> Verdict:
    """One boxed answer against the normalised gold, percent forms included."""
    prepared = prepare(answer)
    verdict = fail("not_equal")
    for answer_form in _percent_forms(prepared):
        for gold_form in _percent_forms(gold):
            verdict = _grade(answer_form, gold_form)
            if verdict.correct or verdict.reason in ("too_long", "bad_ground_truth"):
                return verdict
    return fail("hedged") if has_alternatives(prepared) else verdict


def answer_key(answer: str) -> str:
    """Two boxes with the same key are the same answer written twice."""
    return _plain(prepare(answer))


def score(solution_str: str, ground_truth: str) -> Verdict:
    if not isinstance(ground_truth, str) or not ground_truth.strip():
        return fail("bad_ground_truth")
    gold = normalise_gold(ground_truth)
    return judge_final_answers(
        final_boxes(solution_str), answer_key, lambda answer: grade_answer(answer, gold)
    )

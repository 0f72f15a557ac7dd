"""Math (SPEC 8): DeepScaleR-style extraction graded with math-verify.

Extraction: the text after the last ``</think>`` (when present), then its last ``\\boxed{}``;
no box is ``no_boxed``. Grading: normalised string equality first (cheap and exact), then
an exact comparison when both sides are plain numbers (integers,
decimals, ``a/b``, ``\\frac{a}{b}``: no sympy), then math-verify's ``parse``/``verify`` (the gold's
parse cached: a step scores G responses per gold) on ``\\boxed{answer}`` against ``\\boxed{gold}``.

Time bounds. math-verify's own timeouts use ``signal.alarm`` and raise off the main thread
(Math-Verify issues #50 and #55), and verl calls reward functions from worker threads, so they are
switched off (``parsing_timeout=None``, ``timeout_seconds=None``). Instead: (1) the answer and the
gold are capped at ``MAX_ANSWER_CHARS``, which keeps sympy's work small; (2) on the main thread
(a ``compute_scores`` pool worker, a plain script) a ``setitimer`` alarm of ``TIMEOUT_SECONDS``
interrupts the grading, which then scores 0 with reason ``timeout``.

Gold answers are normalised: a float with an integral value (AMC's ``3.0``) becomes ``3``.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import re
import signal
import threading
from fractions import Fraction

from pac_verl.verifiers.extract import after_think, last_boxed, tail, unwrap_text
from pac_verl.verifiers.verdict import OK, Verdict, fail

MAX_ANSWER_CHARS = 300
TIMEOUT_SECONDS = 3.0
_FLOAT_INT = re.compile(r"^\s*(-?\d+)\.0*\s*$")

logging.getLogger("math_verify").setLevel(logging.ERROR)


class _Timeout(Exception):
    pass


@contextlib.contextmanager
def _time_limit(seconds: float):
    """An interval-timer alarm on the main thread; a no-op elsewhere (length caps bound work)."""
    if threading.current_thread() is not threading.main_thread() or not hasattr(
        signal, "setitimer"
    ):
        yield
        return

    def _raise(signum, frame):
        raise _Timeout

    previous = signal.signal(signal.SIGALRM, _raise)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def normalise_gold(gold: str) -> str:
    gold = gold.strip().strip("$").strip()
    inner = last_boxed(gold)
    if inner is not None:
        gold = inner
    match = _FLOAT_INT.match(gold)
    return match.group(1) if match else gold


_FRAC = re.compile(r"^\\[dt]?frac\{(-?\d+)\}\{(-?\d+)\}$")
_NUMBER = re.compile(r"^-?\d+(?:\.\d+)?$|^-?\d+/\d+$")


def simple_number(s: str) -> Fraction | None:
    """An integer, decimal, ``a/b`` or ``\\frac{a}{b}`` as an exact Fraction, else None.

    Most answers (AIME, AMC, DAPO) are integers: comparing them exactly skips sympy entirely."""
    s = unwrap_text(s).replace(" ", "").replace(",", "").replace("$", "")
    while s.startswith("(") and s.endswith(")"):
        s = s[1:-1]
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


def score(solution_str: str, ground_truth: str) -> Verdict:
    if not isinstance(ground_truth, str) or not ground_truth.strip():
        return fail("bad_ground_truth")
    answer = last_boxed(after_think(tail(solution_str)))
    if answer is None:
        return fail("no_boxed")
    gold = normalise_gold(ground_truth)
    if _plain(answer) == _plain(gold):
        return OK
    gold_number, answer_number = simple_number(gold), simple_number(answer)
    if gold_number is not None and answer_number is not None:
        return OK if gold_number == answer_number else fail("not_equal")
    if len(answer) > MAX_ANSWER_CHARS or len(gold) > MAX_ANSWER_CHARS:
        return fail("too_long")
    try:
        from math_verify import parse, verify

        with _time_limit(TIMEOUT_SECONDS):
            gold_parsed = _parse_gold(gold)
            if not gold_parsed:
                return fail("bad_ground_truth")
            if answer_number is not None and _clearly_different(gold_parsed[0], answer_number):
                return fail("not_equal")
            answer_parsed = parse(f"\\boxed{{{answer}}}", parsing_timeout=None)
            if not answer_parsed:
                return fail("unparsable")
            ok = verify(gold_parsed, answer_parsed, timeout_seconds=None)
    except _Timeout:
        return fail("timeout")
    except Exception:  # sympy and the parser raise many types on hostile input
        return fail("unparsable")
    return OK if ok else fail("not_equal")

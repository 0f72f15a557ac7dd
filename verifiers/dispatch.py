"""The dispatcher: one response to the scorer of its task type (``score``), and the response that
must score 1 for a row (``gold_solution``). See :mod:`pac_verl.verifiers` for the whole contract;
time bounds are :mod:`.reward`'s, workers :mod:`.pool`'s."""

from __future__ import annotations

import importlib
import logging
from collections.abc import Mapping, Sequence
from typing import Any

from pac_verl.errors import UserError
from pac_verl.verifiers.sandbox import Budget, SandboxSettings
from pac_verl.verifiers.verdict import Verdict, fail

TASK_TYPES = ("countdown", "zebra", "arc", "math", "code", "logic", "toy")
# Scored in the caller's thread: code's work runs in the sandbox process, within a Budget.
IN_CALLER = frozenset({"code"})
# the package that scores a task type, where its name is not the type's
_PACKAGE = {"logic": "knights_knaves"}
_log = logging.getLogger(__name__)
_warned: set[str] = set()


def _scorer(task_type: str):
    return importlib.import_module(f"pac_verl.verifiers.{_PACKAGE.get(task_type, task_type)}").score


def score(
    task_type: str,
    solution_str: str,
    ground_truth: str,
    budget: Budget | None = None,
    sandbox: SandboxSettings | None = None,
    question: Sequence[str] = (),
    forms: Sequence[str] = (),
) -> Verdict:
    """Score one response; never raises. ``question``: what the question offers that an answer
    may not add or copy: math's own expressions (with ``forms``, the forms its wording asks for:
    :func:`.math_question.question_of`), a Zebra puzzle's names (:func:`.zebra.names_of`); the
    other tasks read neither. ``budget`` bounds code's sandbox
    time (the types scored in the caller, ``IN_CALLER``); the others are bounded only by running
    them in a pool worker.
    ``sandbox``: code's sandbox settings (None: the environment's, see :mod:`.sandbox.settings`)."""
    if task_type not in TASK_TYPES:
        if task_type not in _warned:
            _warned.add(str(task_type))
            _log.warning("no verifier for task type %r: scored 0", task_type)
        return fail("unknown_type")
    try:
        if task_type in IN_CALLER:
            scorer = _scorer(task_type)
            verdict = scorer(solution_str, ground_truth, budget=budget, sandbox=sandbox)
        elif task_type == "math" and (question or forms):
            verdict = _scorer(task_type)(
                solution_str, ground_truth, question=tuple(question), forms=tuple(forms)
            )
        elif task_type == "zebra" and question:  # else the scorer's default names
            verdict = _scorer(task_type)(solution_str, ground_truth, question=tuple(question))
        else:
            verdict = _scorer(task_type)(solution_str, ground_truth)
    except UserError:  # the machine cannot run this verifier as configured (sandbox isolation)
        raise
    except MemoryError:  # past the worker's memory cap: a verdict on the answer's content
        return fail("too_complex")  # docs/guides/rewards.md#bounded-grading
    except Exception as err:  # a scorer bug must not kill a training step
        _log.warning("verifier %s raised %s: scored 0", task_type, type(err).__name__)
        return fail("error")
    return verdict


def gold_solution(
    task_type: str, ground_truth: str, extra_info: Mapping[str, Any] | None = None
) -> str | None:
    """A response that must score 1 for this row, or None when the row carries no gold."""
    extra_info = extra_info or {}
    if task_type in ("zebra", "arc", "math"):
        return f"\\boxed{{{ground_truth}}}"
    if task_type == "countdown":
        expr = extra_info.get("solution")
        return f"\\boxed{{{expr}}}" if expr else None
    if task_type == "logic":
        from pac_verl.verifiers.knights_knaves import solution_text

        try:
            return solution_text(ground_truth)
        except (ValueError, KeyError, TypeError):
            return None
    if task_type == "code":
        code = extra_info.get("solution")
        return f"```python\n{code}\n```" if code else None
    if task_type == "toy":
        from pac_verl.verifiers.toy import gold

        return gold(ground_truth)
    return None

"""The result every scorer returns."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pac_verl.verifiers.extract import FinalAnswers


@dataclass(frozen=True, slots=True)
class Verdict:
    """``score`` in [0, 1]; ``reason`` a short machine-readable word (``ok``, ``no_boxed``, ...)."""

    score: float
    reason: str

    @property
    def correct(self) -> bool:
        return self.score >= 1.0


def fail(reason: str) -> Verdict:
    return Verdict(0.0, reason)


OK = Verdict(1.0, "ok")


MAX_DISTINCT_ANSWERS = 8  # boxes read at all (roots, one a box, are graded together as one)
MAX_SEPARATE_ANSWERS = 3  # answers graded one by one: each may cost a grader its whole bound


def judge_final_answers(
    answers: Iterable[str] | FinalAnswers,
    key: Callable[[str], str],
    grade: Callable[[str], Verdict],
    combine: Callable[[list[str]], Verdict | None] | None = None,
) -> Verdict:
    """The hedging rule (docs/concepts/spec.md#rewards), shared by every boxed-answer task.

    ``answers``: the boxes of a response that count (:func:`.extract.final_answers`: the last box
    and those offered alongside it; a cut-off response is ``cut_off``), or a plain list of them.
    ``key(answer)`` is an answer's clean form (equal keys are the same answer written twice),
    ``grade(answer) -> Verdict`` one answer's verdict. One distinct answer: its verdict. Several:
    when the truth is several values (all roots of an equation), ``combine(answers)`` grades them
    together as one answer (it returns None when the truth is one value); else 1 only if every one
    of them is right (two right Countdown expressions, ``\\frac12`` and ``0.5``), otherwise
    ``hedged``, whatever the last one says, so that offering several answers never pays. More than
    ``MAX_DISTINCT_ANSWERS`` distinct answers, or more than ``MAX_SEPARATE_ANSWERS`` that are not
    graded together, is ``hedged`` without grading them, so a response costs at most three
    graders' bounds. No answer is ``no_boxed``.
    """
    if isinstance(answers, FinalAnswers):
        if answers.cut_off:
            return fail("cut_off")
        if answers.hedged:  # the text after the final answer retracts or doubts it
            return fail("hedged")
        answers = answers.answers
    distinct: dict[str, str] = {}
    for answer in answers:
        k = key(answer)
        if k:  # an empty box is the instruction quoted ("put it in \\boxed{}"), not an answer
            distinct.setdefault(k, answer)
    if not distinct:
        return fail("no_boxed")
    if len(distinct) > MAX_DISTINCT_ANSWERS:
        return fail("hedged")
    if len(distinct) == 1:
        return grade(next(iter(distinct.values())))
    if combine is not None:
        together = combine(list(distinct.values()))
        if together is not None:
            return together
    if len(distinct) > MAX_SEPARATE_ANSWERS:
        return fail("hedged")
    for answer in distinct.values():
        if not grade(answer).correct:
            return fail("hedged")
    return OK

"""Zebra puzzles (SPEC 8): the boxed name equals the target (``arnold``).

Accepted: any case; ``\\text{}``, ``\\textbf{}``, ``\\textsc{}``, ``\\underline{}``, ``\\mathrm{}``
and markdown bold or italics around the name; an "Answer:" label before it; quotes and
punctuation around it (``\\boxed{Arnold.}``, ``\\boxed{"Arnold"}``); a parenthetical after it
(``\\boxed{Arnold (House 1)}``); the same name boxed more than once. Not accepted, and why:
- several different names offered together, in several boxes or one (``Arnold or Bob``,
  ``Arnold (possibly Bob)``): a hedge (``hedged``); which boxes count is :mod:`.extract`'s rule;
- a sentence or anything beside the name (``\\boxed{House 1: Arnold}``): the prompt asks for the
  name only, and a box that may hold more than one name cannot be read as one answer;
- a box inside the reasoning (before ``</think>``) is not an answer (see :mod:`.extract`).
"""

from __future__ import annotations

import re

from pac_verl.verifiers.extract import clean_answer, final_answers, has_alternatives
from pac_verl.verifiers.verdict import OK, Verdict, fail, judge_final_answers

_AROUND = " \t\n\"'“”‘’`*_.,;:!?()[]{}"
_PARENTHETICAL = re.compile(r"\s*\([^()]*\)\s*$")


def name_key(answer: str) -> str:
    """The name as a human reads it: wrappers, quotes, punctuation and a parenthetical after it
    (``Arnold (House 1)``) gone, case-folded."""
    text = clean_answer(answer)
    text = _PARENTHETICAL.sub("", text) or text
    return " ".join(text.strip(_AROUND).split()).casefold()


def score(solution_str: str, ground_truth: str) -> Verdict:
    if not isinstance(ground_truth, str) or not name_key(ground_truth):
        return fail("bad_ground_truth")
    gold = name_key(ground_truth)

    def grade(answer: str) -> Verdict:
        if has_alternatives(clean_answer(answer)):  # "Arnold (or Bob)" is a hedge
            return fail("hedged")
        return OK if name_key(answer) == gold else fail("not_equal")

    return judge_final_answers(final_answers(solution_str), name_key, grade)

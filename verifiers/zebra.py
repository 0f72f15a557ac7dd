"""Zebra puzzles: the boxed name equals the target (``arnold``).

Grading rules: docs/concepts/spec.md#rewards; examples: docs/guides/rewards.md.

Accepted: any case; ``\\text{}``, ``\\textbf{}``, ``\\textsc{}``, ``\\underline{}``, ``\\mathrm{}``
and markdown bold or italics around the name; an "Answer:" or "Final answer:" label before it;
quotes and punctuation around it (``\\boxed{Arnold.}``, ``\\boxed{"Arnold"}``); a parenthetical
after it that restates or explains (``\\boxed{Arnold (House 1)}``, ``\\boxed{Arnold (the tea
drinker)}``); the same name boxed more than once. Not accepted, and why:
- several different names offered together, in several boxes or one (``Arnold or Bob``,
  ``Arnold (possibly Bob)``, ``Arnold, maybe Bob``): a hedge (``hedged``); which boxes count is
  :mod:`.extract`'s rule;
- doubt inside the box, in a parenthetical or a trailing clause, whether or not it names another
  candidate (``Arnold (probably)``, ``\\text{Arnold (probably; Bob is also possible)}``,
  ``Arnold, not sure``, ``Arnold?``), or a confidence (``Arnold (60%)``): a hedge (``hedged``;
  the words are :func:`.extract.hedges`'s, in several languages);
- a sentence or anything beside the name (``\\boxed{House 1: Arnold}``): the prompt asks for the
  name only, and a box that may hold more than one name cannot be read as one answer;
- a box inside the reasoning (before ``</think>``) is not an answer (see :mod:`.extract`).

Not caught: a parenthetical that holds only another name, with no word of doubt (``Arnold
(Bob)``), is read as a restatement: without the puzzle's names, which the ground truth does not
carry, it cannot be told from an attribute (``Arnold (Norwegian)``).
"""

from __future__ import annotations

import re

from pac_verl.verifiers.extract import clean_answer, final_answers, has_alternatives, hedges
from pac_verl.verifiers.verdict import OK, Verdict, fail, judge_final_answers

_AROUND = " \t\n\"'“”‘’`*_.,;:!?()[]{}"
_PARENTHETICAL = re.compile(r"\s*\([^()]*\)\s*$")
_PERCENT = re.compile(r"\d\s*\\?%")


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
        text = clean_answer(answer)
        # "Arnold (or Bob)", "Arnold (probably)", "Arnold (60%)": a confidence is doubt
        if has_alternatives(text) or hedges(text) or _PERCENT.search(text):
            return fail("hedged")
        return OK if name_key(answer) == gold else fail("not_equal")

    return judge_final_answers(final_answers(solution_str, kind="name"), name_key, grade)

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
- another of the puzzle's names anywhere in the box, with or without a word of doubt (``Arnold
  (Bob)``, ``Arnold [Bob]``, ``Arnold / Bob``): a hedge (``hedged``). The names are the row's
  (``extra_info["names"]``, which the builders write), else the "unique name" line of the
  question text a row carries (SEC's rows), else the names SEC's generator and ours draw from
  (:func:`names_of`); a bracket naming no other person (``Arnold (Norwegian)``) is read past;
- a box inside the reasoning (before ``</think>``) is not an answer (see :mod:`.extract`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from pac_verl.verifiers.extract import clean_answer, final_answers, has_alternatives, hedges
from pac_verl.verifiers.lexicon import KNOWN_NAMES
from pac_verl.verifiers.verdict import OK, Verdict, fail, judge_final_answers

_AROUND = " \t\n\"'“”‘’`*_.,;:!?()[]{}"
_PARENTHETICAL = re.compile(r"\s*\([^()]*\)\s*$")
_PERCENT = re.compile(r"\d\s*\\?%")
# the puzzle's line of names: " - Each person has a unique name: alice, arnold, bob"
_NAMES_LINE = re.compile(r"\bunique\s+names?\s*:([^\n]{1,2000})", re.I)
_NAME_SEP = re.compile(r",|\band\b")
MAX_NAMES = 12  # the largest puzzles have 6 houses
# the names SEC's puzzles and ours draw from (reasoning-gym 0.1.25's ``Name`` literals): a row
# that lists none of its own is read against these
GENERATOR_NAMES = ("alice", "arnold", "bob", "carol", "david", "emily", "eric", "peter")
_WORD = re.compile(r"[^\W\d_]+")


def puzzle_names(text: str) -> tuple[str, ...]:
    """The names a puzzle's text lists on its "unique name" line, case-folded, in order."""
    found = _NAMES_LINE.search(text) if isinstance(text, str) else None
    if not found:
        return ()
    names = (" ".join(n.strip(_AROUND).split()).casefold() for n in _NAME_SEP.split(found[1]))
    return tuple(n for n in names if n)[:MAX_NAMES]


def names_of(extra_info: Any) -> tuple[str, ...]:
    """A row's names: ``extra_info["names"]`` (what the builders write), else read from the
    question text a row carries (``question``, SEC's rows), else :data:`GENERATOR_NAMES`."""
    info = extra_info if isinstance(extra_info, Mapping) else {}
    given = info.get("names")
    if given is not None and not isinstance(given, str):
        try:
            return tuple(str(n).casefold() for n in list(given)[:MAX_NAMES])
        except TypeError:
            pass
    return puzzle_names(str(info.get("question") or "")) or GENERATOR_NAMES


def _words(text: str) -> str:
    """The letters-only words of ``text``, case-folded, each between spaces (`` arnold bob ``):
    a name is in a text when its words are, in a row."""
    return f" {' '.join(_WORD.findall(text.casefold()))} "


def name_key(answer: str) -> str:
    """The name as a human reads it: wrappers, quotes, punctuation and a parenthetical after it
    (``Arnold (House 1)``) gone, case-folded."""
    text = clean_answer(answer)
    text = _PARENTHETICAL.sub("", text) or text
    return " ".join(text.strip(_AROUND).split()).casefold()


def score(
    solution_str: str, ground_truth: str, question: Sequence[str] = GENERATOR_NAMES
) -> Verdict:
    """``question``: the puzzle's names (:func:`names_of`)."""
    if not isinstance(ground_truth, str) or not name_key(ground_truth):
        return fail("bad_ground_truth")
    gold = name_key(ground_truth)
    names = {_words(n) for n in (*question, gold)} - {"  "}

    def grade(answer: str) -> Verdict:
        text = clean_answer(answer)
        # "Arnold (or Bob)", "Arnold (probably)", "Arnold (60%)": a confidence is doubt
        if has_alternatives(text) or hedges(text) or _PERCENT.search(text):
            return fail("hedged")
        # "Arnold (Bob)", "Arnold / Bob": two of the puzzle's names offered together
        words = _words(text)
        if sum(name in words for name in names) > 1:
            return fail("hedged")
        return OK if name_key(answer) == gold else fail("not_equal")

    token = KNOWN_NAMES.set(tuple(sorted({*question, gold}, key=len, reverse=True)))
    try:  # a name of the puzzle after the answer is a name in any case ("bob fits too")
        answers = final_answers(
            solution_str, kind="name", whole=lambda box: _words(name_key(box)) in names
        )  # a name of the puzzle boxed is an answer, never a step
        return judge_final_answers(answers, name_key, grade)
    finally:
        KNOWN_NAMES.reset(token)

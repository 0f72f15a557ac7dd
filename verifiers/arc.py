"""ARC-1D: the boxed grid equals the target grid (``8 9 4 0 0 0 0 1 6 7``).

Grading rules: docs/concepts/spec.md#rewards; examples: docs/guides/rewards.md.

Accepted: the cells separated by any mix of spaces, commas, LaTeX spacing (``\\ `` ``~`` ``\\,``
``\\quad``), matrix separators (``&``, ``\\\\``) or bars (``8 | 9 | 4``), enclosed in brackets
or parentheses, sized or not (``[8, 9, 4, ...]``, ``[[8 9 4 ...]]``, ``\\left[8, 9, ...\\right]``);
``\\text{}`` wrappers; a trailing period; the same grid boxed twice; a label before the grid:
"Answer:" and "Final answer:" as in every boxed task, and "Output:", "Output grid:", "Test
output:", "The output grid is" (``\\text{Output: } 8 9 4``): the prompt asks for the output grid,
and a human reads the word as the label of the one grid that follows, not as a second answer.
Not accepted, and why:
- cells run together (``894``): a human cannot tell ``8 9 4`` from ``89 4`` (a cell written with
  leading zeros, ``08``, is the cell 8);
- brackets around some cells only (``8 9 (4)``): a cell set apart is no grid (doubt or a note);
- any other word in the box (``Input: 8 9 4``, ``8 9 4 shifted``): the prompt asks for the grid
  itself;
- several different grids offered together, in several boxes or one joined by "or", or doubt
  inside the box (``8 9 4 (probably)``, :func:`.extract.hedges`): a hedge (``hedged``); which
  boxes count is :mod:`.extract`'s rule.
"""

from __future__ import annotations

import re

from pac_verl.verifiers import lexicon
from pac_verl.verifiers.extract import clean_answer, final_answers, has_alternatives, hedges
from pac_verl.verifiers.verdict import OK, Verdict, fail, judge_final_answers

_SEPARATORS = re.compile(
    r"\\\\|[\[\](),;&|]|\\(?:left|right|[bB]igg?[lr]?|vert|mid)(?![a-zA-Z])|"
    r"\\begin\{[a-z]*matrix\}|\\end\{[a-z]*matrix\}"
)
_GRID = re.compile(r"^-?\d+(?: -?\d+)*$")
# brackets around the whole grid (``[8, 9]``, ``[[8 9]]``, ``\\left[ ... \\right]``) are read past;
# a bracket anywhere else sets cells apart, which no grid does
_EDGE_BRACKETS = re.compile(
    r"^(?:\s*+(?:\\left|\\[bB]igg?l?)?+\s*+[\[(])+|"
    r"(?:\s*+(?:\\right|\\[bB]igg?r?)?+\s*+[\])])+\s*$"
)
_INNER_BRACKET = re.compile(r"[()\[\]]")
# "Output:", "Output grid:", "Test output:", "The output grid is": the label of the grid
_OUTPUT_LABEL = re.compile(
    r"^[*_]*(?:the\s+)?(?:final\s+|test\s+)?output(?:\s+grid)?(?:\s+is\b\s*:?|\s*:)[*_]*\s*",
    re.IGNORECASE,
)


def grid_key(answer: str) -> str:
    """The cells joined by single spaces, or the cleaned text when it is not a grid."""
    text = clean_answer(answer)
    text = clean_answer(_OUTPUT_LABEL.sub("", text, count=1))
    if _INNER_BRACKET.search(_EDGE_BRACKETS.sub("", text)):  # "8 9 (4)": one cell singled out
        return text
    cells = " ".join(_SEPARATORS.sub(" ", text).split())
    return " ".join(map(lexicon.plain_cell, cells.split())) if _GRID.match(cells) else text


def score(solution_str: str, ground_truth: str) -> Verdict:
    if not isinstance(ground_truth, str) or not _GRID.match(grid_key(ground_truth)):
        return fail("bad_ground_truth")
    gold = grid_key(ground_truth)

    def grade(answer: str) -> Verdict:
        key = grid_key(answer)
        if key == gold:
            return OK
        offered = has_alternatives(key) or lexicon.GRID_ALTERNATIVE.search(key)
        return fail("hedged" if offered or hedges(key) else "not_equal")

    cells = len(gold.split())
    answers = final_answers(  # a grid of the answer's size boxed is an answer, never a step
        solution_str, kind="grid", whole=lambda box: _is_grid(grid_key(box), cells)
    )
    return judge_final_answers(answers, grid_key, grade)


def _is_grid(key: str, cells: int) -> bool:
    return bool(_GRID.match(key)) and len(key.split()) == cells

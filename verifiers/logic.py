"""Knights and Knaves (SPEC 8): every person's stated role must match the target.

Ground truth (the K&K dataset's fields): ``{"names": ["Grace", ...], "solution": [false, ...]}``
with ``true`` = knight. The answer region is the last ``<answer>...</answer>`` if present, else the
text after ``</think>``, else the whole response. For each name, every statement
``<Name> is a knight|knave`` (any case; also ``(1) Grace is a knave`` list lines, and
``<Name>: knight``) in that region is collected: exactly one distinct role must be stated.
No statement is ``missing_person``, both roles is ``contradictory``, a wrong role is ``not_equal``.
"""

from __future__ import annotations

import json
import re

from pac_verl.verifiers.extract import answer_region, tail
from pac_verl.verifiers.verdict import OK, Verdict, fail


def parse_truth(ground_truth: str) -> dict[str, bool]:
    truth = json.loads(ground_truth)
    names, solution = truth["names"], truth["solution"]
    if len(names) != len(solution) or not names:
        raise ValueError("names and solution differ in length")
    return {str(n): bool(s) for n, s in zip(names, solution, strict=True)}


def stated_roles(text: str, name: str) -> set[bool]:
    pattern = re.compile(
        rf"\b{re.escape(name)}\b\s*(?:is\s+(?:a\s+|an\s+)?|:\s*|-\s*|=\s*)(knight|knave)s?\b",
        re.IGNORECASE,
    )
    return {m.group(1).lower() == "knight" for m in pattern.finditer(text)}


def score(solution_str: str, ground_truth: str) -> Verdict:
    try:
        truth = parse_truth(ground_truth)
    except (ValueError, KeyError, TypeError):
        return fail("bad_ground_truth")
    region = answer_region(tail(solution_str))
    wrong = False
    for name, is_knight in truth.items():
        roles = stated_roles(region, name)
        if not roles:
            return fail("missing_person")
        if len(roles) > 1:
            return fail("contradictory")
        wrong |= roles != {is_knight}
    return fail("not_equal") if wrong else OK


def solution_text(ground_truth: str) -> str:
    """The paper's answer form: ``(1) Grace is a knave`` one line per person."""
    truth = parse_truth(ground_truth)
    return "\n".join(
        f"({i}) {name} is a {'knight' if k else 'knave'}"
        for i, (name, k) in enumerate(truth.items(), 1)
    )

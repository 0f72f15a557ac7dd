"""Exact-answer scoring for Zebra and ARC (SPEC 8): the last boxed answer equals the target after
whitespace and case normalisation (LaTeX ``\\text{}`` wrappers and ``$`` are removed too)."""

from __future__ import annotations

from pac_verl.verifiers.extract import last_boxed, normalise_words, tail
from pac_verl.verifiers.verdict import OK, Verdict, fail


def score_exact(solution_str: str, ground_truth: str) -> Verdict:
    if not isinstance(ground_truth, str) or not ground_truth.strip():
        return fail("bad_ground_truth")
    boxed = last_boxed(tail(solution_str))
    if boxed is None:
        return fail("no_boxed")
    return OK if normalise_words(boxed) == normalise_words(ground_truth) else fail("not_equal")

"""Knights and Knaves (task type ``logic``): the final statement of roles names every person's role
(docs/guides/rewards.md#per-task-what-is-accepted).

:mod:`.grade` finds the final statement and judges it."""

from pac_verl.verifiers.knights_knaves.grade import parse_truth, score, solution_text

__all__ = ["parse_truth", "score", "solution_text"]

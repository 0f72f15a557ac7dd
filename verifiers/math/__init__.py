"""Math: boxed answers graded with math-verify, after the form rules (docs/guides/rewards.md#math-a-value-not-a-computation).

:mod:`.grade` scores a response (extraction, forms, the value); :mod:`.form` says what counts as
an operation (a value, not a computation); :mod:`.question` reads the question's own expressions
and the form its wording asks for."""

from pac_verl.verifiers.math.grade import (
    MAX_ANSWER_CHARS,
    answer_key,
    grade_answer,
    normalise_gold,
    prepare,
    score,
    simple_number,
)

__all__ = [
    "MAX_ANSWER_CHARS",
    "answer_key",
    "grade_answer",
    "normalise_gold",
    "prepare",
    "score",
    "simple_number",
]

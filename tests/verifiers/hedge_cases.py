"""Responses and golds the hedge tests share (tests/verifiers/test_hedges*.py). Each gold is
checked by hand in its comment."""

import json

from pac_verl.verifiers import score

# target 48 from [3, 9, 4]: (9 + 3) * 4 = 48
CD48 = json.dumps({"target": 48, "numbers": [3, 9, 4]})


GRID = "3 3 0 0 5 0 0 0"


# Zebra: Peter/Arnold; K&K: Mia knight, Noah knave, Lily knight
MNL = json.dumps({"names": ["Mia", "Noah", "Lily"], "solution": [True, False, True]})
MNL_BLOCK = "<answer>\nMia: knight\nNoah: knave\nLily: knight\n</answer>"
CD30 = json.dumps({"numbers": [21, 95, 8, 2, 26, 2], "target": 30})
CD_RIGHT = "\\boxed{(9 + 3) \\times 4}"
ARC3 = "8 9 4"


# n = 7 from 2n + 1 = 15; Countdown 46 from [25, 3, 7, 2]: 25*2 - 7 + 3 = 50 - 7 + 3 = 46
N7 = "We have 2n + 1 = 15, so 2n = 14 and n = 7.\n\n"
CD46 = json.dumps({"numbers": [25, 3, 7, 2], "target": 46})
CD46_BOX = "Try 25*2 = 50. 50 - 7 = 43, 43 + 3 = 46.\n\n\\boxed{25*2-7+3}"
ARC10 = "0 0 8 9 4 0 0 1 6 7"
TEA = "From clue 3, the tea drinker is in House 1, and clue 5 says Arnold drinks tea.\n\n"


ZEBRA_BOX = TEA + "\\boxed{Arnold}"
ARC_BOX = f"Each block moves two cells.\n\n\\boxed{{{ARC10}}}"


def right_answers_then(after: str) -> list[tuple[str, str, str]]:
    """A right answer of every text task with ``after`` written after it: (task, response,
    gold) triples, for the rules that hold in every task."""
    return [
        ("math", f"{N7}\\boxed{{7}}\n\n{after}", "7"),
        ("zebra", f"{ZEBRA_BOX}\n\n{after}", "Arnold"),
        ("arc", f"{ARC_BOX}\n\n{after}", ARC10),
        ("countdown", f"{CD46_BOX}\n\n{after}", CD46),
        ("logic", f"{MNL_BLOCK}\n\n{after}", MNL),
    ]


def reasons_after(after: str) -> dict[str, str]:
    """Each text task's verdict reason for a right answer with ``after`` written after it."""
    return {task: score(task, r, gold).reason for task, r, gold in right_answers_then(after)}


ARC_SHIFTED = "0 0 0 8 9 4 0 0 1 6"  # the answer moved one cell further: not the answer
# a right answer of each boxed task: the response, its gold, the answer as a tail names it, and
# another candidate of its type that is wrong
RIGHT = {
    "math": (f"{N7}\\boxed{{7}}", "7", "7", "8"),
    "zebra": (ZEBRA_BOX, "Arnold", "Arnold", "Bob"),
    "arc": (ARC_BOX, ARC10, ARC10, ARC_SHIFTED),
    "countdown": (CD46_BOX, CD46, "25*2-7+3", "25*2-7-3"),
}


def reason(task: str, template: str, other: str | None = None) -> str:
    """The verdict reason for ``task``'s right answer followed by ``template``, its ``{answer}``
    and ``{other}`` filled from :data:`RIGHT` (``other`` replaces the wrong candidate)."""
    response, gold, answer, wrong = RIGHT[task]
    after = template.format(answer=answer, other=other or wrong)
    return score(task, f"{response}\n\n{after}", gold).reason

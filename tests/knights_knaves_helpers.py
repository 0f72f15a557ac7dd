"""Knights and Knaves rows and responses shared by the verifier tests (the phrasings, commitment
and cut-off rules). Each truth is written out by hand; the rules: docs/guides/rewards.md."""

import json


def truth(names: list[str], solution: list[bool]) -> str:
    """A K&K ground truth (``True`` = knight)."""
    return json.dumps({"names": names, "solution": solution})


def block(text: str) -> str:
    """``text`` as the answer block the prompt asks for."""
    return f"<answer>{text}</answer>"


def role(knight: bool) -> str:
    return "knight" if knight else "knave"


# six people: Grace and Lily knaves, the others knights
KK = truth(
    ["Grace", "Penelope", "Mia", "Noah", "Matthew", "Lily"], [False, True, True, True, True, False]
)
KK_LIST = """(1) Grace is a knave
(2) Penelope is a knight
(3) Mia is a knight
(4) Noah is a knight
(5) Matthew is a knight
(6) Lily is a knave"""
ROLES = [("Grace", False), ("Penelope", True), ("Mia", True), ("Noah", True), ("Matthew", True),
         ("Lily", False)]  # fmt: skip
# the same roles with Grace and Lily swapped to knights: a wrong final answer
KK_WRONG = KK_LIST.replace("Grace is a knave", "Grace is a knight").replace(
    "Lily is a knave", "Lily is a knight"
)
FOUR = ["Ava", "Leo", "Mia", "Noah"]
KNAVES = truth(FOUR, [False] * 4)
KNIGHTS = truth(FOUR, [True] * 4)
ONE_KNIGHT = truth(FOUR, [True, False, False, False])
TWO = ["Samuel", "Mia"]
SK_MK = truth(TWO, [True, False])  # Samuel knight, Mia knave
BOTH = truth(TWO, [True, True])
RIGHT = "Samuel is a knight, Mia is a knave"  # SK_MK's answer
SWAP = "Samuel is a knave, Mia is a knight"  # SK_MK's roles swapped: wrong

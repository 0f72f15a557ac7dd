"""Offline Knights-and-Knaves generator (the logic arm of the multi-domain setting).

Knights always tell the truth, knaves always lie. Each person makes one statement about others;
every assignment of roles is checked by brute force and only puzzles with exactly one consistent
assignment are kept. Seeded and deterministic. Training: 3/4/5 people, validation: 6 people.
Ground truth is the K&K dataset's form ``{"names": [...], "solution": [bool, ...]}``.
"""

from __future__ import annotations

import itertools
import random

from pac_verl.data_prep.rows import make_row

NAMES = [
    "Grace",
    "Zoey",
    "Jack",
    "Mia",
    "Liam",
    "Emma",
    "Noah",
    "Ava",
    "Owen",
    "Lily",
    "Ethan",
    "Chloe",
    "Lucas",
    "Ella",
    "Henry",
    "Aria",
    "Samuel",
    "Nora",
    "Leo",
    "Ruby",
]


def _statement(rng: random.Random, speaker: int, n: int):
    """One statement as (kind, a, b); its truth under roles r is given by ``holds``."""
    others = [i for i in range(n) if i != speaker]
    kind = rng.choice(["knight", "knave", "same", "diff", "and", "or"])
    a = rng.choice(others)
    b = rng.choice([i for i in range(n) if i != a])
    return (kind, a, b)


def holds(stmt, roles) -> bool:
    kind, a, b = stmt
    return {
        "knight": lambda: roles[a],
        "knave": lambda: not roles[a],
        "same": lambda: roles[a] == roles[b],
        "diff": lambda: roles[a] != roles[b],
        "and": lambda: roles[a] and roles[b],
        "or": lambda: roles[a] or roles[b],
    }[kind]()


def text(stmt, names) -> str:
    kind, a, b = stmt
    A, B = names[a], names[b]
    return {
        "knight": f"{A} is a knight",
        "knave": f"{A} is a knave",
        "same": f"{A} and {B} are the same type",
        "diff": f"{A} and {B} are different types",
        "and": f"{A} is a knight and {B} is a knight",
        "or": f"{A} is a knight or {B} is a knight",
    }[kind]


def solutions(statements, n: int) -> list[tuple[bool, ...]]:
    """All role assignments where each knight's statement is true and each knave's false."""
    return [
        roles
        for roles in itertools.product((True, False), repeat=n)
        if all(holds(s, roles) == roles[i] for i, s in enumerate(statements))
    ]


def generate(n: int, rng: random.Random) -> dict:
    while True:
        names = rng.sample(NAMES, n)
        statements = [_statement(rng, i, n) for i in range(n)]
        sols = solutions(statements, n)
        if len(sols) == 1:
            quiz = (
                f"A very special island is inhabited only by knights and knaves. Knights always "
                f"tell the truth, and knaves always lie. You meet {n} inhabitants: "
                + ", ".join(names[:-1])
                + f", and {names[-1]}. "
                + " ".join(
                    f'{names[i]} says, "{text(s, names)}."' for i, s in enumerate(statements)
                )
            )
            return {"quiz": quiz, "names": names, "solution": list(sols[0])}


def prompt(quiz: str, names) -> str:
    """The paper's question (appendix "Prompt Examples"), then where the final answer goes.

    The paper shows the question only; Logic-RL and DUMP ask for the roles inside ``<answer>``
    tags, one numbered line per person. This wording asks for the same, so that the verifier
    (``pac_verl.verifiers.knights_knaves``) grades the final statement and not the hypotheses tested on the
    way there. The example lines name the people but no role: an example role could bias the
    answer, and a ``knight/knave`` placeholder invites copying a hedge. (A deliberate difference
    from the appendix, listed in docs/guides/data.md.)"""
    example = "\n".join(f"({i}) {nm} is a ..." for i, nm in enumerate(names, 1))
    task = (
        f"{quiz} So who is a knight and who is a knave?\n\nReason step by step; you may test a "
        "guess and drop it. When you are done, write your final answer once, inside <answer> "
        "</answer> tags: one line per person, in the order they were introduced, each line naming "
        f"a single role (knight or knave):\n<answer>\n{example}\n</answer>"
    )
    return task


def build(people: int, count: int, split: str, seed: int) -> list[dict]:
    """``count`` unique-solution puzzles with ``people`` people as rows of the schema
    (docs/concepts/spec.md#rows-on-disk)."""
    rng = random.Random(f"kk-{seed}-{people}-{split}")
    source = "kk" if split == "train" else f"kk{people}"
    rows = []
    for index in range(count):
        p = generate(people, rng)
        rows.append(
            make_row(
                data_source=source,
                prompt=prompt(p["quiz"], p["names"]),
                task_type="logic",
                ground_truth={"names": p["names"], "solution": p["solution"]},
                split=split,
                index=index,
                people=people,
            )
        )
    return rows

"""A fast Zebra-puzzle generator in the manner of SEC's puzzles (houses x attributes).

reasoning-gym's generator (the one SEC's released puzzles come from) checks uniqueness with a SAT
solver after every clue it removes and manages about 3 puzzles per second at 5x5; the 30,000
training puzzles of the multi-level setting need thousands per second. This one keeps, per
attribute value, the set of houses it can still be in (a bitmask) and adds true clues one at a
time, propagating each into the domains (the clue's own filter plus the all-different rule of
every attribute) until every value is pinned to one house. A puzzle that propagation alone
solves has exactly one solution, so no search is ever run. Finally clues that are implied by the
others are dropped (one pass, each re-checked from scratch), which keeps puzzles close to minimal.

What it shares with SEC's puzzles (``combined/test_zebra.parquet`` of SEC's release, measured):

- **attributes**: the name plus ``k - 1`` categories drawn per puzzle from the same ten
  (color, nationality, animal, drink, cigar, lunch, flower, phone, child, smoothie), so a level
  has many attribute sets (SEC's 200 validation puzzles per level hold 44, 92, 120 and 140);
  each category's values are its first ``n`` in the order SEC's generator takes them (so the
  names of a 3-house puzzle are alice, arnold and bob), with the same phrases, taken from
  reasoning-gym 0.1.25's literals (``Category``), but for its two typos, fixed here
  (:data:`TYPOS`): "the person who loves the boquet of" iris, lilies and orchid, and "the person
  who loves the spaghetti eater" (SEC's released puzzles keep both);
- **clue kinds**: the four SEC's puzzles use: ``X is in the k-th house``, ``X is Y`` (same house),
  ``X is directly left of Y``, ``X and Y are next to each other``, in about the same shares
  (3x3 to 6x6, in that order: 0.32-0.18, 0.47-0.56, 0.18, 0.04-0.08 here; 0.26-0.13, 0.48-0.63,
  0.18-0.16, 0.08 in SEC's);
- **size**: about as many clues per puzzle (5.0, 9.8, 16.0, 23.6 at 3x3 .. 6x6; SEC's: 5.0, 9.6,
  15.4, 22.8) and as many attribute sets per 200 puzzles (43, 99, 130, 136);
- **the question**: the name of the person in House 1.

What still differs: SEC's clue sets are minimal under full search (a puzzle may need case
analysis), these are minimal only under propagation (every step is a forced deduction); the
intro sentence and the question are the paper's appendix wording (``prompts.zebra``), not
reasoning-gym's ("There are 3 houses (numbered 1 on the left, 3 on the right) ...").
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

# reasoning-gym's literal classes for the ten categories SEC's puzzles draw from (after the name)
_CATEGORY_CLASSES = ("Color", "Nationality", "Animal", "Drink", "Cigar", "Food", "Flower",
                     "PhoneModel", "Children", "Smoothie")  # fmt: skip
MAX_SIZE = 6


@dataclass(frozen=True)
class Category:
    """One attribute: its intro line, its values (in SEC's order) and how clues name them."""

    intro: str  # "Each person has a unique name"
    values: tuple[str, ...]  # "alice", "arnold", ...
    phrases: tuple[str, ...]  # "Alice", "the person who loves blue", ...


# reasoning-gym 0.1.25's misspelt phrases, as it writes them, and what puzzles say instead: the
# flower is "the bouquet of iris" as the appendix's example typesets it; the lunch is eaten, the
# person does not love someone who eats it
TYPOS = (
    ("boquet", "bouquet"),
    ("the person who loves the spaghetti eater", "the spaghetti eater"),
)


def fix_typos(text: str) -> str:
    """``text`` with reasoning-gym's misspelt Zebra phrases (:data:`TYPOS`) corrected, at the
    start of a sentence too. Also what makes SEC's puzzles, which keep them, compare equal to ours
    (:func:`pac_verl.data_prep.overlap.puzzle_key`)."""
    for wrong, right in TYPOS:
        text = text.replace(wrong, right).replace(wrong.capitalize(), right.capitalize())
    return text


def _category(cls) -> Category:
    members = sorted(cls.__members__.values())  # SEC's generator takes the first n in this order
    intro = cls.description().split(":", 1)[0]
    return Category(intro, tuple(m.name.replace("_", " ") for m in members),
                    tuple(fix_typos(m.value) for m in members))  # fmt: skip


@functools.cache
def categories() -> tuple[Category, ...]:
    """The name, then the ten other categories (reasoning-gym 0.1.25's literals)."""
    from reasoning_gym.logic.contrib.logic_puzzle import literals

    return tuple(_category(getattr(literals, name)) for name in ("Name", *_CATEGORY_CLASSES))


@dataclass(frozen=True)
class Clue:
    kind: str  # at | same | left_of | next_to
    a: tuple[int, int]  # (attribute, value)
    b: tuple[int, int] | int  # (attribute, value), or a house index for at


def _phrase(cat: Category, value: int, start: bool) -> str:
    text = cat.phrases[value]
    return text[0].upper() + text[1:] if start else text


def clue_text(clue: Clue, cats: tuple[Category, ...] | None = None) -> str:
    """The clue in words; attributes index ``cats`` (default: all eleven categories in order)."""
    cats = cats if cats is not None else categories()
    x = _phrase(cats[clue.a[0]], clue.a[1], start=True)
    if clue.kind == "at":
        return f"{x} is in the {_ordinal(clue.b + 1)} house."
    y = _phrase(cats[clue.b[0]], clue.b[1], start=False)
    return {
        "same": f"{x} is {y}.",
        "left_of": f"{x} is directly left of {y}.",
        "next_to": f"{x} and {y} are next to each other.",
    }[clue.kind]


def _ordinal(k: int) -> str:
    return {1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth"}[k]


class Domains:
    """``dom[a][v]``: bitmask of houses where value v of attribute a can still be."""

    def __init__(self, n: int, k: int) -> None:
        self.n, self.k = n, k
        full = (1 << n) - 1
        self.dom = [[full] * n for _ in range(k)]

    def copy(self) -> Domains:
        other = Domains.__new__(Domains)
        other.n, other.k, other.dom = self.n, self.k, [row[:] for row in self.dom]
        return other

    def solved(self) -> bool:
        return all(d & (d - 1) == 0 for row in self.dom for d in row)

    def propagate(self, clues: list[Clue]) -> bool:
        """Shrink domains to a fixed point; False if a domain empties (contradiction)."""
        return self.propagate_compiled([compile_clue(c) for c in clues])

    def narrows(self, clue: tuple) -> bool:
        """Whether ``clue`` alone shrinks the domains (no change made). At a fixed point of the
        other clues, a clue that does not narrow them leaves that fixed point unchanged."""
        return _apply(clue, self.dom, (1 << self.n) - 1) is not None

    def propagate_compiled(self, clues: list[tuple]) -> bool:
        dom, full = self.dom, (1 << self.n) - 1
        changed = True
        while changed:
            changed = False
            for clue in clues:
                new = _apply(clue, dom, full)
                if new is not None:
                    kind, a1, v1, a2, v2 = clue
                    dom[a1][v1] = new[0]
                    if kind >= SAME:
                        dom[a2][v2] = new[1]
                    changed = True
            for row in dom:  # all-different within each attribute, on bitmasks
                pinned = 0  # houses already taken by a value pinned to one house
                for d in row:
                    if d == 0 or (d & (d - 1) == 0 and pinned & d):
                        return False
                    if d & (d - 1) == 0:
                        pinned |= d
                once = twice = 0
                for v, d in enumerate(row):
                    if d & (d - 1) and d & pinned:  # naked single: drop taken houses
                        d = row[v] = d & ~pinned
                        changed = True
                        if d == 0:
                            return False
                    twice |= once & d
                    once |= d
                if once != full:  # a house no value can take
                    return False
                singles = once & ~twice  # hidden single: a house only one value can take
                if singles:
                    for v, d in enumerate(row):
                        h = d & singles
                        if h and h != d:
                            if h & (h - 1):
                                return False
                            row[v] = h
                            changed = True
        return True


AT, SAME, LEFT_OF, NEXT_TO = range(4)
_KIND = {"at": AT, "same": SAME, "left_of": LEFT_OF, "next_to": NEXT_TO}
# Draw weights of the clue kinds, set so that the kept clues come out in about the shares of
# SEC's puzzles (same house 0.5-0.6, in the k-th house 0.15-0.25, directly left 0.17, next to 0.08).
KIND_WEIGHTS = {"at": 1.0, "same": 6.0, "left_of": 1.5, "next_to": 2.0}


def compile_clue(clue: Clue) -> tuple[int, int, int, int, int]:
    """``(kind, a1, v1, a2, v2)``, or ``(kind, a1, v1, house, 0)`` for at."""
    if isinstance(clue.b, int):
        return (_KIND[clue.kind], clue.a[0], clue.a[1], clue.b, 0)
    return (_KIND[clue.kind], clue.a[0], clue.a[1], clue.b[0], clue.b[1])


def _apply(clue: tuple, dom: list[list[int]], full: int) -> tuple[int, int] | None:
    """The clue's filter on the current domains: the new (d1, d2), or None if nothing changes."""
    kind, a1, v1, x, v2 = clue
    d1 = dom[a1][v1]
    if kind == AT:
        new1 = d1 & (1 << x)
        return None if new1 == d1 else (new1, 0)
    d2 = dom[x][v2]
    if kind == SAME:
        new1 = new2 = d1 & d2
    elif kind == LEFT_OF:  # pos1 + 1 == pos2
        new1, new2 = d1 & (d2 >> 1), d2 & ((d1 << 1) & full)
    else:  # next_to
        new1 = d1 & ((d2 >> 1) | (d2 << 1)) & full
        new2 = d2 & ((d1 >> 1) | (d1 << 1)) & full
    return None if new1 == d1 and new2 == d2 else (new1, new2)


def _random_true_clue(rng: random.Random, pos: list[list[int]], n: int, k: int) -> Clue:
    """A clue that holds in the solution ``pos[attribute][value] = house``."""
    a1, v1 = rng.randrange(k), rng.randrange(n)
    p1 = pos[a1][v1]
    kind = rng.choices(list(KIND_WEIGHTS), weights=list(KIND_WEIGHTS.values()))[0]
    if kind == "at":
        return Clue("at", (a1, v1), p1)
    a2 = rng.choice([a for a in range(k) if a != a1]) if kind == "same" else rng.randrange(k)
    house = {"same": p1, "left_of": p1 + 1, "next_to": p1 + rng.choice((-1, 1))}[kind]
    if not 0 <= house < n:
        return Clue("at", (a1, v1), p1)
    v2 = pos[a2].index(house)
    if (a2, v2) == (a1, v1):
        return Clue("at", (a1, v1), p1)
    return Clue(kind, (a1, v1), (a2, v2))


@dataclass(frozen=True)
class Puzzle:
    text: str
    answer: str  # the name of the person in house 1
    key: str  # canonical: the attribute sets, the solution grid and the sorted clue texts
    clues: tuple[Clue, ...]  # (attribute of the puzzle, value index in its category)
    solution: tuple[tuple[int, ...], ...]  # solution[house][attribute] = value index
    categories: tuple[Category, ...]  # the puzzle's attributes, the name first


def generate(rng: random.Random, n: int, k: int) -> Puzzle:
    """One puzzle of ``n`` houses and ``k`` attributes with exactly one solution."""
    if not (2 <= n <= MAX_SIZE and 2 <= k <= MAX_SIZE):
        raise ValueError(f"zebra sizes: 2..{MAX_SIZE} houses, 2..{MAX_SIZE} attributes")
    every = categories()
    cats = (every[0], *rng.sample(every[1:], k - 1))  # the name and k - 1 others
    pos = [rng.sample(range(n), n) for _ in range(k)]  # pos[a][value] = house
    clues: list[Clue] = []
    compiled: list[tuple] = []
    dom = Domains(n, k)
    while not dom.solved():
        clue = _random_true_clue(rng, pos, n, k)
        c = compile_clue(clue)
        if dom.narrows(c):  # else the domains are already a fixed point with it: useless
            dom.propagate_compiled([c, *compiled])
            clues.append(clue)
            compiled.append(c)
    order = list(range(len(clues)))
    rng.shuffle(order)
    clues, compiled = [clues[i] for i in order], [compiled[i] for i in order]
    kept = list(range(len(clues)))
    for i in range(len(clues)):  # drop clues the others imply
        trial = [j for j in kept if j != i]
        d = Domains(n, k)
        if d.propagate_compiled([compiled[j] for j in trial]) and d.solved():
            kept = trial
    kept_clues = tuple(clues[j] for j in kept)
    listed = []
    for cat in cats:  # each category's values, listed in a shuffled order (as SEC's are)
        values = list(cat.values[:n])
        rng.shuffle(values)
        listed.append(values)
    body = puzzle_text(n, cats, listed, kept_clues)
    text_clues = [clue_text(c, cats) for c in kept_clues]
    answer = cats[0].values[pos[0].index(0)]
    solution = tuple(tuple(pos[a].index(h) for a in range(k)) for h in range(n))
    key = f"zebra:{n}x{k}:{[c.intro for c in cats]}:{solution}:{sorted(text_clues)}"
    return Puzzle(body, answer, key, kept_clues, solution, cats)


def puzzle_text(
    n: int, cats: tuple[Category, ...], listed: list[list[str]], clues: tuple[Clue, ...]
) -> str:
    """The puzzle as SEC's release lays it out (the appendix's example is one): the houses, one
    line per attribute listing ``listed[a]`` (its values in the order shown), then the numbered
    clues (attributes index ``cats``)."""
    lines = [
        f" - {cat.intro}: {', '.join(values)}." for cat, values in zip(cats, listed, strict=True)
    ]
    return (
        f"This is a logic puzzle. There are {n} houses, numbered 1 on the left to {n} on the right, "
        "from the perspective of someone standing across the street from them. Each house has a "
        "different person, and each person has different characteristics:\n"
        + "\n".join(lines)
        + "\n\n"
        + "\n".join(f"{i}. {clue_text(c, cats)}" for i, c in enumerate(clues, 1))
    )

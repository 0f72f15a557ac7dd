"""A fast Zebra-puzzle generator (houses x attributes, the paper's phrasing).

reasoning-gym's generator checks uniqueness by full search after every clue and manages about 3
puzzles per second at 5x5; the 30,000 training puzzles of the multi-level setting need thousands
per second. This one keeps, per attribute value, the set of houses it can still be in (a bitmask)
and adds true clues one at a time, propagating each into the domains (the clue's own filter plus
the all-different rule of every attribute) until every value is pinned to one house. A puzzle that
propagation alone solves has exactly one solution, so no search is ever run. Finally clues that
are implied by the others are dropped (one pass, each re-checked from scratch), which keeps
puzzles close to minimal.

Clue kinds (as in the paper's example): ``X is in the k-th house``, ``X is not in the k-th house``,
``X is Y`` (same house), ``X is directly left of Y``, ``X and Y are next to each other``,
``X is somewhere to the left of Y``. The question is the name of the person in House 1.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

# (intro line, values, the phrase a clue uses for each value, key). The phrases are the appendix
# example's ("the Desert smoothie lover", "the person who loves a carnations arrangement", ...);
# values the example does not show take the phrases of the generator it comes from (reasoning-gym's
# zebra puzzles), with that generator's typos fixed ("boquet", "loves the spaghetti eater").
ATTRIBUTES: list[tuple[str, list[str], dict[str, str], str]] = [
    ("Each person has a unique name: {values}.",
     ["arnold", "alice", "bob", "carol", "eric", "peter"], {}, "name"),
    ("Everyone has a favorite smoothie: {values}.",
     ["butterscotch", "desert", "darkness", "dragonfruit", "lemon", "watermelon"],
     {"butterscotch": "the Butterscotch smoothie drinker", "desert": "the Desert smoothie lover",
      "darkness": "the Darkness smoothie drinker", "dragonfruit": "the Dragonfruit smoothie lover",
      "lemon": "the Lemon smoothie lover", "watermelon": "the Watermelon smoothie lover"},
     "smoothie"),
    ("They all have a different favorite flower: {values}.",
     ["iris", "daffodils", "lilies", "carnations", "roses", "tulips"],
     {"iris": "the person who loves the bouquet of iris",
      "daffodils": "the person who loves a bouquet of daffodils",
      "lilies": "the person who loves the bouquet of lilies",
      "carnations": "the person who loves a carnations arrangement",
      "roses": "the person who loves the rose bouquet",
      "tulips": "the person who loves the vase of tulips"},
     "flower"),
    ("Everyone has something different for lunch: {values}.",
     ["grilled cheese", "stir fry", "pizza", "soup", "spaghetti", "stew"],
     {"grilled cheese": "the person who loves eating grilled cheese",
      "stir fry": "the person who loves stir fry", "pizza": "the person who is a pizza lover",
      "soup": "the person who loves the soup", "spaghetti": "the spaghetti eater",
      "stew": "the person who loves the stew"},
     "lunch"),
    ("People use different phone models: {values}.",
     ["iPhone 13", "Google Pixel 6", "Samsung Galaxy S21", "OnePlus 9", "Sony Xperia 5",
      "Huawei P50"],
     {"iPhone 13": "the person who uses an iPhone 13",
      "Google Pixel 6": "the person who uses a Google Pixel 6",
      "Samsung Galaxy S21": "the person who uses a Samsung Galaxy S21",
      "OnePlus 9": "the person who uses a OnePlus 9",
      "Sony Xperia 5": "the person who uses a Sony Xperia 5",
      "Huawei P50": "the person who uses a Huawei P50"},
     "phone"),
    ("Each person has a favorite color: {values}.",
     ["red", "blue", "green", "yellow", "purple", "white"],
     {"red": "the person whose favorite color is red", "blue": "the person who loves blue",
      "green": "the person whose favorite color is green", "yellow": "the person who loves yellow",
      "purple": "the person who loves purple", "white": "the person who loves white"},
     "color"),
]  # fmt: skip


@dataclass(frozen=True)
class Clue:
    kind: str  # at | not_at | same | left_of | next_to | somewhere_left
    a: tuple[int, int]  # (attribute, value)
    b: tuple[int, int] | int  # (attribute, value), or a house index for at / not_at


def _phrase(attr: int, value: int, start: bool) -> str:
    v = ATTRIBUTES[attr][1][value]
    text = v.title() if attr == 0 else ATTRIBUTES[attr][2][v]
    return text[0].upper() + text[1:] if start else text


def clue_text(clue: Clue) -> str:
    x = _phrase(*clue.a, start=True)
    if clue.kind == "at":
        return f"{x} is in the {_ordinal(clue.b + 1)} house."
    if clue.kind == "not_at":
        return f"{x} is not in the {_ordinal(clue.b + 1)} house."
    y = _phrase(*clue.b, start=False)
    return {
        "same": f"{x} is {y}.",
        "left_of": f"{x} is directly left of {y}.",
        "next_to": f"{x} and {y} are next to each other.",
        "somewhere_left": f"{x} is somewhere to the left of {y}.",
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


AT, NOT_AT, SAME, LEFT_OF, NEXT_TO, SOMEWHERE_LEFT = range(6)
_KIND = {"at": AT, "not_at": NOT_AT, "same": SAME, "left_of": LEFT_OF, "next_to": NEXT_TO,
         "somewhere_left": SOMEWHERE_LEFT}  # fmt: skip


def compile_clue(clue: Clue) -> tuple[int, int, int, int, int]:
    """``(kind, a1, v1, a2, v2)``, or ``(kind, a1, v1, house, 0)`` for at / not_at."""
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
    if kind == NOT_AT:
        new1 = d1 & ~(1 << x)
        return None if new1 == d1 else (new1, 0)
    d2 = dom[x][v2]
    if kind == SAME:
        new1 = new2 = d1 & d2
    elif kind == LEFT_OF:  # pos1 + 1 == pos2
        new1, new2 = d1 & (d2 >> 1), d2 & ((d1 << 1) & full)
    elif kind == NEXT_TO:
        new1 = d1 & ((d2 >> 1) | (d2 << 1)) & full
        new2 = d2 & ((d1 >> 1) | (d1 << 1)) & full
    else:  # somewhere_left: pos1 < pos2
        low1 = d1 & -d1
        high2 = 1 << (d2.bit_length() - 1) if d2 else 0
        new1 = d1 & (high2 - 1)
        new2 = d2 & ~((low1 << 1) - 1) & full
    return None if new1 == d1 and new2 == d2 else (new1, new2)


def _random_true_clue(rng: random.Random, pos: list[list[int]], n: int, k: int) -> Clue:
    a1, v1 = rng.randrange(k), rng.randrange(n)
    p1 = pos[a1][v1]
    kind = rng.choices(["at", "not_at", "same", "left_of", "next_to", "somewhere_left"],
                       weights=[1, 1, 4, 3, 2, 1])[0]  # fmt: skip
    if kind == "at":
        return Clue("at", (a1, v1), p1)
    if kind == "not_at":
        return Clue("not_at", (a1, v1), rng.choice([h for h in range(n) if h != p1]))
    a2 = rng.choice([a for a in range(k) if a != a1]) if kind == "same" else rng.randrange(k)
    house = {"same": p1, "left_of": p1 + 1, "next_to": p1 + rng.choice((-1, 1))}.get(kind)
    if kind == "somewhere_left":
        if p1 == n - 1:
            return Clue("at", (a1, v1), p1)
        house = rng.randrange(p1 + 1, n)
    if house is None or not 0 <= house < n:
        return Clue("at", (a1, v1), p1)
    v2 = pos[a2].index(house)
    if (a2, v2) == (a1, v1):
        return Clue("at", (a1, v1), p1)
    return Clue(kind, (a1, v1), (a2, v2))


@dataclass(frozen=True)
class Puzzle:
    text: str
    answer: str  # the name of the person in house 1
    key: str  # canonical: the solution grid and the sorted clue texts
    clues: tuple[Clue, ...]  # with concrete values: (attribute, index into ATTRIBUTES[a][1])
    solution: tuple[tuple[int, ...], ...]  # solution[house][attribute] = value index


def generate(rng: random.Random, n: int, k: int) -> Puzzle:
    """One puzzle of ``n`` houses and ``k`` attributes with exactly one solution."""
    if not (2 <= n <= 6 and 2 <= k <= len(ATTRIBUTES)):
        raise ValueError("zebra sizes: 2..6 houses, 2..6 attributes")
    values = [rng.sample(range(len(ATTRIBUTES[a][1])), n) for a in range(k)]
    pos = [rng.sample(range(n), n) for _ in range(k)]  # pos[a][value slot] = house
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
    kept = [_concrete(clues[j], values) for j in kept]
    text_clues = [clue_text(c) for c in kept]
    body = puzzle_text(n, values, kept)
    answer = ATTRIBUTES[0][1][values[0][pos[0].index(0)]]
    solution = tuple(tuple(values[a][pos[a].index(h)] for a in range(k)) for h in range(n))
    key = f"zebra:{n}x{k}:{solution}:{sorted(text_clues)}"
    return Puzzle(body, answer, key, tuple(kept), solution)


def puzzle_text(n: int, values: list[list[int]], clues: list[Clue]) -> str:
    """The puzzle as the appendix shows it: houses, one line per attribute listing its values (in
    the order of ``values[a]``, indices into ``ATTRIBUTES[a][1]``), then the numbered clues (with
    concrete values)."""
    lines = []
    for a, chosen in enumerate(values):
        names = [ATTRIBUTES[a][1][v] for v in chosen]
        lines.append(" - " + ATTRIBUTES[a][0].format(values=", ".join(names)))
    return (
        f"This is a logic puzzle. There are {n} houses, numbered 1 on the left to {n} on the right, "
        "from the perspective of someone standing across the street from them. Each house has a "
        "different person, and each person has different characteristics:\n"
        + "\n".join(lines)
        + "\n\n"
        + "\n".join(f"{i}. {clue_text(c)}" for i, c in enumerate(clues, 1))
    )


def _concrete(clue: Clue, values: list[list[int]]) -> Clue:
    def sub(av):
        return (av[0], values[av[0]][av[1]])

    return Clue(clue.kind, sub(clue.a), clue.b if isinstance(clue.b, int) else sub(clue.b))

"""The Zebra generator: every puzzle has exactly one solution (checked by brute force, independent
of the generator's propagation), its answer is the name in house 1, and it is built as SEC's
puzzles are: the name plus other categories drawn per puzzle, each category's first
n values, SEC's four clue kinds and phrases."""

import itertools
import random

import pytest

from pac_verl.data_prep.zebra import Clue, categories, clue_text, generate


def holds(clue: Clue, house_of: dict) -> bool:
    p1 = house_of[clue.a]
    if clue.kind == "at":
        return p1 == clue.b
    p2 = house_of[clue.b]
    return {"same": p1 == p2, "left_of": p1 + 1 == p2, "next_to": abs(p1 - p2) == 1}[clue.kind]


def all_solutions(puzzle, n, k):
    found = []
    for perms in itertools.product(itertools.permutations(range(n)), repeat=k):
        house_of = {(a, v): perms[a][v] for a in range(k) for v in range(n)}
        if all(holds(c, house_of) for c in puzzle.clues):
            found.append(perms)
    return found


@pytest.mark.parametrize(("n", "k", "count"), [(3, 3, 40), (4, 3, 10)])
def test_every_puzzle_has_exactly_one_solution_and_the_right_answer(n, k, count):
    rng = random.Random(7)
    for _ in range(count):
        puzzle = generate(rng, n, k)
        found = all_solutions(puzzle, n, k)
        assert len(found) == 1
        house1_name = found[0][0].index(0)  # the name value whose house is 0
        assert puzzle.answer == puzzle.categories[0].values[house1_name]
        assert puzzle.solution[0][0] == house1_name


def test_names_and_values_are_each_categorys_first_n_as_in_secs_puzzles():
    puzzle = generate(random.Random(1), 3, 3)
    assert puzzle.answer in ("alice", "arnold", "bob")
    names = puzzle.text.split("unique name: ")[1].split(".")[0].split(", ")
    assert sorted(names) == ["alice", "arnold", "bob"]
    assert {c.kind for c in puzzle.clues} <= {"at", "same", "left_of", "next_to"}
    sets = {tuple(c.intro for c in generate(random.Random(s), 3, 3).categories) for s in range(30)}
    assert len(sets) > 5 and all(s[0] == "Each person has a unique name" for s in sets)


def test_clue_phrasing_matches_the_papers_example():
    index = {c.intro.split()[-1]: i for i, c in enumerate(categories())}
    name, flower, food, smoothie = (index[w] for w in ("name", "flower", "lunch", "smoothie"))
    assert clue_text(Clue("same", (name, 2), (food, 2))) == "Bob is the person who loves stir fry."
    assert clue_text(Clue("left_of", (smoothie, 1), (smoothie, 2))) == (
        "The Darkness smoothie drinker is directly left of the Desert smoothie lover."
    )
    assert clue_text(Clue("next_to", (flower, 1), (flower, 0))) == (
        "The person who loves a carnations arrangement and the person who loves a bouquet of "
        "daffodils are next to each other."
    )
    assert clue_text(Clue("at", (name, 1), 2)) == "Arnold is in the third house."


def test_same_seed_same_puzzle_and_sizes_are_checked():
    assert generate(random.Random(3), 5, 5) == generate(random.Random(3), 5, 5)
    with pytest.raises(ValueError):
        generate(random.Random(0), 7, 7)

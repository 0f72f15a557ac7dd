"""The Zebra generator: every puzzle has exactly one solution (checked by brute force, independent
of the generator's propagation) and its answer is the name in house 1."""

import itertools
import random

import pytest

from pac_verl.data_prep.zebra import Clue, clue_text, generate


def holds(clue: Clue, house_of: dict) -> bool:
    p1 = house_of[clue.a]
    if clue.kind == "at":
        return p1 == clue.b
    if clue.kind == "not_at":
        return p1 != clue.b
    p2 = house_of[clue.b]
    return {
        "same": p1 == p2,
        "left_of": p1 + 1 == p2,
        "next_to": abs(p1 - p2) == 1,
        "somewhere_left": p1 < p2,
    }[clue.kind]


def all_solutions(puzzle, n, k):
    values = [sorted({row[a] for row in puzzle.solution}) for a in range(k)]
    found = []
    for perms in itertools.product(itertools.permutations(range(n)), repeat=k):
        house_of = {(a, values[a][i]): perms[a][i] for a in range(k) for i in range(n)}
        if all(holds(c, house_of) for c in puzzle.clues):
            found.append(perms)
    return found, values


@pytest.mark.parametrize(("n", "k", "count"), [(3, 3, 40), (4, 3, 10)])
def test_every_puzzle_has_exactly_one_solution_and_the_right_answer(n, k, count):
    rng = random.Random(7)
    for _ in range(count):
        puzzle = generate(rng, n, k)
        found, values = all_solutions(puzzle, n, k)
        assert len(found) == 1
        names = values[0]
        house1_name = names[found[0][0].index(0)]
        assert puzzle.answer == ["arnold", "alice", "bob", "carol", "eric", "peter"][house1_name]
        assert puzzle.solution[0][0] == house1_name


def test_clue_phrasing_matches_the_papers_example():
    # appendix "Zebra Prompt", clues 1 and 5 (the whole example: tests/test_prompt_texts.py)
    assert clue_text(Clue("same", (0, 2), (3, 1))) == "Bob is the person who loves stir fry."
    assert clue_text(Clue("left_of", (1, 2), (1, 1))) == (
        "The Darkness smoothie drinker is directly left of the Desert smoothie lover."
    )
    assert clue_text(Clue("at", (0, 0), 2)) == "Arnold is in the third house."


def test_same_seed_same_puzzle_and_sizes_are_checked():
    assert generate(random.Random(3), 5, 5) == generate(random.Random(3), 5, 5)
    with pytest.raises(ValueError):
        generate(random.Random(0), 7, 7)

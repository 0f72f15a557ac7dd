"""A program's control-flow exceptions never steer the tests: a
StopIteration (or a subclass) raised by a program call inside ``map``/``filter``/a generator in
the checker would end that iteration early, as if every remaining case held (``all(map(f,
cases))`` is True on an empty rest). The checker raises it as a RuntimeError, as PEP 479 does for
a generator. Verdicts by hand: f(x) must be x * 10 + 1."""

import json

import pytest

from pac_verl.verifiers import code as code_scorer
from pac_verl.verifiers.sandbox import Limits

LIMITS = Limits(wall_seconds=6.0, cpu_seconds=3, memory_mb=512)
CASES = "cases = [(3, 31), (5, 51), (7, 71)]\n"
TESTS = {
    "all(map(lambda))": CASES + "assert all(map(lambda c: f(c[0]) == c[1], cases))",
    "all(generator)": CASES + "assert all(f(x) == y for x, y in cases)",
    "list(map) ==": "assert list(map(f, [3, 5, 7])) == [31, 51, 71]",
    "filter": CASES + "assert not list(filter(lambda c: f(c[0]) != c[1], cases))",
}
# right on the first case (so a value came back), then stops the iteration
STOPPERS = {
    "StopIteration": "def f(x):\n    if x == 3:\n        return 31\n    raise StopIteration",
    "a subclass": "class Done(StopIteration):\n    pass\n\ndef f(x):\n"
    "    if x == 3:\n        return 31\n    raise Done()",
    "StopAsyncIteration": "def f(x):\n    if x == 3:\n        return 31\n"
    "    raise StopAsyncIteration",
}


def score(src: str, tests: str) -> str:
    truth = json.dumps({"functional": tests})
    return code_scorer.score(f"```python\n{src}\n```", truth, limits=LIMITS).reason


@pytest.mark.parametrize("stopper", sorted(STOPPERS))
@pytest.mark.parametrize("shape", sorted(TESTS))
def test_a_stopiteration_from_the_program_fails_the_test(shape, stopper):
    assert score(STOPPERS[stopper], TESTS[shape]) != "ok"


@pytest.mark.parametrize("shape", sorted(TESTS))
def test_the_right_program_still_passes(shape):
    assert score("def f(x):\n    return x * 10 + 1", TESTS[shape]) == "ok"

"""Load never turns a correct answer into 0.

No timing asserts: "waits behind" is read from the order in which calls return. An endless program
needs its whole CPU budget (1 s here) before its call can return; a Zebra answer needs a fork and
a string comparison. So when any correct answer returns after an endless program's call, it waited
for it. The pool starts its workers off the loop's default executor, where the code answers
can hold every thread (a reward actor's default executor has few threads; two here).
"""

import asyncio
import json
from concurrent.futures import ThreadPoolExecutor

import pytest

from pac_verl.verifiers import compute_score_async
from pac_verl.verifiers.pool import ScoringPool
from pac_verl.verifiers.reward import NO_VERDICT, close_executors

HANG_WAIT_S = 120  # far beyond every bound here: only a hang gets there
ADD = json.dumps({"functional": "assert add(2, 3) == 5"})
RIGHT = "def add(a, b):\n    return a + b\n"
SPIN = "```python\nwhile True:\n    pass\n" + RIGHT + "```"
ZEBRA = [("\\boxed{Arnold}", "arnold"), ("The answer is \\boxed{ Bob }", "bob"),
         ("<think>x</think> \\boxed{Carol}", "carol"), ("\\boxed{Eric}", "eric")] * 2  # fmt: skip
# a gold is not guarded (it is the row's data): sympy builds 10^999999999 while parsing it
HANG = ("math", "\\boxed{1}", "10^{999999999}")


@pytest.fixture
def fresh(monkeypatch):
    """A fresh pool and code executor, and sandbox programs that get 1 s of CPU."""
    monkeypatch.setenv("PAC_SANDBOX_CPU_SECONDS", "1")
    close_executors()
    yield
    close_executors()


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_correct_answers_never_wait_behind_endless_programs(fresh):
    order = []

    async def call(kind, response, truth):
        out = await compute_score_async("s", response, truth, {"type": kind}, workers=2)
        order.append(kind)
        return out

    async def main():
        asyncio.get_running_loop().set_default_executor(ThreadPoolExecutor(2))
        # the pool's zygote and the sandbox's one-time machine check, before the race
        warm = [call("zebra", *ZEBRA[0]), call("code", f"```python\n{RIGHT}```", ADD)]
        assert [o["score"] for o in await asyncio.gather(*warm)] == [1.0, 1.0]
        order.clear()
        spins = [call("code", SPIN, ADD) for _ in range(4)]  # first in, as in a verl batch
        right = [call("zebra", r, t) for r, t in ZEBRA]
        return await asyncio.wait_for(asyncio.gather(*spins, *right), HANG_WAIT_S)

    outs = asyncio.run(main())
    spins, right = outs[:4], outs[4:]
    assert [(o["score"], o["scored"], o["reason"]) for o in right] == [(1.0, 1.0, "ok")] * 8
    # the endless programs have a verdict: too slow, and 0 is right
    assert [(o["score"], o["scored"], o["reason"]) for o in spins] == [(0.0, 1.0, "timeout")] * 4
    assert order == ["zebra"] * 8 + ["code"] * 4  # no correct answer waited for the code


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_a_flood_of_one_type_does_not_starve_another_in_the_pool():
    pool = ScoringPool(workers=1)
    order = []

    async def call(task_type, response, truth, cpu_s):
        verdict = await pool.score_async(task_type, response, truth, HANG_WAIT_S, cpu_s=cpu_s)
        order.append(task_type)
        return verdict

    async def main():
        assert (await call("zebra", *ZEBRA[0], 60)).reason == "ok"  # the zygote, started
        order.clear()
        hangs = [asyncio.ensure_future(call(*HANG, 1.0)) for _ in range(4)]
        await asyncio.sleep(0)  # the four are queued before the Zebra answer arrives
        zebra = call("zebra", *ZEBRA[1], 60)
        return await asyncio.wait_for(asyncio.gather(*hangs, zebra), HANG_WAIT_S)

    try:
        verdicts = asyncio.run(main())
    finally:
        pool.close()
    assert [v.reason for v in verdicts] == ["too_complex"] * 4 + ["ok"]
    # one worker: the first hang holds it, then the Zebra answer's type has its turn
    assert order == ["math", "zebra", "math", "math", "math"]


def test_a_call_without_a_verdict_is_marked_unscored_and_a_slow_program_is_not():
    from pac_verl.verifiers.reward import _result
    from pac_verl.verifiers.verdict import fail

    for reason in ("overloaded", "grader_timeout", "worker_crashed", "missing_library"):
        out = _result(fail(reason), 0.1, 0.0, None)
        assert reason in NO_VERDICT and (out["score"], out["scored"]) == (0.0, 0.0)
    for reason in ("timeout", "not_equal", "no_boxed", "too_large", "too_complex", "hedged"):
        assert _result(fail(reason), 0.0, 0.0, None)["scored"] == 1.0
    assert _result(fail("not_equal"), 0.1, 0.0, None)["score"] == 0.1  # the format bonus

"""Bounded time, whatever the input (docs/concepts/spec.md#rewards).

The hostile answers below hang for minutes in a naive verifier, even on the main thread,
because sympy's and ``Fraction``'s big-integer work holds the GIL. Each call here runs in a thread,
as verl's reward loop runs a sync reward function, and the test waits for it far longer than the
bound: a call that has not returned by then has hung.
"""

import json
import os
import threading

import pytest

from pac_verl.verifiers import compute_score

CD = json.dumps({"target": 35, "numbers": [3, 4, 5]})  # (3 + 4) * 5 = 35
HANG_WAIT_S = 120  # far beyond the 10 s bound: only a hang gets here

HOSTILE = [
    ("math", "\\boxed{10^{999999999}}", "5"),  # huge power
    ("math", "\\boxed{9^{9^{9^{9}}}}", "5"),  # power tower
    ("math", "\\boxed{10!!!!}", "5"),  # stacked factorials: math-verify reads (((10!)!)!)!
    ("math", "\\boxed{(10^{10})!}", "5"),  # huge factorial
    ("math", "\\boxed{\\binom{10^{9}}{5 \\cdot 10^{8}}}", "5"),  # huge binomial
    ("math", "<think>x</think> so \\boxed{2^{2^{2^{2^{2}}}}}", "5"),  # 2^65536: 19,729 digits
    ("countdown", "\\boxed{(3+4)*5 = 1e999999999}", CD),  # Fraction on the right-hand side
    ("countdown", "\\boxed{(3+4)*5 = 1e-999999999}", CD),
]


def call_in_thread(*args, **kwargs):
    out = {}
    thread = threading.Thread(
        target=lambda: out.update(r=compute_score(*args, **kwargs)), daemon=True
    )
    thread.start()
    thread.join(HANG_WAIT_S)
    assert not thread.is_alive(), f"compute_score hung on {args[1]!r}"
    return out["r"]


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
@pytest.mark.parametrize(("task", "response", "truth"), HOSTILE)
def test_hostile_answers_return_zero_in_a_thread(task, response, truth):
    result = call_in_thread("src", response, truth, {"type": task})
    assert result["score"] == 0.0 and result["acc"] == 0.0


# ----- the pool alone: a grader that never finishes -----

# the answers are guarded; a gold is not (it is the row's data): sympy builds 10^999999999 while
# parsing it, for minutes with the GIL held
HANG = ("math", "\\boxed{1}", "10^{999999999}")


@pytest.fixture
def pool():
    from pac_verl.verifiers.pool import ScoringPool

    p = ScoringPool(workers=2)
    yield p
    p.close()


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().split(")")[-1].split()[0] != "Z"  # a zombie is gone
    except FileNotFoundError:
        return False


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_a_grader_past_its_cpu_bound_is_killed_with_a_verdict_and_replaced(pool):
    assert pool.score("math", "\\boxed{\\frac{2}{4}}", "0.5", 60).reason == "ok"  # warm
    first = set(pool.worker_pids())
    verdict = pool.score(*HANG, timeout_s=HANG_WAIT_S, cpu_s=1.0)
    assert (verdict.score, verdict.reason) == (0.0, "too_complex")  # its content, not the clock
    assert (pool.stats.too_complex, pool.stats.timeouts) == (1, 0)
    assert not any(alive(pid) for pid in first - set(pool.worker_pids()))  # killed, reaped
    assert pool.score("math", "\\boxed{\\sqrt{3}}", "3^{1/2}", 60).reason == "ok"  # replaced


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_a_grader_starved_of_cpu_until_the_deadline_has_no_verdict(pool):
    """A stopped worker uses no CPU, as one on a machine too busy to run it: the wall deadline
    ends the call with ``grader_timeout`` (the machine's fault), and the worker is replaced."""
    import signal

    assert pool.score("zebra", "\\boxed{Arnold}", "arnold", 60).reason == "ok"  # warm
    (pid,) = pool.worker_pids()
    os.kill(pid, signal.SIGSTOP)
    verdict = pool.score("zebra", "\\boxed{Arnold}", "arnold", timeout_s=1.0, cpu_s=1.0)
    assert (verdict.score, verdict.reason) == (0.0, "grader_timeout")
    assert (pool.stats.timeouts, pool.stats.too_complex) == (1, 0)
    assert not alive(pid)
    assert pool.score("zebra", "\\boxed{Arnold}", "arnold", 60).reason == "ok"


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_a_slow_call_does_not_delay_the_others(pool):
    slow = {}
    thread = threading.Thread(
        target=lambda: slow.update(v=pool.score(*HANG, timeout_s=600, cpu_s=600))
    )
    thread.start()
    ordinary = [
        ("math", "\\boxed{204}", "204", "ok"),
        ("math", "\\boxed{\\dfrac{\\sqrt{3}}{2}}", "\\frac{\\sqrt{3}}{2}", "ok"),
        ("math", "\\boxed{205}", "204", "not_equal"),
        ("countdown", "\\boxed{(3+4)*5}", CD, "ok"),
        ("countdown", "\\boxed{3*4+5}", CD, "not_equal"),  # 17
        ("zebra", "\\boxed{Arnold}", "arnold", "ok"),
    ] * 3
    got = [pool.score(t, s, g, 60).reason for t, s, g, _ in ordinary]
    assert got == [r for *_, r in ordinary]
    assert thread.is_alive()  # all answered while the hang still held its worker
    pool.close()  # kills the busy worker: the slow call returns at once
    thread.join(HANG_WAIT_S)
    assert slow["v"].score == 0.0


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_async_calls_share_the_deadline_and_a_cancelled_call_kills_its_worker(pool):
    import asyncio

    async def main():
        hang = pool.score_async(*HANG, timeout_s=HANG_WAIT_S, cpu_s=1.0)
        ok = pool.score_async("math", "\\boxed{\\frac{1}{2}}", "0.5", 60)
        verdicts = await asyncio.gather(hang, ok)
        assert [v.reason for v in verdicts] == ["too_complex", "ok"]
        task = asyncio.ensure_future(pool.score_async(*HANG, timeout_s=600, cpu_s=600))
        while pool._idle or pool._free == pool.max_workers:
            await asyncio.sleep(0.05)  # until the job is in a worker
        busy = set(pool.worker_pids())
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        return busy

    busy = asyncio.run(main())
    assert busy and not any(alive(pid) for pid in busy)
    assert pool.score("zebra", "\\boxed{Arnold}", "arnold", 60).reason == "ok"


EXIT_SCRIPT = """
import sys, threading, time
from pac_verl.verifiers import compute_score
from pac_verl.verifiers.pool import shared_pool
print(compute_score("s", "\\\\boxed{1}", "1", {"type": "math"})["reason"], flush=True)
pool = shared_pool()
threading.Thread(target=pool.score, args=("math", "\\\\boxed{1}", "10^{999999999}", 600),
                 kwargs={"cpu_s": 600}, daemon=True).start()  # a gold sympy cannot parse
while pool._idle or pool._free == pool.max_workers:
    time.sleep(0.05)  # until the hanging job is in its worker
print(*pool.worker_pids(), pool.zygote_pid(), flush=True)
if sys.argv[1] == "hang":
    time.sleep(600)
sys.stdin.readline()  # exit only once the test has seen both processes alive
"""


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
@pytest.mark.parametrize("how", ["exit", "killed"])
def test_no_process_is_left_behind(how):
    """A normal exit (atexit closes the pool) and a SIGKILL mid-hang (parent-death signals)."""
    import subprocess
    import sys
    import time

    proc = subprocess.Popen(
        [sys.executable, "-c", EXIT_SCRIPT, "hang" if how == "killed" else "exit"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout.readline().strip() == "ok"
    pids = [int(p) for p in proc.stdout.readline().split()]
    assert len(pids) == 2 and all(alive(p) for p in pids)  # the hanging worker, the zygote
    if how == "killed":
        proc.kill()
    else:
        proc.stdin.write("exit\n")
        proc.stdin.flush()
    proc.wait(HANG_WAIT_S)
    for _ in range(HANG_WAIT_S * 10):  # the kernel delivers the signals asynchronously
        if not any(alive(p) for p in pids):
            break
        time.sleep(0.1)
    assert not any(alive(p) for p in pids)


# ----- the guards: exact sizes, by hand -----


@pytest.mark.parametrize(
    ("answer", "too_large"),
    [
        ("10^{9999}", False),  # 10,000 digits: the limit itself
        ("10^{10001}", True),  # 10,002 digits
        ("2^{2024}", False),  # 610 digits
        ("1000!", False),  # 2,568 digits
        ("(10^{5})!", True),  # 456,574 digits
        ("10!!", True),  # (10!)! = 3628800!: about 2.2e7 digits
        ("3!!", False),  # (3!)! = 720
        ("\\binom{100}{50}", False),  # 30 digits
        ("{100 \\choose 50}", False),
        ("\\binom{10^{9}}{5 \\cdot 10^{8}}", True),  # about 3e8 digits
        ("\\left(\\frac{1}{2}\\right)^{100000}", True),  # denominator 2^100000: 30,103 digits
        ("1^{10^{99999}}", True),  # the exponent itself has 100,000 digits
        ("0^{10^{99}}", False),
        ("x^{10000}", False),
        ("(x+1)^{10001}", True),  # symbolic base, exponent over 10,000
        ("\\sqrt{3} + 2\\pi", False),
        ("\\{1, 2\\}", False),
        ("(1, 2]", False),
        ("= 10^{99999}", True),  # after a leading sign of relation
        ("x = 5, y = 10^{99999}", True),
        ("(1, 10^{99999})", True),  # inside a tuple
        ("[0, 10^{99999})", True),  # inside an interval
        ("\\{1, 10^{99999}\\}", True),  # inside a set
    ],
)
def test_math_guard_limits(answer, too_large):
    from pac_verl.verifiers.guards import math_too_large

    assert math_too_large(answer) is too_large


def test_guards_read_only_the_boxes_the_scorer_reads():
    from pac_verl.verifiers.guards import precheck

    assert precheck("math", "\\boxed{10^{99999}}", "5").reason == "too_large"
    # inside <think> the math scorer does not look: neither does the guard
    assert precheck("math", "<think>\\boxed{10^{99999}}</think> \\boxed{5}", "5") is None
    assert precheck("math", "huge 10^{99999} but \\boxed{5}", "5") is None  # not in a box
    assert precheck("math", "\\boxed{10^{99999}}", "10^{99999}") is None  # the gold itself
    assert precheck("countdown", "\\boxed{(3+4)*5 = 1e1001}", CD).reason == "too_large"
    assert precheck("countdown", "\\boxed{(3+4)*5 = 3.5e1}", CD) is None  # 35: the scorer decides
    assert precheck("zebra", "\\boxed{" + "9" * 50_000 + "}", "arnold") is None


def test_compute_score_counts_timeouts_and_pays_no_format_bonus_for_them():
    from pac_verl.verifiers import compute_score as cs

    out = cs("s", "\\boxed{(3+4)*5 = 1e999999999}", CD, {"type": "countdown"}, format_bonus=0.1)
    assert (out["score"], out["reason"], out["has_answer"]) == (0.0, "too_large", 1.0)
    assert cs("s", "\\boxed{36}", "35", {"type": "math"}, format_bonus=0.1)["score"] == 0.1
    with pytest.raises(Exception, match="timeout_s must be > 0"):
        cs("s", "\\boxed{1}", "1", {"type": "math"}, timeout_s=0)


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_a_call_that_gets_no_worker_in_queue_s_is_overloaded_and_threads_share_the_pool():
    from concurrent.futures import ThreadPoolExecutor

    from pac_verl.verifiers.pool import ScoringPool

    pool = ScoringPool(workers=1)
    try:
        # eight threads, one worker: every call waits its turn and is scored right
        jobs = [("zebra", "\\boxed{Arnold}", "arnold", "ok"), ("zebra", "\\boxed{Bo}", "arnold",
                "not_equal"), ("countdown", "\\boxed{(3+4)*5}", CD, "ok")] * 8  # fmt: skip
        with ThreadPoolExecutor(8) as ex:
            got = list(ex.map(lambda j: pool.score(j[0], j[1], j[2], 60).reason, jobs))
        assert got == [j[3] for j in jobs]
        slow = threading.Thread(target=pool.score, args=(*HANG, 600))
        slow.start()
        while pool._free:  # until the hang holds the only worker
            threading.Event().wait(0.05)
        verdict = pool.score("zebra", "\\boxed{Arnold}", "arnold", 60, queue_s=0.5)
        assert (verdict.score, verdict.reason) == (0.0, "overloaded")
        assert pool.stats.overloaded == 1
    finally:
        pool.close()
    slow.join(HANG_WAIT_S)
    assert not slow.is_alive()

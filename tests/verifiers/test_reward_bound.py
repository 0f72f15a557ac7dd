"""Every reward call within its bound, code and the gold checks included (docs/concepts/spec.md#rewards).

Code: the program runs in the sandbox while the caller's thread waits, so the sandbox's own limits
are set far beyond the test's wait here (600 s of CPU and of wall clock): only the call's budget
(``queue_s`` for a node slot, ``timeout_s`` for the runs) can make it return in time. A call that
has not returned after ``HANG_WAIT_S`` has hung; the bound itself is not timed (no timed asserts).

Math: ``compute_scores`` (``pac-verl prep check``, the builders' gold checks) scores in the killable
pool; a grade sympy cannot finish uses its CPU bound and scores ``too_complex``, counted, and
nothing in this process is left half-way through a parse for the grades that follow (an in-process
alarm did that).
"""

import asyncio
import json
import os
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from pac_verl.verifiers import (
    compute_score,
    compute_score_async,
    compute_scores,
    score,
)
from pac_verl.verifiers.pool import shared_pool
from pac_verl.verifiers.sandbox import slots as sandbox_slots

HANG_WAIT_S = 120  # far below the sandbox limits set here, far above every budget
ADD = json.dumps({"functional": "assert add(2, 3) == 5\nassert add(-1, 1) == 0"})
BCB = json.dumps(
    {
        "test": "import unittest\nclass T(unittest.TestCase):\n"
        "    def test_a(self):\n        self.assertEqual(task_func(5), 25)\n",
        "entry_point": "task_func",
    }
)
RIGHT = "def add(a, b):\n    return a + b\n"
ENDLESS = {
    "sleeps": "import time\ntime.sleep(10**6)\n" + RIGHT,
    "spins": "while True:\n    pass\n" + RIGHT,
    "blocks on a read": "import os\nr, w = os.pipe()\nos.read(r, 1)\n" + RIGHT,
}
CODE = {"type": "code"}


def fenced(src: str) -> str:
    return f"```python\n{src}\n```"


@pytest.fixture
def slow_sandbox(monkeypatch):
    """Sandbox limits no test could wait for: 600 s of CPU and of wall clock, for both kinds."""
    for name in ("CPU", "WALL", "BCB_CPU"):
        monkeypatch.setenv(f"PAC_SANDBOX_{name}_SECONDS", "600")


def _parent(pid: str) -> str | None:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1]
    except (OSError, IndexError):
        return None


def our_harness_processes() -> list[str]:
    """Sandbox programs started by this process (other processes on the node run their own)."""
    me, found = str(os.getpid()), []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if b"harness.py" not in Path(f"/proc/{pid}/cmdline").read_bytes():
                continue
        except OSError:
            continue
        ancestor = _parent(pid)
        while ancestor not in (None, "0", "1", me):
            ancestor = _parent(ancestor)
        if ancestor == me:
            found.append(pid)
    return found


def in_thread(fn, *args, **kwargs):
    """Run ``fn`` in a thread (as verl's reward loop runs a sync reward function) and wait for it
    far longer than any budget here: a call still running then has hung."""
    out = {}
    thread = threading.Thread(target=lambda: out.update(r=fn(*args, **kwargs)), daemon=True)
    thread.start()
    thread.join(HANG_WAIT_S)
    assert not thread.is_alive(), f"{fn.__name__} did not return in {HANG_WAIT_S} s"
    return out["r"]


# ----- code: the run within timeout_s, the slot wait within queue_s -----


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
@pytest.mark.parametrize("program", sorted(ENDLESS))
def test_an_endless_program_times_out_within_the_bound_in_a_thread(slow_sandbox, program):
    out = in_thread(compute_score, "s", fenced(ENDLESS[program]), ADD, CODE, timeout_s=1.5)
    assert (out["score"], out["reason"]) == (0.0, "timeout")
    assert our_harness_processes() == []  # the run was killed, not left behind


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_an_endless_program_times_out_within_the_bound_through_the_coroutine(slow_sandbox):
    async def main():
        calls = [compute_score_async("s", fenced(ENDLESS[p]), ADD, CODE, timeout_s=1.5)
                 for p in ("sleeps", "spins")]  # fmt: skip
        return await asyncio.wait_for(asyncio.gather(*calls), HANG_WAIT_S)

    assert [out["reason"] for out in asyncio.run(main())] == ["timeout", "timeout"]


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_a_bigcodebench_cpu_limit_over_timeout_s_is_clamped_to_it(slow_sandbox):
    spin = "def task_func(x):\n    while True:\n        pass\n"
    out = in_thread(compute_score, "s", fenced(spin), BCB, CODE, timeout_s=1.5)
    assert (out["score"], out["reason"]) == (0.0, "timeout")


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_a_right_program_still_scores_one_with_a_small_timeout(slow_sandbox):
    assert in_thread(compute_score, "s", fenced(RIGHT), ADD, CODE, timeout_s=5)["score"] == 1.0
    bcb = fenced("def task_func(x):\n    return x * x\n")
    assert in_thread(compute_score, "s", bcb, BCB, CODE, timeout_s=5)["score"] == 1.0

    async def main():
        return await compute_score_async("s", fenced(RIGHT), ADD, CODE, timeout_s=5)

    assert asyncio.run(main())["score"] == 1.0


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_a_call_that_gets_no_sandbox_slot_in_queue_s_is_overloaded(slow_sandbox, monkeypatch):
    monkeypatch.setenv("PAC_SANDBOX_CONCURRENCY", "1")  # one node-wide slot, held by this test
    score("code", fenced(RIGHT), ADD)  # the sandbox's one-time machine check, outside the slot
    with sandbox_slots.slot():
        out = in_thread(compute_score, "s", fenced(RIGHT), ADD, CODE, queue_s=0.5)
        assert (out["score"], out["reason"]) == (0.0, "overloaded")

        async def main():
            return await compute_score_async("s", fenced(RIGHT), ADD, CODE, queue_s=0.5)

        assert asyncio.run(asyncio.wait_for(main(), HANG_WAIT_S))["reason"] == "overloaded"
    assert in_thread(compute_score, "s", fenced(RIGHT), ADD, CODE, queue_s=60)["score"] == 1.0


class _NeverAnswers(BaseHTTPRequestHandler):
    def do_POST(self):
        threading.Event().wait(HANG_WAIT_S * 2)

    def log_message(self, *args):
        pass


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_a_sandbox_fusion_service_that_never_answers_times_out(slow_sandbox, monkeypatch):
    server = ThreadingHTTPServer(("127.0.0.1", 0), _NeverAnswers)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    monkeypatch.setenv("PAC_SANDBOX_BACKEND", "sandbox_fusion")
    monkeypatch.setenv("PAC_SANDBOX_FUSION_URL", f"http://127.0.0.1:{server.server_port}/run_code")
    try:
        out = in_thread(compute_score, "s", fenced(RIGHT), ADD, CODE, timeout_s=1.5)
        assert (out["score"], out["reason"]) == (0.0, "timeout")
    finally:
        server.shutdown()
        server.server_close()


# ----- math: compute_scores in the killable pool, no in-process alarm -----

# the answers are guarded; a gold is not (it is the row's data, and the gold checks read it):
# sympy builds 10^999999999 while parsing it
SLOW_MATH = ("math", "\\boxed{1}", "10^{999999999}")
GRADES = [  # (response, gold, right?): each needs math-verify's parser or sympy, by hand
    ("\\boxed{\\dfrac{\\sqrt{3}}{2}}", "\\frac{\\sqrt{3}}{2}", True),
    ("\\boxed{\\frac{2}{4}}", "0.5", True),
    ("\\boxed{x = 3}", "3", True),
    ("\\boxed{2\\sqrt{2}}", "\\sqrt{8}", True),
    ("\\boxed{(x+1)^2}", "x^2+2x+1", False),  # not the gold's form: unevaluated
    ("\\boxed{\\sqrt{3}}", "3^{1/2}", True),
    ("\\boxed{\\sqrt{5}}", "\\sqrt{3}", False),
    ("\\boxed{x^2+1}", "x^2+2x+1", False),
    ("\\boxed{\\pi}", "3.14", False),
]


@pytest.mark.timeout(HANG_WAIT_S * 2, method="thread")
def test_compute_scores_bounds_a_slow_grade_and_later_grades_stay_right():
    too_complex = shared_pool().stats.too_complex
    items = [SLOW_MATH] + [("math", r, g) for r, g, _ in GRADES]
    # on this (the main) thread; the wall deadline far beyond the CPU bound
    verdicts = compute_scores(items, workers=2, timeout_s=HANG_WAIT_S, cpu_s=1)
    assert verdicts[0].reason == "too_complex" and verdicts[0].score == 0.0
    assert [v.correct for v in verdicts[1:]] == [ok for *_, ok in GRADES]
    assert shared_pool().stats.too_complex == too_complex + 1  # counted
    # grades made after it, in this process and in the pool, are still right
    assert [score("math", r, g).correct for r, g, _ in GRADES] == [ok for *_, ok in GRADES]
    again = compute_scores([("math", r, g) for r, g, _ in GRADES], timeout_s=30)
    assert [v.correct for v in again] == [ok for *_, ok in GRADES]


def test_compute_scores_keeps_order_and_reads_tuples_and_dicts():
    items = [("zebra", "\\boxed{Arnold}", "arnold"),
             {"task_type": "zebra", "solution_str": "\\boxed{Bo}", "ground_truth": "arnold"},
             ("arc", "\\boxed{1 2 3}", "1 2 3"), ("nope", "x", "y"),
             ("code", fenced(RIGHT), ADD)] * 3  # fmt: skip
    reasons = [v.reason for v in compute_scores(items, timeout_s=30)]
    assert reasons == ["ok", "not_equal", "ok", "unknown_type", "ok"] * 3
    assert compute_scores([]) == []

"""The grader fuzz bench (scripts/bench/grader_fuzz.py): its answers are hostile and at most
4 KB, a grading child that misses ``timeout_s`` is killed and counted, and a short run passes."""

import os
import signal
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings

BENCH = Path(__file__).resolve().parents[2] / "scripts" / "bench"
sys.path.insert(0, str(BENCH))

import grader_fuzz  # noqa: E402


@settings(max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck))
@given(grader_fuzz.answer_for("math"), grader_fuzz.answer_for("logic"))
def test_every_answer_is_at_most_4_kb(math_pair, logic_pair):
    for text, gold in (math_pair, logic_pair):
        assert len(text.encode()) <= grader_fuzz.MAX_BYTES and gold


def test_a_short_run_grades_every_task_and_passes(monkeypatch, capsys):
    monkeypatch.setattr(sys, "argv", ["grader_fuzz.py", "--n", "3", "--timeout-s", "60"])
    assert grader_fuzz.main() == 0
    out = capsys.readouterr().out
    assert all(task in out for task in grader_fuzz.TASKS) and "result: ok" in out


def test_a_child_that_misses_the_deadline_is_killed_and_counted(monkeypatch):
    grader = grader_fuzz.Grader(timeout_s=60)
    try:
        os.kill(grader.proc.pid, signal.SIGSTOP)  # a child that cannot answer, however fast
        grader.timeout_s = 0.5
        assert grader.grade("zebra", "\\boxed{Arnold}", "arnold") == ("reached timeout_s", None)
        grader.timeout_s = 60
        reason, cpu = grader.grade("zebra", "\\boxed{Arnold}", "arnold")
        assert reason == "ok" and cpu >= 0  # a fresh child took over
    finally:
        grader.close()

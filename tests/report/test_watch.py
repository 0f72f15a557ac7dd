"""`pac-verl watch RUN_DIR`: a live view of a run's curriculum, read from the files the run writes
(verl's own FileLogger here), while they are being written. Expected numbers are
computed by hand from the lines the tests write."""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from rich.console import Console

from pac_verl.errors import UserError
from pac_verl.report.watch import Follower, arm_rows, main, render, watch

PAC_VERL = str(Path(sys.executable).with_name("pac-verl"))
NAME = "multi_level__qwen2.5-3b__pac__seed0"


def run_json(folder: Path, **extra) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    info = {"experiment_name": NAME, "setting": "multi_level", "backbone": "qwen2.5-3b",
            "curriculum": "pac", "seed": 0, "window": 16, "total_steps": 500, **extra}  # fmt: skip
    (folder / "run.json").write_text(json.dumps(info))
    return folder


def verl_log(path: Path, lines: list[tuple[int, dict]], monkeypatch) -> None:
    """Write ``lines`` with verl's own file logger, as the trainer does."""
    from verl.utils.tracking import FileLogger

    monkeypatch.setenv("VERL_FILE_LOGGER_PATH", str(path))
    logger = FileLogger("pac-verl", NAME)
    for step, data in lines:
        logger.log(data, step=step)
    logger.finish()


def line(step: int, data: dict) -> bytes:
    return (json.dumps({"step": step, "data": data}) + "\n").encode()


def frame(f: Follower, window: int = 10, width: int = 200) -> str:
    out = io.StringIO()
    Console(file=out, width=width, color_system=None).print(render(f, window, width=width))
    return out.getvalue()


def shares(a: float, **more) -> dict:
    return {"curriculum/arc/1/share": a, "curriculum/arc/2/share": 1 - a, **more}


def test_lines_are_read_as_they_land_a_half_written_line_waits(tmp_path, monkeypatch):
    run = run_json(tmp_path / NAME)
    f = Follower(run)
    assert not f.poll() and f.steps == {}
    assert "no metrics yet" in frame(f)
    first = run / "metrics-20261101T000000Z.jsonl"
    verl_log(first, [(1, shares(0.5)), (2, shares(0.25))], monkeypatch)
    assert f.poll() and list(f.steps) == [1, 2]
    assert not f.poll()  # nothing new
    text = line(3, shares(0.75))
    with open(first, "ab") as fh:  # a line being written: half of it now
        fh.write(text[:20])
    assert not f.poll() and list(f.steps) == [1, 2]
    assert f.newest.partial == 20 and "a line without its end yet (20 bytes" in frame(f)
    with open(first, "ab") as fh:
        fh.write(text[20:])
    assert f.poll() and f.steps[3]["curriculum/arc/1/share"] == 0.75
    assert "step 3 of 500" in frame(f) and "75.0%" in frame(f)


def test_a_resumed_run_follows_the_newest_attempt_and_merges_steps(tmp_path, monkeypatch):
    run = run_json(tmp_path / NAME)
    verl_log(run / "metrics-20261101T000000Z.jsonl",
             [(1, shares(0.5)), (2, shares(0.5)), (3, shares(0.5))], monkeypatch)  # fmt: skip
    f = Follower(run)
    f.poll()
    # resumed from the checkpoint of step 2: steps 3 and 4 in a new file
    verl_log(run / "metrics-20261102T000000Z.jsonl", [(3, shares(0.25)), (4, shares(0.125))],
             monkeypatch)  # fmt: skip
    assert f.poll()
    assert list(f.steps) == [1, 2, 3, 4]
    assert f.steps[3]["curriculum/arc/1/share"] == 0.25  # the later attempt's value
    assert f.newest.path.name == "metrics-20261102T000000Z.jsonl"
    assert "attempt 2: metrics-20261102T000000Z.jsonl" in frame(f)
    # a file replaced by a shorter one is read again from its start
    (run / "metrics-20261102T000000Z.jsonl").write_bytes(line(3, shares(0.375)))
    assert f.poll() and list(f.steps) == [1, 2, 3]
    assert f.steps[3]["curriculum/arc/1/share"] == 0.375


def test_a_malformed_line_is_named_not_fatal(tmp_path):
    run = run_json(tmp_path / NAME)
    bad = b'not json\n{"step": NaN, "data": {}}\n'
    (run / "metrics-1.jsonl").write_bytes(line(1, shares(0.5)) + bad + line(2, {}))
    f = Follower(run)
    f.poll()
    assert list(f.steps) == [1, 2]
    assert "metrics-1.jsonl: line 2 is not a verl metrics line, skipped" in frame(f)
    assert "metrics-1.jsonl: line 3 is not a verl metrics line, skipped" in frame(f)


def test_per_arm_numbers_by_hand(tmp_path):
    # arm arc/1: rewards 0.2, 0.4, 0.6 at steps 1-3; the window of 2 steps means 0.4 and 0.6
    steps = {
        1: shares(0.5, **{"curriculum/arc/1/reward": 0.2, "curriculum/arc/1/zero_var_frac": 1.0}),
        2: shares(0.5, **{"curriculum/arc/1/reward": 0.4, "curriculum/arc/1/zero_var_frac": 0.5,
                          "reward/arc/1/reason/ok": 6.0, "reward/arc/1/reason/no_boxed": 2.0}),
        3: shares(0.75, **{"curriculum/arc/1/reward": 0.6, "curriculum/arc/1/zero_var_frac": 0.0,
                           "curriculum/arc/1/s_adv": 0.8, "curriculum/arc/1/s_prog": -0.25,
                           "curriculum/arc/1/posterior_mean": 0.5,
                           "curriculum/arc/1/posterior_std": 0.125,
                           "reward/arc/1/reason/ok": 2.0, "reward/arc/1/unscored": 1.0,
                           "reward/arc/10/reason/ok": 5.0}),  # another arm whose name extends it
    }  # fmt: skip
    (row, other) = arm_rows(steps, window=2)
    assert row.arm == "arc/1" and other.arm == "arc/2"
    assert row.last["share"] == 0.75 and row.shares == [0.5, 0.5, 0.75]
    assert row.reward == pytest.approx(0.5) and row.zero_var == pytest.approx(0.25)
    assert row.reasons == {"ok": 8.0, "no_boxed": 2.0} and row.unscored == 1.0
    run = run_json(tmp_path / NAME)
    (run / "metrics-1.jsonl").write_bytes(b"".join(line(s, d) for s, d in steps.items()))
    f = Follower(run)
    f.poll()
    text = frame(f, window=2)
    arc1 = next(x for x in text.splitlines() if x.lstrip().startswith("arc/1 "))
    for cell in ("75.0%", "0.800", "-0.250", "0.50±0.12", "0.500", "25%", "ok 80% no_boxed 20%",
                 "unscored 1"):  # fmt: skip
        assert cell in arc1, (cell, arc1)
    # an 80-column terminal (ssh): every number whole, the verdicts on lines of their own
    text = frame(f, window=2, width=80)
    arc1 = next(x for x in text.splitlines() if x.lstrip().startswith("arc/1 "))
    assert "…" not in arc1 and all(c in arc1 for c in ("75.0%", "-0.250", "0.50±0.12", "25%"))
    assert "  arc/1: ok 80% no_boxed 20% unscored 1" in text


def test_the_verdicts_the_trainer_logs_are_the_ones_shown(tmp_path):
    import numpy as np
    import torch
    from verl import DataProto

    from pac_verl.verl.reward_metrics import reward_metrics

    # one step's batch as the reward loop leaves it: 3 responses of countdown/1, 1 of zebra/2
    rows = [("countdown", 1, "ok", 1), ("countdown", 1, "no_boxed", 1),
            ("countdown", 1, "ok", 1), ("zebra", 2, "grader_timeout", 0)]  # fmt: skip
    batch = DataProto.from_dict(
        tensors={"responses": torch.zeros(len(rows), 1, dtype=torch.long)},
        non_tensors={"extra_info": np.array([{"type": t, "difficulty": d} for t, d, _, _ in rows]),
                     "reason": np.array([r for _, _, r, _ in rows]),
                     "scored": np.array([s for *_, s in rows])})  # fmt: skip
    metrics = reward_metrics(batch, ["type", "difficulty"])
    metrics.update({"curriculum/countdown/1/share": 0.75, "curriculum/zebra/2/share": 0.25})
    run = run_json(tmp_path / NAME)
    (run / "metrics-1.jsonl").write_bytes(line(1, metrics))
    f = Follower(run)
    f.poll()
    text = frame(f)
    assert "ok 67% no_boxed 33%" in text  # 2 of 3, 1 of 3
    assert "grader_timeout 100% unscored 1" in text


def test_a_folder_of_runs_or_a_missing_one_is_named(tmp_path):
    run_json(tmp_path / "runs" / NAME)
    run_json(tmp_path / "runs" / NAME.replace("seed0", "seed1"))
    with pytest.raises(
        UserError, match=r"is not one run's folder; watch one of the 2 under it: .*seed0"
    ):
        Follower(tmp_path / "runs")
    # a smoke run's --out: the run two levels down
    run_json(tmp_path / "smoke" / "run-20261124T081548" / "runs" / NAME)
    with pytest.raises(
        UserError, match=rf"watch one of the 1 under it: .*run-20261124T081548/runs/{NAME}"
    ):
        Follower(tmp_path / "smoke")
    with pytest.raises(UserError, match="no such run folder"):
        Follower(tmp_path / "nope")


def test_a_simulated_run_once(tmp_path, capsys):
    from pac_verl.simulate import run_simulation

    res = run_simulation("noisy", ["pac"], seeds=[0], steps=12, batch_size=8, out_dir=tmp_path,
                         show_progress=False)  # fmt: skip
    run = res.runs["pac", 0].run_dir
    assert main([str(run), "--once"]) == 0
    text = capsys.readouterr().out
    last = json.loads((run / "metrics.jsonl").read_text().splitlines()[-1])["data"]
    noisy = next(x for x in text.splitlines() if x.lstrip().startswith("noisy "))
    assert f"{100 * last['curriculum/noisy/share']:.1f}%" in noisy
    assert f"{last['curriculum/noisy/s_adv']:.3f}" in noisy
    assert "step 12 of 12" in text and "complete" in text


def test_watching_a_run_being_written_until_a_step(tmp_path, monkeypatch):
    run = run_json(tmp_path / NAME)
    path = run / "metrics-20261101T000000Z.jsonl"
    go = threading.Event()

    def trainer():  # appends one step at a time, each line in two writes
        go.wait()
        with open(path, "ab", buffering=0) as fh:
            for step in range(1, 9):
                text = line(step, shares(step / 10))
                fh.write(text[:10])
                fh.write(text[10:])

    writer = threading.Thread(target=trainer)
    writer.start()
    out = io.StringIO()
    real_sleep = __import__("time").sleep

    def sleep(seconds):  # the first wait of the loop lets the trainer start
        go.set()
        real_sleep(seconds)

    monkeypatch.setattr("pac_verl.report.watch.time.sleep", sleep)
    result = watch(run, until_step=8, interval=0.01, max_polls=100_000,
                   console=Console(file=out, width=200, color_system=None))  # fmt: skip
    writer.join()
    assert result.reason == "until-step" and result.last_step == 8
    assert "step 8 of 500" in out.getvalue() and "80.0%" in out.getvalue()


def test_ctrl_c_ends_the_watch_cleanly(tmp_path):
    run = run_json(tmp_path / NAME)
    (run / "metrics-1.jsonl").write_bytes(line(1, shares(0.5)))
    proc = subprocess.Popen([PAC_VERL, "watch", str(run), "--interval", "0.05"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    assert "Ctrl-C to quit" in proc.stderr.readline()  # in the loop now
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert f"stopped watching {run} at step 1" in out


def test_waits_for_a_run_that_has_not_logged_yet(tmp_path):
    run = run_json(tmp_path / NAME)
    out = io.StringIO()
    result = watch(run, interval=0.001, max_polls=3, console=Console(file=out, width=200))
    assert result.reason == "polls" and result.last_step is None
    assert "no metrics yet" in out.getvalue()
    assert os.listdir(run) == ["run.json"]  # watching writes nothing

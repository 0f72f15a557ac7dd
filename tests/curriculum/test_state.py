"""make_controller, input validation, checkpoint/resume, per-arm queues, and the bench smoke run."""

from __future__ import annotations

import importlib.util
import io
import json
from pathlib import Path

import numpy as np
import pytest
import torch

from pac_verl.curriculum import CONTROLLER_NAMES, ArmQueues, make_controller
from pac_verl.errors import UserError

ARMS9 = [f"{t}/{lv}" for t in ("arc", "countdown", "zebra") for lv in (1, 2, 3)]
OVERRIDES = {"single": {"train_arms": ["countdown", "zebra/1"]}}


def test_names_and_defaults():
    assert set(CONTROLLER_NAMES) == {
        "pac", "pac_no_adv", "pac_no_prog", "pac_no_ts", "sec", "dump", "random", "single",
    }  # fmt: skip
    c = make_controller("pac", ARMS9, 256)
    cfg = c.config
    assert (cfg.window, cfg.cold_start, cfg.delta2, cfg.eps) == (16, 50, 0.02, 1e-9)
    assert (cfg.prior_mean, cfg.prior_var, cfg.min_trend_points) == (0.0, 1.0, 3)
    sec = make_controller("sec", ARMS9, 256).config
    assert (sec.alpha, sec.temperature, sec.decay_unsampled) == (0.5, 0.2, True)
    dump = make_controller("dump", ARMS9, 256).config
    assert (dump.window, dump.exploration, dump.temperature) == (300, 1.0, 0.1)
    assert make_controller("pac_no_ts", ARMS9, 256).config.temperature == 1.0
    assert make_controller("pac", ARMS9, 256, window=32).config.window == 32
    assert c.arms == ARMS9 and c.batch_size == 256 and c.step == 0


def test_unknown_name_and_key_list_valid_choices():
    with pytest.raises(ValueError, match="valid: pac, pac_no_adv"):
        make_controller("pack", ARMS9, 8)
    with pytest.raises(ValueError, match=r"'windw'.*valid: window, cold_start"):
        make_controller("pac", ARMS9, 8, windw=3)
    with pytest.raises(UserError, match="valid arms: arc/1"):
        make_controller("single", ARMS9, 8, train_arms=["sudoku"])
    with pytest.raises(UserError, match="needs the override train_arms"):
        make_controller("single", ARMS9, 8)
    with pytest.raises(UserError, match="'window' \\(PACConfig\\) must be int, got 'x'"):
        make_controller("pac", ARMS9, 8, window="x")
    with pytest.raises(UserError, match="'decay_unsampled' \\(SECConfig\\) must be bool"):
        make_controller("sec", ARMS9, 8, decay_unsampled="no")
    assert make_controller("pac", ARMS9, 8, delta2=1, window=np.int64(4)).config.delta2 == 1.0
    with pytest.raises(UserError, match="unique"):
        make_controller("random", ["a", "a"], 8)


@pytest.mark.parametrize(
    ("args", "match"),
    [
        (([0, 1], [[1, 0]], [[1, 0]]), r"rewards must have shape \[P=2, G\]"),
        (([0], [[1, 0]], [[1, 0, 0]]), "advantages shape"),
        (([[0]], [[1, 0]], [[1, 0]]), r"arm_ids must have shape \[P\]"),
        (([9], [[1, 0]], [[1, 0]]), r"out of range \[0, 9\): \[9\]"),
        (([-1], [[1, 0]], [[1, 0]]), "out of range"),
        (([0], [[np.nan, 0]], [[1, 0]]), "rewards contain NaN"),
        (([0], [[1, 0]], [[np.inf, 0]]), "advantages contain NaN"),
        (([0.5], [[1, 0]], [[1, 0]]), "arm_ids must be integers"),
        (([0], np.zeros((1, 0)), np.zeros((1, 0))), "at least one rollout"),
    ],
)
def test_update_validation(args, match):
    c = make_controller("pac", ARMS9, 8)
    with pytest.raises(ValueError, match=match):
        c.update(*args)
    assert c.step == 0


def fake_feedback(step: int, slots: np.ndarray, g: int = 4):
    """Deterministic learner: arm i succeeds with probability rising with step and arm index."""
    rng = np.random.default_rng(1000 + step)
    p = np.clip(0.1 + 0.01 * step * (1 + slots % 3) / 3, 0, 0.95)
    rewards = (rng.random((len(slots), g)) < p[:, None]).astype(float)
    std = rewards.std(axis=1, ddof=1, keepdims=True)
    return rewards, (rewards - rewards.mean(axis=1, keepdims=True)) / (std + 1e-6)


@pytest.mark.parametrize("name", CONTROLLER_NAMES)
def test_resume_from_state_dict_continues_identically(name):
    kw = dict(OVERRIDES.get(name, {}))
    if name.startswith("pac"):
        kw["cold_start"] = 10
    original = make_controller(name, ARMS9, 32, seed=5, **kw)
    for t in range(20):  # k = 20 steps, past the cold start
        slots = original.allocate()
        original.update(slots, *fake_feedback(t, slots))
    state = json.loads(json.dumps(original.state_dict()))  # JSON-safe ...
    buf = io.BytesIO()
    torch.save(original.state_dict(), buf)  # ... and torch.save-safe (weights_only load)
    buf.seek(0)
    assert torch.load(buf, weights_only=True)["step"] == 20
    restored = make_controller(name, ARMS9, 32, seed=999, **kw)  # seed comes from the state
    restored.load_state_dict(state)
    for t in range(20, 70):
        a, b = original.allocate(), restored.allocate()
        np.testing.assert_array_equal(a, b)
        fb = fake_feedback(t, a)
        original.update(a, *fb)
        restored.update(b, *fb)
        assert original.metrics() == restored.metrics()


def test_load_state_dict_refuses_other_arms_or_config():
    c = make_controller("pac", ARMS9, 32)
    with pytest.raises(UserError, match="saved arms"):
        make_controller("pac", ARMS9[:3], 32).load_state_dict(c.state_dict())
    with pytest.raises(UserError, match="saved config"):
        make_controller("pac", ARMS9, 32, window=8).load_state_dict(c.state_dict())


def test_arm_queues_walk_permutations_without_duplicates():
    pools = [[10, 11, 12, 13, 14], [20, 21, 22]]
    q = ArmQueues(pools, seed=0)
    drawn0 = []
    for _ in range(6):
        out = q.draw(np.array([0, 1, 0, 0]))  # 3 of arm 0 (pool 5), 1 of arm 1 (pool 3)
        assert len(set(out[[0, 2, 3]].tolist())) == 3  # no duplicate inside a batch
        assert out[1] in pools[1]
        drawn0.extend(out[[0, 2, 3]].tolist())
    # 18 draws of arm 0 = 3 full passes + 3; every pass over 5 is a permutation, even across
    # the mid-batch reshuffles: each prompt is used 3 or 4 times
    counts = np.bincount(np.array(drawn0) - 10, minlength=5)
    assert counts.sum() == 18 and counts.min() >= 3 and counts.max() <= 4


def test_arm_queues_small_pool_repeats_and_state_roundtrip():
    q = ArmQueues.from_sizes([2, 4], seed=3)
    out = q.draw(np.zeros(5, dtype=int))  # share 5 > pool 2: duplicates unavoidable
    assert sorted(set(out.tolist())) == [0, 1]
    sd = json.loads(json.dumps(q.state_dict()))
    r = ArmQueues.from_sizes([2, 4], seed=77)
    r.load_state_dict(sd)
    for _ in range(10):
        ids = np.array([1, 0, 1, 1, 1])
        np.testing.assert_array_equal(q.draw(ids), r.draw(ids))
    with pytest.raises(UserError, match="pool sizes"):
        ArmQueues.from_sizes([2, 5]).load_state_dict(sd)


def test_bench_script_runs_a_tiny_size(capsys):
    path = Path(__file__).resolve().parents[2] / "scripts" / "bench" / "controller.py"
    spec = importlib.util.spec_from_file_location("bench_controller", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    assert mod.main(["--quick"]) == 0
    assert "per-slot loop" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("name", "keys"),
    [
        ("pac", {"share", "s_adv", "s_prog", "utility", "posterior_mean", "posterior_std"}),
        ("pac_no_adv", {"share", "s_adv", "s_prog", "utility", "posterior_mean", "posterior_std"}),
        ("pac_no_prog", {"share", "s_adv", "s_prog", "utility", "posterior_mean", "posterior_std"}),
        ("pac_no_ts", {"share", "s_adv", "s_prog", "utility"}),
        ("sec", {"share", "utility"}),
        ("dump", {"share", "utility"}),
        ("random", {"share"}),
        ("single", {"share"}),
    ],
)
def test_metric_keys_per_controller(name, keys):
    kw = {"train_arms": ["a", "b"]} if name == "single" else {}
    c = make_controller(name, ["a/1", "b/1"], 4, **kw)
    c.update([0, 0, 1], np.ones((3, 2)), np.zeros((3, 2)))  # both arms in the step
    m = c.metrics()
    expected = {
        f"curriculum/{arm}/{k}" for arm in ("a/1", "b/1") for k in keys | {"reward", "abs_adv"}
    }
    assert set(m) == expected | {"curriculum/entropy"}


def test_arm_queues_mid_batch_reshuffle_keeps_the_old_tail():
    """Found by hypothesis: pool 3, draw 2, then 5. The 5 must be the old permutation's last
    prompt, then a fresh pass of all 3, then 1 more: usage counts 2, 2, 2 plus one extra."""
    q = ArmQueues([[0, 1, 2]], seed=2)
    first = q.draw(np.array([0, 0]))
    second = q.draw(np.zeros(5, dtype=int))
    tail = ({0, 1, 2} - set(first.tolist())).pop()
    assert second[0] == tail
    assert sorted(second[1:4].tolist()) == [0, 1, 2]
    counts = np.bincount(np.concatenate([first, second]), minlength=3)
    assert sorted(counts.tolist()) == [2, 2, 3]

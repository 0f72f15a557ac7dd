"""The simulated learner and `pac-verl simulate`: mechanics, run logs, CLI."""

from __future__ import annotations

import json

import numpy as np
import pytest

from pac_verl.errors import UserError
from pac_verl.naming import parse_experiment_name
from pac_verl.simulate import SCENARIOS, get_scenario, run_simulation
from pac_verl.simulate.cli import main
from pac_verl.simulate.learner import SimulatedLearner, grpo_advantages


def test_grpo_advantages_by_hand():
    # rewards 1,0,0,0: mean .25; unbiased std = sqrt((.75^2 + 3 * .25^2) / 3) = sqrt(.25) = .5
    adv = grpo_advantages(np.array([[1.0, 0, 0, 0], [1, 1, 1, 1]]))
    np.testing.assert_allclose(adv[0], np.array([0.75, -0.25, -0.25, -0.25]) / (0.5 + 1e-6))
    np.testing.assert_array_equal(adv[1], 0.0)  # all equal: std 0 -> advantages 0
    np.testing.assert_allclose(grpo_advantages(np.array([[1.0], [0.0]])), [[1 / (1 + 1e-6)], [0]])


def test_grpo_advantages_match_verl():
    torch = pytest.importorskip("torch")
    from verl.trainer.ppo.core_algos import compute_grpo_outcome_advantage

    rng = np.random.default_rng(0)
    for g in (1, 2, 5):
        rewards = (rng.random((6, g)) < 0.5).astype(np.float64)
        length = 3  # verl puts the sequence reward on the last response token
        token_rewards = torch.zeros(6 * g, length)
        token_rewards[:, -1] = torch.tensor(rewards.ravel(), dtype=torch.float32)
        index = np.repeat(np.arange(6), g).astype(object)
        adv, _ = compute_grpo_outcome_advantage(token_rewards, torch.ones(6 * g, length), index)
        np.testing.assert_allclose(
            adv[:, 0].numpy().reshape(6, g), grpo_advantages(rewards), atol=1e-5
        )


def train_only(learner, arm: str, steps: int = 40, b: int = 32):
    i = learner.arms.index(arm)
    for _ in range(steps):
        learner.train_step(np.full(b, i), group_size=8)


def test_learning_follows_what_was_sampled():
    sc = get_scenario("saturating")  # no transfer between its arms
    learner = SimulatedLearner(sc, seed=0)
    before = learner.validate()
    train_only(learner, "saturating")
    after = learner.validate()
    i = learner.arms.index("saturating")
    assert after[i] > before[i] + 0.2  # the trained arm improved ...
    others = [j for j in range(len(learner.arms)) if j != i]
    np.testing.assert_array_equal(after[others], before[others])  # ... the others did not move


def test_saturating_arm_stops_giving_signal():
    learner = SimulatedLearner(get_scenario("saturating"), seed=0)
    i = learner.arms.index("saturating")
    _, adv0 = learner.train_step(np.full(64, i), 8)
    train_only(learner, "saturating", steps=150)
    _, adv1 = learner.train_step(np.full(64, i), 8)
    # mostly-solved prompts: most groups all succeed, so mean |A| falls (diminishing returns)
    assert np.abs(adv1).mean() < 0.5 * np.abs(adv0).mean()
    assert learner.validate()[i] > 0.85


def test_noisy_arm_never_improves():
    learner = SimulatedLearner(get_scenario("noisy"), seed=1)
    i = learner.arms.index("noisy")
    rewards, adv = learner.train_step(np.full(256, i), 8)
    assert abs(rewards.mean() - 0.5) < 0.05  # 2048 rollouts at p = .5: 5 sigma ~ .055
    assert np.abs(adv).mean() > 0.7  # large advantages ...
    train_only(learner, "noisy", steps=50)
    assert learner.validate()[i] == 0.5  # ... and no progress


def test_prerequisite_gates_learning():
    sc = get_scenario("prerequisite")
    blocked = SimulatedLearner(sc, seed=0)
    j = blocked.arms.index("advanced")
    start = blocked.validate()[j]
    train_only(blocked, "advanced", steps=40)
    gain_blocked = blocked.validate()[j] - start
    unlocked = SimulatedLearner(sc, seed=0)
    train_only(unlocked, "basic", steps=80)  # learn the prerequisite first
    mid = unlocked.validate()[j]
    train_only(unlocked, "advanced", steps=40)
    gain_unlocked = unlocked.validate()[j] - mid
    assert gain_unlocked > 3 * max(gain_blocked, 0.01)


def test_run_simulation_writes_verl_style_logs(tmp_path):
    res = run_simulation(
        "mixed", ["pac", "random"], seeds=[0, 1], steps=20, batch_size=16, val_every=5,
        out_dir=tmp_path, show_progress=False,
    )  # fmt: skip
    run_dir = res.runs["pac", 1].run_dir
    assert run_dir.name == "sim-mixed__simulated__pac__seed1"
    key = parse_experiment_name(run_dir.name)
    assert (key.setting, key.backbone, key.curriculum, key.seed) == (
        "sim-mixed",
        "simulated",
        "pac",
        1,
    )
    info = json.loads((run_dir / "run.json").read_text())
    assert {k: info[k] for k in ("setting", "curriculum", "seed", "window")} == {
        "setting": "sim-mixed", "curriculum": "pac", "seed": 1, "window": 16,
    }  # fmt: skip
    lines = [json.loads(x) for x in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert [x["step"] for x in lines] == list(range(21))
    arms = sorted(a.name for a in SCENARIOS["mixed"].arms)
    val_steps = [x["step"] for x in lines if "val-core/slow/acc/mean@1" in x["data"]]
    assert val_steps == [0, 5, 10, 15, 20]
    for arm in arms:
        assert f"curriculum/{arm}/share" in lines[1]["data"]
        assert 0.0 <= lines[-1]["data"][f"val-core/{arm}/acc/mean@1"] <= 1.0
    assert "curriculum/entropy" in lines[7]["data"]
    shares = sum(lines[3]["data"][f"curriculum/{a}/share"] for a in arms)
    assert shares == pytest.approx(1.0)
    np.testing.assert_array_equal(res.val_steps, [0, 5, 10, 15, 20])


def test_simulation_is_deterministic_and_seeds_differ():
    kw = dict(controllers=["pac"], steps=15, batch_size=8, show_progress=False)
    a = run_simulation("noisy", seeds=[0, 1], **kw)
    b = run_simulation("noisy", seeds=[0, 1], **kw)
    np.testing.assert_array_equal(a.runs["pac", 0].val, b.runs["pac", 0].val)
    assert not np.array_equal(a.runs["pac", 0].shares, a.runs["pac", 1].shares)


def test_summary_sample_efficiency_definition():
    res = run_simulation("slow", ["random", "pac_no_ts"], seeds=[0, 1], steps=30, batch_size=8,
                         val_every=10, show_progress=False)  # fmt: skip
    target = np.mean([res.runs["random", s].val_average[-1] for s in (0, 1)])
    eff = res.efficiency()
    assert eff.target == pytest.approx(target)
    for e in eff.rows:  # the first validation step where the seed-averaged curve reaches target
        curve = np.mean([res.runs[e.method, s].val_average for s in (0, 1)], axis=0)
        if e.step is None:
            assert curve.max() < target
        else:
            k = list(res.val_steps).index(e.step)
            assert curve[k] >= target - 1e-12 and np.all(curve[:k] < target)
    rows = res.summary_rows()
    assert rows[0][0] == "random" and rows[0][2].endswith("(reference)")
    assert rows[0][3] == "1.00x"  # the reference reaches its own final at its own first step


def test_cli_prints_summary_and_rejects_mistakes(tmp_path, capsys):
    out = tmp_path / "runs"
    assert main(["--scenario", "mixed", "--steps", "10", "--seeds", "1", "--batch-size", "8",
                 "--out", str(out)]) == 0  # fmt: skip
    text = capsys.readouterr().out
    assert "SIMULATION" in text and "final val avg" in text and "sec" in text
    assert len(list(out.iterdir())) == 7  # every controller but 'single', one seed
    with pytest.raises(UserError, match="valid: mixed"):
        main(["--scenario", "nope", "--no-logs"])
    with pytest.raises(UserError, match="no selected controller has the setting"):
        main(["--scenario", "mixed", "--set", "windw=3", "--no-logs", "--steps", "2"])
    with pytest.raises(UserError, match="drop --no-logs"):
        main(["--figures", str(tmp_path / "figs"), "--no-logs"])
    assert not (tmp_path / "figs").exists()  # refused before simulating
    with pytest.raises(UserError, match="needs train_arms"):
        main(["--scenario", "mixed", "--controllers", "single", "--no-logs", "--steps", "2"])
    assert main(["--controllers", "single,random", "--train-arms", "basic", "--no-logs",
                 "--steps", "5", "--seeds", "1", "--scenario", "prerequisite"]) == 0  # fmt: skip


def test_cli_draws_the_reports_figures_from_its_logs(tmp_path):
    out, figs = tmp_path / "runs", tmp_path / "figs"
    assert main(["--scenario", "mixed", "--steps", "60", "--seeds", "2", "--batch-size", "8",
                 "--controllers", "pac,random", "--out", str(out), "--figures", str(figs)]) == 0  # fmt: skip
    names = sorted(p.name for p in figs.glob("*.png"))
    assert names == ["curriculum__sim-mixed__simulated__pac.png",
                     "curriculum__sim-mixed__simulated__random.png",
                     "validation__sim-mixed__simulated.png",
                     "zero_variance__sim-mixed__simulated.png"]  # fmt: skip

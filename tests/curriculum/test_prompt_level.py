"""Prompt-level selection inside arms (``pac_verl.curriculum.prompts``) and the default path.

The default (``prompt_level: null``) must leave the paper's runs exactly as they were: the
unchanged code path (a controller plus ``ArmQueues``) is run beside the new one in each test.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest

from pac_verl.curriculum import ArmQueues, make_controller
from pac_verl.curriculum.prompts import PromptCurriculum, PromptLevelConfig, prompt_level_config
from pac_verl.errors import UserError
from pac_verl.verl.feedback import extract_feedback

sys.path.insert(0, str(Path(__file__).parents[1]))


def feedback(rng, rows, g=4):
    return (rng.random((len(rows), g)) < 0.5).astype(np.float64)


def grpo(rewards):
    std = rewards.std(axis=1, ddof=1, keepdims=True)
    return (rewards - rewards.mean(axis=1, keepdims=True)) / (std + 1e-6)


def test_default_path_draws_exactly_what_the_arm_queues_draw():
    pools = [np.arange(0, 7), np.arange(7, 40), np.arange(40, 45)]
    arms = ["a", "b", "c"]
    new_ctrl = make_controller("pac", arms, 16, seed=3, cold_start=5)
    old_ctrl = make_controller("pac", arms, 16, seed=3, cold_start=5)
    new, old = PromptCurriculum(pools, seed=4), ArmQueues(pools, seed=4)
    rng = np.random.default_rng(0)
    for _ in range(40):  # cold start, then Thompson; pool c is smaller than its shares
        slots = new_ctrl.allocate()
        assert np.array_equal(slots, old_ctrl.allocate())
        rows = new.draw(slots)
        assert np.array_equal(rows, old.draw(slots))
        rewards = feedback(rng, rows)
        for ctrl in (new_ctrl, old_ctrl):
            ctrl.update(slots, rewards, grpo(rewards))
        new.observe(rows, rewards)
    assert json.dumps(new_ctrl.state_dict()) == json.dumps(old_ctrl.state_dict())
    assert json.dumps(new.queues.state_dict()) == json.dumps(old.state_dict())


def test_beta_posterior_by_hand():
    cfg = PromptLevelConfig(half_life=0.0, prior_strength=2.0)
    pc = PromptCurriculum([[0, 1, 2]], seed=0, config=cfg)
    pc.observe([0], [[1.0, 1.0, 0.0, 1.0]])
    # arm: S=3, F=1 -> m = (3 + 1) / (4 + 2) = 2/3; prompt 0: (2 m + 3) / (2 + 4) = 13/18
    np.testing.assert_allclose(pc.predicted_pass_rate([0, 1]), [13 / 18, 2 / 3])


def test_evidence_halves_every_half_life_steps():
    pc = PromptCurriculum([[0, 1, 2]], seed=0, config=PromptLevelConfig(half_life=1.0))
    pc.observe([0], [[1.0, 1.0, 0.0, 1.0]])  # step 0
    pc.observe([1], [[0.0, 0.0, 0.0, 0.0]])  # step 1
    # now step 2. arm: at step 1 (S, F) = (3/2 + 0, 1/2 + 4); read at step 2: halved again,
    # (0.75, 2.25) -> m = 1.75 / 5 = 0.35. prompt 0 aged 2 steps: s = 3/4, f = 1/4
    m = 0.35
    np.testing.assert_allclose(
        pc.predicted_pass_rate([0, 1, 2]),
        [(2 * m + 0.75) / 3, (2 * m + 0.0) / (2 + 4 * 0.5), m],
    )


def test_graded_rewards_are_mapped_to_fractional_counts():
    cfg = PromptLevelConfig(half_life=0.0, reward_low=-1.0, reward_high=1.0)
    pc = PromptCurriculum([[0, 1]], seed=0, config=cfg)
    pc.observe([0], [[0.0, 1.0, 3.0, -2.0]])  # -> .5, 1, 1 (clipped), 0 (clipped): s 2.5, f 1.5
    m = (2.5 + 1) / (4 + 2)
    np.testing.assert_allclose(pc.predicted_pass_rate([0]), [(2 * m + 2.5) / (2 + 4)])


def test_rule_draws_mixed_prompts_and_skips_solved_and_failed():
    cfg = PromptLevelConfig(half_life=0.0, candidates=10.0)
    pc = PromptCurriculum([np.arange(30)], seed=1, config=cfg)
    solved, failed, mixed = np.arange(10), np.arange(10, 20), np.arange(20, 30)
    for _ in range(20):
        rows = np.concatenate([solved, failed, mixed])
        rewards = np.zeros((30, 8))
        rewards[:10] = 1.0
        rewards[20:, :4] = 1.0
        pc.observe(rows, rewards)
    for _ in range(5):
        rows = pc.draw(np.zeros(3, dtype=np.int64))
        assert set(rows) <= set(mixed) and len(set(rows)) == 3
        assert pc.metrics(["a"])["curriculum/a/prompts_skipped"] == 27  # all 30 were candidates
        assert pc.metrics(["a"])["curriculum/a/pred_pass_rate"] == pytest.approx(0.5, abs=0.05)


def test_rule_never_repeats_a_prompt_in_a_batch_unless_the_pool_is_too_small():
    pc = PromptCurriculum([np.arange(5), np.arange(5, 105)], seed=2, config=PromptLevelConfig())
    rng = np.random.default_rng(0)
    for _ in range(30):
        slots = np.array([0] * 8 + [1] * 40)
        rows = pc.draw(slots)
        assert np.all(rows[slots == 1] >= 5) and len(set(rows[slots == 1])) == 40
        assert np.all(rows[slots == 0] < 5) and len(set(rows[slots == 0])) == 5  # 8 > pool 5
        pc.observe(rows, feedback(rng, rows))


def test_every_prompt_is_a_candidate_once_per_pass():
    # the revisit rule: the candidates walk the arm's permutation, so in one pass through a pool
    # of 40 (candidates 4 x 2 slots = 8 a step, 5 steps) every prompt is examined exactly once
    pc = PromptCurriculum([np.arange(40)], seed=5, config=PromptLevelConfig(candidates=4.0))
    order_before = pc.queues.order.copy()
    for _ in range(5):
        pc.draw(np.zeros(2, dtype=np.int64))
    assert pc.queues.cursor[0] == 40 and np.array_equal(pc.queues.order, order_before)


def test_metrics_by_hand():
    pc = PromptCurriculum([[0, 1, 2], [3, 4]], seed=0)  # default path
    rows = pc.draw(np.array([0, 0, 1]))
    pc.observe(rows, [[1.0, 1.0], [1.0, 0.0], [0.0, 0.0]])
    m = pc.metrics(["x", "y"])
    assert m["curriculum/x/zero_var_frac"] == 0.5 and m["curriculum/y/zero_var_frac"] == 1.0
    assert m["curriculum/zero_var_frac"] == pytest.approx(2 / 3)
    assert m["curriculum/x/prompts_seen"] == 2 and m["curriculum/y/prompts_seen"] == 1
    assert m["curriculum/x/prompts_skipped"] == 0
    assert m["curriculum/x/pred_pass_rate"] == 0.5  # nothing seen yet: the arm prior (1/2)
    pc.observe([rows[2]], [[0.0, 0.0]])  # the same prompt again is not seen twice
    assert pc.metrics(["x", "y"])["curriculum/y/prompts_seen"] == 1


def test_state_round_trip_continues_identically():
    pools = [np.arange(50), np.arange(50, 80)]
    a = PromptCurriculum(pools, seed=0, config=PromptLevelConfig())
    rng = np.random.default_rng(1)
    for _ in range(6):
        rows = a.draw(rng.integers(0, 2, 12))
        a.observe(rows, feedback(rng, rows))
    b = PromptCurriculum(pools, seed=9, config=PromptLevelConfig())
    b.load_state_dict(json.loads(json.dumps(a.state_dict())))
    b.queues.load_state_dict(json.loads(json.dumps(a.queues.state_dict())))
    for _ in range(6):
        slots = rng.integers(0, 2, 12)
        rows = a.draw(slots)
        assert np.array_equal(rows, b.draw(slots))
        rewards = feedback(rng, rows)
        a.observe(rows, rewards)
        b.observe(rows, rewards)
    assert json.dumps(a.state_dict()) == json.dumps(b.state_dict())
    with pytest.raises(UserError, match="prompt_level"):
        PromptCurriculum(pools, seed=0).load_state_dict(a.state_dict())


def test_settings_are_checked():
    assert prompt_level_config(None) is None
    assert prompt_level_config("thompson") == PromptLevelConfig()
    assert prompt_level_config({"rule": "thompson", "half_life": 10}).half_life == 10.0
    with pytest.raises(UserError, match="choose null"):
        prompt_level_config("greedy")
    with pytest.raises(UserError, match="no setting"):
        prompt_level_config({"halflife": 3})
    with pytest.raises(UserError, match="candidates"):
        PromptLevelConfig(candidates=0.5)


def test_state_is_linear_in_prompts_and_sparse_in_the_checkpoint():
    pc = PromptCurriculum([np.arange(100_000)], seed=0, config=PromptLevelConfig())
    assert pc.s.nbytes + pc.f.nbytes + pc.last.nbytes == 24 * 100_000
    rows = pc.draw(np.zeros(16, dtype=np.int64))
    pc.observe(rows, np.ones((16, 4)))
    assert len(pc.state_dict()["seen"]) == 16


def test_default_sampler_draws_the_unchanged_paths_batches(tmp_path):
    # verl's real dataset, sampler factory and dataloader; the unchanged path computed beside it
    from sampler_helpers import B, fake_step, make
    from verl_helpers import make_tokenizer

    from pac_verl.data_prep.multi_level import build_multi_level

    build_multi_level(tmp_path / "data", 6, 2, seed=0, quiet=True, workers=1)
    tok = make_tokenizer(tmp_path / "tok")
    _, sampler, loader = make(tmp_path, tok, {"name": "pac", "cold_start": 2})
    ctrl = make_controller("pac", sampler.arms, B, seed=0, cold_start=2)
    queues = ArmQueues(sampler.prompts.pools, seed=1)  # what PACSampler built before: seed + 1
    rng = np.random.default_rng(0)
    for step, batch in enumerate(b for _ in range(2) for b in loader):  # two epochs of 6
        slots = ctrl.allocate()
        assert np.array_equal(batch["index"], queues.draw(slots))  # rows (index = row here)
        data, _ = fake_step(batch, rng)
        data.non_tensor_batch["uid"] = np.array([f"{step}-{u}" for u in data.non_tensor_batch["uid"]],
                                                dtype=object)  # fmt: skip
        sampler.observe(data)  # the unchanged path gets the same feedback
        f = extract_feedback(data, ["type", "difficulty"])
        ctrl.update([sampler.arms.index(a) for a in f.arms], f.rewards, f.advantages)
        assert json.dumps(sampler.controller.state_dict()) == json.dumps(ctrl.state_dict())
    assert step == 11
    assert json.dumps(sampler.queues.state_dict()) == json.dumps(queues.state_dict())


@pytest.mark.parametrize("revisit", [0, 2])
def test_a_prompt_mixed_last_step_competes_again_only_with_revisit(revisit):
    cfg = PromptLevelConfig(half_life=0.0, candidates=1.0, revisit=revisit)
    pc = PromptCurriculum([np.arange(100)], seed=3, config=cfg)
    first = pc.draw(np.zeros(1, dtype=np.int64))[0]
    others = np.setdiff1d(np.arange(100), [first])
    for _ in range(20):  # every other prompt is solved by every rollout
        pc.observe(others, np.ones((99, 8)))
    pc.observe([first], [[1.0, 0.0] * 4])
    again = pc.draw(np.zeros(1, dtype=np.int64))[0]
    assert (again == first) == (revisit > 0)
    assert pc.metrics(["a"])["curriculum/a/prompts_skipped"] == (1 if revisit else 0)


def test_simulator_runs_prompt_level_controllers_and_counts_wasted_rollouts(tmp_path):
    from pac_verl.naming import parse_experiment_name
    from pac_verl.simulate import get_scenario, run_simulation
    from pac_verl.simulate.learner import SimulatedLearner

    res = run_simulation("within_arm", ["pac", "pac+prompt"], seeds=[0], steps=12,
                         batch_size=16, val_every=4, out_dir=tmp_path, show_progress=False)  # fmt: skip
    run = res.runs["pac+prompt", 0]
    assert parse_experiment_name(run.run_dir.name).curriculum == "pac-prompt"
    lines = [json.loads(x) for x in (run.run_dir / "metrics.jsonl").read_text().splitlines()]
    assert any(x["data"].get("curriculum/wide/prompts_skipped", 0) > 0 for x in lines[1:])
    # the wasted rollouts are G x the zero-variance groups the log reports, step by step
    for name in ("pac", "pac+prompt"):
        r = res.runs[name, 0]
        lines = [json.loads(x) for x in (r.run_dir / "metrics.jsonl").read_text().splitlines()]
        zero = sum(x["data"]["curriculum/zero_var_frac"] * 16 for x in lines[1:])
        assert r.zero_var_rollouts == pytest.approx(8 * zero) and r.rollouts == 12 * 16 * 8
    # the default controller is the unchanged path: learner's own queues, controller, GRPO
    learner = SimulatedLearner(get_scenario("within_arm"), 0)
    ctrl = make_controller("pac", learner.arms, 16, seed=0)
    vals = [learner.validate()]
    for step in range(1, 13):
        slots = ctrl.allocate()
        rewards, adv = learner.train_step(slots, 8)
        ctrl.update(slots, rewards, adv)
        if step % 4 == 0:
            vals.append(learner.validate())
    np.testing.assert_array_equal(res.runs["pac", 0].val, np.array(vals))


def test_a_prompt_level_run_has_its_own_experiment_name():
    from hydra import compose, initialize_config_module

    from pac_verl.resolvers import register_resolvers

    register_resolvers()

    names = {}
    for level in ("null", "thompson"):
        with initialize_config_module("pac_verl.configs", version_base=None):
            cfg = compose("pac_trainer", overrides=[f"curriculum.prompt_level={level}"])
        names[level] = cfg.trainer.experiment_name
    assert names["null"] == "multi_level__qwen2.5-3b__pac__seed0"  # the paper's runs unchanged
    assert names["thompson"] == "multi_level__qwen2.5-3b__pac-prompt__seed0"

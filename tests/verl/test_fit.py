"""verl's own legacy training loop (either supported line), end to end on a CPU, with stand-in
GPU workers.

``PACTaskRunner.run`` (verl's ``TaskRunner.run`` with the trainer rebound to ``PACTrainer``)
composes nothing of its own: it builds verl's datasets and the trainer, which puts our sampler
under its dataloader, then calls ``init_workers()`` and ``fit()``. Only ``init_workers`` is replaced:
it installs the stand-ins of ``tests/verl_standins.py`` (rollout, actor worker group, checkpoint
manager) instead of Ray GPU workers. Everything else, from the dataloader and ``balance_batch`` to
verl's GRPO advantages, checkpoint files, validation and file logger, is verl's.

Checked: the batches follow the controller's allocations; ``curriculum/...`` metrics are logged at
the step whose feedback they describe; a run stopped after step 4 and resumed from its checkpoint
draws exactly the batches of the uninterrupted run and ends in exactly the same controller state;
the report reads the two attempts' logs as one run.
"""

import collections
import json
import sys
from pathlib import Path

import numpy as np
import pytest
import torch
from hydra import compose, initialize_config_module
from omegaconf import OmegaConf

from pac_verl.curriculum import make_controller
from pac_verl.data_prep.multi_level import build_multi_level
from pac_verl.report.logs import load_runs
from pac_verl.resolvers import register_resolvers
from pac_verl.run_logs import prepare_run_logs
from pac_verl.verl.runner import PACTaskRunner
from pac_verl.verl.trainer import PACTrainer

sys.path.insert(0, str(Path(__file__).parents[1]))
from verl_helpers import make_tokenizer
from verl_standins import (
    ScriptedPolicy,
    StandInActorWorkerGroup,
    StandInCheckpointManager,
    StandInResourcePool,
    StandInRollout,
)

register_resolvers()  # this process composes configs with the experiment name

B, N, STEPS, SAVE = 18, 4, 8, 4
TASKS = ("countdown", "zebra", "arc")
ARMS = [f"{t}/{lvl}" for t in TASKS for lvl in (1, 2, 3)]
# arms differ in how fast they improve, so PAC's allocation moves away from uniform
BASE = {a: 0.15 + 0.1 * (int(a[-1]) - 1) for a in ARMS}
GAIN = {a: (0.6 if a.startswith("countdown") else 0.1) for a in ARMS}


@pytest.fixture(scope="module")
def assets(tmp_path_factory):
    root = tmp_path_factory.mktemp("fit")
    build_multi_level(root / "data", 8, 2, seed=0, quiet=True, workers=1)  # 72 train, 24 val rows
    tok = make_tokenizer(root / "tok")
    # a model config (verl 0.9.1's task runner reads one beside the tokenizer), in a folder of its
    # own: in the tokenizer's, transformers 5 would load the tokenizer by the model's type. No
    # weights: the workers are stood in
    from transformers import Qwen2Config

    Qwen2Config(
        vocab_size=len(tok),
        hidden_size=8,
        intermediate_size=16,
        num_hidden_layers=1,
        num_attention_heads=2,
        num_key_value_heads=1,
        architectures=["Qwen2ForCausalLM"],
    ).save_pretrained(root / "config")
    return root


def config_for(root: Path, run: Path, steps: int = STEPS, extra: tuple = ()):
    overrides = [
        "setting=multi_level", "backbone=qwen2.5-3b", "curriculum=pac",
        f"setting.data_dir={root / 'data'}", f"data.train_batch_size={B}",
        "data.val_batch_size=null", "data.filter_overlong_prompts_workers=1",
        f"actor_rollout_ref.model.path={root / 'tok'}",
        f"actor_rollout_ref.model.hf_config_path={root / 'config'}",
        f"actor_rollout_ref.rollout.n={N}", f"actor_rollout_ref.actor.ppo_mini_batch_size={B}",
        "curriculum.cold_start=2",
        f"trainer.total_training_steps={steps}", f"trainer.save_freq={SAVE}", "trainer.test_freq=4",
        "trainer.n_gpus_per_node=2", "trainer.logger=[file]", "trainer.resume_mode=auto",
        f"trainer.default_local_dir={run / 'ckpt'}", f"pac.log_root={run / 'logs'}", *extra,
    ]  # fmt: skip
    with initialize_config_module("pac_verl.configs", version_base=None):
        return compose("pac_trainer", overrides=overrides)


class Recorder:
    """What the stand-ins saw, per trainer built (one per attempt)."""

    def __init__(self):
        self.trainers: list[PACTrainer] = []
        self.standins: list[dict] = []
        self.unscored = None  # StandInRollout's: which reward calls end without a verdict


@pytest.fixture
def recorder(monkeypatch):
    rec = Recorder()
    policy_state: dict = {}

    def init_workers(trainer: PACTrainer) -> None:  # replaces verl's Ray worker setup only
        policy = ScriptedPolicy(ARMS, BASE, GAIN, scale=20.0, seed=0)
        policy_state["policy"] = policy
        cfg = trainer.config
        rollout = StandInRollout(policy, trainer.tokenizer, 64, cfg.data.max_response_length,
                                 unscored=rec.unscored)  # fmt: skip
        actor = StandInActorWorkerGroup(policy, dp_size=2)
        trainer.actor_rollout_wg = actor
        trainer.async_rollout_manager = rollout
        trainer.checkpoint_manager = StandInCheckpointManager()
        trainer.resource_pool_manager = StandInResourcePool()
        rec.trainers.append(trainer)
        rec.standins.append({"rollout": rollout, "actor": actor, "policy": policy})

    monkeypatch.setattr(PACTrainer, "init_workers", init_workers)
    monkeypatch.setenv("VERL_FILE_LOGGER_PATH", "unset")  # prepare_run_logs sets it per attempt
    return rec


def run_attempt(
    root: Path, run: Path, steps: int = STEPS, stop_after: int | None = None, extra: tuple = ()
):
    """One attempt of ``python -m pac_verl.main`` minus Ray: logs, then verl's TaskRunner.run.

    ``stop_after`` kills the attempt in the middle of step k + 1 (after its rollout, before its
    update), as a crash or a preempted job would: verl has checkpointed and logged step k.
    """
    config = config_for(root, run, steps, extra)
    prepare_run_logs(config)
    if stop_after is None:
        PACTaskRunner().run(config)
        return
    original = PACTrainer._update_actor

    class Stop(Exception):
        pass

    def crash_in_step_after(self, batch):
        if self.global_steps == stop_after + 1:
            raise Stop
        return original(self, batch)

    PACTrainer._update_actor = crash_in_step_after
    try:
        with pytest.raises(Stop):
            PACTaskRunner().run(config)
    finally:
        PACTrainer._update_actor = original


def train_batches(rec: Recorder, key: str = "arms") -> list[list[str]]:
    """Arms (or prompts) of each training rollout call, in order, over all attempts."""
    out = []
    for s in rec.standins:
        out += [sorted(c[key][::N]) for c in s["rollout"].calls if not c["validate"]]
    return out


def sampler_of(trainer):
    return trainer.train_dataloader.sampler


def read_log(path: Path) -> dict[int, dict]:
    steps: dict[int, dict] = {}
    for line in path.read_text().splitlines():
        obj = json.loads(line)
        steps.setdefault(obj["step"], {}).update(obj["data"])
    return steps


@pytest.mark.node_versions
def test_fit_follows_the_controller_and_logs_its_metrics(assets, tmp_path, recorder):
    run_attempt(assets, tmp_path / "a")
    (trainer,) = recorder.trainers
    sampler = sampler_of(trainer)
    assert sampler.controller.step == STEPS  # updated once per step, also on the last one
    batches = train_batches(recorder)
    assert len(batches) == STEPS
    # replay: a fresh controller with the run's settings, fed the feedback of each trained
    # batch, allocates exactly the arms of the next generated batch (cold start included)
    arms = sampler.arms
    replay = make_controller("pac", arms, B, seed=0, cold_start=2)
    log = read_log(next((tmp_path / "a" / "logs").rglob("metrics-*.jsonl")))
    feedback = recorder.standins[0]["actor"].feedback
    for step in range(1, STEPS + 1):
        slots = replay.allocate()
        assert sorted(arms[i] for i in slots) == batches[step - 1]
        fb = feedback[step - 1]
        replay.update(np.array([arms.index(a) for a in fb.arms]), fb.rewards, fb.advantages)
        # curriculum/<arm>/share at step s is the share of step s's batch (the one just trained)
        for a in arms:
            assert log[step][f"curriculum/{a}/share"] == pytest.approx(
                batches[step - 1].count(a) / B
            )
            assert log[step][f"curriculum/{a}/posterior_mean"] == pytest.approx(
                replay.metrics()[f"curriculum/{a}/posterior_mean"]
            )
    assert replay.state_dict()["step"] == sampler.controller.state_dict()["step"] == STEPS
    # waste metrics of every run, from what the stand-ins saw: distinct prompts trained so far
    # (rows bound through PACTrainer._get_gen_batch) and the share of all-equal groups
    prompts = train_batches(recorder, "prompts")
    for step in range(1, STEPS + 1):
        fb = feedback[step - 1]
        for a in arms:
            seen = {p for b in prompts[:step] for p in b if p.startswith(a + "#")}
            assert log[step][f"curriculum/{a}/prompts_seen"] == len(seen)
            assert log[step][f"curriculum/{a}/prompts_skipped"] == 0
            groups = [r for r, x in zip(fb.rewards, fb.arms) if x == a]
            if groups:
                zero = np.mean([r.min() == r.max() for r in groups])
                assert log[step][f"curriculum/{a}/zero_var_frac"] == pytest.approx(zero)
    # metrics of every arm at every training step, validation at steps 0, 4 and 8 only
    for step in range(1, STEPS + 1):
        assert {f"curriculum/{a}/s_adv" for a in ARMS} <= set(log[step])
        assert "curriculum/entropy" in log[step]
        # reward verdicts per arm: every response of the arm counted once
        for a in ARMS:
            counted = sum(v for k, v in log[step].items() if k.startswith(f"reward/{a}/reason/"))
            assert counted == batches[step - 1].count(a) * N
        assert {f"reward/{t}/latency_p99" for t in TASKS} <= set(log[step])
    val = sorted(s for s, d in log.items() if "val-core/countdown/4/acc/mean@1" in d)
    assert val == [0, 4, 8]
    # the trained arms are the generated arms, step by step (balance_batch reorders rows only)
    assert recorder.standins[0]["actor"].updates == batches
    assert recorder.standins[0]["actor"].saved == [4, 8]


# verl 0.9.1's legacy _load_checkpoint skips the dataloader state (data.pt, which holds the
# sampler's) when the resumed step ends an epoch, and step 4 ends this run's first epoch (72 rows,
# 18 a batch): PAC's own checkpoint file (docs/guides/resume.md#what-a-checkpoint-holds) restores
# the curriculum there on both lines.
@pytest.mark.parametrize("prompt_level", ["null", "thompson"])
def test_resume_after_step_4_draws_the_same_batches_and_ends_in_the_same_state(
    assets, tmp_path, recorder, prompt_level
):
    extra = (f"curriculum.prompt_level={prompt_level}",)
    run_attempt(assets, tmp_path / "full", extra=extra)
    full_batches = train_batches(recorder, "prompts")
    full_state = sampler_of(recorder.trainers[0]).state_dict()

    recorder.trainers.clear()
    recorder.standins.clear()
    run_attempt(assets, tmp_path / "r", stop_after=SAVE, extra=extra)
    assert (tmp_path / "r" / "ckpt" / f"global_step_{SAVE}" / "data.pt").exists()
    first = train_batches(recorder, "prompts")
    run_attempt(assets, tmp_path / "r", extra=extra)  # resume_mode=auto finds global_step_4
    assert len(recorder.trainers) == 2
    second = [sorted(c["prompts"][::N]) for c in recorder.standins[1]["rollout"].calls
              if not c["validate"]]  # fmt: skip
    # the crashed attempt generated step 5 but never trained it; the resumed one redoes it:
    # the same prompts, not only the same arms (the prompt-level rule's posterior and RNG resume)
    assert first == full_batches[: SAVE + 1] and second == full_batches[SAVE:]
    state = sampler_of(recorder.trainers[1]).state_dict()
    assert (state["prompts"]["rule"] is None) == (prompt_level == "null")
    # controller (posterior, window, RNG, step), per-arm queues and per-prompt posteriors
    # identical to the last bit; only the uids of the last batch differ (verl uses uuid4)
    for part in ("controller", "queues", "prompts", "batches_this_epoch"):
        assert json.dumps(state[part], sort_keys=True) == json.dumps(
            full_state[part], sort_keys=True
        )
    # two attempts, two metrics files; the report reads them as one run with every step
    files = sorted((tmp_path / "r" / "logs").rglob("metrics-*.jsonl"))
    assert len(files) == 2
    (run,) = load_runs([tmp_path / "r" / "logs"])
    assert run.val_steps() == [0, 4, 8]
    assert all(f"curriculum/{ARMS[0]}/share" in run.steps[s] for s in range(1, STEPS + 1))
    full_log = read_log(next((tmp_path / "full" / "logs").rglob("metrics-*.jsonl")))
    for s in range(1, STEPS + 1):
        for a in ARMS:
            key = f"curriculum/{a}/posterior_mean"
            assert run.steps[s][key] == full_log[s][key]


def test_checkpoint_holds_the_controller_state_of_its_step(assets, tmp_path, recorder):
    run_attempt(assets, tmp_path / "c", steps=SAVE)
    state = torch.load(
        tmp_path / "c" / "ckpt" / f"global_step_{SAVE}" / "data.pt", weights_only=False
    )
    sampler_state = state["_sampler_iter_state"]["sampler_state"]
    # the controller saved at step k has seen step k (verl's own sampler.update comes later),
    # and the dataloader has yielded k batches
    assert sampler_state["controller"]["step"] == SAVE and state["_num_yielded"] == SAVE
    assert sampler_state["batches_this_epoch"] == SAVE  # 72 rows / 18 = 4 batches per epoch
    # the same state in the curriculum's own file (docs/guides/resume.md#what-a-checkpoint-holds)
    pac = json.loads(
        (tmp_path / "c" / "ckpt" / f"global_step_{SAVE}" / "pac_state.json").read_text()
    )
    assert pac["step"] == SAVE and pac["sampler"] == json.loads(json.dumps(sampler_state))
    assert OmegaConf.select(recorder.trainers[0].config, "data.curriculum.cold_start") == 2


@pytest.mark.verl_line  # both lines, as the real-worker runs
def test_the_seed_reaches_the_controller_and_the_prompt_queues_and_nothing_else(
    assets, tmp_path, recorder
):
    """Two runs that differ in ``curriculum.seed`` (docs/guides/recipes.md): their configs differ
    in the keys it sets (and where they write), each first batch is what a controller of its seed
    allocates, and the per-arm prompt queues draw another order."""
    from pac_verl.run_record import SEED_KEYS, config_diff

    for seed in (0, 1):
        run_attempt(assets, tmp_path / f"s{seed}", steps=1, extra=(f"curriculum.seed={seed}",))
    records = [json.loads(next((tmp_path / f"s{seed}" / "logs").iterdir()).joinpath("run.json")
                          .read_text()) for seed in (0, 1)]  # fmt: skip
    where = {"trainer.default_local_dir", "pac.log_root", "trainer.experiment_name"}
    diff = {k for k, _, _ in config_diff(records[0]["config"], records[1]["config"])}
    assert diff and diff <= set(SEED_KEYS) | where, diff
    assert "curriculum.seed" in diff
    first = train_batches(recorder)  # one batch per run, seed 0's first
    arms = sampler_of(recorder.trainers[0]).arms
    for seed in (0, 1):
        slots = make_controller("pac", arms, B, seed=seed, cold_start=2).allocate()
        assert sorted(arms[i] for i in slots) == first[seed]
    assert first[0] != first[1]
    s0, s1 = (sampler_of(t).state_dict() for t in recorder.trainers)
    assert s0["controller"]["rng"] != s1["controller"]["rng"]
    assert s0["queues"]["rng"] != s1["queues"]["rng"]
    assert s0["queues"]["order"] != s1["queues"]["order"]


def test_dynamic_sampling_refills_from_the_controller_and_feeds_back_dropped_groups(
    assets, tmp_path, recorder
):
    # DAPO's filter_groups: verl 0.7.1's fit() ignores it; PACTrainer runs it (module docstring)
    extra = ("algorithm.filter_groups.enable=true", "algorithm.filter_groups.metric=acc")
    run_attempt(assets, tmp_path / "d", extra=extra)
    (trainer,) = recorder.trainers
    arms = sampler_of(trainer).arms
    actor, rollout = recorder.standins[0]["actor"], recorder.standins[0]["rollout"]
    calls = [c for c in rollout.calls if not c["validate"]]
    log = read_log(next((tmp_path / "d" / "logs").rglob("metrics-*.jsonl")))
    # every trained batch has B groups, none of them all-right or all-wrong
    assert len(actor.feedback) == STEPS
    for fb in actor.feedback:
        assert fb.rewards.shape == (B, N)
        assert np.all(fb.rewards.max(axis=1) > fb.rewards.min(axis=1))
    by_step = {s: [c for c in calls if c["step"] == s] for s in range(1, STEPS + 1)}
    assert any(len(cs) > 1 for cs in by_step.values())  # extra generation batches happened
    # replay: each generation call of a step (the dataloader's, then the extra ones) is one
    # allocation of the controller, which learns from the trained groups and the dropped ones
    replay = make_controller("pac", arms, B, seed=0, cold_start=2)
    for step in range(1, STEPS + 1):
        dropped_arms, dropped_rewards = [], []
        for c in by_step[step]:
            assert sorted(arms[i] for i in replay.allocate()) == sorted(c["arms"][::N])
            scores = np.array(c["scores"]).reshape(-1, N)
            for g in np.flatnonzero(scores.min(axis=1) == scores.max(axis=1)):
                dropped_arms.append(c["arms"][g * N])
                dropped_rewards.append(scores[g])
        fb = actor.feedback[step - 1]
        ids = np.array([arms.index(a) for a in list(fb.arms) + dropped_arms])
        rewards = np.concatenate([fb.rewards, np.reshape(dropped_rewards, (-1, N))])
        advantages = np.concatenate([fb.advantages, np.zeros((len(dropped_arms), N))])
        replay.update(ids, rewards, advantages)
        assert log[step]["curriculum/dynamic/gen_batches"] == len(by_step[step])
        assert log[step]["curriculum/dynamic/dropped_groups"] == len(dropped_arms)
        for a in arms:
            key = f"curriculum/{a}/posterior_mean"
            assert log[step][key] == pytest.approx(replay.metrics()[key])
    assert sampler_of(trainer).controller.step == STEPS
    # GPU path: fit() puts the rollout replicas to sleep after its generation; an extra batch
    # wakes them with update_weights (as verl's _validate does) before generating. The stand-in
    # cannot sleep, so check the call itself: once per extra batch, plus fit's own end-of-step sync
    synced = trainer.checkpoint_manager.weights_synced_at
    for step in range(1, STEPS + 1):
        assert synced.count(step) == len(by_step[step])


def unscored_pick(step: int, k: int, validate: bool) -> bool:
    """About one response in 23 of training, one in 10 of validation (rows differ per step)."""
    return (k % 10 == 3) if validate else ((7 * step + k) % 23 == 0)


@pytest.mark.slow  # two fits of verl, about 20 s each on 2 cores
def test_groups_with_an_unscored_response_are_left_out_of_the_update_and_the_feedback(
    assets, tmp_path, recorder, caplog
):
    """A reward call without a verdict (here the real reward's ``unknown_type``, see
    ``StandInRollout``) is not a wrong answer. Through verl's fit and its GRPO advantages: the
    group's advantages are 0, the controller learns from the judged groups only, and the step
    counts what it left out."""
    recorder.unscored = unscored_pick
    with caplog.at_level("WARNING", logger="pac_verl.verl.trainer"):
        run_attempt(assets, tmp_path / "u", steps=SAVE)
    (trainer,) = recorder.trainers
    arms = sampler_of(trainer).arms
    actor, rollout = recorder.standins[0]["actor"], recorder.standins[0]["rollout"]
    log = read_log(next((tmp_path / "u" / "logs").rglob("metrics-*.jsonl")))
    replay = make_controller("pac", arms, B, seed=0, cold_start=2)
    left_out_total = 0
    for step in range(1, SAVE + 1):
        replay.allocate()
        batch = actor.batches[step - 1]
        nt = batch.non_tensor_batch
        call = next(c for c in rollout.calls if c["step"] == step and not c["validate"])
        picked = sum(unscored_pick(step, k, False) for k in range(len(call["arms"])))
        scored = np.asarray(nt["scored"], dtype=float)
        assert picked > 0 and (scored == 0).sum() == picked  # each picked call, unscored
        assert set(nt["reason"][scored == 0]) == {"unknown_type"}
        mask = batch.batch["response_mask"].float()
        reward = (batch.batch["token_level_rewards"] * mask).sum(-1).numpy()
        adv = ((batch.batch["advantages"] * mask).sum(-1) / mask.sum(-1)).numpy()
        uids = np.asarray(nt["uid"], dtype=object)
        order = list(dict.fromkeys(uids.tolist()))  # groups in order of first appearance
        ids, rewards, advantages, out = [], [], [], collections.Counter()
        for uid in order:
            rows = np.flatnonzero(uids == uid)
            arm = arms.index(f"{nt['extra_info'][rows[0]]['type']}/"
                             f"{nt['extra_info'][rows[0]]['difficulty']}")  # fmt: skip
            r = reward[rows]
            if (scored[rows] == 0).any():  # left out: no gradient, not in the feedback
                assert np.all(adv[rows] == 0.0)
                out[arms[arm]] += int((scored[rows] == 0).sum())
                continue
            # judged: verl's GRPO advantage, (r - mean) / (std + 1e-6), std unbiased (n - 1)
            expected = (r - r.mean()) / (r.std(ddof=1) + 1e-6)
            assert adv[rows] == pytest.approx(expected, abs=1e-4)
            ids.append(arm)
            rewards.append(r)
            advantages.append(adv[rows])
        groups_out = len(order) - len(ids)
        left_out_total += groups_out
        assert log[step]["curriculum/unscored_groups"] == groups_out
        for a in set(call["arms"]):  # every arm of the step, 0 included
            assert log[step][f"reward/{a}/unscored"] == out[a]
        replay.update(np.array(ids), np.array(rewards), np.array(advantages))
        for a in arms:  # the controller learned from the judged groups only
            key = f"curriculum/{a}/posterior_mean"
            assert log[step][key] == pytest.approx(replay.metrics()[key])
    assert left_out_total > 0
    # a step that left out more than 10 % of its groups (2 of 18) said so
    assert any(log[s]["curriculum/unscored_groups"] > 0.1 * B for s in range(1, SAVE + 1))
    assert "left out of the update" in caplog.text
    # validation (after the last training step): verl's acc counts them as wrong; the count
    # says how many there were
    last_train = max(i for i, c in enumerate(rollout.calls) if not c["validate"])
    val_calls = rollout.calls[last_train + 1 :]
    picked = sum(unscored_pick(SAVE, k, True) for c in val_calls for k in range(len(c["arms"])))
    counted = sum(v for k, v in log[SAVE].items() if k.endswith("/unscored/count"))
    assert picked > 0 and counted == picked


@pytest.mark.slow
def test_dynamic_sampling_drops_unscored_groups_without_feeding_them_back(
    assets, tmp_path, recorder
):
    recorder.unscored = unscored_pick
    extra = ("algorithm.filter_groups.enable=true", "algorithm.filter_groups.metric=acc")
    run_attempt(assets, tmp_path / "du", steps=SAVE, extra=extra)
    (trainer,) = recorder.trainers
    actor, rollout = recorder.standins[0]["actor"], recorder.standins[0]["rollout"]
    log = read_log(next((tmp_path / "du" / "logs").rglob("metrics-*.jsonl")))
    for step in range(1, SAVE + 1):
        trained = actor.batches[step - 1]
        assert np.all(np.asarray(trained.non_tensor_batch["scored"], dtype=float) == 1.0)
        # every generated group holding a picked response, counted as left out
        calls = [c for c in rollout.calls if c["step"] == step and not c["validate"]]
        out = sum(len({k // N for k in range(len(c["arms"])) if unscored_pick(step, k, False)})
                  for c in calls)  # fmt: skip
        assert out > 0 and log[step]["curriculum/dynamic/unscored_groups"] == out
        # the dropped groups fed back are the judged groups without reward spread, only
        dropped = 0
        for c in calls:
            scores = np.array(c["scores"]).reshape(-1, N)
            cut = {k // N for k in range(len(c["arms"])) if unscored_pick(step, k, False)}
            flat = scores.min(axis=1) == scores.max(axis=1)
            dropped += sum(1 for g in np.flatnonzero(flat) if g not in cut)
        assert log[step]["curriculum/dynamic/dropped_groups"] == dropped
    assert sampler_of(trainer).controller.step == SAVE

"""verl 0.9.1's V1 sync trainer with the curriculum (``pac_verl/verl/v1_trainer.py``), on verl's
real objects: its dataloader setup, its advantage computation over a real TransferQueue.

- Allocation: from the same controller state, ``PACTrainerV1`` hands the rollout the same
  batches as the legacy ``PACTrainer``'s dataloader, also when V1 fetches one row at a time
  (``gen_batch_size`` forced to 1), and every row's uid is bound to its dataset row.
- Feedback: after verl's own ``_compute_advantage`` the step is read back from the TransferQueue;
  a padding row is skipped, a group holding an unscored response has advantage 0 in the
  TransferQueue and is left out of the controller's update, which equals the legacy path's update
  from the same rows.

Skipped where verl 0.9.1 or TransferQueue is not installed (verl 0.7.1 has no V1 trainer);
``scripts/ci/verl_line.sh`` runs it on 0.9.1.
"""

import collections
import copy
import json
import sys
import uuid
import zlib
from pathlib import Path

import numpy as np
import pytest
import torch
from omegaconf import OmegaConf

from pac_verl.verl import compat

if compat.installed() != "0.9.1":
    pytest.skip("verl 0.9.1's V1 trainer: not on this verl line", allow_module_level=True)
pytest.importorskip("transfer_queue", reason="verl 0.9.1's V1 trainer needs TransferQueue")

from verl import DataProto
from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

from pac_verl.data_prep.multi_level import build_multi_level
from pac_verl.errors import UserError
from pac_verl.verl.trainer import PACTrainer, leave_out_unscored
from pac_verl.verl.v1_trainer import PACTrainerV1, _plain, check_v1_config, read_step

sys.path.insert(0, str(Path(__file__).parents[1]))
from sampler_helpers import B, data_config, fake_step
from verl_helpers import make_tokenizer

pytestmark = pytest.mark.verl_line


@pytest.fixture(scope="module")
def assets(tmp_path_factory):
    root = tmp_path_factory.mktemp("v1")
    build_multi_level(root / "data", 4, 1, seed=0, quiet=True, workers=1)  # 36 train rows
    tok = make_tokenizer(root / "tok")
    return root, tok


def trainer_config(root, refill_failed: bool, curriculum="pac", filter_groups=None, **data):
    cfg = data_config(root, {"name": curriculum}, **data)
    fg = {"enable": False} if filter_groups is None else {"enable": True, **filter_groups}
    return OmegaConf.create({
        "data": {**OmegaConf.to_container(cfg), "val_files": cfg.train_files, "shuffle": True,
                 "val_batch_size": None, "validation_shuffle": False},
        "trainer": {"total_epochs": 1, "total_training_steps": 3,
                    "v1": {"trainer_mode": "sync",
                           "sampler": {"sync_refill_failed_groups": refill_failed,
                                       "max_off_policy_threshold": None,
                                       "max_off_policy_strategy": "drop",
                                       "sampler_kwargs": {}}}},
        "algorithm": {"adv_estimator": "grpo", "use_kl_in_reward": False, "gamma": 1.0,
                      "lam": 1.0, "norm_adv_by_std_in_grpo": True,
                      "filter_groups": fg},
        "actor_rollout_ref": {"actor": {"optim": {}}, "rollout": {"n": 4}},
        "critic": {"optim": {}},
    })  # fmt: skip


def v1_trainer(root, tok, refill_failed=False, curriculum="pac", filter_groups=None,
               **data) -> PACTrainerV1:  # fmt: skip
    trainer = PACTrainerV1.__new__(PACTrainerV1)  # the dataloader and advantages need no workers
    trainer.config = trainer_config(root, refill_failed, curriculum, filter_groups, **data)
    trainer.trainer_mode, trainer.parameter_sync_step = "sync", 1
    trainer.replay_buffer = trainer._build_replay_buffer()  # as verl's __init__ builds it
    trainer.tokenizer, trainer.processor, trainer.global_steps = tok, None, 1
    trainer._init_dataloader()
    return trainer


def legacy_trainer(root, tok, filter_groups=None) -> PACTrainer:
    trainer = PACTrainer.__new__(PACTrainer)
    trainer.config = trainer_config(root, False, filter_groups=filter_groups)
    ds = RLHFDataset(trainer.config.data.train_files, tok, trainer.config.data)
    trainer._create_dataloader(ds, ds, collate_fn, None)
    return trainer


def as_json(state) -> str:
    """A sampler state's text (its metrics hold NaN, which never equals itself)."""
    return json.dumps(state, sort_keys=True)


def column(rows, name) -> list:
    """A column of a dataloader batch (a dict of arrays) or of V1's TensorDict, as a list."""
    value = rows[name]
    return value.tolist() if hasattr(value, "tolist") else list(value)


def prompts(rows) -> list[str]:
    return [str(p) for p in column(rows, "raw_prompt")]


@pytest.mark.parametrize("refill_failed", [False, True], ids=["gen_batch", "one_row_fetches"])
def test_v1_and_legacy_allocate_the_same_batches_from_the_same_controller_state(
    assets, refill_failed
):
    root, tok = assets
    v1, legacy = v1_trainer(root, tok, refill_failed), legacy_trainer(root, tok)
    # V1 forces gen_batch_size=1 when it refills failed groups: the allocation stays a step
    assert v1._sampler().batch_size == legacy._sampler().batch_size == B
    if refill_failed:
        assert v1.config.data.gen_batch_size == 1
    legacy_it = iter(legacy.train_dataloader)
    rng_v1, rng_legacy = np.random.default_rng(5), np.random.default_rng(5)
    for _ in range(3):  # three steps, each fed back the same rewards on both paths
        got = v1._next_train_batch()  # what V1's prepare_step submits to the rollout
        want = next(legacy_it)
        assert len(got) == B
        assert prompts(got) == prompts(want)
        # every row's uid is bound to the dataset row it was drawn from
        sampler = v1._sampler()
        rows = [sampler._uid_rows[str(u)] for u in column(got, "uid")]
        assert [str(ds_row["raw_prompt"]) for ds_row in map(v1.train_dataset.__getitem__, rows)] \
            == prompts(want)  # fmt: skip
        v1._sampler().observe(fake_step({"extra_info": column(got, "extra_info")}, rng_v1)[0])
        legacy._sampler().observe(fake_step(want, rng_legacy)[0])
    assert as_json(v1._sampler().state_dict()) == as_json(legacy._sampler().state_dict())


def test_refills_are_allocated_by_the_controller_and_resume_with_it(assets):
    root, tok = assets
    sampler = v1_trainer(root, tok)._sampler()
    twin = copy.deepcopy(sampler)
    first = sampler.refill_rows(3)
    assert first.tolist() == twin.extra_rows()[:3].tolist()
    saved = sampler.state_dict()
    assert len(saved["refill"]) == B - 3  # the rest of that allocation waits for the next refill
    resumed = v1_trainer(root, tok)._sampler()
    resumed.load_state_dict(saved)
    assert resumed.refill_rows(B - 3).tolist() == sampler.refill_rows(B - 3).tolist()


def test_v1_refuses_other_modes_and_what_its_dynamic_sampling_cannot_do_with_one_line(assets):
    root, _ = assets
    check_v1_config(trainer_config(root, False, filter_groups={"metric": "acc"}))  # accepted
    cfg = trainer_config(root, False)
    cfg.trainer.v1.trainer_mode = "colocate_async"
    with pytest.raises(
        UserError, match=r"^trainer\.v1\.trainer_mode=colocate_async: .* sync only$"
    ):
        check_v1_config(cfg)
    cfg = trainer_config(root, False)
    cfg.trainer.v1.sync = {"parameter_sync_step": 2}
    with pytest.raises(
        UserError, match=r"^trainer\.v1\.sync\.parameter_sync_step=2: .* set it to 1$"
    ):
        check_v1_config(cfg)
    cfg = trainer_config(root, False, filter_groups={"max_inflight_gen_batches": 2})
    with pytest.raises(UserError, match=r"max_inflight_gen_batches=2: .* set it to 1$"):
        check_v1_config(cfg)
    cfg = trainer_config(root, False, filter_groups={})
    cfg.trainer.v1.sampler.custom_sampler = {"path": "x.py", "name": "Mine"}
    with pytest.raises(UserError, match=r"^trainer\.v1\.sampler\.custom_sampler with .*unset"):
        check_v1_config(cfg)
    cfg = trainer_config(root, False, filter_groups={})
    cfg.reward = {"reward_model": {"enable": True, "enable_resource_pool": False}}
    with pytest.raises(UserError, match=r"enable_resource_pool=true or trainer\.use_v1=false$"):
        check_v1_config(cfg)
    cfg = trainer_config(root, False, filter_groups={})  # as on the legacy trainer
    cfg.algorithm.adv_estimator = "remax"
    with pytest.raises(UserError, match=r"^algorithm\.filter_groups with adv_estimator=remax"):
        check_v1_config(cfg)


def test_v1_hands_verls_validation_metrics_to_the_controller(assets, monkeypatch):
    """DUMP's validation feedback, as on the legacy path: verl's V1 validation (stood in for: it
    needs rollout workers) returns per-source scores; the controller learns from its arms'."""
    from verl.trainer.ppo.v1.trainer_base import PPOTrainer

    root, tok = assets
    trainer = v1_trainer(root, tok, curriculum="dump")
    metrics = {"val-core/countdown/1/acc/mean@1": 0.25, "val-core/countdown/4/acc/mean@1": 0.75,
               "val-core/zebra/2/acc/mean@1": 0.5}  # fmt: skip
    monkeypatch.setattr(PPOTrainer, "_validate", lambda self: dict(metrics))
    assert trainer._validate() == metrics
    ctrl = trainer._sampler().controller
    seen = dict(zip(ctrl.arms, ctrl.seen.tolist(), strict=True))
    assert seen["countdown/1"] == 1 and seen["zebra/2"] == 1  # countdown/4 is no training arm
    assert sum(seen.values()) == 2


def test_v1_validation_counts_unscored_answers_per_source(assets):
    """verl 0.9.1's V1 ``_val_metrics_update`` (its extra ``expected_acc_counts``), with pac-verl's
    ``val-aux/<source>/unscored/count``."""
    root, tok = assets
    trainer = v1_trainer(root, tok)
    sources = ["a", "a", "b", "b"]
    extras = {"acc": [1.0, 0.0, 0.0, 1.0], "scored": [1.0, 0.0, 1.0, 1.0],
              "reward": [1.0, 0.0, 0.0, 1.0]}  # fmt: skip
    counts = {("a", "u0"): 1, ("a", "u1"): 1, ("b", "u2"): 1, ("b", "u3"): 1}
    got = trainer._val_metrics_update(sources, ["u0", "u1", "u2", "u3"], extras, [1, 1, 1, 1],
                                      expected_acc_counts=counts)  # fmt: skip
    assert got["val-aux/a/unscored/count"] == 1.0
    assert got["val-aux/b/unscored/count"] == 0.0
    assert got["val-core/a/acc/mean@1"] == 0.5


def test_a_cpu_config_of_v1_is_adapted_once_however_often_it_is_adapted():
    cfg = OmegaConf.create({
        "trainer": {"use_v1": True, "device": "cpu"},
        "transfer_queue": {"enable": False,
                           "backend": {"SimpleStorage": {"num_data_storage_units": 8}}},
        "ray_kwargs": {"ray_init": {"num_cpus": 4}},
    })  # fmt: skip
    compat.adapt_config(cfg)  # composed (pac_verl.compose), then again before training
    compat.adapt_config(cfg)
    assert cfg.transfer_queue.enable is True
    assert cfg.transfer_queue.backend.SimpleStorage.num_data_storage_units == 1
    assert cfg.ray_kwargs.ray_init.num_cpus == 6


# ----- feedback through a real TransferQueue ------------------------------------------------------
@pytest.fixture(scope="module")
def transfer_queue():
    import ray
    import transfer_queue as tq

    started = not ray.is_initialized()
    if started:  # TransferQueue's controller and storage unit ask Ray for one CPU each
        ray.init(num_cpus=3, include_dashboard=False, log_to_driver=False)
    tq.init(OmegaConf.create({"backend": {"SimpleStorage": {"num_data_storage_units": 1}}}))
    yield tq
    tq.close()
    if started:
        ray.shutdown()


# rewards of three groups of n=4 (one response's reward at its last token); group 1 holds a
# response the reward could not judge
REWARDS = [[1, 0, 0, 1], [1, 1, 0, 0], [0, 0, 0, 1]]
UNSCORED = (1, 2)  # (group, response)
LENGTHS = [[3, 2, 4, 3], [2, 2, 3, 4], [4, 1, 2, 3]]


def put_step(tq, trainer, partition="train"):
    """A rolled-out step as V1's agent loop writes it (one key per response), plus one padding
    row as V1's batch balancing appends it; returns the step's KVBatchMeta."""
    from transfer_queue import KVBatchMeta
    from verl.utils.tensordict_utils import list_of_dict_to_tensordict

    arms = list(trainer._sampler().arms)
    rows = trainer._sampler().extra_rows()[:3]
    uids = [f"g{k}" for k in range(3)]
    trainer._sampler().bind_rows(uids, rows)
    keys, fields, tags = [], [], []
    for k, uid in enumerate(uids):
        info = trainer.train_dataset[int(rows[k])]["extra_info"]
        for j in range(4):
            n = LENGTHS[k][j]
            score = torch.zeros(n)
            score[-1] = REWARDS[k][j]
            scored = 0.0 if (k, j) == UNSCORED else 1.0
            keys.append(f"{uid}_{j}_0")
            fields.append({"uid": uid, "response_mask": torch.ones(n, dtype=torch.int64),
                           "rm_scores": score, "extra_info": info,
                           "extra_fields": {"reward_extra_info": {
                               "scored": scored, "acc": float(REWARDS[k][j]),
                               "reason": "overloaded" if scored == 0 else "ok"}}})  # fmt: skip
            tags.append({"status": "success", "seq_len": n + 2})
    # V1's padding row: its own uid, no arm (reading its extra_info as an arm would fail)
    keys.append("padx_0_0")
    fields.append({"uid": "padx", "response_mask": torch.zeros(1, dtype=torch.int64),
                   "rm_scores": torch.zeros(1), "extra_info": {},
                   "extra_fields": {"reward_extra_info": {}}})  # fmt: skip
    tags.append({"status": "success", "seq_len": 3, "is_padding": True})
    tq.kv_batch_put(keys=keys, partition_id=partition, fields=list_of_dict_to_tensordict(fields),
                    tags=tags)  # fmt: skip
    return KVBatchMeta(partition_id=partition, keys=keys, tags=tags), arms, rows


def test_feedback_is_read_from_the_transfer_queue_after_verls_advantages(assets, transfer_queue):
    root, tok = assets
    trainer = v1_trainer(root, tok)
    batch, _, rows = put_step(transfer_queue, trainer)
    twin = copy.deepcopy(trainer._sampler())  # the controller as the step was drawn
    trainer_before = {"controller": as_json(twin.state_dict()["controller"])}
    metrics: dict = {}
    trainer._compute_advantage(batch, metrics)

    got = transfer_queue.kv_batch_get(keys=batch.keys[:12], partition_id="train",
                                      select_fields=["advantages"])["advantages"]  # fmt: skip
    adv = [got[i].float() for i in range(12)]
    # group 0: rewards 1,0,0,1 -> GRPO (r - 1/2) / std (unbiased, 1/sqrt(3)) = +-sqrt(3)/2
    for j, r in enumerate(REWARDS[0]):
        expected = (np.sqrt(3) / 2) * (1 if r else -1)
        assert torch.allclose(adv[j], torch.full((LENGTHS[0][j],), expected), atol=1e-4)
    # group 1 holds an unscored response: every advantage of the group is 0 in the queue
    for j in range(4):
        assert torch.equal(adv[4 + j], torch.zeros(LENGTHS[1][j]))
    assert metrics["curriculum/unscored_groups"] == 1.0
    arm = lambda k: "/".join(  # noqa: E731
        str(trainer.train_dataset[int(rows[k])]["extra_info"][f]) for f in ("type", "difficulty")
    )
    assert metrics[f"reward/{arm(1)}/unscored"] >= 1.0
    assert any(k.startswith("curriculum/") and k != "curriculum/unscored_groups" for k in metrics)

    # the controller's update equals the legacy path's from the same two judged groups
    keep = [0, 2]
    mask = torch.zeros(8, 4)
    tlr = torch.zeros(8, 4)
    advs = torch.zeros(8, 4)
    for i, group in enumerate(g for g in keep for _ in range(4)):
        j = i % 4
        n = LENGTHS[group][j]
        mask[i, :n] = 1
        tlr[i, n - 1] = REWARDS[group][j]
        advs[i, :n] = adv[4 * group + j]
    infos = np.array([trainer.train_dataset[int(rows[k])]["extra_info"] for k in keep for _ in
                      range(4)], dtype=object)  # fmt: skip
    legacy = DataProto.from_dict(
        tensors={"token_level_rewards": tlr, "advantages": advs, "response_mask": mask},
        non_tensors={"uid": np.repeat(np.array(["g0", "g2"], dtype=object), 4),
                     "extra_info": infos},
    )  # fmt: skip
    twin.bind_rows(["g0", "g2"], [rows[0], rows[2]])
    twin.observe(legacy)
    got, want = trainer._sampler().state_dict(), twin.state_dict()
    for part in ("controller", "prompts", "queues"):  # last_uids: V1 also names the left-out g1
        assert as_json(got[part]) == as_json(want[part]), part
    assert as_json(got["controller"]) != trainer_before["controller"]  # the update happened
    transfer_queue.kv_clear(keys=batch.keys, partition_id="train")


class RecordingAgentLoop:
    """Where V1 hands prompts to rollout (its agent-loop manager needs rollout servers)."""

    def __init__(self):
        self.batches = []

    def generate_sequences(self, batch):
        self.batches.append(batch)


def test_a_v1_refill_submits_rows_the_controller_allocated_with_bound_uids(assets, transfer_queue):
    root, tok = assets
    trainer = v1_trainer(root, tok, refill_failed=True)
    trainer.agent_loop_manager = RecordingAgentLoop()
    twin = copy.deepcopy(trainer._sampler())
    assert trainer._add_prompts_to_generate(3) == 3  # V1's refill_fn, 3 failed groups
    (batch,) = trainer.agent_loop_manager.batches
    rows = twin.extra_rows()[:3]
    assert prompts(batch) == [str(trainer.train_dataset[int(r)]["raw_prompt"]) for r in rows]
    uids = [str(u) for u in column(batch, "uid")]
    assert [trainer._sampler()._uid_rows[u] for u in uids] == rows.tolist()
    # registered in the TransferQueue as pending prompts, as V1 registers its own
    listed = transfer_queue.kv_list("train")["train"]
    assert all(listed[u]["status"] == "pending" for u in uids)
    transfer_queue.kv_clear(keys=uids, partition_id="train")


# ----- dynamic sampling ---------------------------------------------------------------------------
# The same scripted rollout on both trainers: a prompt's rewards follow from its text, so the V1
# and the legacy step see the same rewards for the same allocation. A third of the prompts are
# solved by every response, a third by none (both dropped by filter_groups), a third half and
# half; one prompt in five has a response the reward could not judge (response 1).
DS = {"metric": "acc"}
LENGTH = 3  # every response: 3 tokens, its reward at the last


def scripted(prompt) -> tuple[list[float], list[float]]:
    """The 4 responses' rewards and ``scored`` flags of a prompt."""
    code = zlib.crc32(str(prompt).encode())
    rewards = [[1.0] * 4, [0.0] * 4, [1.0, 0.0, 0.0, 1.0]][code % 3]
    scored = [1.0, 0.0, 1.0, 1.0] if code % 5 == 0 else [1.0] * 4
    return [r * s for r, s in zip(rewards, scored)], scored


class ScriptedAgentLoop:
    """V1's agent loop as the replay buffer sees it: every prompt of a submitted batch ends
    ``finished`` with 4 trajectories in the TransferQueue (written last prompt first: completion
    order is not submission order). Records the prompts of each submission."""

    def __init__(self, tq, fail_first: bool = False):
        self.tq = tq
        self.fail_first = fail_first  # the first prompt of each submission: a failed rollout
        self.submissions: list[list[str]] = []
        self.prompt_of: dict[str, str] = {}

    def generate_sequences(self, batch):
        from verl.utils.tensordict_utils import list_of_dict_to_tensordict

        uids, prompts_ = [str(u) for u in column(batch, "uid")], prompts(batch)
        infos = [_plain(i) for i in column(batch, "extra_info")]
        self.submissions.append(prompts_)
        self.prompt_of.update(zip(uids, prompts_))
        for k, (uid, prompt, info) in reversed(list(enumerate(zip(uids, prompts_, infos)))):
            if self.fail_first and k == 0:  # every session failed: no trajectory
                self.tq.kv_put(key=uid, partition_id="train", tag={"status": "failure"})
                continue
            rewards, scored = scripted(prompt)
            keys, fields = [], []
            for j in range(4):
                score = torch.zeros(LENGTH)
                score[-1] = rewards[j]
                keys.append(f"{uid}_{j}_0")
                fields.append({"uid": uid, "response_mask": torch.ones(LENGTH, dtype=torch.int64),
                               "rm_scores": score, "extra_info": info,
                               "extra_fields": {"reward_extra_info": {
                                   "acc": rewards[j], "scored": scored[j],
                                   "reason": "ok" if scored[j] else "overloaded"}}})  # fmt: skip
            tags = [{"status": "success", "seq_len": LENGTH + 2, "global_steps": 1}] * 4
            self.tq.kv_batch_put(keys=keys, partition_id="train", tags=tags,
                                 fields=list_of_dict_to_tensordict(fields))  # fmt: skip
            self.tq.kv_put(key=uid, partition_id="train", tag={"status": "finished"})


def legacy_rollout(trainer: PACTrainer, batch_dict) -> DataProto:
    """The legacy trainer's rolled-out batch of a dataloader batch (or of extra rows), with the
    scripted rewards, uids bound as its fit binds them."""
    batch = DataProto.from_single_dict(batch_dict)
    p, n = len(batch), 4
    batch.non_tensor_batch["uid"] = np.array([str(uuid.uuid4()) for _ in range(p)], dtype=object)
    trainer._sampler().bind(batch.non_tensor_batch["uid"])
    script = [scripted(x) for x in prompts(batch_dict)]
    out = batch.repeat(repeat_times=n, interleave=True)
    scores = torch.zeros(p * n, LENGTH)
    scores[:, -1] = torch.tensor([r for rewards, _ in script for r in rewards])
    out.batch = out.batch.select()  # the prompt's tensors are not needed here
    out.batch["rm_scores"] = scores
    out.batch["response_mask"] = torch.ones(p * n, LENGTH)
    nt = out.non_tensor_batch
    nt["acc"] = np.array([r for rewards, _ in script for r in rewards], dtype=object)
    nt["scored"] = np.array([s for _, scored in script for s in scored], dtype=object)
    nt["reason"] = np.array(["ok" if s else "overloaded" for s in nt["scored"]], dtype=object)
    return out


def legacy_step(trainer: PACTrainer, loader_it, metrics: dict) -> DataProto:
    """The legacy trainer's step as its fit runs it: rollout, ``_dynamic_sampling`` (extra
    generation batches from the controller), verl's GRPO advantages, the controller's update."""
    from verl.trainer.ppo.core_algos import compute_grpo_outcome_advantage

    collate = trainer.train_dataloader.collate_fn
    trainer._generate_rows = lambda rows: legacy_rollout(
        trainer, collate([trainer.train_dataset[int(i)] for i in rows])
    )
    batch = legacy_rollout(trainer, next(loader_it))
    trainer._dynamic_sampling(batch, metrics)
    batch.batch["token_level_rewards"] = batch.batch["rm_scores"]
    batch.batch["advantages"], _ = compute_grpo_outcome_advantage(
        batch.batch["rm_scores"], batch.batch["response_mask"], batch.non_tensor_batch["uid"]
    )
    metrics.update(leave_out_unscored(batch, 1))
    metrics.update(trainer._sampler().observe(batch))
    return batch


def v1_step(trainer: PACTrainerV1, tq, metrics: dict):
    """V1's step up to its feedback, as ``_step_once`` runs it: the first allocation submitted
    (``prepare_step``), the replay buffer's sample, ``_compute_advantage``."""
    trainer.prepare_step()
    batch, sample_metrics = trainer.replay_buffer.sample(
        global_steps=trainer.global_steps, partition_id="train", batch_size=B
    )
    metrics.update(sample_metrics)
    trainer._compute_advantage(batch, metrics)
    return batch


def ds_trainers(assets, tq, refill_failed=False, **fg):
    root, tok = assets
    v1 = v1_trainer(root, tok, refill_failed, filter_groups={**DS, **fg})
    v1.agent_loop_manager = ScriptedAgentLoop(tq, fail_first=refill_failed)
    legacy = legacy_trainer(root, tok, filter_groups={**DS, **fg})
    legacy.use_rm = False  # the rollout returns rm_scores
    return v1, legacy


def group_prompts(loop: ScriptedAgentLoop, uids) -> list[str]:
    """The prompts of the groups ``uids`` (one per group), sorted."""
    return sorted(loop.prompt_of[u] for u in dict.fromkeys(uids))


def test_v1_dynamic_sampling_feeds_and_allocates_as_the_legacy_one(assets, transfer_queue):
    """From the same controller state and the same rewards, V1's dynamic sampling trains the
    same groups, hands the controller the same dropped ones, draws the same extra generation
    batches and then the same next allocation as the legacy trainer's."""
    v1, legacy = ds_trainers(assets, transfer_queue)
    legacy_it = iter(legacy.train_dataloader)
    seen = collections.Counter()
    for _ in range(2):
        got, want = {}, {}
        batch = v1_step(v1, transfer_queue, got)
        trained = legacy_step(legacy, legacy_it, want)
        step = read_step(batch.keys, batch.tags, "train")
        first = {u: i for i, u in reversed(list(enumerate(trained.non_tensor_batch["uid"])))}
        assert group_prompts(v1.agent_loop_manager, step.non_tensor_batch["uid"]) == sorted(
            str(trained.non_tensor_batch["raw_prompt"][i]) for i in first.values()
        )
        assert len(set(step.non_tensor_batch["uid"])) == B
        for key in ("gen_batches", "dropped_groups", "surplus_groups", "unscored_groups"):
            assert got[f"curriculum/dynamic/{key}"] == want[f"curriculum/dynamic/{key}"], key
        assert got["curriculum/unscored_groups"] == want["curriculum/unscored_groups"] == 0
        sv, sl = v1._sampler().state_dict(), legacy._sampler().state_dict()
        for part in ("controller", "prompts", "queues"):
            assert as_json(sv[part]) == as_json(sl[part]), part
        # nothing but the trained step is left in the TransferQueue
        assert set(transfer_queue.kv_list("train").get("train", {})) == set(batch.keys)
        transfer_queue.kv_clear(keys=batch.keys, partition_id="train")  # as V1's fit does
        v1.global_steps += 1
        seen.update({k: got[f"curriculum/dynamic/{k}"] for k in
                     ("gen_batches", "dropped_groups", "surplus_groups", "unscored_groups")})  # fmt: skip
    # the script exercises every case: extra generation batches, dropped, surplus and unscored
    assert seen["gen_batches"] > 2 and min(seen.values()) > 0
    assert prompts(v1._next_train_batch()) == prompts(next(legacy_it))  # the next allocation


def test_v1_dynamic_sampling_refills_from_the_controller_and_feeds_back_dropped_groups(
    assets, transfer_queue
):
    v1, _ = ds_trainers(assets, transfer_queue)
    sampler = v1._sampler()
    twin = copy.deepcopy(sampler)  # the controller before the step
    updates = []
    update = sampler.controller.update
    sampler.controller.update = lambda ids, r, a: (updates.append((ids, r, a)), update(ids, r, a))
    metrics: dict = {}
    batch = v1_step(v1, transfer_queue, metrics)
    loop = v1.agent_loop_manager
    # every generation batch is a whole allocation of the controller, the first from the
    # dataloader, the others drawn while too few groups had reward spread
    assert len(loop.submissions) == metrics["curriculum/dynamic/gen_batches"] > 1
    for submitted in loop.submissions:
        rows = twin.extra_rows()
        assert submitted == [str(v1.train_dataset[int(r)]["raw_prompt"]) for r in rows]
    # the judged groups without spread, in generation order, go to the controller with advantage
    # 0 after the B trained groups; groups with an unscored response go nowhere
    flat, unscored = [], 0
    for submitted in loop.submissions:
        for prompt in submitted:
            rewards, scored = scripted(prompt)
            if min(scored) < 1:
                unscored += 1
            elif min(rewards) == max(rewards):
                flat.append(rewards)
    assert metrics["curriculum/dynamic/dropped_groups"] == len(flat) > 0
    assert metrics["curriculum/dynamic/unscored_groups"] == unscored > 0
    ((ids, rewards, advantages),) = updates
    assert len(ids) == B + len(flat)
    assert rewards[B:].tolist() == flat
    assert not advantages[B:].any()
    assert np.all(rewards[:B].max(axis=1) > rewards[:B].min(axis=1))  # trained: with spread
    transfer_queue.kv_clear(keys=batch.keys, partition_id="train")


def test_v1_dynamic_sampling_clears_failed_rollouts_and_feeds_them_to_no_controller(
    assets, transfer_queue
):
    """With ``sync_refill_failed_groups`` a group without trajectories (every session failed)
    is cleared like a dropped one, but has no reward to feed back."""
    v1, _ = ds_trainers(assets, transfer_queue, refill_failed=True)
    sampler = v1._sampler()
    updates = []
    update = sampler.controller.update
    sampler.controller.update = lambda ids, r, a: (updates.append(ids), update(ids, r, a))
    metrics: dict = {}
    batch = v1_step(v1, transfer_queue, metrics)
    loop = v1.agent_loop_manager
    failed = [submitted[0] for submitted in loop.submissions]
    assert metrics["training/rollout_failure/evicted_samples"] == len(failed) > 0
    flat = [p for submitted in loop.submissions for p in submitted[1:]
            if min(scripted(p)[1]) == 1 and len(set(scripted(p)[0])) == 1]  # fmt: skip
    assert metrics["curriculum/dynamic/dropped_groups"] == len(flat)
    (ids,) = updates
    assert len(ids) == B + len(flat)  # the failed groups are not in the controller's update
    generated = metrics["curriculum/dynamic/gen_batches"] * B
    counted = ("surplus_groups", "dropped_groups", "unscored_groups")
    assert generated == B + len(failed) + sum(metrics[f"curriculum/dynamic/{k}"] for k in counted)
    assert set(transfer_queue.kv_list("train").get("train", {})) == set(batch.keys)
    transfer_queue.kv_clear(keys=batch.keys, partition_id="train")


def test_v1_dynamic_sampling_stops_at_max_num_gen_batches_as_the_legacy_one(assets, transfer_queue):
    v1, legacy = ds_trainers(assets, transfer_queue, max_num_gen_batches=1)
    with pytest.raises(UserError) as legacy_error:
        legacy_step(legacy, iter(legacy.train_dataloader), {})
    pattern = r"^dynamic sampling: 1 generation batches gave \d+ groups .*\.max_num_gen_batches"
    with pytest.raises(UserError, match=pattern) as v1_error:
        v1_step(v1, transfer_queue, {})
    assert str(v1_error.value) == str(legacy_error.value)  # the same groups kept, one line
    listed = transfer_queue.kv_list("train").get("train", {})
    transfer_queue.kv_clear(keys=list(listed), partition_id="train")

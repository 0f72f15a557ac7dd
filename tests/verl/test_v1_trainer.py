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

import copy
import json
import sys
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
from pac_verl.verl.trainer import PACTrainer
from pac_verl.verl.v1_trainer import PACTrainerV1, check_v1_config

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


def trainer_config(root, refill_failed: bool, curriculum="pac", **data):
    cfg = data_config(root, {"name": curriculum}, **data)
    return OmegaConf.create({
        "data": {**OmegaConf.to_container(cfg), "val_files": cfg.train_files, "shuffle": True,
                 "val_batch_size": None, "validation_shuffle": False},
        "trainer": {"total_epochs": 1, "total_training_steps": 3,
                    "v1": {"trainer_mode": "sync",
                           "sampler": {"sync_refill_failed_groups": refill_failed}}},
        "algorithm": {"adv_estimator": "grpo", "use_kl_in_reward": False, "gamma": 1.0,
                      "lam": 1.0, "norm_adv_by_std_in_grpo": True,
                      "filter_groups": {"enable": False}},
        "actor_rollout_ref": {"actor": {"optim": {}}, "rollout": {"n": 4}},
        "critic": {"optim": {}},
    })  # fmt: skip


def v1_trainer(root, tok, refill_failed=False, curriculum="pac", **data) -> PACTrainerV1:
    trainer = PACTrainerV1.__new__(PACTrainerV1)  # the dataloader and advantages need no workers
    trainer.config = trainer_config(root, refill_failed, curriculum, **data)
    trainer.trainer_mode, trainer.parameter_sync_step = "sync", 1
    trainer.tokenizer, trainer.processor, trainer.global_steps = tok, None, 1
    trainer._init_dataloader()
    return trainer


def legacy_trainer(root, tok) -> PACTrainer:
    trainer = PACTrainer.__new__(PACTrainer)
    trainer.config = trainer_config(root, False)
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


def test_v1_refuses_dynamic_sampling_and_other_modes_with_one_line(assets):
    root, _ = assets
    cfg = trainer_config(root, False)
    cfg.algorithm.filter_groups.enable = True
    with pytest.raises(UserError, match=r"^algorithm\.filter_groups with trainer\.use_v1=true"):
        check_v1_config(cfg)
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

"""PACSampler and feedback with real verl objects (either supported line): RLHFDataset,
StatefulDataLoader, DataProto and verl's own GRPO advantage."""

import sys
from pathlib import Path

import numpy as np
import pytest
from omegaconf import OmegaConf
from verl import DataProto
from verl.utils.dataset.rl_dataset import RLHFDataset

from pac_verl.data_prep.multi_level import build_multi_level
from pac_verl.data_prep.rows import make_row, write_parquet
from pac_verl.errors import UserError
from pac_verl.verl.feedback import extract_feedback
from pac_verl.verl.sampler import PACSampler, build_sampler

sys.path.insert(0, str(Path(__file__).parents[1]))
from sampler_helpers import B, data_config, fake_step, make
from verl_helpers import make_tokenizer
from verl_standins import worker_output

pytestmark = pytest.mark.verl_line


def _is_td(batch) -> bool:
    return not isinstance(batch, DataProto)  # verl 0.9.1's trainer hands workers a TensorDict


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    root = tmp_path_factory.mktemp("verl")
    build_multi_level(root / "data", 6, 2, seed=0, quiet=True, workers=1)  # 9 arms x 6 rows
    return root, make_tokenizer(root / "tok")


def arm_of(info):
    return f"{info['type']}/{info['difficulty']}"


def test_build_sampler_builds_ours_and_arms_come_from_extra_info(setup):
    root, tok = setup
    _, sampler, loader = make(root, tok, {"name": "pac"})
    assert isinstance(sampler, PACSampler)
    assert sampler.arms == sorted(
        f"{t}/{lv}" for t in ("arc", "countdown", "zebra") for lv in (1, 2, 3)
    )
    batch = next(iter(loader))
    assert len(batch["extra_info"]) == B


def test_single_task_batches_only_hold_that_arm_even_after_filtering(setup):
    root, tok = setup
    # A prompt-length cap of 300 tokens filters zebra/3 (~430 tokens with this tokenizer), whose
    # rows come before arc's in the file: arc's positions shift, its arm map must not.
    dataset, _, loader = make(root, tok, {"name": "single", "train_arms": ["arc/2"]},
                              max_prompt_length=300)  # fmt: skip
    assert len(dataset) <= 54 - 6
    for _, batch in zip(range(3), loader, strict=False):
        assert {arm_of(info) for info in batch["extra_info"]} == {"arc/2"}


def test_feedback_groups_by_uid_not_position(setup):
    root, tok = setup
    _, _, loader = make(root, tok, {"name": "pac"})
    batch = next(iter(loader))
    data, rewards = fake_step(batch, np.random.default_rng(0))
    fb = extract_feedback(data, ["type", "difficulty"])
    order = np.argsort(fb.uids.astype(str))  # u0 .. u7 sort as strings fine for < 10 prompts
    np.testing.assert_array_equal(np.sort(fb.rewards[order], axis=1), np.sort(rewards, axis=1))
    assert fb.arms == [arm_of(batch["extra_info"][int(u[1:])]) for u in fb.uids]
    # GRPO: within a prompt the advantages are (r - mean) / (std + eps); sign follows the reward
    for r, a in zip(fb.rewards, fb.advantages, strict=True):
        if r.min() != r.max():
            assert np.all((a > 0) == (r > r.mean()))
        else:
            assert np.allclose(a, 0.0)


def test_update_is_idempotent_per_step(setup):
    root, tok = setup
    _, sampler, loader = make(root, tok, {"name": "pac"})
    data, _ = fake_step(next(iter(loader)), np.random.default_rng(1))
    sampler.observe(data)
    sampler.update(data)  # verl calls this after the checkpoint: must not count the step twice
    assert sampler.controller.step == 1


def test_state_round_trip_resumes_the_same_batches(setup):
    root, tok = setup
    rng = np.random.default_rng(2)
    _, sampler, loader = make(root, tok, {"name": "pac", "cold_start": 1})
    it = iter(loader)
    for _ in range(2):
        data, _ = fake_step(next(it), rng)
        sampler.observe(data)
    state = loader.state_dict()
    rest = []
    for _ in range(3):
        batch = next(it)
        rest.append([arm_of(i) + str(i["index"]) for i in batch["extra_info"]])
        data, _ = fake_step(batch, np.random.default_rng(len(rest)))
        sampler.observe(data)
    _, sampler2, loader2 = make(root, tok, {"name": "pac", "cold_start": 1})
    loader2.load_state_dict(state)
    it2 = iter(loader2)
    for k in range(3):
        batch = next(it2)
        assert [arm_of(i) + str(i["index"]) for i in batch["extra_info"]] == rest[k]
        data, _ = fake_step(batch, np.random.default_rng(k + 1))
        sampler2.observe(data)
    assert sampler2.controller.state_dict() == sampler.controller.state_dict()


def test_a_row_without_the_arm_field_names_file_row_and_field(setup, tmp_path):
    root, tok = setup
    rows = [make_row(data_source="math", prompt="w1 w2", task_type="math", ground_truth="1",
                     split="train", index=i) for i in range(4)]  # fmt: skip
    write_parquet(rows, tmp_path / "t.parquet")
    cfg = data_config(root, {"name": "pac"})
    cfg.train_files = str(tmp_path / "t.parquet")
    dataset = RLHFDataset(cfg.train_files, tok, cfg)
    with pytest.raises(UserError, match=r"t.parquet row 0: extra_info has no 'difficulty'"):
        build_sampler(cfg, dataset)


class _ActorWorkers:
    """Stand-in for the FSDP actor worker group: returns verl's metric payload, trains nothing."""

    def update_actor(self, batch):
        return worker_output(
            batch, {"pg_loss": [0.5]} if _is_td(batch) else {"actor/pg_loss": [0.5]}
        )


def test_trainer_hook_updates_the_controller_before_the_checkpoint_and_logs_metrics(setup):
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer

    from pac_verl.verl.trainer import PACTrainer

    root, tok = setup
    _, sampler, loader = make(root, tok, {"name": "pac"})
    trainer = PACTrainer.__new__(PACTrainer)  # the hook needs no Ray workers
    trainer.config = OmegaConf.create({"actor_rollout_ref": {
        "rollout": {"multi_turn": {"enable": False}, "temperature": 1.0, "n": 4},
        "actor": {"calculate_entropy": False, "entropy_coeff": 0.0, "ppo_mini_batch_size": B,
                  "ppo_epochs": 1, "data_loader_seed": 0, "shuffle": False}}})  # fmt: skip
    trainer.use_legacy_worker_impl = "enable"
    trainer.actor_rollout_wg, trainer.train_dataloader = _ActorWorkers(), loader
    assert issubclass(PACTrainer, RayPPOTrainer)
    data, _ = fake_step(next(iter(loader)), np.random.default_rng(3))
    out = trainer._update_actor(data)
    metrics = out.meta_info["metrics"]
    assert metrics["actor/pg_loss"] == [0.5]
    assert sampler.controller.step == 1
    assert {f"curriculum/{a}/share" for a in sampler.arms} <= set(metrics)
    assert "curriculum/entropy" in metrics
    sampler.update(data)  # a second call for the same step: a no-op
    assert sampler.controller.step == 1

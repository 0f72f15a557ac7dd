"""DUMP's validation-score update (docs/concepts/baselines.md; the released code calls ``update_weights`` with
each validation data source's mean score): an option of the DUMP controller, on by default as in
that code, fed by the trainer after every validation. Numbers are hand-computed from
score_i = mean|A|_i + c * sqrt(2 ln(N + 1) / (n_i + 1)) with c = 1."""

import math
import sys
from pathlib import Path

import numpy as np
import pytest
from omegaconf import OmegaConf

from pac_verl.curriculum import make_controller

sys.path.insert(0, str(Path(__file__).parents[1]))


def test_a_validation_score_is_one_window_value_and_one_sample():
    c = make_controller("dump", ["a", "b"], batch_size=4, seed=0, window=4)
    assert c.config.validation_update is True  # the authors' code
    assert c.observe_validation({"a": 0.5, "not-an-arm": 1.0}) == ["a"]
    # seen = [1, 0], N = 1: a = 0.5 + sqrt(2 ln 2 / 2), b = 0 + sqrt(2 ln 2 / 1)
    expected = [0.5 + math.sqrt(math.log(2)), math.sqrt(2 * math.log(2))]
    assert [c.metrics()[f"curriculum/{a}/utility"] for a in "ab"] == pytest.approx(expected)
    assert c.observe_validation({"a": 0.9}) == []  # a second validation of the same step
    state = c.state_dict()
    c.update(np.array([1]), np.array([[1.0, 0.0]]), np.array([[1.0, -1.0]]))
    assert c.observe_validation({"a": 0.9}) == ["a"]  # a new step: counted
    resumed = make_controller("dump", ["a", "b"], batch_size=4, seed=0, window=4)
    resumed.load_state_dict(state)
    assert resumed.observe_validation({"a": 0.5}) == []  # the resumed step was already counted


def test_the_option_off_learns_from_training_only():
    c = make_controller("dump", ["a", "b"], batch_size=4, seed=0, validation_update=False)
    before = c.metrics()
    assert c.observe_validation({"a": 0.5}) == []
    assert c.metrics() == before


def test_the_trainer_hands_verls_validation_metrics_to_the_controller(tmp_path, monkeypatch):
    from torchdata.stateful_dataloader import StatefulDataLoader
    from verl.trainer.ppo.ray_trainer import RayPPOTrainer
    from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn
    from verl_helpers import make_tokenizer

    from pac_verl.data_prep.multi_level import build_multi_level
    from pac_verl.verl.sampler import build_sampler
    from pac_verl.verl.trainer import PACTrainer

    build_multi_level(tmp_path / "data", 2, 1, seed=0, quiet=True, workers=1)
    cfg = OmegaConf.create({
        "train_files": str(tmp_path / "data" / "train.parquet"), "train_batch_size": 4,
        "max_prompt_length": 100_000, "filter_overlong_prompts": False,
        "cache_dir": str(tmp_path / "cache"), "dataloader_num_workers": 0,
        "curriculum": {"name": "dump", "arm_fields": ["type", "difficulty"], "seed": 0},
    })  # fmt: skip
    dataset = RLHFDataset(cfg.train_files, make_tokenizer(tmp_path / "tok"), cfg)
    sampler = build_sampler(cfg, dataset)
    trainer = PACTrainer.__new__(PACTrainer)  # no Ray workers: verl's validation is stood in for
    trainer.train_dataloader = StatefulDataLoader(dataset, batch_size=4, sampler=sampler,
                                                  collate_fn=collate_fn)  # fmt: skip
    metrics = {"val-core/countdown/1/acc/mean@1": 0.25, "val-core/countdown/4/acc/mean@1": 0.75,
               "val-aux/countdown/1/reward/mean@1": 0.25, "val-core/zebra/2/acc/mean@1": 0.5}  # fmt: skip
    monkeypatch.setattr(RayPPOTrainer, "_validate", lambda self, *a, **k: dict(metrics))
    assert trainer._validate() == metrics  # verl's metrics pass through unchanged
    ctrl = sampler.controller
    seen = dict(zip(ctrl.arms, ctrl.seen.tolist(), strict=True))
    assert seen["countdown/1"] == 1 and seen["zebra/2"] == 1  # countdown/4 is no training arm
    assert sum(seen.values()) == 2
    i = ctrl.arms.index("countdown/1")
    assert ctrl.buffer[i, 0] == 0.25

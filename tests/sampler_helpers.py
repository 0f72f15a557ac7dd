"""verl's real dataset and dataloader around ``PACSampler`` (built as the trainer builds it), and a stand-in for a
training step (random rewards, verl's own GRPO advantages, rows shuffled as ``balance_batch`` does)."""

from __future__ import annotations

import numpy as np
import torch
from omegaconf import OmegaConf
from torchdata.stateful_dataloader import StatefulDataLoader
from verl import DataProto
from verl.trainer.ppo.core_algos import compute_grpo_outcome_advantage
from verl.utils.dataset.rl_dataset import RLHFDataset, collate_fn

from pac_verl.verl.sampler import build_sampler

B = 8


def data_config(root, curriculum, **extra):
    return OmegaConf.create({
        "train_files": str(root / "data" / "train.parquet"), "train_batch_size": B,
        "max_prompt_length": 100_000, "filter_overlong_prompts": True,
        "filter_overlong_prompts_workers": 1, "cache_dir": str(root / "cache"),
        "dataloader_num_workers": 0,
        "curriculum": {"arm_fields": ["type", "difficulty"], "seed": 0, **curriculum}, **extra,
    })  # fmt: skip


def make(root, tok, curriculum, **extra):
    cfg = data_config(root, curriculum, **extra)
    dataset = RLHFDataset(cfg.train_files, tok, cfg)
    sampler = build_sampler(cfg, dataset)
    loader = StatefulDataLoader(dataset, batch_size=B, sampler=sampler, drop_last=True,
                                num_workers=0, collate_fn=collate_fn)  # fmt: skip
    return dataset, sampler, loader


def fake_step(batch, rng, g=4):
    """Roll out g responses per prompt with random 0/1 rewards; verl's GRPO advantages; shuffle rows."""
    p = len(batch["extra_info"])
    uids = np.repeat(np.array([f"u{i}" for i in range(p)], dtype=object), g)
    rewards = torch.tensor(rng.integers(0, 2, size=p * g), dtype=torch.float32)
    length = 5
    mask = torch.ones(p * g, length)
    tlr = torch.zeros(p * g, length)
    tlr[:, -1] = rewards
    adv, _ = compute_grpo_outcome_advantage(tlr, mask, uids)
    infos = np.repeat(np.asarray(batch["extra_info"], dtype=object), g)
    perm = rng.permutation(p * g)  # balance_batch reorders rows
    prompt = 3  # the sequence: 3 prompt tokens, then the response (what an actor update reads)
    data = DataProto.from_dict(
        tensors={
            "token_level_rewards": tlr[perm],
            "advantages": adv[perm],
            "response_mask": mask[perm],
            "input_ids": torch.ones(p * g, prompt + length, dtype=torch.long),
            "attention_mask": torch.ones(p * g, prompt + length, dtype=torch.long),
            "position_ids": torch.arange(prompt + length).repeat(p * g, 1),
        },
        non_tensors={"uid": uids[perm], "extra_info": infos[perm]},
    )
    return data, rewards.numpy().reshape(p, g)

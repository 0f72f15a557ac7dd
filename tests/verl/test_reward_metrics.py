"""Reward metrics per arm and task type from a step batch.

The end-to-end path (our reward's keys through verl's own ``fit`` into the run log) is checked in
``test_fit.py``; here the numbers, against hand calculations."""

import logging

import numpy as np
import pytest
import torch
from verl import DataProto

from pac_verl.verl.reward_metrics import reward_metrics


def step_batch(rows):
    """rows: (type, difficulty, reason, latency_s)."""
    return DataProto.from_dict(
        tensors={"responses": torch.zeros(len(rows), 1, dtype=torch.long)},
        non_tensors={
            "extra_info": np.array([{"type": t, "difficulty": d} for t, d, _, _ in rows]),
            "reason": np.array([r for _, _, r, _ in rows]),
            "latency_s": np.array([lat for *_, lat in rows]),
        },
    )


ROWS = [
    ("math", 1, "ok", 0.1),
    ("math", 1, "grader_timeout", 0.4),
    ("math", 1, "ok", 0.2),
    ("math", 2, "no_boxed", 0.3),
    ("countdown", 1, "ok", 0.001),
    ("countdown", 1, "too_large", 0.003),
]


def test_reason_counts_per_arm_and_latency_percentiles_per_type(caplog):
    with caplog.at_level(logging.WARNING):
        m = reward_metrics(step_batch(ROWS), ["type", "difficulty"])
    assert m["reward/math/1/reason/ok"] == 2.0
    assert m["reward/math/1/reason/grader_timeout"] == 1.0
    assert m["reward/math/2/reason/no_boxed"] == 1.0
    assert m["reward/countdown/1/reason/too_large"] == 1.0
    assert "reward/math/2/reason/ok" not in m  # only what happened
    # math latencies 0.1 0.2 0.3 0.4 (sorted): p50 = (0.2 + 0.3) / 2 = 0.25;
    # p99 sits at rank 0.99 * 3 = 2.97: 0.3 + 0.97 * 0.1 = 0.397
    assert m["reward/math/latency_p50"] == pytest.approx(0.25)
    assert m["reward/math/latency_p99"] == pytest.approx(0.397)
    assert m["reward/countdown/latency_p50"] == pytest.approx(0.002)
    assert "math/1 grader_timeout x1" in caplog.text  # the run log names what was not judged


def test_without_arm_fields_the_task_type_is_the_arm_and_foreign_rewards_are_ignored():
    m = reward_metrics(step_batch(ROWS))
    assert m["reward/math/reason/ok"] == 2.0
    foreign = DataProto.from_dict(
        tensors={"responses": torch.zeros(1, 1)},
        non_tensors={"extra_info": np.array([{"type": "math"}])},
    )
    assert reward_metrics(foreign) == {}


def test_unscored_responses_are_counted_per_arm_and_named_in_the_log(caplog):
    rows = [("math", 1, "ok", 0.1), ("math", 1, "grader_timeout", 0.4),
            ("math", 1, "overloaded", 0.2), ("math", 2, "timeout", 0.3),
            ("zebra", 1, "ok", 0.1)]  # fmt: skip
    batch = step_batch(rows)
    # as our reward marks them: no verdict for grader_timeout and overloaded; a slow program's
    # timeout is a verdict
    batch.non_tensor_batch["scored"] = np.array([1.0, 0.0, 0.0, 1.0, 1.0])
    with caplog.at_level(logging.WARNING):
        m = reward_metrics(batch, ["type", "difficulty"])
    assert m["reward/math/1/unscored"] == 2.0
    assert m["reward/math/2/unscored"] == 0.0  # every arm of the step, 0 included
    assert m["reward/zebra/1/unscored"] == 0.0
    assert "math/1 grader_timeout x1" in caplog.text and "math/1 overloaded x1" in caplog.text
    assert "math/2 timeout" not in caplog.text

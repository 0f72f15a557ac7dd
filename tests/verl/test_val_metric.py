"""Which validation key verl 0.7.1 logs for our reward function.

verl's ``_val_metrics_update`` makes ``acc`` the core variable whenever the reward function's extra
info has an ``acc`` key, and ``pac_verl.verifiers.compute_score`` returns one. So the real trainer
logs ``val-core/<data_source>/acc/mean@1``; ``reward`` (the summed token reward) goes to val-aux.
"""

from verl.trainer.ppo.ray_trainer import RayPPOTrainer

from pac_verl.verifiers import compute_score


def test_val_core_key_is_acc_mean_at_1_for_our_reward():
    gt = '{"target": 3, "numbers": [1, 2]}'
    out = compute_score("countdown/1", "no answer", gt)
    assert "acc" in out  # the reason verl picks acc as the core variable
    # two validation prompts of one data source, one response each (val_kwargs.n = 1)
    infos = {"reward": [1.0, 0.0], **{k: [1.0, 0.0] for k in out if k != "score"}}
    metrics = RayPPOTrainer._val_metrics_update(
        None, ["countdown/1", "countdown/1"], ["u0", "u1"], infos, []
    )
    assert metrics["val-core/countdown/1/acc/mean@1"] == 0.5  # (1 + 0) / 2
    assert "val-core/countdown/1/reward/mean@1" not in metrics
    assert metrics["val-aux/countdown/1/reward/mean@1"] == 0.5

"""The memory planner and the disk estimate against hand calculations (docs/guides/planner.md).

Hand figures come from the models' published architectures (the config.json shipped in
configs/models/) and the byte counts the planner's docstring states: fp32 parameters, gradients
and two Adam states sharded over the data-parallel GPUs, 6 bytes per logit entry without
gradients and 8 with them (three and four bf16 copies: what scripts/gpu/planner_check.py measured
for verl's code on a GPU, docs/results/planner-gpu.md), and AdamW's foreach step holding one more
fp32 copy of the parameter shard.
"""

import itertools
import json
import os
import subprocess
import sys

import pytest

from pac_verl.compose import compose_config
from pac_verl.errors import UserError
from pac_verl.plan.disk import plan_disk
from pac_verl.plan.host import plan_host
from pac_verl.plan.memory import GIB, Hardware, plan_memory
from pac_verl.plan.model import ModelShape, load_shape

N_3B = 3_085_938_688
N_7B = 7_615_616_512
N_32B = 32_763_876_352
SEQ = 2048 + 4096  # paper: prompts <= 2,048 and responses <= 4,096 tokens


def parts(plan, phase):
    return next(p for p in plan.phases if p.name == phase).parts


def test_parameter_counts_are_the_published_architectures():
    s = load_shape("Qwen/Qwen2.5-3B")
    # Qwen2.5-3B: H 2048, I 11008, 36 layers, 16 heads of 128, 2 KV heads, tied 151,936 x 2048
    layer = (
        (2048 * 2048 + 2048) + 2 * (2048 * 256 + 256) + 2048 * 2048 + 3 * 2048 * 11008 + 2 * 2048
    )
    assert s.layer_params == layer == 77_076_992
    assert s.params == 36 * layer + 151_936 * 2048 + 2048 == N_3B
    # the model cards: 3.09B (2.77B non-embedding), 7.61B (6.53B)
    assert round(N_3B / 1e9, 2) == 3.09 and round((N_3B - 151_936 * 2048) / 1e9, 2) == 2.77
    s7 = load_shape("Qwen/Qwen2.5-7B")
    assert s7.params == N_7B and abs(N_7B / 1e9 - 7.61) < 0.01
    assert round((N_7B - 2 * 152_064 * 3584) / 1e9, 2) == 6.53
    assert load_shape("Qwen/Qwen2.5-32B").params == N_32B


def test_kv_cache_per_token_splits_kv_heads_over_tensor_parallel_ranks():
    s = load_shape("Qwen/Qwen2.5-32B")  # 64 layers, 8 KV heads of 128
    assert s.kv_bytes_per_token(1) == 2 * 64 * 8 * 128 * 2 == 262_144
    assert s.kv_bytes_per_token(4) == 2 * 64 * 2 * 128 * 2
    assert s.kv_bytes_per_token(16) == 2 * 64 * 1 * 128 * 2  # replicated past 8 ranks


def test_the_32b_config_of_the_issue_materialises_65_gb_per_gpu_under_fsdp1():
    # the reported case: "offloads parameters and optimizer but still materialises about 65 GB per GPU"
    cfg = compose_config(["backbone=qwen2.5-32b", "actor_rollout_ref.actor.strategy=fsdp",
                          "actor_rollout_ref.actor.fsdp_config.param_offload=true",
                          "actor_rollout_ref.actor.fsdp_config.optimizer_offload=true"])  # fmt: skip
    plan = plan_memory(cfg, load_shape("Qwen/Qwen2.5-32B"))
    up = parts(plan, "update")
    states = up["actor params"] + up["gradients"] + up["actor Adam"]
    assert states * GIB == pytest.approx(16 * N_32B / 8)  # 65.5 GB
    assert parts(plan, "rollout")["actor params"] == parts(plan, "rollout")["actor Adam"] == 0
    assert not plan.fits and any(p.startswith("update:") and "offload_policy" in p
                                 for p in plan.problems)  # fmt: skip


def test_sixteen_full_sequences_of_3b_logits_are_three_times_the_issues_30_gb():
    cfg = compose_config(["actor_rollout_ref.actor.use_dynamic_bsz=false",
                          "actor_rollout_ref.actor.ppo_micro_batch_size_per_gpu=8",
                          "actor_rollout_ref.rollout.log_prob_micro_batch_size_per_gpu=16"])  # fmt: skip
    plan = plan_memory(cfg, load_shape("Qwen/Qwen2.5-3B"))
    bf16_logits = 16 * SEQ * 151_936 * 2  # the reported case: "about 30 GB of logits"
    assert bf16_logits / 1e9 == pytest.approx(29.9, abs=0.05)
    assert parts(plan, "old log-prob")["logits"] * GIB == pytest.approx(3 * bf16_logits)
    assert parts(plan, "update")["logits"] * GIB == pytest.approx(8 * SEQ * 151_936 * 8)


def test_phases_of_the_3b_backbone_by_hand():
    cfg = compose_config(["backbone=qwen2.5-3b"])
    plan = plan_memory(cfg, load_shape("Qwen/Qwen2.5-3B"), Hardware(gpu_gib=80, reserve_gib=5))
    h, i, kvd, v, layers = 2048, 11008, 256, 151_936, 36
    roll = parts(plan, "rollout")
    assert roll["vLLM pool"] == pytest.approx(0.5 * 80)
    assert roll["actor params"] * GIB == pytest.approx(4 * N_3B / 8)
    assert roll["actor Adam"] * GIB == pytest.approx(8 * N_3B / 8)
    lp = parts(plan, "old log-prob")  # 32,768-token budget
    assert lp["logits"] * GIB == pytest.approx(32768 * v * 6)
    assert lp["activations"] * GIB == pytest.approx(32768 * 2 * (4 * h + 2 * kvd + 3 * i))
    up = parts(plan, "update")  # 24,576-token budget, gradient checkpointing
    train_token = 2 * (7 * h + 2 * kvd + 4 * i)
    assert up["activations"] * GIB == pytest.approx(
        layers * 24576 * h * 2 + 24576 * train_token * 2
    )
    assert up["logits"] * GIB == pytest.approx(24576 * v * 8)
    assert up["gradients"] * GIB == pytest.approx(4 * N_3B / 8)
    layer = 77_076_992
    gathered = 2 * 2 * layer + 2 * v * h + 4 * (layer + v * h)
    assert up["gathered layers"] * GIB == pytest.approx(gathered)
    assert up["reserve"] == 5
    assert sum(up.values()) == pytest.approx(next(p for p in plan.phases if p.name == "update").gib)
    # AdamW's step: 4 + 4 + 8 bytes of parameters, gradients and states, + 4 of foreach temporaries
    step = parts(plan, "optimizer step")
    assert (sum(step.values()) - 5) * GIB == pytest.approx(20 * N_3B / 8)


def test_offload_policy_keeps_every_actor_state_off_the_gpu():
    cfg = compose_config(["backbone=qwen2.5-32b"])
    plan = plan_memory(cfg, load_shape("Qwen/Qwen2.5-32B"))
    up = parts(plan, "update")
    assert up["actor params"] == up["gradients"] == up["actor Adam"] == 0
    assert set(parts(plan, "optimizer step").values()) == {0, Hardware().reserve_gib}  # CPU's step
    # vLLM TP 4: a quarter of the bf16 weights per GPU, 2 x 32,763,876,352 / 4 / 2**30 = 15.26 GiB
    assert "weights 15.3" in next(p for p in plan.phases if p.name == "rollout").notes[0]


def test_kl_adds_the_reference_phase_with_its_own_budget():
    cfg = compose_config(["actor_rollout_ref.actor.use_kl_loss=true",
                          "actor_rollout_ref.ref.log_prob_max_token_len_per_gpu=12288"])  # fmt: skip
    plan = plan_memory(cfg, load_shape("Qwen/Qwen2.5-3B"))
    assert [p.name for p in plan.phases] == ["rollout", "old log-prob", "ref log-prob", "update",
                                             "optimizer step"]  # fmt: skip
    assert parts(plan, "ref log-prob")["logits"] * GIB == pytest.approx(12288 * 151_936 * 6)
    off = plan_memory(compose_config([]), load_shape("Qwen/Qwen2.5-3B"))
    assert "ref log-prob" not in [p.name for p in off.phases]


def test_a_token_budget_below_one_sequence_names_the_key():
    cfg = compose_config(["actor_rollout_ref.actor.ppo_max_token_len_per_gpu=4096"])
    with pytest.raises(UserError, match=r"ppo_max_token_len_per_gpu=4096 x .*=1 .* 6144 tokens"):
        plan_memory(cfg, load_shape("Qwen/Qwen2.5-3B"))
    # with Ulysses over 2 GPUs a sequence may be twice the per-GPU budget, as verl allows
    cfg = compose_config(["actor_rollout_ref.actor.ppo_max_token_len_per_gpu=4096",
                          "actor_rollout_ref.actor.ulysses_sequence_parallel_size=2"])  # fmt: skip
    assert plan_memory(cfg, load_shape("Qwen/Qwen2.5-3B")).fits


def test_a_kv_cache_smaller_than_one_sequence_is_refused():
    cfg = compose_config(
        ["backbone=qwen2.5-32b", "actor_rollout_ref.rollout.gpu_memory_utilization=0.2"]
    )
    plan = plan_memory(cfg, load_shape("Qwen/Qwen2.5-32B"))
    assert any("KV cache" in p and "gpu_memory_utilization" in p for p in plan.problems)


@pytest.mark.parametrize(("setting", "backbone"), list(itertools.product(
    ("multi_level", "multi_domain"), ("qwen2.5-3b", "qwen2.5-7b", "qwen2.5-32b"))))  # fmt: skip
def test_every_shipped_backbone_fits_8_x_80_gb(setting, backbone):
    cfg = compose_config([f"setting={setting}", f"backbone={backbone}"])
    plan = plan_memory(cfg, load_shape(cfg.actor_rollout_ref.model.path))
    assert plan.fits, plan.problems
    assert all(p.gib <= Hardware().gpu_gib for p in plan.phases)


def test_disk_by_hand(tmp_path):
    cfg = compose_config([f"trainer.default_local_dir={tmp_path}/ckpt", "trainer.save_freq=50",
                          "trainer.max_actor_ckpt_to_keep=2"])  # fmt: skip
    disk = plan_disk(cfg, load_shape("Qwen/Qwen2.5-3B"))
    # verl 0.7.1 writes the fp32 shards (4), AdamW's two fp32 states (8) and the Hugging Face copy
    # from the fp32 full state dict (4, not bf16's 2): 16 bytes per parameter, 2 kept
    assert disk.parts_gb == pytest.approx({"model": 4 * N_3B / 1e9, "optimizer": 8 * N_3B / 1e9,
                                           "hf_model": 4 * N_3B / 1e9})  # fmt: skip
    assert disk.checkpoint_gb == pytest.approx(16 * N_3B / 1e9)  # 49.4 GB
    assert disk.need_gb == pytest.approx(2 * 16 * N_3B / 1e9)
    no_hf = plan_disk(compose_config([f"trainer.default_local_dir={tmp_path}/ckpt",
                                      "actor_rollout_ref.actor.checkpoint.save_contents=[model,optimizer,extra]"]),
                      load_shape("Qwen/Qwen2.5-3B"))  # fmt: skip
    assert no_hf.checkpoint_gb == pytest.approx(12 * N_3B / 1e9)
    bf16 = plan_disk(compose_config([f"trainer.default_local_dir={tmp_path}/ckpt",
                                     "actor_rollout_ref.actor.fsdp_config.model_dtype=bf16"]),
                     load_shape("Qwen/Qwen2.5-3B"))  # fmt: skip
    assert bf16.checkpoint_gb == pytest.approx(8 * N_3B / 1e9)
    assert disk.free_gb is not None and disk.free_gb > 0  # from the nearest existing parent


@pytest.mark.parametrize(("backbone", "params", "gb"), [("qwen2.5-3b", N_3B, 49),
                                                         ("qwen2.5-7b", N_7B, 122),
                                                         ("qwen2.5-32b", N_32B, 524)])  # fmt: skip
def test_one_checkpoint_of_each_backbone(backbone, params, gb):
    cfg = compose_config([f"backbone={backbone}"])
    disk = plan_disk(cfg, load_shape(cfg.actor_rollout_ref.model.path))
    assert (
        disk.checkpoint_gb == pytest.approx(16 * params / 1e9) and round(disk.checkpoint_gb) == gb
    )


@pytest.mark.parametrize(("keep", "kept"), [("null", 10), (0, 10), (1, 2), (2, 2), (3, 3)])
def test_checkpoints_on_disk_at_once(keep, kept):
    # 500 steps, a save every 50: 10 saves; verl keeps every one for null or 0, and with 1 it
    # removes the old checkpoint only after the new one is written
    cfg = compose_config([f"trainer.max_actor_ckpt_to_keep={keep}"])
    assert plan_disk(cfg, load_shape("Qwen/Qwen2.5-3B")).kept == kept
    cfg = compose_config(["trainer.total_training_steps=520"])  # + the last step's save: 11
    assert plan_disk(cfg, load_shape("Qwen/Qwen2.5-3B")).kept == 2  # ours keeps 2 of them


def test_host_memory_per_node_by_hand():
    # 3B ties its embeddings: verl loads the full fp32 weights on every rank of the node at init
    h3 = plan_host(compose_config(["backbone=qwen2.5-3b"]), load_shape("Qwen/Qwen2.5-3B"))
    assert h3.phases["init"] == pytest.approx(8 * 4 * N_3B / 1e9)  # 98.8 GB
    assert h3.phases["training"] == 0
    # a save: rank 0's fp32 full state dict and the bf16 skeleton save_pretrained fills
    assert h3.phases["checkpoint save"] == pytest.approx((4 + 2) * N_3B / 1e9)
    assert h3.peak_phase == "init"
    # 7B does not tie them: rank 0 loads them alone, and the save is the peak
    h7 = plan_host(compose_config(["backbone=qwen2.5-7b"]), load_shape("Qwen/Qwen2.5-7B"))
    assert h7.phases["init"] == pytest.approx(4 * N_7B / 1e9)
    assert h7.peak_gb == pytest.approx(6 * N_7B / 1e9)  # 45.7 GB, at the save
    # 32B keeps fp32 parameters, gradients and both Adam states in host memory (offload_policy)
    h32 = plan_host(compose_config(["backbone=qwen2.5-32b"]), load_shape("Qwen/Qwen2.5-32B"))
    assert h32.phases["training"] == pytest.approx(16 * N_32B / 1e9)  # 524 GB
    assert h32.peak_gb == pytest.approx((16 + 6) * N_32B / 1e9)  # + 196.6 GB on rank 0: 720.8
    # over 2 nodes the offloaded states halve; rank 0's save does not
    h32x2 = plan_host(compose_config(["backbone=qwen2.5-32b", "trainer.nnodes=2"]),
                      load_shape("Qwen/Qwen2.5-32B"))  # fmt: skip
    assert h32x2.peak_gb == pytest.approx((8 + 6) * N_32B / 1e9)
    assert "offload_policy" in h32.problem(512) and h32.problem(800) is None


def test_vllm_context_is_prompt_plus_response_and_the_kv_check_uses_it():
    cfg = compose_config(["backbone=qwen2.5-7b"])
    assert cfg.actor_rollout_ref.rollout.max_model_len == SEQ
    longer = compose_config(["data.max_response_length=8192"])
    assert longer.actor_rollout_ref.rollout.max_model_len == 2048 + 8192
    # left null, verl gives vLLM the model's max_position_embeddings (131,072 for 7B): at a
    # memory fraction whose KV cache holds 6,144 tokens but not 131,072, only null is refused.
    # TP 2: 28 layers x 2 of the 4 KV heads x 128 x 2 (K, V) x 2 bytes = 28,672 bytes per token
    shape = load_shape("Qwen/Qwen2.5-7B")
    assert shape.kv_bytes_per_token(2) == 28 * 2 * 128 * 2 * 2 == 28_672
    # at 0.14 of 79.6 GiB: 11.1 GiB - 7.1 of weights - 1.1 of work space = 2.9 GiB of KV cache,
    # about 109,000 tokens
    low = ["backbone=qwen2.5-7b", "actor_rollout_ref.rollout.gpu_memory_utilization=0.14"]
    plan = plan_memory(compose_config(low), shape)
    assert plan.facts["vLLM max_model_len"] == SEQ and plan.fits, plan.problems
    null = plan_memory(
        compose_config([*low, "actor_rollout_ref.rollout.max_model_len=null"]), shape
    )
    assert null.facts["vLLM max_model_len"] == 131_072
    assert any("max_model_len=131072" in p for p in null.problems)


def test_local_model_folder_and_missing_config(tmp_path):
    folder = tmp_path / "tiny"
    folder.mkdir()
    cfg = {"hidden_size": 64, "intermediate_size": 128, "num_hidden_layers": 2,
           "num_attention_heads": 4, "num_key_value_heads": 2, "vocab_size": 1000,
           "tie_word_embeddings": True, "model_type": "qwen2"}  # fmt: skip
    (folder / "config.json").write_text(json.dumps(cfg))
    s = load_shape(str(folder))
    assert s == ModelShape(64, 128, 2, 4, 2, 1000, True, True, str(folder / "config.json"))
    with pytest.raises(
        UserError, match=r"no config.json for model 'someone/unknown-model'.*--model-config"
    ):
        load_shape("someone/unknown-model")


def _plan_cli(*args, tmp_path):
    env = {**os.environ, "HF_HUB_OFFLINE": "1"}
    return subprocess.run([sys.executable, "-m", "pac_verl.cli", "plan", *args],
                          capture_output=True, text=True, env=env, cwd=tmp_path)  # fmt: skip


def free_disk(monkeypatch, gb: float) -> None:
    """The free space the plan finds at trainer.default_local_dir (this machine's own varies)."""
    monkeypatch.setattr("pac_verl.plan.disk.free_gb", lambda folder: gb)


def test_cli_prints_the_table_and_exits_1_when_a_phase_does_not_fit(tmp_path, capsys, monkeypatch):
    from pac_verl.plan.cli import main

    free_disk(monkeypatch, 1000)
    assert main(["backbone=qwen2.5-7b"]) == 0
    out = capsys.readouterr().out
    assert "old log-prob" in out and "plan: fits" in out and "disk:" in out
    assert "host RAM per node" in out and "peak 46 GB, at checkpoint save" in out
    assert main(["--gpu-gib", "40"]) == 1
    assert "of 40.0" in capsys.readouterr().out
    # the real command, as a user runs it with no network
    bad = _plan_cli("backbone=qwen2.5-32b", "actor_rollout_ref.actor.fsdp_config.offload_policy=false",
                    tmp_path=tmp_path)  # fmt: skip
    assert bad.returncode == 1
    assert "does not fit: update: needs" in bad.stdout and "offload_policy=true" in bad.stdout
    assert "Traceback" not in bad.stderr


def test_parallel_sizes_that_do_not_divide_are_refused():
    cfg = compose_config(["actor_rollout_ref.rollout.tensor_model_parallel_size=3",
                          "actor_rollout_ref.actor.ulysses_sequence_parallel_size=3"])  # fmt: skip
    problems = plan_memory(cfg, load_shape("Qwen/Qwen2.5-3B")).problems  # 16 heads, 8 GPUs
    assert any("tensor_model_parallel_size=3 does not divide the 8 GPUs" in p for p in problems)
    assert any("ulysses_sequence_parallel_size=3 does not divide" in p for p in problems)


def test_plan_never_says_fits_when_the_checkpoints_do_not_fit_the_disk_it_reports(
    monkeypatch, capsys
):
    from pac_verl.plan.cli import main

    free_disk(monkeypatch, 200)  # two 7B checkpoints need 2 x 16 x 7.6 = 244 GB
    assert main(["backbone=qwen2.5-7b"]) == 1
    out = capsys.readouterr().out
    assert "plan: fits" not in out
    assert "does not fit: disk: 2 checkpoint(s) of 122 GB = 244 GB, 200 GB free" in out
    assert main(["backbone=qwen2.5-7b", "pac.keep_checkpoints=1", "trainer.save_freq=500"]) == 0


def test_a_sweep_plans_every_run(monkeypatch, capsys):
    from pac_verl.plan.cli import main

    free_disk(monkeypatch, 300)  # two 3B checkpoints: 99 GB; ten: 494 GB
    assert main(["curriculum.seed=0,1,2"]) == 0
    out = capsys.readouterr().out
    assert [ln for ln in out.splitlines() if ln.startswith("== ")] == [
        f"== multi_level__qwen2.5-3b__pac__seed{k}" for k in range(3)]  # fmt: skip
    assert "plan: all 3 runs fit" in out
    # the runs that do not fit are named
    assert main(["curriculum.seed=0,1", "pac.keep_checkpoints=null"]) == 1
    assert "plan: 2 of 2 runs do not fit: multi_level__qwen2.5-3b__pac__seed0, " in (
        capsys.readouterr().out)  # fmt: skip


def test_model_config_and_the_backbones_shipped_config(tmp_path, monkeypatch, capsys):
    from pac_verl.plan.cli import main

    free_disk(monkeypatch, 10_000)
    # the model folder is the training node's, absent here: the backbone's shipped config.json
    absent = "actor_rollout_ref.model.path=/nfs/models/Qwen2.5-7B"
    assert main(["backbone=qwen2.5-7b", absent]) == 0
    out = capsys.readouterr().out
    assert "/nfs/models/Qwen2.5-7B has no config.json on this machine" in out
    assert "Qwen/Qwen2.5-7B (backbone=qwen2.5-7b)" in out and "7,615,616,512" in out
    # --model-config PATH, as the error for an unknown model suggests
    cfg = {"hidden_size": 2048, "intermediate_size": 11008, "num_hidden_layers": 36,
           "num_attention_heads": 16, "num_key_value_heads": 2, "vocab_size": 151936,
           "tie_word_embeddings": True, "model_type": "qwen2"}  # fmt: skip
    (tmp_path / "config.json").write_text(json.dumps(cfg))
    custom = ["backbone.name=mine", "actor_rollout_ref.model.path=/nfs/mine"]
    res = _plan_cli(*custom, tmp_path=tmp_path)
    assert res.returncode == 2 and "--model-config PATH" in res.stderr
    assert main([*custom, "--model-config", str(tmp_path / "config.json")]) == 0
    assert "3,085,938,688" in capsys.readouterr().out  # Qwen2.5-3B's shape, given by hand
    res = _plan_cli(*custom, "--model-config", str(tmp_path / "nope.json"), tmp_path=tmp_path)
    assert res.returncode == 2 and "--model-config" in res.stderr and "no such file" in res.stderr

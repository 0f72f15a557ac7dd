"""The CPU stack's small parts: the verl pins, the shims, the smoke config, the hf rollout's sampling.

The whole stack runs for real in ``tests/verl/test_real_workers.py``; these check its pieces on their
own, fast, including the failure paths a real run never takes.
"""

import subprocess
import sys

import pytest
import torch
from omegaconf import OmegaConf

from pac_verl.cpu import stack as cpu_stack
from pac_verl.cpu.hf_rollout import _sample, weights_digest
from pac_verl.errors import UserError

pytestmark = pytest.mark.verl_line


def test_the_installed_verl_has_every_pinned_name():
    cpu_stack.check_verl()


def test_a_verl_without_a_pinned_name_is_one_clear_error(monkeypatch):
    from pac_verl.verl import compat

    gone = ("verl.workers.rollout.base", "_ROLLOUT_REGISTRY_RENAMED")
    line = compat.line()
    monkeypatch.setattr(cpu_stack, "PINS", {**cpu_stack.PINS, line: (*cpu_stack.PINS[line], gone)})
    with pytest.raises(
        UserError,
        match=r"supports verl 0\.7\.1 and 0\.9\.1; the installed verl "
        rf"{line} lacks verl\.workers\.rollout\.base\._ROLLOUT_REGISTRY_RENAMED",
    ):
        cpu_stack.check_verl()


def test_an_unsupported_verl_is_one_line_naming_the_supported_versions(monkeypatch):
    from pac_verl.verl import compat

    monkeypatch.setattr(compat, "installed", lambda: "0.8.0")
    with pytest.raises(
        UserError,
        match=r"^pac-verl supports verl 0\.7\.1 and 0\.9\.1; verl "
        r"0\.8\.0 is installed: install one line",
    ) as err:
        cpu_stack.check_verl()
    assert "\n" not in str(err.value)


@pytest.mark.parametrize(
    ("given", "kept"),
    [
        ("cpu:gloo,cpu:nccl", "cpu:gloo"),  # what verl's FSDP worker asks for on a CPU
        ("cpu:gloo,cuda:nccl", "cpu:gloo,cuda:nccl"),  # a GPU node: unchanged
        ("gloo", "gloo"),
        (None, None),
    ],
)
def test_one_backend_per_device(given, kept):
    assert cpu_stack._one_backend_per_device(given) == kept


def test_shims_give_torch_cpu_the_calls_verl_makes_and_stop_pinning(monkeypatch):
    import torch.distributed as dist
    import torch.distributed.fsdp as fsdp

    # undone after the test: the shims are meant for Ray workers, not for pytest's process
    for name in cpu_stack._torch_cpu_calls():
        monkeypatch.setattr(torch.cpu, name, getattr(torch.cpu, name, None), raising=False)
    monkeypatch.setattr(fsdp, "CPUOffloadPolicy", fsdp.CPUOffloadPolicy)
    monkeypatch.setattr(dist, "init_process_group", dist.init_process_group)
    for module in cpu_stack._OFFLOAD_MODULES:
        if module in sys.modules:
            monkeypatch.setattr(sys.modules[module], "CPUOffloadPolicy", fsdp.CPUOffloadPolicy)
    cpu_stack.install_shims()
    cpu_stack.install_shims()  # idempotent
    torch.cpu.empty_cache()
    assert torch.cpu.memory_reserved() == 0 and torch.cpu.max_memory_allocated() == 0
    # a resumed checkpoint restores the device RNG through the device module (verl 0.9.1)
    state = torch.cpu.get_rng_state()
    first = torch.rand(3)
    torch.cpu.set_rng_state(state)
    assert torch.equal(torch.rand(3), first)
    from torch.distributed.fsdp import CPUOffloadPolicy

    assert CPUOffloadPolicy(pin_memory=True).pin_memory is False


def test_the_rollout_registers_by_name_in_this_process():
    from verl.workers.rollout.base import get_rollout_class
    from verl.workers.rollout.replica import get_rollout_replica_class

    from pac_verl.cpu.hf_rollout import HFRolloutReplica, HFServerAdapter

    cpu_stack.register_rollout()
    assert get_rollout_class("hf", "async") is HFServerAdapter
    assert get_rollout_replica_class("hf") is HFRolloutReplica


def test_the_smoke_config_is_the_miniature_on_the_cpu_stack(tmp_path):
    import importlib

    from pac_verl.cpu.smoke import compose, overrides

    cfg = compose(overrides(tmp_path, tmp_path / "run", steps=4))
    assert (cfg.setting.name, cfg.backbone.name, cfg.data.curriculum.name) == (
        "toy", "tiny-cpu", "pac",
    )  # fmt: skip
    assert cfg.actor_rollout_ref.rollout.name == "hf" and cfg.trainer.device == "cpu"
    assert cfg.actor_rollout_ref.model.path == str(tmp_path / "model")
    # validated once, at its last step; the KL loss on, so the reference worker runs
    assert (cfg.trainer.total_training_steps, cfg.trainer.test_freq) == (4, 4)
    assert cfg.actor_rollout_ref.actor.use_kl_loss is True
    assert cfg.data.curriculum.cold_start == 1
    ray_init = cfg.ray_kwargs.ray_init
    assert (ray_init.num_gpus, ray_init.resources.cpu) == (1, 1)  # what verl's pool counts
    assert dict(ray_init.runtime_env.env_vars) == {
        "OMP_NUM_THREADS": "1",
        "CUDA_VISIBLE_DEVICES": "",
    }
    module, _, name = ray_init.runtime_env.worker_process_setup_hook.rpartition(".")
    assert getattr(importlib.import_module(module), name) is cpu_stack.setup_worker


def test_smoke_overrides_come_last_and_runs_of_one_folder_differ_only_by_their_run(tmp_path):
    from pac_verl.cpu.smoke import compose, overrides

    pac = compose(overrides(tmp_path, tmp_path))
    sec = compose(overrides(tmp_path, tmp_path, extra=["curriculum=sec", "curriculum.seed=1"]))
    assert sec.data.curriculum.name == "sec" and sec.curriculum.seed == 1
    assert str(sec.trainer.experiment_name) == "toy__tiny-cpu__sec__seed1"
    # data, model and log root are the folder's; checkpoints go per run
    for key in ("setting.data_dir", "actor_rollout_ref.model.path", "pac.log_root"):
        assert OmegaConf.select(pac, key) == OmegaConf.select(sec, key)
    assert str(sec.trainer.default_local_dir) == f"{tmp_path}/ckpt/toy__tiny-cpu__sec__seed1"


def test_top_k_1_and_a_tiny_top_p_keep_only_the_most_likely_token():
    logits = torch.tensor([0.1, 3.0, 0.2, 2.9])
    for seed in range(20):
        gen = torch.Generator().manual_seed(seed)
        assert _sample(logits, 1, 1.0, gen) == 1
        assert _sample(logits, -1, 0.01, gen) == 1
    # no filter: all four tokens come up
    gen = torch.Generator().manual_seed(0)
    assert {_sample(torch.zeros(4), -1, 1.0, gen) for _ in range(200)} == {0, 1, 2, 3}


def test_weights_digest_sees_one_changed_value():
    state = {"a": torch.zeros(3), "b": torch.ones(2)}
    before = weights_digest(state)
    state["b"][1] = 1.0 + 2**-20
    assert weights_digest(state) != before
    assert weights_digest({"b": state["b"], "a": state["a"]}) == weights_digest(state)


def test_smoke_with_an_argument_that_is_no_override_is_one_line_and_status_2():
    out = subprocess.run([sys.executable, "-m", "pac_verl.cli", "smoke", "sec"],
                         capture_output=True, text=True)  # fmt: skip
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "pac-verl smoke: error: 'sec' is not a Hydra override KEY=VALUE (e.g. curriculum=sec)"
    ]


def test_smoke_with_too_few_steps_is_one_line_and_status_2():
    out = subprocess.run([sys.executable, "-m", "pac_verl.cli", "smoke", "--steps", "1"],
                         capture_output=True, text=True)  # fmt: skip
    assert out.returncode == 2
    assert out.stderr.strip().splitlines() == [
        "pac-verl smoke: error: --steps must be at least 2 (the KL check needs a second step)"
    ]

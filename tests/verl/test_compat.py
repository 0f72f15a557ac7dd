"""The verl seam (pac_verl/verl/compat.py): which verl lines run, what a config may say on each,
and the sampler the trainer trains with whatever verl's config asks for.

Run on every supported line (scripts/ci/verl_line.sh reruns the ``verl_line`` tests on the other).
"""

import sys
from pathlib import Path

import pytest
from omegaconf import OmegaConf
from torch.utils.data import RandomSampler, Sampler

from pac_verl.errors import UserError
from pac_verl.verl import compat
from pac_verl.verl.sampler import PACSampler, build_sampler

sys.path.insert(0, str(Path(__file__).parents[1]))
from sampler_helpers import data_config
from verl_helpers import make_tokenizer

pytestmark = pytest.mark.verl_line


@pytest.mark.parametrize("version", ["0.8.0", "0.9.0", "0.10.0", "0.7.0"])
def test_an_unsupported_verl_is_refused_with_one_line_naming_the_supported_ones(version):
    with pytest.raises(UserError) as err:
        compat.line(version)
    text = str(err.value)
    assert "\n" not in text
    assert text.startswith(f"pac-verl supports verl 0.7.1 and 0.9.1; verl {version} is installed")


def test_no_verl_is_refused_with_the_same_line(monkeypatch):
    monkeypatch.setattr(compat, "installed", lambda: None)
    with pytest.raises(UserError, match=r"^pac-verl supports verl 0\.7\.1 and 0\.9\.1; no verl"):
        compat.line()


def test_the_installed_verl_is_a_supported_line():
    import verl

    assert compat.line() == verl.__version__ in ("0.7.1", "0.9.1")


@pytest.mark.parametrize("version", ["0.7.1", "0.9.1"])
def test_a_config_naming_a_sampler_is_refused_on_both_lines(version):
    cfg = OmegaConf.create({"data": {"sampler": {"class_path": "pkg://x", "class_name": "S"}},
                            "trainer": {"use_v1": False}})  # fmt: skip
    with pytest.raises(UserError, match=r"^data\.sampler\.class_path=pkg://x is not read") as err:
        compat.check_config(cfg, version)
    assert "\n" not in str(err.value)


@pytest.mark.parametrize("version", ["0.7.1", "0.9.1"])
def test_verls_default_sampler_keys_pass(version):
    # verl 0.7.1's ppo_trainer.yaml has data.sampler with a null class_path; 0.9.1 has no key
    for data in ({"sampler": {"class_path": None, "class_name": None}}, {}):
        compat.check_config(OmegaConf.create({"data": data, "trainer": {"use_v1": False}}), version)


def test_the_v1_trainer_is_opt_in_on_091_and_refused_on_071_with_one_line():
    import importlib.util

    cfg = OmegaConf.create({"data": {}, "trainer": {"use_v1": True}})
    if importlib.util.find_spec("transfer_queue") is not None:  # else: the test below
        compat.check_config(cfg, "0.9.1")
    assert compat.uses_v1(cfg, "0.9.1")
    with pytest.raises(UserError, match=r"^trainer\.use_v1=true: verl 0\.7\.1 has no V1 trainer"):
        compat.check_config(cfg, "0.7.1")
    legacy = OmegaConf.create({"data": {}, "trainer": {"use_v1": False}})
    assert not compat.uses_v1(legacy, "0.9.1")
    compat.check_config(legacy, "0.7.1")


def test_v1_without_transfer_queue_is_refused_with_one_line_naming_the_install(monkeypatch):
    import importlib.util

    find_spec = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "transfer_queue" else find_spec(name, *a))  # fmt: skip
    cfg = OmegaConf.create({"data": {}, "trainer": {"use_v1": True}})
    with pytest.raises(UserError, match=r"needs TransferQueue, .*pip install -e \"\.\[verl09\]\""):
        compat.check_config(cfg, "0.9.1")


def test_a_cpu_run_of_v1_gets_one_storage_unit_and_cpus_for_transfer_queues_actors():
    cfg = OmegaConf.create({
        "transfer_queue": {"enable": False,
                           "backend": {"SimpleStorage": {"num_data_storage_units": 8}}},
        "ray_kwargs": {"ray_init": {"num_cpus": 4}},
    })  # fmt: skip
    compat.cpu_transfer_queue(cfg)
    assert cfg.transfer_queue.backend.SimpleStorage.num_data_storage_units == 1
    assert cfg.ray_kwargs.ray_init.num_cpus == 6  # its controller and its one unit, a CPU each


def test_the_rollout_seed_follows_the_curriculum_seed_where_the_key_exists():
    with_key = OmegaConf.create(
        {"curriculum": {"seed": 7}, "actor_rollout_ref": {"rollout": {"seed": 42, "n": 8}}}
    )
    compat.adapt_config(with_key)
    assert with_key.actor_rollout_ref.rollout.seed == 7
    without = OmegaConf.create(
        {"curriculum": {"seed": 7}, "actor_rollout_ref": {"rollout": {"n": 8}}}
    )
    compat.adapt_config(without)
    assert "seed" not in without.actor_rollout_ref.rollout  # verl 0.7.1 would refuse the key


def test_the_line_description_names_what_differs():
    assert compat.describe("0.7.1") == "verl 0.7.1"
    text = compat.describe("0.9.1")
    assert text.startswith("verl 0.9.1 (trainer.use_v1=false by default") and "rollout.seed" in text


def test_the_composed_training_config_trains_on_the_installed_line():
    from pac_verl.compose import compose_config

    cfg = compose_config(
        ["setting=toy", "backbone=tiny-cpu", "curriculum=pac", "curriculum.seed=3"]
    )
    assert OmegaConf.select(cfg, "data.sampler.class_path") is None
    assert cfg.trainer.use_v1 is False
    if "seed" in cfg.actor_rollout_ref.rollout:  # verl 0.9.1
        assert cfg.actor_rollout_ref.rollout.seed == 3


def test_the_sampler_stands_on_torch_alone():
    assert issubclass(PACSampler, Sampler)
    assert not [c for c in PACSampler.__mro__ if c.__module__.split(".")[0] == "verl"]


@pytest.fixture(scope="module")
def dataset(tmp_path_factory):
    from verl.utils.dataset.rl_dataset import RLHFDataset

    from pac_verl.data_prep.multi_level import build_multi_level

    root = tmp_path_factory.mktemp("compat")
    build_multi_level(root / "data", 2, 1, seed=0, quiet=True, workers=1)
    cfg = data_config(root, {"name": "pac"})
    return root, cfg, RLHFDataset(cfg.train_files, make_tokenizer(root / "tok"), cfg)


def test_the_trainer_trains_with_the_curriculum_whatever_sampler_verl_built(dataset):
    """verl builds a random sampler from its config (0.9.1 always does); PACTrainer's dataloader
    draws from PACSampler all the same."""
    from verl.utils.dataset.rl_dataset import collate_fn

    from pac_verl.verl.trainer import PACTrainer

    _, cfg, ds = dataset
    trainer = PACTrainer.__new__(PACTrainer)  # the dataloader needs no Ray workers
    trainer.config = OmegaConf.create({"data": {**OmegaConf.to_container(cfg), "shuffle": True,
                                                "val_batch_size": None, "validation_shuffle": False},
                                       "trainer": {"total_epochs": 1, "total_training_steps": 2},
                                       "actor_rollout_ref": {"actor": {"optim": {}}},
                                       "critic": {"optim": {}}})  # fmt: skip
    trainer._create_dataloader(ds, ds, collate_fn, RandomSampler(ds))
    assert isinstance(trainer.train_dataloader.sampler, PACSampler)
    assert trainer._sampler() is trainer.train_dataloader.sampler


def test_build_sampler_refuses_a_named_sampler_and_worker_processes(dataset):
    _, cfg, ds = dataset
    named = OmegaConf.merge(cfg, {"sampler": {"class_path": "pkg://pac_verl.verl.sampler",
                                              "class_name": "PACSampler"}})  # fmt: skip
    with pytest.raises(UserError, match=r"^data\.sampler\.class_path=pkg://pac_verl"):
        build_sampler(named, ds)
    with pytest.raises(UserError, match=r"set data\.dataloader_num_workers=0$"):
        build_sampler(OmegaConf.merge(cfg, {"dataloader_num_workers": 2}), ds)


def test_the_task_runner_stands_on_the_lines_base():
    from pac_verl.verl.runner import PACTaskRunner

    base = compat.task_runner_base()
    assert issubclass(PACTaskRunner, base)
    expected = "BaseTaskRunner" if compat.is_09() else "TaskRunner"
    assert base.__name__ == expected
    assert callable(compat.verl_task_run())

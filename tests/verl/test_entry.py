"""``python -m pac_verl.main``'s way into verl, with the task runner as a real Ray actor.

verl's ``run_ppo`` starts ``PACTaskRunner`` as a Ray actor in a process of its own, which imports
only what the actor's class path names (``pac_verl.verl.runner``), never ``pac_verl.main``. That
process must be able to resolve every interpolation of the config it receives (verl's
``TaskRunner.run`` calls ``OmegaConf.resolve(config)`` first). Here the runner is given a model
folder that holds no tokenizer: it must get past the config and fail on that folder, the first
thing it loads after resolving, even when the config still holds the experiment name as an
interpolation (the runner registers the resolver itself). :func:`pac_verl.train.train` also pins
the name to a string before the config leaves the driver; ``tests/verl/test_real_workers.py`` trains
through it.
"""

import pytest
import ray
from hydra import compose, initialize_config_module
from omegaconf import OmegaConf
from verl.trainer.main_ppo import run_ppo

from pac_verl.resolvers import pin_experiment_name
from pac_verl.verl.runner import pac_task_runner

pytestmark = pytest.mark.ray


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             runtime_env={"env_vars": {"HF_HUB_OFFLINE": "1"}})  # fmt: skip
    yield
    ray.shutdown()


def composed(tmp_path):
    empty = tmp_path / "no-tokenizer-here"
    empty.mkdir()
    overrides = [
        "setting=multi_level", "backbone=qwen2.5-3b", "curriculum=pac",
        f"actor_rollout_ref.model.path={empty}", f"pac.log_root={tmp_path / 'runs'}",
        "trainer.logger=[console]",
    ]  # fmt: skip
    with initialize_config_module("pac_verl.configs", version_base=None):
        return compose("pac_trainer", overrides=overrides)


@pytest.mark.node_versions
def test_train_pins_the_experiment_name_to_a_plain_string(tmp_path):
    config = composed(tmp_path)
    assert pin_experiment_name(config) == "multi_level__qwen2.5-3b__pac__seed0"
    assert not OmegaConf.is_interpolation(config.trainer, "experiment_name")
    assert OmegaConf.to_container(config.trainer)["experiment_name"] == (
        "multi_level__qwen2.5-3b__pac__seed0"
    )


@pytest.mark.node_versions
def test_the_runner_registers_what_its_config_needs(local_ray, tmp_path):
    config = composed(tmp_path)
    assert "${pac_experiment:" in OmegaConf.to_container(config.trainer)["experiment_name"]
    with pytest.raises(ray.exceptions.RayTaskError) as err:
        run_ppo(config, task_runner_class=pac_task_runner())
    text = str(err.value)
    assert "Unsupported interpolation" not in text and "pac_experiment" not in text
    # the remote traceback ends in verl's loading of the model folder, which comes after
    # OmegaConf.resolve: the tokenizer (verl 0.7.1) or the model config that holds it (0.9.1)
    assert "PACTaskRunner.run" in text
    assert ("tokenizer = hf_tokenizer(local_path" in text
            or "full_key: actor_rollout_ref.model" in text), text[-600:]  # fmt: skip


@pytest.mark.node_versions
def test_ray_workers_import_the_transformers_the_driver_imports(local_ray):
    """The node-versions run (scripts/ci/node_versions.sh) puts transformers 4.57 ahead of the
    venv's on PYTHONPATH: verl's workers must see it too, or that run tests nothing there."""
    import transformers

    @ray.remote
    def version():
        import transformers

        return transformers.__version__, transformers.__file__

    assert ray.get(version.remote()) == (transformers.__version__, transformers.__file__)

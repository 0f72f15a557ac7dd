"""The one module that knows which verl release line is installed (docs/development/add-verl-line.md).

pac-verl supports the lines in :data:`SUPPORTED`. :func:`installed` reads verl's version from the
package metadata (no ``import verl``, which loads torch); :func:`line` refuses any other version
with one line naming the supported ones. Everything else in pac-verl that needs a verl name whose
place or meaning differs between lines asks this module:

- :func:`check_config`: a config pac-verl can train on this line (``data.sampler`` is not read,
  ``trainer.use_v1`` only on 0.9.1), :func:`uses_v1` (verl 0.9.1's V1 sync trainer, opt-in) and
  :func:`adapt_config`, the keys that follow the
  curriculum seed where the line has them (:data:`FOLLOW_SEED`);
- :func:`task_runner_base`, :func:`verl_task_run` and :func:`use_trainer`: the base pac-verl's task
  runner stands on, verl's own ``run`` that builds workers, datasets and trainer, and the module
  attribute that ``run`` builds the trainer from; :func:`v1_agent_loop_init`, verl's agent-loop
  setup of the V1 runner;
- :func:`run_ppo`, :func:`chat_template_fn`, :func:`migrate_reward_config`: names that moved;
  :func:`platform_plugin`: whether verl asks a platform registry for its device (the CPU stack
  registers a CPU there);
- :func:`differences` and :func:`describe`: what a user sees differ on this line (the preflight
  and the software check print it); :data:`GPU`: each line's GPU install.

The names whose place is the same on both lines (``DataProto``, ``RayPPOTrainer``,
``RLHFDataset``...) are imported where they are used.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util

from pac_verl.errors import UserError

SUPPORTED = ("0.7.1", "0.9.1")


def installed() -> str | None:
    """The installed verl's version (package metadata), or None without verl."""
    try:
        return importlib.metadata.version("verl")
    except importlib.metadata.PackageNotFoundError:
        return None


def line(version: str | None = None) -> str:
    """The supported line of ``version`` (default: the installed verl), or one UserError line."""
    version = installed() if version is None else version
    if version in SUPPORTED:
        return version
    found = "no verl is installed" if version is None else f"verl {version} is installed"
    raise UserError(
        f"pac-verl supports verl {' and '.join(SUPPORTED)}; {found}: install one line "
        '(pip install -e ".[test]" for the default, docs/getting-started/install.md for the other)'
    )


def is_09(version: str | None = None) -> bool:
    return line(version) == "0.9.1"


# ----- config -------------------------------------------------------------------------------------
def check_config(config, version: str | None = None) -> None:
    """Refuse, with one line, a config this line would not train as written."""
    from omegaconf import OmegaConf

    check_data_sampler(OmegaConf.select(config, "data", default=None) or {})
    if not is_09(version) and OmegaConf.select(config, "trainer.use_v1", default=False):
        raise UserError(
            f"trainer.use_v1=true: verl {line(version)} has no V1 trainer (verl 0.9.1 has); "
            "remove trainer.use_v1 or set it to false"
        )
    if uses_v1(config, version) and importlib.util.find_spec("transfer_queue") is None:
        raise UserError(
            "trainer.use_v1=true: verl's V1 trainer needs TransferQueue, which is not installed: "
            'pip install -e ".[verl09]" (or set trainer.use_v1=false)'
        )


def uses_v1(config, version: str | None = None) -> bool:
    """Whether the run trains with verl 0.9.1's V1 sync trainer (``trainer.use_v1=true``,
    opt-in; :mod:`pac_verl.verl.v1_trainer`) rather than the legacy ``RayPPOTrainer``."""
    from omegaconf import OmegaConf

    return is_09(version) and bool(OmegaConf.select(config, "trainer.use_v1", default=False))


def check_data_sampler(data) -> None:
    """``data.sampler`` names a sampler for verl to build: verl 0.7.1 would build it, 0.9.1
    ignores the key and shuffles at random. pac-verl builds ``PACSampler`` itself on both lines,
    so a config that names one is refused rather than silently trained with another."""
    from omegaconf import OmegaConf

    sampler = OmegaConf.select(OmegaConf.create(data) if isinstance(data, dict) else data,
                               "sampler.class_path", default=None)  # fmt: skip
    if sampler is not None:
        raise UserError(
            f"data.sampler.class_path={sampler} is not read: pac-verl builds its curriculum "
            "sampler itself from the curriculum group (curriculum=...); remove data.sampler"
        )


# keys that verl 0.9.1 adds with a fixed seed (42) and verl 0.7.1 lacks: the rollout engine's
# seed (vLLM seeds each replica with it plus the replica's rank), the critic's FSDP seed and the
# reward model's rollout seed (neither is read by GRPO with a reward function)
FOLLOW_SEED = (
    "actor_rollout_ref.rollout.seed",
    "critic.fsdp.seed",
    "reward.reward_model.rollout.seed",
)


def adapt_config(config) -> None:
    """Each key of :data:`FOLLOW_SEED` that this verl line has follows ``curriculum.seed``
    (verl 0.7.1 has none of them; none is added there). A run of verl 0.9.1's V1 trainer gets
    ``transfer_queue.enable`` (and, on a CPU, :func:`cpu_transfer_queue`)."""
    from omegaconf import OmegaConf, open_dict

    # verl's V1 trainer runs on TransferQueue: Ray's workers must know before Ray starts (once:
    # the config may be adapted again)
    if uses_v1(config) and not OmegaConf.select(config, "transfer_queue.enable", default=False):
        with open_dict(config):
            config.transfer_queue.enable = True
        if OmegaConf.select(config, "trainer.device", default=None) == "cpu":
            cpu_transfer_queue(config)
    seed = OmegaConf.select(config, "curriculum.seed", default=None)
    if seed is None:
        return
    for key in FOLLOW_SEED:
        parent, _, leaf = key.rpartition(".")
        node = OmegaConf.select(config, parent, default=None)
        if node is not None and OmegaConf.is_dict(node) and leaf in node:
            with open_dict(node):
                node[leaf] = int(seed)


#: Ray CPUs TransferQueue's actors take on a CPU run: its controller and one storage unit
TQ_CPUS = 2


def cpu_transfer_queue(config) -> None:
    """A CPU run of the V1 trainer: TransferQueue with one storage unit (verl's default is 8,
    each an actor asking Ray for a CPU, which a CPU run's Ray does not have: ``tq.init`` would wait
    forever) and :data:`TQ_CPUS` more Ray CPUs for its actors."""
    from omegaconf import OmegaConf, open_dict

    with open_dict(config):
        config.transfer_queue.backend.SimpleStorage.num_data_storage_units = 1
        cpus = OmegaConf.select(config, "ray_kwargs.ray_init.num_cpus", default=None)
        if cpus is not None:
            config.ray_kwargs.ray_init.num_cpus = int(cpus) + TQ_CPUS


def differences(version: str | None = None) -> list[str]:
    """What differs on this line, one phrase each (printed by the preflight and software check)."""
    if is_09(version):
        return [
            "trainer.use_v1=false by default (verl 0.9.1's legacy RayPPOTrainer; its V1 sync "
            "trainer is opt-in: trainer.use_v1=true)",
            "actor_rollout_ref.rollout.seed follows curriculum.seed (and verl 0.9.1's other "
            "seed keys)",
        ]
    return []


def describe(version: str | None = None) -> str:
    """``verl 0.9.1 (trainer.use_v1=false, ...)``: the line in use and what differs."""
    v = line(version)
    diff = differences(v)
    return f"verl {v}" + (f" ({'; '.join(diff)})" if diff else "")


# what each line's GPU node installs (README's gpu-install and gpu09-install blocks,
# docs/getting-started/gpu-node.md): the vLLM verl[vllm] pins, the torch that vLLM pins, the line
GPU = {
    "0.7.1": {"vllm": "0.12.0", "torch": "2.9.0",
              "install": 'pip install -e ".[gpu]" torch==2.9.0 torchvision==0.24.0 '
                         "torchaudio==2.9.0"},
    "0.9.1": {"vllm": "0.24.0", "torch": "2.11.0",
              "install": 'pip install -e ".[gpu09]" torch==2.11.0 torchvision==0.26.0 '
                         "torchaudio==2.11.0"},
}  # fmt: skip


# ----- verl names ---------------------------------------------------------------------------------
def task_runner_base() -> type:
    """The class pac-verl's task runner subclasses: verl 0.7.1's ``TaskRunner`` (a plain class),
    verl 0.9.1's ``main_ppo_v0.BaseTaskRunner`` (its ``TaskRunner`` is a Ray actor class, which
    cannot be subclassed)."""
    if is_09():
        from verl.trainer.main_ppo_v0 import BaseTaskRunner

        return BaseTaskRunner
    from verl.trainer.main_ppo import TaskRunner

    return TaskRunner


def verl_task_run():
    """verl's own legacy ``TaskRunner.run`` as a plain function of (runner, config): it sets up
    the workers, datasets and reward, builds the trainer from :func:`use_trainer`'s attribute and
    runs ``init_workers()`` and ``fit()``."""
    if is_09():
        from verl.trainer.main_ppo_v0 import TaskRunner

        return TaskRunner.__ray_actor_class__.run  # the class under Ray's actor wrapper
    from verl.trainer.main_ppo import TaskRunner

    return TaskRunner.run


def use_trainer(trainer_cls: type) -> None:
    """Make verl's legacy ``TaskRunner.run`` build ``trainer_cls`` in this process."""
    if is_09():
        from verl.trainer import main_ppo_v0 as module
    else:
        from verl.trainer import main_ppo as module
    module.RayPPOTrainer = trainer_cls


def v1_agent_loop_init():
    """verl 0.9.1's ``TaskRunnerV1.init_agent_loop_manager`` as a plain function of the runner
    (it reads ``runner.config`` and ``runner.trainer``, sets ``runner.agent_loop_manager``; a
    name in :data:`pac_verl.cpu.stack.PINS`)."""
    from verl.trainer.main_ppo import TaskRunnerV1

    return TaskRunnerV1.__ray_actor_class__.init_agent_loop_manager


def platform_plugin() -> bool:
    """Whether verl asks a platform registry for its device (``verl.plugin.platform``, 0.9.1)."""
    return is_09()


def run_ppo():
    from verl.trainer.main_ppo import run_ppo

    return run_ppo


def migrate_reward_config(config):
    """verl 0.7.1's ``migrate_legacy_reward_impl`` (its ``main`` calls it; 0.9.1's does not)."""
    if is_09():
        return config
    from verl.experimental.reward_loop import migrate_legacy_reward_impl

    return migrate_legacy_reward_impl(config)


def chat_template_fn():
    """verl's ``apply_chat_template`` as its agent loop calls it (moved in 0.9.1)."""
    if is_09():
        from verl.utils.tokenizer.chat_template import apply_chat_template
    else:
        from verl.utils.chat_template import apply_chat_template
    return apply_chat_template

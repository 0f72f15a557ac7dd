"""Train with a composed config: what ``python -m pac_verl.main`` does after Hydra.

Like verl's own ``main``, :func:`train` calls ``auto_set_device`` (and, on verl 0.7.1,
``migrate_legacy_reward_impl``) before training, then runs verl's ``run_ppo`` with a task runner that
builds :class:`~pac_verl.verl.trainer.PACTrainer`. First it refuses a config the installed verl line
would not train as written and sets the keys that follow the run's seed on that line
(:mod:`pac_verl.verl.compat`). A CPU run's caller (``python -m pac_verl.main``,
``pac-verl smoke``) has selected verl's CPU platform first
(:func:`pac_verl.cpu.stack.prepare_driver`). The experiment name is pinned to a plain string and
the whole config resolved here, in the driver, before it leaves this process
(:func:`pac_verl.run_logs.prepare_run_logs`). Before any file is written or Ray starts it checks
the GPUs, what the GPU path imports (:mod:`pac_verl.checks.software`) and, when the data holds code
rows, the code sandbox (:mod:`pac_verl.checks.sandbox`): each failure is one line naming its fix.
``pac-verl smoke`` trains through the same function.
"""

from __future__ import annotations

from pac_verl.checks.node import require_gpus
from pac_verl.checks.sandbox import require_sandbox_for_data
from pac_verl.checks.software import require_gpu_software
from pac_verl.resolvers import pin_experiment_name
from pac_verl.run_logs import prepare_run_logs


def train(config) -> None:
    """Check the machine, record the attempt, then run verl's ``run_ppo`` with PAC's runner."""
    from pac_verl.verl import compat  # the installed line, read without importing verl

    compat.check_config(config)  # a verl line it does not support, or a key it would ignore
    compat.adapt_config(config)  # before run.json: the recorded config is the one trained
    pin_experiment_name(config)
    require_gpus(config)  # a machine without the GPUs fails here, before any file or Ray
    require_gpu_software(config)  # torch's CUDA build, vLLM, flash-attn: imported, or their fix
    require_sandbox_for_data(config)  # data with code rows: the sandbox runs here, or its fix
    # run.json records the config as composed (what --cfg job --resolve prints), before verl's
    # own rewrites below, so that pac_verl.launch can compare it without importing verl
    print(f"metrics of this attempt: {prepare_run_logs(config)}")
    # verl (torch, tensordict, transformers: ~10 CPU s) only once the checks above passed: a
    # refusal is one line in the time of the checks, not of verl's imports
    from verl.utils.device import auto_set_device

    from pac_verl.verl.runner import pac_task_runner

    auto_set_device(config)  # a CPU run's caller selected verl's CPU platform first (cpu.stack)
    config = compat.migrate_reward_config(config)
    compat.run_ppo()(config, task_runner_class=pac_task_runner())

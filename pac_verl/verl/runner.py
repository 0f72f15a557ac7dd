"""The Ray task runner that makes verl's ``TaskRunner.run`` build :class:`PACTrainer`.

verl 0.7.1's ``TaskRunner.run`` constructs the trainer through the module attribute
``verl.trainer.main_ppo.RayPPOTrainer``. ``PACTaskRunner.run`` rebinds that attribute to
``PACTrainer`` inside its own Ray actor process (nothing else runs there) and then runs verl's
unchanged ``run``: the whole of verl's setup (workers, resource pools, datasets, reward) is reused.

That process imports only this module. Before verl resolves the config it receives
(``OmegaConf.resolve`` is the first thing ``TaskRunner.run`` does), ``run`` registers pac-verl's
resolvers there explicitly, so a config whose experiment name is still an interpolation (one
composed by a caller other than :func:`pac_verl.train.train`) resolves too.
"""

from __future__ import annotations

from verl.trainer import main_ppo
from verl.trainer.main_ppo import TaskRunner


class PACTaskRunner(TaskRunner):
    def run(self, config):
        from pac_verl.resolvers import register_resolvers
        from pac_verl.verl.trainer import PACTrainer

        register_resolvers()
        main_ppo.RayPPOTrainer = PACTrainer
        return super().run(config)


def pac_task_runner():
    """The Ray remote class verl's ``run_ppo`` expects (one CPU, like verl's own)."""
    import ray

    return ray.remote(num_cpus=1)(PACTaskRunner)

"""The Ray task runner that makes verl's legacy ``TaskRunner.run`` build :class:`PACTrainer`.

verl's legacy ``TaskRunner.run`` constructs the trainer through a module attribute
(``RayPPOTrainer``). ``PACTaskRunner.run`` rebinds that attribute to ``PACTrainer`` inside its own
Ray actor process (nothing else runs there) and then runs verl's unchanged ``run``: the whole of
verl's setup (workers, resource pools, datasets, reward) is reused. ``PACTrainer`` puts pac-verl's
own sampler under the training dataloader (:func:`pac_verl.verl.sampler.build_sampler`).

The base class, verl's ``run`` and the attribute differ between verl lines
(:mod:`pac_verl.verl.compat`): on verl 0.7.1 the runner subclasses ``main_ppo.TaskRunner``; on
verl 0.9.1 ``TaskRunner`` is a Ray actor class, so the runner subclasses
``main_ppo_v0.BaseTaskRunner`` and calls the legacy ``run`` under it.

With ``trainer.use_v1=true`` (verl 0.9.1 only, opt-in) ``run`` instead does what verl's
``TaskRunnerV1.run`` does (TransferQueue up, trainer ``init()``, verl's agent-loop manager,
``fit``, TransferQueue down) with :class:`~pac_verl.verl.v1_trainer.PACTrainerV1`, built here, not
through verl's trainer registry.

That process imports only this module. Before verl resolves the config it receives
(``OmegaConf.resolve`` is the first thing ``TaskRunner.run`` does), ``run`` registers pac-verl's
resolvers there explicitly, so a config whose experiment name is still an interpolation (one
composed by a caller other than :func:`pac_verl.train.train`) resolves too, and refuses a config
this verl line would not train as written (:func:`pac_verl.verl.compat.check_config`).
"""

from __future__ import annotations

from pac_verl.verl import compat


class PACTaskRunner(compat.task_runner_base()):
    def run(self, config):
        from pac_verl.resolvers import register_resolvers

        register_resolvers()
        compat.check_config(config)
        if compat.uses_v1(config):
            return self.run_v1(config)
        from pac_verl.verl.trainer import PACTrainer

        compat.use_trainer(PACTrainer)
        return compat.verl_task_run()(self, config)

    def run_v1(self, config):
        """What verl 0.9.1's ``TaskRunnerV1.run`` does, with :class:`PACTrainerV1` (verl's
        trainer registry is not used: the mode stays ``sync``)."""
        from pprint import pprint

        import transfer_queue as tq
        from omegaconf import OmegaConf, open_dict

        from pac_verl.verl.v1_trainer import PACTrainerV1

        with open_dict(config):
            config.transfer_queue.enable = True
        pprint(OmegaConf.to_container(config, resolve=True))
        OmegaConf.resolve(config)
        self.config, self.trainer, self.agent_loop_manager = config, None, None
        tq.init(config.transfer_queue)
        succeeded = False
        try:
            self.trainer = PACTrainerV1(config=config)
            self.trainer.init()
            compat.v1_agent_loop_init()(self)
            self.trainer.fit(self.agent_loop_manager)
            succeeded = True
        finally:
            try:
                tracking = getattr(self.trainer, "logger", None)
                if tracking is not None:
                    tracking.finish(exit_code=0 if succeeded else 1)
            finally:
                tq.close()


def pac_task_runner():
    """The Ray remote class verl's ``run_ppo`` expects (one CPU, like verl's own)."""
    import ray

    return ray.remote(num_cpus=1)(PACTaskRunner)

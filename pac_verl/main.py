"""``python -m pac_verl.main``: train with PAC (or a baseline) through verl 0.7.1.

    python -m pac_verl.main setting=multi_level backbone=qwen2.5-3b curriculum=pac
    python -m pac_verl.main setting=multi_domain backbone=qwen2.5-7b curriculum=sec trainer.total_training_steps=10
    python -m pac_verl.main ... --cfg job          # print the resolved config and exit

The config is verl's own ``ppo_trainer.yaml`` composed with our groups ``setting``, ``backbone`` and
``curriculum`` (``configs/pac_trainer.yaml``); every key of either can be overridden. The command
line is checked before Hydra runs (:func:`pac_verl.checks.config.check_command_line`), then
:func:`pac_verl.train.train` trains. This module is a top: nothing imports it.
"""

from __future__ import annotations

import hydra

from pac_verl.checks.config import check_command_line
from pac_verl.errors import UserError, user_message
from pac_verl.resolvers import register_resolvers
from pac_verl.run_stops import stop_cleanly
from pac_verl.train import train


@hydra.main(config_path="pkg://pac_verl.configs", config_name="pac_trainer", version_base=None)
def main(config) -> None:
    try:  # Ctrl-C or a full disk: one line, Ray stopped, no half checkpoint (pac_verl.run_stops)
        if str(config.trainer.device) == "cpu":  # the CPU stack (backbone=tiny-cpu)
            from pac_verl.cpu.stack import prepare_driver

            prepare_driver()  # its pins; on verl 0.9.1 the CPU platform, before verl asks
        stop_cleanly(lambda: train(config), config.trainer.default_local_dir, "pac_verl.main")
    except UserError as err:  # a refused attempt (run.json, controller values): one line
        raise SystemExit(f"pac_verl.main: error: {user_message(err)}") from None


if __name__ == "__main__":
    import sys

    try:
        register_resolvers()  # before Hydra: `--cfg job --resolve` prints the resolved name
        check_command_line(sys.argv[1:])  # a bad config: one line, exit 2, before Hydra and Ray
        main()
    except KeyboardInterrupt:  # before training started (during it: pac_verl.run_stops)
        print("pac_verl.main: interrupted (Ctrl-C) before training started", file=sys.stderr)
        sys.exit(130)

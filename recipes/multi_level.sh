#!/usr/bin/env bash
# Multi-level setting (9 arms, 500 steps) on one 8-GPU node.
#   bash recipes/multi_level.sh BACKBONE CURRICULUM [hydra overrides...]
#   bash recipes/multi_level.sh qwen2.5-3b pac curriculum.seed=1 trainer.logger='[console,file,wandb]'
# DRY_RUN=1 prints the command without running it.
exec bash "$(dirname "$0")/run.sh" multi_level "$@"

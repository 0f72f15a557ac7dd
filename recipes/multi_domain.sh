#!/usr/bin/env bash
# Multi-domain setting (math, code, logic; 400 steps) on one 8-GPU node.
#   bash recipes/multi_domain.sh BACKBONE CURRICULUM [hydra overrides...]
#   bash recipes/multi_domain.sh qwen2.5-7b pac curriculum.seed=1 trainer.logger='[console,file,wandb]'
# DRY_RUN=1 prints the command without running it.
exec bash "$(dirname "$0")/run.sh" multi_domain "$@"

#!/usr/bin/env bash
# Multi-domain setting (math, code, logic; 400 steps) on one 8-GPU node.
#   bash recipes/multi_domain.sh BACKBONE CURRICULUM [hydra overrides...]
#   bash recipes/multi_domain.sh qwen2.5-7b pac curriculum.seed=1 trainer.logger='[console,file,wandb]'
# DRY_RUN=1 prints the command without running it.
set -euo pipefail
backbone=${1:?usage: $0 BACKBONE CURRICULUM [overrides...]}
curriculum=${2:?usage: $0 BACKBONE CURRICULUM [overrides...]}
shift 2
cmd=(python -m pac_verl.main setting=multi_domain "backbone=${backbone}" "curriculum=${curriculum}" "$@")
echo "+ ${cmd[*]}"
[ "${DRY_RUN:-0}" = 1 ] || exec "${cmd[@]}"

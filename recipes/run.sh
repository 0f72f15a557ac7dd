#!/usr/bin/env bash
# One training run: bash recipes/run.sh SETTING BACKBONE CURRICULUM [hydra overrides...]
# (multi_level.sh and multi_domain.sh fix SETTING). DRY_RUN=1 prints the command without running it.
set -euo pipefail
usage="usage: $0 SETTING BACKBONE CURRICULUM [overrides...]"
setting=${1:?$usage}; backbone=${2:?$usage}; curriculum=${3:?$usage}
shift 3
cmd=(python -m pac_verl.main "setting=${setting}" "backbone=${backbone}" "curriculum=${curriculum}" "$@")
echo "+ ${cmd[*]}"
[ "${DRY_RUN:-0}" = 1 ] || exec "${cmd[@]}"

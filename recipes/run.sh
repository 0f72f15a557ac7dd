#!/usr/bin/env bash
# Training runs: bash recipes/run.sh SETTING BACKBONE CURRICULUM [hydra overrides...]
# (multi_level.sh and multi_domain.sh fix SETTING). Overrides may sweep (curriculum.seed=0,1,2).
# For every run, pac_verl.launch prints `launch NAME`, `resume NAME (step k of N)`,
# `skip NAME (complete)` or `refuse NAME (...)` and, for the first two, the command; then it
# runs those commands one after the other. DRY_RUN=1 prints without running. PYTHON picks the
# interpreter (default: python). Relative paths (data/, runs/, checkpoints/) are taken from
# PAC_HOME, by default this checkout (the folder above recipes/), whatever the current directory.
set -euo pipefail
usage="usage: $0 SETTING BACKBONE CURRICULUM [overrides...]"
setting=${1:?$usage}; backbone=${2:?$usage}; curriculum=${3:?$usage}
shift 3
PAC_HOME=${PAC_HOME:-$(cd "$(dirname "$0")/.." && pwd)}
export PAC_HOME
exec "${PYTHON:-python}" -m pac_verl.launch "setting=${setting}" "backbone=${backbone}" \
  "curriculum=${curriculum}" "$@"

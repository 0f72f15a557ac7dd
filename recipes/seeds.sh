#!/usr/bin/env bash
# The paper's three seeds for one (setting, backbone, curriculum).
#   bash recipes/seeds.sh multi_level qwen2.5-3b pac [overrides...]
set -euo pipefail
setting=${1:?usage: $0 SETTING BACKBONE CURRICULUM [overrides...]}
backbone=${2:?}; curriculum=${3:?}; shift 3
here=$(dirname "$0")
for seed in 0 1 2; do
  bash "$here/${setting}.sh" "$backbone" "$curriculum" "curriculum.seed=${seed}" "$@"
done

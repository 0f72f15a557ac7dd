#!/usr/bin/env bash
# Every run of paper Table 1 (multi_level) or Table 2 (multi_domain) for one backbone: Random, SEC,
# DUMP and PAC, and the single-task reference (ST) of each task, three seeds each. Table 3 reads
# the same multi-level runs.
#   bash recipes/main_tables.sh multi_level qwen2.5-3b [overrides...]
#   bash recipes/main_tables.sh multi_domain qwen2.5-7b [overrides...]
#   bash recipes/main_tables.sh toy tiny-cpu [overrides...]
# The miniature (setting toy, on a CPU) adds PAC's three ablations, and its ST trains the
# learnable arms toy/learn/1..3: every curriculum of its table, 24 runs.
set -euo pipefail
usage="usage: $0 SETTING BACKBONE [overrides...]"
setting=${1:?$usage}; backbone=${2:?$usage}; shift 2
curricula=random,sec,dump,pac
case "$setting" in
  multi_level) tasks="[countdown],[zebra],[arc]" ;;
  multi_domain) tasks="[math],[code],[logic]" ;;
  toy) tasks="[toy/learn]"; curricula=random,sec,dump,pac_no_adv,pac_no_prog,pac_no_ts,pac ;;
  *) echo "$usage (SETTING: multi_level, multi_domain or toy)" >&2; exit 2 ;;
esac
here=$(dirname "$0")
bash "$here/run.sh" "$setting" "$backbone" "$curricula" "curriculum.seed=0,1,2" "$@"
bash "$here/run.sh" "$setting" "$backbone" single "curriculum.train_arms=${tasks}" \
  "curriculum.seed=0,1,2" "$@"

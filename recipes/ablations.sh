#!/usr/bin/env bash
# Ablations (paper Table 5): multi-domain, Qwen2.5-7B, PAC and its three variants.
#   bash recipes/ablations.sh [overrides...]
set -euo pipefail
here=$(dirname "$0")
for c in pac pac_no_adv pac_no_prog pac_no_ts; do
  bash "$here/seeds.sh" multi_domain qwen2.5-7b "$c" "$@"
done

#!/usr/bin/env bash
# History-window sensitivity (paper Table 4): multi-level, Qwen2.5-3B, W in {4,16,32,64,128,256}.
#   bash recipes/window_sweep.sh [overrides...]
set -euo pipefail
here=$(dirname "$0")
for w in 4 16 32 64 128 256; do
  bash "$here/seeds.sh" multi_level qwen2.5-3b pac "curriculum.window=${w}" "$@"
done

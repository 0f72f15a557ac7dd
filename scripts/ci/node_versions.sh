#!/usr/bin/env bash
# The verl-facing tests again, with the pure-Python versions a GPU node ends with.
#
# vLLM 0.12.0 pins transformers<5, so the GPU install (docs/getting-started/gpu-node.md) leaves the
# node with transformers 4.57, huggingface_hub 0.36, tokenizers 0.22 (and the datasets/fsspec that
# go with them), while the CPU install gets transformers 5. This puts those versions in a
# `pip install --target` overlay (.venv/node-versions, thrown away with the venv) ahead of the
# venv on PYTHONPATH (Ray's workers inherit it) and runs the tests marked `node_versions`: verl's
# real CPU workers, fit(), the reward loop, the preflight and the entry point. torch stays the
# CPU build. tests/docs/test_gpu_install.py checks these pins against what pip resolves for the node.
# Run from an activated venv of the project; extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/../.."
overlay=.venv/node-versions
rm -rf "$overlay"
python -m pip install -q --no-deps --target "$overlay" \
  transformers==4.57.6 huggingface_hub==0.36.2 tokenizers==0.22.2 datasets==5.0.1 fsspec==2026.6.0
export PYTHONPATH="$PWD/$overlay${PYTHONPATH:+:$PYTHONPATH}"
python - <<'PY'
import importlib.metadata as md

import transformers

got = {n: md.version(n) for n in ("transformers", "huggingface_hub", "tokenizers", "datasets")}
assert transformers.__version__.startswith("4.57.") and "node-versions" in transformers.__file__, got
print("node versions:", ", ".join(f"{n} {v}" for n, v in got.items()))
PY
# only the files that hold marked tests: collecting the whole suite costs half a minute
mapfile -t files < <(grep -rl --include="test_*.py" "pytest.mark.node_versions" tests | sort)
exec python -m pytest -q -m node_versions -p no:cacheprovider "${files[@]}" "$@"

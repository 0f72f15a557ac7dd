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
python=${PYTHON:-python}
# an interpreter without the project (no venv active) is one line naming what to activate
if [ -x "$PAC_HOME/.venv/bin/python" ]; then
  activate="activate the project's environment (. $PAC_HOME/.venv/bin/activate)"
else
  activate="activate the environment where you ran pip install -e ."
fi
if ! command -v "$python" >/dev/null 2>&1; then
  echo "$0: no '$python' on PATH: $activate, or set PYTHON=/path/to/python" >&2
  exit 2
fi
if ! "$python" -c 'import importlib.util as u, sys
sys.exit(0 if u.find_spec("hydra") and u.find_spec("pac_verl.launch") else 1)' 2>/dev/null; then
  echo "$0: $(command -v "$python") has no pac-verl (no module hydra or pac_verl): $activate," \
    "or set PYTHON=/path/to/venv/bin/python (docs/getting-started/install.md)" >&2
  exit 2
fi
exec "$python" -m pac_verl.launch "setting=${setting}" "backbone=${backbone}" \
  "curriculum=${curriculum}" "$@"

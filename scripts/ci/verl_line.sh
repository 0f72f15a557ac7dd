#!/usr/bin/env bash
# The verl-facing tests again, on the other supported verl line.
#
# pac-verl supports verl 0.7.1 and 0.9.1 (docs/development/add-verl-line.md); an install gets one
# line (the default: the `verl07` extra) and their NumPy, pyarrow and transformers bounds exclude
# each other. This makes a second venv (.venv/verl-line, thrown away with the venv) with the line
# the active venv does not have, the project editable from this checkout, and runs there the
# tests marked `verl_line` or `node_versions`: the seam, the sampler, verl's real CPU workers
# (train, then resume bit-identical), fit(), the reward loop, the preflight and the entry point.
# Run from an activated venv of the project; extra arguments go to pytest.
#
# `verl_line.sh --prepare` only makes the venv. The venv is made under a lock (a second run waits
# for the first's install) and stamped with pyproject.toml's digest, so a made venv is reused.
set -euo pipefail
cd "$(dirname "$0")/../.."
prepare=0
if [ "${1:-}" = --prepare ]; then
  prepare=1
  shift
fi
installed=$(python -c 'import importlib.metadata as m; print(m.version("verl"))')
case "$installed" in
  0.7.1) extra=verl09 other=0.9.1 ;;
  0.9.1) extra=verl07 other=0.7.1 ;;
  *) echo "verl_line.sh: the active venv has verl $installed; pac-verl supports 0.7.1 and 0.9.1" >&2
     exit 2 ;;
esac
venv=.venv/verl-line
mkdir -p .venv
exec 9>"$venv.lock"
flock 9  # a background --prepare still installing: wait for it
# made for this pyproject.toml and this line: nothing to install (the project is editable)
stamp="$(sha256sum pyproject.toml | cut -d' ' -f1) $other"
if [ "$(cat "$venv/.prepared" 2>/dev/null)" != "$stamp" ]; then
  if ! "$venv/bin/python" -c "import importlib.metadata as m; assert m.version('verl') == '$other'" \
      2>/dev/null; then
    rm -rf "$venv"
    python -m venv "$venv"
    "$venv/bin/python" -m pip install -q --upgrade pip
    "$venv/bin/python" -m pip install -q torch==2.13.0  # the CPU build, as the README installs it
  fi
  "$venv/bin/python" -m pip install -q -e ".[$extra,test]"
  echo "$stamp" >"$venv/.prepared"
fi
if [ "$prepare" = 1 ]; then
  exit 0
fi
exec 9>&-  # the venv is made: the tests' processes need not hold the lock
"$venv/bin/python" - "$other" <<'PY'
import importlib.metadata as md
import sys

got = {n: md.version(n) for n in ("verl", "numpy", "transformers", "torch")}
assert got["verl"] == sys.argv[1], got
print("verl line:", ", ".join(f"{n} {v}" for n, v in got.items()))
PY
# only the files that hold marked tests: collecting the whole suite costs half a minute
mapfile -t files < <(grep -rlE --include="test_*.py" "pytest\.mark\.(verl_line|node_versions)" tests | sort)
exec "$venv/bin/python" -m pytest -q -m "verl_line or node_versions" -p no:cacheprovider \
  "${files[@]}" "$@"

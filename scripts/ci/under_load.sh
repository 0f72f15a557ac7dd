#!/usr/bin/env bash
# CI's time on a loaded machine, reproducibly: start HOGS CPU-bound processes at CI's own priority
# (each a `python3 -c 'while True: pass'`, the competition a busy build machine gives), run CI from
# a fresh clone of this checkout's HEAD, and print the wall time and the load average seen
# meanwhile. The hogs are stopped however the run ends. The figures:
# docs/development/testing.md#how-long-ci-takes.
#
#   bash scripts/ci/under_load.sh                 # 2 hogs, `.ci/run` (the README's test command)
#   bash scripts/ci/under_load.sh 3               # 3 hogs
#   bash scripts/ci/under_load.sh 2 --here -- bash -c '. .venv/bin/activate && pytest -n 2 tests/recipes'
#
# After the number of hogs: `--here` runs in this checkout instead of a fresh clone (to time a
# subset with the venv already built); `-- COMMAND...` runs COMMAND instead of `.ci/run`. The
# clone is of the committed HEAD: commit first. Its folder is removed at the end unless KEEP=1.
set -euo pipefail
cd "$(dirname "$0")/../.."
hogs=2
if [[ $# -gt 0 && $1 =~ ^[0-9]+$ ]]; then
  hogs=$1
  shift
fi
here=0
if [[ ${1:-} == --here ]]; then
  here=1
  shift
fi
if [[ ${1:-} == -- ]]; then
  shift
fi
cmd=("$@")
[[ ${#cmd[@]} -gt 0 ]] || cmd=(bash .ci/run)

pids=()
work=""
sampler=""
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  [[ -n $sampler ]] && kill "$sampler" 2>/dev/null || true
  if [[ -n $work && ${KEEP:-0} != 1 ]]; then rm -rf "$work"; fi
}
trap cleanup EXIT

if [[ $here == 1 ]]; then
  where=$PWD
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/ci-under-load.XXXXXX")
  git clone -q "$PWD" "$work/repo"
  where=$work/repo
  echo "under_load: fresh clone of $(git rev-parse --short HEAD) in $where"
fi

for _ in $(seq "$hogs"); do
  python3 -c 'while True: pass' &
  pids+=($!)
done
loads=$(mktemp)
(while true; do cut -d' ' -f1 /proc/loadavg >>"$loads"; sleep 30; done) &
sampler=$!
echo "under_load: $hogs CPU hogs (at CI's own priority) on $(nproc) CPUs; running: ${cmd[*]}"

start=$(date +%s)
set +e
(cd "$where" && "${cmd[@]}")
rc=$?
set -e
wall=$(($(date +%s) - start))
read -r lo hi < <(sort -n "$loads" | awk 'NR==1{lo=$1} {hi=$1} END{print lo, hi}')
rm -f "$loads"
printf 'under_load: exit %d, wall %d min %02d s, %d hogs, load average %s-%s (sampled every 30 s)\n' \
  "$rc" $((wall / 60)) $((wall % 60)) "$hogs" "$lo" "$hi"
exit "$rc"

#!/usr/bin/env bash
# The verl-facing tests again, with the GPU node's library versions (scripts/ci/node_versions.sh)
# and on the other verl line (scripts/ci/verl_line.sh), both at once.
#
#   lanes.sh start [pytest args]   start both lanes in the background and return
#   lanes.sh wait                  wait for the started lanes, print their logs, exit as they did
#   lanes.sh [pytest args]         both: start, then wait
#
# The test command starts the lanes before its main `pytest -n 2` and waits for them after it, so
# the lanes' installs and Ray clusters run beside the suite instead of after it. The lanes share
# nothing with each other or the suite (an overlay beside the venv, a second venv, each its own
# local Ray cluster); the tests that count processes machine-wide (marked `serial`) wait for every
# test process of the checkout, the lanes' included (tests/conftest.py). Each lane writes its log
# under .venv/, printed whole by `wait`; the exit status is the first failed lane's, named on the
# last line.
set -uo pipefail
cd "$(dirname "$0")/../.."
lanes=(node_versions verl_line)
state=.venv/lanes
mode=both
case "${1:-}" in
  start | wait) mode=$1; shift ;;
esac

start() {
  rm -rf "$state"
  mkdir -p "$state"
  for lane in "${lanes[@]}"; do
    (
      bash "scripts/ci/$lane.sh" "$@" >".venv/$lane.log" 2>&1 </dev/null
      echo $? >"$state/$lane.rc.tmp" && mv "$state/$lane.rc.tmp" "$state/$lane.rc"
    ) &
  done
}

finish() {
  if [ ! -d "$state" ]; then
    echo "lanes.sh wait: no lanes were started in this checkout (run: bash scripts/ci/lanes.sh start)" >&2
    return 2
  fi
  local status=0 failed="" lane code
  for lane in "${lanes[@]}"; do
    while [ ! -f "$state/$lane.rc" ]; do sleep 2; done
    code=$(cat "$state/$lane.rc")
    echo "===== scripts/ci/$lane.sh: exit $code ====="
    cat ".venv/$lane.log"
    if [ "$code" -ne 0 ]; then
      failed="$failed $lane.sh"
      [ "$status" -ne 0 ] || status=$code
    fi
  done
  if [ "$status" -ne 0 ]; then
    echo "lanes.sh: failed:$failed (their output is above)" >&2
  fi
  return "$status"
}

case "$mode" in
  start) start "$@" ;;
  wait) finish ;;
  both) start "$@" && finish ;;
esac

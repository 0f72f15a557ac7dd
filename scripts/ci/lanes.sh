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
# last line, and a failed lane's last lines are printed again at the very end, where a CI log's tail
# shows them. A lane whose pytest dies of a signal (a native crash: no test failed, pytest never
# reported) runs once more; `wait` prints the first try's last lines, with pytest's faulthandler
# stacks, and says it retried. A test that fails is never retried.
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
      code=$?
      if [ "$code" -gt 128 ]; then  # died of signal code-128: keep its log, try once more
        mv ".venv/$lane.log" "$state/$lane.crashed.log"
        echo "$code" >"$state/$lane.crashed"
        bash "scripts/ci/$lane.sh" "$@" >".venv/$lane.log" 2>&1 </dev/null
        code=$?
      fi
      echo "$code" >"$state/$lane.rc.tmp" && mv "$state/$lane.rc.tmp" "$state/$lane.rc"
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
    if [ -f "$state/$lane.crashed" ]; then
      echo "===== scripts/ci/$lane.sh: the first try died of signal $(($(cat "$state/$lane.crashed") - 128)); its last 80 lines, then the second try ====="
      tail -n 80 "$state/$lane.crashed.log"
    fi
    echo "===== scripts/ci/$lane.sh: exit $code ====="
    cat ".venv/$lane.log"
    if [ "$code" -ne 0 ]; then
      failed="$failed $lane.sh"
      [ "$status" -ne 0 ] || status=$code
    fi
  done
  if [ "$status" -ne 0 ]; then
    for lane in $failed; do
      echo "===== the last 60 lines of ${lane} (whole above) ====="
      tail -n 60 ".venv/${lane%.sh}.log"
    done
    echo "lanes.sh: failed:$failed (their output is above)" >&2
  fi
  return "$status"
}

case "$mode" in
  start) start "$@" ;;
  wait) finish ;;
  both) start "$@" && finish ;;
esac

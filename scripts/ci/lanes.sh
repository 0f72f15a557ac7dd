#!/usr/bin/env bash
# The test command's last part: the verl-facing tests again, with the GPU node's library versions
# (scripts/ci/node_versions.sh) and on the other verl line (scripts/ci/verl_line.sh), both at once.
# The two lanes share nothing (an overlay beside the venv, a second venv; each its own local Ray
# cluster), so on two cores one runs while the other waits on Ray or a subprocess. Each lane
# writes to its log under .venv/, printed whole once both have ended; the exit status is the
# first failed lane's, named on the last line. Extra arguments go to both lanes' pytest.
set -uo pipefail
cd "$(dirname "$0")/../.."
mkdir -p .venv
lanes=(node_versions verl_line)
pids=()
for lane in "${lanes[@]}"; do
  bash "scripts/ci/$lane.sh" "$@" >".venv/$lane.log" 2>&1 &
  pids+=($!)
done
status=0 failed=""
for i in "${!lanes[@]}"; do
  wait "${pids[$i]}"
  code=$?
  echo "===== scripts/ci/${lanes[$i]}.sh: exit $code ====="
  cat ".venv/${lanes[$i]}.log"
  if [ "$code" -ne 0 ]; then
    failed="$failed ${lanes[$i]}.sh"
    [ "$status" -ne 0 ] || status=$code
  fi
done
if [ "$status" -ne 0 ]; then
  echo "lanes.sh: failed:$failed (their output is above)" >&2
fi
exit "$status"

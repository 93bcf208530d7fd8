#!/bin/bash
# Instructions counted for `ptax calc` of one property against `node -e 0` (issue 23), with
# valgrind's callgrind (user space, every thread): unlike wall or CPU time, the count hardly
# depends on the other load of a shared machine. Each command runs twice untimed first (the
# compile cache and the bundle's after-run code cache are then made, as on a user's machine
# after the first `ptax` of the day), then RUNS times (default 3) under callgrind; prints the
# median and the runs. Build first (npm run build:code). From the repository root:
#   bash scripts/bench-startup-instructions.sh [RUNS]
set -euo pipefail
. scripts/node-env
command -v valgrind >/dev/null || { echo "bench-startup-instructions: needs valgrind" >&2; exit 2; }
RUNS=${1:-3}
NODE=$(command -v node)
OUT=$(mktemp -d)
trap 'rm -rf "$OUT"' EXIT
count() {
  local label=$1; shift
  "$NODE" "$@" >/dev/null 2>&1 || true
  "$NODE" "$@" >/dev/null 2>&1 || true
  local vals=()
  for i in $(seq "$RUNS"); do
    valgrind --tool=callgrind --callgrind-out-file="$OUT/cg.$i" "$NODE" "$@" >/dev/null 2>"$OUT/err" || { cat "$OUT/err" >&2; exit 1; }
    vals+=("$(awk '/^(summary|totals):/ { print $2; exit }' "$OUT/cg.$i")")
  done
  local sorted
  sorted=$(printf '%s\n' "${vals[@]}" | sort -n)
  local med
  med=$(echo "$sorted" | sed -n "$(( (RUNS + 1) / 2 ))p")
  printf '%-40s median %7.1f M   (%s)\n' "$label" "$(awk -v m="$med" 'BEGIN { print m / 1e6 }')" "$(echo "$sorted" | awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 / 1e6 }')"
}
echo "node $("$NODE" --version), $RUNS runs each, load average $(cut -d' ' -f1-3 /proc/loadavg)"
count 'node -e 0' -e 0
count 'ptax calc TX Harris' dist/cli/start.cjs calc --state TX --county Harris --value 400000
count 'ptax calc NY Westchester' dist/cli/start.cjs calc --state NY --county Westchester --value 400000
count 'ptax calc OH Franklin (county level)' dist/cli/start.cjs calc --state OH --county Franklin --value 400000

#!/bin/bash
# Instructions counted for `ptax calc` of one property against `node -e 0` (issue 23), with
# valgrind's callgrind (user space, every thread): unlike wall or CPU time, the count hardly
# depends on the other load of a shared machine. Each command runs twice untimed first (the
# compile cache and the bundle's after-run code cache are then made, as on a user's machine
# after the first `ptax` of the day), then RUNS times (default 3) under callgrind; prints the
# median and the runs. Build first (npm run build:code). Most of the spread between runs of
# the same command (up to ±8 M) is V8's start-up search for a random prime for its hash seed
# (detail::sprp, called from HashSeed::InitializeRoots: 4-20 M a run, whatever the script);
# the second column leaves it out ("net"), which makes one run's count good to ±0.5 M.
# From the repository root:
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
  local vals=() nets=()
  for i in $(seq "$RUNS"); do
    valgrind --tool=callgrind --callgrind-out-file="$OUT/cg.$i" "$NODE" "$@" >/dev/null 2>"$OUT/err" || { cat "$OUT/err" >&2; exit 1; }
    local total seed
    total=$(awk '/^(summary|totals):/ { print $2; exit }' "$OUT/cg.$i")
    seed=$(callgrind_annotate "$OUT/cg.$i" 2>/dev/null | awk '/detail::sprp/ && !s { gsub(",", "", $1); s = $1 } END { print s + 0 }')
    vals+=("$total")
    nets+=("$((total - ${seed:-0}))")
  done
  printf '%-40s median %7.1f M   net %7.1f M   (%s)\n' "$label" "$(median "${vals[@]}")" "$(median "${nets[@]}")" "$(printf '%s\n' "${vals[@]}" | sort -n | awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 / 1e6 }')"
}
median() {
  printf '%s\n' "$@" | sort -n | sed -n "$(( ($# + 1) / 2 ))p" | awk '{ printf "%.1f", $1 / 1e6 }'
}
echo "node $("$NODE" --version), $RUNS runs each, load average $(cut -d' ' -f1-3 /proc/loadavg)"
count 'node -e 0' -e 0
count 'ptax calc TX Harris' dist/cli/start.cjs calc --state TX --county Harris --value 400000
count 'ptax calc NY Westchester' dist/cli/start.cjs calc --state NY --county Westchester --value 400000
count 'ptax calc OH Franklin (county level)' dist/cli/start.cjs calc --state OH --county Franklin --value 400000

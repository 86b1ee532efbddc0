#!/usr/bin/env bash
# Prints the stage times scripts/ci/stage.sh recorded, slowest first, and one summary line; warns
# loudly, naming the slowest stages, when the total passes the budget (45 minutes: CI allows 90,
# and a run should stay within 35). A warning, not a failure: a slow machine must not block a
# correct change.
# Usage: scripts/ci/summary.sh LOG [BUDGET_SECONDS]
set -euo pipefail
log=${1:?usage: summary.sh LOG [BUDGET_SECONDS]}
budget=${2:-2700}
[ -s "$log" ] || { echo "stage times: none recorded ($log)"; exit 0; }
minutes() { printf '%d min %02d s' $(($1 / 60)) $(($1 % 60)); }
total=0
echo "stage times (slowest first):"
while IFS=$'\t' read -r name seconds status; do
  total=$((total + seconds))
  printf '  %-28s %6d s  %s%s\n' "$name" "$seconds" "$(minutes "$seconds")" \
    "$([ "$status" -eq 0 ] || echo "  FAILED")"
done < <(sort -t $'\t' -k2,2nr "$log")
line=$(sort -t $'\t' -k2,2nr "$log" | awk -F'\t' '{ printf "%s%s %ds", (NR > 1 ? ", " : ""), $1, $2 }')
echo "stage total: $total s ($(minutes "$total")): $line"
if [ "$total" -gt "$budget" ]; then
  slowest=$(sort -t $'\t' -k2,2nr "$log" | head -3 | awk -F'\t' '{ printf "%s%s (%ds)", (NR > 1 ? ", " : ""), $1, $2 }')
  echo "WARNING: the stages took $(minutes "$total"), over the $((budget / 60))-minute budget" \
    "(CI stops at 90). Slowest: $slowest. See docs/testing.md, \"How long it takes\"."
fi

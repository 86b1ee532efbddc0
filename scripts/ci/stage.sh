#!/usr/bin/env bash
# Runs one stage of `make test` and records how long it took, so that a CI log says where the
# minutes went (issue: CI within 35 minutes).
# Usage: scripts/ci/stage.sh LOG NAME COMMAND...
# Appends "NAME<TAB>seconds<TAB>exit status" to LOG and exits with COMMAND's status.
set -uo pipefail
log=${1:?usage: stage.sh LOG NAME COMMAND...}
name=${2:?usage: stage.sh LOG NAME COMMAND...}
shift 2
echo "=== stage: $name"
start=$(date +%s)
"$@"
status=$?
seconds=$(($(date +%s) - start))
printf '%s\t%s\t%s\n' "$name" "$seconds" "$status" >>"$log"
echo "=== stage: $name: ${seconds} s$([ "$status" -eq 0 ] || echo ", FAILED (exit $status)")"
exit "$status"

#!/usr/bin/env bash
# Runs every libFuzzer harness in BUILD/fuzz for SECONDS each, JOBS at a time: first it replays
# fuzz/regressions/<harness>/ (every input a harness once crashed on), then it fuzzes from the
# seed corpus fuzz/corpus/<harness>/ into a working corpus under BUILD/fuzz-corpus. Any crash,
# sanitizer report, leak, timeout (-timeout) or out-of-memory (-rss_limit_mb, -malloc_limit_mb)
# fails the run. Writes BUILD/fuzz-stats.tsv: harness, executions, seeds, final corpus size.
# Usage: fuzz/run.sh BUILD SECONDS [JOBS]
set -euo pipefail
build=$(realpath "${1:?usage: run.sh BUILD SECONDS [JOBS]}")
seconds=${2:?usage: run.sh BUILD SECONDS [JOBS]}
jobs=${3:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
logs=$build/fuzz-logs
rm -rf "$logs"
mkdir -p "$logs" "$build/fuzz-corpus" "$build/fuzz-artifacts"

run_one() {
  local binary=$1 name; name=$(basename "$1" _fuzzer)
  local seeds=$root/fuzz/corpus/$name corpus=$build/fuzz-corpus/$name
  local flags=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=65536
               -artifact_prefix="$build/fuzz-artifacts/$name-")
  mkdir -p "$corpus"
  if [ -d "$root/fuzz/regressions/$name" ]; then
    "$binary" "${flags[@]}" "$root/fuzz/regressions/$name"/* >"$logs/$name.regressions" 2>&1 ||
      { echo "FAIL $name: a stored regression input fails again"; tail -30 "$logs/$name.regressions"; return 1; }
  fi
  if ! "$binary" "${flags[@]}" -max_total_time="$seconds" -print_final_stats=1 \
      "$corpus" "$seeds" >"$logs/$name.log" 2>&1; then
    echo "FAIL $name (log: $logs/$name.log)"; tail -40 "$logs/$name.log"; return 1
  fi
  local runs; runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$logs/$name.log")
  printf '%s\t%s\t%s\t%s\n' "$name" "$runs" "$(ls "$seeds" | wc -l)" "$(ls "$corpus" | wc -l)" \
    >"$logs/$name.stats"
  echo "ok   $name: $runs executions in ${seconds}s"
}
export -f run_one
export root build seconds logs

status=0
ls "$build"/fuzz/*_fuzzer | xargs -P "$jobs" -I{} bash -c 'run_one {}' || status=1
printf 'harness\texecutions\tseeds\tcorpus\n' >"$build/fuzz-stats.tsv"
cat "$logs"/*.stats >>"$build/fuzz-stats.tsv" 2>/dev/null || true
column -t "$build/fuzz-stats.tsv"
exit $status

#!/usr/bin/env bash
# Runs every libFuzzer harness in BUILD/fuzz for SECONDS each, JOBS at a time: first it replays
# fuzz/regressions/<harness>/ (every input a harness once failed on), then it fuzzes from the
# seed corpus fuzz/corpus/<harness>/ into a working corpus under BUILD/fuzz-corpus. Any crash,
# sanitizer report, leak, broken invariant, timeout (-timeout) or out-of-memory (-rss_limit_mb,
# -malloc_limit_mb) fails the run; the input is left in BUILD/fuzz-artifacts. Each fuzzer runs in
# an empty folder, so a file name inside an input (a .gltf's buffer) finds nothing on the disk.
# Writes BUILD/fuzz-stats.tsv: per harness the executions, the seeds (files and bytes) and the
# final working corpus (files and bytes).
# With SEED, every harness starts from libFuzzer seed SEED and an empty working corpus, never
# rereads the corpus folder (-reload=0: when it does depends on the clock) and runs without
# address-space randomisation (setarch -R: compared pointers steer libFuzzer's mutations), so
# the inputs it tries are the same on every machine with the same clang, in the same order: a
# run that passed here for T seconds passes anywhere that gets no further in T seconds.
# Without it the seeds are random and the working corpus is kept between runs (to explore).
# Usage: fuzz/run.sh BUILD SECONDS [JOBS] [SEED]
set -euo pipefail
usage='usage: run.sh BUILD SECONDS [JOBS] [SEED]'
build=$(realpath "${1:?$usage}")
seconds=${2:?$usage}
jobs=${3:-2}
seed=${4:-}
root=$(cd "$(dirname "$0")/.." && pwd)
fixed=()
if [ -n "$seed" ]; then
  if setarch "$(uname -m)" -R true 2>/dev/null; then fixed=(setarch "$(uname -m)" -R)
  else echo "run.sh: setarch -R is refused here; with address randomisation on, seed $seed" \
    "does not give the same inputs as on other machines"; fi
fi
logs=$build/fuzz-logs
rm -rf "$logs"
mkdir -p "$logs" "$build/fuzz-corpus" "$build/fuzz-artifacts"

bytes_in() { find "$1" -type f -exec cat {} + | wc -c; }

run_one() {
  local binary=$1 name; name=$(basename "$1" _fuzzer)
  local seeds=$root/fuzz/corpus/$name corpus=$build/fuzz-corpus/$name work=$build/fuzz-work/$name
  local flags=(-timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 -max_len=65536
               -artifact_prefix="$build/fuzz-artifacts/$name-")
  rm -rf "$work"
  if [ -n "$seed" ]; then rm -rf "$corpus"; flags+=(-seed="$seed" -reload=0); fi
  mkdir -p "$corpus" "$work" "$seeds"
  cd "$work"
  local regressions=("$root/fuzz/regressions/$name"/*)
  if [ -e "${regressions[0]}" ]; then
    "$binary" "${flags[@]}" "${regressions[@]}" >"$logs/$name.regressions" 2>&1 ||
      { echo "FAIL $name: a stored regression input fails again"; tail -30 "$logs/$name.regressions"; return 1; }
  fi
  if ! ${fixed_words} "$binary" "${flags[@]}" -max_total_time="$seconds" -print_final_stats=1 \
      "$corpus" "$seeds" >"$logs/$name.log" 2>&1; then
    echo "FAIL $name (log: $logs/$name.log)"; tail -40 "$logs/$name.log"; return 1
  fi
  local runs; runs=$(awk '/stat::number_of_executed_units/ {print $2}' "$logs/$name.log")
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$name" "$runs" "$(ls "$seeds" | wc -l)" "$(bytes_in "$seeds")" \
    "$(ls "$corpus" | wc -l)" "$(bytes_in "$corpus")" >"$logs/$name.stats"
  echo "ok   $name: $runs executions in ${seconds}s${seed:+ from seed $seed}"
}
export -f run_one bytes_in
export root build seconds seed logs
export fixed_words="${fixed[*]}"  # arrays do not reach xargs' shells; these words have no spaces

status=0
ls "$build"/fuzz/*_fuzzer | xargs -P "$jobs" -I{} bash -c 'run_one {}' || status=1
printf 'harness\texecutions\tseed_files\tseed_bytes\tcorpus_files\tcorpus_bytes\n' \
  >"$build/fuzz-stats.tsv"
cat "$logs"/*.stats >>"$build/fuzz-stats.tsv" 2>/dev/null || true
column -t "$build/fuzz-stats.tsv"
exit $status

#!/bin/sh
# CTest's command for one test of a Windows test program:
#   wine-test.sh RESULTS EMULATOR... PROGRAM --gtest_filter=Suite.Name ...
# A test that the batch run (scripts/wine-batch.py) passed or skipped is reported from RESULTS,
# when RESULTS is newer than PROGRAM; any other test, and any other command (the test list), runs
# under the emulator (scripts/wine-run.sh) as it would without a batch run.
results=$1
shift
name=
program=
for argument in "$@"; do
  case "$argument" in
    --gtest_filter=*) name=${argument#--gtest_filter=} ;;
    *.exe) program=$argument ;;
  esac
done
if [ -n "$name" ] && [ -f "$results" ] && [ "$results" -nt "$program" ]; then
  if grep -F -x -q "passed	$name" "$results"; then
    echo "$name passed in the batch run of every test ($results)"
    exit 0
  fi
  if grep -F -x -q "skipped	$name" "$results"; then
    echo "[  SKIPPED ] $name, in the batch run of every test ($results)"
    exit 0
  fi
fi
exec "$@"

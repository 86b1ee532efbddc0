#!/usr/bin/env bash
# Runs ctest in BUILD_DIR with the given arguments, then prints its slowest tests (from CTest's
# JUnit report), whether or not they passed, so that a log says which tests the minutes went to.
# Usage: scripts/ci/ctest.sh BUILD_DIR [CTEST ARGUMENTS...]
set -uo pipefail
dir=${1:?usage: ctest.sh BUILD_DIR [CTEST ARGUMENTS...]}
shift
report=$(realpath "$dir")/ctest-junit.xml
rm -f "$report"
ctest --test-dir "$dir" --output-junit "$report" "$@"
status=$?
if [ -s "$report" ]; then
  python3 - "$report" <<'PY'
import sys
import xml.etree.ElementTree as ET

cases = ET.parse(sys.argv[1]).getroot().iter("testcase")
timed = sorted(((float(c.get("time", 0)), c.get("name", "?")) for c in cases), reverse=True)
total = sum(t for t, _ in timed)
print(f"slowest of {len(timed)} tests ({total:.0f} s of test time in all):")
for seconds, name in timed[:12]:
    print(f"  {seconds:8.1f} s  {name}")
PY
fi
exit "$status"

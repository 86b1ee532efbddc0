#!/usr/bin/env bash
# `make bench`: the whole-file benchmarks (bench/run.py: a ~1 GiB generated scene read, written
# and converted beside memcpy, cat and cp in the same run; the 42 MB cast.py comparison), then
# glTF import against the same scene as Cast (bench/gltf_import.py) and a 165 MB DMF JSON read
# beside a simdjson On-Demand walk and written beside cp (bench/dmf_json.py), both appended to
# bench-results.md, the Python read comparison (bench/python_bench.py), the viewer's first frame
# (bench/viewer_bench.mjs, bench-viewer.md), then the Google Benchmark
# micro benchmarks (castkit_bench). Takes a few minutes; needs ~2.5 GB free in the build
# directory, where the generated scenes are kept for the next run.
#   bash bench/run.sh BUILD_DIR [run.py options, e.g. --megabytes 256 --runs 3]
# Reports: BUILD_DIR/bench-results.md, bench-batch.md (folder conversion), bench-python.md and
# bench-micro.txt.
set -euo pipefail
build="${1:?usage: bench/run.sh BUILD_DIR [options]}"
shift
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

for tool in "$build/tools/castkit/castkit" "$build/bench/castkit_perf" "$build/bench/castkit_make_scene" "$build/bench/simdjson_walk"; do
  [ -x "$tool" ] || { echo "bench: $tool is missing; build with CASTKIT_BUILD_BENCH=ON (make build)" >&2; exit 1; }
done

python3 "$here/run.py" "$build" "$@"
python3 "$here/gltf_import.py" "$build"
python3 "$here/dmf_json.py" "$build" --append
python3 "$here/batch.py" "$build"
# Python read speed (bench/python_bench.py): needs the module, built for Debian's python3.
if [ -d "$build/python/castkit" ]; then
  PYTHONPATH="$build/python" /usr/bin/python3 "$here/python_bench.py" "$build"
fi

# The viewer's first frame of a 64 MiB Cast file against three.js's GLTFLoader on the same
# scene as glb (bench/viewer_bench.mjs): needs the static page (make viewer) and Chromium.
if [ -f "$here/../viewer/dist/castkit.js" ]; then
  node "$here/viewer_bench.mjs" "$build"
fi

if [ -x "$build/bench/castkit_bench" ]; then
  echo "bench: micro benchmarks (castkit_bench)" >&2
  "$build/bench/castkit_bench" --benchmark_min_time=0.1 | tee "$build/bench-micro.txt"
fi
echo "bench: reports in $build/bench-results.md and $build/bench-micro.txt" >&2

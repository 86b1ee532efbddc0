#!/usr/bin/env bash
# Installs what castkit needs on Debian 12 (or Ubuntu), from Debian's packages only. Safe to run
# repeatedly: it installs only what is missing.
#   scripts/setup.sh --run   building and running castkit: the library, the CLI with
#                            `castkit view`, the Python module (what `make demo` needs)
#   scripts/setup.sh         that, and everything the tests use (Chromium, Blender, clang,
#                            mingw-w64 and Wine, Emscripten, GoogleTest, Google Benchmark)
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git ccache
  libfmt-dev libcli11-dev nlohmann-json3-dev libglm-dev
  libtinygltf-dev libdraco-dev libmeshoptimizer-dev libsimdjson-dev
  libstb-dev libsquish-dev
  # `castkit view` serves the viewer page (bundled with npm, below) with cpp-httplib.
  libcpp-httplib-dev
  # The Python module (python/, docs/python.md); scripts/demo.sh prints JSON with python3.
  python3 python3-numpy pybind11-dev python3-dev
)
test_packages=(
  libgtest-dev libgmock-dev libbenchmark-dev
  # The Python module's tests; pip, setuptools and venv for the `pip install .` test; wheel for
  # make dist's wheel; Dask for castkit.batch on a cluster (a LocalCluster in the tests).
  python3-pytest python3-pip python3-setuptools python3-wheel python3-venv python3-distributed
  python3-dask
  # psutil lists the sockets the one-machine cluster recipe of docs/batch.md listens on.
  python3-psutil
  # mypy type-checks the type stubs the build writes, and a program against them.
  python3-mypy
  # The viewer's tests drive Debian's Chromium.
  chromium
  clang libclang-rt-14-dev
  # Project.Formatted checks every C++ file against .clang-format with this clang-format.
  clang-format
  # Blender's own glTF and FBX importers open the files castkit writes (tests/blender).
  blender
  # `assimp info` counts what castkit's FBX holds (Assimp.InfoCountsWhatCastkitsFbxHolds).
  assimp-utils
  # Quantized, meshopt- and Draco-compressed variants of the Khronos samples
  # (GltfSamples.KhronosSamples): gltfpack, and draco_transcoder from draco.
  gltfpack draco
  # The Windows cross-build (make windows) and its tests under Wine; GoogleTest's sources, built
  # for Windows.
  g++-mingw-w64-x86-64-posix wine64 googletest
  # The browser viewer's WebAssembly module (make viewer-wasm).
  emscripten
)
case "${1:-}" in
  --run) ;;
  "") packages+=("${test_packages[@]}") ;;
  *) echo "usage: scripts/setup.sh [--run]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm bundle the viewer page and run the glTF validator. Machines that already have them (e.g. from NodeSource,
# whose nodejs package conflicts with Debian's npm) keep theirs.
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)

if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

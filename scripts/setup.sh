#!/usr/bin/env bash
# Installs everything castkit needs to build and test on Debian 12 (or Ubuntu), from Debian's
# packages only. Safe to run repeatedly: it installs only what is missing.
set -euo pipefail

packages=(
  build-essential cmake ninja-build pkg-config git
  libfmt-dev libcli11-dev nlohmann-json3-dev libglm-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  python3 python3-numpy
  # The Python module (python/, docs/python.md) and its tests; pip, setuptools and venv for the
  # `pip install .` test.
  pybind11-dev python3-dev python3-pytest python3-pip python3-setuptools python3-venv
  libtinygltf-dev libdraco-dev libmeshoptimizer-dev libsimdjson-dev
  libstb-dev libsquish-dev
  # `castkit view` serves the viewer page with cpp-httplib; its tests drive Debian's Chromium.
  libcpp-httplib-dev chromium
  clang libclang-rt-14-dev
  # Blender's own glTF importer opens the files castkit writes (tests/blender).
  blender
  # The Windows cross-build (make windows) and its tests under Wine; GoogleTest's sources, built
  # for Windows.
  g++-mingw-w64-x86-64-posix wine64 googletest
  # The browser viewer's WebAssembly module (make viewer-wasm).
  emscripten
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
# Node.js and npm run the glTF validator. Machines that already have them (e.g. from NodeSource,
# whose nodejs package conflicts with Debian's npm) keep theirs.
command -v npm >/dev/null 2>&1 || missing+=(nodejs npm)

if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

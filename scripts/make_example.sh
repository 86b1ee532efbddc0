#!/usr/bin/env bash
# Regenerates the bundled examples: build_scene writes examples/data/*.cast and the example
# character's Cast files and texture (examples/data/hero), then the castkit CLI converts the
# character into every format castkit writes, beside them. Run from the repository's root after
# building the CLI and the examples (`cmake --build build --target castkit_cli
# castkit_build_scene`):
#   scripts/make_example.sh [BUILD_DIR]       (default: build)
# Examples.HeroConversionsMatchTheCli (tests/examples/examples_test.cpp) runs the same
# conversions and compares the bytes with the committed files: change both together.
set -euo pipefail
build=${1:-build}
castkit=$(cd "$build" && pwd)/tools/castkit/castkit
"$build/examples/castkit_build_scene" examples/data
cd examples/data/hero
convert() {
  echo "castkit convert $*"
  # The warnings name what a format cannot hold (SEModel keeps no animations or blend shapes,
  # DMF and K3D no blend shapes or notification tracks): expected, so kept out of the way.
  "$castkit" convert "$@" 2>/dev/null
}
# The model with both animations, in every format that holds a model and animations.
for out in hero.glb hero.gltf hero.dmf hero.dmf.json hero.k3d; do
  convert hero.cast hero_walk.cast hero_idle.cast -o "$out"
done
# SEModel holds a model only; SEAnim one animation.
convert hero.cast hero.semodel
convert hero_walk.cast hero_walk.seanim
convert hero_idle.cast hero_idle.seanim
du -ch -- * | tail -n 1

#!/usr/bin/env bash
# Runs castkit on the bundled example files: summary, validation, tree, a byte-exact rewrite,
# and conversions to glTF and SEAnim.
set -euo pipefail
castkit=${1:-build/tools/castkit/castkit}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for file in examples/data/*.cast; do
  echo "== castkit info $file"
  "$castkit" info "$file"
done
echo "== castkit validate examples/data/*.cast"
"$castkit" validate examples/data/*.cast
first=$(ls examples/data/*.cast | head -n 1)
echo "== castkit dump $first"
"$castkit" dump "$first"
echo "== castkit convert $first (rewrite) and compare"
"$castkit" convert "$first" "$out/rewritten.cast"
cmp "$first" "$out/rewritten.cast" && echo "rewritten byte for byte"
echo "== castkit convert examples/data/character.cast character.glb"
"$castkit" convert examples/data/character.cast "$out/character.glb"
"$castkit" info "$out/character.glb"
echo "== castkit convert examples/data/wave.cast wave.seanim"
"$castkit" convert examples/data/wave.cast "$out/wave.seanim"
"$castkit" info "$out/wave.seanim"

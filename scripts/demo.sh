#!/usr/bin/env bash
# Runs castkit on the bundled example files: summary, tree, JSON dump and a rewrite.
set -euo pipefail
castkit=${1:-build/tools/castkit/castkit}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for file in examples/data/*.cast; do
  echo "== castkit info $file"
  "$castkit" info "$file"
done
first=$(ls examples/data/*.cast | head -n 1)
echo "== castkit dump $first"
"$castkit" dump "$first"
echo "== castkit convert $first (rewrite) and compare"
"$castkit" convert "$first" "$out/rewritten.cast"
cmp "$first" "$out/rewritten.cast" && echo "rewritten byte for byte"

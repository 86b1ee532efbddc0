#!/usr/bin/env bash
# Regenerates the seed corpora in fuzz/corpus/<harness>/ from the repository's own Cast files
# (the examples and the smaller reference fixtures, which between them hold every node type),
# converted by the castkit CLI into each format. A .gltf's buffer becomes a data URI so that the
# seed is one file. Usage: fuzz/make_corpus.sh build/tools/castkit/castkit
set -euo pipefail
cli=$(realpath "${1:?usage: make_corpus.sh CASTKIT_BINARY}")
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/fuzz/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

sources=("$root"/examples/data/*.cast)
for f in "$root"/tests/fixtures/cast/reference/gen_7_*.cast; do
  [ "$(stat -c %s "$f")" -le 6000 ] && sources+=("$f")
done

rm -rf "$out"
mkdir -p "$out"/{cast,validate,anim,seanim,semodel,dmf,dmf_json,k3d,glb,gltf}
for f in "${sources[@]}" "$root"/tests/fixtures/cast/edge/*.cast; do
  for h in cast validate anim; do cp "$f" "$out/$h/$(basename "$f")"; done
done

# Each source in every other format; conversions that refuse a source are skipped.
declare -A ext=([seanim]=seanim [semodel]=semodel [dmf]=dmf [dmf_json]=dmf.json [k3d]=k3d
                [glb]=glb [gltf]=gltf)
for f in "${sources[@]}"; do
  name=$(basename "$f" .cast)
  for h in "${!ext[@]}"; do
    target="$work/$name.${ext[$h]}"
    if "$cli" convert "$f" "$target" >/dev/null 2>&1 && [ -s "$target" ]; then
      if [ "$h" = gltf ]; then
        python3 - "$target" "$out/$h/$name.gltf" <<'PY'
import base64, json, os, sys
source, target = sys.argv[1], sys.argv[2]
document = json.load(open(source))
for buffer in document.get("buffers", []):
    uri = buffer.get("uri")
    if uri and not uri.startswith("data:"):
        data = open(os.path.join(os.path.dirname(source), uri), "rb").read()
        buffer["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
json.dump(document, open(target, "w"), separators=(",", ":"))
PY
      else
        cp "$target" "$out/$h/$name.${ext[$h]}"
      fi
    fi
  done
done
# Identical seeds add nothing: keep one of each.
for d in "$out"/*/; do
  (cd "$d" && md5sum -- * | sort | awk 'seen[$1]++ {print $2}' | xargs -r rm -f --)
done
for d in "$out"/*/; do echo "$(basename "$d"): $(ls "$d" | wc -l) files, $(du -sk "$d" | cut -f1) KB"; done

#!/usr/bin/env bash
# Regenerates the seed corpora in fuzz/corpus/<harness>/ from files inside the repository only:
#   - the Cast examples (examples/data), the smaller reference fixtures (every node type and
#     property form) and the edge fixtures (tests/fixtures/cast);
#   - the example character merged with its animation (a model and an animation in one file);
#   - the glTF fixtures (tests/fixtures/gltf: skinning, morph targets, sparse and quantised
#     accessors, CUBICSPLINE, texture transforms, cameras), as they are and in the other glTF
#     container, and converted to Cast;
# and every Cast source converted by the castkit CLI into each other format (conversions that
# refuse a source are skipped). A .gltf's buffers become data URIs so that each seed is one file.
# Seeds over 64 KB are left out (run.sh fuzzes with -max_len=65536), and so are duplicates.
# Usage: fuzz/make_corpus.sh build/tools/castkit/castkit
set -euo pipefail
cli=$(realpath "${1:?usage: make_corpus.sh CASTKIT_BINARY}")
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/fuzz/corpus
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
max_seed=65536
# Texture paths in the examples are relative to examples/data: DMF and glb embed those images.
convert() { "$cli" convert "$@" --textures "$root/examples/data" >/dev/null 2>&1; }

rm -rf "$out"
mkdir -p "$out"/{cast,validate,anim,export,seanim,semodel,dmf,dmf_json,k3d,glb,gltf,off} "$work/cast"

# The example format registered at run time (examples/off_format.cpp): a cube of quads with a
# comment, and a triangle with a face colour.
printf 'OFF\n# a unit cube\n8 6 12\n0 0 0\n1 0 0\n1 1 0\n0 1 0\n0 0 1\n1 0 1\n1 1 1\n0 1 1\n%b' \
  '4 0 3 2 1\n4 4 5 6 7\n4 0 1 5 4\n4 2 3 7 6\n4 1 2 6 5\n4 0 4 7 3\n' > "$out/off/cube.off"
printf 'OFF\n3 1 0\n0 0 0\n1 0 0\n0 1 0\n3 0 1 2 255 0 0\n' > "$out/off/triangle.off"

# glTF ↔ glb without going through Cast, so that every glTF feature of the fixtures survives.
gltf_container() {
  python3 - "$@" <<'PY'
import base64, json, os, struct, sys
source, target = sys.argv[1], sys.argv[2]
raw = open(source, "rb").read()
if raw[:4] == b"glTF":
    length = struct.unpack_from("<I", raw, 12)[0]
    document = json.loads(raw[20:20 + length])
    binary = raw[28 + length:] if len(raw) > 28 + length else b""
    for buffer in document.get("buffers", []):
        if "uri" not in buffer:
            buffer["uri"] = "data:application/octet-stream;base64," + base64.b64encode(binary).decode()
else:
    document = json.loads(raw)
    for buffer in document.get("buffers", []):
        uri = buffer.get("uri", "")
        if uri and not uri.startswith("data:"):
            data = open(os.path.join(os.path.dirname(source), uri), "rb").read()
            buffer["uri"] = "data:application/octet-stream;base64," + base64.b64encode(data).decode()
if target.endswith(".gltf"):
    json.dump(document, open(target, "w"), separators=(",", ":"))
else:
    buffers = document.get("buffers", [])
    binary = b""
    if buffers and buffers[0].get("uri", "").startswith("data:"):
        binary = base64.b64decode(buffers[0].pop("uri").split(",", 1)[1])
        binary += b"\0" * (-len(binary) % 4)
    text = json.dumps(document, separators=(",", ":")).encode()
    text += b" " * (-len(text) % 4)
    chunks = struct.pack("<II", len(text), 0x4E4F534A) + text
    if binary:
        chunks += struct.pack("<II", len(binary), 0x004E4942) + binary
    open(target, "wb").write(struct.pack("<III", 0x46546C67, 2, 12 + len(chunks)) + chunks)
PY
}

# The Cast sources.
sources=("$root"/examples/data/*.cast)
for f in "$root"/tests/fixtures/cast/reference/gen_7_*.cast; do
  [ "$(stat -c %s "$f")" -le 6000 ] && sources+=("$f")
done
convert "$root/examples/data/character.cast" "$root/examples/data/wave.cast" \
  -o "$work/cast/character_wave.cast" && sources+=("$work/cast/character_wave.cast")
for f in "$root"/tests/fixtures/gltf/*.glb "$root"/tests/fixtures/gltf/*.gltf; do
  name=$(basename "$f"); name=${name%.*}
  case "$f" in
    *.glb) cp "$f" "$out/glb/$name.glb"; gltf_container "$f" "$out/gltf/$name.gltf" ;;
    *) gltf_container "$f" "$out/gltf/$name.gltf"; gltf_container "$f" "$out/glb/$name.glb" ;;
  esac
  convert "$f" "$work/cast/gltf_$name.cast" && sources+=("$work/cast/gltf_$name.cast")
done

for f in "${sources[@]}" "$root"/tests/fixtures/cast/edge/*.cast; do
  for h in cast validate anim export; do cp "$f" "$out/$h/$(basename "$f")"; done
done

# Each source in every other format.
declare -A ext=([seanim]=seanim [semodel]=semodel [dmf]=dmf [dmf_json]=dmf.json [k3d]=k3d
                [glb]=glb [gltf]=gltf)
for f in "${sources[@]}"; do
  name=$(basename "$f" .cast)
  for h in "${!ext[@]}"; do
    target="$work/$name.${ext[$h]}"
    convert "$f" "$target" && [ -s "$target" ] || continue
    if [ "$h" = gltf ]; then
      gltf_container "$target" "$out/$h/$name.gltf"
    else
      cp "$target" "$out/$h/$name.${ext[$h]}"
    fi
  done
done

for d in "$out"/*/; do
  find "$d" -type f -size +"$((max_seed - 1))"c -delete
  # Identical seeds add nothing: keep one of each.
  (cd "$d" && find . -type f -exec md5sum {} + | sort | awk 'seen[$1]++ {print $2}' |
     xargs -r rm -f --)
done
for d in "$out"/*/; do
  echo "$(basename "$d"): $(ls "$d" | wc -l) files, $(cat "$d"/* | wc -c) bytes"
done
echo "total: $(find "$out" -type f | wc -l) files, $(find "$out" -type f -exec cat {} + | wc -c) bytes"

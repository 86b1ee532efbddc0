#!/usr/bin/env bash
# Runs castkit on the bundled example files: summary, validation, tree, a byte-exact rewrite,
# and conversions to glTF and SEAnim; then the example character (examples/data/hero): its
# Cast files, its walk and idle merged into one glb, and the copies in every format castkit
# writes, ending with the command that shows it in the viewer.
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
echo "== castkit convert character.cast + wave.seanim -o character-animated.glb (one scene)"
"$castkit" convert examples/data/character.cast "$out/wave.seanim" -o "$out/character-animated.glb"
"$castkit" info "$out/character-animated.glb"
echo "== castkit convert a folder of mixed formats (one file corrupt) to glb, in parallel"
mkdir -p "$out/assets/props"
for ext in cast semodel dmf dmf.json k3d gltf; do
  "$castkit" convert examples/data/character.cast "$out/assets/character-$ext.$ext" 2>/dev/null
done
cp examples/data/scene.cast "$out/assets/props/scene.cast"
cp "$out/wave.seanim" "$out/assets/props/wave.seanim"
head -c 100 examples/data/character.cast > "$out/assets/props/cut-short.cast"
status=0
"$castkit" convert "$out/assets" -o "$out/converted" --to glb --recursive \
  --report "$out/report.json" || status=$?
echo "exit code $status (1: a file failed); the report's entry for it:"
python3 -c 'import json,sys; print(json.dumps([f for f in json.load(open(sys.argv[1]))["files"] if f["status"] == "failed"], indent=2))' "$out/report.json"
echo "== the example character: examples/data/hero (scripts/make_example.sh makes it)"
hero=examples/data/hero
"$castkit" info "$hero/hero.cast" "$hero/hero_walk.cast" "$hero/hero_idle.cast"
"$castkit" validate "$hero"/*.cast
echo "== castkit convert hero.cast hero_walk.cast hero_idle.cast -o hero.glb (one scene, both animations)"
"$castkit" convert "$hero/hero.cast" "$hero/hero_walk.cast" "$hero/hero_idle.cast" -o "$out/hero.glb"
cmp "$out/hero.glb" "$hero/hero.glb" && echo "the same bytes as the committed $hero/hero.glb"
echo "== the character in every format castkit writes (what each format keeps, castkit info)"
for file in "$hero"/hero.{glb,gltf,dmf,dmf.json,k3d,semodel} "$hero"/hero_{walk,idle}.seanim; do
  # The first line (format, size) and the counts of each model and animation.
  "$castkit" info "$file" 2>/dev/null | grep -E "^[^ ]|^root"
done
echo "== see it: castkit view $hero/hero.gltf   (the walk and the idle on the timeline, a slider"
echo "   per blend shape; every file above opens the same way, an SEModel with its SEAnims:"
echo "   castkit view $hero/hero.semodel $hero/hero_walk.seanim $hero/hero_idle.seanim)"

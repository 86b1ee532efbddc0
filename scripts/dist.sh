#!/usr/bin/env bash
# Packs the five release artefacts from a Linux build tree and a Windows (mingw-w64) build tree:
#   scripts/dist.sh LINUX_BUILD WINDOWS_BUILD OUT_DIR
# giving in OUT_DIR
#   castkit-VERSION-linux-x86_64.tar.gz       the CLI, library, headers, CMake package, viewer page
#   castkit-VERSION-windows-x86_64.zip        the same for Windows
#   castkit_blender-VERSION-linux-x64.zip     the Blender add-on with the Linux CLI inside
#   castkit_blender-VERSION-windows-x64.zip   the Blender add-on with castkit.exe inside
#   castkit_toolkit-VERSION-cpXY-cpXY-linux_x86_64.whl   the Python module and CLI (pip install)
# each with NAME.sha256 beside it, and SHA256SUMS listing all five (`sha256sum -c SHA256SUMS`).
# .github/workflows/release.yml attaches exactly these to a GitHub release; the dist test
# (tests/dist/dist_test.cmake) checks that it names them.
# The two archives each hold what `cmake --install` puts in a prefix (the CLI, the static library,
# the headers, the CMake package for find_package(castkit)) under one folder, with README.md and
# LICENSE at its top. The Linux CLI also carries, in lib/castkit, every shared library it loads
# beyond the C library itself (glibc, the loader, libm), found with ldd; its RUNPATH points there,
# so it runs on a system without Debian's fmt, simdjson, draco, … packages. Both also hold the
# bundled example files (examples/data, as in the checkout, for the README's commands) and the
# static viewer page, viewer/index.html with its scripts (viewer/dist of the checkout, from `make
# viewer`), to open from disk without Emscripten or Node.js. Entries are sorted, owned by root and
# dated by the last commit, so the same commit gives the same archives.
set -euo pipefail
linux_build=$1
windows_build=$2
out=$3
source_dir=$(cd "$(dirname "$0")/.." && pwd)

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$linux_build/CMakeCache.txt")
[ -n "$version" ] || { echo "dist: no project version in $linux_build" >&2; exit 1; }
viewer_page="$source_dir/viewer/dist"
viewer_files="index.html viewer.js castkit.js"
for file in $viewer_files; do
  [ -f "$viewer_page/$file" ] ||
    { echo "dist: no $viewer_page/$file: build the viewer page first (make viewer)" >&2; exit 1; }
done
epoch=$(git -C "$source_dir" log -1 --format=%ct 2>/dev/null || echo 0)
# Also the time stamp that strip writes into a Windows executable's header.
export SOURCE_DATE_EPOCH=$epoch

rm -rf "$out"
mkdir -p "$out/stage"
# Copies into ROOT/lib/castkit the shared libraries ROOT/bin/castkit loads, except glibc's own.
bundle_shared_libraries() {  # bundle_shared_libraries ROOT
  local root=$1 library path
  mkdir -p "$root/lib/castkit"
  ldd "$root/bin/castkit" | awk '$2 == "=>" && $3 ~ /^\// { print $1, $3 }' |
    while read -r library path; do
      case "$library" in
        libc.so.* | libm.so.* | libpthread.so.* | libdl.so.* | librt.so.* | ld-linux*) ;;
        *) cp -L "$path" "$root/lib/castkit/$library" ;;
      esac
    done
}

pack() {  # pack BUILD_DIR NAME FORMAT
  local name=$2
  local root="$out/stage/$name"
  cmake --install "$1" --prefix "$root" --strip >/dev/null
  if [ "$3" != zip ]; then bundle_shared_libraries "$root"; fi
  cp "$source_dir/README.md" "$source_dir/LICENSE" "$root/"
  # The bundled example files, where the README's commands expect them (examples/data/...).
  (cd "$source_dir" && git ls-files -z examples/data | xargs -0 cp --parents -t "$root")
  mkdir -p "$root/viewer"
  for file in $viewer_files; do cp "$viewer_page/$file" "$root/viewer/"; done
  (
    cd "$out/stage"
    find "$name" -print0 | sort -z | xargs -0 touch -h -d "@$epoch"
    find "$name" ! -type d -print | LC_ALL=C sort > "$name.list"
    if [ "$3" = zip ]; then
      # Python's zipfile, because libarchive's zip entries carry each file's ctime.
      python3 - "../$name.zip" "$name.list" "$epoch" <<'PY'
import sys, time, zipfile
archive, listing, epoch = sys.argv[1], sys.argv[2], int(sys.argv[3])
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as out:
    for name in open(listing).read().splitlines():
        entry = zipfile.ZipInfo(name, time.gmtime(epoch)[:6])
        entry.external_attr = 0o100644 << 16
        entry.compress_type = zipfile.ZIP_DEFLATED
        with open(name, "rb") as data:
            out.writestr(entry, data.read())
PY
    else
      tar --owner=0 --group=0 --numeric-owner --mtime="@$epoch" -czf "../$name.tar.gz" \
        --files-from="$name.list"
    fi
  )
}
# The Blender add-on (blender/package.py) around the CLI of BUILD_DIR, stripped with that tree's
# strip (mingw's for Windows), dated like the archives.
pack_addon() {  # pack_addon BUILD_DIR PLATFORM CLI_NAME
  local strip
  strip=$(sed -n 's/^CMAKE_STRIP:FILEPATH=//p' "$1/CMakeCache.txt")
  python3 "$source_dir/blender/package.py" --package "$source_dir/blender/castkit_blender" \
    --castkit "$1/tools/castkit/$3" --platform "$2" --version "$version" --strip "$strip" \
    --out "$out/castkit_blender-$version-$2.zip"
}

# The wheel from the Linux tree's module and CLI (setup.py's CASTKIT_BUILD_DIR: nothing is
# compiled again), with the interpreter that tree's module was built for, offline.
pack_wheel() {  # pack_wheel BUILD_DIR
  local python
  # Python_EXECUTABLE when given, else FindPython's own entry.
  python=$(sed -n 's/^_\{0,1\}Python_EXECUTABLE:[A-Z]*=//p' "$1/CMakeCache.txt" | head -n 1)
  [ -n "$python" ] && [ -n "$(find "$1/python/castkit" -name '_castkit*.so' 2>/dev/null)" ] ||
    { echo "dist: $1 has no Python module (configure it with CASTKIT_PYTHON=ON)" >&2; exit 1; }
  CASTKIT_BUILD_DIR=$(cd "$1" && pwd) "$python" -m pip wheel --quiet --no-build-isolation \
    --no-deps --no-index --wheel-dir "$out" "$source_dir"
}

# The wheel first: its build of the module and CLI targets (a no-op after `make build`) would
# otherwise relink a stale tree's CLI after the archive took the old one.
pack_wheel "$linux_build"
pack "$linux_build" "castkit-$version-linux-x86_64" tar.gz
pack "$windows_build" "castkit-$version-windows-x86_64" zip
rm -rf "$out/stage"
pack_addon "$linux_build" linux-x64 castkit
pack_addon "$windows_build" windows-x64 castkit.exe
(
  cd "$out"
  artefacts=(castkit-*.tar.gz castkit-*.zip castkit_blender-*.zip castkit_toolkit-*.whl)
  [ "${#artefacts[@]}" -eq 5 ] || { echo "dist: expected 5 artefacts, made ${artefacts[*]}" >&2; exit 1; }
  for artefact in "${artefacts[@]}"; do sha256sum "$artefact" > "$artefact.sha256"; done
  sha256sum "${artefacts[@]}" > SHA256SUMS
)
ls -l "$out"

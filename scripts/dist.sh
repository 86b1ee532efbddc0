#!/usr/bin/env bash
# Packs the release archives from a Linux build tree and a Windows (mingw-w64) build tree:
#   scripts/dist.sh LINUX_BUILD WINDOWS_BUILD OUT_DIR
# giving OUT_DIR/castkit-VERSION-linux-x86_64.tar.gz and castkit-VERSION-windows-x86_64.zip.
# Each holds what `cmake --install` puts in a prefix (the CLI, the static library, the headers,
# the CMake package for find_package(castkit)) under one folder, with README.md and LICENSE at
# its top. The Linux CLI also carries, in lib/castkit, every shared library it loads beyond the C
# library itself (glibc, the loader, libm), found with ldd; its RUNPATH points there, so it runs
# on a system without Debian's fmt, simdjson, draco, … packages. Both also hold the static viewer
# page, viewer/index.html with its scripts (viewer/dist of the checkout, from `make viewer`), to
# open from disk without Emscripten or Node.js. Entries are sorted, owned by root and dated by the
# last commit, so the same commit gives the same archives.
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
pack "$linux_build" "castkit-$version-linux-x86_64" tar.gz
pack "$windows_build" "castkit-$version-windows-x86_64" zip
rm -rf "$out/stage"
ls -l "$out"

#!/usr/bin/env bash
# Packs the release archives from a Linux build tree and a Windows (mingw-w64) build tree:
#   scripts/dist.sh LINUX_BUILD WINDOWS_BUILD OUT_DIR
# giving OUT_DIR/castkit-VERSION-linux-x86_64.tar.gz and castkit-VERSION-windows-x86_64.zip.
# Each holds what `cmake --install` puts in a prefix (the CLI, the static library, the headers,
# the CMake package for find_package(castkit)) under one folder, with README.md and LICENSE at
# its top. Entries are sorted, owned by root and dated by the last commit, so the same commit
# gives the same archives.
set -euo pipefail
linux_build=$1
windows_build=$2
out=$3
source_dir=$(cd "$(dirname "$0")/.." && pwd)

version=$(sed -n 's/^CMAKE_PROJECT_VERSION:STATIC=//p' "$linux_build/CMakeCache.txt")
[ -n "$version" ] || { echo "dist: no project version in $linux_build" >&2; exit 1; }
epoch=$(git -C "$source_dir" log -1 --format=%ct 2>/dev/null || echo 0)

rm -rf "$out"
mkdir -p "$out/stage"
pack() {  # pack BUILD_DIR NAME FORMAT
  local name=$2
  local root="$out/stage/$name"
  cmake --install "$1" --prefix "$root" >/dev/null
  cp "$source_dir/README.md" "$source_dir/LICENSE" "$root/"
  (
    cd "$out/stage"
    find "$name" -print0 | sort -z | xargs -0 touch -h -d "@$epoch"
    find "$name" ! -type d -print | LC_ALL=C sort > "$name.list"
    if [ "$3" = zip ]; then
      cmake -E tar cf "../$name.zip" --format=zip --mtime="@$epoch" --files-from="$name.list"
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

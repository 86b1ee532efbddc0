#!/usr/bin/env bash
# Unpacks the upstream sources of a Debian package for a cross-build (cmake/cross/ compiles them
# for the target), from Debian's own source packages only:
#   scripts/debian-source.sh PACKAGE DEST     (e.g. simdjson build-wasm/debian-sources)
# gives DEST/PACKAGE/ (the .orig tarball's contents) beside the files apt downloaded (checked
# against Debian's signed index). When apt knows no source packages yet, it first enables them
# for Debian's archive (debian-src.sources: a copy of debian.sources with "Types: deb-src") and
# updates its lists, as root or through sudo. Does nothing when DEST/PACKAGE already exists.
set -euo pipefail
package=$1
dest=$2
[ -d "$dest/$package" ] && exit 0

# Debian's archive as the system's apt sources name it (deb822 or one-line format), for sources.
enable_sources() {
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    sed 's/^Types:.*/Types: deb-src/' /etc/apt/sources.list.d/debian.sources |
      $sudo tee /etc/apt/sources.list.d/debian-src.sources >/dev/null
  elif grep -q '^deb ' /etc/apt/sources.list 2>/dev/null; then
    sed -n 's/^deb /deb-src /p' /etc/apt/sources.list |
      $sudo tee /etc/apt/sources.list.d/debian-src.list >/dev/null
  else
    echo "debian-source: no Debian archive in /etc/apt to take the sources from" >&2
    exit 1
  fi
  echo "debian-source: enabled Debian's source packages; updating apt's lists"
  $sudo apt-get update -qq
}

apt-get source --print-uris -qq "$package" >/dev/null 2>&1 || enable_sources
mkdir -p "$dest"
(cd "$dest" && apt-get source --download-only -qq "$package")
tarball=$(ls "$dest/${package}"_*.orig.tar.* | head -n 1)
rm -rf "$dest/$package.partial"
mkdir -p "$dest/$package.partial"
tar -xf "$tarball" -C "$dest/$package.partial"
# Most tarballs hold one top folder (simdjson-3.0.1/), which becomes DEST/PACKAGE; some hold the
# files themselves (libsquish's), which then go into DEST/PACKAGE as they are.
entries=$(ls -A "$dest/$package.partial")
if [ "$(printf '%s\n' "$entries" | wc -l)" -eq 1 ] && [ -d "$dest/$package.partial/$entries" ]; then
  mv "$dest/$package.partial/$entries" "$dest/$package"
  rmdir "$dest/$package.partial"
else
  mv "$dest/$package.partial" "$dest/$package"
fi

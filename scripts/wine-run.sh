#!/bin/sh
# Runs a Windows program under Wine: wine-run.sh PREFIX PROGRAM [ARGUMENT...]
# PREFIX is a Wine prefix of the build's own (created on first use, one process at a time), so no
# state is shared with the user's ~/.wine or with another build tree. Wine's own diagnostics are
# switched off, so what reaches stderr is the program's.
set -e
prefix=$1
shift
# Arguments reach Windows programs as UTF-8 only under a UTF-8 locale.
export WINEPREFIX="$prefix" WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
  LC_ALL=C.UTF-8
if [ ! -f "$prefix/.castkit-ready" ]; then
  mkdir -p "$prefix"
  (
    flock 9
    if [ ! -f "$prefix/.castkit-ready" ]; then
      wine wineboot --init >/dev/null 2>&1
      wineserver --wait
      touch "$prefix/.castkit-ready"
    fi
  ) 9>"$prefix.lock"
fi
exec wine "$@"

#!/bin/sh
# Runs a Windows program under Wine: wine-run.sh PREFIX PROGRAM [ARGUMENT...]
# PREFIX is a Wine prefix of the build's own (created on first use, one process at a time), so no
# state is shared with the user's ~/.wine or with another build tree. Wine's own diagnostics are
# switched off, so what reaches stderr is the program's.
set -e
prefix=$1
shift
# Debian's wine64 package alone has no wine on PATH: its loader and server are in /usr/lib/wine.
wine=$(command -v wine || command -v wine64 || echo /usr/lib/wine/wine64)
wineserver=$(command -v wineserver || echo /usr/lib/wine/wineserver)
# Arguments reach Windows programs as UTF-8 only under a UTF-8 locale.
export WINEPREFIX="$prefix" WINEARCH=win64 WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" \
  LC_ALL=C.UTF-8
mkdir -p "$prefix"
(
  flock 9
  if [ ! -f "$prefix/.castkit-ready" ]; then
    "$wine" wineboot --init </dev/null >/dev/null 2>&1 9>&-
    "$wineserver" --wait
    touch "$prefix/.castkit-ready"
  fi
  # The first Wine program of a session starts the Wine server and Windows' system processes
  # (services.exe, rpcss.exe, …), which keep its standard error open until the session ends, 3 s
  # after the last Wine program: CTest, reading a test's output to its end, would wait for every
  # later test as well. So when no session is running, one is started here without this
  # script's standard streams (nor the lock): the server (it exits with 2 when one runs), then a
  # program that does nothing.
  if "$wineserver" -p3 </dev/null >/dev/null 2>&1 9>&-; then
    "$wine" cmd /c exit </dev/null >/dev/null 2>&1 9>&-
  fi
) 9>"$prefix.lock"
exec "$wine" "$@"

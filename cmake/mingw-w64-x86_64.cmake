# Cross-compiling castkit for 64-bit Windows with Debian's mingw-w64 (g++-mingw-w64-x86-64-posix):
#   cmake -S . -B build-windows --toolchain cmake/mingw-w64-x86_64.cmake
# The runtime is linked statically, so castkit.exe needs no DLL beside it. No Linux header or
# library can leak in: the search for packages, libraries and headers is confined to the mingw-w64
# sysroot, and castkit's dependencies come from Debian's packages as cmake/cross-deps.cmake says
# (simdjson's sources first: scripts/debian-source.sh simdjson build-windows/debian-sources).
# With wine64 installed, tests run under Wine.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
set(CMAKE_AR x86_64-w64-mingw32-gcc-ar-posix CACHE FILEPATH "")
set(CMAKE_RANLIB x86_64-w64-mingw32-gcc-ranlib-posix CACHE FILEPATH "")

set(CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)

# libgcc, libstdc++ and winpthread inside the executable.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")

# Texture conversion (stb, squish) and glTF mesh decompression (meshoptimizer) as on Linux,
# compiled for Windows from Debian's packages (their sources first, as simdjson's:
# scripts/debian-source.sh libsquish and meshoptimizer).
set(CASTKIT_CROSS_OPTIONAL stb squish meshoptimizer)
include("${CMAKE_CURRENT_LIST_DIR}/cross-deps.cmake")

# Tests and the package checks run the Windows programs under Wine, in a Wine prefix of their own
# inside the build tree, without Wine's diagnostics on stderr. Debian's wine64 package alone puts
# its loader in /usr/lib/wine (the wrapper /usr/bin/wine comes with the package wine).
find_program(CASTKIT_WINE NAMES wine wine64 PATHS /usr/lib/wine)
if(CASTKIT_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/../scripts/wine-run.sh"
                                     "${CMAKE_BINARY_DIR}/wine-prefix")
endif()

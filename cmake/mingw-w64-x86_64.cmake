# Cross-compiling castkit for 64-bit Windows with Debian's mingw-w64 (g++-mingw-w64-x86-64-posix):
#   cmake -S . -B build-windows --toolchain cmake/mingw-w64-x86_64.cmake
# The runtime is linked statically, so castkit.exe needs no DLL beside it. No Linux header or
# library can leak in: the search for packages, libraries and headers is confined to the mingw-w64
# sysroot, and the header-only libraries castkit uses come from Debian's packages through a folder
# in the build tree that links to just those headers (cmake/mingw/*: fmt is used header-only,
# GoogleTest is built from Debian's sources). With wine64 installed, tests run under Wine.
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

# The header-only dependencies: Debian's headers, reached through links in one folder of the
# build tree that holds nothing else, and a small package file for each (cmake/mingw/).
set(CASTKIT_MINGW_HEADERS "${CMAKE_BINARY_DIR}/mingw-headers")
get_property(castkit_in_try_compile GLOBAL PROPERTY IN_TRY_COMPILE)
if(NOT castkit_in_try_compile)
  foreach(entry fmt glm nlohmann CLI tiny_gltf.h)
    if(NOT EXISTS "${CASTKIT_MINGW_HEADERS}/${entry}")
      file(MAKE_DIRECTORY "${CASTKIT_MINGW_HEADERS}")
      file(CREATE_LINK "/usr/include/${entry}" "${CASTKIT_MINGW_HEADERS}/${entry}" SYMBOLIC)
    endif()
  endforeach()
endif()
set(TINYGLTF_INCLUDE_DIR "${CASTKIT_MINGW_HEADERS}" CACHE PATH "tinygltf's header for mingw-w64")
foreach(package fmt glm nlohmann_json CLI11 GTest)
  set(${package}_DIR "${CMAKE_CURRENT_LIST_DIR}/mingw" CACHE PATH "castkit's ${package} for mingw-w64")
endforeach()

# Tests and the package checks run the Windows programs under Wine, in a Wine prefix of their own
# inside the build tree, without Wine's diagnostics on stderr.
find_program(CASTKIT_WINE NAMES wine64 wine)
if(CASTKIT_WINE)
  set(CMAKE_CROSSCOMPILING_EMULATOR "${CMAKE_CURRENT_LIST_DIR}/../scripts/wine-run.sh"
                                     "${CMAKE_BINARY_DIR}/wine-prefix")
endif()

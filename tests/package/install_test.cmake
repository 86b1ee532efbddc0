# The install test, run by CTest as `cmake -P`: `make install` as a user runs it, staged with
# DESTDIR under a fresh folder (the build's CMAKE_INSTALL_PREFIX, /usr/local by default, below
# it), then the installed CLI runs from there: `castkit --version` and `castkit info` of the
# example character. The installed program must carry no path of the build tree (its RPATH is
# $ORIGIN/../lib/castkit, for the release archive's bundled libraries) and must find every shared
# library it needs without one. Then `make install PREFIX=DIR` into a folder the user can write,
# with a `sudo` on PATH that fails: it installs there without calling sudo (as root, as here in
# CI, or as any user), and the CLI installed there runs.
# Inputs: BUILD_DIR, SOURCE_DIR, WORK_DIR, VERSION.
file(REMOVE_RECURSE "${WORK_DIR}")
set(stage "${WORK_DIR}/stage")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (${code}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# `make install DESTDIR=...`, the Makefile's own rule, with the build folder as BUILD.
find_program(MAKE_PROGRAM NAMES make gmake REQUIRED)
run("make install" "${CMAKE_COMMAND}" -E env "DESTDIR=${stage}"
    "${MAKE_PROGRAM}" --no-print-directory -C "${SOURCE_DIR}" install "BUILD=${BUILD_DIR}")
file(STRINGS "${BUILD_DIR}/CMakeCache.txt" prefix REGEX "^CMAKE_INSTALL_PREFIX:")
string(REGEX REPLACE "^[^=]*=" "" prefix "${prefix}")
set(root "${stage}${prefix}")
set(cli "${root}/bin/castkit")
foreach(expected bin/castkit include/castkit/cast/document.hpp include/castkit/registry.hpp
                include/castkit/formats/format.hpp include/castkit/version.hpp
                lib/cmake/castkit/castkitConfig.cmake)
  if(NOT EXISTS "${root}/${expected}")
    message(FATAL_ERROR "make install put no ${expected} in ${root}")
  endif()
endforeach()
file(GLOB library "${root}/lib*/libcastkit.a")
if(NOT library)
  message(FATAL_ERROR "make install put no libcastkit.a in ${root}")
endif()

# No path of the build tree in what the loader reads.
file(READ_ELF "${cli}" RPATH rpath RUNPATH runpath)
foreach(tree "${BUILD_DIR}" "${SOURCE_DIR}")
  string(FIND "${rpath};${runpath}" "${tree}" at)
  if(at GREATER -1)
    message(FATAL_ERROR "the installed castkit's RPATH names ${tree}: '${rpath}' '${runpath}'")
  endif()
endforeach()
# Nor any entry the loader reads against the current folder: an empty one (as CMake's padding of
# a build RPATH, '::::', has) or a relative one; only absolute paths and $ORIGIN.
foreach(search_path IN ITEMS "${rpath}" "${runpath}")
  if(search_path STREQUAL "")
    continue()
  endif()
  string(REPLACE ":" ";" entries "${search_path}")
  foreach(entry IN LISTS entries)
    if(NOT entry MATCHES "^(/|\\$ORIGIN(/|$))")
      message(FATAL_ERROR "the installed castkit's RPATH '${search_path}' has the entry "
                          "'${entry}', read against the current folder")
    endif()
  endforeach()
endforeach()
find_program(LDD ldd)
if(LDD)
  run("ldd of the installed castkit" "${LDD}" "${cli}")
  if(last_output MATCHES "not found")
    message(FATAL_ERROR "the installed castkit misses shared libraries:\n${last_output}")
  endif()
endif()

# Run from a folder of its own, with nothing of the build on the library path.
set(ENV{LD_LIBRARY_PATH} "")
run("castkit --version" "${CMAKE_COMMAND}" -E chdir "${WORK_DIR}" "${cli}" --version)
if(NOT last_output MATCHES "^castkit ${VERSION} ")
  message(FATAL_ERROR "the installed castkit --version printed '${last_output}'")
endif()
run("castkit info" "${CMAKE_COMMAND}" -E chdir "${WORK_DIR}" "${cli}" info
    "${SOURCE_DIR}/examples/data/hero/hero.glb")
if(NOT last_output MATCHES "hero\\.glb" OR NOT last_output MATCHES "animation")
  message(FATAL_ERROR "the installed castkit info printed '${last_output}'")
endif()
# `make install PREFIX=...`: no sudo called (a stand-in that fails and leaves a mark), the
# prefix honoured.
set(fake_bin "${WORK_DIR}/fake-bin")
file(WRITE "${fake_bin}/sudo" "#!/bin/sh\ntouch \"${WORK_DIR}/sudo-was-called\"\nexit 1\n")
file(CHMOD "${fake_bin}/sudo" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
set(prefix_dir "${WORK_DIR}/prefix")
run("make install PREFIX=" "${CMAKE_COMMAND}" -E env "PATH=${fake_bin}:$ENV{PATH}"
    "${MAKE_PROGRAM}" --no-print-directory -C "${SOURCE_DIR}" install "BUILD=${BUILD_DIR}"
    "PREFIX=${prefix_dir}")
if(EXISTS "${WORK_DIR}/sudo-was-called")
  message(FATAL_ERROR "make install PREFIX=${prefix_dir} called sudo")
endif()
if(NOT EXISTS "${prefix_dir}/bin/castkit" OR NOT EXISTS "${prefix_dir}/include/castkit/registry.hpp")
  message(FATAL_ERROR "make install PREFIX=${prefix_dir} put no bin/castkit or headers there")
endif()
run("the castkit of PREFIX" "${CMAKE_COMMAND}" -E chdir "${WORK_DIR}" "${prefix_dir}/bin/castkit"
    --version)
if(NOT last_output MATCHES "^castkit ${VERSION} ")
  message(FATAL_ERROR "castkit --version installed in ${prefix_dir} printed '${last_output}'")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")

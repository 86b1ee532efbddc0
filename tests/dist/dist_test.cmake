# The release archives as a user gets them, run by `make test-dist` as `cmake -P`:
#   cmake -DDIST_DIR=... -DWORK_DIR=... -DSOURCE_DIR=... -DWINE_PREFIX=... -DLINUX_BUILD=...
#         -DWINDOWS_BUILD=... -P dist_test.cmake
# Unpacks each archive into an empty folder and runs the CLI from there (the Windows one under
# Wine): --version, info, convert, validate. Each must hold the static viewer page
# (viewer/index.html, naming its scripts viewer.js and castkit.js, which are there too), the same
# bytes as the checkout's viewer/dist. The two CLIs must write the same bytes for the same
# conversion (character.cast to .semodel, .glb and .cast; wave.cast, which holds the animation,
# to .seanim). A consumer project then builds
# with find_package(castkit) against the unpacked Linux archive and nothing else of castkit, and
# packing again from the same build trees must give the same archives, byte for byte.
cmake_minimum_required(VERSION 3.21)
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (${code}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

# Every shared library the Linux CLI loads, other than glibc's own, must come from the archive's
# lib/castkit, with the system's library path left as it is.
function(expect_libraries_from_the_archive cli bundle)
  run("ldd of the Linux CLI" ldd "${cli}")
  string(REPLACE "\n" ";" lines "${last_output}")
  set(bundled 0)
  foreach(line IN LISTS lines)
    if(NOT line MATCHES "^[ \t]*([^ \t]+) => ([^ ]+)")
      continue()
    endif()
    set(library "${CMAKE_MATCH_1}")
    set(path "${CMAKE_MATCH_2}")
    if(library MATCHES "^(libc|libm|libpthread|libdl|librt)\\.so|^ld-linux")
      continue()
    endif()
    file(REAL_PATH "${path}" path)
    file(REAL_PATH "${bundle}/${library}" expected)
    if(NOT path STREQUAL expected)
      message(FATAL_ERROR "the Linux CLI loads ${library} from ${path}, not from ${bundle}")
    endif()
    math(EXPR bundled "${bundled} + 1")
  endforeach()
  if(bundled LESS 3)
    message(FATAL_ERROR "the Linux CLI loads only ${bundled} libraries from its archive:\n${last_output}")
  endif()
endfunction()

file(GLOB linux_archive "${DIST_DIR}/castkit-*-linux-x86_64.tar.gz")
file(GLOB windows_archive "${DIST_DIR}/castkit-*-windows-x86_64.zip")
if(NOT linux_archive OR NOT windows_archive)
  message(FATAL_ERROR "missing archives in ${DIST_DIR}: '${linux_archive}' '${windows_archive}'")
endif()
string(REGEX REPLACE ".*/castkit-([0-9.]+)-linux-x86_64\\.tar\\.gz$" "\\1" version "${linux_archive}")

set(input "${SOURCE_DIR}/examples/data/character.cast")
foreach(system linux windows)
  set(unpacked "${WORK_DIR}/${system}")
  file(MAKE_DIRECTORY "${unpacked}")
  run("unpack the ${system} archive" "${CMAKE_COMMAND}" -E chdir "${unpacked}"
      "${CMAKE_COMMAND}" -E tar xf "${${system}_archive}")
  set(root "${unpacked}/castkit-${version}-${system}-x86_64")
  foreach(expected README.md LICENSE include/castkit/cast/document.hpp
                   lib/cmake/castkit/castkitConfig.cmake
                   viewer/index.html viewer/viewer.js viewer/castkit.js)
    if(NOT EXISTS "${root}/${expected}")
      message(FATAL_ERROR "the ${system} archive has no ${expected}")
    endif()
  endforeach()
  file(READ "${root}/viewer/index.html" page)
  foreach(script viewer.js castkit.js)
    if(NOT page MATCHES "src=\"${script}\"")
      message(FATAL_ERROR "the ${system} archive's viewer/index.html loads no ${script}")
    endif()
    file(SHA256 "${root}/viewer/${script}" packed)
    file(SHA256 "${SOURCE_DIR}/viewer/dist/${script}" built)
    if(NOT packed STREQUAL built)
      message(FATAL_ERROR "the ${system} archive's viewer/${script} is not viewer/dist's")
    endif()
  endforeach()
  if(system STREQUAL "linux")
    set(cli "${root}/bin/castkit")
    expect_libraries_from_the_archive("${cli}" "${root}/lib/castkit")
  else()
    set(cli "${SOURCE_DIR}/scripts/wine-run.sh" "${WINE_PREFIX}" "${root}/bin/castkit.exe")
  endif()

  run("${system}: castkit --version" ${cli} --version)
  if(NOT last_output MATCHES "^castkit ${version} \\(commit [0-9a-f]+(-modified)?, [^,]+, ")
    message(FATAL_ERROR "${system}: castkit --version printed '${last_output}'")
  endif()
  run("${system}: castkit info" ${cli} info "${input}")
  if(NOT last_output MATCHES "character\\.cast")
    message(FATAL_ERROR "${system}: castkit info printed '${last_output}'")
  endif()
  run("${system}: castkit validate" ${cli} validate "${input}")
  file(MAKE_DIRECTORY "${WORK_DIR}/${system}-out")
  foreach(extension cast semodel glb)
    run("${system}: castkit convert to .${extension}" ${cli} convert "${input}"
        "${WORK_DIR}/${system}-out/character.${extension}")
  endforeach()
  run("${system}: castkit convert to .seanim" ${cli} convert
      "${SOURCE_DIR}/examples/data/wave.cast" "${WORK_DIR}/${system}-out/character.seanim")
endforeach()

file(READ "${input}" original HEX)
file(READ "${WORK_DIR}/linux-out/character.cast" rewritten HEX)
if(NOT rewritten STREQUAL original)
  message(FATAL_ERROR "castkit convert did not rewrite character.cast byte for byte")
endif()
foreach(extension cast seanim semodel glb)
  file(SHA256 "${WORK_DIR}/linux-out/character.${extension}" linux_hash)
  file(SHA256 "${WORK_DIR}/windows-out/character.${extension}" windows_hash)
  if(NOT linux_hash STREQUAL windows_hash)
    message(FATAL_ERROR "character.${extension} differs between Linux and Windows")
  endif()
endforeach()

# A user's project against the unpacked Linux archive only.
set(linux_root "${WORK_DIR}/linux/castkit-${version}-linux-x86_64")
run("configure the consumer" "${CMAKE_COMMAND}" -S "${SOURCE_DIR}/tests/package/consumer"
    -B "${WORK_DIR}/consumer" -G Ninja "-DCMAKE_PREFIX_PATH=${linux_root}"
    -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS "${WORK_DIR}/consumer/CMakeCache.txt" found REGEX "^castkit_DIR:")
if(NOT found MATCHES "${linux_root}/")
  message(FATAL_ERROR "castkit was not found in the unpacked archive: ${found}")
endif()
run("build the consumer" "${CMAKE_COMMAND}" --build "${WORK_DIR}/consumer")
run("run the consumer" "${WORK_DIR}/consumer/castkit_consumer"
    "${SOURCE_DIR}/tests/fixtures/cast/edge/triangle.cast" "${WORK_DIR}/consumer/out.glb")
string(STRIP "${last_output}" printed)
if(NOT printed STREQUAL "models=1 meshes=1 vertices=3 bytes=182 gltf_meshes=1")
  message(FATAL_ERROR "the consumer printed '${printed}'")
endif()
# Packing again from the same build trees gives the same bytes.
run("pack again" bash "${SOURCE_DIR}/scripts/dist.sh" "${LINUX_BUILD}" "${WINDOWS_BUILD}"
    "${WORK_DIR}/again")
foreach(archive "${linux_archive}" "${windows_archive}")
  get_filename_component(name "${archive}" NAME)
  file(SHA256 "${archive}" first)
  file(SHA256 "${WORK_DIR}/again/${name}" second)
  if(NOT first STREQUAL second)
    message(FATAL_ERROR "${name} differs when packed again from the same build")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "castkit ${version}: both archives unpack and run; Linux and Windows write the same bytes")

# The five release artefacts as a user gets them, run by `make test-dist` as `cmake -P`:
#   cmake -DDIST_DIR=... -DWORK_DIR=... -DSOURCE_DIR=... -DWINE_PREFIX=... -DLINUX_BUILD=...
#         -DWINDOWS_BUILD=... -P dist_test.cmake
# DIST_DIR must hold the two archives, the two Blender add-on zips and the wheel, each with a
# NAME.sha256 that sha256sum -c accepts, and SHA256SUMS listing exactly those five; the release
# workflow (.github/workflows/release.yml) must run this same target and attach every one of
# them. Each archive and add-on zip is unpacked into an empty folder and its CLI run from there
# (the Windows ones under Wine): --version, info, convert, validate. Each archive must hold the
# static viewer page (viewer/index.html, naming its scripts viewer.js and castkit.js, which are
# there too), the same bytes as the checkout's viewer/dist. The archives' CLIs must write the
# same bytes for the same conversion (character.cast to .semodel, .glb and .cast; wave.cast,
# which holds the animation, to .seanim), and all four CLIs and the wheel's module the same
# examples/data/hero/hero.cast as .glb. The wheel is installed offline into a fresh virtual
# environment, imported from there and its `castkit` command run. A consumer project then builds
# with find_package(castkit) against the unpacked Linux archive and nothing else of castkit, and
# packing again from the same build trees must give the same five artefacts, byte for byte.
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

# Every shared library a Linux CLI loads, other than glibc's own, must come from the lib/castkit
# packed beside it, with the system's library path left as it is.
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
      message(FATAL_ERROR "${cli} loads ${library} from ${path}, not from ${bundle}")
    endif()
    math(EXPR bundled "${bundled} + 1")
  endforeach()
  if(bundled LESS 3)
    message(FATAL_ERROR "${cli} loads only ${bundled} libraries from ${bundle}:\n${last_output}")
  endif()
endfunction()

# The artefacts, as glob patterns in DIST_DIR; the release workflow names the same patterns.
set(artefact_patterns
    "castkit-*-linux-x86_64.tar.gz" "castkit-*-windows-x86_64.zip"
    "castkit_blender-*-linux-x64.zip" "castkit_blender-*-windows-x64.zip"
    "castkit_toolkit-*-linux_x86_64.whl")
set(artefact_variables linux_archive windows_archive linux_addon windows_addon wheel)
set(artefact_names "")
foreach(pattern variable IN ZIP_LISTS artefact_patterns artefact_variables)
  file(GLOB found "${DIST_DIR}/${pattern}")
  list(LENGTH found count)
  if(NOT count EQUAL 1)
    message(FATAL_ERROR "${DIST_DIR} holds ${count} files named ${pattern}, not one: '${found}'")
  endif()
  set(${variable} "${found}")
  get_filename_component(name "${found}" NAME)
  list(APPEND artefact_names "${name}")
endforeach()
string(REGEX REPLACE ".*/castkit-([0-9.]+)-linux-x86_64\\.tar\\.gz$" "\\1" version "${linux_archive}")
foreach(name IN LISTS artefact_names)
  if(NOT name MATCHES "[-_]${version}-")
    message(FATAL_ERROR "${name} is not named for version ${version}")
  endif()
endforeach()

# NAME.sha256 beside each artefact and SHA256SUMS with all five, in sha256sum's format (each
# line the hash, two spaces and the file name), so that `sha256sum -c` checks them.
set(all_sums "")
foreach(name IN LISTS artefact_names)
  file(SHA256 "${DIST_DIR}/${name}" hash)
  set(line "${hash}  ${name}\n")
  if(NOT EXISTS "${DIST_DIR}/${name}.sha256")
    message(FATAL_ERROR "no ${name}.sha256 in ${DIST_DIR}")
  endif()
  file(READ "${DIST_DIR}/${name}.sha256" written)
  if(NOT written STREQUAL line)
    message(FATAL_ERROR "${name}.sha256 says '${written}', not '${line}'")
  endif()
  string(APPEND all_sums "${line}")
endforeach()
file(READ "${DIST_DIR}/SHA256SUMS" written)
if(NOT written STREQUAL all_sums)
  message(FATAL_ERROR "SHA256SUMS says\n${written}\nnot\n${all_sums}")
endif()
run("sha256sum -c SHA256SUMS" "${CMAKE_COMMAND}" -E chdir "${DIST_DIR}" sha256sum -c SHA256SUMS)

# The release workflow builds with this very target and attaches every artefact and checksum.
file(READ "${SOURCE_DIR}/.github/workflows/release.yml" workflow)
foreach(expected "tags: [\"v*\"]" "bash scripts/setup.sh" "run: make test-dist"
                 "softprops/action-gh-release@" "fail_on_unmatched_files: true")
  string(FIND "${workflow}" "${expected}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR ".github/workflows/release.yml does not say '${expected}'")
  endif()
endforeach()
foreach(pattern ${artefact_patterns} "*.sha256" "SHA256SUMS")
  string(FIND "${workflow}" "build-dist/${pattern}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR ".github/workflows/release.yml does not attach build-dist/${pattern}")
  endif()
endforeach()

# The example character as every CLI and the wheel's module convert it, compared at the end:
# from the archive's own examples/data/hero, else the checkout's.
set(hero "${SOURCE_DIR}/examples/data/hero")
set(hero_outputs "")
function(convert_the_hero label hero)  # convert_the_hero LABEL HERO_DIR CLI...
  run("${label}: castkit info of the hero" ${ARGN} info "${hero}/hero.semodel"
      "${hero}/hero_walk.seanim")
  if(NOT last_output MATCHES "hero\\.semodel" OR NOT last_output MATCHES "hero_walk\\.seanim")
    message(FATAL_ERROR "${label}: castkit info of the hero printed '${last_output}'")
  endif()
  set(out "${WORK_DIR}/hero-${label}")
  file(MAKE_DIRECTORY "${out}")
  run("${label}: castkit convert the hero to .glb" ${ARGN} convert "${hero}/hero.cast"
      "${out}/hero.glb")
  set(hero_outputs ${hero_outputs} "${out}/hero.glb" PARENT_SCOPE)
endfunction()

# What every packed CLI must do: say this version and commit, and read and convert the hero.
function(check_cli label hero)  # check_cli LABEL HERO_DIR CLI...
  run("${label}: castkit --version" ${ARGN} --version)
  if(NOT last_output MATCHES "^castkit ${version} \\(commit [0-9a-f]+(-modified)?, [^,]+, ")
    message(FATAL_ERROR "${label}: castkit --version printed '${last_output}'")
  endif()
  convert_the_hero("${label}" "${hero}" ${ARGN})
  set(hero_outputs ${hero_outputs} PARENT_SCOPE)
endfunction()

function(unpack archive folder)
  file(MAKE_DIRECTORY "${folder}")
  run("unpack ${archive}" "${CMAKE_COMMAND}" -E chdir "${folder}"
      "${CMAKE_COMMAND}" -E tar xf "${archive}")
endfunction()

set(input "${SOURCE_DIR}/examples/data/character.cast")
foreach(system linux windows)
  set(unpacked "${WORK_DIR}/${system}")
  unpack("${${system}_archive}" "${unpacked}")
  set(root "${unpacked}/castkit-${version}-${system}-x86_64")
  foreach(expected README.md LICENSE include/castkit/cast/document.hpp
                   lib/cmake/castkit/castkitConfig.cmake examples/data/hero/hero.semodel
                   examples/data/hero/hero_walk.seanim examples/data/hero/hero_albedo.png
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

  check_cli("${system}-archive" "${root}/examples/data/hero" ${cli})
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

# Each Blender add-on zip: one folder, castkit_blender/, with the add-on's Python files, the
# manifest naming the zip's one platform, and the CLI in bin/ (the Linux one with the libraries
# it loads in lib/castkit; castkit.exe is static and needs none).
foreach(system linux windows)
  set(root "${WORK_DIR}/${system}-addon/castkit_blender")
  unpack("${${system}_addon}" "${WORK_DIR}/${system}-addon")
  foreach(expected __init__.py blender_manifest.toml)
    if(NOT EXISTS "${root}/${expected}")
      message(FATAL_ERROR "the ${system} add-on has no castkit_blender/${expected}")
    endif()
  endforeach()
  file(READ "${root}/blender_manifest.toml" manifest)
  if(NOT manifest MATCHES "\nplatforms = \\[\"${system}-x64\"\\]\n")
    message(FATAL_ERROR "the ${system} add-on's manifest names other platforms:\n${manifest}")
  endif()
  if(system STREQUAL "linux")
    set(cli "${root}/bin/castkit")
    expect_libraries_from_the_archive("${cli}" "${root}/lib/castkit")
  else()
    if(EXISTS "${root}/lib" OR EXISTS "${root}/bin/castkit")
      message(FATAL_ERROR "the Windows add-on holds more than bin/castkit.exe")
    endif()
    set(cli "${SOURCE_DIR}/scripts/wine-run.sh" "${WINE_PREFIX}" "${root}/bin/castkit.exe")
  endif()
  check_cli("${system}-addon" "${hero}" ${cli})
endforeach()

# The wheel, installed offline into a fresh virtual environment that sees the system's numpy
# (the interpreter the Linux tree's module was built for), imported from there, and its
# `castkit` command.
file(STRINGS "${LINUX_BUILD}/CMakeCache.txt" python REGEX "^_?Python_EXECUTABLE:")
list(GET python 0 python)
string(REGEX REPLACE "^[^=]*=" "" python "${python}")
set(venv "${WORK_DIR}/venv")
set(without_pythonpath "${CMAKE_COMMAND}" -E env --unset=PYTHONPATH)
run("make a virtual environment" "${python}" -m venv --system-site-packages "${venv}")
run("install the wheel" ${without_pythonpath} "${venv}/bin/python" -m pip install --quiet
    --no-index --no-deps "${wheel}")
file(MAKE_DIRECTORY "${WORK_DIR}/hero-wheel-module")
run("convert the hero with the wheel's module" ${without_pythonpath} "${venv}/bin/python" -c
    "import castkit, sys\nprint(castkit.__file__)\ncastkit.convert(sys.argv[1], sys.argv[2])"
    "${hero}/hero.cast" "${WORK_DIR}/hero-wheel-module/hero.glb")
string(FIND "${last_output}" "${venv}/lib/" at)
if(NOT at EQUAL 0)
  message(FATAL_ERROR "castkit was imported from '${last_output}', not from ${venv}")
endif()
list(APPEND hero_outputs "${WORK_DIR}/hero-wheel-module/hero.glb")
convert_the_hero("wheel-command" "${hero}" ${without_pythonpath} "${venv}/bin/castkit")

# Four CLIs and the module: one glb.
list(GET hero_outputs 0 first_output)
file(SHA256 "${first_output}" expected)
foreach(output IN LISTS hero_outputs)
  file(SHA256 "${output}" hash)
  if(NOT hash STREQUAL expected)
    message(FATAL_ERROR "${output} differs from ${first_output}")
  endif()
endforeach()

# Packing again from the same build trees gives the same bytes.
run("pack again" bash "${SOURCE_DIR}/scripts/dist.sh" "${LINUX_BUILD}" "${WINDOWS_BUILD}"
    "${WORK_DIR}/again")
foreach(name IN LISTS artefact_names ITEMS SHA256SUMS)
  file(SHA256 "${DIST_DIR}/${name}" first)
  file(SHA256 "${WORK_DIR}/again/${name}" second)
  if(NOT first STREQUAL second)
    message(FATAL_ERROR "${name} differs when packed again from the same build")
  endif()
endforeach()

file(REMOVE_RECURSE "${WORK_DIR}")
message(STATUS "castkit ${version}: the five artefacts match their checksums; both archives, "
               "both add-ons and the wheel unpack and run; every CLI writes the same bytes")

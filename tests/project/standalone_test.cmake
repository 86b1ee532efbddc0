# Checks that the checkout stands on its own, run by CTest as `cmake -DSOURCE_DIR=... -P`:
# the CLI, the Python module and the fuzzers include no private header of src/, and nothing
# includes the I/O layer (src/io) by a relative path; every ruling
# the code or docs cite ("rule 12", "rulings 26–30", "rules 20, 21") is a numbered item of
# docs/decisions.md, nothing names a file outside the repository (the specs' notes, the
# shared specs folder, absolute paths of the machine it was written on; the Khronos samples'
# folder, which one test reads when it is there, aside), LICENSE is there, and the
# build wrote nothing into the source tree (the glTF validator's node_modules go to the build tree).
cmake_minimum_required(VERSION 3.20)
if(NOT SOURCE_DIR)
  message(FATAL_ERROR "pass -DSOURCE_DIR=<castkit checkout>")
endif()

file(READ "${SOURCE_DIR}/docs/decisions.md" decisions)
if(NOT EXISTS "${SOURCE_DIR}/LICENSE")
  message(FATAL_ERROR "LICENSE is missing")
endif()
file(READ "${SOURCE_DIR}/LICENSE" license)
if(NOT license MATCHES "^MIT License" OR NOT license MATCHES "the castkit authors")
  message(FATAL_ERROR "LICENSE is not the MIT licence of the castkit authors")
endif()

foreach(written node_modules tools/gltf-validator/node_modules)
  if(EXISTS "${SOURCE_DIR}/${written}")
    message(FATAL_ERROR "a build wrote ${written} into the source tree")
  endif()
endforeach()

file(GLOB_RECURSE files RELATIVE "${SOURCE_DIR}"
     "${SOURCE_DIR}/include/*" "${SOURCE_DIR}/src/*" "${SOURCE_DIR}/tools/castkit/*"
     "${SOURCE_DIR}/tests/*.cpp" "${SOURCE_DIR}/tests/*.hpp" "${SOURCE_DIR}/tests/*.txt"
     "${SOURCE_DIR}/tests/*.py" "${SOURCE_DIR}/tests/*.md" "${SOURCE_DIR}/bench/*"
     "${SOURCE_DIR}/examples/*.cpp" "${SOURCE_DIR}/fuzz/*" "${SOURCE_DIR}/docs/*"
     "${SOURCE_DIR}/cmake/*" "${SOURCE_DIR}/scripts/*" "${SOURCE_DIR}/python/*.py"
     "${SOURCE_DIR}/python/*.cpp" "${SOURCE_DIR}/viewer/*.cpp" "${SOURCE_DIR}/viewer/*.js"
     "${SOURCE_DIR}/viewer/*.html")
list(APPEND files README.md CMakeLists.txt Makefile)
list(FILTER files EXCLUDE REGEX "(^|/)(node_modules|__pycache__)/|\\.(cast|glb|bin|png|seanim|semodel|k3d|dmf)$")

# Split so that this file does not match itself.
set(outside "shared/spe" "cs|\\.\\./sha" "red/|/wo" "rk/|notes/[a-z-]+\\.m" "d|[a-z0-9]+-sp" "ec(-2024)?\\.txt")
string(CONCAT outside ${outside})
set(problems "")
foreach(file IN LISTS files)
  # One list item per line: characters that CMake lists treat specially become harmless ones.
  file(READ "${SOURCE_DIR}/${file}" content)
  string(REGEX REPLACE "[][;\\]" "_" content "${content}")
  string(REPLACE "\n" ";" lines "${content}")
  set(line_number 0)
  foreach(line IN LISTS lines)
    math(EXPR line_number "${line_number} + 1")
    # The programs stand on the public API: nothing under tools/, python/ or fuzz/ includes a
    # header of the library's src/ (publish what they need in include/castkit instead).
    if(file MATCHES "^(tools|python|fuzz)/" AND line MATCHES "^#include \"[./]*src/")
      string(APPEND problems "${file}:${line_number}: includes a private header of src/\n")
    endif()
    # The I/O layer is included as "io/..." (src/ is the library's and the tests' include
    # folder), never by a path relative to another folder.
    if(NOT file MATCHES "^src/io/" AND line MATCHES "^#include \"(\\.\\./)+(src/)?io/")
      string(APPEND problems "${file}:${line_number}: includes the I/O layer by a relative path\n")
    endif()
    # The one folder outside that a test may read, and only when it is there:
    # GltfSamples.KhronosSamples checks the Khronos samples (which cannot be committed) in
    # ../shared/gltf-samples beside the checkout, and reports itself skipped on a clone without.
    string(REPLACE "../shared/gltf-samples" "" line "${line}")
    if(line MATCHES "(${outside})")
      string(APPEND problems "${file}:${line_number}: names a file outside the repository (${CMAKE_MATCH_1})\n")
    endif()
    # Each citation: "rule"/"ruling" (any case, singular or plural), then numbers joined by
    # commas, "and", "-" or an en dash.
    string(REGEX MATCHALL "[Rr]ul(e|ing)s? [0-9]+[a-z]?((, | and |–|-)[0-9]+[a-z]?)*" citations "${line}")
    foreach(citation IN LISTS citations)
      string(REGEX MATCHALL "[0-9]+[a-z]?" numbers "${citation}")
      foreach(number IN LISTS numbers)
        if(NOT decisions MATCHES "\n${number}\\. \\*\\*")
          string(APPEND problems "${file}:${line_number}: cites rule ${number}, which docs/decisions.md does not have\n")
        endif()
      endforeach()
    endforeach()
  endforeach()
endforeach()
if(problems)
  message(FATAL_ERROR "The checkout does not stand on its own:\n${problems}")
endif()
list(LENGTH files count)
message(STATUS "${count} files checked")

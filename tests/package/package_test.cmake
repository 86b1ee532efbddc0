# The package test, run by CTest as `cmake -P`: installs the build tree into a fresh prefix,
# then configures, builds and runs tests/package/consumer against that prefix only. The consumer
# compiles tinygltf's implementation itself, as castkit does: the installed library must define
# no symbol of tinygltf's own namespace (checked with NM), so the two link side by side.
# Inputs: BUILD_DIR, CONSUMER_DIR, WORK_DIR, FILE, EXPECT (the consumer's output), GENERATOR,
# CXX_COMPILER, CXX_FLAGS, NM.
file(REMOVE_RECURSE "${WORK_DIR}")
set(prefix "${WORK_DIR}/prefix")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (${code}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")
file(GLOB library "${prefix}/lib*/libcastkit.a" "${prefix}/lib*/castkit.lib")
if(NOT library)
  message(FATAL_ERROR "no castkit library in ${prefix}")
endif()
# The symbol list of a Debug sanitizer build is tens of megabytes: it goes to a file, read line by
# line, because a regular expression over the whole output in memory takes minutes in CMake.
set(symbols "${WORK_DIR}/symbols.txt")
execute_process(COMMAND "${NM}" -C --defined-only --extern-only ${library}
                RESULT_VARIABLE code OUTPUT_FILE "${symbols}" ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "listing the library's symbols failed (${code}):\n${err}")
endif()
file(STRINGS "${symbols}" leaked REGEX "[^_A-Za-z0-9]tinygltf::")
if(leaked)
  list(LENGTH leaked count)
  list(GET leaked 0 first)
  message(FATAL_ERROR "the installed library defines ${count} tinygltf symbols, e.g. ${first}")
endif()

run("configure the consumer" "${CMAKE_COMMAND}" -S "${CONSUMER_DIR}" -B "${WORK_DIR}/build"
    -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${prefix}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}" -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)

# The package must come from the prefix, not from the build tree.
file(STRINGS "${WORK_DIR}/build/CMakeCache.txt" found REGEX "^castkit_DIR:")
string(FIND "${found}" "${prefix}/" at)
if(NOT at GREATER -1)
  message(FATAL_ERROR "castkit was not found in the install prefix: ${found}")
endif()

run("build the consumer" "${CMAKE_COMMAND}" --build "${WORK_DIR}/build")
run("run the consumer" "${WORK_DIR}/build/castkit_consumer" "${FILE}" "${WORK_DIR}/out.glb")
string(STRIP "${last_output}" printed)
if(NOT printed STREQUAL EXPECT)
  message(FATAL_ERROR "the consumer printed '${printed}', expected '${EXPECT}'")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")

# The package test, run by CTest as `cmake -P`: installs the build tree into a fresh prefix,
# then configures, builds and runs tests/package/consumer against that prefix only.
# Inputs: BUILD_DIR, CONSUMER_DIR, WORK_DIR, FILE, EXPECT (the consumer's output), GENERATOR,
# CXX_COMPILER, CXX_FLAGS.
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
run("run the consumer" "${WORK_DIR}/build/castkit_consumer" "${FILE}")
string(STRIP "${last_output}" printed)
if(NOT printed STREQUAL EXPECT)
  message(FATAL_ERROR "the consumer printed '${printed}', expected '${EXPECT}'")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")

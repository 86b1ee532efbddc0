# The subproject test, run by CTest as `cmake -P`: configures tests/package/subproject, which
# adds castkit with add_subdirectory, without choosing a build type; checks that castkit forced
# none and defines no target but the library; builds everything with the flags of the build
# that runs the test (LIBRARY_FLAGS, WERROR, UNITY: its compiler cache then holds every object);
# runs the host program.
# Inputs: SOURCE_DIR, HOST_DIR, WORK_DIR, FILE, EXPECT, GENERATOR, CXX_COMPILER, CXX_FLAGS,
# LIBRARY_FLAGS, WERROR, UNITY.
file(REMOVE_RECURSE "${WORK_DIR}")

function(run what)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${what} failed (${code}):\n${out}\n${err}")
  endif()
  set(last_output "${out}" PARENT_SCOPE)
endfunction()

run("configure the host project" "${CMAKE_COMMAND}" -S "${HOST_DIR}" -B "${WORK_DIR}"
    -G "${GENERATOR}" "-DCASTKIT_SOURCE_DIR=${SOURCE_DIR}" "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}"
    "-DCMAKE_CXX_FLAGS=${CXX_FLAGS} ${LIBRARY_FLAGS}" "-DCASTKIT_WERROR=${WERROR}"
    "-DCMAKE_UNITY_BUILD=${UNITY}")

file(STRINGS "${WORK_DIR}/CMakeCache.txt" build_type REGEX "^CMAKE_BUILD_TYPE:")
if(NOT build_type MATCHES "^CMAKE_BUILD_TYPE:[A-Z]+=$")
  message(FATAL_ERROR "castkit chose a build type for its host: ${build_type}")
endif()

# Every target the host's build knows, from the generator's own list.
run("list the targets" "${CMAKE_COMMAND}" --build "${WORK_DIR}" --target help)
foreach(target castkit_cli castkit_tests castkit_bench castkit_build_scene castkit_make_scene
               castkit_perf castkit_gltf_validator)
  if(last_output MATCHES "(^|[\n /])${target}[:\n ]")
    message(FATAL_ERROR "add_subdirectory(castkit) defines ${target}")
  endif()
endforeach()
if(NOT last_output MATCHES "(^|[\n /])castkit[:\n ]")
  message(FATAL_ERROR "add_subdirectory(castkit) defines no castkit library:\n${last_output}")
endif()

run("build the host project" "${CMAKE_COMMAND}" --build "${WORK_DIR}")
file(GLOB_RECURSE programs "${WORK_DIR}/castkit/*")
list(FILTER programs INCLUDE REGEX "/castkit(_[a-z_]+)?(\\.exe)?$")
if(programs)
  message(FATAL_ERROR "add_subdirectory(castkit) built programs: ${programs}")
endif()
run("run the host program" "${WORK_DIR}/castkit_host" "${FILE}" "${WORK_DIR}/out.glb")
string(STRIP "${last_output}" printed)
if(NOT printed STREQUAL EXPECT)
  message(FATAL_ERROR "the host printed '${printed}', expected '${EXPECT}'")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")

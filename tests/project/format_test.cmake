# Project.Formatted, run by CTest as `cmake -P`: every C++ file of the project is as
# .clang-format lays it out (`clang-format --dry-run -Werror`), so a change cannot bring
# unformatted code in. Inputs: SOURCE_DIR, CLANG_FORMAT.
set(files)
foreach(dir bench cmake examples fuzz include python src tests tools viewer)
  file(GLOB_RECURSE found "${SOURCE_DIR}/${dir}/*.cpp" "${SOURCE_DIR}/${dir}/*.hpp"
       "${SOURCE_DIR}/${dir}/*.h")
  list(APPEND files ${found})
endforeach()
list(FILTER files EXCLUDE REGEX "/tests/fixtures/|/node_modules/")
list(LENGTH files count)
if(count LESS 100)
  message(FATAL_ERROR "found only ${count} C++ files under ${SOURCE_DIR}")
endif()
execute_process(COMMAND "${CLANG_FORMAT}" --dry-run -Werror ${files}
                WORKING_DIRECTORY "${SOURCE_DIR}" RESULT_VARIABLE code ERROR_VARIABLE err)
if(NOT code EQUAL 0)
  message(FATAL_ERROR "not formatted as .clang-format says (run `git clang-format` or "
                      "`clang-format -i` on them):\n${err}")
endif()
message(STATUS "${count} files formatted")

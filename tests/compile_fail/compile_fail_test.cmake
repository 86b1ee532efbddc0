# A compile-fail test, run by CTest as `cmake -P` (the way fmt tests what must not compile).
# With CASE 0 it compiles SOURCE with no case, which must succeed (the fixture every case of the
# file requires, so a failing case is the misuse and not a typo). With CASE N it compiles with
# -DCASE=N, which must fail, the compiler naming the line right under `#elif CASE == N` (or
# `#if`): an error there, or "required from here" there for an error inside a template, so the
# failure is the misuse the case names. Inputs: COMPILER, SOURCE, CASE, INCLUDES (directories).
set(flags -std=c++20 -fsyntax-only)
foreach(dir IN LISTS INCLUDES)
  list(APPEND flags "-I${dir}")
endforeach()

if(CASE EQUAL 0)
  execute_process(COMMAND "${COMPILER}" ${flags} "${SOURCE}"
                  RESULT_VARIABLE code ERROR_VARIABLE err OUTPUT_VARIABLE out)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "without a CASE, ${SOURCE} must compile:\n${err}")
  endif()
  return()
endif()

file(STRINGS "${SOURCE}" lines)
set(line 0)
set(misuse_line 0)
foreach(text IN LISTS lines)
  math(EXPR line "${line} + 1")
  if(text MATCHES "^#(el)?if CASE == ${CASE}( |$)")
    math(EXPR misuse_line "${line} + 1")
  endif()
endforeach()
if(misuse_line EQUAL 0)
  message(FATAL_ERROR "${SOURCE} has no CASE ${CASE}")
endif()

execute_process(COMMAND "${COMPILER}" ${flags} "-DCASE=${CASE}" "${SOURCE}"
                RESULT_VARIABLE code ERROR_VARIABLE err OUTPUT_VARIABLE out)
if(code EQUAL 0)
  message(FATAL_ERROR "CASE ${CASE} of ${SOURCE} compiled; it must not")
endif()
get_filename_component(name "${SOURCE}" NAME)
if(NOT err MATCHES "${name}:${misuse_line}:[0-9]+: (error|  required from here)")
  message(FATAL_ERROR "CASE ${CASE} failed, but not on line ${misuse_line}:\n${err}")
endif()

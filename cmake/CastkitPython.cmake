# The castkit Python module (python/, docs/python.md), built with pybind11 for an interpreter
# that has NumPy. CASTKIT_PYTHON: AUTO (the default) builds it when Python 3 with NumPy and
# pybind11 are found and says why not otherwise; ON requires them; OFF skips it. Sanitizer,
# fuzzing and cross builds skip it under AUTO (an ASan module cannot load into a plain python3).
#
# The interpreter: -DPython_EXECUTABLE=..., else Debian's /usr/bin/python3, the one
# scripts/setup.sh installs numpy, pytest and pybind11 for (a pyenv or venv python3 earlier on
# PATH often lacks numpy).
set(CASTKIT_PYTHON AUTO CACHE STRING "Build the castkit Python module: AUTO, ON or OFF")
set_property(CACHE CASTKIT_PYTHON PROPERTY STRINGS AUTO ON OFF)

set(castkit_python_skip "")
if(CASTKIT_PYTHON STREQUAL "AUTO")
  if(CMAKE_CROSSCOMPILING)
    set(castkit_python_skip "a cross build")
  elseif(CASTKIT_SANITIZE)
    set(castkit_python_skip "a sanitizer build")
  elseif(CASTKIT_FUZZ)
    set(castkit_python_skip "a fuzzing build")
  endif()
elseif(NOT CASTKIT_PYTHON)
  set(castkit_python_skip "CASTKIT_PYTHON=OFF")
endif()

if(NOT castkit_python_skip)
  if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
    set(Python_EXECUTABLE /usr/bin/python3)
  endif()
  find_package(Python 3.8 COMPONENTS Interpreter Development.Module NumPy)
  if(NOT Python_FOUND)
    set(castkit_python_skip "no Python 3 with its headers and NumPy (apt install python3-dev python3-numpy)")
  else()
    find_package(pybind11 2.6 CONFIG QUIET)
    if(NOT pybind11_FOUND)
      set(castkit_python_skip "no pybind11 (apt install pybind11-dev)")
    endif()
  endif()
  if(castkit_python_skip AND CASTKIT_PYTHON STREQUAL "ON")
    message(FATAL_ERROR "CASTKIT_PYTHON=ON, but ${castkit_python_skip}")
  endif()
endif()

if(castkit_python_skip)
  message(STATUS "castkit Python module: skipped (${castkit_python_skip})")
else()
  message(STATUS "castkit Python module: for ${Python_EXECUTABLE} (Python ${Python_VERSION}, "
                 "NumPy ${Python_NumPy_VERSION}, pybind11 ${pybind11_VERSION})")
  add_subdirectory(python)
endif()
unset(castkit_python_skip)

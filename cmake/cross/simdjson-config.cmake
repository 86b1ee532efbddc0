# simdjson for a cross-build: Debian ships it compiled for Linux only, so its single-file
# amalgamation (singleheader/simdjson.cpp and simdjson.h) is compiled for the target from
# Debian's source package, which scripts/debian-source.sh unpacks into the build tree.
set(CASTKIT_SIMDJSON_SOURCE "${CMAKE_BINARY_DIR}/debian-sources/simdjson/singleheader")
if(NOT EXISTS "${CASTKIT_SIMDJSON_SOURCE}/simdjson.cpp")
  message(FATAL_ERROR "simdjson's sources are missing: run\n"
          "  scripts/debian-source.sh simdjson ${CMAKE_BINARY_DIR}/debian-sources\n")
endif()
# simdjson::simdjson is an imported name for it, as Debian's package gives, so that castkit's
# installed package refers to simdjson by that name (find_dependency) instead of exporting it.
if(NOT TARGET simdjson::simdjson)
  add_library(castkit_simdjson STATIC "${CASTKIT_SIMDJSON_SOURCE}/simdjson.cpp")
  target_include_directories(castkit_simdjson SYSTEM PUBLIC "${CASTKIT_SIMDJSON_SOURCE}")
  add_library(simdjson::simdjson INTERFACE IMPORTED)
  target_link_libraries(simdjson::simdjson INTERFACE castkit_simdjson)
endif()
set(simdjson_FOUND TRUE)

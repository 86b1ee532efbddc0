# meshoptimizer for a cross-build: Debian ships it compiled for Linux only, so its library
# (src/*.cpp and meshoptimizer.h) is compiled for the target from Debian's source package, which
# scripts/debian-source.sh unpacks into the build tree.
set(CASTKIT_MESHOPTIMIZER_SOURCE "${CMAKE_BINARY_DIR}/debian-sources/meshoptimizer/src")
if(NOT EXISTS "${CASTKIT_MESHOPTIMIZER_SOURCE}/vertexcodec.cpp")
  message(FATAL_ERROR "meshoptimizer's sources are missing: run\n"
          "  scripts/debian-source.sh meshoptimizer ${CMAKE_BINARY_DIR}/debian-sources\n")
endif()
# meshoptimizer::meshoptimizer is an imported name for it, as Debian's package gives, so that
# castkit's installed package refers to meshoptimizer by that name (find_dependency) instead of
# exporting it.
if(NOT TARGET meshoptimizer::meshoptimizer)
  file(GLOB castkit_meshoptimizer_sources "${CASTKIT_MESHOPTIMIZER_SOURCE}/*.cpp")
  add_library(castkit_meshoptimizer STATIC ${castkit_meshoptimizer_sources})
  target_include_directories(castkit_meshoptimizer SYSTEM PUBLIC "${CASTKIT_MESHOPTIMIZER_SOURCE}")
  add_library(meshoptimizer::meshoptimizer INTERFACE IMPORTED)
  target_link_libraries(meshoptimizer::meshoptimizer INTERFACE castkit_meshoptimizer)
endif()
set(meshoptimizer_FOUND TRUE)

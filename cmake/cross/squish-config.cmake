# squish for a cross-build: Debian ships it compiled for Linux only (libsquish-dev), so its
# library sources are compiled for the target from Debian's source package (libsquish), which
# scripts/debian-source.sh unpacks into the build tree: plain C++, without SSE, Altivec or OpenMP.
# cmake/CastkitImages.cmake finds it by the variables below; castkit's installed package carries
# the library (castkit::castkit_squish).
set(CASTKIT_SQUISH_SOURCE "${CMAKE_BINARY_DIR}/debian-sources/libsquish")
if(NOT EXISTS "${CASTKIT_SQUISH_SOURCE}/squish.cpp")
  message(FATAL_ERROR "squish's sources are missing: run\n"
          "  scripts/debian-source.sh libsquish ${CMAKE_BINARY_DIR}/debian-sources\n")
endif()
if(NOT TARGET castkit_squish)
  add_library(castkit_squish STATIC
    "${CASTKIT_SQUISH_SOURCE}/alpha.cpp" "${CASTKIT_SQUISH_SOURCE}/clusterfit.cpp"
    "${CASTKIT_SQUISH_SOURCE}/colourblock.cpp" "${CASTKIT_SQUISH_SOURCE}/colourfit.cpp"
    "${CASTKIT_SQUISH_SOURCE}/colourset.cpp" "${CASTKIT_SQUISH_SOURCE}/maths.cpp"
    "${CASTKIT_SQUISH_SOURCE}/rangefit.cpp" "${CASTKIT_SQUISH_SOURCE}/singlecolourfit.cpp"
    "${CASTKIT_SQUISH_SOURCE}/squish.cpp")
  target_compile_definitions(castkit_squish PRIVATE SQUISH_USE_SSE=0 SQUISH_USE_ALTIVEC=0)
endif()
# (FORCE: over the NOTFOUND of a build tree configured before squish was offered.)
if(NOT CASTKIT_SQUISH_INCLUDE_DIR OR NOT CASTKIT_SQUISH_LIBRARY)
  set(CASTKIT_SQUISH_INCLUDE_DIR "${CASTKIT_SQUISH_SOURCE}" CACHE PATH
      "squish's header for a cross-build" FORCE)
  set(CASTKIT_SQUISH_LIBRARY castkit_squish CACHE STRING "squish for a cross-build" FORCE)
endif()
set(squish_FOUND TRUE)

# stb for a cross-build: Debian's headers (libstb-dev, linked into the cross-headers folder as
# stb/), with stb_image's and stb_image_write's implementations compiled for the target (stb.cpp),
# as Debian compiles them into libstb for Linux only. cmake/CastkitImages.cmake finds them by the
# variables below; castkit's installed package carries the library (castkit::castkit_stb).
if(NOT TARGET castkit_stb)
  add_library(castkit_stb STATIC "${CMAKE_CURRENT_LIST_DIR}/stb.cpp")
  target_include_directories(castkit_stb SYSTEM PRIVATE "${CASTKIT_CROSS_HEADERS}/stb")
endif()
# (FORCE: over the NOTFOUND of a build tree configured before stb was offered.)
if(NOT CASTKIT_STB_INCLUDE_DIR OR NOT CASTKIT_STB_LIBRARY)
  set(CASTKIT_STB_INCLUDE_DIR "${CASTKIT_CROSS_HEADERS}/stb" CACHE PATH
      "stb's headers for a cross-build" FORCE)
  set(CASTKIT_STB_LIBRARY castkit_stb CACHE STRING "stb for a cross-build" FORCE)
endif()
set(stb_FOUND TRUE)

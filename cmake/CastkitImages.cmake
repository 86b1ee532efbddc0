# Texture conversion for glTF export (src/io/images.cpp): stb_image and
# stb_image_write (Debian libstb-dev) decode TGA/BMP/PSD and encode PNG; squish (libsquish-dev)
# decodes DDS BC1-BC5. Without them castkit still builds and only PNG and JPEG textures are
# embedded (CASTKIT_IMAGE_CODECS=0).
# A cross-build's toolchain may compile both for its target from Debian's packages
# (cmake/cross-deps.cmake, cmake/cross/stb-config.cmake and squish-config.cmake), which set these
# variables to its own targets; the search below then keeps them.
if(CMAKE_CROSSCOMPILING)
  find_package(stb QUIET)
  find_package(squish QUIET)
endif()
find_path(CASTKIT_STB_INCLUDE_DIR stb_image_write.h PATH_SUFFIXES stb)
find_library(CASTKIT_STB_LIBRARY stb)
find_path(CASTKIT_SQUISH_INCLUDE_DIR squish.h)
find_library(CASTKIT_SQUISH_LIBRARY squish)
if(CASTKIT_STB_INCLUDE_DIR AND CASTKIT_STB_LIBRARY AND CASTKIT_SQUISH_INCLUDE_DIR
   AND CASTKIT_SQUISH_LIBRARY)
  set(CASTKIT_IMAGE_CODECS ON)
  target_include_directories(castkit SYSTEM PRIVATE ${CASTKIT_STB_INCLUDE_DIR}
                             ${CASTKIT_SQUISH_INCLUDE_DIR})
  target_link_libraries(castkit PRIVATE ${CASTKIT_STB_LIBRARY} ${CASTKIT_SQUISH_LIBRARY})
  target_compile_definitions(castkit PRIVATE CASTKIT_IMAGE_CODECS=1)
else()
  set(CASTKIT_IMAGE_CODECS OFF)
  target_compile_definitions(castkit PRIVATE CASTKIT_IMAGE_CODECS=0)
  message(STATUS "castkit: stb or squish not found; only PNG and JPEG textures are embedded")
endif()

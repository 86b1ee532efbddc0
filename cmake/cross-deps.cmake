# castkit's dependencies for a cross-build (included by the toolchain files
# mingw-w64-x86_64.cmake and emscripten-wasm32.cmake), so that no Linux header or library leaks
# in: Debian's header-only libraries are reached through a folder of the build tree that links
# to just those headers and holds nothing else, with a small package file for each in
# cmake/cross/ (fmt is used header-only; GoogleTest and simdjson are compiled for the target
# from Debian's sources). A toolchain may also offer the optional libraries it lists in
# CASTKIT_CROSS_OPTIONAL before including this file (stb, squish, meshoptimizer: texture
# conversion and glTF mesh decompression), compiled for the target from Debian's packages too;
# without them those features are off, as in the Emscripten build.
set(CASTKIT_CROSS_HEADERS "${CMAKE_BINARY_DIR}/cross-headers")
set(castkit_cross_links fmt glm nlohmann CLI tiny_gltf.h)
if(stb IN_LIST CASTKIT_CROSS_OPTIONAL)
  list(APPEND castkit_cross_links stb)
endif()
get_property(castkit_in_try_compile GLOBAL PROPERTY IN_TRY_COMPILE)
if(NOT castkit_in_try_compile)
  foreach(entry ${castkit_cross_links})
    if(NOT EXISTS "${CASTKIT_CROSS_HEADERS}/${entry}")
      file(MAKE_DIRECTORY "${CASTKIT_CROSS_HEADERS}")
      file(CREATE_LINK "/usr/include/${entry}" "${CASTKIT_CROSS_HEADERS}/${entry}" SYMBOLIC)
    endif()
  endforeach()
endif()
set(TINYGLTF_INCLUDE_DIR "${CASTKIT_CROSS_HEADERS}" CACHE PATH
    "tinygltf's header for a cross-build")
foreach(package fmt glm nlohmann_json CLI11 GTest simdjson ${CASTKIT_CROSS_OPTIONAL})
  if("${${package}_DIR}" MATCHES "-NOTFOUND$")  # a build tree configured before it was offered
    unset(${package}_DIR CACHE)
  endif()
  set(${package}_DIR "${CMAKE_CURRENT_LIST_DIR}/cross" CACHE PATH
      "castkit's ${package} for a cross-build")
endforeach()

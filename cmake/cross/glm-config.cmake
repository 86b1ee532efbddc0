# glm for a cross-build: Debian's headers.
if(NOT TARGET glm::glm)
  add_library(glm::glm INTERFACE IMPORTED)
  target_include_directories(glm::glm SYSTEM INTERFACE "${CASTKIT_CROSS_HEADERS}")
endif()
set(glm_FOUND TRUE)

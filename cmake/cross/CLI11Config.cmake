# CLI11 for a cross-build: Debian's headers.
if(NOT TARGET CLI11::CLI11)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 SYSTEM INTERFACE "${CASTKIT_CROSS_HEADERS}")
endif()
set(CLI11_FOUND TRUE)

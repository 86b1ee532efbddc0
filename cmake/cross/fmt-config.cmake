# fmt for a cross-build: Debian's headers, used header-only (Debian's libfmt is Linux).
if(NOT TARGET fmt::fmt)
  add_library(fmt::fmt INTERFACE IMPORTED)
  target_include_directories(fmt::fmt SYSTEM INTERFACE "${CASTKIT_CROSS_HEADERS}")
  target_compile_definitions(fmt::fmt INTERFACE FMT_HEADER_ONLY=1)
endif()
set(fmt_FOUND TRUE)

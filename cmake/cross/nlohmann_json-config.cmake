# nlohmann-json for a cross-build: Debian's headers.
if(NOT TARGET nlohmann_json::nlohmann_json)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  target_include_directories(nlohmann_json::nlohmann_json SYSTEM INTERFACE "${CASTKIT_CROSS_HEADERS}")
endif()
set(nlohmann_json_FOUND TRUE)

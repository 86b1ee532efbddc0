# Compiling castkit to WebAssembly with Debian's Emscripten, for the browser viewer's module
# (viewer/wasm/; `make viewer-wasm` does all of this):
#   scripts/debian-source.sh simdjson build-wasm/debian-sources
#   cmake -S . -B build-wasm -G Ninja --toolchain cmake/emscripten-wasm32.cmake
# Emscripten's own toolchain file (the one emcmake passes) confines the search for packages,
# libraries and headers to Emscripten's sysroot; castkit's dependencies come from Debian's
# packages as cmake/cross-deps.cmake says. Optional libraries (draco, meshoptimizer, stb, squish)
# are not in that sysroot, so their features are off.
execute_process(COMMAND em-config EMSCRIPTEN_ROOT OUTPUT_VARIABLE castkit_emscripten_root
                OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
include("${castkit_emscripten_root}/cmake/Modules/Platform/Emscripten.cmake")

# castkit catches exceptions (its JSON readers' errors, out of memory), so C++ exceptions are
# on: Emscripten's default would abort at the first throw.
set(CMAKE_CXX_FLAGS_INIT "-fexceptions")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-fexceptions")

# emcc's JavaScript optimizer needs Debian's node-acorn in /usr/share/nodejs, which only Debian's
# own node searches (not, e.g., NodeSource's).
set(CMAKE_CXX_LINKER_LAUNCHER "${CMAKE_COMMAND}" -E env NODE_PATH=/usr/share/nodejs)

include("${CMAKE_CURRENT_LIST_DIR}/cross-deps.cmake")

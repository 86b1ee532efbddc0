// libFuzzer harness for the validator: every Cast file that reads must validate without a
// crash, a sanitizer report or a huge allocation, with every rule and in strict mode.
#include <castkit/cast/validate.hpp>
#include <cstdint>

#include "read_shim.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    using namespace castkit;
    Diagnostics warnings;
    auto document =
        fuzz::read_as("cast", cast::Bytes(reinterpret_cast<const std::byte*>(data), size),
                      "fuzz.cast", warnings);
    if (!document) return 0;
    (void)cast::validate(*document);
    (void)cast::validate(*document, {.strict = true, .include_read_warnings = false});
    return 0;
}

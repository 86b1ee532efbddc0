// libFuzzer harness for the validator (fuzz/harnesses.hpp says what each input goes through).
#include "harnesses.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return castkit::fuzz::fuzz_one("validate", data, size);
}

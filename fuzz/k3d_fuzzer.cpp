// libFuzzer harness for the k3d reader (fuzz/reader_harness.hpp says what each input goes through).
#include "reader_harness.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return castkit::fuzz::run_reader("k3d", data, size);
}

// libFuzzer harness for a format registered at run time: the example OFF format
// (examples/off_format.cpp), read and written through the registry as castkit's own formats are
// (fuzz/harnesses.hpp says what each input goes through).
#include "../examples/off_format.hpp"
#include "harnesses.hpp"

extern "C" int LLVMFuzzerInitialize(int*, char***) {
    if (!castkit::register_format(off_format::format_info())) std::abort();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    return castkit::fuzz::fuzz_one("off", data, size);
}

// The DMF JSON writer with a choice of threads: the tests compare one thread's bytes with two's.
#pragma once

#include <castkit/formats/dmf.hpp>

#include "../common/ordered_chunks.hpp"

namespace castkit::dmf {

// write_json(model, sink), formatting the big arrays on `threads`. O(size).
Expected<void> write_json(const Model& model, Sink& sink, formats::Threads threads);

}  // namespace castkit::dmf

// The DMF JSON reader's two ways through a text, named for the tests and the fuzzer, which check
// that they agree: read_json reads in windows first and in one pass where the windows give up.
#pragma once

#include <castkit/formats/dmf.hpp>
#include <optional>
#include <string>
#include <string_view>

#include "../common/ordered_chunks.hpp"

namespace castkit::dmf::json_reader {

// The model read window by window (each window's simdjson index reused), or nullopt where this
// path gives up: an error, or a text not in the shape it reads. References are not checked.
// Threads::automatic reads the second half of a big faces section on a second thread where there
// is one; Threads::one reads the same on the calling thread.
std::optional<Model> read_in_windows(std::string_view text,
                                     formats::Threads threads = formats::Threads::automatic);

// The model read in one pass of simdjson's On-Demand API over the whole text, references
// checked; every error names its byte offset and JSON path.
Expected<Model> read_in_one_pass(std::string_view text, const std::string& file);

}  // namespace castkit::dmf::json_reader

// The DMF JSON writer with a choice of threads: the tests compare one thread's bytes with two's.
#pragma once

#include <castkit/formats/dmf.hpp>

#include "../common/ordered_chunks.hpp"
#include "cast_faces.hpp"

namespace castkit::dmf {

// write_json(model, sink), formatting the big arrays on `threads`. O(size).
Expected<void> write_json(const Model& model, Sink& sink, formats::Threads threads);

// The same text for `model` with `faces` as its faces (model.faces is not read): each chunk of
// faces is made by the thread that formats it. Every normal and UV of `faces` must be finite
// (CastFaces::all_finite), as write_json checks model.faces before writing. O(size).
Expected<void> write_json(const Model& model, const CastFaces& faces, Sink& sink,
                          formats::Threads threads);

}  // namespace castkit::dmf

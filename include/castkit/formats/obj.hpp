// Wavefront OBJ (`.obj`), written only: every Model of a Cast document, and every Instance of a
// map placed, as one static OBJ with its MTL beside it (docs/obj.md). castkit does not read OBJ.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <castkit/io/context.hpp>
#include <castkit/sink.hpp>
#include <cstdint>

namespace castkit::obj {

// The OBJ text a document and its Instances may make: this floor plus kBudgetPerByteRead bytes
// per byte of the files read (the document's Cast size and each instance file once), counted
// before anything is written from the longest text each vertex and triangle can take
// (obj.map-budget). A map places its models over and over: the output grows with the
// instances, not with the files, so it is bounded by what was read.
inline constexpr std::uint64_t kBudgetFloor = std::uint64_t{1} << 30;
inline constexpr std::uint64_t kBudgetPerByteRead = 256;

// Writes `document` as OBJ text into `sink`, streamed a block at a time: positions, the first UV
// layer (V flipped), normals and triangles of every Model's meshes, each an `o` and a `g`, with
// `usemtl` per material, and every Instance's model placed by its transform (nested up to 16
// levels) as new objects. The MTL (`<stem>.mtl`) goes beside sink.file() through the run's side
// outputs (never over a file this run did not write: `<stem>-2.mtl`); a sink that is no file gets
// no MTL (obj.mtl-not-written). What OBJ cannot hold is dropped, each kind with a warning of its
// own id (obj.*). The document is expected to have passed the check before every write
// (formats::write does it); instance files are checked here. O(output bytes).
Expected<void> write(const cast::Document& document, Sink& sink, const WriteContext& context,
                     Diagnostics& diagnostics);

}  // namespace castkit::obj

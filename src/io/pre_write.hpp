// The check before every write of meshes (docs/diagnostics.md, "Before every write"): the
// validator's mesh rules that no writer can carry out, with one policy for every format. The
// broken part is left out, the same part in every format, with a warning; under
// FormatOptions::strict the write is refused with an error instead.
#pragma once

#include <castkit/formats.hpp>
#include <optional>

namespace castkit::formats {

// Checks the meshes of the Models `written` names: triangles with an index past the vertices,
// weights naming a bone the Model's skeleton lacks (or a weighted mesh without a skeleton), and
// the buffers writers read per vertex (vn, vt, the UV and colour layers, wb and wv) when they
// do not hold one entry per vertex. Each finding names context.name, the mesh's node path and
// its id (output.face-index, output.weight-bone, output.buffer-length).
// Returns nullopt when nothing is broken (the document is written as it is); otherwise, with
// the findings added to `diagnostics`, a copy without the broken parts: each such triangle,
// each such weight (its vertex keeps its other weights), each such buffer whole (later UV and
// colour layers move down one). Under context.options.strict every finding is an error: the
// first is returned, the others are added to `diagnostics`.
// O(faces + weights + properties) when nothing is broken; a repair also copies the nodes (their
// payloads are shared) and the buffers it rewrites.
Expected<std::optional<cast::Document>> check_before_write(const cast::Document& document,
                                                           WrittenModels written,
                                                           const WriteContext& context,
                                                           Diagnostics& diagnostics);

// What a format's from_cast converts, so that a direct call (not through the registry, which
// checks first) loses the same parts with the same warnings: `document` itself when its first
// Model is whole, otherwise the repaired copy, kept in `repair`. Never strict: from_cast has no
// options, so only the registry refuses.
const cast::Document& checked_first_model(const cast::Document& document,
                                          std::optional<cast::Document>& repair,
                                          Diagnostics& diagnostics);

}  // namespace castkit::formats

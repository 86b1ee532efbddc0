// The check before every write of meshes (docs/diagnostics.md, "Before every write"): the
// validator's mesh rules that no writer can carry out, with one policy for every format. The
// broken part is left out, the same part in every format, with a warning; under
// FormatOptions::strict the write is refused with an error instead.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <castkit/io/context.hpp>
#include <castkit/scene/written_models.hpp>
#include <optional>

namespace castkit::scene {

// First refuses (an error, strict or not) a NaN or infinite float that a writer writes as it is
// (docs/diagnostics.md, "Before every write"): in the properties of a Model, Skeleton, Bone, IK
// handle, Constraint, Animation, Curve or BlendShape (of every node but the Models after the
// first under WrittenModels::First), and in a written mesh's positions (`vp`).
// Then checks the meshes of the Models `written` names: triangles with an index past the
// vertices, weights naming a bone the Model's skeleton lacks (or a weighted mesh without a
// skeleton), the buffers writers read per vertex (vn, vt, the UV and colour layers, wb and wv)
// when they do not hold one entry per vertex, and NaN or infinite values in those buffers. Each
// finding names context.name, the node path and its id (output.face-index, output.weight-bone,
// output.buffer-length, output.non-finite).
// Returns nullopt when nothing is broken (the document is written as it is); otherwise, with
// the findings added to `diagnostics`, a copy without the broken parts: each such triangle,
// each such weight (its vertex keeps its other weights), each such buffer whole (later UV and
// colour layers move down one). Under context.options.strict every finding is an error: the
// first is returned, the others are added to `diagnostics`.
// O(faces + weights + float payload) when nothing is broken; a repair also copies the nodes
// (their payloads are shared) and the buffers it rewrites.
Expected<std::optional<cast::Document>> check_before_write(const cast::Document& document,
                                                           WrittenModels written,
                                                           const WriteContext& context,
                                                           Diagnostics& diagnostics);

// The first part of check_before_write alone, for a format's from_cast that writes no mesh
// (SEAnim): the first NaN or infinite float a writer writes as it is, as an error naming
// `file`. O(nodes + float payload).
Expected<void> refuse_non_finite(const cast::Document& document, WrittenModels written,
                                 const std::string& file);

// What a format's from_cast converts, so that a direct call (not through the registry, which
// checks first) loses the same parts with the same warnings: `document` itself when its first
// Model is whole, otherwise the repaired copy, kept in `repair`. Never strict: from_cast has no
// options; the error is a non-finite float nothing can stand in for.
Expected<const cast::Document*> checked_first_model(const cast::Document& document,
                                                    std::optional<cast::Document>& repair,
                                                    Diagnostics& diagnostics);

}  // namespace castkit::scene

// FBX 7.4 binary, write only: a Cast document as the FBX that Blender's, Assimp's, Unity's and
// Unreal's importers read. Meshes (normals, tangents, UV and colour layers), Phong materials with
// their textures, skeletons as LimbNodes with a bind pose and skin clusters, blend shapes as
// BlendShape deformers, every animation as its own AnimationStack, the document's up axis and
// units in GlobalSettings, a map's Instances as Models sharing each instance file's Geometry.
// What FBX cannot hold (hair, IK handles and constraints as objects) is named in a warning
// (`fbx.*`, docs/diagnostics.md); docs/fbx.md says what each engine makes of it. castkit reads no
// FBX.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <castkit/formats/format.hpp>
#include <castkit/scene/units.hpp>
#include <cstdint>
#include <optional>

namespace castkit::fbx {

struct ExportOptions {
    // The units the document's lengths are in, written as GlobalSettings' UnitScaleFactor (FBX
    // counts centimetres); unset: those its first Metadata says (`units`), else centimetres,
    // castkit's assumption for a file that says none.
    std::optional<scene::Units> units = std::nullopt;
    // Skeletons' IK handles and constraints solved into the curves (`castkit convert --no-rig`
    // turns it off), as the glTF export does.
    bool solve_rig = true;
    // Frames sampled × the work of each (anim::sampling_work), summed over the animations, at
    // most this; 0: anim::sample_budget of the document's keys.
    std::uint64_t max_samples = 0;
    // The file written, at most this many bytes (an `fbx.size-budget` error past it): a few
    // bytes of keys far apart can name many frames of curves. 0: anim::memory_budget of the
    // document's bytes, capped by the 4 GiB FBX 7.4's offsets reach.
    std::uint64_t max_bytes = 0;
};

// Writes `document` as binary FBX 7.4 into `sink`, after the check before every write
// (docs/diagnostics.md). Its Instances are written as one Mesh Model per instanced mesh sharing
// that file's Geometry (the files looked up beside context.base through the side-file policy;
// `fbx.instance-refused` for one that cannot be read). Animations
// are sampled at every whole frame by castkit's own evaluator (anim::SamplingJob, the rig
// solved), each curve then keeping only the keys linear interpolation does not reproduce. The
// textures materials name are written as the paths the document holds (formats::write_file
// copies them beside the output first). O(vertices × influences + frames × bones).
Expected<void> write(const cast::Document& document, Sink& sink, const WriteContext& context,
                     Diagnostics& diagnostics, const ExportOptions& options = {});

}  // namespace castkit::fbx

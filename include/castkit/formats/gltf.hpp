// glTF 2.0 bridge: a Cast document written as glTF (.glb, or .gltf with a .bin beside it) and
// glTF read back into a Cast document. Meshes, skins, morph targets, PBR materials, Model and
// bone transforms and animations travel both ways; whatever glTF cannot hold is named in a
// warning. Textures are embedded, copied beside the output or referenced (TextureMode).
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <castkit/formats/format.hpp>
#include <cstdint>
#include <filesystem>
#include <memory>

namespace castkit::gltf {

struct ExportOptions {
    // Write a binary .glb; otherwise a .gltf with its buffer in `<stem>.bin` beside it.
    bool binary = true;
    // Resolve Instance nodes (read the .cast files they reference) and merge their models in,
    // instead of writing nodes that name the files in `extras`.
    bool inline_instances = false;
    // Texture files named by materials are read where `side_files` allows (the source
    // document's folder, then its folders), and embedded, copied or referenced as `textures` says.
    TextureMode textures = TextureMode::Automatic;
    SideFilePolicy side_files = {};
    // Where copied textures are written through (castkit/io/side_outputs.hpp): never over a file
    // this run did not write. Null gives the export a writer of its own.
    std::shared_ptr<SideOutputs> side_outputs = {};
    // Animation export samples poses at the key frames (and at every frame for channels glTF
    // cannot interpolate exactly, and for visibility). More samples than this in one document
    // (frames × (bones + curves), plus the vb names at every visibility frame, summed over
    // animations) is an error rather than unbounded time and memory. 0: in proportion to the
    // document's keys (anim::sample_budget); another value: that many at most.
    std::uint64_t max_samples = 0;
    // Skeletons' IK handles are solved into the exported motion: the bones of each chain get
    // rotation channels at every frame (docs/animation.md, "IK handles"). False writes the
    // curves alone (`castkit convert --no-rig`).
    bool solve_rig = true;
    // Instances of a file that is one unskinned, unanimated Model are drawn through
    // EXT_mesh_gpu_instancing (required): one node per distinct mesh with the instances'
    // translations, rotations and scales as accessors, instead of one node each
    // (`castkit convert --gpu-instancing`; docs/gltf.md, "Maps").
    bool gpu_instancing = false;
};

struct ReadOptions {
    // Resampling STEP and CUBICSPLINE channels creates keys the file does not store. More keys
    // than this (summed over every channel of every animation) is an error rather than an
    // unbounded allocation.
    std::uint64_t max_keys = std::uint64_t{1} << 22;
};

// Writes `document` as glTF 2.0 into `sink`: a .glb, or a .gltf whose buffer goes beside
// sink.file() as `<stem>.bin` (atomically), or into a base64 data URI when the sink is not a
// file. Instances and textures resolve against context.base. Animations
// are evaluated with castkit's animation code: absolute keys are kept where linear
// interpolation reproduces them exactly, other channels are baked at every frame. What glTF
// cannot hold (hair, IK, constraints, unmappable material slots, segment scale compensation
// under non-uniform scale) is reported in `diagnostics`. O(vertices × influences + frames ×
// curves) time, one buffer the size of the binary data.
Expected<void> write(const cast::Document& document, Sink& sink, const WriteContext& context,
                     Diagnostics& diagnostics, const ExportOptions& options = {});
// write() into `path` atomically, instances and textures resolved against the document's own
// folder.
Expected<void> write(const cast::Document& document, const std::filesystem::path& path,
                     const ExportOptions& options, Diagnostics& warnings);

// Reads a .gltf (with its external or embedded buffers) or .glb into a Cast document: a Model
// per group of meshes (flattening the node hierarchy into Model transforms), skins as
// Skeletons, morph targets as BlendShapes, PBR materials as Material slots, animations as
// absolute curves (resampled at whole frames where keys fall between frames or interpolation
// is not linear). External buffers resolve against context.base, within the side-file policy
// (castkit/io/side_files.hpp). JSON nested deeper than 512 levels is refused. Malformed input is
// an error naming the file, the byte offset and the JSON path ("$.accessors[3].count").
// Buffers are not copied: arrays whose layout matches Cast's view `bytes` and keep
// `bytes.owner` alive (borrowed bytes, a null owner, are copied). Warnings go to `diagnostics`.
// O(file size).
Expected<cast::Document> read(const cast::SharedBytes& bytes, const ReadContext& context,
                              Diagnostics& diagnostics, const ReadOptions& options = {});
// read() of borrowed bytes: the document copies what it keeps.
Expected<cast::Document> read(cast::Bytes bytes, const ReadContext& context,
                              Diagnostics& diagnostics, const ReadOptions& options = {});
// read() of the file at `path` (mapped), its buffers resolved against its folder.
Expected<cast::Document> open(const std::filesystem::path& path, Diagnostics& diagnostics,
                              const ReadOptions& options = {});

}  // namespace castkit::gltf

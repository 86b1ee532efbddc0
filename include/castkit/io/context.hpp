// What a reader or a writer is given around its bytes: the name diagnostics give, the folder its
// side files resolve against (held open), and the options. Every format's functions take one
// (castkit/formats/format.hpp); context_for makes the one of a file.
#pragma once

#include <castkit/io/side_files.hpp>
#include <castkit/io/side_outputs.hpp>
#include <filesystem>
#include <memory>
#include <string>

namespace castkit {

// How a glTF export carries the texture files that materials name (docs/workflows.md).
enum class TextureMode {
    Automatic,  // Embed in a .glb, Copy beside a .gltf
    Embed,      // inside the file (PNG and JPEG as they are, other formats as PNG)
    Copy,       // image files written beside the output and referenced by URI
    Reference,  // the paths the document names, as URIs; nothing is read
};

// Options for the formats that use them; each format reads what applies to it and ignores the
// rest.
struct FormatOptions {
    // glTF export: merge the files Instances reference instead of only naming them in
    // `extras`. On by default: no glTF reader follows a name of a Cast file, so a scene of
    // Instances written as references shows nothing (`castkit convert
    // --keep-instance-references` turns it off). Other formats ignore it.
    bool inline_instances = true;
    // glTF export: where textures go.
    TextureMode textures = TextureMode::Automatic;
    // Other formats' write_file to another folder than the context's base: the images material
    // Files name are copied beside the output (or, with TextureMode::Reference, named by a path
    // relative to it) so that the written paths hold there (docs/workflows.md, "Textures").
    // `castkit convert` sets it; left false, a document is written with its paths as they are.
    // The images a document carries in memory are written beside the output either way.
    bool place_textures = false;
    // Where the files a document names (textures, instances) may be read from: the base folder,
    // then side_files.folders (--textures DIR), within the policy of castkit/io/side_files.hpp.
    // The images a glTF or DMF holds inside travel in the document (cast::Document::embedded)
    // as `<stem>_<image name>.<ext>` (glTF) or `<texture name>.<ext>` (DMF), the extension the
    // bytes call for (`.png`, `.jpg`, else `.bin`), which the Cast File names; with folders,
    // the import also writes each into the first of them through side_outputs (a taken name
    // gives `name-2.png`, which the File then names).
    SideFilePolicy side_files{};
    // The run's writer of every file written besides the named output (images unpacked by the
    // glTF and DMF imports, textures copied or converted beside an output): it never replaces a
    // file it did not write (castkit/io/side_outputs.hpp, docs/security.md). Share one across the
    // reads and writes of one command; null gives each read or write a writer of its own.
    std::shared_ptr<SideOutputs> side_outputs{};
    // Writers of meshes (glTF, SEModel, DMF, K3D): a mesh the check before every write finds
    // broken (a face index past its vertices, a weight naming a bone the skeleton lacks, a
    // per-vertex buffer not one entry per vertex) refuses the write with an error instead of
    // losing the broken part with a warning (docs/diagnostics.md, "Before every write").
    // `castkit convert --strict`.
    bool strict = false;
    // glTF import: the Cast world file being written (`castkit convert map.glb out.cast` sets
    // it). A glb read as a map (docs/gltf.md, "Maps") then becomes a world of Instances, each
    // distinct mesh a model file `<stem of world_output>_<mesh name>.cast` written beside it
    // through side_outputs. Empty (the default, and `--one-file`) reads every file into one
    // document, refusing a map whose copies would pass the file's budget (gltf.instances-budget).
    std::filesystem::path world_output{};
    // glTF export: skeletons' IK handles solved into the exported motion (gltf::ExportOptions::
    // solve_rig); `castkit convert --no-rig` turns it off.
    bool solve_rig = true;
    // glTF export: instances drawn through EXT_mesh_gpu_instancing (gltf::ExportOptions::
    // gpu_instancing); `castkit convert --gpu-instancing`.
    bool gpu_instancing = false;
};

// Everything a format needs around the bytes it reads or writes: the name diagnostics give, the
// folder that relative file names (a .gltf's buffers, the textures and instances a document
// names) resolve against, and the options. The warnings go to the Diagnostics sink passed
// beside it.
struct Context {
    // Name used in diagnostics: the path, "<stdin>", or empty for unnamed memory.
    std::string name{};
    // Side files resolve against this folder. Empty means the source has none (bytes from
    // memory or standard input): then no side file is read except from the policy's folders.
    std::filesystem::path base{};
    FormatOptions options{};
    // `base` opened once (context_for opens it, before the source is read): side files are
    // opened beneath this descriptor, so a folder swapped for a link after the source was read
    // cannot lead them outside (docs/security.md, "What castkit reads"). Copy it with `base`;
    // null, or opened for another folder than `base`, opens `base` at each lookup.
    std::shared_ptr<const platform::OpenedFolder> folder{};
};
using ReadContext = Context;
using WriteContext = Context;

namespace formats {

// A context for the file `path`: its name and its folder as the base ("." for a name without a
// folder; "-" is "<stdin>" with no base, so it reads no side files of its own), that folder
// opened and held in Context::folder. Make it before reading `path`.
Context context_for(const std::filesystem::path& path, FormatOptions options = {});

}  // namespace formats

}  // namespace castkit

// Every file format castkit reads or writes, behind one interface: each converts to and from
// the Cast document (the hub), so `castkit convert` and `info` work for any pair.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/side_files.hpp>
#include <filesystem>
#include <optional>
#include <string_view>
#include <vector>

namespace castkit {

// How a glTF export carries the texture files that materials name (docs/workflows.md).
enum class TextureMode {
    Automatic,  // Embed in a .glb, Copy beside a .gltf
    Embed,      // inside the file (PNG and JPEG as they are, other formats as PNG)
    Copy,       // image files written beside the output and referenced by URI
    Reference,  // the paths the document names, as URIs; nothing is read
};

// What a caller may ask of any writer; each format uses the options that apply to it.
struct WriteOptions {
    // glTF: merge the files Instances reference instead of naming them in `extras`.
    bool inline_instances = false;
    // glTF: where textures go (embedded, copied or referenced).
    TextureMode textures = TextureMode::Automatic;
    // Where files the document names (textures) may be read from: the source file's folder,
    // then `side_files.folders` (`--textures DIR`) (castkit/side_files.hpp).
    SideFilePolicy side_files = {};
};

struct FormatInfo {
    std::string_view name;                     // "cast", "seanim", …
    std::vector<std::string_view> extensions;  // ".cast"; longest match wins (".dmf.json")
    // Reads a file into a Cast document; warnings name what was approximated.
    Expected<cast::Document> (*read)(const std::filesystem::path& path, Diagnostics& warnings);
    // Writes a Cast document; warnings name what the format cannot hold and was dropped.
    Expected<void> (*write)(cast::Document& document, const std::filesystem::path& path,
                            const WriteOptions& options, Diagnostics& warnings);
};

// All registered formats.
const std::vector<FormatInfo>& all_formats();
// The format a path's extension names, or nullptr.
const FormatInfo* format_for_path(const std::filesystem::path& path);
// The format with this name, or nullptr.
const FormatInfo* format_by_name(std::string_view name);

}  // namespace castkit

// Reading glTF files (the GLB container checked before tinygltf parses it) and the registry
// entries for .glb and .gltf.
#include <fmt/format.h>

#include <castkit/gltf/gltf.hpp>
#include <algorithm>
#include <climits>
#include <cstdio>
#include <cstring>

#include "../formats/common/side_files.hpp"
#include "../formats/registry_entries.hpp"
#include "../platform/platform.hpp"
#include "import_internal.hpp"
#include "json_depth.hpp"
#include "problem.hpp"

namespace castkit::gltf {
namespace {

std::uint32_t u32_at(std::span<const std::byte> bytes, std::size_t offset) {
    std::uint32_t value;
    std::memcpy(&value, bytes.data() + offset, 4);
    return value;
}

// The GLB header and chunk table, checked so that tinygltf only sees consistent lengths.
Expected<void> check_glb(std::span<const std::byte> bytes, const std::string& file) {
    auto fail = [&](std::uint64_t offset, std::string message) {
        Diagnostic d = detail::problem(file, "", std::move(message), Severity::Error, "gltf.glb");
        d.offset = offset;
        return make_error(std::move(d));
    };
    if (bytes.size() < 20) return fail(0, "a GLB file needs a 12-byte header and a JSON chunk");
    if (u32_at(bytes, 4) != 2)
        return fail(4, fmt::format("GLB version {} is not 2", u32_at(bytes, 4)));
    if (u32_at(bytes, 8) > bytes.size())
        return fail(8, fmt::format("the header declares {} bytes, the file has {}",
                                   u32_at(bytes, 8), bytes.size()));
    std::size_t offset = 12;
    bool first = true;
    while (offset + 8 <= u32_at(bytes, 8)) {
        const std::uint32_t length = u32_at(bytes, offset), type = u32_at(bytes, offset + 4);
        if (length > u32_at(bytes, 8) - offset - 8)
            return fail(offset,
                        fmt::format("chunk of {} bytes runs past the end of the file", length));
        if (first && type != 0x4E4F534Au)
            return fail(offset + 4, "the first GLB chunk must be JSON");
        first = false;
        offset += 8 + length;
    }
    if (first) return fail(12, "the GLB file has no JSON chunk");
    return {};
}

// tinygltf's image callback: castkit keeps image URIs and never decodes pixels, so embedded
// images are accepted and left alone (the importer warns that they are not kept).
bool skip_image(tinygltf::Image*, const int, std::string*, std::string*, int, int,
                const unsigned char*, int, void*) {
    return true;
}

// Refuses JSON nested deeper than kMaxJsonDepth before tinygltf's recursive parser sees it,
// naming the byte offset (in the file) of the first bracket too deep. O(JSON size).
Expected<void> check_depth(std::span<const std::byte> bytes, bool glb, const std::string& file) {
    std::size_t begin = 0, end = bytes.size();
    if (glb) {  // check_glb has made sure the JSON chunk lies inside the file
        begin = 20;
        end = begin + u32_at(bytes, 12);
    }
    const std::string_view text(reinterpret_cast<const char*>(bytes.data()) + begin, end - begin);
    if (const auto at = detail::first_too_deep(text)) {
        Diagnostic d = detail::problem(
            file, "", fmt::format("JSON nested deeper than {} levels", detail::kMaxJsonDepth));
        d.offset = begin + *at;
        return make_error(std::move(d));
    }
    return {};
}

// Where a glTF error lies, as far as castkit can tell past tinygltf (which keeps no offsets):
// a JSON syntax error's "line L, column C" as the byte offset it names; any other error at the
// start of the JSON (the GLB's JSON chunk at byte 20), with "/" (the JSON root) when the error
// names no JSON path. O(JSON size) for syntax errors, O(1) otherwise.
Diagnostic locate(Diagnostic d, std::span<const std::byte> bytes, bool glb) {
    const std::size_t begin = glb ? 20 : 0;
    if (d.path.empty()) d.path.assign(1, '/');  // not = "/": GCC 12 -Wrestrict at -O3
    if (d.offset != Diagnostic::kNoOffset) return d;
    d.offset = begin;
    unsigned long line = 0, column = 0;
    const std::size_t at = d.message.find("line ");
    if (at == std::string::npos ||
        std::sscanf(d.message.c_str() + at, "line %lu, column %lu", &line, &column) != 2 ||
        line == 0)
        return d;
    std::size_t offset = begin;
    for (unsigned long l = 1; l < line && offset < bytes.size(); ++offset)
        if (bytes[offset] == std::byte{'\n'}) ++l;
    d.offset = std::min<std::size_t>(offset + (column > 0 ? column - 1 : 0), bytes.size());
    return d;
}

// tinygltf's file callbacks, so that the buffers a .gltf names are read as side files of the
// context (relative to its base folder, through the one side-file policy) and nothing else.
bool side_file_exists(const std::string& name, void* side_files) {
    return formats::resolve_side_file(*static_cast<const Context*>(side_files), name).has_value();
}

std::string keep_path(const std::string& path, void*) { return path; }

bool read_side_file(std::vector<unsigned char>* out, std::string* error, const std::string& name,
                    void* side_files) {
    auto mapped = formats::read_side_file(*static_cast<const Context*>(side_files), name);
    if (!mapped) {
        *error += mapped.error().message;
        return false;
    }
    const auto bytes = (*mapped)->bytes();
    const auto* data = reinterpret_cast<const unsigned char*>(bytes.data());
    out->assign(data, data + bytes.size());
    return true;
}

bool refuse_write(std::string* error, const std::string&, const std::vector<unsigned char>&,
                  void*) {
    *error += "castkit's glTF reader writes no files";
    return false;
}

Expected<cast::Document> read_format(const cast::SharedBytes& bytes, const ReadContext& context) {
    return read(bytes, context);
}

Expected<void> write_format(bool binary, const cast::Document& document, Sink& sink,
                            const WriteContext& context) {
    ExportOptions options;
    options.binary = binary;
    options.inline_instances = context.options.inline_instances;
    options.textures = context.options.textures;
    options.side_files = context.options.side_files;
    return write(document, sink, context, options);
}

}  // namespace

Expected<cast::Document> read(const std::filesystem::path& path, const ReadOptions& options,
                              Diagnostics& warnings) {
    auto input = formats::read_input(path);
    if (!input) return make_error(input.error());
    const ReadContext context = formats::context_for(path);
    // .glb and .gltf read alike: the bytes say which they are. The document copies what it
    // keeps, so the input may go when this returns.
    auto document = read(input->bytes, context, options);
    warnings.insert(warnings.end(), context.warnings.begin(), context.warnings.end());
    return document;
}

Expected<cast::Document> read(cast::Bytes bytes, const ReadContext& context,
                              const ReadOptions& options) {
    const std::string& file = context.name;
    if (bytes.size() > UINT_MAX)
        return make_error(detail::problem(file, "", "files over 4 GiB are not supported",
                                          Severity::Error, "gltf.too-large"));
    const bool glb = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
    if (glb)
        if (auto checked = check_glb(bytes, file); !checked) return make_error(checked.error());
    if (auto nested = check_depth(bytes, glb, file); !nested) return make_error(nested.error());
    const std::vector<unsigned char> rewritten = detail::prepared_for_tinygltf(bytes, glb);
    const auto* data =
        rewritten.empty() ? reinterpret_cast<const unsigned char*>(bytes.data()) : rewritten.data();
    const std::size_t size = rewritten.empty() ? bytes.size() : rewritten.size();

    tinygltf::Model model;
    tinygltf::TinyGLTF loader;
    loader.SetImageLoader(&skip_image, nullptr);
    Context side_files{.name = context.name, .base = context.base};
    loader.SetFsCallbacks(
        {&side_file_exists, &keep_path, &read_side_file, &refuse_write, &side_files});
    std::string error, warning;
    bool loaded = false;
    try {
        loaded = glb ? loader.LoadBinaryFromMemory(&model, &error, &warning, data,
                                                   static_cast<unsigned>(size), "")
                     : loader.LoadASCIIFromString(&model, &error, &warning,
                                                  reinterpret_cast<const char*>(data),
                                                  static_cast<unsigned>(size), "");
    } catch (const std::exception& exception) {
        error = exception.what();
    }
    Diagnostics& warnings = context.warnings;
    if (!warning.empty())
        warnings.push_back(detail::problem(file, "", warning, Severity::Warning, "gltf.parse"));
    if (!loaded) {
        while (!error.empty() && (error.back() == '\n' || error.back() == ' ')) error.pop_back();
        for (char& c : error)
            if (c == '\n') c = ';';
        Diagnostic d = detail::problem(file, "", error.empty() ? "not a glTF file" : error,
                                       Severity::Error, "gltf.parse");
        return make_error(locate(std::move(d), bytes, glb));
    }
    if (auto checked = detail::check_required_extensions(model, file); !checked)
        return make_error(checked.error());
    if (auto decoded = detail::decode_meshopt(model, file); !decoded)
        return make_error(decoded.error());
    if (auto decoded = detail::decode_draco(model, file); !decoded)
        return make_error(decoded.error());

    detail::Importer importer(model, file, options, warnings);
    // Embedded images go where DMF's do: the first texture folder.
    if (const auto& folders = context.options.side_files.folders; !folders.empty())
        importer.image_directory = folders.front();
    if (auto resolved = importer.resolve_nodes(); !resolved)
        return make_error(locate(resolved.error(), bytes, glb));
    importer.warn_unkept_content();
    cast::Document document;
    document.source_name = file;
    cast::Root root = document.add_root();
    if (auto imported = importer.import_models(root); !imported)
        return make_error(locate(imported.error(), bytes, glb));
    if (auto imported = importer.import_animations(root); !imported)
        return make_error(locate(imported.error(), bytes, glb));
    if (!importer.carried.empty()) {
        const auto metadata = root.metadata();
        cast::Metadata carrier = metadata.empty() ? root.add_metadata() : metadata[0];
        carrier.set_string("gltf", importer.carried.dump());
    }
    return document;
}

}  // namespace castkit::gltf

namespace castkit::formats {

FormatInfo glb_format() {
    return {"glb",
            {".glb"},
            gltf::read_format,
            [](const cast::Document& d, Sink& s, const WriteContext& c) {
                return gltf::write_format(true, d, s, c);
            }};
}

FormatInfo gltf_format() {
    return {"gltf",
            {".gltf"},
            gltf::read_format,
            [](const cast::Document& d, Sink& s, const WriteContext& c) {
                return gltf::write_format(false, d, s, c);
            }};
}

}  // namespace castkit::formats

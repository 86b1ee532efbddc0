// Reading glTF files: the GLB container checked before tinygltf parses it, errors located by
// JSON path and byte offset. The registry entries for .glb and .gltf are in gltf.cpp.
#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <castkit/formats/gltf.hpp>
#include <castkit/io/context.hpp>
#include <castkit/io/input.hpp>
#include <climits>
#include <cstdio>
#include <cstring>
#include <optional>

#include "../../platform/platform.hpp"
#include "import_internal.hpp"
#include "io/side_files.hpp"
#include "io/side_outputs.hpp"
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
    auto fail = [&](std::uint64_t offset, std::string message, std::string rule = "gltf.glb") {
        Diagnostic d =
            detail::problem(file, "$", std::move(message), Severity::Error, std::move(rule));
        d.offset = offset;
        return make_error(std::move(d));
    };
    if (bytes.size() < 20) return fail(0, "a GLB file needs a 12-byte header and a JSON chunk");
    if (u32_at(bytes, 4) == 1)
        return fail(
            4,
            "a GLB of version 1 is glTF 1.0, which is not supported; convert it to glTF 2.0 first",
            "gltf.version-unsupported");
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

// Where a GLB's JSON starts: after its 12-byte header and the JSON chunk's 8-byte one.
constexpr std::size_t kGlbJsonOffset = 20;

// The JSON's span in the file: the GLB's JSON chunk (which check_glb has made sure lies inside
// the file), else the whole file.
std::string_view json_text(std::span<const std::byte> bytes, bool glb) {
    const std::size_t begin = glb ? kGlbJsonOffset : 0;
    const std::size_t end = glb ? begin + u32_at(bytes, 12) : bytes.size();
    return {reinterpret_cast<const char*>(bytes.data()) + begin, end - begin};
}

// Refuses JSON nested deeper than kMaxJsonDepth before tinygltf's recursive parser sees it,
// naming the byte offset (in the file) of the first bracket too deep. O(JSON size).
Expected<void> check_depth(std::span<const std::byte> bytes, bool glb, const std::string& file) {
    if (const auto at = detail::first_too_deep(json_text(bytes, glb))) {
        Diagnostic d = detail::problem(
            file, "$", fmt::format("JSON nested deeper than {} levels", detail::kMaxJsonDepth));
        d.offset = (glb ? kGlbJsonOffset : 0) + *at;
        return make_error(std::move(d));
    }
    return {};
}

// What parsing the file's JSON may take: the file's budget (memory_budget) less the file
// itself. A DOM that would pass it is refused before simdjson builds it (a JSON of 2-byte
// values such as "0," takes 12 bytes a byte as a DOM); what the DOM leaves is for tinygltf's
// structures, which the walk counts (parse_gltf).
Expected<std::size_t> check_dom_size(std::span<const std::byte> bytes, bool glb,
                                     const std::string& file) {
    const std::size_t allowed = detail::memory_budget(bytes.size()) - bytes.size();
    const std::size_t dom = detail::simdjson_dom_bytes(json_text(bytes, glb));
    if (dom <= allowed) return allowed - dom;
    Diagnostic d = detail::problem(
        file, "$",
        fmt::format("the JSON holds so many values that parsing it would take about {} MiB, more "
                    "than the file's budget of {} MiB (8 bytes per byte of the file plus 64 MiB)",
                    (dom + bytes.size()) >> 20, detail::memory_budget(bytes.size()) >> 20),
        Severity::Error, "gltf.json-budget");
    d.offset = glb ? kGlbJsonOffset : 0;
    return make_error(std::move(d));
}

// A JSON pointer ("/accessors/3/count") as the JSON path castkit's errors give
// ("$.accessors[3].count"): numeric steps become indices. O(path length).
std::string json_path(std::string_view pointer) {
    std::string out(1, '$');
    while (!pointer.empty()) {
        pointer.remove_prefix(1);
        const std::string_view step = pointer.substr(0, pointer.find('/'));
        pointer.remove_prefix(step.size());
        const bool index = !step.empty() && step.find_first_not_of("0123456789") == step.npos;
        out += index ? fmt::format("[{}]", step) : fmt::format(".{}", step);
    }
    return out;
}

// The byte offset in `json` of the value `pointer` names, or of its nearest ancestor present
// (a missing member is reported at the object that lacks it); 0 when none can be found. The
// JSON is walked again with simdjson's On-Demand API, so only a failure pays for it.
// O(JSON size).
std::size_t offset_of(std::string_view json, std::string pointer) {
    const simdjson::padded_string padded(json);
    simdjson::ondemand::parser parser;
    for (;;) {
        simdjson::ondemand::document document;
        if (parser.iterate(padded).get(document)) return 0;
        std::string_view token;
        if (pointer.empty()) return 0;
        if (!document.at_pointer(pointer).raw_json_token().get(token))
            return static_cast<std::size_t>(token.data() - padded.data());
        pointer.erase(pointer.rfind('/'));
    }
}

// A glTF finding with its path as a JSON path and, for errors, the byte offset (in the file)
// of the value its JSON pointer names, within the JSON that starts at `json_offset`.
Diagnostic located(Diagnostic d, std::string_view json, std::size_t json_offset) {
    if (d.severity == Severity::Error && d.offset == Diagnostic::kNoOffset) {
        try {
            d.offset = json_offset + offset_of(json, d.path);
        } catch (const std::exception&) {  // out of memory: the start of the JSON will do
            d.offset = json_offset;
        }
    }
    if (d.path.empty() || d.path[0] == '/') d.path = json_path(d.path);
    return d;
}

// The GLB's binary chunk: the chunk after the JSON one when its type is BIN (check_glb has
// checked the chunk table), else none.
std::optional<cast::SharedBytes> binary_chunk(const cast::SharedBytes& bytes) {
    const std::size_t offset = 20 + std::size_t{u32_at(bytes, 12)};
    if (offset + 8 > u32_at(bytes, 8) || u32_at(bytes, offset + 4) != 0x004E4942u)
        return std::nullopt;
    return bytes.subspan(offset + 8, u32_at(bytes, offset));
}

// The glTF whose JSON is `json` (and binary chunk `bin`, for a GLB) into a Cast document, with
// errors and warnings named by JSON pointer. O(file size).
Expected<cast::Document> import_gltf(std::string_view json, const cast::SharedBytes* bin,
                                     std::size_t file_size, std::size_t walk_budget,
                                     const ReadContext& context, Diagnostics& diagnostics,
                                     const ReadOptions& options) {
    const std::string& file = context.name;
    // Buffers are side files of the context, looked for where their uri points (never in the
    // --textures folders), under the user's --allow-any-path and size limit.
    Context side_files{.name = context.name, .base = context.base, .folder = context.folder};
    side_files.options.side_files.allow_any_path = context.options.side_files.allow_any_path;
    side_files.options.side_files.max_size = context.options.side_files.max_size;
    auto parsed =
        detail::parse_gltf(json, bin, side_files, walk_budget, detail::memory_budget(file_size));
    if (!parsed) return make_error(parsed.error());
    if (auto checked = detail::check_required_extensions(parsed->model, file); !checked)
        return make_error(checked.error());
    if (auto decoded = detail::decode_meshopt(*parsed, file); !decoded)
        return make_error(decoded.error());
    if (auto decoded = detail::decode_draco(*parsed, file); !decoded)
        return make_error(decoded.error());

    detail::Importer importer(*parsed, file, options, diagnostics);
    // Embedded images travel in the document; with a texture folder they are also unpacked
    // there, as DMF's are.
    if (const auto& folders = context.options.side_files.folders; !folders.empty())
        importer.image_directory = folders.front();
    importer.side_outputs = formats::side_outputs_for(context.options);
    importer.world_output = context.options.world_output;
    if (auto resolved = importer.resolve_nodes(); !resolved) return make_error(resolved.error());
    importer.warn_unkept_content();
    cast::Document document;
    document.source_name = file;
    cast::Root root = document.add_root();
    if (auto imported = importer.import_models(root); !imported)
        return make_error(imported.error());
    if (auto imported = importer.import_animations(root); !imported)
        return make_error(imported.error());
    if (!importer.carried.empty())
        root.first_metadata().set_string("gltf", importer.carried.dump());
    document.embedded = std::move(importer.embedded);
    return document;
}

}  // namespace

Expected<cast::Document> open(const std::filesystem::path& path, Diagnostics& diagnostics,
                              const ReadOptions& options) {
    auto input = formats::read_input(path);
    if (!input) return make_error(input.error());
    // .glb and .gltf read alike: the bytes say which they are. The document's arrays may view
    // the mapping, which they keep alive.
    return read(*input, formats::context_for(path), diagnostics, options);
}

Expected<cast::Document> read(cast::Bytes bytes, const ReadContext& context,
                              Diagnostics& diagnostics, const ReadOptions& options) {
    return read(cast::SharedBytes{bytes, nullptr}, context, diagnostics, options);
}

Expected<cast::Document> read(const cast::SharedBytes& bytes, const ReadContext& context,
                              Diagnostics& diagnostics, const ReadOptions& options) {
    const std::string& file = context.name;
    if (bytes.size() > UINT_MAX)
        return make_error(detail::problem(file, "$", "files over 4 GiB are not supported",
                                          Severity::Error, "gltf.too-large"));
    const bool glb = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
    if (glb)
        if (auto checked = check_glb(bytes, file); !checked) return make_error(checked.error());
    if (auto nested = check_depth(bytes, glb, file); !nested) return make_error(nested.error());
    const auto walk_budget = check_dom_size(bytes, glb, file);
    if (!walk_budget) return make_error(walk_budget.error());
    const std::size_t json_offset = glb ? kGlbJsonOffset : 0;
    const std::string_view json = json_text(bytes, glb);
    const std::size_t first_warning = diagnostics.size();
    try {
        const std::optional<cast::SharedBytes> bin =
            glb ? binary_chunk(bytes) : std::optional<cast::SharedBytes>();
        auto document = import_gltf(json, bin ? &*bin : nullptr, bytes.size(), *walk_budget,
                                    context, diagnostics, options);
        diagnostics.update(first_warning,
                           [&](Diagnostic& d) { d = located(std::move(d), json, json_offset); });
        if (!document) return make_error(located(document.error(), json, json_offset));
        return document;
    } catch (const std::exception& exception) {  // out of memory, in the document's building
        return make_error(located(detail::problem(file, "", exception.what()), json, json_offset));
    }
}

}  // namespace castkit::gltf

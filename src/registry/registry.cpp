// The format registry: the list of formats, finding one by name or file name, and reading and
// writing through one (ids for findings, the check before every write, placed textures). It
// sits above src/formats, which never includes it.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/formats.hpp>
#include <cctype>
#include <deque>

#include "../platform/platform.hpp"
#include "entries.hpp"
#include "io/file_sink.hpp"
#include "io/texture_files.hpp"
#include "scene/write_check.hpp"

namespace castkit {

namespace {

// A deque, so that the references all_formats and format_by_name give survive a registration.
std::deque<FormatInfo>& registry() {
    static std::deque<FormatInfo> all = [] {
        std::vector<FormatInfo> own = formats::registered_formats();
        return std::deque<FormatInfo>(own.begin(), own.end());
    }();
    return all;
}

// Why `format` cannot join the registry, or empty. O(formats × extensions).
std::string registration_refusal(const FormatInfo& format) {
    if (format.name.empty()) return "a format needs a name";
    if (format.read == nullptr || format.write == nullptr)
        return fmt::format("format '{}' needs both a read and a write function", format.name);
    if (format_by_name(format.name) != nullptr)
        return fmt::format("a format named '{}' is registered already", format.name);
    for (std::string_view ext : format.extensions) {
        const bool lower = std::none_of(ext.begin(), ext.end(),
                                        [](unsigned char c) { return std::isupper(c) != 0; });
        if (ext.size() < 2 || ext.front() != '.' || !lower)
            return fmt::format("format '{}': extension '{}' is not '.' and a lower-case name",
                               format.name, ext);
        for (const FormatInfo& other : registry())
            for (std::string_view taken : other.extensions)
                if (taken == ext)
                    return fmt::format("format '{}': extension '{}' is format '{}''s already",
                                       format.name, ext, other.name);
    }
    return {};
}

}  // namespace

const std::deque<FormatInfo>& all_formats() { return registry(); }

Expected<void> register_format(FormatInfo format) {
    if (std::string refusal = registration_refusal(format); !refusal.empty())
        return make_error(Diagnostic{Severity::Error, "", Diagnostic::kNoOffset, "",
                                     "registry.format", std::move(refusal)});
    registry().push_back(std::move(format));
    return {};
}

const FormatInfo& cast_format() {
    static const FormatInfo& format = *format_by_name(formats::cast_entry().name);
    return format;
}

const FormatInfo& glb_format() {
    static const FormatInfo& format = *format_by_name(formats::glb_entry().name);
    return format;
}

namespace {

struct ExtensionMatch {
    const FormatInfo* format = nullptr;
    std::size_t length = 0;  // of the matched extension in the file name
};

// The format whose extension the file name ends with, the longest extension winning
// (".dmf.json" over ".json"); case-insensitive. O(formats × extensions).
ExtensionMatch match_extension(const std::filesystem::path& path) {
    std::string name = platform::utf8_of(path.filename());
    std::transform(name.begin(), name.end(), name.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    ExtensionMatch best;
    for (const FormatInfo& format : all_formats())
        for (std::string_view ext : format.extensions)
            if (name.size() > ext.size() && name.ends_with(ext) && ext.size() > best.length)
                best = {&format, ext.size()};
    return best;
}

}  // namespace

const FormatInfo* format_for_path(const std::filesystem::path& path) {
    return match_extension(path).format;
}

std::string file_stem(const std::filesystem::path& path) {
    const std::string name = platform::utf8_of(path.filename());
    const ExtensionMatch match = match_extension(path);
    if (match.format == nullptr) return platform::utf8_of(path.stem());
    return name.substr(0, name.size() - match.length);
}

const FormatInfo* format_by_name(std::string_view name) {
    for (const FormatInfo& format : all_formats())
        if (format.name == name) return &format;
    return nullptr;
}

namespace formats {
namespace {

// Every finding of one read or write gets a stable id: those the format left without one get
// "<format>.read" or "<format>.write" (docs/diagnostics.md). O(findings).
void identify(Diagnostic& d, std::string_view format, std::string_view phase) {
    if (d.rule.empty()) d.rule = fmt::format("{}.{}", format, phase);
}

// Every finding names the file it is about too: `file`, where the format named none.
template <class T>
Expected<T> identified(Expected<T> result, Diagnostics& diagnostics, std::size_t first_warning,
                       std::string_view format, std::string_view phase, std::string_view file) {
    diagnostics.name_unnamed(first_warning, fmt::format("{}.{}", format, phase), file);
    if (result) return result;
    Diagnostic error = result.error();
    identify(error, format, phase);
    return make_error(std::move(error));
}

}  // namespace

Expected<cast::Document> read(const FormatInfo& format, Input input, const ReadContext& context,
                              Diagnostics& diagnostics) {
    const std::size_t first_warning = diagnostics.size();
    auto document = identified(format.read(input, context, diagnostics), diagnostics, first_warning,
                               format.name, "read", context.name);
    if (document) return document;
    // Every read error names the file and a path; one about the file as a whole (its header,
    // its size) has the path "/" (docs/diagnostics.md).
    Diagnostic error = document.error();
    if (error.file.empty()) error.file = context.name;
    if (error.path.empty()) error.path.assign(1, '/');  // not = "/": GCC 12 -Wrestrict at -O3
    return make_error(std::move(error));
}

Expected<cast::Document> read_file(const FormatInfo& format, const std::filesystem::path& path,
                                   const ReadContext& context, Diagnostics& diagnostics) {
    auto input = read_input(path);
    if (!input) return make_error(input.error());
    return read(format, std::move(*input), context, diagnostics);
}

namespace {

// write() after the check before every write.
Expected<void> write_checked(const FormatInfo& format, const cast::Document& document, Sink& sink,
                             const WriteContext& context, Diagnostics& diagnostics) {
    const std::size_t first_warning = diagnostics.size();
    return identified(format.write(document, sink, context, diagnostics), diagnostics,
                      first_warning, format.name, "write",
                      context.name.empty() ? document.source_name : context.name);
}

// The check before every write, for every format but Cast: a Cast file is a container that
// keeps what it is given, any float bit pattern included (rule 13), and reads back the same.
Expected<std::optional<cast::Document>> check_for(const FormatInfo& format,
                                                  const cast::Document& document,
                                                  const WriteContext& context,
                                                  Diagnostics& diagnostics) {
    if (format.name == cast_format().name) return std::optional<cast::Document>();
    return scene::check_before_write(document, format.written_models, context, diagnostics);
}

}  // namespace

Expected<void> write(const FormatInfo& format, const cast::Document& document, Sink& sink,
                     const WriteContext& context, Diagnostics& diagnostics) {
    auto repaired = check_for(format, document, context, diagnostics);
    if (!repaired) return make_error(repaired.error());
    // Bytes have no folder beside them for the images the document carries.
    if (!format.places_own_images) warn_embedded_not_kept(document, context, diagnostics);
    return write_checked(format, *repaired ? **repaired : document, sink, context, diagnostics);
}

Expected<void> write_file(const FormatInfo& format, const cast::Document& document,
                          const std::filesystem::path& path, const WriteContext& context,
                          Diagnostics& diagnostics) {
    // Before any image is copied beside the output: a refused write leaves nothing behind.
    auto repaired = check_for(format, document, context, diagnostics);
    if (!repaired) return make_error(repaired.error());
    const cast::Document& checked = *repaired ? **repaired : document;
    const std::optional<cast::Document> placed =
        !format.places_own_images ? place_texture_files(checked, path, context, diagnostics)
                                  : std::nullopt;
    const cast::Document& written = placed ? *placed : checked;
    return write_to_path(path, [&](Sink& sink) {
        return write_checked(format, written, sink, context, diagnostics);
    });
}

std::vector<std::filesystem::path> output_files(const FormatInfo& format,
                                                const std::filesystem::path& path) {
    if (format.written_beside.empty() || path == "-") return {path};
    return {path, std::filesystem::path(path).replace_extension(format.written_beside)};
}

}  // namespace formats

}  // namespace castkit

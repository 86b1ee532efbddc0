// The format registry: the list of formats, finding one by name or file name, and reading and
// writing through one (ids for findings, the check before every write, placed textures). It
// sits above src/formats, which never includes it.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/registry.hpp>
#include <cctype>
#include <deque>
#include <functional>
#include <mutex>

#include "../cast/borrowed.hpp"
#include "../platform/platform.hpp"
#include "entries.hpp"
#include "io/file_sink.hpp"
#include "io/texture_files.hpp"
#include "scene/write_check.hpp"

namespace castkit {

namespace {

// The list and the lock around it. A deque, so that the references all_formats and
// format_by_name give survive a registration; its entries never change once in.
struct Registry {
    Registry() {
        for (FormatInfo& own : formats::registered_formats()) formats.push_back(std::move(own));
    }
    std::mutex lock;
    std::deque<FormatInfo> formats;
};

Registry& registry() {
    static Registry all;
    return all;
}

char lower(char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); }

bool same_blind_to_case(std::string_view a, std::string_view b) {
    return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                      [](char x, char y) { return lower(x) == lower(y); });
}

// Whether a file name can end with `ext`: '.' then dot-separated lower-case names of characters
// a file name may hold on every system castkit runs on (no '/', '\\', ':', '*', '?', '"', '<',
// '>', '|', no whitespace or control character), never an empty name between the dots.
bool ends_a_file_name(std::string_view ext) {
    constexpr std::string_view kRefused = "/\\:*?\"<>|";
    if (ext.size() < 2 || ext.front() != '.' || ext.back() == '.' || ext.find("..") != ext.npos)
        return false;
    return std::none_of(ext.begin(), ext.end(), [&](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return byte <= ' ' || byte == 0x7F || std::isupper(byte) != 0 ||
               kRefused.find(c) != kRefused.npos;
    });
}

// Why `ext`, one of `format`'s extensions, cannot join `taken`, or empty.
std::string extension_refusal(const FormatInfo& format, std::string_view ext,
                              const std::deque<FormatInfo>& taken) {
    if (!ends_a_file_name(ext))
        return fmt::format(
            "format '{}': extension '{}' is not '.' and a lower-case name a file name can end with",
            format.name, ext);
    for (const FormatInfo& other : taken)
        for (std::string_view had : other.extensions)
            if (had == ext)
                return fmt::format("format '{}': extension '{}' is format '{}''s already",
                                   format.name, ext, other.name);
    return {};
}

// Why `format`'s family cannot be, or empty: a family is named once, by its first member, and a
// format converts in a family exactly when it has one.
std::string family_refusal(const FormatInfo& format, const std::deque<FormatInfo>& taken) {
    if (format.family.empty() != (format.convert_in_family == nullptr))
        return fmt::format("format '{}' needs both a family and a convert_in_family, or neither",
                           format.name);
    for (const FormatInfo& other : taken)
        if (!format.family.empty() && same_blind_to_case(other.family, format.family))
            return fmt::format("format '{}': family '{}' is named by format '{}' already",
                               format.name, format.family, other.name);
    return {};
}

// Why `format` cannot join `taken`, or empty. O(formats × extensions).
std::string registration_refusal(const FormatInfo& format, const std::deque<FormatInfo>& taken) {
    if (format.name.empty()) return "a format needs a name";
    // A format may be written only (FBX): read() then refuses its files.
    if (format.write == nullptr)
        return fmt::format("format '{}' needs a write function", format.name);
    for (const FormatInfo& other : taken)
        if (same_blind_to_case(other.name, format.name))
            return fmt::format("a format named '{}' is registered already", other.name);
    std::vector<std::string_view> suffixes(format.extensions.begin(), format.extensions.end());
    if (!format.written_beside.empty()) suffixes.push_back(format.written_beside);
    for (std::string_view ext : suffixes)
        if (std::string refusal = extension_refusal(format, ext, taken); !refusal.empty())
            return refusal;
    return family_refusal(format, taken);
}

}  // namespace

std::vector<std::reference_wrapper<const FormatInfo>> all_formats() {
    Registry& all = registry();
    const std::lock_guard hold(all.lock);
    return {all.formats.begin(), all.formats.end()};
}

Expected<void> register_format(FormatInfo format) {
    Registry& all = registry();
    const std::lock_guard hold(all.lock);
    if (std::string refusal = registration_refusal(format, all.formats); !refusal.empty())
        return make_error(Diagnostic{Severity::Error, "", Diagnostic::kNoOffset, "",
                                     "registry.format", std::move(refusal)});
    all.formats.push_back(std::move(format));
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
    std::transform(name.begin(), name.end(), name.begin(), lower);
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
        if (same_blind_to_case(format.name, name)) return &format;
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

// What a format's function threw, as an error: `doing` names the function, `file` the file.
Diagnostic thrown(const FormatInfo& format, std::string_view doing, std::string_view file,
                  std::string_view what) {
    return Diagnostic{Severity::Error,
                      std::string(file),
                      Diagnostic::kNoOffset,
                      "/",
                      "registry.exception",
                      fmt::format("format '{}' threw from its {}: {}", format.name, doing, what)};
}

// `call()`, a call of one of `format`'s functions, with whatever it throws returned as an error
// registry.exception: nothing thrown by a format (a plug-in's) leaves the registry's calls, and
// a batch's worker threads do not end the process. std::bad_alloc goes through, as from
// castkit's own readers: its callers report running out of memory (io.out-of-memory).
template <class Call>
auto guarded(const FormatInfo& format, std::string_view doing, std::string_view file, Call call)
    -> decltype(call()) {
    try {
        return call();
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        return make_error(thrown(format, doing, file, e.what()));
    } catch (...) {
        return make_error(thrown(format, doing, file, "something not a std::exception"));
    }
}

}  // namespace

namespace {

// The refusal of a file of a format castkit writes but does not read, naming those it reads.
Diagnostic not_read(const FormatInfo& format, const ReadContext& context) {
    std::string readable;
    for (const FormatInfo& other : all_formats())
        if (other.read != nullptr)
            readable += fmt::format("{}{}", readable.empty() ? "" : ", ", other.name);
    return Diagnostic{
        Severity::Error,
        context.name,
        Diagnostic::kNoOffset,
        "/",
        "registry.write-only",
        fmt::format("castkit writes {} but does not read it; it reads {}", format.name, readable)};
}

}  // namespace

Expected<cast::Document> read(const FormatInfo& format, Input input, const ReadContext& context,
                              Diagnostics& diagnostics) {
    if (format.read == nullptr) return make_error(not_read(format, context));
    const std::size_t first_warning = diagnostics.size();
    auto parsed = guarded(format, "read", context.name,
                          [&] { return format.read(input, context, diagnostics); });
    // Once this returns the caller may let the input go: nothing may view it without its owner.
    if (parsed) cast::hold_borrowed(*parsed, input);
    auto document = identified(std::move(parsed), diagnostics, first_warning, format.name, "read",
                               context.name);
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
    const std::string_view file = context.name.empty() ? document.source_name : context.name;
    auto written = guarded(format, "write", file,
                           [&] { return format.write(document, sink, context, diagnostics); });
    return identified(std::move(written), diagnostics, first_warning, format.name, "write", file);
}

// A document whose Metadata says units other than those `format` defines for every file (glTF's
// metres): its lengths are written as they are, so a reader takes them for the format's.
void warn_other_units(const FormatInfo& format, const cast::Document& document,
                      const WriteContext& context, Diagnostics& diagnostics) {
    const std::optional<scene::Units> said = scene::said_units(document);
    if (!format.units || !said || *said == *format.units) return;
    const std::string_view to = scene::units_name(*format.units);
    diagnostics.push_back(
        {.severity = Severity::Warning,
         .file = std::string(context.name.empty() ? document.source_name : context.name),
         .path = "",
         .rule = "axes.units-differ",
         .message = fmt::format("the document says its lengths are in {} (Metadata `units`), but "
                                "{} files are in {}: written as they are, they read {:.4g} times "
                                "their size (convert --units {} scales them)",
                                scene::units_name(*said), format.name, to,
                                scene::metres_per(*format.units) / scene::metres_per(*said), to)});
}

// The check before every write, for every format that does not keep a document as it is given
// (Cast does, any float bit pattern included).
Expected<std::optional<cast::Document>> check_for(const FormatInfo& format,
                                                  const cast::Document& document,
                                                  const WriteContext& context,
                                                  Diagnostics& diagnostics) {
    if (format.keeps_documents_as_given) return std::optional<cast::Document>();
    warn_other_units(format, document, context, diagnostics);
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

Expected<std::vector<std::string>> referenced_files(const FormatInfo& format,
                                                    std::span<const std::byte> bytes) {
    if (format.referenced_files == nullptr) return std::vector<std::string>();
    return guarded(format, "referenced_files", "", [&]() -> Expected<std::vector<std::string>> {
        return format.referenced_files(bytes);
    });
}

Expected<void> convert_in_family(const FormatInfo& from, std::span<const std::byte> bytes,
                                 std::string_view name, const FormatInfo& to,
                                 const std::filesystem::path& output, Diagnostics& warnings) {
    if (!converts_in_family(from, to))
        return make_error(Diagnostic{
            Severity::Error, std::string(name), Diagnostic::kNoOffset, "/", "registry.format",
            fmt::format("format '{}' does not convert into '{}' directly", from.name, to.name)});
    return guarded(from, "convert_in_family", name,
                   [&] { return from.convert_in_family(bytes, name, to, output, warnings); });
}

std::vector<std::filesystem::path> output_files(const FormatInfo& format,
                                                const std::filesystem::path& path) {
    if (format.written_beside.empty() || path == "-") return {path};
    return {path, std::filesystem::path(path).replace_extension(format.written_beside)};
}

}  // namespace formats

}  // namespace castkit

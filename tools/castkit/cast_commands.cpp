// info and dump: the commands that read any format castkit reads; also the helpers every
// command shares (loading, format options, standard output).
#include <fmt/format.h>

#include <castkit/cast/dump.hpp>
#include <castkit/json.hpp>
#include <castkit/platform.hpp>
#include <castkit/registry.hpp>
#include <cstdio>
#include <filesystem>
#include <new>

#include "commands.hpp"

namespace castkit::cli {

void print_diagnostics(const Diagnostics& diagnostics) {
    for (const Diagnostic& d : diagnostics.shown()) fmt::print(stderr, "{}\n", d.to_string());
}

void print_error(Diagnostic error, const std::string& file) {
    if (error.file.empty()) error.file = file;
    fmt::print(stderr, "{}\n", error.to_string());
}

bool print_stdout(std::string_view text, int& exit_code) {
    auto written = platform::write_stdout(std::as_bytes(std::span(text.data(), text.size())));
    if (written) return true;
    fmt::print(stderr, "castkit: {}\n", written.error().to_string());
    fail(exit_code, kInvalidInput);
    return false;
}

void add_examples(CLI::App* command, std::initializer_list<std::string_view> examples) {
    std::string text =
        "\nExamples (from the top of castkit's source folder, after mkdir -p scratch):\n";
    for (std::string_view example : examples)
        fmt::format_to(std::back_inserter(text), "  {}\n", example);
    command->footer(text);
}

std::vector<std::string> format_names() {
    std::vector<std::string> names;
    for (const FormatInfo& format : all_formats()) names.emplace_back(format.name);
    return names;
}

// The registered formats that castkit reads (`writes` false) or writes, with their extensions:
// "cast (.cast), seanim (.seanim), …". O(formats).
static std::string formats_that(bool writes) {
    std::string list;
    for (const FormatInfo& format : all_formats()) {
        if ((writes ? format.write == nullptr : format.read == nullptr)) continue;
        std::string extensions;
        for (const std::string& extension : format.extensions)
            extensions += (extensions.empty() ? "" : ", ") + extension;
        fmt::format_to(std::back_inserter(list), "{}{} ({})", list.empty() ? "" : ", ", format.name,
                       extensions);
    }
    return list;
}

std::string formats_read_and_written() {
    return fmt::format("castkit reads: {}\ncastkit writes: {}", formats_that(false),
                       formats_that(true));
}

const FormatInfo* output_format(const std::string& path, const std::string& name, int& exit_code) {
    const FormatInfo* format = !name.empty() ? format_by_name(name)
                               : path == "-" ? &cast_format()
                                             : format_for_path(platform::path_from_utf8(path));
    if (format != nullptr && format->write != nullptr) return format;
    if (format != nullptr)
        fmt::print(stderr, "castkit: {}: castkit reads {} but does not write it\n", path,
                   format->name);
    else if (!name.empty())
        fmt::print(stderr, "castkit: unknown format '{}'\n", name);
    else
        fmt::print(stderr, "castkit: {}: cannot tell the format from the extension; use --to\n",
                   path);
    fmt::print(stderr, "{}\n", formats_read_and_written());
    fail(exit_code, kUsage);
    return nullptr;
}

CLI::Option* add_format_option(CLI::App* command, const char* flag, std::string& target,
                               const char* help) {
    return command->add_option(flag, target, help)->check(CLI::IsMember(format_names()));
}

namespace {

// The name an input goes by in messages.
std::string display_name(const std::string& path) { return path == "-" ? "<stdin>" : path; }

// Why `bytes`, read from `path`, are read as no format: `format` (named, or by the extension)
// is one castkit only writes, they are an image, or they are of no format castkit knows.
std::string why_unread(const std::string& path, std::span<const std::byte> bytes,
                       const FormatInfo* format) {
    if (format != nullptr)
        return fmt::format("castkit writes {} but does not read it", format->name);
    const std::string_view image = path == "-"
                                       ? image_format_of(bytes, {})
                                       : image_format_of(bytes, platform::path_from_utf8(path));
    if (!image.empty())
        return fmt::format(
            "a {} image: castkit reads no scene from an image; the models whose materials name "
            "it carry it with them (convert the model)",
            image);
    return fmt::format("cannot tell the format from {}; use --from",
                       path == "-" ? "the contents" : "the extension or the contents");
}

}  // namespace

SourceError unreadable(const std::string& path, Diagnostic why) {
    std::error_code error;
    const std::filesystem::path file = platform::path_from_utf8(path);
    if (path != "-" && !std::filesystem::exists(file, error))
        return {std::move(why), kInvalidInput, "no such file or folder"};
    if (path != "-" && std::filesystem::is_directory(file, error))
        return {std::move(why), kUsage,
                "a folder: convert one with `castkit convert DIR -o OUTDIR --to FORMAT`"};
    return {std::move(why), kInvalidInput, {}};
}

std::variant<Source, SourceError> open_source(const std::string& path,
                                              const std::string& format_name) {
    // The folder is held before the input is read, for the side files it names.
    auto folder = formats::context_for(platform::path_from_utf8(path)).folder;
    auto input = formats::read_input(platform::path_from_utf8(path));
    if (!input) return unreadable(path, input.error());
    return source_of(path, std::move(*input), format_name, std::move(folder));
}

std::variant<Source, SourceError> source_of(const std::string& path, formats::Input input,
                                            const std::string& format_name,
                                            std::shared_ptr<const platform::OpenedFolder> folder) {
    const FormatInfo* format = nullptr;
    if (!format_name.empty())
        format = format_by_name(format_name);
    else if (path != "-")
        format = format_for_path(platform::path_from_utf8(path));
    // Standard input and extensions that name no format: the first bytes tell.
    if (format == nullptr) format = format_for_bytes(input.bytes);
    if (format != nullptr && format->read != nullptr)
        return Source{std::move(input), format, std::move(folder)};
    Diagnostic why;
    why.file = display_name(path);
    why.message = "cannot tell the format";
    return SourceError{
        std::move(why), kUsage,
        fmt::format("{}\n{}", why_unread(path, input.bytes, format), formats_read_and_written())};
}

void print_source_error(const std::string& path, const SourceError& error) {
    if (error.words.empty())
        fmt::print(stderr, "{}\n", error.diagnostic.to_string());
    else
        fmt::print(stderr, "castkit: {}: {}\n", display_name(path), error.words);
}

// read_source(), where running out of memory throws std::bad_alloc.
static std::optional<Loaded> read_or_throw(const std::string& path, Source source,
                                           const FormatOptions& options, int& exit_code) {
    const std::uint64_t size = source.input.bytes.size();
    ReadContext context = formats::context_for(platform::path_from_utf8(path), options);
    context.folder = source.folder;
    Diagnostics diagnostics;
    auto document = formats::read(*source.format, std::move(source.input), context, diagnostics);
    print_diagnostics(diagnostics);
    if (!document) {
        fmt::print(stderr, "{}\n", document.error().to_string());
        fail(exit_code, kInvalidInput);
        return std::nullopt;
    }
    return Loaded{std::move(*document), size, source.format, source.folder};
}

static void out_of_memory(const std::string& path, int& exit_code) {
    fmt::print(stderr, "castkit: out of memory reading {}\n", display_name(path));
    fail(exit_code, kInvalidInput);
}

std::optional<Loaded> read_source(const std::string& path, Source source,
                                  const FormatOptions& options, int& exit_code) {
    try {
        return read_or_throw(path, std::move(source), options, exit_code);
    } catch (const std::bad_alloc&) {
        out_of_memory(path, exit_code);
        return std::nullopt;
    }
}

std::optional<Source> open_or_fail(const std::string& path, const std::string& format_name,
                                   int& exit_code) {
    try {
        auto opened = open_source(path, format_name);
        if (auto* source = std::get_if<Source>(&opened)) return std::move(*source);
        const SourceError& error = std::get<SourceError>(opened);
        print_source_error(path, error);
        fail(exit_code, error.code);
    } catch (const std::bad_alloc&) {
        out_of_memory(path, exit_code);  // standard input larger than memory
    }
    return std::nullopt;
}

std::optional<Loaded> load(const std::string& path, const std::string& format_name,
                           const FormatOptions& options, int& exit_code) {
    auto source = open_or_fail(path, format_name, exit_code);
    if (!source) return std::nullopt;
    return read_source(path, std::move(*source), options, exit_code);
}

void register_cast_commands(CLI::App& app, int& exit_code) {
    struct Options {
        std::vector<std::string> inputs;
        std::string input, from;
        bool json = false;
        bool every_instance = false;  // info --all
        FormatOptions format_options;
        std::size_t max_elements = 8;
    };
    auto options = std::make_shared<Options>();

    CLI::App* info = app.add_subcommand("info", "Summarise what files hold");
    info->add_option("files", options->inputs, "Files to summarise ('-' for stdin)")->required();
    add_format_option(info, "--from", options->from,
                      "Input format, when the extension does not say");
    info->add_flag("--all", options->every_instance,
                   "List every instance of a map, besides the summary by referenced file");
    info->add_flag("--json", options->json,
                   "Print the same as one JSON object, {\"files\":[…]} (schema: docs/cli.md)");
    info->callback([options, &exit_code] {
        std::string json_text;
        json::Writer json(json_text);
        json.begin_object();
        json.key("files");
        json.begin_array();
        for (const std::string& path : options->inputs) {
            auto loaded = load(path, options->from, options->format_options, exit_code);
            if (!loaded) continue;
            cast::InfoOptions info = info_options(*loaded->format);
            info.every_instance = options->every_instance;
            if (options->json)
                cast::info_json(loaded->document, loaded->input_bytes, info, json);
            else if (!print_stdout(cast::info_text(loaded->document, loaded->input_bytes, info),
                                   exit_code))
                return;
        }
        json.end_array();
        json.end_object();
        if (options->json) print_stdout(json_text + "\n", exit_code);
    });

    add_examples(
        info, {"castkit info examples/data/hero/hero.semodel examples/data/hero/hero_walk.seanim",
               "castkit info --json examples/map/map.cast"});

    CLI::App* dump = app.add_subcommand("dump", "Print the node tree of a file");
    add_examples(dump, {"castkit dump examples/data/character.cast",
                        "castkit dump --json examples/data/hero/hero.semodel"});
    dump->add_option("file", options->input, "File to dump ('-' for stdin)")->required();
    dump->add_flag("--json", options->json, "Print every value as JSON (castkit's dump schema)");
    dump->add_option("--max-elements", options->max_elements, "Array elements shown in text mode");
    add_format_option(dump, "--from", options->from,
                      "Input format, when the extension does not say");
    dump->callback([options, &exit_code] {
        auto loaded = load(options->input, options->from, options->format_options, exit_code);
        if (!loaded) return;
        if (!options->json) {
            cast::dump_text(loaded->document, {.max_elements = options->max_elements},
                            [&](std::string_view piece) { return print_stdout(piece, exit_code); });
            return;
        }
        std::string out;
        cast::dump_json(loaded->document, out);
        print_stdout(out, exit_code);
    });
}

}  // namespace castkit::cli

// info and dump: the commands that work on any format castkit reads.
#include <fmt/format.h>

#include <castkit/cast/dump.hpp>
#include <castkit/formats.hpp>
#include <cstdio>

#include "../../src/platform/platform.hpp"
#include "commands.hpp"

namespace castkit::cli {

void print_diagnostics(const Diagnostics& diagnostics) {
    for (const Diagnostic& d : diagnostics) fmt::print(stderr, "{}\n", d.to_string());
}

const FormatInfo* pick_format(const std::string& path, const std::string& name) {
    if (!name.empty()) {
        const FormatInfo* format = format_by_name(name);
        if (format == nullptr) fmt::print(stderr, "castkit: unknown format '{}'\n", name);
        return format;
    }
    if (path == "-") return format_by_name("cast");
    const FormatInfo* format = format_for_path(path);
    if (format == nullptr)
        fmt::print(stderr,
                   "castkit: {}: cannot tell the format from the extension; use --from/--to\n",
                   path);
    return format;
}

namespace {

void print_stdout(const std::string& text) {
    (void)platform::write_stdout(std::as_bytes(std::span(text)));
}

std::uint64_t size_on_disk(const std::string& path) {
    std::error_code ec;
    auto size = std::filesystem::file_size(platform::path_from_utf8(path), ec);
    return ec ? 0 : size;
}

}  // namespace

std::optional<cast::Document> load(const std::string& path, const std::string& format_name) {
    const FormatInfo* format = pick_format(path, format_name);
    if (format == nullptr) return std::nullopt;
    Diagnostics warnings;
    auto document = format->read(platform::path_from_utf8(path), warnings);
    if (!document) {
        fmt::print(stderr, "{}\n", document.error().to_string());
        return std::nullopt;
    }
    if (format->name != "cast") document->warnings = warnings;
    return std::move(*document);
}

void register_cast_commands(CLI::App& app, int& exit_code) {
    struct Options {
        std::vector<std::string> inputs;
        std::string input, output, from, to;
        bool json = false;
        std::size_t max_elements = 8;
    };
    auto options = std::make_shared<Options>();

    CLI::App* info = app.add_subcommand("info", "Summarise what files hold");
    info->add_option("files", options->inputs, "Files to summarise ('-' for stdin)")->required();
    info->add_option("--from", options->from, "Input format, when the extension does not say");
    info->callback([options, &exit_code] {
        for (const std::string& path : options->inputs) {
            auto document = load(path, options->from);
            if (!document) {
                exit_code = kInvalidInput;
                continue;
            }
            // Standard input has no size on disk; a Cast document's own size is the same number.
            std::uint64_t bytes = path == "-" ? cast::file_size(*document) : size_on_disk(path);
            const FormatInfo* format =
                options->from.empty() ? format_for_path(path) : format_by_name(options->from);
            std::string_view name = format != nullptr ? format->name : "cast";
            print_stdout(cast::info_text(*document, bytes, name));
        }
    });

    CLI::App* dump = app.add_subcommand("dump", "Print the node tree of a file");
    dump->add_option("file", options->input, "File to dump ('-' for stdin)")->required();
    dump->add_flag("--json", options->json, "Print every value as JSON (castkit's dump schema)");
    dump->add_option("--max-elements", options->max_elements, "Array elements shown in text mode");
    dump->add_option("--from", options->from, "Input format, when the extension does not say");
    dump->callback([options, &exit_code] {
        auto document = load(options->input, options->from);
        if (!document) {
            exit_code = kInvalidInput;
            return;
        }
        print_diagnostics(document->warnings);
        std::string out;
        if (options->json)
            cast::dump_json(*document, out);
        else
            out = cast::dump_text(*document, {.max_elements = options->max_elements});
        print_stdout(out);
    });
}

}  // namespace castkit::cli

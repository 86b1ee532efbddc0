// info and dump: the commands that read any format castkit reads; also the helpers every
// command shares (loading, format options, standard output).
#include <fmt/format.h>

#include <castkit/cast/dump.hpp>
#include <castkit/formats.hpp>
#include <castkit/platform.hpp>
#include <cstdio>
#include <new>

#include "commands.hpp"

namespace castkit::cli {

void print_diagnostics(const Diagnostics& diagnostics) {
    for (const Diagnostic& d : diagnostics.shown()) fmt::print(stderr, "{}\n", d.to_string());
}

bool print_stdout(std::string_view text, int& exit_code) {
    auto written = platform::write_stdout(std::as_bytes(std::span(text.data(), text.size())));
    if (written) return true;
    fmt::print(stderr, "castkit: {}\n", written.error().to_string());
    fail(exit_code, kInvalidInput);
    return false;
}

std::vector<std::string> format_names() {
    std::vector<std::string> names;
    for (const FormatInfo& format : all_formats()) names.emplace_back(format.name);
    return names;
}

const FormatInfo* pick_format(const std::string& path, const std::string& name,
                              std::string_view fallback, int& exit_code) {
    const FormatInfo* format = nullptr;
    if (!name.empty())
        format = format_by_name(name);
    else if (path == "-")
        format = format_by_name(fallback);
    else
        format = format_for_path(path);
    if (format != nullptr) return format;
    if (!name.empty())
        fmt::print(stderr, "castkit: unknown format '{}'\n", name);
    else
        fmt::print(stderr,
                   "castkit: {}: cannot tell the format from the extension; use --from/--to\n",
                   path);
    fail(exit_code, kUsage);
    return nullptr;
}

CLI::Option* add_format_option(CLI::App* command, const char* flag, std::string& target,
                               const char* help) {
    return command->add_option(flag, target, help)->check(CLI::IsMember(format_names()));
}

// load(), where running out of memory throws std::bad_alloc.
static std::optional<Loaded> load_or_throw(const std::string& path, const std::string& format_name,
                                           const FormatOptions& options, int& exit_code) {
    const FormatInfo* format = pick_format(path, format_name, "cast", exit_code);
    if (format == nullptr) return std::nullopt;
    auto input = formats::read_input(platform::path_from_utf8(path));
    if (!input) {
        fmt::print(stderr, "{}\n", input.error().to_string());
        fail(exit_code, kInvalidInput);
        return std::nullopt;
    }
    const std::uint64_t size = input->bytes.size();
    const ReadContext context = formats::context_for(platform::path_from_utf8(path), options);
    Diagnostics diagnostics;
    auto document = formats::read(*format, std::move(*input), context, diagnostics);
    print_diagnostics(diagnostics);
    if (!document) {
        fmt::print(stderr, "{}\n", document.error().to_string());
        fail(exit_code, kInvalidInput);
        return std::nullopt;
    }
    return Loaded{std::move(*document), size, format->name};
}

std::optional<Loaded> load(const std::string& path, const std::string& format_name,
                           const FormatOptions& options, int& exit_code) {
    try {
        return load_or_throw(path, format_name, options, exit_code);
    } catch (const std::bad_alloc&) {
        fmt::print(stderr, "castkit: out of memory reading {}\n", path == "-" ? "<stdin>" : path);
        fail(exit_code, kInvalidInput);
        return std::nullopt;
    }
}

void register_cast_commands(CLI::App& app, int& exit_code) {
    struct Options {
        std::vector<std::string> inputs;
        std::string input, from;
        bool json = false;
        FormatOptions format_options;
        std::size_t max_elements = 8;
    };
    auto options = std::make_shared<Options>();

    CLI::App* info = app.add_subcommand("info", "Summarise what files hold");
    info->add_option("files", options->inputs, "Files to summarise ('-' for stdin)")->required();
    add_format_option(info, "--from", options->from,
                      "Input format, when the extension does not say");
    info->callback([options, &exit_code] {
        for (const std::string& path : options->inputs) {
            auto loaded = load(path, options->from, options->format_options, exit_code);
            if (!loaded) continue;
            if (!print_stdout(
                    cast::info_text(loaded->document, loaded->input_bytes, loaded->format),
                    exit_code))
                return;
        }
    });

    CLI::App* dump = app.add_subcommand("dump", "Print the node tree of a file");
    dump->add_option("file", options->input, "File to dump ('-' for stdin)")->required();
    dump->add_flag("--json", options->json, "Print every value as JSON (castkit's dump schema)");
    dump->add_option("--max-elements", options->max_elements, "Array elements shown in text mode");
    add_format_option(dump, "--from", options->from,
                      "Input format, when the extension does not say");
    dump->callback([options, &exit_code] {
        auto loaded = load(options->input, options->from, options->format_options, exit_code);
        if (!loaded) return;
        std::string out;
        if (options->json)
            cast::dump_json(loaded->document, out);
        else
            out = cast::dump_text(loaded->document, {.max_elements = options->max_elements});
        print_stdout(out, exit_code);
    });
}

}  // namespace castkit::cli

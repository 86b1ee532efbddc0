// info, dump and convert: the commands that work on any format castkit reads.
#include <fmt/format.h>

#include <castkit/cast/dump.hpp>
#include <castkit/formats.hpp>
#include <castkit/formats/dmf.hpp>
#include <cstdio>

#include "../../src/platform/platform.hpp"
#include "commands.hpp"

namespace castkit::cli {

void print_diagnostics(const Diagnostics& diagnostics) {
    for (const Diagnostic& d : diagnostics) fmt::print(stderr, "{}\n", d.to_string());
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

namespace {

// The format `name` names, else the one `path`'s extension names ("-" is `fallback`). An
// unknown name or extension is a usage error.
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

// The formats' option for --from and --to: one of the registered names.
CLI::Option* add_format_option(CLI::App* command, const char* flag, std::string& target,
                               const char* help) {
    return command->add_option(flag, target, help)->check(CLI::IsMember(format_names()));
}

// DMF to DMF (binary or JSON) converts the model itself: through the Cast document, what only
// DMF holds (material settings, embedded images) would be lost. O(size).
Expected<void> convert_dmf(const FormatInfo& from, const FormatInfo& to, const std::string& input,
                           const std::string& output, Diagnostics& warnings) {
    const std::filesystem::path in = platform::path_from_utf8(input);
    auto bytes = formats::read_input(in);
    if (!bytes) return make_error(bytes.error());
    const std::string name = formats::context_for(in).name;
    const std::string_view text(reinterpret_cast<const char*>(bytes->bytes.data()),
                                bytes->bytes.size());
    auto model = from.name == "dmf" ? dmf::read(bytes->bytes, name, warnings)
                                    : dmf::read_json(text, name, warnings);
    if (!model) return make_error(model.error());
    const std::filesystem::path out = platform::path_from_utf8(output);
    return to.name == "dmf" ? dmf::write(*model, out) : dmf::write_json(*model, out);
}

bool is_dmf(const FormatInfo& format) { return format.name == "dmf" || format.name == "dmf-json"; }

}  // namespace

std::optional<Loaded> load(const std::string& path, const std::string& format_name,
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
    auto document = formats::read(*format, std::move(*input), context);
    print_diagnostics(context.warnings);
    if (!document) {
        fmt::print(stderr, "{}\n", document.error().to_string());
        fail(exit_code, kInvalidInput);
        return std::nullopt;
    }
    return Loaded{std::move(*document), size, format->name};
}

void register_cast_commands(CLI::App& app, int& exit_code) {
    struct Options {
        std::vector<std::string> inputs;
        std::string input, output, from, to, textures;
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

    CLI::App* convert =
        app.add_subcommand("convert", "Convert between formats (or rewrite a file)");
    convert->add_option("input", options->input, "Input file ('-' for stdin)")->required();
    convert->add_option("output", options->output, "Output file ('-' for stdout)")->required();
    add_format_option(convert, "--from", options->from, "Input format, overriding the extension");
    add_format_option(convert, "--to", options->to, "Output format, overriding the extension");
    convert->add_flag("--inline-instances", options->format_options.inline_instances,
                      "glTF: merge the files Instances reference instead of naming them");
    convert->add_option("--textures", options->textures,
                        "DMF: the folder texture images are written to (from DMF) or read from (to DMF)");
    convert->callback([options, &exit_code] {
        // The output format first: a usage error should not wait for a large input to parse.
        const FormatInfo* format = pick_format(options->output, options->to, "cast", exit_code);
        if (format == nullptr) return;
        options->format_options.texture_directory = platform::path_from_utf8(options->textures);
        if (is_dmf(*format)) {
            const FormatInfo* from = pick_format(options->input, options->from, "cast", exit_code);
            if (from == nullptr) return;
            if (is_dmf(*from)) {
                Diagnostics warnings;
                auto converted =
                    convert_dmf(*from, *format, options->input, options->output, warnings);
                print_diagnostics(warnings);
                if (!converted) {
                    fmt::print(stderr, "{}\n", converted.error().to_string());
                    fail(exit_code, kInvalidInput);
                }
                return;
            }
        }
        auto loaded = load(options->input, options->from, options->format_options, exit_code);
        if (!loaded) return;
        // Relative names in the document (textures, instances) resolve beside the input.
        const std::filesystem::path output = platform::path_from_utf8(options->output);
        WriteContext context = formats::context_for(output, options->format_options);
        context.base = formats::context_for(platform::path_from_utf8(options->input)).base;
        auto written = formats::write_file(*format, loaded->document, output, context);
        print_diagnostics(context.warnings);
        if (!written) {
            fmt::print(stderr, "{}\n", written.error().to_string());
            fail(exit_code, kInvalidInput);
        }
    });
}

}  // namespace castkit::cli

// convert: one file to another format, a model with its animation files merged into one scene,
// or a whole folder (batch.cpp).
#include <fmt/format.h>

#include <castkit/formats.hpp>
#include <castkit/formats/merge.hpp>
#include <map>

#include "../../src/platform/platform.hpp"
#include "batch.hpp"
#include "commands.hpp"

namespace castkit::cli {
namespace {

struct ConvertOptions {
    std::vector<std::string> inputs;
    std::string output, from, to;
    std::vector<std::string> anims_dirs, texture_dirs;
    std::string report;
    WriteOptions write_options;
    BatchOptions batch;
};

// Reads every animation file and merges it into `document`; false when any animation failed.
bool merge_animations(cast::Document& document, const std::vector<std::string>& paths,
                      const std::string& from) {
    std::vector<formats::AnimationSource> sources;
    bool ok = true;
    for (const std::string& path : paths) {
        auto animation = load(path, from);
        if (!animation) {
            ok = false;
            continue;
        }
        print_diagnostics(animation->warnings);
        sources.push_back({std::move(*animation), source_stem(path)});
    }
    Diagnostics diagnostics;
    formats::merge(document, std::move(sources), diagnostics);
    print_diagnostics(diagnostics);
    return ok && !has_severity(diagnostics, Severity::Error);
}

int convert_one(const ConvertOptions& options, const std::string& input,
                const std::vector<std::string>& animations, const std::string& output) {
    auto document = load(input, options.from);
    if (!document) return kInvalidInput;
    print_diagnostics(document->warnings);
    const bool merged = animations.empty() || merge_animations(*document, animations, options.from);
    std::string to = options.to;
    if (to.empty() && output == "-") to = "cast";
    const FormatInfo* format = pick_format(output, to);
    if (format == nullptr) return kUsage;
    Diagnostics warnings;
    auto written =
        format->write(*document, platform::path_from_utf8(output), options.write_options, warnings);
    print_diagnostics(warnings);
    if (!written) {
        fmt::print(stderr, "{}\n", written.error().to_string());
        return kInvalidInput;
    }
    return merged ? kSuccess : kInvalidInput;
}

int run_convert(ConvertOptions& options) {
    std::vector<std::string> animations;
    for (const std::string& dir : options.anims_dirs) {
        auto found = readable_files(platform::path_from_utf8(dir), true);
        if (!found) {
            fmt::print(stderr, "{}\n", found.error().to_string());
            return kUsage;
        }
        for (const auto& path : *found) animations.push_back(platform::utf8_of(path));
    }
    for (const std::string& dir : options.texture_dirs)
        options.write_options.side_files.folders.push_back(platform::path_from_utf8(dir));
    if (options.output.empty()) {
        // The two-argument form: `castkit convert IN OUT`.
        if (options.inputs.size() != 2 || !animations.empty()) {
            fmt::print(stderr, "castkit: convert: give IN OUT, or INPUT... -o OUT\n");
            return kUsage;
        }
        return convert_one(options, options.inputs[0], {}, options.inputs[1]);
    }
    std::error_code error;
    if (std::filesystem::is_directory(platform::path_from_utf8(options.inputs[0]), error)) {
        if (options.inputs.size() != 1) {
            fmt::print(stderr, "castkit: convert: a folder is converted on its own\n");
            return kUsage;
        }
        options.batch.input_dir = platform::path_from_utf8(options.inputs[0]);
        options.batch.output_dir = platform::path_from_utf8(options.output);
        options.batch.report = platform::path_from_utf8(options.report);
        options.batch.from = options.from;
        options.batch.to = options.to;
        for (const std::string& animation : animations)
            options.batch.animations.push_back(platform::path_from_utf8(animation));
        options.batch.write_options = options.write_options;
        return run_batch(options.batch);
    }
    animations.insert(animations.begin(), options.inputs.begin() + 1, options.inputs.end());
    return convert_one(options, options.inputs[0], animations, options.output);
}

}  // namespace

void register_convert_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<ConvertOptions>();
    CLI::App* convert = app.add_subcommand(
        "convert",
        "Convert a file (IN OUT), a model and its animations (MODEL ANIM... -o OUT), or a "
        "folder (DIR -o OUTDIR --to FORMAT)");
    convert->add_option("inputs", options->inputs, "Input files or one folder ('-' for stdin)")
        ->required();
    convert->add_option("-o,--output", options->output,
                        "Output file (or folder, for a folder input; '-' for stdout)");
    convert->add_option("--from", options->from, "Input format, overriding the extension");
    convert->add_option("--to", options->to, "Output format, overriding the extension");
    convert->add_option("--anims", options->anims_dirs,
                        "Attach every animation file under this folder to the model(s)");
    convert->add_flag("--inline-instances", options->write_options.inline_instances,
                      "glTF: merge the files Instances reference instead of naming them");
    convert->add_option("--textures", options->texture_dirs,
                        "Folder searched for texture files after the source file's own "
                        "(repeatable)");
    convert->add_flag("--allow-any-path", options->write_options.side_files.allow_any_path,
                      "Read files the input names anywhere: absolute paths, '..' and links");
    const std::map<std::string, TextureMode> modes{{"embed", TextureMode::Embed},
                                                   {"copy", TextureMode::Copy},
                                                   {"reference", TextureMode::Reference}};
    convert
        ->add_option("--texture-mode", options->write_options.textures,
                     "glTF: embed (default for .glb), copy (default for .gltf) or reference")
        ->transform(CLI::CheckedTransformer(modes, CLI::ignore_case));
    convert->add_option("-j,--jobs", options->batch.jobs,
                        "Folder: files converted at once (default: every core)");
    convert->add_flag("-r,--recursive", options->batch.recursive, "Folder: include sub-folders");
    convert->add_flag("-q,--quiet", options->batch.quiet, "Folder: no progress line or summary");
    convert->add_flag("-f,--force", options->batch.force,
                      "Folder: convert even where the output is newer than its input");
    convert->add_option("--report", options->report,
                        "Folder: write one JSON entry per input to this file");
    convert->callback([options, &exit_code] { exit_code = run_convert(*options); });
}

}  // namespace castkit::cli

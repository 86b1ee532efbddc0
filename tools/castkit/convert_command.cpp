// convert: one file to another format, a model with its animation files merged into one scene,
// or a whole folder (batch.cpp).
#include <fmt/format.h>

#include <castkit/anim/root_motion.hpp>
#include <castkit/platform.hpp>
#include <castkit/registry.hpp>
#include <castkit/scene/merge.hpp>

#include "batch.hpp"
#include "commands.hpp"
#include "selection_options.hpp"

namespace castkit::cli {
namespace {

struct ConvertOptions {
    std::vector<std::string> inputs;
    std::string output, from, to;
    std::vector<std::string> anims_dirs, texture_dirs;
    std::string report, texture_mode = "automatic", base;
    std::string events;                          // --events FILE.json
    bool events_beside = false;                  // --events-beside
    std::string up, from_up, units, from_units;  // --up, --from-up, --units, --from-units
    std::string root_motion = "keep", model;     // --root-motion, --model
    bool keep_instance_references = false;
    bool one_file = false;  // --one-file: a map glb is never split into a world
    FormatOptions format_options;
    BatchOptions batch;
    SelectionWords selection;  // --within, --box, --include, --exclude
};

// --up, --units and --scale as the library's request (CLI11 checked the words).
scene::AxesRequest axes_request(const ConvertOptions& options, double scale) {
    scene::AxesRequest request{.scale = scale};
    request.up = cast::axis_from_name(options.up);
    request.from_up = cast::axis_from_name(options.from_up);
    request.units = scene::units_from_name(options.units);
    request.from_units = scene::units_from_name(options.from_units);
    return request;
}

// Turns and scales `document`, read as `format`, as --up/--units/--scale ask; false when it
// cannot, and then nothing is to be written.
bool change_axes(cast::Document& document, const FormatInfo& format, const std::string& input,
                 const scene::AxesRequest& request, int& exit_code) {
    Diagnostics diagnostics;
    auto change =
        scene::plan_axis_change(document, request, declared_axes(format), input, diagnostics);
    Expected<void> applied;
    if (change) applied = formats::apply_axis_change(document, *change, input, diagnostics);
    print_diagnostics(diagnostics);
    if (!change) {
        fmt::print(stderr, "{}\n", change.error().to_string());
        fail(exit_code, kUsage);
        return false;
    }
    if (!applied) {
        fmt::print(stderr, "{}\n", applied.error().to_string());
        fail(exit_code, kInvalidInput);
        return false;
    }
    return true;
}

// --model: the animation-only `document` lent the model's skeleton; false, printed, when it
// cannot be.
bool lend_model(cast::Document& document, const ConvertOptions& options, int& exit_code) {
    auto model = load(options.model, "", {}, exit_code);
    if (!model) return false;
    auto lent = scene::lend_skeleton(document, model->document);
    if (lent) return true;
    fmt::print(stderr, "{}\n", lent.error().to_string());
    fail(exit_code, kInvalidInput);
    return false;
}

// --root-motion: `document`, read as `format`, stripped or extracted (batch::move_root_motion);
// false, printed, when the root bone named is not there.
bool move_root_motion(cast::Document& document, const FormatInfo& format, const std::string& input,
                      const batch::Options& options, int& exit_code) {
    Diagnostics diagnostics;
    const bool moved = batch::move_root_motion(options, format, platform::path_from_utf8(input),
                                               document, diagnostics);
    print_diagnostics(diagnostics);
    if (!moved) fail(exit_code, kInvalidInput);
    return moved;
}

// The animation `path` read from its bytes in `files` (read once for the run, a FIFO or
// device refused); nullopt, printed, when it cannot be.
std::optional<Loaded> load_animation(const std::string& path, batch::AnimationFiles& files,
                                     const ConvertOptions& options, int& exit_code) {
    auto input = files.get(platform::path_from_utf8(path));
    if (!input) {
        fmt::print(stderr, "{}\n", input.error().to_string());
        fail(exit_code, kInvalidInput);
        return std::nullopt;
    }
    auto source = source_of(path, std::move(*input), options.from, nullptr);
    if (const auto* error = std::get_if<SourceError>(&source)) {
        print_source_error(path, *error);
        fail(exit_code, error->code);
        return std::nullopt;
    }
    return read_source(path, std::move(std::get<Source>(source)), options.format_options,
                       exit_code);
}

// Takes the Instances the selection leaves out of `document` (nothing to do when it keeps all).
void keep_selected(cast::Document& document, const scene::InstanceSelection& selection,
                   const std::string& input) {
    if (selection.empty()) return;
    Diagnostics diagnostics;
    scene::select_instances(document, selection, input, diagnostics);
    print_diagnostics(diagnostics);
}

// Reads every animation file and merges it into `document`; raises `exit_code` when any
// animation failed.
void merge_animations(cast::Document& document, const std::vector<std::string>& paths,
                      batch::AnimationFiles& files, const ConvertOptions& options, int& exit_code) {
    std::vector<scene::AnimationSource> sources;
    for (const std::string& path : paths) {
        auto animation = load_animation(path, files, options, exit_code);
        if (animation) sources.push_back({std::move(animation->document), file_stem(path)});
    }
    // --base: additive animations are layered on it before they merge.
    const BaseClip base_clip = split_base(options.base);
    std::optional<Loaded> base;
    if (!base_clip.path.empty()) {
        base = load(base_clip.path, "", {}, exit_code);
        if (!base) return;
    }
    Diagnostics diagnostics;
    scene::merge(document, std::move(sources),
                 {.document = base ? &base->document : nullptr, .frame = base_clip.frame},
                 diagnostics);
    print_diagnostics(diagnostics);
    if (has_severity(diagnostics, Severity::Error)) fail(exit_code, kInvalidInput);
}

// Writes `loaded`, read from `input`: relative names in it (textures, instances) resolve
// beside the input, beneath the folder it was read from. False when it was not written.
bool write_output(const FormatInfo& format, const Loaded& loaded, const ConvertOptions& options,
                  const std::string& input, const std::string& output, int& exit_code) {
    const cast::Document& document = loaded.document;
    const std::filesystem::path out = platform::path_from_utf8(output);
    WriteContext context = formats::context_for(out, options.format_options);
    context.base = formats::context_for(platform::path_from_utf8(input)).base;
    context.folder = loaded.folder;
    Diagnostics diagnostics;
    auto written = formats::write_file(format, document, out, context, diagnostics);
    print_diagnostics(diagnostics);
    if (!written) {
        fmt::print(stderr, "{}\n", written.error().to_string());
        fail(exit_code, kInvalidInput);
    }
    return written.has_value();
}

// --events after a conversion in the family: the events of the file written, read back.
void write_family_events(const ConvertOptions& options, const std::string& output, int& exit_code) {
    auto written = load(output, options.to, {}, exit_code);
    if (written)
        write_events_file(written->document, options.events, *options.format_options.side_outputs,
                          exit_code);
}

// Converts `source` into `to` of its own family (FormatInfo::family), keeping what the Cast
// document cannot hold; raises `exit_code` when it failed.
void convert_in_family(const Source& source, const FormatInfo& to, const std::string& input,
                       const std::string& output, int& exit_code) {
    Diagnostics warnings;
    const std::string name = formats::context_for(platform::path_from_utf8(input)).name;
    auto converted = formats::convert_in_family(*source.format, source.input.bytes, name, to,
                                                platform::path_from_utf8(output), warnings);
    print_diagnostics(warnings);
    if (converted) return;
    fmt::print(stderr, "{}\n", converted.error().to_string());
    fail(exit_code, kInvalidInput);
}

int convert_one(const ConvertOptions& options, const std::string& input,
                const std::vector<std::string>& animations, batch::AnimationFiles& files,
                const std::string& output) {
    int exit_code = kSuccess;
    // The output format first: a usage error should not wait for a large input to parse.
    const FormatInfo* format = output_format(output, options.to, exit_code);
    if (format == nullptr) return exit_code;
    std::optional<Source> source = open_or_fail(input, options.from, exit_code);
    if (!source) return exit_code;
    const batch::Options& run = options.batch.batch;
    const scene::AxesRequest& axes = run.axes;
    const scene::InstanceSelection& selection = run.selection;
    if (converts_in_family(*source->format, *format) && animations.empty() && axes.empty() &&
        selection.empty() && run.model.empty() && run.root_motion == anim::RootMotion::Keep &&
        (options.events.empty() || output != "-")) {
        convert_in_family(*source, *format, input, output, exit_code);
        if (!options.events.empty() && exit_code == kSuccess)
            write_family_events(options, output, exit_code);
        return exit_code;
    }
    // The output's own names are never a side file's (an image the input unpacks, a texture).
    for (const std::filesystem::path& file :
         formats::output_files(*format, platform::path_from_utf8(output)))
        options.format_options.side_outputs->reserve(file);
    // Images embedded in the input travel in the document: the writer embeds them again or
    // writes them beside the output.
    const FormatInfo& read_as = *source->format;
    // A map read into a format that holds instances becomes a world beside the output.
    FormatOptions read_options = options.format_options;
    if (format->holds_instances && output != "-" && !options.one_file)
        read_options.world_output = platform::path_from_utf8(output);
    auto loaded = read_source(input, std::move(*source), read_options, exit_code);
    if (!loaded) return exit_code;
    keep_selected(loaded->document, selection, input);
    if (!animations.empty())
        merge_animations(loaded->document, animations, files, options, exit_code);
    // Root motion after the merge (the clips are on the model's bones), before the axis change
    // (so its ground plane is the file's own, and --up turns the result).
    if (!run.model.empty() && !lend_model(loaded->document, options, exit_code)) return exit_code;
    if (!move_root_motion(loaded->document, read_as, input, run, exit_code)) return exit_code;
    if (!axes.empty() && !change_axes(loaded->document, read_as, input, axes, exit_code))
        return exit_code;
    if (exit_code == kUsage) return exit_code;
    if (write_output(*format, *loaded, options, input, output, exit_code) &&
        !options.events.empty())
        write_events_file(loaded->document, options.events, *options.format_options.side_outputs,
                          exit_code);
    return exit_code;
}

// --texture-mode's words, in TextureMode's order.
const std::vector<std::string>& texture_mode_names() {
    static const std::vector<std::string> names{"automatic", "embed", "copy", "reference"};
    return names;
}

// The TextureMode a word of texture_mode_names() names (any case: CLI11 checked it).
TextureMode texture_mode_named(const std::string& word) {
    const auto& names = texture_mode_names();
    for (std::size_t i = 0; i < names.size(); ++i)
        if (CLI::detail::to_lower(word) == names[i]) return static_cast<TextureMode>(i);
    return TextureMode::Automatic;
}

bool is_folder(const std::string& path) {
    std::error_code error;
    return path != "-" && std::filesystem::is_directory(platform::path_from_utf8(path), error);
}

// True when `path` is `folder` or lies inside it, after following links and "..". O(length).
bool same_or_inside(const std::string& path, const std::string& folder) {
    std::error_code error;
    const auto inner = std::filesystem::weakly_canonical(platform::path_from_utf8(path), error);
    const auto outer = std::filesystem::weakly_canonical(platform::path_from_utf8(folder), error);
    auto part = inner.begin();
    for (const std::filesystem::path& name : outer) {
        // "a/b/" ends in an empty name, which matches the end of "a/b" too.
        if (name.empty()) continue;
        if (part == inner.end() || *part != name) return false;
        ++part;
    }
    return true;
}

// The mistakes a person makes before any file is read, said in words: a missing input, a
// folder without -o, an output folder inside the input folder. Returns the exit code for one
// (1 for a missing input, 2 for the others), else 0.
int check_paths(const ConvertOptions& options) {
    const std::size_t count = options.output.empty() ? 1 : options.inputs.size();
    for (std::size_t i = 0; i < count && i < options.inputs.size(); ++i) {
        std::error_code error;
        const std::string& input = options.inputs[i];
        if (input != "-" && !std::filesystem::exists(platform::path_from_utf8(input), error)) {
            fmt::print(stderr, "castkit: {}: no such file or folder\n", input);
            return kInvalidInput;
        }
    }
    const std::string& first = options.inputs.front();
    if (options.output.empty() && is_folder(first)) {
        fmt::print(stderr,
                   "castkit: convert: {} is a folder: a folder is converted into another with "
                   "-o OUTDIR (castkit convert {} -o OUTDIR --to FORMAT)\n",
                   first, first);
        return kUsage;
    }
    if (!options.output.empty() && is_folder(first) && same_or_inside(options.output, first)) {
        fmt::print(stderr,
                   "castkit: convert: the output folder {} is the input folder {} or inside it; "
                   "give an output folder outside {}\n",
                   options.output, first, first);
        return kUsage;
    }
    return kSuccess;
}

int run_convert(ConvertOptions& options) {
    if (int mistake = check_paths(options); mistake != kSuccess) return mistake;
    if (options.keep_instance_references) options.format_options.inline_instances = false;
    options.format_options.textures = texture_mode_named(options.texture_mode);
    options.batch.batch.axes = axes_request(options, options.batch.batch.axes.scale);
    options.batch.batch.root_motion =
        anim::root_motion_from_name(options.root_motion).value_or(anim::RootMotion::Keep);
    options.batch.batch.model = platform::path_from_utf8(options.model);
    auto selection = selection_of(options.selection);
    if (!selection) return kUsage;
    options.batch.batch.selection = std::move(*selection);
    // One writer for every side file of this run (docs/security.md, "What castkit writes").
    options.format_options.side_outputs = std::make_shared<SideOutputs>();
    // Every animation read once for the run, the --anims folders' as they are listed.
    auto animation_files = std::make_shared<batch::AnimationFiles>();
    std::vector<std::string> animations;
    for (const std::string& dir : options.anims_dirs) {
        Diagnostics skipped;
        auto found = batch::read_animation_folder(platform::path_from_utf8(dir), true,
                                                  options.format_options.side_files.allow_any_path,
                                                  *animation_files, skipped);
        print_diagnostics(skipped);
        if (!found) {
            fmt::print(stderr, "{}\n", found.error().to_string());
            return kUsage;
        }
        for (const auto& path : *found) animations.push_back(platform::utf8_of(path));
    }
    for (const std::string& dir : options.texture_dirs)
        options.format_options.side_files.folders.push_back(platform::path_from_utf8(dir));
    if (options.output.empty()) {
        // The two-argument form: `castkit convert IN OUT`.
        if (options.inputs.size() != 2 || !animations.empty() || !options.base.empty()) {
            fmt::print(stderr, "castkit: convert: give IN OUT, or INPUT... -o OUT\n");
            return kUsage;
        }
        int exit_code = kSuccess;
        if (!place_events_beside(options.events, options.events_beside, options.inputs[1],
                                 exit_code))
            return exit_code;
        return convert_one(options, options.inputs[0], {}, *animation_files, options.inputs[1]);
    }
    if (is_folder(options.inputs[0])) {
        if (!options.events.empty()) {
            fmt::print(stderr,
                       "castkit: convert: --events names one file's events: with a folder, give "
                       "--events-beside, which writes each output's events beside it "
                       "(docs/events.md)\n");
            return kUsage;
        }
        options.batch.batch.events_beside = options.events_beside;
        if (options.inputs.size() != 1 || !options.base.empty()) {
            fmt::print(stderr,
                       "castkit: convert: a folder is converted on its own (without "
                       "--base)\n");
            return kUsage;
        }
        options.batch.batch.input_dir = platform::path_from_utf8(options.inputs[0]);
        options.batch.batch.output_dir = platform::path_from_utf8(options.output);
        options.batch.report = platform::path_from_utf8(options.report);
        options.batch.batch.from = options.from;
        options.batch.batch.to = options.to;
        for (const std::string& animation : animations)
            options.batch.batch.animations.push_back(platform::path_from_utf8(animation));
        options.batch.batch.animation_files = animation_files;
        options.batch.batch.format_options = options.format_options;
        return run_batch(options.batch);
    }
    animations.insert(animations.begin(), options.inputs.begin() + 1, options.inputs.end());
    if (!options.base.empty() && animations.empty()) {
        fmt::print(stderr,
                   "castkit: convert: --base layers the animations of MODEL ANIM... -o "
                   "OUT; give the animation files\n");
        return kUsage;
    }
    int exit_code = kSuccess;
    if (!place_events_beside(options.events, options.events_beside, options.output, exit_code))
        return exit_code;
    return convert_one(options, options.inputs[0], animations, *animation_files, options.output);
}

// --up, --from-up, --units, --from-units, --scale (docs/animation.md, "Axes and units").
void add_axes_options(CLI::App* convert, ConvertOptions& options) {
    const std::vector<std::string> axes{"x", "y", "z"};
    const std::vector<std::string> units{"mm", "cm", "m", "in", "ft"};
    CLI::Option* up = convert->add_option(
        "--up", options.up,
        "Turn the whole scene (meshes, rests, curves, rig offsets, instances) so this axis is up");
    up->check(CLI::IsMember(axes));
    convert
        ->add_option("--from-up", options.from_up,
                     "The input's up axis, where the file does not say it (default: the "
                     "Metadata's, glTF's +Y, else +Y with a warning)")
        ->check(CLI::IsMember(axes))
        ->needs(up);
    CLI::Option* to_units = convert->add_option(
        "--units", options.units, "Scale every length to these units: mm, cm, m, in or ft");
    to_units->check(CLI::IsMember(units));
    convert
        ->add_option("--from-units", options.from_units,
                     "The input's units (default: glTF's metres, else centimetres with a warning)")
        ->check(CLI::IsMember(units))
        ->needs(to_units);
    convert
        ->add_option("--scale", options.batch.batch.axes.scale,
                     "Multiply every length by this factor (after --units)")
        ->check(CLI::PositiveNumber);
}

// --root-motion, --root-bone, --model (docs/animation.md, "Root motion").
void add_root_motion_options(CLI::App* convert, ConvertOptions& options) {
    convert
        ->add_option("--root-motion", options.root_motion,
                     "keep (default), strip (the root bone's ground motion and yaw removed) or "
                     "extract (moved onto a new top bone, root_motion) in every clip")
        ->check(CLI::IsMember({"keep", "strip", "extract"}));
    convert->add_option("--root-bone", options.batch.batch.root_bone,
                        "The bone --root-motion takes the motion of (default: the skeleton's top "
                        "bone)");
    convert->add_option("--model", options.model,
                        "An animation file alone (or a folder's): play it on this file's "
                        "skeleton, so --up turns its root bones and --root-motion finds them");
}

}  // namespace

void register_convert_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<ConvertOptions>();
    // A converted file's images travel with it (docs/workflows.md, "Textures").
    options->format_options.place_textures = true;
    CLI::App* convert = app.add_subcommand(
        "convert",
        "Convert a file (IN OUT), a model and its animations (MODEL ANIM... -o OUT), or a "
        "folder (DIR -o OUTDIR --to FORMAT)");
    add_examples(
        convert,
        {"castkit convert examples/data/hero/hero.semodel examples/data/hero/hero_walk.seanim "
         "examples/data/hero/hero_idle.seanim -o scratch/hero.glb",
         "castkit convert examples/data/hero/hero.cast scratch/hero_z.cast --up z --units m",
         "castkit convert examples/data -o scratch/converted --to glb --recursive"});
    convert->add_option("inputs", options->inputs, "Input files or one folder ('-' for stdin)")
        ->required();
    convert->add_option("-o,--output", options->output,
                        "Output file (or folder, for a folder input; '-' for stdout)");
    add_format_option(convert, "--from", options->from, "Input format, overriding the extension");
    add_format_option(convert, "--to", options->to, "Output format, overriding the extension");
    convert->add_option("--anims", options->anims_dirs,
                        "Attach every animation file under this folder to the model(s)");
    CLI::Option* keep =
        convert->add_flag("--keep-instance-references", options->keep_instance_references,
                          "glTF: name the files Instances reference (in extras) instead of "
                          "merging them into the output, which is the default");
    // Scripts written when references were the default still pass it.
    convert
        ->add_flag("--inline-instances", options->format_options.inline_instances,
                   "glTF: merge the files Instances reference (the default; kept for scripts)")
        ->excludes(keep);
    convert->add_flag("--one-file", options->one_file,
                      "glTF to Cast: read a map (meshes drawn by many nodes) into the one output "
                      "file instead of a world of Instances beside model files");
    convert->add_option("--textures", options->texture_dirs,
                        "Texture folder (repeatable): searched for the files the input names "
                        "after its own folder; DMF input writes its images into the first");
    convert->add_flag("--allow-any-path", options->format_options.side_files.allow_any_path,
                      "Read files the input names anywhere: absolute paths, '..' and links");
    // Words in, words in --help: a CheckedTransformer on the enum printed "ENUM:value in
    // {copy->2,...}".
    convert
        ->add_option("--texture-mode", options->texture_mode,
                     "glTF: embed (default for .glb), copy (default for .gltf) or reference; "
                     "other formats written to another folder: copy (default) or reference")
        ->check(CLI::IsMember(texture_mode_names(), CLI::ignore_case));
    convert->add_flag_callback(
        "--no-rig", [options] { options->format_options.solve_rig = false; },
        "glTF: write the curves alone, without solving the skeletons' IK handles into the motion");
    convert->add_flag("--gpu-instancing", options->format_options.gpu_instancing,
                      "glTF: draw the instances of each model through EXT_mesh_gpu_instancing "
                      "(one node per model holding every instance's transform)");
    convert->add_flag("--strict", options->format_options.strict,
                      "Refuse to write a broken mesh (a face index past its vertices, a weight "
                      "naming a missing bone, a per-vertex buffer of another length) instead of "
                      "leaving the broken part out with a warning");
    convert->add_option("-j,--jobs", options->batch.jobs,
                        "Folder: files converted at once (default: every core)");
    convert->add_flag("-r,--recursive", options->batch.batch.recursive,
                      "Folder: include sub-folders");
    convert->add_flag("-q,--quiet", options->batch.quiet, "Folder: no progress line or summary");
    convert->add_flag("-f,--force", options->batch.batch.force,
                      "Folder: convert even where the output is newer than its input");
    convert->add_option("--report", options->report,
                        "Folder: write one JSON entry per input to this file");
    convert->add_option("--base", options->base,
                        "MODEL ANIM... -o OUT: layer each additive animation on this clip "
                        "(FILE, or FILE@FRAME for one frame of it) before it merges, so the "
                        "output holds its absolute motion");
    add_axes_options(convert, *options);
    add_root_motion_options(convert, *options);
    add_events_option(convert, options->events, options->events_beside);
    add_selection_options(convert, options->selection);
    convert->callback([options, &exit_code] { exit_code = run_convert(*options); });
}

}  // namespace castkit::cli

// pose and bake: evaluate a Cast animation on a skeleton, print one frame or bake it.
#include <fmt/format.h>

#include <castkit/anim/animation.hpp>
#include <castkit/anim/bake.hpp>
#include <castkit/anim/local_to_world_job.hpp>
#include <castkit/anim/root_motion.hpp>
#include <castkit/anim/sampling_job.hpp>
#include <castkit/anim/skeleton.hpp>
#include <castkit/json.hpp>
#include <castkit/platform.hpp>
#include <castkit/scene/axis_change.hpp>
#include <cmath>
#include <cstdlib>
#include <iterator>
#include <utility>

#include "commands.hpp"

namespace castkit::cli {
namespace {

// "0 'idle', 1 'walk', 2 (unnamed)": what `--animation` can pick, as `castkit info` lists it.
std::string animation_list(const std::vector<cast::ConstAnimation>& animations) {
    std::string out;
    for (std::size_t i = 0; i < animations.size(); ++i) {
        auto name = animations[i].name();
        out += fmt::format("{}{} {}", i ? ", " : "", i,
                           name ? fmt::format("'{}'", *name) : std::string("(unnamed)"));
    }
    return out;
}

}  // namespace

std::optional<std::size_t> pick_animation(const std::vector<cast::ConstAnimation>& animations,
                                          const std::string& selector,
                                          const std::string& anim_path) {
    if (selector.empty()) {
        if (animations.size() > 1)
            fmt::print(stderr,
                       "castkit: {}: holds {} animations ({}); using the first, pick another "
                       "with --animation\n",
                       anim_path, animations.size(), animation_list(animations));
        return 0;
    }
    const bool digits = selector.find_first_not_of("0123456789") == std::string::npos;
    if (digits && selector.size() < 10 && std::stoul(selector) < animations.size())
        return std::stoul(selector);
    for (std::size_t i = 0; i < animations.size(); ++i)
        if (animations[i].name() == selector) return i;
    fmt::print(stderr, "castkit: {}: no animation {} '{}'; the file holds {}\n", anim_path,
               digits ? "at index" : "named", selector, animation_list(animations));
    return std::nullopt;
}

std::optional<LoadedAnimation> load_animation(const std::string& model_path,
                                              const std::string& anim_path,
                                              const std::string& selector, int& exit_code) {
    auto animation_document = load(anim_path, "", {}, exit_code);
    if (!animation_document) return std::nullopt;
    return compile_animation(std::move(animation_document->document), model_path, anim_path,
                             selector, exit_code);
}

std::optional<LoadedAnimation> compile_animation(cast::Document animation_document,
                                                 const std::string& model_path,
                                                 const std::string& anim_path,
                                                 const std::string& selector, int& exit_code) {
    LoadedAnimation loaded;
    loaded.animation_document = std::move(animation_document);
    std::vector<cast::ConstAnimation> animations =
        std::as_const(loaded.animation_document).animations();
    if (animations.empty()) {
        fmt::print(stderr, "castkit: {}: holds no Animation\n", anim_path);
        return std::nullopt;
    }
    const std::optional<std::size_t> picked = pick_animation(animations, selector, anim_path);
    if (!picked) {
        fail(exit_code, kUsage);
        return std::nullopt;
    }
    const cast::ConstAnimation& animation = animations[*picked];
    if (cast::ConstSkeleton own = animation.skeleton()) loaded.own_skeleton = &own.node();

    if (!model_path.empty()) {
        auto model_document = load(model_path, "", {}, exit_code);
        if (!model_document) return std::nullopt;
        loaded.model_document = std::move(model_document->document);
    }
    const std::optional<anim::SkeletonChoice> chosen =
        anim::choose_skeleton(animation, loaded.animation_document,
                              model_path.empty() ? nullptr : &loaded.model_document);
    if (!chosen && !model_path.empty()) {
        fmt::print(stderr, "castkit: {}: no Model with a Skeleton\n", model_path);
        return std::nullopt;
    }
    if (!chosen) {
        fmt::print(stderr,
                   "castkit: {}: neither the animation nor a Model in the file has a Skeleton; "
                   "give --model\n",
                   anim_path);
        return std::nullopt;
    }

    Diagnostics reports;
    auto built_skeleton = anim::build_skeleton(chosen->skeleton, reports, chosen->document);
    if (!built_skeleton) {
        print_diagnostics(reports);
        fmt::print(stderr, "{}\n", built_skeleton.error().to_string());
        return std::nullopt;
    }
    loaded.skeleton = std::move(*built_skeleton);
    auto built = anim::build_animation(animation, loaded.skeleton, chosen->targets, reports,
                                       &loaded.animation_document);
    print_diagnostics(reports);
    if (!built) {
        fmt::print(stderr, "{}\n", built.error().to_string());
        return std::nullopt;
    }
    loaded.animation = std::move(*built);
    loaded.targets = std::move(chosen->targets);
    return loaded;
}

std::optional<anim::Animation> load_clip_on(const LoadedAnimation& on, const std::string& path,
                                            const std::string& selector, int& exit_code) {
    auto file = load(path, "", {}, exit_code);
    if (!file) return std::nullopt;
    return clip_on(on, file->document, path, selector, exit_code);
}

std::optional<anim::Animation> clip_on(const LoadedAnimation& on, const cast::Document& document,
                                       const std::string& path, const std::string& selector,
                                       int& exit_code) {
    const std::vector<cast::ConstAnimation> clips = document.animations();
    if (clips.empty()) {
        fmt::print(stderr, "castkit: {}: holds no Animation\n", path);
        return std::nullopt;
    }
    const std::optional<std::size_t> picked = pick_animation(clips, selector, path);
    if (!picked) {
        fail(exit_code, kUsage);
        return std::nullopt;
    }
    Diagnostics reports;
    auto built = anim::build_animation(clips[*picked], on.skeleton, on.targets, reports, &document);
    print_diagnostics(reports);
    if (!built) {
        fmt::print(stderr, "{}\n", built.error().to_string());
        return std::nullopt;
    }
    return std::move(*built);
}

namespace {

using Out = std::back_insert_iterator<std::string>;

void json_floats(json::Writer& out, std::initializer_list<float> values) {
    out.begin_array();
    for (float v : values) out.number(v);
    out.end_array();
}

void json_transform(json::Writer& out, const anim::Transform& t) {
    out.begin_object();
    out.key("t");
    json_floats(out, {t.translation.x, t.translation.y, t.translation.z});
    out.key("r");
    json_floats(out, {t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w});
    out.key("s");
    json_floats(out, {t.scale.x, t.scale.y, t.scale.z});
    out.end_object();
}

struct Pose {
    std::vector<anim::Transform> locals;
    std::vector<anim::Transform> worlds;
    std::vector<float> weights;
    std::vector<float> visibility;
};

std::string pose_json(const LoadedAnimation& loaded, float frame, const Pose& pose) {
    std::string text;
    json::Writer out(text);
    out.begin_object();
    out.key("frame");
    out.number(frame);
    out.key("bones");
    out.begin_array();
    for (std::size_t i = 0; i < loaded.skeleton.bone_count(); ++i) {
        out.begin_object();
        out.key("name");
        out.string(loaded.skeleton.names()[i]);
        out.key("local");
        json_transform(out, pose.locals[i]);
        out.key("world");
        json_transform(out, pose.worlds[i]);
        out.end_object();
    }
    out.end_array();
    out.key("blendshapes");
    out.begin_object();
    for (std::size_t i = 0; i < pose.weights.size(); ++i) {
        out.key(loaded.animation.blend_shapes()[i]);
        out.number(pose.weights[i]);
    }
    out.end_object();
    out.key("visibility");
    out.begin_object();
    for (std::size_t i = 0; i < pose.visibility.size(); ++i) {
        out.key(loaded.animation.visibility_nodes()[i]);
        out.boolean(anim::is_visible(pose.visibility[i]));
    }
    out.end_object();
    out.end_object();
    text += '\n';
    return text;
}

std::string pose_text(const LoadedAnimation& loaded, float frame, const Pose& pose) {
    const anim::Animation& a = loaded.animation;
    std::string out =
        fmt::format("frame {}{} ({} fps, keys {} to {}{})\n", frame,
                    a.name().empty() ? "" : fmt::format(" of '{}'", a.name()), a.framerate(),
                    a.start_frame(), a.end_frame(), a.looping() ? ", looping" : "");
    auto line = [&](const char* label, const anim::Transform& t) {
        fmt::format_to(Out(out), "  {:<5} t ({}, {}, {})  r ({}, {}, {}, {})  s ({}, {}, {})\n",
                       label, t.translation.x, t.translation.y, t.translation.z, t.rotation.x,
                       t.rotation.y, t.rotation.z, t.rotation.w, t.scale.x, t.scale.y, t.scale.z);
    };
    for (std::size_t i = 0; i < loaded.skeleton.bone_count(); ++i) {
        fmt::format_to(Out(out), "{}\n", loaded.skeleton.names()[i]);
        line("local", pose.locals[i]);
        line("world", pose.worlds[i]);
    }
    for (std::size_t i = 0; i < pose.weights.size(); ++i)
        fmt::format_to(Out(out), "blend shape {} = {}\n", a.blend_shapes()[i], pose.weights[i]);
    for (std::size_t i = 0; i < pose.visibility.size(); ++i)
        fmt::format_to(Out(out), "visibility {} = {} ({})\n", a.visibility_nodes()[i],
                       anim::is_visible(pose.visibility[i]) ? "visible" : "hidden",
                       pose.visibility[i]);
    return out;
}

}  // namespace

std::optional<float> parse_frame(const std::string& text) {
    char* end = nullptr;
    const float frame = std::strtof(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(frame))
        return std::nullopt;
    return frame;
}

BaseClip split_base(const std::string& text) {
    const std::size_t at = text.rfind('@');
    if (at == std::string::npos) return {text, std::nullopt};
    const std::optional<float> frame = parse_frame(text.substr(at + 1));
    if (!frame) return {text, std::nullopt};  // an '@' in the file's own name
    return {text.substr(0, at), frame};
}

namespace {

// Writes the baked document in `format` through the registry, as `convert` writes (the format's
// warnings: what it cannot hold). False when it was not written.
bool write_baked(const FormatInfo& format, const cast::Document& baked, const std::string& output,
                 int& exit_code) {
    const std::filesystem::path path = platform::path_from_utf8(output);
    Diagnostics diagnostics;
    auto written =
        formats::write_file(format, baked, path, formats::context_for(path), diagnostics);
    print_diagnostics(diagnostics);
    if (!written) {
        fmt::print(stderr, "{}\n", written.error().to_string());
        fail(exit_code, kInvalidInput);
    }
    return written.has_value();
}

// The up axis `loaded`'s animation is in: its file's, else its model's (Metadata `up`, else the
// format's, else +Y).
cast::Axis animation_up_axis(const LoadedAnimation& loaded, const std::string& animation_path) {
    const FormatInfo* format = format_for_path(platform::path_from_utf8(animation_path));
    const scene::DeclaredAxes declared = format ? declared_axes(*format) : scene::DeclaredAxes{};
    const cast::Axis model_up = scene::file_up_axis(loaded.model_document, declared);
    return scene::file_up_axis(loaded.animation_document, {.up = model_up});
}

// --root-motion on the baked clip, played on the skeleton the bake used, in the animation's own
// axes. False, printed, when the root bone named is not there.
bool move_baked_root_motion(cast::Document& baked, const LoadedAnimation& loaded,
                            anim::RootMotion mode, const std::string& root_bone,
                            const std::string& animation_path, int& exit_code) {
    if (mode == anim::RootMotion::Keep) return true;
    // The baked clip holds the animation's own skeleton already; else it played on a Model's.
    const std::optional<anim::SkeletonChoice> chosen =
        loaded.own_skeleton
            ? std::nullopt
            : anim::choose_skeleton(
                  cast::ConstAnimation{}, loaded.animation_document,
                  loaded.model_document.roots().empty() ? nullptr : &loaded.model_document);
    Diagnostics diagnostics;
    auto moved =
        anim::move_baked_root_motion(baked, chosen ? chosen->skeleton : cast::ConstSkeleton{},
                                     {.mode = mode,
                                      .up = animation_up_axis(loaded, animation_path),
                                      .root_bone = root_bone,
                                      .name = animation_path,
                                      .warnings = &diagnostics});
    print_diagnostics(diagnostics);
    if (moved) return true;
    fmt::print(stderr, "{}\n", moved.error().to_string());
    fail(exit_code, kInvalidInput);
    return false;
}

// The pose `castkit pose` prints: the clip at `frame`, layered on `base` (at `base_frame`, else
// at the same time) when given, its world transforms from its locals.
Expected<Pose> sample_pose(const LoadedAnimation& loaded, const anim::Animation* base,
                           std::optional<float> base_frame, float frame, bool looped,
                           bool solve_rig) {
    const std::size_t bones = loaded.skeleton.bone_count();
    Pose result{std::vector<anim::Transform>(bones), std::vector<anim::Transform>(bones),
                std::vector<float>(loaded.animation.blend_shapes().size()),
                std::vector<float>(loaded.animation.visibility_nodes().size())};
    anim::BasePose under(base, loaded.skeleton, solve_rig);
    auto base_pose = under.at(base_frame, double(frame) / loaded.animation.framerate());
    if (!base_pose) return make_error(base_pose.error());
    const anim::SamplingJob sampling{.animation = &loaded.animation,
                                     .skeleton = &loaded.skeleton,
                                     .frame = frame,
                                     .looped = looped,
                                     .base = *base_pose,
                                     .locals = result.locals,
                                     .blend_shape_weights = result.weights,
                                     .visibility = result.visibility,
                                     .solve_rig = solve_rig};
    if (auto ok = sampling.run(); !ok) return make_error(ok.error());
    std::vector<glm::mat4> worlds(bones);
    const anim::LocalToWorldJob world{
        .skeleton = &loaded.skeleton, .locals = result.locals, .worlds = worlds};
    if (auto ok = world.run(); !ok) return make_error(ok.error());
    for (std::size_t i = 0; i < bones; ++i) result.worlds[i] = anim::decompose(worlds[i]);
    return result;
}

}  // namespace

void register_anim_commands(CLI::App& app, int& exit_code) {
    struct Options {
        std::string model, animation, output, which, to, base, which_base, events, root_bone;
        std::string root_motion = "keep";
        float frame = 0.0f;
        bool json = false, looped = false, no_rig = false, events_beside = false;
        float framerate = 0.0f;
        std::optional<float> tolerance;
    };
    auto options = std::make_shared<Options>();

    CLI::App* pose =
        app.add_subcommand("pose", "Print every bone's local and world transform at a frame");
    add_examples(pose,
                 {"castkit pose --model examples/data/hero/hero.cast --anim "
                  "examples/data/hero/hero_walk.cast --frame 12.5",
                  "castkit pose --model examples/data/hero/hero_rig.cast --anim "
                  "examples/data/hero/hero_lean.cast --base examples/data/hero/hero_walk.cast "
                  "--frame 12 --json"});
    pose->add_option("--model", options->model, "File with the Model whose Skeleton is animated");
    pose->add_option("--anim", options->animation,
                     "File with the Animation (and maybe its own Skeleton)")
        ->required();
    pose->add_option("--frame", options->frame, "Frame to evaluate (fractional allowed)")
        ->required();
    pose->add_option("--animation", options->which,
                     "Which of the file's animations: a 0-based index or a name (castkit info "
                     "lists them; default: the first)");
    pose->add_flag("--json", options->json, "Print JSON");
    pose->add_flag("--loop", options->looped,
                   "Wrap the frame into the key range if the animation loops");
    pose->add_flag("--no-rig", options->no_rig,
                   "The curves' pose alone: do not solve the skeleton's IK handles");
    pose->add_option("--base", options->base,
                     "Layer the animation (an additive clip) on this clip, FILE or FILE@FRAME "
                     "for one frame of it (default: on the rest pose)");
    pose->add_option("--base-animation", options->which_base,
                     "Which of the base file's animations: a 0-based index or a name");
    pose->callback([options, &exit_code] {
        auto loaded = load_animation(options->model, options->animation, options->which, exit_code);
        std::optional<anim::Animation> base;
        const BaseClip base_clip = split_base(options->base);
        if (loaded && !base_clip.path.empty())
            base = load_clip_on(*loaded, base_clip.path, options->which_base, exit_code);
        if (!loaded || (!base_clip.path.empty() && !base)) {
            fail(exit_code, kInvalidInput);
            return;
        }
        auto result = sample_pose(*loaded, base ? &*base : nullptr, base_clip.frame, options->frame,
                                  options->looped, !options->no_rig);
        if (!result) {
            fmt::print(stderr, "{}\n", result.error().to_string());
            fail(exit_code, kInvalidInput);
            return;
        }
        std::string text = options->json ? pose_json(*loaded, options->frame, *result)
                                         : pose_text(*loaded, options->frame, *result);
        print_stdout(text, exit_code);
    });

    CLI::App* bake =
        app.add_subcommand("bake", "Resample an animation into absolute curves on every frame");
    add_examples(bake, {"castkit bake --model examples/data/hero/hero.cast --anim "
                        "examples/data/hero/hero_walk.cast -o scratch/walk_baked.cast --fps 60",
                        "castkit bake --anim examples/data/wave.cast --model "
                        "examples/data/character.cast -o scratch/wave_baked.seanim"});
    bake->add_option("--model", options->model, "File with the Model whose Skeleton is animated");
    bake->add_option("--anim", options->animation,
                     "File with the Animation (and maybe its own Skeleton)")
        ->required();
    bake->add_option("-o,--output", options->output,
                     "Output file, in the format its extension names ('-' for stdout: Cast "
                     "unless --to)")
        ->required();
    add_format_option(bake, "--to", options->to, "Output format, overriding the extension");
    bake->add_option("--animation", options->which,
                     "Which of the file's animations: a 0-based index or a name (castkit info "
                     "lists them; default: the first)");
    bake->add_option("--fps", options->framerate,
                     "Output frames per second (default: the animation's)");
    bake->add_option("--tolerance", options->tolerance,
                     "Reduce keys within this error (units; radians for rotations)");
    bake->add_option("--base", options->base,
                     "Layer the animation (an additive clip) on this clip, FILE or FILE@FRAME "
                     "for one frame of it, and bake the absolute motion (default: on the rest "
                     "pose)");
    bake->add_option("--base-animation", options->which_base,
                     "Which of the base file's animations: a 0-based index or a name");
    bake->add_flag("--no-rig", options->no_rig,
                   "Bake the curves alone: do not solve the skeleton's IK handles");
    bake->add_option("--root-motion", options->root_motion,
                     "keep (default), strip (the root bone's ground motion and yaw removed) or "
                     "extract (moved onto a new top bone, root_motion, which the output's "
                     "skeleton then holds)")
        ->check(CLI::IsMember({"keep", "strip", "extract"}));
    bake->add_option("--root-bone", options->root_bone,
                     "The bone --root-motion takes the motion of (default: the skeleton's top "
                     "bone)");
    add_events_option(bake, options->events, options->events_beside);
    bake->callback([options, &exit_code] {
        // The output format first: a usage error should not wait for the bake.
        const FormatInfo* format = output_format(options->output, options->to, exit_code);
        if (format == nullptr || !place_events_beside(options->events, options->events_beside,
                                                      options->output, exit_code))
            return;
        auto loaded = load_animation(options->model, options->animation, options->which, exit_code);
        if (!loaded) {
            fail(exit_code, kInvalidInput);
            return;
        }
        std::optional<anim::Animation> base;
        const BaseClip base_clip = split_base(options->base);
        if (!base_clip.path.empty()) {
            base = load_clip_on(*loaded, base_clip.path, options->which_base, exit_code);
            if (!base) {
                fail(exit_code, kInvalidInput);
                return;
            }
        }
        // What the bake may keep grows with what was read: the animation's file, the model's,
        // the base clip's keys.
        const std::uint64_t input_bytes = cast::file_size(loaded->animation_document) +
                                          cast::file_size(loaded->model_document) +
                                          (base ? anim::key_bytes(*base) : 0);
        auto baked = anim::bake(loaded->animation, loaded->skeleton,
                                {.framerate = options->framerate,
                                 .tolerance = options->tolerance,
                                 .skeleton_node = loaded->own_skeleton,
                                 .input_bytes = input_bytes,
                                 .input_name = options->animation,
                                 .base = base ? &*base : nullptr,
                                 .base_frame = base_clip.frame,
                                 .solve_rig = !options->no_rig});
        if (!baked) {
            print_error(baked.error(), options->animation);
            fail(exit_code, kInvalidInput);
            return;
        }
        const anim::RootMotion root_motion =
            anim::root_motion_from_name(options->root_motion).value_or(anim::RootMotion::Keep);
        if (!move_baked_root_motion(*baked, *loaded, root_motion, options->root_bone,
                                    options->animation, exit_code))
            return;
        if (write_baked(*format, *baked, options->output, exit_code) && !options->events.empty()) {
            SideOutputs outputs;
            outputs.reserve(platform::path_from_utf8(options->output));
            write_events_file(*baked, options->events, outputs, exit_code);
        }
    });
}

}  // namespace castkit::cli

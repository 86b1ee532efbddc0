// castkit diff: two clips played on one skeleton, or two skeletons at rest, compared pose by
// pose (castkit/anim/compare.hpp). Exit codes as diff(1): 0 the same, 1 different, 2 trouble.
#include <fmt/format.h>

#include <castkit/anim/compare.hpp>
#include <castkit/json.hpp>
#include <iterator>
#include <utility>

#include "commands.hpp"

namespace castkit::cli {
namespace {

constexpr int kDiffer = 1;
constexpr int kTrouble = 2;

struct DiffOptions {
    std::string a, b, model, which_a, which_b;
    anim::CompareOptions compare;
    bool json = false, all = false;
};

// What was compared, for the header line and the JSON.
struct Compared {
    std::string a, b;  // "'walk' in a.cast at 30 fps", or the file for a rest pose
    anim::PoseDifference difference;
};

bool holds_animation(const cast::Document& document) { return !document.animations().empty(); }

std::string clip_label(const anim::Animation& clip, const std::string& path) {
    return fmt::format("{}{} at {} fps",
                       clip.name().empty() ? "" : fmt::format("'{}' in ", clip.name()), path,
                       clip.framerate());
}

// Both clips on the skeleton the first one chooses (--model, else its own, else a Model's in
// its file): the second is compiled against it, its curves bound by bone name.
std::optional<Compared> compare_clips(const DiffOptions& options, cast::Document a,
                                      const cast::Document& b, int& exit_code) {
    auto first =
        compile_animation(std::move(a), options.model, options.a, options.which_a, exit_code);
    if (!first) return std::nullopt;
    auto second = clip_on(*first, b, options.b, options.which_b, exit_code);
    if (!second) return std::nullopt;
    auto difference =
        anim::compare_clips(first->animation, *second, first->skeleton, options.compare);
    if (!difference) {
        print_error(difference.error(), options.a);  // the clip the comparison plays
        return std::nullopt;
    }
    return Compared{clip_label(first->animation, options.a), clip_label(*second, options.b),
                    std::move(*difference)};
}

// The skeleton of the first Model that has one in `document` (read from `path`); nullopt, said,
// when none.
std::optional<anim::Skeleton> rest_skeleton(const cast::Document& document,
                                            const std::string& path) {
    for (const cast::ConstModel& model : document.models()) {
        const cast::ConstSkeleton skeleton = model.skeleton();
        if (!skeleton) continue;
        Diagnostics reports;
        auto built = anim::build_skeleton(skeleton, reports, &document);
        print_diagnostics(reports);
        if (built) return std::move(*built);
        fmt::print(stderr, "{}\n", built.error().to_string());
        return std::nullopt;
    }
    fmt::print(stderr, "castkit: {}: holds no Animation and no Model with a Skeleton\n", path);
    return std::nullopt;
}

std::optional<Compared> compare_rests(const DiffOptions& options, const cast::Document& a_document,
                                      const cast::Document& b_document) {
    auto a = rest_skeleton(a_document, options.a);
    if (!a) return std::nullopt;
    auto b = rest_skeleton(b_document, options.b);
    if (!b) return std::nullopt;
    auto difference = anim::compare_rests(*a, *b, options.compare);
    if (!difference) {
        print_error(difference.error(), options.a);  // the first file's rest pose
        return std::nullopt;
    }
    return Compared{options.a + " at rest", options.b + " at rest", std::move(*difference)};
}

// Two clips when both files hold one, two rest poses when neither does. Each file is read once.
std::optional<Compared> compare(const DiffOptions& options, int& exit_code) {
    auto a = load(options.a, "", {}, exit_code);
    auto b = load(options.b, "", {}, exit_code);
    if (!a || !b) return std::nullopt;
    const bool clip_a = holds_animation(a->document), clip_b = holds_animation(b->document);
    if (clip_a != clip_b) {
        fmt::print(stderr,
                   "castkit: {} holds an Animation and {} does not: compare two clips (with "
                   "--model for their skeleton) or two models at rest\n",
                   clip_a ? options.a : options.b, clip_a ? options.b : options.a);
        return std::nullopt;
    }
    if (clip_a) return compare_clips(options, std::move(a->document), b->document, exit_code);
    return compare_rests(options, a->document, b->document);
}

bool shown(const anim::BoneDifference& bone, bool all) {
    return all || bone.first_frame || bone.modes_disagree();
}

std::string text_report(const Compared& compared, const DiffOptions& options) {
    const anim::PoseDifference& d = compared.difference;
    std::string out = fmt::format("A: {}\nB: {}\n", compared.a, compared.b);
    if (d.poses > 1)
        fmt::format_to(std::back_inserter(out), "{} bones, frames {} to {} ({} poses)\n",
                       d.bones.size(), d.first_frame, d.last_frame, d.poses);
    std::size_t differing = 0;
    for (const anim::BoneDifference& bone : d.bones) {
        if (bone.first_frame || bone.modes_disagree()) ++differing;
        if (!shown(bone, options.all)) continue;
        fmt::format_to(std::back_inserter(out),
                       "{}: position {:.6g} (frame {}), rotation {:.4g} deg (frame {})", bone.bone,
                       bone.position, bone.position_frame, bone.rotation, bone.rotation_frame);
        if (bone.first_frame)
            fmt::format_to(std::back_inserter(out), ", first differs at frame {}",
                           *bone.first_frame);
        if (bone.modes_disagree())
            fmt::format_to(std::back_inserter(out), ", curve modes {} in A, {} in B", bone.modes_a,
                           bone.modes_b);
        out += '\n';
    }
    for (const std::string& name : d.only_in_a) out += fmt::format("{}: only in A\n", name);
    for (const std::string& name : d.only_in_b) out += fmt::format("{}: only in B\n", name);
    const std::size_t count = differing + d.only_in_a.size() + d.only_in_b.size();
    const float units = options.compare.position_tolerance;
    const float degrees = options.compare.rotation_tolerance;
    if (d.differs())
        fmt::format_to(std::back_inserter(out),
                       "{} of {} bones differ (tolerance {} units, {} deg)\n", count,
                       d.bones.size(), units, degrees);
    else
        fmt::format_to(std::back_inserter(out),
                       "no difference ({} bones within {} units and {} deg)\n", d.bones.size(),
                       units, degrees);
    return out;
}

void json_names(json::Writer& out, const char* key, const std::vector<std::string>& names) {
    out.key(key);
    out.begin_array();
    for (const std::string& name : names) out.string(name);
    out.end_array();
}

void json_bone(json::Writer& out, const anim::BoneDifference& bone) {
    out.begin_object();
    out.key("name");
    out.string(bone.bone);
    out.key("position");
    out.number(bone.position);
    out.key("position_frame");
    out.number(bone.position_frame);
    out.key("rotation_degrees");
    out.number(bone.rotation);
    out.key("rotation_frame");
    out.number(bone.rotation_frame);
    out.key("first_frame");
    if (bone.first_frame)
        out.number(*bone.first_frame);
    else
        out.null();
    out.key("modes_a");
    out.string(bone.modes_a);
    out.key("modes_b");
    out.string(bone.modes_b);
    out.end_object();
}

std::string json_report(const Compared& compared, const DiffOptions& options) {
    const anim::PoseDifference& d = compared.difference;
    std::string text;
    json::Writer out(text, 2);
    out.begin_object();
    out.key("a");
    out.string(compared.a);
    out.key("b");
    out.string(compared.b);
    out.key("differs");
    out.boolean(d.differs());
    out.key("first_frame");
    out.number(d.first_frame);
    out.key("last_frame");
    out.number(d.last_frame);
    out.key("poses");
    out.unsigned_integer(d.poses);
    out.key("position_tolerance");
    out.number(options.compare.position_tolerance);
    out.key("rotation_tolerance_degrees");
    out.number(options.compare.rotation_tolerance);
    out.key("bones");
    out.begin_array();
    for (const anim::BoneDifference& bone : d.bones) json_bone(out, bone);
    out.end_array();
    json_names(out, "only_in_a", d.only_in_a);
    json_names(out, "only_in_b", d.only_in_b);
    out.end_object();
    return text + "\n";
}

}  // namespace

void register_diff_command(CLI::App& app, int& exit_code) {
    auto options = std::make_shared<DiffOptions>();
    CLI::App* diff = app.add_subcommand(
        "diff",
        "Compare two clips (or two models at rest) pose by pose: per bone, the largest world "
        "position and rotation difference and the first frame past the tolerance; exit 0 when "
        "the same, 1 when they differ, 2 on trouble");
    add_examples(
        diff, {"castkit diff examples/data/hero/hero_walk.cast examples/data/hero/hero_walk.seanim "
               "--model examples/data/hero/hero.cast",
               "castkit diff examples/data/hero/hero.cast examples/data/hero/hero.semodel"});
    diff->add_option("A", options->a, "First file (any format castkit reads)")->required();
    diff->add_option("B", options->b, "Second file")->required();
    diff->add_option("--model", options->model,
                     "File with the Model whose Skeleton both clips play on (default: A's own "
                     "skeleton, else a Model's in A's file)");
    diff->add_option("--animation-a", options->which_a,
                     "Which of A's animations: a 0-based index or a name (default: the first)");
    diff->add_option("--animation-b", options->which_b, "Which of B's animations");
    diff->add_option("--tolerance", options->compare.position_tolerance,
                     "World position difference allowed, in the files' units")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    diff->add_option("--angle", options->compare.rotation_tolerance,
                     "World rotation difference allowed, in degrees")
        ->capture_default_str()
        ->check(CLI::NonNegativeNumber);
    diff->add_option("--step", options->compare.step, "Frames of A between compared poses")
        ->capture_default_str()
        ->check(CLI::PositiveNumber);
    diff->add_flag("--all", options->all, "List every bone, not only those that differ");
    diff->add_flag(
        "--no-rig", [options](std::int64_t) { options->compare.solve_rig = false; },
        "Compare the curves alone: do not solve the skeleton's IK handles and "
        "constraints");
    diff->add_flag("--json", options->json, "Print JSON (every bone)");
    diff->callback([options, &exit_code] {
        int loading = kSuccess;
        const std::optional<Compared> compared = compare(*options, loading);
        if (!compared) {
            exit_code = kTrouble;
            return;
        }
        const std::string text =
            options->json ? json_report(*compared, *options) : text_report(*compared, *options);
        if (!print_stdout(text, exit_code)) {
            exit_code = kTrouble;
            return;
        }
        if (compared->difference.differs()) exit_code = std::max(exit_code, kDiffer);
    });
}

}  // namespace castkit::cli

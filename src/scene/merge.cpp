// scene::merge: animations from separate files moved into a model's document.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <castkit/anim/animation.hpp>
#include <castkit/anim/bake.hpp>
#include <castkit/anim/skeleton.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/scene/axis_change.hpp>
#include <castkit/scene/merge.hpp>
#include <memory>
#include <set>
#include <unordered_map>
#include <utility>

namespace castkit::scene {
namespace {

// Everything in the model that an animation's curves may name.
struct Targets {
    std::vector<anim::Skeleton> skeletons;
    std::set<std::string, std::less<>> blend_shapes;
    std::set<std::string, std::less<>> nodes;  // models, meshes, hairs (for `vb`)

    bool has_bone(std::string_view name) const {
        for (const anim::Skeleton& skeleton : skeletons)
            if (skeleton.find_bone(name) >= 0) return true;
        return false;
    }
    // True when the curve keys something in the model; curves without a name or with an
    // unknown `kp` are the evaluator's to report, so they count as neither matched nor missing.
    std::optional<bool> matches(const cast::ConstCurve& curve) const {
        auto name = curve.node_name();
        auto channel = cast::key_property_from_name(curve.key_property().value_or(""));
        if (!name || !channel) return std::nullopt;
        if (*channel == anim::Channel::BlendShape) return blend_shapes.contains(*name);
        if (*channel == anim::Channel::Visibility) return has_bone(*name) || nodes.contains(*name);
        return has_bone(*name);
    }
};

// The model's skeletons and named nodes. Skeletons that do not build (a parent cycle) only
// lose their bones for matching; writers report them. O(bones + children).
Targets collect_targets(const cast::Document& model) {
    Targets targets;
    for (const cast::ConstModel& m : model.models()) {
        if (cast::ConstSkeleton skeleton = m.skeleton()) {
            Diagnostics ignored;
            if (auto built = anim::build_skeleton(skeleton, ignored))
                targets.skeletons.push_back(std::move(*built));
        }
        anim::BindingTargets named = anim::binding_targets(m);
        targets.blend_shapes.insert(named.blend_shapes.begin(), named.blend_shapes.end());
        targets.nodes.insert(named.nodes.begin(), named.nodes.end());
    }
    return targets;
}

struct Merger {
    cast::Document& model;
    Targets targets;
    Diagnostics& diagnostics;
    std::set<std::string, std::less<>> names;
    MergeResult result;

    Diagnostic report(Severity severity, const std::string& file, std::string path,
                      std::string rule, std::string message) {
        Diagnostic d;
        d.severity = severity;
        d.file = file;
        d.path = std::move(path);
        d.rule = std::move(rule);
        d.message = std::move(message);
        return d;
    }

    // `wanted`, or the first of `wanted_2`, `wanted_3`, … not yet taken.
    std::string unique_name(const std::string& wanted) {
        std::string name = wanted;
        for (int n = 2; names.contains(name); ++n) name = fmt::format("{}_{}", wanted, n);
        names.insert(name);
        return name;
    }

    // Drops the curves that name nothing in the model; false when nothing matched at all.
    bool bind(cast::Node& animation, const std::string& file, const std::string& path) {
        std::vector<std::string> missing;
        std::size_t matched = 0, curves = 0;
        animation.take_children_if([&](const cast::Node& child) {
            if (!child.is(cast::NodeId::Curve)) return false;
            ++curves;
            const auto curve = cast::view_of<cast::ConstCurve>(child);
            const std::optional<bool> match = targets.matches(curve);
            if (!match || *match) {
                matched += match ? 1 : 0;
                return false;
            }
            std::string name(curve.node_name().value_or(""));
            if (std::find(missing.begin(), missing.end(), name) == missing.end())
                missing.push_back(std::move(name));
            return true;
        });
        if (curves > 0 && matched == 0) {
            diagnostics.push_back(report(
                Severity::Error, file, path, "merge.no-match",
                fmt::format("none of the animation's {} curves names a bone, blend shape or node "
                            "of the model; the animation was not merged",
                            curves)));
            return false;
        }
        if (!missing.empty())
            diagnostics.push_back(
                report(Severity::Warning, file, path, "merge.unmatched-curves",
                       fmt::format("the model has no {}: their curves were dropped",
                                   fmt::join(missing, ", "))));
        return true;
    }

    void merge_source(AnimationSource source, cast::Node& target_root) {
        const std::string file =
            source.document.source_name.empty() ? source.name : source.document.source_name;
        std::vector<std::unique_ptr<cast::Node>> taken;
        std::vector<std::string> paths;

        bool has_models = false;
        std::size_t r = 0;
        for (cast::Node& root : source.document.roots()) {
            if (!root.is(cast::NodeId::Root)) continue;
            std::size_t a = 0;
            for (auto& animation : root.take_children_if([&](const cast::Node& child) {
                     has_models = has_models || child.is(cast::NodeId::Model);
                     if (!child.is(cast::NodeId::Animation)) return false;
                     paths.push_back(fmt::format("root[{}]/animation[{}]", r, a++));
                     return true;
                 }))
                taken.push_back(std::move(animation));
            ++r;
        }
        if (taken.empty()) {
            diagnostics.push_back(report(Severity::Error, file, "", "merge.no-animation",
                                         "the file holds no animation to merge"));
            return;
        }
        if (has_models)
            diagnostics.push_back(report(Severity::Warning, file, "", "merge.models-ignored",
                                         "the file's models were not merged, only its animations"));
        for (std::size_t i = 0; i < taken.size(); ++i) {
            cast::Node& animation = *taken[i];
            if (!bind(animation, file, paths[i])) continue;
            auto view = cast::view_of<cast::Animation>(animation);
            auto own = view.name();
            const std::string name =
                unique_name(own && !own->empty() ? std::string(*own) : source.name);
            if (!own || *own != name) view.set_name(name);
            // Fresh hashes from the model for every node, links among them following (rule 12).
            model.adopt(animation, &target_root);
            result.merged.push_back(name);
        }
    }
};

cast::Node& first_root(cast::Document& model) {
    for (cast::Node& root : model.roots())
        if (root.is(cast::NodeId::Root)) return root;
    return model.add_root().node();
}

Diagnostic layering_failed(const AnimationSource& source, const std::string& why) {
    Diagnostic d;
    d.file = source.document.source_name;
    d.rule = "merge.base";
    d.message = fmt::format("the additive animation of '{}' was not layered on the base: {}",
                            source.name, why);
    return d;
}

// `source`'s first animation baked onto `base` on `model`'s skeleton: a document of its
// absolute motion, or why not.
Expected<cast::Document> layered(const cast::Document& model, const AnimationSource& source,
                                 const MergeBase& base, Diagnostics& diagnostics) {
    const cast::Document& clip_document = source.document;
    const cast::ConstAnimation clip = clip_document.animations().front();
    const auto chosen = anim::choose_skeleton(clip, clip_document, &model);
    if (!chosen) return make_error(layering_failed(source, "the model has no Skeleton"));
    const std::vector<cast::ConstAnimation> bases = base.document->animations();
    if (bases.empty()) return make_error(layering_failed(source, "the base holds no Animation"));
    auto skeleton = anim::build_skeleton(chosen->skeleton, diagnostics, chosen->document);
    if (!skeleton) return make_error(skeleton.error());
    auto animation =
        anim::build_animation(clip, *skeleton, chosen->targets, diagnostics, &clip_document);
    if (!animation) return make_error(animation.error());
    auto under = anim::build_animation(bases.front(), *skeleton, chosen->targets, diagnostics,
                                       base.document);
    if (!under) return make_error(under.error());
    // What the bake may keep grows with the three documents it reads.
    const std::uint64_t input_bytes =
        cast::file_size(clip_document) + cast::file_size(*base.document) + cast::file_size(model);
    auto baked = anim::bake(*animation, *skeleton,
                            {.input_bytes = input_bytes,
                             .input_name = clip_document.source_name,
                             .base = &*under,
                             .base_frame = base.frame});
    if (!baked && baked.error().file.empty()) {
        Diagnostic refused = baked.error();
        refused.file = clip_document.source_name;
        return make_error(std::move(refused));
    }
    return baked;
}

// The up axis and units `model` says, recorded in the first Root of `animations` where it says
// none: the lent skeleton's rests are in them, and so are the animations played on it.
void take_model_axes(cast::Document& animations, const cast::Document& model) {
    std::vector<cast::Root> roots = animations.root_nodes();
    if (roots.empty()) return;
    const std::optional<cast::Axis> model_up = said_up_axis(model);
    if (model_up && !said_up_axis(animations))
        roots.front().first_metadata().set_up_axis(*model_up);
    const std::optional<cast::Units> model_units = said_units(model);
    if (model_units && !said_units(animations))
        roots.front().first_metadata().set_units(*model_units);
}

}  // namespace

bool holds_additive_curve(const cast::Document& document) {
    for (const cast::ConstAnimation& animation : document.animations())
        for (const cast::ConstCurve& curve : animation.curves())
            if (curve.mode_name() == "additive") return true;
    return false;
}

Expected<std::size_t> lend_skeleton(cast::Document& animations, const cast::Document& model) {
    for (const cast::ConstModel& held : std::as_const(animations).models())
        if (held.skeleton()) return 0;
    cast::ConstSkeleton lent;
    for (const cast::ConstModel& candidate : model.models())
        if (!lent) lent = candidate.skeleton();
    if (!lent) {
        Diagnostic d;
        d.file = model.source_name;
        d.rule = "merge.no-skeleton";
        d.message = "no Model with a Skeleton to play the animations on";
        return make_error(std::move(d));
    }
    std::size_t lent_to = 0;
    for (cast::Animation& animation : animations.animations()) {
        if (animation.skeleton()) continue;
        animations.adopt(lent.node(), &animation.node());
        ++lent_to;
    }
    if (lent_to > 0) take_model_axes(animations, model);
    return lent_to;
}

MergeResult merge(cast::Document& model, std::vector<AnimationSource> animations,
                  const MergeBase& base, Diagnostics& diagnostics) {
    if (base.document != nullptr)
        for (AnimationSource& source : animations) {
            if (!holds_additive_curve(source.document)) continue;
            auto baked = layered(model, source, base, diagnostics);
            if (!baked) {
                diagnostics.push_back(baked.error());
                continue;
            }
            baked->source_name = source.document.source_name;
            source.document = std::move(*baked);
        }
    return merge(model, std::move(animations), diagnostics);
}

MergeResult merge(cast::Document& model, std::vector<AnimationSource> animations,
                  Diagnostics& diagnostics) {
    Merger merger{model, collect_targets(model), diagnostics, {}, {}};
    for (const cast::ConstAnimation& existing : std::as_const(model).animations())
        if (auto name = existing.name()) merger.names.emplace(*name);
    cast::Node& root = first_root(model);
    for (AnimationSource& source : animations) merger.merge_source(std::move(source), root);
    return std::move(merger.result);
}

}  // namespace castkit::scene

// build_animation: binds a Cast Animation's curves to a Skeleton and resolves their modes.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <castkit/anim/animation.hpp>
#include <castkit/anim/curve_sampling.hpp>
#include <cmath>
#include <limits>
#include <optional>

#include "../cast/node_path.hpp"

namespace castkit::anim {

BindingTargets binding_targets(const cast::ConstModel& model) {
    BindingTargets targets;
    if (auto name = model.name()) targets.nodes.emplace_back(*name);
    for (const cast::ConstBlendShape& shape : model.blend_shapes())
        if (auto name = shape.name()) targets.blend_shapes.emplace_back(*name);
    for (const cast::ConstMesh& mesh : model.meshes())
        if (auto name = mesh.name()) targets.nodes.emplace_back(*name);
    for (const cast::ConstHair& hair : model.hairs())
        if (auto name = hair.name()) targets.nodes.emplace_back(*name);
    return targets;
}

namespace {
// The first Model of `document` with a Skeleton.
std::optional<SkeletonChoice> first_model_skeleton(const cast::Document& document) {
    for (const cast::ConstModel& model : document.models())
        if (cast::ConstSkeleton skeleton = model.skeleton())
            return SkeletonChoice{skeleton, &document, binding_targets(model)};
    return std::nullopt;
}
}  // namespace

std::optional<SkeletonChoice> choose_skeleton(const cast::ConstAnimation& animation,
                                              const cast::Document& animation_document,
                                              const cast::Document* model_document) {
    if (model_document != nullptr) return first_model_skeleton(*model_document);
    if (cast::ConstSkeleton own = animation.skeleton())
        return SkeletonChoice{own, &animation_document, {}};
    return first_model_skeleton(animation_document);
}

namespace {

// The three channel kinds a CurveModeOverride can cover (`ot`, `or`, `os`); bs and vb none.
enum Kind { kTranslation, kRotation, kScale, kNoKind };

Kind kind_of(Channel channel) {
    switch (channel) {
        case Channel::TranslationX:
        case Channel::TranslationY:
        case Channel::TranslationZ:
            return kTranslation;
        case Channel::Rotation:
            return kRotation;
        case Channel::ScaleX:
        case Channel::ScaleY:
        case Channel::ScaleZ:
            return kScale;
        default:
            return kNoKind;
    }
}

// "root[1]/animation[0]": where `target` sits in its document, for diagnostics.
std::string locate(const cast::Document* document, const cast::Node* target) {
    if (document == nullptr) return "animation";
    std::string found;
    auto search = [&](auto& self, const cast::Node& node, const cast::PathStep* step) -> bool {
        if (&node == target) {
            found = cast::format_path(step);
            return true;
        }
        cast::SiblingCounter counter;
        for (const cast::Node& child : node.children()) {
            cast::PathStep next{step, child.id, counter.next(child.id)};
            if (self(self, child, &next)) return true;
        }
        return false;
    };
    cast::SiblingCounter counter;
    for (const cast::Node& root : document->roots()) {
        cast::PathStep step{nullptr, root.id, counter.next(root.id)};
        if (search(search, root, &step)) return found;
    }
    return "animation";
}

bool contains_name(const std::vector<std::string>& names, std::string_view name) {
    std::string folded = fold_case(name);
    return std::any_of(names.begin(), names.end(),
                       [&](const std::string& n) { return n == name || fold_case(n) == folded; });
}

std::uint32_t slot_for(std::vector<std::string>& slots, std::string_view name) {
    auto it = std::find(slots.begin(), slots.end(), name);
    if (it != slots.end()) return static_cast<std::uint32_t>(it - slots.begin());
    slots.emplace_back(name);
    return static_cast<std::uint32_t>(slots.size() - 1);
}

}  // namespace

namespace detail {

class AnimationBuilder {
  public:
    AnimationBuilder(const cast::ConstAnimation& source, const Skeleton& skeleton,
                     const BindingTargets& targets, Diagnostics& reports,
                     const cast::Document* document)
        : source_(source),
          skeleton_(skeleton),
          targets_(targets),
          reports_(reports),
          document_(document),
          path_(locate(document, &source.node())) {}

    Expected<Animation> build() {
        out_.name_ = std::string(source_.name().value_or(""));
        out_.looping_ = source_.looping();
        out_.bone_count_ = skeleton_.bone_count();
        if (auto framerate = source_.framerate()) {
            if (!(*framerate > 0.0f) || !std::isfinite(*framerate))
                return make_error(
                    problem(source_.node(), path_, "anim.framerate",
                            fmt::format("framerate fr = {} is not a positive number", *framerate)));
            out_.framerate_ = *framerate;
        } else {
            reports_.push_back(problem(source_.node(), path_, "anim.framerate",
                                       "framerate fr is missing (required); using 30"));
        }
        resolve_overrides();
        cast::SiblingCounter counter;
        for (const cast::Node& child : source_.node().children()) {
            std::uint32_t index = counter.next(child.id);
            std::string path = fmt::format("{}/{}", path_, cast::step_name(child.id, index));
            if (child.is(cast::NodeId::Curve))
                add_curve(cast::view_of<cast::ConstCurve>(child), path);
            else if (child.is(cast::NodeId::NotificationTrack))
                add_notification_track(cast::view_of<cast::ConstNotificationTrack>(child), path);
        }
        if (start_ > end_) start_ = end_ = 0.0f;
        out_.start_frame_ = start_;
        out_.end_frame_ = end_;
        return std::move(out_);
    }

  private:
    Diagnostic problem(const cast::Node& node, const std::string& path, std::string rule,
                       std::string message) const {
        return {.severity = Severity::Warning,
                .file = document_ ? document_->source_name : "",
                .offset = node.file_offset,
                .path = path,
                .rule = std::move(rule),
                .message = std::move(message)};
    }

    // Rule 23: an override covers its node and every descendant; the nearest one whose flag
    // covers the channel kind wins (the first in file order among several on one node).
    void resolve_overrides() {
        const std::size_t bones = skeleton_.bone_count();
        std::vector<std::array<std::optional<CurveMode>, 3>> own(bones);
        cast::SiblingCounter counter;
        for (const cast::Node& child : source_.node().children()) {
            std::uint32_t index = counter.next(child.id);
            if (!child.is(cast::NodeId::CurveModeOverride)) continue;
            auto override_node = cast::view_of<cast::ConstCurveModeOverride>(child);
            std::string path = fmt::format("{}/{}", path_, cast::step_name(child.id, index));
            auto name = override_node.node_name();
            auto mode_text = override_node.mode_name();
            std::optional<CurveMode> mode;
            if (auto stored = override_node.mode(); stored && *stored) mode = **stored;
            if (!mode) {
                reports_.push_back(
                    problem(child, path, "anim.override-mode",
                            fmt::format("override mode '{}' is not absolute, relative or "
                                        "additive; the override is ignored",
                                        mode_text.value_or("(missing)"))));
                continue;
            }
            std::int32_t bone = name ? skeleton_.find_bone(*name) : -1;
            if (bone < 0) {
                reports_.push_back(
                    problem(child, path, "anim.unknown-node",
                            fmt::format("override node '{}' names no bone of the skeleton",
                                        name.value_or("(missing)"))));
                continue;
            }
            // The first covering override in file order keeps the kind, as both plugins do.
            auto claim = [&](bool covers, int kind) {
                if (covers && !own[bone][kind]) own[bone][kind] = mode;
            };
            claim(override_node.override_translation(), kTranslation);
            claim(override_node.override_rotation(), kRotation);
            claim(override_node.override_scale(), kScale);
        }
        resolved_.assign(bones, {});
        for (std::uint32_t bone : skeleton_.order()) {
            std::int32_t parent = skeleton_.parents()[bone];
            for (int kind = 0; kind < 3; ++kind)
                resolved_[bone][kind] = own[bone][kind] ? own[bone][kind]
                                        : parent >= 0   ? resolved_[parent][kind]
                                                        : std::nullopt;
        }
    }

    void add_curve(const cast::ConstCurve& curve, const std::string& path) {
        Diagnostics warnings;
        auto keys = read_curve_keys(curve, warnings);
        for (Diagnostic warning : warnings) {
            if (document_ != nullptr) warning.file = document_->source_name;
            warning.path = path;
            reports_.push_back(std::move(warning));
        }
        if (!keys) {
            Diagnostic report = keys.error();
            if (document_ != nullptr) report.file = document_->source_name;
            report.severity = Severity::Warning;
            report.path = path;
            report.message += "; the curve is skipped";
            reports_.push_back(std::move(report));
            return;
        }
        auto node_name = curve.node_name();
        if (!node_name) {
            reports_.push_back(problem(curve.node(), path, "anim.curve-nn",
                                       "node name nn is missing; the curve is skipped"));
            return;
        }
        BoundCurve bound;
        bound.channel = keys->channel;
        bound.blend_weight = curve.additive_blend_weight();
        if (auto mode = curve.mode())
            bound.mode = *mode;
        else
            reports_.push_back(problem(curve.node(), path, "anim.curve-mode",
                                       fmt::format("mode '{}' is not absolute, relative or "
                                                   "additive; evaluated as absolute",
                                                   curve.mode_name().value_or(""))));
        Kind kind = kind_of(bound.channel);
        if (kind != kNoKind) {
            std::int32_t bone = skeleton_.find_bone(*node_name);
            if (bone < 0) {
                reports_.push_back(
                    problem(curve.node(), path, "anim.unknown-node",
                            fmt::format("curve node '{}' names no bone of the skeleton; "
                                        "the {} curve is skipped",
                                        *node_name, key_property_name(bound.channel))));
                return;
            }
            bound.target = static_cast<std::uint32_t>(bone);
            if (auto mode = resolved_[bone][kind]) bound.mode = *mode;
        } else if (bound.channel == Channel::BlendShape) {
            bound.target = slot_for(out_.blend_shapes_, *node_name);
            if (!targets_.blend_shapes.empty() && !contains_name(targets_.blend_shapes, *node_name))
                reports_.push_back(
                    problem(curve.node(), path, "anim.unknown-node",
                            fmt::format("bs curve names '{}', which is no blend shape of "
                                        "the model",
                                        *node_name)));
        } else {
            bound.target = slot_for(out_.visibility_nodes_, *node_name);
            if (!targets_.nodes.empty() && skeleton_.find_bone(*node_name) < 0 &&
                !contains_name(targets_.nodes, *node_name))
                reports_.push_back(
                    problem(curve.node(), path, "anim.unknown-node",
                            fmt::format("vb curve names '{}', which is no bone, mesh, "
                                        "hair or model",
                                        *node_name)));
        }
        append_keys(*keys, bound);
        out_.curves_.push_back(bound);
    }

    void append_keys(const CurveKeys& keys, BoundCurve& bound) {
        TrackRange range{0, static_cast<std::uint32_t>(keys.size())};
        if (bound.channel == Channel::Rotation) {
            range.first = static_cast<std::uint32_t>(out_.rotation_frames_.size());
            out_.rotation_frames_.insert(out_.rotation_frames_.end(), keys.frames.begin(),
                                         keys.frames.end());
            out_.rotation_values_.insert(out_.rotation_values_.end(), keys.rotations.begin(),
                                         keys.rotations.end());
            bound.track = static_cast<std::uint32_t>(out_.rotation_tracks_.size());
            out_.rotation_tracks_.push_back(range);
        } else {
            range.first = static_cast<std::uint32_t>(out_.scalar_frames_.size());
            out_.scalar_frames_.insert(out_.scalar_frames_.end(), keys.frames.begin(),
                                       keys.frames.end());
            out_.scalar_values_.insert(out_.scalar_values_.end(), keys.scalars.begin(),
                                       keys.scalars.end());
            bound.track = static_cast<std::uint32_t>(out_.scalar_tracks_.size());
            out_.scalar_tracks_.push_back(range);
        }
        extend_range(keys.frames.front(), keys.frames.back());
    }

    void add_notification_track(const cast::ConstNotificationTrack& track,
                                const std::string& path) {
        const cast::Property* kb = track.node().find("kb");
        if (kb == nullptr || !cast::is_integer_type(kb->type())) {
            reports_.push_back(
                problem(track.node(), path, "anim.notification-kb",
                        "key frame buffer kb is missing or not b/h/i; the track is skipped"));
            return;
        }
        NotificationTrackKeys keys;
        keys.name = std::string(track.name().value_or(""));
        for (std::size_t i = 0; i < kb->size(); ++i)
            keys.frames.push_back(static_cast<float>(kb->integer(i)));
        std::stable_sort(keys.frames.begin(), keys.frames.end());
        if (!keys.frames.empty()) extend_range(keys.frames.front(), keys.frames.back());
        out_.notification_tracks_.push_back(std::move(keys));
    }

    void extend_range(float first, float last) {
        start_ = std::min(start_, first);
        end_ = std::max(end_, last);
    }

    cast::ConstAnimation source_;
    const Skeleton& skeleton_;
    const BindingTargets& targets_;
    Diagnostics& reports_;
    const cast::Document* document_;
    std::string path_;
    std::vector<std::array<std::optional<CurveMode>, 3>> resolved_;
    Animation out_;
    float start_ = std::numeric_limits<float>::infinity();
    float end_ = -std::numeric_limits<float>::infinity();
};

}  // namespace detail

Expected<Animation> build_animation(const cast::ConstAnimation& animation, const Skeleton& skeleton,
                                    const BindingTargets& targets, Diagnostics& reports,
                                    const cast::Document* document) {
    return detail::AnimationBuilder(animation, skeleton, targets, reports, document).build();
}

}  // namespace castkit::anim

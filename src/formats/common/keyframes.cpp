#include "keyframes.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <castkit/anim/curve_sampling.hpp>
#include <cmath>
#include <glm/gtc/quaternion.hpp>
#include <limits>
#include <map>

#include "io/binary_io.hpp"

namespace castkit::formats {
namespace {
constexpr double kOnFrameTolerance = 1e-3;       // ruling 33
constexpr double kMaxResampledFrames = 1 << 16;  // a longer resampled channel is refused

template <class Key>
std::size_t upper_index(const std::vector<Key>& keys, double frame) {
    auto it = std::upper_bound(keys.begin(), keys.end(), frame,
                               [](double f, const Key& key) { return f < key.frame; });
    return static_cast<std::size_t>(it - keys.begin());
}

// The whole frames of `frames` when every one is within tolerance of a distinct whole frame.
std::optional<std::vector<std::uint32_t>> whole_frames(const std::vector<double>& frames) {
    std::vector<std::uint32_t> out;
    out.reserve(frames.size());
    for (double frame : frames) {
        double rounded = std::round(frame);
        if (!(std::abs(frame - rounded) <= kOnFrameTolerance) || rounded < 0 ||
            rounded > std::numeric_limits<std::uint32_t>::max())
            return std::nullopt;
        auto whole = static_cast<std::uint32_t>(rounded);
        if (!out.empty() && whole <= out.back()) return std::nullopt;
        out.push_back(whole);
    }
    return out;
}

// Every whole frame of [min, max], or an error when the range cannot be sampled.
Expected<std::vector<std::uint32_t>> resample_frames(const std::vector<double>& frames,
                                                     const CurveContext& context,
                                                     std::string_view what) {
    double lo = frames.front(), hi = frames.back();
    for (double f : frames) {
        lo = std::min(lo, f);
        hi = std::max(hi, f);
    }
    double first = std::max(0.0, std::floor(lo));
    double last = std::max(first, std::ceil(hi));
    if (!std::isfinite(lo) || !std::isfinite(hi) || last - first >= kMaxResampledFrames ||
        last > std::numeric_limits<std::uint32_t>::max()) {
        return make_error(diagnostic_at(
            context.file, Diagnostic::kNoOffset, context.path,
            fmt::format("{} keys span frames {} to {}, which cannot be resampled", what, lo, hi)));
    }
    std::vector<std::uint32_t> out;
    auto count = static_cast<std::uint32_t>(last - first) + 1;
    for (std::uint32_t i = 0; i < count; ++i) out.push_back(static_cast<std::uint32_t>(first) + i);
    return out;
}

template <class Key>
Expected<std::vector<std::uint32_t>> frames_for(const std::vector<Key>& keys, const NodeKeys& node,
                                                std::string_view what, const CurveContext& context,
                                                Diagnostics& warnings, bool& resampled) {
    std::vector<double> frames;
    frames.reserve(keys.size());
    for (const Key& key : keys) frames.push_back(key.frame);
    resampled = false;
    if (auto exact = whole_frames(frames)) return std::move(*exact);
    resampled = true;
    auto out = resample_frames(frames, context, what);
    if (out && context.budget != nullptr &&
        (context.budget->used += out->size()) > context.budget->limit)
        return make_error(diagnostic_at(
            context.file, Diagnostic::kNoOffset, context.path,
            fmt::format("resampling keys between frames would make {} keys in the file, more than "
                        "the limit of {}",
                        context.budget->used, context.budget->limit)));
    if (out) {
        warnings.push_back(
            warning(context.file, context.path,
                    fmt::format("'{}' {} keys fall between frames; resampled at every frame {}..{} "
                                "(linear{})",
                                node.node, what, out->front(), out->back(),
                                what == "rotation" ? ", slerp" : "")));
    }
    return out;
}

void add_component_curves(cast::Animation& animation, const std::string& node,
                          const std::array<cast::KeyProperty, 3>& axes,
                          const std::vector<std::uint32_t>& frames,
                          const std::vector<glm::vec3>& values) {
    for (int axis = 0; axis < 3; ++axis) {
        cast::Curve curve = animation.add_curve();
        curve.set_node_name(node);
        curve.set_key_property(axes[axis]);
        curve.set_key_frames(frames);
        std::vector<float> component(values.size());
        for (std::size_t i = 0; i < values.size(); ++i) component[i] = values[i][axis];
        curve.set_float_values(component);
        curve.set_mode(cast::CurveMode::Absolute);
    }
}

Expected<void> add_vec3_channel(cast::Animation& animation, const NodeKeys& node,
                                const std::vector<Vec3Key>& keys,
                                const std::array<cast::KeyProperty, 3>& axes, std::string_view what,
                                const CurveContext& context, Diagnostics& warnings) {
    if (keys.empty()) return {};
    bool resampled = false;
    auto frames = frames_for(keys, node, what, context, warnings, resampled);
    if (!frames) return make_error(frames.error());
    std::vector<glm::vec3> values;
    values.reserve(frames->size());
    for (std::size_t i = 0; i < frames->size(); ++i)
        values.push_back(resampled ? sample_linear(keys, (*frames)[i]) : keys[i].value);
    add_component_curves(animation, node.node, axes, *frames, values);
    return {};
}

}  // namespace

glm::vec3 sample_linear(const std::vector<Vec3Key>& keys, double frame) {
    if (keys.empty()) return glm::vec3(0.0f);
    std::size_t upper = upper_index(keys, frame);
    if (upper == 0) return keys.front().value;
    if (upper == keys.size()) return keys.back().value;
    const Vec3Key& a = keys[upper - 1];
    const Vec3Key& b = keys[upper];
    double span = b.frame - a.frame;
    float t = span > 0 ? static_cast<float>((frame - a.frame) / span) : 0.0f;
    return a.value + (b.value - a.value) * t;
}

glm::vec4 sample_slerp(const std::vector<QuatKey>& keys, double frame) {
    if (keys.empty()) return glm::vec4(0, 0, 0, 1);
    std::size_t upper = upper_index(keys, frame);
    if (upper == 0) return keys.front().value;
    if (upper == keys.size()) return keys.back().value;
    const QuatKey& a = keys[upper - 1];
    const QuatKey& b = keys[upper];
    double span = b.frame - a.frame;
    float t = span > 0 ? static_cast<float>((frame - a.frame) / span) : 0.0f;
    glm::quat qa = glm::normalize(cast::quat_from_xyzw(a.value));
    glm::quat qb = glm::normalize(cast::quat_from_xyzw(b.value));
    return cast::xyzw_from_quat(anim::shortest_slerp(qa, qb, t));
}

Expected<void> add_curves(cast::Animation& animation, const NodeKeys& node,
                          const CurveContext& context, Diagnostics& warnings) {
    if (auto ok = add_vec3_channel(animation, node, node.positions, cast::kTranslationKeys,
                                   "position", context, warnings);
        !ok)
        return ok;
    if (!node.rotations.empty()) {
        bool resampled = false;
        auto frames = frames_for(node.rotations, node, "rotation", context, warnings, resampled);
        if (!frames) return make_error(frames.error());
        std::vector<glm::vec4> values;
        values.reserve(frames->size());
        for (std::size_t i = 0; i < frames->size(); ++i)
            values.push_back(resampled ? sample_slerp(node.rotations, (*frames)[i])
                                       : node.rotations[i].value);
        cast::Curve curve = animation.add_curve();
        curve.set_node_name(node.node);
        curve.set_key_property(cast::KeyProperty::Rotation);
        curve.set_key_frames(*frames);
        curve.set_quaternion_values(values);
        curve.set_mode(cast::CurveMode::Absolute);
    }
    return add_vec3_channel(animation, node, node.scales, cast::kScaleKeys, "scale", context,
                            warnings);
}

namespace {

struct Gathered {
    std::string node;
    std::vector<Vec3Key> components[6];  // tx ty tz sx sy sz, value in .x
    bool present[6] = {};
    std::vector<QuatKey> rotations;
};

std::vector<Vec3Key> merge_components(const std::vector<Vec3Key>* components, const bool* present,
                                      const glm::vec3& rest) {
    std::vector<double> frames;
    for (int axis = 0; axis < 3; ++axis)
        if (present[axis])
            for (const Vec3Key& key : components[axis]) frames.push_back(key.frame);
    std::sort(frames.begin(), frames.end());
    frames.erase(std::unique(frames.begin(), frames.end()), frames.end());
    std::vector<Vec3Key> out;
    out.reserve(frames.size());
    for (double frame : frames) {
        glm::vec3 value = rest;
        for (int axis = 0; axis < 3; ++axis)
            if (present[axis]) value[axis] = sample_linear(components[axis], frame).x;
        out.push_back({frame, value});
    }
    return out;
}

void warn(Diagnostics& warnings, const CurveContext& context, std::string message) {
    warnings.push_back(warning(context.file, context.path, std::move(message)));
}

// The component a translation or scale key property fills (tx ty tz sx sy sz: 0 to 5); nullopt
// for the others.
std::optional<std::size_t> component_of(std::optional<cast::KeyProperty> key) {
    for (std::size_t axis = 0; axis < 3; ++axis) {
        if (key == cast::kTranslationKeys[axis]) return axis;
        if (key == cast::kScaleKeys[axis]) return 3 + axis;
    }
    return std::nullopt;
}

}  // namespace

std::vector<NodeKeys> collect_curves(const cast::ConstAnimation& animation,
                                     const std::vector<std::pair<std::string, RestPose>>& rest,
                                     const CurveContext& context, Diagnostics& warnings) {
    std::vector<Gathered> gathered;
    std::map<std::string, std::size_t, std::less<>> index;
    for (const cast::ConstCurve& curve : animation.curves()) {
        std::string_view property = curve.key_property().value_or("");
        const std::optional<cast::KeyProperty> key = cast::key_property_from_name(property);
        auto name = curve.node_name();
        if (key == cast::KeyProperty::BlendShape || key == cast::KeyProperty::Visibility) {
            warn(warnings, context,
                 fmt::format("'{}' {} curve has no equivalent (dropped)", name.value_or(""),
                             property));
            continue;
        }
        const std::optional<std::size_t> component = component_of(key);
        if (!name || (!component && key != cast::KeyProperty::Rotation)) {
            warn(warnings, context,
                 fmt::format("curve without a node name or with key property '{}' (dropped)",
                             property));
            continue;
        }
        if (auto mode = curve.mode_name(); mode && *mode != "absolute")
            warn(warnings, context,
                 fmt::format("'{}' {} curve is {}; its keys are written as absolute "
                             "values",
                             *name, property, *mode));
        cast::IndexView frames = curve.key_frames();
        auto [it, inserted] = index.try_emplace(std::string(*name), gathered.size());
        if (inserted) {
            gathered.emplace_back();
            gathered.back().node = std::string(*name);
        }
        Gathered& g = gathered[it->second];
        if (key == cast::KeyProperty::Rotation) {
            cast::ArrayView<glm::vec4> values = curve.quaternion_values();
            std::size_t n = std::min(frames.size(), values.size());
            if (n != frames.size() || n != values.size())
                warn(warnings, context,
                     fmt::format("'{}' rq curve has {} frames and {} values; extra keys dropped",
                                 *name, frames.size(), values.size()));
            for (std::size_t i = 0; i < n; ++i)
                g.rotations.push_back({double(frames[i]), values[i]});
            std::stable_sort(g.rotations.begin(), g.rotations.end(),
                             [](const QuatKey& a, const QuatKey& b) { return a.frame < b.frame; });
            continue;
        }
        cast::ArrayView<float> values = curve.float_values();
        std::size_t n = std::min(frames.size(), values.size());
        if (n != frames.size() || n != values.size())
            warn(warnings, context,
                 fmt::format("'{}' {} curve has {} frames and {} values; extra keys dropped", *name,
                             property, frames.size(), values.size()));
        auto& keys = g.components[*component];
        g.present[*component] = true;
        for (std::size_t i = 0; i < n; ++i)
            keys.push_back({double(frames[i]), glm::vec3(values[i], 0, 0)});
        std::stable_sort(keys.begin(), keys.end(),
                         [](const Vec3Key& a, const Vec3Key& b) { return a.frame < b.frame; });
    }
    if (!animation.curve_mode_overrides().empty())
        warn(warnings, context, "curve mode overrides have no equivalent (dropped)");
    if (!animation.notification_tracks().empty())
        warn(warnings, context, "notification tracks have no equivalent (dropped)");

    std::vector<NodeKeys> out;
    out.reserve(gathered.size());
    for (Gathered& g : gathered) {
        RestPose pose;
        for (const auto& [name, r] : rest)
            if (name == g.node) pose = r;
        NodeKeys keys;
        keys.node = g.node;
        keys.positions = merge_components(g.components, g.present, pose.position);
        keys.scales = merge_components(g.components + 3, g.present + 3, pose.scale);
        keys.rotations = std::move(g.rotations);
        out.push_back(std::move(keys));
    }
    return out;
}

}  // namespace castkit::formats

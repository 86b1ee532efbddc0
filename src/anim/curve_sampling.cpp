#include <fmt/format.h>

#include <algorithm>
#include <castkit/anim/curve_sampling.hpp>
#include <cmath>
#include <numeric>

namespace castkit::anim {

glm::quat shortest_slerp(const glm::quat& a, const glm::quat& b, float alpha) {
    // The hot path of rotation sampling. glm::slerp computes one acos and three sines; the same
    // weights come from one acos, one sqrt and one sin/cos pair (which compilers fuse):
    // sin((1 - t)θ) / sin θ = cos tθ - cos θ · sin tθ / sin θ.
    float cosine = glm::dot(a, b);
    glm::quat target = b;
    if (cosine < 0.0f) {  // the shorter arc
        target = -b;
        cosine = -cosine;
    }
    // Within ~0.1° normalised lerp is slerp to float precision, and sin θ would be ~0.
    if (cosine > 0.999999f) return glm::normalize(a * (1.0f - alpha) + target * alpha);
    const float angle = std::acos(cosine);
    const float sine = std::sqrt((1.0f - cosine) * (1.0f + cosine));
    const float sine_alpha = std::sin(alpha * angle);
    const float cosine_alpha = std::cos(alpha * angle);
    const float weight_b = sine_alpha / sine;
    const float weight_a = cosine_alpha - cosine * weight_b;
    return glm::normalize(a * weight_a + target * weight_b);
}

float wrap_frame(float frame, float start, float end) {
    float period = end - start;
    if (!(period > 0.0f) || (frame >= start && frame <= end)) return frame;
    float offset = std::fmod(frame - start, period);
    if (offset < 0.0f) offset += period;
    return start + offset;
}

float CurveKeys::sample_scalar(float frame) const {
    std::uint32_t cursor = 0;
    return sample_linear(frames.data(), scalars.data(), static_cast<std::uint32_t>(frames.size()),
                         frame, cursor);
}

glm::quat CurveKeys::sample_rotation(float frame) const {
    std::uint32_t cursor = 0;
    return sample_slerp(frames.data(), rotations.data(), static_cast<std::uint32_t>(frames.size()),
                        frame, cursor);
}

namespace {

Diagnostic curve_problem(const cast::ConstCurve& curve, std::string rule, std::string message) {
    return {.severity = Severity::Warning,
            .file = {},  // the caller knows the document and names it
            .offset = curve.node().file_offset,
            .path = "curve",
            .rule = std::move(rule),
            .message = std::move(message)};
}

bool is_scalar_value_type(cast::PropertyType type) {
    return cast::is_integer_type(type) || type == cast::PropertyType::Float ||
           type == cast::PropertyType::Double;
}

// Stable sort of the keys by frame; true when they were out of order.
bool sort_keys(CurveKeys& keys) {
    if (std::is_sorted(keys.frames.begin(), keys.frames.end())) return false;
    std::vector<std::uint32_t> order(keys.frames.size());
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
        return keys.frames[a] < keys.frames[b];
    });
    auto permute = [&](auto& values) {
        if (values.empty()) return;
        auto copy = values;
        for (std::size_t i = 0; i < order.size(); ++i) values[i] = copy[order[i]];
    };
    permute(keys.frames);
    permute(keys.scalars);
    permute(keys.rotations);
    return true;
}

}  // namespace

Expected<CurveKeys> read_curve_keys(const cast::ConstCurve& curve, Diagnostics& warnings) {
    CurveKeys keys;
    auto key_property = curve.key_property();
    auto channel = key_property ? key_property_from_name(*key_property) : std::nullopt;
    if (!channel)
        return make_error(curve_problem(
            curve, "anim.curve-kp",
            fmt::format("unknown key property '{}'", key_property.value_or("(missing)"))));
    keys.channel = *channel;

    const cast::Property* frames = curve.node().find("kb");
    const cast::Property* values = curve.key_values();
    if (frames == nullptr || !cast::is_integer_type(frames->type()))
        return make_error(
            curve_problem(curve, "anim.curve-kb", "key frame buffer kb is missing or not b/h/i"));
    if (values == nullptr)
        return make_error(curve_problem(curve, "anim.curve-kv", "key value buffer kv is missing"));
    const bool rotation = *channel == Channel::Rotation;
    if (rotation ? values->type() != cast::PropertyType::Vector4
                 : !is_scalar_value_type(values->type()))
        return make_error(curve_problem(
            curve, "anim.curve-kv",
            fmt::format("key values of type {} cannot key {}", cast::type_name(values->type()),
                        key_property_name(*channel))));
    if (frames->size() != values->size() || frames->size() == 0)
        return make_error(curve_problem(
            curve, "anim.curve-keys",
            fmt::format("{} key frames but {} key values", frames->size(), values->size())));

    const std::size_t count = frames->size();
    keys.frames.resize(count);
    for (std::size_t i = 0; i < count; ++i) keys.frames[i] = static_cast<float>(frames->integer(i));
    if (rotation) {
        cast::ArrayView<glm::vec4> quaternions = cast::ArrayView<glm::vec4>::of(values);
        keys.rotations.resize(count);
        for (std::size_t i = 0; i < count; ++i) {
            glm::quat q = cast::quat_from_xyzw(quaternions[i]);
            float length = glm::length(q);
            if (!(length > 0.0f) || !std::isfinite(length))
                return make_error(curve_problem(
                    curve, "anim.curve-kv", fmt::format("key {} is not a rotation quaternion", i)));
            keys.rotations[i] = q / length;
        }
    } else {
        keys.scalars.resize(count);
        for (std::size_t i = 0; i < count; ++i)
            keys.scalars[i] = static_cast<float>(values->number(i));
    }
    if (sort_keys(keys))
        warnings.push_back(curve_problem(curve, "anim.curve-order",
                                         "key frames are not in ascending order; sorted"));
    return keys;
}

}  // namespace castkit::anim

#include "buffers.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace castkit::cast::validation {
namespace {

// Counts go into 32-bit lanes over blocks of this many elements so the loops vectorise.
constexpr std::size_t kBlock = std::size_t{1} << 20;

template <class Stored, class Predicate>
Scan count_if(const std::byte* data, std::size_t n, Predicate bad) {
    Scan scan;
    for (std::size_t begin = 0; begin < n; begin += kBlock) {
        const std::size_t end = std::min(n, begin + kBlock);
        std::uint32_t count = 0;
        for (std::size_t i = begin; i < end; ++i)
            count += bad(load<Stored>(data + i * sizeof(Stored)));
        scan.count += count;
    }
    if (scan.count == 0) return scan;
    for (std::size_t i = 0; i < n; ++i)
        if (bad(load<Stored>(data + i * sizeof(Stored)))) {
            scan.first = i;
            break;
        }
    return scan;
}

// Calls `f` with a value of the integer type an integer property stores.
template <class F>
auto with_integer_type(const Property& property, F&& f) {
    switch (property.type()) {
        case PropertyType::Byte:
            return f(std::uint8_t{});
        case PropertyType::Short:
            return f(std::uint16_t{});
        case PropertyType::Integer64:
            return f(std::uint64_t{});
        default:
            return f(std::uint32_t{});
    }
}

template <class T>
FaceScan faces_of(const std::byte* data, std::size_t indices, std::uint64_t vertex_count) {
    // Indices of a narrower type than the vertex count cannot reach it.
    const T limit = vertex_count > std::numeric_limits<T>::max() ? std::numeric_limits<T>::max()
                                                                 : static_cast<T>(vertex_count);
    const bool can_overflow = vertex_count <= std::numeric_limits<T>::max();
    auto out = [&](T v) -> bool { return can_overflow && v >= limit; };
    FaceScan scan;
    const std::size_t triangles = indices / 3;
    for (std::size_t begin = 0; begin < triangles; begin += kBlock) {
        const std::size_t end = std::min(triangles, begin + kBlock);
        std::uint32_t bad = 0, degenerate = 0;
        for (std::size_t t = begin; t < end; ++t) {
            const T a = load<T>(data + (3 * t) * sizeof(T));
            const T b = load<T>(data + (3 * t + 1) * sizeof(T));
            const T c = load<T>(data + (3 * t + 2) * sizeof(T));
            bad += std::uint32_t(out(a)) + std::uint32_t(out(b)) + std::uint32_t(out(c));
            degenerate += std::uint32_t((a == b) | (b == c) | (a == c));
        }
        scan.out_of_range.count += bad;
        scan.degenerate.count += degenerate;
    }
    for (std::size_t i = triangles * 3; i < indices; ++i)
        scan.out_of_range.count += out(load<T>(data + i * sizeof(T)));
    if (scan.out_of_range.count > 0)
        for (std::size_t i = 0; i < indices; ++i)
            if (out(load<T>(data + i * sizeof(T)))) {
                scan.out_of_range.first = i;
                break;
            }
    if (scan.degenerate.count > 0)
        for (std::size_t t = 0; t < triangles; ++t) {
            const T a = load<T>(data + (3 * t) * sizeof(T));
            const T b = load<T>(data + (3 * t + 1) * sizeof(T));
            const T c = load<T>(data + (3 * t + 2) * sizeof(T));
            if (a == b || b == c || a == c) {
                scan.degenerate.first = t;
                break;
            }
        }
    return scan;
}

}  // namespace

Scan non_finite(const Property& property) {
    const std::byte* data = property.bytes().data();
    if (property.type() == PropertyType::Double) {
        return count_if<std::uint64_t>(data, property.size(), [](std::uint64_t bits) {
            constexpr std::uint64_t kExponent = 0x7FF0000000000000u;
            return (bits & kExponent) == kExponent;
        });
    }
    std::size_t components = 0;
    switch (property.type()) {
        case PropertyType::Float:
            components = 1;
            break;
        case PropertyType::Vector2:
            components = 2;
            break;
        case PropertyType::Vector3:
            components = 3;
            break;
        case PropertyType::Vector4:
            components = 4;
            break;
        default:
            return {};
    }
    Scan scan = count_if<std::uint32_t>(data, property.size() * components, [](std::uint32_t bits) {
        return (bits & 0x7F800000u) == 0x7F800000u;
    });
    scan.first /= components;
    return scan;
}

Scan at_least(const Property& property, std::uint64_t limit) {
    if (!is_integer_type(property.type())) return {};
    return with_integer_type(property, [&](auto tag) -> Scan {
        using T = decltype(tag);
        if (limit > std::numeric_limits<T>::max()) return {};
        const T bound = static_cast<T>(limit);
        return count_if<T>(property.bytes().data(), property.size(),
                           [bound](T v) { return v >= bound; });
    });
}

std::uint64_t sum_plus_one(const Property& property) {
    if (!is_integer_type(property.type())) return 0;
    return with_integer_type(property, [&](auto tag) -> std::uint64_t {
        using T = decltype(tag);
        std::uint64_t sum = 0;
        const std::byte* data = property.bytes().data();
        for (std::size_t i = 0, n = property.size(); i < n; ++i)
            sum += std::uint64_t{load<T>(data + i * sizeof(T))} + 1;
        return sum;
    });
}

Scan out_of_order(const Property& property, bool strict) {
    if (!is_integer_type(property.type())) return {};
    return with_integer_type(property, [&](auto tag) -> Scan {
        using T = decltype(tag);
        const std::byte* data = property.bytes().data();
        for (std::size_t i = 1, n = property.size(); i < n; ++i) {
            const T previous = load<T>(data + (i - 1) * sizeof(T));
            const T current = load<T>(data + i * sizeof(T));
            if (strict ? current <= previous : current < previous) return Scan{1, i};
        }
        return Scan{};
    });
}

FaceScan scan_faces(const Property& faces, std::uint64_t vertex_count) {
    if (!is_integer_type(faces.type())) return {};
    return with_integer_type(faces, [&](auto tag) {
        return faces_of<decltype(tag)>(faces.bytes().data(), faces.size(), vertex_count);
    });
}

WeightScan scan_weight_sums(const Property& values, std::uint32_t influences, float tolerance) {
    WeightScan scan;
    if (values.type() != PropertyType::Float || influences == 0) return scan;
    const std::byte* data = values.bytes().data();
    const std::size_t vertices = values.size() / influences;
    auto sum_of = [&](std::size_t v) {
        float sum = 0.0f;
        for (std::uint32_t k = 0; k < influences; ++k)
            sum += load<float>(data + (v * influences + k) * sizeof(float));
        return sum;
    };
    // NaN sums compare false and are left to the non-finite check.
    auto far = [&](float sum) { return std::fabs(sum - 1.0f) > tolerance; };
    std::size_t count = 0;
    for (std::size_t v = 0; v < vertices; ++v) count += far(sum_of(v));
    scan.vertices.count = count;
    if (count == 0) return scan;
    for (std::size_t v = 0; v < vertices; ++v)
        if (float sum = sum_of(v); far(sum)) {
            scan.vertices.first = v;
            scan.sum = sum;
            break;
        }
    return scan;
}

Scan unnormalised_quaternions(const Property& property, float tolerance) {
    if (property.type() != PropertyType::Vector4) return {};
    const float low = (1.0f - tolerance) * (1.0f - tolerance);
    const float high = (1.0f + tolerance) * (1.0f + tolerance);
    const std::byte* data = property.bytes().data();
    auto bad = [&](std::size_t i) {
        const std::byte* q = data + i * 16;
        const float x = load<float>(q), y = load<float>(q + 4), z = load<float>(q + 8),
                    w = load<float>(q + 12);
        const float norm = x * x + y * y + z * z + w * w;
        return (norm < low) | (norm > high);
    };
    Scan scan;
    const std::size_t n = property.size();
    for (std::size_t i = 0; i < n; ++i) scan.count += bad(i);
    if (scan.count > 0)
        for (std::size_t i = 0; i < n; ++i)
            if (bad(i)) {
                scan.first = i;
                break;
            }
    return scan;
}

}  // namespace castkit::cast::validation

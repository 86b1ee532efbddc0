// Accessor decoding: every reference and byte range is checked against the buffers before
// anything is read or allocated, so a malformed file is an error naming its JSON path.
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <limits>
#include <type_traits>

#include "import_internal.hpp"
#include "problem.hpp"

namespace castkit::gltf::detail {
namespace {

double load_component(const unsigned char* p, int type, bool normalized) {
    switch (type) {
        case TINYGLTF_COMPONENT_TYPE_BYTE: {
            std::int8_t v;
            std::memcpy(&v, p, 1);
            return normalized ? std::max(v / 127.0, -1.0) : v;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
            return normalized ? *p / 255.0 : *p;
        case TINYGLTF_COMPONENT_TYPE_SHORT: {
            std::int16_t v;
            std::memcpy(&v, p, 2);
            return normalized ? std::max(v / 32767.0, -1.0) : v;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT: {
            std::uint16_t v;
            std::memcpy(&v, p, 2);
            return normalized ? v / 65535.0 : v;
        }
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT: {
            std::uint32_t v;
            std::memcpy(&v, p, 4);
            return normalized ? v / 4294967295.0 : v;
        }
        default: {
            float v;
            std::memcpy(&v, p, 4);
            return v;
        }
    }
}

// Element i's component c of type S at `data` (`stride` bytes apart) as a T, normalised as
// load_component does.
template <class S, class T>
T convert(const unsigned char* data, std::size_t i, std::size_t c, std::size_t stride,
          bool normalized) {
    S v;
    std::memcpy(&v, data + i * stride + c * sizeof(S), sizeof(S));
    if constexpr (std::is_same_v<S, T>) return v;
    if constexpr (std::is_same_v<S, float>) return static_cast<T>(v);
    constexpr double kMax = static_cast<double>(std::numeric_limits<S>::max());
    if (!normalized) return static_cast<T>(v);
    return static_cast<T>(std::is_signed_v<S> ? std::max(v / kMax, -1.0) : v / kMax);
}

// `count` elements of `components` values of type S, `stride` bytes apart, into `out`: one
// memcpy when they are already packed T, else one conversion each. O(count × components).
template <class S, class T>
void convert_all(const unsigned char* data, std::size_t count, std::size_t components,
                 std::size_t stride, bool normalized, T* out) {
    if constexpr (std::is_same_v<S, T>)
        if (stride == components * sizeof(S)) {
            if (count > 0) std::memcpy(out, data, count * stride);
            return;
        }
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t c = 0; c < components; ++c)
            out[i * components + c] = convert<S, T>(data, i, c, stride, normalized);
}

template <class T>
void convert_any(int type, const unsigned char* data, std::size_t count, std::size_t components,
                 std::size_t stride, bool normalized, T* out) {
    switch (type) {
        case TINYGLTF_COMPONENT_TYPE_BYTE:
            return convert_all<std::int8_t>(data, count, components, stride, normalized, out);
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
            return convert_all<std::uint8_t>(data, count, components, stride, normalized, out);
        case TINYGLTF_COMPONENT_TYPE_SHORT:
            return convert_all<std::int16_t>(data, count, components, stride, normalized, out);
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
            return convert_all<std::uint16_t>(data, count, components, stride, normalized, out);
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
            return convert_all<std::uint32_t>(data, count, components, stride, normalized, out);
        default:
            return convert_all<float>(data, count, components, stride, normalized, out);
    }
}

bool is_component_type(int type) {
    return type == TINYGLTF_COMPONENT_TYPE_BYTE || type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE ||
           type == TINYGLTF_COMPONENT_TYPE_SHORT ||
           type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT ||
           type == TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT || type == TINYGLTF_COMPONENT_TYPE_FLOAT;
}

// The size in bytes of one of the accessor's components.
std::size_t size_of_component(const tinygltf::Accessor& accessor) {
    return static_cast<std::size_t>(
        tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(accessor.componentType)));
}

}  // namespace

void Importer::warn(std::string path, std::string message) {
    warnings.push_back(problem(file, std::move(path), std::move(message), Severity::Warning));
}

void Importer::warn(std::string path, std::string message, std::string rule) {
    warnings.push_back(
        problem(file, std::move(path), std::move(message), Severity::Warning, std::move(rule)));
}

Unexpected Importer::fail(std::string path, std::string message) const {
    return make_error(problem(file, std::move(path), std::move(message)));
}

Expected<std::span<const unsigned char>> Importer::view_bytes(int index,
                                                              const std::string& where) const {
    if (index < 0 || static_cast<std::size_t>(index) >= gltf.bufferViews.size())
        return fail(where, fmt::format("buffer view {} does not exist", index));
    const tinygltf::BufferView& view = gltf.bufferViews[static_cast<std::size_t>(index)];
    const std::string view_path = fmt::format("/bufferViews/{}", index);
    if (view.buffer < 0 || static_cast<std::size_t>(view.buffer) >= gltf.buffers.size())
        return fail(view_path + "/buffer", fmt::format("buffer {} does not exist", view.buffer));
    const cast::Bytes data = buffers[static_cast<std::size_t>(view.buffer)].bytes;
    if (view.byteOffset > data.size() || view.byteLength > data.size() - view.byteOffset)
        return fail(view_path,
                    fmt::format("bytes {}..{} lie outside buffer {} ({} bytes)", view.byteOffset,
                                view.byteOffset + view.byteLength, view.buffer, data.size()));
    return std::span(reinterpret_cast<const unsigned char*>(data.data()) + view.byteOffset,
                     view.byteLength);
}

Expected<void> Importer::charge_decoded_values(const tinygltf::Accessor& accessor,
                                               const std::string& at, int components) const {
    const std::size_t count = accessor.count;
    // Without a buffer view the accessor is zeros (before sparse substitution); its size must
    // still be justified by the file.
    std::size_t total_buffer = 0;
    for (const cast::SharedBytes& buffer : buffers) total_buffer += buffer.size();
    if (accessor.bufferView < 0 && count > total_buffer + 1024)
        return fail(
            at + "/count",
            fmt::format("{} elements without a buffer view exceed what the file holds", count));
    const std::size_t budget = kDecodeBytesFactor * total_buffer + kDecodeConstant;
    const std::size_t left = budget - std::min(budget, decoded_values);
    const std::size_t values = std::min(count, budget + 1) * static_cast<std::size_t>(components);
    if (values > left)
        return fail(at, fmt::format("decoding {} more values would exceed the {} this file "
                                    "allows ({} per buffer byte plus {}): accessors are "
                                    "shared too often",
                                    values, budget, kDecodeBytesFactor, kDecodeConstant));
    decoded_values += values;
    return {};
}

template <class T>
Expected<void> Importer::read_dense(const tinygltf::Accessor& accessor, const std::string& at,
                                    int components, std::size_t element, bool decode,
                                    std::vector<T>& out) const {
    const std::size_t count = accessor.count;
    const std::size_t component_size = size_of_component(accessor);
    if (accessor.bufferView >= 0) {
        auto view = view_bytes(accessor.bufferView, at + "/bufferView");
        if (!view) return make_error(view.error());
        const std::size_t byte_stride =
            gltf.bufferViews[static_cast<std::size_t>(accessor.bufferView)].byteStride;
        const std::size_t stride = byte_stride ? byte_stride : element;
        if (stride < element)
            return fail(fmt::format("/bufferViews/{}/byteStride", accessor.bufferView),
                        "byte stride is smaller than one element");
        if (accessor.byteOffset % component_size != 0)
            return fail(at + "/byteOffset", "offset is not a multiple of the component size");
        const std::size_t length = view->size();
        // Overflow-safe: the last element must end inside the view.
        if (count > 0 && (accessor.byteOffset > length || element > length - accessor.byteOffset ||
                          (count - 1) > (length - accessor.byteOffset - element) / stride))
            return fail(
                at, fmt::format(
                        "{} elements of {} bytes at offset {} do not fit buffer view {} ({} bytes)",
                        count, element, accessor.byteOffset, accessor.bufferView, length));
        if (decode) {
            out.resize(count * static_cast<std::size_t>(components));
            convert_any(accessor.componentType, view->data() + accessor.byteOffset, count,
                        static_cast<std::size_t>(components), stride, accessor.normalized,
                        out.data());
        }
    } else if (decode) {
        out.assign(count * static_cast<std::size_t>(components), T{});
    }
    return {};
}

template <class T>
Expected<void> Importer::apply_sparse(const tinygltf::Accessor& accessor, const std::string& at,
                                      int components, std::size_t element, bool decode,
                                      std::vector<T>& out) const {
    const std::size_t count = accessor.count;
    const std::size_t component_size = size_of_component(accessor);
    const std::string sparse = at + "/sparse";
    const auto& sp = accessor.sparse;
    if (sp.count < 1 || static_cast<std::size_t>(sp.count) > count)
        return fail(sparse + "/count",
                    fmt::format("sparse count {} is not in 1..{}", sp.count, count));
    const int index_type = sp.indices.componentType;
    if (index_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE &&
        index_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT &&
        index_type != TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT)
        return fail(sparse + "/indices/componentType",
                    "sparse indices must be unsigned byte, short or int");
    const auto index_size = static_cast<std::size_t>(
        tinygltf::GetComponentSizeInBytes(static_cast<std::uint32_t>(index_type)));
    const auto n = static_cast<std::size_t>(sp.count);
    auto indices = view_bytes(sp.indices.bufferView, sparse + "/indices/bufferView");
    if (!indices) return make_error(indices.error());
    auto values = view_bytes(sp.values.bufferView, sparse + "/values/bufferView");
    if (!values) return make_error(values.error());
    if (sp.indices.byteOffset < 0 ||
        static_cast<std::size_t>(sp.indices.byteOffset) > indices->size() ||
        n > (indices->size() - static_cast<std::size_t>(sp.indices.byteOffset)) / index_size)
        return fail(sparse + "/indices", "sparse indices do not fit their buffer view");
    if (sp.values.byteOffset < 0 ||
        static_cast<std::size_t>(sp.values.byteOffset) > values->size() ||
        n > (values->size() - static_cast<std::size_t>(sp.values.byteOffset)) / element)
        return fail(sparse + "/values", "sparse values do not fit their buffer view");
    for (std::size_t k = 0; k < n; ++k) {
        const auto target = static_cast<std::size_t>(load_component(
            indices->data() + static_cast<std::size_t>(sp.indices.byteOffset) + k * index_size,
            index_type, false));
        if (target >= count)
            return fail(sparse + "/indices",
                        fmt::format("sparse index {} is outside the {} elements", target, count));
        for (int c = 0; c < components && decode; ++c)
            out[target * static_cast<std::size_t>(components) + static_cast<std::size_t>(c)] =
                static_cast<T>(
                    load_component(values->data() + static_cast<std::size_t>(sp.values.byteOffset) +
                                       k * element + static_cast<std::size_t>(c) * component_size,
                                   accessor.componentType, accessor.normalized));
    }
    return {};
}

template <class T>
Expected<std::vector<T>> Importer::read_components(int index, int components,
                                                   const std::string& path, bool decode) const {
    constexpr bool as_integers = std::is_integral_v<T>;
    if (index < 0 || static_cast<std::size_t>(index) >= gltf.accessors.size())
        return fail(path, fmt::format("accessor {} does not exist", index));
    const std::string at = fmt::format("/accessors/{}", index);
    const tinygltf::Accessor& accessor = gltf.accessors[static_cast<std::size_t>(index)];
    if (!is_component_type(accessor.componentType))
        return fail(at + "/componentType", fmt::format("component type {} is not one glTF allows",
                                                       accessor.componentType));
    // glTF allows only unsigned types for indices and joints; a negative one has no meaning.
    if (as_integers && (accessor.componentType == TINYGLTF_COMPONENT_TYPE_FLOAT ||
                        accessor.componentType == TINYGLTF_COMPONENT_TYPE_BYTE ||
                        accessor.componentType == TINYGLTF_COMPONENT_TYPE_SHORT))
        return fail(at + "/componentType", "an unsigned integer component type is required here");
    const int stored = tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(accessor.type));
    if (stored != components)
        return fail(at + "/type",
                    fmt::format("{} components per element expected, the accessor has {}",
                                components, stored));
    const std::size_t element = size_of_component(accessor) * static_cast<std::size_t>(components);
    if (auto charged = charge_decoded_values(accessor, at, components); !charged)
        return make_error(charged.error());
    std::vector<T> out;
    if (auto read = read_dense(accessor, at, components, element, decode, out); !read)
        return make_error(read.error());
    if (accessor.sparse.isSparse)
        if (auto applied = apply_sparse(accessor, at, components, element, decode, out); !applied)
            return make_error(applied.error());
    return out;
}

Expected<std::vector<float>> Importer::read_floats(int index, int components,
                                                   const std::string& path) const {
    return read_components<float>(index, components, path, true);
}

Expected<std::vector<std::uint32_t>> Importer::read_integers(int index, int components,
                                                             const std::string& path) const {
    return read_components<std::uint32_t>(index, components, path, true);
}

Expected<std::optional<cast::SharedBytes>> Importer::packed_view(int index, int component_type,
                                                                 int components, bool normalized,
                                                                 const std::string& path) const {
    if (index < 0 || static_cast<std::size_t>(index) >= gltf.accessors.size())
        return std::optional<cast::SharedBytes>();
    const tinygltf::Accessor& accessor = gltf.accessors[static_cast<std::size_t>(index)];
    if (accessor.componentType != component_type || accessor.normalized != normalized ||
        accessor.sparse.isSparse || accessor.bufferView < 0 ||
        static_cast<std::size_t>(accessor.bufferView) >= gltf.bufferViews.size())
        return std::optional<cast::SharedBytes>();
    const tinygltf::BufferView& view =
        gltf.bufferViews[static_cast<std::size_t>(accessor.bufferView)];
    const std::size_t element = static_cast<std::size_t>(tinygltf::GetComponentSizeInBytes(
                                    static_cast<std::uint32_t>(component_type))) *
                                static_cast<std::size_t>(components);
    if ((view.byteStride != 0 && view.byteStride != element) || view.buffer < 0 ||
        static_cast<std::size_t>(view.buffer) >= buffers.size() ||
        !buffers[static_cast<std::size_t>(view.buffer)].owner)
        return std::optional<cast::SharedBytes>();
    // Every check the decoding path makes, without decoding.
    if (auto checked = read_components<float>(index, components, path, false); !checked)
        return make_error(checked.error());
    return std::optional(buffers[static_cast<std::size_t>(view.buffer)].subspan(
        view.byteOffset + accessor.byteOffset, accessor.count * element));
}

}  // namespace castkit::gltf::detail

// The glTF JSON read with simdjson (its DOM: the JSON is small next to the binary data) into
// tinygltf's structures, which the importer reads; extras and extensions become
// tinygltf::Value trees. Buffers are not copied: each is a view into the GLB's binary chunk or
// the mapped .bin, which stays alive through its owner; only data: URIs are decoded.
#include <fmt/format.h>
#include <simdjson.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <memory>
#include <optional>
#include <utility>

#include "../../json/path.hpp"
#include "import_internal.hpp"
#include "io/base64.hpp"
#include "io/side_files.hpp"
#include "json_depth.hpp"
#include "problem.hpp"
#include "references.hpp"

namespace castkit::gltf::detail {
namespace {

namespace dom = simdjson::dom;

// Where the walk is, named in errors as a JSON pointer ("/accessors/3/count").
using Pointer = castkit::json::Path;

// The first error of the walk: thrown from deep inside it and caught by parse_gltf_json, the
// only place one can leave.
struct JsonError {
    std::string pointer;
    std::string message;
    std::string rule = "gltf.parse";
};

[[noreturn]] void fail(const Pointer& at, std::string message, std::string rule = "gltf.parse") {
    throw JsonError{at.pointer(), std::move(message), std::move(rule)};
}

// The bytes the walk may still allocate for tinygltf's structures (what the file's memory budget
// leaves after its DOM), and that budget, for the message. parse_gltf sets it for its walk, one
// walk a thread at a time: the walk's functions follow the DOM's shape, one a glTF object, and
// this spares each of them an argument.
struct WalkBudget {
    std::size_t left = 0;
    std::size_t limit = 0;
};
thread_local WalkBudget* walk_budget = nullptr;

// Counts `bytes` of tinygltf's structures, made for the value at `at`, against the walk's
// budget: a gltf.json-budget error past it.
void charge(std::size_t bytes, const Pointer& at) {
    if (walk_budget == nullptr) return;
    if (bytes > walk_budget->left)
        fail(at,
             fmt::format("the JSON's objects and values need more memory than the file's budget "
                         "of {} MiB (8 bytes per byte of the file plus 64 MiB)",
                         walk_budget->limit >> 20),
             "gltf.json-budget");
    walk_budget->left -= bytes;
}

// A std::string's heap storage beyond what it holds in place.
std::size_t heap_bytes(std::string_view text) { return text.size() < 16 ? 0 : text.size() + 1; }

const char* type_name(dom::element_type type) {
    switch (type) {
        case dom::element_type::ARRAY:
            return "an array";
        case dom::element_type::OBJECT:
            return "an object";
        case dom::element_type::STRING:
            return "a string";
        case dom::element_type::BOOL:
            return "a boolean";
        case dom::element_type::NULL_VALUE:
            return "null";
        default:
            return "a number";
    }
}

bool is_number(dom::element e) { return e.is_int64() || e.is_uint64() || e.is_double(); }

double number(dom::element e, const Pointer& at) {
    if (!is_number(e)) fail(at, fmt::format("expected a number, found {}", type_name(e.type())));
    return e.get_double().value_unsafe();
}

// A non-negative integer up to `max` (a float without fraction counts, as JSON allows).
std::uint64_t whole(dom::element e, const Pointer& at, std::uint64_t max) {
    if (e.is_uint64() && e.get_uint64().value_unsafe() <= max) return e.get_uint64().value_unsafe();
    const double v = number(e, at);
    if (v < 0.0 || std::trunc(v) != v || v > static_cast<double>(max))
        fail(at, fmt::format("expected an integer in 0..{}, found {}", max, v));
    return static_cast<std::uint64_t>(v);
}

int index(dom::element e, const Pointer& at) { return static_cast<int>(whole(e, at, INT_MAX)); }

std::size_t size(dom::element e, const Pointer& at) {
    return static_cast<std::size_t>(whole(e, at, std::uint64_t{1} << 53));
}

std::string string(dom::element e, const Pointer& at) {
    if (!e.is_string()) fail(at, fmt::format("expected a string, found {}", type_name(e.type())));
    const std::string_view text = e.get_string().value_unsafe();
    charge(heap_bytes(text), at);
    return std::string(text);
}

bool boolean(dom::element e, const Pointer& at) {
    if (!e.is_bool()) fail(at, fmt::format("expected a boolean, found {}", type_name(e.type())));
    return e.get_bool().value_unsafe();
}

dom::array array(dom::element e, const Pointer& at) {
    if (!e.is_array()) fail(at, fmt::format("expected an array, found {}", type_name(e.type())));
    return e.get_array().value_unsafe();
}

dom::object object(dom::element e, const Pointer& at) {
    if (!e.is_object()) fail(at, fmt::format("expected an object, found {}", type_name(e.type())));
    return e.get_object().value_unsafe();
}

// Calls `each(element, pointer, i)` for every element of the array at `at`.
template <class Each>
void for_each(dom::element e, const Pointer& at, Each each) {
    std::size_t i = 0;
    for (dom::element item : array(e, at)) {
        each(item, at[i], i);
        ++i;
    }
}

// Makes room in `out` for the elements of the array at `at`, counted against the walk's budget
// first: no vector of the walk grows past what its array holds.
template <class T>
void reserve_for(std::vector<T>& out, dom::element e, const Pointer& at) {
    const std::size_t count = array(e, at).size();
    charge(count * sizeof(T), at);
    out.reserve(out.size() + count);
}

// Appends parse(element, pointer) for each element of the array at `at` to `out`.
template <class T, class Parse>
void section(std::vector<T>& out, dom::element e, const Pointer& at, Parse parse) {
    reserve_for(out, e, at);
    for_each(e, at,
             [&](dom::element x, const Pointer& p, std::size_t) { out.push_back(parse(x, p)); });
}

std::vector<double> numbers(dom::element e, const Pointer& at) {
    std::vector<double> out;
    section(out, e, at, number);
    return out;
}

std::vector<int> indices(dom::element e, const Pointer& at) {
    std::vector<int> out;
    section(out, e, at, index);
    return out;
}

std::vector<std::string> strings(dom::element e, const Pointer& at) {
    std::vector<std::string> out;
    section(out, e, at, string);
    return out;
}

// What a member of a std::map<std::string, T> takes besides its value and its key's heap
// storage: the tree node's links and colour, the key in place, and the allocation's header.
constexpr std::size_t kMapNodeBytes = 32 + sizeof(std::string) + 16;

// Any JSON value as a tinygltf::Value (integers that fit an int as ints, as tinygltf does),
// counted against the walk's budget. Recursion is bounded by the depth check made before
// parsing.
tinygltf::Value value(dom::element e, const Pointer& at) {
    switch (e.type()) {
        case dom::element_type::ARRAY: {
            tinygltf::Value::Array items;
            const dom::array elements = e.get_array().value_unsafe();
            charge(elements.size() * sizeof(tinygltf::Value), at);
            items.reserve(elements.size());
            std::size_t i = 0;
            for (dom::element item : elements) items.push_back(value(item, at[i++]));
            return tinygltf::Value(std::move(items));
        }
        case dom::element_type::OBJECT: {
            tinygltf::Value::Object fields;
            const dom::object members = e.get_object().value_unsafe();
            for (dom::key_value_pair field : members) {
                charge(kMapNodeBytes + sizeof(tinygltf::Value) + heap_bytes(field.key), at);
                fields[std::string(field.key)] = value(field.value, at / field.key);
            }
            return tinygltf::Value(std::move(fields));
        }
        case dom::element_type::STRING:
            charge(heap_bytes(e.get_string().value_unsafe()), at);
            return tinygltf::Value(std::string(e.get_string().value_unsafe()));
        case dom::element_type::BOOL:
            return tinygltf::Value(e.get_bool().value_unsafe());
        case dom::element_type::INT64: {
            const std::int64_t v = e.get_int64().value_unsafe();
            if (v >= INT_MIN && v <= INT_MAX) return tinygltf::Value(static_cast<int>(v));
            return tinygltf::Value(static_cast<double>(v));
        }
        case dom::element_type::UINT64:
        case dom::element_type::DOUBLE:
            return tinygltf::Value(e.get_double().value_unsafe());
        default:
            return tinygltf::Value();
    }
}

tinygltf::ExtensionMap extensions(dom::element e, const Pointer& at) {
    tinygltf::ExtensionMap out;
    for (dom::key_value_pair field : object(e, at)) {
        charge(kMapNodeBytes + sizeof(tinygltf::Value) + heap_bytes(field.key), at);
        out[std::string(field.key)] = value(field.value, at / field.key);
    }
    return out;
}

// An object's extras as the import reads them: castkit's own keys (read_back_extra) converted,
// any other key kept with a null value and nothing converted, so that warn_unkept_extras still
// counts the object; extras that are not an object become `true`, which it counts too. What an
// application keeps there costs nothing: Cast has no place for it.
tinygltf::Value extras(dom::element e, const Pointer& at) {
    if (e.is_null()) return {};
    if (!e.is_object()) return tinygltf::Value(true);
    tinygltf::Value::Object fields;
    const dom::object members = e.get_object().value_unsafe();
    for (dom::key_value_pair field : members) {
        charge(kMapNodeBytes + sizeof(tinygltf::Value) + heap_bytes(field.key), at);
        fields[std::string(field.key)] =
            read_back_extra(field.key) ? value(field.value, at / field.key) : tinygltf::Value();
    }
    return tinygltf::Value(std::move(fields));
}

// Calls `each(key, value, pointer)` for every member of the object at `at`. Duplicate keys are
// all visited, so the last one wins, as in most JSON readers.
template <class Each>
void for_members(dom::element e, const Pointer& at, Each each) {
    for (dom::key_value_pair field : object(e, at)) each(field.key, field.value, at / field.key);
}

// The members every glTF object may have.
template <class T>
bool common(T& out, std::string_view key, dom::element v, const Pointer& at) {
    if (key == "extras")
        out.extras = extras(v, at);
    else if (key == "extensions")
        out.extensions = extensions(v, at);
    else
        return false;
    return true;
}

template <class T>
bool named(T& out, std::string_view key, dom::element v, const Pointer& at) {
    if (key == "name")
        out.name = string(v, at);
    else
        return common(out, key, v, at);
    return true;
}

std::map<std::string, int> attributes(dom::element e, const Pointer& at) {
    std::map<std::string, int> out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        charge(kMapNodeBytes + sizeof(int) + heap_bytes(key), p);
        out[std::string(key)] = index(v, p);
    });
    return out;
}

int type_of(std::string_view name) {
    static constexpr std::pair<std::string_view, int> kTypes[] = {
        {"SCALAR", TINYGLTF_TYPE_SCALAR}, {"VEC2", TINYGLTF_TYPE_VEC2},
        {"VEC3", TINYGLTF_TYPE_VEC3},     {"VEC4", TINYGLTF_TYPE_VEC4},
        {"MAT2", TINYGLTF_TYPE_MAT2},     {"MAT3", TINYGLTF_TYPE_MAT3},
        {"MAT4", TINYGLTF_TYPE_MAT4}};
    for (const auto& [type_name, type] : kTypes)
        if (name == type_name) return type;
    return -1;
}

void sparse(tinygltf::Accessor& out, dom::element e, const Pointer& at) {
    out.sparse.isSparse = true;
    out.sparse.count = 0;
    out.sparse.indices = {0, -1, -1};
    out.sparse.values = {-1, 0};
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "count")
            out.sparse.count = index(v, p);
        else if (key == "indices")
            for_members(v, p, [&](std::string_view k, dom::element x, const Pointer& q) {
                if (k == "bufferView")
                    out.sparse.indices.bufferView = index(x, q);
                else if (k == "byteOffset")
                    out.sparse.indices.byteOffset = index(x, q);
                else if (k == "componentType")
                    out.sparse.indices.componentType = index(x, q);
            });
        else if (key == "values")
            for_members(v, p, [&](std::string_view k, dom::element x, const Pointer& q) {
                if (k == "bufferView")
                    out.sparse.values.bufferView = index(x, q);
                else if (k == "byteOffset")
                    out.sparse.values.byteOffset = index(x, q);
            });
    });
}

tinygltf::Accessor accessor(dom::element e, const Pointer& at) {
    tinygltf::Accessor out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "bufferView")
            out.bufferView = index(v, p);
        else if (key == "byteOffset")
            out.byteOffset = size(v, p);
        else if (key == "componentType")
            out.componentType = index(v, p);
        else if (key == "normalized")
            out.normalized = boolean(v, p);
        else if (key == "count")
            out.count = size(v, p);
        else if (key == "type") {
            out.type = type_of(string(v, p));
            if (out.type < 0) fail(p, fmt::format("\"{}\" is not an accessor type", string(v, p)));
        } else if (key == "min")
            out.minValues = numbers(v, p);
        else if (key == "max")
            out.maxValues = numbers(v, p);
        else if (key == "sparse")
            sparse(out, v, p);
        else
            named(out, key, v, p);
    });
    return out;
}

tinygltf::BufferView buffer_view(dom::element e, const Pointer& at) {
    tinygltf::BufferView out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "buffer")
            out.buffer = index(v, p);
        else if (key == "byteOffset")
            out.byteOffset = size(v, p);
        else if (key == "byteLength")
            out.byteLength = size(v, p);
        else if (key == "byteStride")
            out.byteStride = size(v, p);
        else if (key == "target")
            out.target = index(v, p);
        else
            named(out, key, v, p);
    });
    return out;
}

tinygltf::Primitive primitive(dom::element e, const Pointer& at) {
    tinygltf::Primitive out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "attributes")
            out.attributes = attributes(v, p);
        else if (key == "indices")
            out.indices = index(v, p);
        else if (key == "material")
            out.material = index(v, p);
        else if (key == "mode")
            out.mode = index(v, p);
        else if (key == "targets")
            section(out.targets, v, p, attributes);
        else
            common(out, key, v, p);
    });
    return out;
}

tinygltf::Mesh mesh(dom::element e, const Pointer& at) {
    tinygltf::Mesh out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "primitives")
            section(out.primitives, v, p, primitive);
        else if (key == "weights")
            out.weights = numbers(v, p);
        else
            named(out, key, v, p);
    });
    return out;
}

tinygltf::Node node(dom::element e, const Pointer& at) {
    tinygltf::Node out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "camera")
            out.camera = index(v, p);
        else if (key == "skin")
            out.skin = index(v, p);
        else if (key == "mesh")
            out.mesh = index(v, p);
        else if (key == "children")
            out.children = indices(v, p);
        else if (key == "rotation")
            out.rotation = numbers(v, p);
        else if (key == "scale")
            out.scale = numbers(v, p);
        else if (key == "translation")
            out.translation = numbers(v, p);
        else if (key == "matrix")
            out.matrix = numbers(v, p);
        else if (key == "weights")
            out.weights = numbers(v, p);
        else
            named(out, key, v, p);
    });
    return out;
}

tinygltf::Skin skin(dom::element e, const Pointer& at) {
    tinygltf::Skin out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "inverseBindMatrices")
            out.inverseBindMatrices = index(v, p);
        else if (key == "skeleton")
            out.skeleton = index(v, p);
        else if (key == "joints")
            out.joints = indices(v, p);
        else
            named(out, key, v, p);
    });
    return out;
}

tinygltf::AnimationChannel channel(dom::element e, const Pointer& at) {
    tinygltf::AnimationChannel out;
    out.sampler = out.target_node = -1;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "sampler")
            out.sampler = index(v, p);
        else if (key == "target")
            for_members(v, p, [&](std::string_view k, dom::element x, const Pointer& q) {
                if (k == "node")
                    out.target_node = index(x, q);
                else if (k == "path")
                    out.target_path = string(x, q);
                else if (k == "extensions")
                    out.target_extensions = extensions(x, q);
            });
        else
            common(out, key, v, p);
    });
    return out;
}

tinygltf::AnimationSampler animation_sampler(dom::element e, const Pointer& at) {
    tinygltf::AnimationSampler out;
    out.input = out.output = -1;
    out.interpolation = "LINEAR";
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "input")
            out.input = index(v, p);
        else if (key == "output")
            out.output = index(v, p);
        else if (key == "interpolation")
            out.interpolation = string(v, p);
        else
            common(out, key, v, p);
    });
    return out;
}

tinygltf::Animation animation(dom::element e, const Pointer& at) {
    tinygltf::Animation out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "channels")
            section(out.channels, v, p, channel);
        else if (key == "samplers")
            section(out.samplers, v, p, animation_sampler);
        else
            named(out, key, v, p);
    });
    return out;
}

// The members of textureInfo and its normal and occlusion kinds (`extra` is scale or strength).
template <class T>
void texture_info(T& out, dom::element e, const Pointer& at, double* extra = nullptr) {
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "index")
            out.index = index(v, p);
        else if (key == "texCoord")
            out.texCoord = index(v, p);
        else if (extra != nullptr && (key == "scale" || key == "strength"))
            *extra = number(v, p);
        else
            common(out, key, v, p);
    });
}

void pbr(tinygltf::PbrMetallicRoughness& out, dom::element e, const Pointer& at) {
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "baseColorFactor")
            out.baseColorFactor = numbers(v, p);
        else if (key == "baseColorTexture")
            texture_info(out.baseColorTexture, v, p);
        else if (key == "metallicFactor")
            out.metallicFactor = number(v, p);
        else if (key == "roughnessFactor")
            out.roughnessFactor = number(v, p);
        else if (key == "metallicRoughnessTexture")
            texture_info(out.metallicRoughnessTexture, v, p);
        else
            common(out, key, v, p);
    });
}

tinygltf::Material material(dom::element e, const Pointer& at) {
    tinygltf::Material out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "pbrMetallicRoughness")
            pbr(out.pbrMetallicRoughness, v, p);
        else if (key == "normalTexture")
            texture_info(out.normalTexture, v, p, &out.normalTexture.scale);
        else if (key == "occlusionTexture")
            texture_info(out.occlusionTexture, v, p, &out.occlusionTexture.strength);
        else if (key == "emissiveTexture")
            texture_info(out.emissiveTexture, v, p);
        else if (key == "emissiveFactor")
            out.emissiveFactor = numbers(v, p);
        else if (key == "alphaMode")
            out.alphaMode = string(v, p);
        else if (key == "alphaCutoff")
            out.alphaCutoff = number(v, p);
        else if (key == "doubleSided")
            out.doubleSided = boolean(v, p);
        else
            named(out, key, v, p);
    });
    return out;
}

tinygltf::Texture texture(dom::element e, const Pointer& at) {
    tinygltf::Texture out;
    out.sampler = out.source = -1;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "sampler")
            out.sampler = index(v, p);
        else if (key == "source")
            out.source = index(v, p);
        else
            named(out, key, v, p);
    });
    return out;
}

// A texture sampler: wrap modes and filters (GL enums), kept as the file gives them.
tinygltf::Sampler sampler(dom::element e, const Pointer& at) {
    tinygltf::Sampler out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "magFilter")
            out.magFilter = index(v, p);
        else if (key == "minFilter")
            out.minFilter = index(v, p);
        else if (key == "wrapS")
            out.wrapS = index(v, p);
        else if (key == "wrapT")
            out.wrapT = index(v, p);
        else
            named(out, key, v, p);
    });
    return out;
}

tinygltf::Image image(dom::element e, const Pointer& at) {
    tinygltf::Image out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "uri")
            out.uri = string(v, p);
        else if (key == "mimeType")
            out.mimeType = string(v, p);
        else if (key == "bufferView")
            out.bufferView = index(v, p);
        else
            named(out, key, v, p);
    });
    return out;
}

tinygltf::Camera camera(dom::element e, const Pointer& at) {
    tinygltf::Camera out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "type")
            out.type = string(v, p);
        else
            named(out, key, v, p);
    });
    return out;
}

tinygltf::Scene scene(dom::element e, const Pointer& at) {
    tinygltf::Scene out;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "nodes")
            out.nodes = indices(v, p);
        else
            named(out, key, v, p);
    });
    return out;
}

// A buffer's declared length and uri, kept beside the model until its bytes are loaded.
struct BufferEntry {
    std::size_t byte_length = 0;
    bool has_uri = false;
};

tinygltf::Buffer buffer(dom::element e, const Pointer& at, BufferEntry& entry) {
    tinygltf::Buffer out;
    bool has_length = false;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "uri") {
            out.uri = string(v, p);
            entry.has_uri = true;
        } else if (key == "byteLength") {
            entry.byte_length = size(v, p);
            has_length = true;
        } else
            named(out, key, v, p);
    });
    if (!has_length) fail(at, "byteLength is required");
    return out;
}

void asset(tinygltf::Asset& out, dom::element e, const Pointer& at) {
    bool has_version = false;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "version") {
            out.version = string(v, p);
            has_version = true;
        } else if (key == "generator")
            out.generator = string(v, p);
        else if (key == "minVersion")
            out.minVersion = string(v, p);
        else if (key == "copyright")
            out.copyright = string(v, p);
        else
            common(out, key, v, p);
    });
    if (!has_version) fail(at / "version", "asset.version is required");
}

// The "major.minor" of a version string ("2.0", "1.0.1"), or of a bare number (glTF 1.0 files
// have 1); nullopt for anything else.
std::optional<std::pair<int, int>> major_minor(dom::element e) {
    std::string text;
    if (e.is_string())
        text = std::string(e.get_string().value_unsafe());
    else if (is_number(e))
        text = fmt::format("{}", e.get_double().value_unsafe());
    int major = 0, minor = 0;
    if (std::sscanf(text.c_str(), "%d.%d", &major, &minor) < 1) return std::nullopt;
    return std::pair{major, minor};
}

// True when `e` has a member `key` that is an object: glTF 1.0 keeps accessors, meshes and the
// rest as objects keyed by id, where glTF 2.0 has arrays.
bool has_object(dom::element e, const char* key) {
    dom::element member;
    return !e[key].get(member) && member.is_object();
}

// Refuses glTF 1.0 (asset.version 1.x, or no version and 1.0's object-shaped accessors or
// meshes), any major version but 2, and an asset.minVersion above 2.0, before the walk, whose
// errors would only say that some member has the wrong type.
void check_version(dom::element e) {
    if (!e.is_object()) return;  // the walk reports it
    const Pointer at;
    dom::element asset, version, min_version;
    const bool has_asset = !e["asset"].get(asset) && asset.is_object();
    const auto v =
        has_asset && !asset["version"].get(version) ? major_minor(version) : std::nullopt;
    if ((v && v->first == 1) || (!v && (has_object(e, "accessors") || has_object(e, "meshes"))))
        fail(at / "asset" / "version",
             fmt::format("glTF 1.0 is not supported ({}); convert it to glTF 2.0 first",
                         v ? fmt::format("asset.version {}.{}", v->first, v->second)
                           : "no asset.version, and glTF 1.0's objects for arrays"),
             "gltf.version-unsupported");
    if (v && v->first != 2)
        fail(
            at / "asset" / "version",
            fmt::format("glTF {}.{} is not supported; castkit reads glTF 2.0", v->first, v->second),
            "gltf.version-unsupported");
    if (!has_asset || asset["minVersion"].get(min_version)) return;
    const auto min = major_minor(min_version);
    if (min && *min > std::pair{2, 0})
        fail(at / "asset" / "minVersion",
             fmt::format("the file needs glTF {}.{} (asset.minVersion); castkit reads glTF 2.0",
                         min->first, min->second),
             "gltf.min-version-unsupported");
}

// The whole document; buffer lengths and uris go to `entries`.
void root(tinygltf::Model& out, std::vector<BufferEntry>& entries, dom::element e) {
    const Pointer at;
    bool has_asset = false;
    for_members(e, at, [&](std::string_view key, dom::element v, const Pointer& p) {
        if (key == "asset") {
            asset(out.asset, v, p);
            has_asset = true;
        } else if (key == "accessors")
            section(out.accessors, v, p, accessor);
        else if (key == "bufferViews")
            section(out.bufferViews, v, p, buffer_view);
        else if (key == "buffers") {
            reserve_for(out.buffers, v, p);
            for_each(v, p, [&](dom::element x, const Pointer& q, std::size_t) {
                out.buffers.push_back(buffer(x, q, entries.emplace_back()));
            });
        } else if (key == "meshes")
            section(out.meshes, v, p, mesh);
        else if (key == "nodes")
            section(out.nodes, v, p, node);
        else if (key == "skins")
            section(out.skins, v, p, skin);
        else if (key == "animations")
            section(out.animations, v, p, animation);
        else if (key == "materials")
            section(out.materials, v, p, material);
        else if (key == "textures")
            section(out.textures, v, p, texture);
        else if (key == "images")
            section(out.images, v, p, image);
        else if (key == "samplers")
            section(out.samplers, v, p, sampler);
        else if (key == "cameras")
            section(out.cameras, v, p, camera);
        else if (key == "scenes")
            section(out.scenes, v, p, scene);
        else if (key == "scene")
            out.defaultScene = index(v, p);
        else if (key == "extensionsUsed")
            out.extensionsUsed = strings(v, p);
        else if (key == "extensionsRequired")
            out.extensionsRequired = strings(v, p);
        else
            common(out, key, v, p);
    });
    if (!has_asset) fail(at / "asset", "asset is required");
}

int hex_digit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

// "%20" and the like decoded, as a relative URI reference names a file.
std::string percent_decoded(std::string_view uri) {
    std::string out;
    for (std::size_t i = 0; i < uri.size(); ++i) {
        const int high = i + 2 < uri.size() && uri[i] == '%' ? hex_digit(uri[i + 1]) : -1;
        const int low = high >= 0 ? hex_digit(uri[i + 2]) : -1;
        if (low < 0) {
            out.push_back(uri[i]);
            continue;
        }
        out.push_back(static_cast<char>(high * 16 + low));
        i += 2;
    }
    return out;
}

// A buffer's side file could not be read: when it is simply not there, an error that names
// the uri and the path it resolves to (a buffer, unlike a texture, is only looked for where its
// uri says, relative to the .gltf), else the side-file policy's own refusal.
[[noreturn]] void fail_side_file(const Pointer& at, const std::string& uri, const std::string& name,
                                 const Context& side_files, const Diagnostic& refusal) {
    namespace fs = std::filesystem;
    std::error_code error;
    const fs::path folder =
        fs::absolute(side_files.base.empty() ? fs::path(".") : side_files.base, error);
    const fs::path relative = platform::path_from_utf8(name).lexically_normal();
    const fs::path expected = (folder / relative).lexically_normal();
    const bool inside = !relative.empty() && !relative.has_root_path() && *relative.begin() != "..";
    if (!inside || fs::exists(expected, error) || error) fail(at, refusal.message);
    fail(at,
         fmt::format("the buffer file of uri '{}' is missing: it must be at '{}' (a buffer is "
                     "looked for where its uri points, relative to the .gltf)",
                     uri, platform::utf8_of(expected)),
         "gltf.buffer-missing");
}

// Buffer `i`'s bytes: the GLB binary chunk for a first buffer without uri, a data: URI
// decoded, else the side file the uri names, mapped; at most its byteLength of them.
cast::SharedBytes buffer_bytes(const tinygltf::Buffer& buffer, const BufferEntry& entry,
                               std::size_t i, const cast::SharedBytes* bin,
                               const Context& side_files) {
    const Pointer document;
    const Pointer buffers = document / "buffers";
    const Pointer at = buffers[i];
    cast::SharedBytes bytes;
    if (!entry.has_uri) {
        // EXT_meshopt_compression's fallback buffers need no bytes: their views are decoded.
        if (i != 0 || bin == nullptr) {
            if (buffer.extensions.count("EXT_meshopt_compression") != 0) return {};
            fail(at, "a buffer without uri must be the first of a GLB with a binary chunk");
        }
        bytes = *bin;
    } else if (buffer.uri.rfind("data:", 0) == 0) {
        auto decoded = decode_data_uri(buffer.uri);
        if (!decoded) fail(at / "uri", "the data URI is not base64 data");
        auto owned = std::make_shared<const std::vector<std::byte>>(std::move(*decoded));
        bytes = {cast::Bytes(*owned), owned};
    } else {
        const std::string name = percent_decoded(buffer.uri);
        auto mapped = formats::read_side_file(side_files, name);
        if (!mapped) fail_side_file(at / "uri", buffer.uri, name, side_files, mapped.error());
        bytes = {(*mapped)->bytes(), *mapped};
    }
    if (entry.byte_length > bytes.size())
        fail(at / "byteLength",
             fmt::format("{} bytes declared, {} present", entry.byte_length, bytes.size()));
    return bytes.subspan(0, entry.byte_length);
}

}  // namespace

std::optional<std::vector<std::byte>> decode_data_uri(std::string_view uri) {
    const std::size_t comma = uri.find(',');
    if (uri.rfind("data:", 0) != 0 || comma == std::string_view::npos ||
        uri.substr(0, comma).find(";base64") == std::string_view::npos)
        return std::nullopt;
    return formats::base64_decode(uri.substr(comma + 1));
}

Expected<Gltf> parse_gltf(std::string_view json, const cast::SharedBytes* bin,
                          const Context& side_files, std::size_t walk_bytes,
                          std::size_t budget_limit) {
    const std::string& file = side_files.name;
    // simdjson reads past the end of its input: the JSON (small next to the binary chunk) is
    // copied once into a padded buffer.
    const simdjson::padded_string padded(json);
    dom::parser parser;
    dom::element document;
    if (auto error = parser.parse(padded).get(document); error)
        return make_error(problem(file, "",
                                  fmt::format("not JSON: {}", simdjson::error_message(error)),
                                  Severity::Error, "gltf.parse"));
    Gltf out;
    WalkBudget budget{.left = walk_bytes, .limit = budget_limit};
    walk_budget = &budget;
    struct Unset {
        ~Unset() { walk_budget = nullptr; }
    } unset;
    try {
        std::vector<BufferEntry> entries;
        check_version(document);
        root(out.model, entries, document);
        for (std::size_t i = 0; i < entries.size(); ++i)
            out.buffers.push_back(
                buffer_bytes(out.model.buffers[i], entries[i], i, bin, side_files));
    } catch (const JsonError& error) {
        return make_error(problem(file, error.pointer, error.message, Severity::Error, error.rule));
    } catch (const std::bad_alloc&) {
        return make_error(problem(file, "", "out of memory", Severity::Error, "gltf.parse"));
    }
    return out;
}

std::vector<std::string> referenced_files(std::span<const std::byte> bytes) {
    auto u32_at = [&](std::size_t offset) {
        std::uint32_t value = 0;
        for (std::size_t i = 0; i < 4; ++i)
            value |= std::to_integer<std::uint32_t>(bytes[offset + i]) << (8 * i);
        return value;
    };
    std::string_view json(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    if (bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0) {
        if (bytes.size() < 20 || u32_at(12) > bytes.size() - 20) return {};
        json = json.substr(20, u32_at(12));
    }
    std::vector<std::string> names;
    // A DOM past the file's budget is not built here either: the conversion refuses the file.
    if (simdjson_dom_bytes(json) > memory_budget(bytes.size()) - bytes.size()) return names;
    const simdjson::padded_string padded(json);
    dom::parser parser;
    dom::element document;
    if (parser.parse(padded).get(document)) return names;
    for (const char* list : {"buffers", "images"}) {
        dom::array items;
        if (document[list].get(items)) continue;
        for (dom::element item : items) {
            std::string_view uri;
            if (item["uri"].get(uri) || uri.empty() || uri.rfind("data:", 0) == 0) continue;
            names.push_back(percent_decoded(uri));
        }
    }
    return names;
}

}  // namespace castkit::gltf::detail

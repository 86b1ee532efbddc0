// The exporter's binary data, accessors and nodes, and the files it writes: a GLB container
// or a .gltf beside its .bin. tinygltf serialises the JSON; castkit frames the GLB itself so
// that the binary chunk goes from the views' own bytes straight to the file, without copies.
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <castkit/json.hpp>
#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../../platform/platform.hpp"
#include "export_internal.hpp"
#include "io/base64.hpp"
#include "problem.hpp"

namespace castkit::gltf::detail {

Exporter::Exporter(std::string file_, const ExportOptions& options_, Diagnostics& warnings_)
    : file(std::move(file_)), options(options_), warnings(warnings_) {
    model.asset.version = "2.0";
    model.asset.generator = "castkit";
    model.scenes.emplace_back();
    model.defaultScene = 0;
}

void Exporter::warn(std::string path, std::string message) {
    warnings.push_back({.severity = Severity::Warning,
                        .file = file,
                        .path = std::move(path),
                        .rule = "gltf.export",
                        .message = std::move(message)});
}

void Exporter::warn(std::string path, std::string message, std::string rule) {
    warnings.push_back({.severity = Severity::Warning,
                        .file = file,
                        .path = std::move(path),
                        .rule = std::move(rule),
                        .message = std::move(message)});
}

int Exporter::add_node(tinygltf::Node node, int parent) {
    const int index = static_cast<int>(model.nodes.size());
    model.nodes.push_back(std::move(node));
    if (parent < 0)
        model.scenes[0].nodes.push_back(index);
    else
        model.nodes[static_cast<std::size_t>(parent)].children.push_back(index);
    return index;
}

void Exporter::add_placed(PlacedNode node, int parent) {
    const int ref = placed_ref(placed.nodes.size());
    placed.nodes.push_back(node);
    if (parent < 0)
        model.scenes[0].nodes.push_back(ref);
    else
        model.nodes[static_cast<std::size_t>(parent)].children.push_back(ref);
}

void Exporter::reserve_nodes(std::size_t count) {
    std::vector<tinygltf::Node>& nodes = model.nodes;
    const std::size_t needed = nodes.size() + count;
    if (needed > nodes.capacity()) nodes.reserve(std::max(needed, nodes.capacity() * 3 / 2));
}

namespace {
constexpr std::array<std::byte, 4> kZeros{};
}  // namespace

int Exporter::add_view(ViewData data, int target) {
    if (const std::size_t padding = (4 - binary_size % 4) % 4) {
        binary.push_back(std::span(kZeros).first(padding));
        binary_size += padding;
    }
    const std::size_t offset = binary_size;
    binary.push_back(data.bytes);
    binary_size += data.bytes.size();
    if (data.owner) owners.push_back(std::move(data.owner));
    tinygltf::BufferView view;
    view.buffer = 0;
    view.byteOffset = offset;
    view.byteLength = data.bytes.size();
    view.target = target;
    model.bufferViews.push_back(std::move(view));
    return static_cast<int>(model.bufferViews.size() - 1);
}

int Exporter::add_accessor(ViewData data, std::size_t count, int type, int component,
                           bool normalized, int target, std::vector<double> min,
                           std::vector<double> max) {
    tinygltf::Accessor accessor;
    accessor.bufferView = add_view(std::move(data), target);
    accessor.byteOffset = 0;
    accessor.count = count;
    accessor.type = type;
    accessor.componentType = component;
    accessor.normalized = normalized;
    accessor.minValues = std::move(min);
    accessor.maxValues = std::move(max);
    model.accessors.push_back(std::move(accessor));
    return static_cast<int>(model.accessors.size() - 1);
}

tinygltf::Value string_value(std::string_view text) { return tinygltf::Value(std::string(text)); }

namespace {

bool all_finite(const std::vector<double>& values) {
    return std::all_of(values.begin(), values.end(), [](double v) { return std::isfinite(v); });
}

// Replaces `values` by glTF's default for the field when any of them is not finite.
void reset_non_finite(Exporter& exporter, std::vector<double>& values, std::vector<double> fallback,
                      const std::string& at, const char* what) {
    if (all_finite(values)) return;
    values = std::move(fallback);
    exporter.warn(at, fmt::format("{} is not a finite number; glTF's default was written", what));
}

void reset_non_finite(Exporter& exporter, double& value, double fallback, const std::string& at,
                      const char* what) {
    std::vector<double> values{value};
    reset_non_finite(exporter, values, {fallback}, at, what);
    value = values[0];
}

void keep_material_finite(Exporter& exporter, tinygltf::Material& material, const std::string& at) {
    auto& pbr = material.pbrMetallicRoughness;
    reset_non_finite(exporter, pbr.baseColorFactor, {1.0, 1.0, 1.0, 1.0}, at, "baseColorFactor");
    reset_non_finite(exporter, pbr.metallicFactor, 1.0, at, "metallicFactor");
    reset_non_finite(exporter, pbr.roughnessFactor, 1.0, at, "roughnessFactor");
    reset_non_finite(exporter, material.emissiveFactor, {0.0, 0.0, 0.0}, at, "emissiveFactor");
    reset_non_finite(exporter, material.alphaCutoff, 0.5, at, "alphaCutoff");
    reset_non_finite(exporter, material.normalTexture.scale, 1.0, at, "normalTexture.scale");
    reset_non_finite(exporter, material.occlusionTexture.strength, 1.0, at,
                     "occlusionTexture.strength");
}

// A placed node's parts that are not all finite are dropped (glTF's default stands), with the
// warning a node's get; `index` is the node it is written as.
void keep_placed_finite(Exporter& exporter, PlacedNode& node, std::size_t index) {
    auto finite = [](std::span<const float> values) {
        return std::all_of(values.begin(), values.end(), [](float v) { return std::isfinite(v); });
    };
    const std::pair<PlacedNode::Part, bool> checks[] = {
        {PlacedNode::kTranslation, finite(node.translation)},
        {PlacedNode::kRotation, finite(node.rotation)},
        {PlacedNode::kScale, finite(node.scale)}};
    for (const auto& [part, ok] : checks) {
        if (ok || (node.parts & part) == 0) continue;
        node.parts = static_cast<std::uint8_t>(node.parts & ~part);
        const char* what = part == PlacedNode::kTranslation ? "translation"
                           : part == PlacedNode::kRotation  ? "rotation"
                                                            : "scale";
        exporter.warn(fmt::format("/nodes/{} ('{}.{:0{}}')", index, node.base, node.ordinal,
                                  exporter.placed.ordinal_digits),
                      fmt::format("{} is not a finite number; glTF's default was written", what));
    }
}

}  // namespace

Expected<void> keep_numbers_finite(Exporter& exporter) {
    tinygltf::Model& model = exporter.model;
    for (std::size_t i = 0; i < model.nodes.size(); ++i) {
        tinygltf::Node& node = model.nodes[i];
        const std::string at = fmt::format("/nodes/{} ('{}')", i, node.name);
        reset_non_finite(exporter, node.translation, {}, at, "translation");
        reset_non_finite(exporter, node.rotation, {}, at, "rotation");
        reset_non_finite(exporter, node.scale, {}, at, "scale");
        reset_non_finite(exporter, node.matrix, {}, at, "matrix");
        reset_non_finite(exporter, node.weights, std::vector<double>(node.weights.size(), 0.0), at,
                         "morph weight");
    }
    for (std::size_t k = 0; k < exporter.placed.nodes.size(); ++k)
        keep_placed_finite(exporter, exporter.placed.nodes[k], model.nodes.size() + k);
    for (std::size_t i = 0; i < model.meshes.size(); ++i)
        reset_non_finite(exporter, model.meshes[i].weights,
                         std::vector<double>(model.meshes[i].weights.size(), 0.0),
                         fmt::format("/meshes/{}", i), "morph weight");
    for (std::size_t i = 0; i < model.materials.size(); ++i)
        keep_material_finite(exporter, model.materials[i], fmt::format("/materials/{}", i));
    // Bounds are those of the data: glTF cannot hold the data either.
    for (std::size_t i = 0; i < model.accessors.size(); ++i)
        if (!all_finite(model.accessors[i].minValues) || !all_finite(model.accessors[i].maxValues))
            return make_error(problem(exporter.file, fmt::format("/accessors/{}", i),
                                      "vertex positions are not all finite numbers, which glTF "
                                      "cannot hold",
                                      Severity::Error, "gltf.export"));
    return {};
}

namespace {

// One piece of the JSON: text, or every placed node (made as it is written).
struct Piece {
    std::string_view text;
    const PlacedNodes* placed = nullptr;
    bool comma_first = false;  // the placed nodes follow others
};

// The glTF JSON in pieces written one after another: tinygltf's text of everything but the
// members castkit writes itself (`buffers`, `nodes` one node at a time, and `scenes`, so that no
// DOM of them is ever built), each of those put where its key sorts among the text's top-level
// members, as one DOM's dump would have them.
struct JsonPieces {
    std::string text;
    std::vector<std::vector<std::string>> members;  // "key":value in parts, in key order
    std::vector<std::size_t> at;  // where each member goes in `text`: a key's '"' or the last '}'
    // The member whose parts are the open `nodes` array, and what it holds: the placed nodes
    // follow its parts, then its closing bracket.
    std::size_t nodes = std::string::npos;
    const PlacedNodes* placed = nullptr;
    bool full_nodes = false;

    // Every piece in order, with the commas the placed members need. Views of this object.
    std::vector<Piece> pieces() const {
        std::vector<Piece> out;
        std::size_t from = 0;
        for (std::size_t m = 0; m < members.size(); ++m) {
            out.push_back({std::string_view(text).substr(from, at[m] - from)});
            const bool last = text[at[m]] == '}';
            // At the end a member follows what is there: the object's members or one placed.
            if (last && (text[at[m] - 1] != '{' || (m > 0 && at[m - 1] == at[m])))
                out.push_back({","});
            for (const std::string& part : members[m]) out.push_back({part});
            if (m == nodes) {
                if (!placed->nodes.empty()) out.push_back({{}, placed, full_nodes});
                out.push_back({"]"});
            }
            if (!last) out.push_back({","});
            from = at[m];
        }
        out.push_back({std::string_view(text).substr(from)});
        return out;
    }
};

// The text tinygltf wrote, mended in place where it is not what glTF asks for, without a DOM
// of it (parsing it again to mend it took as much memory as the model's nodes). The text is
// tinygltf's (nlohmann's dump: no whitespace, members in key order), and comes out as that
// DOM's dump would: an entry of a top-level array that is null (tinygltf serialises an object
// with nothing to say as null, which glTF forbids) becomes {}. Returns where each of `keys` (in
// order) goes: before the first top-level key that sorts after it, else before the closing }.
// One scan that skips strings and moves the text left over each null; the line end tinygltf
// writes after the text is dropped, as a dump has none. O(text size).
std::vector<std::size_t> mend_json(std::string& text, const std::vector<std::string>& keys) {
    std::size_t depth = 0, out = 0;
    std::vector<std::size_t> at;
    bool in_string = false, top_array = false;
    for (std::size_t in = 0; in < text.size(); ++in) {
        const char c = text[in];
        if (in_string) {
            if (c == '\\') text[out++] = text[in++];
            if (c == '"') in_string = false;
        } else if (c == '"') {
            in_string = true;
            // A top-level key: the keys come in order, so a member goes before the first after it.
            if (depth == 1) {
                const std::size_t length = text.find('"', in + 1) - in - 1;
                while (at.size() < keys.size() && text.compare(in + 1, length, keys[at.size()]) > 0)
                    at.push_back(out);
            }
        } else if (c == '{' || c == '[') {
            if (++depth == 2) top_array = c == '[';
        } else if (c == '}' || c == ']') {
            --depth;
        } else if (depth == 2 && top_array && text.compare(in, 4, "null") == 0) {
            text[out++] = '{';
            text[out++] = '}';
            in += 3;
            continue;
        }
        text[out++] = text[in];
    }
    text.resize(out);
    while (!text.empty() && text.back() != '}') text.pop_back();  // tinygltf's line end
    at.resize(keys.size(), text.size() - 1);
    return at;
}

// A node's number: a float's shortest text when it is a float (a Cast TRS, float32 in the
// file: 0.1f is written 0.1, not 0.10000000149011612), else the double's.
void write_number(json::Writer& out, double value) {
    const auto single = static_cast<float>(value);
    if (static_cast<double>(single) == value)
        out.number(single);
    else
        out.number(value);
}

void write_numbers(json::Writer& out, std::string_view key, const std::vector<double>& values) {
    if (values.empty()) return;
    out.key(key);
    out.begin_array();
    for (double value : values) write_number(out, value);
    out.end_array();
}

void write_value(json::Writer& out, const tinygltf::Value& value) {
    switch (value.Type()) {
        case tinygltf::BOOL_TYPE:
            out.boolean(value.Get<bool>());
            break;
        case tinygltf::INT_TYPE:
            out.integer(value.Get<int>());
            break;
        case tinygltf::REAL_TYPE:
            write_number(out, value.Get<double>());
            break;
        case tinygltf::STRING_TYPE:
            out.string(value.Get<std::string>());
            break;
        case tinygltf::ARRAY_TYPE:
            out.begin_array();
            for (const tinygltf::Value& item : value.Get<tinygltf::Value::Array>())
                write_value(out, item);
            out.end_array();
            break;
        case tinygltf::OBJECT_TYPE:
            out.begin_object();
            for (const auto& [key, item] : value.Get<tinygltf::Value::Object>()) {
                out.key(key);
                write_value(out, item);
            }
            out.end_object();
            break;
        default:  // castkit's nodes hold no binary values
            out.null();
    }
}

// `extensions` as a glTF object's "extensions" member; nothing when there are none.
void write_extensions(json::Writer& out, const tinygltf::ExtensionMap& extensions) {
    if (extensions.empty()) return;
    out.key("extensions");
    out.begin_object();
    for (const auto& [name, value] : extensions) {
        out.key(name);
        write_value(out, value);
    }
    out.end_object();
}

// `indices` as member `key` (a node's children, a scene's nodes); nothing when empty.
void write_indices(json::Writer& out, std::string_view key, const std::vector<int>& indices) {
    if (indices.empty()) return;
    out.key(key);
    out.begin_array();
    for (int index : indices) out.integer(index);
    out.end_array();
}

// One node as glTF JSON through castkit's writer, members in key order (as tinygltf's DOM dump
// had them). O(node).
void write_node(json::Writer& out, const tinygltf::Node& node, const std::string* instance_file) {
    out.begin_object();
    if (node.camera >= 0) out.key("camera"), out.integer(node.camera);
    write_indices(out, "children", node.children);
    write_extensions(out, node.extensions);
    if (instance_file != nullptr) {
        out.key("extras");
        out.begin_object();
        out.key("castkit_instance");
        out.begin_object();
        out.key("file");
        out.string(*instance_file);
        out.end_object();
        out.end_object();
    } else if (node.extras.Type() != tinygltf::NULL_TYPE) {
        out.key("extras");
        write_value(out, node.extras);
    }
    write_numbers(out, "matrix", node.matrix);
    if (node.mesh >= 0) out.key("mesh"), out.integer(node.mesh);
    if (!node.name.empty()) out.key("name"), out.string(node.name);
    write_numbers(out, "rotation", node.rotation);
    write_numbers(out, "scale", node.scale);
    if (node.skin >= 0) out.key("skin"), out.integer(node.skin);
    write_numbers(out, "translation", node.translation);
    write_numbers(out, "weights", node.weights);
    out.end_object();
}

constexpr std::size_t kPart = std::size_t{64} << 10;

// The `nodes` member but its closing bracket, written by castkit's JSON writer node by node,
// each node emptied once written (its name, children and extras freed), in parts of about
// 64 KiB: the text never doubles as it grows, and no DOM of the nodes is ever built.
std::vector<std::string> nodes_member(std::vector<tinygltf::Node>& nodes,
                                      const InstanceFiles& instance_files) {
    std::vector<std::string> parts{"\"nodes\":["};
    for (std::size_t i = 0; i < nodes.size(); ++i) {
        if (parts.back().size() >= kPart) parts.back().shrink_to_fit(), parts.emplace_back();
        if (i > 0) parts.back() += ',';
        json::Writer out(parts.back());
        write_node(out, nodes[i], instance_files.of(i));
        nodes[i] = tinygltf::Node();
    }
    return parts;
}

// The `scenes` member, written by castkit's JSON writer, members in key order: a map's scene
// lists each of its 100,000 Instance nodes, which tinygltf's DOM took 50 bytes each for.
std::vector<std::string> scenes_member(const std::vector<tinygltf::Scene>& scenes) {
    std::string text = "\"scenes\":";
    json::Writer out(text);
    out.begin_array();
    for (const tinygltf::Scene& scene : scenes) {
        out.begin_object();
        write_extensions(out, scene.extensions);
        if (scene.extras.Type() != tinygltf::NULL_TYPE) {
            out.key("extras");
            write_value(out, scene.extras);
        }
        if (!scene.name.empty()) out.key("name"), out.string(scene.name);
        write_indices(out, "nodes", scene.nodes);
        out.end_object();
    }
    out.end_array();
    return {std::move(text)};
}

void write_floats(json::Writer& out, std::string_view key, std::span<const float> values) {
    out.key(key);
    out.begin_array();
    for (float value : values) out.number(value);
    out.end_array();
}

// One placed node as glTF JSON, its members in write_node's order. O(1).
void write_placed_node(json::Writer& out, const PlacedNode& node, int ordinal_digits,
                       std::string& name) {
    out.begin_object();
    out.key("mesh");
    out.integer(node.mesh);
    name.clear();
    fmt::format_to(std::back_inserter(name), "{}.{:0{}}", node.base, node.ordinal, ordinal_digits);
    out.key("name");
    out.string(name);
    if (node.parts & PlacedNode::kRotation) write_floats(out, "rotation", node.rotation);
    if (node.parts & PlacedNode::kScale) write_floats(out, "scale", node.scale);
    if (node.parts & PlacedNode::kTranslation) write_floats(out, "translation", node.translation);
    out.end_object();
}

// Each placed node's JSON in order, a comma before each (but the first, unless
// `comma_first`), passed to `emit` as it is made: their text is made twice (counted, then
// written) and never held, as it would be 170 bytes an instance. O(placed nodes).
template <class Emit>
void each_placed_json(const PlacedNodes& placed, bool comma_first, const Emit& emit) {
    std::string text, name;
    for (std::size_t k = 0; k < placed.nodes.size(); ++k) {
        text.clear();
        if (k > 0 || comma_first) text += ',';
        json::Writer out(text);
        write_placed_node(out, placed.nodes[k], placed.ordinal_digits, name);
        emit(std::string_view(text));
    }
}

// Every node's place in the written `nodes`: a placed_ref() becomes the index it is written
// at, after the model's nodes. O(children).
void resolve_placed_refs(tinygltf::Model& model) {
    const auto first = static_cast<int>(model.nodes.size());
    auto resolve = [first](std::vector<int>& indices) {
        for (int& index : indices)
            if (index <= placed_ref(0)) index = first + (placed_ref(0) - index);
    };
    for (tinygltf::Node& node : model.nodes) resolve(node.children);
    for (tinygltf::Scene& scene : model.scenes) resolve(scene.nodes);
}

// The glTF JSON for `model` with buffer 0 declared as `length` bytes at `uri` (none in a GLB).
// The model's nodes are written and freed first, before tinygltf builds its DOM of the rest.
Expected<JsonPieces> serialise_json(tinygltf::Model& model, const InstanceFiles& instance_files,
                                    const PlacedNodes& placed, std::size_t length,
                                    const std::string& uri, const std::filesystem::path& path) {
    model.buffers.clear();
    resolve_placed_refs(model);
    // A file without nodes (an animation whose curves name nothing exported) has no scene to
    // show; an empty scene would be serialised as null, which glTF forbids.
    if (model.nodes.empty() && placed.nodes.empty()) {
        model.scenes.clear();
        model.defaultScene = -1;
    }
    JsonPieces json;
    std::vector<std::string> keys;  // in order: "buffers", "nodes", "scenes"
    try {
        if (length > 0) {
            nlohmann::json buffer = {{"byteLength", length}};
            if (!uri.empty()) buffer["uri"] = uri;
            json.members.push_back({"\"buffers\":" + nlohmann::json::array({buffer}).dump()});
            keys.push_back("buffers");
        }
        if (!model.nodes.empty() || !placed.nodes.empty()) {
            json.nodes = json.members.size();
            json.placed = &placed;
            json.full_nodes = !model.nodes.empty();
            json.members.push_back(nodes_member(model.nodes, instance_files));
            keys.push_back("nodes");
        }
        std::vector<tinygltf::Node>().swap(model.nodes);
        if (!model.scenes.empty()) {
            json.members.push_back(scenes_member(model.scenes));
            keys.push_back("scenes");
            std::vector<tinygltf::Scene>().swap(model.scenes);
        }
        std::ostringstream stream;
        tinygltf::TinyGLTF writer;
        if (!writer.WriteGltfSceneToStream(&model, stream, false, false))
            return make_error(problem(platform::utf8_of(path), "",
                                      "tinygltf could not serialise the scene", Severity::Error,
                                      "gltf.export"));
        json.text = std::move(stream).str();
        json.at = mend_json(json.text, keys);
        return json;
    } catch (const std::exception& error) {
        return make_error(problem(platform::utf8_of(path), "",
                                  fmt::format("serialising glTF JSON: {}", error.what()),
                                  Severity::Error, "gltf.export"));
    }
}

// The bytes of `pieces`, for a sink or the GLB header. O(size of the text).
std::size_t total_size(const std::vector<Piece>& pieces) {
    std::size_t size = 0;
    for (const Piece& piece : pieces) {
        size += piece.text.size();
        if (piece.placed != nullptr)
            each_placed_json(*piece.placed, piece.comma_first,
                             [&size](std::string_view text) { size += text.size(); });
    }
    return size;
}

Expected<void> write_text(Sink& sink, std::string_view text) {
    return sink.write(std::as_bytes(std::span<const char>(text.data(), text.size())));
}

// The placed nodes' JSON, sent in parts of about 64 KiB.
Expected<void> write_placed(Sink& sink, const Piece& piece) {
    std::string part;
    Expected<void> status;
    each_placed_json(*piece.placed, piece.comma_first, [&](std::string_view text) {
        part += text;
        if (part.size() < kPart || !status) return;
        status = write_text(sink, part);
        part.clear();
    });
    if (!status) return status;
    return write_text(sink, part);
}

Expected<void> write_pieces(Sink& sink, const std::vector<Piece>& pieces) {
    for (const Piece& piece : pieces)
        if (auto written =
                piece.placed != nullptr ? write_placed(sink, piece) : write_text(sink, piece.text);
            !written)
            return written;
    return {};
}

void put_u32(std::vector<std::byte>& out, std::uint32_t value) {
    std::array<std::byte, 4> bytes;
    for (int i = 0; i < 4; ++i) bytes[i] = static_cast<std::byte>((value >> (8 * i)) & 0xFF);
    out.insert(out.end(), bytes.begin(), bytes.end());
}

// Writes the parts of `groups` in order into `sink`. O(size).
Expected<void> write_parts(
    Sink& sink, std::initializer_list<std::span<const std::span<const std::byte>>> groups) {
    for (auto parts : groups)
        for (std::span<const std::byte> part : parts)
            if (auto written = sink.write(part); !written) return written;
    return {};
}

// The binary parts as one base64 data URI, for a .gltf that has no folder to put a .bin in.
std::string data_uri(std::span<const std::span<const std::byte>> binary, std::size_t size) {
    std::vector<std::byte> joined;
    joined.reserve(size);
    for (std::span<const std::byte> part : binary)
        joined.insert(joined.end(), part.begin(), part.end());
    return "data:application/octet-stream;base64," + formats::base64_encode(joined);
}

}  // namespace

Expected<void> write_files(tinygltf::Model& model, const InstanceFiles& instance_files,
                           const PlacedNodes& placed,
                           std::span<const std::span<const std::byte>> binary, std::size_t size,
                           Sink& sink, const std::string& name, bool binary_container) {
    const std::filesystem::path path = platform::path_from_utf8(name);
    // GLB lengths are u32 (the whole file included).
    if (binary_container && size > 0xFFFFFF00u)
        return make_error(problem(
            name, "", "the binary data exceeds the 4 GiB a GLB file can hold; write .gltf instead",
            Severity::Error, "gltf.glb-too-large"));
    if (!binary_container) {
        // The buffer goes beside the file as <stem>.bin; a .gltf written to standard output or
        // memory carries it as a data URI instead.
        const std::filesystem::path file = sink.file();
        const std::string bin_name = file.empty() ? "" : platform::utf8_of(file.stem()) + ".bin";
        const std::string uri = size == 0 ? "" : file.empty() ? data_uri(binary, size) : bin_name;
        auto json = serialise_json(model, instance_files, placed, size, uri, path);
        if (!json) return make_error(json.error());
        const std::vector<Piece> pieces = json->pieces();
        if (size > 0 && !file.empty()) {
            auto bin = platform::create_atomic_file(file.parent_path() / bin_name, size);
            if (!bin) return make_error(bin.error());
            for (std::span<const std::byte> part : binary)
                if (auto written = (*bin)->write(part); !written) return written;
            if (auto committed = (*bin)->commit(); !committed) return committed;
        }
        return write_pieces(sink, pieces);
    }
    auto json = serialise_json(model, instance_files, placed, size, "", path);
    if (!json) return make_error(json.error());
    const std::size_t unpadded_size = total_size(json->pieces());
    json->text.append((4 - unpadded_size % 4) % 4, ' ');
    const std::vector<Piece> pieces = json->pieces();
    const std::size_t json_size = unpadded_size + (4 - unpadded_size % 4) % 4;
    const std::size_t binary_padding = (4 - size % 4) % 4;
    const std::size_t total = 12 + 8 + json_size + (size == 0 ? 0 : 8 + size + binary_padding);
    std::vector<std::byte> header;
    put_u32(header, 0x46546C67u);  // "glTF"
    put_u32(header, 2);
    put_u32(header, static_cast<std::uint32_t>(total));
    put_u32(header, static_cast<std::uint32_t>(json_size));
    put_u32(header, 0x4E4F534Au);  // "JSON"
    std::vector<std::byte> binary_header;
    if (size > 0) {
        put_u32(binary_header, static_cast<std::uint32_t>(size + binary_padding));
        put_u32(binary_header, 0x004E4942u);  // "BIN\0"
    }
    const std::span<const std::byte> after =
        std::span(kZeros).first(size == 0 ? 0 : binary_padding);
    sink.reserve(total);
    if (auto written = sink.write(header); !written) return written;
    if (auto written = write_pieces(sink, pieces); !written) return written;
    const std::array<std::span<const std::byte>, 1> chunk_header{binary_header};
    return write_parts(sink, {chunk_header, binary, std::span(&after, 1)});
}

}  // namespace castkit::gltf::detail

// glTF extensions at import: the required ones checked against what castkit reads, Draco
// (KHR_draco_mesh_compression, with Debian's libdraco) and meshopt (EXT_meshopt_compression,
// with libmeshoptimizer) decoded into plain buffers before the accessors are read, and one
// warning per kind of content Cast cannot hold (cameras, lights, variants, GPU instancing).
#include <fmt/format.h>
#ifdef CASTKIT_HAVE_DRACO
#include <draco/compression/decode.h>
#endif
#ifdef CASTKIT_HAVE_MESHOPT
#include <meshoptimizer.h>
#endif

#include <algorithm>
#include <cstring>
#include <nlohmann/json.hpp>
#include <set>

#include "import_internal.hpp"
#include "problem.hpp"

namespace castkit::gltf::detail {
namespace {

// Extensions castkit reads (or reads enough of to convert the file without them).
bool supported(const std::string& name) {
    static const char* const known[] = {
        "KHR_mesh_quantization",          "KHR_texture_transform", "KHR_draco_mesh_compression",
        "EXT_meshopt_compression",        "KHR_lights_punctual",   "EXT_mesh_gpu_instancing",
        "KHR_materials_variants",         "KHR_texture_basisu",    "EXT_texture_webp",
        "KHR_materials_emissive_strength"};
    return name.rfind("KHR_materials_", 0) == 0 ||
           std::find(std::begin(known), std::end(known), name) != std::end(known);
}

// Decoded data grows from compressed bytes by a bounded factor; past it the file is hostile.
constexpr std::size_t kMaxExpansion = 1024;

const tinygltf::Value* extension(const tinygltf::ExtensionMap& map, const char* name) {
    auto it = map.find(name);
    return it == map.end() ? nullptr : &it->second;
}

int integer(const tinygltf::Value& object, const char* key, int fallback = -1) {
    if (!object.Has(key) || !object.Get(key).IsNumber()) return fallback;
    const double value = object.Get(key).GetNumberAsDouble();
    return value >= 0.0 && value <= 2147483647.0 ? static_cast<int>(value) : fallback;
}

// Adds `bytes` as a new buffer (owned by its SharedBytes) and a buffer view over all of it;
// the view's index.
int add_buffer(Gltf& gltf, std::vector<unsigned char> bytes, int stride) {
    auto owned = std::make_shared<const std::vector<unsigned char>>(std::move(bytes));
    tinygltf::BufferView view;
    view.byteLength = owned->size();
    view.byteStride = static_cast<std::size_t>(stride);
    gltf.model.buffers.emplace_back();
    gltf.buffers.push_back({std::as_bytes(std::span(*owned)), owned});
    view.buffer = static_cast<int>(gltf.buffers.size() - 1);
    gltf.model.bufferViews.push_back(std::move(view));
    return static_cast<int>(gltf.model.bufferViews.size() - 1);
}

// A buffer view's bytes, checked against its buffer; empty span when out of range.
std::span<const unsigned char> view_bytes(const Gltf& gltf, int buffer, std::size_t offset,
                                          std::size_t length) {
    if (buffer < 0 || static_cast<std::size_t>(buffer) >= gltf.buffers.size()) return {};
    const cast::Bytes data = gltf.buffers[static_cast<std::size_t>(buffer)].bytes;
    if (offset > data.size() || length > data.size() - offset) return {};
    return {reinterpret_cast<const unsigned char*>(data.data()) + offset, length};
}

#ifdef CASTKIT_HAVE_DRACO
// One Draco attribute as `components` values of the accessor's component type per point.
template <class T>
bool draco_values(const draco::Mesh& mesh, const draco::PointAttribute& attribute, int components,
                  std::vector<unsigned char>& out) {
    out.resize(mesh.num_points() * static_cast<std::size_t>(components) * sizeof(T));
    T values[16] = {};
    for (draco::PointIndex i(0); i < mesh.num_points(); ++i) {
        if (!attribute.ConvertValue<T>(attribute.mapped_index(i),
                                       static_cast<std::int8_t>(components), values))
            return false;
        std::memcpy(out.data() + i.value() * static_cast<std::size_t>(components) * sizeof(T),
                    values, static_cast<std::size_t>(components) * sizeof(T));
    }
    return true;
}

bool draco_attribute(const draco::Mesh& mesh, const draco::PointAttribute& attribute,
                     int component_type, int components, std::vector<unsigned char>& out) {
    switch (component_type) {
        case TINYGLTF_COMPONENT_TYPE_BYTE:
            return draco_values<std::int8_t>(mesh, attribute, components, out);
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_BYTE:
            return draco_values<std::uint8_t>(mesh, attribute, components, out);
        case TINYGLTF_COMPONENT_TYPE_SHORT:
            return draco_values<std::int16_t>(mesh, attribute, components, out);
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT:
            return draco_values<std::uint16_t>(mesh, attribute, components, out);
        case TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT:
            return draco_values<std::uint32_t>(mesh, attribute, components, out);
        case TINYGLTF_COMPONENT_TYPE_FLOAT:
            return draco_values<float>(mesh, attribute, components, out);
        default:
            return false;
    }
}
#endif

}  // namespace

Expected<void> check_required_extensions(const tinygltf::Model& model, const std::string& file) {
    for (std::size_t i = 0; i < model.extensionsRequired.size(); ++i)
        if (!supported(model.extensionsRequired[i]))
            return make_error(problem(
                file, fmt::format("/extensionsRequired/{}", i),
                fmt::format("the file requires the extension {}, which castkit does not support",
                            model.extensionsRequired[i])));
    return {};
}

Expected<void> decode_meshopt(Gltf& gltf, const std::string& file) {
    tinygltf::Model& model = gltf.model;
    const std::size_t views = model.bufferViews.size();
    for (std::size_t v = 0; v < views; ++v) {
        const tinygltf::Value* ext =
            extension(model.bufferViews[v].extensions, "EXT_meshopt_compression");
        if (ext == nullptr || !ext->IsObject()) continue;
        const std::string at = fmt::format("/bufferViews/{}/extensions/EXT_meshopt_compression", v);
        auto fail = [&](std::string message) {
            return make_error(problem(file, at, std::move(message)));
        };
        const int buffer = integer(*ext, "buffer"), offset = integer(*ext, "byteOffset", 0),
                  length = integer(*ext, "byteLength"), stride = integer(*ext, "byteStride"),
                  count = integer(*ext, "count");
        const std::string mode = ext->Has("mode") && ext->Get("mode").IsString()
                                     ? ext->Get("mode").Get<std::string>()
                                     : "";
        const std::string filter = ext->Has("filter") && ext->Get("filter").IsString()
                                       ? ext->Get("filter").Get<std::string>()
                                       : "NONE";
        const auto source = view_bytes(gltf, buffer, static_cast<std::size_t>(std::max(offset, 0)),
                                       static_cast<std::size_t>(std::max(length, 0)));
        if (length <= 0 || source.empty())
            return fail("the compressed range is outside its buffer");
        if (stride <= 0 || count < 0) return fail("byteStride and count are required");
        const std::size_t size = static_cast<std::size_t>(stride) * static_cast<std::size_t>(count);
        if (size / kMaxExpansion > source.size())
            return fail(
                fmt::format("{} bytes cannot come from {} compressed bytes", size, source.size()));
#ifdef CASTKIT_HAVE_MESHOPT
        std::vector<unsigned char> decoded(size);
        int status = -1;
        const auto n = static_cast<std::size_t>(count), s = static_cast<std::size_t>(stride);
        if (mode == "ATTRIBUTES" && s % 4 == 0 && s <= 256)
            status = meshopt_decodeVertexBuffer(decoded.data(), n, s, source.data(), source.size());
        else if (mode == "TRIANGLES" && (s == 2 || s == 4) && n % 3 == 0)
            status = meshopt_decodeIndexBuffer(decoded.data(), n, s, source.data(), source.size());
        else if (mode == "INDICES" && (s == 2 || s == 4))
            status =
                meshopt_decodeIndexSequence(decoded.data(), n, s, source.data(), source.size());
        else
            return fail(fmt::format("mode '{}' with byteStride {} is not one the extension defines",
                                    mode, stride));
        if (status != 0) return fail(fmt::format("meshopt decoding failed ({})", status));
        if (filter == "OCTAHEDRAL" && (s == 4 || s == 8))
            meshopt_decodeFilterOct(decoded.data(), n, s);
        else if (filter == "QUATERNION" && s == 8)
            meshopt_decodeFilterQuat(decoded.data(), n, s);
        else if (filter == "EXPONENTIAL" && s % 4 == 0)
            meshopt_decodeFilterExp(decoded.data(), n, s);
        else if (filter != "NONE")
            return fail(
                fmt::format("filter '{}' with byteStride {} is not one the extension "
                            "defines",
                            filter, stride));
#else
        std::vector<unsigned char> decoded;
        (void)mode;
        (void)filter;
        return fail("castkit was built without meshoptimizer, so it cannot decode this file");
#endif
        const int added = add_buffer(gltf, std::move(decoded), 0);
        tinygltf::BufferView& view = model.bufferViews[v];
        view.buffer = model.bufferViews[static_cast<std::size_t>(added)].buffer;
        view.byteOffset = 0;
        view.byteLength = size;
        model.bufferViews.pop_back();
    }
    return {};
}

Expected<void> decode_draco(Gltf& gltf, const std::string& file) {
    tinygltf::Model& model = gltf.model;
    for (std::size_t m = 0; m < model.meshes.size(); ++m)
        for (std::size_t p = 0; p < model.meshes[m].primitives.size(); ++p) {
            tinygltf::Primitive& primitive = model.meshes[m].primitives[p];
            const tinygltf::Value* ext =
                extension(primitive.extensions, "KHR_draco_mesh_compression");
            if (ext == nullptr || !ext->IsObject()) continue;
            const std::string at =
                fmt::format("/meshes/{}/primitives/{}/extensions/KHR_draco_mesh_compression", m, p);
            auto fail = [&](const std::string& where, std::string message) {
                return make_error(problem(file, at + where, std::move(message)));
            };
            const int view_index = integer(*ext, "bufferView");
            if (view_index < 0 || static_cast<std::size_t>(view_index) >= model.bufferViews.size())
                return fail("/bufferView",
                            fmt::format("buffer view {} does not exist", view_index));
            const tinygltf::BufferView& view =
                model.bufferViews[static_cast<std::size_t>(view_index)];
            const auto source = view_bytes(gltf, view.buffer, view.byteOffset, view.byteLength);
            if (source.empty())
                return fail("/bufferView", "the compressed range is outside its buffer");
#ifdef CASTKIT_HAVE_DRACO
            draco::DecoderBuffer input;
            input.Init(reinterpret_cast<const char*>(source.data()), source.size());
            draco::Decoder decoder;
            auto decoded = decoder.DecodeMeshFromBuffer(&input);
            if (!decoded.ok())
                return fail("", fmt::format("Draco decoding failed: {}",
                                            decoded.status().error_msg_string()));
            const draco::Mesh& mesh = *decoded.value();
            if (mesh.num_points() / kMaxExpansion > source.size() ||
                mesh.num_faces() / kMaxExpansion > source.size())
                return fail("", "the decoded mesh is larger than its compressed bytes justify");
            if (primitive.indices >= 0) {
                if (static_cast<std::size_t>(primitive.indices) >= model.accessors.size())
                    return fail("", fmt::format("accessor {} does not exist", primitive.indices));
                std::vector<unsigned char> indices(mesh.num_faces() * 3 * 4);
                for (draco::FaceIndex f(0); f < mesh.num_faces(); ++f)
                    for (int corner = 0; corner < 3; ++corner) {
                        const std::uint32_t index = mesh.face(f)[corner].value();
                        std::memcpy(
                            indices.data() + (f.value() * 3 + static_cast<std::size_t>(corner)) * 4,
                            &index, 4);
                    }
                tinygltf::Accessor& accessor =
                    model.accessors[static_cast<std::size_t>(primitive.indices)];
                accessor.bufferView = add_buffer(gltf, std::move(indices), 0);
                accessor.byteOffset = 0;
                accessor.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_INT;
                accessor.count = mesh.num_faces() * 3;
                accessor.sparse.isSparse = false;
            }
            if (!ext->Has("attributes") || !ext->Get("attributes").IsObject())
                return fail("/attributes", "attributes are required");
            const tinygltf::Value& attributes = ext->Get("attributes");
            for (const std::string& name : attributes.Keys()) {
                auto target = primitive.attributes.find(name);
                const int unique_id =
                    attributes.Get(name).IsNumber()
                        ? static_cast<int>(attributes.Get(name).GetNumberAsDouble())
                        : -1;
                if (target == primitive.attributes.end() || target->second < 0 ||
                    static_cast<std::size_t>(target->second) >= model.accessors.size())
                    return fail("/attributes/" + name, "the primitive has no such attribute");
                const draco::PointAttribute* attribute =
                    unique_id < 0
                        ? nullptr
                        : mesh.GetAttributeByUniqueId(static_cast<std::uint32_t>(unique_id));
                tinygltf::Accessor& accessor =
                    model.accessors[static_cast<std::size_t>(target->second)];
                const int components =
                    tinygltf::GetNumComponentsInType(static_cast<std::uint32_t>(accessor.type));
                if (attribute == nullptr || components <= 0 || components > 16 ||
                    attribute->num_components() != components)
                    return fail(
                        "/attributes/" + name,
                        "no Draco attribute with this id and the accessor's component count");
                std::vector<unsigned char> values;
                if (!draco_attribute(mesh, *attribute, accessor.componentType, components, values))
                    return fail("/attributes/" + name,
                                "the Draco attribute cannot be converted to the accessor's type");
                accessor.bufferView = add_buffer(gltf, std::move(values), 0);
                accessor.byteOffset = 0;
                accessor.count = mesh.num_points();
                accessor.sparse.isSparse = false;
            }
#else
            return fail("", "castkit was built without Draco, so it cannot decode this file");
#endif
        }
    return {};
}

void Importer::warn_unkept_content() {
    if (!gltf.cameras.empty())
        warn("/cameras", fmt::format("cameras have no Cast equivalent and were dropped ({})",
                                     gltf.cameras.size()));
    if (extension(gltf.extensions, "KHR_lights_punctual"))
        warn("/extensions/KHR_lights_punctual", "lights have no Cast equivalent and were dropped");
    if (extension(gltf.extensions, "KHR_materials_variants"))
        warn(
            "/extensions/KHR_materials_variants",
            "material variants have no Cast equivalent; each primitive keeps its default material");
    warn_unknown_extensions();
    warn_unkept_extras();
}

bool read_back_extra(std::string_view key) {
    static const std::set<std::string, std::less<>> read_back = {
        "castkit_up_axis", "targetNames",      "castkit_slots",         "castkit_framerate",
        "castkit_looping", "castkit_instance", "castkit_notifications", "castkit_events"};
    return read_back.contains(key);
}

void Importer::warn_unkept_extras() {
    std::size_t objects = 0;
    std::string first;
    auto note = [&](const tinygltf::Value& extras, std::string path) {
        if (!extras.IsObject()) {
            if (extras.Type() == tinygltf::NULL_TYPE) return;
        } else {
            const std::vector<std::string> keys = extras.Keys();
            if (std::all_of(keys.begin(), keys.end(),
                            [](const std::string& key) { return read_back_extra(key); }))
                return;
        }
        if (objects++ == 0) first = std::move(path) + "/extras";
    };
    auto each = [&](const auto& list, const char* name) {
        for (std::size_t i = 0; i < list.size(); ++i)
            note(list[i].extras, fmt::format("/{}/{}", name, i));
    };
    note(gltf.asset.extras, "/asset");
    each(gltf.scenes, "scenes");
    each(gltf.nodes, "nodes");
    each(gltf.meshes, "meshes");
    each(gltf.materials, "materials");
    each(gltf.textures, "textures");
    each(gltf.images, "images");
    each(gltf.skins, "skins");
    each(gltf.animations, "animations");
    each(gltf.cameras, "cameras");
    if (objects > 0)
        warn(first,
             fmt::format("application data (extras) of {} object{} has no Cast equivalent and "
                         "was dropped",
                         objects, objects == 1 ? "" : "s"),
             "gltf.extras-dropped");
}

void Importer::warn_unknown_extensions() {
    std::set<std::string> named;
    for (std::size_t i = 0; i < gltf.extensionsUsed.size(); ++i) {
        const std::string& name = gltf.extensionsUsed[i];
        if (supported(name) || !named.insert(name).second) continue;
        warn(fmt::format("/extensionsUsed/{}", i),
             fmt::format("extension {} is not read by castkit; what it adds was dropped", name),
             "gltf.extension-unknown");
    }
}

}  // namespace castkit::gltf::detail

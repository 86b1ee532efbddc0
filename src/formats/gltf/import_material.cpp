// glTF PBR materials into Cast Materials: textures become File slots (the image URI, decoded,
// as the path), factors that differ from glTF's defaults become linear Color slots, and the
// slots castkit's exporter kept in extras.castkit_slots come back. What a Cast Material cannot
// hold (alpha, samplers, extension settings) is carried in JSON keyed by the Material's hash,
// and the extensions' textures become File slots that JSON names.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <climits>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <glm/mat3x3.hpp>

#include "import_internal.hpp"
#include "io/binary_io.hpp"
#include "io/side_outputs.hpp"

namespace castkit::gltf::detail {
namespace {

// `name` less a trailing image extension (exporters often name images after their files).
std::string without_image_extension(const std::string& name) {
    const std::filesystem::path path(name);
    std::string extension = path.extension().string();
    for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    for (const char* known : {".png", ".jpg", ".jpeg", ".tga", ".bmp", ".dds", ".psd"})
        if (extension == known) return name.substr(0, name.size() - extension.size());
    return name;
}

std::string uri_to_path(const std::string& uri) {
    std::string out;
    for (std::size_t i = 0; i < uri.size(); ++i) {
        if (uri[i] == '%' && i + 2 < uri.size() &&
            std::isxdigit(static_cast<unsigned char>(uri[i + 1])) &&
            std::isxdigit(static_cast<unsigned char>(uri[i + 2]))) {
            out += static_cast<char>(std::stoi(uri.substr(i + 1, 2), nullptr, 16));
            i += 2;
        } else {
            out += uri[i];
        }
    }
    return out;
}

// tinygltf's Value as JSON (numbers, strings, booleans, arrays, objects).
nlohmann::json to_json(const tinygltf::Value& value) {
    if (value.IsBool()) return value.Get<bool>();
    if (value.IsNumber()) {  // whole numbers stay integers: indices and texCoords must be
        const double number = value.GetNumberAsDouble();
        if (std::trunc(number) == number && std::abs(number) < 9.0e15)
            return static_cast<std::int64_t>(number);
        return number;
    }
    if (value.IsString()) return value.Get<std::string>();
    if (value.IsArray()) {
        nlohmann::json out = nlohmann::json::array();
        for (std::size_t i = 0; i < value.ArrayLen(); ++i)
            out.push_back(to_json(value.Get(static_cast<int>(i))));
        return out;
    }
    if (value.IsObject()) {
        nlohmann::json out = nlohmann::json::object();
        for (const std::string& key : value.Keys()) out[key] = to_json(value.Get(key));
        return out;
    }
    return nullptr;
}

// True when a JSON value names a texture (an object with an "index"), anywhere inside.
bool references_texture(const nlohmann::json& value) {
    if (value.is_object() && value.contains("index")) return true;
    if (value.is_structured())
        for (const auto& item : value)
            if (references_texture(item)) return true;
    return false;
}

// The image texture `texture` shows: its `source`, else the source of KHR_texture_basisu or
// EXT_texture_webp (a KTX2 or WebP texture may name its image only there); -1 for none.
int texture_image(const tinygltf::Texture& texture) {
    if (texture.source >= 0) return texture.source;
    for (const char* name : {"KHR_texture_basisu", "EXT_texture_webp"})
        if (auto it = texture.extensions.find(name);
            it != texture.extensions.end() && it->second.IsObject() && it->second.Has("source") &&
            it->second.Get("source").IsNumber())
            return static_cast<int>(it->second.Get("source").GetNumberAsDouble());
    return -1;
}

// Links `slot` of `material` to its File of `path`, adding the File on first use, so that
// slots showing one image share one File.
void link_file(cast::Material& material, const std::string& slot, const std::string& path) {
    for (const cast::File& file : material.files())
        if (file.path() == path) return material.set_slot(slot, file);
    cast::File created = material.add_file(path);
    material.set_slot(slot, created);
}

// Links `slot` of `material` to a new linear Color (glTF factors are linear).
void link_color(cast::Material& material, const std::string& slot, glm::vec4 rgba) {
    cast::Color color = material.add_color();
    color.set_color_space(cast::ColorSpace::Linear);
    color.set_rgba(rgba);
    material.set_slot(slot, color);
}

// The first `extraN` slot `material` does not use yet.
std::string free_extra_slot(const cast::Material& material) {
    for (int n = 0;; ++n)
        if (std::string slot = fmt::format("extra{}", n); !material.slot_hash(slot)) return slot;
}

// KHR_texture_transform as the matrix it applies to UVs: T · R · S.
glm::mat3 transform_matrix(const tinygltf::Value& ext) {
    glm::vec2 offset(0.0f), scale(1.0f);
    float rotation = 0.0f;
    auto pair = [&](const char* key, glm::vec2& out) {
        if (ext.Has(key) && ext.Get(key).IsArray() && ext.Get(key).ArrayLen() == 2)
            for (int i = 0; i < 2; ++i)
                out[i] = static_cast<float>(ext.Get(key).Get(i).GetNumberAsDouble());
    };
    pair("offset", offset);
    pair("scale", scale);
    if (ext.Has("rotation") && ext.Get("rotation").IsNumber())
        rotation = static_cast<float>(ext.Get("rotation").GetNumberAsDouble());
    const float c = std::cos(rotation), s = std::sin(rotation);
    // Column-major: columns are (x, y, w) images.
    const glm::mat3 t(1, 0, 0, 0, 1, 0, offset.x, offset.y, 1);
    const glm::mat3 r(c, -s, 0, s, c, 0, 0, 0, 1);
    const glm::mat3 sc(scale.x, 0, 0, 0, scale.y, 0, 0, 0, 1);
    return t * r * sc;
}

}  // namespace

std::string file_name_part(std::string_view text) {
    std::string out(text);
    for (char& c : out)
        if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_' && c != '.')
            c = '_';
    if (out.find_first_not_of('.') == std::string::npos) out = fmt::format("_{}", out);
    return out;
}

std::map<int, glm::mat3> Importer::uv_transforms(int index) {
    std::map<int, glm::mat3> out;
    if (index < 0 || static_cast<std::size_t>(index) >= gltf.materials.size()) return out;
    const tinygltf::Material& material = gltf.materials[static_cast<std::size_t>(index)];
    std::map<int, std::vector<glm::mat3>> by_set;
    auto add = [&](int texture, int set, const tinygltf::ExtensionMap& extensions) {
        if (texture < 0) return;
        glm::mat3 m(1.0f);
        if (auto it = extensions.find("KHR_texture_transform");
            it != extensions.end() && it->second.IsObject()) {
            m = transform_matrix(it->second);
            if (it->second.Has("texCoord") && it->second.Get("texCoord").IsNumber())
                set = static_cast<int>(it->second.Get("texCoord").GetNumberAsDouble());
        }
        by_set[set].push_back(m);
    };
    const auto& pbr = material.pbrMetallicRoughness;
    add(pbr.baseColorTexture.index, pbr.baseColorTexture.texCoord, pbr.baseColorTexture.extensions);
    add(pbr.metallicRoughnessTexture.index, pbr.metallicRoughnessTexture.texCoord,
        pbr.metallicRoughnessTexture.extensions);
    add(material.normalTexture.index, material.normalTexture.texCoord,
        material.normalTexture.extensions);
    add(material.occlusionTexture.index, material.occlusionTexture.texCoord,
        material.occlusionTexture.extensions);
    add(material.emissiveTexture.index, material.emissiveTexture.texCoord,
        material.emissiveTexture.extensions);
    // Not a structured binding: clang 14 cannot capture one in the lambda below.
    for (const auto& entry : by_set) {
        const int set = entry.first;
        const std::vector<glm::mat3>& matrices = entry.second;
        if (matrices.front() == glm::mat3(1.0f) &&
            std::all_of(matrices.begin(), matrices.end(),
                        [](const glm::mat3& m) { return m == glm::mat3(1.0f); }))
            continue;
        if (std::all_of(matrices.begin(), matrices.end(),
                        [&](const glm::mat3& m) { return m == matrices.front(); }))
            out[set] = matrices.front();
        else
            warn(fmt::format("/materials/{}", index),
                 fmt::format("textures on UV set {} have different KHR_texture_transforms; "
                             "they were not applied",
                             set));
    }
    return out;
}

nlohmann::json Importer::sampler_settings(int texture_index) const {
    nlohmann::json out = nlohmann::json::object();
    if (texture_index < 0 || static_cast<std::size_t>(texture_index) >= gltf.textures.size())
        return out;
    const int sampler = gltf.textures[static_cast<std::size_t>(texture_index)].sampler;
    if (sampler < 0 || static_cast<std::size_t>(sampler) >= gltf.samplers.size()) return out;
    const tinygltf::Sampler& s = gltf.samplers[static_cast<std::size_t>(sampler)];
    if (s.wrapS != TINYGLTF_TEXTURE_WRAP_REPEAT) out["wrapS"] = s.wrapS;
    if (s.wrapT != TINYGLTF_TEXTURE_WRAP_REPEAT) out["wrapT"] = s.wrapT;
    if (s.magFilter >= 0) out["magFilter"] = s.magFilter;
    if (s.minFilter >= 0) out["minFilter"] = s.minFilter;
    return out;
}

Expected<std::string> Importer::texture_path(int texture_index, const std::string& where) {
    if (static_cast<std::size_t>(texture_index) >= gltf.textures.size())
        return fail(where, fmt::format("texture {} does not exist", texture_index));
    const int source = texture_image(gltf.textures[static_cast<std::size_t>(texture_index)]);
    if (source < 0 || static_cast<std::size_t>(source) >= gltf.images.size()) {
        warn(fmt::format("/textures/{}/source", texture_index),
             "texture without an image was dropped");
        return std::string();
    }
    const std::string& uri = gltf.images[static_cast<std::size_t>(source)].uri;
    if (uri.empty() || uri.rfind("data:", 0) == 0) return place_embedded_image(source);
    return uri_to_path(uri);
}

Expected<void> Importer::carry_extension_textures(nlohmann::json& extension,
                                                  const std::string& name, const std::string& at,
                                                  cast::Material& out, nlohmann::json& samplers) {
    for (auto it = extension.begin(); it != extension.end();) {
        const std::string property = fmt::format("{}.{}", name, it.key());
        const std::string where = fmt::format("{}/extensions/{}/{}", at, name, it.key());
        if (!references_texture(*it)) {
            ++it;
            continue;
        }
        if (it->is_object() && it->value("index", nlohmann::json()).is_number_integer()) {
            const std::int64_t raw = (*it)["index"].get<std::int64_t>();
            const int index = raw >= 0 && raw < INT_MAX ? static_cast<int>(raw) : INT_MAX;
            auto path = texture_path(index, where + "/index");
            if (!path) return make_error(path.error());
            if (!path->empty()) {
                // The specular-glossiness diffuse map is the albedo when the core has none.
                const std::string slot = name == "KHR_materials_pbrSpecularGlossiness" &&
                                                 it.key() == "diffuseTexture" &&
                                                 !out.slot_hash("albedo")
                                             ? std::string("albedo")
                                             : free_extra_slot(out);
                link_file(out, slot, *path);
                it->erase("index");
                (*it)["castkit_slot"] = slot;
                if (nlohmann::json s = sampler_settings(index); !s.empty()) samplers[property] = s;
                ++it;
                continue;
            }
        }
        warn(where, fmt::format("{} was dropped: its texture could not be kept", property),
             "gltf.extension-texture-dropped");
        it = extension.erase(it);
    }
    return {};
}

Expected<void> Importer::carry_material(int index, cast::Material& out) {
    const tinygltf::Material& material = gltf.materials[static_cast<std::size_t>(index)];
    const std::string at = fmt::format("/materials/{}", index);
    nlohmann::json kept = nlohmann::json::object();
    if (material.alphaMode != "OPAQUE") kept["alphaMode"] = material.alphaMode;
    if (material.alphaMode == "MASK") kept["alphaCutoff"] = material.alphaCutoff;
    if (material.doubleSided) kept["doubleSided"] = true;
    const auto& pbr = material.pbrMetallicRoughness;
    // Factors Cast cannot hold because a texture fills the slot.
    const auto& f = pbr.baseColorFactor;
    if (pbr.baseColorTexture.index >= 0 && f.size() == 4 &&
        (f[0] != 1.0 || f[1] != 1.0 || f[2] != 1.0 || f[3] != 1.0))
        kept["baseColorFactor"] = f;
    if (pbr.metallicRoughnessTexture.index >= 0) {
        if (pbr.metallicFactor != 1.0) kept["metallicFactor"] = pbr.metallicFactor;
        if (pbr.roughnessFactor != 1.0) kept["roughnessFactor"] = pbr.roughnessFactor;
    }
    if (material.normalTexture.index >= 0 && material.normalTexture.scale != 1.0)
        kept["normalScale"] = material.normalTexture.scale;
    if (material.occlusionTexture.index >= 0 && material.occlusionTexture.strength != 1.0)
        kept["occlusionStrength"] = material.occlusionTexture.strength;
    const auto& e = material.emissiveFactor;
    if (material.emissiveTexture.index >= 0 && e.size() == 3 &&
        (e[0] != 1.0 || e[1] != 1.0 || e[2] != 1.0))
        kept["emissiveFactor"] = e;
    // UV sets other than 0 and samplers other than glTF's default, per slot (a
    // KHR_texture_transform's texCoord included).
    auto set_of = [](int set, const tinygltf::ExtensionMap& extensions) {
        auto it = extensions.find("KHR_texture_transform");
        if (it != extensions.end() && it->second.IsObject() && it->second.Has("texCoord") &&
            it->second.Get("texCoord").IsNumber())
            return static_cast<int>(it->second.Get("texCoord").GetNumberAsDouble());
        return set;
    };
    nlohmann::json sets = nlohmann::json::object();
    nlohmann::json samplers = nlohmann::json::object();
    auto note_set = [&](const char* slot, int texture, int set,
                        const tinygltf::ExtensionMap& extensions) {
        if (texture < 0) return;
        if (set_of(set, extensions) != 0) sets[slot] = set_of(set, extensions);
        if (nlohmann::json s = sampler_settings(texture); !s.empty()) samplers[slot] = s;
    };
    note_set("baseColorTexture", pbr.baseColorTexture.index, pbr.baseColorTexture.texCoord,
             pbr.baseColorTexture.extensions);
    note_set("metallicRoughnessTexture", pbr.metallicRoughnessTexture.index,
             pbr.metallicRoughnessTexture.texCoord, pbr.metallicRoughnessTexture.extensions);
    note_set("normalTexture", material.normalTexture.index, material.normalTexture.texCoord,
             material.normalTexture.extensions);
    note_set("occlusionTexture", material.occlusionTexture.index,
             material.occlusionTexture.texCoord, material.occlusionTexture.extensions);
    note_set("emissiveTexture", material.emissiveTexture.index, material.emissiveTexture.texCoord,
             material.emissiveTexture.extensions);
    if (!sets.empty()) kept["texCoord"] = sets;
    // Extensions (KHR_materials_*) by value; their textures become Cast File slots.
    for (const auto& [extension_name, value] : material.extensions) {
        if (extension_name == "KHR_materials_variants") continue;
        nlohmann::json json = to_json(value);
        if (json.is_object()) {
            auto carried_textures =
                carry_extension_textures(json, extension_name, at, out, samplers);
            if (!carried_textures) return carried_textures;
        }
        kept["extensions"][extension_name] = std::move(json);
    }
    carry_diffuse_factor(material, out);
    if (!samplers.empty()) kept["samplers"] = samplers;
    if (!kept.empty()) carried["materials"][std::to_string(out.hash())] = std::move(kept);
    return {};
}

void Importer::carry_diffuse_factor(const tinygltf::Material& material, cast::Material& out) {
    auto it = material.extensions.find("KHR_materials_pbrSpecularGlossiness");
    if (it == material.extensions.end() || out.slot_hash("albedo")) return;
    const nlohmann::json gloss = to_json(it->second);
    const nlohmann::json factor = gloss.value("diffuseFactor", nlohmann::json());
    if (!factor.is_array() || factor.size() != 4) return;
    glm::vec4 rgba(1.0f);
    for (int c = 0; c < 4; ++c)
        if (factor[static_cast<std::size_t>(c)].is_number())
            rgba[c] = factor[static_cast<std::size_t>(c)].get<float>();
    if (rgba != glm::vec4(1.0f)) link_color(out, "albedo", rgba);
}

Expected<void> Importer::import_material(cast::Model& model, int index,
                                         std::map<int, cast::Material>& done) {
    if (done.count(index)) return {};
    const tinygltf::Material& material = gltf.materials[static_cast<std::size_t>(index)];
    const std::string at = fmt::format("/materials/{}", index);
    cast::Material out = model.add_material();
    out.set_name(material.name.empty() ? fmt::format("material{}", index) : material.name);
    out.set_type("pbr");
    auto texture = [&](const std::string& slot, int texture_index,
                       const std::string& where) -> Expected<bool> {
        if (texture_index < 0) return false;
        auto path = texture_path(texture_index, where);
        if (!path) return make_error(path.error());
        if (path->empty()) return false;
        link_file(out, slot, *path);
        return true;
    };
    auto color = [&](const std::string& slot, glm::vec4 rgba) { link_color(out, slot, rgba); };
    const auto& pbr = material.pbrMetallicRoughness;
    auto base = texture("albedo", pbr.baseColorTexture.index,
                        at + "/pbrMetallicRoughness/baseColorTexture");
    if (!base) return make_error(base.error());
    const auto& f = pbr.baseColorFactor;
    if (!*base && f.size() == 4 && (f[0] != 1.0 || f[1] != 1.0 || f[2] != 1.0 || f[3] != 1.0))
        color("albedo", glm::vec4(f[0], f[1], f[2], f[3]));
    auto normal = texture("normal", material.normalTexture.index, at + "/normalTexture");
    if (!normal) return make_error(normal.error());
    auto metal_roughness = texture("roughness", pbr.metallicRoughnessTexture.index,
                                   at + "/pbrMetallicRoughness/metallicRoughnessTexture");
    if (!metal_roughness) return make_error(metal_roughness.error());
    if (*metal_roughness) {
        (void)texture("metal", pbr.metallicRoughnessTexture.index, at);
    } else {
        if (pbr.roughnessFactor != 1.0)
            color("roughness", glm::vec4(static_cast<float>(pbr.roughnessFactor)));
        if (pbr.metallicFactor != 1.0)
            color("metal", glm::vec4(static_cast<float>(pbr.metallicFactor)));
    }
    auto emissive = texture("emissive", material.emissiveTexture.index, at + "/emissiveTexture");
    if (!emissive) return make_error(emissive.error());
    const auto& e = material.emissiveFactor;
    if (!*emissive && e.size() == 3 && (e[0] != 0.0 || e[1] != 0.0 || e[2] != 0.0))
        color("emissive", glm::vec4(e[0], e[1], e[2], 1.0));
    auto occlusion = texture("ao", material.occlusionTexture.index, at + "/occlusionTexture");
    if (!occlusion) return make_error(occlusion.error());

    if (material.extras.IsObject() && material.extras.Has("castkit_slots") &&
        material.extras.Get("castkit_slots").IsObject()) {
        const tinygltf::Value& slots = material.extras.Get("castkit_slots");
        for (const std::string& slot : slots.Keys()) {
            const tinygltf::Value& value = slots.Get(slot);
            if (value.IsString()) {
                link_file(out, slot, value.Get<std::string>());
            } else if (value.IsArray() && value.ArrayLen() == 4) {
                glm::vec4 rgba;
                for (int c = 0; c < 4; ++c)
                    rgba[c] = static_cast<float>(value.Get(c).GetNumberAsDouble());
                color(slot, rgba);
            }
        }
    }
    // After castkit_slots, so the extension textures take extraN slots that are still free.
    if (auto carried_material = carry_material(index, out); !carried_material)
        return carried_material;
    done[index] = out;
    return {};
}

Expected<std::optional<cast::SharedBytes>> Importer::embedded_image_bytes(int source) {
    const tinygltf::Image& image = gltf.images[static_cast<std::size_t>(source)];
    const std::string at = fmt::format("/images/{}", source);
    std::optional<cast::SharedBytes> bytes;
    if (image.bufferView >= 0) {
        auto view = view_bytes(image.bufferView, at + "/bufferView");
        if (!view) return make_error(view.error());
        // A view of the buffer (a glb's binary chunk) that keeps its storage alive; borrowed
        // bytes are copied, as the arrays' are.
        const int buffer = gltf.bufferViews[static_cast<std::size_t>(image.bufferView)].buffer;
        bytes =
            cast::SharedBytes{std::as_bytes(*view), buffers[static_cast<std::size_t>(buffer)].owner}
                .detached();
    } else if (auto decoded = decode_data_uri(image.uri)) {
        auto owned = std::make_shared<const std::vector<std::byte>>(std::move(*decoded));
        bytes = cast::SharedBytes{cast::Bytes(*owned), owned};
    } else {
        warn(at + "/uri", "embedded image not kept: its data URI does not decode");
        return bytes;
    }
    if (bytes->empty()) {  // never kept: it would stand for a real file of that name
        warn(at, "embedded image not kept: it has no bytes");
        return std::optional<cast::SharedBytes>();
    }
    return bytes;
}

std::string Importer::embedded_image_name(int source, cast::Bytes bytes) const {
    const tinygltf::Image& image = gltf.images[static_cast<std::size_t>(source)];
    std::string stem = std::filesystem::path(file).stem().string();
    // "<stdin>", "<bytes>": a source without a name of its own.
    if (stem.empty() || (stem.front() == '<' && stem.back() == '>')) stem = "gltf";
    const std::string base =
        fmt::format("{}_{}", file_name_part(stem),
                    file_name_part(image.name.empty() ? fmt::format("image{}", source)
                                                      : without_image_extension(image.name)));
    // The extension the bytes call for, never the MIME type's (which a file may set to anything).
    return base + std::string(formats::image_extension_of(bytes));
}

Expected<std::string> Importer::place_embedded_image(int source) {
    if (auto it = placed_images.find(source); it != placed_images.end()) return it->second;
    std::string& placed = placed_images[source];
    auto bytes = embedded_image_bytes(source);
    if (!bytes) return make_error(bytes.error());
    if (!*bytes) return placed;
    const std::string name = embedded_image_name(source, **bytes);
    // Without a texture folder the image travels in the document alone (its File names it);
    // with one it is also unpacked there, as --textures DIR asks.
    if (image_directory.empty()) return placed = embedded.add(name, std::move(**bytes));
    auto written = unpack_image(source, name, **bytes);
    if (!written) return make_error(written.error());
    return placed = embedded.add(*written, std::move(**bytes));
}

Expected<std::string> Importer::unpack_image(int source, const std::string& name,
                                             cast::Bytes bytes) {
    const std::filesystem::path wanted = image_directory / platform::path_from_utf8(name);
    std::error_code ignored;  // a folder that cannot be made fails the write below, named
    std::filesystem::create_directories(image_directory, ignored);
    // Never over a file this run did not write, nor over another image of this import.
    auto written = side_outputs->write(wanted, bytes);
    if (!written) return make_error(written.error());
    if (written->renamed)
        warn(fmt::format("/images/{}", source),
             formats::renamed_message(
                 fmt::format("embedded image '{}'",
                             gltf.images[static_cast<std::size_t>(source)].name),
                 wanted, *written),
             formats::kRenamedRule);
    return platform::utf8_of(written->path.filename());
}

}  // namespace castkit::gltf::detail

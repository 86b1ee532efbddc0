// Cast Materials into glTF PBR metallic-roughness materials: File slots become textures that
// reference the file by URI, Color slots become factors, and every slot glTF has no place for
// is kept in the material's `extras.castkit_slots` and named in a warning.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>

#include "export_internal.hpp"

namespace castkit::gltf::detail {
namespace {

// A relative URI reference for a file path: forward slashes, and every byte outside RFC 3986's
// unreserved set and '/' percent-encoded.
std::string path_to_uri(std::string_view path) {
    std::string out;
    for (char c : path) {
        const auto byte = static_cast<unsigned char>(c);
        if (c == '\\')
            out += '/';
        else if (std::isalnum(byte) || c == '-' || c == '.' || c == '_' || c == '~' || c == '/')
            out += c;
        else
            out += fmt::format("%{:02X}", byte);
    }
    return out;
}

// glTF factors are linear; Cast colours default to sRGB.
glm::vec4 linear_color(const cast::ConstColor& color) {
    glm::vec4 rgba = color.rgba().value_or(glm::vec4(1.0f));
    if (color.color_space_name() == "linear") return rgba;
    for (int i = 0; i < 3; ++i)
        rgba[i] =
            rgba[i] <= 0.04045f ? rgba[i] / 12.92f : std::pow((rgba[i] + 0.055f) / 1.055f, 2.4f);
    return rgba;
}

// JSON as tinygltf's Value.
tinygltf::Value to_value(const nlohmann::json& json) {
    if (json.is_boolean()) return tinygltf::Value(json.get<bool>());
    if (json.is_number_integer()) return tinygltf::Value(json.get<int>());
    if (json.is_number()) return tinygltf::Value(json.get<double>());
    if (json.is_string()) return tinygltf::Value(json.get<std::string>());
    if (json.is_array()) {
        tinygltf::Value::Array out;
        for (const auto& item : json) out.push_back(to_value(item));
        return tinygltf::Value(std::move(out));
    }
    if (json.is_object()) {
        tinygltf::Value::Object out;
        for (const auto& [key, item] : json.items()) out[key] = to_value(item);
        return tinygltf::Value(std::move(out));
    }
    return {};
}

std::vector<double> numbers(const nlohmann::json& json, std::size_t count) {
    std::vector<double> out;
    if (!json.is_array() || json.size() != count) return out;
    for (const auto& item : json)
        if (item.is_number()) out.push_back(item.get<double>());
    if (out.size() != count) out.clear();
    return out;
}

}  // namespace

// Settings a glTF import carried for this material (alpha, sides, factors next to textures,
// UV sets, KHR_materials_*), applied over what the slots gave.
void Exporter::restore_material(tinygltf::Material& out) {
    auto found = carried_materials.find(out.name);
    if (found == carried_materials.end() || !found->is_object()) return;
    const nlohmann::json& kept = *found;
    auto& pbr = out.pbrMetallicRoughness;
    if (kept.contains("alphaMode") && kept["alphaMode"].is_string()) {
        const std::string mode = kept["alphaMode"].get<std::string>();
        if (mode == "MASK" || mode == "BLEND") out.alphaMode = mode;
    }
    if (kept.contains("alphaCutoff") && kept["alphaCutoff"].is_number())
        out.alphaCutoff = std::max(0.0, kept["alphaCutoff"].get<double>());
    if (kept.contains("doubleSided") && kept["doubleSided"].is_boolean())
        out.doubleSided = kept["doubleSided"].get<bool>();
    if (kept.contains("baseColorFactor") && pbr.baseColorTexture.index >= 0)
        if (auto v = numbers(kept["baseColorFactor"], 4); !v.empty()) pbr.baseColorFactor = v;
    if (kept.contains("emissiveFactor") && out.emissiveTexture.index >= 0)
        if (auto v = numbers(kept["emissiveFactor"], 3); !v.empty()) out.emissiveFactor = v;
    if (pbr.metallicRoughnessTexture.index >= 0) {
        if (kept.contains("metallicFactor") && kept["metallicFactor"].is_number())
            pbr.metallicFactor = kept["metallicFactor"].get<double>();
        if (kept.contains("roughnessFactor") && kept["roughnessFactor"].is_number())
            pbr.roughnessFactor = kept["roughnessFactor"].get<double>();
    }
    if (kept.contains("texCoord") && kept["texCoord"].is_object()) {
        auto set = [&](const char* slot, int& texCoord, int index) {
            if (index >= 0 && kept["texCoord"].contains(slot) &&
                kept["texCoord"][slot].is_number_unsigned())
                texCoord = kept["texCoord"][slot].get<int>();
        };
        set("baseColorTexture", pbr.baseColorTexture.texCoord, pbr.baseColorTexture.index);
        set("metallicRoughnessTexture", pbr.metallicRoughnessTexture.texCoord,
            pbr.metallicRoughnessTexture.index);
        set("normalTexture", out.normalTexture.texCoord, out.normalTexture.index);
        set("occlusionTexture", out.occlusionTexture.texCoord, out.occlusionTexture.index);
        set("emissiveTexture", out.emissiveTexture.texCoord, out.emissiveTexture.index);
    }
    if (kept.contains("extensions") && kept["extensions"].is_object())
        for (const auto& [name, value] : kept["extensions"].items()) {
            if (name.rfind("KHR_materials_", 0) != 0 || !value.is_object()) continue;
            out.extensions[name] = to_value(value);
            if (std::find(model.extensionsUsed.begin(), model.extensionsUsed.end(), name) ==
                model.extensionsUsed.end())
                model.extensionsUsed.push_back(name);
        }
}

int Exporter::export_material(const cast::ConstMaterial& material, const std::string& path) {
    for (auto& [node, index] : materials_)
        if (node == &material.node()) return index;

    tinygltf::Material out;
    out.name = std::string(material.name().value_or(""));
    auto& pbr = out.pbrMetallicRoughness;
    tinygltf::Value::Object unmapped;

    auto texture = [&](const cast::ConstFile& file) {
        const std::string uri = path_to_uri(file.path().value_or(""));
        int image = -1;
        for (std::size_t i = 0; i < model.images.size(); ++i)
            if (model.images[i].uri == uri) image = static_cast<int>(i);
        if (image < 0) {
            tinygltf::Image entry;
            entry.uri = uri;
            model.images.push_back(std::move(entry));
            image = static_cast<int>(model.images.size() - 1);
        }
        for (std::size_t i = 0; i < model.textures.size(); ++i)
            if (model.textures[i].source == image) return static_cast<int>(i);
        tinygltf::Texture entry;
        entry.source = image;
        model.textures.push_back(entry);
        return static_cast<int>(model.textures.size() - 1);
    };
    std::string roughness_file, metal_file;
    for (const cast::ConstMaterial::Slot& slot : material.slots()) {
        const std::string name(slot.name);
        const cast::ConstFile file = material.slot_file(name);
        const cast::ConstColor color = material.slot_color(name);
        if (!file && !color) {
            warn(path, fmt::format("slot '{}' links to no File or Color child", name));
            continue;
        }
        if (file && file.path().value_or("").empty()) {
            // A glTF image needs a uri or a bufferView; an empty path gives neither.
            warn(path, fmt::format("slot '{}': its File has an empty path (a texture packed in a "
                                   ".blend?); skipped",
                                   name));
            continue;
        }
        const glm::vec4 rgba = color ? linear_color(color) : glm::vec4(1.0f);
        if (name == "albedo" || name == "diffuse") {
            if (pbr.baseColorTexture.index < 0 && file)
                pbr.baseColorTexture.index = texture(file);
            else if (color)
                pbr.baseColorFactor = {rgba.r, rgba.g, rgba.b, rgba.a};
            else
                unmapped[name] = string_value(file.path().value_or(""));
        } else if (name == "normal" && file) {
            out.normalTexture.index = texture(file);
        } else if (name == "emissive") {
            if (file) {
                out.emissiveTexture.index = texture(file);
                out.emissiveFactor = {1.0, 1.0, 1.0};
            } else {
                out.emissiveFactor = {rgba.r, rgba.g, rgba.b};
            }
        } else if (name == "ao" && file) {
            out.occlusionTexture.index = texture(file);
        } else if (name == "roughness" && file) {
            roughness_file = file.path().value_or("");
            pbr.metallicRoughnessTexture.index = texture(file);
        } else if (name == "roughness") {
            pbr.roughnessFactor = rgba.r;
        } else if (name == "metal" && file) {
            metal_file = file.path().value_or("");
            if (pbr.metallicRoughnessTexture.index < 0)
                pbr.metallicRoughnessTexture.index = texture(file);
        } else if (name == "metal") {
            pbr.metallicFactor = rgba.r;
        } else {
            unmapped[name] = file ? string_value(file.path().value_or(""))
                                  : tinygltf::Value(tinygltf::Value::Array{
                                        tinygltf::Value(rgba.r), tinygltf::Value(rgba.g),
                                        tinygltf::Value(rgba.b), tinygltf::Value(rgba.a)});
        }
    }
    if (!roughness_file.empty() && !metal_file.empty() && roughness_file != metal_file)
        warn(path, fmt::format("glTF reads roughness and metalness from one image; '{}' was used "
                               "and metal '{}' dropped",
                               roughness_file, metal_file));
    else if (roughness_file.empty() != metal_file.empty())
        warn(path,
             "glTF reads roughness (green) and metalness (blue) from one image; the single map "
             "given was used for both");
    if (!unmapped.empty()) {
        std::string names;
        for (auto& [name, value] : unmapped) names += (names.empty() ? "" : ", ") + name;
        warn(path,
             fmt::format("material slots with no glTF equivalent kept in extras.castkit_slots: {}",
                         names));
        out.extras = tinygltf::Value(
            tinygltf::Value::Object{{"castkit_slots", tinygltf::Value(std::move(unmapped))}});
    }
    restore_material(out);
    model.materials.push_back(std::move(out));
    const int index = static_cast<int>(model.materials.size() - 1);
    materials_.emplace_back(&material.node(), index);
    return index;
}

}  // namespace castkit::gltf::detail

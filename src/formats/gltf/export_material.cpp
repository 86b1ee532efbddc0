// Cast Materials into glTF PBR metallic-roughness materials: File slots become textures that
// reference the file by URI, Color slots become factors, and every slot glTF has no place for
// is kept in the material's `extras.castkit_slots` and named in a warning. What a glTF import
// carried for the material (alpha, samplers, extensions with their textures) is restored.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <initializer_list>
#include <set>

#include "export_internal.hpp"
#include "io/side_files.hpp"

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

// One sampler setting of `settings` when it is one of glTF's `allowed` values, else -1.
int sampler_value(const nlohmann::json& settings, const char* key,
                  std::initializer_list<int> allowed) {
    if (!settings.is_object() || !settings.contains(key) || !settings[key].is_number_integer())
        return -1;
    const auto value = settings[key].get<std::int64_t>();
    for (int known : allowed)
        if (value == known) return known;
    return -1;
}

// What a glTF import carried for `material`: keyed by its node hash, else (older files) by its
// name; null when nothing was carried.
const nlohmann::json& carried_for(const nlohmann::json& carried,
                                  const cast::ConstMaterial& material) {
    static const nlohmann::json none;
    for (const std::string& key :
         {std::to_string(material.hash()), std::string(material.name().value_or(""))})
        if (auto found = carried.find(key); found != carried.end() && found->is_object())
            return *found;
    return none;
}

// The Cast slots the carried extensions' textureInfos name ("castkit_slot").
std::set<std::string> extension_slots(const nlohmann::json& kept) {
    std::set<std::string> out;
    if (!kept.contains("extensions") || !kept["extensions"].is_object()) return out;
    for (const auto& extension : kept["extensions"])
        if (extension.is_object())
            for (const auto& member : extension)
                if (member.is_object() && member.contains("castkit_slot") &&
                    member["castkit_slot"].is_string())
                    out.insert(member["castkit_slot"].get<std::string>());
    return out;
}

}  // namespace

std::vector<double> numbers(const nlohmann::json& json, std::size_t count) {
    std::vector<double> out;
    if (!json.is_array() || json.size() != count) return out;
    for (const auto& item : json)
        if (item.is_number()) out.push_back(item.get<double>());
    if (out.size() != count) out.clear();
    return out;
}

ExtensionImage extension_image(std::string_view name) {
    std::string lowered(name);
    for (char& c : lowered) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    if (lowered.ends_with(".ktx2")) return {"KHR_texture_basisu", "image/ktx2"};
    if (lowered.ends_with(".webp")) return {"EXT_texture_webp", "image/webp"};
    return {};
}

int texture_source(const tinygltf::Texture& texture) {
    if (texture.source >= 0) return texture.source;
    for (const auto& [name, value] : texture.extensions)
        if (value.IsObject() && value.Has("source") && value.Get("source").IsInt())
            return value.Get("source").Get<int>();
    return -1;
}

void set_texture_source(tinygltf::Texture& texture, int image) {
    if (texture.source >= 0) {
        texture.source = image;
        return;
    }
    for (auto& [name, value] : texture.extensions)
        if (value.IsObject() && value.Has("source"))
            value.Get<tinygltf::Value::Object>()["source"] = tinygltf::Value(image);
}

void Exporter::use_extension(const std::string& name, bool required) {
    auto add = [&](std::vector<std::string>& list) {
        if (std::find(list.begin(), list.end(), name) == list.end()) list.push_back(name);
    };
    add(model.extensionsUsed);
    if (required) add(model.extensionsRequired);
}

int Exporter::sampler_for(const nlohmann::json& settings) {
    tinygltf::Sampler sampler;
    constexpr int kRepeat = TINYGLTF_TEXTURE_WRAP_REPEAT;
    const std::initializer_list<int> wraps = {TINYGLTF_TEXTURE_WRAP_CLAMP_TO_EDGE,
                                              TINYGLTF_TEXTURE_WRAP_MIRRORED_REPEAT, kRepeat};
    // REPEAT is the smallest of the three wrap enums: max() falls back to it.
    sampler.wrapS = std::max(sampler_value(settings, "wrapS", wraps), kRepeat);
    sampler.wrapT = std::max(sampler_value(settings, "wrapT", wraps), kRepeat);
    sampler.magFilter = sampler_value(settings, "magFilter", {9728, 9729});
    sampler.minFilter = sampler_value(settings, "minFilter", {9728, 9729, 9984, 9985, 9986, 9987});
    if (sampler.wrapS == kRepeat && sampler.wrapT == kRepeat && sampler.magFilter < 0 &&
        sampler.minFilter < 0)
        return -1;  // glTF's default: no sampler
    for (std::size_t i = 0; i < model.samplers.size(); ++i) {
        const tinygltf::Sampler& s = model.samplers[i];
        if (s.wrapS == sampler.wrapS && s.wrapT == sampler.wrapT &&
            s.magFilter == sampler.magFilter && s.minFilter == sampler.minFilter)
            return static_cast<int>(i);
    }
    model.samplers.push_back(sampler);
    return static_cast<int>(model.samplers.size() - 1);
}

int Exporter::texture_for(std::string_view path, const nlohmann::json& settings) {
    // An instance file's relative texture paths name files beside it.
    const bool beside_instance = !texture_folder.empty() && !path.empty() &&
                                 formats::portable_path(path).is_relative() &&
                                 !(path.size() > 1 && path[1] == ':');  // no drive either
    const std::string uri = path_to_uri(beside_instance ? fmt::format("{}/{}", texture_folder, path)
                                                        : std::string(path));
    int image = -1;
    for (std::size_t i = 0; i < model.images.size(); ++i)
        if (model.images[i].uri == uri) image = static_cast<int>(i);
    if (image < 0) {
        tinygltf::Image entry;
        entry.uri = uri;
        model.images.push_back(std::move(entry));
        image = static_cast<int>(model.images.size() - 1);
        if (beside_instance) image_names_as_given[model.images.size() - 1] = std::string(path);
    }
    const int sampler = sampler_for(settings);
    for (std::size_t i = 0; i < model.textures.size(); ++i)
        if (texture_source(model.textures[i]) == image && model.textures[i].sampler == sampler)
            return static_cast<int>(i);
    tinygltf::Texture entry;
    entry.sampler = sampler;
    if (const std::string extension = extension_image(uri).extension; !extension.empty()) {
        // No PNG or JPEG to fall back on, so readers must know the extension.
        entry.extensions[extension] =
            tinygltf::Value(tinygltf::Value::Object{{"source", tinygltf::Value(image)}});
        use_extension(extension, true);
    } else {
        entry.source = image;
    }
    model.textures.push_back(std::move(entry));
    return static_cast<int>(model.textures.size() - 1);
}

void Exporter::restore_extension(tinygltf::Material& out, const std::string& name,
                                 nlohmann::json value, const nlohmann::json& samplers,
                                 const cast::ConstMaterial& material, const std::string& path) {
    for (auto it = value.begin(); it != value.end();) {
        if (!it->is_object() || !it->contains("castkit_slot")) {
            ++it;
            continue;
        }
        const nlohmann::json slot = (*it)["castkit_slot"];
        const cast::ConstFile file =
            slot.is_string() ? material.slot_file(slot.get<std::string>()) : cast::ConstFile();
        const std::string property = fmt::format("{}.{}", name, it.key());
        if (!file || file.path().value_or("").empty()) {
            warn(path, fmt::format("{} was dropped: its slot names no File with a path", property),
                 "gltf.extension-texture-dropped");
            it = value.erase(it);
            continue;
        }
        it->erase("castkit_slot");
        (*it)["index"] =
            texture_for(file.path().value_or(""), samplers.value(property, nlohmann::json()));
        ++it;
    }
    out.extensions[name] = to_value(value);
    use_extension(name, false);
}

// Settings a glTF import carried for this material (alpha, sides, factors next to textures,
// UV sets, extensions), applied over what the slots gave.
void Exporter::restore_material(tinygltf::Material& out, const nlohmann::json& kept,
                                const cast::ConstMaterial& material, const std::string& path) {
    if (!kept.is_object()) return;
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
    if (kept.contains("normalScale") && kept["normalScale"].is_number() &&
        out.normalTexture.index >= 0)
        out.normalTexture.scale = kept["normalScale"].get<double>();
    if (kept.contains("occlusionStrength") && kept["occlusionStrength"].is_number() &&
        out.occlusionTexture.index >= 0)
        out.occlusionTexture.strength =
            std::clamp(kept["occlusionStrength"].get<double>(), 0.0, 1.0);
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
    const nlohmann::json samplers = kept.value("samplers", nlohmann::json::object());
    if (kept.contains("extensions") && kept["extensions"].is_object())
        for (const auto& [name, value] : kept["extensions"].items())
            if (name.rfind("KHR_materials_", 0) == 0 && value.is_object())
                restore_extension(out, name, value, samplers, material, path);
}

int Exporter::export_material(const cast::ConstMaterial& material, const std::string& path) {
    for (auto& [node, index] : materials_)
        if (node == &material.node()) return index;

    tinygltf::Material out;
    out.name = std::string(material.name().value_or(""));
    auto& pbr = out.pbrMetallicRoughness;
    tinygltf::Value::Object unmapped;
    const nlohmann::json& kept = carried_for(carried_materials, material);
    const nlohmann::json samplers =
        kept.is_object() ? kept.value("samplers", nlohmann::json::object()) : nlohmann::json();
    const std::set<std::string> carried_slots = extension_slots(kept);

    // The texture of `file` for glTF property `property`, with the sampler carried for it.
    auto texture = [&](const cast::ConstFile& file, const char* property) {
        return texture_for(
            file.path().value_or(""),
            samplers.is_object() ? samplers.value(property, nlohmann::json()) : nlohmann::json());
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
                pbr.baseColorTexture.index = texture(file, "baseColorTexture");
            else if (color)
                pbr.baseColorFactor = {rgba.r, rgba.g, rgba.b, rgba.a};
            else
                unmapped[name] = string_value(file.path().value_or(""));
        } else if (name == "normal" && file) {
            out.normalTexture.index = texture(file, "normalTexture");
        } else if (name == "emissive") {
            if (file) {
                out.emissiveTexture.index = texture(file, "emissiveTexture");
                out.emissiveFactor = {1.0, 1.0, 1.0};
            } else {
                out.emissiveFactor = {rgba.r, rgba.g, rgba.b};
            }
        } else if (name == "ao" && file) {
            out.occlusionTexture.index = texture(file, "occlusionTexture");
        } else if (name == "roughness" && file) {
            roughness_file = file.path().value_or("");
            pbr.metallicRoughnessTexture.index = texture(file, "metallicRoughnessTexture");
        } else if (name == "roughness") {
            pbr.roughnessFactor = rgba.r;
        } else if (name == "metal" && file) {
            metal_file = file.path().value_or("");
            if (pbr.metallicRoughnessTexture.index < 0)
                pbr.metallicRoughnessTexture.index = texture(file, "metallicRoughnessTexture");
        } else if (name == "metal") {
            pbr.metallicFactor = rgba.r;
        } else if (!carried_slots.contains(name)) {
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
    restore_material(out, kept, material, path);
    model.materials.push_back(std::move(out));
    const int index = static_cast<int>(model.materials.size() - 1);
    materials_.emplace_back(&material.node(), index);
    return index;
}

}  // namespace castkit::gltf::detail

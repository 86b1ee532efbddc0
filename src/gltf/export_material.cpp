// Cast Materials into glTF PBR metallic-roughness materials: File slots become textures that
// reference the file by URI, Color slots become factors, and every slot glTF has no place for
// is kept in the material's `extras.castkit_slots` and named in a warning.
#include <fmt/format.h>

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
glm::vec4 linear_color(const cast::Color& color) {
    glm::vec4 rgba = color.rgba().value_or(glm::vec4(1.0f));
    if (color.color_space() == "linear") return rgba;
    for (int i = 0; i < 3; ++i)
        rgba[i] =
            rgba[i] <= 0.04045f ? rgba[i] / 12.92f : std::pow((rgba[i] + 0.055f) / 1.055f, 2.4f);
    return rgba;
}

}  // namespace

int Exporter::export_material(const cast::Material& material, const std::string& path) {
    for (auto& [node, index] : materials_)
        if (node == &material.node()) return index;

    tinygltf::Material out;
    out.name = std::string(material.name().value_or(""));
    auto& pbr = out.pbrMetallicRoughness;
    tinygltf::Value::Object unmapped;

    auto texture = [&](const cast::File& file) {
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
    for (const cast::Material::Slot& slot : material.slots()) {
        const std::string name(slot.name);
        const cast::File file = material.slot_file(name);
        const cast::Color color = material.slot_color(name);
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
    model.materials.push_back(std::move(out));
    const int index = static_cast<int>(model.materials.size() - 1);
    materials_.emplace_back(&material.node(), index);
    return index;
}

}  // namespace castkit::gltf::detail

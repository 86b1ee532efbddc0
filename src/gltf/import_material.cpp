// glTF PBR materials into Cast Materials: textures become File slots (the image URI, decoded,
// as the path), factors that differ from glTF's defaults become linear Color slots, and the
// slots castkit's exporter kept in extras.castkit_slots come back.
#include <fmt/format.h>

#include <cctype>

#include "import_internal.hpp"

namespace castkit::gltf::detail {
namespace {

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

}  // namespace

Expected<void> Importer::import_material(cast::Model& model, int index,
                                         std::map<int, cast::Material>& done) {
    if (done.count(index)) return {};
    const tinygltf::Material& material = gltf.materials[static_cast<std::size_t>(index)];
    const std::string at = fmt::format("/materials/{}", index);
    cast::Material out = model.add_material();
    out.set_name(material.name.empty() ? fmt::format("material{}", index) : material.name);
    out.set_type("pbr");
    std::map<std::string, cast::File> files;
    auto file = [&](const std::string& slot, const std::string& path) {
        auto it = files.find(path);
        if (it == files.end()) {
            cast::File created = out.add_file();
            created.set_path(path);
            it = files.emplace(path, created).first;
        }
        out.set_slot(slot, it->second);
    };
    auto texture = [&](const std::string& slot, int texture_index,
                       const std::string& where) -> Expected<bool> {
        if (texture_index < 0) return false;
        if (static_cast<std::size_t>(texture_index) >= gltf.textures.size())
            return fail(where, fmt::format("texture {} does not exist", texture_index));
        const int source = gltf.textures[static_cast<std::size_t>(texture_index)].source;
        if (source < 0 || static_cast<std::size_t>(source) >= gltf.images.size()) {
            warn(fmt::format("/textures/{}/source", texture_index),
                 "texture without an image was dropped");
            return false;
        }
        const std::string& uri = gltf.images[static_cast<std::size_t>(source)].uri;
        if (uri.empty() || uri.rfind("data:", 0) == 0) {
            warn(fmt::format("/images/{}", source),
                 "embedded images are not kept: Cast materials reference image files");
            return false;
        }
        file(slot, uri_to_path(uri));
        return true;
    };
    auto color = [&](const std::string& slot, glm::vec4 rgba) {
        cast::Color c = out.add_color();
        c.set_color_space("linear");
        c.set_rgba(rgba);
        out.set_slot(slot, c);
    };
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
                file(slot, value.Get<std::string>());
            } else if (value.IsArray() && value.ArrayLen() == 4) {
                glm::vec4 rgba;
                for (int c = 0; c < 4; ++c)
                    rgba[c] = static_cast<float>(value.Get(c).GetNumberAsDouble());
                color(slot, rgba);
            }
        }
    }
    done[index] = out;
    return {};
}

}  // namespace castkit::gltf::detail

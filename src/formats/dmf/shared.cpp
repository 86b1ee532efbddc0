#include "shared.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "io/binary_io.hpp"
#include "layout.hpp"

namespace castkit::dmf {

std::string texture_file_name(const Texture& texture, std::size_t index) {
    std::string name = texture.name.empty() ? fmt::format("texture{}", index) : texture.name;
    // A name is not a path: separators and a leading dot could leave the texture directory.
    for (char& c : name)
        if (c == '/' || c == '\\' || c == ':' || static_cast<unsigned char>(c) < 0x20) c = '_';
    if (name.front() == '.') name.front() = '_';
    if (name.size() < 4 || name.compare(name.size() - 4, 4, ".png") != 0) name += ".png";
    return name;
}

Texture default_texture(std::string name, std::size_t index, std::vector<std::byte> png,
                        std::uint16_t width, std::uint16_t height) {
    Texture t;
    t.name = std::move(name);
    t.id = static_cast<std::int16_t>(index);
    t.png = std::move(png);
    t.width = width;
    t.height = height;
    return t;
}

Material default_material(std::string name, std::size_t index, bool skinned) {
    Material m;
    m.name = std::move(name);
    m.id = static_cast<std::int16_t>(index);
    m.skinning = skinned ? 1 : 0;
    return m;
}

std::vector<std::string> non_default_fields(const Material& material, std::size_t index,
                                            bool skinned) {
    Material d = default_material(material.name, index, skinned);
    std::vector<std::string> out;
    auto check = [&](const char* name, auto a, auto b) {
        if (a != b) out.emplace_back(name);
    };
    check("id", material.id, d.id);
    check("use_blending", material.use_blending, d.use_blending);
    check("blend_equation", material.blend_equation, d.blend_equation);
    check("blend_src", material.blend_src, d.blend_src);
    check("blend_dst", material.blend_dst, d.blend_dst);
    check("skinning", material.skinning, d.skinning);
    check("shader_type", material.shader_type, d.shader_type);
    check("face_side", material.face_side, d.face_side);
    check("shadow_side", material.shadow_side, d.shadow_side);
    check("ignore_lights", material.ignore_lights, d.ignore_lights);
    check("vertex_color", material.vertex_color, d.vertex_color);
    check("use_alpha", material.use_alpha, d.use_alpha);
    check("skip_render", material.skip_render, d.skip_render);
    check("alpha_test", material.alpha_test, d.alpha_test);
    return out;
}

std::optional<std::pair<std::uint32_t, std::uint32_t>> png_size(const std::vector<std::byte>& png) {
    static const unsigned char kSignature[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (png.size() < 24) return std::nullopt;
    for (std::size_t i = 0; i < 8; ++i)
        if (png[i] != std::byte{kSignature[i]}) return std::nullopt;
    auto big_endian = [&](std::size_t at) {
        std::uint32_t v = 0;
        for (std::size_t i = 0; i < 4; ++i)
            v = (v << 8) | std::to_integer<std::uint32_t>(png[at + i]);
        return v;
    };
    return std::pair{big_endian(16), big_endian(20)};
}

namespace {

Diagnostic reference_error(const std::string& file, const std::uint32_t* offsets,
                           std::size_t section, std::size_t struct_size, std::size_t index,
                           std::size_t field, std::string path, std::string message) {
    std::uint64_t offset = offsets == nullptr
                               ? Diagnostic::kNoOffset
                               : std::uint64_t{offsets[section]} + index * struct_size + field;
    return formats::diagnostic_at(file, offset, std::move(path), std::move(message));
}

}  // namespace

Expected<void> check_references(const Model& model, const std::string& file, bool json,
                                const std::uint32_t* offsets) {
    using namespace layout;
    // Binary files name structs ("face[2]"); JSON files name JSON paths.
    auto where = [&](const char* binary, const char* json_array, std::size_t i,
                     const char* json_key) {
        return json ? fmt::format("$.{}[{}].{}", json_array, i, json_key)
                    : fmt::format("{}[{}]", binary, i);
    };
    // The largest references first, in one pass without a branch per face: only a model with a
    // reference out of range walks the faces again to name the first.
    std::uint32_t largest_index = 0;
    std::uint16_t largest_material = 0;
    for (const Face& f : model.faces) {
        largest_index = std::max({largest_index, f.indices[0], f.indices[1], f.indices[2]});
        largest_material = std::max(largest_material, f.material);
    }
    const bool faces_in_range =
        model.faces.empty() ||
        (largest_index < model.vertices.size() &&
         (largest_material < model.materials.size() || model.materials.empty()));
    for (std::size_t i = 0; i < model.faces.size() && !faces_in_range; ++i) {
        const Face& f = model.faces[i];
        for (std::uint32_t index : f.indices)
            if (index >= model.vertices.size())
                return make_error(reference_error(
                    file, offsets, 3, kFaceSize, i, 4, where("face", "faces", i, "indices"),
                    fmt::format("vertex index {} is past the {} vertices", index,
                                model.vertices.size())));
        // Without materials any index is accepted: such files have nothing to point at.
        if (f.material >= model.materials.size() && !model.materials.empty())
            return make_error(reference_error(file, offsets, 3, kFaceSize, i, 0,
                                              where("face", "faces", i, "material"),
                                              fmt::format("material {} is past the {} materials",
                                                          f.material, model.materials.size())));
    }
    for (std::size_t i = 0; i < model.materials.size(); ++i) {
        int texture = model.materials[i].texture;
        if (texture < -1 || texture >= static_cast<int>(model.textures.size()))
            return make_error(
                reference_error(file, offsets, 1, kMaterialSize, i, 0x22,
                                where("material", "materials", i, "texture"),
                                fmt::format("texture {} is not -1 or one of the {} textures",
                                            texture, model.textures.size())));
    }
    const auto bone_count = static_cast<int>(model.bones.size());
    for (std::size_t i = 0; i < model.bones.size(); ++i) {
        int parent = model.bones[i].parent;
        if (parent < -1 || parent >= bone_count || parent == static_cast<int>(i))
            return make_error(reference_error(
                file, offsets, 4, kBoneSize, i, 0x22, where("bone", "skeleton", i, "parent_id"),
                fmt::format("parent {} is not -1 or another of the {} bones", parent, bone_count)));
    }
    if (bone_count > 0)
        for (std::size_t i = 0; i < model.vertices.size(); ++i)
            for (std::size_t k = 0; k < 4; ++k) {
                int bone = model.vertices[i].skin_index[k];
                if (model.vertices[i].skin_weight[static_cast<int>(k)] != 0.0f &&
                    (bone < 0 || bone >= bone_count))
                    return make_error(reference_error(
                        file, offsets, 2, kVertexSize, i, 12 + k * 2,
                        where("vertex", "verterices", i, "skin_index"),
                        fmt::format("skin index {} is not one of the {} bones", bone, bone_count)));
            }
    for (std::size_t a = 0; a < model.animations.size(); ++a)
        for (std::size_t t = 0; t < model.animations[a].tracks.size(); ++t) {
            int bone = model.animations[a].tracks[t].bone;
            if (bone < 0 || bone >= bone_count)
                return make_error(reference_error(
                    file, nullptr, 0, 0, 0, 0,
                    json ? fmt::format("$.animations[{}].tracks[{}].bone_id", a, t)
                         : fmt::format("animation[{}]/track[{}]", a, t),
                    fmt::format("bone {} is not one of the {} bones", bone, bone_count)));
        }
    return {};
}

}  // namespace castkit::dmf

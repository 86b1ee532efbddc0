// The binary DMF writer, in castkit's canonical layout (docs/dmf.md): header and attribute table
// at 0x00–0x70, the six sections in table order, each animation's tracks, then the PNG images.
#include <fmt/format.h>

#include <castkit/formats/dmf.hpp>
#include <limits>

#include "io/binary_io.hpp"
#include "layout.hpp"

namespace castkit::dmf {
namespace {

using formats::ByteWriter;
using namespace layout;

Expected<void> put_name(ByteWriter& out, const std::string& name, const std::string& path) {
    if (name.size() > kNameSize)
        return make_error(
            formats::write_error(path, fmt::format("name '{}' is longer than 32 bytes", name)));
    out.put_text(name);
    out.put_zeros(kNameSize - name.size());
    return {};
}

}  // namespace

Expected<std::vector<std::byte>> write_to_buffer(const Model& model) {
    const std::size_t counts[kAttributeCount] = {model.textures.size(), model.materials.size(),
                                                 model.vertices.size(), model.faces.size(),
                                                 model.bones.size(),    model.animations.size()};
    // Offsets: sections, then tracks, then images, all computed before writing.
    std::uint64_t offsets[kAttributeCount];
    std::uint64_t at = kHeaderSize + kAttributeCount * kAttributeSize;
    for (std::size_t i = 0; i < kAttributeCount; ++i) {
        offsets[i] = counts[i] == 0 ? 0 : at;
        at += std::uint64_t{counts[i]} * kStructSizes[i];
    }
    std::vector<std::uint64_t> track_offsets, image_offsets;
    for (const Animation& a : model.animations) {
        track_offsets.push_back(a.tracks.empty() ? 0 : at);
        at += std::uint64_t{a.tracks.size()} * kTrackSize;
    }
    for (const Texture& t : model.textures) {
        image_offsets.push_back(t.png.empty() ? 0 : at);
        at += t.png.size();
    }
    if (at > std::numeric_limits<std::uint32_t>::max())
        return make_error(
            formats::write_error("", "the file would exceed the 4 GiB that DMF offsets reach"));

    ByteWriter out;
    out.put<std::uint32_t>(kMagic);
    out.put<std::uint16_t>(kMajorVersion);
    out.put<std::uint16_t>(kMinorVersion);
    out.put<std::uint32_t>(kHeaderSize);
    out.put<std::uint32_t>(kAttributeCount);
    for (std::size_t i = 0; i < kAttributeCount; ++i) {
        out.put<std::uint32_t>(kTableOrder[i]);
        out.put<std::uint32_t>(0);
        out.put<std::uint32_t>(static_cast<std::uint32_t>(offsets[i]));
        out.put<std::uint32_t>(static_cast<std::uint32_t>(counts[i]));
    }
    for (std::size_t i = 0; i < model.textures.size(); ++i) {
        const Texture& t = model.textures[i];
        if (auto ok = put_name(out, t.name, fmt::format("texture[{}]", i)); !ok)
            return make_error(ok.error());
        out.put<std::int16_t>(t.id);
        out.put<std::uint16_t>(t.flip_y);
        out.put<std::uint32_t>(static_cast<std::uint32_t>(image_offsets[i]));
        out.put<std::uint32_t>(static_cast<std::uint32_t>(t.png.size()));
        for (std::uint16_t v : {t.width, t.height, t.wrap_s, t.wrap_t}) out.put<std::uint16_t>(v);
        out.put_zeros(12);
    }
    for (std::size_t i = 0; i < model.materials.size(); ++i) {
        const Material& m = model.materials[i];
        if (auto ok = put_name(out, m.name, fmt::format("material[{}]", i)); !ok)
            return make_error(ok.error());
        out.put<std::int16_t>(m.id);
        out.put<std::int16_t>(m.texture);
        for (std::uint16_t v : {m.use_blending, m.blend_equation, m.blend_src, m.blend_dst,
                                m.skinning, m.shader_type, m.face_side, m.shadow_side,
                                m.ignore_lights, m.vertex_color, m.use_alpha, m.skip_render})
            out.put<std::uint16_t>(v);
        out.put<float>(m.alpha_test);
        out.put(m.diffuse);
        out.put(m.emissive);
        out.put(m.specular);
    }
    for (const Vertex& v : model.vertices) {
        out.put(v.position);
        for (std::int16_t index : v.skin_index) out.put<std::int16_t>(index);
        out.put(v.skin_weight);
    }
    for (const Face& f : model.faces) {
        out.put<std::uint16_t>(f.material);
        out.put<std::uint16_t>(0);
        for (std::uint32_t index : f.indices) out.put<std::uint32_t>(index);
        for (const glm::u8vec4& c : f.colors) out.put(c);
        for (const glm::vec3& n : f.normals) out.put(n);
        for (const glm::vec2& uv : f.uvs) out.put(uv);
    }
    for (std::size_t i = 0; i < model.bones.size(); ++i) {
        const Bone& b = model.bones[i];
        if (auto ok = put_name(out, b.name, fmt::format("bone[{}]", i)); !ok)
            return make_error(ok.error());
        out.put<std::int16_t>(b.id);
        out.put<std::int16_t>(b.parent);
        out.put_zeros(12);
        out.put(b.matrix);
    }
    for (std::size_t i = 0; i < model.animations.size(); ++i) {
        const Animation& a = model.animations[i];
        if (auto ok = put_name(out, a.name, fmt::format("animation[{}]", i)); !ok)
            return make_error(ok.error());
        out.put<std::int16_t>(a.id);
        out.put<std::uint16_t>(a.fps);
        out.put<std::uint32_t>(static_cast<std::uint32_t>(track_offsets[i]));
        out.put<std::uint32_t>(static_cast<std::uint32_t>(a.tracks.size()));
        out.put<float>(a.duration);
    }
    for (const Animation& a : model.animations)
        for (const Track& t : a.tracks) {
            out.put<std::int16_t>(t.bone);
            out.put<std::int16_t>(t.flags);
            out.put<float>(t.time);
            // Fields whose flag is clear are reserved: zeros (docs/dmf.md, choice 5).
            glm::vec3 position = (t.flags & kPosition) ? t.position : glm::vec3(0.0f);
            glm::vec4 rotation = (t.flags & kRotation) ? t.rotation : glm::vec4(0.0f);
            glm::vec3 scale = (t.flags & kScale) ? t.scale : glm::vec3(0.0f);
            out.put(position);
            out.put(rotation);
            out.put(scale);
        }
    for (const Texture& t : model.textures) out.put_bytes(t.png);
    return out.take();
}

Expected<void> write(const Model& model, const std::filesystem::path& path) {
    return formats::write_serialised(path, write_to_buffer(model));
}

}  // namespace castkit::dmf

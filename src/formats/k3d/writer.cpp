// The K3D writer: the layout Kohi's serializer produces, with every padding byte zeroed.
#include <fmt/format.h>

#include <castkit/formats/k3d.hpp>
#include <limits>

#include "io/binary_io.hpp"

namespace castkit::k3d {
namespace {

using formats::ByteWriter;

Expected<void> check_limits(const Model& model) {
    constexpr std::size_t kMax16 = std::numeric_limits<std::uint16_t>::max();
    if (model.submeshes.size() > kMax16 || model.bones.size() > kMax16 ||
        model.nodes.size() > kMax16 || model.animations.size() > kMax16)
        return make_error(formats::write_error(
            "", "K3D holds at most 65535 submeshes, bones, nodes and animations"));
    if (model.strings.size() > kMax16 - 1)
        return make_error(formats::write_error("strings", "K3D holds at most 65535 strings"));
    std::size_t channels = 0;
    for (const Animation& a : model.animations) {
        if (a.channels.size() > kMax16)
            return make_error(
                formats::write_error("animations", "an animation holds at most 65535 channels"));
        channels += a.channels.size();
    }
    if (channels > kMax16)
        return make_error(
            formats::write_error("animations", "K3D holds at most 65535 channels in all"));
    for (std::size_t i = 0; i < model.submeshes.size(); ++i) {
        const Submesh& m = model.submeshes[i];
        if (m.vertices.size() > std::numeric_limits<std::uint32_t>::max() ||
            m.indices.size() > std::numeric_limits<std::uint32_t>::max())
            return make_error(formats::write_error(fmt::format("submesh[{}]", i),
                                                   "more than 2^32-1 vertices or indices"));
    }
    return {};
}

}  // namespace

Expected<std::vector<std::byte>> write_to_buffer(const Model& model) {
    if (auto ok = check_limits(model); !ok) return make_error(ok.error());
    ByteWriter out;
    out.put<std::uint32_t>(kMagic);
    out.put<std::uint32_t>(kAssetTypeModel);
    out.put<std::uint32_t>(kVersion);
    out.put<std::uint32_t>(model.exporter_type);
    out.put<std::uint8_t>(model.exporter_version);
    out.put_zeros(3);
    out.put(model.extents.min);
    out.put(model.extents.max);
    out.put(model.center);
    out.put(model.inverse_global_transform);
    out.put<std::uint16_t>(static_cast<std::uint16_t>(model.submeshes.size()));
    out.put<std::uint16_t>(static_cast<std::uint16_t>(model.bones.size()));
    out.put<std::uint16_t>(static_cast<std::uint16_t>(model.nodes.size()));
    out.put<std::uint16_t>(static_cast<std::uint16_t>(model.animations.size()));
    std::size_t string_table_offset_at = out.size();
    out.put<std::uint32_t>(0);

    if (!model.submeshes.empty()) {
        out.put<std::uint32_t>(1);
        for (const Submesh& m : model.submeshes) out.put<std::uint16_t>(m.name_id);
        for (const Submesh& m : model.submeshes) out.put<std::uint16_t>(m.material_name_id);
        for (const Submesh& m : model.submeshes)
            out.put<std::uint32_t>(static_cast<std::uint32_t>(m.vertices.size()));
        for (const Submesh& m : model.submeshes)
            out.put<std::uint32_t>(static_cast<std::uint32_t>(m.indices.size()));
        for (const Submesh& m : model.submeshes)
            out.put<std::uint8_t>(static_cast<std::uint8_t>(m.type));
        for (const Submesh& m : model.submeshes) out.put(m.center);
        for (const Submesh& m : model.submeshes) {
            out.put(m.extents.min);
            out.put(m.extents.max);
        }
        for (const Submesh& m : model.submeshes)
            for (const Vertex& v : m.vertices) {
                out.put(v.position);
                out.put(v.normal);
                out.put(v.texcoord);
                out.put(v.colour);
                out.put(v.tangent);
                if (m.type == MeshType::Skinned) {
                    for (int k = 0; k < 4; ++k) out.put<std::int32_t>(v.bone_ids[k]);
                    out.put(v.weights);
                }
            }
        for (const Submesh& m : model.submeshes)
            for (std::uint32_t index : m.indices) out.put<std::uint32_t>(index);
    }
    if (!model.bones.empty()) {
        out.put<std::uint32_t>(2);
        for (const Bone& b : model.bones) out.put<std::uint16_t>(b.name_id);
        for (const Bone& b : model.bones) out.put(b.offset);
    }
    if (!model.nodes.empty()) {
        out.put<std::uint32_t>(3);
        for (const SceneNode& n : model.nodes) out.put<std::uint16_t>(n.name_id);
        for (const SceneNode& n : model.nodes) out.put<std::uint16_t>(n.parent);
        for (const SceneNode& n : model.nodes) out.put(n.local);
    }
    if (!model.animations.empty()) {
        std::size_t total = 0;
        for (const Animation& a : model.animations) total += a.channels.size();
        out.put<std::uint32_t>(4);
        out.put<std::uint16_t>(static_cast<std::uint16_t>(total));
        for (const Animation& a : model.animations) out.put<std::uint16_t>(a.name_id);
        for (const Animation& a : model.animations) out.put<float>(a.duration);
        for (const Animation& a : model.animations) out.put<float>(a.ticks_per_second);
        for (const Animation& a : model.animations)
            out.put<std::uint16_t>(static_cast<std::uint16_t>(a.channels.size()));
        if (total > 0) {
            out.put<std::uint32_t>(5);
            for (std::size_t a = 0; a < model.animations.size(); ++a)
                for (std::size_t c = 0; c < model.animations[a].channels.size(); ++c)
                    out.put<std::uint16_t>(static_cast<std::uint16_t>(a));
            for (const Animation& a : model.animations)
                for (const Channel& c : a.channels) out.put<std::uint16_t>(c.name_id);
            // Byte offsets into the channel buffer: each channel's keys in P, R, S order.
            std::vector<std::uint32_t> counts[3], offsets[3];
            std::uint64_t position = 0;
            for (const Animation& a : model.animations)
                for (const Channel& c : a.channels) {
                    const std::size_t sizes[3] = {c.positions.size(), c.rotations.size(),
                                                  c.scales.size()};
                    const std::uint64_t key_bytes[3] = {16, 20, 16};
                    for (int kind = 0; kind < 3; ++kind) {
                        if (sizes[kind] > std::numeric_limits<std::uint32_t>::max() ||
                            position > std::numeric_limits<std::uint32_t>::max())
                            return make_error(formats::write_error(
                                "animations",
                                "channel keys exceed what K3D counts and offsets reach"));
                        counts[kind].push_back(static_cast<std::uint32_t>(sizes[kind]));
                        offsets[kind].push_back(static_cast<std::uint32_t>(position));
                        position += sizes[kind] * key_bytes[kind];
                    }
                }
            for (int kind = 0; kind < 3; ++kind) {
                for (std::uint32_t count : counts[kind]) out.put<std::uint32_t>(count);
                for (std::uint32_t offset : offsets[kind]) out.put<std::uint32_t>(offset);
            }
            for (const Animation& a : model.animations)
                for (const Channel& c : a.channels) {
                    for (const KeyVec3& k : c.positions) {
                        out.put(k.value);
                        out.put<float>(k.time);
                    }
                    for (const KeyQuat& k : c.rotations) {
                        out.put(k.value);
                        out.put<float>(k.time);
                    }
                    for (const KeyVec3& k : c.scales) {
                        out.put(k.value);
                        out.put<float>(k.time);
                    }
                }
        }
    }
    out.put<std::uint32_t>(6);
    out.patch<std::uint32_t>(string_table_offset_at, static_cast<std::uint32_t>(out.size()));
    std::uint64_t data_size = 0;
    for (const std::string& s : model.strings) data_size += s.size();
    out.put<std::uint32_t>(static_cast<std::uint32_t>(model.strings.size()));
    out.put<std::uint32_t>(0);
    out.put<std::uint64_t>(data_size);
    std::uint64_t offset = 0;
    for (const std::string& s : model.strings) {
        out.put<std::uint32_t>(static_cast<std::uint32_t>(offset));
        out.put<std::uint32_t>(static_cast<std::uint32_t>(s.size()));
        offset += s.size();
    }
    if (offset > std::numeric_limits<std::uint32_t>::max())
        return make_error(formats::write_error(
            "strings", "string data exceeds the 4 GiB that K3D offsets reach"));
    for (const std::string& s : model.strings) out.put_text(s);
    return out.take();
}

Expected<void> write(const Model& model, const std::filesystem::path& path) {
    return formats::write_serialised(path, write_to_buffer(model));
}

}  // namespace castkit::k3d

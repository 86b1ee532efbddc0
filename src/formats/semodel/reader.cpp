// The SEModel reader (docs/semodel.md): header, bones, meshes with planar streams, materials.
// Every count is checked against the bytes left before anything is allocated; like semodel.py,
// a mesh's UV layer and influence counts count only when the header's flag is set.
#include <fmt/format.h>

#include <castkit/formats/semodel.hpp>

#include "../common/se_preamble.hpp"
#include "io/binary_io.hpp"

namespace castkit::semodel {
namespace {

using formats::ByteReader;
using formats::diagnostic_at;

constexpr std::size_t kHeaderStart = 9;  // after magic and version
constexpr std::size_t kHeaderSize = 20;  // headerSize counts itself

// Calls `body` with a value of the unsigned type `width` bytes wide, so loops over integers
// of a width chosen at run time compile once per width.
template <class Body>
void with_width(std::size_t width, Body body) {
    if (width == 1)
        body(std::uint8_t{});
    else if (width == 2)
        body(std::uint16_t{});
    else
        body(std::uint32_t{});
}

class Parser {
  public:
    Parser(std::span<const std::byte> data, std::string_view file, Model& model)
        : data_(data), file_(file), model_(model) {}

    Expected<void> run(std::size_t start);

  private:
    Expected<void> bones(ByteReader& in);
    Expected<void> mesh(ByteReader& in, Mesh& mesh, std::size_t index);
    Expected<void> materials(ByteReader& in);
    Unexpected fail(std::size_t offset, std::string message) const {
        return make_error(diagnostic_at(file_, offset, {}, std::move(message)));
    }
    template <class T>
    void read_array(ByteReader& in, std::vector<T>& out, std::size_t count) {
        out.resize(count);
        if (count > 0) std::memcpy(out.data(), in.here(), count * sizeof(T));
        in.skip(count * sizeof(T));
    }

    std::span<const std::byte> data_;
    std::string_view file_;
    Model& model_;
};

Expected<void> Parser::run(std::size_t start) {
    ByteReader in(data_, std::string(file_), start, "semodel");
    const Header& h = model_.header;
    if (h.presence & kBones)
        if (auto ok = bones(in); !ok) return ok;
    if (h.presence & kMeshes) {
        if (h.mesh_count > in.remaining() / 11)  // every mesh has an 11-byte header
            return fail(0x12, fmt::format("header claims {} meshes but only {} bytes follow",
                                          h.mesh_count, in.remaining()));
        if (!formats::within_memory_bound(h.mesh_count, sizeof(Mesh), in.size()))
            return fail(0x12, formats::memory_bound_message(h.mesh_count, "meshes", sizeof(Mesh),
                                                            in.size()));
        model_.meshes.resize(h.mesh_count);
        for (std::size_t i = 0; i < model_.meshes.size(); ++i)
            if (auto ok = mesh(in, model_.meshes[i], i); !ok) return ok;
    }
    if (h.presence & kMaterials)
        if (auto ok = materials(in); !ok) return ok;
    auto rest = in.take_bytes(in.remaining());
    model_.trailing.assign(rest.begin(), rest.end());
    return {};
}

Expected<void> Parser::bones(ByteReader& in) {
    const Header& h = model_.header;
    if (h.bone_count > in.remaining() / 6)  // a NUL name, flags and a parent at least
        return fail(0x0E, fmt::format("header claims {} bones but only {} bytes follow",
                                      h.bone_count, in.remaining()));
    if (!formats::within_memory_bound(h.bone_count, sizeof(Bone), in.size()))
        return fail(0x0E,
                    formats::memory_bound_message(h.bone_count, "bones", sizeof(Bone), in.size()));
    model_.bones.resize(h.bone_count);
    for (Bone& bone : model_.bones) {
        const std::size_t at = in.offset();
        auto name = in.take_cstr();
        if (!name) return fail(at, "bone name has no NUL before the end of the data");
        bone.name = *name;
    }
    const std::size_t stride = 5 + ((h.bone_presence & kGlobalMatrices) ? 28 : 0) +
                               ((h.bone_presence & kLocalMatrices) ? 28 : 0) +
                               ((h.bone_presence & kScales) ? 12 : 0);
    if (model_.bones.size() > in.remaining() / stride)
        return fail(in.offset(),
                    fmt::format("{} bones need {} bytes of data but {} are left",
                                model_.bones.size(), model_.bones.size() * stride, in.remaining()));
    for (Bone& bone : model_.bones) {
        bone.flags = in.take<std::uint8_t>();
        bone.parent = in.take<std::int32_t>();
        if (h.bone_presence & kGlobalMatrices) {
            bone.global_position = in.take<glm::vec3>();
            bone.global_rotation = in.take<glm::vec4>();
        }
        if (h.bone_presence & kLocalMatrices) {
            bone.local_position = in.take<glm::vec3>();
            bone.local_rotation = in.take<glm::vec4>();
        }
        if (h.bone_presence & kScales) bone.scale = in.take<glm::vec3>();
    }
    return {};
}

Expected<void> Parser::mesh(ByteReader& in, Mesh& mesh, std::size_t index) {
    const std::size_t at = in.offset();
    if (!in.has(11)) return fail(at, fmt::format("mesh {}: truncated header", index));
    mesh.flags = in.take<std::uint8_t>();
    mesh.uv_layer_count = in.take<std::uint8_t>();
    mesh.max_influence = in.take<std::uint8_t>();
    const std::uint32_t vertices = in.take<std::uint32_t>();
    const std::uint32_t faces = in.take<std::uint32_t>();
    const std::uint8_t flags = model_.header.mesh_presence;
    const std::size_t layers = model_.layer_count(mesh), influences = model_.influence_count(mesh);
    const std::size_t bone_width = formats::width_for(model_.header.bone_count);
    const std::size_t stride = 12 + layers * 8 + ((flags & kNormals) ? 12 : 0) +
                               ((flags & kColors) ? 4 : 0) + influences * (bone_width + 4);
    if (vertices > in.remaining() / stride)
        return fail(at + 3,
                    fmt::format("mesh {}: {} vertices need {} bytes but {} are left", index,
                                vertices, std::uint64_t{vertices} * stride, in.remaining()));
    read_array(in, mesh.positions, vertices);
    if (layers > 0) read_array(in, mesh.uvs, vertices * layers);
    if (flags & kNormals) read_array(in, mesh.normals, vertices);
    if (flags & kColors) read_array(in, mesh.colors, vertices);
    if (influences > 0) {
        mesh.weights.resize(vertices * influences);
        with_width(bone_width, [&](auto bone_tag) {
            using BoneIndex = decltype(bone_tag);
            for (Weight& w : mesh.weights) {
                w.bone = in.take<BoneIndex>();
                w.value = in.take<float>();
            }
        });
    }
    const unsigned face_width = formats::width_for(vertices);
    if (faces > in.remaining() / (3 * face_width))
        return fail(at + 7,
                    fmt::format("mesh {}: {} faces need {} bytes but {} are left", index, faces,
                                std::uint64_t{faces} * 3 * face_width, in.remaining()));
    if (face_width == 4) {
        read_array(in, mesh.faces, std::size_t{faces} * 3);
    } else {
        mesh.faces.resize(std::size_t{faces} * 3);
        with_width(face_width, [&](auto index_tag) {
            for (std::uint32_t& f : mesh.faces) f = in.take<decltype(index_tag)>();
        });
    }
    if (layers * 4 > in.remaining())
        return fail(in.offset(), fmt::format("mesh {}: truncated material indices", index));
    read_array(in, mesh.material_indices, layers);
    return {};
}

Expected<void> Parser::materials(ByteReader& in) {
    const Header& h = model_.header;
    if (h.material_count > in.remaining() / 2)  // a NUL name and the simple flag at least
        return fail(0x16, fmt::format("header claims {} materials but only {} bytes follow",
                                      h.material_count, in.remaining()));
    if (!formats::within_memory_bound(h.material_count, sizeof(Material), in.size()))
        return fail(0x16, formats::memory_bound_message(h.material_count, "materials",
                                                        sizeof(Material), in.size()));
    model_.materials.resize(h.material_count);
    for (Material& material : model_.materials) {
        const std::size_t at = in.offset();
        auto text = [&](std::string& out) -> bool {
            auto s = in.take_cstr();
            if (s) out = *s;
            return s.has_value();
        };
        if (!text(material.name))
            return fail(at, "material name has no NUL before the end of the data");
        if (!in.has(1))
            return fail(in.offset(), fmt::format("material '{}': truncated", material.name));
        material.simple = in.take<std::uint8_t>();
        if (material.simple != 0 &&
            !(text(material.diffuse) && text(material.normal) && text(material.specular)))
            return fail(at, fmt::format("material '{}': a texture path has no NUL before the end "
                                        "of the data",
                                        material.name));
    }
    return {};
}

}  // namespace

Expected<Model> read(cast::Bytes bytes, std::string_view source_name, Diagnostics& warnings) {
    auto preamble = formats::read_se_preamble(bytes, source_name, "SEModel", kHeaderSize, warnings);
    if (!preamble) return make_error(preamble.error());
    const std::uint16_t header_size = preamble->header_size;
    Model model;
    Header& h = model.header;
    h.version = preamble->version;
    const std::byte* p = bytes.data();
    h.presence = cast::load<std::uint8_t>(p + 0x0B);
    h.bone_presence = cast::load<std::uint8_t>(p + 0x0C);
    h.mesh_presence = cast::load<std::uint8_t>(p + 0x0D);
    h.bone_count = cast::load<std::uint32_t>(p + 0x0E);
    h.mesh_count = cast::load<std::uint32_t>(p + 0x12);
    h.material_count = cast::load<std::uint32_t>(p + 0x16);
    h.reserved = {cast::load<std::uint8_t>(p + 0x1A), cast::load<std::uint8_t>(p + 0x1B),
                  cast::load<std::uint8_t>(p + 0x1C)};
    model.header_extra.assign(bytes.begin() + kHeaderStart + kHeaderSize,
                              bytes.begin() + kHeaderStart + header_size);
    const std::size_t start = kHeaderStart + header_size;
    if (auto ok = Parser(bytes, source_name, model).run(start); !ok) return make_error(ok.error());
    if (!model.trailing.empty()) {
        const bool blend =
            model.trailing.size() >= 8 && std::memcmp(model.trailing.data(), "SEBlend\n", 8) == 0;
        warnings.push_back(diagnostic_at(
            source_name, bytes.size() - model.trailing.size(), {},
            blend ? fmt::format("SEBlend trailer ({} bytes) kept as opaque bytes: castkit does not "
                                "convert SEModel blend shapes",
                                model.trailing.size())
                  : fmt::format("{} unknown bytes after the data; kept", model.trailing.size()),
            Severity::Warning));
    }
    return model;
}

Expected<Model> open(const std::filesystem::path& path, Diagnostics& warnings) {
    return formats::parse_mapped(path, [&](cast::Bytes bytes, const std::string& name) {
        return read(bytes, name, warnings);
    });
}

}  // namespace castkit::semodel

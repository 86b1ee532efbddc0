// The SEModel writer: serialises the header and data exactly as held, after checking that the
// stream sizes agree with the counts and flags, so every file it writes reads back.
#include <fmt/format.h>

#include <castkit/formats/semodel.hpp>

#include "io/binary_io.hpp"

namespace castkit::semodel {
namespace {

using formats::ByteWriter;

Unexpected invalid(std::string_view message) {
    return make_error(formats::write_error({}, fmt::format("cannot write SEModel: {}", message)));
}

Expected<void> check_mesh(const Model& model, const Mesh& mesh, std::size_t index) {
    const std::uint8_t flags = model.header.mesh_presence;
    const std::size_t vertices = mesh.positions.size();
    const std::size_t layers = model.layer_count(mesh), influences = model.influence_count(mesh);
    auto size_error = [&](const char* stream, std::size_t has, std::size_t wants) {
        return invalid(
            fmt::format("mesh {}: {} holds {} values, {} expected", index, stream, has, wants));
    };
    if (vertices > 0xFFFFFFFFu || mesh.faces.size() / 3 > 0xFFFFFFFFu)
        return invalid("mesh too large");
    if (mesh.uvs.size() != vertices * layers)
        return size_error("uvs", mesh.uvs.size(), vertices * layers);
    if (mesh.normals.size() != ((flags & kNormals) ? vertices : 0))
        return size_error("normals", mesh.normals.size(), (flags & kNormals) ? vertices : 0);
    if (mesh.colors.size() != ((flags & kColors) ? vertices : 0))
        return size_error("colors", mesh.colors.size(), (flags & kColors) ? vertices : 0);
    if (mesh.weights.size() != vertices * influences)
        return size_error("weights", mesh.weights.size(), vertices * influences);
    if (mesh.faces.size() % 3 != 0)
        return invalid(fmt::format("mesh {}: faces are not triangles", index));
    if (mesh.material_indices.size() != layers)
        return size_error("material_indices", mesh.material_indices.size(), layers);
    const std::uint64_t face_max = formats::width_for(vertices) == 4   ? 0xFFFFFFFFu
                                   : formats::width_for(vertices) == 2 ? 0xFFFF
                                                                       : 0xFF;
    for (std::uint32_t f : mesh.faces)
        if (f > face_max)
            return invalid(
                fmt::format("mesh {}: face index {} does not fit the face width of {} "
                            "vertices",
                            index, f, vertices));
    const std::uint64_t bone_max = formats::width_for(model.header.bone_count) == 4   ? 0xFFFFFFFFu
                                   : formats::width_for(model.header.bone_count) == 2 ? 0xFFFF
                                                                                      : 0xFF;
    for (const Weight& w : mesh.weights)
        if (w.bone > bone_max)
            return invalid(fmt::format("mesh {}: weight bone {} does not fit", index, w.bone));
    return {};
}

Expected<void> check(const Model& model) {
    const Header& h = model.header;
    if (model.header_extra.size() > 0xFFFF - 20)
        return invalid("header_extra does not fit headerSize");
    auto block = [&](std::uint8_t bit, std::size_t size, std::uint32_t count,
                     const char* what) -> Expected<void> {
        if ((h.presence & bit) ? size != count : size != 0)
            return invalid(fmt::format("{} {} but the header {}", size, what,
                                       (h.presence & bit) ? fmt::format("counts {}", count)
                                                          : std::string("has no flag for them")));
        return {};
    };
    if (auto ok = block(kBones, model.bones.size(), h.bone_count, "bones"); !ok) return ok;
    if (auto ok = block(kMeshes, model.meshes.size(), h.mesh_count, "meshes"); !ok) return ok;
    if (auto ok = block(kMaterials, model.materials.size(), h.material_count, "materials"); !ok)
        return ok;
    for (std::size_t i = 0; i < model.meshes.size(); ++i)
        if (auto ok = check_mesh(model, model.meshes[i], i); !ok) return ok;
    return {};
}

template <class T>
void put_array(ByteWriter& out, const std::vector<T>& values) {
    out.put_bytes(std::as_bytes(std::span(values)));
}

void put_mesh(ByteWriter& out, const Model& model, const Mesh& mesh) {
    out.put(mesh.flags);
    out.put(mesh.uv_layer_count);
    out.put(mesh.max_influence);
    out.put(static_cast<std::uint32_t>(mesh.positions.size()));
    out.put(static_cast<std::uint32_t>(mesh.faces.size() / 3));
    put_array(out, mesh.positions);
    put_array(out, mesh.uvs);
    put_array(out, mesh.normals);
    put_array(out, mesh.colors);
    const unsigned bone_width = formats::width_for(model.header.bone_count);
    for (const Weight& w : mesh.weights) {
        out.put_uint(w.bone, bone_width);
        out.put(w.value);
    }
    const unsigned face_width = formats::width_for(mesh.positions.size());
    if (face_width == 4)
        put_array(out, mesh.faces);
    else
        for (std::uint32_t f : mesh.faces) out.put_uint(f, face_width);
    put_array(out, mesh.material_indices);
}

}  // namespace

void canonicalize(Model& model) {
    Header& h = model.header;
    h.version = 1;
    h.reserved = {};
    model.header_extra.clear();
    h.presence = static_cast<std::uint8_t>((model.bones.empty() ? 0 : kBones) |
                                           (model.meshes.empty() ? 0 : kMeshes) |
                                           (model.materials.empty() ? 0 : kMaterials));
    h.bone_count = static_cast<std::uint32_t>(model.bones.size());
    h.mesh_count = static_cast<std::uint32_t>(model.meshes.size());
    h.material_count = static_cast<std::uint32_t>(model.materials.size());
}

Expected<std::vector<std::byte>> write_to_buffer(const Model& model) {
    if (auto ok = check(model); !ok) return make_error(ok.error());
    const Header& h = model.header;
    ByteWriter out;
    std::size_t estimate = 64 + model.trailing.size();
    for (const Mesh& m : model.meshes)
        estimate += 11 + m.positions.size() * 12 + m.uvs.size() * 8 + m.normals.size() * 12 +
                    m.colors.size() * 4 + m.weights.size() * 8 + m.faces.size() * 4;
    out.reserve(estimate);
    out.put_bytes(std::as_bytes(std::span("SEModel", 7)));
    out.put(h.version);
    out.put(static_cast<std::uint16_t>(20 + model.header_extra.size()));
    out.put(h.presence);
    out.put(h.bone_presence);
    out.put(h.mesh_presence);
    out.put(h.bone_count);
    out.put(h.mesh_count);
    out.put(h.material_count);
    for (std::uint8_t r : h.reserved) out.put(r);
    out.put_bytes(model.header_extra);
    for (const Bone& bone : model.bones) out.put_cstr(bone.name);
    for (const Bone& bone : model.bones) {
        out.put(bone.flags);
        out.put(bone.parent);
        if (h.bone_presence & kGlobalMatrices) {
            out.put(bone.global_position);
            out.put(bone.global_rotation);
        }
        if (h.bone_presence & kLocalMatrices) {
            out.put(bone.local_position);
            out.put(bone.local_rotation);
        }
        if (h.bone_presence & kScales) out.put(bone.scale);
    }
    for (const Mesh& mesh : model.meshes) put_mesh(out, model, mesh);
    for (const Material& material : model.materials) {
        out.put_cstr(material.name);
        out.put(material.simple);
        if (material.simple == 0) continue;
        out.put_cstr(material.diffuse);
        out.put_cstr(material.normal);
        out.put_cstr(material.specular);
    }
    out.put_bytes(model.trailing);
    return out.take();
}

Expected<void> write(const Model& model, const std::filesystem::path& path) {
    return formats::write_serialised(path, write_to_buffer(model));
}

}  // namespace castkit::semodel

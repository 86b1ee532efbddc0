// What SEModel → Cast and Cast → SEModel must agree on, so that `se.*` properties are written
// exactly when the way back could not infer a value (docs/semodel.md).
#pragma once

#include <array>
#include <castkit/formats/semodel.hpp>
#include <cstdint>
#include <span>
#include <vector>

namespace castkit::semodel::detail {

// from_cast of a document that has passed the check before every write (the registry's write,
// which checks first): what from_cast does after its own check.
Expected<Model> from_checked_cast(const cast::Document& document, Diagnostics& warnings);

// The three presence bytes Cast → SEModel derives from the data the Cast document holds.
inline std::array<std::uint8_t, 3> derived_presence(const Model& m) {
    const Header& h = m.header;
    std::uint8_t data = static_cast<std::uint8_t>((m.bones.empty() ? 0 : kBones) |
                                                  (m.meshes.empty() ? 0 : kMeshes) |
                                                  (m.materials.empty() ? 0 : kMaterials));
    std::uint8_t bones = m.bones.empty() ? 0 : static_cast<std::uint8_t>(h.bone_presence & 7);
    std::uint8_t meshes = 0;
    for (const Mesh& mesh : m.meshes) {
        if (m.layer_count(mesh) > 0) meshes |= kUVs;
        if (m.influence_count(mesh) > 0) meshes |= kWeights;
    }
    if (!m.meshes.empty()) meshes |= h.mesh_presence & (kNormals | kColors);
    return {data, bones, meshes};
}

// The material a Cast mesh links to: the first per-layer index naming a material, or -1.
inline std::int32_t linked_material(std::span<const std::int32_t> material_indices,
                                    std::size_t material_count) {
    for (std::int32_t index : material_indices)
        if (index >= 0 && static_cast<std::size_t>(index) < material_count) return index;
    return -1;
}

// The per-layer material indices Cast → SEModel writes: the linked material on every layer.
inline std::vector<std::int32_t> inferred_material_indices(const Model& m, const Mesh& mesh,
                                                           std::int32_t linked) {
    return std::vector<std::int32_t>(m.layer_count(mesh), linked);
}

}  // namespace castkit::semodel::detail

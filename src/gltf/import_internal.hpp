// The glTF importer's shared pieces: accessors decoded with every check the spec implies (any
// component type, normalisation, byte strides, sparse substitution), node world transforms,
// and the Cast Models the importer builds, for the animation import to bind to.
#pragma once

#include <castkit/cast/nodes.hpp>
#include <castkit/expected.hpp>
#include <cstdint>
#include <glm/mat4x4.hpp>
#include <map>
#include <string>
#include <vector>

#include "tiny_gltf_config.hpp"

namespace castkit::gltf::detail {

class Importer {
  public:
    Importer(const tinygltf::Model& model, std::string file, Diagnostics& warnings)
        : gltf(model), file(std::move(file)), warnings(warnings) {}

    const tinygltf::Model& gltf;
    std::string file;
    Diagnostics& warnings;

    void warn(std::string path, std::string message);
    Unexpected fail(std::string path, std::string message) const;

    // Accessor `index` as `components` floats per element: normalised integers map to [0, 1]
    // or [-1, 1], other integers convert as values; sparse entries replace the dense ones.
    // `path` names the referring JSON property for errors. O(count).
    Expected<std::vector<float>> read_floats(int index, int components,
                                             const std::string& path) const;
    // Accessor `index` as unsigned integers (indices, joints); must be an integer type.
    Expected<std::vector<std::uint32_t>> read_integers(int index, int components,
                                                       const std::string& path) const;

    // Checks node references (children in range, one parent each, no cycles) and computes
    // parents and world matrices. The up-axis node castkit writes counts as identity.
    Expected<void> resolve_nodes();
    std::vector<int> parents;
    std::vector<glm::mat4> locals;
    std::vector<glm::mat4> worlds;
    int up_node = -1;
    std::string up_axis;

    // Scene import into `root`.
    Expected<void> import_models(cast::Root& root);
    Expected<void> import_animations(cast::Root& root);

    // Where each glTF node became a bone (model index, bone index), and each mesh node's
    // morph target names, for the animation import.
    std::map<int, std::string> bone_names;
    std::map<int, std::vector<std::string>> mesh_target_names;

    // Values decoded from accessors so far, against a budget of kDecodeBytesFactor values per
    // buffer byte plus kDecodeConstant: an accessor shared by many meshes is decoded once per
    // use, and this bounds what a small file can make castkit allocate that way.
    mutable std::size_t decoded_values = 0;
    static constexpr std::size_t kDecodeBytesFactor = 4;
    static constexpr std::size_t kDecodeConstant = std::size_t{16} << 20;

  private:
    Expected<std::vector<double>> read_components(int index, int components,
                                                  const std::string& path, bool as_integers) const;
    Expected<void> import_material(cast::Model& model, int index,
                                   std::map<int, cast::Material>& done);
};

}  // namespace castkit::gltf::detail

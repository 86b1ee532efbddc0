// The glTF importer's shared pieces: accessors decoded with every check the spec implies (any
// component type, normalisation, byte strides, sparse substitution), node world transforms,
// and the Cast Models the importer builds, for the animation import to bind to.
#pragma once

#include <castkit/cast/nodes.hpp>
#include <castkit/expected.hpp>
#include <castkit/gltf/gltf.hpp>
#include <cstdint>
#include <filesystem>
#include <glm/mat3x3.hpp>
#include <glm/mat4x4.hpp>
#include <map>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <vector>

#include "tiny_gltf_config.hpp"

namespace castkit::gltf::detail {

class Importer {
  public:
    Importer(const tinygltf::Model& model, std::string file, const ReadOptions& options,
             Diagnostics& warnings)
        : gltf(model), file(std::move(file)), options(options), warnings(warnings) {}

    const tinygltf::Model& gltf;
    std::string file;
    ReadOptions options;
    Diagnostics& warnings;

    void warn(std::string path, std::string message);
    Unexpected fail(std::string path, std::string message) const;

    // Accessor `index` as `components` floats per element: normalised integers map to [0, 1]
    // or [-1, 1], other integers convert as values; sparse entries replace the dense ones.
    // `path` names the referring JSON property for errors. O(count).
    Expected<std::vector<float>> read_floats(int index, int components,
                                             const std::string& path) const;
    // The bytes of buffer view `index`, checked against its buffer; `where` names the referring
    // JSON property for errors. O(1).
    Expected<std::span<const unsigned char>> view_bytes(int index, const std::string& where) const;
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

    // One warning per kind of content Cast cannot hold: cameras, lights, material variants,
    // GPU instancing.
    void warn_unkept_content();

    // Scene import into `root`.
    Expected<void> import_models(cast::Root& root);
    Expected<void> import_animations(cast::Root& root);

    // Where each glTF node became a bone (its name), and each mesh node's morph target names,
    // for the animation import.
    std::map<int, std::string> bone_names;
    std::map<int, std::vector<std::string>> mesh_target_names;
    // Where embedded images are written (ReadContext's texture folder); empty keeps none.
    std::filesystem::path image_directory;
    // The file name each embedded image was written as ("" when it could not be), by index.
    std::map<int, std::string> placed_images;
    // Writes embedded image `source` (a buffer view or a data: URI) into image_directory as
    // `<source file stem>_<image name or imageN>.<png|jpg>` once, and returns that file name;
    // "" with a warning when there is no folder or the bytes cannot be had. O(image size).
    Expected<std::string> place_embedded_image(int source);

    // What Cast cannot hold but a Cast → glTF export restores: the castkit-gltf JSON written
    // to the Metadata `gltf` property (default morph weights, material settings).
    nlohmann::json carried = nlohmann::json::object();

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
    // What Cast's Material cannot hold (alpha mode and cutoff, double sides, factors next to
    // textures, UV sets, KHR_materials_* settings), into carried["materials"][name].
    void carry_material(int index, std::string_view name);

  public:
    // The KHR_texture_transform each UV set of material `index` is drawn with, when all the
    // material's textures on that set agree (then baking it into the UVs is exact).
    std::map<int, glm::mat3> uv_transforms(int index);
};

// An error naming the first entry of `extensionsRequired` castkit does not read.
Expected<void> check_required_extensions(const tinygltf::Model& model, const std::string& file);
// EXT_meshopt_compression's fallback buffers hold no data, and Draco primitives' index
// accessors have no bufferView, both of which tinygltf refuses: the file's bytes with those
// buffers given a one-byte placeholder and those accessors pointed at the compressed view, or
// empty when nothing needed it.
// O(file size) for files that use meshopt, else a substring search of the JSON.
std::vector<unsigned char> prepared_for_tinygltf(std::span<const std::byte> bytes, bool glb);
// Decodes every meshopt-compressed buffer view, and every Draco-compressed primitive, into new
// buffers the views and accessors then point at; sizes are checked against the compressed
// bytes before anything is allocated. O(decoded size).
Expected<void> decode_meshopt(tinygltf::Model& model, const std::string& file);
Expected<void> decode_draco(tinygltf::Model& model, const std::string& file);

}  // namespace castkit::gltf::detail

// SEModel (`.semodel`), the de-facto v1 every real tool writes (ruling 31, docs/decisions.md):
// the native data, its reader and writer, and the conversion to and from the Cast document.
// The mapping and its `se.*` properties are described in docs/semodel.md.
#pragma once

#include <array>
#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <cstdint>
#include <filesystem>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace castkit::semodel {

// dataPresenceFlags.
inline constexpr std::uint8_t kBones = 1 << 0;
inline constexpr std::uint8_t kMeshes = 1 << 1;
inline constexpr std::uint8_t kMaterials = 1 << 2;
// boneDataPresenceFlags.
inline constexpr std::uint8_t kGlobalMatrices = 1 << 0;
inline constexpr std::uint8_t kLocalMatrices = 1 << 1;
inline constexpr std::uint8_t kScales = 1 << 2;
// meshDataPresenceFlags.
inline constexpr std::uint8_t kUVs = 1 << 0;
inline constexpr std::uint8_t kNormals = 1 << 1;
inline constexpr std::uint8_t kColors = 1 << 2;
inline constexpr std::uint8_t kWeights = 1 << 3;

// The header fields as stored (headerSize is 20 + Model::header_extra.size()). The counts say
// what the header claims; where a block is written they equal the data's sizes.
struct Header {
    std::uint16_t version = 1;
    std::uint8_t presence = 0;
    std::uint8_t bone_presence = 0;
    std::uint8_t mesh_presence = 0;
    std::uint32_t bone_count = 0;
    std::uint32_t mesh_count = 0;
    std::uint32_t material_count = 0;
    std::array<std::uint8_t, 3> reserved{};
};

// A bone; the global, local and scale blocks are stored when the header's bone flags say so,
// and hold these defaults otherwise.
struct Bone {
    std::string name;
    std::uint8_t flags = 0;
    std::int32_t parent = -1;
    glm::vec3 global_position{0.0f};
    glm::vec4 global_rotation{0.0f, 0.0f, 0.0f, 1.0f};  // x, y, z, w
    glm::vec3 local_position{0.0f};
    glm::vec4 local_rotation{0.0f, 0.0f, 0.0f, 1.0f};
    glm::vec3 scale{1.0f};
};

struct Weight {
    std::uint32_t bone = 0;
    float value = 0.0f;
};

// A mesh's streams, planar as in the file. uv_layer_count and max_influence are the stored
// bytes; they count only when the header's UV / weight flag is set (layer_count()).
struct Mesh {
    std::uint8_t flags = 0;
    std::uint8_t uv_layer_count = 0;
    std::uint8_t max_influence = 0;
    std::vector<glm::vec3> positions;
    std::vector<glm::vec2> uvs;  // vertex-major: vertex × layers
    std::vector<glm::vec3> normals;
    std::vector<std::array<std::uint8_t, 4>> colors;  // R, G, B, A
    std::vector<Weight> weights;                      // vertex × influences
    std::vector<std::uint32_t> faces;                 // 3 per triangle, clockwise
    std::vector<std::int32_t> material_indices;       // one per UV layer, -1 = none
};

struct Material {
    std::string name;
    std::uint8_t simple = 1;  // every writer writes 1; 0 stores no texture paths
    std::string diffuse;
    std::string normal;
    std::string specular;
};

struct Model {
    Header header;
    std::vector<std::byte> header_extra;
    std::vector<Bone> bones;
    std::vector<Mesh> meshes;
    std::vector<Material> materials;
    std::vector<std::byte> trailing;  // bytes after the materials (e.g. an SEBlend trailer)

    // UV layers (and material indices) a mesh stores: 0 unless the UV flag is set.
    std::uint32_t layer_count(const Mesh& mesh) const {
        return (header.mesh_presence & kUVs) ? mesh.uv_layer_count : 0;
    }
    // Weight slots per vertex a mesh stores: 0 unless the weight flag is set.
    std::uint32_t influence_count(const Mesh& mesh) const {
        return (header.mesh_presence & kWeights) ? mesh.max_influence : 0;
    }
};

// Sets version 1, a 20-byte header, zero reserved bytes, the bone/mesh/material presence bits
// and counts from the data. The bone and mesh stream flags are left as chosen. O(1).
void canonicalize(Model& model);

// Reads SEModel bytes; `file` names them in diagnostics. Anything malformed is an error naming
// the byte offset. O(size).
Expected<Model> read(cast::Bytes bytes, std::string_view file, Diagnostics& warnings);
// Memory-maps and parses a file.
Expected<Model> open(const std::filesystem::path& path, Diagnostics& warnings);

// Serialises exactly what `model` holds; an error when header and data disagree. O(size).
Expected<std::vector<std::byte>> write_to_buffer(const Model& model);
// Writes atomically (temporary file, then rename); "-" is standard output.
Expected<void> write(const Model& model, const std::filesystem::path& path);

// The Cast document: Root → Model with a Skeleton, Meshes (winding reversed) and Materials
// with File children, plus the `se.*` properties that make the way back exact. Expected, as
// every format's to_cast, so that callers handle them alike. O(size).
Expected<cast::Document> to_cast(const Model& model, Diagnostics& warnings);
// The same, taking the model: the document keeps it alive and its position, normal, colour and
// single-layer UV properties view the model's streams instead of copying them.
Expected<cast::Document> to_cast(Model&& model, Diagnostics& warnings);
// The first Model of a Cast document as SEModel; warnings name what SEModel cannot hold, and
// what the check before every write leaves out (docs/diagnostics.md); a NaN or infinite
// position, rest or transform is an error (output.non-finite). O(size).
Expected<Model> from_cast(const cast::Document& document, Diagnostics& warnings);

}  // namespace castkit::semodel

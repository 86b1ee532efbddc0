// Kohi K3D (`.k3d`, KASSET_TYPE_MODEL version 1): the model asset of the Kohi engine, read and
// written as laid out by Kohi's serializer (docs/k3d.md; ruling 32), and converted to and from
// the Cast document.
#pragma once

#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <cstdint>
#include <filesystem>
#include <glm/mat4x4.hpp>
#include <glm/vec2.hpp>
#include <glm/vec3.hpp>
#include <glm/vec4.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::k3d {

inline constexpr std::uint32_t kMagic = 0xDECAFBAD;
inline constexpr std::uint32_t kAssetTypeModel = 15;
inline constexpr std::uint32_t kVersion = 1;
inline constexpr std::uint16_t kInvalidId = 0xFFFF;  // no name; a root node's parent
inline constexpr std::size_t kHeaderSize = 132;

struct Extents {
    glm::vec3 min{0.0f};
    glm::vec3 max{0.0f};
    bool operator==(const Extents&) const = default;
};

// 0 = vertex_3d (64 bytes), 1 = skinned_vertex_3d (96 bytes).
enum class MeshType : std::uint8_t { Static = 0, Skinned = 1 };

// One vertex; bone_ids and weights exist in the file only for skinned submeshes. Bone ids index
// Model::bones; a weight of 0 marks an unused slot whatever its id.
struct Vertex {
    glm::vec3 position{0.0f};
    glm::vec3 normal{0.0f};
    glm::vec2 texcoord{0.0f};  // bottom-left origin (OpenGL)
    glm::vec4 colour{1.0f};
    glm::vec4 tangent{0.0f};  // w = handedness ±1
    glm::ivec4 bone_ids{0};
    glm::vec4 weights{0.0f};
    bool operator==(const Vertex&) const = default;
};

// Name ids index Model::strings; kInvalidId means no name.
struct Submesh {
    std::uint16_t name_id = kInvalidId;
    std::uint16_t material_name_id = kInvalidId;
    MeshType type = MeshType::Static;
    glm::vec3 center{0.0f};
    Extents extents;
    std::vector<Vertex> vertices;
    std::vector<std::uint32_t> indices;  // triangle list, CCW, local to the submesh
    bool operator==(const Submesh&) const = default;
};

struct Bone {
    std::uint16_t name_id = kInvalidId;
    glm::mat4 offset{1.0f};  // inverse bind: mesh space to bone space, column-major
    bool operator==(const Bone&) const = default;
};

struct SceneNode {
    std::uint16_t name_id = kInvalidId;
    std::uint16_t parent = kInvalidId;  // index into Model::nodes, kInvalidId for a root
    glm::mat4 local{1.0f};
    bool operator==(const SceneNode&) const = default;
};

struct KeyVec3 {
    glm::vec3 value{0.0f};
    float time = 0.0f;  // ticks
    bool operator==(const KeyVec3&) const = default;
};
struct KeyQuat {
    glm::vec4 value{0.0f, 0.0f, 0.0f, 1.0f};  // x, y, z, w
    float time = 0.0f;                        // ticks
    bool operator==(const KeyQuat&) const = default;
};

// The keys of one node (name_id names a SceneNode, not a Bone).
struct Channel {
    std::uint16_t name_id = kInvalidId;
    std::vector<KeyVec3> positions;
    std::vector<KeyQuat> rotations;
    std::vector<KeyVec3> scales;
    bool operator==(const Channel&) const = default;
};

struct Animation {
    std::uint16_t name_id = kInvalidId;
    float duration = 0.0f;          // ticks
    float ticks_per_second = 0.0f;  // 0 = unspecified
    std::vector<Channel> channels;
    bool operator==(const Animation&) const = default;
};

struct Model {
    std::uint32_t exporter_type = 1;
    std::uint8_t exporter_version = 1;
    Extents extents;
    glm::vec3 center{0.0f};
    glm::mat4 inverse_global_transform{1.0f};
    std::vector<Submesh> submeshes;
    std::vector<Bone> bones;
    std::vector<SceneNode> nodes;
    std::vector<Animation> animations;
    // The binary string table: every string once per use, in file order (Kohi never
    // de-duplicates), at most 65535 entries.
    std::vector<std::string> strings;

    // The string `id` names, or nullopt for kInvalidId or an id past the table.
    std::optional<std::string_view> string(std::uint16_t id) const;
    // Appends `text` to the table and returns its id; empty text gives kInvalidId.
    std::uint16_t add_string(std::string_view text);
    bool operator==(const Model&) const = default;
};

// Parses a K3D file held in memory; `file` names it in diagnostics. Every count and offset is
// checked against the bytes before anything is allocated. O(file size).
Expected<Model> read(cast::Bytes bytes, std::string_view file, Diagnostics& diagnostics);
// Memory-maps and parses `path`. O(file size).
Expected<Model> open(const std::filesystem::path& path, Diagnostics& warnings);
// Serialises as Kohi's writer does: sections only when their count is non-zero, channel keys in
// position/rotation/scale order, zeroed padding. Fails when a count exceeds its field. O(size).
Expected<std::vector<std::byte>> write_to_buffer(const Model& model);
// Writes atomically (a temporary file, then a rename); "-" is standard output.
Expected<void> write(const Model& model, const std::filesystem::path& path);

// Converts to a Cast document: nodes become the skeleton, submeshes meshes (V flipped), bones
// world transforms on the bones they name, animations curves (ticks are frames, fr = ticks per
// second). Warnings name what Cast cannot carry. O(model size).
Expected<cast::Document> to_cast(const Model& model, std::string_view file,
                                 Diagnostics& diagnostics);
// Converts the first Model and every Animation of a Cast document. Warnings name what K3D
// cannot carry, and what the check before every write leaves out; a NaN or infinite position,
// rest, transform or key is an error (output.non-finite, docs/diagnostics.md). O(document size).
Expected<Model> from_cast(const cast::Document& document, Diagnostics& warnings);

}  // namespace castkit::k3d

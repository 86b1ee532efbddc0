// Dash Model Format 1.5 (`.dmf`, magic `DASH`; `.dmf.json`): DashGL's interchange format, binary
// and JSON, as castkit documents it in docs/dmf.md (ruling 33 of docs/decisions.md), and its
// conversion to and from the Cast document.
#pragma once

#include <array>
#include <castkit/cast/document.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <castkit/io/side_files.hpp>
#include <castkit/io/side_outputs.hpp>
#include <castkit/sink.hpp>
#include <cstdint>
#include <filesystem>
#include <glm/gtc/type_precision.hpp>
#include <glm/mat4x4.hpp>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace castkit::dmf {

inline constexpr std::uint32_t kMagic = 0x48534144;  // "DASH"
inline constexpr std::uint16_t kMajorVersion = 1;
inline constexpr std::uint16_t kMinorVersion = 5;

// Enumerations as stored in the binary (docs/dmf.md lists the JSON names).
enum Wrap : std::uint16_t { kClamp = 0, kMirror = 1, kRepeat = 2 };
enum BlendEquation : std::uint16_t { kNormal = 0, kAdditive = 1, kSubtract = 2, kMultiply = 3 };
enum BlendFactor : std::uint16_t {
    kZero = 0,
    kOne = 1,
    kSrcColor = 2,
    kOneMinusSrcColor = 3,
    kSrcAlpha = 4,
    kOneMinusSrcAlpha = 5,
    kDstAlpha = 6,
    kOneMinusDstAlpha = 7,
    kDstColor = 8,
    kOneMinusDstColor = 9,
    kSrcAlphaSaturate = 10,
};
enum ShaderType : std::uint16_t { kBasic = 0, kLambert = 1, kPhong = 2 };
enum Side : std::uint16_t { kFront = 0, kBack = 1, kDouble = 2 };
// Track prs_flags bits.
enum TrackFlags : std::int16_t { kPosition = 1, kRotation = 2, kScale = 4 };

// Names hold at most 32 bytes (castkit writes at most 31 plus a NUL). Every `id` is "for show":
// array position is what other structs refer to. Enumerations and booleans keep the raw u16.
struct Texture {
    std::string name;
    std::int16_t id = 0;
    std::uint16_t flip_y = 1;
    std::vector<std::byte> png;  // the embedded PNG image
    std::uint16_t width = 0, height = 0;
    std::uint16_t wrap_s = kRepeat, wrap_t = kRepeat;
    bool operator==(const Texture&) const = default;
};

struct Material {
    std::string name;
    std::int16_t id = 0;
    std::int16_t texture = -1;  // index into Model::textures, -1 for none
    std::uint16_t use_blending = 0;
    std::uint16_t blend_equation = kNormal;
    std::uint16_t blend_src = kSrcAlpha, blend_dst = kOneMinusSrcAlpha;
    std::uint16_t skinning = 0;
    std::uint16_t shader_type = kLambert;
    std::uint16_t face_side = kFront, shadow_side = kFront;
    std::uint16_t ignore_lights = 0, vertex_color = 0, use_alpha = 0, skip_render = 0;
    float alpha_test = 0.0f;
    glm::vec4 diffuse{1.0f};   // RGBA
    glm::vec4 emissive{0.0f};  // RGB + intensity
    glm::vec4 specular{0.0f};  // RGB + shininess
    bool operator==(const Material&) const = default;
};

// A unique position with its skin; -1 marks an unused influence.
struct Vertex {
    glm::vec3 position{0.0f};
    std::array<std::int16_t, 4> skin_index{0, 0, 0, 0};
    glm::vec4 skin_weight{0.0f};
    bool operator==(const Vertex&) const = default;
};

// A triangle with per-corner colour, normal and UV (bottom-left origin, Three.js flipY).
struct Face {
    std::uint16_t material = 0;
    std::array<std::uint32_t, 3> indices{};
    std::array<glm::u8vec4, 3> colors{};
    std::array<glm::vec3, 3> normals{};
    std::array<glm::vec2, 3> uvs{};
    bool operator==(const Face&) const = default;
};

struct Bone {
    std::string name;
    std::int16_t id = 0;
    std::int16_t parent = -1;  // index into Model::bones, -1 for the root
    glm::mat4 matrix{1.0f};    // local transform, column-major
    bool operator==(const Bone&) const = default;
};

// One keyframe of one bone; fields whose flag is clear are reserved (written as 0).
struct Track {
    std::int16_t bone = 0;
    std::int16_t flags = 0;
    float time = 0.0f;  // seconds
    glm::vec3 position{0.0f};
    glm::vec4 rotation{0.0f};  // x, y, z, w
    glm::vec3 scale{0.0f};
    bool operator==(const Track&) const = default;
};

struct Animation {
    std::string name;
    std::int16_t id = 0;
    std::uint16_t fps = 30;
    float duration = 0.0f;  // seconds
    std::vector<Track> tracks;
    bool operator==(const Animation&) const = default;
};

struct Model {
    std::vector<Texture> textures;
    std::vector<Material> materials;
    std::vector<Vertex> vertices;
    std::vector<Face> faces;
    std::vector<Bone> bones;
    std::vector<Animation> animations;
    bool operator==(const Model&) const = default;
};

// Parses a binary DMF held in memory; `file` names it in diagnostics. Sections may sit anywhere
// the attribute table points; each is bounds-checked before it is read. O(file size).
Expected<Model> read(cast::Bytes bytes, std::string_view file, Diagnostics& diagnostics);
// Memory-maps and parses a binary DMF. O(file size).
Expected<Model> open(const std::filesystem::path& path, Diagnostics& warnings);
// Serialises in castkit's canonical layout: the attribute table, then the sections in table
// order, then each animation's tracks, then the PNG images. O(size).
Expected<std::vector<std::byte>> write_to_buffer(const Model& model);
// Writes atomically; "-" is standard output.
Expected<void> write(const Model& model, const std::filesystem::path& path);

// Parses the JSON form in one streaming pass (simdjson On-Demand; no DOM); errors name the byte
// offset and the JSON path ("$.faces[3].indices[1]"). A text of more than 4 MiB has the second
// half of its faces read on a second thread, where the machine has two cores. Memory: the model,
// and simdjson's index of a window of about 64 KiB at a time; only a text in a shape the windows
// do not read (an unknown top-level key, say) or an error takes simdjson's index of the whole
// text, plus a padded copy of it unless it lies in a file mapping with room after its end
// (open_json's and the CLI's inputs, nearly always). O(text size).
Expected<Model> read_json(std::string_view text, std::string_view file, Diagnostics& diagnostics);
// The same reading in one pass over the whole text, never in windows or on a second thread: the
// reference read_json must agree with (the fuzzers check that it does). O(text size).
Expected<Model> read_json_in_one_pass(std::string_view text, std::string_view file);
// Memory-maps and parses a DMF JSON file. O(file size).
Expected<Model> open_json(const std::filesystem::path& path, Diagnostics& warnings);
// Streams the JSON form into `sink`: one struct per line, floats in their shortest exact form,
// so JSON → binary → JSON reproduces the text. Fails on non-finite floats, which JSON cannot
// hold, before writing anything. Memory: a 1 MiB buffer. O(size).
Expected<void> write_json(const Model& model, Sink& sink);
// The JSON form as one string (write_json into memory). O(size).
Expected<std::string> write_json_text(const Model& model);
// Writes the JSON form atomically; "-" is standard output. O(size).
Expected<void> write_json(const Model& model, const std::filesystem::path& path);

struct ConvertOptions {
    // DMF UVs are bottom-left (Three.js flipY); Cast is top-left, so V becomes 1 − V.
    bool flip_v = true;
    // to_cast keeps each embedded image in the document's embedded files (cast::Document::
    // embedded) as `<texture name>.png` (`.jpg`, else `.bin`, when its bytes are not a PNG),
    // which its File names. When set, it also writes the image here through `side_outputs` (a
    // name that holds another file gives `name-2.png`, with a texture.renamed warning; the File
    // then names that).
    std::filesystem::path texture_directory;
    // to_cast only: the run's side-output writer (castkit/io/side_outputs.hpp); null gives the
    // conversion one of its own.
    std::shared_ptr<SideOutputs> side_outputs;
    // from_cast only: the folder relative texture paths of the Cast document resolve against
    // (the document's own folder); empty is the working folder.
    std::filesystem::path base_directory;
    // from_cast only: base_directory held open (Context::folder), null to open it at each
    // texture.
    std::shared_ptr<const platform::OpenedFolder> base_folder;
    // from_cast only: the DMF a Cast document was converted from. Its textures (image, size,
    // flip and wrap, matched by file name, used when the file itself cannot be read) and its
    // material settings (matched by name) fill in what Cast cannot carry.
    const Model* original = nullptr;
    // from_cast only: where else, and how far, texture files may be read (side_files.hpp).
    SideFilePolicy side_files;
};

// Converts to a Cast document: one mesh per material used (corners split into Cast vertices),
// bones with local transforms decomposed, materials with albedo file and colour slots,
// animations as curves (seconds × fps = frames). O(model size).
Expected<cast::Document> to_cast(const Model& model, std::string_view file,
                                 Diagnostics& diagnostics, const ConvertOptions& options = {});
// Converts the first Model and every Animation; vertices equal in position and skin are merged.
// Each texture's image is the one the document carries under its File's path (Document::
// embedded), else the file at that path relative to options.base_directory when
// options.side_files allows reading it (side_files.hpp); otherwise the texture is written
// without an image, with a warning. The check before every write runs first: a NaN or infinite
// position, rest, transform or key is an error (output.non-finite, docs/diagnostics.md). O(size).
Expected<Model> from_cast(const cast::Document& document, Diagnostics& warnings,
                          const ConvertOptions& options = {});

}  // namespace castkit::dmf

// Cast → DMF: skeleton bones with composed local matrices; materials with their colour slots and
// albedo texture (embedded from the file it names); every mesh's vertices merged by position
// and skin into the shared vertex list, their normals, UVs and colours moved to face corners
// (CastFaces: all made by from_cast, chunk by chunk by the JSON writer); curves merged per bone
// into tracks.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>

#include "../common/keyframes.hpp"
#include "../common/number_text.hpp"
#include "../common/single_model.hpp"
#include "../common/transform.hpp"
#include "cast_faces.hpp"
#include "io/binary_io.hpp"
#include "io/side_files.hpp"
#include "numbering.hpp"
#include "scene/write_check.hpp"
#include "shared.hpp"

namespace castkit::dmf {
namespace {

constexpr std::size_t kMaxName = 31;
constexpr std::size_t kMaxIndex16 = std::numeric_limits<std::int16_t>::max();

class FromCast {
  public:
    FromCast(const cast::Document& document, Diagnostics& warnings, const ConvertOptions& options)
        : document_(document),
          warnings_(warnings),
          report_(document.source_name, warnings),
          options_(options),
          faces_(options.flip_v) {}

    Expected<ModelToMake> run();

  private:
    std::string name(std::string_view text, const std::string& path) {
        if (text.size() <= kMaxName) return std::string(text);
        report_.warn(path, fmt::format("name '{}' cut to DMF's 31 bytes", text));
        std::size_t cut = kMaxName;
        while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80)
            --cut;  // keep UTF-8 whole
        return std::string(text.substr(0, cut));
    }
    Expected<void> skeleton(const cast::ConstModel& cast_model);
    std::int16_t texture(const cast::ConstFile& file, const std::string& path);
    Expected<cast::SharedBytes> image_bytes(const std::string& file_path) const;
    void materials(const cast::ConstModel& cast_model);
    void meshes(const cast::ConstModel& cast_model);
    Expected<void> animation(cast::ConstAnimation& animation, std::size_t index);

    const cast::Document& document_;
    Diagnostics& warnings_;
    formats::Reporter report_;
    const ConvertOptions& options_;
    Model model_;
    CastFaces faces_;
    std::vector<std::pair<std::string, formats::RestPose>> rest_;
    std::map<std::uint64_t, std::uint16_t> material_by_hash_;
    std::map<std::string, std::int16_t, std::less<>> texture_by_path_;
    std::optional<std::uint16_t> default_material_;
};

Expected<void> FromCast::skeleton(const cast::ConstModel& cast_model) {
    cast::ConstSkeleton skeleton = cast_model.skeleton();
    if (!skeleton) return {};
    std::vector<cast::ConstBone> bones = skeleton.bones();
    if (bones.size() > kMaxIndex16)
        return make_error(report_.error("model[0]/skeleton", "DMF holds at most 32767 bones"));
    std::vector<glm::mat4> locals = formats::local_matrices(bones);
    for (std::size_t i = 0; i < bones.size(); ++i) {
        std::string path = fmt::format("model[0]/skeleton/bone[{}]", i);
        Bone bone;
        bone.name = name(bones[i].name().value_or(""), path);
        bone.id = static_cast<std::int16_t>(i);
        std::int32_t parent = bones[i].parent_index();
        if (parent >= static_cast<std::int32_t>(bones.size()) ||
            parent == static_cast<std::int32_t>(i) || parent < -1) {
            report_.warn(path, fmt::format("parent index {} is not another bone; written as a root",
                                           parent));
            parent = -1;
        }
        bone.parent = static_cast<std::int16_t>(parent);
        bone.matrix = locals[i];
        model_.bones.push_back(std::move(bone));
        anim::Transform trs = anim::decompose(locals[i]);
        rest_.emplace_back(
            std::string(bones[i].name().value_or("")),
            formats::RestPose{trs.translation, cast::xyzw_from_quat(trs.rotation), trs.scale});
    }
    return {};
}

// The image a File names: the one the document carries (read from inside a glb or DMF), else
// the file found where the side-file policy allows. O(image size).
Expected<cast::SharedBytes> FromCast::image_bytes(const std::string& file_path) const {
    if (const cast::EmbeddedFile* embedded = document_.embedded.find(file_path))
        return embedded->bytes;
    const Context side{.base = options_.base_directory,
                       .options = {.side_files = options_.side_files},
                       .folder = options_.base_folder};
    auto image = formats::read_side_file(side, file_path);
    if (!image) return make_error(image.error());
    return cast::SharedBytes{(*image)->bytes(), *image};
}

std::int16_t FromCast::texture(const cast::ConstFile& file, const std::string& path) {
    std::string file_path(file.path().value_or(""));
    if (auto it = texture_by_path_.find(file_path); it != texture_by_path_.end()) return it->second;
    if (model_.textures.size() >= kMaxIndex16) return -1;
    std::string stem = platform::utf8_of(platform::path_from_utf8(file_path).stem());
    Texture texture = default_texture(name(stem, path), model_.textures.size(), {}, 0, 0);
    auto image = image_bytes(file_path);
    if (image) {
        texture.png.assign(image->begin(), image->end());
        if (auto size = png_size(texture.png);
            size && size->first <= 0xFFFF && size->second <= 0xFFFF) {
            texture.width = static_cast<std::uint16_t>(size->first);
            texture.height = static_cast<std::uint16_t>(size->second);
        } else {
            report_.warn(
                path,
                fmt::format(
                    "'{}' is not a PNG of at most 65535 pixels a side; embedded without a size",
                    file_path));
        }
    }
    const Texture* original = nullptr;
    if (options_.original != nullptr)
        for (std::size_t i = 0; i < options_.original->textures.size(); ++i)
            if (texture_file_name(options_.original->textures[i], i) == file_path)
                original = &options_.original->textures[i];
    if (original != nullptr) {
        if (texture.png.empty()) {
            texture.png = original->png;
            texture.width = original->width;
            texture.height = original->height;
        }
        texture.name = original->name;
        texture.flip_y = original->flip_y;
        texture.wrap_s = original->wrap_s;
        texture.wrap_t = original->wrap_t;
    } else if (texture.png.empty()) {
        const std::string why = image ? "the file is empty" : image.error().message;
        report_.warn(
            path, fmt::format("texture '{}' could not be read ({}); the DMF texture has no image",
                              file_path, why));
    }
    auto index = static_cast<std::int16_t>(model_.textures.size());
    model_.textures.push_back(std::move(texture));
    texture_by_path_.emplace(file_path, index);
    return index;
}

void FromCast::materials(const cast::ConstModel& cast_model) {
    bool skinned = !model_.bones.empty();
    std::vector<cast::ConstMaterial> materials = cast_model.materials();
    for (std::size_t i = 0; i < materials.size() && i < kMaxIndex16; ++i) {
        const cast::ConstMaterial& m = materials[i];
        std::string path = fmt::format("model[0]/material[{}]", i);
        Material out = default_material(name(m.name().value_or(""), path), i, skinned);
        if (options_.original != nullptr)
            for (const Material& original : options_.original->materials)
                if (original.name == out.name) {
                    // Settings Cast cannot carry come back from the DMF the document came from.
                    Material restored = original;
                    restored.id = out.id;
                    restored.texture = out.texture;
                    restored.diffuse = out.diffuse;
                    restored.emissive = out.emissive;
                    restored.specular = out.specular;
                    out = restored;
                    break;
                }
        if (cast::ConstColor c = m.slot_color("diffuse"); c && c.rgba()) out.diffuse = *c.rgba();
        if (cast::ConstColor c = m.slot_color("emissive"); c && c.rgba()) out.emissive = *c.rgba();
        if (cast::ConstColor c = m.slot_color("specular"); c && c.rgba()) out.specular = *c.rgba();
        cast::ConstFile file = m.slot_file("albedo");
        if (!file) file = m.slot_file("diffuse");
        if (file && file.path().value_or("").empty())
            report_.warn(path,
                         "its texture File has an empty path (a texture packed in a "
                         ".blend?); written without a texture");
        else if (file)
            out.texture = texture(file, path);
        for (const cast::ConstMaterial::Slot& slot : m.slots())
            if (slot.name != "albedo" && slot.name != "diffuse" && slot.name != "emissive" &&
                slot.name != "specular")
                report_.warn(path, fmt::format("slot '{}' has no DMF field (dropped)", slot.name));
        material_by_hash_.emplace(m.hash(), static_cast<std::uint16_t>(i));
        model_.materials.push_back(std::move(out));
    }
}

// Vertices merge when equal in position, skin indices and weights, bit for bit (FirstSeen
// compares them as their 9 words).
using VertexTable = FirstSeen<Vertex>;
static_assert(sizeof(Vertex) == 36, "Vertex has no padding between its 9 words");

glm::u8vec4 to_bytes(const glm::vec4& rgba) {
    glm::u8vec4 out;
    for (int i = 0; i < 4; ++i)
        out[i] = static_cast<std::uint8_t>(std::lround(std::clamp(rgba[i], 0.0f, 1.0f) * 255.0f));
    return out;
}

void FromCast::meshes(const cast::ConstModel& cast_model) {
    bool skinned = !model_.bones.empty();
    VertexTable merged;                                  // its keys are the DMF vertices
    std::vector<std::pair<float, std::uint32_t>> slots;  // one vertex's weights, reused
    bool trimmed = false;
    std::vector<cast::ConstMesh> meshes = cast_model.meshes();
    // Sized once: growing these arrays copied every vertex several times over.
    std::size_t vertex_count = 0;
    for (const cast::ConstMesh& mesh : meshes)
        vertex_count += mesh.vertex_count();  // at most: equal vertices merge
    merged.reserve(vertex_count);
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        const cast::ConstMesh& mesh = meshes[m];
        std::string path = fmt::format("model[0]/mesh[{}]", m);
        std::uint16_t material = 0;
        if (auto it = material_by_hash_.find(mesh.material_hash().value_or(0));
            it != material_by_hash_.end()) {
            material = it->second;
        } else {
            // Every DMF face names a material: meshes without one share a default.
            if (!default_material_) {
                default_material_ = static_cast<std::uint16_t>(model_.materials.size());
                model_.materials.push_back(
                    default_material("default", model_.materials.size(), skinned));
            }
            material = *default_material_;
        }
        if (mesh.uv_layer_count() > 1)
            report_.warn(path, "UV layers after the first dropped (DMF holds one)");
        if (mesh.color_layer_count() > 1)
            report_.warn(path, "colour layers after the first dropped (DMF holds one)");
        std::size_t n = mesh.vertex_count();
        cast::ArrayView<glm::vec3> positions = mesh.positions();
        // Colours as bytes: a packed layer's own (`i`, R in the first byte), taken as they are;
        // a float layer's converted once per vertex, not once per face corner.
        cast::Bytes packed_colors;
        std::vector<glm::u8vec4> colors;
        if (mesh.color_layer_is_packed(0)) {
            packed_colors = mesh.color_layer_property(0)->bytes();
        } else if (mesh.color_layer_count() > 0) {
            const std::vector<glm::vec4> layer = mesh.color_layer(0);
            colors.resize(layer.size());
            std::transform(layer.begin(), layer.end(), colors.begin(), to_bytes);
        }
        std::uint32_t influences = skinned ? mesh.max_weight_influence() : 0;
        cast::IndexView weight_bones = mesh.weight_bones();
        cast::ArrayView<float> weight_values = mesh.weight_values();
        std::vector<std::uint32_t> remap(n);
        // Vertices are numbered a batch at a time, the table slot of every key in the batch
        // asked of memory as the key is made, then the keys those slots hold: the table is far
        // bigger than the cache, and misses in flight together overlap (one at a time, they were
        // most of this loop's time).
        constexpr std::size_t kBatch = 16;
        std::array<Vertex, kBatch> batch;
        std::array<std::uint64_t, kBatch> hashes;
        auto number_batch = [&](std::size_t first, std::size_t count) {
            for (std::size_t k = 0; k < count; ++k) merged.prefetch_stored(hashes[k]);
            for (std::size_t k = 0; k < count; ++k)
                remap[first + k] = merged.number(batch[k], hashes[k]).first;
        };
        for (std::size_t i = 0; i < n; ++i) {
            Vertex v;
            v.position = positions[i];
            if (skinned) v.skin_index = {-1, -1, -1, -1};
            slots.clear();
            for (std::uint32_t k = 0; k < influences; ++k) {
                const std::size_t at = i * influences + k;
                if (at >= weight_bones.size() || at >= weight_values.size()) continue;
                const float value = weight_values[at];
                const std::uint32_t bone = weight_bones[at];
                if (value == 0.0f) continue;
                slots.emplace_back(value, bone);  // the check cleared bones past the skeleton
            }
            if (slots.size() > 4) {
                float total = 0.0f, kept = 0.0f;
                for (auto& s : slots) total += s.first;
                std::stable_sort(slots.begin(), slots.end(),
                                 [](auto& a, auto& b) { return a.first > b.first; });
                slots.resize(4);
                for (auto& s : slots) kept += s.first;
                for (auto& s : slots) s.first *= total / kept;
                trimmed = true;
            }
            for (std::size_t k = 0; k < slots.size(); ++k) {
                v.skin_index[k] = static_cast<std::int16_t>(slots[k].second);
                v.skin_weight[static_cast<int>(k)] = slots[k].first;
            }
            const std::size_t k = i % kBatch;
            batch[k] = v;
            hashes[k] = VertexTable::hash(v);
            merged.prefetch(hashes[k]);
            if (k == kBatch - 1) number_batch(i + 1 - kBatch, kBatch);
        }
        number_batch(n - n % kBatch, n % kBatch);
        faces_.add({.material = material,
                    .indices = mesh.faces(),  // none past the vertices: the check left them out
                    .normals = mesh.normals(),
                    .uvs = mesh.uv_layer(0),
                    .packed_colors = packed_colors,
                    .colors = std::move(colors),
                    .merged = std::move(remap)});
    }
    model_.vertices = std::move(merged).take_keys();
    if (trimmed)
        report_.warn("model[0]",
                     "vertices with more than 4 influences keep the 4 largest, renormalised");
}

Expected<void> FromCast::animation(cast::ConstAnimation& cast_animation, std::size_t index) {
    std::string path = fmt::format("animation[{}]", index);
    Animation out;
    out.name = name(cast_animation.name().value_or(""), path);
    out.id = static_cast<std::int16_t>(index);
    float rate = cast_animation.framerate().value_or(kDefaultFps);
    float rounded = std::round(rate);
    if (!(rounded >= 1.0f && rounded <= 65535.0f)) rounded = kDefaultFps;
    if (rounded != rate)
        report_.warn(path,
                     fmt::format("frame rate {} is stored as the whole fps {}; key times follow it",
                                 rate, rounded));
    out.fps = static_cast<std::uint16_t>(rounded);
    if (cast_animation.looping()) report_.warn(path, "looping has no DMF field (dropped)");
    std::vector<formats::NodeKeys> nodes = formats::collect_curves(
        cast_animation, rest_, {document_.source_name, path, nullptr}, warnings_);
    for (const formats::NodeKeys& keys : nodes) {
        // Rule 24: exact name first, then case-insensitively.
        auto bone = std::find_if(model_.bones.begin(), model_.bones.end(),
                                 [&](const Bone& b) { return b.name == keys.node; });
        if (bone == model_.bones.end())
            bone = std::find_if(model_.bones.begin(), model_.bones.end(), [&](const Bone& b) {
                return std::equal(b.name.begin(), b.name.end(), keys.node.begin(), keys.node.end(),
                                  [](char x, char y) {
                                      return std::tolower(static_cast<unsigned char>(x)) ==
                                             std::tolower(static_cast<unsigned char>(y));
                                  });
            });
        if (bone == model_.bones.end()) {
            report_.warn(path,
                         fmt::format("curves of '{}', which is not a bone, dropped", keys.node));
            continue;
        }
        auto bone_index = static_cast<std::int16_t>(bone - model_.bones.begin());
        // One track per keyed frame, carrying every channel keyed there.
        std::map<double, Track> tracks;
        auto track_at = [&](double frame) -> Track& {
            Track& t = tracks[frame];
            t.bone = bone_index;
            t.time = static_cast<float>(frame) / static_cast<float>(out.fps);
            return t;
        };
        for (const auto& k : keys.positions) {
            Track& t = track_at(k.frame);
            t.flags = static_cast<std::int16_t>(t.flags | kPosition);
            t.position = k.value;
        }
        for (const auto& k : keys.rotations) {
            Track& t = track_at(k.frame);
            t.flags = static_cast<std::int16_t>(t.flags | kRotation);
            t.rotation = k.value;
        }
        for (const auto& k : keys.scales) {
            Track& t = track_at(k.frame);
            t.flags = static_cast<std::int16_t>(t.flags | kScale);
            t.scale = k.value;
        }
        for (auto& [frame, track] : tracks) {
            out.duration = std::max(out.duration, track.time);
            out.tracks.push_back(track);
        }
    }
    // Canonical order: by bone, then by time.
    std::stable_sort(out.tracks.begin(), out.tracks.end(),
                     [](const Track& a, const Track& b) { return a.bone < b.bone; });
    model_.animations.push_back(std::move(out));
    return {};
}

Expected<ModelToMake> FromCast::run() {
    std::vector<cast::ConstModel> models = document_.models();
    if (const cast::ConstModel* first = formats::single_model(models, report_, "DMF")) {
        const cast::ConstModel& cast_model = *first;
        if (auto ok = skeleton(cast_model); !ok) return make_error(ok.error());
        materials(cast_model);
        meshes(cast_model);
    }
    std::vector<cast::ConstAnimation> animations = document_.animations();
    if (animations.size() > kMaxIndex16)
        return make_error(report_.error("", "DMF holds at most 32767 animations"));
    for (std::size_t i = 0; i < animations.size(); ++i)
        if (auto ok = animation(animations[i], i); !ok) return make_error(ok.error());
    return ModelToMake{std::move(model_), std::move(faces_)};
}

}  // namespace

void CastFaces::add(Mesh mesh) {
    first_faces_.push_back(size_);
    size_ += mesh.indices.size() / 3;
    meshes_.push_back(std::move(mesh));
}

std::size_t CastFaces::mesh_of(std::size_t face) const {
    auto after = std::upper_bound(first_faces_.begin(), first_faces_.end(), face);
    return static_cast<std::size_t>(after - first_faces_.begin()) - 1;
}

// The colour of vertex `index`: white where the mesh has none.
glm::u8vec4 CastFaces::color(const Mesh& mesh, std::uint32_t index) {
    if (index < mesh.packed_colors.size() / 4) {
        glm::u8vec4 rgba;
        std::memcpy(&rgba, mesh.packed_colors.data() + 4 * std::size_t{index}, sizeof rgba);
        return rgba;
    }
    return index < mesh.colors.size() ? mesh.colors[index] : glm::u8vec4(255);
}

// The face whose first corner is `corner` of `mesh`: Cast vertex attributes moved to its corners.
Face CastFaces::face(const Mesh& mesh, std::size_t corner) const {
    Face face;
    face.material = mesh.material;
    for (std::size_t c = 0; c < 3; ++c) {
        const std::uint32_t index = mesh.indices[corner + c];
        face.indices[c] = mesh.merged[index];
        face.normals[c] = index < mesh.normals.size() ? mesh.normals[index] : glm::vec3(0.0f);
        const glm::vec2 uv =
            index < mesh.uvs.size() ? mesh.uvs[index] : glm::vec2(0.0f, flip_v_ ? 1.0f : 0.0f);
        face.uvs[c] = flip_v_ ? glm::vec2(uv.x, 1.0f - uv.y) : uv;
        face.colors[c] = color(mesh, index);
    }
    return face;
}

void CastFaces::make(std::size_t first, std::span<Face> out) const {
    if (out.empty()) return;
    std::size_t m = mesh_of(first);
    for (std::size_t i = 0; i < out.size(); ++i) {
        const std::size_t face = first + i;
        while (face - first_faces_[m] >= meshes_[m].indices.size() / 3) ++m;  // past empty ones
        out[i] = this->face(meshes_[m], 3 * (face - first_faces_[m]));
    }
}

bool CastFaces::all_finite() const {
    return std::all_of(meshes_.begin(), meshes_.end(), [](const Mesh& mesh) {
        return formats::all_finite(mesh.normals.bytes()) && formats::all_finite(mesh.uvs.bytes());
    });
}

Expected<ModelToMake> from_cast_faces_apart(const cast::Document& document, Diagnostics& warnings,
                                            const ConvertOptions& options) {
    return FromCast(document, warnings, options).run();
}

Expected<Model> from_cast(const cast::Document& given, Diagnostics& warnings,
                          const ConvertOptions& options) {
    std::optional<cast::Document> repair;
    auto checked = scene::checked_first_model(given, repair, warnings);
    if (!checked) return make_error(checked.error());
    return from_checked_cast(**checked, warnings, options);
}

Expected<Model> from_checked_cast(const cast::Document& document, Diagnostics& warnings,
                                  const ConvertOptions& options) {
    auto converted = from_cast_faces_apart(document, warnings, options);
    if (!converted) return make_error(converted.error());
    Model& model = converted->model;
    model.faces.resize(converted->faces.size());
    converted->faces.make(0, model.faces);
    return std::move(model);
}

}  // namespace castkit::dmf

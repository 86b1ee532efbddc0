// DMF → Cast: bones with decomposed local matrices; one mesh per material, whose vertices are
// the distinct (vertex, normal, UV, colour) corners of its faces; materials with an albedo file
// and diffuse/emissive/specular colours; tracks grouped per bone into curves.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <castkit/anim/rest_pose.hpp>
#include <castkit/cast/nodes.hpp>
#include <castkit/formats/dmf.hpp>
#include <map>

#include "../../std_compat.hpp"
#include "../common/keyframes.hpp"
#include "../common/transform.hpp"
#include "io/binary_io.hpp"
#include "io/side_outputs.hpp"
#include "numbering.hpp"
#include "shared.hpp"

namespace castkit::dmf {
namespace {

class ToCast {
  public:
    ToCast(const Model& model, const std::string& file, Diagnostics& warnings,
           const ConvertOptions& options)
        : model_(model),
          file_(file),
          warnings_(warnings),
          report_(file, warnings),
          options_(options) {}

    Expected<cast::Document> run();

  private:
    void skeleton(cast::Model& cast_model);
    Expected<void> materials(cast::Model& cast_model);
    Expected<std::string> place_texture(std::size_t index);
    Expected<std::filesystem::path> unpack(const Texture& texture, const std::string& texture_path,
                                           const std::filesystem::path& name);
    Expected<void> meshes(cast::Model& cast_model);
    Expected<void> animations(cast::Root& root);

    const Model& model_;
    const std::string& file_;
    Diagnostics& warnings_;
    formats::Reporter report_;
    const ConvertOptions& options_;
    formats::ResampleBudget resampled_;
    std::vector<cast::Material> materials_;
    // The file name each texture's File names, by texture index, once placed.
    std::map<std::size_t, std::string> placed_;
    // The images the document carries (cast::Document::embedded).
    cast::EmbeddedFiles embedded_;
};

void ToCast::skeleton(cast::Model& cast_model) {
    if (model_.bones.empty()) return;
    cast::Skeleton skeleton = cast_model.add_skeleton();
    for (std::size_t i = 0; i < model_.bones.size(); ++i) {
        const Bone& bone = model_.bones[i];
        std::string path = fmt::format("bone[{}]", i);
        if (!formats::is_trs(bone.matrix))
            report_.warn(path, "matrix has shear, which Cast bones cannot hold");
        if (bone.id != static_cast<std::int16_t>(i))
            report_.warn(path,
                         fmt::format("id {} is not its index; written back as {}", bone.id, i));
        formats::add_bone(skeleton, bone.name, bone.parent, bone.matrix);
    }
    anim::complete_rest_transforms(skeleton);  // wp/wr too: every Cast bone has all four
}

// The file texture `index` is named by: `<texture name>` with the extension its image's bytes
// call for, kept in the document's embedded files (`-2`, … for another image of that name) and,
// with a texture folder, also written there through the run's side-output writer (another name
// when that one holds another file, with a warning). A texture without an image keeps its
// `.png` name. O(image size).
Expected<std::string> ToCast::place_texture(std::size_t index) {
    if (auto done = placed_.find(index); done != placed_.end()) return done->second;
    const Texture& texture = model_.textures[index];
    const std::string texture_path = fmt::format("texture[{}]", index);
    std::filesystem::path name = platform::path_from_utf8(texture_file_name(texture, index));
    // An empty image is never kept: it would stand for a real file of that name.
    if (!texture.png.empty()) {
        name.replace_extension(formats::image_extension_of(texture.png));
        if (!options_.texture_directory.empty()) {
            auto written = unpack(texture, texture_path, name);
            if (!written) return make_error(written.error());
            name = *written;
        }
        // dmf::Texture owns its bytes, so the document keeps a copy of its own.
        auto bytes = std::make_shared<const std::vector<std::byte>>(texture.png);
        name = platform::path_from_utf8(
            embedded_.add(platform::utf8_of(name), {cast::Bytes(*bytes), bytes}));
    }
    Texture expected =
        default_texture(texture.name, index, texture.png, texture.width, texture.height);
    if (texture.flip_y != expected.flip_y || texture.wrap_s != expected.wrap_s ||
        texture.wrap_t != expected.wrap_t || texture.id != expected.id)
        report_.warn(texture_path, "id, flip_y and wrap modes have no Cast field");
    return placed_[index] = platform::utf8_of(name);
}

// Writes the texture's image into the texture folder as `name`, or the name the side-output
// writer gives it; the file name it holds. O(image size).
Expected<std::filesystem::path> ToCast::unpack(const Texture& texture,
                                               const std::string& texture_path,
                                               const std::filesystem::path& name) {
    const std::filesystem::path wanted = options_.texture_directory / name;
    auto outputs = options_.side_outputs ? options_.side_outputs : std::make_shared<SideOutputs>();
    // The folder is made as the glTF import makes it; one that cannot be made fails the write
    // below, named.
    std::error_code ignored;
    std::filesystem::create_directories(options_.texture_directory, ignored);
    auto written = outputs->write(wanted, texture.png);
    if (!written) return make_error(written.error());
    if (written->renamed)
        warnings_.push_back(
            {.severity = Severity::Warning,
             .file = file_,
             .path = texture_path,
             .rule = formats::kRenamedRule,
             .message = formats::renamed_message(fmt::format("embedded image '{}'", texture.name),
                                                 wanted, *written)});
    return written->path.filename();
}

Expected<void> ToCast::materials(cast::Model& cast_model) {
    for (std::size_t i = 0; i < model_.materials.size(); ++i) {
        const Material& m = model_.materials[i];
        std::string path = fmt::format("material[{}]", i);
        cast::Material out = cast_model.add_material();
        out.set_name(m.name);
        out.set_type("pbr");
        if (m.texture >= 0) {
            auto file_name = place_texture(static_cast<std::size_t>(m.texture));
            if (!file_name) return make_error(file_name.error());
            cast::File file = out.add_file(*file_name);
            out.set_slot("albedo", file);
        }
        const std::pair<const char*, glm::vec4> colors[] = {
            {"diffuse", m.diffuse}, {"emissive", m.emissive}, {"specular", m.specular}};
        for (const auto& [slot, rgba] : colors) {
            cast::Color color = out.add_color();
            color.set_name(slot);
            color.set_rgba(rgba);
            out.set_slot(slot, color);
        }
        std::vector<std::string> dropped = non_default_fields(m, i, !model_.bones.empty());
        if (!dropped.empty())
            report_.warn(path, fmt::format("{} have no Cast field", fmt::join(dropped, ", ")));
        materials_.push_back(out);
    }
    return {};
}

// A face corner's identity: which vertex, and the bits of its normal, UV and colour.
using CornerKey = std::array<std::uint32_t, 7>;

CornerKey corner_key(const Face& face, int corner) {
    const glm::vec3& n = face.normals[corner];
    const glm::vec2& uv = face.uvs[corner];
    return {face.indices[corner],
            compat::bit_cast<std::uint32_t>(n.x),
            compat::bit_cast<std::uint32_t>(n.y),
            compat::bit_cast<std::uint32_t>(n.z),
            compat::bit_cast<std::uint32_t>(uv.x),
            compat::bit_cast<std::uint32_t>(uv.y),
            compat::bit_cast<std::uint32_t>(face.colors[corner])};
}

Expected<void> ToCast::meshes(cast::Model& cast_model) {
    std::map<std::uint16_t, std::vector<std::size_t>> by_material;
    for (std::size_t i = 0; i < model_.faces.size(); ++i)
        by_material[model_.faces[i].material].push_back(i);
    std::vector<bool> used(model_.vertices.size(), false);
    bool skinned = !model_.bones.empty();
    CornerNumbers<std::tuple_size_v<CornerKey>> corners(model_.vertices.size());
    for (const auto& [material, faces] : by_material) {
        corners.clear();
        cast::Mesh mesh = cast_model.add_mesh();
        bool has_material = material < model_.materials.size();
        mesh.set_name(has_material ? model_.materials[material].name
                                   : fmt::format("mesh{}", material));
        std::vector<glm::vec3> positions, normals;
        std::vector<glm::vec2> uvs;
        std::vector<std::uint32_t> colors, indices, weight_bones;
        std::vector<float> weight_values;
        // Every corner can be a new vertex: reserving for that is an upper bound that costs only
        // address space (pages never written are never faulted in), and no array is copied as it
        // grows.
        const std::size_t corner_count = 3 * faces.size();
        colors.reserve(corner_count);
        indices.reserve(corner_count);
        positions.reserve(corner_count);
        normals.reserve(corner_count);
        uvs.reserve(corner_count);
        if (skinned) {
            weight_bones.reserve(4 * corner_count);
            weight_values.reserve(4 * corner_count);
        }
        for (std::size_t f : faces) {
            const Face& face = model_.faces[f];
            for (int c = 0; c < 3; ++c) {
                auto [number, inserted] = corners.number(corner_key(face, c));
                indices.push_back(number);
                if (!inserted) continue;
                const Vertex& vertex = model_.vertices[face.indices[c]];
                used[face.indices[c]] = true;
                positions.push_back(vertex.position);
                normals.push_back(face.normals[c]);
                glm::vec2 uv = face.uvs[c];
                uvs.push_back(options_.flip_v ? glm::vec2(uv.x, 1.0f - uv.y) : uv);
                // R in the low byte (rule 15).
                colors.push_back(compat::bit_cast<std::uint32_t>(face.colors[c]));
                for (std::size_t k = 0; k < 4 && skinned; ++k) {
                    bool unused =
                        vertex.skin_index[k] < 0;  // -1: no influence (docs/dmf.md, choice 8)
                    weight_bones.push_back(
                        unused ? 0u : static_cast<std::uint32_t>(vertex.skin_index[k]));
                    weight_values.push_back(unused ? 0.0f
                                                   : vertex.skin_weight[static_cast<int>(k)]);
                }
            }
        }
        mesh.set_positions(positions);
        mesh.set_normals(normals);
        // Layer 0 always fits the byte-sized layer counts.
        (void)mesh.set_uv_layer(0, uvs);
        (void)mesh.set_color_layer_packed(0, colors);
        if (skinned)
            if (auto ok = mesh.set_weights(4, weight_bones, weight_values); !ok)
                return make_error(
                    report_.error(fmt::format("material[{}]", material), ok.error().message));
        mesh.set_faces(indices);
        if (has_material) mesh.set_material(materials_[material]);
    }
    std::size_t unused = static_cast<std::size_t>(std::count(used.begin(), used.end(), false));
    if (unused > 0)
        report_.warn(
            "vertices",
            fmt::format("{} vertices no face uses have no Cast equivalent (dropped)", unused));
    return {};
}

Expected<void> ToCast::animations(cast::Root& root) {
    for (std::size_t a = 0; a < model_.animations.size(); ++a) {
        const Animation& animation = model_.animations[a];
        std::string path = fmt::format("animation[{}]", a);
        cast::Animation out = root.add_animation();
        out.set_name(animation.name);
        double fps = animation.fps;
        if (fps == 0) {
            report_.warn(path,
                         fmt::format("fps is 0; frames counted at {} per second", kDefaultFps));
            fps = kDefaultFps;
        }
        out.set_framerate(static_cast<float>(fps));
        if (animation.id != static_cast<std::int16_t>(a))
            report_.warn(
                path, fmt::format("id {} is not its index; written back as {}", animation.id, a));
        std::vector<formats::NodeKeys> bones(model_.bones.size());
        float last = 0.0f;
        for (std::size_t t = 0; t < animation.tracks.size(); ++t) {
            const Track& track = animation.tracks[t];
            if ((track.flags & (kPosition | kRotation | kScale)) == 0) {
                report_.warn(fmt::format("{}/track[{}]", path, t),
                             "track keys nothing (no P, R or S flag); dropped");
                continue;
            }
            formats::NodeKeys& keys = bones[static_cast<std::size_t>(track.bone)];
            double frame = static_cast<double>(track.time) * fps;
            if (track.flags & kPosition) keys.positions.push_back({frame, track.position});
            if (track.flags & kRotation) keys.rotations.push_back({frame, track.rotation});
            if (track.flags & kScale) keys.scales.push_back({frame, track.scale});
            last = std::max(last, track.time);
        }
        if (animation.duration != last)
            report_.warn(
                path,
                fmt::format(
                    "duration {} s is not the last key time {} s; Cast has no duration, it comes "
                    "back as the last key time",
                    animation.duration, last));
        for (std::size_t b = 0; b < bones.size(); ++b) {
            formats::NodeKeys& keys = bones[b];
            keys.node = model_.bones[b].name;
            auto by_frame = [](const auto& x, const auto& y) { return x.frame < y.frame; };
            std::stable_sort(keys.positions.begin(), keys.positions.end(), by_frame);
            std::stable_sort(keys.rotations.begin(), keys.rotations.end(), by_frame);
            std::stable_sort(keys.scales.begin(), keys.scales.end(), by_frame);
            if (auto ok = formats::add_curves(out, keys, {file_, path, &resampled_}, warnings_);
                !ok)
                return ok;
        }
    }
    return {};
}

Expected<cast::Document> ToCast::run() {
    if (auto ok = check_references(model_, file_, false); !ok) return make_error(ok.error());
    cast::Document document;
    document.source_name = file_;
    cast::Root root = document.add_root();
    cast::Model cast_model = root.add_model();
    skeleton(cast_model);
    if (auto ok = materials(cast_model); !ok) return make_error(ok.error());
    if (auto ok = meshes(cast_model); !ok) return make_error(ok.error());
    if (auto ok = animations(root); !ok) return make_error(ok.error());
    document.embedded = std::move(embedded_);
    return document;
}

}  // namespace

Expected<cast::Document> to_cast(const Model& model, std::string_view file,
                                 Diagnostics& diagnostics, const ConvertOptions& options) {
    const std::string name(file);
    return ToCast(model, name, diagnostics, options).run();
}

}  // namespace castkit::dmf

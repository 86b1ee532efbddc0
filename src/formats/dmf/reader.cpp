// The binary DMF reader: header, attribute table (any order, either label case), then each
// section at the absolute offset its entry names.
#include <fmt/format.h>

#include <castkit/formats/dmf.hpp>
#include <cctype>

#include "io/binary_io.hpp"
#include "layout.hpp"
#include "shared.hpp"

namespace castkit::dmf {
namespace {

using formats::ByteReader;
using namespace layout;

std::string take_name(ByteReader& in) {
    std::string name = in.take_string(kNameSize);
    return name.substr(0, name.find('\0'));
}
// Lowercases the four label bytes so that "TEX\0" and "tex\0" match (docs/dmf.md, choice 1).
std::uint32_t lower_label(std::uint32_t label) {
    std::uint32_t out = 0;
    for (int shift = 0; shift < 32; shift += 8) {
        auto c = static_cast<unsigned char>((label >> shift) & 0xFF);
        out |= static_cast<std::uint32_t>(std::tolower(c)) << shift;
    }
    return out;
}

struct Section {
    std::uint32_t offset = 0;
    std::uint32_t count = 0;
};

class BinaryReader {
  public:
    BinaryReader(cast::Bytes bytes, const std::string& file, Diagnostics& warnings)
        : in_(bytes, file, 0, "dmf"), warnings_(warnings) {}
    Expected<Model> read();

  private:
    Expected<void> table();
    Expected<void> check_section(std::size_t which, const char* name);
    // Refuses `ranges` (counts of `element` bytes) that add up to more than the file, which only
    // overlapping ranges can: each would be copied again (defect D1: 256 KB → 1 GB). O(ranges).
    Expected<void> check_disjoint(const std::vector<Section>& ranges, std::uint64_t element,
                                  const char* what, std::size_t section);
    Expected<void> textures();
    void materials();
    void vertices();
    void faces();
    void bones();
    Expected<void> animations();
    void warn(std::string path, std::string message) {
        warnings_.push_back(formats::warning(in_.file(), std::move(path), std::move(message)));
    }
    Diagnostic error(std::uint64_t offset, std::string path, std::string message) const {
        return in_.error_at(offset, std::move(path), std::move(message));
    }

    ByteReader in_;
    Diagnostics& warnings_;
    Model model_;
    Section sections_[kAttributeCount];
};

Expected<void> BinaryReader::table() {
    if (auto ok = in_.need(kHeaderSize, "the 16-byte header", "header"); !ok) return ok;
    if (in_.take<std::uint32_t>() != kMagic)
        return make_error(error(0, "header", "not a DMF 1.5 file (magic is not DASH)"));
    std::uint16_t major = in_.take<std::uint16_t>();
    std::uint16_t minor = in_.take<std::uint16_t>();
    if (major != kMajorVersion || minor != kMinorVersion)
        return make_error(
            error(4, "header",
                  fmt::format("unsupported DMF version {}.{} (castkit reads 1.5)", major, minor)));
    std::uint32_t table_offset = in_.take<std::uint32_t>();
    std::uint32_t table_count = in_.take<std::uint32_t>();
    if (auto ok = in_.need_range(table_offset, std::uint64_t{table_count} * kAttributeSize,
                                 "the attribute table", "header");
        !ok)
        return ok;
    bool seen[kAttributeCount] = {};
    for (std::uint32_t i = 0; i < table_count; ++i) {
        std::size_t at = table_offset + i * kAttributeSize;
        in_.seek(at);
        std::uint32_t label = in_.take<std::uint32_t>();
        in_.skip(4);  // flags, 0 in every file castkit knows
        Section section{in_.take<std::uint32_t>(), in_.take<std::uint32_t>()};
        std::uint32_t lower = lower_label(label);
        std::size_t which = kAttributeCount;
        for (std::size_t k = 0; k < kAttributeCount; ++k)
            if (kTableOrder[k] == lower) which = k;
        if (which == kAttributeCount) {
            warn(fmt::format("attribute[{}]", i),
                 fmt::format("unknown attribute label {:#010x} ignored", label));
            continue;
        }
        if (seen[which])
            return make_error(error(at, fmt::format("attribute[{}]", i),
                                    "the same attribute label appears twice"));
        seen[which] = true;
        sections_[which] = section;
    }
    return {};
}

Expected<void> BinaryReader::check_section(std::size_t which, const char* name) {
    const Section& s = sections_[which];
    if (s.count == 0) return {};
    return in_.need_range(s.offset, std::uint64_t{s.count} * kStructSizes[which],
                          fmt::format("{} {}", s.count, name), name);
}

Expected<void> BinaryReader::check_disjoint(const std::vector<Section>& ranges,
                                            std::uint64_t element, const char* what,
                                            std::size_t section) {
    std::uint64_t total = 0;
    for (const Section& range : ranges) total += std::uint64_t{range.count} * element;
    if (total <= in_.size()) return {};
    const char* paths[kAttributeCount] = {"textures", "materials", "vertices",
                                          "faces",    "bones",     "animations"};
    return make_error(error(sections_[section].offset, paths[section],
                            fmt::format("the {} take {} bytes together, more than the {}-byte "
                                        "file: they overlap",
                                        what, total, in_.size())));
}

Expected<void> BinaryReader::textures() {
    std::vector<Section> images;
    for (Texture& t : model_.textures) {
        t.name = take_name(in_);
        t.id = in_.take<std::int16_t>();
        t.flip_y = in_.take<std::uint16_t>();
        Section image{in_.take<std::uint32_t>(), in_.take<std::uint32_t>()};
        images.push_back(image);
        t.width = in_.take<std::uint16_t>();
        t.height = in_.take<std::uint16_t>();
        t.wrap_s = in_.take<std::uint16_t>();
        t.wrap_t = in_.take<std::uint16_t>();
        in_.skip(12);
    }
    if (auto ok = check_disjoint(images, 1, "PNG images", 0); !ok) return ok;
    for (std::size_t i = 0; i < images.size(); ++i) {
        if (images[i].count == 0) continue;
        if (auto ok = in_.need_range(images[i].offset, images[i].count, "the PNG image",
                                     fmt::format("texture[{}]", i));
            !ok)
            return ok;
        cast::Bytes png = in_.bytes_at(images[i].offset, images[i].count);
        model_.textures[i].png.assign(png.begin(), png.end());
    }
    return {};
}

void BinaryReader::materials() {
    for (Material& m : model_.materials) {
        m.name = take_name(in_);
        m.id = in_.take<std::int16_t>();
        m.texture = in_.take<std::int16_t>();
        for (std::uint16_t* field :
             {&m.use_blending, &m.blend_equation, &m.blend_src, &m.blend_dst, &m.skinning,
              &m.shader_type, &m.face_side, &m.shadow_side, &m.ignore_lights, &m.vertex_color,
              &m.use_alpha, &m.skip_render})
            *field = in_.take<std::uint16_t>();
        m.alpha_test = in_.take<float>();
        m.diffuse = in_.take<glm::vec4>();
        m.emissive = in_.take<glm::vec4>();
        m.specular = in_.take<glm::vec4>();
    }
}

void BinaryReader::vertices() {
    for (Vertex& v : model_.vertices) {
        v.position = in_.take<glm::vec3>();
        for (auto& index : v.skin_index) index = in_.take<std::int16_t>();
        v.skin_weight = in_.take<glm::vec4>();
    }
}

void BinaryReader::faces() {
    for (Face& f : model_.faces) {
        f.material = in_.take<std::uint16_t>();
        in_.skip(2);
        for (auto& index : f.indices) index = in_.take<std::uint32_t>();
        for (auto& color : f.colors) color = in_.take<glm::u8vec4>();
        for (auto& normal : f.normals) normal = in_.take<glm::vec3>();
        for (auto& uv : f.uvs) uv = in_.take<glm::vec2>();
    }
}

void BinaryReader::bones() {
    for (Bone& b : model_.bones) {
        b.name = take_name(in_);
        b.id = in_.take<std::int16_t>();
        b.parent = in_.take<std::int16_t>();
        in_.skip(12);
        b.matrix = in_.take<glm::mat4>();
    }
}

Expected<void> BinaryReader::animations() {
    std::vector<Section> tracks;
    for (Animation& a : model_.animations) {
        a.name = take_name(in_);
        a.id = in_.take<std::int16_t>();
        a.fps = in_.take<std::uint16_t>();
        Section section{in_.take<std::uint32_t>(), in_.take<std::uint32_t>()};
        tracks.push_back(section);
        a.duration = in_.take<float>();
    }
    if (auto ok = check_disjoint(tracks, kTrackSize, "track lists", 5); !ok) return ok;
    for (std::size_t i = 0; i < tracks.size(); ++i) {
        if (tracks[i].count == 0) continue;
        std::string path = fmt::format("animation[{}]", i);
        if (auto ok = in_.need_range(tracks[i].offset, std::uint64_t{tracks[i].count} * kTrackSize,
                                     fmt::format("{} tracks", tracks[i].count), path);
            !ok)
            return ok;
        in_.seek(tracks[i].offset);
        model_.animations[i].tracks.resize(tracks[i].count);
        for (Track& t : model_.animations[i].tracks) {
            t.bone = in_.take<std::int16_t>();
            t.flags = in_.take<std::int16_t>();
            t.time = in_.take<float>();
            t.position = in_.take<glm::vec3>();
            t.rotation = in_.take<glm::vec4>();
            t.scale = in_.take<glm::vec3>();
            // Fields whose flag is clear are reserved: ignored (docs/dmf.md, choice 5).
            if (!(t.flags & kPosition)) t.position = glm::vec3(0.0f);
            if (!(t.flags & kRotation)) t.rotation = glm::vec4(0.0f);
            if (!(t.flags & kScale)) t.scale = glm::vec3(0.0f);
        }
    }
    return {};
}

Expected<Model> BinaryReader::read() {
    if (auto ok = table(); !ok) return make_error(ok.error());
    const char* names[kAttributeCount] = {"textures", "materials", "vertices",
                                          "faces",    "bones",     "animations"};
    for (std::size_t i = 0; i < kAttributeCount; ++i)
        if (auto ok = check_section(i, names[i]); !ok) return make_error(ok.error());
    model_.textures.resize(sections_[0].count);
    model_.materials.resize(sections_[1].count);
    model_.vertices.resize(sections_[2].count);
    model_.faces.resize(sections_[3].count);
    model_.bones.resize(sections_[4].count);
    model_.animations.resize(sections_[5].count);
    in_.seek(sections_[0].offset);
    if (auto ok = textures(); !ok) return make_error(ok.error());
    in_.seek(sections_[1].offset);
    materials();
    in_.seek(sections_[2].offset);
    vertices();
    in_.seek(sections_[3].offset);
    faces();
    in_.seek(sections_[4].offset);
    bones();
    in_.seek(sections_[5].offset);
    if (auto ok = animations(); !ok) return make_error(ok.error());
    std::uint32_t offsets[kAttributeCount];
    for (std::size_t i = 0; i < kAttributeCount; ++i) offsets[i] = sections_[i].offset;
    if (auto ok = check_references(model_, in_.file(), false, offsets); !ok)
        return make_error(ok.error());
    return std::move(model_);
}

}  // namespace

Expected<Model> read(cast::Bytes bytes, std::string_view file, Diagnostics& diagnostics) {
    const std::string name(file);
    return BinaryReader(bytes, name, diagnostics).read();
}

Expected<Model> open(const std::filesystem::path& path, Diagnostics& warnings) {
    return formats::parse_mapped(path, [&](cast::Bytes bytes, const std::string& name) {
        return read(bytes, name, warnings);
    });
}

}  // namespace castkit::dmf

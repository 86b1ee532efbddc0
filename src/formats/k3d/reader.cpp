// The K3D reader: header, the optional sections behind their guards, then the string table.
// Each section's byte size is computed in 64 bits and checked once before anything is loaded.
#include <fmt/format.h>

#include <castkit/formats/k3d.hpp>

#include "io/binary_io.hpp"

namespace castkit::k3d {
namespace {

using formats::ByteReader;

enum Guard : std::uint32_t {
    kSubmeshes = 1,
    kBones = 2,
    kNodes = 3,
    kAnimations = 4,
    kChannels = 5,
    kStrings = 6
};
constexpr std::size_t kStaticVertexSize = 64;
constexpr std::size_t kSkinnedVertexSize = 96;
constexpr std::size_t kVec3KeySize = 16;
constexpr std::size_t kQuatKeySize = 20;

class Reader {
  public:
    Reader(cast::Bytes bytes, const std::string& file, Diagnostics& warnings)
        : in_(bytes, file, 0, "k3d"), warnings_(warnings) {}

    Expected<Model> read();

  private:
    Expected<void> header();
    Expected<void> guard(Guard expected, std::string_view section);
    Expected<void> submeshes();
    Expected<void> bones();
    Expected<void> nodes();
    Expected<void> animations();
    Expected<void> channels(std::uint16_t total);
    Expected<void> strings();
    Expected<void> check_names();
    Diagnostic error(std::uint64_t offset, std::string path, std::string message) const {
        return in_.error_at(offset, std::move(path), std::move(message));
    }

    ByteReader in_;
    Diagnostics& warnings_;
    Model model_;
    std::uint16_t submesh_count_ = 0, bone_count_ = 0, node_count_ = 0, animation_count_ = 0;
    std::uint32_t string_table_offset_ = 0;
    std::vector<std::uint16_t> channel_counts_;
};

Expected<void> Reader::header() {
    if (auto ok = in_.need(kHeaderSize, "the 132-byte header"); !ok) return ok;
    if (std::uint32_t magic = in_.take<std::uint32_t>(); magic != kMagic)
        return make_error(
            error(0, "header",
                  fmt::format("not a K3D file: magic {:#010x}, expected 0xdecafbad", magic)));
    if (std::uint32_t type = in_.take<std::uint32_t>(); type != kAssetTypeModel)
        return make_error(
            error(4, "header", fmt::format("asset type {} is not a model (15)", type)));
    if (std::uint32_t version = in_.take<std::uint32_t>(); version != kVersion)
        return make_error(error(
            8, "header", fmt::format("unsupported K3D version {} (castkit reads 1)", version)));
    model_.exporter_type = in_.take<std::uint32_t>();
    model_.exporter_version = in_.take<std::uint8_t>();
    in_.skip(3);  // struct padding, contents not guaranteed
    model_.extents.min = in_.take<glm::vec3>();
    model_.extents.max = in_.take<glm::vec3>();
    model_.center = in_.take<glm::vec3>();
    model_.inverse_global_transform = in_.take<glm::mat4>();
    submesh_count_ = in_.take<std::uint16_t>();
    bone_count_ = in_.take<std::uint16_t>();
    node_count_ = in_.take<std::uint16_t>();
    animation_count_ = in_.take<std::uint16_t>();
    string_table_offset_ = in_.take<std::uint32_t>();
    return {};
}

Expected<void> Reader::guard(Guard expected, std::string_view section) {
    std::size_t at = in_.offset();
    if (auto ok = in_.need(4, fmt::format("the {} guard", section), section); !ok) return ok;
    std::uint32_t value = in_.take<std::uint32_t>();
    if (value != expected)
        return make_error(error(at, std::string(section),
                                fmt::format("section guard is {}, expected {} ({})", value,
                                            static_cast<std::uint32_t>(expected), section)));
    return {};
}

Expected<void> Reader::submeshes() {
    if (submesh_count_ == 0) return {};
    if (auto ok = guard(kSubmeshes, "submeshes"); !ok) return ok;
    std::size_t s = submesh_count_;
    // names 2+2, counts 4+4, type 1, center 12, extents 24 per submesh
    if (auto ok = in_.need(s * 49, "the submesh tables", "submeshes"); !ok) return ok;
    model_.submeshes.resize(s);
    for (auto& m : model_.submeshes) m.name_id = in_.take<std::uint16_t>();
    for (auto& m : model_.submeshes) m.material_name_id = in_.take<std::uint16_t>();
    std::vector<std::uint32_t> vertex_counts(s), index_counts(s);
    for (auto& c : vertex_counts) c = in_.take<std::uint32_t>();
    for (auto& c : index_counts) c = in_.take<std::uint32_t>();
    std::uint64_t vertex_bytes = 0, index_bytes = 0;
    for (std::size_t i = 0; i < s; ++i) {
        std::size_t at = in_.offset();
        std::uint8_t type = in_.take<std::uint8_t>();
        if (type > 1)
            return make_error(
                error(at, fmt::format("submesh[{}]", i),
                      fmt::format("unknown mesh type {} (0 static, 1 skinned)", type)));
        model_.submeshes[i].type = static_cast<MeshType>(type);
        vertex_bytes +=
            std::uint64_t{vertex_counts[i]} * (type == 1 ? kSkinnedVertexSize : kStaticVertexSize);
        index_bytes += std::uint64_t{index_counts[i]} * 4;
    }
    for (auto& m : model_.submeshes) m.center = in_.take<glm::vec3>();
    for (auto& m : model_.submeshes) {
        m.extents.min = in_.take<glm::vec3>();
        m.extents.max = in_.take<glm::vec3>();
    }
    if (auto ok = in_.need(vertex_bytes + index_bytes, "the vertex and index data", "submeshes");
        !ok)
        return ok;
    for (std::size_t i = 0; i < s; ++i) {
        Submesh& m = model_.submeshes[i];
        m.vertices.resize(vertex_counts[i]);
        for (std::size_t n = 0; n < m.vertices.size(); ++n) {
            Vertex& v = m.vertices[n];
            v.position = in_.take<glm::vec3>();
            v.normal = in_.take<glm::vec3>();
            v.texcoord = in_.take<glm::vec2>();
            v.colour = in_.take<glm::vec4>();
            v.tangent = in_.take<glm::vec4>();
            if (m.type != MeshType::Skinned) continue;
            const std::size_t ids_at = in_.offset();
            for (int k = 0; k < 4; ++k) v.bone_ids[k] = in_.take<std::int32_t>();
            v.weights = in_.take<glm::vec4>();
            for (int k = 0; k < 4; ++k)
                if (v.weights[k] != 0.0f && (v.bone_ids[k] < 0 || v.bone_ids[k] >= bone_count_))
                    return make_error(error(ids_at + 4 * static_cast<std::size_t>(k),
                                            fmt::format("submesh[{}]/vertex[{}]", i, n),
                                            fmt::format("bone id {} is not one of the {} bones",
                                                        v.bone_ids[k], bone_count_)));
        }
    }
    for (std::size_t i = 0; i < s; ++i) {
        Submesh& m = model_.submeshes[i];
        m.indices.resize(index_counts[i]);
        for (std::size_t k = 0; k < m.indices.size(); ++k) {
            std::size_t at = in_.offset();
            m.indices[k] = in_.take<std::uint32_t>();
            if (m.indices[k] >= m.vertices.size())
                return make_error(error(at, fmt::format("submesh[{}]/index[{}]", i, k),
                                        fmt::format("index {} is past the submesh's {} vertices",
                                                    m.indices[k], m.vertices.size())));
        }
        if (m.indices.size() % 3 != 0)
            warnings_.push_back(formats::warning(
                in_.file(), fmt::format("submesh[{}]", i),
                fmt::format("{} indices is not a whole number of triangles", m.indices.size())));
    }
    return {};
}

Expected<void> Reader::bones() {
    if (bone_count_ == 0) return {};
    if (auto ok = guard(kBones, "bones"); !ok) return ok;
    if (auto ok = in_.need(std::uint64_t{bone_count_} * 66, "the bone tables", "bones"); !ok)
        return ok;
    model_.bones.resize(bone_count_);
    for (auto& b : model_.bones) b.name_id = in_.take<std::uint16_t>();
    for (auto& b : model_.bones) b.offset = in_.take<glm::mat4>();
    return {};
}

Expected<void> Reader::nodes() {
    if (node_count_ == 0) return {};
    if (auto ok = guard(kNodes, "nodes"); !ok) return ok;
    if (auto ok = in_.need(std::uint64_t{node_count_} * 68, "the node tables", "nodes"); !ok)
        return ok;
    model_.nodes.resize(node_count_);
    for (auto& n : model_.nodes) n.name_id = in_.take<std::uint16_t>();
    for (std::size_t i = 0; i < model_.nodes.size(); ++i) {
        std::size_t at = in_.offset();
        SceneNode& n = model_.nodes[i];
        n.parent = in_.take<std::uint16_t>();
        if (n.parent != kInvalidId && (n.parent >= node_count_ || n.parent == i))
            return make_error(error(at, fmt::format("node[{}]", i),
                                    fmt::format("parent index {} is not another of the {} nodes",
                                                n.parent, node_count_)));
    }
    for (auto& n : model_.nodes) n.local = in_.take<glm::mat4>();
    return {};
}

Expected<void> Reader::animations() {
    if (animation_count_ == 0) return {};
    if (auto ok = guard(kAnimations, "animations"); !ok) return ok;
    std::size_t a = animation_count_;
    if (auto ok = in_.need(2 + a * 12, "the animation tables", "animations"); !ok) return ok;
    std::uint16_t total = in_.take<std::uint16_t>();
    model_.animations.resize(a);
    for (auto& anim : model_.animations) anim.name_id = in_.take<std::uint16_t>();
    for (auto& anim : model_.animations) anim.duration = in_.take<float>();
    for (auto& anim : model_.animations) anim.ticks_per_second = in_.take<float>();
    std::size_t counts_at = in_.offset();
    channel_counts_.resize(a);
    std::size_t sum = 0;
    for (auto& count : channel_counts_) sum += count = in_.take<std::uint16_t>();
    if (sum != total)
        return make_error(
            error(counts_at, "animations",
                  fmt::format("channel counts add up to {}, the total says {}", sum, total)));
    return channels(total);
}

Expected<void> Reader::channels(std::uint16_t total) {
    if (total == 0) return {};
    if (auto ok = guard(kChannels, "channels"); !ok) return ok;
    std::size_t c = total;
    if (auto ok = in_.need(c * 28, "the channel tables", "channels"); !ok) return ok;
    for (std::size_t i = 0; i < model_.animations.size(); ++i)
        model_.animations[i].channels.resize(channel_counts_[i]);
    std::vector<std::uint16_t> animation_ids(c), name_ids(c);
    std::vector<std::uint32_t> counts[3], offsets[3];
    for (auto& id : animation_ids) id = in_.take<std::uint16_t>();
    for (auto& id : name_ids) id = in_.take<std::uint16_t>();
    for (int kind = 0; kind < 3; ++kind) {
        counts[kind].resize(c);
        offsets[kind].resize(c);
        for (auto& n : counts[kind]) n = in_.take<std::uint32_t>();
        for (auto& o : offsets[kind]) o = in_.take<std::uint32_t>();
    }
    std::uint64_t buffer_size = 0;
    for (std::size_t i = 0; i < c; ++i)
        buffer_size += std::uint64_t{counts[0][i]} * kVec3KeySize +
                       std::uint64_t{counts[1][i]} * kQuatKeySize +
                       std::uint64_t{counts[2][i]} * kVec3KeySize;
    std::size_t buffer = in_.offset();
    if (auto ok = in_.need(buffer_size, "the channel data buffer", "channels"); !ok) return ok;
    std::size_t channel = 0;
    for (std::size_t a = 0; a < model_.animations.size(); ++a) {
        for (Channel& ch : model_.animations[a].channels) {
            std::string path = fmt::format("animation[{}]/channel[{}]", a,
                                           &ch - model_.animations[a].channels.data());
            if (animation_ids[channel] != a)
                warnings_.push_back(formats::warning(
                    in_.file(), path,
                    fmt::format(
                        "channel {} claims animation {} but the channel counts place it in {}",
                        channel, animation_ids[channel], a)));
            ch.name_id = name_ids[channel];
            const std::size_t key_sizes[3] = {kVec3KeySize, kQuatKeySize, kVec3KeySize};
            for (int kind = 0; kind < 3; ++kind) {
                std::uint64_t start = offsets[kind][channel];
                std::uint64_t bytes = std::uint64_t{counts[kind][channel]} * key_sizes[kind];
                if (start > buffer_size || bytes > buffer_size - start)
                    return make_error(error(
                        buffer + start, path,
                        fmt::format("{} keys at byte offset {} run past the {}-byte channel buffer",
                                    counts[kind][channel], start, buffer_size)));
                in_.seek(buffer + static_cast<std::size_t>(start));
                for (std::uint32_t k = 0; k < counts[kind][channel]; ++k) {
                    if (kind == 1) {
                        KeyQuat key;
                        key.value = in_.take<glm::vec4>();
                        key.time = in_.take<float>();
                        ch.rotations.push_back(key);
                    } else {
                        KeyVec3 key;
                        key.value = in_.take<glm::vec3>();
                        key.time = in_.take<float>();
                        (kind == 0 ? ch.positions : ch.scales).push_back(key);
                    }
                }
            }
            ++channel;
        }
    }
    in_.seek(buffer + static_cast<std::size_t>(buffer_size));
    return {};
}

Expected<void> Reader::strings() {
    if (auto ok = guard(kStrings, "strings"); !ok) return ok;
    if (in_.offset() != string_table_offset_)
        return make_error(
            error(in_.offset(), "strings",
                  fmt::format("the string table starts at {:#x}, the header says {:#x}",
                              in_.offset(), string_table_offset_)));
    if (auto ok = in_.need(16, "the string table header", "strings"); !ok) return ok;
    std::uint32_t count = in_.take<std::uint32_t>();
    in_.skip(4);  // padding of the C struct {u32; u64}
    std::uint64_t data_size = in_.take<std::uint64_t>();
    if (count > kInvalidId)
        return make_error(error(in_.offset() - 16, "strings",
                                fmt::format("{} strings, K3D ids reach 65535", count)));
    if (auto ok = in_.need(std::uint64_t{count} * 8, "the string entries", "strings"); !ok)
        return ok;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> entries(count);
    std::uint64_t total = 0;
    for (auto& [offset, length] : entries) {
        offset = in_.take<std::uint32_t>();
        length = in_.take<std::uint32_t>();
        total += length;
    }
    std::size_t data = in_.offset();
    if (auto ok = in_.need(data_size, "the string data", "strings"); !ok) return ok;
    // Kohi stores every string once per use, so the entries never share bytes; entries that all
    // name the same bytes would copy them once each (defect K1: 216 KB → 397 MB).
    if (total > data_size)
        return make_error(error(data - std::size_t{count} * 8, "strings",
                                fmt::format("the string entries' lengths add up to {} bytes, "
                                            "more than the {}-byte data block: entries overlap",
                                            total, data_size)));
    model_.strings.reserve(count);
    for (std::size_t i = 0; i < entries.size(); ++i) {
        auto [offset, length] = entries[i];
        if (std::uint64_t{offset} + length > data_size)
            return make_error(
                error(data - count * 8 + i * 8, fmt::format("strings[{}]", i),
                      fmt::format("string at {} of length {} runs past the {}-byte data block",
                                  offset, length, data_size)));
        in_.seek(data + offset);
        model_.strings.push_back(in_.take_string(length));
    }
    std::uint64_t end = data + data_size;
    if (end < in_.size())
        warnings_.push_back(formats::warning(
            in_.file(), "strings",
            fmt::format("{} bytes after the string table ignored", in_.size() - end)));
    return {};
}

Expected<void> Reader::check_names() {
    auto check = [&](std::uint16_t id, const std::string& path) -> Expected<void> {
        if (id == kInvalidId || id < model_.strings.size()) return {};
        return make_error(error(string_table_offset_, path,
                                fmt::format("name id {} but the string table has {} strings", id,
                                            model_.strings.size())));
    };
    for (std::size_t i = 0; i < model_.submeshes.size(); ++i) {
        if (auto ok = check(model_.submeshes[i].name_id, fmt::format("submesh[{}]", i)); !ok)
            return ok;
        if (auto ok = check(model_.submeshes[i].material_name_id, fmt::format("submesh[{}]", i));
            !ok)
            return ok;
    }
    for (std::size_t i = 0; i < model_.bones.size(); ++i)
        if (auto ok = check(model_.bones[i].name_id, fmt::format("bone[{}]", i)); !ok) return ok;
    for (std::size_t i = 0; i < model_.nodes.size(); ++i)
        if (auto ok = check(model_.nodes[i].name_id, fmt::format("node[{}]", i)); !ok) return ok;
    for (std::size_t a = 0; a < model_.animations.size(); ++a) {
        if (auto ok = check(model_.animations[a].name_id, fmt::format("animation[{}]", a)); !ok)
            return ok;
        for (std::size_t c = 0; c < model_.animations[a].channels.size(); ++c)
            if (auto ok = check(model_.animations[a].channels[c].name_id,
                                fmt::format("animation[{}]/channel[{}]", a, c));
                !ok)
                return ok;
    }
    return {};
}

Expected<Model> Reader::read() {
    for (auto step : {&Reader::header, &Reader::submeshes, &Reader::bones, &Reader::nodes,
                      &Reader::animations, &Reader::strings, &Reader::check_names})
        if (auto ok = (this->*step)(); !ok) return make_error(ok.error());
    return std::move(model_);
}

}  // namespace

std::optional<std::string_view> Model::string(std::uint16_t id) const {
    if (id == kInvalidId || id >= strings.size()) return std::nullopt;
    return strings[id];
}

std::uint16_t Model::add_string(std::string_view text) {
    if (text.empty() || strings.size() >= kInvalidId) return kInvalidId;
    strings.emplace_back(text);
    return static_cast<std::uint16_t>(strings.size() - 1);
}

Expected<Model> read(cast::Bytes bytes, std::string_view file, Diagnostics& diagnostics) {
    const std::string name(file);
    return Reader(bytes, name, diagnostics).read();
}

Expected<Model> open(const std::filesystem::path& path, Diagnostics& warnings) {
    return formats::parse_mapped(path, [&](cast::Bytes bytes, const std::string& name) {
        return read(bytes, name, warnings);
    });
}

}  // namespace castkit::k3d

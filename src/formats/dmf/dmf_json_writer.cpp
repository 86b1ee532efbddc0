// The DMF JSON writer: one struct per line, floats in their shortest form that reads back to the
// same float, enumerations and booleans by name (raw integers when outside the named range).
#include <fmt/format.h>

#include <castkit/formats/dmf.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "../common/base64.hpp"
#include "../common/binary_io.hpp"
#include "dmf_json_names.hpp"

namespace castkit::dmf {
namespace {

class Writer {
  public:
    std::string out;

    bool failed() const { return error_.has_value(); }
    Diagnostic take_error() { return std::move(*error_); }

    void raw(std::string_view text) { out += text; }
    void key(std::string_view name) {
        out += nlohmann::json(name).dump();
        out += ": ";
    }
    void string(std::string_view text) {
        out += nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
    }
    void integer(std::int64_t v) { out += fmt::format("{}", v); }
    // Shortest text that parses back to `v`; -0 keeps its sign as "-0.0".
    // `path()` names the value in an error; it is called only when one is reported.
    template <class Path>
    void real(float v, const Path& path) {
        if (!std::isfinite(v)) {
            if (!error_) {
                error_ =
                    formats::write_error(path(), fmt::format("{} cannot be written as JSON", v));
            }
            out += "null";
            return;
        }
        out += v == 0.0f && std::signbit(v) ? "-0.0" : fmt::format("{}", v);
    }
    template <class Path>
    void reals(const float* v, int n, const Path& path) {
        out += '[';
        for (int i = 0; i < n; ++i) {
            if (i > 0) out += ", ";
            real(v[i], [&] { return fmt::format("{}[{}]", path(), i); });
        }
        out += ']';
    }
    void boolean(std::uint16_t v) {
        if (v <= 1)
            out += v ? "true" : "false";
        else
            integer(v);
    }
    template <std::size_t N>
    void enumeration(std::uint16_t v, const std::array<std::string_view, N>& names) {
        if (v < N)
            string(names[v]);
        else
            integer(v);
    }

  private:
    std::optional<Diagnostic> error_;
};

// Writes `items` as the array `key`, one element per line, each through `element`.
template <class T, class Element>
void section(Writer& w, std::string_view key, const std::vector<T>& items, Element element) {
    w.raw(",\n  ");
    w.key(key);
    w.raw("[");
    for (std::size_t i = 0; i < items.size(); ++i) {
        w.raw(i == 0 ? "\n    " : ",\n    ");
        element(items[i], [&] { return fmt::format("$.{}[{}]", key, i); });
    }
    w.raw(items.empty() ? "]" : "\n  ]");
}

std::string rgba(const glm::u8vec4& c) {
    // Alpha to three decimals: enough to read back the same byte (steps are 1/255).
    return fmt::format("rgba({}, {}, {}, {})", c.r, c.g, c.b,
                       std::round(c.a / 255.0 * 1000.0) / 1000.0);
}

}  // namespace

Expected<std::string> write_json_text(const Model& model) {
    using namespace json_names;
    Writer w;
    w.raw("{\n  \"format\": \"DASH\",\n  \"version\": \"1.5\"");
    section(w, "textures", model.textures, [&](const Texture& t, const auto&) {
        w.raw("{\"id\": ");
        w.integer(t.id);
        w.raw(", \"name\": ");
        w.string(t.name);
        w.raw(", \"flip_y\": ");
        w.boolean(t.flip_y);
        w.raw(", \"img\": \"data:image/png;base64,");
        w.raw(formats::base64_encode(t.png));
        w.raw("\", \"width\": ");
        w.integer(t.width);
        w.raw(", \"height\": ");
        w.integer(t.height);
        w.raw(", \"wrap_s\": ");
        w.enumeration(t.wrap_s, kWrap);
        w.raw(", \"wrap_t\": ");
        w.enumeration(t.wrap_t, kWrap);
        w.raw("}");
    });
    section(w, "materials", model.materials, [&](const Material& m, const auto& path) {
        w.raw("{\"id\": ");
        w.integer(m.id);
        w.raw(", \"name\": ");
        w.string(m.name);
        w.raw(", \"texture\": ");
        w.integer(m.texture);
        w.raw(", \"use_blending\": ");
        w.boolean(m.use_blending);
        w.raw(", \"blend_equation\": ");
        w.enumeration(m.blend_equation, kBlendEquation);
        w.raw(", \"blend_src\": ");
        w.enumeration(m.blend_src, kBlendFactor);
        w.raw(", \"blend_dst\": ");
        w.enumeration(m.blend_dst, kBlendFactor);
        w.raw(", \"skinning\": ");
        w.boolean(m.skinning);
        w.raw(", \"shader_type\": ");
        w.enumeration(m.shader_type, kShaderType);
        w.raw(", \"face_side\": ");
        w.enumeration(m.face_side, kSide);
        w.raw(", \"shadow_side\": ");
        w.enumeration(m.shadow_side, kSide);
        const std::pair<const char*, std::uint16_t> flags[] = {{"ignore_lights", m.ignore_lights},
                                                               {"vertex_color", m.vertex_color},
                                                               {"use_alpha", m.use_alpha},
                                                               {"skip_render", m.skip_render}};
        for (const auto& [name, value] : flags) {
            w.raw(", ");
            w.key(name);
            w.boolean(value);
        }
        w.raw(", \"alpha_test\": ");
        w.real(m.alpha_test, [&] { return fmt::format("{}.alpha_test", path()); });
        w.raw(", \"diffuse\": ");
        w.reals(&m.diffuse.x, 4, [&] { return fmt::format("{}.diffuse", path()); });
        w.raw(", \"emissive\": ");
        w.reals(&m.emissive.x, 4, [&] { return fmt::format("{}.emissive", path()); });
        w.raw(", \"specular\": ");
        w.reals(&m.specular.x, 4, [&] { return fmt::format("{}.specular", path()); });
        w.raw("}");
    });
    // The documented key spellings, typos included (docs/dmf.md, choice 10).
    section(w, "verterices", model.vertices, [&](const Vertex& v, const auto& path) {
        w.raw("{\"pos\": ");
        w.reals(&v.position.x, 3, [&] { return fmt::format("{}.pos", path()); });
        w.raw(fmt::format(", \"skin_index\": [{}, {}, {}, {}], \"skin_weight\": ", v.skin_index[0],
                          v.skin_index[1], v.skin_index[2], v.skin_index[3]));
        w.reals(&v.skin_weight.x, 4, [&] { return fmt::format("{}.skin_weight", path()); });
        w.raw("}");
    });
    section(w, "faces", model.faces, [&](const Face& f, const auto& path) {
        w.raw(
            fmt::format("{{\"material\": {}, \"indices\": [{}, {}, {}], \"verex_color\": [\"{}\", "
                        "\"{}\", \"{}\"], "
                        "\"normals\": [",
                        f.material, f.indices[0], f.indices[1], f.indices[2], rgba(f.colors[0]),
                        rgba(f.colors[1]), rgba(f.colors[2])));
        for (int c = 0; c < 3; ++c) {
            if (c > 0) w.raw(", ");
            w.reals(&f.normals[static_cast<std::size_t>(c)].x, 3,
                    [&] { return fmt::format("{}.normals[{}]", path(), c); });
        }
        w.raw("], \"diffuse_uv\": [");
        for (int c = 0; c < 3; ++c) {
            if (c > 0) w.raw(", ");
            w.reals(&f.uvs[static_cast<std::size_t>(c)].x, 2,
                    [&] { return fmt::format("{}.diffuse_uv[{}]", path(), c); });
        }
        w.raw("]}");
    });
    section(w, "skeleton", model.bones, [&](const Bone& b, const auto& path) {
        w.raw("{\"id\": ");
        w.integer(b.id);
        w.raw(", \"name\": ");
        w.string(b.name);
        w.raw(fmt::format(", \"parent_id\": {}, \"matrix\": ", b.parent));
        w.reals(&b.matrix[0].x, 16, [&] { return fmt::format("{}.matrix", path()); });
        w.raw("}");
    });
    section(w, "animations", model.animations, [&](const Animation& a, const auto& path) {
        w.raw("{\"id\": ");
        w.integer(a.id);
        w.raw(", \"name\": ");
        w.string(a.name);
        w.raw(fmt::format(", \"fps\": {}, \"duration\": ", a.fps));
        w.real(a.duration, [&] { return fmt::format("{}.duration", path()); });
        w.raw(", \"tracks\": [");
        for (std::size_t i = 0; i < a.tracks.size(); ++i) {
            const Track& t = a.tracks[i];
            auto track_path = [&] { return fmt::format("{}.tracks[{}]", path(), i); };
            w.raw(i == 0 ? "\n      " : ",\n      ");
            w.raw(fmt::format("{{\"bone_id\": {}, \"time\": ", t.bone));
            w.real(t.time, [&] { return fmt::format("{}.time", track_path()); });
            if (t.flags & kPosition) {
                w.raw(", \"pos\": ");
                w.reals(&t.position.x, 3, [&] { return fmt::format("{}.pos", track_path()); });
            }
            if (t.flags & kRotation) {
                w.raw(", \"rot\": ");
                w.reals(&t.rotation.x, 4, [&] { return fmt::format("{}.rot", track_path()); });
            }
            if (t.flags & kScale) {
                w.raw(", \"scl\": ");
                w.reals(&t.scale.x, 3, [&] { return fmt::format("{}.scl", track_path()); });
            }
            w.raw("}");
        }
        w.raw(a.tracks.empty() ? "]}" : "\n    ]}");
    });
    w.raw("\n}\n");
    if (w.failed()) return make_error(w.take_error());
    return std::move(w.out);
}

Expected<void> write_json(const Model& model, const std::filesystem::path& path) {
    return formats::write_serialised(path, write_json_text(model));
}

}  // namespace castkit::dmf

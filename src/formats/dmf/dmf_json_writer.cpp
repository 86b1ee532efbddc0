// The DMF JSON writer: one struct per line, floats in their shortest form that reads back to the
// same float, enumerations and booleans by name (raw integers when outside the named range).
// The text streams to a Sink through a 1 MiB buffer, formatted in place with fmt: the output is
// never whole in memory, and a model JSON cannot hold is refused before a byte is written.
#include <fmt/compile.h>
#include <fmt/format.h>

#include <array>
#include <castkit/formats/dmf.hpp>
#include <castkit/sink.hpp>
#include <cmath>
#include <nlohmann/json.hpp>
#include <optional>

#include "../common/base64.hpp"
#include "../common/binary_io.hpp"
#include "../common/file_sink.hpp"
#include "dmf_json_names.hpp"

namespace castkit::dmf {
namespace {

// JSON text appended to a buffer that goes to the sink whenever it passes 1 MiB (checked between
// elements by flush_if_full). After a sink error, further text is dropped and the error kept.
class Writer {
  public:
    explicit Writer(Sink& sink) : sink_(sink) {}

    bool failed() const { return error_.has_value(); }

    void raw(std::string_view text) { buffer_.append(text.data(), text.data() + text.size()); }
    void raw(char c) { buffer_.push_back(c); }
    void key(std::string_view name) {
        string(name);
        raw(": ");
    }
    // Names only (short and few): nlohmann's escaping, invalid UTF-8 replaced by U+FFFD.
    void string(std::string_view text) {
        raw(nlohmann::json(text).dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
    }
    void integer(std::int64_t v) { fmt::format_to(fmt::appender(buffer_), FMT_COMPILE("{}"), v); }
    // Shortest text that parses back to `v` (finite: checked before writing starts); -0 keeps
    // its sign as "-0.0".
    void real(float v) {
        if (v == 0.0f && std::signbit(v))
            raw("-0.0");
        else
            fmt::format_to(fmt::appender(buffer_), FMT_COMPILE("{}"), v);
    }
    void reals(const float* v, int n) {
        raw('[');
        for (int i = 0; i < n; ++i) {
            if (i > 0) raw(", ");
            real(v[i]);
        }
        raw(']');
    }
    void boolean(std::uint16_t v) {
        if (v <= 1)
            raw(v ? "true" : "false");
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
    // "rgba(255, 128, 0, 0.502)": alpha to three decimals, enough to read back the same byte
    // (steps are 1/255).
    void rgba(const glm::u8vec4& c) {
        static const std::array<std::string, 256> kAlpha = [] {
            std::array<std::string, 256> out;
            for (std::size_t a = 0; a < out.size(); ++a)
                out[a] = fmt::format("{}", std::round(double(a) / 255.0 * 1000.0) / 1000.0);
            return out;
        }();
        fmt::format_to(fmt::appender(buffer_), FMT_COMPILE("\"rgba({}, {}, {}, "), c.r, c.g, c.b);
        raw(kAlpha[c.a]);
        raw(")\"");
    }

    void flush_if_full() {
        if (buffer_.size() >= kFlushAt) flush();
    }
    // Sends what is left; the first sink error, if any.
    Expected<void> finish() {
        flush();
        if (error_) return make_error(std::move(*error_));
        return {};
    }

  private:
    static constexpr std::size_t kFlushAt = std::size_t{1} << 20;
    void flush() {
        if (!error_) {
            auto written = sink_.write(std::as_bytes(std::span(buffer_.data(), buffer_.size())));
            if (!written) error_ = written.error();
        }
        buffer_.clear();
    }

    Sink& sink_;
    fmt::memory_buffer buffer_;
    std::optional<Diagnostic> error_;
};

// Writes `items` as the array `key`, one element per line, each through `element`.
template <class T, class Element>
void section(Writer& w, std::string_view key, const std::vector<T>& items, Element element) {
    w.raw(",\n  ");
    w.key(key);
    w.raw('[');
    for (std::size_t i = 0; i < items.size() && !w.failed(); ++i) {
        w.raw(i == 0 ? "\n    " : ",\n    ");
        element(items[i]);
        w.flush_if_full();
    }
    w.raw(items.empty() ? "]" : "\n  ]");
}

// The first float JSON cannot hold (NaN, ±infinity), met in the order the writer meets them,
// as the error that refuses the model. O(floats).
class NonFinite {
  public:
    const std::optional<Diagnostic>& error() const { return error_; }
    // `path()` names the value; it is called only for the error.
    template <class Path>
    void real(float v, const Path& path) {
        if (!error_ && !std::isfinite(v))
            error_ = formats::write_error(path(), fmt::format("{} cannot be written as JSON", v));
    }
    template <class Path>
    void reals(const float* v, int n, const Path& path) {
        for (int i = 0; i < n; ++i) real(v[i], [&] { return fmt::format("{}[{}]", path(), i); });
    }

  private:
    std::optional<Diagnostic> error_;
};

std::optional<Diagnostic> first_non_finite(const Model& model) {
    NonFinite check;
    for (std::size_t i = 0; i < model.materials.size(); ++i) {
        const Material& m = model.materials[i];
        auto path = [&](std::string_view field) { return fmt::format("$.materials[{}].{}", i, field); };
        check.real(m.alpha_test, [&] { return path("alpha_test"); });
        check.reals(&m.diffuse.x, 4, [&] { return path("diffuse"); });
        check.reals(&m.emissive.x, 4, [&] { return path("emissive"); });
        check.reals(&m.specular.x, 4, [&] { return path("specular"); });
    }
    for (std::size_t i = 0; i < model.vertices.size(); ++i) {
        const Vertex& v = model.vertices[i];
        check.reals(&v.position.x, 3, [&] { return fmt::format("$.verterices[{}].pos", i); });
        check.reals(&v.skin_weight.x, 4,
                    [&] { return fmt::format("$.verterices[{}].skin_weight", i); });
    }
    for (std::size_t i = 0; i < model.faces.size(); ++i) {
        const Face& f = model.faces[i];
        for (std::size_t c = 0; c < 3; ++c)
            check.reals(&f.normals[c].x, 3,
                        [&] { return fmt::format("$.faces[{}].normals[{}]", i, c); });
        for (std::size_t c = 0; c < 3; ++c)
            check.reals(&f.uvs[c].x, 2,
                        [&] { return fmt::format("$.faces[{}].diffuse_uv[{}]", i, c); });
    }
    for (std::size_t i = 0; i < model.bones.size(); ++i)
        check.reals(&model.bones[i].matrix[0].x, 16,
                    [&] { return fmt::format("$.skeleton[{}].matrix", i); });
    for (std::size_t i = 0; i < model.animations.size(); ++i) {
        const Animation& a = model.animations[i];
        check.real(a.duration, [&] { return fmt::format("$.animations[{}].duration", i); });
        for (std::size_t k = 0; k < a.tracks.size(); ++k) {
            const Track& t = a.tracks[k];
            auto path = [&](std::string_view field) {
                return fmt::format("$.animations[{}].tracks[{}].{}", i, k, field);
            };
            check.real(t.time, [&] { return path("time"); });
            if (t.flags & kPosition) check.reals(&t.position.x, 3, [&] { return path("pos"); });
            if (t.flags & kRotation) check.reals(&t.rotation.x, 4, [&] { return path("rot"); });
            if (t.flags & kScale) check.reals(&t.scale.x, 3, [&] { return path("scl"); });
        }
    }
    return check.error();
}

void write_textures(Writer& w, const Model& model) {
    using namespace json_names;
    section(w, "textures", model.textures, [&](const Texture& t) {
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
        w.raw('}');
    });
}

void write_materials(Writer& w, const Model& model) {
    using namespace json_names;
    section(w, "materials", model.materials, [&](const Material& m) {
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
        w.real(m.alpha_test);
        w.raw(", \"diffuse\": ");
        w.reals(&m.diffuse.x, 4);
        w.raw(", \"emissive\": ");
        w.reals(&m.emissive.x, 4);
        w.raw(", \"specular\": ");
        w.reals(&m.specular.x, 4);
        w.raw('}');
    });
}

// The documented key spellings, typos included (docs/dmf.md, choice 10).
void write_geometry(Writer& w, const Model& model) {
    section(w, "verterices", model.vertices, [&](const Vertex& v) {
        w.raw("{\"pos\": ");
        w.reals(&v.position.x, 3);
        w.raw(", \"skin_index\": [");
        for (int k = 0; k < 4; ++k) {
            if (k > 0) w.raw(", ");
            w.integer(v.skin_index[k]);
        }
        w.raw("], \"skin_weight\": ");
        w.reals(&v.skin_weight.x, 4);
        w.raw('}');
    });
    section(w, "faces", model.faces, [&](const Face& f) {
        w.raw("{\"material\": ");
        w.integer(f.material);
        w.raw(", \"indices\": [");
        for (int k = 0; k < 3; ++k) {
            if (k > 0) w.raw(", ");
            w.integer(f.indices[k]);
        }
        w.raw("], \"verex_color\": [");
        for (std::size_t c = 0; c < 3; ++c) {
            if (c > 0) w.raw(", ");
            w.rgba(f.colors[c]);
        }
        w.raw("], \"normals\": [");
        for (std::size_t c = 0; c < 3; ++c) {
            if (c > 0) w.raw(", ");
            w.reals(&f.normals[c].x, 3);
        }
        w.raw("], \"diffuse_uv\": [");
        for (std::size_t c = 0; c < 3; ++c) {
            if (c > 0) w.raw(", ");
            w.reals(&f.uvs[c].x, 2);
        }
        w.raw("]}");
    });
}

void write_skeleton(Writer& w, const Model& model) {
    section(w, "skeleton", model.bones, [&](const Bone& b) {
        w.raw("{\"id\": ");
        w.integer(b.id);
        w.raw(", \"name\": ");
        w.string(b.name);
        w.raw(", \"parent_id\": ");
        w.integer(b.parent);
        w.raw(", \"matrix\": ");
        w.reals(&b.matrix[0].x, 16);
        w.raw('}');
    });
}

void write_animations(Writer& w, const Model& model) {
    section(w, "animations", model.animations, [&](const Animation& a) {
        w.raw("{\"id\": ");
        w.integer(a.id);
        w.raw(", \"name\": ");
        w.string(a.name);
        w.raw(", \"fps\": ");
        w.integer(a.fps);
        w.raw(", \"duration\": ");
        w.real(a.duration);
        w.raw(", \"tracks\": [");
        for (std::size_t i = 0; i < a.tracks.size(); ++i) {
            const Track& t = a.tracks[i];
            w.raw(i == 0 ? "\n      " : ",\n      ");
            w.raw("{\"bone_id\": ");
            w.integer(t.bone);
            w.raw(", \"time\": ");
            w.real(t.time);
            if (t.flags & kPosition) {
                w.raw(", \"pos\": ");
                w.reals(&t.position.x, 3);
            }
            if (t.flags & kRotation) {
                w.raw(", \"rot\": ");
                w.reals(&t.rotation.x, 4);
            }
            if (t.flags & kScale) {
                w.raw(", \"scl\": ");
                w.reals(&t.scale.x, 3);
            }
            w.raw('}');
            w.flush_if_full();
        }
        w.raw(a.tracks.empty() ? "]}" : "\n    ]}");
    });
}

}  // namespace

Expected<void> write_json(const Model& model, Sink& sink) {
    if (auto error = first_non_finite(model)) return make_error(std::move(*error));
    Writer w(sink);
    w.raw("{\n  \"format\": \"DASH\",\n  \"version\": \"1.5\"");
    write_textures(w, model);
    write_materials(w, model);
    write_geometry(w, model);
    write_skeleton(w, model);
    write_animations(w, model);
    w.raw("\n}\n");
    return w.finish();
}

Expected<std::string> write_json_text(const Model& model) {
    BufferSink sink;
    if (auto ok = write_json(model, sink); !ok) return make_error(ok.error());
    return std::string(reinterpret_cast<const char*>(sink.bytes.data()), sink.bytes.size());
}

Expected<void> write_json(const Model& model, const std::filesystem::path& path) {
    return formats::write_to_path(path, [&](Sink& sink) {
        auto written = write_json(model, sink);
        if (!written && written.error().file.empty()) {
            Diagnostic d = written.error();
            d.file = platform::utf8_of(path);
            return Expected<void>(make_error(std::move(d)));
        }
        return written;
    });
}

}  // namespace castkit::dmf

// The DMF JSON writer: one struct per line, floats in their shortest form that reads back to the
// same float, enumerations and booleans by name (raw integers when outside the named range).
// The text streams to a Sink: the big arrays (vertices, faces, animation tracks) in chunks that
// two threads format (format_in_order) and that are sent in order, the rest through a 1 MiB
// buffer. Each element is written through a raw pointer into room reserved for it up front
// (number_text.hpp). The output is never whole in memory, and a model JSON cannot hold is refused
// before a byte is written.
#include "json_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <castkit/formats/dmf.hpp>
#include <castkit/sink.hpp>
#include <cmath>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "../common/number_text.hpp"
#include "cast_faces.hpp"
#include "io/base64.hpp"
#include "io/binary_io.hpp"
#include "io/file_sink.hpp"
#include "json_names.hpp"

namespace castkit::dmf {
namespace {

using formats::kFloatRoom;
using formats::kIntegerRoom;

// The pieces of an element, each writing at `out` and returning the end of its text; the caller
// has reserved room for the whole element (the k...Room bounds, which count what number_text.hpp
// may touch past a number's text).
char* put(char* out, std::string_view text) {
    std::memcpy(out, text.data(), text.size());
    return out + text.size();
}

// Shortest text that parses back to `v` (finite: checked before writing starts); -0 keeps its
// sign as "-0.0".
char* put_real(char* out, float v) {
    if (v == 0.0f && std::signbit(v)) return put(out, "-0.0");
    return formats::write_float(out, v);
}

// The texts of recently written floats by bit pattern (direct-mapped, 128 KiB): DMF repeats a
// vertex's normal and UV in every face around it, and weights such as 0.25 recur, so most floats
// of a big array were written shortly before; a hit copies 24 bytes instead of formatting.
class Reals {
  public:
    Reals() : entries_(std::make_unique<Entry[]>(kEntries)) {}

    char* put(char* out, float v) {
        std::uint32_t bits;
        std::memcpy(&bits, &v, sizeof bits);
        Entry& e = entries_[(bits * 0x9E3779B1u) >> (32 - kBits)];
        if (e.bits != bits) {
            e.bits = bits;
            e.size = static_cast<std::uint32_t>(put_real(out, v) - out);
            std::memcpy(e.text.data(), out, e.text.size());
            return out + e.size;
        }
        std::memcpy(out, e.text.data(), e.text.size());
        return out + e.size;
    }
    char* put(char* out, const float* v, int n) {
        *out++ = '[';
        for (int i = 0; i < n; ++i) {
            if (i > 0) out = castkit::dmf::put(out, ", ");
            out = put(out, v[i]);
        }
        *out++ = ']';
        return out;
    }

  private:
    static constexpr int kBits = 12;
    static constexpr std::size_t kEntries = std::size_t{1} << kBits;
    struct Entry {
        std::uint32_t bits = 0xFFFFFFFFu;  // a NaN: never the bits of a float written
        std::uint32_t size = 0;
        std::array<char, 24> text{};  // at most 17 used (kFloatRoom covers the 24 copied)
    };
    std::unique_ptr<Entry[]> entries_;
};

// One cache per thread, kept from chunk to chunk (a fresh 128 KiB per chunk cost page faults).
Reals& thread_reals() {
    thread_local Reals reals;
    return reals;
}

constexpr std::size_t reals_room(std::size_t n) { return 2 + n * (2 + kFloatRoom); }

constexpr std::size_t integers_room(std::size_t n) { return 2 + n * (2 + kIntegerRoom); }
template <class T>
char* put_integers(char* out, const T* v, int n) {
    *out++ = '[';
    for (int i = 0; i < n; ++i) {
        if (i > 0) out = put(out, ", ");
        out = formats::write_integer(out, v[i]);
    }
    *out++ = ']';
    return out;
}

// Up to 8 characters copied as one fixed-size block.
struct ShortText {
    std::array<char, 8> text{};
    std::size_t size = 0;
};
char* put(char* out, const ShortText& t) {
    std::memcpy(out, t.text.data(), t.text.size());
    return out + t.size;
}
ShortText short_text(std::string_view s) {
    ShortText t;
    std::copy(s.begin(), s.end(), t.text.begin());
    t.size = s.size();
    return t;
}

// "rgba(255, 128, 0, 0.502)": alpha to three decimals, enough to read back the same byte
// (steps are 1/255). The 256 channel values and alphas are made once.
struct RgbaTexts {
    std::array<ShortText, 256> channel, alpha;
    RgbaTexts() {
        for (std::size_t a = 0; a < 256; ++a) {
            channel[a] = short_text(fmt::format("{}, ", a));
            alpha[a] =
                short_text(fmt::format("{}", std::round(double(a) / 255.0 * 1000.0) / 1000.0));
        }
    }
};
constexpr std::size_t kRgbaRoom = 6 + 3 * 8 + 8 + 2;
char* put_rgba(char* out, const glm::u8vec4& c) {
    static const RgbaTexts texts;
    out = put(out, "\"rgba(");
    out = put(out, texts.channel[c.r]);
    out = put(out, texts.channel[c.g]);
    out = put(out, texts.channel[c.b]);
    out = put(out, texts.alpha[c.a]);
    return put(out, ")\"");
}

// The big arrays' elements (the documented key spellings, typos included: docs/dmf.md, choice 10).
// Each room is the numbers' plus 64 or 128 for the keys and punctuation (41, 91 and 50 bytes).
constexpr std::size_t kVertexRoom = 64 + reals_room(3) + integers_room(4) + reals_room(4);
char* put_vertex(char* out, const Vertex& v, Reals& reals) {
    out = put(out, "{\"pos\": ");
    out = reals.put(out, &v.position.x, 3);
    out = put(out, ", \"skin_index\": ");
    out = put_integers(out, v.skin_index.data(), 4);
    out = put(out, ", \"skin_weight\": ");
    out = reals.put(out, &v.skin_weight.x, 4);
    *out++ = '}';
    return out;
}

constexpr std::size_t kFaceRoom =
    128 + kIntegerRoom + integers_room(3) + 3 * kRgbaRoom + 3 * reals_room(3) + 3 * reals_room(2);
char* put_face(char* out, const Face& f, Reals& reals) {
    out = put(out, "{\"material\": ");
    out = formats::write_integer(out, f.material);
    out = put(out, ", \"indices\": ");
    out = put_integers(out, f.indices.data(), 3);
    out = put(out, ", \"verex_color\": [");
    for (std::size_t c = 0; c < 3; ++c) {
        if (c > 0) out = put(out, ", ");
        out = put_rgba(out, f.colors[c]);
    }
    out = put(out, "], \"normals\": [");
    for (std::size_t c = 0; c < 3; ++c) {
        if (c > 0) out = put(out, ", ");
        out = reals.put(out, &f.normals[c].x, 3);
    }
    out = put(out, "], \"diffuse_uv\": [");
    for (std::size_t c = 0; c < 3; ++c) {
        if (c > 0) out = put(out, ", ");
        out = reals.put(out, &f.uvs[c].x, 2);
    }
    return put(out, "]}");
}

constexpr std::size_t kTrackRoom =
    64 + kIntegerRoom + kFloatRoom + 2 * reals_room(3) + reals_room(4);
char* put_track(char* out, const Track& t, Reals& reals) {
    out = put(out, "{\"bone_id\": ");
    out = formats::write_integer(out, t.bone);
    out = put(out, ", \"time\": ");
    out = reals.put(out, t.time);
    if (t.flags & kPosition) {
        out = put(out, ", \"pos\": ");
        out = reals.put(out, &t.position.x, 3);
    }
    if (t.flags & kRotation) {
        out = put(out, ", \"rot\": ");
        out = reals.put(out, &t.rotation.x, 4);
    }
    if (t.flags & kScale) {
        out = put(out, ", \"scl\": ");
        out = reals.put(out, &t.scale.x, 3);
    }
    *out++ = '}';
    return out;
}

// JSON text appended to a buffer that goes to the sink whenever it passes 1 MiB (checked between
// elements by flush_if_full), or before a chunk of a big array is sent. After a sink error,
// further text is dropped and the error kept.
class Writer {
  public:
    Writer(Sink& sink, formats::Threads threads) : sink_(sink), threads_(threads) {}

    bool failed() const { return error_.has_value(); }
    formats::Threads threads() const { return threads_; }

    // Appends what `write(out)` writes in at most `room` bytes; it returns the end of its text.
    template <class Write>
    void append(std::size_t room, Write write) {
        buffer_.reserve(buffer_.size() + room);
        char* end = write(buffer_.data() + buffer_.size());
        buffer_.resize(static_cast<std::size_t>(end - buffer_.data()));
    }
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
    void integer(std::int64_t v) {
        append(kIntegerRoom, [&](char* out) { return formats::write_integer(out, v); });
    }
    void real(float v) {
        append(kFloatRoom, [&](char* out) { return thread_reals().put(out, v); });
    }
    void reals(const float* v, int n) {
        append(reals_room(static_cast<std::size_t>(n)),
               [&](char* out) { return thread_reals().put(out, v, n); });
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

    void flush_if_full() {
        if (buffer_.size() >= kFlushAt) flush();
    }
    // Sends what is buffered, then `text`; false once the sink has failed.
    bool send(const formats::ChunkText& text) {
        flush();
        write(text);
        return !failed();
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
        write(buffer_);
        buffer_.clear();
    }
    void write(const fmt::memory_buffer& text) {
        if (error_ || text.size() == 0) return;
        auto written = sink_.write(std::as_bytes(std::span(text.data(), text.size())));
        if (!written) error_ = written.error();
    }

    Sink& sink_;
    const formats::Threads threads_;
    fmt::memory_buffer buffer_;
    std::optional<Diagnostic> error_;
};

// A small array's elements, each on its own line through `element(item)`.
template <class T, class Element>
void each(Writer& w, const std::vector<T>& items, Element element) {
    for (std::size_t i = 0; i < items.size() && !w.failed(); ++i) {
        w.raw(i == 0 ? "\n    " : ",\n    ");
        element(items[i]);
        w.flush_if_full();
    }
}

// Writes an array of `count` elements as the top-level object's `key`; `elements()` writes
// what is inside.
template <class Elements>
void section(Writer& w, std::string_view key, std::size_t count, Elements elements) {
    w.raw(",\n  ");
    w.key(key);
    w.raw('[');
    elements();
    w.raw(count == 0 ? "]" : "\n  ]");
}

// Elements per chunk of a big array: about 0.7 MB of faces' text, eight chunks in flight.
constexpr std::size_t kChunk = 2048;

// A big array's `count` elements, each on its own line after `indent` ("\n    "), in chunks that
// format_in_order spreads over two threads; `items_of(first, last)` gives elements [first, last)
// as a span, `put_item(out, item, reals)` writes one in `room` bytes.
template <class ItemsOf, class Put>
void chunked(Writer& w, std::size_t count, std::string_view indent, std::size_t room,
             ItemsOf items_of, Put put_item) {
    auto format = [&](std::size_t chunk, formats::ChunkText& text) {
        const std::size_t first = chunk * kChunk;
        const auto items = items_of(first, std::min(count, first + kChunk));
        text.reserve(items.size() * (1 + indent.size() + room));
        Reals& reals = thread_reals();
        char* out = text.data();
        for (std::size_t i = 0; i < items.size(); ++i) {
            if (first + i > 0) *out++ = ',';
            out = put(out, indent);
            out = put_item(out, items[i], reals);
        }
        text.resize(static_cast<std::size_t>(out - text.data()));
    };
    formats::format_in_order((count + kChunk - 1) / kChunk, w.threads(), format,
                             [&](const formats::ChunkText& text) { return w.send(text); });
}

// `items` in the chunks of chunked().
template <class T>
void chunked(Writer& w, const std::vector<T>& items, std::string_view indent, std::size_t room,
             char* (*put_item)(char*, const T&, Reals&)) {
    chunked(
        w, items.size(), indent, room,
        [&](std::size_t first, std::size_t last) {
            return std::span(items).subspan(first, last - first);
        },
        put_item);
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
        if (error_ || formats::all_finite(std::as_bytes(std::span(v, static_cast<std::size_t>(n)))))
            return;
        for (int i = 0; i < n; ++i) real(v[i], [&] { return fmt::format("{}[{}]", path(), i); });
    }

  private:
    std::optional<Diagnostic> error_;
};

std::optional<Diagnostic> first_non_finite(const Model& model) {
    NonFinite check;
    for (std::size_t i = 0; i < model.materials.size(); ++i) {
        const Material& m = model.materials[i];
        auto path = [&](std::string_view field) {
            return fmt::format("$.materials[{}].{}", i, field);
        };
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
    section(w, "textures", model.textures.size(), [&] {
        each(w, model.textures, [&](const Texture& t) {
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
    });
}

void write_materials(Writer& w, const Model& model) {
    using namespace json_names;
    section(w, "materials", model.materials.size(), [&] {
        each(w, model.materials, [&](const Material& m) {
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
            const std::pair<const char*, std::uint16_t> flags[] = {
                {"ignore_lights", m.ignore_lights},
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
    });
}

// The faces of `made` (not model.faces), each chunk made by the thread that formats it into a
// buffer of its own.
void write_geometry(Writer& w, const Model& model, const CastFaces* made) {
    section(w, "verterices", model.vertices.size(),
            [&] { chunked(w, model.vertices, "\n    ", kVertexRoom, put_vertex); });
    if (made == nullptr) {
        section(w, "faces", model.faces.size(),
                [&] { chunked(w, model.faces, "\n    ", kFaceRoom, put_face); });
        return;
    }
    auto make = [made](std::size_t first, std::size_t last) {
        thread_local std::vector<Face> faces;
        faces.resize(last - first);
        made->make(first, faces);
        return std::span<const Face>(faces);
    };
    section(w, "faces", made->size(),
            [&] { chunked(w, made->size(), "\n    ", kFaceRoom, make, put_face); });
}

void write_skeleton(Writer& w, const Model& model) {
    section(w, "skeleton", model.bones.size(), [&] {
        each(w, model.bones, [&](const Bone& b) {
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
    });
}

void write_animations(Writer& w, const Model& model) {
    section(w, "animations", model.animations.size(), [&] {
        each(w, model.animations, [&](const Animation& a) {
            w.raw("{\"id\": ");
            w.integer(a.id);
            w.raw(", \"name\": ");
            w.string(a.name);
            w.raw(", \"fps\": ");
            w.integer(a.fps);
            w.raw(", \"duration\": ");
            w.real(a.duration);
            w.raw(", \"tracks\": [");
            chunked(w, a.tracks, "\n      ", kTrackRoom, put_track);
            w.raw(a.tracks.empty() ? "]}" : "\n    ]}");
        });
    });
}

// The whole text; its faces are those `made` makes if it is set, else model.faces.
Expected<void> write_model(const Model& model, const CastFaces* made, Sink& sink,
                           formats::Threads threads) {
    if (auto error = first_non_finite(model)) return make_error(std::move(*error));
    Writer w(sink, threads);
    w.raw("{\n  \"format\": \"DASH\",\n  \"version\": \"1.5\"");
    write_textures(w, model);
    write_materials(w, model);
    write_geometry(w, model, made);
    write_skeleton(w, model);
    write_animations(w, model);
    w.raw("\n}\n");
    return w.finish();
}

}  // namespace

Expected<void> write_json(const Model& model, Sink& sink, formats::Threads threads) {
    return write_model(model, nullptr, sink, threads);
}

Expected<void> write_json(const Model& model, const CastFaces& faces, Sink& sink,
                          formats::Threads threads) {
    return write_model(model, &faces, sink, threads);
}

Expected<void> write_json(const Model& model, Sink& sink) {
    return write_json(model, sink, formats::Threads::automatic);
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

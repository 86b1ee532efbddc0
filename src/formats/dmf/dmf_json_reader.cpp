// The DMF JSON reader: nlohmann-json parses, then every value is checked for its type as it is
// taken, and every error names its JSON path ("$.faces[3].indices[1]").
#include <fmt/format.h>

#include <castkit/formats/dmf.hpp>
#include <cmath>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <span>

#include "../../platform/platform.hpp"
#include "../common/base64.hpp"
#include "../common/binary_io.hpp"
#include "dmf_json_names.hpp"
#include "dmf_shared.hpp"

namespace castkit::dmf {
namespace {

using nlohmann::json;

const char* type_name(const json& value) { return value.type_name(); }

// A JSON path ("$.faces[3].indices[1]") kept as a chain of steps on the stack, so that building
// one per value costs nothing; it is formatted only when an error needs it. A step refers to
// its parent and its key, which must outlive it.
class JsonPath {
  public:
    JsonPath() = default;  // "$"
    JsonPath operator/(std::string_view key) const { return JsonPath(this, key, 0, false); }
    JsonPath operator[](std::size_t index) const { return JsonPath(this, {}, index, true); }
    std::string str() const {
        std::string out = parent_ != nullptr ? parent_->str() : std::string(1, '$');
        if (parent_ == nullptr) return out;
        if (is_index_) return out + fmt::format("[{}]", index_);
        out.push_back('.');
        out.append(key_);
        return out;
    }

  private:
    JsonPath(const JsonPath* parent, std::string_view key, std::size_t index, bool is_index)
        : parent_(parent), key_(key), index_(index), is_index_(is_index) {}
    const JsonPath* parent_ = nullptr;
    std::string_view key_;
    std::size_t index_ = 0;
    bool is_index_ = false;
};

// Pulls typed values out of JSON, remembering the first error (with its path); later calls
// after an error return defaults, so parsing code reads straight down and checks once.
class Fields {
  public:
    explicit Fields(const std::string& file) : file_(file) {}

    bool failed() const { return error_.has_value(); }
    Diagnostic take_error() { return std::move(*error_); }
    void fail(const JsonPath& path, std::string message) {
        if (error_) return;
        error_ =
            formats::diagnostic_at(file_, Diagnostic::kNoOffset, path.str(), std::move(message));
    }

    // The member `key` of `object`, or nullptr (an error when `required`).
    const json* member(const json& object, const JsonPath& path, std::string_view key,
                       bool required = true) {
        if (failed()) return nullptr;
        if (!object.is_object()) {
            fail(path, fmt::format("expected an object, found {}", type_name(object)));
            return nullptr;
        }
        auto it = object.find(key);
        if (it == object.end()) {
            if (required) fail(path, fmt::format("missing key \"{}\"", key));
            return nullptr;
        }
        return &*it;
    }
    double number(const json& value, const JsonPath& path) {
        if (failed()) return 0;
        if (!value.is_number())
            fail(path, fmt::format("expected a number, found {}", type_name(value)));
        return failed() ? 0 : value.get<double>();
    }
    float real(const json& value, const JsonPath& path) {
        double v = number(value, path);
        if (!failed() && std::isfinite(v) && std::abs(v) > std::numeric_limits<float>::max())
            fail(path, fmt::format("{} does not fit a 32-bit float", v));
        return static_cast<float>(v);
    }
    // An integer within [lo, hi].
    std::int64_t integer(const json& value, const JsonPath& path, std::int64_t lo,
                         std::int64_t hi) {
        if (failed()) return 0;
        if (!value.is_number_integer() &&
            !(value.is_number_float() && std::trunc(value.get<double>()) == value.get<double>())) {
            fail(path, fmt::format("expected an integer, found {}",
                                   value.is_number() ? value.dump() : type_name(value)));
            return 0;
        }
        double v = value.get<double>();
        if (v < static_cast<double>(lo) || v > static_cast<double>(hi)) {
            fail(path, fmt::format("{} is outside {}..{}", value.dump(), lo, hi));
            return 0;
        }
        return value.is_number_unsigned() ? static_cast<std::int64_t>(value.get<std::uint64_t>())
                                          : value.get<std::int64_t>();
    }
    // true/false, or 0/1 as numbers.
    std::uint16_t boolean(const json& value, const JsonPath& path) {
        if (failed()) return 0;
        if (value.is_boolean()) return value.get<bool>() ? 1 : 0;
        if (value.is_number_integer())
            return static_cast<std::uint16_t>(integer(value, path, 0, 0xFFFF));
        fail(path, fmt::format("expected a boolean, found {}", type_name(value)));
        return 0;
    }
    std::string string(const json& value, const JsonPath& path) {
        if (failed()) return {};
        if (!value.is_string()) {
            fail(path, fmt::format("expected a string, found {}", type_name(value)));
            return {};
        }
        return value.get<std::string>();
    }
    // A name from the list (its index), or the raw u16 value.
    template <std::size_t N>
    std::uint16_t enumeration(const json& value, const JsonPath& path,
                              const std::array<std::string_view, N>& names) {
        if (failed()) return 0;
        if (value.is_string()) {
            std::string text = value.get<std::string>();
            for (std::size_t i = 0; i < N; ++i)
                if (names[i] == text) return static_cast<std::uint16_t>(i);
            fail(path, fmt::format("\"{}\" is not one of {}", text, fmt::join(names, ", ")));
            return 0;
        }
        if (value.is_number()) return static_cast<std::uint16_t>(integer(value, path, 0, 0xFFFF));
        fail(path, fmt::format("expected a string or an integer, found {}", type_name(value)));
        return 0;
    }
    // An array of exactly `n` elements (an error otherwise).
    const json* array(const json& value, const JsonPath& path, std::size_t n) {
        if (failed()) return nullptr;
        if (!value.is_array()) {
            fail(path, fmt::format("expected an array, found {}", type_name(value)));
            return nullptr;
        }
        if (n != 0 && value.size() != n) {
            fail(path, fmt::format("expected {} elements, found {}", n, value.size()));
            return nullptr;
        }
        return &value;
    }
    template <int N>
    glm::vec<N, float> floats(const json& value, const JsonPath& path) {
        glm::vec<N, float> out(0.0f);
        const json* a = array(value, path, N);
        for (int i = 0; a != nullptr && i < N; ++i)
            out[i] = real((*a)[static_cast<std::size_t>(i)], path[i]);
        return out;
    }

  private:
    const std::string& file_;
    std::optional<Diagnostic> error_;
};

// "rgba(255, 128, 0, 0.5)" (or "rgb(…)"): bytes with alpha 0..1 scaled to 0..255.
std::optional<glm::u8vec4> parse_rgba(const std::string& text) {
    float v[4] = {0, 0, 0, 1};
    int parsed = 0;
    char close = 0;
    if (std::sscanf(text.c_str(), "rgba(%f ,%f ,%f ,%f %c", &v[0], &v[1], &v[2], &v[3], &close) ==
            5 &&
        close == ')')
        parsed = 4;
    else if (std::sscanf(text.c_str(), "rgb(%f ,%f ,%f %c", &v[0], &v[1], &v[2], &close) == 4 &&
             close == ')')
        parsed = 3;
    if (parsed == 0) return std::nullopt;
    glm::u8vec4 out;
    for (int i = 0; i < 3; ++i) {
        if (!(v[i] >= 0 && v[i] <= 255)) return std::nullopt;
        out[i] = static_cast<std::uint8_t>(std::lround(v[i]));
    }
    if (!(v[3] >= 0 && v[3] <= 1)) return std::nullopt;
    out[3] = static_cast<std::uint8_t>(std::lround(v[3] * 255.0f));
    return out;
}

class Reader {
  public:
    explicit Reader(const std::string& file) : fields_(file) {}
    Expected<Model> read(const json& root);

  private:
    // Each element of the section `key` (optional; absent means empty), parsed by `parse`.
    template <class T, class Parse>
    void section(const json& root, std::initializer_list<std::string_view> keys,
                 std::vector<T>& out, Parse parse) {
        for (std::string_view key : keys) {
            const JsonPath root_path;
            const json* items = fields_.member(root, root_path, key, false);
            if (items == nullptr) continue;
            JsonPath path = root_path / key;
            if (fields_.array(*items, path, 0) == nullptr) return;
            for (std::size_t i = 0; i < items->size() && !fields_.failed(); ++i) {
                T value;
                parse((*items)[i], path[i], i, value);
                out.push_back(std::move(value));
            }
            return;
        }
    }
    // A required member, parsed by `get(value, path)`.
    template <class Get>
    auto required(const json& object, const JsonPath& path, std::string_view key, Get get)
        -> decltype(get(std::declval<const json&>(), JsonPath())) {
        const json* value = fields_.member(object, path, key);
        if (value == nullptr) return {};
        return get(*value, path / key);
    }
    std::string name(const json& o, const JsonPath& path) {
        std::string text = required(o, path, "name", [&](const json& v, const JsonPath& p) {
            return fields_.string(v, p);
        });
        if (text.size() > 32) fields_.fail(path / "name", "names hold at most 32 bytes");
        return text;
    }
    std::int16_t id(const json& o, const JsonPath& path, std::size_t index) {
        const json* v = fields_.member(o, path, "id", false);
        return v == nullptr
                   ? static_cast<std::int16_t>(index)
                   : static_cast<std::int16_t>(fields_.integer(*v, path / "id", -32768, 32767));
    }
    void texture(const json& o, const JsonPath& path, std::size_t index, Texture& t);
    void material(const json& o, const JsonPath& path, std::size_t index, Material& m);
    void vertex(const json& o, const JsonPath& path, Vertex& v);
    void face(const json& o, const JsonPath& path, Face& f);
    void bone(const json& o, const JsonPath& path, std::size_t index, Bone& b);
    void animation(const json& o, const JsonPath& path, std::size_t index, Animation& a);

    Fields fields_;
};

void Reader::texture(const json& o, const JsonPath& path, std::size_t index, Texture& t) {
    t.name = name(o, path);
    t.id = id(o, path, index);
    if (const json* v = fields_.member(o, path, "flip_y", false))
        t.flip_y = fields_.boolean(*v, path / "flip_y");
    std::string uri = required(
        o, path, "img", [&](const json& v, const JsonPath& p) { return fields_.string(v, p); });
    std::size_t comma = uri.find(',');
    if (!fields_.failed()) {
        if (uri.rfind("data:", 0) != 0 || comma == std::string::npos ||
            uri.substr(0, comma).find(";base64") == std::string::npos) {
            fields_.fail(path / "img", "expected a data:image/png;base64, URI");
        } else if (auto png = formats::base64_decode(std::string_view(uri).substr(comma + 1))) {
            t.png = std::move(*png);
        } else {
            fields_.fail(path / "img", "the base64 image data is malformed");
        }
    }
    auto u16 = [&](const json& v, const JsonPath& p) {
        return static_cast<std::uint16_t>(fields_.integer(v, p, 0, 0xFFFF));
    };
    t.width = required(o, path, "width", u16);
    t.height = required(o, path, "height", u16);
    auto wrap = [&](const json& v, const JsonPath& p) {
        return fields_.enumeration(v, p, json_names::kWrap);
    };
    t.wrap_s = required(o, path, "wrap_s", wrap);
    t.wrap_t = required(o, path, "wrap_t", wrap);
}

void Reader::material(const json& o, const JsonPath& path, std::size_t index, Material& m) {
    m.name = name(o, path);
    m.id = id(o, path, index);
    if (const json* v = fields_.member(o, path, "texture", false))
        m.texture = static_cast<std::int16_t>(fields_.integer(*v, path / "texture", -1, 32767));
    auto flag = [&](const char* key, std::uint16_t& out) {
        if (const json* v = fields_.member(o, path, key, false))
            out = fields_.boolean(*v, path / key);
    };
    auto choice = [&](const char* key, std::uint16_t& out, const auto& names) {
        if (const json* v = fields_.member(o, path, key, false))
            out = fields_.enumeration(*v, path / key, names);
    };
    flag("use_blending", m.use_blending);
    choice("blend_equation", m.blend_equation, json_names::kBlendEquation);
    choice("blend_src", m.blend_src, json_names::kBlendFactor);
    choice("blend_dst", m.blend_dst, json_names::kBlendFactor);
    flag("skinning", m.skinning);
    choice("shader_type", m.shader_type, json_names::kShaderType);
    choice("face_side", m.face_side, json_names::kSide);
    choice("shadow_side", m.shadow_side, json_names::kSide);
    flag("ignore_lights", m.ignore_lights);
    flag("vertex_color", m.vertex_color);
    flag("use_alpha", m.use_alpha);
    flag("skip_render", m.skip_render);
    if (const json* v = fields_.member(o, path, "alpha_test", false))
        m.alpha_test = fields_.real(*v, path / "alpha_test");
    auto vec4 = [&](const json& v, const JsonPath& p) { return fields_.floats<4>(v, p); };
    m.diffuse = required(o, path, "diffuse", vec4);
    m.emissive = required(o, path, "emissive", vec4);
    m.specular = required(o, path, "specular", vec4);
}

void Reader::vertex(const json& o, const JsonPath& path, Vertex& v) {
    v.position = required(
        o, path, "pos", [&](const json& x, const JsonPath& p) { return fields_.floats<3>(x, p); });
    if (const json* a = fields_.member(o, path, "skin_index")) {
        JsonPath p = path / "skin_index";
        if (fields_.array(*a, p, 4))
            for (std::size_t k = 0; k < 4; ++k)
                v.skin_index[k] =
                    static_cast<std::int16_t>(fields_.integer((*a)[k], p[k], -1, 32767));
    }
    v.skin_weight = required(o, path, "skin_weight", [&](const json& x, const JsonPath& p) {
        return fields_.floats<4>(x, p);
    });
}

void Reader::face(const json& o, const JsonPath& path, Face& f) {
    f.material = static_cast<std::uint16_t>(required(
        o, path, "material",
        [&](const json& v, const JsonPath& p) { return fields_.integer(v, p, 0, 0xFFFF); }));
    if (const json* a = fields_.member(o, path, "indices")) {
        JsonPath p = path / "indices";
        if (fields_.array(*a, p, 3))
            for (std::size_t k = 0; k < 3; ++k)
                f.indices[k] =
                    static_cast<std::uint32_t>(fields_.integer((*a)[k], p[k], 0, 0xFFFFFFFF));
    }
    // Accept the spec's "verex_color" spelling as well (docs/dmf.md, choice 10).
    std::string color_key = fields_.member(o, path, "vertex_color", false) != nullptr ||
                                    fields_.member(o, path, "verex_color", false) == nullptr
                                ? "vertex_color"
                                : "verex_color";
    if (const json* a = fields_.member(o, path, color_key)) {
        JsonPath p = path / color_key;
        if (fields_.array(*a, p, 3))
            for (std::size_t k = 0; k < 3; ++k) {
                JsonPath element = p[k];
                std::string text = fields_.string((*a)[k], element);
                if (fields_.failed()) break;
                auto rgba = parse_rgba(text);
                if (!rgba)
                    fields_.fail(
                        element,
                        fmt::format(
                            "\"{}\" is not rgba(r, g, b, a) with r, g, b in 0..255 and a in 0..1",
                            text));
                else
                    f.colors[k] = *rgba;
            }
    }
    if (const json* a = fields_.member(o, path, "normals")) {
        JsonPath p = path / "normals";
        if (fields_.array(*a, p, 3))
            for (std::size_t k = 0; k < 3; ++k) f.normals[k] = fields_.floats<3>((*a)[k], p[k]);
    }
    if (const json* a = fields_.member(o, path, "diffuse_uv")) {
        JsonPath p = path / "diffuse_uv";
        if (fields_.array(*a, p, 3))
            for (std::size_t k = 0; k < 3; ++k) f.uvs[k] = fields_.floats<2>((*a)[k], p[k]);
    }
}

void Reader::bone(const json& o, const JsonPath& path, std::size_t index, Bone& b) {
    b.name = name(o, path);
    b.id = id(o, path, index);
    b.parent = static_cast<std::int16_t>(required(
        o, path, "parent_id",
        [&](const json& v, const JsonPath& p) { return fields_.integer(v, p, -1, 32767); }));
    if (const json* a = fields_.member(o, path, "matrix")) {
        JsonPath p = path / "matrix";
        if (fields_.array(*a, p, 16))
            for (std::size_t k = 0; k < 16; ++k)
                b.matrix[static_cast<int>(k / 4)][static_cast<int>(k % 4)] =
                    fields_.real((*a)[k], p[k]);
    }
}

void Reader::animation(const json& o, const JsonPath& path, std::size_t index, Animation& a) {
    a.name = name(o, path);
    a.id = id(o, path, index);
    a.fps =
        static_cast<std::uint16_t>(required(o, path, "fps", [&](const json& v, const JsonPath& p) {
            return fields_.integer(v, p, 0, 0xFFFF);
        }));
    a.duration = required(o, path, "duration",
                          [&](const json& v, const JsonPath& p) { return fields_.real(v, p); });
    const json* tracks = fields_.member(o, path, "tracks");
    JsonPath tracks_path = path / "tracks";
    if (tracks == nullptr || !fields_.array(*tracks, tracks_path, 0)) return;
    for (std::size_t i = 0; i < tracks->size() && !fields_.failed(); ++i) {
        const json& t = (*tracks)[i];
        JsonPath p = tracks_path[i];
        Track track;
        track.bone = static_cast<std::int16_t>(required(
            t, p, "bone_id",
            [&](const json& v, const JsonPath& q) { return fields_.integer(v, q, 0, 32767); }));
        track.time = required(t, p, "time",
                              [&](const json& v, const JsonPath& q) { return fields_.real(v, q); });
        if (const json* v = fields_.member(t, p, "pos", false)) {
            track.position = fields_.floats<3>(*v, p / "pos");
            track.flags |= kPosition;
        }
        if (const json* v = fields_.member(t, p, "rot", false)) {
            track.rotation = fields_.floats<4>(*v, p / "rot");
            track.flags |= kRotation;
        }
        if (const json* v = fields_.member(t, p, "scl", false)) {
            track.scale = fields_.floats<3>(*v, p / "scl");
            track.flags |= kScale;
        }
        if (track.flags == 0 && !fields_.failed())
            fields_.fail(p, "a track needs at least one of \"pos\", \"rot\", \"scl\"");
        a.tracks.push_back(track);
    }
}

Expected<Model> Reader::read(const json& root) {
    Model model;
    const JsonPath root_path;
    std::string format = required(root, root_path, "format", [&](const json& v, const JsonPath& p) {
        return fields_.string(v, p);
    });
    if (!fields_.failed() && format != "DASH")
        fields_.fail(root_path / "format", fmt::format("\"{}\" is not \"DASH\"", format));
    if (const json* version = fields_.member(root, root_path, "version")) {
        std::string text = version->is_number() ? version->dump()
                                                : fields_.string(*version, root_path / "version");
        if (!fields_.failed() && text != "1.5")
            fields_.fail(root_path / "version", fmt::format("version {} is not 1.5", text));
    }
    section(
        root, {"textures"}, model.textures,
        [&](const json& o, const JsonPath& p, std::size_t i, Texture& t) { texture(o, p, i, t); });
    section(root, {"materials"}, model.materials,
            [&](const json& o, const JsonPath& p, std::size_t i, Material& m) {
                material(o, p, i, m);
            });
    // "verterices" is the spec's spelling; "vertices" the intended one (docs/dmf.md, choice 10).
    section(root, {"vertices", "verterices"}, model.vertices,
            [&](const json& o, const JsonPath& p, std::size_t, Vertex& v) { vertex(o, p, v); });
    section(root, {"faces"}, model.faces,
            [&](const json& o, const JsonPath& p, std::size_t, Face& f) { face(o, p, f); });
    section(root, {"skeleton"}, model.bones,
            [&](const json& o, const JsonPath& p, std::size_t i, Bone& b) { bone(o, p, i, b); });
    section(root, {"animations"}, model.animations,
            [&](const json& o, const JsonPath& p, std::size_t i, Animation& a) {
                animation(o, p, i, a);
            });
    if (fields_.failed()) return make_error(fields_.take_error());
    return model;
}

}  // namespace

Expected<Model> read_json(std::string_view text, const std::string& file, Diagnostics&) {
    json root;
    try {
        root = json::parse(text.begin(), text.end());
    } catch (const json::parse_error& e) {
        // std::string(1, '$'): the literal "$" trips GCC 12's -Wrestrict false positive at -O3.
        return make_error(formats::diagnostic_at(file, e.byte > 0 ? e.byte - 1 : 0,
                                                 std::string(1, '$'),
                                                 fmt::format("not JSON: {}", e.what())));
    }
    auto model = Reader(file).read(root);
    if (!model) return model;
    if (auto ok = check_references(*model, file, true); !ok) return make_error(ok.error());
    return model;
}

Expected<Model> open_json(const std::filesystem::path& path, Diagnostics& warnings) {
    auto mapped = platform::map_file(path);
    if (!mapped) return make_error(mapped.error());
    cast::Bytes bytes = (*mapped)->bytes();
    return read_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                     platform::utf8_of(path), warnings);
}

}  // namespace castkit::dmf

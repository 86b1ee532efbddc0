// The DMF JSON reader: simdjson's On-Demand API over the text, filling the model as values stream
// by (no DOM of the whole file), in windows of whole elements where it can (see "Reading in
// windows") and in one pass over the whole text where they give up. Every value is checked for
// its type as it is taken; every error names the byte offset and the JSON path
// ("$.faces[3].indices[1]").
#include "json_reader.hpp"

#include <fmt/format.h>
#include <simdjson.h>

#include <algorithm>
#include <atomic>
#include <castkit/formats/dmf.hpp>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <thread>

#include "../../json/path.hpp"
#include "../../platform/platform.hpp"
#include "../../std_compat.hpp"
#include "../common/ordered_chunks.hpp"
#include "io/base64.hpp"
#include "io/binary_io.hpp"
#include "json_names.hpp"
#include "shared.hpp"

namespace castkit::dmf {
namespace {

namespace od = simdjson::ondemand;

// Where the reader is, named in errors as a JSON path ("$.faces[3].indices[1]").
using JsonPath = castkit::json::Path;

// The first error; thrown from deep inside the walk and caught by read_json, which is the only
// place an exception can leave (none leaves the library).
struct JsonError {
    std::uint64_t offset;
    std::string path;
    std::string message;
};

const char* type_name(od::json_type type) {
    switch (type) {
        case od::json_type::array:
            return "array";
        case od::json_type::object:
            return "object";
        case od::json_type::number:
            return "number";
        case od::json_type::string:
            return "string";
        case od::json_type::boolean:
            return "boolean";
        default:
            return "null";
    }
}

// The form castkit writes, "rgba(255, 128, 0, 0.502)", read without sscanf (a face has three,
// and sscanf was most of the reader's time); nullopt for any other text, which parse_rgba then
// reads with sscanf. Accepts nothing sscanf would read differently.
std::optional<glm::u8vec4> parse_canonical_rgba(std::string_view text) {
    constexpr std::string_view kOpen = "rgba(";
    if (text.substr(0, kOpen.size()) != kOpen || text.empty() || text.back() != ')')
        return std::nullopt;
    const char* at = text.data() + kOpen.size();
    const char* end = text.data() + text.size() - 1;
    glm::u8vec4 out;
    for (int i = 0; i < 3; ++i) {
        unsigned byte = 256;
        auto [next, error] = std::from_chars(at, end, byte);
        if (error != std::errc() || byte > 255 || end - next < 2 || next[0] != ',' ||
            next[1] != ' ')
            return std::nullopt;
        out[i] = static_cast<std::uint8_t>(byte);
        at = next + 2;
    }
    if (at == end || !std::isdigit(static_cast<unsigned char>(*at))) return std::nullopt;
    if (end - at == 1 && (*at == '0' || *at == '1')) {  // nearly every alpha: no float to parse
        out[3] = *at == '1' ? 255 : 0;
        return out;
    }
    float alpha = -1;
    auto [next, error] = compat::from_chars(at, end, alpha);
    if (error != std::errc() || next != end || !(alpha >= 0 && alpha <= 1)) return std::nullopt;
    out[3] = static_cast<std::uint8_t>(std::lround(alpha * 255.0f));
    return out;
}

// "rgba(255, 128, 0, 0.5)" (or "rgb(…)"): bytes with alpha 0..1 scaled to 0..255.
std::optional<glm::u8vec4> parse_rgba(std::string_view text) {
    if (auto canonical = parse_canonical_rgba(text)) return canonical;
    char buffer[64];
    if (text.size() >= sizeof buffer) return std::nullopt;
    std::memcpy(buffer, text.data(), text.size());
    buffer[text.size()] = '\0';
    float v[4] = {0, 0, 0, 1};
    int parsed = 0;
    char close = 0;
    if (std::sscanf(buffer, "rgba(%f ,%f ,%f ,%f %c", &v[0], &v[1], &v[2], &v[3], &close) == 5 &&
        close == ')')
        parsed = 4;
    else if (std::sscanf(buffer, "rgb(%f ,%f ,%f %c", &v[0], &v[1], &v[2], &close) == 4 &&
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

// A JSON string's text read where it lies, `raw` being the byte after its opening quote: nullopt
// when it holds an escape, which only simdjson's unescaping (a copy) can read. Saves the copy
// for nearly every key and string of a file, and the memory the copies would fill. The text was
// validated by simdjson's first pass, so the closing quote is there. O(length).
std::optional<std::string_view> unescaped_in_place(const char* raw) {
    for (const char* at = raw;; ++at) {
        if (*at == '"') return std::string_view(raw, static_cast<std::size_t>(at - raw));
        if (*at == '\\') return std::nullopt;
    }
}

// An object member's key, in place when it has no escape.
std::string_view key_of(simdjson::simdjson_result<od::field>& member) {
    const od::raw_json_string key = member.key();
    if (auto text = unescaped_in_place(key.raw())) return *text;
    return member.unescaped_key();
}

// Keys seen in one object, so that a duplicate is an error and a missing required key is found
// once the object ends. Up to 32 keys per object kind.
class Keys {
  public:
    // Marks key number `bit` seen; an error if it was already.
    void see(unsigned bit, std::uint64_t offset, const JsonPath& path, std::string_view key) {
        if (seen_ & (1u << bit))
            throw JsonError{offset, path.json_path(), fmt::format("key \"{}\" appears twice", key)};
        seen_ |= 1u << bit;
    }
    bool has(unsigned bit) const { return (seen_ & (1u << bit)) != 0; }

  private:
    std::uint32_t seen_ = 0;
};

// Thrown inside Reader::read_in_windows when the text is not in the shape that path reads: the
// caller reads the whole document instead, whose error (or result) is then the answer.
struct NotWindowed {};

// Where reading a section's elements stopped: past the section's ']', or at the offset it was to
// stop at (`at_stop`).
struct ElementsRead {
    std::size_t next = 0;
    bool at_stop = false;
};
constexpr std::size_t kNoStop = std::numeric_limits<std::size_t>::max();

// A section's elements from a guessed element start to its end, read on a second thread.
template <class Element>
struct SecondPart {
    std::vector<Element> elements;
    std::size_t end = 0;  // past the section's ']'
    bool read = false;    // false: it gave up, and the first thread reads them instead
};

// Where reading a window stopped.
struct WindowRead {
    enum Ended {
        kFirstFailed,   // its first element failed (or simdjson refused the window): nothing read
        kCut,           // an element after the first failed; `next` is that element's start
        kWhole,         // every element up to the window's end was read; `next` is that end
        kSectionEnded,  // the section's ']' is in the window; `next` is the token after it
    } ended;
    std::size_t next;
};

class Reader {
  public:
    Reader(std::string_view text, formats::Threads threads)
        : text_(text), base_(text.data()), threads_(threads) {}
    Model read(od::document& document);
    std::optional<Model> read_in_windows();
    // File offsets of the six section arrays (textures … animations), for reference errors.
    std::uint64_t section_offsets[6] = {0, 0, 0, 0, 0, 0};

  private:
    // Gives back the pages of a mapped text more than 1 MiB behind `at`, at least 1 MiB at a
    // time: the walk never returns to them, and simdjson's first pass has touched them all, so
    // without this the whole text stays resident beside simdjson's index and the model. Does
    // nothing when the text is not a file mapping (platform::release_pages).
    void release_before(std::uint64_t at) {
        constexpr std::uint64_t kStep = std::uint64_t{1} << 20;
        if (at < released_ + 2 * kStep) return;
        const std::string_view passed = text_.substr(released_, at - kStep - released_);
        platform::release_pages(std::as_bytes(std::span(passed)));
        released_ = at - kStep;
    }
    // The file offset of a value; in a window, its offset there plus where the window's bytes
    // begin in the file.
    std::uint64_t offset(od::value& value) {
        std::string_view token = value.raw_json_token();
        return static_cast<std::uint64_t>(token.data() - base_) + window_start_;
    }
    [[noreturn]] void fail(std::uint64_t at, const JsonPath& path, std::string message) {
        throw JsonError{at, path.json_path(), std::move(message)};
    }
    void expect(od::value& value, const JsonPath& path, od::json_type type) {
        od::json_type found = value.type();
        if (found != type)
            fail(offset(value), path,
                 fmt::format(
                     "expected {} {}, found {}",
                     type == od::json_type::array || type == od::json_type::object ? "an" : "a",
                     type_name(type), type_name(found)));
    }
    void missing(std::uint64_t at, const JsonPath& path, std::string_view key) {
        fail(at, path, fmt::format("missing key \"{}\"", key));
    }

    double number(od::value& value, const JsonPath& path) {
        // The type is asked only when the number fails: nearly every value of a file is one.
        double v = 0;
        if (value.get_double().get(v) == simdjson::SUCCESS) return v;
        expect(value, path, od::json_type::number);
        return value.get_double();  // throws the number's own error
    }
    float real(od::value& value, const JsonPath& path) {
        const std::uint64_t at = offset(value);
        double v = number(value, path);
        if (std::isfinite(v) && std::abs(v) > std::numeric_limits<float>::max())
            fail(at, path, fmt::format("{} does not fit a 32-bit float", v));
        return static_cast<float>(v);
    }
    // An integer within [lo, hi] (a float with no fraction counts).
    std::int64_t integer(od::value& value, const JsonPath& path, std::int64_t lo, std::int64_t hi) {
        const std::uint64_t at = offset(value);
        std::string_view token = value.raw_json_token();  // for errors; taken before it is read
        double v = 0;
        if (value.get_double().get(v) != simdjson::SUCCESS) {
            od::json_type type = value.type();
            if (type != od::json_type::number)
                fail(at, path, fmt::format("expected an integer, found {}", type_name(type)));
            v = value.get_double();  // throws the number's own error
        }
        if (std::trunc(v) == v && v >= static_cast<double>(lo) && v <= static_cast<double>(hi))
            return static_cast<std::int64_t>(v);
        while (!token.empty() && std::isspace(static_cast<unsigned char>(token.back())))
            token.remove_suffix(1);
        if (std::trunc(v) != v) fail(at, path, fmt::format("expected an integer, found {}", token));
        fail(at, path, fmt::format("{} is outside {}..{}", token, lo, hi));
    }
    // true/false, or 0/1 as numbers.
    std::uint16_t boolean(od::value& value, const JsonPath& path) {
        od::json_type type = value.type();
        if (type == od::json_type::boolean) return bool(value.get_bool()) ? 1 : 0;
        if (type == od::json_type::number)
            return static_cast<std::uint16_t>(integer(value, path, 0, 0xFFFF));
        fail(offset(value), path, fmt::format("expected a boolean, found {}", type_name(type)));
    }
    std::string_view string(od::value& value, const JsonPath& path) {
        expect(value, path, od::json_type::string);
        // Read in place, the value is left unconsumed, and the walk steps over it.
        if (auto text = unescaped_in_place(value.raw_json_token().data() + 1)) return *text;
        return value.get_string();
    }
    // A name from the list (its index), or the raw u16 value.
    template <std::size_t N>
    std::uint16_t enumeration(od::value& value, const JsonPath& path,
                              const std::array<std::string_view, N>& names) {
        od::json_type type = value.type();
        if (type == od::json_type::number)
            return static_cast<std::uint16_t>(integer(value, path, 0, 0xFFFF));
        if (type != od::json_type::string)
            fail(offset(value), path,
                 fmt::format("expected a string or an integer, found {}", type_name(type)));
        const std::uint64_t at = offset(value);
        std::string_view text = string(value, path);
        for (std::size_t i = 0; i < N; ++i)
            if (names[i] == text) return static_cast<std::uint16_t>(i);
        fail(at, path, fmt::format("\"{}\" is not one of {}", text, fmt::join(names, ", ")));
    }
    // Calls `each(value, index)` for every element of an array of exactly `n` elements (any
    // number when n is 0).
    template <class Each>
    void array(od::value& value, const JsonPath& path, std::size_t n, Each each) {
        const std::uint64_t at = offset(value);
        expect(value, path, od::json_type::array);
        std::size_t count = 0;
        for (auto element : value.get_array()) {
            od::value item = element.value();
            if (n == 0 || count < n) each(item, count);
            ++count;
        }
        if (n != 0 && count != n)
            fail(at, path, fmt::format("expected {} elements, found {}", n, count));
    }
    template <int N>
    glm::vec<N, float> floats(od::value& value, const JsonPath& path) {
        glm::vec<N, float> out(0.0f);
        array(value, path, N,
              [&](od::value& x, std::size_t i) { out[static_cast<int>(i)] = real(x, path[i]); });
        return out;
    }
    std::string name(od::value& value, const JsonPath& path) {
        const std::uint64_t at = offset(value);
        std::string_view text = string(value, path);
        if (text.size() > 32) fail(at, path, "names hold at most 32 bytes");
        return std::string(text);
    }
    std::int16_t id(od::value& value, const JsonPath& path) {
        return static_cast<std::int16_t>(integer(value, path, -32768, 32767));
    }

    // Calls `field(key, value, keys)` for every member of the object `value`; returns the
    // object's offset for missing-key errors.
    template <class Field>
    std::uint64_t object(od::value& value, const JsonPath& path, Field field) {
        const std::uint64_t at = offset(value);
        expect(value, path, od::json_type::object);
        for (auto member : value.get_object()) {
            std::string_view key = key_of(member);
            field(key, od::value(member.value()));
        }
        return at;
    }

    void texture(od::value& value, const JsonPath& path, std::size_t index, Texture& t);
    void material(od::value& value, const JsonPath& path, std::size_t index, Material& m);
    void vertex(od::value& value, const JsonPath& path, Vertex& v);
    void face(od::value& value, const JsonPath& path, Face& f);
    void bone(od::value& value, const JsonPath& path, std::size_t index, Bone& b);
    void animation(od::value& value, const JsonPath& path, std::size_t index, Animation& a);
    void track(od::value& value, const JsonPath& path, Track& t);

    char peek(std::size_t at) const { return at < text_.size() ? text_[at] : '\0'; }
    std::size_t skip_space(std::size_t at) const;
    std::string_view plain_key(std::size_t& at) const;
    template <class Visit>
    bool with_section(std::string_view key, Model& model, Visit visit);
    template <class Element, class Parse>
    bool read_element(od::value& value, const JsonPath& path, std::vector<Element>& out,
                      Parse& parse);
    template <class Element, class Parse>
    WindowRead read_window(std::size_t at, std::size_t end, const JsonPath& path,
                           std::vector<Element>& out, Parse& parse);
    std::size_t windowed_member(std::string_view key, std::size_t at, const JsonPath& root,
                                Keys& keys, Model& model);
    template <class Element, class Parse>
    ElementsRead read_elements(std::size_t at, std::size_t stop, std::size_t largest,
                               const JsonPath& path, std::vector<Element>& out, Parse& parse,
                               const std::atomic<bool>* cancelled);
    template <class Element>
    void reserve_elements(std::size_t which, std::size_t at, std::vector<Element>& out) const;
    std::size_t split_guess(std::size_t at) const;
    template <class Element, class Parse>
    SecondPart<Element> read_second_part(std::size_t which, std::size_t split, const JsonPath& path,
                                         Parse& parse, const std::atomic<bool>& cancelled) const;
    template <class Element, class Parse>
    std::size_t read_in_two(std::size_t which, std::size_t at, std::size_t split,
                            const JsonPath& path, std::vector<Element>& out, Parse& parse);
    template <class Element, class Parse>
    std::size_t windowed_section(std::size_t at, const JsonPath& path, std::size_t which,
                                 std::vector<Element>& out, Parse parse);
    std::string_view load_window(std::size_t at, std::size_t end);

    std::string_view text_;
    const char* base_;
    formats::Threads threads_;
    std::size_t window_start_ = 0;  // 0, or where the current window's bytes lie in the text
    std::uint64_t released_ = 0;
    std::vector<char> window_;  // '[', whole elements copied from the text, ']', padding
    od::parser window_parser_;
};

void Reader::texture(od::value& value, const JsonPath& path, std::size_t index, Texture& t) {
    Keys keys;
    t.id = static_cast<std::int16_t>(index);
    auto u16 = [&](od::value& v, const JsonPath& p) {
        return static_cast<std::uint16_t>(integer(v, p, 0, 0xFFFF));
    };
    const std::uint64_t at = object(value, path, [&](std::string_view key, od::value v) {
        const std::uint64_t where = offset(v);
        if (key == "name") {
            keys.see(0, where, path, key);
            t.name = name(v, path / "name");
        } else if (key == "id") {
            keys.see(1, where, path, key);
            t.id = id(v, path / "id");
        } else if (key == "flip_y") {
            keys.see(2, where, path, key);
            t.flip_y = boolean(v, path / "flip_y");
        } else if (key == "img") {
            keys.see(3, where, path, key);
            std::string_view uri = string(v, path / "img");
            std::size_t comma = uri.find(',');
            if (uri.rfind("data:", 0) != 0 || comma == std::string_view::npos ||
                uri.substr(0, comma).find(";base64") == std::string_view::npos)
                fail(where, path / "img", "expected a data:image/png;base64, URI");
            auto png = formats::base64_decode(uri.substr(comma + 1));
            if (!png) fail(where, path / "img", "the base64 image data is malformed");
            t.png = std::move(*png);
        } else if (key == "width") {
            keys.see(4, where, path, key);
            t.width = u16(v, path / "width");
        } else if (key == "height") {
            keys.see(5, where, path, key);
            t.height = u16(v, path / "height");
        } else if (key == "wrap_s") {
            keys.see(6, where, path, key);
            t.wrap_s = enumeration(v, path / "wrap_s", json_names::kWrap);
        } else if (key == "wrap_t") {
            keys.see(7, where, path, key);
            t.wrap_t = enumeration(v, path / "wrap_t", json_names::kWrap);
        }
    });
    const std::pair<unsigned, const char*> required[] = {
        {0, "name"}, {3, "img"}, {4, "width"}, {5, "height"}, {6, "wrap_s"}, {7, "wrap_t"}};
    for (const auto& [bit, key] : required)
        if (!keys.has(bit)) missing(at, path, key);
}

void Reader::material(od::value& value, const JsonPath& path, std::size_t index, Material& m) {
    static constexpr const char* kFlags[] = {"use_blending", "skinning",  "ignore_lights",
                                             "vertex_color", "use_alpha", "skip_render"};
    std::uint16_t* flags[] = {&m.use_blending, &m.skinning,  &m.ignore_lights,
                              &m.vertex_color, &m.use_alpha, &m.skip_render};
    Keys keys;
    m.id = static_cast<std::int16_t>(index);
    const std::uint64_t at = object(value, path, [&](std::string_view key, od::value v) {
        const std::uint64_t where = offset(v);
        if (key == "name") {
            keys.see(0, where, path, key);
            m.name = name(v, path / "name");
        } else if (key == "id") {
            keys.see(1, where, path, key);
            m.id = id(v, path / "id");
        } else if (key == "texture") {
            keys.see(2, where, path, key);
            m.texture = static_cast<std::int16_t>(integer(v, path / "texture", -1, 32767));
        } else if (key == "blend_equation") {
            keys.see(3, where, path, key);
            m.blend_equation = enumeration(v, path / "blend_equation", json_names::kBlendEquation);
        } else if (key == "blend_src") {
            keys.see(4, where, path, key);
            m.blend_src = enumeration(v, path / "blend_src", json_names::kBlendFactor);
        } else if (key == "blend_dst") {
            keys.see(5, where, path, key);
            m.blend_dst = enumeration(v, path / "blend_dst", json_names::kBlendFactor);
        } else if (key == "shader_type") {
            keys.see(6, where, path, key);
            m.shader_type = enumeration(v, path / "shader_type", json_names::kShaderType);
        } else if (key == "face_side") {
            keys.see(7, where, path, key);
            m.face_side = enumeration(v, path / "face_side", json_names::kSide);
        } else if (key == "shadow_side") {
            keys.see(8, where, path, key);
            m.shadow_side = enumeration(v, path / "shadow_side", json_names::kSide);
        } else if (key == "alpha_test") {
            keys.see(9, where, path, key);
            m.alpha_test = real(v, path / "alpha_test");
        } else if (key == "diffuse") {
            keys.see(10, where, path, key);
            m.diffuse = floats<4>(v, path / "diffuse");
        } else if (key == "emissive") {
            keys.see(11, where, path, key);
            m.emissive = floats<4>(v, path / "emissive");
        } else if (key == "specular") {
            keys.see(12, where, path, key);
            m.specular = floats<4>(v, path / "specular");
        } else {
            for (unsigned i = 0; i < 6; ++i)
                if (key == kFlags[i]) {
                    keys.see(13 + i, where, path, key);
                    *flags[i] = boolean(v, path / kFlags[i]);
                }
        }
    });
    const std::pair<unsigned, const char*> required[] = {
        {0, "name"}, {10, "diffuse"}, {11, "emissive"}, {12, "specular"}};
    for (const auto& [bit, key] : required)
        if (!keys.has(bit)) missing(at, path, key);
}

void Reader::vertex(od::value& value, const JsonPath& path, Vertex& vertex) {
    Keys keys;
    const std::uint64_t at = object(value, path, [&](std::string_view key, od::value v) {
        const std::uint64_t where = offset(v);
        if (key == "pos") {
            keys.see(0, where, path, key);
            vertex.position = floats<3>(v, path / "pos");
        } else if (key == "skin_index") {
            keys.see(1, where, path, key);
            JsonPath p = path / "skin_index";
            array(v, p, 4, [&](od::value& x, std::size_t k) {
                vertex.skin_index[k] = static_cast<std::int16_t>(integer(x, p[k], -1, 32767));
            });
        } else if (key == "skin_weight") {
            keys.see(2, where, path, key);
            vertex.skin_weight = floats<4>(v, path / "skin_weight");
        }
    });
    const std::pair<unsigned, const char*> required[] = {
        {0, "pos"}, {1, "skin_index"}, {2, "skin_weight"}};
    for (const auto& [bit, key] : required)
        if (!keys.has(bit)) missing(at, path, key);
}

void Reader::face(od::value& value, const JsonPath& path, Face& f) {
    Keys keys;
    const std::uint64_t at = object(value, path, [&](std::string_view key, od::value v) {
        const std::uint64_t where = offset(v);
        if (key == "material") {
            keys.see(0, where, path, key);
            f.material = static_cast<std::uint16_t>(integer(v, path / "material", 0, 0xFFFF));
        } else if (key == "indices") {
            keys.see(1, where, path, key);
            JsonPath p = path / "indices";
            array(v, p, 3, [&](od::value& x, std::size_t k) {
                f.indices[k] = static_cast<std::uint32_t>(integer(x, p[k], 0, 0xFFFFFFFF));
            });
        } else if (key == "vertex_color" || key == "verex_color") {
            // The spec spells it "verex_color"; either is read (docs/dmf.md, choice 10).
            keys.see(2, where, path, key);
            JsonPath p = path / (key == "vertex_color" ? "vertex_color" : "verex_color");
            array(v, p, 3, [&](od::value& x, std::size_t k) {
                JsonPath element = p[k];
                const std::uint64_t here = offset(x);
                std::string_view text = string(x, element);
                auto rgba = parse_rgba(text);
                if (!rgba)
                    fail(here, element,
                         fmt::format(
                             "\"{}\" is not rgba(r, g, b, a) with r, g, b in 0..255 and a in 0..1",
                             text));
                f.colors[k] = *rgba;
            });
        } else if (key == "normals") {
            keys.see(3, where, path, key);
            JsonPath p = path / "normals";
            array(v, p, 3, [&](od::value& x, std::size_t k) { f.normals[k] = floats<3>(x, p[k]); });
        } else if (key == "diffuse_uv") {
            keys.see(4, where, path, key);
            JsonPath p = path / "diffuse_uv";
            array(v, p, 3, [&](od::value& x, std::size_t k) { f.uvs[k] = floats<2>(x, p[k]); });
        }
    });
    const std::pair<unsigned, const char*> required[] = {
        {0, "material"}, {1, "indices"}, {2, "vertex_color"}, {3, "normals"}, {4, "diffuse_uv"}};
    for (const auto& [bit, key] : required)
        if (!keys.has(bit)) missing(at, path, key);
}

void Reader::bone(od::value& value, const JsonPath& path, std::size_t index, Bone& b) {
    Keys keys;
    b.id = static_cast<std::int16_t>(index);
    const std::uint64_t at = object(value, path, [&](std::string_view key, od::value v) {
        const std::uint64_t where = offset(v);
        if (key == "name") {
            keys.see(0, where, path, key);
            b.name = name(v, path / "name");
        } else if (key == "id") {
            keys.see(1, where, path, key);
            b.id = id(v, path / "id");
        } else if (key == "parent_id") {
            keys.see(2, where, path, key);
            b.parent = static_cast<std::int16_t>(integer(v, path / "parent_id", -1, 32767));
        } else if (key == "matrix") {
            keys.see(3, where, path, key);
            JsonPath p = path / "matrix";
            array(v, p, 16, [&](od::value& x, std::size_t k) {
                b.matrix[static_cast<int>(k / 4)][static_cast<int>(k % 4)] = real(x, p[k]);
            });
        }
    });
    const std::pair<unsigned, const char*> required[] = {
        {0, "name"}, {2, "parent_id"}, {3, "matrix"}};
    for (const auto& [bit, key] : required)
        if (!keys.has(bit)) missing(at, path, key);
}

void Reader::track(od::value& value, const JsonPath& path, Track& t) {
    Keys keys;
    const std::uint64_t at = object(value, path, [&](std::string_view key, od::value v) {
        const std::uint64_t where = offset(v);
        if (key == "bone_id") {
            keys.see(0, where, path, key);
            t.bone = static_cast<std::int16_t>(integer(v, path / "bone_id", 0, 32767));
        } else if (key == "time") {
            keys.see(1, where, path, key);
            t.time = real(v, path / "time");
        } else if (key == "pos") {
            keys.see(2, where, path, key);
            t.position = floats<3>(v, path / "pos");
            t.flags |= kPosition;
        } else if (key == "rot") {
            keys.see(3, where, path, key);
            t.rotation = floats<4>(v, path / "rot");
            t.flags |= kRotation;
        } else if (key == "scl") {
            keys.see(4, where, path, key);
            t.scale = floats<3>(v, path / "scl");
            t.flags |= kScale;
        }
    });
    if (!keys.has(0)) missing(at, path, "bone_id");
    if (!keys.has(1)) missing(at, path, "time");
    if (t.flags == 0) fail(at, path, "a track needs at least one of \"pos\", \"rot\", \"scl\"");
}

void Reader::animation(od::value& value, const JsonPath& path, std::size_t index, Animation& a) {
    Keys keys;
    a.id = static_cast<std::int16_t>(index);
    const std::uint64_t at = object(value, path, [&](std::string_view key, od::value v) {
        const std::uint64_t where = offset(v);
        if (key == "name") {
            keys.see(0, where, path, key);
            a.name = name(v, path / "name");
        } else if (key == "id") {
            keys.see(1, where, path, key);
            a.id = id(v, path / "id");
        } else if (key == "fps") {
            keys.see(2, where, path, key);
            a.fps = static_cast<std::uint16_t>(integer(v, path / "fps", 0, 0xFFFF));
        } else if (key == "duration") {
            keys.see(3, where, path, key);
            a.duration = real(v, path / "duration");
        } else if (key == "tracks") {
            keys.see(4, where, path, key);
            JsonPath p = path / "tracks";
            array(v, p, 0, [&](od::value& x, std::size_t k) {
                a.tracks.emplace_back();
                track(x, p[k], a.tracks.back());
            });
        }
    });
    const std::pair<unsigned, const char*> required[] = {
        {0, "name"}, {2, "fps"}, {3, "duration"}, {4, "tracks"}};
    for (const auto& [bit, key] : required)
        if (!keys.has(bit)) missing(at, path, key);
}

// Calls `visit(which, name, elements, parse)` for the section `key` names: `which` its index in
// section_offsets, `name` its key as written, `parse(reader, value, path, index, element)` its
// element reader. False for a key that names no section.
template <class Visit>
bool Reader::with_section(std::string_view key, Model& model, Visit visit) {
    if (key == "textures") {
        visit(0, "textures", model.textures,
              [](Reader& r, od::value& x, const JsonPath& p, std::size_t i, Texture& t) {
                  r.texture(x, p, i, t);
              });
    } else if (key == "materials") {
        visit(1, "materials", model.materials,
              [](Reader& r, od::value& x, const JsonPath& p, std::size_t i, Material& m) {
                  r.material(x, p, i, m);
              });
    } else if (key == "vertices" || key == "verterices") {
        // "verterices" is the spec's spelling; "vertices" the intended one (docs/dmf.md,
        // choice 10).
        visit(2, key == "vertices" ? "vertices" : "verterices", model.vertices,
              [](Reader& r, od::value& x, const JsonPath& p, std::size_t, Vertex& v) {
                  r.vertex(x, p, v);
              });
    } else if (key == "faces") {
        visit(3, "faces", model.faces,
              [](Reader& r, od::value& x, const JsonPath& p, std::size_t, Face& f) {
                  r.face(x, p, f);
              });
    } else if (key == "skeleton") {
        visit(4, "skeleton", model.bones,
              [](Reader& r, od::value& x, const JsonPath& p, std::size_t i, Bone& b) {
                  r.bone(x, p, i, b);
              });
    } else if (key == "animations") {
        visit(5, "animations", model.animations,
              [](Reader& r, od::value& x, const JsonPath& p, std::size_t i, Animation& a) {
                  r.animation(x, p, i, a);
              });
    } else {
        return false;
    }
    return true;
}

Model Reader::read(od::document& document) {
    const JsonPath root;
    {
        od::json_type type = document.type();
        if (type != od::json_type::object)
            throw JsonError{0, root.json_path(),
                            fmt::format("expected an object, found {}", type_name(type))};
    }
    Model model;
    Keys keys;
    // Calls `parse(value, path, index, element)` for each element of a section array.
    auto section = [&](od::value& v, std::string_view key, std::size_t which, auto& out,
                       auto parse) {
        section_offsets[which] = offset(v);
        JsonPath path = root / key;
        array(v, path, 0, [&](od::value& x, std::size_t i) {
            release_before(offset(x));
            out.emplace_back();
            parse(*this, x, path[i], i, out.back());
        });
    };
    for (auto member : document.get_object()) {
        std::string_view key = key_of(member);
        od::value v = member.value();
        const std::uint64_t where = offset(v);
        if (key == "format") {
            keys.see(0, where, root, key);
            std::string_view format = string(v, root / "format");
            if (format != "DASH")
                fail(where, root / "format", fmt::format("\"{}\" is not \"DASH\"", format));
        } else if (key == "version") {
            keys.see(1, where, root, key);
            std::string_view text;
            if (v.type() == od::json_type::number) {
                text = v.raw_json_token();
                while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back())))
                    text.remove_suffix(1);
            } else {
                text = string(v, root / "version");
            }
            if (text != "1.5")
                fail(where, root / "version", fmt::format("version {} is not 1.5", text));
        } else {
            with_section(key, model,
                         [&](std::size_t which, const char* name, auto& out, auto parse) {
                             keys.see(static_cast<unsigned>(2 + which), where, root, key);
                             section(v, name, which, out, parse);
                         });
        }
    }
    if (auto rest = document.current_location(); !rest.error())  // an error means at the end
        throw JsonError{static_cast<std::uint64_t>(rest.value_unsafe() - base_), root.json_path(),
                        "not JSON: content after the top-level object"};
    if (!keys.has(0)) missing(0, root, "format");
    if (!keys.has(1)) missing(0, root, "version");
    return model;
}

// Reading in windows. simdjson's index of a whole text takes 4 bytes per structural character
// (about 1.5 times a DMF JSON file, every page of it faulted in and written once); a window's
// index is reused, and stays in the cache. A window is the text's bytes from the start of an
// element to the last '}' within a bounded length, copied between '[' and ']', and walked by the
// same element readers as the whole document. It is kept only up to the end of the last element
// read whole in it: the walk decides the same on the same bytes (simdjson's index of a byte
// depends only on the bytes before it, and an element begins outside any string), so a window
// cut through an element is noticed when that element fails, and read again from its start in
// the next window. A first element that fails in a window as long as allowed, and anything the
// windows do not expect (an unknown top-level key, an escape in a key, a byte the scan does not
// know), end this path with NotWindowed; the caller then reads the whole document in one pass,
// whose result or error is the answer. O(text size) both ways: a window either reads an element
// or doubles, and starts again at the first element it did not read.
constexpr std::size_t kWindowBytes = std::size_t{64} << 10;    // text and index stay in L2
constexpr std::size_t kLargestWindow = std::size_t{64} << 20;  // then the one pass reads it

bool is_json_space(char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; }

std::size_t Reader::skip_space(std::size_t at) const {
    while (at < text_.size() && is_json_space(text_[at])) ++at;
    return at;
}

// A key of lowercase letters and '_' at `at` (its opening quote); `at` moves past its closing
// quote. Every key DMF JSON names has only these.
std::string_view Reader::plain_key(std::size_t& at) const {
    if (peek(at) != '"') throw NotWindowed{};
    const std::size_t begin = at + 1;
    std::size_t end = begin;
    while (end < text_.size() && ((text_[end] >= 'a' && text_[end] <= 'z') || text_[end] == '_'))
        ++end;
    if (peek(end) != '"') throw NotWindowed{};
    at = end + 1;
    return text_.substr(begin, end - begin);
}

// Copies text [at, end) into the window between '[' and ']', and makes offsets count from `at`.
std::string_view Reader::load_window(std::size_t at, std::size_t end) {
    const std::size_t length = end - at + 2;
    if (window_.size() < length + simdjson::SIMDJSON_PADDING)
        window_.resize(length + simdjson::SIMDJSON_PADDING);
    window_[0] = '[';
    std::memcpy(window_.data() + 1, text_.data() + at, end - at);
    window_[length - 1] = ']';
    // Zeros after the end, as after a padded string: a longer window's bytes left there would
    // be read by simdjson as what follows the text.
    std::memset(window_.data() + length, 0, simdjson::SIMDJSON_PADDING);
    base_ = window_.data();
    window_start_ = at - 1;
    return std::string_view(window_.data(), length);
}

// Reads one element from a window into a new last entry of `out`; false, with the entry taken
// back, when it fails (an error, or the window ends inside it).
template <class Element, class Parse>
bool Reader::read_element(od::value& value, const JsonPath& path, std::vector<Element>& out,
                          Parse& parse) {
    const std::size_t start = offset(value);
    const std::size_t index = out.size();
    out.emplace_back();
    try {
        release_before(start);
        parse(*this, value, path[index], index, out.back());
        return true;
    } catch (const JsonError&) {
    } catch (const simdjson::simdjson_error&) {
    }
    out.pop_back();
    return false;
}

// Reads the elements of the window holding text [at, end) (`at` an element's '{', `end` past a
// '}'); see WindowRead for where it stops.
template <class Element, class Parse>
WindowRead Reader::read_window(std::size_t at, std::size_t end, const JsonPath& path,
                               std::vector<Element>& out, Parse& parse) {
    const std::string_view window = load_window(at, end);
    od::document document;
    if (window_parser_
            .iterate(simdjson::padded_string_view(window.data(), window.size(), window_.size()))
            .get(document) != simdjson::SUCCESS)
        return {WindowRead::kFirstFailed, at};
    bool first = true;
    for (auto element : document.get_array()) {
        od::value value = element.value();
        const std::size_t start = offset(value);
        if (!read_element(value, path, out, parse))
            return {first ? WindowRead::kFirstFailed : WindowRead::kCut, start};
        first = false;
    }
    // After the array, simdjson stands on the token after its ']': the window's end, or the
    // text after the section's own ']'.
    auto location = document.current_location();
    if (location.error()) return {WindowRead::kWhole, end};
    return {WindowRead::kSectionEnded,
            static_cast<std::size_t>(location.value_unsafe() - base_) + window_start_};
}

// Reads the elements from `at` (an element's '{') to the end of their section, window by window,
// no window longer than `largest`; or only up to `stop`, when an element starts there (no window
// reaches past it). Gives up when `cancelled` is set.
template <class Element, class Parse>
ElementsRead Reader::read_elements(std::size_t at, std::size_t stop, std::size_t largest,
                                   const JsonPath& path, std::vector<Element>& out, Parse& parse,
                                   const std::atomic<bool>* cancelled) {
    std::size_t length = kWindowBytes;
    while (true) {
        if (at == stop) return {at, true};
        if (at > stop) stop = kNoStop;
        if (cancelled != nullptr && cancelled->load(std::memory_order_relaxed)) throw NotWindowed{};
        if (peek(at) != '{') throw NotWindowed{};
        const std::size_t room = std::min(text_.size(), stop) - at;
        const std::size_t limit = std::min(room, length);
        const std::size_t last_brace = text_.substr(at, limit).rfind('}');
        const WindowRead read = last_brace == std::string_view::npos
                                    ? WindowRead{WindowRead::kFirstFailed, at}
                                    : read_window(at, at + last_brace + 1, path, out, parse);
        switch (read.ended) {
            case WindowRead::kFirstFailed:
                if (limit == room && stop < text_.size()) {
                    stop = kNoStop;  // an element reaches past `stop`: none starts there
                    continue;
                }
                if (limit == text_.size() - at || length >= largest) throw NotWindowed{};
                length *= 2;
                continue;
            case WindowRead::kCut:
                at = read.next;
                length = kWindowBytes;
                continue;
            case WindowRead::kSectionEnded: {
                std::size_t close = read.next;  // back over spaces to the ']'
                while (close > at && is_json_space(text_[close - 1])) --close;
                if (text_[close - 1] != ']') throw NotWindowed{};
                return {close, false};
            }
            case WindowRead::kWhole:
                break;
        }
        at = skip_space(read.next);
        if (peek(at) == ']') return {at + 1, false};
        if (peek(at) != ',') throw NotWindowed{};
        at = skip_space(at + 1);
        length = kWindowBytes;
    }
}

// The fewest bytes a vertex and a face take as text (every required key, one-digit values, no
// spaces): the rest of the text from `at` over that bounds their count, and reserving it keeps
// the vector from growing, which copies it and faults in its pages again. Pages it does not fill
// cost only address space.
template <class Element>
void Reader::reserve_elements(std::size_t which, std::size_t at, std::vector<Element>& out) const {
    constexpr std::size_t kShortest[6] = {0, 0, 62, 157, 0, 0};
    if (kShortest[which] != 0) out.reserve(out.size() + (text_.size() - at) / kShortest[which] + 1);
}

// An offset about halfway from `at` to the text's end where an element may start: a '{' after
// a ',' after a '}', with spaces between them or not. Only a guess, as a string or an unknown
// key's value can hold the same bytes. kNoStop when no second thread is wanted, or the rest of
// the text is too short to be worth one.
std::size_t Reader::split_guess(std::size_t at) const {
    constexpr std::size_t kWorthASecondThread = std::size_t{4} << 20;
    constexpr std::size_t kSearched = std::size_t{1} << 20;
    if (!formats::worker_wanted(threads_) || text_.size() - at < kWorthASecondThread)
        return kNoStop;
    const std::size_t middle = at + (text_.size() - at) / 2;
    for (std::size_t brace = text_.find('{', middle); brace < middle + kSearched;
         brace = text_.find('{', brace + 1)) {
        std::size_t before = brace;
        while (before > at && is_json_space(text_[before - 1])) --before;
        if (before == at || text_[before - 1] != ',') continue;
        --before;
        while (before > at && is_json_space(text_[before - 1])) --before;
        if (before > at && text_[before - 1] == '}') return brace;
    }
    return kNoStop;
}

// The elements from `split` to the end of the section, read by a Reader of their own (on another
// thread); `read` is false when it gives up, for whatever reason (an error, a guess that was
// wrong, `cancelled`, out of memory): the first thread then reads them itself and meets any error
// in the usual way. Windows stay small, since a wrong guess is likely to fail in the first.
template <class Element, class Parse>
SecondPart<Element> Reader::read_second_part(std::size_t which, std::size_t split,
                                             const JsonPath& path, Parse& parse,
                                             const std::atomic<bool>& cancelled) const {
    constexpr std::size_t kLargestGuessedWindow = std::size_t{1} << 20;
    SecondPart<Element> part;
    try {
        Reader reader(text_, formats::Threads::one);
        reader.released_ = split;  // gives back only pages it passed itself
        reader.reserve_elements(which, split, part.elements);
        part.end = reader
                       .read_elements(split, kNoStop, kLargestGuessedWindow, path, part.elements,
                                      parse, &cancelled)
                       .next;
        part.read = true;
    } catch (...) {  // the first thread reads the part instead (see above)
    }
    return part;
}

// Reads the elements from `at` up to `split` on this thread while another reads the rest from
// `split`, and keeps the other's elements only when this thread's reading arrives at `split` as
// an element's start: then the other thread read what this one would have, from the same bytes.
template <class Element, class Parse>
std::size_t Reader::read_in_two(std::size_t which, std::size_t at, std::size_t split,
                                const JsonPath& path, std::vector<Element>& out, Parse& parse) {
    SecondPart<Element> second;
    std::atomic<bool> cancelled{false};
    std::thread worker;
    try {
        worker = std::thread(
            [&] { second = read_second_part<Element>(which, split, path, parse, cancelled); });
    } catch (const std::system_error&) {  // no thread to be had
        return read_elements(at, kNoStop, kLargestWindow, path, out, parse, nullptr).next;
    }
    const auto stop_worker = [&] {
        cancelled = true;
        worker.join();
    };
    ElementsRead first;
    try {
        first = read_elements(at, split, kLargestWindow, path, out, parse, nullptr);
    } catch (...) {
        stop_worker();
        throw;
    }
    if (!first.at_stop) {
        stop_worker();
        return first.next;
    }
    worker.join();
    if (!second.read)
        return read_elements(split, kNoStop, kLargestWindow, path, out, parse, nullptr).next;
    out.insert(out.end(), std::make_move_iterator(second.elements.begin()),
               std::make_move_iterator(second.elements.end()));
    return second.end;
}

// Reads the array of objects at `at` ('[') into `out`; returns the offset past its ']'. The
// faces, most of a file, are read on two threads where there are two.
template <class Element, class Parse>
std::size_t Reader::windowed_section(std::size_t at, const JsonPath& path, std::size_t which,
                                     std::vector<Element>& out, Parse parse) {
    constexpr std::size_t kFaces = 3;
    if (peek(at) != '[') throw NotWindowed{};
    section_offsets[which] = at;
    at = skip_space(at + 1);
    if (peek(at) == ']') return at + 1;
    reserve_elements(which, at, out);
    const std::size_t split = which == kFaces ? split_guess(at) : kNoStop;
    if (split == kNoStop)
        return read_elements(at, kNoStop, kLargestWindow, path, out, parse, nullptr).next;
    return read_in_two(which, at, split, path, out, parse);
}

// Reads the top-level member `key` whose value is at `at`; returns the offset past the value.
std::size_t Reader::windowed_member(std::string_view key, std::size_t at, const JsonPath& root,
                                    Keys& keys, Model& model) {
    constexpr std::string_view kFormat = "\"DASH\"";
    if (key == "format") {
        keys.see(0, at, root, key);
        if (text_.substr(at, kFormat.size()) != kFormat) throw NotWindowed{};
        return at + kFormat.size();
    }
    if (key == "version") {
        keys.see(1, at, root, key);
        for (std::string_view form : {"\"1.5\"", "1.5"}) {
            const char after = peek(at + form.size());
            if (text_.substr(at, form.size()) == form &&
                (form[0] == '"' || after == ',' || after == '}' || is_json_space(after)))
                return at + form.size();
        }
        throw NotWindowed{};
    }
    std::size_t next = 0;
    if (!with_section(key, model, [&](std::size_t which, const char* name, auto& out, auto parse) {
            keys.see(static_cast<unsigned>(2 + which), at, root, key);
            next = windowed_section(at, root / name, which, out, parse);
        }))
        throw NotWindowed{};
    return next;
}

std::optional<Model> Reader::read_in_windows() {
    const JsonPath root;
    try {
        Model model;
        Keys keys;
        std::size_t at = skip_space(0);
        if (peek(at) != '{') throw NotWindowed{};
        at = skip_space(at + 1);
        while (true) {
            const std::string_view key = plain_key(at);
            at = skip_space(at);
            if (peek(at) != ':') throw NotWindowed{};
            at = skip_space(windowed_member(key, skip_space(at + 1), root, keys, model));
            if (peek(at) == '}') break;
            if (peek(at) != ',') throw NotWindowed{};
            at = skip_space(at + 1);
        }
        if (skip_space(at + 1) != text_.size() || !keys.has(0) || !keys.has(1)) throw NotWindowed{};
        return model;
    } catch (const NotWindowed&) {
    } catch (const JsonError&) {
    } catch (const simdjson::simdjson_error&) {
    }
    return std::nullopt;
}

// The offset of the section a reference error's path names ("$.faces[3]…"), or kNoOffset.
std::uint64_t section_offset(const std::string& path, const std::uint64_t (&offsets)[6]) {
    static constexpr std::string_view kSections[] = {"textures", "materials", "vertices",
                                                     "faces",    "skeleton",  "animations"};
    for (std::size_t i = 0; i < 6; ++i)
        if (path.rfind(fmt::format("$.{}", kSections[i]), 0) == 0 ||
            (i == 2 && path.rfind("$.verterices", 0) == 0))
            return offsets[i];
    return Diagnostic::kNoOffset;
}

}  // namespace

// The text as simdjson wants it, with SIMDJSON_PADDING readable bytes after the end: the text
// itself when it lies in a file mapping whose last page has room for them (zeros past the end of
// the file), else a padded copy, which doubles the memory the text takes.
class PaddedText {
  public:
    explicit PaddedText(std::string_view text) {
        const std::size_t readable =
            platform::readable_past_end(std::as_bytes(std::span(text.data(), text.size())));
        if (readable >= simdjson::SIMDJSON_PADDING) {
            view_ = simdjson::padded_string_view(text.data(), text.size(), text.size() + readable);
        } else {
            copy_ = simdjson::padded_string(text);
            view_ = copy_;
        }
    }
    PaddedText(const PaddedText&) = delete;
    PaddedText& operator=(const PaddedText&) = delete;
    simdjson::padded_string_view view() const { return view_; }

  private:
    simdjson::padded_string copy_;
    simdjson::padded_string_view view_;
};

namespace {

// Checks the references of a model read, naming the section of a broken one.
Expected<Model> checked(Model model, const std::string& file, const Reader& reader) {
    if (auto ok = check_references(model, file, true); !ok) {
        Diagnostic error = ok.error();
        if (error.offset == Diagnostic::kNoOffset)
            error.offset = section_offset(error.path, reader.section_offsets);
        return make_error(std::move(error));
    }
    return model;
}

}  // namespace

namespace json_reader {

std::optional<Model> read_in_windows(std::string_view text, formats::Threads threads) {
    return Reader(text, threads).read_in_windows();
}

Expected<Model> read_in_one_pass(std::string_view text, const std::string& file) {
    const std::string root(1, '$');
    const PaddedText padded(text);
    od::parser parser;
    const char* base = padded.view().data();
    Reader reader(std::string_view(base, text.size()), formats::Threads::one);
    auto iterated = parser.iterate(padded.view());
    if (iterated.error())
        return make_error(formats::diagnostic_at(
            file, 0, root, fmt::format("not JSON: {}", simdjson::error_message(iterated.error()))));
    od::document document = std::move(iterated.value_unsafe());
    try {
        return checked(reader.read(document), file, reader);
    } catch (const JsonError& error) {
        return make_error(formats::diagnostic_at(file, error.offset, error.path, error.message));
    } catch (const simdjson::simdjson_error& error) {
        std::uint64_t offset = 0;
        if (auto location = document.current_location(); !location.error())
            offset = static_cast<std::uint64_t>(location.value_unsafe() - base);
        return make_error(formats::diagnostic_at(file, std::min<std::uint64_t>(offset, text.size()),
                                                 root, fmt::format("not JSON: {}", error.what())));
    } catch (const std::bad_alloc&) {
        return make_error(formats::diagnostic_at(file, 0, root, "out of memory"));
    }
}

}  // namespace json_reader

Expected<Model> read_json_in_one_pass(std::string_view text, std::string_view file) {
    return json_reader::read_in_one_pass(text, std::string(file));
}

// The JSON reader finds nothing to warn about: what it cannot take is an error.
Expected<Model> read_json(std::string_view text, std::string_view name, Diagnostics&) {
    const std::string file(name);
    try {
        Reader windows(text, formats::Threads::automatic);
        if (auto model = windows.read_in_windows())
            return checked(std::move(*model), file, windows);
    } catch (const std::bad_alloc&) {
        return make_error(formats::diagnostic_at(file, 0, "$", "out of memory"));
    }
    return json_reader::read_in_one_pass(text, file);
}

Expected<Model> open_json(const std::filesystem::path& path, Diagnostics& warnings) {
    auto mapped = platform::map_file(path);
    if (!mapped) return make_error(mapped.error());
    cast::Bytes bytes = (*mapped)->bytes();
    return read_json(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                     platform::utf8_of(path), warnings);
}

}  // namespace castkit::dmf

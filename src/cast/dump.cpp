// `castkit dump`: the node tree as indented text or as JSON in castkit's dump schema.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/dump.hpp>
#include <castkit/json.hpp>
#include <cmath>
#include <functional>
#include <iterator>

#include "english.hpp"

namespace castkit::cast {
namespace {

using Out = std::back_insert_iterator<std::string>;

// The strings of an `s` property in one pass (Property::string(i) rescans from the start, which
// would make a property of many strings quadratic).
void json_strings(json::Writer& out, const Property& p) {
    std::string_view rest(reinterpret_cast<const char*>(p.bytes().data()), p.bytes().size());
    out.begin_array();
    for (std::size_t i = 0; i < p.size(); ++i) {
        const std::size_t end = std::min(rest.find('\0'), rest.size());
        out.string(rest.substr(0, end));
        rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    out.end_array();
}

// A Bone's parent index `p` is an `i` holding a signed number (-1: no parent), which its stored
// u32 would print as 4294967295.
bool signed_index(const Node& node, const Property& p) {
    return node.id == static_cast<std::uint32_t>(NodeId::Bone) && p.name() == "p" &&
           p.type() == PropertyType::Integer32;
}

void json_values(json::Writer& out, const Node& node, const Property& p) {
    if (p.type() == PropertyType::String) return json_strings(out, p);
    const std::size_t n = p.size();
    const std::size_t width = p.type() == PropertyType::Vector2   ? 2
                              : p.type() == PropertyType::Vector3 ? 3
                              : p.type() == PropertyType::Vector4 ? 4
                                                                  : 0;
    out.begin_array();
    for (std::size_t i = 0; i < n; ++i) {
        if (signed_index(node, p)) {
            out.integer(static_cast<std::int32_t>(p.integer(i)));
        } else if (is_integer_type(p.type())) {
            out.unsigned_integer(p.integer(i));
        } else if (p.type() == PropertyType::Float) {
            out.number(static_cast<float>(p.number(i)));
        } else if (p.type() == PropertyType::Double) {
            out.number(p.number(i));
        } else {
            out.begin_array();
            for (std::size_t c = 0; c < width; ++c) out.number(p.component(i, c));
            out.end_array();
        }
    }
    out.end_array();
}

std::string id_text(std::uint32_t id) {
    if (auto name = node_name(id)) return std::string(*name);
    return fmt::format("{:#010x}", id);
}

void json_node(json::Writer& out, const Node& node) {
    out.begin_object();
    out.key("id");
    out.string(id_text(node.id));
    out.key("hash");
    out.string(fmt::format("{:#018x}", node.hash()));
    out.key("properties");
    out.begin_array();
    for (const Property& p : node.properties) {
        out.begin_object();
        out.key("name");
        out.string(p.name());
        out.key("type");
        out.string(type_name(p.type()));
        out.key("values");
        json_values(out, node, p);
        out.end_object();
    }
    out.end_array();
    out.key("children");
    out.begin_array();
    for (const Node& child : node.children()) json_node(out, child);
    out.end_array();
    if (!node.opaque().empty()) {
        std::string hex;
        hex.reserve(node.opaque().size() * 2);
        for (std::byte b : node.opaque())
            fmt::format_to(Out(hex), "{:02x}", static_cast<unsigned>(b));
        out.key("opaque");
        out.string(hex);
    }
    out.end_object();
}

void text_element(std::string& out, const Node& node, const Property& p, std::size_t i) {
    if (p.type() == PropertyType::String) {
        json::append_string(out, p.string(i));
    } else if (signed_index(node, p)) {
        fmt::format_to(Out(out), "{}", static_cast<std::int32_t>(p.integer(i)));
    } else if (is_integer_type(p.type())) {
        fmt::format_to(Out(out), "{}", p.integer(i));
    } else if (p.type() == PropertyType::Float) {
        fmt::format_to(Out(out), "{}", static_cast<float>(p.number(i)));
    } else if (p.type() == PropertyType::Double) {
        fmt::format_to(Out(out), "{}", p.number(i));
    } else {
        std::size_t width = element_size(p.type()) / 4;
        out += '(';
        for (std::size_t c = 0; c < width; ++c)
            fmt::format_to(Out(out), "{}{}", c ? ", " : "", p.component(i, c));
        out += ')';
    }
}

// Where the text goes: `out`, handed to `write` (when there is one) each time it holds a piece
// of kTextPiece bytes after a node, so that a dump is never held whole.
struct TextSink {
    static constexpr std::size_t kTextPiece = std::size_t{64} << 10;
    std::string& out;
    const std::function<bool(std::string_view)>* write = nullptr;
    bool stopped = false;  // `write` refused a piece: nothing more is made

    void node_done() {
        if (write == nullptr || out.size() < kTextPiece) return;
        stopped = !(*write)(out);
        out.clear();
    }
};

void text_node(TextSink& sink, const Node& node, int depth, const DumpOptions& options) {
    std::string& out = sink.out;
    std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
    fmt::format_to(Out(out), "{}{} {:#018x}\n", indent, id_text(node.id), node.hash());
    for (const Property& p : node.properties) {
        const std::size_t n = p.size();
        fmt::format_to(Out(out), "{}  {} ({} x {}) = ", indent, p.name(), type_name(p.type()), n);
        const bool single = n == 1;
        if (!single) out += '[';
        std::size_t shown = std::min(n, options.max_elements);
        for (std::size_t i = 0; i < shown; ++i) {
            if (i) out += ", ";
            text_element(out, node, p, i);
        }
        if (shown < n) fmt::format_to(Out(out), ", ... {} more", n - shown);
        if (!single) out += ']';
        out += '\n';
    }
    if (!node.opaque().empty())
        fmt::format_to(Out(out), "{}  <{}: unknown property type>\n", indent,
                       count_of(node.opaque().size(), "opaque byte"));
    sink.node_done();
    for (const Node& child : node.children()) {
        if (sink.stopped) return;
        text_node(sink, child, depth + 1, options);
    }
}

// The text dump into `sink`; false when its `write` refused a piece.
bool dump_text_into(TextSink& sink, const Document& document, const DumpOptions& options) {
    fmt::format_to(Out(sink.out), "cast version {}, flags {:#x}, {}\n", document.version,
                   document.flags, count_of(document.roots().size(), "root"));
    for (const Node& root : document.roots()) {
        if (sink.stopped) return false;
        text_node(sink, root, 0, options);
    }
    if (!document.trailing.empty())
        fmt::format_to(Out(sink.out), "<{}>\n",
                       count_of(document.trailing.size(), "trailing byte"));
    return !sink.stopped;
}

}  // namespace

std::string dump_text(const Document& document, const DumpOptions& options) {
    std::string out;
    TextSink sink{.out = out};
    dump_text_into(sink, document, options);
    return out;
}

bool dump_text(const Document& document, const DumpOptions& options,
               const std::function<bool(std::string_view)>& write) {
    std::string out;
    TextSink sink{.out = out, .write = &write};
    return dump_text_into(sink, document, options) && (out.empty() || write(out));
}

void dump_json(const Document& document, std::string& out) {
    json::Writer writer(out);
    writer.begin_object();
    writer.key("version");
    writer.unsigned_integer(document.version);
    writer.key("flags");
    writer.unsigned_integer(document.flags);
    writer.key("roots");
    writer.begin_array();
    for (const Node& root : document.roots()) json_node(writer, root);
    writer.end_array();
    writer.end_object();
    out += '\n';
}

}  // namespace castkit::cast

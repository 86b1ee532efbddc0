// `castkit dump`: the node tree as indented text or as JSON in castkit's dump schema.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/dump.hpp>
#include <cmath>
#include <iterator>

namespace castkit::cast {
namespace {

using Out = std::back_insert_iterator<std::string>;

void json_string(std::string& out, std::string_view text) {
    out += '"';
    for (char c : text) {
        switch (c) {
            case '"':
                out += "\\\"";
                break;
            case '\\':
                out += "\\\\";
                break;
            case '\n':
                out += "\\n";
                break;
            case '\r':
                out += "\\r";
                break;
            case '\t':
                out += "\\t";
                break;
            default:
                if (static_cast<unsigned char>(c) < 0x20)
                    fmt::format_to(Out(out), "\\u{:04x}", static_cast<unsigned char>(c));
                else
                    out += c;
        }
    }
    out += '"';
}

// Shortest round-trip text for the stored precision; non-finite values as strings.
template <class T>
void json_number(std::string& out, T value) {
    if (std::isnan(value))
        out += "\"nan\"";
    else if (std::isinf(value))
        out += value > 0 ? "\"inf\"" : "\"-inf\"";
    else
        fmt::format_to(Out(out), "{}", value);
}

// The strings of an `s` property in one pass (Property::string(i) rescans from the start, which
// would make a property of many strings quadratic).
void json_strings(std::string& out, const Property& p) {
    std::string_view rest(reinterpret_cast<const char*>(p.bytes().data()), p.bytes().size());
    out += '[';
    for (std::size_t i = 0; i < p.size(); ++i) {
        if (i) out += ',';
        const std::size_t end = std::min(rest.find('\0'), rest.size());
        json_string(out, rest.substr(0, end));
        rest.remove_prefix(std::min(end + 1, rest.size()));
    }
    out += ']';
}

void json_values(std::string& out, const Property& p) {
    if (p.type() == PropertyType::String) return json_strings(out, p);
    const std::size_t n = p.size();
    const std::size_t width = p.type() == PropertyType::Vector2   ? 2
                              : p.type() == PropertyType::Vector3 ? 3
                              : p.type() == PropertyType::Vector4 ? 4
                                                                  : 0;
    out += '[';
    for (std::size_t i = 0; i < n; ++i) {
        if (i) out += ',';
        if (is_integer_type(p.type())) {
            fmt::format_to(Out(out), "{}", p.integer(i));
        } else if (p.type() == PropertyType::Float) {
            json_number(out, static_cast<float>(p.number(i)));
        } else if (p.type() == PropertyType::Double) {
            json_number(out, p.number(i));
        } else {
            out += '[';
            for (std::size_t c = 0; c < width; ++c) {
                if (c) out += ',';
                json_number(out, p.component(i, c));
            }
            out += ']';
        }
    }
    out += ']';
}

std::string id_text(std::uint32_t id) {
    if (auto name = node_name(id)) return std::string(*name);
    return fmt::format("{:#010x}", id);
}

void json_node(std::string& out, const Node& node) {
    out += "{\"id\":";
    json_string(out, id_text(node.id));
    fmt::format_to(Out(out), ",\"hash\":\"{:#018x}\",\"properties\":[", node.hash);
    for (std::size_t i = 0; i < node.properties.size(); ++i) {
        const Property& p = node.properties[i];
        if (i) out += ',';
        out += "{\"name\":";
        json_string(out, p.name());
        fmt::format_to(Out(out), ",\"type\":\"{}\",\"values\":", type_name(p.type()));
        json_values(out, p);
        out += '}';
    }
    out += "],\"children\":[";
    for (std::size_t i = 0; i < node.children.size(); ++i) {
        if (i) out += ',';
        json_node(out, *node.children[i]);
    }
    out += ']';
    if (!node.opaque.empty()) {
        out += ",\"opaque\":\"";
        for (std::byte b : node.opaque)
            fmt::format_to(Out(out), "{:02x}", static_cast<unsigned>(b));
        out += '"';
    }
    out += '}';
}

void text_element(std::string& out, const Property& p, std::size_t i) {
    if (p.type() == PropertyType::String) {
        json_string(out, p.string(i));
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

void text_node(std::string& out, const Node& node, int depth, const DumpOptions& options) {
    std::string indent(static_cast<std::size_t>(depth) * 2, ' ');
    fmt::format_to(Out(out), "{}{} {:#018x}\n", indent, id_text(node.id), node.hash);
    for (const Property& p : node.properties) {
        const std::size_t n = p.size();
        fmt::format_to(Out(out), "{}  {} ({} x {}) = ", indent, p.name(), type_name(p.type()), n);
        const bool single = n == 1;
        if (!single) out += '[';
        std::size_t shown = std::min(n, options.max_elements);
        for (std::size_t i = 0; i < shown; ++i) {
            if (i) out += ", ";
            text_element(out, p, i);
        }
        if (shown < n) fmt::format_to(Out(out), ", ... {} more", n - shown);
        if (!single) out += ']';
        out += '\n';
    }
    if (!node.opaque.empty())
        fmt::format_to(Out(out), "{}  <{} opaque bytes: unknown property type>\n", indent,
                       node.opaque.size());
    for (const auto& child : node.children) text_node(out, *child, depth + 1, options);
}

}  // namespace

std::string dump_text(const Document& document, const DumpOptions& options) {
    std::string out = fmt::format("cast version {}, flags {:#x}, {} roots\n", document.version,
                                  document.flags, document.roots.size());
    for (const auto& root : document.roots) text_node(out, *root, 0, options);
    if (!document.trailing.empty())
        fmt::format_to(Out(out), "<{} trailing bytes>\n", document.trailing.size());
    return out;
}

void dump_json(const Document& document, std::string& out) {
    fmt::format_to(Out(out), "{{\"version\":{},\"flags\":{},\"roots\":[", document.version,
                   document.flags);
    for (std::size_t i = 0; i < document.roots.size(); ++i) {
        if (i) out += ',';
        json_node(out, *document.roots[i]);
    }
    out += "]}\n";
}

}  // namespace castkit::cast

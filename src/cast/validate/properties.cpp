// Properties: each one against its node type's table (type, single value, allowed strings),
// one string per `s` property, UTF-8 names and strings, the required ones, duplicates, names the
// spec does not define, and non-finite floats.
#include <fmt/format.h>

#include "buffers.hpp"
#include "checks.hpp"

namespace castkit::cast::validation {
namespace {

std::string allowed_values(std::span<const std::string_view> values) {
    std::string out;
    for (std::string_view value : values) {
        if (!out.empty()) out += ", ";
        out += value;
    }
    return out;
}

void check_value(Context& context, const NodeRef& ref, const NodeSchema& schema,
                 const PropertySchema& entry, const Property& p) {
    if ((entry.types & type_bit(p.type())) == 0) {
        context.report(
            Rule::Type, ref, p,
            fmt::format("'{}' is {}; {}'s '{}' must be {}", p.name(), type_name(p.type()),
                        with_article(schema.title), p.name(), type_list(entry.types)));
        return;
    }
    if (p.type() == PropertyType::String && p.count() != 1) return;  // property.string-count
    if (!entry.array && p.size() != 1) {
        context.report(
            Rule::Single, ref, p,
            fmt::format("'{}' holds {} values; it must hold exactly one", p.name(), p.size()));
        return;
    }
    if (!entry.values.empty()) {
        std::string_view value = p.string(0);
        for (std::string_view allowed : entry.values)
            if (value == allowed) return;
        context.report(Rule::Enum, ref, p,
                       fmt::format("'{}' is '{}'; allowed: {}", p.name(), value,
                                   allowed_values(entry.values)));
    }
}

// Whether `p` is what `entry` says: one of its types, one value unless it is an array.
bool fits(const PropertySchema& entry, const Property& p) {
    return (entry.types & type_bit(p.type())) != 0 && (entry.array || p.size() == 1);
}

// A property the spec does not define: castkit's own (written by its SEAnim, SEModel and K3D
// readers) is no finding; one in castkit's namespaces that castkit does not write there, or not
// as castkit writes it, is ignored by castkit's writers and says so; any other is unknown.
void check_unspecified(Context& context, const NodeRef& ref, const NodeSchema& schema,
                       const Property& p) {
    const PropertySchema* own = own_property_schema(schema, p.name());
    if (own != nullptr && fits(*own, p)) return;
    if (own != nullptr)
        context.report(Rule::OwnProperty, ref, p,
                       fmt::format("'{}' is {} with {} value{}; castkit writes {}'s '{}' as {}{}, "
                                   "and its writers ignore this one",
                                   p.name(), type_name(p.type()), p.size(),
                                   p.size() == 1 ? "" : "s", with_article(schema.title), p.name(),
                                   own->array ? "an array of " : "one ", type_list(own->types)));
    else if (in_own_namespace(p.name()))
        context.report(Rule::OwnProperty, ref, p,
                       fmt::format("property '{}' ({}) is named as castkit's own properties are, "
                                   "but castkit writes no such property on {}: its writers "
                                   "ignore it",
                                   p.name(), type_name(p.type()), with_article(schema.title)));
    else
        context.report(Rule::UnknownProperty, ref, p,
                       fmt::format("property '{}' ({}) is not defined for {}", p.name(),
                                   type_name(p.type()), with_article(schema.title)));
}

// The offset of the first byte that breaks UTF-8 as Python's strict decoder reads it (no
// overlong forms, surrogates or code points above U+10FFFF), or npos. O(length).
std::size_t invalid_utf8(std::string_view text) {
    const auto* bytes = reinterpret_cast<const unsigned char*>(text.data());
    for (std::size_t i = 0; i < text.size();) {
        const unsigned lead = bytes[i];
        std::size_t length = 0;
        if (lead < 0x80)
            length = 1;
        else if (lead >= 0xC2 && lead <= 0xDF)
            length = 2;
        else if (lead >= 0xE0 && lead <= 0xEF)
            length = 3;
        else if (lead >= 0xF0 && lead <= 0xF4)
            length = 4;
        if (length == 0 || i + length > text.size()) return i;
        // The second byte's range narrows after E0, ED, F0 and F4; the rest are 80..BF.
        const unsigned low = lead == 0xE0 ? 0xA0 : lead == 0xF0 ? 0x90 : 0x80;
        const unsigned high = lead == 0xED ? 0x9F : lead == 0xF4 ? 0x8F : 0xBF;
        for (std::size_t k = 1; k < length; ++k) {
            const unsigned byte = bytes[i + k];
            if (byte < (k == 1 ? low : 0x80) || byte > (k == 1 ? high : 0xBF)) return i;
        }
        i += length;
    }
    return std::string_view::npos;
}

void check_utf8(Context& context, const NodeRef& ref, const Property& p) {
    if (std::size_t bad = invalid_utf8(p.name()); bad != std::string_view::npos)
        context.report(Rule::Utf8, ref, p,
                       fmt::format("a property name is not valid UTF-8 (byte {} of it); cast.py "
                                   "cannot decode it",
                                   bad));
    if (p.type() != PropertyType::String) return;
    const std::string_view payload(reinterpret_cast<const char*>(p.bytes().data()),
                                   p.bytes().size());
    if (std::size_t bad = invalid_utf8(payload); bad != std::string_view::npos)
        context.report(Rule::Utf8, ref, p,
                       fmt::format("'{}' is not valid UTF-8 (byte {} of its value); cast.py "
                                   "cannot decode it",
                                   p.name(), bad));
}

}  // namespace

void check_properties(Context& context, const NodeRef& ref, const NodeSchema& schema) {
    const auto& properties = ref.node.properties;
    for (std::size_t i = 0; i < properties.size(); ++i) {
        const Property& p = properties[i];
        for (std::size_t j = 0; j < i; ++j)
            if (properties[j].name() == p.name()) {
                // Reported once per name, at its second occurrence.
                bool first_repeat = true;
                for (std::size_t k = j + 1; k < i; ++k)
                    if (properties[k].name() == p.name()) first_repeat = false;
                if (first_repeat)
                    context.report(Rule::Duplicate, ref, p,
                                   fmt::format("property '{}' appears more than once; castkit and "
                                               "cast.py read the last, porter-cast the first",
                                               p.name()));
                break;
            }
        check_utf8(context, ref, p);
        if (p.type() == PropertyType::String && p.count() != 1)
            context.report(
                Rule::StringCount, ref, p,
                fmt::format("'{}' holds {} strings (ArrayLength {}); cast.py, and the "
                            "Blender and Maya add-ons that load through it, read exactly "
                            "one and then misread every byte after it",
                            p.name(), p.count(), p.count()));
        if (const PropertySchema* entry = property_schema(schema, p.name()))
            check_value(context, ref, schema, *entry, p);
        else
            check_unspecified(context, ref, schema, p);
        if (Scan bad = non_finite(p); bad.count > 0)
            context.report_element(
                Rule::NonFinite, ref, p, bad.first,
                fmt::format("'{}' holds {} NaN or infinite value{} (first: element {})", p.name(),
                            bad.count, bad.count == 1 ? "" : "s", bad.first));
    }
    // After an unknown property type the rest of the node is opaque (rule 6): what looks missing
    // may be in there.
    if (!ref.node.opaque().empty()) return;
    for (const PropertySchema& entry : schema.properties)
        if (entry.required && ref.node.find(entry.name) == nullptr)
            context.report(Rule::Required, ref,
                           fmt::format("{} requires '{}'", with_article(schema.title), entry.name));
}

}  // namespace castkit::cast::validation

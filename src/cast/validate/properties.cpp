// Properties: each one against its node type's table (type, single value, allowed strings),
// the required ones, duplicates, names the spec does not define, and non-finite floats.
#include "buffers.hpp"
#include "checks.hpp"

#include <fmt/format.h>

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
        context.report(Rule::Type, ref, p,
                       fmt::format("'{}' is {}; a {}'s '{}' must be {}", p.name(), type_name(p.type()),
                                   schema.title, p.name(), type_list(entry.types)));
        return;
    }
    if (!entry.array && p.size() != 1) {
        context.report(Rule::Single, ref, p,
                       fmt::format("'{}' holds {} {}; it must hold exactly one", p.name(), p.size(),
                                   p.type() == PropertyType::String ? "strings" : "values"));
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
        if (const PropertySchema* entry = property_schema(schema, p.name()))
            check_value(context, ref, schema, *entry, p);
        else
            context.report(Rule::UnknownProperty, ref, p,
                           fmt::format("property '{}' ({}) is not defined for a {}", p.name(),
                                       type_name(p.type()), schema.title));
        if (Scan bad = non_finite(p); bad.count > 0)
            context.report_element(Rule::NonFinite, ref, p, bad.first,
                                   fmt::format("'{}' holds {} NaN or infinite value{} (first: element {})",
                                               p.name(), bad.count, bad.count == 1 ? "" : "s",
                                               bad.first));
    }
    // After an unknown property type the rest of the node is opaque (rule 6): what looks missing
    // may be in there.
    if (!ref.node.opaque.empty()) return;
    for (const PropertySchema& entry : schema.properties)
        if (entry.required && ref.node.find(entry.name) == nullptr)
            context.report(Rule::Required, ref,
                           fmt::format("a {} requires '{}'", schema.title, entry.name));
}

}  // namespace castkit::cast::validation

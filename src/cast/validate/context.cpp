#include "context.hpp"

namespace castkit::cast::validation {

std::uint64_t property_offset(const Node& node, const Property& property) {
    if (node.file_offset == Node::kNotRead) return Diagnostic::kNoOffset;
    std::uint64_t offset = node.file_offset + 24;
    for (const Property& p : node.properties) {
        if (&p == &property) return offset;
        offset += p.stored_size();
    }
    return node.file_offset;
}

void Context::add(Rule rule, const NodeRef& at, std::uint64_t offset, std::string message) {
    const ValidationRule& info = rule_info(rule);
    Diagnostic d;
    d.severity = info.severity;
    d.file = document_.source_name;
    d.offset = offset;
    d.path = format_path(&at.step);
    d.rule = std::string(info.id);
    d.message = std::move(message);
    diagnostics_.push_back(std::move(d));
}

void Context::report_at(Rule rule, std::string path, std::string message) {
    const ValidationRule& info = rule_info(rule);
    Diagnostic d;
    d.severity = info.severity;
    d.file = document_.source_name;
    d.path = std::move(path);
    d.rule = std::string(info.id);
    d.message = std::move(message);
    diagnostics_.push_back(std::move(d));
}

void Context::report(Rule rule, const NodeRef& at, std::string message) {
    std::uint64_t offset =
        at.node.file_offset == Node::kNotRead ? Diagnostic::kNoOffset : at.node.file_offset;
    add(rule, at, offset, std::move(message));
}

void Context::report(Rule rule, const NodeRef& at, const Property& property, std::string message) {
    add(rule, at, property_offset(at.node, property), std::move(message));
}

void Context::report_element(Rule rule, const NodeRef& at, const Property& property,
                             std::size_t index, std::string message) {
    std::uint64_t offset = property_offset(at.node, property);
    if (offset != Diagnostic::kNoOffset && property.type() != PropertyType::String)
        offset += 8 + property.name().size() + index * element_size(property.type());
    add(rule, at, offset, std::move(message));
}

}  // namespace castkit::cast::validation

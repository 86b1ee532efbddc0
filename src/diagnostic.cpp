#include <fmt/format.h>

#include <castkit/diagnostic.hpp>

namespace castkit {

std::string Diagnostic::to_string() const {
    std::string text;
    if (!file.empty()) text += file + ": ";
    if (offset != kNoOffset) text += fmt::format("offset {:#x}: ", offset);
    if (!path.empty()) text += path + ": ";
    if (severity == Severity::Warning) text += "warning: ";
    if (severity == Severity::Info) text += "info: ";
    text += message;
    if (!rule.empty()) text += fmt::format(" [{}]", rule);
    return text;
}

const char* severity_name(Severity severity) {
    switch (severity) {
        case Severity::Info:
            return "info";
        case Severity::Warning:
            return "warning";
        case Severity::Error:
            return "error";
    }
    return "error";
}

bool has_severity(const Diagnostics& diagnostics, Severity at_least) {
    for (const Diagnostic& d : diagnostics)
        if (d.severity >= at_least) return true;
    return false;
}

}  // namespace castkit

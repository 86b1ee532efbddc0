// Diagnostics the glTF bridge reports: the file, the JSON path (or Cast node path) and a rule id.
#pragma once

#include <castkit/diagnostic.hpp>
#include <string>

namespace castkit::gltf::detail {

inline Diagnostic problem(std::string file, std::string path, std::string message,
                          Severity severity = Severity::Error) {
    return {.severity = severity,
            .file = std::move(file),
            .path = std::move(path),
            .rule = "gltf",
            .message = std::move(message)};
}

}  // namespace castkit::gltf::detail

// Diagnostics the glTF bridge reports: the file, the JSON path (or Cast node path) and a rule id.
#pragma once

#include <castkit/diagnostic.hpp>
#include <string>

namespace castkit::gltf::detail {

// A finding of the glTF bridge; `rule` is its stable id (docs/diagnostics.md): "gltf.import"
// for what the importer finds in a parsed file unless a finer id is given.
inline Diagnostic problem(std::string file, std::string path, std::string message,
                          Severity severity = Severity::Error, std::string rule = "gltf.import") {
    return {.severity = severity,
            .file = std::move(file),
            .path = std::move(path),
            .rule = std::move(rule),
            .message = std::move(message)};
}

}  // namespace castkit::gltf::detail

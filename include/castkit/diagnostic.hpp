// Diagnostics: the errors and warnings every castkit reader, writer and checker reports.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace castkit {

enum class Severity : std::uint8_t { Info, Warning, Error };

// Where a finding is, in the words a user can act on: the file, the byte offset in it and the
// node path ("root[0]/model[2]/mesh[0]"), plus a stable rule id where one applies.
struct Diagnostic {
    Severity severity = Severity::Error;
    std::string file;  // empty when reading from memory without a name
    std::uint64_t offset = kNoOffset;
    std::string path;     // node path, or a JSON path for JSON formats
    std::string rule;     // stable id such as "cast.nodesize"; may be empty
    std::string message;  // one line, no trailing period

    static constexpr std::uint64_t kNoOffset = ~std::uint64_t{0};

    // "hero.cast: offset 0x1f4: root[0]/model[2]/mesh[0]: message"
    std::string to_string() const;
};

using Diagnostics = std::vector<Diagnostic>;

const char* severity_name(Severity severity);

// True when any diagnostic has the given severity or worse.
bool has_severity(const Diagnostics& diagnostics, Severity at_least);

}  // namespace castkit

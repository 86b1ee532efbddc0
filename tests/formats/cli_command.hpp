// Test helper: command lines for the castkit CLI with paths inside a test's directory.
#pragma once

#include <fmt/format.h>

#include <filesystem>
#include <string>

namespace castkit::test {

// `path` in double quotes, as one shell word.
inline std::string quoted(const std::filesystem::path& path) {
    return fmt::format("\"{}\"", path.string());
}

// `command` with each {name} replaced by the quoted path of `name` inside `dir`.
inline std::string in_dir(const std::filesystem::path& dir, std::string command) {
    std::string out;
    for (std::size_t i = 0; i < command.size(); ++i) {
        if (command[i] != '{') {
            out += command[i];
            continue;
        }
        std::size_t end = command.find('}', i);
        out += quoted(dir / command.substr(i + 1, end - i - 1));
        i = end;
    }
    return out;
}

}  // namespace castkit::test

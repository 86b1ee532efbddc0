// An input: the bytes of a file or standard input and what keeps them alive, which every reader
// starts from (the registry's formats::read_file and the glTF bridge's own open).
#pragma once

#include <castkit/cast/node.hpp>
#include <castkit/expected.hpp>
#include <cstdint>
#include <filesystem>

namespace castkit::formats {

// The bytes of an input and what keeps them alive: a mapped file or a buffer of standard input
// (a null owner: borrowed bytes the caller keeps alive).
using Input = cast::SharedBytes;

// How read_input holds a file. Map: zero-copy, for one command; its one risk is that touching a
// mapping's pages after another program cut the file short kills the process (SIGBUS on
// POSIX). Copy: read into memory once and closed, for a process that keeps the document while
// other programs may rewrite or truncate the file (Python, `castkit view`; docs/security.md).
enum class InputMode : std::uint8_t { Map, Copy };

// Maps `path` read-only (or reads it, InputMode::Copy), or reads all of standard input once for
// "-". O(1) for a mapped file until its pages are touched; O(size) otherwise.
Expected<Input> read_input(const std::filesystem::path& path, InputMode mode = InputMode::Map);

}  // namespace castkit::formats

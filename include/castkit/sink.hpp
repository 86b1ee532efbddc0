// Sink: where a writer's bytes go (a file written atomically, standard output, memory). Writers
// stream into it; the caller decides the destination and when it becomes visible.
#pragma once

#include <castkit/expected.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <span>
#include <vector>

namespace castkit {

class Sink {
  public:
    virtual ~Sink() = default;
    // Appends `data`; a failure (disk full, closed pipe) is an error naming the destination.
    virtual Expected<void> write(std::span<const std::byte> data) = 0;
    // Says how many bytes are coming, so that a file can reserve its blocks. O(1).
    virtual void reserve(std::uint64_t /*bytes*/) {}
    // The file this sink becomes, when it is one; writers with companion files (a .gltf's .bin)
    // put them beside it. Empty for standard output and memory.
    virtual std::filesystem::path file() const { return {}; }
};

// A sink into a growing buffer.
class BufferSink final : public Sink {
  public:
    Expected<void> write(std::span<const std::byte> data) override {
        bytes.insert(bytes.end(), data.begin(), data.end());
        return {};
    }
    void reserve(std::uint64_t size) override {
        if (size <= bytes.max_size()) bytes.reserve(static_cast<std::size_t>(size));
    }

    std::vector<std::byte> bytes;
};

}  // namespace castkit

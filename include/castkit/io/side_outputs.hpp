// Side outputs: the files castkit writes besides the output a command names (images a reader
// unpacks from a glTF or DMF, textures a writer copies or converts beside its output). They all
// go through one run-scoped writer with one rule, so that castkit never replaces a file it did
// not write (docs/security.md, "What castkit writes").
#pragma once

#include <castkit/expected.hpp>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <mutex>
#include <set>
#include <span>
#include <string>

namespace castkit {

// The files one run (one `castkit convert`, one batch) writes besides its named outputs.
// Thread-safe: a batch's workers share one. Names are compared blind to ASCII case, as on the
// file systems of Windows and macOS.
class SideOutputs {
  public:
    struct Written {
        std::filesystem::path path;  // the file that holds the bytes now
        bool renamed = false;        // not the name asked for
    };

    // Marks `path` as a named output of this run (a batch's planned outputs, a .gltf's .bin):
    // no side file takes that name. False when it was reserved already. O(log reserved).
    bool reserve(const std::filesystem::path& path);
    // Whether `path` is reserved. O(log reserved).
    bool reserved(const std::filesystem::path& path) const;

    // Writes `bytes` as `wanted` (temporary file, then rename), or reuses the file there when it
    // holds exactly `bytes`; when `wanted` is reserved or holds anything else (or is not a
    // regular file), the first of `stem-2.ext`, `stem-3.ext`, … that is free or holds `bytes`.
    // A file is never replaced. Fails when no name up to `stem-1000.ext` will do or the write
    // fails. O(size × names tried).
    Expected<Written> write(const std::filesystem::path& wanted, std::span<const std::byte> bytes);

    // Whether this run wrote (or reused) `path` as a side file. O(log written).
    bool wrote(const std::filesystem::path& path) const;

    // `wanted` with "-N" before its extension (`wall-2.png`) for n > 1, `wanted` for n = 1: the
    // names write() tries, and those a folder conversion gives outputs two inputs would share.
    static std::filesystem::path numbered(const std::filesystem::path& wanted, int n);

  private:
    struct Record {
        std::filesystem::path path;
        std::size_t size = 0;
        std::uint64_t hash = 0;
    };
    // The outcome for one candidate name, the lock held.
    enum class Fit { Free, Same, Taken };
    Fit fit(const std::filesystem::path& candidate, std::span<const std::byte> bytes,
            std::uint64_t hash) const;

    mutable std::mutex mutex_;
    std::set<std::string> reserved_;
    std::map<std::string, Record> written_;
};

}  // namespace castkit

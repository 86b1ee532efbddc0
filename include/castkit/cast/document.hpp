// A Cast document: the file header, the root nodes, and the buffer their payloads view.
// Reading and writing `.cast` files.
#pragma once

#include <castkit/cast/node.hpp>
#include <castkit/diagnostic.hpp>
#include <castkit/expected.hpp>
#include <castkit/sink.hpp>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <unordered_set>
#include <vector>

namespace castkit::cast {

class Root;
class Model;
class Animation;

class Document {
  public:
    Document();
    Document(Document&&) noexcept = default;
    Document& operator=(Document&&) noexcept = default;

    std::uint32_t version = 1;
    std::uint32_t flags = 0;
    std::vector<std::unique_ptr<Node>> roots;
    // Bytes after the last root (rule 10); written back so a round trip stays exact.
    Bytes trailing;
    // Warnings found while reading (NodeSize mismatches, flags, opaque data, …).
    Diagnostics warnings;
    // Name used in diagnostics (the path, or "<stdin>").
    std::string source_name;

    // Keeps `storage` alive as long as the document: payload views may point into it.
    void retain(std::shared_ptr<const void> storage);

    // Next hash from the per-document counter (rule 12), skipping hashes already used.
    std::uint64_t next_hash();

    // Typed access (nodes.hpp).
    std::vector<Root> root_nodes();
    Root add_root();
    // Every Model / Animation under every Root, in file order.
    std::vector<Model> models();
    std::vector<Animation> animations();

  private:
    std::vector<std::shared_ptr<const void>> storage_;
    std::uint64_t next_hash_;
    std::unordered_set<std::uint64_t> used_hashes_;
    bool hashes_collected_ = false;
};

struct ReadOptions {
    // Name shown in diagnostics when reading from memory.
    std::string source_name;
    // Nodes nested deeper than this are an error (real files are ~5 deep).
    std::uint32_t max_depth = 256;
};

// Memory-maps `path` and parses it; payloads stay views into the mapping. O(nodes + properties).
Expected<Document> open(const std::filesystem::path& path, const ReadOptions& options = {});
// Parses `bytes`, which the caller keeps alive as long as the document (zero copy).
Expected<Document> read(Bytes bytes, const ReadOptions& options = {});
// Parses a buffer the document takes ownership of.
Expected<Document> read(std::vector<std::byte> bytes, const ReadOptions& options = {});
// Reads all of standard input and parses it.
Expected<Document> read_stdin(const ReadOptions& options = {});

// Size in bytes of the file `write` produces.
std::uint64_t file_size(const Document& document);
// Serialises to a buffer, computing every NodeSize.
Expected<std::vector<std::byte>> write_to_buffer(const Document& document);
// Streams the file into `sink`, computing every NodeSize. O(file size), no copy of payloads.
Expected<void> write(const Document& document, Sink& sink);
// Writes atomically: a temporary file beside `path`, then a rename. On failure `path` is
// untouched. "-" writes to standard output.
Expected<void> write(const Document& document, const std::filesystem::path& path);

}  // namespace castkit::cast

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
class ConstRoot;
class ConstModel;
class ConstAnimation;
class Document;

// Gives new nodes their hashes (rule 12): one counter per document, from the reference base,
// skipping every hash the tree holds (collected once, on the first call). The Document and
// every mutable view made from it share it: the document re-points it at its roots when moved
// and detaches it when destroyed, so a view that outlives its document (its node moved into
// another tree) still draws hashes from a live counter, never from freed memory.
class HashCounter {
  public:
    explicit HashCounter(const std::vector<std::unique_ptr<Node>>* roots) : roots_(roots) {}
    HashCounter(const HashCounter&) = delete;
    HashCounter& operator=(const HashCounter&) = delete;
    // The next unused hash. O(1) amortised; the first call walks the tree.
    std::uint64_t next();

  private:
    friend class Document;
    const std::vector<std::unique_ptr<Node>>* roots_;  // null once its document is gone
    std::uint64_t next_ = 0x534E495752545250;  // "PRTRWINS", the reference library's base
    std::unordered_set<std::uint64_t> used_;
    bool collected_ = false;
};

// Ownership: the Document owns its nodes (`roots`), and keeps alive every buffer their payloads
// view: each Property and opaque tail that views stored bytes holds a handle to them (the file
// mapping or an adopted buffer), so copies and clones stay valid after the Document is gone.
// Only `read(Bytes)` borrows: the caller keeps those bytes alive while anything read from them
// lives (Node::clone() copies borrowed payloads, so clones never dangle).
// Views (nodes.hpp) point at nodes only: a view is valid while its node is in the tree.
class Document {
  public:
    Document() = default;
    ~Document();
    Document(Document&& other) noexcept;
    Document& operator=(Document&& other) noexcept;
    // A deep copy (Node::clone of every root): viewed payloads share their owner, borrowed ones
    // are copied, so the copy may outlive this document and changing it leaves this one as it
    // was. O(nodes + properties + borrowed bytes).
    Document clone() const;

    std::uint32_t version = 1;
    std::uint32_t flags = 0;
    std::vector<std::unique_ptr<Node>> roots;
    // Bytes after the last root (rule 10); written back so a round trip stays exact.
    SharedBytes trailing;
    // Warnings found while reading (NodeSize mismatches, flags, opaque data, …).
    Diagnostics warnings;
    // Name used in diagnostics (the path, or "<stdin>").
    std::string source_name;

    // Next hash from the per-document counter (rule 12), skipping hashes already used.
    std::uint64_t next_hash() { return hashes().next(); }
    // The counter mutable views draw hashes from; it moves with the document, and views share
    // its ownership.
    HashCounter& hashes() { return *hash_counter(); }
    const std::shared_ptr<HashCounter>& hash_counter();

    // Typed access (nodes.hpp): mutable views of a mutable document, const views of a const one.
    std::vector<Root> root_nodes();
    std::vector<ConstRoot> root_nodes() const;
    Root add_root();
    // Every Model / Animation under every Root, in file order.
    std::vector<Model> models();
    std::vector<ConstModel> models() const;
    std::vector<Animation> animations();
    std::vector<ConstAnimation> animations() const;

  private:
    std::shared_ptr<HashCounter> hashes_;
};

struct ReadOptions {
    // Name shown in diagnostics when reading from memory.
    std::string source_name;
    // Nodes nested deeper than this are an error (real files are ~5 deep).
    std::uint32_t max_depth = 256;
};

// Memory-maps `path` and parses it; payloads stay views into the mapping. O(nodes + properties).
Expected<Document> open(const std::filesystem::path& path, const ReadOptions& options = {});
// Parses `bytes`, which the caller keeps alive as long as the document (zero copy, borrowed).
Expected<Document> read(Bytes bytes, const ReadOptions& options = {});
// Parses `bytes`, whose payload views keep `bytes.owner` alive (zero copy, shared).
Expected<Document> read(SharedBytes bytes, const ReadOptions& options = {});
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

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
#include <string_view>
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
// skipping every hash the tree holds. It reads the tree once, on first use; from then on the
// document tells it every hash that enters the tree (insert, adopt, set_hash), so it never hands
// out one in use. Internal to Document.
class HashCounter {
  public:
    static constexpr std::uint64_t kBase = 0x534E495752545250;  // "PRTRWINS", the reference's

    // Reads the hashes of the trees under `roots` (a document's), or of the one tree under
    // `top` (a tree of its own), the first time only. O(nodes) once.
    void prepare(NodeRange<const Node> roots);
    void prepare(const Node& top);
    // The next unused hash, after prepare(). O(1) amortised.
    std::uint64_t next();
    // Whether `hash` is in use, after prepare(). O(1).
    bool used(std::uint64_t hash) const { return used_.contains(hash); }
    // Records a hash that entered the tree, once prepare() has read it. O(1).
    void note(std::uint64_t hash);

  private:
    std::uint64_t next_ = kBase;
    std::unordered_set<std::uint64_t> used_;
    bool prepared_ = false;
};

// A file that travels with a document in memory: an image a reader found inside its input (a
// glb's buffer view, a glTF data: URI, a DMF texture).
struct EmbeddedFile {
    // The path the document's File nodes name it by (their `p`), such as "hero_skin.png".
    std::string name;
    // Its bytes, which keep their storage alive: a view of the input where the file lies whole
    // in it (a glb's binary chunk), else a buffer of their own (a decoded data: URI).
    SharedBytes bytes;
};

// The files a document carries in memory, by the name its File nodes give them, so that a
// writer can embed them again (glb, DMF) or write them beside its output (Cast, SEModel, .gltf)
// although no file of that name exists on disk (docs/document-model.md, "Embedded files").
// Names are compared blind to ASCII case, as the file systems they are written to compare them,
// so no two of them can land on one file. A document holds few: lookups are linear.
class EmbeddedFiles {
  public:
    // Adds `bytes` under `name`, or, when another file holds that name already (blind to case),
    // under the first of `stem-2.ext`, `stem-3.ext`, … that is free or holds the same bytes; a
    // file of the same name and bytes is kept once. The name the bytes are kept under, for the
    // File node to name. O(files × size of the files compared).
    std::string add(std::string_view name, SharedBytes bytes);
    // The file a File node naming `name` stands for (blind to ASCII case), or null. O(files).
    const EmbeddedFile* find(std::string_view name) const;

    bool empty() const { return files_.empty(); }
    std::size_t size() const { return files_.size(); }
    // In the order they were added.
    auto begin() const { return files_.cbegin(); }
    auto end() const { return files_.cend(); }

    // The same files, each holding its bytes on its own (shared when owned, borrowed bytes
    // copied): what Document::clone keeps. O(borrowed bytes).
    EmbeddedFiles detached() const;

  private:
    std::vector<EmbeddedFile> files_;
};

// Ownership: the Document owns its nodes (roots()), and keeps alive every buffer their payloads
// view: each Property and opaque tail that views stored bytes holds a handle to them (the file
// mapping or an adopted buffer), so copies and clones stay valid after the Document is gone.
// Only `read(Bytes)` borrows: the caller keeps those bytes alive while anything read from them
// lives (copies of a Property and Node::clone() copy borrowed payloads, so those never dangle).
// Views (nodes.hpp) point at nodes only: a view is valid while its node is alive, and reaches
// the counter of whatever document its node is in now.
//
// Invariants the members keep: no null node; every node knows its parent; hashes handed out or
// brought in by insert/adopt are unique in the document (rule 12). A const Document gives only
// const nodes.
class Document {
  public:
    Document() = default;
    ~Document() = default;
    Document(Document&& other) noexcept;
    Document& operator=(Document&& other) noexcept;
    // A deep copy (Node::clone of every root, and the embedded files): viewed payloads and
    // embedded files share their owner, borrowed ones are copied, so the copy may outlive this
    // document and changing it leaves this one as it was. O(nodes + properties + borrowed bytes).
    Document clone() const;

    std::uint32_t version = 1;
    std::uint32_t flags = 0;
    // Bytes after the last root (rule 10); written back so a round trip stays exact.
    SharedBytes trailing;
    // Name used in diagnostics (the path, or "<stdin>").
    std::string source_name;
    // Files the document carries in memory, named by its File nodes: the images a glTF or DMF
    // reader found inside its input. The Cast file cannot hold them: cast::write writes the
    // tree alone, and formats::write_file writes them beside a Cast output.
    EmbeddedFiles embedded;

    // The top-level nodes in file order; a const document gives const nodes. Here and in the
    // typed access below, a temporary document gives nothing: its nodes die with it at the end
    // of the statement, under a range-for that would still walk them.
    NodeRange<Node> roots() & { return {roots_.begin(), roots_.end()}; }
    NodeRange<const Node> roots() const& { return {roots_.cbegin(), roots_.cend()}; }
    void roots() && = delete;
    void roots() const&& = delete;

    // Moves `node`'s subtree into this document, as the last child of `parent` (one of this
    // document's nodes), or as the last root when `parent` is null. Every node of the subtree
    // whose hash this document already uses, or that repeats inside the subtree, gets a fresh
    // hash (rule 12), and the subtree's hash links to it follow; other hashes are kept. A link
    // out of a subtree taken or copied from another document (a mesh's material left behind)
    // names a node of that document, never of this one, where its hash may belong to any node:
    // it is cut (the property removed), each cut reported to `findings`, when given, as a
    // warning cast.link-cut: a hash link binds only inside its document. Links out of a subtree
    // of this document, or of a tree built on its own, are kept (a tree of its own belongs to
    // the document its first subtree from a document came from: Node::add_child). A null node, or a
    // parent from another tree, is a bug in the caller: says so and aborts. O(subtree), plus one
    // walk of this document on its first hash.
    Node& insert(std::unique_ptr<Node> node, Node* parent = nullptr,
                 Diagnostics* findings = nullptr);
    // A copy of `node`'s subtree (from any document) put into this one as insert() does, except
    // that every node of the copy gets a fresh hash, its links inside the copy rewritten.
    Node& adopt(const Node& node, Node* parent = nullptr, Diagnostics* findings = nullptr);
    // Takes root `index` out, as a tree of its own; nullptr when there is no such root.
    std::unique_ptr<Node> take_root(std::size_t index);

    // Next hash from the per-document counter (rule 12), skipping hashes already used.
    std::uint64_t next_hash();

    // Typed access (nodes.hpp): mutable views of a mutable document, const views of a const one.
    std::vector<Root> root_nodes() &;
    std::vector<ConstRoot> root_nodes() const&;
    void root_nodes() && = delete;
    void root_nodes() const&& = delete;
    Root add_root() &;
    void add_root() && = delete;
    // Every Model / Animation under every Root, in file order.
    std::vector<Model> models() &;
    std::vector<ConstModel> models() const&;
    void models() && = delete;
    void models() const&& = delete;
    std::vector<Animation> animations() &;
    std::vector<ConstAnimation> animations() const&;
    void animations() && = delete;
    void animations() const&& = delete;

  private:
    friend struct NodeAccess;
    friend class Node;

    // insert() and adopt(): `node` (not null) under `parent` (null: as a root) with its hashes
    // made unique; `call` names the member in the message for a parent from another tree.
    Node& place(std::unique_ptr<Node> node, Node* parent, bool all_fresh, const char* call,
                Diagnostics* findings);
    // Node::add_child in a tree of its own: `child` (not null) as the last child of `parent`.
    // A subtree from another document than the tree's has its links out cut and its hashes
    // that meet the tree's renewed, links inside it following (a tree built in code takes the
    // document of the first such subtree instead of cutting). O(tree) for such a subtree, O(1)
    // otherwise.
    static Node& join(Node& parent, std::unique_ptr<Node> child, Diagnostics* findings);
    // Removes the links of the subtree at `top` that name no node of it, each reported to
    // `findings` when given, for `file`, as cut on joining `into`. O(subtree).
    static void cut_links_out(Node& top, const std::string& file, std::string_view into,
                              Diagnostics* findings);
    // Gives the subtree at `node` hashes unique among those `hashes` has seen (all fresh when
    // `all`), links inside it following; then records them. O(subtree).
    static void make_hashes_unique(Node& node, bool all, HashCounter& hashes);
    void attach_roots();

    std::vector<std::unique_ptr<Node>> roots_;
    HashCounter hashes_;
    // This document's identity for Node::origin_, unique in the process (a moved document
    // keeps it; the moved-from one gets a new one).
    std::uint64_t serial_ = new_serial();
    static std::uint64_t new_serial();
};

struct ReadOptions {
    // Nodes nested deeper than this are an error (real files are ~5 deep).
    std::uint32_t max_depth = 256;
};

// Every reader has this shape: the bytes, the name diagnostics give them (the path, "<stdin>",
// or empty for unnamed memory), and the sink the reader's warnings go to (NodeSize mismatches,
// header flags, bytes after the last root, opaque data); an error comes back in the Expected.
// O(nodes + properties): payloads are not copied.

// Parses `bytes`, which the caller keeps alive as long as the document (zero copy, borrowed).
Expected<Document> read(Bytes bytes, std::string_view file, Diagnostics& diagnostics,
                        const ReadOptions& options = {});
// Parses `bytes`, whose payload views keep `bytes.owner` alive (zero copy, shared).
Expected<Document> read(SharedBytes bytes, std::string_view file, Diagnostics& diagnostics,
                        const ReadOptions& options = {});
// Parses a buffer the document takes ownership of.
Expected<Document> read(std::vector<std::byte> bytes, std::string_view file,
                        Diagnostics& diagnostics, const ReadOptions& options = {});
// Memory-maps `path` and parses it, named by its UTF-8 path; payloads stay views into the
// mapping.
Expected<Document> open(const std::filesystem::path& path, Diagnostics& diagnostics,
                        const ReadOptions& options = {});
// Reads all of standard input and parses it, named "<stdin>".
Expected<Document> read_stdin(Diagnostics& diagnostics, const ReadOptions& options = {});

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

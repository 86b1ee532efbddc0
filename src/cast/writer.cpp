// The Cast writer: computes every NodeSize in one pass, then streams headers and payloads.
// Payloads that view a mapped file go straight from the mapping to the output.
#include <fmt/format.h>

#include <castkit/cast/document.hpp>
#include <cstring>
#include <functional>

#include "../platform/platform.hpp"
#include "storable.hpp"

namespace castkit::cast {
namespace {

// Buffers small writes; hands large ones straight to the destination.
class StreamWriter {
  public:
    using Flush = std::function<Expected<void>(Bytes)>;
    explicit StreamWriter(Flush flush) : flush_(std::move(flush)) { buffer_.reserve(kCapacity); }

    void put(Bytes bytes) {
        if (!status_) return;
        if (buffer_.size() + bytes.size() > kCapacity) drain();
        if (bytes.size() >= kCapacity) {
            pass(bytes);
            return;
        }
        buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
    }
    template <class T>
    void put_value(T value) {
        std::byte raw[sizeof(T)];
        std::memcpy(raw, &value, sizeof(T));
        put(raw);
    }
    Expected<void> finish() {
        drain();
        return status_;
    }

  private:
    static constexpr std::size_t kCapacity = std::size_t{1} << 20;

    void drain() {
        if (!buffer_.empty()) pass(buffer_);
        buffer_.clear();
    }
    void pass(Bytes bytes) {
        if (status_) status_ = flush_(bytes);
    }

    Flush flush_;
    std::vector<std::byte> buffer_;
    Expected<void> status_;
};

// NodeSizes of every node in pre-order, computed bottom-up in one walk (rule 2).
void collect_sizes(const Node& node, std::vector<std::uint64_t>& sizes) {
    std::size_t index = sizes.size();
    sizes.push_back(0);
    std::uint64_t size = node.own_size();
    for (const Node& child : node.children()) {
        std::size_t child_index = sizes.size();
        collect_sizes(child, sizes);
        size += sizes[child_index];
    }
    sizes[index] = size;
}

std::vector<std::uint64_t> all_sizes(const Document& document) {
    std::vector<std::uint64_t> sizes;
    for (const Node& root : document.roots()) collect_sizes(root, sizes);
    return sizes;
}

void write_node(StreamWriter& out, const Node& node, const std::vector<std::uint64_t>& sizes,
                std::size_t& index) {
    const bool opaque = !node.opaque().empty();
    const std::uint32_t opaque_properties = opaque ? node.opaque_property_count() : 0;
    const std::uint32_t opaque_children = opaque ? node.opaque_child_count() : 0;
    out.put_value<std::uint32_t>(node.id);
    out.put_value<std::uint32_t>(static_cast<std::uint32_t>(sizes[index++]));
    out.put_value<std::uint64_t>(node.hash());
    out.put_value<std::uint32_t>(static_cast<std::uint32_t>(node.properties.size()) +
                                 opaque_properties);
    out.put_value<std::uint32_t>(static_cast<std::uint32_t>(node.children().size()) +
                                 opaque_children);
    for (const Property& p : node.properties) {
        out.put_value<std::uint16_t>(static_cast<std::uint16_t>(p.type()));
        out.put_value<std::uint16_t>(static_cast<std::uint16_t>(p.name().size()));
        out.put_value<std::uint32_t>(p.count());
        out.put(std::as_bytes(std::span(p.name())));
        out.put(p.bytes());
    }
    // Rule 6: the opaque tail holds the rest of the stored node, its children included; children
    // added in code follow it.
    out.put(node.opaque());
    for (const Node& child : node.children()) write_node(out, child, sizes, index);
}

Expected<void> check_sizes(const Document& document, const std::vector<std::uint64_t>& sizes) {
    for (std::uint64_t size : sizes)
        if (size > 0xFFFFFFFFu) {
            Diagnostic d;
            d.file = document.source_name;
            d.rule = "cast.node-too-large";
            d.message = fmt::format(
                "a node of {} bytes does not fit Cast's 32-bit NodeSize; split the scene", size);
            return make_error(d);
        }
    return {};
}

// Refuses what the reader would read back differently or not at all (storable.hpp), before
// anything is sized or written.
Expected<void> check_storable(const Document& document) {
    auto found = find_unstorable(document);
    if (!found) return {};
    Diagnostic d;
    d.file = document.source_name;
    d.offset = found->file_offset == Node::kNotRead ? Diagnostic::kNoOffset : found->file_offset;
    d.path = std::move(found->path);
    d.rule = "property.payload";
    d.message = std::move(found->message) + "; nothing was written";
    return make_error(std::move(d));
}

// Called after check_storable: every property is consistent.
Expected<void> write_document(const Document& document, StreamWriter::Flush flush) {
    std::vector<std::uint64_t> sizes = all_sizes(document);
    if (auto ok = check_sizes(document, sizes); !ok) return ok;
    StreamWriter out(std::move(flush));
    out.put_value<std::uint32_t>(0x74736163);
    out.put_value<std::uint32_t>(document.version);
    out.put_value<std::uint32_t>(static_cast<std::uint32_t>(document.roots().size()));
    out.put_value<std::uint32_t>(document.flags);
    std::size_t index = 0;
    for (const Node& root : document.roots()) write_node(out, root, sizes, index);
    out.put(document.trailing);
    return out.finish();
}

}  // namespace

std::uint64_t file_size(const Document& document) {
    std::uint64_t size = 16 + document.trailing.size();
    for (const Node& root : document.roots()) size += root.computed_size();
    return size;
}

Expected<std::vector<std::byte>> write_to_buffer(const Document& document) {
    if (auto ok = check_storable(document); !ok) return make_error(ok.error());
    std::vector<std::byte> buffer;
    buffer.reserve(file_size(document));
    auto ok = write_document(document, [&](Bytes bytes) -> Expected<void> {
        buffer.insert(buffer.end(), bytes.begin(), bytes.end());
        return {};
    });
    if (!ok) return make_error(ok.error());
    return buffer;
}

Expected<void> write(const Document& document, Sink& sink) {
    if (auto ok = check_storable(document); !ok) return ok;
    sink.reserve(file_size(document));
    return write_document(document, [&](Bytes bytes) { return sink.write(bytes); });
}

Expected<void> write(const Document& document, const std::filesystem::path& path) {
    if (auto ok = check_storable(document); !ok) return ok;
    if (path == "-")
        return write_document(document, [](Bytes bytes) { return platform::write_stdout(bytes); });
    auto file = platform::create_atomic_file(path, file_size(document));
    if (!file) return make_error(file.error());
    platform::AtomicFile& out = **file;
    if (auto ok = write_document(document, [&](Bytes bytes) { return out.write(bytes); }); !ok)
        return ok;
    return out.commit();
}

}  // namespace castkit::cast

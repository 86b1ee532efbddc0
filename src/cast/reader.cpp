// The Cast reader: parses the header and node tree of a buffer, keeping every payload as a view
// into it. Every count is checked against the bytes left before anything is allocated.
#include <fmt/format.h>

#include <algorithm>
#include <castkit/cast/document.hpp>
#include <cstring>

#include "../platform/platform.hpp"
#include "english.hpp"
#include "node_access.hpp"
#include "node_path.hpp"

namespace castkit::cast {
namespace {

constexpr std::uint32_t kMagic = 0x74736163;  // "cast"
constexpr std::size_t kFileHeaderSize = 16;
constexpr std::size_t kNodeHeaderSize = 24;
constexpr std::size_t kPropertyHeaderSize = 8;
constexpr std::uint32_t kReserveAtMost = 64;  // entries reserved ahead of reading them

std::string human_size(double bytes) {
    const char* units[] = {"bytes", "KB", "MB", "GB", "TB", "PB"};
    int unit = 0;
    while (bytes >= 1000.0 && unit < 5) {
        bytes /= 1000.0;
        ++unit;
    }
    if (unit == 0) return count_of(static_cast<std::uint64_t>(bytes), "byte");
    return fmt::format("{:.3g} {}", bytes, units[unit]);
}

// A property type id as hex plus its file bytes when they are printable ("0x0071 'q'").
std::string type_text(std::uint16_t type_id) {
    std::string text = fmt::format("{:#06x}", type_id);
    const char low = static_cast<char>(type_id & 0xFF), high = static_cast<char>(type_id >> 8);
    auto printable = [](char c) { return c >= 0x20 && c < 0x7F; };
    if (printable(low) && (high == 0 || printable(high)))
        text += fmt::format(" '{}{}'", low, high == 0 ? std::string() : std::string(1, high));
    return text;
}

class Reader {
  public:
    Reader(SharedBytes data, Document& document, Diagnostics& diagnostics,
           const ReadOptions& options)
        : data_(data), document_(document), diagnostics_(diagnostics), options_(options) {}

    Expected<void> read_file();

  private:
    Expected<std::unique_ptr<Node>> read_node(std::size_t& pos, std::size_t bound,
                                              const PathStep& step, std::uint32_t depth);
    // Reads property `index` of `property_count`; sets `unknown_type` for an unknown type id.
    Expected<void> read_property(Node& node, std::size_t& pos, std::size_t bound,
                                 std::uint64_t node_end, const PathStep& step, std::uint32_t index,
                                 std::uint32_t property_count, bool& unknown_type);
    Expected<void> read_opaque_tail(Node& node, std::size_t property_start, std::size_t node_start,
                                    std::uint64_t declared_end, std::size_t bound,
                                    const PathStep& step, std::uint16_t type_id,
                                    std::uint32_t opaque_properties, std::uint32_t opaque_children);

    // A finding at `offset` and `step`'s node path with the stable id `rule` (docs/diagnostics.md).
    Diagnostic at(std::size_t offset, const PathStep* step, std::string rule,
                  std::string message) const {
        Diagnostic d;
        d.rule = std::move(rule);
        d.file = document_.source_name;
        d.offset = offset;
        if (step != nullptr) d.path = format_path(step);
        d.message = std::move(message);
        return d;
    }
    void warn(std::size_t offset, const PathStep* step, std::string rule, std::string message) {
        Diagnostic d = at(offset, step, std::move(rule), std::move(message));
        d.severity = Severity::Warning;
        diagnostics_.push_back(std::move(d));
    }

    SharedBytes data_;  // every payload view shares its owner
    Document& document_;
    Diagnostics& diagnostics_;
    const ReadOptions& options_;
};

Expected<void> Reader::read_file() {
    if (data_.size() < kFileHeaderSize)
        return make_error(at(0, nullptr, "cast.truncated",
                             fmt::format("truncated header: a cast file starts with 16 bytes, this "
                                         "one has {}",
                                         data_.size())));
    if (load<std::uint32_t>(data_.data()) != kMagic)
        return make_error(at(0, nullptr, "cast.bad-magic", "not a cast file (bad magic)"));
    document_.version = load<std::uint32_t>(data_.data() + 4);
    std::uint32_t root_count = load<std::uint32_t>(data_.data() + 8);
    document_.flags = load<std::uint32_t>(data_.data() + 12);
    if (document_.version != 1)
        return make_error(
            at(4, nullptr, "cast.unsupported-version",
               fmt::format("unsupported version {} (castkit reads version 1)", document_.version)));
    if (document_.flags != 0)
        warn(12, nullptr, "cast.flags",
             fmt::format("non-zero header flags {:#x}", document_.flags));

    std::size_t pos = kFileHeaderSize;
    if (root_count > (data_.size() - pos) / kNodeHeaderSize)
        return make_error(
            at(8, nullptr, "cast.count-past-end",
               fmt::format("header claims {} but only {} {}", count_of(root_count, "root"),
                           count_of(data_.size() - pos, "byte"),
                           data_.size() - pos == 1 ? "follows" : "follow")));
    NodeAccess::reserve_roots(document_, root_count);
    SiblingCounter counter;
    for (std::uint32_t i = 0; i < root_count; ++i) {
        std::uint32_t id = pos + 4 <= data_.size() ? load<std::uint32_t>(data_.data() + pos) : 0;
        PathStep step{nullptr, id, counter.next(id)};
        auto root = read_node(pos, data_.size(), step, 1);
        if (!root) return make_error(root.error());
        NodeAccess::append_root(document_, std::move(*root));
    }
    if (pos < data_.size()) {
        document_.trailing = data_.subspan(pos);
        warn(pos, nullptr, "cast.trailing",
             fmt::format("{} after the last root", count_of(data_.size() - pos, "byte")));
    }
    return {};
}

Expected<std::unique_ptr<Node>> Reader::read_node(std::size_t& pos, std::size_t bound,
                                                  const PathStep& step, std::uint32_t depth) {
    const std::size_t start = pos;
    if (depth > options_.max_depth)
        return make_error(at(start, &step, "cast.too-deep",
                             fmt::format("nodes nested deeper than {}", options_.max_depth)));
    if (bound - pos < kNodeHeaderSize)
        return make_error(at(start, &step, "cast.truncated",
                             fmt::format("truncated: the file ends {} into this node's "
                                         "24-byte header",
                                         count_of(bound - pos, "byte"))));
    const std::byte* header = data_.data() + pos;
    auto node =
        std::make_unique<Node>(load<std::uint32_t>(header), load<std::uint64_t>(header + 8));
    node->file_offset = start;
    const std::uint32_t declared_size = load<std::uint32_t>(header + 4);
    const std::uint32_t property_count = load<std::uint32_t>(header + 16);
    const std::uint32_t child_count = load<std::uint32_t>(header + 20);
    const std::uint64_t declared_end = std::uint64_t{start} + declared_size;
    pos += kNodeHeaderSize;

    const std::size_t left = bound - pos;
    if (property_count > left / kPropertyHeaderSize)
        return make_error(at(start + 16, &step, "cast.count-past-end",
                             fmt::format("node claims {} but has {} left",
                                         count_of(property_count, "property", "properties"),
                                         count_of(left, "byte"))));
    if (child_count > left / kNodeHeaderSize)
        return make_error(
            at(start + 20, &step, "cast.count-past-end",
               fmt::format("node claims {} but has {} left",
                           count_of(child_count, "child", "children"), count_of(left, "byte"))));

    // Counts are reserved only up to a small cap, and no more than the node's own declared bytes
    // can hold, and grown by what is actually read: a node may stop early at an unknown property
    // type, and nodes all claim the bytes left, so reserving what they claim (or the cap, for
    // each of 40,000 nodes of 26 bytes) would let a small file allocate many times its size.
    const auto own_end = static_cast<std::size_t>(std::min<std::uint64_t>(declared_end, bound));
    const std::size_t own_bytes = own_end > pos ? own_end - pos : 0;
    node->properties.reserve(
        std::min<std::size_t>({property_count, kReserveAtMost, own_bytes / kPropertyHeaderSize}));
    for (std::uint32_t i = 0; i < property_count; ++i) {
        const std::size_t property_start = pos;
        bool unknown_type = false;
        if (auto ok = read_property(*node, pos, bound, declared_end, step, i, property_count,
                                    unknown_type);
            !ok)
            return make_error(ok.error());
        if (unknown_type) {
            auto type_id = load<std::uint16_t>(data_.data() + property_start);
            if (auto ok = read_opaque_tail(*node, property_start, start, declared_end, bound, step,
                                           type_id, property_count - i, child_count);
                !ok)
                return make_error(ok.error());
            pos = static_cast<std::size_t>(declared_end);
            return node;
        }
    }

    NodeAccess::reserve_children(
        *node, std::min<std::size_t>({child_count, kReserveAtMost, own_bytes / kNodeHeaderSize}));
    SiblingCounter counter;
    for (std::uint32_t i = 0; i < child_count; ++i) {
        std::uint32_t id = bound - pos >= 4 ? load<std::uint32_t>(data_.data() + pos) : 0;
        PathStep child_step{&step, id, counter.next(id)};
        auto child = read_node(pos, bound, child_step, depth + 1);
        if (!child) return make_error(child.error());
        NodeAccess::append_child(*node, std::move(*child));
    }

    const std::uint64_t content_size = pos - start;
    if (content_size != declared_size) {
        std::string where = declared_end > data_.size() ? " (past the end of the file)" : "";
        warn(start + 4, &step, "cast.nodesize",
             fmt::format("NodeSize says {}{} but the content is {}; content wins, a "
                         "rewrite corrects it",
                         count_of(declared_size, "byte"), where, content_size));
    }
    return node;
}

Expected<void> Reader::read_property(Node& node, std::size_t& pos, std::size_t bound,
                                     std::uint64_t node_end, const PathStep& step,
                                     std::uint32_t index, std::uint32_t property_count,
                                     bool& unknown_type) {
    const std::size_t start = pos;
    const std::size_t header_left = bound - pos;
    if (header_left < kPropertyHeaderSize) {
        std::string type =
            header_left >= 2
                ? fmt::format(" (type {})", type_text(load<std::uint16_t>(data_.data() + pos)))
                : std::string();
        return make_error(
            at(start, &step, "cast.truncated",
               fmt::format("truncated: the file ends {} into the 8-byte header "
                           "of property {} of {}{}",
                           count_of(header_left, "byte"), index + 1, property_count, type)));
    }
    const std::byte* header = data_.data() + pos;
    const auto type_id = load<std::uint16_t>(header);
    const auto name_size = load<std::uint16_t>(header + 2);
    const auto count = load<std::uint32_t>(header + 4);
    if (!is_known_type(type_id)) {
        unknown_type = true;
        return {};
    }
    const auto type = static_cast<PropertyType>(type_id);
    pos += kPropertyHeaderSize;
    if (bound - pos < name_size)
        return make_error(
            at(start + 2, &step, "cast.truncated",
               fmt::format("truncated: the name of property {} of {} has {} "
                           "but the file ends after {}",
                           index + 1, property_count, count_of(name_size, "byte"), bound - pos)));
    std::string name(reinterpret_cast<const char*>(data_.data() + pos), name_size);
    pos += name_size;

    const std::size_t left = bound - pos;
    std::size_t payload_size = 0;
    if (type == PropertyType::String) {
        // Rule 4: ArrayLength consecutive NUL-terminated strings.
        const char* begin = reinterpret_cast<const char*>(data_.data() + pos);
        std::size_t scanned = 0;
        for (std::uint32_t i = 0; i < count; ++i) {
            const void* nul = std::memchr(begin + scanned, 0, left - scanned);
            if (nul == nullptr)
                return make_error(at(pos + scanned, &step, "cast.truncated",
                                     fmt::format("truncated: string {} of {} in property '{}' has "
                                                 "no NUL before the end of the file",
                                                 i + 1, count, name)));
            scanned = static_cast<std::size_t>(static_cast<const char*>(nul) - begin) + 1;
        }
        payload_size = scanned;
    } else {
        const std::size_t stride = element_size(type);
        if (count > left / stride) {
            const double claimed = double(count) * double(stride);
            // A claim that fits the node's own NodeSize means the file was cut short; anything
            // else is a corrupt count.
            const bool truncated = double(pos) + claimed <= double(node_end);
            return make_error(at(start + 4, &step, "cast.count-past-end",
                                 fmt::format("{}property '{}' claims {} {} {} ({}) but the "
                                             "node has {} left",
                                             truncated ? "truncated: " : "", name, count,
                                             type_name(type), count == 1 ? "value" : "values",
                                             human_size(claimed), count_of(left, "byte"))));
        }
        payload_size = std::size_t{count} * stride;
    }
    node.properties.emplace_back(type, std::move(name), count, data_.subspan(pos, payload_size));
    pos += payload_size;
    return {};
}

Expected<void> Reader::read_opaque_tail(Node& node, std::size_t property_start,
                                        std::size_t node_start, std::uint64_t declared_end,
                                        std::size_t bound, const PathStep& step,
                                        std::uint16_t type_id, std::uint32_t opaque_properties,
                                        std::uint32_t opaque_children) {
    // Rule 6: only NodeSize can say where this node ends; it must lie inside the parent.
    if (declared_end < property_start || declared_end > bound)
        return make_error(
            at(node_start + 4, &step, "cast.unknowable-size",
               fmt::format("unknown property type {}: its size is unknowable "
                           "and NodeSize ({}) does not end inside the file",
                           type_text(type_id), count_of(declared_end - node_start, "byte"))));
    NodeAccess::set_opaque(
        node,
        data_.subspan(property_start, static_cast<std::size_t>(declared_end) - property_start),
        opaque_properties, opaque_children);
    std::uint16_t name_size =
        bound - property_start >= 8 ? load<std::uint16_t>(data_.data() + property_start + 2) : 0;
    // The name is quoted up to 64 bytes: an unknown header's name size can claim 64 KiB of the
    // nodes after it, and a file of many such nodes would build gigabytes of messages.
    constexpr std::uint16_t kQuotedAtMost = 64;
    std::string name;
    if (property_start + 8 + name_size <= bound) {
        name.assign(reinterpret_cast<const char*>(data_.data() + property_start + 8),
                    std::min(name_size, kQuotedAtMost));
        if (name_size > kQuotedAtMost) name += "...";
    }
    warn(property_start, &step, "cast.unknown-property-type",
         fmt::format("property '{}' has unknown type {}; the rest of the node ({}) is "
                     "kept opaque and written back unchanged",
                     name, type_text(type_id), count_of(node.opaque().size(), "byte")));
    return {};
}

Expected<Document> parse(SharedBytes bytes, std::string_view file, Diagnostics& diagnostics,
                         const ReadOptions& options) {
    Document document;
    document.source_name = std::string(file);
    Reader reader(std::move(bytes), document, diagnostics, options);
    if (auto ok = reader.read_file(); !ok) return make_error(ok.error());
    return document;
}

}  // namespace

Expected<Document> read(Bytes bytes, std::string_view file, Diagnostics& diagnostics,
                        const ReadOptions& options) {
    return parse(SharedBytes{bytes, nullptr}, file, diagnostics, options);
}

Expected<Document> read(SharedBytes bytes, std::string_view file, Diagnostics& diagnostics,
                        const ReadOptions& options) {
    return parse(std::move(bytes), file, diagnostics, options);
}

Expected<Document> read(std::vector<std::byte> bytes, std::string_view file,
                        Diagnostics& diagnostics, const ReadOptions& options) {
    auto storage = std::make_shared<const std::vector<std::byte>>(std::move(bytes));
    return parse(SharedBytes{Bytes(*storage), storage}, file, diagnostics, options);
}

Expected<Document> open(const std::filesystem::path& path, Diagnostics& diagnostics,
                        const ReadOptions& options) {
    auto mapped = platform::map_file(path);
    if (!mapped) return make_error(mapped.error());
    return parse(SharedBytes{(*mapped)->bytes(), *mapped}, platform::utf8_of(path), diagnostics,
                 options);
}

Expected<Document> read_stdin(Diagnostics& diagnostics, const ReadOptions& options) {
    auto bytes = platform::read_stdin();
    if (!bytes) return make_error(bytes.error());
    return read(std::move(*bytes), "<stdin>", diagnostics, options);
}

}  // namespace castkit::cast

// The FBX binary encoding: a 27-byte header (magic and version), then each record as its end
// offset, property count and property bytes (uint32 each), its name (uint8 length), its
// properties (a type letter, then the value), its children and, after children, a 13-byte null
// record; the top list ends with a null record, then the footer.
#include "records.hpp"

#include <array>
#include <cstring>
#include <limits>
#include <stdexcept>

namespace castkit::fbx {
namespace {

constexpr std::string_view kMagic{"Kaydara FBX Binary  \0\x1a\0", 23};
constexpr std::size_t kNullRecord = 13;
// The footer's fixed ids, as every FBX writer puts them (the readers do not check them).
constexpr std::array<std::uint8_t, 16> kFooterId = {0xfa, 0xbc, 0xab, 0x09, 0xd0, 0xc8, 0xd4, 0x66,
                                                    0xb1, 0x76, 0xfb, 0x83, 0x1c, 0xf7, 0x26, 0x7e};
constexpr std::array<std::uint8_t, 16> kFooterEnd = {
    0xf8, 0x5a, 0x8c, 0x6a, 0xde, 0xf5, 0xd9, 0x7e, 0xec, 0xe9, 0x0c, 0xe3, 0x75, 0x8f, 0x29, 0x0b};

template <class T>
std::uint64_t array_bytes(const std::vector<T>& values) {
    return 12 + values.size() * sizeof(T);
}

// The bytes of one property after its type letter.
std::uint64_t value_size(const Property& property) {
    struct Size {
        std::uint64_t operator()(bool) const { return 1; }
        std::uint64_t operator()(std::int32_t) const { return 4; }
        std::uint64_t operator()(std::int64_t) const { return 8; }
        std::uint64_t operator()(float) const { return 4; }
        std::uint64_t operator()(double) const { return 8; }
        std::uint64_t operator()(const std::string& s) const { return 4 + s.size(); }
        std::uint64_t operator()(const Raw& r) const { return 4 + r.bytes.size(); }
        std::uint64_t operator()(const std::vector<std::int32_t>& v) const {
            return array_bytes(v);
        }
        std::uint64_t operator()(const std::vector<std::int64_t>& v) const {
            return array_bytes(v);
        }
        std::uint64_t operator()(const std::vector<float>& v) const { return array_bytes(v); }
        std::uint64_t operator()(const std::vector<double>& v) const { return array_bytes(v); }
    };
    return std::visit(Size{}, property);
}

std::uint64_t properties_size(const Record& record) {
    std::uint64_t size = 0;
    for (const Property& property : record.properties) size += 1 + value_size(property);
    return size;
}

// A record with no children still ends with a null record when it has no properties either
// (an empty scope), as the FBX SDK writes it.
bool closes_with_null(const Record& record) {
    return !record.children.empty() || record.properties.empty();
}

std::uint64_t record_size(const Record& record) {
    std::uint64_t size = 12 + 1 + record.name.size() + properties_size(record);
    for (const Record& child : record.children) size += record_size(child);
    if (closes_with_null(record)) size += kNullRecord;
    return size;
}

std::uint64_t footer_size(std::uint64_t end_of_records) {
    std::uint64_t offset = end_of_records + kFooterId.size() + 4;
    const std::uint64_t pad = 16 - offset % 16;  // 16 when already aligned, as writers do
    return kFooterId.size() + 4 + pad + 4 + 120 + kFooterEnd.size();
}

// Writes into a buffer of the size encoded_size() computed, so nothing is reallocated.
class Writer {
  public:
    explicit Writer(std::uint64_t size) : out_(static_cast<std::size_t>(size)) {}

    void bytes(const void* data, std::size_t size) {
        if (size == 0) return;
        // encoded_size() and the writes below follow one layout; a difference is a bug here.
        if (size > out_.size() - position_) throw std::logic_error("FBX record sizes disagree");
        std::memcpy(out_.data() + position_, data, size);
        position_ += size;
    }
    template <class T>
    void value(T v) {
        // Little-endian on every platform castkit builds for (x86-64, arm64).
        bytes(&v, sizeof v);
    }
    // The buffer starts zeroed.
    void zeros(std::size_t count) {
        if (count > out_.size() - position_) throw std::logic_error("FBX record sizes disagree");
        position_ += count;
    }
    std::uint64_t offset() const { return position_; }
    std::vector<std::byte> take() { return std::move(out_); }

    template <class T>
    void array(char type, const std::vector<T>& values) {
        value(type);
        value(static_cast<std::uint32_t>(values.size()));
        value(std::uint32_t{0});  // encoding: uncompressed
        value(static_cast<std::uint32_t>(values.size() * sizeof(T)));
        bytes(values.data(), values.size() * sizeof(T));
    }
    void text(char type, std::string_view s) {
        value(type);
        value(static_cast<std::uint32_t>(s.size()));
        bytes(s.data(), s.size());
    }

    void property(const Property& property) {
        struct Visit {
            Writer& w;
            void operator()(bool v) const { w.value('C'), w.value(static_cast<std::uint8_t>(v)); }
            void operator()(std::int32_t v) const { w.value('I'), w.value(v); }
            void operator()(std::int64_t v) const { w.value('L'), w.value(v); }
            void operator()(float v) const { w.value('F'), w.value(v); }
            void operator()(double v) const { w.value('D'), w.value(v); }
            void operator()(const std::string& v) const { w.text('S', v); }
            void operator()(const Raw& v) const {
                w.value('R');
                w.value(static_cast<std::uint32_t>(v.bytes.size()));
                w.bytes(v.bytes.data(), v.bytes.size());
            }
            void operator()(const std::vector<std::int32_t>& v) const { w.array('i', v); }
            void operator()(const std::vector<std::int64_t>& v) const { w.array('l', v); }
            void operator()(const std::vector<float>& v) const { w.array('f', v); }
            void operator()(const std::vector<double>& v) const { w.array('d', v); }
        };
        std::visit(Visit{*this}, property);
    }

    void record(const Record& record) {
        const std::uint64_t end = offset() + record_size(record);
        value(static_cast<std::uint32_t>(end));
        value(static_cast<std::uint32_t>(record.properties.size()));
        value(static_cast<std::uint32_t>(properties_size(record)));
        value(static_cast<std::uint8_t>(record.name.size()));
        bytes(record.name.data(), record.name.size());
        for (const Property& p : record.properties) property(p);
        for (const Record& child : record.children) this->record(child);
        if (closes_with_null(record)) zeros(kNullRecord);
    }

  private:
    std::vector<std::byte> out_;
    std::size_t position_ = 0;
};

std::uint64_t records_end(std::span<const Record> top) {
    std::uint64_t size = kMagic.size() + 4;
    for (const Record& record : top) size += record_size(record);
    return size + kNullRecord;
}

}  // namespace

Record& Record::add(std::string child_name, std::vector<Property> child_properties) {
    children.push_back({std::move(child_name), std::move(child_properties), {}});
    return children.back();
}

std::uint64_t encoded_size(std::span<const Record> top) {
    const std::uint64_t end = records_end(top);
    return end + footer_size(end);
}

std::vector<std::byte> encode(std::span<const Record> top) {
    const std::uint64_t size = encoded_size(top);
    if (size > std::numeric_limits<std::uint32_t>::max()) return {};
    Writer w(size);
    w.bytes(kMagic.data(), kMagic.size());
    w.value(kVersion);
    for (const Record& record : top) w.record(record);
    w.zeros(kNullRecord);
    w.bytes(kFooterId.data(), kFooterId.size());
    w.zeros(4);
    const std::uint64_t pad = 16 - w.offset() % 16;
    w.zeros(static_cast<std::size_t>(pad));
    w.value(kVersion);
    w.zeros(120);
    w.bytes(kFooterEnd.data(), kFooterEnd.size());
    return w.take();
}

}  // namespace castkit::fbx

// A small reader of binary FBX 7.4 for the tests alone: the record tree with its typed
// properties, from the layout Blender's encode_bin.py and the FBX SDK write (castkit itself reads
// no FBX). Throws std::runtime_error on anything it does not expect, so a malformed file fails the
// test that reads it.
#pragma once

#include <cstdint>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace castkit::test::fbx_reader {

using Value = std::variant<bool, std::int16_t, std::int32_t, std::int64_t, float, double,
                           std::string, std::vector<std::int32_t>, std::vector<std::int64_t>,
                           std::vector<float>, std::vector<double>>;

struct Node {
    std::string name;
    std::vector<Value> properties;
    std::vector<Node> children;

    const Node* child(std::string_view wanted) const {
        for (const Node& c : children)
            if (c.name == wanted) return &c;
        return nullptr;
    }
    std::vector<const Node*> all(std::string_view wanted) const {
        std::vector<const Node*> out;
        for (const Node& c : children)
            if (c.name == wanted) out.push_back(&c);
        return out;
    }
    template <class T>
    const T& get(std::size_t i) const {
        return std::get<T>(properties.at(i));
    }
    // The Properties70 entry `name`'s first value (index 4 of its P record).
    const Node* property70(std::string_view wanted) const {
        const Node* list = child("Properties70");
        if (list == nullptr) return nullptr;
        for (const Node& p : list->children)
            if (std::get<std::string>(p.properties.at(0)) == wanted) return &p;
        return nullptr;
    }
};

struct File {
    std::uint32_t version = 0;
    std::vector<Node> top;
    std::uint32_t footer_version = 0;

    const Node& section(std::string_view name) const {
        for (const Node& n : top)
            if (n.name == name) return n;
        throw std::runtime_error("no section " + std::string(name));
    }
};

class Reader {
  public:
    explicit Reader(const std::vector<std::byte>& bytes) : bytes_(bytes) {}

    File read() {
        static constexpr char kMagic[] = "Kaydara FBX Binary  \0\x1a\0";
        need(27);
        if (std::memcmp(bytes_.data(), kMagic, 23) != 0) throw std::runtime_error("no magic");
        offset_ = 23;
        File file;
        file.version = scalar<std::uint32_t>();
        for (;;) {
            Node node;
            if (!record(node)) break;
            file.top.push_back(std::move(node));
        }
        // The footer: 16 id bytes, 4 zeros, padding to 16, the version, 120 zeros, 16 bytes.
        const std::size_t end = bytes_.size();
        // The version, 120 zeros and 16 bytes after the padding: the file ends 140 bytes past a
        // multiple of 16.
        if (end < 160 || (end - 140) % 16 != 0) throw std::runtime_error("footer size");
        std::memcpy(&file.footer_version, bytes_.data() + end - 16 - 120 - 4, 4);
        return file;
    }

  private:
    const std::vector<std::byte>& bytes_;
    std::size_t offset_ = 0;

    void need(std::size_t n) const {
        if (offset_ + n > bytes_.size()) throw std::runtime_error("truncated");
    }
    template <class T>
    T scalar() {
        need(sizeof(T));
        T v;
        std::memcpy(&v, bytes_.data() + offset_, sizeof(T));
        offset_ += sizeof(T);
        return v;
    }
    std::string text(std::size_t n) {
        need(n);
        std::string s(reinterpret_cast<const char*>(bytes_.data() + offset_), n);
        offset_ += n;
        return s;
    }
    template <class T>
    std::vector<T> array() {
        const auto count = scalar<std::uint32_t>();
        const auto encoding = scalar<std::uint32_t>();
        const auto length = scalar<std::uint32_t>();
        if (encoding != 0 || length != count * sizeof(T)) throw std::runtime_error("array");
        need(length);
        std::vector<T> v(count);
        if (count > 0) std::memcpy(v.data(), bytes_.data() + offset_, length);
        offset_ += length;
        return v;
    }
    Value value(char type) {
        switch (type) {
            case 'C':
                return scalar<std::uint8_t>() != 0;
            case 'Y':
                return scalar<std::int16_t>();
            case 'I':
                return scalar<std::int32_t>();
            case 'L':
                return scalar<std::int64_t>();
            case 'F':
                return scalar<float>();
            case 'D':
                return scalar<double>();
            case 'S':
            case 'R':
                return text(scalar<std::uint32_t>());
            case 'i':
                return array<std::int32_t>();
            case 'l':
                return array<std::int64_t>();
            case 'f':
                return array<float>();
            case 'd':
                return array<double>();
            default:
                throw std::runtime_error(std::string("property type ") + type);
        }
    }
    // One record into `node`; false at the null record that ends a list.
    bool record(Node& node) {
        const auto end = scalar<std::uint32_t>();
        const auto count = scalar<std::uint32_t>();
        const auto length = scalar<std::uint32_t>();
        const auto name_length = scalar<std::uint8_t>();
        if (end == 0) {
            if (count != 0 || length != 0 || name_length != 0) throw std::runtime_error("null");
            return false;
        }
        if (end > bytes_.size()) throw std::runtime_error("end offset past the file");
        node.name = text(name_length);
        const std::size_t properties_start = offset_;
        for (std::uint32_t i = 0; i < count; ++i) node.properties.push_back(value(scalar<char>()));
        if (offset_ - properties_start != length) throw std::runtime_error("property length");
        if (offset_ < end) {
            for (;;) {
                Node child;
                if (!record(child)) break;
                node.children.push_back(std::move(child));
            }
        }
        if (offset_ != end) throw std::runtime_error("record " + node.name + " end offset");
        return true;
    }
};

inline File read(const std::vector<std::byte>& bytes) { return Reader(bytes).read(); }

// The objects of `file` by id.
inline std::map<std::int64_t, const Node*> objects_by_id(const File& file) {
    std::map<std::int64_t, const Node*> out;
    for (const Node& object : file.section("Objects").children)
        out[object.get<std::int64_t>(0)] = &object;
    return out;
}

// The objects of record name `type` and subclass `subclass` (property 2).
inline std::vector<const Node*> objects(const File& file, std::string_view type,
                                        std::string_view subclass) {
    std::vector<const Node*> out;
    for (const Node& object : file.section("Objects").children)
        if (object.name == type && object.get<std::string>(2) == subclass) out.push_back(&object);
    return out;
}

}  // namespace castkit::test::fbx_reader

// Payloads as numpy arrays: zero-copy, read-only views whose base keeps the storage alive; and
// numpy arrays (or anything array-like) as payloads.
#include <algorithm>
#include <array>
#include <castkit/cast/values.hpp>
#include <cstring>
#include <limits>
#include <vector>

#include "common.hpp"

namespace castkit::python {

using cast::PropertyType;

void DocState::register_buffer(const cast::SharedBytes& bytes) {
    if (bytes.empty() || !bytes.owner) return;
    // Forget buffers nobody holds any more once there are many (adopted payloads add one each).
    if (buffers.size() >= 64 && buffers.size() % 64 == 0)
        std::erase_if(buffers, [](const auto& entry) { return entry.second.owner.expired(); });
    buffers[bytes.data()] = Buffer{bytes.data() + bytes.size(), bytes.owner};
}

std::shared_ptr<const void> DocState::owner_of(cast::Bytes bytes) const {
    if (bytes.empty()) return nullptr;
    auto after = buffers.upper_bound(bytes.data());
    if (after == buffers.begin()) return nullptr;
    // The buffer starting at or before the bytes; a live owner means [begin, end) is still
    // that buffer's memory, so bytes inside it are its bytes.
    // (Addresses compared as integers: the bytes may belong to another allocation.)
    const Buffer& buffer = std::prev(after)->second;
    const auto at = reinterpret_cast<std::uintptr_t>(bytes.data());
    if (at + bytes.size() > reinterpret_cast<std::uintptr_t>(buffer.end)) return nullptr;
    return buffer.owner.lock();
}

namespace {

// Elements per value: 2, 3, 4 for vectors, else 1.
std::size_t width_of(PropertyType type) {
    switch (type) {
        case PropertyType::Vector2:
            return 2;
        case PropertyType::Vector3:
            return 3;
        case PropertyType::Vector4:
            return 4;
        default:
            return 1;
    }
}

// The numpy dtype of one component (little-endian, as stored). Parsed once per type: views are
// made per property, and parsing a dtype string costs more than the view itself. The dtypes
// are never freed (they would outlive the interpreter as statics).
py::dtype dtype_of(PropertyType type) {
    static const auto* const dtypes =
        new std::array<py::dtype, 6>{py::dtype("u1"),  py::dtype("<u2"), py::dtype("<u4"),
                                     py::dtype("<u8"), py::dtype("<f8"), py::dtype("<f4")};
    switch (type) {
        case PropertyType::Byte:
            return (*dtypes)[0];
        case PropertyType::Short:
            return (*dtypes)[1];
        case PropertyType::Integer32:
            return (*dtypes)[2];
        case PropertyType::Integer64:
            return (*dtypes)[3];
        case PropertyType::Double:
            return (*dtypes)[4];
        default:
            return (*dtypes)[5];
    }
}

// Clears the array's WRITEABLE flag directly (numpy's setflags through Python costs a call).
py::array read_only(py::array array) {
    py::detail::array_proxy(array.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
    return array;
}

// A read-only array of `rows` × `columns` components of `type` at `data`; `owner` (captured in
// a capsule, the array's base) keeps the bytes alive.
py::array view(PropertyType type, const std::byte* data, std::size_t rows, std::size_t columns,
               bool matrix, std::shared_ptr<const void> owner) {
    const py::dtype dtype = dtype_of(type);
    const auto item = static_cast<py::ssize_t>(dtype.itemsize());
    std::vector<py::ssize_t> shape{static_cast<py::ssize_t>(rows)};
    std::vector<py::ssize_t> strides{item * static_cast<py::ssize_t>(columns)};
    if (matrix) {
        shape.push_back(static_cast<py::ssize_t>(columns));
        strides.push_back(item);
    }
    if (rows == 0) return read_only(py::array(dtype, shape, strides));
    auto* holder = new std::shared_ptr<const void>(std::move(owner));
    py::capsule base(holder, [](void* p) { delete static_cast<std::shared_ptr<const void>*>(p); });
    return read_only(py::array(dtype, shape, strides, data, base));
}

// The property's payload, guaranteed to be viewable: its owner, and where its bytes are. A
// payload not inside a registered buffer is copied once into a new shared buffer, which
// replaces the property (same type, name, count and bytes) and is registered.
std::pair<std::shared_ptr<const void>, const std::byte*> shared_payload(const DocPtr& doc,
                                                                        cast::Node& node,
                                                                        const cast::Property& p) {
    if (auto owner = doc->owner_of(p.bytes())) return {owner, p.bytes().data()};
    auto buffer =
        std::make_shared<const std::vector<std::byte>>(p.bytes().begin(), p.bytes().end());
    cast::SharedBytes shared{cast::Bytes(*buffer), buffer};
    doc->register_buffer(shared);
    cast::Property adopted(p.type(), p.name(), p.count(), shared);
    node.set(std::move(adopted));  // the last property of the name: `p` itself
    return {shared.owner, buffer->data()};
}

py::object values_of(const DocPtr& doc, cast::Node& node, const cast::Property& p,
                     std::size_t rows) {
    if (p.type() == PropertyType::String) {
        py::list out;
        for (std::size_t i = 0; i < p.size(); ++i) out.append(to_str(p.string(i)));
        return out;
    }
    const std::size_t width = width_of(p.type());
    const std::size_t element = cast::element_size(p.type());
    // Never past the payload, whatever the count says.
    const std::size_t count = std::min<std::size_t>(p.count(), p.bytes().size() / element);
    const PropertyType type = p.type();
    auto [owner, data] = shared_payload(doc, node, p);  // may replace `p`
    if (width > 1) return view(type, data, count, width, true, std::move(owner));
    if (rows > 1) return view(type, data, count / rows, rows, true, std::move(owner));
    return view(type, data, count, 1, false, std::move(owner));
}

}  // namespace

Typed<types::OptionalValues> property_values(const DocPtr& doc, cast::Node& node,
                                             std::string_view name) {
    const cast::Property* p = node.find(name);
    if (p == nullptr) return py::none();
    return values_of(doc, node, *p, 1);
}

py::object flat_values(const DocPtr& doc, cast::Node& node, const cast::Property& p) {
    if (p.type() == PropertyType::String) return values_of(doc, node, p, 1);
    const std::size_t element = cast::element_size(p.type());
    const std::size_t count = std::min<std::size_t>(p.count(), p.bytes().size() / element);
    const std::size_t width = width_of(p.type());
    const PropertyType type = p.type();
    auto [owner, data] = shared_payload(doc, node, p);  // may replace `p`
    return cast_values(type, data, count * width, std::move(owner));
}

Typed<types::OptionalArray> typed_values(const DocPtr& doc, cast::Node& node, std::string_view name,
                                         std::initializer_list<PropertyType> types,
                                         std::size_t rows) {
    const cast::Property* p = node.find(name);
    if (p == nullptr || std::find(types.begin(), types.end(), p->type()) == types.end())
        return py::none();
    return values_of(doc, node, *p, rows);
}

namespace {

py::array as_array(const py::handle& values, const char* what) {
    py::module_ numpy = py::module_::import("numpy");
    py::array array = numpy.attr("asarray")(values);
    if (array.dtype().kind() == 'O' || array.dtype().kind() == 'U' || array.dtype().kind() == 'S')
        throw py::type_error(std::string(what) + ": expected numbers, got an array of " +
                             py::str(array.dtype()).cast<std::string>());
    return array;
}

// Rows of `width` components: (n, width); flat arrays only when empty (or width 1).
void check_shape(const py::array& array, std::size_t width, const char* what) {
    if (array.size() == 0) return;
    const bool ok = width == 1
                        ? array.ndim() <= 1
                        : array.ndim() == 2 && array.shape(1) == static_cast<py::ssize_t>(width);
    if (!ok) {
        std::string shape = py::str(array.attr("shape")).cast<std::string>();
        throw py::value_error(
            std::string(what) + ": expected shape " +
            (width == 1 ? std::string("(n,)") : "(n, " + std::to_string(width) + ")") + ", got " +
            shape);
    }
}

void check_count(std::size_t count, const char* what) {
    if (count > std::numeric_limits<std::uint32_t>::max())
        throw py::value_error(std::string(what) + ": more than 4294967295 values cannot be stored");
}

// Integer values checked against [minimum, maximum] and cast to `dtype` (negative values
// stored as two's complement, as the spec stores a bone's parent -1).
py::array integers(const py::handle& values, const char* dtype, const py::int_& minimum,
                   const py::int_& maximum, const char* what) {
    py::array array = as_array(values, what);
    const char kind = array.dtype().kind();
    if (array.size() > 0 && kind != 'i' && kind != 'u' && kind != 'b')
        throw py::type_error(std::string(what) + ": expected integers, got " +
                             py::str(array.dtype()).cast<std::string>());
    if (array.size() > 0) {
        // Compared as Python ints: exact for every numpy integer.
        py::int_ low = array.attr("min")().attr("item")();
        py::int_ high = array.attr("max")().attr("item")();
        if (low < minimum || high > maximum)
            throw py::value_error(
                std::string(what) + ": values from " + py::str(low).cast<std::string>() + " to " +
                py::str(high).cast<std::string>() + " do not fit the stored type");
    }
    py::module_ numpy = py::module_::import("numpy");
    return numpy.attr("ascontiguousarray")(array.attr("ravel")(), py::arg("dtype") = dtype);
}

py::int_ integer(long long value) { return py::int_(value); }
py::int_ unsigned_integer(unsigned long long value) { return py::int_(value); }

}  // namespace

py::array_t<float, py::array::c_style> to_f32(const py::handle& values, std::size_t width,
                                              const char* what) {
    py::array array = as_array(values, what);
    check_shape(array, width, what);
    py::module_ numpy = py::module_::import("numpy");
    py::array_t<float, py::array::c_style> out =
        numpy.attr("ascontiguousarray")(array, py::arg("dtype") = "<f4");
    check_count(static_cast<std::size_t>(out.size()) / width, what);
    return out;
}

std::vector<std::uint32_t> to_u32(const py::handle& values, const char* what) {
    py::array array = integers(values, "<u4", integer(0), unsigned_integer(0xFFFFFFFFull), what);
    check_count(static_cast<std::size_t>(array.size()), what);
    std::vector<std::uint32_t> out(static_cast<std::size_t>(array.size()));
    if (!out.empty()) std::memcpy(out.data(), array.data(), out.size() * sizeof(std::uint32_t));
    return out;
}

void set_array(const DocPtr& doc, cast::Node& node, std::string name, PropertyType type,
               const py::handle& values) {
    const char* what = name.c_str();
    py::array array;
    const std::size_t width = width_of(type);
    switch (type) {
        case PropertyType::Byte:
            array = integers(values, "u1", integer(-128), integer(255), what);
            break;
        case PropertyType::Short:
            array = integers(values, "<u2", integer(-32768), integer(65535), what);
            break;
        case PropertyType::Integer32:
            array = integers(values, "<u4", integer(-2147483648LL), unsigned_integer(0xFFFFFFFFull),
                             what);
            break;
        case PropertyType::Integer64:
            array = integers(values, "<u8", integer(std::numeric_limits<long long>::min()),
                             unsigned_integer(~0ull), what);
            break;
        case PropertyType::Double: {
            py::array in = as_array(values, what);
            check_shape(in, 1, what);
            array = py::module_::import("numpy").attr("ascontiguousarray")(
                in, py::arg("dtype") = "<f8");
            break;
        }
        case PropertyType::String:
            throw py::type_error(std::string(what) +
                                 ": strings are set with set_property(name, 's', text)");
        default:
            array = to_f32(values, width, what);
            break;
    }
    const std::size_t count = static_cast<std::size_t>(array.size()) / width;
    check_count(count, what);
    const std::size_t size = count * cast::element_size(type);
    auto buffer = std::make_shared<std::vector<std::byte>>(size);
    if (size > 0) std::memcpy(buffer->data(), array.data(), size);
    cast::SharedBytes shared{cast::Bytes(buffer->data(), size), buffer};
    doc->register_buffer(shared);
    node.set(cast::Property(type, std::move(name), static_cast<std::uint32_t>(count), shared));
}

}  // namespace castkit::python

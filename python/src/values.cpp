// castkit.cast.CastValues: a numeric property's values as castkit.cast hands them out, a
// read-only sequence over the payload's bytes, written against the CPython API (pybind11's
// dispatch costs more than the element). Why its own type: the official Blender add-on reads
// buffers one element at a time (face remaps, per-loop UVs and normals, weights, every key),
// millions of `values[i]` per import, and the numpy array subclass castkit.cast handed out
// before, with a __getitem__ in Python, cost 6x a tuple's element. Here an element is a C slot:
// its bytes loaded and made a Python int or float. Whole buffers go through the buffer
// protocol in the plain format Blender's foreach_set takes ("f", not "=f" or "<f"), from an
// aligned copy made once when the file's payload is unaligned (Cast has no alignment) or the
// view is a strided slice.
#include <algorithm>
#include <cstring>
#include <memory>

#include "common.hpp"

namespace castkit::python {
namespace {

struct Values {
    PyObject ob_base;       // PyObject_HEAD
    const std::byte* data;  // the first element
    Py_ssize_t length;      // elements
    Py_ssize_t stride;      // bytes from one element to the next (a slice's step × item size)
    Py_ssize_t itemsize;
    char format;            // the struct code of one element: B H I Q f d
    PyObject* owner;        // keeps `data` alive: a capsule, an array, or another CastValues
    std::byte* contiguous;  // the aligned, contiguous copy buffers export, made once; or null
    PyObject* elements;     // every element as a tuple, made once many are read; or null
    Py_ssize_t reads;       // elements read one at a time while `elements` was not made
    Py_ssize_t shape;       // for the exported buffer (length)
    Py_ssize_t strides;     // for the exported buffer (itemsize)
    char format_text[2];    // for the exported buffer ("f")
};

// The type, made once by register_values (a heap type, from a spec).
PyTypeObject* values_type = nullptr;

Values* as_values(PyObject* object) { return reinterpret_cast<Values*>(object); }

template <class T>
T load(const std::byte* at) {
    T value;
    std::memcpy(&value, at, sizeof(T));  // payloads are unaligned
    return value;
}

// Element `i` (in range) as a Python int or float.
PyObject* element(const Values* values, Py_ssize_t i) {
    const std::byte* at = values->data + i * values->stride;
    switch (values->format) {
        case 'B':
            return PyLong_FromLong(load<std::uint8_t>(at));
        case 'H':
            return PyLong_FromLong(load<std::uint16_t>(at));
        case 'I':
            return PyLong_FromUnsignedLong(load<std::uint32_t>(at));
        case 'Q':
            return PyLong_FromUnsignedLongLong(load<std::uint64_t>(at));
        case 'f':
            return PyFloat_FromDouble(load<float>(at));
        default:
            return PyFloat_FromDouble(load<double>(at));
    }
}

PyObject* make(const std::byte* data, Py_ssize_t length, Py_ssize_t stride, Py_ssize_t itemsize,
               char format, PyObject* owner) {
    Values* values = PyObject_New(Values, values_type);
    if (values == nullptr) return nullptr;
    values->data = data;
    values->length = length;
    values->stride = stride;
    values->itemsize = itemsize;
    values->format = format;
    values->format_text[0] = format;
    values->format_text[1] = '\0';
    Py_XINCREF(owner);
    values->owner = owner;
    values->contiguous = nullptr;
    values->elements = nullptr;
    values->reads = 0;
    values->shape = length;
    values->strides = itemsize;
    return reinterpret_cast<PyObject*>(values);
}

void dealloc(PyObject* self) {
    Values* values = as_values(self);
    PyTypeObject* type = Py_TYPE(self);
    Py_XDECREF(values->owner);
    Py_XDECREF(values->elements);
    PyMem_Free(values->contiguous);
    PyObject_Free(self);
    Py_DECREF(type);  // each instance of a heap type holds its type
}

Py_ssize_t length(PyObject* self) { return as_values(self)->length; }

PyObject* as_tuple(PyObject* self);

// Code that reads a buffer one element at a time reads it whole, often several times over (the
// Blender add-on reads each face index three times, each UV and normal once per face corner).
// Made from its bytes on every read, an element cost 1.5 to 2.2 times a tuple's (a new float,
// or an int past 256, each time); so once a quarter of the elements have been read, all of them
// are made once and kept as a tuple, as cast.py holds them, and handed out from it. A few reads
// of a large buffer never pay for the whole, and a buffer only exported never holds objects.
bool keep_elements(Values* values) {
    if (values->elements != nullptr) return true;
    if (++values->reads < values->length / 4 + 16) return false;
    values->elements = as_tuple(reinterpret_cast<PyObject*>(values));
    if (values->elements == nullptr) PyErr_Clear();  // no memory: go on making them one by one
    return values->elements != nullptr;
}

PyObject* item(PyObject* self, Py_ssize_t i) {
    Values* values = as_values(self);
    if (i < 0 || i >= values->length) {
        PyErr_SetString(PyExc_IndexError, "CastValues index out of range");
        return nullptr;
    }
    if (keep_elements(values)) return Py_NewRef(PyTuple_GET_ITEM(values->elements, i));
    return element(values, i);
}

// for x in values: the kept tuple's own iterator once the elements are made, else one that reads
// them one at a time through item() (which then makes them, a quarter of the way through).
PyObject* iterate(PyObject* self) {
    Values* values = as_values(self);
    if (values->elements != nullptr) return PyObject_GetIter(values->elements);
    return PySeqIter_New(self);
}

// values[i] (a negative i counts from the end, as a tuple's) or values[start:stop:step], a
// CastValues viewing the same bytes.
PyObject* subscript(PyObject* self, PyObject* key) {
    Values* values = as_values(self);
    if (PyLong_CheckExact(key)) {  // the common case first: values[i]
        Py_ssize_t i = PyLong_AsSsize_t(key);
        if (i == -1 && PyErr_Occurred()) return nullptr;
        if (i < 0) i += values->length;
        return item(self, i);
    }
    if (PyIndex_Check(key)) {
        Py_ssize_t i = PyNumber_AsSsize_t(key, PyExc_IndexError);
        if (i == -1 && PyErr_Occurred()) return nullptr;
        if (i < 0) i += values->length;
        return item(self, i);
    }
    if (PySlice_Check(key)) {
        Py_ssize_t start = 0, stop = 0, step = 0;
        if (PySlice_Unpack(key, &start, &stop, &step) < 0) return nullptr;
        const Py_ssize_t count = PySlice_AdjustIndices(values->length, &start, &stop, step);
        PyObject* owner = values->owner != nullptr ? values->owner : self;
        return make(values->data + start * values->stride, count, values->stride * step,
                    values->itemsize, values->format, owner);
    }
    PyErr_Format(PyExc_TypeError, "CastValues indices must be integers or slices, not %.200s",
                 Py_TYPE(key)->tp_name);
    return nullptr;
}

PyObject* as_tuple(PyObject* self) {
    const Values* values = as_values(self);
    if (values->elements != nullptr) return Py_NewRef(values->elements);
    PyObject* tuple = PyTuple_New(values->length);
    if (tuple == nullptr) return nullptr;
    for (Py_ssize_t i = 0; i < values->length; ++i) {
        PyObject* value = element(values, i);
        if (value == nullptr) {
            Py_DECREF(tuple);
            return nullptr;
        }
        PyTuple_SET_ITEM(tuple, i, value);
    }
    return tuple;
}

PyObject* to_list(PyObject* self, PyObject*) {
    PyObject* tuple = as_tuple(self);
    if (tuple == nullptr) return nullptr;
    PyObject* list = PySequence_List(tuple);
    Py_DECREF(tuple);
    return list;
}

// `values + (w,)` and `(w,) + values` concatenate as cast.py's tuples do (the Maya plug-in pads
// each position with `+ (1.0,)`); with a list, a list.
PyObject* add(PyObject* left, PyObject* right) {
    const bool left_is_values = PyObject_TypeCheck(left, values_type);
    PyObject* other = left_is_values ? right : left;
    PyObject* self = left_is_values ? left : right;
    if (!PyTuple_Check(other) && !PyList_Check(other)) Py_RETURN_NOTIMPLEMENTED;
    PyObject* mine = PyTuple_Check(other) ? as_tuple(self) : to_list(self, nullptr);
    if (mine == nullptr) return nullptr;
    PyObject* sum =
        left_is_values ? PySequence_Concat(mine, other) : PySequence_Concat(other, mine);
    Py_DECREF(mine);
    return sum;
}

// The bytes to export: the payload itself when contiguous and aligned for its type, else a
// copy made on the first export and kept (PyMem_Malloc aligns for every element type).
const std::byte* exported_bytes(Values* values) {
    const bool contiguous = values->stride == values->itemsize || values->length <= 1;
    const bool aligned = reinterpret_cast<std::uintptr_t>(values->data) % values->itemsize == 0;
    if (contiguous && aligned) return values->data;
    if (values->contiguous == nullptr) {
        auto* copy = static_cast<std::byte*>(
            PyMem_Malloc(static_cast<std::size_t>(std::max<Py_ssize_t>(1, values->length)) *
                         static_cast<std::size_t>(values->itemsize)));
        if (copy == nullptr) {
            PyErr_NoMemory();
            return nullptr;
        }
        const auto item = static_cast<std::size_t>(values->itemsize);
        if (contiguous)
            std::memcpy(copy, values->data, static_cast<std::size_t>(values->length) * item);
        else
            for (Py_ssize_t i = 0; i < values->length; ++i)
                std::memcpy(copy + static_cast<std::size_t>(i) * item,
                            values->data + i * values->stride, item);
        values->contiguous = copy;
    }
    return values->contiguous;
}

int get_buffer(PyObject* self, Py_buffer* view, int flags) {
    if ((flags & PyBUF_WRITABLE) == PyBUF_WRITABLE) {
        PyErr_SetString(PyExc_BufferError, "CastValues are read-only");
        view->obj = nullptr;
        return -1;
    }
    Values* values = as_values(self);
    const std::byte* bytes = exported_bytes(values);
    if (bytes == nullptr) {
        view->obj = nullptr;
        return -1;
    }
    view->buf = const_cast<std::byte*>(bytes);
    view->obj = Py_NewRef(self);
    view->len = values->length * values->itemsize;
    view->readonly = 1;
    view->itemsize = values->itemsize;
    view->format = (flags & PyBUF_FORMAT) == PyBUF_FORMAT ? values->format_text : nullptr;
    view->ndim = 1;
    view->shape = (flags & PyBUF_ND) == PyBUF_ND ? &values->shape : nullptr;
    view->strides = (flags & PyBUF_STRIDES) == PyBUF_STRIDES ? &values->strides : nullptr;
    view->suboffsets = nullptr;
    view->internal = nullptr;
    return 0;
}

PyObject* dtype(PyObject* self, void*) {
    PyObject* numpy = PyImport_ImportModule("numpy");
    if (numpy == nullptr) return nullptr;
    PyObject* out = PyObject_CallMethod(numpy, "dtype", "s", as_values(self)->format_text);
    Py_DECREF(numpy);
    return out;
}

PyObject* repr(PyObject* self) {
    PyObject* list = to_list(self, nullptr);
    if (list == nullptr) return nullptr;
    PyObject* out = PyUnicode_FromFormat("CastValues(%R)", list);
    Py_DECREF(list);
    return out;
}

// pickle and copy.deepcopy give a tuple of the values, what cast.py holds: a copy never views
// the file.
PyObject* reduce(PyObject* self, PyObject*) {
    PyObject* tuple = as_tuple(self);
    if (tuple == nullptr) return nullptr;
    return Py_BuildValue("(O(N))", reinterpret_cast<PyObject*>(&PyTuple_Type), tuple);
}

PyMethodDef methods[] = {
    // The first line is the signature, as pybind11 writes it, for the stub (generate_stub.py).
    {"tolist", to_list, METH_NOARGS,
     "tolist(self) -> List[Union[int, float]]\n\nThe values as a list of Python ints or floats."},
    {"__reduce__", reduce, METH_NOARGS, "Pickles as the tuple of the values."},
    {nullptr, nullptr, 0, nullptr},
};

PyGetSetDef getset[] = {
    {"dtype", dtype, nullptr, "The numpy dtype of one value (np.asarray(values) views them).",
     nullptr},
    {nullptr, nullptr, nullptr, nullptr, nullptr},
};

// The buffer-protocol format of one value of `type`: float for Float and the vectors' float
// components.
char buffer_format(cast::PropertyType type) {
    switch (type) {
        case cast::PropertyType::Byte:
            return 'B';
        case cast::PropertyType::Short:
            return 'H';
        case cast::PropertyType::Integer32:
            return 'I';
        case cast::PropertyType::Integer64:
            return 'Q';
        case cast::PropertyType::Double:
            return 'd';
        default:
            return 'f';
    }
}

}  // namespace

py::object cast_values(cast::PropertyType type, const std::byte* data, std::size_t count,
                       std::shared_ptr<const void> owner) {
    const char format = buffer_format(type);
    const auto itemsize =
        static_cast<Py_ssize_t>(format == 'f' ? sizeof(float) : cast::element_size(type));
    auto* holder = new std::shared_ptr<const void>(std::move(owner));
    py::capsule base(holder, [](void* p) { delete static_cast<std::shared_ptr<const void>*>(p); });
    PyObject* values =
        make(data, static_cast<Py_ssize_t>(count), itemsize, itemsize, format, base.ptr());
    if (values == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(values);
}

namespace {

CASTKIT_PYTHON_TYPE(ValuesName, "CastValues");

// The struct code of a numpy dtype CastValues can hold, or 0.
char format_of(const py::dtype& dtype) {
    const char kind = dtype.kind();
    const auto size = dtype.itemsize();
    if (kind == 'u')
        return size == 1 ? 'B' : size == 2 ? 'H' : size == 4 ? 'I' : size == 8 ? 'Q' : 0;
    if (kind == 'f') return size == 4 ? 'f' : size == 8 ? 'd' : 0;
    return 0;
}

// A CastValues over a one-dimensional, contiguous numpy array of native byte order, which it
// keeps alive (a referenced array cannot be resized): what castkit.cast's setters store, so
// that getters hand out the same type whether a value was loaded or set.
Typed<ValuesName> values_of(const py::array& array) {
    const char format = format_of(array.dtype());
    if (format == 0 || array.ndim() != 1 || !(array.flags() & py::array::c_style) ||
        array.dtype().byteorder() == '>')
        throw py::type_error(
            "values_of: expected a flat, contiguous array of u1, u2, u4, u8, "
            "f4 or f8");
    PyObject* values = make(static_cast<const std::byte*>(array.data()), array.shape(0),
                            array.itemsize(), array.itemsize(), format, array.ptr());
    if (values == nullptr) throw py::error_already_set();
    return py::reinterpret_steal<py::object>(values);
}

}  // namespace

// CastColor.fromInteger, which the Blender add-on calls once per face corner of a mesh with
// packed colours (two million calls for the 28 MiB model of bench/blender_addon.py, a seventh
// of its import in Python): the four bytes of a packed colour, R in the low byte, as floats in
// [0, 1], shared from 256 made once (floats are immutable). A plain C function, not a pybind11
// one, whose dispatch would cost more than the work. Anything but an int in range goes through
// `pack` (cast.py's struct.pack("<I", ...)), so that errors are cast.py's.
PyObject* color_from_integer(PyObject* pack, PyObject* color) {
    static PyObject* channels[256] = {};
    if (channels[255] == nullptr)
        for (int i = 0; i < 256; ++i)
            if ((channels[i] = PyFloat_FromDouble(i / 255.0)) == nullptr) return nullptr;
    unsigned long long packed = 0;
    int overflow = 0;
    const long long value =
        PyLong_Check(color) ? PyLong_AsLongLongAndOverflow(color, &overflow) : -1;
    if (PyErr_Occurred()) return nullptr;
    if (overflow == 0 && value >= 0 && value <= 0xFFFFFFFFLL) {
        packed = static_cast<unsigned long long>(value);
    } else {
        PyObject* bytes = PyObject_CallOneArg(pack, color);  // raises struct.error
        if (bytes == nullptr) return nullptr;
        const auto* data = reinterpret_cast<const unsigned char*>(PyBytes_AS_STRING(bytes));
        packed =
            data[0] | data[1] << 8 | data[2] << 16 | static_cast<unsigned long long>(data[3]) << 24;
        Py_DECREF(bytes);
    }
    return PyTuple_Pack(4, channels[packed & 0xFF], channels[(packed >> 8) & 0xFF],
                        channels[(packed >> 16) & 0xFF], channels[(packed >> 24) & 0xFF]);
}

void register_values(py::module_& m) {
    static PyType_Slot slots[] = {
        {Py_tp_dealloc, reinterpret_cast<void*>(dealloc)},
        {Py_tp_repr, reinterpret_cast<void*>(repr)},
        {Py_tp_iter, reinterpret_cast<void*>(iterate)},
        {Py_sq_length, reinterpret_cast<void*>(length)},
        {Py_sq_item, reinterpret_cast<void*>(item)},
        {Py_mp_length, reinterpret_cast<void*>(length)},
        {Py_mp_subscript, reinterpret_cast<void*>(subscript)},
        {Py_nb_add, reinterpret_cast<void*>(add)},
        {Py_bf_getbuffer, reinterpret_cast<void*>(get_buffer)},
        {Py_tp_methods, methods},
        {Py_tp_getset, getset},
        {Py_tp_doc,
         const_cast<char*>(
             "A numeric property's values: a read-only sequence of Python ints or floats viewing "
             "the file's bytes (cast.py's tuple, without the copy). Buffers export the plain "
             "format ('f', 'B', 'H', 'I', 'Q', 'd'), aligned.")},
        {0, nullptr},
    };
    // Not made from Python (castkit.cast hands them out): an empty one would have no type.
    static PyType_Spec spec{"castkit.cast.CastValues", sizeof(Values), 0,
                            Py_TPFLAGS_DEFAULT | Py_TPFLAGS_DISALLOW_INSTANTIATION, slots};
    values_type = reinterpret_cast<PyTypeObject*>(PyType_FromSpec(&spec));
    if (values_type == nullptr) throw py::error_already_set();
    py::object type = py::reinterpret_borrow<py::object>(reinterpret_cast<PyObject*>(values_type));
    // A sequence as cast.py's tuples are (isinstance(values, Sequence) holds), and the type of
    // `dtype` for the stub.
    py::module_::import("collections.abc").attr("Sequence").attr("register")(type);
    type.attr("__annotations__") = py::dict(py::arg("dtype") = "numpy.dtype[Any]");
    m.add_object("CastValues", type);
    m.def("values_of", &values_of, py::arg("array"),
          "A CastValues viewing a flat, contiguous numpy array (castkit.cast's setters)");
    // Bound to struct.Struct("<I").pack, whose errors it raises for what it cannot unpack.
    static PyMethodDef from_integer{
        "color_from_integer", color_from_integer, METH_O,
        "color_from_integer(color: int) -> Tuple[float, float, float, float]\n\n"
        "A packed colour (R in the low byte) as an rgba tuple of floats in [0, 1]"};
    py::object pack = py::module_::import("struct").attr("Struct")("<I").attr("pack");
    PyObject* function = PyCFunction_NewEx(&from_integer, pack.ptr(), m.ptr());
    if (function == nullptr) throw py::error_already_set();
    m.add_object("color_from_integer", py::reinterpret_steal<py::object>(function));
}

}  // namespace castkit::python

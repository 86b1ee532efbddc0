// Python type names in the module's signatures. pybind11 writes each function's signature into
// its docstring, naming every argument and result by its C++ type; a py::object would be named
// "object". The types here carry the Python type instead, so each signature, and the stub the
// build writes from them (python/backend/generate_stub.py), says what a value really is:
//
//   Typed<T>  a py::object named T::name (an argument of this type takes anything, as py::object
//             does: the function checks and converts it itself);
//   Word<T>   a str argument or result named T::name (a Literal of the words it takes);
//   ListOf<T>, OptionalOf<T>, NodeOf<T>  a list of T, T or None, and a T, T named as pybind11
//             names it: the Python class registered for it, a Word's Literal, a Typed's type.
#pragma once

#include <pybind11/pybind11.h>

#include <optional>
#include <string>
#include <utility>

namespace castkit::python {

namespace py = pybind11;

template <class T>
struct Typed : py::object {
    using py::object::object;
    Typed() = default;
    Typed(py::object value) : py::object(std::move(value)) {}  // NOLINT: any object converts
    static bool check_(py::handle) { return true; }
};

template <class T>
struct Word {
    std::string text;
};

// A Python type expression as a pybind11 name.
#define CASTKIT_PYTHON_TYPE(Type, text)                            \
    struct Type {                                                  \
        static constexpr auto name = py::detail::const_name(text); \
    }

namespace types {
CASTKIT_PYTHON_TYPE(ArrayLike, "numpy.typing.ArrayLike");
CASTKIT_PYTHON_TYPE(Array, "numpy.typing.NDArray[Any]");
CASTKIT_PYTHON_TYPE(OptionalArray, "Optional[numpy.typing.NDArray[Any]]");
CASTKIT_PYTHON_TYPE(Values, "Union[numpy.typing.NDArray[Any], List[str]]");
CASTKIT_PYTHON_TYPE(OptionalValues, "Optional[Union[numpy.typing.NDArray[Any], List[str]]]");
CASTKIT_PYTHON_TYPE(Str, "str");
CASTKIT_PYTHON_TYPE(OptionalStr, "Optional[str]");
CASTKIT_PYTHON_TYPE(Int, "int");
CASTKIT_PYTHON_TYPE(OptionalInt, "Optional[int]");
CASTKIT_PYTHON_TYPE(OptionalFloat, "Optional[float]");
CASTKIT_PYTHON_TYPE(Float, "float");
CASTKIT_PYTHON_TYPE(Bool, "bool");
CASTKIT_PYTHON_TYPE(OptionalVec3, "Optional[Tuple[float, float, float]]");
CASTKIT_PYTHON_TYPE(Vec4, "Tuple[float, float, float, float]");
CASTKIT_PYTHON_TYPE(OptionalVec4, "Optional[Tuple[float, float, float, float]]");
CASTKIT_PYTHON_TYPE(Buffer, "Union[bytes, bytearray, memoryview]");
CASTKIT_PYTHON_TYPE(Any, "Any");
CASTKIT_PYTHON_TYPE(Strings, "List[str]");
CASTKIT_PYTHON_TYPE(Fields, "Dict[str, Any]");
CASTKIT_PYTHON_TYPE(SeverityWords, "Literal['info', 'warning', 'error']");
CASTKIT_PYTHON_TYPE(Warnings, "Optional[List[Diagnostic]]");
CASTKIT_PYTHON_TYPE(AxisWords, "Literal['x', 'y', 'z']");
CASTKIT_PYTHON_TYPE(UnitWords, "Literal['mm', 'cm', 'm', 'in', 'ft']");
CASTKIT_PYTHON_TYPE(TextureWords, "Literal['automatic', 'embed', 'copy', 'reference']");
CASTKIT_PYTHON_TYPE(RootMotionWords, "Literal['keep', 'strip', 'extract']");
CASTKIT_PYTHON_TYPE(DocumentOrPath, "Union[Document, str, os.PathLike[str]]");
CASTKIT_PYTHON_TYPE(OptionalDocumentOrPath, "Optional[Union[Document, str, os.PathLike[str]]]");
}  // namespace types
using AxisWord = std::optional<Word<types::AxisWords>>;
using UnitWord = std::optional<Word<types::UnitWords>>;

template <class Ref>
struct ListOfName {
    static constexpr auto name = py::detail::const_name("List[") +
                                 py::detail::make_caster<Ref>::name + py::detail::const_name("]");
};
template <class Ref>
struct OptionalName {
    static constexpr auto name = py::detail::const_name("Optional[") +
                                 py::detail::make_caster<Ref>::name + py::detail::const_name("]");
};
template <class Ref>
struct NodeName {
    static constexpr auto name = py::detail::make_caster<Ref>::name;
};
template <class Ref>
using ListOf = Typed<ListOfName<Ref>>;
template <class Ref>
using OptionalOf = Typed<OptionalName<Ref>>;
template <class Ref>
using NodeOf = Typed<NodeName<Ref>>;

}  // namespace castkit::python

namespace pybind11::detail {

template <class T>
struct handle_type_name<castkit::python::Typed<T>> {
    static constexpr auto name = T::name;
};

template <class T>
struct type_caster<castkit::python::Word<T>> {
    PYBIND11_TYPE_CASTER(castkit::python::Word<T>, T::name);
    bool load(handle source, bool convert) {
        make_caster<std::string> text;
        if (!text.load(source, convert)) return false;
        value.text = cast_op<std::string&&>(std::move(text));
        return true;
    }
    static handle cast(const castkit::python::Word<T>& word, return_value_policy policy,
                       handle parent) {
        return make_caster<std::string>::cast(word.text, policy, parent);
    }
};

}  // namespace pybind11::detail

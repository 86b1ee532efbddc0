"""Writes the type stub (.pyi) of a castkit module from the module itself; the build runs it
after linking the extension, for castkit._castkit and castkit.cast:

    PYTHONPATH=build/python python3 python/backend/generate_stub.py castkit._castkit out.pyi

Nothing in a stub is written by hand, so a stub cannot drift from its module:

- pybind11 writes each function's signature, with the Python type names the binding gives its
  arguments and results (python/src/typing.hpp), as the first line of the function's docstring;
- plain Python (castkit.cast) carries string annotations that `inspect.signature` reads, class
  and module `__annotations__`, PEP 613 aliases written as strings, and TypeVars;
- a class written against Python's C API (castkit.Error, castkit.cast.CastValues) carries its
  attributes in `__annotations__` and its methods' signatures in their docstrings, as pybind11's.

tests/python/test_stub.py type-checks the result with mypy.
"""

import collections.abc
import inspect
import re
import sys
import types
import typing

HEADER = "# Written from {module} by python/backend/generate_stub.py when castkit is built.\n"

# Modules a type expression may name, and how the stub imports them.
MODULE_IMPORTS = {
    "np": "import numpy as np",
    "npt": "import numpy.typing as npt",
    "numpy": "import numpy",
    "numpy.typing": "import numpy.typing",
    "os": "import os",
}
TYPING_NAMES = {name for name in dir(typing) if not name.startswith("_")}
# The slots of a class written against Python's C API that a stub states (with Any: a slot has
# no types to tell); the rest are object's.
CONTAINER_SLOTS = {"__len__", "__getitem__", "__iter__", "__contains__", "__add__", "__radd__"}
# pybind11's names for py::dict, py::list, py::tuple and py::array, which say nothing of their
# items, as annotations.
BARE_NAMES = {"dict": "Dict[Any, Any]", "list": "List[Any]", "tuple": "Tuple[Any, ...]",
              "numpy.ndarray": "numpy.typing.NDArray[Any]"}


def split_top_level(text):
    """`text` cut at the commas outside brackets and quotes."""
    parts, depth, quote, start = [], 0, None, 0
    for i, c in enumerate(text):
        if quote:
            quote = None if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


class Stub:
    """The stub's lines, and every type expression they use (to write the imports from)."""

    def __init__(self, module):
        self.module = module
        self.lines = []
        self.types = set()
        self.reexports = []

    def type(self, text):
        """A type expression as the stub writes it: the module's own names unqualified, and
        pybind11 2.10's names that are not annotations made ones."""
        text = text.replace(self.module.__name__ + ".", "")
        # std::filesystem::path is named "os.PathLike", but a str is taken as well.
        text = re.sub(r"\bos\.PathLike\b(?!\[)", "Union[str, os.PathLike[str]]", text)
        # py::array_t<T> is named "numpy.ndarray[numpy.T]", which is not an annotation.
        text = re.sub(r"\bnumpy\.ndarray\[", "numpy.typing.NDArray[", text)
        text = re.sub(r"(?<![\w.])(dict|list|tuple|numpy\.ndarray)(?![\w.\[])",
                      lambda match: BARE_NAMES[match.group(1)], text)
        self.types.add(text)
        return text

    def add(self, indent, text):
        self.lines.append("    " * indent + text)

    def docstring(self, indent, doc):
        text = inspect.cleandoc(doc or "").replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
        body = text.splitlines()
        if not body:
            return
        self.add(indent, '"""' + body[0] + ("" if len(body) > 1 else '"""'))
        for line in body[1:]:
            self.add(indent if line else 0, line)
        if len(body) > 1:
            self.add(indent, '"""')

    def function(self, indent, name, parameters, returns, doc="", decorators=()):
        for decorator in decorators:
            self.add(indent, "@" + decorator)
        head = f"def {name}({', '.join(parameters)}) -> {self.type(returns)}:"
        if inspect.cleandoc(doc or ""):
            self.add(indent, head)
            self.docstring(indent + 1, doc)
            self.add(indent + 1, "...")
        else:
            self.add(indent, head + " ...")

    def imports(self):
        used = " ".join(self.types)
        modules = {m[:-1] for m in re.findall(r"(?<![\w.'\"])((?:[a-z]\w*\.)+)[A-Za-z_]", used)}
        unknown = modules - MODULE_IMPORTS.keys()
        if unknown:
            raise SystemExit(f"generate_stub.py: no import known for {sorted(unknown)}")
        lines = sorted(MODULE_IMPORTS[name] for name in modules)
        names = sorted(TYPING_NAMES & set(re.findall(r"(?<![\w.])([A-Z]\w*|overload)\b", used)))
        if names:
            lines.append(f"from typing import {', '.join(names)}")
        return lines

    def text(self):
        return "\n".join([HEADER.format(module=self.module.__name__)] + self.imports()
                         + self.reexports + [""] + self.lines) + "\n"


# ---- pybind11 and C classes: signatures from docstrings -------------------------------------

SIGNATURE = re.compile(r"^(\w*)\((.*)\)(?: -> (.+))?$")


def docstring_signatures(obj):
    """[(parameters text, return type or None, doc)] of a function whose docstring starts with
    its signature, pybind11's way (one per overload); [] when it does not."""
    doc = obj.__doc__ or ""
    lines = doc.splitlines()
    if len(lines) > 1 and lines[1] == "Overloaded function.":
        entries = re.split(r"^\d+\. ", "\n".join(lines[3:]), flags=re.M)[1:]
        return [one for entry in entries for one in docstring_signatures_of(entry)]
    return docstring_signatures_of(doc)


def docstring_signatures_of(doc):
    first, _, rest = doc.partition("\n")
    match = SIGNATURE.match(first.strip())
    if not match:
        return []
    return [(match.group(2), match.group(3), rest)]


def parameters_of(stub, text, bound):
    """The stub's parameters for pybind11's parameter text; `bound`: the first is self."""
    out = []
    for i, part in enumerate(split_top_level(text)):
        if bound and i == 0:
            out.append("self")
            continue
        name, _, rest = part.partition(":")
        if part in ("*", "/"):
            out.append(part)
            continue
        if part.startswith("*"):  # py::args and py::kwargs are untyped: any value
            out.append(f"{name}: {stub.type(rest.strip() or 'Any')}")
            continue
        annotation, _, default = (part.strip() for part in rest.partition("="))
        # pybind11 takes None for a class argument whose default is None, but names the class.
        if default == "None" and not annotation.startswith("Optional["):
            annotation = f"Optional[{annotation}]"
        entry = f"{name.strip()}: {stub.type(annotation)}"
        if default:
            entry += " = " + (default if not default.startswith("<") else "...")
        out.append(entry)
    return out


def c_function(stub, indent, name, obj, bound, decorators=()):
    signatures = docstring_signatures(obj)
    if not signatures:  # a slot of Python's C API: no types to tell
        text = getattr(obj, "__text_signature__", None) or "($self, /)"
        parameters = [p.replace("$", "") for p in split_top_level(text[1:-1])]
        parameters = [p for p in parameters if p != "/" or bound]
        parameters = [p if p in ("self", "/") else p + ": Any" for p in parameters]
        stub.types.add("Any")
        stub.function(indent, name, parameters, "Any", decorators=decorators)
        return
    overloaded = len(signatures) > 1
    for parameters, returns, doc in signatures:
        stub.function(indent, name, parameters_of(stub, parameters, bound), returns or "None",
                      doc, decorators=(("overload",) if overloaded else ()) + tuple(decorators))
        if overloaded:
            stub.types.add("overload")


def c_property(stub, indent, name, prop):
    getter = docstring_signatures(prop.fget)
    returns = getter[0][1] if getter else "Any"
    stub.function(indent, name, ["self"], returns, prop.__doc__ if getter else "",
                  decorators=("property",))
    if prop.fset is not None:
        setter = docstring_signatures(prop.fset)
        value = split_top_level(setter[0][0])[1].partition(":")[2] if setter else "Any"
        stub.function(indent, name, ["self", "value: " + stub.type(value.strip())], "None",
                      decorators=(name + ".setter",))


def class_head(stub, cls, bases):
    """The class line, the docstring and the attributes its `__annotations__` declare; those
    annotations."""
    stub.add(0, f"class {cls.__name__}({', '.join(bases)}):" if bases else
             f"class {cls.__name__}:")
    stub.docstring(1, cls.__doc__)
    annotations = vars(cls).get("__annotations__", {})
    for name, value in annotations.items():
        stub.add(1, f"{name}: {annotation(stub, value)}")
    return annotations


def c_class(stub, cls):
    bases = [base.__name__ for base in cls.__bases__
             if base not in (object,) and base.__name__ != "pybind11_object"]
    if issubclass(cls, collections.abc.Sequence) and "Sequence" not in bases:
        bases.append(stub.type("Sequence[Any]"))
    annotations = class_head(stub, cls, bases)
    for name, member in vars(cls).items():
        if name in annotations:
            continue
        if name == "__init__" and type(member).__name__ != "instancemethod":
            continue  # no constructor: made by the module only
        if name == "__hash__" and member is None:
            # Unhashable, as typeshed writes it.
            stub.add(1, f"__hash__: {stub.type('ClassVar[None]')}  # type: ignore[assignment]")
        elif isinstance(member, property):
            c_property(stub, 1, name, member)
        elif isinstance(member, types.GetSetDescriptorType) and not name.startswith("__"):
            stub.function(1, name, ["self"], stub.type("Any"), member.__doc__,
                          decorators=("property",))
        elif isinstance(member, staticmethod):
            c_function(stub, 1, name, member.__func__, False, decorators=("staticmethod",))
        elif callable(member) and (not name.startswith("_") or name == "__init__"
                                   or name in CONTAINER_SLOTS
                                   or docstring_signatures(member)):
            c_function(stub, 1, name, member, True)
    stub.add(0, "")


# ---- plain Python: annotations --------------------------------------------------------------


def annotation(stub, value):
    return stub.type(value if isinstance(value, str) else inspect.formatannotation(value))


def python_parameters(stub, function):
    out, slash, star = [], False, False
    for p in inspect.signature(function).parameters.values():
        if p.kind is p.POSITIONAL_ONLY:
            slash = True
        elif slash:
            out.append("/")
            slash = False
        if p.kind is p.KEYWORD_ONLY and not star:
            out.append("*")
            star = True
        prefix = {p.VAR_POSITIONAL: "*", p.VAR_KEYWORD: "**"}.get(p.kind, "")
        star = star or p.kind is p.VAR_POSITIONAL
        entry = prefix + p.name
        if p.annotation is not p.empty:
            entry += ": " + annotation(stub, p.annotation)
        if p.default is not p.empty:
            entry += " = " + (repr(p.default) if p.default is None
                              or isinstance(p.default, (bool, int, float, str)) else "...")
        out.append(entry)
    if slash:
        out.append("/")
    return out


def python_function(stub, indent, name, function, decorators=()):
    returns = inspect.signature(function).return_annotation
    returns = "Any" if returns is inspect.Signature.empty else annotation(stub, returns)
    stub.function(indent, name, python_parameters(stub, function), returns, function.__doc__,
                  decorators)


def is_python_class(cls):
    """Whether `cls` is written in Python (else pybind11 or Python's C API made it)."""
    return any(inspect.isfunction(getattr(member, "__func__", getattr(member, "fget", member)))
               for member in vars(cls).values())


def python_class(stub, cls):
    if not is_python_class(cls):
        c_class(stub, cls)
        return
    class_head(stub, cls, [base.__name__ for base in cls.__bases__ if base is not object])
    for name, member in vars(cls).items():
        if name.startswith("_") and name != "__init__":
            continue
        if isinstance(member, staticmethod) and not inspect.isfunction(member.__func__):
            c_function(stub, 1, name, member.__func__, False, decorators=("staticmethod",))
        elif isinstance(member, staticmethod):
            python_function(stub, 1, name, member.__func__, ("staticmethod",))
        elif isinstance(member, property):
            python_function(stub, 1, name, member.fget, ("property",))
            if member.fset is not None:
                python_function(stub, 1, name, member.fset, (name + ".setter",))
        elif inspect.isfunction(member):
            python_function(stub, 1, name, member)
    stub.add(0, "")


def python_globals(stub, module):
    for name, value in vars(module).items():
        if isinstance(value, typing.TypeVar):
            bound = value.__bound__
            bound = f", bound={bound.__forward_arg__!r}" if isinstance(bound, typing.ForwardRef) \
                else ""
            stub.types.add("TypeVar")
            stub.add(0, f"{name} = TypeVar({name!r}{bound})")
    for name, value in vars(module).get("__annotations__", {}).items():
        if value == "TypeAlias":
            stub.add(0, f"{name}: {stub.type('TypeAlias')} = {stub.type(getattr(module, name))}")
        else:
            stub.add(0, f"{name}: {annotation(stub, value)}")
    stub.add(0, "")


# ---- the module -----------------------------------------------------------------------------


def public_names(module):
    return getattr(module, "__all__", None) or [n for n in vars(module) if not n.startswith("_")]


def home_of(module, value):
    """The module `module` imported `value` from (a class of the extension that a Python module
    hands out too), or None when it is the module's own."""
    if not isinstance(value, type) or is_python_class(value):
        return None
    for imported in vars(module).values():
        if isinstance(imported, types.ModuleType) and value in vars(imported).values() \
                and imported is not module:
            return imported.__name__
    return None


def generate(module):
    stub = Stub(module)
    python_globals(stub, module)
    for name in public_names(module):
        value = getattr(module, name)
        home = home_of(module, value)
        if home:
            stub.reexports.append(f"from {home} import {name} as {name}")
        elif isinstance(value, type):
            python_class(stub, value)
        elif inspect.isfunction(value):
            python_function(stub, 0, name, value)
            stub.add(0, "")
        elif callable(value):
            c_function(stub, 0, name, value, False)
            stub.add(0, "")
    return stub.text()


def main(module_name, output):
    module = __import__(module_name, fromlist=["_"])
    text = generate(module)
    with open(output, "w", encoding="utf-8", newline="\n") as file:
        file.write(text)


if __name__ == "__main__":
    main(*sys.argv[1:])

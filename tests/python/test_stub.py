"""The type stub (castkit/__init__.pyi) and the module agree: every public name, class, method
and attribute of one is in the other."""

import ast
import inspect
import math
import pathlib

import castkit

STUB = pathlib.Path(castkit.__file__).with_name("__init__.pyi")


def stub_tree():
    return ast.parse(STUB.read_text())


def test_the_package_ships_the_stub_and_py_typed():
    assert STUB.exists()
    assert STUB.with_name("py.typed").exists()


def test_every_public_name_is_in_the_stub_and_back():
    tree = stub_tree()
    stubbed = {node.name for node in tree.body if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
    assert stubbed == set(castkit.__all__)


def test_every_member_is_in_the_stub_and_back():
    for node in stub_tree().body:
        if not isinstance(node, ast.ClassDef) or node.name == "Error":
            continue
        cls = getattr(castkit, node.name)
        stubbed = set()
        for item in node.body:
            if isinstance(item, ast.FunctionDef):
                stubbed.add(item.name)
            elif isinstance(item, ast.AnnAssign):
                stubbed.add(item.target.id)
        real = {name for name in vars(cls)
                if not name.startswith("_") or name in ("__getitem__", "__contains__")}
        stubbed.discard("__init__")
        assert stubbed == real, f"{node.name}: stub only {stubbed - real}, module only {real - stubbed}"
        bases = [b.id for b in node.bases if isinstance(b, ast.Name)]
        assert [b.__name__ for b in cls.__bases__ if b.__name__ != "pybind11_object"] == bases


def test_error_carries_the_stubbed_attributes():
    stubbed = [item.target.id for node in stub_tree().body
               if isinstance(node, ast.ClassDef) and node.name == "Error"
               for item in node.body if isinstance(item, ast.AnnAssign)]
    try:
        castkit.read(b"nope")
    except castkit.Error as error:
        for name in stubbed:
            assert hasattr(error, name), name


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


def module_parameters(function):
    """[(name, default or None)] of a function, from pybind11's signature line or inspect;
    "*" and "**" stand for *args and **kwargs."""
    doc = inspect.getdoc(function) or ""
    line = doc.splitlines()[0] if doc else ""
    if not line.startswith(function.__name__ + "(") or "Overloaded" in doc.splitlines()[0]:
        stars = {inspect.Parameter.VAR_POSITIONAL: "*", inspect.Parameter.VAR_KEYWORD: "**"}
        return [(stars.get(p.kind, p.name), None if p.default is p.empty else repr(p.default))
                for p in inspect.signature(function).parameters.values() if p.name != "self"]
    inside = line[len(function.__name__) + 1:line.rindex(") ->")]
    out = []
    for part in split_top_level(inside):
        if part in ("*", "/"):
            continue
        name = part.split(":")[0].split("=")[0].strip()
        if name.startswith("*"):  # *args, **kwargs: compared by kind, not name
            name = "**" if name.startswith("**") else "*"
        default = part.split("=", 1)[1].strip() if "=" in part else None
        if name != "self":
            out.append((name, default))
    return out


def stub_parameters(node):
    """[(name, default or None)] of a stubbed def."""
    args = node.args
    positional = [a for a in args.posonlyargs + args.args if a.arg != "self"]
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    out = [(a.arg, None if d is None else ast.unparse(d)) for a, d in zip(positional, defaults)]
    if args.vararg:
        out.append(("*", None))
    out += [(a.arg, None if d is None else ast.unparse(d))
            for a, d in zip(args.kwonlyargs, args.kw_defaults)]
    if args.kwarg:
        out.append(("**", None))
    return out


def same_default(stubbed, real):
    if stubbed is None or real is None:
        return stubbed == real
    try:
        stubbed, real = ast.literal_eval(stubbed), ast.literal_eval(real)
        if isinstance(stubbed, float) and isinstance(real, float):
            return math.isclose(stubbed, real, rel_tol=1e-6)  # a C++ float's default
        return stubbed == real
    except ValueError:
        return True  # an object pybind11 shows by its repr, e.g. an enum: the name is checked


def stubbed_functions():
    """(stub def, the module's function) for every function and method of the stub."""
    for node in stub_tree().body:
        if isinstance(node, ast.FunctionDef):
            yield node, getattr(castkit, node.name)
        elif isinstance(node, ast.ClassDef) and node.name != "Error":
            for item in node.body:
                if not isinstance(item, ast.FunctionDef) or item.name.startswith("__"):
                    continue
                decorated = [d.id for d in item.decorator_list if isinstance(d, ast.Name)]
                if "property" not in decorated:
                    yield item, getattr(getattr(castkit, node.name), item.name)


def test_every_function_takes_the_stubbed_parameters_and_defaults():
    for node, function in stubbed_functions():
        stubbed, real = stub_parameters(node), module_parameters(function)
        assert [n for n, _ in stubbed] == [n for n, _ in real], \
            f"{node.name}: stub {stubbed}, module {real}"
        for (name, default), (_, real_default) in zip(stubbed, real):
            assert same_default(default, real_default), \
                f"{node.name}({name}): stub default {default}, module {real_default}"


def test_the_cast_drop_in_stub_names_every_public_member():
    import castkit.cast as cast
    tree = ast.parse(STUB.with_name("cast.pyi").read_text())
    top = {node.name for node in tree.body if isinstance(node, (ast.ClassDef, ast.FunctionDef))}
    top |= {node.target.id for node in tree.body if isinstance(node, ast.AnnAssign)}
    assert top == set(cast.__all__)
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            stubbed = {item.name for item in node.body if isinstance(item, ast.FunctionDef)}
            stubbed |= {item.target.id for item in node.body if isinstance(item, ast.AnnAssign)}
            real = set(vars(getattr(cast, node.name)))
            public = {name for name in stubbed | real if not name.startswith("_")}
            assert public <= stubbed & real, f"{node.name}: {public - (stubbed & real)}"

"""The type stub (castkit/__init__.pyi) and the module agree: every public name, class, method
and attribute of one is in the other."""

import ast
import inspect
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


def test_functions_take_the_stubbed_arguments():
    for node in stub_tree().body:
        if isinstance(node, ast.FunctionDef):
            doc = inspect.getdoc(getattr(castkit, node.name)) or ""
            signature = doc.splitlines()[0]
            for arg in node.args.args:
                assert f"{arg.arg}:" in signature, f"{node.name}: {arg.arg} not in {signature}"


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

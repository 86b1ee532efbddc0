"""The type stubs the build writes from the module itself (python/backend/generate_stub.py): shipped
beside it, the module's own (written again, they come out the same), complete, valid under
mypy --strict, and precise enough that mypy catches what a user gets wrong."""

import ast
import os
import pathlib
import subprocess
import sys

import castkit
import castkit.cast
from conftest import EXAMPLES, SOURCE

PACKAGE = pathlib.Path(castkit.__file__).parent
GENERATOR = SOURCE / "python" / "backend" / "generate_stub.py"
STUBS = {"castkit._castkit": PACKAGE / "_castkit.pyi", "castkit.cast": PACKAGE / "cast.pyi"}
CHARACTER = EXAMPLES / "character.cast"


def stub_names(path):
    """{class or function name: names defined in its body (empty for a function)}."""
    out = {}
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.ClassDef):
            out[node.name] = {item.name if isinstance(item, ast.FunctionDef) else item.target.id
                              for item in node.body
                              if isinstance(item, (ast.FunctionDef, ast.AnnAssign))}
        elif isinstance(node, ast.FunctionDef):
            out[node.name] = set()
        elif isinstance(node, ast.AnnAssign):
            out[node.target.id] = set()
        elif isinstance(node, ast.ImportFrom):
            out.update({alias.asname or alias.name: set() for alias in node.names})
    return out


def mypy(tmp_path, *paths):
    """mypy --strict's error lines for `paths`, importing castkit from the build."""
    from mypy import api  # Debian's python3-mypy (scripts/setup.sh)

    os.environ["MYPYPATH"] = str(PACKAGE.parent)
    try:
        out, err, status = api.run(["--strict", "--cache-dir", str(tmp_path / "cache"),
                                    "--no-error-summary", "--show-error-codes",
                                    *map(str, paths)])
    finally:
        del os.environ["MYPYPATH"]
    assert not err, err
    return status, [line for line in out.splitlines() if ": error:" in line]


def program(tmp_path, text):
    path = tmp_path / "program.py"
    path.write_text(text)
    return path


def test_the_package_ships_the_stubs_and_py_typed():
    for path in [*STUBS.values(), PACKAGE / "py.typed"]:
        assert path.exists(), path
    assert not (PACKAGE / "__init__.pyi").exists()  # __init__.py re-exports _castkit's names


def test_the_stubs_are_the_ones_the_module_gives(tmp_path):
    for module, shipped in STUBS.items():
        written = tmp_path / shipped.name
        subprocess.run([sys.executable, str(GENERATOR), module, str(written)], check=True,
                       env={**os.environ, "PYTHONPATH": str(PACKAGE.parent)})
        assert written.read_text() == shipped.read_text(), module


def test_every_public_name_and_member_is_stubbed():
    for module_name, path in STUBS.items():
        module = sys.modules[module_name]
        stubbed = stub_names(path)
        public = getattr(module, "__all__", None) or [n for n in vars(module) if n[0] != "_"]
        assert set(public) <= set(stubbed), set(public) - set(stubbed)
        for name in public:
            value = getattr(module, name)
            if not isinstance(value, type) or not stubbed[name]:
                continue
            members = {member for member in vars(value) if not member.startswith("_")}
            assert members <= stubbed[name], f"{module_name}.{name}: {members - stubbed[name]}"


def test_the_error_carries_every_stubbed_attribute():
    try:
        castkit.read(b"nope")
    except castkit.Error as error:
        for name in castkit.Error.__annotations__:
            assert hasattr(error, name), name
    assert set(castkit.Error.__annotations__) >= {"file", "offset", "path", "rule", "message"}


def test_mypy_strict_accepts_the_stubs_and_a_typed_program(tmp_path):
    text = f"""
import castkit
import castkit.cast

document = castkit.open({str(CHARACTER)!r})
for model in document.models:
    for mesh in model.meshes:
        if mesh.positions is not None:
            print(mesh.positions.shape, mesh.name, mesh.skinning_method)
    skeleton = model.skeleton
    if skeleton is not None:
        print([bone.name for bone in skeleton.bones])
warnings: list[castkit.Diagnostic] = document.write("out.glb", textures="embed")
pose = castkit.pose(document, document, 1.5)
print(pose.world_matrices.shape, pose.blend_shapes.get("smile", 0.0))
print(castkit.diff(document, document)["differs"], castkit.validate(document)[0].rule)
loaded = castkit.cast.Cast.load({str(CHARACTER)!r})
for root in loaded.Roots():
    for cast_model in root.ChildrenOfType(castkit.cast.Model):
        print(cast_model.Name(), castkit.cast.CastColor.fromInteger(0xFF00FF00))
"""
    status, errors = mypy(tmp_path, *STUBS.values())
    assert status == 0, errors
    status, errors = mypy(tmp_path, program(tmp_path, text))
    assert status == 0, errors


def test_mypy_catches_misuse(tmp_path):
    misuse = [
        "castkit.open(3)",
        "castkit.convert('a.cast', 'b.glb', up='w')",
        "castkit.open('a.cast').write('b.gltf', textures='inline')",
        "castkit.open('a.cast').models[0].meshes[0].skinning_method = 'dual'",
        "length: int = castkit.open('a.cast').models[0].name",
        "castkit.open('a.cast').models[0].meshes[0].positions.shape",
        "castkit.open('a.cast').roots[0].add_child(1.5)",
        "castkit.cast.Cast.load('a.cast').CreateRoot().CreateModel().SetName(5)",
        "castkit.cast.CastColor.fromInteger('red')",
    ]
    text = "import castkit\nimport castkit.cast\n" + "\n".join(misuse) + "\n"
    _, errors = mypy(tmp_path, program(tmp_path, text))
    flagged = {int(line.split(":")[1]) for line in errors}
    assert flagged == set(range(3, 3 + len(misuse))), "\n".join(errors)

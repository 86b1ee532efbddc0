"""castkit.cast, the drop-in for the reference cast.py: the bytes it writes (against golden files
cast.py wrote), what it reads (against the reference fixtures' .json, which record how cast.py
reads them), its hash counter, defaults and colour helpers."""

import json
import os
import struct
import subprocess
import sys

import numpy as np
import pytest

import castkit.cast as cast
from conftest import FIXTURES, REFERENCE_FILES, SOURCE

GOLDEN = FIXTURES / "python"
SCRIPT = SOURCE / "tests" / "python" / "drop_in_script.py"

# The reference fixtures' .json names a node's id this way; an unknown id is written in hex.
CLASS_OF_ID = {
    "root": cast.Root, "model": cast.Model, "mesh": cast.Mesh, "hair": cast.Hair,
    "blendshape": cast.BlendShape, "skeleton": cast.Skeleton, "bone": cast.Bone,
    "ikhandle": cast.IKHandle, "constraint": cast.Constraint, "animation": cast.Animation,
    "curve": cast.Curve, "curvemodeoverride": cast.CurveModeOverride,
    "notificationtrack": cast.NotificationTrack, "material": cast.Material, "file": cast.File,
    "color": cast.Color, "instance": cast.Instance, "metadata": cast.Metadata,
}


def run_python(*args, cwd=None):
    """Runs the current interpreter with castkit importable; returns its stdout."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    result = subprocess.run([sys.executable, *map(str, args)], capture_output=True, text=True,
                            env=env, cwd=cwd)
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.fixture(scope="module")
def script_output(tmp_path_factory):
    """The files drop_in_script.py writes through castkit.cast (in a fresh process, so the hash
    counter starts where cast.py's does)."""
    folder = tmp_path_factory.mktemp("drop_in")
    run_python(SCRIPT, "castkit.cast", folder)
    return folder


@pytest.mark.parametrize("name", ["character.cast", "walk.cast", "reloaded.cast"])
def test_script_writes_the_bytes_cast_py_writes(script_output, name):
    assert (script_output / name).read_bytes() == (GOLDEN / name).read_bytes()


def flat(values):
    """The .json's values with vectors unnested, as cast.py's flat tuples."""
    return [x for value in values for x in (value if isinstance(value, list) else [value])]


def expect_node(node, expected, where):
    """`node` (castkit.cast) is the node the .json describes, subtree included."""
    kind = CLASS_OF_ID.get(expected["id"], cast.CastNode)
    assert node.__class__ is kind, where
    if kind is cast.CastNode:
        assert node.identifier == int(expected["id"], 16), where
    assert node.Hash() == int(expected["hash"], 16), where
    assert list(node.properties) == [p["name"] for p in expected["properties"]], where
    for prop, wanted in zip(node.properties.values(), expected["properties"]):
        identifier = {"v2": "2v", "v3": "3v", "v4": "4v"}.get(wanted["type"], wanted["type"])
        assert prop.type.identifier == identifier, (where, prop.name)
        assert list(prop.values) == flat(wanted["values"]), (where, prop.name)
    assert len(node.childNodes) == len(expected["children"]), where
    for index, (child, wanted) in enumerate(zip(node.childNodes, expected["children"])):
        assert child.parentNode is node
        expect_node(child, wanted, f"{where}/{index}")


@pytest.mark.parametrize("path", REFERENCE_FILES, ids=lambda p: p.name)
def test_reference_files_read_as_cast_py_reads_them(path):
    expected = json.loads(path.with_suffix(".json").read_text())
    scene = cast.Cast.load(str(path))
    assert len(scene.Roots()) == len(expected["roots"])
    for index, (root, wanted) in enumerate(zip(scene.Roots(), expected["roots"])):
        expect_node(root, wanted, f"{path.name}: root[{index}]")


def count_nodes(node):
    return 1 + sum(count_nodes(child) for child in node.childNodes)


def test_loading_takes_one_hash_per_node():
    before = cast.castHashBase
    scene = cast.Cast.load(str(GOLDEN / "character.cast"))
    assert cast.castHashBase - before == sum(count_nodes(root) for root in scene.Roots())
    assert cast.CastNode().Hash() == before + sum(count_nodes(root) for root in scene.Roots())


def test_the_hash_counter_starts_at_cast_py_base():
    out = run_python("-c", "import castkit.cast as c; print(c.castNextHash(), c.Root().Hash(), "
                           "c.castHashBase)")
    assert out.split() == [str(0x534E495752545250 + i) for i in range(3)]


def test_numeric_values_view_the_file_and_act_as_cast_py_tuples():
    scene = cast.Cast.load(str(GOLDEN / "character.cast"))
    body = scene.Roots()[0].ChildrenOfType(cast.Model)[0].Meshes()[0]
    positions = body.VertexPositionBuffer()
    assert isinstance(positions, cast.CastValues) and positions.dtype == np.float32
    assert len(positions) == 48 and memoryview(positions).readonly
    assert type(positions[1]) is float and type(body.FaceBuffer()[0]) is int
    assert positions[0:3].tolist() == [0.0, 0.25, 0.0]
    assert bool(positions) and not bool(positions[0:0])
    assert max(body.FaceBuffer()) + 1 == 16   # Python ints: no uint8 wrap-around
    assert sum(1 for _ in positions) == 48


def test_getters_give_cast_py_defaults_when_absent():
    mesh, bone, curve = cast.Mesh(), cast.Bone(), cast.Curve()
    assert (mesh.Name(), mesh.VertexCount(), mesh.FaceCount(), mesh.FaceBuffer()) == (None,) * 4
    assert (mesh.UVLayerCount(), mesh.ColorLayerCount(), mesh.MaximumWeightInfluence()) == (0, 0, 0)
    assert mesh.SkinningMethod() == "linear" and mesh.VertexColorLayerBufferPacked(0) is True
    assert (bone.ParentIndex(), bone.SegmentScaleCompensate(), bone.LocalPosition()) == (-1, True, None)
    assert (curve.AdditiveBlendWeight(), curve.Mode(), curve.KeyValueBuffer()) == (1.0, None, None)
    assert cast.Animation().Looping() is False and cast.Color().ColorSpace() == "srgb"
    assert cast.Constraint().Weight() == 1.0 and cast.Hair().StrandCount() is None
    assert cast.BlendShape().TargetWeightScale() is None and cast.Material().Slots() == {}


def test_legacy_vc_colours_are_layer_zero():
    mesh = cast.Mesh()
    mesh.CreateProperty("vc", "i").values = [0x11223344]
    assert mesh.ColorLayerCount() == 1 and list(mesh.VertexColorLayerBuffer(0)) == [0x11223344]
    assert mesh.VertexColorLayerBuffer(1) is None and mesh.VertexColorLayerBufferPacked(0)


def test_setters_pick_cast_py_types():
    mesh = cast.Mesh()
    mesh.SetFaceBuffer([0, 1, 255])
    assert mesh.properties["f"].type.identifier == "b"
    mesh.SetFaceBuffer(np.array([0, 1, 256]))
    assert mesh.properties["f"].type.identifier == "h"
    mesh.SetVertexWeightBoneBuffer([70000])
    assert mesh.properties["wb"].type.identifier == "i"
    mesh.SetVertexColorBuffer(0, np.zeros((2, 4), np.float32))
    mesh.SetVertexColorBuffer(1, [0xFFFFFFFF, 0])
    assert [mesh.VertexColorLayerBufferPacked(i) for i in (0, 1)] == [False, True]
    mesh.SetVertexPositionBuffer(np.ones((2, 3)))
    assert mesh.VertexCount() == 2 and mesh.properties["vp"].length() == 8 + 2 + 24
    bone = cast.Bone()
    bone.SetParentIndex(-1)
    assert bone.properties["p"].values == [0xFFFFFFFF] and bone.ParentIndex() == -1
    constraint = cast.Constraint()
    constraint.SetCustomOffset((1.0, 2.0))
    assert "co" not in constraint.properties


def test_cast_color_arithmetic_is_cast_py_s():
    assert cast.CastColor.fromInteger(0x80FF0001) == (1 / 255, 0.0, 1.0, 128 / 255)
    # fromInteger is C (the add-on calls it per face corner): cast.py's arithmetic for every
    # byte in every place, anything with __index__ taken, and struct.pack's own errors.
    for value in [*range(256), *(b << 8 for b in range(256)), *(b << 16 for b in range(256)),
                  *(b << 24 for b in range(256)), 0xFFFFFFFF, True, np.uint32(0x01020304)]:
        channels = struct.pack("<I", value)
        assert cast.CastColor.fromInteger(value) == tuple(c / 255.0 for c in channels), value
    for value in (-1, 2**32, 2**70, 1.5, "a", None):
        with pytest.raises(struct.error) as raised:
            cast.CastColor.fromInteger(value)
        with pytest.raises(struct.error) as expected:
            struct.pack("<I", value)
        assert str(raised.value) == str(expected.value)
    assert cast.CastColor.toInteger((1.2, 0.5, -1.0, 0.999)) == 0xFE00_7FFF
    assert cast.CastColor.sRGBToLinear(0.04) == 0.04 / 12.92
    assert cast.CastColor.sRGBToLinear(0.5) == pytest.approx(0.21404114)
    # cast.py's linear-to-sRGB above the linear segment is pow(x, 1/2.4) + 1 (docs/python.md).
    assert cast.CastColor.linearToSRGB(0.5) == pytest.approx(0.5 ** (1 / 2.4) + 1.0)
    assert cast.CastColor.toSRGBFromLinear((0.001, 0.0, 0.0, 0.5)) == (0.001 * 12.92, 0.0, 0.0, 0.5)


def test_load_refuses_what_cast_py_refuses(tmp_path):
    with pytest.raises(Exception):
        cast.Cast.load(str(tmp_path / "missing.cast"))
    bad = tmp_path / "bad.cast"
    bad.write_bytes(b"nope" + bytes(12))
    with pytest.raises(Exception):
        cast.Cast.load(str(bad))

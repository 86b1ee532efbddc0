"""castkit.cast's values as the official Blender add-on uses them (issue 32): every buffer hands
itself to foreach_set whole, in the plain format Blender accepts, aligned; elements are Python
ints and floats; setters refuse what they cannot store, with cast.py's exception type; and saving
over the file a Cast was loaded from is atomic and leaves the loaded values valid."""

import os
import struct

import numpy as np
import pytest

import castkit
import castkit.cast as cast
from conftest import EXAMPLE_FILES, FIXTURES, REFERENCE_FILES

GOLDEN = FIXTURES / "python"
FILES = [GOLDEN / "character.cast", GOLDEN / "walk.cast", *EXAMPLE_FILES, *REFERENCE_FILES]
# What Blender's foreach_set compares a buffer's format with (rna_array's foreach_compat_buffer):
# the first character only, so "=f" or "<f" are refused and it falls back to one call per element.
PLAIN = {"b": "B", "h": "H", "i": "I", "l": "Q", "f": "f", "d": "d",
         "2v": "f", "3v": "f", "4v": "f"}


def numeric_properties(node):
    for prop in node.properties.values():
        if prop.type.identifier != "s":
            yield prop
    for child in node.childNodes:
        yield from numeric_properties(child)


def loaded_properties():
    for path in FILES:
        for root in cast.Cast.load(path).Roots():
            yield from numeric_properties(root)


def test_every_buffer_exports_the_plain_format_aligned_and_contiguous():
    for prop in loaded_properties():
        values = prop.values
        view = memoryview(values)
        assert view.format == PLAIN[prop.type.identifier], prop.name
        assert view.readonly and view.c_contiguous and view.ndim == 1 and len(view) == len(values)
        array = np.asarray(values)
        assert array.ctypes.data % view.itemsize == 0, prop.name
        assert array.tolist() == [values[i] for i in range(len(values))]
        # An unaligned payload is copied on the first export only: later ones share the copy.
        assert np.asarray(values).ctypes.data == array.ctypes.data


def test_the_fixtures_hold_unaligned_payloads():
    """What the test above relies on: Cast has no alignment, and castkit.open's numpy views of
    the same files (the same offsets in a buffer aligned as castkit.cast's) are unaligned."""
    def unaligned(node):
        count = 0
        for name in node.properties:
            values = node.property(name).values
            count += isinstance(values, np.ndarray) and not values.flags.aligned
        return count + sum(unaligned(child) for child in node.children)
    assert sum(unaligned(root) for path in FILES for root in castkit.open(path).roots) > 10


def test_slices_are_values_and_strided_ones_export_contiguous_copies():
    mesh = cast.Cast.load(GOLDEN / "character.cast").Roots()[0].ChildrenOfType(cast.Model)[0] \
        .Meshes()[0]
    positions = mesh.VertexPositionBuffer()
    xs = positions[0::3]
    assert isinstance(xs, cast.CastValues) and len(xs) == len(positions) // 3
    assert xs.tolist() == positions.tolist()[0::3]
    assert memoryview(xs).format == "f" and memoryview(xs).c_contiguous
    assert np.asarray(xs).tolist() == positions.tolist()[0::3]
    assert positions[::-1].tolist() == positions.tolist()[::-1]
    assert positions[-1] == positions.tolist()[-1] and positions[5:2].tolist() == []


def test_elements_are_python_numbers_and_values_act_as_cast_py_tuples():
    mesh = cast.Cast.load(GOLDEN / "character.cast").Roots()[0].ChildrenOfType(cast.Model)[0] \
        .Meshes()[1]
    bones = mesh.VertexWeightBoneBuffer()
    assert type(bones[0]) is int and bones[5] == 70000 and bones.dtype == np.uint32
    values = mesh.VertexPositionBuffer()
    assert type(values[0]) is float and list(values) == values.tolist()
    assert values[0:3] + (1.0,) == tuple(values.tolist()[0:3]) + (1.0,)
    assert (1.0,) + values[0:1] == (1.0, values[0])
    assert values[0:2] + [7] == values.tolist()[0:2] + [7]
    with pytest.raises(IndexError):
        values[len(values)]
    with pytest.raises(TypeError):
        values["x"]
    with pytest.raises(TypeError):
        memoryview(values).cast("B")[0:1] = b"\0"  # read-only
    assert repr(values[0:1]) == f"CastValues([{values[0]!r}])"
    with pytest.raises(TypeError):
        cast.CastValues()  # handed out by castkit.cast only


def test_values_pickle_and_deep_copy_as_cast_py_tuples():
    import copy
    import pickle
    scene = cast.Cast.load(GOLDEN / "character.cast")
    positions = scene.Roots()[0].ChildrenOfType(cast.Model)[0].Meshes()[0].VertexPositionBuffer()
    assert pickle.loads(pickle.dumps(positions)) == tuple(positions.tolist())
    copied = copy.deepcopy(scene)
    mesh = copied.Roots()[0].ChildrenOfType(cast.Model)[0].Meshes()[0]
    assert mesh.VertexPositionBuffer() == tuple(positions.tolist())


def test_setters_store_values_that_index_as_loaded_ones_do():
    mesh = cast.Mesh()
    mesh.SetFaceBuffer([0, 1, 300])
    mesh.SetVertexPositionBuffer([(0.0, 1.0, 2.0)])
    mesh.SetVertexWeightValueBuffer(np.array([0.5, 0.25]))
    for values in (mesh.FaceBuffer(), mesh.VertexPositionBuffer(), mesh.VertexWeightValueBuffer()):
        assert isinstance(values, cast.CastValues)
    assert type(mesh.FaceBuffer()[2]) is int and mesh.FaceBuffer().tolist() == [0, 1, 300]
    assert memoryview(mesh.FaceBuffer()).format == "H"
    assert type(mesh.VertexPositionBuffer()[1]) is float


@pytest.mark.parametrize("setter, values, bad", [
    ("SetKeyFrameBuffer", [-2, -1, 0, 1], "value -2 at index 0"),
    ("SetKeyFrameBuffer", [0, 1 << 32], "value 4294967296 at index 1"),
    ("SetKeyFrameBuffer", np.array([5, -7], dtype=np.int64), "value -7 at index 1"),
    ("SetKeyFrameBuffer", [1.5, 2], "value 1.5 at index 0 is not an integer"),
])
def test_index_setters_refuse_what_they_cannot_store_as_cast_py_does(setter, values, bad):
    curve = cast.Curve()
    with pytest.raises(struct.error) as error:
        getattr(curve, setter)(values)
    assert "'kb'" in str(error.value) and bad in str(error.value)
    assert curve.KeyFrameBuffer() is None  # nothing stored


def test_every_index_setter_refuses_negatives():
    mesh, hair, shape, track = cast.Mesh(), cast.Hair(), cast.BlendShape(), cast.NotificationTrack()
    for call in (lambda: mesh.SetFaceBuffer([1, -1]),
                 lambda: mesh.SetVertexWeightBoneBuffer([-3]),
                 lambda: mesh.SetVertexColorBuffer(0, [-1]),
                 lambda: hair.SetSegmentBuffer([-1]),
                 lambda: shape.SetTargetShapeVertexIndices([-1]),
                 lambda: track.SetKeyFrameBuffer([-1])):
        with pytest.raises(struct.error):
            call()


def test_an_empty_index_buffer_raises_what_cast_py_raises():
    for values in ([], np.array([], dtype=np.int64)):
        with pytest.raises(ValueError, match=r"^max\(\) arg is an empty sequence$"):
            cast.Mesh().SetFaceBuffer(values)


def test_a_value_past_its_type_fails_the_save_and_leaves_the_old_file(tmp_path):
    path = tmp_path / "out.cast"
    scene = cast.Cast()
    scene.CreateRoot().CreateModel().CreateMesh().SetUVLayerCount(2)
    scene.save(path)
    before = path.read_bytes()
    scene.Roots()[0].ChildrenOfType(cast.Model)[0].Meshes()[0].SetUVLayerCount(300)
    with pytest.raises(struct.error, match="'ul': value 300 at index 0"):
        scene.save(path)
    assert path.read_bytes() == before  # not truncated, not half written
    assert sorted(os.listdir(tmp_path)) == ["out.cast"]  # no temporary file left


def test_load_edit_save_to_the_same_path_keeps_the_file_and_the_loaded_values(tmp_path):
    path = tmp_path / "character.cast"
    path.write_bytes((GOLDEN / "character.cast").read_bytes())
    scene = cast.Cast.load(path)
    mesh = scene.Roots()[0].ChildrenOfType(cast.Model)[0].Meshes()[0]
    positions = mesh.VertexPositionBuffer()
    expected = positions.tolist()
    mesh.SetName("renamed")
    scene.save(path)
    assert positions.tolist() == expected  # still valid: the file was replaced, not truncated
    again = cast.Cast.load(path).Roots()[0].ChildrenOfType(cast.Model)[0].Meshes()[0]
    assert again.Name() == "renamed" and again.VertexPositionBuffer().tolist() == expected
    os.truncate(path, 0)  # another program truncating the file does not reach loaded values
    assert positions.tolist() == expected

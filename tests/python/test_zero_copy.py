"""Arrays view the document's copy of the file: no further copy, read-only, alive as long as any
array needs the storage."""

import gc
import weakref

import numpy as np
import pytest

import castkit
from conftest import EXAMPLES, REFERENCE_FILES


def address(array):
    return array.__array_interface__["data"][0]


def test_two_reads_of_a_property_share_memory():
    doc = castkit.open(EXAMPLES / "character.cast")
    mesh = doc.models[0].meshes[0]
    a, b = mesh.positions, mesh.positions
    assert a is not b
    assert np.shares_memory(a, b)
    assert np.shares_memory(mesh.positions, mesh["vp"])
    assert np.shares_memory(mesh.faces, mesh["f"])


def test_arrays_are_views_of_the_file_in_memory():
    """Two payloads lie as far apart in memory as in the file: both view one buffer."""
    data = (EXAMPLES / "character.cast").read_bytes()
    doc = castkit.open(EXAMPLES / "character.cast")
    mesh = doc.models[0].meshes[0]
    arrays = [mesh.positions, mesh.normals, mesh.uv_layer(0), mesh.uv_layer(1), mesh.weight_values]
    offsets = [data.find(a.tobytes()) for a in arrays]
    assert all(o > 0 for o in offsets)
    for a, o in zip(arrays[1:], offsets[1:]):
        assert address(a) - address(arrays[0]) == o - offsets[0]


def test_arrays_are_read_only_for_good():
    mesh = castkit.open(EXAMPLES / "character.cast").models[0].meshes[0]
    positions = mesh.positions
    assert positions.flags.writeable is False
    assert positions.flags.owndata is False
    with pytest.raises(ValueError):
        positions[0, 0] = 1.0
    with pytest.raises(ValueError):
        positions.setflags(write=True)
    copy = positions.copy()
    copy[0, 0] = 42.0  # a copy is the caller's
    assert positions[0, 0] != 42.0


def test_the_base_keeps_the_storage_alive_after_the_document_is_gone():
    doc = castkit.open(EXAMPLES / "character.cast")
    mesh = doc.models[0].meshes[0]
    positions, faces = mesh.positions, mesh.faces
    expected_positions, expected_faces = positions.copy(), faces.copy()
    base = positions.base
    assert base is not None and type(base).__name__ == "PyCapsule"
    document_ref = weakref.ref(doc)
    del doc, mesh
    gc.collect()
    assert document_ref() is None  # the document is gone; its buffer is not
    np.testing.assert_array_equal(positions, expected_positions)
    np.testing.assert_array_equal(faces, expected_faces)
    view = positions[1:, :2]  # numpy views of the view keep it too
    del positions
    gc.collect()
    np.testing.assert_array_equal(view, expected_positions[1:, :2])


def test_nodes_keep_their_document_alive():
    mesh = castkit.open(EXAMPLES / "character.cast").models[0].meshes[0]
    gc.collect()
    assert mesh.name == "body" and mesh.material.name == "skin"
    assert mesh.document.models[0].name == "character"


def test_replaced_properties_leave_earlier_arrays_intact():
    doc = castkit.open(EXAMPLES / "character.cast")
    mesh = doc.models[0].meshes[0]
    before = mesh.positions
    expected = before.copy()
    mesh.set_positions(np.zeros((10, 3), np.float32))
    gc.collect()
    np.testing.assert_array_equal(before, expected)
    assert mesh.positions.shape == (10, 3)
    again = mesh.positions
    mesh.set_positions(np.ones((2, 3)))
    np.testing.assert_array_equal(again, np.zeros((10, 3)))


def test_index_arrays_keep_their_stored_dtype():
    dtypes = set()
    for path in REFERENCE_FILES:
        for model in castkit.open(path).models:
            for mesh in model.meshes:
                stored = mesh.property("f")
                if stored is None:
                    continue
                want = {"b": np.uint8, "h": np.uint16, "i": np.uint32}[stored.type]
                assert mesh.faces.dtype == want
                assert np.shares_memory(mesh.faces, stored.values)
                dtypes.add(mesh.faces.dtype)
    assert dtypes == {np.dtype(np.uint8), np.dtype(np.uint16), np.dtype(np.uint32)}


def test_unaligned_payloads_are_viewed_in_place():
    """Cast payloads sit at any byte offset; numpy reads unaligned views correctly."""
    unaligned = 0
    for path in REFERENCE_FILES:
        data = path.read_bytes()
        for model in castkit.open(path).models:
            for mesh in model.meshes:
                positions = mesh.positions
                if positions is None or len(positions) == 0:
                    continue
                if not positions.flags.aligned:
                    unaligned += 1
                    expected = np.frombuffer(data, np.float32, count=positions.size,
                                             offset=data.find(positions.tobytes())).reshape(-1, 3)
                    np.testing.assert_array_equal(positions, expected)
                    np.testing.assert_array_equal(positions * 2 + 1, expected * 2 + 1)
                    assert positions.sum(dtype=np.float64) == expected.sum(dtype=np.float64)
    assert unaligned > 0


def test_bytes_are_copied_once_and_then_viewed():
    data = bytearray((EXAMPLES / "character.cast").read_bytes())
    doc = castkit.read(data, "cast", name="character")
    mesh = doc.models[0].meshes[0]
    positions = mesh.positions
    expected = positions.copy()
    data[:] = bytes(len(data))  # the caller's buffer is theirs to change
    np.testing.assert_array_equal(positions, expected)
    assert np.shares_memory(positions, mesh.positions)
    assert address(mesh.normals) - address(positions) == bytes(
        (EXAMPLES / "character.cast").read_bytes()).find(mesh.normals.tobytes()) - bytes(
        (EXAMPLES / "character.cast").read_bytes()).find(positions.tobytes())


def test_converted_formats_are_viewed_after_the_first_read():
    """Readers that convert (here SEModel) own their payloads; the first read moves one into
    shared storage, later reads view it."""
    source = castkit.open(EXAMPLES / "character.cast")
    doc = castkit.read(source.to_bytes("semodel"), "semodel")
    mesh = doc.models[0].meshes[0]
    first = mesh.positions
    assert np.shares_memory(first, mesh.positions)
    np.testing.assert_array_equal(first, source.models[0].meshes[0].positions)
    del doc, mesh
    gc.collect()
    np.testing.assert_array_equal(first, source.models[0].meshes[0].positions)


def test_arrays_set_from_numpy_are_viewed_without_another_copy():
    doc = castkit.Document()
    mesh = doc.add_root().add_model().add_mesh()
    values = np.arange(12, dtype=np.float32).reshape(4, 3)
    mesh.set_positions(values)
    assert not np.shares_memory(values, mesh.positions)  # the document's own copy
    assert np.shares_memory(mesh.positions, mesh.positions)
    values[0, 0] = 99
    assert mesh.positions[0, 0] == 0

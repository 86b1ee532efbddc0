"""Reading: every Cast file in the repository, node by node and value by value, against the
files' own JSON (what the reference cast.py reads) and the CLI's dump; the typed classes against
the generic tree; every other format castkit reads."""

import json

import numpy as np
import pytest

import castkit
from conftest import (EDGE, EXAMPLE_FILES, EXAMPLES, GLTF, REFERENCE_FILES, assert_same_document,
                      assert_same_tree)


@pytest.mark.parametrize("path", REFERENCE_FILES, ids=lambda p: p.name)
def test_reference_files_read_as_cast_py_reads_them(path):
    doc = castkit.open(path)
    assert doc.format == "cast"
    assert_same_document(doc, json.loads(path.with_suffix(".json").read_text()))


@pytest.mark.parametrize("path", EXAMPLE_FILES, ids=lambda p: p.name)
def test_examples_read_as_the_cli_dumps_them(path, dump_json):
    assert_same_document(castkit.open(path), dump_json(path))


def test_character_holds_what_castkit_info_says(cli):
    # castkit info: mesh 'body': 4 vertices, 2 faces, 2 UV layers, 2 colour layers, normals,
    # weights (2 per vertex, linear), material 'skin'; skeleton: 3 bones; material 'skin' (pbr):
    # 2 slots, 2 files.
    info = cli("info", EXAMPLES / "character.cast")[1]
    assert "mesh 'body': 4 vertices, 2 faces, 2 UV layers, 2 colour layers" in info
    doc = castkit.open(EXAMPLES / "character.cast")
    [root] = doc.roots
    assert isinstance(root, castkit.Root)
    [metadata] = root.metadata
    assert (metadata.author, metadata.software, metadata.up_axis) == (
        "castkit examples", "castkit build_scene", "y")
    [model] = doc.models
    assert model.name == "character"
    [mesh] = model.meshes
    assert (mesh.name, mesh.vertex_count, mesh.face_count) == ("body", 4, 2)
    assert (mesh.uv_layer_count, mesh.color_layer_count, mesh.max_weight_influence) == (2, 2, 2)
    assert mesh.positions.shape == (4, 3) and mesh.positions.dtype == np.float32
    assert mesh.normals.shape == (4, 3)
    assert mesh.faces.shape == (2, 3)
    assert mesh.uv_layer(0).shape == (4, 2) and mesh.uv_layer(1).shape == (4, 2)
    assert mesh.uv_layer(2) is None
    assert mesh.skinning_method == "linear"
    assert mesh.weight_bones.shape == (8,) and mesh.weight_values.shape == (8,)
    assert mesh.material.name == "skin" and mesh.material.type == "pbr"
    assert mesh.material_hash == mesh.material.hash
    assert len(mesh.material.slots) == 2 and len(mesh.material.files) == 2
    assert [bone.name for bone in model.skeleton.bones] == ["pelvis", "spine", "head"]
    assert [bone.parent_index for bone in model.skeleton.bones] == [-1, 0, 1]
    for slot, hash_ in mesh.material.slots:
        target = mesh.material.slot_file(slot)
        assert target is not None and target.hash == hash_ and target.path


def test_typed_arrays_are_the_stored_properties():
    doc = castkit.open(EXAMPLES / "character.cast")
    mesh = doc.models[0].meshes[0]
    np.testing.assert_array_equal(mesh.positions, mesh["vp"])
    np.testing.assert_array_equal(mesh.normals, mesh["vn"])
    np.testing.assert_array_equal(mesh.faces.ravel(), mesh["f"])
    np.testing.assert_array_equal(mesh.uv_layer(1), mesh["u1"])
    assert mesh.property("vp").type == "v3" and mesh.property("vp").count == 4
    assert "vp" in mesh and "zz" not in mesh
    assert mesh.get("zz") is None and mesh.get("zz", 5) == 5
    with pytest.raises(KeyError):
        mesh["zz"]
    assert mesh.property("n").values == ["body"]


def test_every_typed_attribute_of_every_reference_file_reads():
    """Every getter of every typed node in every reference file returns (or raises
    castkit.Error for values a file may hold wrongly, such as an unknown mode)."""
    for path in REFERENCE_FILES:
        doc = castkit.open(path)
        seen = set()

        def visit(node):
            seen.add(type(node).__name__)
            for name in dir(type(node)):
                if name.startswith("_") or name.startswith("set_") or name.startswith("add_"):
                    continue
                attr = getattr(type(node), name)
                if isinstance(attr, property):
                    try:
                        getattr(node, name)
                    except castkit.Error:
                        pass
            if isinstance(node, castkit.Mesh):
                for layer in range(node.uv_layer_count):
                    uv = node.uv_layer(layer)
                    assert uv is None or uv.shape[1] == 2
                for layer in range(node.color_layer_count):
                    colors = node.color_layer(layer)
                    assert colors is None or (colors.shape[1] == 4 and colors.dtype == np.float32)
            for child in node.children:
                visit(child)

        for root in doc.roots:
            visit(root)


def test_reference_files_cover_every_node_class():
    classes = set()
    for path in REFERENCE_FILES:
        doc = castkit.open(path)

        def visit(node):
            classes.add(type(node).__name__)
            for child in node.children:
                visit(child)

        for root in doc.roots:
            visit(root)
    assert {"Root", "Model", "Mesh", "Hair", "BlendShape", "Skeleton", "Bone", "IKHandle",
            "Constraint", "Animation", "Curve", "CurveModeOverride", "NotificationTrack",
            "Material", "File", "Color", "Instance", "Metadata", "Node"} <= classes


def test_links_resolve_to_the_nodes_they_name():
    for path in REFERENCE_FILES:
        for model in castkit.open(path).models:
            for mesh in model.meshes:
                if mesh.material is not None:
                    assert mesh.material.hash == mesh.material_hash
                    assert mesh.material in model.materials
            for shape in model.blend_shapes:
                if shape.base_shape is not None:
                    assert shape.base_shape.hash == shape.base_shape_hash
                    assert shape.base_shape in model.meshes
            skeleton = model.skeleton
            if skeleton is not None:
                for bone in skeleton.bones:
                    assert skeleton.bone_by_hash(bone.hash) == bone
                for handle in skeleton.ik_handles:
                    if handle.start_bone is not None:
                        assert handle.start_bone.hash == handle.start_bone_hash


def test_nodes_compare_by_identity_and_know_their_document():
    doc = castkit.open(EXAMPLES / "character.cast")
    a = doc.models[0]
    b = doc.roots[0].models[0]
    assert a == b and hash(a) == hash(b) and a is not b
    assert a != doc.models[0].meshes[0]
    assert a.document is doc
    assert a.file_offset is not None and a.file_offset > 0
    assert a.kind == "model" and a.id == 0x6C646F6D


def test_edge_files_read_as_expect_tsv_says():
    doc = castkit.open(EDGE / "triangle.cast")
    mesh = doc.models[0].meshes[0]
    assert doc.models[0].name == "Triangle"
    assert mesh.positions.shape == (3, 3)
    assert mesh.faces.dtype == np.uint8 and mesh.faces.tolist() == [[0, 1, 2]]

    doc = castkit.open(EDGE / "string-count-2.cast")
    metadata = doc.roots[0].metadata[0]
    assert metadata.property("a").values == ["first", "second"]
    assert metadata.up_axis == "z"

    doc = castkit.open(EDGE / "duplicate-property.cast")
    node = doc.roots[0].children[0]
    assert node.properties.count("n") == 2
    assert node.name == "last"

    doc = castkit.open(EDGE / "bone-parent-minus-one.cast")
    bones = doc.models[0].skeleton.bones
    assert [(b.name, b.parent_index, b.segment_scale_compensate) for b in bones] == [
        ("root", -1, True), ("child", 0, True)]

    doc = castkit.open(EDGE / "legacy-vc.cast")
    mesh = doc.models[0].meshes[0]
    assert mesh.color_layer_count == 1 and mesh.color_layer_is_packed(0)
    np.testing.assert_allclose(mesh.color_layer(0), [[1, 0, 0, 1], [0, 1, 0, 1], [0, 0, 1, 128 / 255]])
    assert mesh.color_layer_property(0).name == "vc"

    assert castkit.open(EDGE / "no-roots.cast").roots == []

    doc = castkit.open(EDGE / "trailing-bytes.cast")
    assert [w.rule for w in doc.warnings] == ["cast.trailing"]

    doc = castkit.open(EDGE / "unknown-property-type.cast")
    assert [w.rule for w in doc.warnings] == ["cast.unknown-property-type"]
    assert doc.roots[0].children[0].name == "kept"
    assert doc.roots[0].metadata[0].author == "still read"


@pytest.mark.parametrize("path", sorted(GLTF.glob("*.gl*")), ids=lambda p: p.name)
def test_gltf_fixtures_read_as_the_cli_dumps_them(path, dump_json, cli):
    code, _, _ = cli("dump", "--json", path, check=False)
    if code != 0:  # the unknown required extension: the CLI refuses it, so must we
        with pytest.raises(castkit.Error):
            castkit.open(path)
        return
    doc = castkit.open(path)
    assert doc.format == path.suffix[1:]
    assert_same_document(doc, dump_json(path))


def test_the_format_can_be_named_or_told_by_the_extension_or_the_bytes(tmp_path):
    data = (EXAMPLES / "character.cast").read_bytes()
    odd = tmp_path / "character.bin"
    odd.write_bytes(data)
    assert castkit.open(odd).models[0].name == "character"  # the `cast` magic
    noise = tmp_path / "noise.bin"
    noise.write_bytes(b"\x00" * 64)
    with pytest.raises(castkit.Error, match="cannot tell the format"):
        castkit.open(noise)
    assert castkit.open(odd, format="cast").models[0].name == "character"
    assert castkit.open(str(EXAMPLES / "character.cast")).models[0].name == "character"
    with pytest.raises(castkit.Error, match="unknown format '3ds'"):
        castkit.open(odd, format="3ds")
    with pytest.raises(castkit.Error, match="does not read it"):  # written only (docs/obj.md)
        castkit.open(odd, format="obj")

"""Building documents in Python from numpy arrays, writing them, and reading them back (with
the module and with the CLI)."""

import json

import numpy as np
import pytest

import castkit


def build_scene():
    doc = castkit.Document()
    root = doc.add_root()
    metadata = root.add_metadata()
    metadata.author = "pytest"
    metadata.set_software("castkit python")
    metadata.up_axis = "z"
    metadata.units = "in"

    model = root.add_model()
    model.name = "quad"
    model.position = (1, 2, 3)
    skeleton = model.add_skeleton()
    pelvis = skeleton.add_bone()
    pelvis.set_name("pelvis")
    pelvis.parent_index = -1
    pelvis.local_position = (0, 0, 0)
    pelvis.local_rotation = (0, 0, 0, 1)
    spine = skeleton.add_bone()
    spine.name = "spine"
    spine.set_parent_index(0)
    spine.set_local_position(np.array([0, 1, 0], np.float64))
    spine.local_rotation = [0, 0, 0, 1]
    spine.segment_scale_compensate = False

    material = model.add_material()
    material.name = "skin"
    material.type = "pbr"
    albedo = material.add_file("skin.png")
    material.set_slot("albedo", albedo)
    tint = material.add_color()
    tint.rgba = (1, 0.5, 0.25, 1)
    tint.color_space = "linear"
    material.set_slot("extra0", tint)

    mesh = model.add_mesh()
    mesh.name = "body"
    mesh.set_positions(np.array([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]], np.float32))
    mesh.set_normals(np.tile(np.array([0, 0, 1], np.float32), (4, 1)))
    mesh.set_faces(np.array([[0, 1, 2], [0, 2, 3]]))
    mesh.set_uv_layer(0, np.array([[0, 0], [1, 0], [1, 1], [0, 1]], np.float32))
    mesh.set_color_layer(0, np.ones((4, 4), np.float32))
    mesh.set_color_layer_packed(1, np.array([0xFF0000FF, 0xFF00FF00, 0xFFFF0000, 0xFFFFFFFF], np.uint32))
    mesh.set_weights(2, np.array([0, 1] * 4), np.array([0.75, 0.25] * 4, np.float32))
    mesh.set_material(material)
    mesh.skinning_method = "quaternion"

    anim = root.add_animation()
    anim.name = "nod"
    anim.framerate = 30
    anim.looping = True
    curve = anim.add_curve()
    curve.node_name = "spine"
    curve.key_property = "rq"
    curve.set_key_frames([0, 10, 20])
    curve.set_quaternion_values(np.array([[0, 0, 0, 1], [0.1305262, 0, 0, 0.9914449], [0, 0, 0, 1]], np.float32))
    curve.mode = "absolute"
    tx = anim.add_curve()
    tx.node_name = "pelvis"
    tx.key_property = "tx"
    tx.set_key_frames(np.array([0, 300], np.int64))
    tx.set_float_values([0.0, 3.0])
    tx.mode = "relative"
    track = anim.add_notification_track()
    track.name = "step"
    track.set_key_frames([5, 15])
    return doc


def test_a_scene_built_from_numpy_reads_back(tmp_path, cli):
    doc = build_scene()
    assert doc.format is None and doc.warnings == []
    assert doc.validate() == []
    path = tmp_path / "built.cast"
    assert doc.write(path) == []
    assert path.read_bytes() == doc.to_bytes()

    back = castkit.open(path)
    [model] = back.models
    assert model.name == "quad" and model.position == (1, 2, 3)
    assert [(b.name, b.parent_index, b.segment_scale_compensate) for b in model.skeleton.bones] == [
        ("pelvis", -1, True), ("spine", 0, False)]
    assert model.skeleton.bones[1].local_position == (0, 1, 0)
    [mesh] = model.meshes
    np.testing.assert_array_equal(mesh.positions, [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]])
    assert mesh.faces.dtype == np.uint8  # the smallest type that holds 3 (rule 11)
    assert mesh.faces.tolist() == [[0, 1, 2], [0, 2, 3]]
    assert mesh.uv_layer_count == 1 and mesh.color_layer_count == 2
    assert mesh.color_layer_is_packed(1) and not mesh.color_layer_is_packed(0)
    np.testing.assert_allclose(mesh.color_layer(1)[0], [1, 0, 0, 1])  # R in the low byte
    assert mesh.max_weight_influence == 2
    assert mesh.weight_bones.tolist() == [0, 1] * 4
    np.testing.assert_array_equal(mesh.weight_values, [0.75, 0.25] * 4)
    assert mesh.skinning_method == "quaternion"
    assert mesh.material.name == "skin"
    assert mesh.material.slot_file("albedo").path == "skin.png"
    assert mesh.material.slot_color("extra0").color_space == "linear"
    assert mesh.material.slot_color("extra0").rgba == (1, 0.5, 0.25, 1)
    [metadata] = back.roots[0].metadata
    assert (metadata.author, metadata.software, metadata.up_axis) == ("pytest", "castkit python", "z")
    assert metadata.units == "in"  # castkit's own Metadata property (docs/decisions.md rule 36)
    with pytest.raises(ValueError, match="furlong"):
        metadata.units = "furlong"
    [anim] = back.animations
    assert (anim.name, anim.framerate, anim.looping) == ("nod", 30, True)
    rq, tx = anim.curves
    assert rq.key_frames.dtype == np.uint8 and rq.key_frames.tolist() == [0, 10, 20]
    assert rq.quaternion_values.shape == (3, 4) and rq.float_values is None
    assert tx.key_frames.dtype == np.uint16 and tx.key_frames.tolist() == [0, 300]
    assert tx.float_values.tolist() == [0, 3] and tx.mode == "relative"
    assert anim.notification_tracks[0].key_frames.tolist() == [5, 15]

    # The CLI agrees: the file validates and info counts what was built.
    code, out, err = cli("validate", path)
    assert "valid" in out
    info = cli("info", path)[1]
    assert "mesh 'body': 4 vertices, 2 faces, 1 UV layer, 2 colour layers, normals, weights (2 per vertex, quaternion), material 'skin'" in info


def test_new_nodes_get_fresh_distinct_hashes():
    doc = build_scene()
    hashes = []

    def visit(node):
        hashes.append(node.hash)
        for child in node.children:
            visit(child)

    for root in doc.roots:
        visit(root)
    assert len(set(hashes)) == len(hashes)
    assert hashes[0] == 0x534E495752545250  # the reference library's base (rule 12)


def test_every_property_type_is_settable_and_reads_back():
    doc = castkit.Document()
    node = doc.add_root().add_child("model")
    assert isinstance(node, castkit.Model)
    node.set_property("b", "b", [0, 255])
    node.set_property("h", "h", [65535])
    node.set_property("i", "i", [-1, 7])  # stored as two's complement
    node.set_property("l", "l", [2**64 - 1])
    node.set_property("f", "f", [1.5])
    node.set_property("d", "d", [0.1])
    node.set_property("v2", "v2", [[1, 2]])
    node.set_property("v3", "v3", np.zeros((0, 3)))
    node.set_property("v4", "v4", [[1, 2, 3, 4]])
    node.set_property("s", "s", "text")
    node.set_property("ss", "s", ["a", "", "ü"])
    back = castkit.read(doc.to_bytes()).models[0]
    assert back["b"].dtype == np.uint8 and back["b"].tolist() == [0, 255]
    assert back["h"].tolist() == [65535]
    assert back["i"].dtype == np.uint32 and back["i"].tolist() == [2**32 - 1, 7]
    assert back["l"].dtype == np.uint64 and back["l"].tolist() == [2**64 - 1]
    assert back["f"].dtype == np.float32 and back["d"].dtype == np.float64 and back["d"][0] == 0.1
    assert back["v2"].shape == (1, 2) and back["v3"].shape == (0, 3) and back["v4"].shape == (1, 4)
    assert back["s"] == ["text"] and back["ss"] == ["a", "", "ü"]
    assert back.property("ss").count == 3
    assert back.properties == ["b", "h", "i", "l", "f", "d", "v2", "v3", "v4", "s", "ss"]
    assert node.remove_property("b") == 1 and "b" not in node
    # NULs separate the strings of an `s` property: one inside a string is refused, by the
    # generic and the typed setters alike, and nothing changes.
    with pytest.raises(ValueError, match="NUL"):
        node.set_property("s", "s", ["a\0b"])
    with pytest.raises(ValueError, match="NUL"):
        node.set_name("l\x14\0f")
    assert castkit.read(doc.to_bytes()).models[0]["s"] == ["text"]


def test_bad_values_are_refused_before_anything_changes():
    doc = castkit.Document()
    mesh = doc.add_root().add_model().add_mesh()
    with pytest.raises(ValueError, match=r"expected shape \(n, 3\)"):
        mesh.set_positions(np.zeros((4, 4)))
    with pytest.raises(ValueError, match="do not fit"):
        mesh.set_faces([0, -1, 2])
    with pytest.raises(TypeError, match="expected integers"):
        mesh.set_faces([0.5, 1, 2])
    with pytest.raises(TypeError):
        mesh.set_positions(["a", "b", "c"])
    with pytest.raises(ValueError, match="NUL"):
        mesh.name = "a\0b"
    with pytest.raises(TypeError):
        mesh.name = 5
    with pytest.raises(ValueError, match="not linear or quaternion"):
        mesh.skinning_method = "dual"
    with pytest.raises(ValueError):
        mesh.set_property("x", "v3", [[1, 2]])
    with pytest.raises(ValueError, match="unknown property type"):
        mesh.set_property("x", "q", [1])
    with pytest.raises(ValueError, match="do not fit"):
        mesh.set_property("x", "b", [256])
    with pytest.raises(castkit.Error) as error:
        mesh.set_weights(300, [0] * 300, [1.0] * 300)
    assert error.value.rule == "cast.weight-influences"
    with pytest.raises(castkit.Error) as error:
        mesh.set_weights(2, [0, 1, 2], [1.0, 0.0])
    assert error.value.rule == "cast.weight-count"
    # ul and cl are bytes holding the layer count: layer 255 would have stored 0 layers.
    for setter, values in ((mesh.set_uv_layer, np.zeros((1, 2), np.float32)),
                           (mesh.set_color_layer, np.zeros((1, 4), np.float32)),
                           (mesh.set_color_layer_packed, np.zeros(1, np.uint32))):
        with pytest.raises(castkit.Error) as error:
            setter(255, values)
        assert error.value.rule == "cast.layer-index"
    assert mesh.properties == []  # nothing was set
    # kp and ct name one of the spec's values; any other text was stored as it stood.
    root = doc.add_root()
    curve = root.add_animation().add_curve()
    with pytest.raises(ValueError, match="'banana' is not rq, tx"):
        curve.key_property = "banana"
    constraint = root.add_model().add_skeleton().add_constraint()
    with pytest.raises(ValueError, match="'aim' is not pt, or or sc"):
        constraint.constraint_type = "aim"
    assert curve.key_property is None and constraint.constraint_type is None
    curve.key_property = "vb"
    constraint.constraint_type = "sc"
    assert (curve.key_property, constraint.constraint_type) == ("vb", "sc")
    other = castkit.Document().add_root().add_model().add_material()
    with pytest.raises(castkit.Error, match="same document"):
        mesh.set_material(other)


def test_large_indices_take_wider_types():
    doc = castkit.Document()
    mesh = doc.add_root().add_model().add_mesh()
    mesh.set_faces(np.array([0, 1, 300]))
    assert mesh.faces.dtype == np.uint16
    mesh.set_faces(np.array([0, 1, 70000], np.uint32))
    assert mesh.faces.dtype == np.uint32
    big = np.arange(300_000, dtype=np.uint32)
    mesh.set_faces(big)
    assert mesh.face_count == 100_000
    np.testing.assert_array_equal(mesh.faces.ravel(), big)


def test_the_cast_dump_of_a_built_file_matches_the_module(tmp_path, dump_json):
    from conftest import assert_same_document
    doc = build_scene()
    path = tmp_path / "built.cast"
    doc.write(path)
    assert_same_document(doc, dump_json(path))
    assert json.loads(json.dumps(dump_json(path)))["version"] == 1


def test_nodes_built_without_their_required_properties_get_them(tmp_path):
    doc = castkit.Document()
    root = doc.add_root()
    model = root.add_model()
    model.add_skeleton().add_bone().name = "root"
    first, second = model.add_material(), model.add_material()
    first.set_slot("albedo", first.add_file("skin.png"))
    curve = root.add_animation().add_curve()
    curve.node_name, curve.key_property = "root", "tx"
    curve.set_key_frames([0, 10])
    curve.set_float_values([0.0, 1.0])
    assert (first.name, first.type, second.name) == ("material0", "pbr", "material1")
    assert root.animations[0].framerate == 30.0
    assert curve.mode_name == "absolute"
    doc.write(str(tmp_path / "built.cast"))
    assert castkit.validate(str(tmp_path / "built.cast")) == []


def test_a_file_node_cannot_be_made_without_its_path():
    material = castkit.Document().add_root().add_model().add_material()
    with pytest.raises(TypeError):
        material.add_file()


def test_every_link_setter_refuses_a_node_of_another_document():
    # Issue 58 item 2: a hash link binds only inside its document. Two documents built alike
    # give their nodes the same hashes, so another document's bone, stored by its hash, would
    # name this document's bone of that hash. Every setter refuses it, stores nothing, and says
    # which setter and the id (the C++ setters stop the program on the same misuse).
    def scene():
        doc = castkit.Document()
        root = doc.add_root()
        model = root.add_model()
        skeleton = model.add_skeleton()
        parts = {
            "bone": skeleton.add_bone(),
            "material": model.add_material(),
            "mesh": model.add_mesh(),
        }
        parts["file"] = parts["material"].add_file("wood.png")
        return doc, root, model, skeleton, parts

    _, root, model, skeleton, here = scene()
    _, _, _, _, there = scene()
    assert here["bone"].hash == there["bone"].hash  # the trap
    ik = skeleton.add_ik_handle()
    constraint = skeleton.add_constraint()
    setters = [
        (model.add_mesh(), "set_material", "material"),
        (model.add_hair(), "set_material", "material"),
        (model.add_blend_shape(), "set_base_shape", "mesh"),
        (root.add_instance(), "set_reference_file", "file"),
    ]
    ik_bones = ("start_bone", "end_bone", "target_bone", "pole_vector_bone", "pole_bone")
    setters += [(ik, f"set_{b}", "bone") for b in ik_bones]
    setters += [(constraint, f"set_{b}", "bone") for b in ("constraint_bone", "target_bone")]
    for node, setter, part in setters:
        refused = f"{setter}: the node is of another document"
        with pytest.raises(castkit.Error, match=refused) as error:
            getattr(node, setter)(there[part])
        assert error.value.rule == "cast.foreign-link"
        assert getattr(node, setter[len("set_") :] + "_hash") is None
        getattr(node, setter)(here[part])  # one of its own document is linked
        assert getattr(node, setter[len("set_") :] + "_hash") == here[part].hash
    with pytest.raises(castkit.Error, match="set_slot: the node is of another document") as error:
        here["material"].set_slot("albedo", there["file"])
    assert error.value.rule == "cast.foreign-link"
    assert here["material"].slot_file("albedo") is None
    assert ik.start_bone == here["bone"]

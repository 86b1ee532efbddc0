"""Writing and every format: byte-exact Cast round trips, each format castkit reads read from
bytes, and the module's output equal to the CLI's."""

import numpy as np
import pytest

import castkit
from conftest import EXAMPLE_FILES, EXAMPLES, REFERENCE_FILES, assert_same_document

ALL_FORMATS = ["cast", "seanim", "semodel", "k3d", "dmf", "dmf-json", "glb", "gltf"]
EXTENSIONS = {"cast": ".cast", "seanim": ".seanim", "semodel": ".semodel", "k3d": ".k3d",
              "dmf": ".dmf", "dmf-json": ".dmf.json", "glb": ".glb", "gltf": ".gltf"}
# Formats castkit writes but does not read (docs/fbx.md, docs/obj.md).
WRITE_ONLY = {"fbx": ".fbx", "obj": ".obj"}
# A source each format can hold: SEAnim animations only, SEModel models only.
SOURCES = {"seanim": "wave.cast", "semodel": "character.cast"}


def source_for(fmt):
    return EXAMPLES / SOURCES.get(fmt, "character.cast")


def test_formats_lists_every_format():
    formats = castkit.formats()
    assert [f["name"] for f in formats] == ALL_FORMATS + list(WRITE_ONLY)
    for f in formats:
        assert f["write"]
        assert f["read"] == (f["name"] not in WRITE_ONLY)
        assert {**EXTENSIONS, **WRITE_ONLY}[f["name"]] in f["extensions"]


@pytest.mark.parametrize("path", EXAMPLE_FILES + REFERENCE_FILES, ids=lambda p: p.name)
def test_cast_files_round_trip_byte_for_byte(path, tmp_path):
    data = path.read_bytes()
    doc = castkit.open(path)
    assert doc.to_bytes() == data
    assert castkit.read(data).to_bytes("cast") == data
    out = tmp_path / "out.cast"
    assert doc.write(out) == []
    assert out.read_bytes() == data


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_every_format_reads_from_bytes(fmt, dump_json, tmp_path):
    source = castkit.open(source_for(fmt))
    data = source.to_bytes(fmt)
    doc = castkit.read(data, fmt, name="memory" + EXTENSIONS[fmt])
    assert doc.format == fmt
    assert doc.source_name == "memory" + EXTENSIONS[fmt]
    # The same bytes from a file of the same name (images inside a glb are named after it),
    # through the CLI: the same document.
    path = tmp_path / ("memory" + EXTENSIONS[fmt])
    path.write_bytes(data)
    assert_same_document(doc, dump_json(path))
    assert_same_document(castkit.open(path), dump_json(path))
    if fmt != "seanim":
        want = source.models[0].meshes[0]
        got = doc.models[0].meshes[0]
        assert got.vertex_count == want.vertex_count
        np.testing.assert_allclose(got.positions, want.positions, atol=1e-6)
        assert got.faces.tolist() == want.faces.tolist()
        assert [b.name for b in doc.models[0].skeleton.bones] == [
            b.name for b in source.models[0].skeleton.bones]
    else:
        assert len(doc.animations) == 1
        assert {c.node_name for c in doc.animations[0].curves} == {
            c.node_name for c in source.animations[0].curves}


@pytest.mark.parametrize("fmt", ALL_FORMATS)
def test_write_matches_castkit_convert(fmt, cli, tmp_path):
    source = source_for(fmt)
    ours = tmp_path / ("ours" + EXTENSIONS[fmt])
    theirs = tmp_path / "cli" / ("ours" + EXTENSIONS[fmt])
    theirs.parent.mkdir()
    castkit.open(source).write(ours)
    cli("convert", source, theirs)
    assert ours.read_bytes() == theirs.read_bytes()
    # castkit.convert is the CLI's convert.
    converted = tmp_path / "convert" / ("ours" + EXTENSIONS[fmt])
    converted.parent.mkdir()
    castkit.convert(source, converted)
    assert converted.read_bytes() == theirs.read_bytes()
    # to_bytes gives the file's bytes (a .gltf embeds its buffer when there is no file).
    if fmt != "gltf":
        assert castkit.open(source).to_bytes(fmt) == theirs.read_bytes()


def test_write_names_what_a_format_cannot_hold(tmp_path, monkeypatch):
    doc = castkit.open(EXAMPLES / "character.cast")
    with pytest.raises(castkit.Error, match="no Animation") as error:
        doc.write(tmp_path / "character.seanim")
    assert error.value.rule == "seanim.write"
    assert not (tmp_path / "character.seanim").exists()  # atomic: nothing half written
    # Read from bytes, the document has no folder: its textures are not found.
    monkeypatch.chdir(tmp_path)
    warnings = []
    castkit.read(doc.to_bytes()).to_bytes("glb", warnings)
    assert len(warnings) == 2
    assert all(w.severity == "warning" and w.rule == "gltf.export" for w in warnings)
    assert "skin_albedo.png" in warnings[0].message


def test_textures_are_embedded_copied_or_referenced(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    doc = castkit.open(EXAMPLES / "character.cast")  # finds its textures beside it
    for fmt in ("glb", "gltf"):
        embedded, referenced = doc.to_bytes(fmt), doc.to_bytes(fmt, textures="reference")
        assert len(embedded) > len(referenced)
    assert list(tmp_path.iterdir()) == []  # bytes never copy textures anywhere
    with pytest.raises(ValueError):
        doc.to_bytes("gltf", textures="copy")
    (tmp_path / "out").mkdir()
    doc.write(tmp_path / "out" / "c.gltf")
    assert sorted(p.name for p in (tmp_path / "out").iterdir()) == [
        "c.bin", "c.gltf", "skin_albedo.png", "skin_normal.png"]
    (tmp_path / "ref").mkdir()
    doc.write(tmp_path / "ref" / "c.gltf", textures="reference")
    assert sorted(p.name for p in (tmp_path / "ref").iterdir()) == ["c.bin", "c.gltf"]


def test_convert_returns_the_warnings(tmp_path):
    warnings = castkit.convert(EXAMPLES / "character.cast", tmp_path / "c.k3d")
    assert warnings and all(w.rule == "k3d.write" for w in warnings)
    assert "UV layers after the first dropped" in warnings[0].message
    warnings = castkit.convert(tmp_path / "c.k3d", tmp_path / "back.cast")
    assert [w.rule for w in warnings] == ["k3d.read"]
    assert castkit.open(tmp_path / "back.cast").models[0].meshes[0].vertex_count == 4
    with pytest.raises(castkit.Error, match="cannot tell the format"):
        castkit.convert(EXAMPLES / "character.cast", tmp_path / "c.xyz")
    castkit.convert(EXAMPLES / "character.cast", tmp_path / "c.xyz", to_format="semodel")
    assert castkit.open(tmp_path / "c.xyz", format="semodel").models[0].meshes[0].vertex_count == 4


def test_documents_read_from_any_format_write_any_other():
    wave = castkit.read(castkit.open(EXAMPLES / "wave.cast").to_bytes("seanim"), "seanim")
    glb = castkit.read(wave.to_bytes("glb"), "glb")
    assert len(glb.animations) == 1
    back = castkit.read(glb.to_bytes("seanim"), "seanim")
    assert {c.node_name for c in back.animations[0].curves} == {
        c.node_name for c in wave.animations[0].curves}


def test_strict_refuses_a_broken_mesh_and_writes_nothing(tmp_path):
    doc = castkit.Document()
    mesh = doc.add_root().add_model().add_mesh()
    mesh.set_positions(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32))
    mesh.set_faces(np.array([[0, 1, 2], [0, 2, 7]]))  # the second names vertex 7 of 3
    warnings = doc.write(tmp_path / "leaf.k3d")
    assert [(w.rule, w.path) for w in warnings] == [
        ("output.face-index", "root[0]/model[0]/mesh[0]")]
    assert castkit.open(tmp_path / "leaf.k3d").models[0].meshes[0].face_count == 1
    with pytest.raises(castkit.Error, match="1 of 2 triangles") as error:
        doc.write(tmp_path / "strict.k3d", strict=True)
    assert error.value.rule == "output.face-index"
    assert not (tmp_path / "strict.k3d").exists()
    with pytest.raises(castkit.Error):
        doc.to_bytes("glb", strict=True)
    doc.write(tmp_path / "leaf.cast")
    with pytest.raises(castkit.Error):
        castkit.convert(tmp_path / "leaf.cast", tmp_path / "strict.semodel", strict=True)
    assert not (tmp_path / "strict.semodel").exists()

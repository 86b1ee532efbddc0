"""Issue 42 #3 in Python: an image read from inside a glb or a DMF travels with the Document,
so castkit.open(...).write(...), to_bytes() and castkit.convert embed it again byte for byte,
or write it beside a Cast output, without a texture folder and without a warning."""

import json
import struct

import pytest

import castkit
from conftest import EXAMPLES

HERO = EXAMPLES / "hero"
ALBEDO = (HERO / "hero_albedo.png").read_bytes()


def glb_image(data, index=0):
    """The bytes of image `index` of a glb, from its binary chunk."""
    (json_length,) = struct.unpack_from("<I", data, 12)
    gltf = json.loads(data[20:20 + json_length])
    view = gltf["bufferViews"][gltf["images"][index]["bufferView"]]
    start = 20 + json_length + 8 + view.get("byteOffset", 0)
    return data[start:start + view["byteLength"]]


def not_kept(warnings):
    return [str(w) for w in warnings if "not kept" in str(w) or "not carried" in str(w)]


@pytest.mark.parametrize("name", ["hero.glb", "hero.dmf", "hero.dmf.json"])
def test_open_then_write_a_glb_keeps_the_image(name, tmp_path):
    doc = castkit.open(HERO / name)
    assert not_kept(doc.warnings) == []
    warnings = doc.write(tmp_path / "out.glb")
    assert not_kept(warnings) == []
    assert glb_image((tmp_path / "out.glb").read_bytes()) == ALBEDO
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.glb"]


@pytest.mark.parametrize("name", ["hero.glb", "hero.dmf"])
def test_to_bytes_embeds_the_image(name):
    warnings = []
    data = castkit.open(HERO / name).to_bytes("glb", warnings=warnings)
    assert not_kept(warnings) == []
    assert glb_image(data) == ALBEDO


@pytest.mark.parametrize("target", ["out.glb", "out.dmf", "out.dmf.json"])
def test_convert_a_glb_keeps_the_image_inside(target, tmp_path):
    warnings = castkit.convert(HERO / "hero.glb", tmp_path / target)
    assert not_kept(warnings) == []
    assert sorted(p.name for p in tmp_path.iterdir()) == [target]
    if target == "out.glb":
        assert glb_image((tmp_path / target).read_bytes()) == ALBEDO
    else:
        assert glb_image(castkit.open(tmp_path / target).to_bytes("glb")) == ALBEDO


def test_convert_a_glb_to_cast_writes_the_image_beside_it(tmp_path):
    warnings = castkit.convert(HERO / "hero.glb", tmp_path / "hero.cast")
    assert not_kept(warnings) == []
    assert (tmp_path / "hero_image0.png").read_bytes() == ALBEDO
    doc = castkit.open(tmp_path / "hero.cast")
    paths = [f.path for m in doc.models for mat in m.materials for f in mat.files]
    assert paths == ["hero_image0.png"]


def test_to_bytes_of_a_cast_names_the_image_it_cannot_keep():
    warnings = []
    castkit.open(HERO / "hero.glb").to_bytes("cast", warnings=warnings)
    assert [w.id for w in warnings] == ["texture.embedded-not-kept"]

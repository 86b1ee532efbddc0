"""Root motion in Python (issue 60): castkit.convert's and castkit.bake's `root_motion` and
`root_bone`, convert's `model` for an animation file alone, and castkit.batch's `model` for a
folder, each checked against the poses of the input."""

import shutil

import numpy as np
import pytest

import castkit
import castkit.batch
from conftest import EXAMPLES

HERO = EXAMPLES / "hero"
TOLERANCE = 1e-4


def world(model, animation, frame):
    """{bone: world translation} at `frame`."""
    pose = castkit.pose(model, animation, frame)
    return dict(zip(pose.bone_names, np.asarray(pose.world_translations)))


def turned_to_z(v):
    """+Y up turned +Z up: (x, y, z) becomes (x, -z, y)."""
    return np.array([v[0], -v[2], v[1]])


@pytest.fixture
def scene(tmp_path):
    """The hero with its walk merged in, as one Cast file."""
    path = tmp_path / "scene.cast"
    castkit.merge(HERO / "hero.cast", HERO / "hero_walk.cast").write(path)
    return path


def test_convert_strips_and_extracts_the_root_motion(scene, tmp_path):
    before = castkit.open(scene)
    warnings = castkit.convert(scene, tmp_path / "strip.cast", root_motion="strip")
    assert "anim.root-motion-stripped" in [w.rule for w in warnings]
    stripped = castkit.open(tmp_path / "strip.cast")
    warnings = castkit.convert(scene, tmp_path / "extract.glb", root_motion="extract")
    assert "anim.root-motion-extracted" in [w.rule for w in warnings]
    extracted = castkit.open(tmp_path / "extract.glb")
    for frame in (0, 7, 15):
        want = world(before, before, frame)
        pelvis = world(stripped, stripped, frame)["pelvis"]
        np.testing.assert_allclose(pelvis, [0.0, want["pelvis"][1], 0.0], atol=TOLERANCE)
        got = world(extracted, extracted, frame)
        for bone, position in want.items():
            np.testing.assert_allclose(got[bone], position, atol=TOLERANCE, err_msg=bone)
        assert "root_motion" in got


def test_convert_refuses_a_root_bone_naming_no_bone_and_an_unknown_mode(scene, tmp_path):
    with pytest.raises(castkit.Error, match="top bones: pelvis") as error:
        castkit.convert(scene, tmp_path / "out.cast", root_motion="strip", root_bone="nosuch")
    assert error.value.rule == "anim.root-bone"
    with pytest.raises(ValueError, match="root_motion"):
        castkit.convert(scene, tmp_path / "out.cast", root_motion="sideways")


def test_convert_turns_an_animation_file_alone_on_its_models_skeleton(tmp_path):
    warnings = castkit.convert(HERO / "hero_walk.seanim", tmp_path / "walk.cast",
                               model=HERO / "hero.cast", up="z")
    assert "axes.no-skeleton" not in [w.rule for w in warnings]
    model, walk = castkit.open(HERO / "hero.cast"), castkit.open(HERO / "hero_walk.seanim")
    turned = castkit.open(tmp_path / "walk.cast")
    for frame in (0, 7, 15):
        got = world(None, turned, frame)
        for bone, position in world(model, walk, frame).items():
            np.testing.assert_allclose(got[bone], turned_to_z(position), atol=TOLERANCE,
                                       err_msg=bone)


def test_bake_takes_root_motion_and_root_bone():
    model, walk = castkit.open(HERO / "hero.cast"), castkit.open(HERO / "hero_walk.cast")
    baked = castkit.bake(model, walk, root_motion="extract")
    assert "anim.root-motion-extracted" in [w.rule for w in baked.warnings]
    for frame in (0, 7, 15):
        got = world(None, baked, frame)
        for bone, position in world(model, walk, frame).items():
            np.testing.assert_allclose(got[bone], position, atol=TOLERANCE, err_msg=bone)
        assert "root_motion" in got
    with pytest.raises(castkit.Error, match="anim.root-bone"):
        castkit.bake(model, walk, root_motion="strip", root_bone="nosuch")


def test_batch_pairs_a_folders_animation_files_with_the_model(tmp_path):
    source = tmp_path / "in"
    source.mkdir()
    for name in ("hero.cast", "hero_walk.seanim"):
        shutil.copy(HERO / name, source / name)
    run = castkit.batch.convert(source, tmp_path / "out", "cast", jobs=1, quiet=True,
                                model=source / "hero.cast", up="z")
    assert run.exit_code == 0
    model, walk = castkit.open(HERO / "hero.cast"), castkit.open(HERO / "hero_walk.seanim")
    turned = castkit.open(tmp_path / "out" / "hero_walk.cast")
    for frame in (0, 7, 15):
        got = world(None, turned, frame)
        for bone, position in world(model, walk, frame).items():
            np.testing.assert_allclose(got[bone], turned_to_z(position), atol=TOLERANCE,
                                       err_msg=bone)

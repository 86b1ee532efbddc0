"""castkit.pose and castkit.Sampler against `castkit pose --json`: the same animation evaluator,
so the same numbers."""

import json
import subprocess

import numpy as np
import pytest

import castkit
from conftest import EXAMPLES, GLTF, cli_path

FRAMES = [0, 2.5, 7, 12.5, 29.75, 30, 45]
CASES = [
    # (model file or None, animation file)
    (EXAMPLES / "character.cast", EXAMPLES / "wave.cast"),
    (None, GLTF / "skinned.glb"),
    (None, GLTF / "two_skeletons.glb"),
    (None, GLTF / "rigid.glb"),
]


def cli_pose(cli, model, animation, frame, looped=False, which=None):
    args = ["pose", "--anim", animation, "--frame", frame, "--json"]
    if model:
        args += ["--model", model]
    if looped:
        args.append("--loop")
    if which is not None:
        args += ["--animation", which]
    return json.loads(cli(*args)[1])


def assert_pose_matches(pose, want):
    assert pose.frame == pytest.approx(want["frame"])
    assert pose.bone_names == [b["name"] for b in want["bones"]]
    for i, bone in enumerate(want["bones"]):
        for space in ("local", "world"):
            np.testing.assert_allclose(getattr(pose, f"{space}_translations")[i], bone[space]["t"], rtol=1e-6, atol=1e-6)
            np.testing.assert_allclose(getattr(pose, f"{space}_rotations")[i], bone[space]["r"], rtol=1e-6, atol=1e-6)
            np.testing.assert_allclose(getattr(pose, f"{space}_scales")[i], bone[space]["s"], rtol=1e-6, atol=1e-6)
    assert pose.blend_shapes == pytest.approx(want["blendshapes"])
    assert pose.visibility == want["visibility"]


@pytest.mark.parametrize("model,animation", CASES, ids=lambda p: p.name if p else "own")
def test_pose_is_castkit_pose(model, animation, cli):
    model_doc = castkit.open(model) if model else None
    anim_doc = castkit.open(animation)
    sampler = castkit.Sampler(model_doc, anim_doc)
    for looped in (False, True):
        for frame in FRAMES:
            want = cli_pose(cli, model, animation, frame, looped)
            assert_pose_matches(castkit.pose(model_doc, anim_doc, frame, looped=looped), want)
            assert_pose_matches(sampler.sample(frame, looped=looped), want)
    # Backwards and repeated frames through one sampler give the same answers.
    for frame in reversed(FRAMES):
        assert_pose_matches(sampler.sample(frame), cli_pose(cli, model, animation, frame))


def test_world_matrices_multiply_column_vectors():
    pose = castkit.pose(castkit.open(EXAMPLES / "character.cast"), castkit.open(EXAMPLES / "wave.cast"), 12.5)
    matrices = pose.world_matrices
    assert matrices.shape == (3, 4, 4) and matrices.dtype == np.float32
    np.testing.assert_allclose(matrices[:, :3, 3], pose.world_translations, atol=1e-6)
    np.testing.assert_allclose(matrices[:, 3], np.tile([0, 0, 0, 1], (3, 1)))
    # Each world matrix is its parent's times the local transform.
    for i, parent in enumerate(pose.parents):
        x, y, z, w = pose.local_rotations[i]
        rotation = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                             [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                             [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
        local = np.eye(4)
        local[:3, :3] = rotation * pose.local_scales[i]
        local[:3, 3] = pose.local_translations[i]
        expected = local if parent < 0 else matrices[parent] @ local
        np.testing.assert_allclose(matrices[i], expected, atol=1e-5)


def test_sampler_describes_the_animation(cli):
    sampler = castkit.Sampler(castkit.open(EXAMPLES / "character.cast"), castkit.open(EXAMPLES / "wave.cast"))
    # castkit info: animation 0 'wave': ... frames 0..30 at 30 fps, looping
    assert (sampler.name, sampler.framerate, sampler.looping) == ("wave", 30, True)
    assert (sampler.start_frame, sampler.end_frame) == (0, 30)
    assert sampler.bone_names == ["pelvis", "spine", "head"]
    assert sampler.parents.tolist() == [-1, 0, 1]
    assert sampler.warnings == []
    tracks = sampler.notification_tracks
    assert len(tracks) == 1
    doc = castkit.open(EXAMPLES / "wave.cast")
    [track] = doc.animations[0].notification_tracks
    np.testing.assert_array_equal(tracks[track.name], track.key_frames)


def test_animations_are_picked_by_index_or_name(tmp_path, cli):
    wave = castkit.open(EXAMPLES / "wave.cast")
    doc = castkit.Document()
    root = doc.add_root()
    # Two animations in one file: the wave, and a copy renamed.
    for name in ("first", "second"):
        anim = root.add_animation()
        anim.name = name
        anim.framerate = 30
        source = wave.animations[0]
        for curve in source.curves:
            copy = anim.add_curve()
            copy.node_name = curve.node_name
            copy.key_property = curve.key_property
            copy.set_key_frames(curve.key_frames)
            for prop in ("kv", "m", "ab"):
                stored = curve.property(prop)
                if stored is not None:
                    copy.set_property(prop, stored.type, stored.values)
    path = tmp_path / "two.cast"
    doc.write(path)
    model = castkit.open(EXAMPLES / "character.cast")
    two = castkit.open(path)
    for which in (0, 1, "first", "second"):
        want = cli_pose(cli, EXAMPLES / "character.cast", path, 5, which=which)
        assert_pose_matches(castkit.pose(model, two, 5, animation=which), want)
    assert castkit.Sampler(model, two, "second").name == "second"
    with pytest.raises(castkit.Error, match="no animation named 'third'; the file holds 0 'first', 1 'second'"):
        castkit.pose(model, two, 5, animation="third")
    with pytest.raises(castkit.Error, match="no animation at index 2"):
        castkit.pose(model, two, 5, animation=2)


def test_a_model_of_several_is_posed_on_its_own_skeleton(cli):
    """A file with two skinned Models: the Document stands for its first, a Model for itself."""
    doc = castkit.open(GLTF / "two_skeletons.glb")
    first, second = doc.models
    for frame in FRAMES:
        want = cli_pose(cli, None, GLTF / "two_skeletons.glb", frame)
        assert_pose_matches(castkit.pose(first, doc, frame), want)
        pose = castkit.pose(second, doc, frame)
        assert pose.bone_names == [bone.name for bone in second.skeleton.bones] == ["base1", "arm1"]
        assert castkit.Sampler(second, doc).sample(frame).bone_names == pose.bone_names
    # The second rig's curves move its own bones: its pose changes over the clip.
    sampler = castkit.Sampler(second, doc)
    start, end = sampler.start_frame, sampler.end_frame
    assert not np.allclose(sampler.sample(start).world_matrices,
                           sampler.sample((start + end) / 2).world_matrices)
    without = castkit.open(EXAMPLES / "wave.cast").add_root().add_model()
    with pytest.raises(castkit.Error, match="has no Skeleton"):
        castkit.pose(without, doc, 0)
    with pytest.raises(TypeError, match="a Document, a Model or None"):
        castkit.pose(second.skeleton, doc, 0)


def test_documents_without_what_pose_needs_raise():
    character = castkit.open(EXAMPLES / "character.cast")
    wave = castkit.open(EXAMPLES / "wave.cast")
    with pytest.raises(castkit.Error, match="holds no Animation"):
        castkit.pose(None, character, 0)
    with pytest.raises(castkit.Error, match="neither the animation nor a Model"):
        castkit.pose(None, wave, 0)
    with pytest.raises(castkit.Error, match="no Model with a Skeleton"):
        castkit.pose(wave, wave, 0)
    with pytest.raises(TypeError):
        castkit.pose(character, None, 0)


def test_curves_naming_no_bone_are_reported(cli):
    sampler = castkit.Sampler(None, castkit.open(GLTF / "two_skeletons.glb"))
    assert [w.rule for w in sampler.warnings] == ["anim.unknown-node"]
    assert "arm1" in sampler.warnings[0].message


@pytest.mark.parametrize("fps, tolerance", [(None, None), (60, None), (None, 0.01)])
def test_bake_writes_what_castkit_bake_writes(fps, tolerance, cli, tmp_path):
    expected = tmp_path / "cli.cast"
    args = ["bake", "--model", EXAMPLES / "character.cast", "--anim", EXAMPLES / "wave.cast",
            "-o", expected]
    args += ["--fps", fps] if fps else []
    args += ["--tolerance", tolerance] if tolerance else []
    cli(*args)
    model, animation = castkit.open(EXAMPLES / "character.cast"), castkit.open(EXAMPLES / "wave.cast")
    baked = castkit.bake(model, animation, framerate=fps or 0.0, tolerance=tolerance)
    assert baked.to_bytes() == expected.read_bytes()
    sampler = castkit.Sampler(model, animation)
    assert sampler.bake(fps or 0.0, tolerance).to_bytes() == expected.read_bytes()


def test_baked_curves_are_numpy_arrays_that_pose_like_the_source():
    model, animation = castkit.open(EXAMPLES / "character.cast"), castkit.open(EXAMPLES / "wave.cast")
    baked = castkit.bake(model, animation)
    curve = baked.animations[0].curves[0]
    assert isinstance(curve.key_frames, np.ndarray) and isinstance(curve.key_values, np.ndarray)
    for frame in (0, 7, 12):
        source = castkit.pose(model, animation, frame)
        again = castkit.pose(model, baked, frame)
        np.testing.assert_allclose(again.world_translations, source.world_translations, atol=1e-4)


def test_diff_compares_two_clips_or_two_rests_as_the_cli_does():
    """castkit.diff (issue 46 item 5): the bundled walk as Cast and as SEAnim differs in nothing,
    the model as Cast and SEModel neither at rest; the idle against the walk differs from the
    first frame; a clip against a model is refused."""
    hero = EXAMPLES / "hero"
    model = castkit.open(hero / "hero.cast")
    same = castkit.diff(castkit.open(hero / "hero_walk.cast"),
                        castkit.open(hero / "hero_walk.seanim"), model=model)
    assert not same["differs"] and same["poses"] == 31 and len(same["bones"]) == 21
    assert all(b["first_frame"] is None and b["position"] < 1e-5 for b in same["bones"])
    assert not castkit.diff(model, castkit.open(hero / "hero.semodel"))["differs"]
    other = castkit.diff(castkit.open(hero / "hero_idle.cast"),
                         castkit.open(hero / "hero_walk.seanim"), model=model, angle=1.0)
    assert other["differs"] and other["rotation_tolerance_degrees"] == 1.0
    moved = [b for b in other["bones"] if b["first_frame"] is not None]
    assert moved and all(b["position"] > 1e-3 or b["rotation_degrees"] > 1.0 for b in moved)
    with pytest.raises(castkit.Error, match="holds an Animation and"):
        castkit.diff(model, castkit.open(hero / "hero_walk.seanim"))


def test_diff_names_a_pose_that_is_not_a_number_as_different():
    """A NaN key makes a pose that no tolerance holds (NaN compares false against it, so diff
    said no difference): the library, and so castkit.diff, counts it different from its frame."""
    hero = EXAMPLES / "hero"
    model = castkit.open(hero / "hero.cast")
    good, bad = castkit.open(hero / "hero_walk.cast"), castkit.open(hero / "hero_walk.cast")
    curve = next(c for c in bad.animations[0].curves if c.key_property == "tx")
    values = np.array(curve.property("kv").values, dtype=np.float32)
    values[-1] = np.nan
    curve.set_property("kv", "f", values)
    result = castkit.diff(good, bad, model=model)
    assert result["differs"]
    named = next(b for b in result["bones"] if b["name"] == curve.node_name)
    assert named["first_frame"] is not None and named["position"] == float("inf")


def test_diff_without_the_rig_compares_the_curves_alone():
    """The rig's step clip against its bake agree with the rig solved on both sides; with
    rig=False the step leaves the leg at rest where the bake turns it, and the calf differs."""
    hero = EXAMPLES / "hero"
    rig, step = castkit.open(hero / "hero_rig.cast"), castkit.open(hero / "hero_step.cast")
    baked = castkit.bake(rig, step)
    assert not castkit.diff(step, baked, model=rig)["differs"]
    raw = castkit.diff(step, baked, model=rig, rig=False)
    calf = next(b for b in raw["bones"] if b["name"] == "calf_l")
    assert raw["differs"] and calf["first_frame"] is not None


def test_bake_layers_an_additive_clip_on_a_base_as_the_cli_does(tmp_path):
    """castkit.bake(base=...) (issue 46 item 3) writes what `castkit bake --base` writes, for a
    whole base clip and for one frame of it; without a base the clip lies on the rest pose."""
    hero = EXAMPLES / "hero"
    model, walk, idle = (castkit.open(hero / name)
                         for name in ("hero.cast", "hero_walk.cast", "hero_idle.cast"))
    for base_frame, suffix in ((None, ""), (12.0, "@12")):
        layered = castkit.bake(model, walk, base=idle, base_frame=base_frame)
        out = tmp_path / f"layered{len(suffix)}.cast"
        done = subprocess.run([cli_path(), "bake", "--model", str(hero / "hero.cast"), "--anim",
                               str(hero / "hero_walk.cast"), "-o", str(out), "--base",
                               str(hero / "hero_idle.cast") + suffix], capture_output=True)
        assert done.returncode == 0, done.stderr
        for frame in (0.0, 7.0, 30.0):
            ours = castkit.pose(model, layered, frame).world_translations
            cli = castkit.pose(model, castkit.open(out), frame).world_translations
            np.testing.assert_allclose(ours, cli, atol=1e-6)


def test_merge_layers_additive_animations_on_a_base_as_convert_does(tmp_path):
    """castkit.merge(base=...) writes what `castkit convert MODEL ANIM... --base` writes: the
    animation files that hold additive curves are layered on the base before they merge. The
    bundled clips are absolute, so one is made additive here: its curves marked so."""
    hero = EXAMPLES / "hero"
    additive = tmp_path / "lean.cast"
    lean = castkit.open(hero / "hero_walk.cast")
    for curve in lean.animations[0].curves:
        curve.set_mode("additive")
    lean.write(additive)
    merged = castkit.merge(hero / "hero.cast", additive, base=hero / "hero_idle.cast",
                           base_frame=12.0)
    out = tmp_path / "scene.cast"
    subprocess.run([cli_path(), "convert", str(hero / "hero.cast"), str(additive), "-o", str(out),
                    "--base", f"{hero / 'hero_idle.cast'}@12"], check=True)
    cli = castkit.open(out)
    for curve in merged.animations[0].curves:
        assert curve.mode == "absolute"
    for frame in (0.0, 9.0):
        ours = castkit.pose(merged, merged, frame).world_translations
        theirs = castkit.pose(cli, cli, frame).world_translations
        np.testing.assert_allclose(ours, theirs, atol=1e-6)


# +Y up to +Z up: a quarter turn about +X, (x, y, z) -> (x, -z, y).
Y_TO_Z = np.array([[1, 0, 0], [0, 0, -1], [0, 1, 0]], np.float64)


def test_change_axes_moves_every_pose_by_the_turn_and_the_scale():
    scene = castkit.merge(EXAMPLES / "character.cast", EXAMPLES / "wave.cast", warnings=[])
    before = [castkit.pose(scene, scene, frame).world_matrices.astype(np.float64) for frame in FRAMES]
    warnings = []
    scene.change_axes(up="z", units="m", scale=2.5, warnings=warnings)
    assert warnings == []  # the file says its units: metres (Metadata `units`, rule 36)
    for frame, was in zip(FRAMES, before):
        now = castkit.pose(scene, scene, frame).world_matrices.astype(np.float64)
        # [C·R | s·C·t] with s = 1 m per m times 2.5
        np.testing.assert_allclose(now[:, :3, :3], Y_TO_Z @ was[:, :3, :3], atol=1e-5)
        np.testing.assert_allclose(now[:, :3, 3], 2.5 * (was[:, :3, 3] @ Y_TO_Z.T), atol=1e-4)
    metadata = scene.root_nodes[0].metadata[0]
    assert (metadata.up_axis, metadata.units) == ("z", "m")


def test_convert_and_batch_turn_and_scale_as_the_command_does(tmp_path):
    import castkit.batch
    first = castkit.open(EXAMPLES / "character.cast").models[0].meshes[0].positions.copy()
    castkit.convert(EXAMPLES / "character.cast", tmp_path / "one.cast", up="z", from_units="in",
                    units="m")
    one = castkit.open(tmp_path / "one.cast").models[0].meshes[0].positions
    np.testing.assert_allclose(one, 0.0254 * (first @ Y_TO_Z.T), atol=1e-6)
    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "character.cast").write_bytes((EXAMPLES / "character.cast").read_bytes())
    run = castkit.batch.convert(tmp_path / "in", tmp_path / "out", "cast", jobs=1, quiet=True,
                                scale=4)
    assert run.exit_code == 0
    out = castkit.open(tmp_path / "out" / "character.cast").models[0].meshes[0].positions
    np.testing.assert_allclose(out, 4 * first, atol=1e-6)
    with pytest.raises(ValueError, match="units: 'furlong'"):
        castkit.convert(EXAMPLES / "character.cast", tmp_path / "x.cast", units="furlong")


def test_pose_solves_ik_handles_unless_rig_is_false():
    doc = castkit.Document()
    root = doc.add_root()
    skeleton = root.add_model().add_skeleton()

    def bone(name, parent, position):
        b = skeleton.add_bone()
        b.set_name(name)
        b.set_parent_index(parent)
        b.set_local_position(position)
        return b

    hip, _, ankle = bone("hip", -1, (0, 2, 0)), bone("knee", 0, (0, -0.5, 0)), bone("ankle", 1, (0, -0.5, 0))
    goal, pole = bone("goal", -1, (0.3, 1.4, 0.2)), bone("pole", -1, (0, 1.5, 2))
    handle = skeleton.add_ik_handle()
    handle.set_start_bone(hip)
    handle.set_end_bone(ankle)
    handle.set_target_bone(goal)
    handle.set_pole_vector_bone(pole)
    curve = root.add_animation().add_curve()
    curve.set_node_name("goal")
    curve.set_key_property("tx")
    curve.set_key_frames([0])
    curve.set_float_values([0.3])
    solved = castkit.pose(doc, doc, 0).world_translations
    raw = castkit.pose(doc, doc, 0, rig=False).world_translations
    np.testing.assert_allclose(solved[2], (0.3, 1.4, 0.2), atol=1e-5)  # the ankle on the goal
    np.testing.assert_allclose(np.linalg.norm(solved[1] - solved[0]), 0.5, atol=1e-5)
    np.testing.assert_allclose(raw[2], (0, 1, 0), atol=1e-6)


def many_ik_handles(last):
    """100 IK handles over one two-bone leg, its target keyed at frames 0 and `last`: a few KB
    whose rig would be solved 100 times on every frame between."""
    doc = castkit.Document()
    root = doc.add_root()
    skeleton = root.add_model().add_skeleton()
    bones = []
    for name, parent, position in [("hip", -1, (0, 2, 0)), ("knee", 0, (0, -0.5, 0.1)),
                                   ("foot", 1, (0, -0.5, -0.1)), ("foot_ik", -1, (0.3, 1.2, 0.4))]:
        b = skeleton.add_bone()
        b.set_name(name)
        b.set_parent_index(parent)
        b.set_local_position(position)
        bones.append(b)
    for _ in range(100):
        handle = skeleton.add_ik_handle()
        handle.set_start_bone(bones[0])
        handle.set_end_bone(bones[2])
        handle.set_target_bone(bones[3])
    curve = root.add_animation().add_curve()
    curve.set_node_name("foot_ik")
    curve.set_key_property("tx")
    curve.set_key_frames([0, last])
    curve.set_float_values([0.3, 0.1])
    return doc


def test_the_rigs_work_counts_against_the_sample_budget(tmp_path):
    """Issue 57: 100 IK handles over 20,000 frames are refused by bake, diff and the glTF export
    before anything is solved, with the budget's id; without the rig the same file bakes."""
    doc = many_ik_handles(20000)
    for run in (lambda: castkit.bake(doc, doc), lambda: castkit.diff(doc, doc)):
        with pytest.raises(castkit.Error) as refused:
            run()
        assert refused.value.rule == "anim.sample-budget"
    with pytest.raises(castkit.Error) as refused:
        doc.write(tmp_path / "rig.glb")
    assert refused.value.rule == "gltf.sample-limit"
    assert len(castkit.bake(doc, doc, rig=False).animations[0].curves) == 1

"""Every castkit.cast call the official Maya plug-in makes (dtzxporter/cast f6296ba,
plugins/maya/castplugin.py), and the ways it handles what they return: it slices buffers and pads
them with tuples, deletes from list(FaceBuffer()), looks Looping() up in a dict keyed by None, 0
and 1, and maps bones by Hash(). Maya cannot run here, so its expressions are replayed on the
golden files the reference cast.py wrote (tests/fixtures/python)."""

import math

import numpy as np
import pytest

import castkit.cast as cast
from conftest import FIXTURES

GOLDEN = FIXTURES / "python"

# The plug-in's importer, by the node it asks (every node: Hash, Name, ChildrenOfType).
IMPORT_CALLS = {
    "Cast": ["load", "Roots"],
    "Metadata": ["UpAxis", "SceneRoot"],
    "Model": ["Name", "Skeleton", "Materials", "Meshes", "Hairs", "BlendShapes", "Position",
              "Rotation", "Scale"],
    "Skeleton": ["Bones", "IKHandles", "Constraints"],
    "Bone": ["Name", "Hash", "ParentIndex", "SegmentScaleCompensate", "LocalPosition",
             "LocalRotation", "Scale"],
    "IKHandle": ["Name", "StartBone", "EndBone", "TargetBone", "PoleVectorBone", "PoleBone",
                 "UseTargetRotation", "TargetOffset"],
    "Constraint": ["Name", "ConstraintBone", "TargetBone", "ConstraintType", "CustomOffset",
                   "MaintainOffset", "Weight", "SkipX", "SkipY", "SkipZ"],
    "Material": ["Name", "Type", "Slots"],
    "File": ["Path"],
    "Color": ["Rgba", "ColorSpace"],
    "Mesh": ["Name", "Hash", "FaceBuffer", "FaceCount", "VertexCount", "VertexPositionBuffer",
             "VertexNormalBuffer", "ColorLayerCount", "VertexColorLayerBuffer",
             "VertexColorLayerBufferPacked", "UVLayerCount", "VertexUVLayerBuffer", "Material",
             "MaximumWeightInfluence", "SkinningMethod", "VertexWeightBoneBuffer",
             "VertexWeightValueBuffer"],
    "Hair": ["Name", "SegmentsBuffer", "ParticleBuffer", "StrandCount", "Material"],
    "BlendShape": ["Name", "BaseShape", "TargetShapeVertexIndices", "TargetShapeVertexPositions",
                   "TargetWeightScale"],
    "Animation": ["Looping", "Framerate", "Curves", "CurveModeOverrides", "Notifications"],
    "Curve": ["NodeName", "KeyPropertyName", "KeyFrameBuffer", "KeyValueBuffer", "Mode",
              "AdditiveBlendWeight"],
    "CurveModeOverride": ["NodeName", "Mode", "OverrideTranslationCurves",
                          "OverrideRotationCurves", "OverrideScaleCurves"],
    "NotificationTrack": ["Name", "KeyFrameBuffer"],
    "Instance": ["ReferenceFile", "Position", "Rotation", "Scale"],
    "CastColor": ["fromInteger", "toLinearFromSRGB"],
}

# The plug-in's exporter, by the node it asks.
EXPORT_CALLS = {
    "Cast": ["Cast", "CreateRoot", "save"],
    "Root": ["CreateMetadata", "CreateModel", "CreateAnimation"],
    "Metadata": ["SetSoftware", "SetUpAxis"],
    "Model": ["CreateSkeleton", "CreateMesh", "CreateMaterial"],
    "Skeleton": ["CreateBone"],
    "Bone": ["SetName", "SetParentIndex", "SetSegmentScaleCompensate", "SetWorldPosition",
             "SetLocalPosition", "SetWorldRotation", "SetLocalRotation", "SetScale"],
    "Material": ["SetName", "SetType", "CreateFile", "SetSlot", "Hash"],
    "File": ["SetPath", "Hash"],
    "Mesh": ["SetName", "SetMaterial", "SetMaximumWeightInfluence", "SetVertexWeightValueBuffer",
             "SetVertexWeightBoneBuffer", "SetVertexPositionBuffer", "SetVertexNormalBuffer",
             "SetVertexUVLayerBuffer", "SetUVLayerCount", "SetVertexColorBuffer",
             "SetColorLayerCount", "SetFaceBuffer"],
    "Animation": ["SetFramerate", "SetLooping", "CreateCurve", "CreateNotification"],
    "Curve": ["SetNodeName", "SetKeyPropertyName", "SetMode", "SetKeyFrameBuffer",
              "SetVec4KeyValueBuffer", "SetFloatKeyValueBuffer"],
    "NotificationTrack": ["SetName", "SetKeyFrameBuffer"],
    "CastColor": ["toInteger"],
}


def test_every_listed_call_exists():
    for calls in (IMPORT_CALLS, EXPORT_CALLS):
        for owner, names in calls.items():
            for name in names:
                if not (owner == "Cast" and name == "Cast"):
                    assert callable(getattr(getattr(cast, owner), name)), f"{owner}.{name}"


def test_the_plugins_module_level_names_exist():
    # castplugin.py: from cast import Cast, CastColor, Model, Animation, Instance, Metadata, File, Color
    for name in ["Cast", "CastColor", "Model", "Animation", "Instance", "Metadata", "File", "Color"]:
        assert hasattr(cast, name), name


@pytest.fixture(scope="module")
def roots():
    return cast.Cast.load(GOLDEN / "character.cast").Roots()


@pytest.fixture(scope="module")
def model(roots):
    return roots[0].ChildrenOfType(cast.Model)[0]


def test_positions_padded_to_four_floats_per_vertex(model):
    # The importer builds Maya's float4 points from three-value slices plus a (1.0,) tuple.
    mesh = model.Meshes()[0]
    positions = mesh.VertexPositionBuffer()
    count = int(mesh.VertexCount())
    padded = [x for i in range(0, len(positions), 3)
              for x in positions[i:i + 3] + tuple([1.0]) * (i < len(positions) - 2)]
    assert count == 16 and len(padded) == 4 * count
    assert padded[3::4] == [1.0] * count
    expected = np.asarray(positions, dtype=np.float64).reshape(-1, 3)
    assert np.array_equal(np.asarray(padded).reshape(-1, 4)[:, :3], expected)


def test_buffers_concatenate_with_tuples_and_lists_like_cast_py():
    values = cast.Cast.load(GOLDEN / "character.cast").Roots()[0].ChildrenOfType(
        cast.Model)[0].Meshes()[0].VertexNormalBuffer()
    assert values[0:3] + (1.0,) == (0.0, 1.0, 0.0, 1.0)
    assert (9.0,) + values[0:2] == (9.0, 0.0, 1.0)
    assert values[0:2] + [5] == [0.0, 1.0, 5]
    # A number cannot be added, as to cast.py's tuple; a numpy array adds element-wise.
    with pytest.raises(TypeError):
        values[0:3] + 1.0
    assert (values[0:3] + np.ones(3)).tolist() == [1.0, 2.0, 1.0]


def test_degenerate_faces_removed_from_a_list_of_the_face_buffer(model):
    mesh = model.Meshes()[0]
    faces = list(mesh.FaceBuffer())
    assert all(type(index) is int for index in faces)
    for i in range(len(faces) - 3, -1, -3):
        a, b, c = faces[i:i + 3]
        if a == b or a == c or b == c:
            del faces[i:i + 3]
    assert len(faces) // 3 == int(mesh.FaceCount()) == 18


def test_colour_layers_as_the_importer_expands_them(model):
    mesh = model.Meshes()[0]
    assert mesh.ColorLayerCount() == 2
    packed = mesh.VertexColorLayerBuffer(0)
    assert mesh.VertexColorLayerBufferPacked(0)
    expanded = [x for colour in (cast.CastColor.fromInteger(x) for x in packed) for x in colour]
    assert len(expanded) == 4 * len(packed)
    assert np.allclose(expanded[:4], [0.0, 127 / 255, 1.0, 1.0])
    floats = mesh.VertexColorLayerBuffer(1)
    assert not mesh.VertexColorLayerBufferPacked(1) and int(len(floats) / 4) == len(packed)


def test_uvs_per_face_corner_flipped_as_the_importer_reads_them(model):
    mesh = model.Meshes()[0]
    faces = list(mesh.FaceBuffer())
    uvs = mesh.VertexUVLayerBuffer(0)
    u = [y for f in faces for y in uvs[f * 2:f * 2 + 1]]
    v = [1.0 - y for f in faces for y in uvs[f * 2 + 1:f * 2 + 2]]
    assert len(u) == len(v) == len(faces)
    assert u[0] == uvs[faces[0] * 2] and v[0] == 1.0 - uvs[faces[0] * 2 + 1]


def test_weights_and_skinning(model):
    mesh = model.Meshes()[0]
    paths = ["|root", "|root|spine", "|root|spine|head"]
    assert mesh.MaximumWeightInfluence() > 0
    weighted = sorted({paths[x] for x in mesh.VertexWeightBoneBuffer()})
    assert weighted == sorted(paths)
    assert mesh.SkinningMethod() == "quaternion"
    assert len(mesh.VertexWeightValueBuffer()) == int(mesh.VertexCount()) * mesh.MaximumWeightInfluence()


def test_skeleton_by_hash_and_index(model):
    skeleton = model.Skeleton()
    bones = skeleton.Bones()
    indexes = {bone.Hash(): i for i, bone in enumerate(bones)}
    (handle,) = skeleton.IKHandles()
    assert [indexes[handle.StartBone().Hash()], indexes[handle.EndBone().Hash()]] == [0, 2]
    # Walking from the end bone to the start bone through ParentIndex, as the IK import does.
    bone, chain = handle.EndBone(), []
    while bone.Hash() != handle.StartBone().Hash():
        chain.append(bone.Name())
        bone = bones[bone.ParentIndex()]
    assert chain == ["head", "spine"]
    (constraint,) = skeleton.Constraints()
    assert indexes[constraint.TargetBone().Hash()] == 0
    assert indexes[constraint.ConstraintBone().Hash()] == 2
    assert constraint.Name() is None or isinstance(constraint.Name(), str)
    spine = bones[1]
    position, rotation, scale = spine.LocalPosition(), spine.LocalRotation(), spine.Scale()
    assert np.allclose([position[0], position[1], position[2]], [0.0, 1 / 3, 0.1], atol=1e-6)
    assert len(rotation) == 4 and np.allclose([scale[0], scale[1], scale[2]], [1.0, 1.01, 1.0])
    assert bool(bones[1].SegmentScaleCompensate()) is False


def test_materials_by_name_type_and_slots(model):
    material = model.Materials()[0]
    assert (material.Name(), material.Type()) == ("skin", "pbr")
    slots = material.Slots()
    assert slots["albedo"].Path() == "textures/skin_albedo.png"
    tint = slots["emissive"]
    rgba = tint.Rgba() if tint.ColorSpace() != "srgb" else cast.CastColor.toLinearFromSRGB(tint.Rgba())
    assert len(rgba) == 4
    assert model.Meshes()[0].Material().Name() == "skin"


def test_hair_and_blend_shapes(model):
    hair = model.Hairs()[0]
    segments, particles = hair.SegmentsBuffer(), hair.ParticleBuffer()
    assert hair.StrandCount() == len(segments) == 2
    # Each strand takes segments + 1 particles of three floats.
    assert sum(s + 1 for s in segments) * 3 == len(particles)
    shape = model.BlendShapes()[0]
    indices, positions = shape.TargetShapeVertexIndices(), shape.TargetShapeVertexPositions()
    assert indices and positions and len(positions) == 3 * len(indices)
    assert shape.BaseShape().Hash() == model.Meshes()[0].Hash()


def test_metadata_and_instances(roots):
    meta = roots[0].ChildOfType(cast.Metadata)
    assert meta.UpAxis() in ("x", "y", "z") and meta.SceneRoot() == "assets"
    (instance,) = roots[1].ChildrenOfType(cast.Instance)
    assert instance.ReferenceFile().Path() == "props/crate.cast"
    assert len(instance.Position()) == len(instance.Scale()) == 3 and len(instance.Rotation()) == 4


def test_animation_as_the_importer_reads_it():
    (animation,) = cast.Cast.load(GOLDEN / "walk.cast").Roots()[0].ChildrenOfType(cast.Animation)
    playback = {None: "once", 0: "once", 1: "loop"}[animation.Looping()]
    assert playback == "loop" and math.isclose(animation.Framerate(), 29.97, rel_tol=1e-6)
    rotation = animation.Curves()[0]
    assert rotation.KeyPropertyName() == "rq" and rotation.AdditiveBlendWeight() == 1.0
    frames, values = rotation.KeyFrameBuffer(), rotation.KeyValueBuffer()
    quaternions = [values[i * 4:i * 4 + 4] for i in range(len(frames))]
    assert all(len(q) == 4 for q in quaternions)
    assert np.allclose(quaternions[1], [0.0, math.sin(0.2), 0.0, math.cos(0.2)], atol=1e-6)
    (override,) = animation.CurveModeOverrides()
    assert override.NodeName() == "spine" and override.OverrideTranslationCurves()
    (track,) = animation.Notifications()
    assert [int(frame) for frame in track.KeyFrameBuffer()] == [4, 16, 28]


def export_like_the_plugin(path):
    """The exporter's calls in its order, with values as Maya's API hands them over (tuples per
    vertex, flat lists for weights, a bool for segment scale compensation)."""
    scene = cast.Cast()
    root = scene.CreateRoot()
    meta = root.CreateMetadata()
    meta.SetSoftware("Cast v1.0 for Maya 2025")
    meta.SetUpAxis("y")
    model = root.CreateModel()
    bone = model.CreateSkeleton().CreateBone()
    bone.SetName("joint1")
    bone.SetParentIndex(-1)
    bone.SetSegmentScaleCompensate(True)
    bone.SetWorldPosition((0.0, 1.0, 0.0))
    bone.SetLocalPosition((0.0, 1.0, 0.0))
    bone.SetWorldRotation((0.0, 0.0, 0.0, 1.0))
    bone.SetLocalRotation((0.0, 0.0, 0.0, 1.0))
    bone.SetScale((1.0, 1.0, 1.0))
    mesh = model.CreateMesh()
    mesh.SetName("pCube1")
    material = model.CreateMaterial()
    material.SetName("lambert2")
    material.SetType("pbr")
    texture = material.CreateFile()
    texture.SetPath("wood.png")
    material.SetSlot("albedo", texture.Hash())
    mesh.SetMaterial(material.Hash())
    mesh.SetMaximumWeightInfluence(1)
    mesh.SetVertexWeightValueBuffer([1.0] * 3)
    mesh.SetVertexWeightBoneBuffer([0] * 3)
    mesh.SetVertexPositionBuffer([(0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0)])
    mesh.SetVertexNormalBuffer([(0.0, 0.0, 1.0)] * 3)
    mesh.SetVertexUVLayerBuffer(0, [(0.0, 0.0), (1.0, 0.0), (0.0, 1.0)])
    mesh.SetUVLayerCount(1)
    mesh.SetVertexColorBuffer(0, [cast.CastColor.toInteger((1.0, 1.0, 1.0, 1.0))] * 3)
    mesh.SetColorLayerCount(1)
    mesh.SetFaceBuffer([0, 1, 2])
    animation = root.CreateAnimation()
    animation.SetFramerate(24.0)
    animation.SetLooping(True)
    rotation = animation.CreateCurve()
    rotation.SetNodeName("joint1")
    rotation.SetKeyPropertyName("rq")
    rotation.SetMode("absolute")
    rotation.SetKeyFrameBuffer([0, 12])
    rotation.SetVec4KeyValueBuffer([(0.0, 0.0, 0.0, 1.0), (0.0, 1.0, 0.0, 0.0)])
    height = animation.CreateCurve()
    height.SetNodeName("joint1")
    height.SetKeyPropertyName("ty")
    height.SetMode("absolute")
    height.SetKeyFrameBuffer([0, 12])
    height.SetFloatKeyValueBuffer([1.0, 2.0])
    track = animation.CreateNotification()
    track.SetName("land")
    track.SetKeyFrameBuffer([int(x) for x in [12.0]])
    scene.save(path)


def test_export_calls_write_what_the_importer_reads_back(tmp_path):
    export_like_the_plugin(tmp_path / "maya.cast")
    (root,) = cast.Cast.load(tmp_path / "maya.cast").Roots()
    meta, model, animation = root.childNodes
    assert (meta.Software(), meta.UpAxis()) == ("Cast v1.0 for Maya 2025", "y")
    bone = model.Skeleton().Bones()[0]
    assert (bone.Name(), bone.ParentIndex(), bone.SegmentScaleCompensate()) == ("joint1", -1, True)
    assert list(bone.LocalPosition()) == [0.0, 1.0, 0.0]
    mesh = model.Meshes()[0]
    assert mesh.Name() == "pCube1" and mesh.Material().Name() == "lambert2"
    assert mesh.Material().Slots()["albedo"].Path() == "wood.png"
    assert mesh.VertexPositionBuffer().tolist() == [0, 0, 0, 1, 0, 0, 0, 1, 0]
    assert mesh.VertexColorLayerBuffer(0).tolist() == [0xFFFFFFFF] * 3
    assert mesh.FaceBuffer().tolist() == [0, 1, 2] and mesh.MaximumWeightInfluence() == 1
    assert (animation.Framerate(), animation.Looping()) == (24.0, True)
    rotation, height = animation.Curves()
    assert rotation.KeyValueBuffer().tolist() == [0, 0, 0, 1, 0, 1, 0, 0]
    assert height.KeyValueBuffer().tolist() == [1.0, 2.0]
    assert animation.Notifications()[0].KeyFrameBuffer().tolist() == [12]

"""A script written for the reference cast.py's API: it builds a skinned, animated scene with every
node type and every property type, saves it, then loads a file back and saves it with an extra
node. Run with the reference cast.py it made the golden files in tests/fixtures/python/; the
test (test_cast_drop_in.py) runs it with castkit.cast and compares the bytes.

    drop_in_script.py MODULE OUTPUT_FOLDER      (MODULE: "cast" or "castkit.cast")
"""

import importlib
import math
import os
import sys


def wave(count, scale, phase=0.0):
    """`count` deterministic floats."""
    return [scale * math.sin(0.37 * i + phase) for i in range(count)]


def grid(columns, rows):
    """Vertex positions and triangle indices of a columns x rows grid."""
    positions = [(x * 0.5, math.cos(x * 0.3 + y) * 0.25, y * 0.5)
                 for y in range(rows) for x in range(columns)]
    faces = []
    for y in range(rows - 1):
        for x in range(columns - 1):
            a = y * columns + x
            faces += [a, a + 1, a + columns, a + 1, a + columns + 1, a + columns]
    return positions, faces


def add_skeleton(cast, model):
    """Three bones, an IK handle and a constraint; returns the bones."""
    skeleton = model.CreateSkeleton()
    bones = []
    for index, name in enumerate(("root", "spine", "head")):
        bone = skeleton.CreateBone()
        bone.SetName(name)
        bone.SetParentIndex(index - 1)
        bone.SetLocalPosition((0.0, 1.0 / 3.0 * index, 0.1))
        bone.SetLocalRotation((0.0, math.sin(0.2 * index), 0.0, math.cos(0.2 * index)))
        bone.SetWorldPosition((0.0, 0.7 * index, 0.1 * index))
        bone.SetWorldRotation((0.0, 0.0, math.sin(0.1), math.cos(0.1)))
        bone.SetScale((1.0, 1.0 + 0.01 * index, 1.0))
        bone.SetSegmentScaleCompensate(index != 1)
        bones.append(bone)
    handle = skeleton.CreateIKHandle()
    handle.SetName("neck_ik")
    handle.SetStartBone(bones[0].Hash())
    handle.SetEndBone(bones[2].Hash())
    handle.SetTargetBone(bones[2].Hash())
    handle.SetPoleVectorBone(bones[1].Hash())
    handle.SetPoleBone(bones[1].Hash())
    handle.SetTargetOffset((0.25, 0.5, 0.75))
    handle.SetUseTargetRotation(True)
    constraint = skeleton.CreateConstraint()
    constraint.SetName("look")
    constraint.SetConstraintType("or")
    constraint.SetConstraintBone(bones[2].Hash())
    constraint.SetTargetBone(bones[0].Hash())
    constraint.SetMaintainOffset(True)
    constraint.SetCustomOffset((0.0, 0.0, math.sin(0.3), math.cos(0.3)))
    constraint.SetWeight(0.625)
    constraint.SetSkipX(True)
    constraint.SetSkipY(False)
    constraint.SetSkipZ(True)
    return bones


def add_material(cast, model):
    """A PBR material with two textures and a constant colour."""
    material = model.CreateMaterial()
    material.SetName("skin")
    material.SetType("pbr")
    albedo = material.CreateFile()
    albedo.SetPath("textures/skin_albedo.png")
    normal = material.CreateFile()
    normal.SetPath("textures/skin_normal.png")
    tint = material.CreateChild(cast.Color())
    tint.SetName("tint")
    tint.SetColorSpace("linear")
    tint.SetRgba(cast.CastColor.toLinearFromSRGB((0.8, 0.5, 0.25, 1.0)))
    material.SetSlot("albedo", albedo.Hash())
    material.SetSlot("normal", normal.Hash())
    material.SetSlot("emissive", tint.Hash())
    return material


def add_body(cast, model, material):
    """A skinned 4x4 grid with every vertex buffer, two UV and two colour layers."""
    mesh = model.CreateMesh()
    mesh.SetName("body")
    positions, faces = grid(4, 4)
    count = len(positions)
    mesh.SetVertexPositionBuffer(positions)
    mesh.SetVertexNormalBuffer([(0.0, 1.0, 0.0)] * count)
    mesh.SetVertexTangentBuffer([(1.0, 0.0, 0.0)] * count)
    mesh.SetFaceBuffer(faces)
    mesh.SetUVLayerCount(2)
    mesh.SetVertexUVLayerBuffer(0, [(p[0] / 1.5, 1.0 - p[2] / 1.5) for p in positions])
    mesh.SetVertexUVLayerBuffer(1, list(zip(wave(count, 1.0), wave(count, 1.0, 1.0))))
    mesh.SetColorLayerCount(2)
    packed = [cast.CastColor.toInteger((i / count, 0.5, 1.0 - i / count, 1.0)) for i in range(count)]
    mesh.SetVertexColorBuffer(0, packed)
    mesh.SetVertexColorBuffer(1, [cast.CastColor.fromInteger(c) for c in packed])
    mesh.SetMaximumWeightInfluence(2)
    mesh.SetVertexWeightBoneBuffer([b for i in range(count) for b in (i % 3, (i + 1) % 3)])
    mesh.SetVertexWeightValueBuffer([w for i in range(count) for w in (0.75, 0.25)])
    mesh.SetSkinningMethod("quaternion")
    mesh.SetMaterial(material.Hash())
    return mesh


def add_large_meshes(cast, model):
    """Meshes whose index buffers need 16-bit faces and 32-bit bone indices."""
    positions, faces = grid(20, 20)
    cloak = model.CreateMesh()
    cloak.SetName("cloak")
    cloak.SetVertexPositionBuffer(positions)
    cloak.SetFaceBuffer(faces)
    cloak.SetMaximumWeightInfluence(1)
    cloak.SetVertexWeightBoneBuffer([70000 if i == 5 else i % 2 for i in range(len(positions))])
    cloak.SetVertexWeightValueBuffer([1.0] * len(positions))
    return cloak


def add_hair_and_shapes(cast, model, body, material):
    """A hair with two strands and a blend shape on the body."""
    hair = model.CreateHair()
    hair.SetName("fringe")
    hair.SetSegmentBuffer([2, 3])
    hair.SetParticleBuffer([(0.1 * i, 1.5 - 0.05 * i, 0.0) for i in range(7)])
    hair.SetMaterial(material.Hash())
    shape = model.CreateBlendShape()
    shape.SetName("smile")
    shape.SetBaseShape(body.Hash())
    shape.SetTargetShapeVertexIndices([1, 2, 5, 300])
    shape.SetTargetShapeVertexPositions([(0.5, 0.1, 0.0), (1.0, 0.2, 0.0), (0.5, 0.3, 0.5),
                                         (0.0, 0.0, 0.0)])
    shape.SetTargetWeightScale(1.5)


def add_extras(cast, root):
    """A generic node holding one property of every type, built through the low-level calls."""
    node = root.CreateChild(cast.CastNode(0x7A6F6F6D))
    node.CreateProperty("b", "b").values = [7, 255]
    node.CreateProperty("h", "h").values = [65535]
    node.CreateProperty("i", "i").values = [4000000000, 1]
    node.CreateProperty("l", "l").values = [2 ** 64 - 1]
    node.CreateProperty("f", "f").values = [math.pi, -0.0]
    node.CreateProperty("d", "d").values = [math.e, 1e300]
    node.CreateProperty("s", "s").values = ["utf-8: \u00e9\u00e8 \u2603"]
    node.CreateProperty("2v", "2v").values = [1.0, 2.0, 3.0, 4.0]
    node.CreateProperty("3v", "3v").values = wave(6, 2.0)
    node.CreateProperty("4v", "4v").values = wave(4, 3.0)
    node.CreateProperty("b", "h").values = [300]
    node.CreateChild(cast.CastNode())


def build_character(cast):
    """The model scene: metadata, a skinned model with every model child, an instance root."""
    scene = cast.Cast()
    root = scene.CreateRoot()
    meta = root.CreateMetadata()
    meta.SetAuthor("castkit tests")
    meta.SetSoftware("drop_in_script")
    meta.SetUpAxis("z")
    meta.SetSceneRoot("assets")
    model = root.CreateModel()
    model.SetName("hero")
    model.SetPosition((1.0, 2.0, 3.0))
    model.SetRotation((0.0, 0.0, 0.0, 1.0))
    model.SetScale((2.0, 2.0, 2.0))
    add_skeleton(cast, model)
    material = add_material(cast, model)
    body = add_body(cast, model, material)
    add_large_meshes(cast, model)
    add_hair_and_shapes(cast, model, body, material)
    add_extras(cast, root)
    world = scene.CreateRoot()
    instance = world.CreateInstance()
    instance.SetName("prop_1")
    reference = instance.CreateChild(cast.File())
    reference.SetPath("props/crate.cast")
    instance.SetReferenceFile(reference.Hash())
    instance.SetPosition((4.0, 0.0, -1.0))
    instance.SetRotation((0.0, math.sin(0.5), 0.0, math.cos(0.5)))
    instance.SetScale((1.0, 1.0, 1.0))
    return scene


def build_walk(cast):
    """The animation scene: every curve value type, overrides and notifications."""
    scene = cast.Cast()
    root = scene.CreateRoot()
    animation = root.CreateAnimation()
    animation.SetName("walk")
    animation.SetFramerate(29.97)
    animation.SetLooping(True)
    skeleton = animation.CreateSkeleton()
    bone = skeleton.CreateBone()
    bone.SetName("root")
    bone.SetParentIndex(-1)
    rotation = animation.CreateCurve()
    rotation.SetNodeName("spine")
    rotation.SetKeyPropertyName("rq")
    rotation.SetKeyFrameBuffer([0, 10, 20])
    rotation.SetVec4KeyValueBuffer([(0.0, math.sin(a), 0.0, math.cos(a)) for a in (0.0, 0.2, 0.4)])
    rotation.SetMode("absolute")
    translation = animation.CreateCurve()
    translation.SetNodeName("root")
    translation.SetKeyPropertyName("tx")
    translation.SetKeyFrameBuffer(list(range(0, 600, 3)))
    translation.SetFloatKeyValueBuffer(wave(200, 5.0))
    translation.SetMode("additive")
    translation.SetAdditiveBlendWeight(0.5)
    visibility = animation.CreateCurve()
    visibility.SetNodeName("head")
    visibility.SetKeyPropertyName("vb")
    visibility.SetKeyFrameBuffer([0, 5])
    visibility.SetByteKeyValueBuffer([1, 0])
    visibility.SetMode("relative")
    override = animation.CreateCurveModeOverride()
    override.SetNodeName("spine")
    override.SetMode("relative")
    override.SetOverrideTranslationCurves(True)
    override.SetOverrideRotationCurves(False)
    override.SetOverrideScaleCurves(True)
    track = animation.CreateNotification()
    track.SetName("footstep")
    track.SetKeyFrameBuffer([4, 16, 28])
    return scene


def main(module, folder):
    """Writes character.cast, walk.cast and reloaded.cast into `folder`."""
    cast = importlib.import_module(module)
    build_character(cast).save(os.path.join(folder, "character.cast"))
    build_walk(cast).save(os.path.join(folder, "walk.cast"))
    reloaded = cast.Cast.load(os.path.join(folder, "character.cast"))
    reloaded.Roots()[0].CreateMetadata().SetSoftware("reloaded")
    reloaded.save(os.path.join(folder, "reloaded.cast"))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])

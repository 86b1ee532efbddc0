"""An armature's rest skeleton as a small SEModel file, for castkit to convert an animation
onto: the armature's bone names, parents and rest frames, and one tiny triangle bound to the
first bone (glTF writes a skin, which Blender's importer makes an armature, only for a skinned
mesh)."""

import struct

from mathutils import Matrix

# Blender's glTF importer turns glTF's +Y up into Blender's +Z up with this rotation (90° about
# X); armatures the add-on imports carry CASTKIT_AXES and hold their Cast rest frames turned so.
GLTF_TO_BLENDER = Matrix.Rotation(1.5707963267948966, 4, "X")
CASTKIT_AXES = "castkit_axes"


def cast_rest_frames(armature):
    """{bone name: its rest matrix in the Cast file's space}. Armatures without CASTKIT_AXES
    (the official Cast add-on's, for one) hold Cast coordinates as they are."""
    to_cast = GLTF_TO_BLENDER.inverted() if armature.data.get(CASTKIT_AXES) else Matrix()
    return {bone.name: to_cast @ bone.matrix_local for bone in armature.data.bones}


def local_transforms(armature):
    """[(name, parent index, translation, rotation xyzw)] in bone order, parents first."""
    bones = list(armature.data.bones)
    index = {bone.name: i for i, bone in enumerate(bones)}
    frames = cast_rest_frames(armature)
    out = []
    for bone in bones:
        parent = frames[bone.parent.name] if bone.parent else Matrix()
        local = parent.inverted() @ frames[bone.name]
        t, q, _ = local.decompose()
        out.append((bone.name, index[bone.parent.name] if bone.parent else -1, tuple(t),
                    (q.x, q.y, q.z, q.w)))
    return out


def semodel_bytes(bones):
    """SEModel 1: the bones' LOCAL block, one mesh of one triangle weighted to bone 0."""
    bones_present, mesh_present, local_block, weights = 0x1, 0x2, 0x2, 0x8
    out = bytearray(b"SEModel")
    out += struct.pack("<HHBBBIII3s", 1, 0x14, bones_present | mesh_present, local_block,
                       weights, len(bones), 1, 0, b"\0\0\0")
    for name, *_ in bones:
        out += name.encode("utf-8") + b"\0"
    for _, parent, t, r in bones:
        out += struct.pack("<Bi3f4f", 0, parent, *t, *r)
    out += struct.pack("<BBBII", 0, 0, 1, 3, 1)  # flags, materials, influences, vertices, faces
    for vertex in ((0.0, 0.0, 0.0), (1e-3, 0.0, 0.0), (0.0, 1e-3, 0.0)):
        out += struct.pack("<3f", *vertex)
    bone_index = "<B" if len(bones) <= 0xFF else "<H" if len(bones) <= 0xFFFF else "<I"
    for _ in range(3):
        out += struct.pack(bone_index, 0) + struct.pack("<f", 1.0)
    out += struct.pack("<3B", 0, 1, 2)
    return bytes(out)


def write_semodel(armature, path):
    with open(path, "wb") as f:
        f.write(semodel_bytes(local_transforms(armature)))

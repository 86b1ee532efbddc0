"""Write the rigs compare_with_blender.py checks (tests/fixtures/cast/rigs/).

    PYTHONPATH=build/python python3 tests/blender/make_rigs.py tests/fixtures/cast/rigs

constraint_rig.cast: owners and targets have different rest orientations and parents, so a
constraint's space is seen: `or`, `pt` and `sc`, with and without `mo`, a weight and a skipped
axis. Its clip moves the target (with a non-uniform scale) and one owner's own channels.

ik_rig.cast: a two-bone leg whose bones lie along their +Y and bend towards their +X at rest,
where its pole is, as Blender's IK reads a chain (the root bone's X axis turns to the pole).
Its clip moves the goal round in front of the hip, near and out of reach.
"""

import math
import os
import sys

from castkit.cast import Cast


def axis_angle(axis, degrees):
    half = math.radians(degrees) / 2
    s = math.sin(half) / math.sqrt(sum(a * a for a in axis))
    return [axis[0] * s, axis[1] * s, axis[2] * s, math.cos(half)]


BONES = [  # name, parent, local position, local rotation
    ("root", -1, [0, 0, 0], axis_angle([0, 0, 1], 0)),
    ("target", 0, [0.5, 1.0, 0.2], axis_angle([0, 0, 1], 30)),
    ("target_tip", 1, [0, 0.3, 0], axis_angle([0, 0, 1], 0)),
    ("arm", 0, [-0.4, 1.2, 0], axis_angle([1, 0, 0], 40)),
    ("copy_rot", 3, [0, 0.3, 0], axis_angle([0, 1, 0], 90)),
    ("copy_rot_tip", 4, [0, 0.3, 0], axis_angle([0, 0, 1], 0)),
    ("copy_rot_mo", 0, [0.2, 0.6, -0.3], axis_angle([1, 1, 0], 50)),
    ("copy_rot_mo_tip", 6, [0.3, 0, 0], axis_angle([0, 0, 1], 0)),
    ("copy_loc", 3, [0.1, 0.2, 0.1], axis_angle([0, 0, 1], -35)),
    ("copy_loc_mo", 0, [-0.2, 0.4, 0.3], axis_angle([0, 1, 1], 70)),
    ("copy_scale", 0, [0.3, 0.3, 0.3], axis_angle([1, 0, 1], 25)),
    ("copy_scale_tip", 10, [0, 0.2, 0.1], axis_angle([0, 0, 1], 0)),
    ("half_rot", 0, [-0.3, 0.8, -0.2], axis_angle([0, 0, 1], -60)),
    ("half_rot_tip", 12, [0.25, 0, 0], axis_angle([0, 0, 1], 0)),
]

CONSTRAINTS = [  # name, type, owner, target, maintain offset, weight, skip x/y/z
    ("rot", "or", "copy_rot", "target", False, 1.0, (False, False, False)),
    ("rot_mo", "or", "copy_rot_mo", "target", True, 1.0, (False, False, False)),
    ("loc", "pt", "copy_loc", "target", False, 1.0, (False, False, False)),
    ("loc_mo", "pt", "copy_loc_mo", "target", True, 1.0, (False, True, False)),
    ("scale", "sc", "copy_scale", "target", False, 1.0, (False, False, False)),
    ("half", "or", "half_rot", "target", False, 0.5, (False, False, False)),
]

FRAMES = [0, 5, 10, 15, 20]


def write_skeleton(root, table):
    """A Model whose Skeleton holds the bones of `table`; the skeleton and {name: hash}."""
    skeleton = root.CreateModel().CreateSkeleton()
    hashes = {}
    for name, parent, position, rotation in table:
        bone = skeleton.CreateBone()
        bone.SetName(name)
        bone.SetParentIndex(parent)
        bone.SetLocalPosition(position)
        bone.SetLocalRotation(rotation)
        hashes[name] = bone.Hash()
    return skeleton, hashes


def write_model(root):
    skeleton, hashes = write_skeleton(root, BONES)
    for name, kind, owner, target, offset, weight, skips in CONSTRAINTS:
        constraint = skeleton.CreateConstraint()
        constraint.SetName(name)
        constraint.SetConstraintType(kind)
        constraint.SetConstraintBone(hashes[owner])
        constraint.SetTargetBone(hashes[target])
        constraint.SetMaintainOffset(offset)
        constraint.SetWeight(weight)
        constraint.SetSkipX(skips[0])
        constraint.SetSkipY(skips[1])
        constraint.SetSkipZ(skips[2])


def curve(animation, bone, prop, values):
    c = animation.CreateCurve()
    c.SetNodeName(bone)
    c.SetKeyPropertyName(prop)
    c.SetMode("absolute")
    c.SetKeyFrameBuffer(FRAMES)
    if prop == "rq":
        c.SetVec4KeyValueBuffer(values)
    else:
        c.SetFloatKeyValueBuffer(values)


def write_animation(root):
    animation = root.CreateAnimation()
    animation.SetFramerate(30)
    rest = axis_angle([0, 0, 1], 30)
    turns = [axis_angle([1, 0.3, 0], 12 * i) for i in range(len(FRAMES))]
    curve(animation, "target", "rq", [quaternion_product(rest, t) for t in turns])
    curve(animation, "target", "tx", [0.5 + 0.05 * i for i in range(len(FRAMES))])
    curve(animation, "target", "tz", [0.2 - 0.04 * i for i in range(len(FRAMES))])
    curve(animation, "target", "sy", [1 + 0.1 * i for i in range(len(FRAMES))])
    own = axis_angle([1, 1, 0], 50)
    curve(animation, "copy_rot_mo", "rq",
          [quaternion_product(own, axis_angle([0, 0, 1], 9 * i)) for i in range(len(FRAMES))])


def quaternion_product(a, b):
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return [aw * bx + ax * bw + ay * bz - az * by,
            aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw,
            aw * bw - ax * bx - ay * by - az * bz]


# The thigh's rest in Model space: +Y down the leg, +X forward (+Z), where the knee bends.
THIGH = [math.sqrt(0.5), 0, math.sqrt(0.5), 0]

IK_BONES = [  # name, parent, local position, local rotation
    ("hips", -1, [0, 9, 0], [0, 0, 0, 1]),
    ("thigh", 0, [1, 0, 0], THIGH),
    ("calf", 1, [0.4, 4, 0], [0, 0, 0, 1]),
    ("foot", 2, [-0.4, 4, 0], [0, 0, 0, 1]),
    ("toe", 3, [1.2, 0.3, 0], [0, 0, 0, 1]),
    ("knee_pole", 0, [1, -4, 6], [0, 0, 0, 1]),
    ("foot_goal", -1, [1, 1, 0], [0, 0, 0, 1]),
]

IK_FRAMES = list(range(0, 25, 3))


def write_ik_model(root):
    skeleton, hashes = write_skeleton(root, IK_BONES)
    handle = skeleton.CreateIKHandle()
    handle.SetName("leg_ik")
    handle.SetStartBone(hashes["thigh"])
    handle.SetEndBone(hashes["foot"])
    handle.SetTargetBone(hashes["foot_goal"])
    handle.SetPoleVectorBone(hashes["knee_pole"])


def write_ik_animation(root):
    """The goal circles in the leg's plane and swings aside, once reaching past the leg."""
    animation = root.CreateAnimation()
    animation.SetFramerate(30)
    angles = [2 * math.pi * f / 24 for f in IK_FRAMES]
    reach = [6.0 + 2.5 * math.sin(a) for a in angles]  # 8.5 is beyond the leg's 8.04
    for prop, values in (("tx", [1 + 1.5 * math.sin(2 * a) for a in angles]),
                         ("ty", [9 - r * math.cos(0.4 * math.sin(a)) for r, a in zip(reach, angles)]),
                         ("tz", [r * math.sin(0.4 * math.sin(a)) + 1 for r, a in zip(reach, angles)])):
        c = animation.CreateCurve()
        c.SetNodeName("foot_goal")
        c.SetKeyPropertyName(prop)
        c.SetMode("absolute")
        c.SetKeyFrameBuffer(IK_FRAMES)
        c.SetFloatKeyValueBuffer(values)


def save(folder, name, write):
    file = Cast()
    write(file.CreateRoot())
    file.save(os.path.join(folder, name))


def main():
    folder = sys.argv[1]
    save(folder, "constraint_rig.cast", write_model)
    save(folder, "constraint_rig_anim.cast", write_animation)
    save(folder, "ik_rig.cast", write_ik_model)
    save(folder, "ik_rig_anim.cast", write_ik_animation)


main()

"""Compare `castkit pose` with Blender's evaluation of the same rig through the Cast add-on.

    PYTHONPATH=build/python python3 tests/blender/compare_with_blender.py \
        --castkit build/tools/castkit/castkit --addon CAST_CHECKOUT \
        --model M.cast --anim A.cast --frames 0,7,15
    PYTHONPATH=build/python python3 tests/blender/compare_with_blender.py \
        --castkit build/tools/castkit/castkit --suite [--record | --recorded]

--suite runs the bundled rigs of SUITE (paths from the checkout's root). --record keeps what
Blender printed in tests/fixtures/cast/rigs/<anim>.blender.json (kept there as measured with
Blender 3.4.1 and the add-on at dtzxporter/cast f6296ba); --recorded compares with those records instead of running
Blender, so the check runs where the add-on is absent.

Blender runs headless (blender_pose.py beside this file) with the official add-on, which makes
Constraint nodes COPY_* constraints and IK handles Blender IK constraints; the IK set-up is then
made equivalent to Cast's (blender_pose.py says how). For every bone and frame this measures the
world position difference and the rotation angle, and fails (exit 1) when either passes
--tolerance of the rig's length: the longest IK chain, else the longest chain of bones (an angle
counts as the arc it sweeps at that length). At a frame where a goal is out of reach Blender's
solver stops short of a straight chain, so those frames get --straight-tolerance. Exit 77
(CTest's skip) when Blender or the add-on checkout is missing: the add-on is the user's to
fetch, never castkit's to ship.
"""

import argparse
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile

import castkit

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SKIP = 77

RIGS = "tests/fixtures/cast/rigs/"
HERO = "examples/data/hero/"
SUITE = [  # model, animation, frames
    (RIGS + "ik_rig.cast", RIGS + "ik_rig_anim.cast", ",".join(map(str, range(25)))),
    (RIGS + "constraint_rig.cast", RIGS + "constraint_rig_anim.cast",
     ",".join(map(str, range(0, 21, 2)))),
    (HERO + "hero_rig.cast", HERO + "hero_step.cast", ",".join(map(str, range(0, 25, 3)))),
]


def arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--castkit", required=True)
    parser.add_argument("--blender", default=shutil.which("blender"))
    parser.add_argument("--addon", default=os.environ.get("CASTKIT_CAST_ADDON"),
                        help="checkout of dtzxporter/cast (default: $CASTKIT_CAST_ADDON)")
    parser.add_argument("--model")
    parser.add_argument("--anim")
    parser.add_argument("--frames")
    parser.add_argument("--suite", action="store_true", help="every rig of SUITE")
    parser.add_argument("--record", action="store_true", help="keep Blender's poses (--suite)")
    parser.add_argument("--recorded", action="store_true",
                        help="compare with the kept poses, not Blender (--suite)")
    parser.add_argument("--tolerance", type=float, default=1e-3)
    parser.add_argument("--straight-tolerance", type=float, default=3e-3)
    return parser.parse_args()


def blender_poses(args, out):
    """Runs Blender on the rig; its poses land in `out`."""
    subprocess.run([args.blender, "-b", "--factory-startup", "--python-exit-code", "1",
                    "-P", os.path.join(HERE, "blender_pose.py"), "--", "--addon", args.addon,
                    "--model", args.model, "--anim", args.anim, "--frames", args.frames,
                    "--out", out, "--cast-ik"], check=True, stdout=subprocess.DEVNULL)


def record_of(anim):
    stem = os.path.splitext(os.path.basename(anim))[0]
    return os.path.join(ROOT, RIGS, stem + ".blender.json")


def blender_frames(args):
    if args.recorded:
        path = record_of(args.anim)
    elif args.record:
        path = record_of(args.anim)
        blender_poses(args, path)
    else:
        with tempfile.TemporaryDirectory() as folder:
            path = os.path.join(folder, "blender.json")
            blender_poses(args, path)
            with open(path) as f:
                return json.load(f)["frames"]
    with open(path) as f:
        return json.load(f)["frames"]


def castkit_pose(args, frame):
    """{bone: (world position, world rotation xyzw)} as `castkit pose --json` prints them."""
    text = subprocess.run([args.castkit, "pose", "--model", args.model, "--anim", args.anim,
                           "--frame", frame, "--json"], check=True, capture_output=True,
                          text=True).stdout
    return {b["name"]: (b["world"]["t"], b["world"]["r"]) for b in json.loads(text)["bones"]}


def rotation_matrix(q):
    x, y, z, w = q
    return [[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
            [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
            [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]]


def blender_rotation(m):
    """The 3x3 rotation of a row-major 4x4 matrix, its columns' scale divided out."""
    lengths = [math.sqrt(sum(m[4 * r + c] ** 2 for r in range(3))) or 1.0 for c in range(3)]
    return [[m[4 * r + c] / lengths[c] for c in range(3)] for r in range(3)]


def angle_between(a, b):
    trace = sum(a[r][c] * b[r][c] for r in range(3) for c in range(3))
    return math.acos(max(-1.0, min(1.0, (trace - 1) / 2)))


def skeleton_of(path):
    models = castkit.open(path).models
    if not models or models[0].skeleton is None:
        raise SystemExit(f"{path}: no Model with a Skeleton")
    return models[0].skeleton


def chains(skeleton):
    """Each IK handle's chain as bone names, start first, and its goal bone."""
    bones = skeleton.bones
    for handle in skeleton.ik_handles:
        chain = [handle.end_bone]
        while chain[-1].name != handle.start_bone.name and chain[-1].parent_index >= 0:
            chain.append(bones[chain[-1].parent_index])
        yield [b.name for b in reversed(chain)], handle.target_bone.name


def rig_length(skeleton, rest):
    """The longest IK chain, else the longest line of bones from a root, at rest."""
    def length(names):
        return sum(math.dist(rest[a][0], rest[b][0]) for a, b in zip(names, names[1:]))
    ik = [length(chain) for chain, _ in chains(skeleton)]
    if ik:
        return max(ik)
    bones = skeleton.bones
    longest = 0.0
    for bone in bones:
        line = [bone]
        while line[-1].parent_index >= 0:
            line.append(bones[line[-1].parent_index])
        longest = max(longest, length([b.name for b in line]))
    return longest


def out_of_reach(skeleton, pose):
    for chain, goal in chains(skeleton):
        reach = sum(math.dist(pose[a][0], pose[b][0]) for a, b in zip(chain, chain[1:]))
        if math.dist(pose[chain[0]][0], pose[goal][0]) > reach:
            return True
    return False


def compare(args, frames):
    skeleton = skeleton_of(args.model)
    length = rig_length(skeleton, castkit_pose(args, "0"))
    worst = {False: (0.0, ""), True: (0.0, "")}
    failures = 0
    for frame, blender in frames.items():
        ours = castkit_pose(args, frame)
        straight = out_of_reach(skeleton, ours)
        limit = (args.straight_tolerance if straight else args.tolerance) * length
        for name, (position, rotation) in ours.items():
            theirs = blender[name]
            apart = math.dist(position, [theirs[3], theirs[7], theirs[11]])
            turned = angle_between(rotation_matrix(rotation), blender_rotation(theirs))
            error = max(apart, turned * length)
            if error > worst[straight][0]:
                worst[straight] = (error, f"{name} at frame {frame}")
            if error > limit:
                failures += 1
                print(f"frame {frame}: {name} {apart:.3g} apart, {math.degrees(turned):.3g} deg")
    for straight, (error, where) in worst.items():
        kind = "goal out of reach" if straight else "in reach"
        if where:
            print(f"{kind}: largest difference {error:.3g} = {error / length:.3g} of the rig's "
                  f"length {length:.4g} ({where})")
    return failures


def main():
    args = arguments()
    needs_blender = not args.recorded
    if needs_blender and not (args.blender and args.addon and os.path.isdir(args.addon)):
        print("skipped: needs Blender and a checkout of dtzxporter/cast (--addon or "
              "CASTKIT_CAST_ADDON)")
        return SKIP
    cases = ([(os.path.join(ROOT, m), os.path.join(ROOT, a), f) for m, a, f in SUITE]
             if args.suite else [(args.model, args.anim, args.frames)])
    failures = 0
    for args.model, args.anim, args.frames in cases:
        print(f"{os.path.relpath(args.model, ROOT)} with {os.path.relpath(args.anim, ROOT)}")
        failures += compare(args, blender_frames(args))
    return 1 if failures else 0


sys.exit(main())

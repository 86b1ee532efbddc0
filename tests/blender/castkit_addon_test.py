#!/usr/bin/python3
"""castkit's own Blender add-on (blender/castkit_blender), installed from the zip the build
makes into a temporary BLENDER_USER_SCRIPTS of Debian's Blender, headless, in one Blender run
(castkit_addon_blender.py does the Blender side):

1. the hero with its walk and idle, three files imported at once, gives 1 armature of 21 bones,
   21 vertex groups, 2 shape keys, an action per clip (walk, idle) and the walk's 2 footstep
   markers at frames 0 and 15, with the castkit bundled in the zip;
2. every bone's world position at frames 0, 7 and 15 of both clips is `castkit pose`'s within
   1e-4 of the hero's height (Blender's +Z up turned back to Cast's +Y up), and the official Cast
   add-on's within 1e-3 of the rig's length (docs/animation.md): always against its recorded
   poses (tests/fixtures/blender/, --record writes them), and against the add-on itself when
   --addon or CASTKIT_CAST_ADDON names a checkout of dtzxporter/cast;
3. the walk's SEAnim imports onto the hero's armature, selected: still one armature, one new
   action, active on it, with its markers, posed as `castkit pose` poses the SEAnim; so does a
   Cast holding only the idle; with the official add-on, the SEAnim also goes onto the armature
   that add-on imported;
4. the add-on's exports (.cast, .semodel, .seanim) read back in castkit (its Python module) with
   the hero's bones and parents, every curve of the source clips, their notification tracks,
   and the same poses;
5. around it all: no file appears beside the imported ones, no temporary folder is left, numpy
   is as it was (the numpy.bool shim), and a glTF import the add-on did not start is untouched;
6. the other import entries open the bundled hero as SEModel, DMF, DMF JSON and K3D, and the
   bundled world; castkit's errors reach the user as the operator's ERROR report;
7. the zip is what both installers take: one top folder castkit_blender/ with bl_info in its
   __init__.py, a Blender 4.2 extension manifest beside it, relative imports only, and the CLI.

Usage: castkit_addon_test.py --castkit CLI --zip ADDON.zip --work DIR [--blender B]
       [--addon CHECKOUT] [--record]
Exit 77 (CTest's skip) without Blender.
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
HERO = os.path.join(ROOT, "examples", "data", "hero")
RECORDS = os.path.join(ROOT, "tests", "fixtures", "blender")
CLIPS = {"walk": "hero_walk.cast", "idle": "hero_idle.cast"}
FRAMES = (0, 7, 15)
SKIP = 77


def arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--castkit", required=True)
    parser.add_argument("--zip", required=True)
    parser.add_argument("--work", required=True)
    parser.add_argument("--blender", default=shutil.which("blender"))
    parser.add_argument("--addon", default=os.environ.get("CASTKIT_CAST_ADDON"),
                        help="checkout of dtzxporter/cast (default: $CASTKIT_CAST_ADDON)")
    parser.add_argument("--record", action="store_true",
                        help="record the official add-on's poses into tests/fixtures/blender")
    return parser.parse_args()


class Checks:
    def __init__(self):
        self.failures = []

    def expect(self, condition, message):
        if not condition:
            self.failures.append(message)
            print("FAIL: " + message)

    def close(self, name, ours, theirs, limit):
        """Largest distance between two {frame: {bone: xyz}} sets, checked against limit."""
        worst, where = 0.0, ""
        for frame, bones in theirs.items():
            self.expect(set(bones) <= set(ours[frame]), f"{name}: bones missing at {frame}")
            for bone, position in bones.items():
                apart = math.dist(ours[frame].get(bone, (math.inf,) * 3), position)
                if apart > worst:
                    worst, where = apart, f"{bone} at frame {frame}"
        print(f"{name}: largest difference {worst:.3g} ({where}), limit {limit:.3g}")
        self.expect(worst <= limit, f"{name}: {worst:.3g} apart ({where}), more than {limit:.3g}")


def listing(folder):
    return sorted(os.listdir(folder))


def run_blender(args, checks, out):
    """One Blender run, its add-on in a temporary BLENDER_USER_SCRIPTS and its temporary files
    in a folder of the test's own, left empty by the add-on."""
    plain = os.path.join(args.work, "plain.glb")
    subprocess.run([args.castkit, "convert", os.path.join(HERO, "hero.cast"),
                    os.path.join(HERO, "hero_walk.cast"), "-o", plain], check=True)
    hero_before = listing(HERO)
    with tempfile.TemporaryDirectory() as scripts, tempfile.TemporaryDirectory() as temporary:
        env = dict(os.environ, BLENDER_USER_SCRIPTS=scripts, TMPDIR=temporary)
        done = subprocess.run([args.blender, "-b", "--factory-startup", "--python-exit-code", "1",
                               "-P", os.path.join(HERE, "castkit_addon_blender.py"), "--",
                               "--zip", args.zip, "--hero", HERO, "--work", args.work,
                               "--plain", plain, "--out", out] +
                              (["--official", args.addon] if args.addon else []),
                              env=env, capture_output=True, text=True, timeout=300)
        left = [n for n in listing(temporary) if n.startswith("castkit-blender-")]
        checks.expect(not left, f"the add-on left its temporary folders: {left}")
    appeared = set(listing(HERO)) - set(hero_before)
    checks.expect(not appeared, f"files appeared beside the imported ones: {appeared}")
    if done.returncode != 0 or not os.path.exists(out):
        sys.exit(f"Blender failed ({done.returncode}):\n{done.stdout[-3000:]}\n"
                 f"{done.stderr[-3000:]}")
    with open(out) as f:
        return json.load(f)


def to_cast(frames):
    """Blender's world positions, turned from its +Z up back to glTF's and Cast's +Y up."""
    return {f: {b: (x, z, -y) for b, (x, y, z) in bones.items()} for f, bones in frames.items()}


def castkit_poses(args, anim):
    frames = {}
    for frame in FRAMES:
        text = subprocess.run([args.castkit, "pose", "--model", os.path.join(HERO, "hero.cast"),
                               "--anim", anim, "--frame", str(frame), "--json"], check=True,
                              capture_output=True, text=True).stdout
        frames[str(frame)] = {b["name"]: b["world"]["t"] for b in json.loads(text)["bones"]}
    return frames


def record_path(clip):
    return os.path.join(RECORDS, f"hero.{clip}.blender.json")


def official_poses(args, clip, out):
    """The official add-on's bone positions (armature space: Cast's own coordinates)."""
    subprocess.run([args.blender, "-b", "--factory-startup", "--python-exit-code", "1", "-P",
                    os.path.join(HERE, "blender_pose.py"), "--", "--addon", args.addon,
                    "--model", os.path.join(HERO, "hero.cast"),
                    "--anim", os.path.join(HERO, CLIPS[clip]),
                    "--frames", ",".join(map(str, FRAMES)), "--out", out],
                   check=True, stdout=subprocess.DEVNULL)


def positions_of(record):
    return {f: {b: (m[3], m[7], m[11]) for b, m in bones.items()}
            for f, bones in record["frames"].items()}


def rig_length(frames):
    """The longest line of bones from a root, at frame 0 (compare_with_blender.py's rule)."""
    bones = castkit.open(os.path.join(HERO, "hero.cast")).models[0].skeleton.bones
    at = frames["0"]
    longest = 0.0
    for bone in bones:
        length, child = 0.0, bone
        while child.parent_index >= 0:
            parent = bones[child.parent_index]
            length += math.dist(at[child.name], at[parent.name])
            child = parent
        longest = max(longest, length)
    return longest


def check_import(checks, result):
    got = result["import"]
    checks.expect(result["castkit"]["where"] == "bundled with the add-on",
                  f"the add-on runs {result['castkit']}, not the castkit in its zip")
    version = result["castkit"]["version"]
    checks.expect(version.startswith("castkit "), f"the preferences show {version!r}")
    checks.expect(got["armatures"] == 1, f"{got['armatures']} armatures, expected 1")
    checks.expect(len(got["bones"]) == 21, f"{len(got['bones'])} bones, expected 21")
    checks.expect(got["vertex_groups"] == 21, f"{got['vertex_groups']} vertex groups")
    checks.expect(got["shape_keys"] == ["breathe_in", "bulge"], f"shape keys {got['shape_keys']}")
    rig_actions = sorted(n for n, a in got["actions"].items() if a["bones"])
    checks.expect(rig_actions == ["idle", "walk"], f"armature actions {rig_actions}")
    markers = got["actions"].get("walk", {}).get("markers")
    checks.expect(markers == [["footstep", 0], ["footstep", 15]], f"walk's markers {markers}")
    checks.expect(got["actions"].get("idle", {}).get("markers") == [], "idle has markers")
    checks.expect(got["fps"] == 30.0, f"scene at {got['fps']} fps, the clips' 30 expected")
    checks.expect(result["numpy_bool_after"] == result["numpy_bool_before"],
                  "the add-on left numpy.bool changed")
    plain = result["plain"]
    checks.expect(plain["markers"] == 0 and len(plain["actions"]) == 1 and
                  plain["actions"][0].startswith("walk_"),
                  f"the add-on's hooks touched a glTF import it did not start: {plain}")


def check_poses(args, checks, result):
    height = result["import"]["height"]
    checks.expect(height > 1.0, f"the hero's mesh is {height} tall")
    for clip, file in CLIPS.items():
        ours = to_cast(result["poses"][clip])
        checks.close(f"{clip} vs castkit pose", ours,
                     castkit_poses(args, os.path.join(HERO, file)), 1e-4 * height)
        length = rig_length(ours)
        if args.record or not os.path.exists(record_path(clip)):
            if not args.addon:
                checks.expect(False, f"no recorded poses {record_path(clip)}: --record needs "
                                     "--addon")
                continue
            os.makedirs(RECORDS, exist_ok=True)
            official_poses(args, clip, record_path(clip))
        with open(record_path(clip)) as f:
            checks.close(f"{clip} vs the official add-on's recorded poses", ours,
                         positions_of(json.load(f)), 1e-3 * length)
        if args.addon and not args.record:
            live = os.path.join(args.work, f"official.{clip}.json")
            official_poses(args, clip, live)
            with open(live) as f:
                checks.close(f"{clip} vs the official add-on", ours,
                             positions_of(json.load(f)), 1e-3 * length)
    if not args.addon:
        print("skipped: the live official add-on (set CASTKIT_CAST_ADDON to a checkout of "
              "dtzxporter/cast)")


def check_seanim(args, checks, result):
    got = result["seanim"]
    checks.expect(got["armatures"] == 1, f"after the SEAnim: {got['armatures']} armatures")
    checks.expect(got["same_armature"], "the SEAnim's action is not on the selected armature")
    checks.expect(got["new_actions"] == ["hero_walk"], f"new actions {got['new_actions']}")
    checks.expect(got["active"] == "hero_walk", f"active action {got['active']}")
    action = got["actions"].get("hero_walk", {})
    checks.expect(action.get("bones", 0) > 0, "the SEAnim's action keys no bone")
    checks.expect(action.get("markers") == [["footstep", 0], ["footstep", 15]],
                  f"the SEAnim's markers {action.get('markers')}")
    walk = castkit_poses(args, os.path.join(HERO, "hero_walk.seanim"))
    limit = 1e-4 * result["import"]["height"]
    checks.close("SEAnim onto the armature vs castkit pose", to_cast(result["seanim_poses"]),
                 walk, limit)
    cast = result["cast_animation"]
    checks.expect(cast["armatures"] == 1 and len(cast["new_actions"]) == 1,
                  f"a Cast of only an animation onto the armature: {cast['armatures']} "
                  f"armatures, new actions {cast['new_actions']}")
    checks.close("a Cast of only an animation onto the armature vs castkit pose",
                 to_cast(cast["poses"]), castkit_poses(args, os.path.join(HERO, CLIPS["idle"])),
                 limit)
    if "official" in result:  # the official add-on's armature holds Cast's own coordinates
        official = result["official"]
        checks.expect(official["armatures"] == 1, "a second armature beside the official one")
        checks.close("SEAnim onto the official add-on's armature vs castkit pose",
                     official["poses"], walk, limit)


def sampled(model, anim, animation=None):
    sampler = castkit.Sampler(model, anim, animation=animation)
    poses = {}
    for frame in FRAMES:
        pose = sampler.sample(frame)
        poses[str(frame)] = {n: tuple(float(v) for v in t) for n, t in
                             zip(pose.bone_names, pose.world_translations)}
    return sampler, poses


def skeleton_of(document):
    bones = next(m.skeleton for m in document.models if m.skeleton is not None).bones
    return sorted((b.name, bones[b.parent_index].name if b.parent_index >= 0 else None)
                  for b in bones)


def curve_targets(animation):
    return {(c.node_name, c.key_property) for c in animation.curves}


def check_exports(checks, result):
    height = result["import"]["height"]
    exported = {os.path.splitext(p)[1]: p for p in result["exported"]}
    hero = castkit.open(os.path.join(HERO, "hero.cast"))
    cast = castkit.open(exported[".cast"])
    semodel = castkit.open(exported[".semodel"])
    seanim = castkit.open(exported[".seanim"])
    for name, document in ((".cast", cast), (".semodel", semodel)):
        checks.expect(skeleton_of(document) == skeleton_of(hero), f"{name}: other bones")
    names = sorted(a.name for a in cast.animations)
    checks.expect(names == ["idle", "walk"], f".cast: animations {names}")
    clips = dict(CLIPS, seanim="hero_walk.seanim")
    for clip, file in clips.items():
        source_document = castkit.open(os.path.join(HERO, file))
        source_sampler, source = sampled(hero, source_document)
        if clip == "seanim":
            where, (sampler, ours) = ".seanim", sampled(semodel, seanim)
            animation = seanim.animations[0]
        else:
            where, (sampler, ours) = f".cast {clip}", sampled(cast, cast, clip)
            animation = next(a for a in cast.animations if a.name == clip)
        missing = curve_targets(source_document.animations[0]) - curve_targets(animation)
        checks.expect(not missing, f"{where}: curves missing {sorted(missing)[:5]}")
        theirs = {k: list(v) for k, v in source_sampler.notification_tracks.items()}
        tracks = {k: list(v) for k, v in sampler.notification_tracks.items()}
        checks.expect(tracks == theirs, f"{where}: notification tracks {tracks}, not {theirs}")
        checks.close(f"{where} read back vs the source", ours, source, 1e-4 * height)


# {file: (armatures, meshes, bones, actions)} each import entry makes of the bundled examples.
ENTRIES = {"hero/hero.semodel": (1, 1, 21, 0), "hero/hero.dmf": (1, 1, 21, 2),
           "hero/hero.dmf.json": (1, 1, 21, 2), "hero/hero.k3d": (1, 1, 21, 2),
           "scene.cast": (2, 2, 6, 0)}  # the world: two instances of character.cast


def check_entries_and_errors(checks, result):
    for name, expected in ENTRIES.items():
        got = result["entries"][name]
        counts = (got["armatures"], got["meshes"], got["bones"], got["actions"])
        checks.expect(got["result"] == ["FINISHED"] and counts == expected,
                      f"{name}: {got}, expected (armatures, meshes, bones, actions) {expected}")
    broken, no_armature = result["errors"]["broken"], result["errors"]["no_armature"]
    checks.expect(broken is not None and "broken.cast" in broken,
                  f"a broken file's import reported {broken!r}, not castkit's error")
    checks.expect(no_armature is not None and "select the armature" in no_armature,
                  f"a SEAnim with no armature reported {no_armature!r}")
    explicit = result["errors"]["explicit_path"]
    checks.expect(explicit is not None and "no-such-castkit" in explicit,
                  f"the castkit the preferences name was not the one run: {explicit!r}")


MANIFEST_KEYS = {"schema_version": "1.0.0", "id": "castkit_blender", "type": "add-on",
                 "blender_version_min": "4.2.0"}


def check_package(checks, zip_path):
    import ast
    import re
    import tomllib
    import zipfile
    with zipfile.ZipFile(zip_path) as archive:
        names = archive.namelist()
        tops = {n.split("/")[0] for n in names}
        checks.expect(tops == {"castkit_blender"}, f"the zip's top folders {tops}")
        init = archive.read("castkit_blender/__init__.py").decode()
        manifest = tomllib.loads(archive.read("castkit_blender/blender_manifest.toml").decode())
        sources = {n: archive.read(n).decode() for n in names if n.endswith(".py")}
    checks.expect("castkit_blender/bin/castkit" in names, "no bin/castkit in the zip")
    bl_info = next(ast.literal_eval(n.value) for n in ast.parse(init).body
                   if isinstance(n, ast.Assign) and n.targets[0].id == "bl_info")
    checks.expect(bl_info["blender"] == (2, 93, 0), f"bl_info claims {bl_info['blender']}")
    for key, value in MANIFEST_KEYS.items():
        checks.expect(manifest.get(key) == value, f"manifest {key} = {manifest.get(key)!r}")
    checks.expect(manifest.get("version") == ".".join(map(str, bl_info["version"])),
                  "the manifest's version is not bl_info's")
    platforms = manifest.get("platforms")
    checks.expect(platforms == ["linux-x64"], f"the manifest's platforms {platforms}")
    checks.expect(set(manifest.get("permissions", {})) == {"files"}, "permissions other than files")
    for key in ("name", "maintainer", "tagline", "license"):
        checks.expect(manifest.get(key), f"the manifest has no {key}")
    absolute = [n for n, text in sources.items()
                if re.search(r"^\s*(from|import) castkit_blender\b", text, re.M)]
    checks.expect(not absolute, f"absolute imports of the package (an extension's module is "
                                f"bl_ext.REPO.castkit_blender): {absolute}")


def main():
    args = arguments()
    if not args.blender:
        print("skipped: needs Blender (Debian's blender package)")
        return SKIP
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)
    checks = Checks()
    result = run_blender(args, checks, os.path.join(args.work, "result.json"))
    print(f"Blender {result['blender']}, castkit {result['castkit']['path']}")
    check_import(checks, result)
    check_poses(args, checks, result)
    check_seanim(args, checks, result)
    check_exports(checks, result)
    check_entries_and_errors(checks, result)
    check_package(checks, args.zip)
    return 1 if checks.failures else 0


sys.exit(main())

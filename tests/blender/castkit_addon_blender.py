"""Run by Blender (headless, factory settings) for castkit_addon_test.py: installs castkit's
add-on from the zip the build made into a temporary BLENDER_USER_SCRIPTS, then, in one scene:

1. imports the hero with its walk and idle (three files selected at once, File > Import >
   castkit: Cast) and records what Blender made and every bone's world position at FRAMES;
2. exports it through the add-on to .cast, .semodel and .seanim (the walk as the active action);
3. imports the walk's SEAnim, then the idle's Cast, onto the hero's armature, selected, and
   records the same;
4. imports a castkit glb with Blender's glTF importer itself: the add-on's hooks stay out of it;
5. opens the bundled hero in SEModel, DMF, DMF JSON and K3D, and the bundled world
   (examples/data/scene.cast) through their import entries, counting what each one made;
6. records the errors the add-on reports for a broken file and for a SEAnim with no armature;
7. with --official CHECKOUT (dtzxporter/cast): imports the hero with the official add-on, then
   the walk's SEAnim with castkit's onto that armature, and records its poses.

    blender -b --factory-startup --python-exit-code 1 -P castkit_addon_blender.py -- \
        --zip ADDON.zip --hero HERO_DIR --work WORK_DIR --plain PLAIN.glb --out RESULT.json \
        [--official CAST_CHECKOUT]
"""

import argparse
import json
import os
import shutil
import sys
import tempfile

import bpy
import numpy

FRAMES = (0, 7, 15)


def arguments():
    parser = argparse.ArgumentParser(prog="castkit_addon_blender.py")
    for name in ("--zip", "--hero", "--work", "--plain", "--out"):
        parser.add_argument(name, required=True)
    parser.add_argument("--official")
    return parser.parse_args(sys.argv[sys.argv.index("--") + 1:])


def install(zip_path):
    bpy.ops.preferences.addon_install(filepath=zip_path)
    bpy.ops.preferences.addon_enable(module="castkit_blender")
    import castkit_blender.preferences
    import castkit_blender.tool
    path, where = castkit_blender.preferences.castkit_path()
    return {"path": path, "where": where, "version": castkit_blender.tool.version(path),
            "hooks": hasattr(sys.modules["castkit_blender"], "glTF2ImportUserExtension")}


def armatures():
    return [o for o in bpy.context.scene.objects if o.type == "ARMATURE"]


def world_positions(armature, action):
    """Bones the action does not key rest, as in castkit (Blender would keep the pose the
    previous action left them in)."""
    for bone in armature.pose.bones:
        bone.matrix_basis.identity()
    armature.animation_data.action = action
    frames = {}
    for frame in FRAMES:
        bpy.context.scene.frame_set(frame)
        frames[str(frame)] = {b.name: list(armature.matrix_world @ b.head)
                              for b in armature.pose.bones}
    return frames


def bone_channels(action):
    """How many of the action's F-curves key pose bones (an armature's action, not a mesh's
    shape keys')."""
    return sum(1 for c in action.fcurves if c.data_path.startswith("pose.bones["))


def scene_summary():
    meshes = [o for o in bpy.context.scene.objects if o.type == "MESH"]
    rigs = armatures()
    keys = [k.name for m in meshes if m.data.shape_keys for k in m.data.shape_keys.key_blocks
            if k != m.data.shape_keys.reference_key]
    return {
        "armatures": len(rigs),
        "bones": sorted(b.name for a in rigs for b in a.data.bones),
        "vertex_groups": sum(len(m.vertex_groups) for m in meshes),
        "shape_keys": sorted(keys),
        "height": max((m.dimensions.z for m in meshes), default=0.0),
        "actions": {a.name: {"markers": sorted([m.name, m.frame] for m in a.pose_markers),
                             "range": list(a.frame_range), "bones": bone_channels(a)}
                    for a in bpy.data.actions},
        "fps": bpy.context.scene.render.fps / bpy.context.scene.render.fps_base,
    }


def hero_files(hero, *names):
    return {"directory": hero, "files": [{"name": n} for n in names]}


def plain_import(path):
    """Blender's importer run by someone else: no markers, the importer's own action names."""
    before = set(bpy.data.actions.keys())
    if not hasattr(numpy, "bool"):  # as a user of Debian's Blender 3.4 must
        numpy.bool = bool
    try:
        bpy.ops.import_scene.gltf(filepath=path)
    finally:
        del numpy.bool
    made = [bpy.data.actions[n] for n in sorted(set(bpy.data.actions.keys()) - before)]
    return {"actions": [a.name for a in made], "markers": sum(len(a.pose_markers) for a in made)}


ENTRIES = [("semodel", "hero/hero.semodel"), ("dmf", "hero/hero.dmf"),
           ("dmf", "hero/hero.dmf.json"), ("k3d", "hero/hero.k3d"), ("world", "scene.cast")]


def every_entry(examples):
    """{file: {armatures, meshes, bones, actions}} that each import entry made of it."""
    made = {}
    for entry, name in ENTRIES:
        for obj in list(bpy.data.objects):
            bpy.data.objects.remove(obj)
        actions = set(bpy.data.actions.keys())
        folder, file = os.path.split(os.path.join(examples, name))
        result = getattr(bpy.ops.castkit, "import_" + entry)(**{
            "directory": folder, "files": [{"name": file}]})
        objects = list(bpy.context.scene.objects)
        made[name] = {"result": sorted(result),
                      "armatures": sum(1 for o in objects if o.type == "ARMATURE"),
                      "meshes": sum(1 for o in objects if o.type == "MESH"),
                      "bones": sum(len(o.data.bones) for o in objects if o.type == "ARMATURE"),
                      "actions": len(set(bpy.data.actions.keys()) - actions)}
    return made


def error_of(operator, **arguments):
    """The ERROR report of an operator run (bpy.ops raises it), or None."""
    try:
        operator(**arguments)
    except RuntimeError as error:
        return str(error)
    return None


def errors(work, hero):
    broken = os.path.join(work, "broken.cast")
    with open(broken, "wb") as f:
        f.write(b"cast" + bytes(12))
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    found = {"broken": error_of(bpy.ops.castkit.import_cast, filepath=broken),
             "no_armature": error_of(bpy.ops.castkit.import_seanim,
                                     filepath=os.path.join(hero, "hero_walk.seanim"))}
    preferences = bpy.context.preferences.addons["castkit_blender"].preferences
    preferences.castkit_path = os.path.join(work, "no-such-castkit")
    found["explicit_path"] = error_of(bpy.ops.castkit.import_cast,
                                      filepath=os.path.join(hero, "hero.cast"))
    preferences.castkit_path = ""
    return found


def onto_the_official_armature(checkout, hero, folder):
    """The official add-on's armature (Cast's coordinates as they are, no castkit_axes) takes a
    SEAnim through castkit's add-on. The add-on is assembled as its releases ship it."""
    package = os.path.join(folder, "io_scene_cast_official")
    shutil.copytree(os.path.join(checkout, "plugins", "blender"), package)
    shutil.copy(os.path.join(checkout, "libraries", "python", "cast.py"), package)
    sys.path.insert(0, folder)
    import io_scene_cast_official
    io_scene_cast_official.register()
    for obj in list(bpy.data.objects):
        bpy.data.objects.remove(obj)
    bpy.ops.import_scene.cast(filepath=os.path.join(hero, "hero.cast"))
    armature = armatures()[0]
    bpy.context.view_layer.objects.active = armature
    bpy.ops.object.mode_set(mode="OBJECT")
    bpy.ops.object.select_all(action="DESELECT")
    armature.select_set(True)
    bpy.ops.castkit.import_seanim(filepath=os.path.join(hero, "hero_walk.seanim"))
    return {"armatures": len(armatures()), "poses": world_positions(
        armature, armature.animation_data.action)}


def main():
    args = arguments()
    bpy.ops.wm.read_factory_settings(use_empty=True)
    result = {"blender": bpy.app.version_string, "castkit": install(args.zip),
              "numpy_bool_before": hasattr(numpy, "bool")}
    hero = args.hero
    bpy.ops.castkit.import_cast(**hero_files(hero, "hero.cast", "hero_walk.cast",
                                             "hero_idle.cast"))
    result["import"] = scene_summary()
    armature = armatures()[0]
    result["poses"] = {name: world_positions(armature, bpy.data.actions[name])
                       for name in ("walk", "idle")}

    armature.animation_data.action = bpy.data.actions["walk"]
    for kind in ("cast", "semodel", "seanim"):
        path = os.path.join(args.work, "exported." + kind)
        getattr(bpy.ops.castkit, "export_" + kind)(filepath=path)
        result.setdefault("exported", []).append(path)

    before = set(bpy.data.actions.keys())
    bpy.ops.object.select_all(action="DESELECT")
    armature.select_set(True)
    bpy.context.view_layer.objects.active = armature
    bpy.ops.castkit.import_seanim(**hero_files(hero, "hero_walk.seanim"))
    new = sorted(set(bpy.data.actions.keys()) - before)
    result["seanim"] = dict(scene_summary(), new_actions=new,
                            active=armature.animation_data.action.name,
                            same_armature=armatures()[0] == armature)
    result["seanim_poses"] = world_positions(armature, armature.animation_data.action)

    before = set(bpy.data.actions.keys())  # a Cast holding only an animation goes the same way
    bpy.ops.castkit.import_cast(**hero_files(hero, "hero_idle.cast"))
    result["cast_animation"] = {"armatures": len(armatures()),
                                "new_actions": sorted(set(bpy.data.actions.keys()) - before),
                                "poses": world_positions(armature,
                                                         armature.animation_data.action)}
    result["numpy_bool_after"] = hasattr(numpy, "bool")
    result["plain"] = plain_import(args.plain)
    result["entries"] = every_entry(os.path.dirname(hero))
    result["errors"] = errors(args.work, hero)
    if args.official:
        with tempfile.TemporaryDirectory() as folder:
            result["official"] = onto_the_official_armature(args.official, hero, folder)
    with open(args.out, "w") as out:
        json.dump(result, out, indent=1)


main()

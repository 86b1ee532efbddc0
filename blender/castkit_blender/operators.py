"""File > Import and File > Export: castkit converts into a private temporary folder, Blender's
own glTF importer or exporter does the rest (hooks.py adds what glTF cannot carry)."""

import contextlib
import os
import shutil
import tempfile

import bpy
from bpy_extras.io_utils import ExportHelper, ImportHelper

from . import compat, glb, hooks, preferences, skeleton, tool

BONE_LENGTH = 0.0025  # the official Cast add-on's bone tail, along each bone's own Y


@contextlib.contextmanager
def private_folder():
    """A folder of the add-on's own (tempfile.mkdtemp), removed afterwards: nothing is
    written beside the user's files except what the user exports."""
    folder = tempfile.mkdtemp(prefix="castkit-blender-")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def run_castkit(operator, context, args):
    """Runs castkit; its warnings become WARNING reports (errors raise tool.CastkitError)."""
    path, _ = preferences.castkit_path(context)
    warnings, out = tool.run(path, args)
    for line in warnings:
        operator.report({"WARNING"}, line)
    return out


def set_scene_rate(scene, rate):
    scene.render.fps = max(1, round(rate))
    scene.render.fps_base = scene.render.fps / rate


def import_glb(context, path):
    """Blender's glTF importer on `path`: (the objects it made, [(clip, armature action)])."""
    rates = [e["castkit_framerate"] for _, e in glb.clips(path) if "castkit_framerate" in e]
    if rates:
        set_scene_rate(context.scene, rates[0])
    before = {o.name for o in bpy.data.objects}
    # BLENDER bone orientation: each bone's frame is its Cast bone's, turned from +Y up to +Z up,
    # as the official add-on makes them (which keeps animation files bindable onto either).
    with hooks.Session() as session, compat.numpy_bool_alias():
        try:
            result = bpy.ops.import_scene.gltf(filepath=path, bone_heuristic="BLENDER")
        except RuntimeError as error:  # the importer's own exception, as bpy.ops passes it on
            raise tool.CastkitError(f"Blender's glTF importer failed: {error}") from error
    if "FINISHED" not in result:
        raise tool.CastkitError(f"Blender's glTF importer did not import {path}")
    made = [o for o in bpy.data.objects if o.name not in before]
    return made, session.actions


def set_frame_range(scene, actions):
    if actions:
        scene.frame_start = int(min(a.frame_range[0] for _, a in actions))
        scene.frame_end = int(max(a.frame_range[1] for _, a in actions))


def shape_bones(context, armatures):
    """Bone display as the official add-on: short sticks drawn in front; axes recorded."""
    for armature in armatures:
        armature.data[skeleton.CASTKIT_AXES] = "gltf"
        armature.data.display_type = "STICK"
        armature.show_in_front = True
        context.view_layer.objects.active = armature
        bpy.ops.object.mode_set(mode="EDIT")
        for bone in armature.data.edit_bones:
            bone.length = BONE_LENGTH
        bpy.ops.object.mode_set(mode="OBJECT")


def target_armature(context):
    active = context.view_layer.objects.active
    if active is not None and active.type == "ARMATURE":
        return active
    return next((o for o in context.selected_objects if o.type == "ARMATURE"), None)


def object_slot(action):
    """Blender 4.4+ (slotted actions): the action's slot for an object, which Blender would
    only pick by name, and the importer named it after its own throw-away armature."""
    slots = list(action.slots)
    return next((s for s in slots if getattr(s, "target_id_type", "OBJECT") == "OBJECT"),
                slots[0] if slots else None)


def assign(owner, action):
    """`owner.action = action` (an AnimData or an NLA strip), with its slot on 4.4+."""
    if hasattr(owner, "action"):
        owner.action = action
    if getattr(owner, "action_slot", True) is None:
        owner.action_slot = object_slot(action)


def stash(armature, actions):
    """Each clip as its own action on `armature`, in NLA tracks as the glTF importer keeps them,
    the first one active."""
    if armature.animation_data is None:
        armature.animation_data_create()
    for bone in armature.pose.bones:
        bone.rotation_mode = "QUATERNION"  # the actions key rotation_quaternion
    for name, action in actions:
        track = armature.animation_data.nla_tracks.new()
        track.name = name
        assign(track.strips.new(action.name, int(action.frame_range[0]), action), action)
        track.lock = track.mute = True
    assign(armature.animation_data, actions[0][1])


def remove_objects(objects):
    for obj in objects:
        data = obj.data
        bpy.data.objects.remove(obj)
        if data is not None and data.users == 0:
            collection = bpy.data.armatures if isinstance(data, bpy.types.Armature) else \
                bpy.data.meshes if isinstance(data, bpy.types.Mesh) else None
            if collection is not None:
                collection.remove(data)


class CastkitImport(ImportHelper):
    """Several files at once: models, with the animation files selected beside them merged
    onto them; animation files alone go onto the selected armature."""

    files: bpy.props.CollectionProperty(type=bpy.types.OperatorFileListElement,
                                        options={"HIDDEN", "SKIP_SAVE"})
    directory: bpy.props.StringProperty(subtype="DIR_PATH", options={"HIDDEN", "SKIP_SAVE"})
    wants_instances = False

    def paths(self):
        names = [f.name for f in self.files if f.name]
        if names:
            return [os.path.join(self.directory, name) for name in names]
        return [self.filepath]

    def execute(self, context):
        if context.view_layer.objects.active and context.object.mode != "OBJECT":
            bpy.ops.object.mode_set(mode="OBJECT")
        try:
            self.import_files(context, self.paths())
        except (tool.CastkitError, ValueError, OSError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        return {"FINISHED"}

    def import_files(self, context, paths):
        castkit, _ = preferences.castkit_path(context)
        kinds = {p: tool.contents(castkit, p) for p in paths}
        models = [p for p in paths if kinds[p][0] or kinds[p][2]]
        animations = [p for p in paths if p not in models and kinds[p][1]]
        if self.wants_instances:
            if not any(kinds[p][2] for p in paths):
                raise tool.CastkitError(f"{paths[0]}: no Instances (a world .cast places "
                                        "models through Instances): use File > Import > Cast")
        if not models and not animations:
            raise tool.CastkitError(f"{', '.join(paths)}: no model and no animation")
        if not models:
            return self.animations_onto_armature(context, animations)
        if animations and len(models) > 1:
            raise tool.CastkitError("select one model with its animation files, or only models")
        for model in models:
            self.import_model(context, model, animations)

    def import_model(self, context, model, animations):
        with private_folder() as folder:
            out = os.path.join(folder, "model.glb")
            run_castkit(self, context, ["convert", model] + animations + ["-o", out])
            made, actions = import_glb(context, out)
        shape_bones(context, [o for o in made if o.type == "ARMATURE"])
        set_frame_range(context.scene, actions)

    def animations_onto_armature(self, context, animations):
        """castkit converts the animations onto the armature's own skeleton (skeleton.py), the
        importer makes a throw-away armature of it whose rest equals the selected one's, and its
        actions (pose-bone channels, bound by bone name) move onto the selected armature."""
        armature = target_armature(context)
        if armature is None:
            raise tool.CastkitError(f"{animations[0]}: select the armature to put the animation "
                                    "on (an animation file has no skeleton of its own)")
        with private_folder() as folder:
            rest = os.path.join(folder, "skeleton.semodel")
            skeleton.write_semodel(armature, rest)
            out = os.path.join(folder, "animation.glb")
            run_castkit(self, context, ["convert", rest] + animations + ["-o", out])
            made, actions = import_glb(context, out)
        remove_objects(made)
        if not actions:
            raise tool.CastkitError(f"{animations[0]}: no animation of the armature's bones")
        stash(armature, actions)
        set_frame_range(context.scene, actions)
        bpy.ops.object.select_all(action="DESELECT")
        armature.select_set(True)
        context.view_layer.objects.active = armature


def import_operator(name, label, extensions, instances=False):
    glob = ";".join("*" + e for e in extensions)
    return type(f"CASTKIT_OT_import_{name}", (bpy.types.Operator, CastkitImport), {
        "bl_idname": f"castkit.import_{name}",
        "bl_label": f"Import {label}",
        "bl_description": f"Import {label} through castkit and Blender's glTF importer",
        "bl_options": {"REGISTER", "UNDO", "PRESET"},
        "filename_ext": extensions[0],
        "wants_instances": instances,
        "__annotations__": {**CastkitImport.__annotations__, "filter_glob":
                            bpy.props.StringProperty(default=glob, options={"HIDDEN"})},
    })


class CastkitExport(ExportHelper):
    use_selection: bpy.props.BoolProperty(name="Selected Objects", default=False,
                                          description="Export the selected objects only")
    one_clip = False  # SEAnim holds one animation: the active armature's active action

    def clip(self, context):
        if not self.one_clip:
            return None
        armature = target_armature(context)
        if armature is None or armature.animation_data is None or \
                armature.animation_data.action is None:
            raise tool.CastkitError("SEAnim holds one animation: select the armature whose "
                                    "active action to export")
        return armature.animation_data.action.name

    def execute(self, context):
        try:
            clip = self.clip(context)
            with private_folder() as folder:
                # Named as the output: castkit names the images it writes beside it after it.
                stem = os.path.basename(self.filepath).split(".")[0] or "scene"
                scene = os.path.join(folder, stem + ".glb")
                with hooks.Session(clip=clip), compat.numpy_bool_alias():
                    try:
                        result = bpy.ops.export_scene.gltf(
                            filepath=scene, export_format="GLB",
                            use_selection=self.use_selection, export_animations=True,
                            export_nla_strips=True)
                    except RuntimeError as error:
                        raise tool.CastkitError(
                            f"Blender's glTF exporter failed: {error}") from error
                if "FINISHED" not in result:
                    raise tool.CastkitError("Blender's glTF exporter did not export the scene")
                run_castkit(self, context, ["convert", scene, self.filepath])
        except (tool.CastkitError, OSError) as error:
            self.report({"ERROR"}, str(error))
            return {"CANCELLED"}
        return {"FINISHED"}


def export_operator(name, label, extension, one_clip=False):
    return type(f"CASTKIT_OT_export_{name}", (bpy.types.Operator, CastkitExport), {
        "bl_idname": f"castkit.export_{name}",
        "bl_label": f"Export {label}",
        "bl_description": f"Export {label} through Blender's glTF exporter and castkit",
        "filename_ext": extension,
        "one_clip": one_clip,
        "__annotations__": {**CastkitExport.__annotations__, "filter_glob":
                            bpy.props.StringProperty(default="*" + extension,
                                                     options={"HIDDEN"})},
    })


IMPORTS = [
    import_operator("cast", "Cast (.cast)", [".cast"]),
    import_operator("semodel", "SEModel (.semodel)", [".semodel"]),
    import_operator("seanim", "SEAnim (.seanim)", [".seanim"]),
    import_operator("dmf", "DMF (.dmf, .dmf.json)", [".dmf", ".dmf.json"]),
    import_operator("k3d", "K3D (.k3d)", [".k3d"]),
    import_operator("world", "Cast world (.cast)", [".cast"], instances=True),
]
EXPORTS = [
    export_operator("cast", "Cast (.cast)", ".cast"),
    export_operator("semodel", "SEModel (.semodel)", ".semodel"),
    export_operator("seanim", "SEAnim (.seanim)", ".seanim", one_clip=True),
]


def import_menu(self, context):
    for operator in IMPORTS:
        self.layout.operator(operator.bl_idname, text="castkit: " + operator.bl_label[7:])


def export_menu(self, context):
    for operator in EXPORTS:
        self.layout.operator(operator.bl_idname, text="castkit: " + operator.bl_label[7:])

"""castkit for Blender: imports Cast, SEModel, SEAnim, DMF, K3D and Cast worlds, and exports
Cast, SEModel and SEAnim, through castkit and Blender's own glTF importer and exporter."""

bl_info = {
    "name": "castkit",
    "author": "castkit",
    "version": (0, 1, 0),
    "blender": (2, 93, 0),
    "location": "File > Import, File > Export",
    "description": "Cast, SEModel, SEAnim, DMF, K3D through castkit and Blender's glTF importer",
    "category": "Import-Export",
}

import bpy  # noqa: E402

from . import hooks, operators, preferences  # noqa: E402

# Found by io_scene_gltf2 on every enabled add-on's module; inert unless the add-on runs it.
glTF2ImportUserExtension = hooks.ImportHooks
glTF2ExportUserExtension = hooks.ExportHooks
register_panel = hooks.register_panel

CLASSES = [preferences.CastkitPreferences] + operators.IMPORTS + operators.EXPORTS


def register():
    for cls in CLASSES:
        bpy.utils.register_class(cls)
    bpy.types.TOPBAR_MT_file_import.append(operators.import_menu)
    bpy.types.TOPBAR_MT_file_export.append(operators.export_menu)


def unregister():
    bpy.types.TOPBAR_MT_file_export.remove(operators.export_menu)
    bpy.types.TOPBAR_MT_file_import.remove(operators.import_menu)
    for cls in reversed(CLASSES):
        bpy.utils.unregister_class(cls)

"""The add-on's preferences: which castkit it runs, and an explicit one."""

import bpy

from . import tool

_versions = {}  # path: `castkit --version`, asked once per path, not at every redraw


def castkit_path(context=None):
    """(path, where) of the castkit the add-on runs now."""
    context = context or bpy.context
    addon = context.preferences.addons.get(__package__)
    explicit = addon.preferences.castkit_path if addon else ""
    return tool.locate(explicit)


class CastkitPreferences(bpy.types.AddonPreferences):
    bl_idname = __package__

    castkit_path: bpy.props.StringProperty(
        name="castkit",
        description="The castkit program to run; empty: the one bundled with the add-on, "
                    "else castkit on PATH",
        subtype="FILE_PATH")

    def draw(self, context):
        layout = self.layout
        layout.prop(self, "castkit_path")
        path, where = castkit_path(context)
        if path is None:
            layout.label(text="No castkit found: none bundled, none on PATH", icon="ERROR")
            return
        if path not in _versions:
            _versions[path] = tool.version(path)
        layout.label(text=f"Uses {path} ({where})")
        layout.label(text=_versions[path])

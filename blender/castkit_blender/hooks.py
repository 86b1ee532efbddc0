"""The glTF importer's and exporter's user extensions: what glTF cannot carry, applied only
while one of the add-on's own operators runs the importer or exporter.

Blender's io_scene_gltf2 (3.4 and later) makes an instance of the `glTF2ImportUserExtension`
and `glTF2ExportUserExtension` attributes of every enabled add-on's module at each import and
export; the hooks below do nothing unless `session` is set by this add-on."""

import bpy

NOTIFICATIONS = "castkit_notifications"
FRAMERATE = "castkit_framerate"

session = None  # the running Session, set by the add-on's operators only


class Session:
    """What one import or export by the add-on collects: the actions made per clip."""

    def __init__(self, clip=None):
        self.actions = []  # [(clip name, action)] of the importer's armature actions
        self.clip = clip  # export: the one animation to write (SEAnim holds one), else all

    def __enter__(self):
        global session
        session = self
        return self

    def __exit__(self, *_):
        global session
        session = None


def scene_framerate(scene):
    return scene.render.fps / scene.render.fps_base


def frame_of(event):
    """A notification's frame: a number, or an object with a "frame" (and maybe its time)."""
    if isinstance(event, dict):
        event = event.get("frame")
    return event if isinstance(event, (int, float)) and not isinstance(event, bool) else None


def add_markers(action, notifications, scale):
    """Each notification (track name: frames at the clip's rate) as a pose marker."""
    if not isinstance(notifications, dict):
        return
    for track, events in sorted(notifications.items()):
        frames = [frame_of(e) for e in events] if isinstance(events, list) else []
        for frame in (f for f in frames if f is not None):
            marker = action.pose_markers.new(track)
            marker.frame = round(frame * scale)


def keep_clip_range(action, clip_rate):
    """The clip's frames and rate stay with its action (markers may sit past the last key)."""
    first, last = action.frame_range
    frames = [m.frame for m in action.pose_markers]
    action.frame_start = min([first] + frames)
    action.frame_end = max([last] + frames)
    action.use_frame_range = True
    action[FRAMERATE] = clip_rate


def stashed(gltf):
    """(owner, action) the importer made for the clip it just read, from each form its versions
    keep: (object, action) in 3.4, (object, track name, action) before it, (object, action,
    slot) with 4.4's slotted actions, where one action holds every object's slot."""
    for item in gltf.needs_stash:
        action = next((x for x in item[1:] if isinstance(x, bpy.types.Action)), None)
        if action is not None:
            yield item[0], action


class ImportHooks:
    def gather_import_animation_after_hook(self, anim_idx, track_name, gltf):
        if session is None:
            return
        animation = gltf.data.animations[anim_idx]
        extras = animation.extras if isinstance(animation.extras, dict) else {}
        fps = scene_framerate(bpy.context.scene)
        rate = extras.get(FRAMERATE)
        clip_rate = float(rate) if isinstance(rate, (int, float)) and rate > 0 else fps
        scale = fps / clip_rate
        done = set()  # 4.4+ stashes one action per object slot
        for owner, action in stashed(gltf):
            if getattr(owner, "type", None) != "ARMATURE" or action.as_pointer() in done:
                continue
            done.add(action.as_pointer())
            action.name = track_name  # the importer's default is CLIP_OBJECT
            add_markers(action, extras.get(NOTIFICATIONS, {}), scale)
            keep_clip_range(action, clip_rate)
            session.actions.append((track_name, action))


class ExportHooks:
    def gather_animation_hook(self, animation, blender_action, blender_object, export_settings):
        """Pose markers back into the notification tracks castkit's glTF importer reads."""
        if session is None or blender_action is None:
            return
        tracks = {}
        for marker in sorted(blender_action.pose_markers, key=lambda m: m.frame):
            tracks.setdefault(marker.name, []).append(float(marker.frame))
        extras = dict(animation.extras or {})
        extras[FRAMERATE] = scene_framerate(bpy.context.scene)
        if tracks:
            extras[NOTIFICATIONS] = tracks
        animation.extras = extras

    def gather_gltf_hook(self, active_scene_idx, scenes, animations, export_settings):
        """The one clip an SEAnim export writes, when the exporter made it."""
        if session is None or session.clip is None:
            return
        chosen = [a for a in animations if a.name == session.clip]
        if chosen:
            animations[:] = chosen


def register_panel():
    """The importer's and exporter's file browsers ask each extension for a panel: none."""
    return lambda: None

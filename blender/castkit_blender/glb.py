"""The JSON chunk of a .glb, read before Blender imports it (the animations' castkit extras)."""

import json
import struct


def read_json(path):
    with open(path, "rb") as f:
        header = f.read(20)
        magic, _, _, length, kind = struct.unpack("<4sIIII", header)
        if magic != b"glTF" or kind != 0x4E4F534A:  # "JSON"
            raise ValueError(f"{path}: not a binary glTF")
        return json.loads(f.read(length))


def clips(path):
    """[(name, extras)] of the file's animations, in order."""
    return [(a.get("name", f"animation_{i}"), a.get("extras") or {})
            for i, a in enumerate(read_json(path).get("animations", []))]

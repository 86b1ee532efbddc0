#!/usr/bin/python3
"""glTF -> Cast -> glTF through castkit's command line, checked by an evaluator of its own.

For each file: `castkit convert file x.cast`, `castkit validate x.cast` (no errors),
`castkit convert x.cast y.glb`, the Khronos validator on y.glb (no errors), then the two glTF
files are compared: triangles, morph targets, animations (by name) and their key times, the
side each triangle faces, the base colour UVs, and the world-space positions of every vertex (node animation, skinning and morph weights applied) at
sampled times of each clip. The evaluator follows the glTF 2.0 specification with numpy only.

Usage: gltf_round_trip.py CASTKIT VALIDATOR_JS WORK_DIR FILE...
"""
import base64
import json
import math
import os
import struct
import subprocess
import sys

import numpy as np

COMPONENT = {5120: np.int8, 5121: np.uint8, 5122: np.int16, 5123: np.uint16, 5125: np.uint32,
             5126: np.float32}
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
NORMALIZE = {np.int8: 127.0, np.uint8: 255.0, np.int16: 32767.0, np.uint16: 65535.0}


class Gltf:
    def __init__(self, path):
        data = open(path, "rb").read()
        buffers = []
        if data[:4] == b"glTF":
            length = struct.unpack_from("<I", data, 12)[0]
            self.json = json.loads(data[20:20 + length])
            offset = 20 + length
            while offset + 8 <= len(data):
                size, kind = struct.unpack_from("<II", data, offset)
                if kind == 0x004E4942:
                    buffers.append(data[offset + 8:offset + 8 + size])
                offset += 8 + size
        else:
            self.json = json.loads(data)
        self.buffers = []
        for i, buffer in enumerate(self.json.get("buffers", [])):
            uri = buffer.get("uri")
            if uri is None:
                self.buffers.append(buffers[0])
            elif uri.startswith("data:"):
                self.buffers.append(base64.b64decode(uri.split(",", 1)[1]))
            else:
                self.buffers.append(open(os.path.join(os.path.dirname(path), uri), "rb").read())
        self.nodes = self.json.get("nodes", [])
        self.parents = {c: i for i, n in enumerate(self.nodes) for c in n.get("children", [])}

    def view(self, index, dtype, count, width, offset=0):
        view = self.json["bufferViews"][index]
        data = self.buffers[view["buffer"]]
        start = view.get("byteOffset", 0) + offset
        size = np.dtype(dtype).itemsize * width
        stride = view.get("byteStride", size)
        return np.array([np.frombuffer(data, dtype, width, start + i * stride)
                         for i in range(count)]).reshape(count, width)

    def accessor(self, index):
        a = self.json["accessors"][index]
        dtype, width = COMPONENT[a["componentType"]], WIDTH[a["type"]]
        if "bufferView" in a:
            values = self.view(a["bufferView"], dtype, a["count"], width,
                               a.get("byteOffset", 0)).astype(np.float64)
        else:
            values = np.zeros((a["count"], width))
        if "sparse" in a:
            s = a["sparse"]
            idx = self.view(s["indices"]["bufferView"], COMPONENT[s["indices"]["componentType"]],
                            s["count"], 1, s["indices"].get("byteOffset", 0))[:, 0]
            values[idx] = self.view(s["values"]["bufferView"], dtype, s["count"], width,
                                    s["values"].get("byteOffset", 0))
        if a.get("normalized"):
            values = np.maximum(values / NORMALIZE[dtype], -1.0)
        return values

    # Animation sampling (glTF 2.0, Appendix C).
    def sample(self, sampler, path, time):
        times = self.accessor(sampler["input"])[:, 0]
        values = self.accessor(sampler["output"])
        mode = sampler.get("interpolation", "LINEAR")
        per = len(values) // len(times) // (3 if mode == "CUBICSPLINE" else 1)
        values = values.reshape(len(times), -1)
        if mode == "CUBICSPLINE":
            values = values.reshape(len(times), 3, -1)
        if time <= times[0] or time >= times[-1] or len(times) == 1:
            k = 0 if time <= times[0] else len(times) - 1
            return values[k, 1] if mode == "CUBICSPLINE" else values[k]
        k = int(np.searchsorted(times, time, side="right")) - 1
        span = times[k + 1] - times[k]
        t = (time - times[k]) / span
        if mode == "STEP":
            return values[k]
        if mode == "CUBICSPLINE":
            p0, m0 = values[k, 1], values[k, 2] * span
            p1, m1 = values[k + 1, 1], values[k + 1, 0] * span
            t2, t3 = t * t, t * t * t
            out = (2 * t3 - 3 * t2 + 1) * p0 + (t3 - 2 * t2 + t) * m0 + \
                (-2 * t3 + 3 * t2) * p1 + (t3 - t2) * m1
            return out / np.linalg.norm(out) if path == "rotation" else out
        a, b = values[k], values[k + 1]
        if path != "rotation":
            return a + (b - a) * t
        d = float(np.dot(a, b))
        if d < 0:
            b, d = -b, -d
        if d > 0.9995:
            out = a + (b - a) * t
        else:
            theta = math.acos(d)
            out = (math.sin((1 - t) * theta) * a + math.sin(t * theta) * b) / math.sin(theta)
        return out / np.linalg.norm(out)

    def pose(self, animation, time):
        """Per node: (translation, rotation, scale or matrix) overrides and morph weights."""
        trs, weights = {}, {}
        if animation is not None:
            for channel in animation["channels"]:
                target = channel["target"]
                if "node" not in target:
                    continue
                value = self.sample(animation["samplers"][channel["sampler"]], target["path"], time)
                if target["path"] == "weights":
                    weights[target["node"]] = value
                else:
                    trs.setdefault(target["node"], {})[target["path"]] = value
        return trs, weights

    def local(self, index, trs):
        node = self.nodes[index]
        if "matrix" in node:
            return np.array(node["matrix"], np.float64).reshape(4, 4).T
        over = trs.get(index, {})
        t = np.array(over.get("translation", node.get("translation", [0, 0, 0])), np.float64)
        x, y, z, w = over.get("rotation", node.get("rotation", [0, 0, 0, 1]))
        s = np.array(over.get("scale", node.get("scale", [1, 1, 1])), np.float64)
        r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                      [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                      [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
        m = np.eye(4)
        m[:3, :3] = r * s
        m[:3, 3] = t
        return m

    def world(self, index, trs, cache):
        if index not in cache:
            parent = self.parents.get(index)
            m = self.local(index, trs)
            cache[index] = m if parent is None else self.world(parent, trs, cache) @ m
        return cache[index]

    def vertices(self, animation, time):
        """World positions of every vertex of every mesh node."""
        return self.surface(animation, time)[0]

    def surface(self, animation, time):
        """World positions of every vertex; per triangle, a point just in front of its visible
        face (the centroid moved along the face normal, flipped for mirroring transforms, as
        glTF renderers do); per vertex, position and base colour UV (texCoord set and
        KHR_texture_transform applied)."""
        trs, animated_weights = self.pose(animation, time)
        cache, points, fronts, textured = {}, [], [], []
        for index, node in enumerate(self.nodes):
            if "mesh" not in node:
                continue
            mesh = self.json["meshes"][node["mesh"]]
            for primitive in mesh["primitives"]:
                p = self.accessor(primitive["attributes"]["POSITION"])
                w = animated_weights.get(index, node.get("weights", mesh.get("weights", [])))
                for k, target in enumerate(primitive.get("targets", [])):
                    if k < len(w) and "POSITION" in target:
                        p = p + w[k] * self.accessor(target["POSITION"])
                h = np.hstack([p, np.ones((len(p), 1))])
                if "skin" in node:
                    skin = self.json["skins"][node["skin"]]
                    ibm = (self.accessor(skin["inverseBindMatrices"]).reshape(-1, 4, 4)
                           .transpose(0, 2, 1) if "inverseBindMatrices" in skin
                           else np.tile(np.eye(4), (len(skin["joints"]), 1, 1)))
                    mats = np.array([self.world(j, trs, cache) @ ibm[i]
                                     for i, j in enumerate(skin["joints"])])
                    out = np.zeros_like(h)
                    s = 0
                    while f"JOINTS_{s}" in primitive["attributes"]:
                        joints = self.accessor(primitive["attributes"][f"JOINTS_{s}"]).astype(int)
                        weights = self.accessor(primitive["attributes"][f"WEIGHTS_{s}"])
                        for c in range(4):
                            out += weights[:, c:c + 1] * np.einsum("vij,vj->vi", mats[joints[:, c]], h)
                        s += 1
                    h = out
                    mirror = 1.0
                else:
                    world = self.world(index, trs, cache)
                    h = h @ world.T
                    mirror = math.copysign(1.0, np.linalg.det(world[:3, :3]))
                points.append(h[:, :3])
                if "indices" in primitive and primitive.get("mode", 4) == 4:
                    tri = self.accessor(primitive["indices"])[:, 0].astype(int).reshape(-1, 3)
                    a, b, c = h[tri[:, 0], :3], h[tri[:, 1], :3], h[tri[:, 2], :3]
                    n = np.cross(b - a, c - a) * mirror
                    n /= np.maximum(np.linalg.norm(n, axis=1, keepdims=True), 1e-12)
                    fronts.append((a + b + c) / 3 + 0.05 * n)
                uv = self.base_color_uv(primitive)
                if uv is not None:
                    textured.append(np.hstack([h[:, :3], uv]))
        stack = lambda parts, width: np.vstack(parts) if parts else np.zeros((0, width))
        return stack(points, 3), stack(fronts, 3), stack(textured, 5)

    def base_color_uv(self, primitive):
        if "material" not in primitive:
            return None
        material = self.json["materials"][primitive["material"]]
        info = material.get("pbrMetallicRoughness", {}).get("baseColorTexture")
        if info is None:
            return None
        transform = info.get("extensions", {}).get("KHR_texture_transform", {})
        uv_set = transform.get("texCoord", info.get("texCoord", 0))
        name = f"TEXCOORD_{uv_set}"
        if name not in primitive["attributes"]:
            return None
        uv = self.accessor(primitive["attributes"][name])
        sx, sy = transform.get("scale", [1, 1])
        ox, oy = transform.get("offset", [0, 0])
        r = transform.get("rotation", 0.0)
        uv = uv * [sx, sy]
        uv = np.stack([math.cos(r) * uv[:, 0] + math.sin(r) * uv[:, 1],
                       -math.sin(r) * uv[:, 0] + math.cos(r) * uv[:, 1]], axis=1)
        return uv + [ox, oy]

    def triangles(self):
        count = 0
        for node in self.nodes:
            if "mesh" in node:
                for primitive in self.json["meshes"][node["mesh"]]["primitives"]:
                    if primitive.get("mode", 4) == 4:
                        count += self.json["accessors"][primitive["indices"]]["count"] // 3
        return count

    def morph_targets(self):
        return sum(len(p.get("targets", [])) for n in self.nodes if "mesh" in n
                   for p in self.json["meshes"][n["mesh"]]["primitives"])

    def key_times(self, animation):
        times = set()
        for sampler in animation["samplers"]:
            times.update(round(float(t), 4) for t in self.accessor(sampler["input"])[:, 0])
        return times


def distance(a, b):
    """Symmetric Hausdorff distance between two point sets."""
    if len(a) == 0 or len(b) == 0:
        return 0.0 if len(a) == len(b) else math.inf
    d = np.linalg.norm(a[:, None, :] - b[None, :, :], axis=2)
    return max(d.min(1).max(), d.min(0).max())


def compare(source_path, output_path):
    problems = []
    a, b = Gltf(source_path), Gltf(output_path)
    if a.triangles() != b.triangles():
        problems.append(f"triangles {a.triangles()} -> {b.triangles()}")
    if a.morph_targets() != b.morph_targets():
        problems.append(f"morph targets {a.morph_targets()} -> {b.morph_targets()}")
    (rest_a, fronts_a, uv_a), (rest_b, fronts_b, uv_b) = a.surface(None, 0.0), b.surface(None, 0.0)
    if len(rest_a) != len(rest_b):
        problems.append(f"vertices {len(rest_a)} -> {len(rest_b)}")
    size = max(float(np.ptp(rest_a, axis=0).max()) if len(rest_a) else 1.0, 1e-6)
    if distance(rest_a, rest_b) > 1e-4 * size:
        problems.append(f"rest pose differs by {distance(rest_a, rest_b):.6f}")
    if distance(fronts_a, fronts_b) > 1e-3 * size:
        problems.append(f"faces point elsewhere (winding) by {distance(fronts_a, fronts_b):.5f}")
    if len(uv_a) != len(uv_b) or distance(uv_a, uv_b) > 1e-3 * max(size, 1.0):
        problems.append(f"base colour UVs differ by {distance(uv_a, uv_b):.5f}")
    out_animations = {x.get("name"): x for x in b.json.get("animations", [])}
    for animation in a.json.get("animations", []):
        name = animation.get("name")
        other = out_animations.get(name)
        if other is None:
            problems.append(f"animation '{name}' is missing")
            continue
        times_a, times_b = a.key_times(animation), b.key_times(other)
        if not times_a <= times_b:
            problems.append(f"'{name}': key times lost: {sorted(times_a - times_b)[:5]}")
        start, end = min(times_a), max(times_a)
        for i in range(9):
            t = start + (end - start) * i / 8
            error = distance(a.vertices(animation, t), b.vertices(other, t))
            if error > 1e-3 * size:
                problems.append(f"'{name}' at {t:.4f} s: vertices differ by {error:.5f}")
                break
    return problems


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


def main():
    castkit, validator, work = sys.argv[1:4]
    os.makedirs(work, exist_ok=True)
    failed = 0
    for source in sys.argv[4:]:
        stem = os.path.splitext(os.path.basename(source))[0]
        cast = os.path.join(work, stem + ".cast")
        out = os.path.join(work, stem + ".glb")
        problems = []
        code, text = run([castkit, "convert", source, cast])
        if code != 0:
            problems.append(f"import failed: {text}")
        else:
            code, text = run([castkit, "validate", cast])
            if code != 0:
                problems.append(f"castkit validate: {text}")
            code, text = run([castkit, "convert", cast, out])
            if code != 0:
                problems.append(f"export failed: {text}")
            else:
                code, text = run(["node", validator, out])
                if code != 0 or " 0 errors" not in text:
                    problems.append(f"Khronos validator: {text}")
                problems += compare(source, out)
        print(f"{stem}: {'ok' if not problems else '; '.join(problems)}")
        failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

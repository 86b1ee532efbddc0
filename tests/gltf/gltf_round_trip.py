#!/usr/bin/python3
"""glTF -> Cast -> glTF through castkit's command line, checked by an evaluator of its own.

For each file: `castkit convert file x.cast`, `castkit validate x.cast` (no errors),
`castkit convert x.cast y.glb`, the Khronos validator on y.glb (no errors), every warning the
two conversions print listed in EXPECTED_WARNINGS (and every listed one printed), then the two
glTF files are compared: triangles, morph targets, animations (by name) and their key times,
the side each triangle faces, the base colour UVs, and the world-space positions of every
vertex (node animation, skinning and morph weights applied), within 1e-3 of the source's
bounding-box diagonal at rest and 5e-3 at nine times of each clip. The evaluator follows the
glTF 2.0 specification with numpy only. Files in EXPECTED_FAILURES may fail, with their reason.

Usage: gltf_round_trip.py [--skip-missing] [--variants] CASTKIT VALIDATOR_JS WORK_DIR
                          FILE_OR_FOLDER...
(a folder stands for every .gltf and .glb below it; with --skip-missing, a file or folder that
is not there makes the run say so and exit 77, CTest's "skipped"; with --variants, each file is
also taken through gltfpack's quantized and meshopt-compressed variants and draco_transcoder's
Draco-compressed one, where those programs are installed)
"""
import base64
import concurrent.futures
import json
import math
import os
import re
import shutil
import struct
import subprocess
import sys

import numpy as np

try:  # the build's Python module (PYTHONPATH), which draws each Cast file as a consumer would
    import castkit as castkit_module
except ImportError:
    castkit_module = None

COMPONENT = {5120: np.int8, 5121: np.uint8, 5122: np.int16, 5123: np.uint16, 5125: np.uint32,
             5126: np.float32}
WIDTH = {"SCALAR": 1, "VEC2": 2, "VEC3": 3, "VEC4": 4, "MAT4": 16}
NORMALIZE = {np.int8: 127.0, np.uint8: 255.0, np.int16: 32767.0, np.uint16: 65535.0}

# Per file (its path below the folder given, or its name): the warnings, as (id, part of the
# message), that its import and export print for losses docs/gltf.md documents. Any other
# warning fails the file, and so does a listed one that is not printed.
CAMERAS = ("gltf.import", "cameras have no Cast equivalent")
RESAMPLED = ("gltf.import", "resampled at every frame")
POINTS_AND_LINES = ("gltf.import", "points and lines have no Cast equivalent")
BIND_POSE = ("gltf.skin-bind-pose", "have a bind pose other than their rest pose")
EXPECTED_WARNINGS = {
    "skinned.glb": [RESAMPLED],
    "bind_pose.glb": [BIND_POSE],
    "shared_joints.glb": [BIND_POSE],
    "rigid.glb": [CAMERAS, RESAMPLED, ("gltf.import", "channels of nodes that are neither")],
    "2CylinderEngine-glTF-Binary/2CylinderEngine.glb": [CAMERAS],
    "draco/2CylinderEngine.gltf": [CAMERAS],
    "cameras/Cameras.gltf": [CAMERAS],
    "AnimatedMorphCube-glTF/AnimatedMorphCube.gltf": [
        ("gltf.import", "normal and tangent morph deltas have no Cast equivalent"),
        ("gltf.export", "zero-length normals or tangents were replaced")],
}
# The Khronos samples in ../shared/gltf-samples (GltfSamples.KhronosSamples), by their path
# there, and the generated files standing in for them.
NORMAL_MORPHS = ("gltf.import", "normal and tangent morph deltas have no Cast equivalent")
WEIGHTS_SCALED = ("gltf.weights-renormalised", "did not sum to 1")
EXPECTED_WARNINGS.update({
    "AnimatedMorphCube/glTF/AnimatedMorphCube.gltf":
        EXPECTED_WARNINGS["AnimatedMorphCube-glTF/AnimatedMorphCube.gltf"],
    "AnimatedMorphSphere/glTF/AnimatedMorphSphere.gltf": [NORMAL_MORPHS],
    "MorphStressTest/glTF-Binary/MorphStressTest.glb": [NORMAL_MORPHS],
    "BrainStem/glTF/BrainStem.gltf": [("gltf.import", "rounded to the nearest millisecond")],
    "CesiumMan/glTF/CesiumMan.gltf": [WEIGHTS_SCALED],
    "RiggedFigure/glTF/RiggedFigure.gltf": [WEIGHTS_SCALED],
    "Duck/glTF/Duck.gltf": [CAMERAS],
    "VertexColorTest/glTF/VertexColorTest.gltf": [
        ("gltf.export", "zero-length normals or tangents were replaced")],
    "MultiUVTest/glTF/MultiUVTest.gltf": [CAMERAS],
    "InterpolationTest/glTF/InterpolationTest.gltf": [RESAMPLED],
    "collada_z_up.glb": [WEIGHTS_SCALED],
})
# Points and lines are dropped by design: these files keep no triangles, and only their trip
# and that warning are checked.
NO_TRIANGLES = {f"Mesh_PrimitiveMode/Mesh_PrimitiveMode_{n:02}.gltf"
                for n in (0, 1, 2, 3, 7, 8, 9, 10)}
for key in NO_TRIANGLES:
    EXPECTED_WARNINGS[key] = [POINTS_AND_LINES]
# Warnings any file may print: the generated samples name images they do not ship, so the .cast
# names them as the source did (texture.not-found) and its export cannot find them either
# (gltf.export); images that exist travel with the .cast (docs/workflows.md, "Textures").
ALLOWED_WARNINGS = [("gltf.export", "was not found beside the source file"),
                    ("texture.not-found", "was not found beside the source file")]

# Files that fail through a defect being fixed, with the reason: their failure does not fail
# the run. One that passes says so; removing its line here turns its checks on.
EXPECTED_FAILURES = {}


def trs_matrix(translation, rotation, scale):
    """T · R · S as a 4x4 matrix (rotation as x, y, z, w)."""
    x, y, z, w = rotation
    r = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                  [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                  [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    m = np.eye(4)
    m[:3, :3] = r * np.array(scale, np.float64)
    m[:3, 3] = np.array(translation, np.float64)
    return m


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
        if "EXT_meshopt_compression" in view.get("extensions", {}):
            return np.zeros((count, width), dtype)  # compressed: not decoded here, as Draco
        data = self.buffers[view["buffer"]]
        start = view.get("byteOffset", 0) + offset
        size = np.dtype(dtype).itemsize
        stride = view.get("byteStride", size * width)
        return np.ndarray((count, width), dtype, data, start, (stride, size)).copy()

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
        return trs_matrix(over.get("translation", node.get("translation", [0, 0, 0])),
                          over.get("rotation", node.get("rotation", [0, 0, 0, 1])),
                          over.get("scale", node.get("scale", [1, 1, 1])))

    def instances(self, node):
        """The node's EXT_mesh_gpu_instancing transforms (one identity without it)."""
        attributes = node.get("extensions", {}).get("EXT_mesh_gpu_instancing", {}).get(
            "attributes", {})
        if not attributes:
            return [np.eye(4)]
        read = {name: self.accessor(index) for name, index in attributes.items()}
        count = len(next(iter(read.values())))
        return [trs_matrix(read["TRANSLATION"][i] if "TRANSLATION" in read else [0, 0, 0],
                           read["ROTATION"][i] if "ROTATION" in read else [0, 0, 0, 1],
                           read["SCALE"][i] if "SCALE" in read else [1, 1, 1])
                for i in range(count)]

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
        """World positions of every vertex; per triangle, a point in front of its visible face
        (the centroid moved along the face normal by half the triangle's size, flipped for
        mirroring transforms, as glTF renderers do); per vertex, position and base colour UV (texCoord set and
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
                    out, total = np.zeros_like(h), np.zeros((len(h), 1))
                    s = 0
                    while f"JOINTS_{s}" in primitive["attributes"]:
                        joints = self.accessor(primitive["attributes"][f"JOINTS_{s}"]).astype(int)
                        weights = self.accessor(primitive["attributes"][f"WEIGHTS_{s}"])
                        for c in range(4):
                            out += weights[:, c:c + 1] * np.einsum("vij,vj->vi", mats[joints[:, c]], h)
                        total += weights.sum(1, keepdims=True)
                        s += 1
                    # glTF requires each vertex's weights to sum to 1; of files that break the
                    # rule (CesiumMan: sums down to 0.18), viewers that do not scale the
                    # weights draw vertices pulled towards the origin. castkit scales them to 1
                    # with a warning (gltf.weights-renormalised), and so does this evaluator.
                    placed = [(out / np.where(total > 0, total, 1.0), 1.0)]
                else:
                    world = self.world(index, trs, cache)
                    placed = [(h @ (world @ instance).T,
                               math.copysign(1.0, np.linalg.det((world @ instance)[:3, :3])))
                              for instance in self.instances(node)]
                tri = self.triangle_list(primitive)
                uv = self.base_color_uv(primitive)
                for h, mirror in placed:
                    points.append(h[:, :3])
                    if len(tri):
                        a, b, c = h[tri[:, 0], :3], h[tri[:, 1], :3], h[tri[:, 2], :3]
                        # Along the face normal by half the triangle's size (the square root
                        # of twice its area): a flipped face moves its point by the triangle's
                        # size, and a sliver, whose normal quantization can turn, by little.
                        n = np.cross(b - a, c - a) * mirror
                        n /= np.maximum(np.sqrt(np.linalg.norm(n, axis=1, keepdims=True)), 1e-12)
                        fronts.append((a + b + c) / 3 + 0.5 * n)
                    if uv is not None:
                        textured.append(np.hstack([h[:, :3], uv]))
        stack = lambda parts, width: np.vstack(parts) if parts else np.zeros((0, width))
        return stack(points, 3), stack(fronts, 3), stack(textured, 5)

    def base_color_uv(self, primitive):
        if "material" not in primitive:
            return None
        material = self.json["materials"][primitive["material"]]
        info = material.get("pbrMetallicRoughness", {}).get("baseColorTexture")
        if info is None:  # a specular-glossiness material's base colour is its diffuse texture
            info = material.get("extensions", {}).get(
                "KHR_materials_pbrSpecularGlossiness", {}).get("diffuseTexture")
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

    def triangle_list(self, primitive):
        """The primitive's triangles as vertex index triples (lists, strips and fans, indexed
        or not, in the winding glTF 2.0 gives them); none for points and lines."""
        mode = primitive.get("mode", 4)
        if mode not in (4, 5, 6):
            return np.zeros((0, 3), int)
        if "indices" in primitive:
            index = self.accessor(primitive["indices"])[:, 0].astype(int)
        else:
            index = np.arange(self.json["accessors"][primitive["attributes"]["POSITION"]]["count"])
        if mode == 4:
            return index[:len(index) // 3 * 3].reshape(-1, 3)
        n = np.arange(max(len(index) - 2, 0))
        if mode == 5:
            odd = n % 2
            return np.stack([index[n + odd], index[n + 1 - odd], index[n + 2]], axis=1)
        return np.stack([index[n + 1], index[n + 2], np.full_like(n, index[0])], axis=1)

    def triangles(self):
        return sum(len(self.triangle_list(primitive)) * len(self.instances(node))
                   for node in self.nodes if "mesh" in node
                   for primitive in self.json["meshes"][node["mesh"]]["primitives"])

    def morph_targets(self):
        return sum(len(p.get("targets", [])) for n in self.nodes if "mesh" in n
                   for p in self.json["meshes"][n["mesh"]]["primitives"])

    def key_times(self, animation, digits=4):
        times = set()
        for sampler in animation["samplers"]:
            times.update(float(t) if digits is None else round(float(t), digits)
                         for t in self.accessor(sampler["input"])[:, 0])
        return times


def distance(a, b, enough=0.0, pairs=None):
    """Symmetric Hausdorff distance between two point sets, or a bound of it that is at most
    `enough`: vertex by vertex when the counts match (the order kept, an upper bound) or through
    `pairs` (nearest_pairs of the same sets at rest, for sets whose order differs), else nearest
    neighbours in chunks, so that tens of thousands of vertices need little memory."""
    if len(a) == 0 or len(b) == 0:
        return 0.0 if len(a) == len(b) else math.inf
    if len(a) == len(b) or pairs is not None:
        a_to_b, b_to_a = pairs if pairs is not None else (slice(None), slice(None))
        paired = float(max(np.linalg.norm(a - b[a_to_b], axis=1).max(),
                           np.linalg.norm(b - a[b_to_a], axis=1).max()))
        if paired <= enough:
            return paired
    center = a.mean(0)
    return max(nearest(a - center, b - center)[0], nearest(b - center, a - center)[0])


def nearest(a, b, chunk=256):
    """The largest distance from a point of `a` to its nearest point of `b`, and for each point
    of `a` the index of that nearest point. Points are first looked up in a grid of cells a
    thousandth of the extent wide (the nearest point of a twin set is almost always in the same
    cell); the rest are searched by brute force in chunks, so that tens of thousands of vertices
    need neither much time nor much memory."""
    cell = max(float(np.ptp(np.vstack([a, b]), axis=0).max()), 1e-12) * 1e-3
    indices, found = grid_nearest(a, b, cell)
    left = np.flatnonzero(~found)
    b_squared = (b * b).sum(1)
    for start in range(0, len(left), chunk):
        part = a[left[start:start + chunk]]
        squared = b_squared[None, :] - 2 * part @ b.T
        indices[left[start:start + chunk]] = squared.argmin(1)
    return float(np.linalg.norm(a - b[indices], axis=1).max()), indices


def grid_nearest(a, b, cell):
    """For each point of `a`, the nearest point of `b` in the same grid cell, and whether it is
    the nearest of all: only when it is closer than the cell's nearest face, past which a point
    of a neighbouring cell could be nearer."""
    cells = {}
    for index, key in enumerate(map(tuple, np.floor(b / cell).astype(np.int64))):
        cells.setdefault(key, []).append(index)
    scaled = a / cell
    inside = np.minimum(scaled - np.floor(scaled), np.ceil(scaled) - scaled).min(1) * cell
    indices, found = np.zeros(len(a), int), np.zeros(len(a), bool)
    for index, key in enumerate(map(tuple, np.floor(scaled).astype(np.int64))):
        candidates = cells.get(key)
        if candidates:
            gaps = np.linalg.norm(b[candidates] - a[index], axis=1)
            best = int(gaps.argmin())
            indices[index], found[index] = candidates[best], gaps[best] <= inside[index]
    return indices, found


def nearest_pairs(a, b):
    """For point sets of different order (a Draco variant's vertices, merged and split), each
    point's nearest in the other set, both ways: distance() then compares other poses of the same
    vertices point by point, and only searches again when that bound is too large."""
    if len(a) == 0 or len(b) == 0:
        return None
    center = a.mean(0)
    return nearest(a - center, b - center)[1], nearest(b - center, a - center)[1]


def diagonal(points):
    """The length of the bounding box's diagonal (1 for no points)."""
    return max(float(np.linalg.norm(np.ptp(points, axis=0))) if len(points) else 1.0, 1e-6)


def mesh_parts(gltf):
    """Per mesh node (in node order) and instance, per primitive: (world matrix, primitive), the
    order castkit imports them in and its export writes them back."""
    trs, _ = gltf.pose(None, 0.0)
    cache = {}
    return [(gltf.world(index, trs, cache) @ instance, primitive)
            for index, node in enumerate(gltf.nodes) if "mesh" in node
            for instance in gltf.instances(node)
            for primitive in gltf.json["meshes"][node["mesh"]]["primitives"]]


def declared_bounds_error(source, output):
    """For a source whose positions this evaluator cannot decode (Draco, meshopt): each output part's
    vertices, taken into its source node's frame, have the extent the source's POSITION accessor
    declares (its min and max). The largest gap between the two, as a fraction of the diagonal,
    or None when the parts do not pair up by count."""
    parts_a, parts_b = mesh_parts(source), mesh_parts(output)
    counts = [source.json["accessors"][p["attributes"]["POSITION"]]["count"] for _, p in parts_a]
    if len(parts_a) != len(parts_b) or counts != [
            output.json["accessors"][p["attributes"]["POSITION"]]["count"] for _, p in parts_b]:
        return None
    extents, gaps = [], []
    for (world_a, primitive_a), (world_b, primitive_b) in zip(parts_a, parts_b):
        points = output.accessor(primitive_b["attributes"]["POSITION"])
        world = np.hstack([points, np.ones((len(points), 1))]) @ world_b.T
        local = (world @ np.linalg.inv(world_a).T)[:, :3]
        declared = source.json["accessors"][primitive_a["attributes"]["POSITION"]]
        gaps.append(max(np.abs(local.min(0) - declared["min"]).max(),
                        np.abs(local.max(0) - declared["max"]).max()))
        extents.append(world[:, :3])
    return max(gaps) / diagonal(np.vstack(extents))


def compare(source_path, output_path, figures, on_frames=False, reindexed=False):
    """What differs between the source and its round trip. Draco and meshopt data this evaluator
    cannot decode: such a source is compared by its triangle and vertex counts and by the bounds
    its accessors declare (compression_test.cpp checks the decoded positions). `reindexed`: the
    output comes from a Draco variant of the source, whose encoder merges and splits vertices, so
    the vertex counts may differ (the positions, UVs and faces are compared as point sets)."""
    problems = []
    a, b = Gltf(source_path), Gltf(output_path)
    if a.triangles() != b.triangles():
        problems.append(f"triangles {a.triangles()} -> {b.triangles()}")
    if a.morph_targets() != b.morph_targets():
        problems.append(f"morph targets {a.morph_targets()} -> {b.morph_targets()}")
    (rest_a, fronts_a, uv_a), (rest_b, fronts_b, uv_b) = a.surface(None, 0.0), b.surface(None, 0.0)
    if {"KHR_draco_mesh_compression", "EXT_meshopt_compression"} & set(
            a.json.get("extensionsUsed", [])):
        if len(rest_a) != len(rest_b):
            problems.append(f"vertices {len(rest_a)} -> {len(rest_b)}")
        error = declared_bounds_error(a, b)
        if error is None:
            problems.append("the meshes do not pair up with the source's by vertex count")
        else:
            figures["rest"] = error
            if error > 1e-3:
                problems.append(f"a mesh's extent differs from its declared bounds by "
                                f"{error:.2e} of the diagonal")
        return problems
    if len(rest_a) != len(rest_b) and not reindexed:
        problems.append(f"vertices {len(rest_a)} -> {len(rest_b)}")
    size = diagonal(rest_a)
    pairs = nearest_pairs(rest_a, rest_b) if len(rest_a) != len(rest_b) else None
    error = distance(rest_a, rest_b, 1e-3 * size, pairs)
    figures["rest"] = error / size
    if error > 1e-3 * size:
        problems.append(f"rest pose differs by {error / size:.2e} of the diagonal")
    error = distance(fronts_a, fronts_b, 1e-3 * size)
    if error > 1e-3 * size:
        problems.append(f"faces point elsewhere (winding) by {error / size:.2e} of the diagonal")
    error = distance(uv_a, uv_b, 1e-3 * max(size, 1.0))
    if (len(uv_a) != len(uv_b) and not reindexed) or error > 1e-3 * max(size, 1.0):
        problems.append(f"base colour UVs differ by {error:.5f}")
    out_animations = {x.get("name"): x for x in b.json.get("animations", [])}
    for number, animation in enumerate(a.json.get("animations", [])):
        name = animation.get("name", f"animation{number}")
        other = out_animations.get(animation.get("name"))
        if other is None and len(out_animations) == 1 and len(a.json["animations"]) == 1:
            other = next(iter(out_animations.values()))  # an unnamed clip gets a name
        if other is None:
            problems.append(f"animation '{name}' is missing")
            continue
        problems += compare_clip(a, b, animation, other, name, size, figures, on_frames, pairs)
    return problems


def key_on_frame(keys, t):
    """`t`, or the source key within a microsecond of it: glTF stores times as float32, so a key
    meant for a frame can be stored a float step after it, and castkit's resampling puts it on
    the frame (gltfpack's 201/120 s reads 1.67500007, after the frame's 1.67499995)."""
    nearest = float(keys[np.abs(keys - t).argmin()])
    return nearest if abs(nearest - t) < 1e-6 else t


def compare_clip(a, b, animation, other, name, size, figures, on_frames, pairs):
    """Key times kept (within the millisecond castkit rounds to when no frame rate fits them),
    and world-space vertices within 5e-3 of the diagonal at nine times; `on_frames`, at the
    output's key times nearest to those (Cast keys sit on whole frames and interpolate
    linearly, so a STEP or CUBICSPLINE channel resampled at every frame holds the source's
    values on frames only)."""
    times_a, times_b = a.key_times(animation), b.key_times(other)
    kept = np.array(sorted(times_b))
    lost = [t for t in sorted(times_a)
            if not len(kept) or np.abs(kept - t).min() > 0.0005 + 1e-6]
    if lost:
        return [f"'{name}': key times lost: {lost[:5]}"]
    start, end = min(times_a), max(times_a)
    frames = np.array(sorted(b.key_times(other, digits=None)))
    keys = np.array(sorted(a.key_times(animation, digits=None)))
    for i in range(9):
        t = start + (end - start) * i / 8
        if on_frames:
            t = float(frames[np.abs(frames - t).argmin()])
        error = distance(a.vertices(animation, key_on_frame(keys, t)), b.vertices(other, t),
                         5e-3 * size, pairs)
        figures["animated"] = max(figures.get("animated", 0.0), error / size)
        if error > 5e-3 * size:
            return [f"'{name}' at {t:.4f} s: vertices differ by {error / size:.2e} of the diagonal"]
    return []


def cast_rest_worlds(bones):
    """Each bone's rest world matrix: its local position, rotation and scale composed through
    its parents (which may come after it in the skeleton)."""
    worlds = {}

    def world(index):
        if index not in worlds:
            bone = bones[index]
            local = trs_matrix(bone.local_position or (0, 0, 0),
                               bone.local_rotation or (0, 0, 0, 1), bone.scale or (1, 1, 1))
            worlds[index] = world(bone.parent_index) @ local if bone.parent_index >= 0 else local
        return worlds[index]
    return np.array([world(i) for i in range(len(bones))]).reshape(-1, 4, 4)


def instance_vertices(document, folder):
    """The vertices of the model files a world's Instances place (docs/gltf.md, "Maps": a map
    converted to Cast), at rest, each file's under the Instance's TRS, files named relative to
    `folder`."""
    out, files = [], {}
    for root in document.root_nodes:
        for instance in root.instances:
            path = os.path.join(folder, instance.reference_file.path)
            if path not in files:
                files[path] = cast_vertices(castkit_module.open(path))
            points = files[path]
            place = trs_matrix(instance.position or (0, 0, 0), instance.rotation or (0, 0, 0, 1),
                               instance.scale or (1, 1, 1))
            out.append((np.hstack([points, np.ones((len(points), 1))]) @ place.T)[:, :3])
    return out


def cast_vertices(document, animation=None, frame=0.0, rests=None, folder=None):
    """Every mesh's vertices as a Cast consumer draws them (the Blender add-on: meshes bound at
    the skeleton's rest pose, the Model's transform over them): at rest, or at `frame` of
    `animation` (an index) with the bone worlds castkit.pose gives, the evaluator behind
    `castkit pose`. Blend shapes are not applied; the caller leaves out files with morphs.
    `rests` ({model index: (rest worlds, their inverses)}) keeps each skeleton's rest between
    calls on one document. With `folder`, the model files its Instances place are drawn too."""
    rests = {} if rests is None else rests
    out = [] if folder is None else instance_vertices(document, folder)
    for index, model in enumerate(document.models):
        place = trs_matrix(model.position or (0, 0, 0), model.rotation or (0, 0, 0, 1),
                           model.scale or (1, 1, 1))
        skinning = None
        if model.skeleton is not None and model.skeleton.bones:
            if index not in rests:
                rest = cast_rest_worlds(model.skeleton.bones)
                rests[index] = rest, np.linalg.inv(rest)
            posed, unbind = rests[index]
            if animation is not None:
                pose = castkit_module.pose(model, document, frame, animation=animation)
                posed = np.asarray(pose.world_matrices, np.float64)
            skinning = posed @ unbind
        for mesh in model.meshes:
            p = np.asarray(mesh.positions, np.float64).reshape(-1, 3)
            h = np.hstack([p, np.ones((len(p), 1))])
            if skinning is not None and mesh.weight_bones is not None:
                bones = np.asarray(mesh.weight_bones).reshape(len(p), -1).astype(int)
                weights = np.asarray(mesh.weight_values, np.float64).reshape(len(p), -1)
                moved = np.zeros_like(h)
                for c in range(bones.shape[1]):
                    moved += weights[:, c:c + 1] * np.einsum("vij,vj->vi", skinning[bones[:, c]], h)
                h = moved / np.where(weights.sum(1, keepdims=True) > 0,
                                     weights.sum(1, keepdims=True), 1.0)
            out.append((h @ place.T)[:, :3])
    return np.vstack(out) if out else np.zeros((0, 3))


def cast_consumer(source_path, cast_path, figures, on_frames, bind_pose):
    """The Cast file drawn as a Cast consumer draws it (cast_vertices) against the source glTF,
    within the same tolerances as the glb: 1e-3 of the diagonal at rest, 5e-3 at nine times of
    each clip (animations paired by order: the import keeps it); `on_frames`, at the whole
    frames nearest to those, as compare_clip. A file whose skins bind in another pose than the
    rest (`bind_pose`: its import warned so) rests in its bind pose in Cast (docs/gltf.md,
    "Skins"), so only its animated poses are compared. Files with morph targets (which this
    consumer does not apply) and compressed sources (which the evaluator cannot decode) are
    left to the glb comparison."""
    a = Gltf(source_path)
    if a.morph_targets() or {"KHR_draco_mesh_compression", "EXT_meshopt_compression"} & set(
            a.json.get("extensionsUsed", [])):
        return []
    document = castkit_module.open(cast_path)
    rests = {}
    rest = a.vertices(None, 0.0)
    cast_rest = cast_vertices(document, rests=rests, folder=os.path.dirname(cast_path))
    size = diagonal(rest)
    pairs = nearest_pairs(rest, cast_rest) if len(rest) != len(cast_rest) else None
    if not bind_pose:
        error = distance(rest, cast_rest, 1e-3 * size, pairs)
        figures["cast rest"] = error / size
        if error > 1e-3 * size:
            return [f"Cast consumer: rest pose differs by {error / size:.2e} of the diagonal"]
    for number, animation in enumerate(a.json.get("animations", [])[:len(document.animations)]):
        rate = document.animations[number].framerate or 30.0
        times = np.array(sorted(a.key_times(animation, digits=None)))
        for i in range(9):
            t = times[0] + (times[-1] - times[0]) * i / 8
            frame = t * rate
            if on_frames:
                frame = round(frame)
                t = key_on_frame(times, frame / rate)
            error = distance(a.vertices(animation, t),
                             cast_vertices(document, number, frame, rests), 5e-3 * size, pairs)
            figures["cast animated"] = max(figures.get("cast animated", 0.0), error / size)
            if error > 5e-3 * size:
                return [f"Cast consumer: animation {number} at {t:.4f} s differs by "
                        f"{error / size:.2e} of the diagonal"]
    return []


def run(command):
    result = subprocess.run(command, capture_output=True, text=True)
    return result.returncode, result.stdout + result.stderr


WARNING = re.compile(r": warning: (.*) \[([\w.-]+)\]$", re.MULTILINE)


def unexpected_warnings(key, text):
    """The warnings in the CLI's `text` that EXPECTED_WARNINGS does not list for `key`, and the
    listed ones it lacks. A gltfpack variant ("KEY (quantized)") may print its file's warnings
    and need not (gltfpack drops cameras and rescales weights itself)."""
    base, variant = re.match(r"(.*?)( \((?:quantized|meshopt|draco)\))?$", key).groups()
    expected = EXPECTED_WARNINGS.get(base, [])
    # "... and N more": the count of a warning's repeats past the first few (diagnostics bound).
    printed = [(message, rule) for message, rule in WARNING.findall(text)
               if not message.startswith("... and ")]
    problems = [f"unlisted warning [{rule}] {message}" for message, rule in printed
                if not any(rule == r and fragment in message
                           for r, fragment in expected + ALLOWED_WARNINGS)]
    problems += [f"expected warning [{r}] '{fragment}' not printed" for r, fragment in expected
                 if not variant and
                 not any(rule == r and fragment in message for message, rule in printed)]
    return problems


def round_trip(source, key, work, figures, twin=None):
    """The problems of one file's trip glTF -> Cast -> glb; compared with `twin` when given (the
    same data uncompressed, or the plain file a Draco variant was made from), else with the
    source."""
    cast = os.path.join(work, key.replace("/", "__") + ".cast")
    out = os.path.join(work, key.replace("/", "__") + ".glb")
    code, text = run([castkit, "convert", source, cast])
    if code != 0:
        return [f"import failed: {text}"]
    problems = []
    warnings = text
    code, text = run([castkit, "validate", cast])
    if code != 0:
        problems.append(f"castkit validate: {text}")
    code, text = run([castkit, "convert", cast, out])
    if code != 0:
        return problems + [f"export failed: {text}"]
    problems += unexpected_warnings(key, warnings + text)
    code, text = run(["node", validator, out])
    if code != 0 or " 0 errors" not in text:
        problems.append(f"Khronos validator: {text}")
    if key in NO_TRIANGLES:
        return problems
    if castkit_module is not None:
        problems += cast_consumer(twin or source, cast, figures, RESAMPLED[1] in warnings,
                                  BIND_POSE[1] in warnings)
    return problems + compare(twin or source, out, figures, RESAMPLED[1] in warnings,
                              reindexed=key.endswith(" (draco)"))


def variant_stems(arguments, work, program, what):
    """(source, key, the path its variants' names start with) for each file under the folders
    given, when `program` is installed; else none, and the run says so."""
    if not shutil.which(program):
        print(f"{program} is not installed: no {what} variants")
        return []
    folder = os.path.join(work, "variants")
    os.makedirs(folder, exist_ok=True)
    return [(source, key, os.path.join(folder, key.replace("/", "__").rsplit(".", 1)[0]))
            for source, key in sources(arguments)]


def gltfpack_variants(arguments, work):
    """With gltfpack installed, each file under the folders given as a quantized variant
    (KHR_mesh_quantization, gltfpack's default) and a meshopt-compressed one (-c, the same
    quantized data compressed without loss): (path, key, twin) triples, the compressed one's twin
    its quantized variant, which it must read as."""
    out = []
    for source, key, stem in variant_stems(arguments, work, "gltfpack", "quantized or meshopt"):
        quantized, compressed = stem + ".quantized.glb", stem + ".meshopt.glb"
        if (run(["gltfpack", "-i", source, "-o", quantized])[0] != 0 or
                run(["gltfpack", "-c", "-i", source, "-o", compressed])[0] != 0):
            print(f"{key}: gltfpack could not make its variants")
            continue
        out += [(quantized, key + " (quantized)", None),
                (compressed, key + " (meshopt)", quantized)]
    return out


# draco_transcoder's quantisation, in bits per component: positions to 1/65,535 of the extent, so
# that the Draco variant draws within the check's tolerances of its plain source.
DRACO_BITS = ["-qp", "16", "-qt", "14", "-qn", "12", "-qtg", "12", "-qw", "12", "-qc", "12",
              "-qg", "12"]


def extensions_used(path):
    return set(Gltf(path).json.get("extensionsUsed", []))


def draco_variants(arguments, work):
    """With draco_transcoder (Debian's draco) installed, each file under the folders given as a
    Draco-compressed glb: (path, key, twin) triples whose twin is the plain file, which the
    variant must read as. The transcoder refuses morph targets and sparse accessors: those files
    have no variant, and the run says so."""
    out = []
    for source, key, stem in variant_stems(arguments, work, "draco_transcoder", "Draco"):
        variant = stem + ".draco.glb"
        code, text = run(["draco_transcoder", "-i", source, "-o", variant] + DRACO_BITS)
        if code != 0:
            reason = text.strip().splitlines()[-1].split("\t")[-1] if text.strip() else code
            print(f"{key}: draco_transcoder made no variant ({reason})")
            continue
        dropped = extensions_used(source) - extensions_used(variant)
        if dropped:
            print(f"{key}: draco_transcoder drops {', '.join(sorted(dropped))}: no variant")
            continue
        out.append((variant, key + " (draco)", source))
    return out


def sources(arguments):
    """(path, key) for each file argument and each .gltf/.glb under each folder argument; the
    key is the path below that folder, or the file name."""
    for argument in arguments:
        if not os.path.isdir(argument):
            yield argument, os.path.basename(argument)
            continue
        for folder, _, names in sorted(os.walk(argument)):
            for name in sorted(names):
                if name.endswith((".gltf", ".glb")):
                    path = os.path.join(folder, name)
                    yield path, os.path.relpath(path, argument).replace(os.sep, "/")


# The exit code that tells CTest a test skipped (SKIP_RETURN_CODE).
SKIPPED = 77


def figures_text(figures):
    """The largest vertex distances, as fractions of the diagonal, at rest and animated (the glb
    of the round trip, then the Cast file as a Cast consumer draws it)."""
    parts = [f"{what} {figures[what]:.1e}" for what in
             ("rest", "animated", "cast rest", "cast animated") if what in figures]
    return f" ({', '.join(parts)} of the diagonal)" if parts else ""


def check(file, work):
    """One (path, key, twin) file's problems and figures."""
    figures = {}
    return round_trip(file[0], file[1], work, figures, file[2]), figures


def main():
    global castkit, validator
    arguments = sys.argv[1:]
    skip_missing = arguments[:1] == ["--skip-missing"]
    if skip_missing:
        arguments = arguments[1:]
    with_variants = arguments[:1] == ["--variants"]
    if with_variants:
        arguments = arguments[1:]
    castkit, validator, work = arguments[:3]
    missing = [path for path in arguments[3:] if not os.path.exists(path)]
    if missing and skip_missing:
        print(f"skipped: no {', '.join(missing)}")
        return SKIPPED
    os.makedirs(work, exist_ok=True)
    if castkit_module is None:
        print("no castkit Python module on PYTHONPATH: the Cast files are not drawn as a consumer")
    failed = 0
    files = [(source, key, None) for source, key in sources(arguments[3:])]
    if with_variants:
        files += gltfpack_variants(arguments[3:], work) + draco_variants(arguments[3:], work)

    # Files in parallel, one process per core (the evaluator is numpy driven from Python, which
    # one process runs a core at a time), reported in order.
    with concurrent.futures.ProcessPoolExecutor(os.cpu_count() or 2) as pool:
        results = list(pool.map(check, files, [work] * len(files)))
    for (source, key, twin), (problems, figures) in zip(files, results):
        reason = EXPECTED_FAILURES.get(key)
        if reason and problems:
            print(f"{key}: expected failure ({reason}): {'; '.join(problems)}")
        elif reason:
            print(f"{key}: ok, and listed as an expected failure ({reason}): remove its line "
                  f"from EXPECTED_FAILURES")
        else:
            print(f"{key}: {'ok' if not problems else '; '.join(problems)}{figures_text(figures)}")
            failed += bool(problems)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

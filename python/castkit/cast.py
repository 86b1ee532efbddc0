"""castkit.cast: the API of the reference cast.py (dtzxporter/cast, libraries/python/cast.py) on
top of castkit, so that code written for cast.py runs unchanged after

    import castkit.cast as cast

The same classes, methods, defaults, type choices and hash counter; `Cast.save` writes the bytes
cast.py writes for the same calls. Differences (docs/python.md, "castkit.cast"):

- `Cast.load` reads the file into memory once with castkit's reader; a numeric property's
  `values` is a flat, read-only `CastValues` sequence viewing it (no copy) where cast.py builds
  a tuple. Indexing and iteration give Python ints and floats, as fast as a tuple's; slices are
  `CastValues` too; `+` with a tuple or list concatenates; the buffer protocol hands the values
  whole to `foreach_set` and `numpy.asarray`.
- Buffer setters (`SetVertexPositionBuffer`, `SetFaceBuffer`, ...) store `CastValues` of the
  property's type instead of Python lists; they take sequences of tuples as cast.py does, or
  numpy arrays of any shape. Integers a type cannot hold (negative, or past the widest type)
  raise `struct.error` when set, as cast.py's `struct.pack` does when it saves.
- `Cast.save` writes a temporary file beside the target and renames it over the target, so a
  failed save leaves the old file as it was.
- Nodes are read whole: `CastNode.load(file)` and `CastProperty(file)` (cast.py's stream
  readers) are not offered; `Cast.load(path)` is.
"""

# Annotations stay strings at run time: python/backend/generate_stub.py writes cast.pyi from them.
from __future__ import annotations

import itertools
import os
import struct
from typing import TYPE_CHECKING, Any, BinaryIO, Iterable, Optional, Sequence, TypeVar, Union

import numpy as np

from . import _castkit, _files

if TYPE_CHECKING:
    # Named only in annotations, never evaluated: numpy.typing would add ~5 ms of import time,
    # and TypeAlias is Python 3.10+.
    import numpy.typing as npt
    from typing import TypeAlias

__all__ = [
    "Animation", "BlendShape", "Bone", "Cast", "CastColor", "CastNode", "CastProperty",
    "CastProperty_t", "CastValues", "Color", "Constraint", "Curve", "CurveModeOverride", "File",
    "Hair", "IKHandle", "Instance", "Material", "Mesh", "Metadata", "Model", "NotificationTrack",
    "Root", "Skeleton", "castHashBase", "castNextHash", "castTypeForMaximum", "typeSwitcher",
]

# The annotations' aliases and TypeVar.
_Buffer: TypeAlias = ("Union[npt.ArrayLike, Iterable[Sequence[float]], Iterable[int], "
                      "Iterable[float]]")
_Path: TypeAlias = "Union[str, os.PathLike[str]]"
_Values: TypeAlias = "Union[CastValues, list[Any]]"
_N = TypeVar("_N", bound="CastNode")
# The classes Skeleton and Material for the methods named so, which hide them in a class body.
_SkeletonNode: TypeAlias = "Skeleton"
_MaterialNode: TypeAlias = "Material"

castHashBase: int = 0x534E495752545250


def castNextHash() -> int:
    """Returns the next default node hash and advances the process-wide counter by one."""
    global castHashBase
    value = castHashBase
    castHashBase += 1
    return value


def castTypeForMaximum(values: Iterable[int]) -> str:
    """The narrowest unsigned type ("b", "h" or "i") that holds the largest of `values`; raises
    ValueError for no values, as cast.py's max() does."""
    if isinstance(values, np.ndarray):
        if values.size == 0:
            raise ValueError("max() arg is an empty sequence")
        largest = int(np.max(values))
    else:
        largest = max(values)
    if largest <= 0xFF:
        return "b"
    if largest <= 0xFFFF:
        return "h"
    return "i"


CastValues = _castkit.CastValues

# The largest value of each integer type.
_INTEGER_MAXIMUM = {"b": 0xFF, "h": 0xFFFF, "i": 0xFFFFFFFF, "l": 0xFFFFFFFFFFFFFFFF}


def _out_of_range(name, identifier, index, value):
    """The struct.error cast.py's save raises for `value`, saying which property and index."""
    if not isinstance(value, int):
        return struct.error(f"property {name!r}: value {value!r} at index {index} is not an "
                            "integer (required argument is not an integer)")
    return struct.error(f"property {name!r}: value {value} at index {index} does not fit type "
                        f"{identifier!r}: it requires 0 <= number <= "
                        f"{_INTEGER_MAXIMUM[identifier]}")


def _integers(name, identifier, values):
    """`values` as a flat array of the integer type `identifier` ("b", "h", "i", "l"); raises
    struct.error naming the property, the first value it cannot hold and its index (a negative
    value, one past the type, or not an integer), where numpy would wrap it around."""
    maximum = _INTEGER_MAXIMUM[identifier]
    array = np.asarray(values).reshape(-1)
    if array.size == 0:
        return array.astype(CastProperty_t.LAYOUTS[identifier][3])
    if array.dtype.kind in "iub":
        bad = np.flatnonzero((array < 0) | (array > maximum)) if array.dtype.kind != "b" else []
        if len(bad):
            raise _out_of_range(name, identifier, int(bad[0]), array[bad[0]].item())
    else:  # floats, strings, or ints too large for one numpy type
        for index, value in enumerate(array.tolist()):
            if not isinstance(value, int) or not 0 <= value <= maximum:
                raise _out_of_range(name, identifier, index, value)
        array = np.array(array.tolist(), dtype=np.uint64)
    return array.astype(CastProperty_t.LAYOUTS[identifier][3])


class CastProperty_t:
    """A property type: its identifier ("b" ... "4v"), struct format, element size in bytes
    and the number of values per element (cast.py's CastProperty_t)."""

    __slots__ = ("size", "fmt", "identifier", "array")

    # identifier: (element size, struct format, values per element, numpy dtype)
    LAYOUTS: dict[str, tuple[int, str, int, Optional[str]]] = {
        "b": (1, "B", 1, "<u1"),
        "h": (2, "H", 1, "<u2"),
        "i": (4, "I", 1, "<u4"),
        "l": (8, "Q", 1, "<u8"),
        "f": (4, "f", 1, "<f4"),
        "d": (8, "d", 1, "<f8"),
        "s": (0, "s", 1, None),
        "2v": (8, "2f", 2, "<f4"),
        "3v": (12, "3f", 3, "<f4"),
        "4v": (16, "4f", 4, "<f4"),
    }
    size: int
    fmt: str
    identifier: Optional[str]
    array: int

    def __init__(self, identifier: Optional[str] = None) -> None:
        self.identifier = identifier
        if identifier is None:
            self.size, self.fmt, self.array = 0, "", 1
        else:
            self.size, self.fmt, self.array, _ = self.LAYOUTS[identifier]

    @property
    def dtype(self) -> Optional[str]:
        """The numpy dtype of one value, or None for strings."""
        return self.LAYOUTS[self.identifier][3]


class CastColor:
    """Colour helpers with cast.py's exact arithmetic (including its linear to sRGB formula,
    which is not the standard one: docs/python.md)."""

    @staticmethod
    def sRGBToLinear(srgb: float) -> float:
        """One sRGB channel (float) in linear space."""
        if srgb <= 0.04045:
            return srgb / 12.92
        return ((srgb + 0.055) / 1.055) ** 2.4

    @staticmethod
    def linearToSRGB(linear: float) -> float:
        """One linear channel (float) in cast.py's sRGB: pow(x, 1/2.4) + 1.055 - 0.055 above
        the linear segment."""
        if linear <= 0.0031308:
            return linear * 12.92
        return (linear ** (1.0 / 2.4) + 1.055) - 0.055

    @staticmethod
    def toLinearFromSRGB(color: Sequence[float]) -> tuple[float, float, float, float]:
        """An sRGB rgba tuple with its rgb in linear space (alpha unchanged)."""
        r, g, b = (CastColor.sRGBToLinear(c) for c in color[:3])
        return (r, g, b, color[3])

    @staticmethod
    def toSRGBFromLinear(color: Sequence[float]) -> tuple[float, float, float, float]:
        """A linear rgba tuple with its rgb in sRGB (alpha unchanged)."""
        r, g, b = (CastColor.linearToSRGB(c) for c in color[:3])
        return (r, g, b, color[3])

    # A packed colour (R in the low byte) as an rgba tuple of floats in [0, 1]; in C, as the
    # Blender add-on calls it once per face corner (python/src/values.cpp).
    fromInteger = staticmethod(_castkit.color_from_integer)

    @staticmethod
    def toInteger(color: Sequence[float]) -> int:
        """An rgba tuple of floats packed into one integer (R in the low byte); each channel is
        clamped to [0, 255] and truncated."""
        channels = bytes(int(max(min(c * 255.0, 255.0), 0.0)) for c in color[:4])
        return struct.unpack("<I", channels)[0]


class CastProperty:
    """One named, typed property of a node; `values` is flat (x, y, z, x, y, z, ... for "3v")."""

    __slots__ = ("name", "type", "values")
    name: str
    type: CastProperty_t
    values: Any

    def __init__(self, file: None = None, name: Optional[str] = None,
                 type: Optional[str] = None) -> None:
        if file is not None:
            raise TypeError("castkit.cast reads whole files: use Cast.load(path)")
        self.name = name or ""
        self.type = CastProperty_t(type)
        self.values = []

    def isType(self, identifier: str) -> bool:
        """True when this property's type identifier is `identifier`."""
        return self.type.identifier == identifier

    def _count(self):
        """The ArrayLength written to the file (one for a string, as cast.py)."""
        return len(self.values) // self.type.array

    def _payload(self):
        """The payload bytes: a NUL-terminated UTF-8 string or the packed values."""
        if self.type.identifier == "s":
            return self.values[0].encode("utf-8") + b"\0"
        if len(self.values) % self.type.array:
            raise struct.error(f"property {self.name!r}: {len(self.values)} values do not make "
                               f"whole {self.type.identifier} elements")
        if self.type.identifier in _INTEGER_MAXIMUM:
            return _integers(self.name, self.type.identifier, self.values)
        return np.ascontiguousarray(self.values, dtype=self.type.dtype).reshape(-1)

    def _header(self):
        """The 8-byte property header and the name."""
        name = self.name.encode("utf-8")
        count = len(self.values) if self.type.identifier == "s" else self._count()
        return struct.pack("<2sHI", self.type.identifier.encode("utf-8"), len(name), count) + name

    def save(self, file: BinaryIO) -> None:
        """Writes this property (header, name, payload) to a binary file."""
        file.write(self._header())
        file.write(self._payload())

    def length(self) -> int:
        """The size of this property in the file, in bytes."""
        size = 8 + len(self.name.encode("utf-8"))
        if self.type.identifier == "s":
            return size + len(self.values[0].encode("utf-8")) + 1
        return size + self.type.size * self._count()


class CastNode:
    """A generic node: an id, a 64-bit hash, properties by name (in insertion order) and
    children. Each new node takes the next value of the hash counter."""

    __slots__ = ("identifier", "hash", "parentNode", "childNodes", "properties")
    identifier: int
    hash: int
    parentNode: Optional[CastNode]
    childNodes: list[CastNode]
    properties: dict[str, CastProperty]

    def __init__(self, identifier: int = 0) -> None:
        self.identifier = identifier
        self.hash = castNextHash()
        self.parentNode = None
        self.childNodes = []
        self.properties = {}

    def ChildOfType(self, pType: type[_N]) -> Optional[_N]:
        """The first child whose class is exactly `pType`, or None."""
        return next((child for child in self.childNodes if child.__class__ is pType), None)

    def ChildrenOfType(self, pType: type[_N]) -> list[_N]:
        """Every child whose class is exactly `pType`, in order."""
        return [child for child in self.childNodes if child.__class__ is pType]

    def ChildByHash(self, hash: int) -> Optional[CastNode]:
        """The first child with this hash, or None."""
        return next((child for child in self.childNodes if child.hash == hash), None)

    def Hash(self) -> int:
        """This node's hash."""
        return self.hash

    def CreateProperty(self, name: str, type: str) -> CastProperty:
        """A new empty property of type `type` (replacing one of the same name in place)."""
        prop = CastProperty(name=name, type=type)
        self.properties[name] = prop
        return prop

    def CreateChild(self, child: _N) -> _N:
        """Appends `child` to this node's children and returns it."""
        child.parentNode = self
        self.childNodes.append(child)
        return child

    def save(self, file: BinaryIO) -> None:
        """Writes this node and its subtree to a binary file."""
        sizes = {}
        _measure(self, sizes)
        _write(self, file, sizes)

    def length(self) -> int:
        """The size of this node and its subtree in the file, in bytes (its NodeSize)."""
        return _measure(self, {})


def _measure(node, sizes):
    """NodeSize of `node`; fills `sizes` (id(node) -> NodeSize) for its whole subtree."""
    size = 24 + sum(prop.length() for prop in node.properties.values())
    size += sum(_measure(child, sizes) for child in node.childNodes)
    sizes[id(node)] = size
    return size


def _write(node, file, sizes):
    """Streams `node` and its subtree with the NodeSizes in `sizes`."""
    file.write(struct.pack("<IIQII", node.identifier, sizes[id(node)], node.hash,
                           len(node.properties), len(node.childNodes)))
    for prop in node.properties.values():
        prop.save(file)
    for child in node.childNodes:
        _write(child, file, sizes)


# ---- accessor builders: each returns a method for a typed node class ---------------------------
# A method whose types depend on the builder's arguments gets its __annotations__ here, for the
# stub generator; `kind`, `alias` and `type_name` name a class or type, as an annotation does.

def _first(key, type_name, default=None):
    """Getter: the property's first value (a `type_name`), or `default` when absent."""
    def get(self):
        prop = self.properties.get(key)
        return default if prop is None else prop.values[0]
    get.__annotations__ = {"return": type_name if default is not None else
                           f"Optional[{type_name}]"}
    return get


def _all(key):
    """Getter: every value of the property (flat), or None when absent."""
    def get(self) -> Optional[_Values]:
        prop = self.properties.get(key)
        return None if prop is None else prop.values
    return get


def _flag(key, default):
    """Getter: the property's first value >= 1, or `default` when absent."""
    def get(self) -> bool:
        prop = self.properties.get(key)
        return default if prop is None else prop.values[0] >= 1
    return get


def _linked(key, scope, kind):
    """Getter: the node (a `kind`) whose hash the property holds, among the parent's children
    (scope "parent") or this node's own children (scope "self"); None when absent."""
    def get(self):
        prop = self.properties.get(key)
        if prop is None:
            return None
        owner = self.parentNode if scope == "parent" else self
        return owner.ChildByHash(prop.values[0])
    get.__annotations__ = {"return": f"Optional[{kind}]"}
    return get


# The Python type of a value of each property type.
_VALUE_TYPES = {"b": "int", "h": "int", "i": "int", "l": "int", "f": "float", "d": "float",
                "s": "str"}


def _set_one(key, type):
    """Setter: one value of type `type`."""
    def set(self, value):
        self.CreateProperty(key, type).values = [value]
    set.__annotations__ = {"value": _VALUE_TYPES[type], "return": "None"}
    return set


def _set_list(key, type):
    """Setter: a flat sequence of values (a position, a quaternion, a list of floats)."""
    def set(self, values: _Buffer) -> None:
        self.CreateProperty(key, type).values = list(values)
    return set


def _set_flag(key):
    """Setter: a boolean stored as the byte 1 or 0."""
    def set(self, enabled: bool) -> None:
        self.CreateProperty(key, "b").values = [1 if enabled else 0]
    return set


def _flat(values, dtype):
    """`values` (a numpy array of any shape, or a sequence of tuples) as flat CastValues."""
    if isinstance(values, np.ndarray):
        array = np.ascontiguousarray(values, dtype=dtype).reshape(-1)
    else:
        array = np.fromiter(itertools.chain.from_iterable(values), dtype=dtype)
    return _castkit.values_of(array)


def _set_vectors(key, type):
    """Setter: a buffer of vectors (tuples or an (n, k) array), stored flat."""
    def set(self, values: _Buffer) -> None:
        self.CreateProperty(key, type).values = _flat(values, "=f4")
    return set


def _set_indices(key):
    """Setter: an integer buffer in the narrowest type that holds its maximum."""
    def set(self, values: _Buffer) -> None:
        array = np.asarray(values if hasattr(values, "__len__") else list(values))
        type = castTypeForMaximum(array)
        self.CreateProperty(key, type).values = _castkit.values_of(_integers(key, type, array))
    return set


def _set_floats(key):
    """Setter: a buffer of floats."""
    def set(self, values: _Buffer) -> None:
        array = np.ascontiguousarray(values, dtype="=f4").reshape(-1)
        self.CreateProperty(key, "f").values = _castkit.values_of(array)
    return set


def _children(kind):
    """Getter: the children of class `kind` (a class name resolved at call time)."""
    def get(self):
        return self.ChildrenOfType(globals()[kind])
    get.__annotations__ = {"return": f"list[{kind}]"}
    return get


def _child(kind, alias=None):
    """Getter: the first child of class `kind`, or None; annotated with `alias` if given."""
    def get(self):
        return self.ChildOfType(globals()[kind])
    get.__annotations__ = {"return": f"Optional[{alias or kind}]"}
    return get


def _create(kind, alias=None):
    """Method: creates a child of class `kind` and returns it; annotated with `alias` if given."""
    def create(self):
        return self.CreateChild(globals()[kind]())
    create.__annotations__ = {"return": alias or kind}
    return create


def _typed(name, identifier, doc, **methods):
    """A CastNode subclass named `name` for node id `identifier`, with `methods` (each made for
    this class alone: it takes the name and qualified name it is bound under)."""
    def __init__(self) -> None:
        CastNode.__init__(self, identifier)
    methods = {"__init__": __init__, **methods}
    for attribute, method in methods.items():
        method.__name__, method.__qualname__ = attribute, f"{name}.{attribute}"
    return type(name, (CastNode,), {**methods, "__doc__": doc, "ID": identifier,
                                    "__annotations__": {"ID": "int"}})


# ---- the node classes ----------------------------------------------------------------------


def _name():
    """Name and SetName, made anew for each class (_typed names them after it)."""
    return {"Name": _first("n", "str"), "SetName": _set_one("n", "s")}


def _transform():
    """Position, Rotation, Scale and their setters, made anew for each class."""
    return {
        "Position": _all("p"), "SetPosition": _set_list("p", "3v"),
        "Rotation": _all("r"), "SetRotation": _set_list("r", "4v"),
        "Scale": _all("s"), "SetScale": _set_list("s", "3v"),
    }


Root = _typed(
    "Root", 0x746F6F72, "A root node: models, animations, instances and metadata.",
    CreateModel=_create("Model"), CreateAnimation=_create("Animation"),
    CreateInstance=_create("Instance"), CreateMetadata=_create("Metadata"))

Model = _typed(
    "Model", 0x6C646F6D, "A model: skeleton, meshes, hairs, materials and blend shapes.",
    **_name(), **_transform(),
    Skeleton=_child("Skeleton", "_SkeletonNode"),
    CreateSkeleton=_create("Skeleton", "_SkeletonNode"),
    Meshes=_children("Mesh"), CreateMesh=_create("Mesh"),
    Hairs=_children("Hair"), CreateHair=_create("Hair"),
    Materials=_children("Material"), CreateMaterial=_create("Material"),
    BlendShapes=_children("BlendShape"), CreateBlendShape=_create("BlendShape"))

Animation = _typed(
    "Animation", 0x6D696E61, "An animation: curves, curve mode overrides and notifications.",
    **_name(),
    Skeleton=_child("Skeleton", "_SkeletonNode"),
    CreateSkeleton=_create("Skeleton", "_SkeletonNode"),
    Curves=_children("Curve"), CreateCurve=_create("Curve"),
    CurveModeOverrides=_children("CurveModeOverride"),
    CreateCurveModeOverride=_create("CurveModeOverride"),
    Notifications=_children("NotificationTrack"),
    CreateNotification=_create("NotificationTrack"),
    Framerate=_first("fr", "float"), SetFramerate=_set_one("fr", "f"),
    Looping=_flag("lo", False), SetLooping=_set_flag("lo"))

Curve = _typed(
    "Curve", 0x76727563, "Key frames that animate one property of a named node.",
    NodeName=_first("nn", "str"), SetNodeName=_set_one("nn", "s"),
    KeyPropertyName=_first("kp", "str"), SetKeyPropertyName=_set_one("kp", "s"),
    KeyFrameBuffer=_all("kb"), SetKeyFrameBuffer=_set_indices("kb"),
    KeyValueBuffer=_all("kv"),
    SetFloatKeyValueBuffer=_set_floats("kv"),
    SetVec4KeyValueBuffer=_set_vectors("kv", "4v"),
    SetByteKeyValueBuffer=_set_list("kv", "b"),
    Mode=_first("m", "str"), SetMode=_set_one("m", "s"),
    AdditiveBlendWeight=_first("ab", "float", 1.0), SetAdditiveBlendWeight=_set_one("ab", "f"))

CurveModeOverride = _typed(
    "CurveModeOverride", 0x564F4D43, "A curve mode for a node and the nodes below it.",
    NodeName=_first("nn", "str"), SetNodeName=_set_one("nn", "s"),
    Mode=_first("m", "str"), SetMode=_set_one("m", "s"),
    OverrideTranslationCurves=_flag("ot", False),
    SetOverrideTranslationCurves=_set_flag("ot"),
    OverrideRotationCurves=_flag("or", False), SetOverrideRotationCurves=_set_flag("or"),
    OverrideScaleCurves=_flag("os", False), SetOverrideScaleCurves=_set_flag("os"))

NotificationTrack = _typed(
    "NotificationTrack", 0x6669746E, "Named events on key frames of an animation.",
    **_name(), KeyFrameBuffer=_all("kb"), SetKeyFrameBuffer=_set_indices("kb"))


def _vertex_count(self) -> Optional[int]:
    """The number of vertex positions, or None without "vp"."""
    prop = self.properties.get("vp")
    return None if prop is None else len(prop.values) // 3


def _face_count(self) -> Optional[int]:
    """The number of triangles, or None without "f"."""
    prop = self.properties.get("f")
    return None if prop is None else len(prop.values) // 3


def _color_layer_count(self) -> int:
    """The number of colour layers: "cl"; else one for a legacy "vc" buffer; else 0."""
    prop = self.properties.get("cl")
    if prop is not None:
        return prop.values[0]
    return 1 if "vc" in self.properties else 0


def _color_layer(self, index: int) -> Optional[_Values]:
    """Colour layer `index` ("c<index>"; layer 0 falls back to legacy "vc"), or None."""
    prop = self.properties.get("c%d" % index)
    if prop is None and index == 0:
        prop = self.properties.get("vc")
    return None if prop is None else prop.values


def _set_color_layer(self, index: int, values: _Buffer) -> None:
    """Colour layer `index`: packed integers ("i") or rgba tuples / an (n, 4) array ("4v")."""
    if isinstance(values, np.ndarray):
        packed = values.dtype.kind in "iu"
    else:
        values = list(values)
        packed = bool(values) and isinstance(values[0], int)
    key = "c%d" % index
    if packed:
        self.CreateProperty(key, "i").values = _castkit.values_of(_integers(key, "i", values))
    else:
        self.CreateProperty(key, "4v").values = _flat(values, "=f4")


def _color_layer_packed(self, index: int) -> bool:
    """True unless colour layer `index` exists as "4v" (legacy "vc" is always packed)."""
    prop = self.properties.get("c%d" % index)
    return True if prop is None else prop.isType("i")


def _uv_layer(self, index: int) -> Optional[_Values]:
    """UV layer `index` ("u<index>", flat u, v pairs), or None."""
    prop = self.properties.get("u%d" % index)
    return None if prop is None else prop.values


def _set_uv_layer(self, index: int, values: _Buffer) -> None:
    """UV layer `index` from (u, v) tuples or an (n, 2) array."""
    self.CreateProperty("u%d" % index, "2v").values = _flat(values, "=f4")


Mesh = _typed(
    "Mesh", 0x6873656D, "A triangle mesh: vertices, faces, layers, weights and a material.",
    **_name(),
    VertexCount=_vertex_count, FaceCount=_face_count,
    UVLayerCount=_first("ul", "int", 0), SetUVLayerCount=_set_one("ul", "b"),
    ColorLayerCount=_color_layer_count, SetColorLayerCount=_set_one("cl", "b"),
    MaximumWeightInfluence=_first("mi", "int", 0), SetMaximumWeightInfluence=_set_one("mi", "b"),
    SkinningMethod=_first("sm", "str", "linear"), SetSkinningMethod=_set_one("sm", "s"),
    FaceBuffer=_all("f"), SetFaceBuffer=_set_indices("f"),
    VertexPositionBuffer=_all("vp"), SetVertexPositionBuffer=_set_vectors("vp", "3v"),
    VertexNormalBuffer=_all("vn"), SetVertexNormalBuffer=_set_vectors("vn", "3v"),
    VertexTangentBuffer=_all("vt"), SetVertexTangentBuffer=_set_vectors("vt", "3v"),
    VertexColorLayerBuffer=_color_layer, SetVertexColorBuffer=_set_color_layer,
    VertexColorLayerBufferPacked=_color_layer_packed,
    VertexUVLayerBuffer=_uv_layer, SetVertexUVLayerBuffer=_set_uv_layer,
    VertexWeightBoneBuffer=_all("wb"), SetVertexWeightBoneBuffer=_set_indices("wb"),
    VertexWeightValueBuffer=_all("wv"), SetVertexWeightValueBuffer=_set_floats("wv"),
    Material=_linked("m", "parent", "_MaterialNode"), SetMaterial=_set_one("m", "l"))


def _strand_count(self) -> Optional[int]:
    """The number of strands (entries of "se"), or None without "se"."""
    prop = self.properties.get("se")
    return None if prop is None else len(prop.values)


Hair = _typed(
    "Hair", 0x72696168, "Hair strands: segments per strand and their particles.",
    **_name(),
    StrandCount=_strand_count,
    SegmentsBuffer=_all("se"), SetSegmentBuffer=_set_indices("se"),
    ParticleBuffer=_all("pt"), SetParticleBuffer=_set_vectors("pt", "3v"),
    Material=_linked("m", "parent", "_MaterialNode"), SetMaterial=_set_one("m", "l"))

BlendShape = _typed(
    "BlendShape", 0x68736C62, "A blend shape: a base mesh and sparse target positions.",
    **_name(),
    BaseShape=_linked("b", "parent", "Mesh"), SetBaseShape=_set_one("b", "l"),
    TargetShapeVertexIndices=_all("vi"), SetTargetShapeVertexIndices=_set_indices("vi"),
    TargetShapeVertexPositions=_all("vp"),
    SetTargetShapeVertexPositions=_set_vectors("vp", "3v"),
    TargetWeightScale=_first("ts", "float"), SetTargetWeightScale=_set_one("ts", "f"))

Skeleton = _typed(
    "Skeleton", 0x6C656B73, "Bones, IK handles and constraints.",
    Bones=_children("Bone"), CreateBone=_create("Bone"),
    IKHandles=_children("IKHandle"), CreateIKHandle=_create("IKHandle"),
    Constraints=_children("Constraint"), CreateConstraint=_create("Constraint"))


def _parent_index(self) -> int:
    """The parent bone's index; -1 (a root bone) when absent or stored as 0xFFFFFFFF."""
    prop = self.properties.get("p")
    if prop is None:
        return -1
    index = int(prop.values[0]) & 0xFFFFFFFF
    return index - (1 << 32) if index >= (1 << 31) else index


def _set_parent_index(self, index: int) -> None:
    """The parent bone's index; a negative index is stored as its 32-bit two's complement."""
    self.CreateProperty("p", "i").values = [index % (1 << 32) if index < 0 else index]


Bone = _typed(
    "Bone", 0x656E6F62, "A bone: parent index, local and world transforms and scale.",
    **_name(),
    ParentIndex=_parent_index, SetParentIndex=_set_parent_index,
    SegmentScaleCompensate=_flag("ssc", True), SetSegmentScaleCompensate=_set_flag("ssc"),
    LocalPosition=_all("lp"), SetLocalPosition=_set_list("lp", "3v"),
    LocalRotation=_all("lr"), SetLocalRotation=_set_list("lr", "4v"),
    WorldPosition=_all("wp"), SetWorldPosition=_set_list("wp", "3v"),
    WorldRotation=_all("wr"), SetWorldRotation=_set_list("wr", "4v"),
    Scale=_all("s"), SetScale=_set_list("s", "3v"))

IKHandle = _typed(
    "IKHandle", 0x64686B69, "An IK chain between bones of the same skeleton.",
    **_name(),
    StartBone=_linked("sb", "parent", "Bone"), SetStartBone=_set_one("sb", "l"),
    EndBone=_linked("eb", "parent", "Bone"), SetEndBone=_set_one("eb", "l"),
    TargetBone=_linked("tb", "parent", "Bone"), SetTargetBone=_set_one("tb", "l"),
    TargetOffset=_all("to"), SetTargetOffset=_set_list("to", "3v"),
    PoleVectorBone=_linked("pv", "parent", "Bone"), SetPoleVectorBone=_set_one("pv", "l"),
    PoleBone=_linked("pb", "parent", "Bone"), SetPoleBone=_set_one("pb", "l"),
    UseTargetRotation=_flag("tr", False), SetUseTargetRotation=_set_flag("tr"))


def _set_custom_offset(self, offset: Sequence[float]) -> None:
    """A translation (3 values, "3v") or rotation (4 values, "4v"); other lengths are ignored."""
    offset = list(offset)
    if len(offset) in (3, 4):
        self.CreateProperty("co", "%dv" % len(offset)).values = offset


Constraint = _typed(
    "Constraint", 0x74736E63, "A constraint of one bone to another.",
    **_name(),
    ConstraintType=_first("ct", "str"), SetConstraintType=_set_one("ct", "s"),
    ConstraintBone=_linked("cb", "parent", "Bone"), SetConstraintBone=_set_one("cb", "l"),
    TargetBone=_linked("tb", "parent", "Bone"), SetTargetBone=_set_one("tb", "l"),
    MaintainOffset=_flag("mo", False), SetMaintainOffset=_set_flag("mo"),
    CustomOffset=_all("co"), SetCustomOffset=_set_custom_offset,
    Weight=_first("wt", "float", 1.0), SetWeight=_set_one("wt", "f"),
    SkipX=_flag("sx", False), SetSkipX=_set_flag("sx"),
    SkipY=_flag("sy", False), SetSkipY=_set_flag("sy"),
    SkipZ=_flag("sz", False), SetSkipZ=_set_flag("sz"))


def _slots(self) -> dict[str, Optional[CastNode]]:
    """Every property except "n" and "t", as {slot: the child node its hash names, or None}."""
    return {slot: self.ChildByHash(prop.values[0])
            for slot, prop in self.properties.items() if slot not in ("n", "t")}


def _set_slot(self, slot: str, hash: int) -> None:
    """Slot `slot` names the child with this hash."""
    self.CreateProperty(slot, "l").values = [hash]


Material = _typed(
    "Material", 0x6C74616D, "A material: slots naming its File and Color children.",
    **_name(),
    Type=_first("t", "str"), SetType=_set_one("t", "s"),
    Slots=_slots, SetSlot=_set_slot, CreateFile=_create("File"))

File = _typed(
    "File", 0x656C6966, "A reference to an external file.",
    Path=_first("p", "str"), SetPath=_set_one("p", "s"))

Color = _typed(
    "Color", 0x726C6F63, "A constant rgba colour.",
    **_name(),
    ColorSpace=_first("cs", "str", "srgb"), SetColorSpace=_set_one("cs", "s"),
    Rgba=_all("rgba"), SetRgba=_set_list("rgba", "4v"))

Instance = _typed(
    "Instance", 0x74736E69, "A placed instance of another Cast scene.",
    **_name(), **_transform(),
    ReferenceFile=_linked("rf", "self", "File"), SetReferenceFile=_set_one("rf", "l"))

Metadata = _typed(
    "Metadata", 0x6174656D, "Scene metadata: author, software, up axis and scene root.",
    Author=_first("a", "str"), SetAuthor=_set_one("a", "s"),
    Software=_first("s", "str"), SetSoftware=_set_one("s", "s"),
    UpAxis=_first("up", "str"), SetUpAxis=_set_one("up", "s"),
    SceneRoot=_first("sr", "str"), SetSceneRoot=_set_one("sr", "s"))

typeSwitcher: dict[Optional[int], type[CastNode]] = {None: CastNode}
typeSwitcher.update((kind.ID, kind) for kind in (
    Root, Model, Mesh, Hair, BlendShape, Skeleton, Animation, Curve, CurveModeOverride,
    NotificationTrack, Bone, IKHandle, Constraint, Material, File, Color, Instance, Metadata))

# The type of a loaded property by castkit's type name (one shared object per type).
_LOADED_TYPES = {name: CastProperty_t({"v2": "2v", "v3": "3v", "v4": "4v"}.get(name, name))
                 for name in ("b", "h", "i", "l", "f", "d", "s", "v2", "v3", "v4")}


class Cast:
    """A Cast file: a list of root nodes."""

    __slots__ = ("rootNodes",)
    rootNodes: list[Root]

    def __init__(self) -> None:
        self.rootNodes = []

    def Roots(self) -> list[Root]:
        """The root nodes (a new list)."""
        return list(self.rootNodes)

    def CreateRoot(self) -> Root:
        """Appends a new root node and returns it."""
        root = Root()
        self.rootNodes.append(root)
        return root

    @staticmethod
    def load(path: _Path) -> Cast:
        """Reads a Cast file. The file is read into memory and numeric values view it; each node
        read takes one value of the hash counter, as in cast.py. Raises castkit.Error for a
        malformed file."""
        if not os.path.isfile(path):
            raise Exception("castkit.cast: cannot open %s for reading" % os.fspath(path))
        cast = Cast()
        global castHashBase
        document = _castkit.open(path, "cast")
        # The nodes are made in C++, as cast.py makes them (__new__, no __init__): a repeated
        # property name keeps its first place and its last value, as in cast.py's dict.
        cast.rootNodes, made = _castkit.cast_tree(document, typeSwitcher, CastNode, CastProperty,
                                                  _LOADED_TYPES)
        castHashBase += made  # each node read takes one value of the counter, as in cast.py
        return cast

    def save(self, path: _Path) -> None:
        """Writes every root to `path` with cast.py's byte layout: into a temporary file beside
        it, renamed over `path` once whole, so that a save that fails (a value a type cannot
        hold) leaves the old file, and values loaded from it, as they were."""
        def write(file):
            file.write(struct.pack("<IIII", 0x74736163, 1, len(self.rootNodes), 0))
            for root in self.rootNodes:
                root.save(file)
        _files.replace(path, write)

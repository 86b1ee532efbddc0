"""Shared helpers for the castkit Python tests: where the checkout and the CLI are, and the CLI's
own answers (dump --json, pose --json, validate --json) to compare the module with.

CTest sets PYTHONPATH to the build's python/ folder and CASTKIT_CLI to the castkit program
(tests/CMakeLists.txt); run by hand:
    PYTHONPATH=build/python CASTKIT_CLI=build/tools/castkit/castkit \\
        /usr/bin/python3 -m pytest -q -p no:cacheprovider tests/python
"""

import json
import math
import os
import pathlib
import subprocess

import numpy as np
import pytest

SOURCE = pathlib.Path(os.environ.get("CASTKIT_SOURCE_DIR", pathlib.Path(__file__).resolve().parents[2]))
EXAMPLES = SOURCE / "examples" / "data"
FIXTURES = SOURCE / "tests" / "fixtures"
REFERENCE = FIXTURES / "cast" / "reference"
EDGE = FIXTURES / "cast" / "edge"
GLTF = FIXTURES / "gltf"

EXAMPLE_FILES = sorted(EXAMPLES.glob("*.cast"))
REFERENCE_FILES = sorted(REFERENCE.glob("*.cast"))


def cli_path():
    path = os.environ.get("CASTKIT_CLI", str(SOURCE / "build" / "tools" / "castkit" / "castkit"))
    return path if os.path.exists(path) else None


@pytest.fixture(scope="session")
def cli():
    """Runs the castkit CLI; returns (exit code, stdout, stderr)."""
    path = cli_path()
    if path is None:
        pytest.skip("the castkit CLI is not built (set CASTKIT_CLI)")

    def run(*args, check=True):
        result = subprocess.run([path, *map(str, args)], capture_output=True, text=True, errors="replace")
        if check and result.returncode != 0:
            raise AssertionError(f"castkit {' '.join(map(str, args))} failed: {result.stderr}")
        return result.returncode, result.stdout, result.stderr

    return run


@pytest.fixture(scope="session")
def dump_json(cli):
    """The CLI's `dump --json` of a file (any format), parsed."""
    def dump(path, fmt=None):
        args = ["dump", "--json", path] + (["--from", fmt] if fmt else [])
        return json.loads(cli(*args)[1])
    return dump


def expected_array(prop):
    """A dump-schema property's values as the numpy array castkit.Node[...] gives."""
    kind = prop["type"]
    values = [float(v) if isinstance(v, str) else v for v in prop["values"]]  # "nan", "inf"
    if kind in ("b", "h", "i", "l"):
        dtype = {"b": np.uint8, "h": np.uint16, "i": np.uint32, "l": np.uint64}[kind]
        if kind == "i":  # a Bone's parent is dumped signed: -1 is the stored 0xFFFFFFFF
            return np.array(values, dtype=np.int64).astype(dtype)
        return np.array(values, dtype=dtype)
    if kind == "d":
        return np.array(values, dtype=np.float64)
    if kind == "f":
        return np.array(values, dtype=np.float32)
    width = int(kind[1])
    flat = [float(x) if isinstance(x, str) else x for row in values for x in row] if values and isinstance(values[0], list) else values
    return np.array(flat, dtype=np.float32).reshape(-1, width)


def assert_same_tree(node, expected, where="root"):
    """A castkit.Node (and its children) against a node of the dump schema, value by value."""
    assert node.kind == expected["id"] or (node.kind is None and int(expected["id"], 0) == node.id), where
    assert node.hash == int(expected["hash"], 16), where
    names = [p["name"] for p in expected["properties"]]
    assert node.properties == names, where
    # Only the last property of a name is reachable by name (rule 7).
    last = {p["name"]: p for p in expected["properties"]}
    for name, prop in last.items():
        got = node.property(name)
        assert got.type == prop["type"], f"{where}/{name}"
        assert got.count == len(prop["values"]) or prop["type"] == "s", f"{where}/{name}"
        if prop["type"] == "s":
            assert got.values == prop["values"], f"{where}/{name}"
            continue
        want = expected_array(prop)
        values = node[name]
        assert values.dtype == want.dtype, f"{where}/{name}"
        assert values.shape == want.shape, f"{where}/{name}"
        assert values.flags.writeable is False
        np.testing.assert_array_equal(values, want, err_msg=f"{where}/{name}")
    assert len(node.children) == len(expected["children"]), where
    for i, (child, want) in enumerate(zip(node.children, expected["children"])):
        assert_same_tree(child, want, f"{where}/{want['id']}[{i}]")


def assert_same_document(doc, expected):
    assert doc.version == expected["version"]
    assert doc.flags == expected["flags"]
    assert len(doc.roots) == len(expected["roots"])
    for i, (root, want) in enumerate(zip(doc.roots, expected["roots"])):
        assert_same_tree(root, want, f"root[{i}]")


def close(a, b, tolerance=1e-5):
    return all(math.isclose(x, y, rel_tol=tolerance, abs_tol=tolerance) for x, y in zip(a, b))

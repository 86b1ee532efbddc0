"""Bytes read without a folder resolve no side files (docs/security.md, "What castkit reads"):
a service converting uploads with castkit.read(data) returned its own .env inside the output,
because the buffer an uploaded .gltf named was looked for in the working folder."""

import json

import pytest

import castkit

SECRET = b"API_KEY=hunter2-and-36-bytes-of-it!!"  # 36 bytes: three float positions


def gltf_naming(uri):
    return json.dumps({
        "asset": {"version": "2.0"},
        "buffers": [{"uri": uri, "byteLength": len(SECRET)}],
        "bufferViews": [{"buffer": 0, "byteLength": len(SECRET)}],
        "accessors": [{"bufferView": 0, "componentType": 5126, "count": 3, "type": "VEC3",
                       "min": [-1e30] * 3, "max": [1e30] * 3}],
        "meshes": [{"primitives": [{"attributes": {"POSITION": 0}}]}],
        "nodes": [{"mesh": 0}],
        "scenes": [{"nodes": [0]}],
        "scene": 0,
    }).encode()


def test_bytes_without_a_base_read_no_file_of_the_working_folder(tmp_path, monkeypatch):
    (tmp_path / ".env").write_bytes(SECRET)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(castkit.Error) as refused:
        castkit.read(gltf_naming(".env"), "gltf", name="upload.gltf")
    assert "no folder" in str(refused.value)
    assert "base=" in str(refused.value)


def test_bytes_with_a_base_read_the_files_named_there(tmp_path, monkeypatch):
    (tmp_path / ".env").write_bytes(SECRET)
    monkeypatch.chdir(tmp_path.parent)
    doc = castkit.read(gltf_naming(".env"), "gltf", name="upload.gltf", base=tmp_path)
    assert doc.models[0].meshes[0].positions.tobytes() == SECRET

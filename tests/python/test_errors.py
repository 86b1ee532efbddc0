"""Bad input: every error is a castkit.Error (a ValueError) naming the file, the byte offset
and the node path, the same words the CLI prints; nothing malformed crashes the interpreter."""

import os
import subprocess
import sys

import pytest

import castkit
from conftest import EDGE, EXAMPLES, GLTF, REFERENCE, SOURCE

EXPECT = dict(line.split("\t", 1) for line in (EDGE / "EXPECT.tsv").read_text().splitlines() if line)
FAILING = sorted(name for name, outcome in EXPECT.items() if outcome.startswith("error"))


def test_error_is_a_value_error_with_the_diagnostic():
    assert issubclass(castkit.Error, ValueError)
    with pytest.raises(castkit.Error) as caught:
        castkit.open(EDGE / "truncated.cast")
    error = caught.value
    assert error.file == str(EDGE / "truncated.cast")
    assert error.offset == 0xAA
    assert error.path == "root[0]/model[0]/mesh[0]"
    assert error.rule == error.id == "cast.truncated"
    assert error.severity == "error"
    assert "truncated" in error.message
    assert str(error) == f"{error.file}: offset 0xaa: root[0]/model[0]/mesh[0]: {error.message} [cast.truncated]"
    assert isinstance(error.diagnostic, castkit.Diagnostic)
    assert error.diagnostic.offset == 0xAA and str(error.diagnostic) == str(error)


@pytest.mark.parametrize("name", FAILING)
def test_edge_files_fail_as_the_cli_says(name, cli):
    path = EDGE / name
    with pytest.raises(castkit.Error) as caught:
        castkit.open(path)
    code, _, err = cli("info", path, check=False)
    assert code == 1
    assert str(caught.value) in err.splitlines()  # the same words as the CLI
    assert caught.value.file == str(path)
    # From bytes too, named as asked.
    with pytest.raises(castkit.Error) as caught:
        castkit.read(path.read_bytes(), name="mem.cast")
    assert caught.value.file in ("mem.cast", "")


def test_files_that_cannot_be_opened_raise():
    with pytest.raises(castkit.Error) as caught:
        castkit.open(EXAMPLES / "missing.cast")
    assert "missing.cast" in str(caught.value)
    with pytest.raises(castkit.Error):
        castkit.open(EXAMPLES)  # a folder
    with pytest.raises(TypeError):
        castkit.read("not bytes")
    with pytest.raises(castkit.Error):
        castkit.read(b"")


def test_a_required_unknown_gltf_extension_is_refused():
    with pytest.raises(castkit.Error) as caught:
        castkit.open(GLTF / "required_unknown.gltf")
    assert caught.value.rule.startswith("gltf")


def make_inputs(tmp_path):
    """One small file per format, written by castkit itself."""
    character = castkit.open(EXAMPLES / "character.cast")
    wave = castkit.open(EXAMPLES / "wave.cast")
    specs = []
    for fmt, doc in [("cast", character), ("semodel", character), ("seanim", wave),
                     ("k3d", character), ("dmf", character), ("dmf-json", character),
                     ("glb", character), ("gltf", wave)]:
        path = tmp_path / f"input.{fmt}"
        path.write_bytes(doc.to_bytes(fmt, textures="reference"))
        specs.append(f"{fmt}={path}")
    specs.append(f"cast={EXAMPLES / 'scene.cast'}")
    specs.append(f"glb={GLTF / 'skinned.glb'}")
    specs.append(f"cast={REFERENCE / 'gen_7_7.cast'}")  # every property type, unknown node ids
    return specs


def test_malformed_input_never_crashes(tmp_path):
    """Every format truncated at every offset, bytes changed, noise: castkit.Error or a document
    that survives every getter, validation and a rewrite. Run in a child process so a crash
    shows as a failure with its signal."""
    worker = os.path.join(os.path.dirname(__file__), "malformed_worker.py")
    result = subprocess.run([sys.executable, worker, "14", *make_inputs(tmp_path)],
                            capture_output=True, text=True, timeout=540)
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    lines = result.stdout.splitlines()
    assert len(lines) == 11
    for line in lines:
        assert "refused" in line


FUZZ = SOURCE / "fuzz"
# The fuzz harnesses of the readers, and the format each reads.
FUZZ_READERS = {"cast": "cast", "seanim": "seanim", "semodel": "semodel", "dmf": "dmf",
                "dmf_json": "dmf-json", "k3d": "k3d", "glb": "glb", "gltf": "gltf"}


def test_the_fuzz_corpus_never_crashes_python():
    """Every seed and every stored reproducer of the reader fuzzers, through castkit.read in a
    child process: castkit.Error or a document that survives every getter and a rewrite."""
    specs = []
    for harness, fmt in FUZZ_READERS.items():
        for folder in (FUZZ / "corpus" / harness, FUZZ / "regressions" / harness):
            if folder.is_dir():
                specs.append(f"{fmt}={folder}")
    worker = os.path.join(os.path.dirname(__file__), "malformed_worker.py")
    result = subprocess.run([sys.executable, worker, "--corpus", *specs],
                            capture_output=True, text=True, timeout=540)
    assert result.returncode == 0, f"exit {result.returncode}\n{result.stdout}\n{result.stderr}"
    lines = result.stdout.splitlines()
    assert len(lines) == len(specs)
    assert sum(int(line.split(": ")[1].split()[0]) for line in lines) >= 250  # seeds read

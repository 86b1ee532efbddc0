"""A file that changes after castkit read it cannot hurt the interpreter, and holding a document
costs other programs nothing (docs/security.md, "Files that change while castkit holds them"):
the module reads each file into memory once and closes it. No mapping, no lease, no signal
handler, no descriptor kept: another program may cut the file short however it likes (a crash
here would be SIGBUS), write it at once, and the process may fork or hold thousands of documents.
Each case runs in its own process, so a failure kills that process and not the test run."""

import shutil
import subprocess
import sys
import textwrap

import numpy as np
import pytest

import castkit

# Opens the file, does the damage sys.argv[3] names, then reads every array of every model and
# prints their sums, which must be those of an untouched copy.
WORKER = textwrap.dedent(
    """
    import os, subprocess, sys, time
    import numpy as np
    import castkit

    def sums(doc):
        out = []
        for model in doc.models:
            for mesh in model.meshes:
                for name in mesh.properties:
                    values = mesh[name]
                    if isinstance(values, np.ndarray):
                        out.append(float(values.astype(np.float64).sum()))
        return out

    def mapped(path):
        with open("/proc/self/maps") as maps:
            return any(line.rstrip().endswith(os.path.realpath(path)) for line in maps)

    def caught_signals():
        with open("/proc/self/status") as status:
            return next(line for line in status if line.startswith("SigCgt:"))

    def open_descriptors():
        return len(os.listdir("/proc/self/fd"))

    path, untouched, how = sys.argv[1], sys.argv[2], sys.argv[3]
    signals, descriptors = caught_signals(), open_descriptors()
    doc = castkit.open(path)
    assert not mapped(path), "the file should be read, not mapped"
    assert caught_signals() == signals, "castkit.open installed a signal handler"
    assert open_descriptors() == descriptors, "castkit.open kept a descriptor"
    if how == "truncate":
        os.truncate(path, 3)
    elif how == "rewrite":  # as cast.py's Cast.save does: open("wb") and write
        with open(path, "wb") as f:
            f.write(b"abc")
    elif how == "other-process":  # another program opens it read-only with O_TRUNC
        subprocess.run([sys.executable, "-c",
                        "import os, sys; os.close(os.open(sys.argv[1], os.O_RDONLY | os.O_TRUNC))",
                        path], check=True, timeout=60)
    elif how == "fork":  # a forked child holds the document while another program writes
        reader, writer = os.pipe()
        child = os.fork()
        if child == 0:
            os.read(reader, 1)
            os._exit(0 if sums(doc) == sums(castkit.open(untouched)) else 1)
        start = time.monotonic()
        subprocess.run(["sh", "-c", 'printf abc > "$0"', path], check=True, timeout=60)
        waited = time.monotonic() - start
        assert waited < 5, f"a writer waited {waited:.1f} s for the file"
        os.write(writer, b"x")
        assert os.waitpid(child, 0)[1] == 0, "the child's values changed"
    assert os.path.getsize(path) <= 3, "the file should have been cut short"
    got = sums(doc)
    expected = sums(castkit.open(untouched))
    assert got == expected and got, (got, expected)
    print("ok", len(got))
    """
)

# Holds 1,500 documents under a limit of 256 descriptors, then opens a file as any program would.
MANY = textwrap.dedent(
    """
    import resource, sys
    import castkit
    resource.setrlimit(resource.RLIMIT_NOFILE, (256, 256))
    held = [castkit.open(sys.argv[1]) for _ in range(1500)]
    with open(sys.argv[1], "rb") as file:
        file.read(1)
    print("ok", len(held))
    """
)


def large_model(path):
    """A Cast file of many pages: after truncation, touching a mapping of it would fault."""
    doc = castkit.Document()
    mesh = doc.add_root().add_model().add_mesh()
    count = 100_000
    positions = np.arange(count * 3, dtype=np.float32).reshape(count, 3)
    mesh.set_positions(positions)
    mesh.set_faces(np.arange(count - count % 3, dtype=np.uint32).reshape(-1, 3))
    assert doc.write(path) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self")
@pytest.mark.parametrize("how", ["truncate", "rewrite", "other-process", "fork"])
def test_an_open_document_survives_its_file_being_truncated(tmp_path, how):
    path = tmp_path / "large.cast"
    untouched = tmp_path / "untouched.cast"
    large_model(path)
    shutil.copyfile(path, untouched)
    assert path.stat().st_size > 1_000_000
    result = subprocess.run([sys.executable, "-c", WORKER, str(path), str(untouched), how],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, (result.returncode, result.stderr)
    assert result.stdout.startswith("ok ")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="sets RLIMIT_NOFILE")
def test_held_documents_keep_no_descriptor(tmp_path):
    path = tmp_path / "triangle.cast"
    doc = castkit.Document()
    doc.add_root().add_model().add_mesh().set_positions(np.zeros((3, 3), dtype=np.float32))
    assert doc.write(path) == []
    result = subprocess.run([sys.executable, "-c", MANY, str(path)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, (result.returncode, result.stderr)
    assert result.stdout.strip() == "ok 1500"

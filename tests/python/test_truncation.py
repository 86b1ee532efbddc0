"""A file that shrinks after castkit read it cannot kill the interpreter (docs/security.md, "Files
that change while castkit holds them"): the module reads files into memory, so arrays keep the
values read, whatever happens to the file. Each case runs in its own process: on failure the
process dies of SIGBUS rather than the test run."""

import shutil
import subprocess
import sys
import textwrap

import numpy as np

import castkit

# Opens the file, truncates it to 3 bytes, then reads every array of every model and prints
# their sums, which must be those of an untouched copy.
WORKER = textwrap.dedent(
    """
    import os, sys
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

    path, untouched = sys.argv[1], sys.argv[2]
    doc = castkit.open(path)
    os.truncate(path, 3)
    assert os.path.getsize(path) == 3
    got = sums(doc)
    expected = sums(castkit.open(untouched))
    assert got == expected and got, (got, expected)
    print("ok", len(got))
    """
)


def large_model(path):
    """A Cast file of many pages: after truncation, touching a mapping of it faults (SIGBUS)."""
    doc = castkit.Document()
    mesh = doc.add_root().add_model().add_mesh()
    count = 100_000
    positions = np.arange(count * 3, dtype=np.float32).reshape(count, 3)
    mesh.set_positions(positions)
    mesh.set_faces(np.arange(count - count % 3, dtype=np.uint32).reshape(-1, 3))
    assert doc.write(path) == []


def test_an_open_document_survives_its_file_being_truncated(tmp_path):
    path = tmp_path / "large.cast"
    untouched = tmp_path / "untouched.cast"
    large_model(path)
    shutil.copyfile(path, untouched)
    assert path.stat().st_size > 1_000_000
    result = subprocess.run([sys.executable, "-c", WORKER, str(path), str(untouched)],
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, (result.returncode, result.stderr)
    assert result.stdout.startswith("ok ")

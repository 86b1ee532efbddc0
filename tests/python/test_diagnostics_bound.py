"""Warnings stay bounded in Python as in the CLI (docs/diagnostics.md, "How many are kept"): the
first few of each kind, then one Diagnostic "... and N more" with the exact count."""

import struct

import castkit

ROOTS = 40000
KEPT = 5
RULE = "cast.unknown-property-type"


def unknown_types(roots):
    """A Cast file of `roots` Roots, each with one property of the unknown type 0x7171."""
    out = bytearray(b"cast" + struct.pack("<III", 1, roots, 0))
    for i in range(roots):
        out += struct.pack("<IIQII", 0x746F6F72, 32, i + 1, 1, 0)  # "root", 32 bytes, hash
        out += struct.pack("<HHI", 0x7171, 0, 0)
    return bytes(out)


def assert_bounded(warnings, name):
    assert [w.rule for w in warnings] == [RULE] * (KEPT + 1)
    assert [w.path for w in warnings[:KEPT]] == [f"root[{i}]" for i in range(KEPT)]
    summary = warnings[-1]
    assert summary.message == f"... and {ROOTS - KEPT} more"
    assert summary.severity == "warning" and summary.file == name


def test_read_keeps_the_first_few_of_a_kind_and_counts_the_rest():
    doc = castkit.read(unknown_types(ROOTS), name="many.cast")
    assert_bounded(doc.warnings, "many.cast")
    assert len(doc.roots) == ROOTS


def test_validate_and_convert_count_the_rest(tmp_path):
    path = tmp_path / "many.cast"
    path.write_bytes(unknown_types(ROOTS))
    assert_bounded(castkit.validate(path), str(path))
    assert_bounded(castkit.convert(path, tmp_path / "out.cast"), str(path))

"""castkit.validate against `castkit validate --json`: the same findings, field by field, for
every format castkit reads."""

import json

import pytest

import castkit
from conftest import EDGE, EXAMPLES, EXAMPLE_FILES, REFERENCE_FILES

# The examples of every other format (examples/data/hero/): read by their own readers, then
# checked against the Cast rules, as `castkit validate` does.
OTHER_FORMATS = sorted(p for p in (EXAMPLES / "hero").iterdir()
                       if p.suffix in (".seanim", ".semodel", ".k3d", ".dmf", ".json", ".glb", ".gltf"))
FILES = sorted(EDGE.glob("*.cast")) + EXAMPLE_FILES + REFERENCE_FILES + OTHER_FORMATS


def cli_findings(cli, path, strict=False):
    args = ["validate", "--json", path] + (["--strict"] if strict else [])
    _, out, _ = cli(*args, check=False)
    [report] = json.loads(out)["files"]
    return report["diagnostics"]


def as_dicts(diagnostics):
    return [{k: d.to_dict()[k] for k in ("severity", "rule", "path", "offset", "message")}
            for d in diagnostics]


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_findings_are_the_cli_findings(path, cli):
    for strict in (False, True):
        want = cli_findings(cli, path, strict)
        got = castkit.validate(path, strict=strict)
        assert all(isinstance(d, castkit.Diagnostic) for d in got)
        assert as_dicts(got) == want
        assert all(d.file == str(path) for d in got)
        try:
            doc = castkit.open(path)
        except castkit.Error:
            continue
        assert as_dicts(castkit.validate(doc, strict=strict)) == want
        assert as_dicts(doc.validate(strict=strict)) == want


def test_edge_findings_name_rule_offset_and_path():
    [finding] = castkit.validate(EDGE / "non-root-top.cast")
    assert (finding.severity, finding.rule, finding.id) == ("error", "structure.top-level", "structure.top-level")
    assert (finding.offset, finding.path) == (0x10, "model[0]")
    [finding] = castkit.validate(EDGE / "truncated.cast")
    # The reader's own id, as castkit.open raises it and castkit validate reports it.
    assert finding.rule == "cast.truncated" and finding.severity == "error"
    assert finding.offset == 0xAA and finding.path == "root[0]/model[0]/mesh[0]"
    [finding] = castkit.validate(EDGE / "nodesize-too-small.cast")
    assert finding.severity == "warning" and finding.offset == 20
    assert castkit.validate(EDGE / "triangle.cast") == []


def test_a_file_that_cannot_be_read_is_one_finding(tmp_path):
    [finding] = castkit.validate(tmp_path / "missing.cast")
    assert finding.severity == "error" and "missing.cast" in str(finding)
    [finding] = castkit.validate(tmp_path / "missing.xyz")
    assert finding.severity == "error" and "missing.xyz" in str(finding)
    (tmp_path / "notes.xyz").write_text("not a model")
    [finding] = castkit.validate(tmp_path / "notes.xyz")
    assert "cannot tell the format from the extension or the contents" in finding.message


def test_an_unknown_extension_is_read_as_its_bytes_say(tmp_path, cli):
    for name in ("hero.glb", "hero.dmf.json", "hero_walk.seanim"):
        renamed = tmp_path / (name + ".download")
        renamed.write_bytes((EXAMPLES / "hero" / name).read_bytes())
        assert castkit.open(renamed).format == castkit.open(EXAMPLES / "hero" / name).format
        assert as_dicts(castkit.validate(renamed)) == cli_findings(cli, renamed)


def test_the_rule_table_is_the_cli_table(cli):
    rules = castkit.validation_rules()
    table = cli("validate", "--list-rules")[1]
    assert len(rules) == table.count("\n| `")
    for rule_id, severity, meaning in rules:
        assert f"| `{rule_id}` | {severity} | {meaning} |" in table


def test_diagnostics_compare_and_print():
    a = castkit.validate(EDGE / "non-root-top.cast")
    b = castkit.validate(EDGE / "non-root-top.cast")
    assert a == b and a[0] != "text"
    assert repr(a[0]).startswith("<castkit.Diagnostic error: ")
    assert str(a[0]).endswith("[structure.top-level]")

"""Crops and filters for maps in Python (issue 59, item 4): Document.select_instances,
castkit.convert and castkit.batch take within=, box=, include= and exclude= as `castkit convert
--within/--box/--include/--exclude` do, and refuse what cannot be meant with ValueError."""

import re

import numpy as np
import pytest

import castkit
import castkit.__main__
import castkit.batch


def write_map(folder):
    """A row of 10 Instances 100 apart on x: "rock_N" of models/rock.cast at even N, else
    "tree_N" of models/tree.cast; the model files beside it."""
    (folder / "models").mkdir(parents=True)
    for name in ("rock", "tree"):
        model = castkit.Document()
        mesh = model.add_root().add_model().add_mesh()
        mesh.set_positions(np.array([[0, 0, 0], [1, 0, 0], [0, 1, 0]], np.float32))
        mesh.set_faces(np.array([0, 1, 2], np.uint32))
        model.write(folder / "models" / f"{name}.cast")
    document = castkit.Document()
    root = document.add_root()
    for i in range(10):
        model = "rock" if i % 2 == 0 else "tree"
        instance = root.add_instance()
        instance.name = f"{model}_{i}"
        instance.set_reference_file(instance.add_file(f"models/{model}.cast"))
        instance.position = (100.0 * i, 0.0, 0.0)
    path = folder / "map.cast"
    document.write(path)
    return path


def names(path):
    document = castkit.open(path)
    return sorted(i.name for root in document.root_nodes for i in root.instances)


def test_select_instances_keeps_the_sphere_and_the_globs(tmp_path):
    document = castkit.open(write_map(tmp_path))
    found = []
    kept, removed = document.select_instances(within=(0, 0, 0, 250), exclude=["tree"],
                                              warnings=found)
    assert (kept, removed) == (2, 8)
    assert sorted(i.name for i in document.root_nodes[0].instances) == ["rock_0", "rock_2"]
    assert [d.rule for d in found] == ["scene.instances-selected"]
    assert "kept 2 of 10 instances, removed 8" in str(found[0])


def test_convert_crops_before_it_writes(tmp_path):
    out = tmp_path / "out.cast"
    warnings = castkit.convert(write_map(tmp_path), out, box=(150, -1, -1, 450, 1, 1),
                               include=["TREE_*"])
    assert names(out) == ["tree_3"]
    assert any(d.rule == "scene.instances-selected" for d in warnings)


def test_batch_crops_every_map(tmp_path):
    write_map(tmp_path / "in")
    run = castkit.batch.convert(tmp_path / "in", tmp_path / "out", "cast", jobs=1, quiet=True,
                                recursive=True, within=(900, 0, 0, 100))
    assert run.exit_code == 0
    assert names(tmp_path / "out" / "map.cast") == ["rock_8", "tree_9"]


@pytest.mark.parametrize("options, words", [
    ({"within": (0, 0, 0)}, "within takes (x, y, z, radius) (4 numbers)"),
    ({"within": (0, 0, 0, -1)}, "within: the radius -1 is negative"),
    ({"box": (0, 0, 0, 1, 1, "x")}, "box takes (x0, y0, z0, x1, y1, z1) (6 numbers)"),
    ({"box": (5, 0, 0, 1, 1, 1)}, "box: the minimum 5 on x exceeds the maximum 1"),
    ({"include": ["[ab"]}, "include: the glob '[ab' opens a set"),
])
def test_what_cannot_be_meant_is_a_value_error(tmp_path, options, words):
    path = write_map(tmp_path)
    with pytest.raises(ValueError, match=re.escape(words)):
        castkit.open(path).select_instances(**options)
    with pytest.raises(ValueError):
        castkit.convert(path, tmp_path / "out.cast", **options)
    with pytest.raises(ValueError):
        castkit.batch.convert(tmp_path, tmp_path / "out", "cast", jobs=1, quiet=True, **options)
    assert not (tmp_path / "out.cast").exists()


def test_the_module_command_takes_the_crop_options(tmp_path, capsys):
    write_map(tmp_path / "in")
    assert castkit.__main__.main(["convert", str(tmp_path / "in"), "-o", str(tmp_path / "out"),
                                  "--to", "cast", "-r", "-q", "-j", "1",
                                  "--box=-1,-1,-1,350,1,1",  # '=': argparse reads -1 as an option
                                  "--exclude", "rock_2"]) == 0
    assert names(tmp_path / "out" / "map.cast") == ["rock_0", "tree_1", "tree_3"]
    assert castkit.__main__.main(["convert", str(tmp_path / "in"), "-o", str(tmp_path / "o2"),
                                  "--to", "cast", "--within", "0,0,0,-1"]) == 2
    assert "convert: within: the radius -1 is negative" in capsys.readouterr().err
    with pytest.raises(SystemExit):  # argparse: exit 2 with the words
        castkit.__main__.main(["convert", str(tmp_path / "in"), "-o", str(tmp_path / "o2"),
                               "--to", "cast", "--within", "0,0,0"])
    assert "takes X,Y,Z,R (4 numbers, commas between), not '0,0,0'" in capsys.readouterr().err

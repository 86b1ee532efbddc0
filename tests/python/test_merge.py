"""castkit.merge: a model and its animations as one scene, the same as `castkit convert model
anim... -o out` writes, leaving the documents it was given unchanged."""

import numpy as np
import pytest

import castkit

from conftest import EXAMPLES

CHARACTER = EXAMPLES / "character.cast"
WAVE = EXAMPLES / "wave.cast"


def test_merge_writes_what_castkit_convert_writes(cli, tmp_path):
    expected = tmp_path / "cli.cast"
    cli("convert", CHARACTER, WAVE, "-o", expected)
    merged = castkit.merge(CHARACTER, WAVE)
    assert merged.to_bytes() == expected.read_bytes()


def test_merge_of_other_formats_matches_the_cli(cli, tmp_path):
    model, move = tmp_path / "hero.semodel", tmp_path / "walk.seanim"
    cli("convert", CHARACTER, model)
    cli("convert", WAVE, move)
    expected = tmp_path / "cli.glb"
    cli("convert", model, move, "-o", expected)
    merged = castkit.merge(model, move)
    assert [a.name for a in merged.animations] == ["walk"]
    assert merged.to_bytes("glb") == expected.read_bytes()


def test_merge_leaves_its_inputs_unchanged_and_shares_their_arrays():
    model, animation = castkit.open(CHARACTER), castkit.open(WAVE)
    before = model.to_bytes()
    merged = castkit.merge(model, animation, animation)
    assert [a.name for a in merged.animations] == ["wave", "wave_2"]
    assert model.to_bytes() == before and len(model.animations) == 0
    assert len(animation.animations) == 1
    positions = merged.models[0].meshes[0].positions
    assert np.shares_memory(positions, model.models[0].meshes[0].positions)
    del model, animation
    assert positions.sum() == pytest.approx(merged.models[0].meshes[0].positions.sum())


def test_unnamed_animations_take_their_file_stem(tmp_path):
    # SEAnim holds no animation name; DMF JSON holds one ("wave"), which it keeps.
    unnamed, named = tmp_path / "run.seanim", tmp_path / "walk.dmf.json"
    castkit.convert(WAVE, unnamed)
    castkit.convert(WAVE, named)
    merged = castkit.merge(CHARACTER, unnamed, castkit.open(unnamed), named, warnings=[])
    assert [a.name for a in merged.animations] == ["run", "run_2", "wave"]


def test_an_animation_that_matches_nothing_raises(tmp_path):
    with pytest.raises(castkit.Error) as error:
        castkit.merge(CHARACTER, CHARACTER)
    assert error.value.diagnostic.rule == "merge.no-animation"


def test_curves_naming_nothing_are_dropped_with_a_warning(tmp_path):
    scene = castkit.open(WAVE)
    curve = scene.animations[0].curves[0]
    curve.node_name = "no_such_bone"
    warnings = []
    merged = castkit.merge(CHARACTER, scene, warnings=warnings)
    assert len(merged.animations[0].curves) == len(scene.animations[0].curves) - 1
    assert any("no_such_bone" in w.message for w in warnings)


def test_merge_reports_what_the_cli_prints(cli, tmp_path):
    # Curves naming nothing are dropped by both; neither may drop them silently.
    scene = castkit.open(WAVE)
    for curve in scene.animations[0].curves[:2]:
        curve.node_name = "no_such_bone"
    animation = tmp_path / "wave.cast"
    scene.write(animation)
    _, _, err = cli("convert", CHARACTER, animation, "-o", tmp_path / "out.cast")
    printed = err.splitlines()
    assert printed and all("no_such_bone" in line for line in printed)
    collected = []
    castkit.merge(CHARACTER, animation, warnings=collected)
    assert [str(w) for w in collected] == printed
    with pytest.warns(UserWarning) as shown:
        castkit.merge(CHARACTER, animation)
    assert [str(w.message) for w in shown] == printed

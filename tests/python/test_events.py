"""Issue 60 #2: castkit.convert(events=PATH) writes every clip's events beside the output, as
`castkit convert --events` does (docs/events.md)."""

import json

import castkit
from conftest import EXAMPLES

HERO = EXAMPLES / "hero"


def test_convert_writes_the_events_of_every_clip(tmp_path):
    merged = castkit.merge(str(HERO / "hero.cast"), str(HERO / "hero_walk.cast"))
    merged.write(str(tmp_path / "hero_walk.cast"))
    warnings = castkit.convert(tmp_path / "hero_walk.cast", tmp_path / "hero.glb",
                               events=tmp_path / "hero.events.json")
    assert [w.rule for w in warnings if w.rule == "events.renamed"] == []
    clips = json.loads((tmp_path / "hero.events.json").read_text())["clips"]
    assert [clip["name"] for clip in clips] == ["walk"]
    assert clips[0]["framerate"] == 30
    assert clips[0]["events"] == [{"name": "footstep", "frame": 0, "time": 0},
                                  {"name": "footstep", "frame": 15, "time": 0.5}]


def test_a_file_the_call_did_not_write_keeps_its_bytes(tmp_path):
    users = tmp_path / "hero.events.json"
    users.write_text("mine\n")
    warnings = castkit.convert(HERO / "hero_walk.cast", tmp_path / "walk.cast", events=users)
    assert users.read_text() == "mine\n"
    assert [w.rule for w in warnings] == ["events.renamed"]
    written = json.loads((tmp_path / "hero.events-2.json").read_text())
    assert written["clips"][0]["events"][1]["time"] == 0.5

"""kit.json is a file a person edits: each mistake is refused naming the key and the fix."""

from __future__ import annotations

import json

import pytest

from wiring.kit import data
from wiring.kit.data import KitError, board_kit, front_end


@pytest.fixture
def kit_file(tmp_path, monkeypatch):
    """Write a kit.json of one's own: the real one with ``change`` applied to it."""
    real = json.loads(data.PATH.read_text())

    def write(change=None, text=None):
        path = tmp_path / "kit.json"
        if text is None:
            edited = json.loads(json.dumps(real))
            change(edited)
            text = json.dumps(edited, indent=1)
        path.write_text(text)
        monkeypatch.setattr(data, "PATH", path)
        data.read_kit.cache_clear()
        return path

    yield write
    data.read_kit.cache_clear()


@pytest.mark.parametrize("change, message", [
    (lambda d: d["boards"]["squareoff"].update(led_ofset={}), "boards \"squareoff\": unknown key 'led_ofset'"),
    (lambda d: d["boards"]["squareoff"].update(led_offset={"point": {"distance_mm": 7}}),
     'boards "squareoff".led_offset.point must be {"distance_mm": 6, "angle": 45}'),
    (lambda d: d["boards"]["squareoff"].update(led_offset={"point": {"distance_mm": 2, "angle": 45}}),
     "led_offset.point: an LED 2 mm from its sensor overlaps it (the holes need 5 mm between centres)"),
    (lambda d: d["boards"]["squareoff"].update(route="zigzag"), "route is 'zigzag'; use one of serpentine, shortest"),
    (lambda d: d["boards"]["squareoff"].update(margin_mm=-1), "margin_mm must be a number of at least 0, not -1"),
])
def test_a_mistake_in_kit_json_names_its_key(kit_file, change, message):
    path = kit_file(change)
    with pytest.raises(KitError) as error:
        board_kit("squareoff")
    assert str(error.value).startswith(f"{path}: ") and message in str(error.value)


def test_broken_json_is_refused_with_its_line(kit_file):
    path = kit_file(text='{\n "defaults": {,\n}')
    with pytest.raises(KitError, match=f"^{path}:2:15: not valid JSON"):
        front_end("hc165")

"""How `jantaku bench vision` scores: real photos on a hand-made labels file, rendered scenes read without a model."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from vision import bench
from vision.art import DEFAULT_ART
from vision.bench import _meld_part, perfect_tiles, real, visible_parts
from vision.layout import build_view
from vision.synth import make_scene
from vision.view import TableView


def _labels(tmp_path: Path) -> Path:
    rows = [{"name": "win", "tiles": ["0p"], "roi": [0.2, 0.2, 0.3, 0.4], "sideways": [0]},
            {"name": "hand", "tiles": ["1m", "2m", "3m"], "roi": [0.0, 0.3, 1.0, 0.6], "ordered": True},
            {"name": "discards", "tiles": ["5z", "1s", "9m"], "roi": [0.0, 0.7, 1.0, 1.0]}]
    path = tmp_path / "labels.json"
    path.write_text(json.dumps({"images": {"a": {"file": "a.jpg", "rows": rows}}}))
    return path


def _tile(name: str, x: float, y: float, sideways: bool = False):
    return name, (x - 4, y - 5, x + 4, y + 5), sideways


SEEN = [_tile("0p", 25, 35, True), _tile("1m", 40, 50), _tile("2m", 50, 50), _tile("3m", 60, 50),
        _tile("9m", 10, 90), _tile("5z", 20, 80), _tile("1s", 30, 80)]  # the pond's third row starts on the left


def test_a_tile_in_two_regions_counts_once_for_the_smaller_and_ponds_go_by_the_order_read(tmp_path: Path) -> None:
    """The winning tile's region lies inside the hand's: counted in both, it was an extra tile of the hand row. A
    pond's rows read left to right are not the order played: the pond as read is compared."""
    result = real(_labels(tmp_path), lambda path: (SEEN, (100, 100), [("5z", "1s", "9m")]), quiet=True)
    assert (result["labels"], result["detections"], result["precision"], result["recall"]) == (7, 7, 1.0, 1.0)
    assert result["sideways_recall"] == 1.0 and result["red_five_recall"] == 1.0
    assert result["exact_rows"] == 1.0
    misread = real(_labels(tmp_path), lambda path: (SEEN, (100, 100), [("5z", "9m", "1s")]), quiet=True)
    assert misread["exact_rows"] == round(2 / 3, 4) and misread["recall"] == 1.0
    no_ponds = real(_labels(tmp_path), lambda path: (SEEN, (100, 100)), quiet=True)  # a reader with no layout
    assert no_ponds["exact_rows"] == round(2 / 3, 4)


def test_a_closed_kan_of_fives_is_compared_as_plain_fives_and_nothing_else_is() -> None:
    """Its red five may lie under a back, which the rules name (score-photo), not the photo; a red five in a pon or
    an open kan shows, and counts."""
    assert _meld_part("closed-kan", ("5s", "5s", "5s", "0s"), None) == _meld_part("closed-kan", ("5s",) * 4, None)
    assert _meld_part("kan", ("0p", "5p", "5p", "5p"), "left") != _meld_part("kan", ("5p",) * 4, "left")
    assert _meld_part("closed-kan", ("5s", "5s", "5s", "0s"), None) != _meld_part("closed-kan", ("5m",) * 4, None)
    assert _meld_part("closed-kan", ("5z",) * 4, None) == ("closed-kan", ["5z"] * 4, None)


def _perfect_reader(monkeypatch: pytest.MonkeyPatch, spoil=lambda view: view) -> None:
    """`synthetic` reading each scene as a recognizer that never errs would (then `spoil`ed), without the model."""
    scenes = []
    monkeypatch.setattr(bench, "make_scene", lambda seed, mix: scenes.append(make_scene(seed, mix=mix, fonts=False))
                        or scenes[-1])
    monkeypatch.setattr(bench, "read_view", lambda rec, image: spoil(build_view(
        perfect_tiles(scenes[-1].labels), image.shape[1], image.shape[0])))


@pytest.mark.skipif(not (DEFAULT_ART / "Regular" / "Man1.png").exists(),
                    reason=f"FluffyStuff tile art not found at {DEFAULT_ART} (set JANTAKU_TILE_ART)")
def test_the_synthetic_bench_compares_each_pond_in_sight_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """Exact ponds: every pond in sight, in the order played with its riichi tile, against the scene's truth (the
    hand's parts are the exact rows). Three rendered whole tables, read right; then each with its near pond's first
    two tiles swapped."""
    _perfect_reader(monkeypatch)
    right = bench.synthetic(None, 3, seed=25, quiet=True, mix=2)
    assert right["ponds"] >= 9 and right["exact_ponds"] == 1.0 and right["exact_rows"] == 1.0

    def swapped(view: TableView) -> TableView:
        near = next(p for p in view.ponds if p.seat == "near")
        tiles = (near.tiles[1], near.tiles[0], *near.tiles[2:])
        return dataclasses.replace(view, ponds=tuple(dataclasses.replace(p, tiles=tiles) if p is near else p
                                                     for p in view.ponds))

    _perfect_reader(monkeypatch, swapped)
    spoiled = bench.synthetic(None, 3, seed=25, quiet=True, mix=2)
    assert spoiled["ponds"] == right["ponds"] and spoiled["exact_rows"] == 1.0
    assert spoiled["exact_ponds"] == round((right["ponds"] - 3) / right["ponds"], 4)


@pytest.mark.skipif(not (DEFAULT_ART / "Regular" / "Man1.png").exists(),
                    reason=f"FluffyStuff tile art not found at {DEFAULT_ART} (set JANTAKU_TILE_ART)")
def test_a_hand_part_out_of_full_view_is_counted_apart(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows the frame cuts or nearer tiles hide cannot be read exactly: they are counted apart, as ponds out of sight
    are, and so is a hand with such a part. Here the dora is taken to be out of view and read wrong every time."""
    _perfect_reader(monkeypatch, lambda view: dataclasses.replace(view, dora_indicators=("9z",)))
    monkeypatch.setattr(bench, "visible_parts", lambda scene: visible_parts(scene) - {"dora"})
    r = bench.synthetic(None, 3, seed=25, quiet=True, mix=2)
    assert r["rows_clipped"] == 3 and r["rows"] == 9 and r["exact_rows"] == 1.0
    assert r["exact_rows_with_clipped"] == 0.75
    assert r["exact_hands"] == {} and sum(r["hands_clipped"].values()) == 3


@pytest.mark.skipif(not (DEFAULT_ART / "Regular" / "Man1.png").exists(),
                    reason=f"FluffyStuff tile art not found at {DEFAULT_ART} (set JANTAKU_TILE_ART)")
def test_hands_are_also_counted_after_the_second_reading(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand tile misread, the right face its runner-up: the hand is wrong as read and right after score-photo's
    second reading (`vision.rereading`)."""
    def misread(view: TableView) -> TableView:
        i, face = view.hand.concealed_indices[0], view.hand.concealed[0]
        wrong = "7z" if face != "7z" else "1z"
        tiles = list(view.tiles)
        tiles[i] = dataclasses.replace(tiles[i], tile=wrong, alternatives=((face, 0.5),))
        hand = dataclasses.replace(view.hand, concealed=(wrong, *view.hand.concealed[1:]))
        return dataclasses.replace(view, tiles=tuple(tiles), hand=hand)

    _perfect_reader(monkeypatch)
    right = bench.synthetic(None, 3, seed=25, quiet=True, mix=2)
    _perfect_reader(monkeypatch, misread)
    r = bench.synthetic(None, 3, seed=25, quiet=True, mix=2)
    assert right["exact_hands"] == right["exact_hands_second_reading"] == r["exact_hands_second_reading"]
    assert sum(int(v.split("/")[0]) for v in right["exact_hands"].values()) == 3
    assert all(v.startswith("0/") for v in r["exact_hands"].values())


@pytest.mark.skipif(not (DEFAULT_ART / "Regular" / "Man1.png").exists(),
                    reason=f"FluffyStuff tile art not found at {DEFAULT_ART} (set JANTAKU_TILE_ART)")
def test_a_scene_shrunk_in_the_frame_takes_its_labels_and_props_along() -> None:
    """`bench vision --share`: the picture shrunk to half the frame, in its middle; each tile's box still holds
    that tile (its colour as before), and so does each stick's or die's outline."""
    scene = make_scene(20, size=(800, 600), mix=7, fonts=False)  # a whole table with sticks and dice
    far = bench.far_scene(scene, 0.5)
    assert far.image.shape == scene.image.shape and len(far.labels) == len(scene.labels) > 0
    assert len(far.props) == len(scene.props) > 0

    def mean(img, box):
        x1, y1, x2, y2 = (round(v) for v in box)
        return img[y1:y2, x1:x2].reshape(-1, 3).mean(0)

    for a, b in zip(scene.labels, far.labels, strict=True):
        assert b.box == pytest.approx((200 + a.box[0] / 2, 150 + a.box[1] / 2, 200 + a.box[2] / 2,
                                       150 + a.box[3] / 2), abs=0.01)
        assert mean(far.image, b.box) == pytest.approx(mean(scene.image, a.box), abs=12)
    for a, b in zip(scene.props, far.props, strict=True):
        assert b.reshape(-1, 2) == pytest.approx(a.reshape(-1, 2) / 2 + (200, 150), abs=1)


def test_bench_vision_refuses_a_share_of_the_frame_out_of_range(capsys: pytest.CaptureFixture[str]) -> None:
    from device.cli import main

    for bad in ("0", "1.5", "half"):
        with pytest.raises(SystemExit) as exit_:
            main(["bench", "vision", "--share", bad])
        assert exit_.value.code == 2 and "is no share of the frame from 0.1 to 1" in capsys.readouterr().err

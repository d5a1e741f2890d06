"""The device's wrapper of the recognizer: the vision stage's TableView turned into the proposal's MPSZ fields."""

from __future__ import annotations

from pathlib import Path

import pytest

from device.config import SAMPLE_PHOTOS
from device.recognition import ManualReader, VisionReader, load_reader, reading_from_json


def test_reading_from_the_documented_read_json():
    data = {
        "image": {"width": 4000, "height": 3000},
        "tiles": [{"tile": "0p", "box": [1, 2, 3, 4], "confidence": 0.9, "sideways": True, "upside_down": False}],
        "hand": {"concealed": ["4s", "5s", "6s", "5p", "5p", "4z", "4z", "5z", "5z", "5z"], "win": "0p",
                 "melds": [{"kind": "added-kan", "tiles": ["9m", "9m", "9m", "9m"], "source": "left"}]},
        "dora_indicators": ["8m", "8m"],
        "ponds": [{"seat": "near", "tiles": ["1m", "9p"], "riichi": None},
                  {"seat": "across", "tiles": ["7z"], "riichi": 0}],
        "warnings": ["one tile is uncertain"],
    }
    r = reading_from_json(data)
    assert r.image == {"width": 4000, "height": 3000}
    assert r.concealed == "456s55p44555z"
    assert r.win == "0p"
    assert r.melds == ["added-kan:9999m:left"]
    assert r.dora_indicators == "88m"
    assert r.ponds == {"near": "1m9p", "across": "7z"}
    assert r.tiles == [{"tile": "0p", "box": [1.0, 2.0, 3.0, 4.0], "sideways": True}]
    assert r.warnings == ["one tile is uncertain"]


class RowRecognizer:
    """Stands in for the ONNX models only: returns fixed detections; the real layout code groups them."""

    def __init__(self, names: list[str], turns: int = 0, alternatives: dict | None = None) -> None:
        self.names, self.turns, self.alternatives = names, turns, alternatives or {}

    def read(self, img):
        from vision.recognizer import TileReading
        from vision.view import SeenTile

        tiles, x = [], 100.0
        for i, name in enumerate(self.names):
            if i == len(self.names) - 1:
                x += 40  # the winning tile lies apart
            tiles.append(SeenTile(name, (x, 500.0, x + 60, 580.0), 0.99, orientation=0,
                                  alternatives=self.alternatives.get(i, ())))
            x += 62
        return TileReading(tiles, img.shape[1], img.shape[0], self.turns)


def test_vision_reader_groups_detections_with_the_real_layout():
    pytest.importorskip("vision.layout")
    names = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z", "2z"]
    reader = VisionReader(RowRecognizer(names))
    photo = SAMPLE_PHOTOS / "01-added-kan.jpg"
    r = reader.read(photo.read_bytes(), photo)
    assert r.image == {"width": 1280, "height": 961}
    assert r.win == "2z"
    assert r.concealed == "123m456p789s1122z"
    assert len(r.tiles) == 14 and r.warnings == []
    turned = VisionReader(RowRecognizer(names, turns=1)).read(photo.read_bytes(), photo)  # a camera mounted turned
    assert turned.concealed == r.concealed and turned.warnings[0].startswith(
        "the picture lay turned (no EXIF orientation, or a wrong one): read it turned 270 degrees clockwise")


def test_vision_reader_proposes_the_second_reading_that_makes_the_hand_win():
    """The winning tile read as 3z, whose runner-up 2z makes the hand win: the proposal holds 2z, and says so."""
    pytest.importorskip("vision.layout")
    names = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "1z", "2z", "2z", "3z"]
    photo = SAMPLE_PHOTOS / "01-added-kan.jpg"
    r = VisionReader(RowRecognizer(names, alternatives={13: (("2z", 0.7), ("4z", 0.2))})).read(photo.read_bytes())
    assert r.concealed == "123m456p789s1122z" and r.win == "2z" and r.tiles[13]["tile"] == "2z"
    assert r.warnings == ["read as it was, the hand does not win; took 3z as 2z (its next likeliest reading, 70% as "
                          "likely), which makes it win: check that tile",
                          "tiles read unsure, check them: 2z (or 3z, 143%; 4z, 29% as likely)"]
    sure = VisionReader(RowRecognizer(names[:13] + ["2z"], alternatives={0: (("4m", 0.3),)})).read(photo.read_bytes())
    assert sure.win == "2z" and sure.warnings == ["tiles read unsure, check them: 1m (or 4m, 30% as likely)"]


def test_vision_reader_proposes_a_haku_for_a_hand_tile_read_face_down_when_that_makes_the_hand_win():
    pytest.importorskip("vision.layout")
    names = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "back", "5z", "5z", "2z", "2z"]
    photo = SAMPLE_PHOTOS / "01-added-kan.jpg"
    r = VisionReader(RowRecognizer(names)).read(photo.read_bytes())
    assert r.concealed == "123m456p789s5552z" and r.win == "2z"
    assert r.warnings == ["took the tile read face down in the hand for a white dragon: check it (a haku's blank face "
                          "is what the recognizer most often takes for a back)"]
    names[11] = "7z"  # no win either way: the face-down tile is left out for the scorekeeper to name
    r = VisionReader(RowRecognizer(names)).read(photo.read_bytes())
    assert r.concealed == "123m456p789s572z" and r.warnings[-1].startswith("1 tile of the hand read as face down")


def test_vision_reader_unreadable_photo_is_a_warning_not_a_crash():
    reader = VisionReader(RowRecognizer([]))
    r = reader.read(b"not a jpeg")
    assert r.concealed == "" and "not a readable image" in r.warnings[0]


def test_manual_reader_and_switched_off_recognizer():
    r = ManualReader("testing").read((SAMPLE_PHOTOS / "02-seven-pairs.jpg").read_bytes())
    assert r.image == {"width": 1920, "height": 1440}
    assert r.warnings == ["tiles not read: testing; enter them with the picker"]
    off = load_reader(False)
    assert isinstance(off, ManualReader) and "switched off" in off.description


class BrokenRecognizer:
    def read(self, img):
        raise RuntimeError("model file truncated")


def test_a_failing_recognizer_gives_a_warning_not_a_crash():
    photo = SAMPLE_PHOTOS / "01-added-kan.jpg"
    r = VisionReader(BrokenRecognizer()).read(photo.read_bytes(), photo)
    assert r.concealed == "" and r.image == {"width": 1280, "height": 961}
    assert "RuntimeError: model file truncated" in r.warnings[0]


MODELS = Path(__file__).resolve().parent.parent / "models"


def test_the_committed_recognizer_model_loads_and_reads_the_sample_photos():
    """The real ONNX models in models/: a missing or broken model fails here (the table would fall back to typing)."""
    for name in ("recognizer.json", "tile_detector.onnx", "tile_classifier.onnx"):
        assert (MODELS / name).is_file(), f"models/{name} is missing: the recognizer model must be committed"
    reader = load_reader(True)
    assert not isinstance(reader, ManualReader), f"the committed recognizer did not load: {reader.why}"
    photo = SAMPLE_PHOTOS / "02-seven-pairs.jpg"
    r = reader.read(photo.read_bytes(), photo)
    assert r.image == {"width": 1920, "height": 1440}
    assert len(r.tiles) >= 10  # the hand row alone holds 14 face-up tiles
    assert all(len(t["box"]) == 4 for t in r.tiles)
    # the rendered sample scene and the real photo of a hand with an added kan are read exactly
    for name, want in [("03-synthetic-mangan.jpg", ("44m57p777s666777z", "6p", [], "1m")),
                       ("01-added-kan.jpg", ("456s55p44555z", "0p", ["added-kan:9999m:left"], "88m"))]:
        photo = SAMPLE_PHOTOS / name
        r = reader.read(photo.read_bytes(), photo)
        assert (r.concealed, r.win, r.melds, r.dora_indicators) == want, r


def test_tiles_read_face_down_are_left_out_of_the_form_with_a_warning():
    """The proposal form holds MPSZ only: a `back` in the hand or a meld is named as a warning, and backs among the
    discards are dropped. A closed kan comes from the layout with its hidden copies named."""
    data = {"hand": {"concealed": ["1m", "2m", "3m", "back", "5z", "5z", "back"], "win": "4m",
                     "melds": [{"kind": "closed-kan", "tiles": ["5p", "5p", "0p", "5p"], "source": None},
                               {"kind": "pon", "tiles": ["2z", "back", "2z"], "source": "across"}]},
            "dora_indicators": ["back"], "ponds": [{"seat": "left", "tiles": ["1s", "back", "9s"], "riichi": None}]}
    r = reading_from_json(data)
    assert r.concealed == "123m55z"
    assert r.melds == ["closed-kan:5505p", "pon:22z:across"]
    assert r.dora_indicators == ""
    assert r.ponds == {"left": "19s"}
    assert r.warnings == [
        "2 tiles of the hand read as face down and left out (a blank white dragon?): add them with the picker",
        "1 tile of the pon meld read as face down and left out (a blank white dragon?): add it with the picker",
        "1 tile of the dora indicators read as face down and left out (a blank white dragon?): add it with the picker",
    ]

"""Shared pieces of the device and web tests: a config in a temp folder, and a known-photo reader.

`KnownPhotoReader` stands in for the vision stage at its boundary (the `Reading` value): it returns the
hand-labelled reading of each bundled sample photo, so the device tests do not depend on the
recognizer's accuracy; the browser test also runs with the real recognizer when it is installed.
"""

from __future__ import annotations

from pathlib import Path

from device.config import SAMPLE_PHOTOS, load_config
from device.recognition import Reading

SAMPLE_READINGS = {
    "01-added-kan.jpg": Reading(
        image={"width": 1280, "height": 961},
        tiles=[{"tile": "0p", "box": [300.0, 400.0, 420.0, 560.0], "sideways": True}],
        concealed="456s55p44z555z", win="0p", melds=["added-kan:9999m"], dora_indicators="88m",
    ),
    "02-seven-pairs.jpg": Reading(
        image={"width": 1920, "height": 1440},
        tiles=[{"tile": "4s", "box": [900.0, 700.0, 1000.0, 790.0], "sideways": True}],
        concealed="4466s88s2233z6677z", win="4s", melds=[],
        ponds={"near": "1m9p7z3s"},
    ),
    "03-synthetic-mangan.jpg": Reading(
        image={"width": 1280, "height": 960},
        tiles=[{"tile": "6p", "box": [1040.0, 630.0, 1110.0, 710.0], "sideways": False}],
        concealed="44m57p777s666777z", win="6p", melds=[], dora_indicators="1m",
    ),
    "04-table-from-above.jpg": Reading(
        image={"width": 1638, "height": 1229},
        tiles=[{"tile": "3z", "box": [820.0, 630.0, 860.0, 690.0], "sideways": False}],
        ponds={"near": "3z4m13p45z1s4z7m2p1z5s9m"},
    ),
}


class KnownPhotoReader:
    description = "known sample photos (test)"

    def __init__(self) -> None:
        self.by_bytes = {(SAMPLE_PHOTOS / name).read_bytes(): r for name, r in SAMPLE_READINGS.items()}

    def read(self, jpeg: bytes, path: Path | None = None) -> Reading:
        return self.by_bytes.get(jpeg, Reading(warnings=["unknown photo"]))


def make_config(tmp_path: Path, **overrides):
    settings = {"data_dir": str(tmp_path / "data"), "camera_source": "replay", "panel_pin_factory": "mock",
                "pin": "13579", "recognizer": False}
    settings.update(overrides)
    return load_config(None, **settings)


def make_assistant(tmp_path: Path, **overrides):
    from device.assistant import Assistant
    from device.camera import open_camera

    config = make_config(tmp_path, **overrides)
    return Assistant(config, camera=open_camera(config.camera), reader=KnownPhotoReader())

"""The device's view of the tile recognizer: a photo's JPEG bytes in, a plain `Reading` out.

The recognizer itself lives in `vision/`; this wrapper turns its `TableView` into the MPSZ strings the
proposal form edits, and degrades to an empty reading with a clear warning when no recognizer is installed,
so the scorekeeper can still type the hand and the table keeps working.
"""

from __future__ import annotations

import importlib
import logging
import threading
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Protocol

log = logging.getLogger("jantaku.recognition")


@dataclass(frozen=True, slots=True)
class Reading:
    """What one photo shows, in the shape of `jantaku read --json`, flattened for the proposal form."""

    image: dict[str, int] = field(default_factory=dict)
    tiles: list[dict[str, Any]] = field(default_factory=list)
    concealed: str = ""
    win: str = ""
    melds: list[str] = field(default_factory=list)
    dora_indicators: str = ""
    ponds: dict[str, str] = field(default_factory=dict)
    """Discards per seat as seen from the photo: near (whose hand it is), right, across, left."""
    warnings: list[str] = field(default_factory=list)


class Reader(Protocol):
    description: str

    def read(self, jpeg: bytes, path: Path | None = None) -> Reading: ...


def with_file_notes(reading: Reading, jpeg: bytes) -> Reading:
    """The reading with what the photo's file says first, as `jantaku read` puts it (an animation read from its first
    frame, a file cut short read as far as it goes): the replay camera writes it into the photo it gives
    (`device.camera.file_notes`), and the keeper should see it before trusting the tiles, or typing them."""
    from device.camera import file_notes

    notes = file_notes(jpeg)
    return replace(reading, warnings=[*notes, *reading.warnings]) if notes else reading


def _decode(jpeg: bytes, path: Path | None):
    """The photo upright (EXIF orientation applied, as `jantaku read` sees it), or None when unreadable."""
    import cv2
    import numpy as np

    if path is not None:
        return cv2.imread(str(path), cv2.IMREAD_COLOR)
    return cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)


def _image_size(jpeg: bytes, path: Path | None = None) -> dict[str, int]:
    img = _decode(jpeg, path)
    if img is None:
        return {}
    return {"width": int(img.shape[1]), "height": int(img.shape[0])}


class ManualReader:
    """No recognizer: keep the photo, propose nothing, and say so (the scorekeeper types the tiles)."""

    def __init__(self, why: str) -> None:
        self.why = why
        self.description = f"none ({why})"

    def read(self, jpeg: bytes, path: Path | None = None) -> Reading:
        image = _image_size(jpeg, path)
        why = self.why if image else "the camera's photo is not a readable image"
        return with_file_notes(Reading(image=image, warnings=[f"tiles not read: {why}; enter them with the picker"]),
                               jpeg)


BACK = "back"


def _names(value: Any) -> list[str]:
    """A TableView field as a list of tile names, whether it arrives as text, a list or a {"tiles": …} dict."""
    if value is None:
        return []
    if isinstance(value, dict):
        return _names(value.get("tiles"))
    if isinstance(value, str):
        return [value] if value else []
    return [str(t) for t in value]


def _mpsz(names: list[str]) -> str:
    """MPSZ text of face-up tile names; text that does not parse is kept as it is, for a person to fix."""
    from table.tiles import parse_tiles, to_mpsz

    text = "".join(names)
    try:
        return to_mpsz(parse_tiles(text), sort=False)
    except ValueError:
        return text


def _faces(value: Any, where: str, warnings: list[str]) -> str:
    """The face-up tiles of a field as MPSZ; a warning names the tiles read face down, which the scorekeeper
    adds with the picker (a blank white dragon and a pale tile back look alike to the recognizer)."""
    names = _names(value)
    backs = names.count(BACK)
    if backs:
        many = backs > 1
        warnings.append(f"{backs} tile{'s' if many else ''} of the {where} read as face down and left out "
                        f"(a blank white dragon?): add {'them' if many else 'it'} with the picker")
    return _mpsz([n for n in names if n != BACK])


def _meld_text(meld: Any, warnings: list[str]) -> str:
    if isinstance(meld, str):
        return meld
    get = meld.get if isinstance(meld, dict) else lambda key, default=None: getattr(meld, key, default)
    kind, source = get("kind", "pon"), get("source")
    # a closed kan arrives with its backs named already (vision.layout); backs left there mean it makes no kan
    tiles = _faces(get("tiles"), f"{kind} meld", warnings)
    return f"{kind}:{tiles}" + (f":{source}" if source else "")


def reading_from_json(data: dict[str, Any]) -> Reading:
    """Map the documented `jantaku read --json` shape onto a Reading."""
    hand = data.get("hand") or {}
    warnings = [str(w) for w in data.get("warnings") or []]
    ponds: dict[str, str] = {}
    for i, pond in enumerate(data.get("ponds") or []):
        seat = str(pond.get("seat") or i) if isinstance(pond, dict) else str(i)
        ponds[seat] = _mpsz([n for n in _names(pond) if n != BACK])
    return Reading(
        image={k: int(v) for k, v in (data.get("image") or {}).items() if k in ("width", "height")},
        tiles=[
            {"tile": str(t.get("tile", "?")), "box": [float(x) for x in t.get("box", [0, 0, 0, 0])],
             "sideways": bool(t.get("sideways", False))}
            for t in data.get("tiles") or []
        ],
        concealed=_faces(hand.get("concealed"), "hand", warnings),
        win=_faces(hand.get("win"), "winning tile", warnings),
        melds=[_meld_text(m, warnings) for m in hand.get("melds") or []],
        dora_indicators=_faces(data.get("dora_indicators"), "dora indicators", warnings),
        ponds=ponds,
        warnings=warnings,
    )


class VisionReader:
    """The ONNX recognizer from `vision/`, loaded once; reads are serialised (one model, one camera)."""

    def __init__(self, recognizer: Any) -> None:
        self.recognizer = recognizer
        self._lock = threading.Lock()
        self.description = f"vision ({type(recognizer).__name__})"

    def read(self, jpeg: bytes, path: Path | None = None) -> Reading:
        return with_file_notes(self._read(jpeg, path), jpeg)

    def _read(self, jpeg: bytes, path: Path | None) -> Reading:
        from table.errors import InputError

        img = _decode(jpeg, path)
        if img is None:
            return Reading(warnings=["tiles not read: the camera's photo is not a readable image"])
        height, width = img.shape[:2]
        with self._lock:
            try:
                from vision.recognizer import read_view
                from vision.rereading import unsure_tiles, winning_reading

                view = winning_reading(read_view(self.recognizer, img))
            except InputError as exc:
                return Reading(image={"width": width, "height": height}, warnings=[f"tiles not read: {exc}"])
            except Exception as exc:  # a broken model or a renamed vision API must not take the table down
                log.exception("the recognizer failed on a photo")
                return Reading(image={"width": width, "height": height},
                               warnings=[f"tiles not read: the recognizer failed ({type(exc).__name__}: {exc})"])
        reading = reading_from_json(view.to_json())
        unsure = unsure_tiles(view)
        return replace(reading, warnings=[*reading.warnings, f"tiles read unsure, check them: {unsure}"]) if unsure \
            else reading


def load_reader(enabled: bool = True) -> Reader:
    """The vision recognizer when it is installed and its model loads, else a ManualReader saying why not."""
    if not enabled:
        return ManualReader("the recognizer is switched off (--no-recognizer, or recognizer = false in the config)")
    try:
        module = importlib.import_module("vision.recognizer")
        recognizer = module.Recognizer()
    except ModuleNotFoundError as exc:
        log.warning("no tile recognizer: %s", exc)
        return ManualReader("no recognizer is installed (vision.recognizer is missing)")
    except Exception as exc:  # a missing model file, a broken onnxruntime: keep the table running
        log.warning("tile recognizer failed to load: %s", exc)
        return ManualReader(f"the recognizer failed to load: {exc}")
    return VisionReader(recognizer)

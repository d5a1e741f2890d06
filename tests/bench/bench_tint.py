"""Which photos the reader notes as unable to show colour (toned, dark, few colours), so that red fives may not
show: colour photos must not be.

    .venv/bin/python tests/bench/bench_tint.py [--scenes 60] [--json]

Colour: the shared real photos and the bundled ones, as taken, under every change of bench_camera_shifts.py, under a
strong warm cast, and shrunk to a ninth of a grey frame (with and without the cast); plus rendered scenes of four
mixes (round 2, 3, 8, 9). Toned (JPEG 70 each): the CSS sepia matrix, the same 30 % brighter (clipped), a sepia ramp
and a blue one laid on the brightness, and the sepia photo shrunk into a grey frame (two tints, not one). Prints how
many of each the note is given to; colour photos given it are false notes. The same for dark copies (x 0.22 with a
little noise, and x 0.4, dim but light enough, which must not be noted) and palette copies (256 colours, as a GIF).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_camera_shifts import SHIFTS  # noqa: E402

from device.config import SAMPLE_PHOTOS  # noqa: E402
from vision.bench import PHOTO_LABELS, machine  # noqa: E402
from vision.photo import _colour_note as colour_note  # noqa: E402
from vision.photo import load_photo  # noqa: E402
from vision.synth import make_scene  # noqa: E402

SEPIA = np.array([[0.131, 0.534, 0.272], [0.168, 0.686, 0.349], [0.189, 0.769, 0.393]])  # BGR out of BGR in


def _jpeg(img: np.ndarray) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 70])[1], cv2.IMREAD_COLOR)


def _matrix(img: np.ndarray, m: np.ndarray, gain: float = 1.0) -> np.ndarray:
    return np.clip(img.astype(np.float32) @ m.T * gain, 0, 255).astype(np.uint8)


def _ramp(img: np.ndarray, bgr: tuple[float, float, float]) -> np.ndarray:
    grey = cv2.cvtColor(img, cv2.COLOR_BGR2GRAY).astype(np.float32)[..., None]
    return np.clip(grey * np.array(bgr), 0, 255).astype(np.uint8)


def _framed(img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    out = np.full((h * 3, w * 3, 3), 128, np.uint8)
    out[h:2 * h, w:2 * w] = img
    return cv2.resize(out, (w, h), interpolation=cv2.INTER_AREA)


def _colour_note(img: np.ndarray) -> str | None:
    """The reader's note on the photo's colour, by its kind: "one tint", "dark", "palette" (few colours)."""
    note = colour_note(img) or ""
    return next((key for key, words in (("one tint", "colours are one tint"), ("dark", "is dark"),
                                        ("palette", "has only")) if words in note), None)


def _palette(img: np.ndarray) -> np.ndarray:
    from PIL import Image

    gif = Image.fromarray(img[..., ::-1]).convert("P", palette=Image.Palette.ADAPTIVE).convert("RGB")
    return np.ascontiguousarray(np.asarray(gif)[..., ::-1])


def _dark(img: np.ndarray, gain: float) -> np.ndarray:
    noise = np.random.default_rng(2).normal(0, 3, img.shape)
    return np.clip(img * gain + noise, 0, 255).astype(np.uint8)


def _warm(img: np.ndarray) -> np.ndarray:
    return _matrix(img, np.diag([0.7, 0.95, 1.2]))


COLOUR = {"warm (B 0.7, R 1.2)": lambda i: _jpeg(_warm(i)), "in a grey frame": lambda i: _jpeg(_framed(i)),
          "warm, in a grey frame": lambda i: _jpeg(_framed(_warm(i)))}
TONED = {"sepia": lambda i: _jpeg(_matrix(i, SEPIA)),
         "sepia 30 % brighter": lambda i: _jpeg(_matrix(i, SEPIA, 1.3)),
         "sepia ramp": lambda i: _jpeg(_ramp(i, (0.55, 0.8, 1.0))),
         "blue ramp": lambda i: _jpeg(_ramp(i, (1.0, 0.85, 0.7))),
         "sepia in a grey frame": lambda i: _jpeg(_framed(_matrix(i, SEPIA)))}
NOTED = {"dark (x 0.22)": ("dark", lambda i: _jpeg(_dark(i, 0.22))), "palette (GIF)": ("palette", _palette)}
DIM = {"dim (x 0.4)": lambda i: _jpeg(_dark(i, 0.4))}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--scenes", type=int, default=60, help="rendered scenes per mix (default 60)")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    paths = sorted(p for p in [*PHOTO_LABELS.parent.glob("*"), *SAMPLE_PHOTOS.glob("*")]
                   if p.suffix.lower() in (".jpg", ".jpeg"))
    photos = {p.name: load_photo(p) for p in paths}
    colour: dict[str, list[str]] = {"as taken": [f"{n}: {m}" for n, img in photos.items() if (m := _colour_note(img))]}
    for name, (_, change) in SHIFTS.items():
        changed = {n: change(img) for n, img in photos.items()}
        colour[f"shift {name}"] = [f"{n}: {m}" for n, c in changed.items()
                                   if (m := _colour_note(c[0] if isinstance(c, tuple) else c))]
    for name, change in {**COLOUR, **DIM}.items():
        colour[name] = [f"{n}: {m}" for n, img in photos.items() if (m := _colour_note(change(img)))]
    scenes = [f"mix {mix} scene {k}: {m}" for mix in (2, 3, 8, 9) for k in range(args.scenes)
              if (m := _colour_note(make_scene(5000 + k, mix=mix).image))]
    toned = {name: [n for n, img in photos.items() if _colour_note(change(img)) == "one tint"]
             for name, change in TONED.items()}
    toned |= {name: [n for n, img in photos.items() if _colour_note(change(img)) == key]
              for name, (key, change) in NOTED.items()}
    report = {"machine": machine(), "photos": len(photos), "scenes": 4 * args.scenes,
              "colour_called_toned": {k: v for k, v in colour.items() if v}, "scenes_called_toned": scenes,
              "toned_noted": {k: len(v) for k, v in toned.items()}}
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"{report['machine']}; {len(photos)} photos, {4 * args.scenes} rendered scenes")
        print(f"colour photos noted as toned, dark or of few colours, over {len(colour)} versions each: "
              f"{sum(map(len, colour.values()))} {report['colour_called_toned'] or ''}")
        print(f"rendered scenes noted as toned, dark or of few colours: {len(scenes)} {scenes or ''}")
        for name, n in report["toned_noted"].items():
            print(f"{name}: {n} of {len(photos)} noted")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The shared real photos as other cameras would take them: how much reading degrades per change.

    .venv/bin/python tests/bench/bench_camera_shifts.py [--photos labels.json] [--turned] [--json] [SHIFT ...]

Each shift changes every photo the same way a different phone or lamp would (white balance, exposure, focus, a
shaken hand, JPEG quality, sensor noise, colour, a phone's sharpening and tone mapping, a cheap lens, resolution) or
a camera held elsewhere would (lower, more overhead, to one side, turned about its axis, higher: the tiles small in
the frame); the photo is read as
`jantaku read` reads it and scored as `jantaku bench vision` scores real photos (boxes taken back to the labelled
photo's pixels). The recognizer never saw these photos changed: the figures say how far its reading carries to
cameras it was not shown, nothing more (the seven photos hold 92 labelled tiles; one tile is about 1 %). `--turned`
also reads each changed photo turned 90, 180 and 270 degrees with no EXIF orientation (the recognizer's turn check
under the same changes). `--scores` also scores the photos that show a winning hand (`jantaku score-photo`, its
second readings included) and counts, per change, those that score as the photo as taken does. Every change also
counts the photos whose reading says they are over-exposed.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from table.errors import InputError  # noqa: E402
from vision.bench import PHOTO_LABELS, _ours, machine, real, shared_labels, shrunk_in_frame  # noqa: E402
from vision.photo import OVER_EXPOSED_NOTE, load_photo  # noqa: E402
from vision.recognizer import Recognizer, read_view  # noqa: E402


def _scale(img: np.ndarray) -> float:
    return max(img.shape[:2]) / 1500


def _warm(img: np.ndarray) -> np.ndarray:
    return np.clip(img * np.array([0.8, 1.0, 1.2]), 0, 255).astype(np.uint8)


def _dark(img: np.ndarray) -> np.ndarray:
    return np.clip(255 * (img / 255.0) ** 1.5 * 0.7, 0, 255).astype(np.uint8)


def _motion(img: np.ndarray) -> np.ndarray:
    n = max(3, int(9 * _scale(img))) | 1
    kernel = np.zeros((n, n), np.float32)
    kernel[n // 2] = 1 / n
    return cv2.filter2D(img, -1, kernel)


def _tonemapped(img: np.ndarray) -> np.ndarray:
    lab = cv2.cvtColor(img, cv2.COLOR_BGR2LAB)
    lab[..., 0] = cv2.createCLAHE(3.0, (8, 8)).apply(lab[..., 0])
    return cv2.cvtColor(lab, cv2.COLOR_LAB2BGR)


def _vignetted(img: np.ndarray) -> np.ndarray:
    h, w = img.shape[:2]
    y, x = np.mgrid[0:h, 0:w]
    r = np.hypot((x - w / 2) / (w / 2), (y - h / 2) / (h / 2)) / np.sqrt(2)
    return np.clip(img * (1 - 0.45 * r**2)[..., None], 0, 255).astype(np.uint8)


def _warp(img: np.ndarray, corners: Callable[[float, float], list[tuple[float, float]]]):
    """The photo taken to the quadrilateral `corners(w, h)` (top left, top right, bottom right, bottom left), on a
    grey surround, with the homography that does it (the bench takes the boxes read back through it)."""
    h, w = img.shape[:2]
    dst = np.float32(corners(w, h))
    dst -= dst.min(axis=0)
    homography = cv2.getPerspectiveTransform(np.float32([[0, 0], [w, 0], [w, h], [0, h]]), dst)
    size = tuple(int(v) for v in np.ceil(dst.max(axis=0)))
    return cv2.warpPerspective(img, homography, size, borderValue=(114, 114, 114)), homography


def _roll(degrees: float):
    """The camera turned about its own axis (a phone held askew): the picture turned, on a larger canvas."""
    def corners(w: float, h: float) -> list[tuple[float, float]]:
        c, s = np.cos(np.radians(degrees)), np.sin(np.radians(degrees))
        return [(x * c - y * s, x * s + y * c) for x, y in ((0, 0), (w, 0), (w, h), (0, h))]
    return lambda i: _warp(i, corners)


# a shift gives the changed picture, or (a camera moved) the picture and the homography from the photo to it
SHIFTS: dict[str, tuple[str, Callable[[np.ndarray], np.ndarray | tuple[np.ndarray, np.ndarray]]]] = {
    "none": ("the photo as taken", lambda i: i),
    "warm": ("tungsten light: red up 20 %, blue down 20 %", lambda i: _warm(i)),
    "cool": ("daylight white balance indoors: blue up 20 %, red down 20 %",
             lambda i: np.clip(i * np.array([1.2, 1.0, 0.8]), 0, 255).astype(np.uint8)),
    "dark": ("under-exposed: gamma 1.5, 70 % light", lambda i: _dark(i)),
    "bright": ("over-exposed: 140 % light + 20, highlights clipped",
               lambda i: np.clip(i * 1.4 + 20, 0, 255).astype(np.uint8)),
    "brighter": ("a little over-exposed: 120 % light + 10",
                 lambda i: np.clip(i * 1.2 + 10, 0, 255).astype(np.uint8)),
    "lamp": ("a dim room under a tungsten lamp: warm, then under-exposed", lambda i: _dark(_warm(i))),
    "blur": ("out of focus: Gaussian blur of 1.5 px per 1500 px of photo",
             lambda i: cv2.GaussianBlur(i, (0, 0), 1.5 * _scale(i))),
    "motion": ("a shaken hand: motion blur 9 px per 1500 px of photo across", lambda i: _motion(i)),
    "sharpen": ("a phone's over-sharpening: unsharp mask, amount 1, radius 2 px per 1500 px",
                lambda i: cv2.addWeighted(i, 2.0, cv2.GaussianBlur(i, (0, 0), 2 * _scale(i)), -1.0, 0)),
    "tonemap": ("a phone's local tone mapping (HDR look): CLAHE on lightness, clip 3, 8 x 8 tiles",
                lambda i: _tonemapped(i)),
    "vignette": ("a cheap lens: corners 45 % darker", lambda i: _vignetted(i)),
    "jpeg30": ("JPEG quality 30 (a messaging app)",
               lambda i: cv2.imdecode(cv2.imencode(".jpg", i, [cv2.IMWRITE_JPEG_QUALITY, 30])[1], cv2.IMREAD_COLOR)),
    "noise": ("sensor noise: Gaussian, sigma 10 grey levels",
              lambda i: np.clip(i + np.random.default_rng(0).normal(0, 10, i.shape), 0, 255).astype(np.uint8)),
    "desat": ("half the colour saturation",
              lambda i: np.clip(0.5 * i + 0.5 * cv2.cvtColor(i, cv2.COLOR_BGR2GRAY)[..., None], 0, 255)
              .astype(np.uint8)),
    "lower": ("the camera lower over the table: the far side of the picture 25 % narrower and 15 % flatter",
              lambda i: _warp(i, lambda w, h: [(0.125 * w, 0), (0.875 * w, 0), (w, 0.85 * h), (0, 0.85 * h)])),
    "steeper": ("the camera more overhead: the near side 25 % narrower",
                lambda i: _warp(i, lambda w, h: [(0, 0), (w, 0), (0.875 * w, h), (0.125 * w, h)])),
    "side": ("the camera moved to the left: the left side 20 % shorter",
             lambda i: _warp(i, lambda w, h: [(0, 0.1 * h), (w, 0), (w, h), (0, 0.9 * h)])),
    "roll15": ("the phone held 15 degrees askew", _roll(15)),
    "roll30": ("the phone held 30 degrees askew", _roll(30)),
    "roll45": ("the phone held 45 degrees askew", _roll(45)),
    "far45": ("the camera higher or a wider lens: the picture shrunk to 45 % of the frame",
              lambda i: shrunk_in_frame(i, 0.45)),
    "far33": ("the camera higher still: the picture shrunk to a third of the frame",
              lambda i: shrunk_in_frame(i, 1 / 3)),
    "far25": ("the camera higher again: the picture shrunk to a quarter of the frame",
              lambda i: shrunk_in_frame(i, 0.25)),
    "small": ("a 0.35x photo (a low-resolution camera)",
              lambda i: cv2.resize(i, None, fx=0.35, fy=0.35, interpolation=cv2.INTER_AREA)),
    "tiny": ("a 0.15x photo (a thumbnail: 192 to 614 px wide here)",
             lambda i: cv2.resize(i, None, fx=0.15, fy=0.15, interpolation=cv2.INTER_AREA)),
}


def _scorer(rec: Recognizer):
    """A changed photo -> what `jantaku score-photo` makes of it (the hand and its price), or None: no win."""
    from device.cli import build_parser
    from table.score_cli import resolve_rules
    from vision.cli import score_view

    args = build_parser().parse_args(["score-photo", "photo.jpg"])
    rules = resolve_rules(args.rules)

    def score(photo: np.ndarray, change: Callable) -> str | None:
        changed = change(photo)
        try:
            view, _, _, result = score_view(read_view(rec, changed[0] if isinstance(changed, tuple) else changed),
                                            args, rules)
        except InputError:
            return None
        return json.dumps([view.hand.to_json(), result.to_json()]) if result.valid else None

    return score


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("shifts", nargs="*", help=f"shifts to run, of {', '.join(SHIFTS)} (default: all)")
    ap.add_argument("--photos", default=str(PHOTO_LABELS))
    ap.add_argument("--turned", action="store_true", help="also read each changed photo turned 90, 180, 270 degrees")
    ap.add_argument("--scores", action="store_true", help="also score the photos of winning hands after each change")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    unknown = [s for s in args.shifts if s not in SHIFTS]
    if unknown:
        ap.error(f"unknown shift {', '.join(unknown)}: choose from {', '.join(SHIFTS)}")
    labels = shared_labels(args.photos)
    if labels is None:
        return 2
    rec = Recognizer()
    report = {"machine": machine(), "shifts": {}}
    if args.scores:
        score = _scorer(rec)
        items = json.loads(labels.read_text())["images"].values()
        photos = [load_photo(labels.parent / item["file"]) for item in items]
        taken = [(photo, price) for photo in photos if (price := score(photo, SHIFTS["none"][1])) is not None]
    for name in args.shifts or SHIFTS:
        warnings: list[tuple[str, ...]] = []
        r = real(labels, _ours(rec, change=SHIFTS[name][1], warnings=warnings), quiet=True)
        report["shifts"][name] = {k: r[k] for k in ("precision", "recall", "red_five_recall", "sideways_recall",
                                                    "exact_rows")}
        report["shifts"][name]["over_exposed_notes"] = \
            f"{sum(any(w.startswith(OVER_EXPOSED_NOTE) for w in ws) for ws in warnings)}/{len(warnings)}"
        if args.turned:
            report["shifts"][name]["turned_recall"] = {
                f"{90 * k}": real(labels, _ours(rec, k, SHIFTS[name][1]), quiet=True)["recall"]
                for k in (1, 2, 3)}
        if args.scores:
            report["shifts"][name]["same_score"] = f"{sum(score(p, SHIFTS[name][1]) == price for p, price in taken)}" \
                f"/{len(taken)}"
        if not args.json:
            turned = report["shifts"][name].get("turned_recall")
            print(f"{name:7s} P {r['precision']:.3f}  R {r['recall']:.3f}  red fives {r['red_five_recall']:.2f}  "
                  f"sideways {r['sideways_recall']:.2f}  exact rows {r['exact_rows']:.3f}"
                  + (f"  turned R {' / '.join(f'{v:.3f}' for v in turned.values())}" if turned else "")
                  + (f"  same score {report['shifts'][name]['same_score']}" if args.scores else "")
                  + f"  over-exposed notes {report['shifts'][name]['over_exposed_notes']}"
                  + f"  ({SHIFTS[name][0]})", flush=True)
    if args.json:
        print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

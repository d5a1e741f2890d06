"""Point sticks on the table in the shared real photos: how many tiles the recognizer reads on them.

    .venv/bin/python tests/bench/bench_point_sticks.py [--photos labels.json] [--sticks 3] [--seeds 3] [--json]

Riichi sticks lie in front of a riichi player's discards, honba sticks beside the dealer, and loose sticks anywhere.
Each photo is read once to find its tiles and their size; then `--sticks` point sticks (1000, 100, 10000 and 5000
points in turn), drawn to scale (87 x 8.5 mm against a tile's 26 mm width) at random angles with a soft shadow, are
laid on free table near the tiles, and the photo is read again. Reported: tiles read on a stick (each one a phantom
tile), and precision and recall on the labelled rows with the sticks there (scored as `jantaku bench vision` scores
real photos). The sticks are drawn here, not by the scene generator (`vision.synth`, which trains on its own), so
the figure is no test of the generator's drawing against itself; like any pasted object they are cleaner than real
sticks.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import sys
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.art import SHARED  # noqa: E402
from vision.bench import real  # noqa: E402
from vision.photo import load_photo  # noqa: E402
from vision.recognizer import Recognizer, read_view  # noqa: E402

STICK_PER_TILE = 87 / 26  # a stick's length in tile widths
VALUES = (1000, 100, 10000, 5000)


def _stick(length: int, value: int, rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """A stick's picture and alpha, lying along x: ivory plastic rounder across, with its value's dots."""
    width = max(4, round(length * 8.5 / 87))
    alpha = np.zeros((width, length), np.uint8)
    r = width // 2
    cv2.rectangle(alpha, (r, 0), (length - r, width - 1), 255, -1)
    for x in (r, length - r - 1):
        cv2.circle(alpha, (x, r), r, 255, -1, cv2.LINE_AA)
    across = 0.8 + 0.2 * np.sin(np.linspace(0, np.pi, width))
    img = np.clip(rng.uniform(200, 245) * across[:, None, None] * np.ones((1, length, 3)), 0, 255).astype(np.uint8)
    dot = max(1, width // 5)
    red, black = (40, 40, 200), (25, 25, 25)
    if value == 100:  # two groups of four at the ends
        for x in (0.2, 0.8):
            for dx in (-0.035, 0.035):
                for y in (0.3, 0.7):
                    cv2.circle(img, (round((x + dx) * length), round(y * width)), dot, black, -1, cv2.LINE_AA)
    else:  # a red dot in the middle, black dots either side of it for 5000 and 10000
        cv2.circle(img, (length // 2, r), dot + 1, red, -1, cv2.LINE_AA)
        for k in range(1, {1000: 1, 5000: 3, 10000: 5}[value]):
            for side in (-1, 1):
                cv2.circle(img, (round((0.5 + side * 0.07 * k) * length), r), dot, black, -1, cv2.LINE_AA)
    return img, alpha


def lay_sticks(photo: np.ndarray, boxes: list[tuple[float, float, float, float]], n: int, rng: random.Random
               ) -> tuple[np.ndarray, list[np.ndarray]]:
    """The photo with `n` sticks on free table near the tiles (`boxes`), and each stick's outline."""
    h, w = photo.shape[:2]
    tile = float(np.median([min(b[2] - b[0], b[3] - b[1]) for b in boxes]))
    length = round(STICK_PER_TILE * tile)
    taken = np.zeros((h, w), np.uint8)
    for x1, y1, x2, y2 in boxes:
        m = 0.3 * tile
        cv2.rectangle(taken, (int(x1 - m), int(y1 - m)), (int(x2 + m), int(y2 + m)), 255, -1)
    xs, ys = [b[0] for b in boxes] + [b[2] for b in boxes], [b[1] for b in boxes] + [b[3] for b in boxes]
    near = (max(min(xs) - 2 * length, 0), max(min(ys) - 2 * length, 0), min(max(xs) + 2 * length, w),
            min(max(ys) + 2 * length, h))
    out = photo.astype(np.float32)
    outlines = []
    for k in range(n):
        for _ in range(300):
            centre = (rng.uniform(near[0], near[2]), rng.uniform(near[1], near[3]))
            angle = rng.uniform(0, 180)
            outline = cv2.boxPoints((centre, (length * 1.1, length * 0.2), -angle))
            if outline.min() < 0 or (outline[:, 0].max() >= w) or (outline[:, 1].max() >= h):
                continue
            mask = np.zeros_like(taken)
            cv2.fillConvexPoly(mask, outline.astype(np.int32), 255)
            if (mask & taken).any():
                continue
            img, alpha = _stick(length, VALUES[k % len(VALUES)], rng)
            turn = cv2.getRotationMatrix2D((length / 2, img.shape[0] / 2), angle, 1.0)
            turn[:, 2] += (centre[0] - length / 2, centre[1] - img.shape[0] / 2)
            a = cv2.warpAffine(alpha, turn, (w, h)).astype(np.float32)[..., None] / 255
            shadow = np.roll(cv2.GaussianBlur(a, (0, 0), max(1.0, length / 60)), (length // 40,) * 2, (0, 1))
            out *= 1 - 0.3 * (shadow[..., None] if shadow.ndim == 2 else shadow)
            out = out * (1 - a) + cv2.warpAffine(img, turn, (w, h)).astype(np.float32) * a
            cv2.fillConvexPoly(taken, outline.astype(np.int32), 255)
            outlines.append(cv2.boxPoints((centre, (length, img.shape[0]), -angle)).astype(np.float32))
            break
    return np.clip(out, 0, 255).astype(np.uint8), outlines


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", default=str(SHARED / "photos" / "labels.json"))
    ap.add_argument("--sticks", type=int, default=3, help="sticks laid on each photo")
    ap.add_argument("--seeds", type=int, default=3, help="times each photo is read, with sticks laid elsewhere")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    labels = Path(args.photos)
    if not labels.exists():
        print(f"{labels} not found (shared/ beside the clone)", file=sys.stderr)
        return 2
    rec = Recognizer()
    found = {}
    for path in sorted({labels.parent / item["file"] for item in json.loads(labels.read_text())["images"].values()}):
        photo = load_photo(path)
        found[path] = (photo, [t.box for t in read_view(rec, photo).tiles])
    report = {"machine": f"{platform.machine()}, {os.cpu_count()} CPU cores", "sticks": 0, "tiles_on_sticks": 0,
              "by_photo": {}, "runs": []}
    for seed in range(args.seeds):
        def read(path, seed=seed):
            photo, boxes = found[Path(path)]
            laid, outlines = lay_sticks(photo, boxes, args.sticks, random.Random(f"{seed}{Path(path).name}"))
            view = read_view(rec, laid)
            on = sum(any(cv2.pointPolygonTest(o, t.centre, False) >= 0 for o in outlines) for t in view.tiles)
            report["sticks"] += len(outlines)
            report["tiles_on_sticks"] += on
            report["by_photo"][Path(path).stem] = report["by_photo"].get(Path(path).stem, 0) + on
            return [(t.tile, t.box, t.sideways) for t in view.tiles], (laid.shape[1], laid.shape[0]), \
                [p.tiles for p in view.ponds]

        r = real(labels, read, quiet=True)
        report["runs"].append({k: r[k] for k in ("precision", "recall", "exact_rows")})
    report["tiles_per_stick"] = round(report["tiles_on_sticks"] / max(report["sticks"], 1), 3)
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"{report['sticks']} sticks laid, {report['tiles_on_sticks']} tiles read on them "
              f"({report['tiles_per_stick']} per stick; by photo {report['by_photo']})")
        for k, run in enumerate(report["runs"]):
            print(f"seed {k}: labelled rows P {run['precision']:.3f}  R {run['recall']:.3f}  "
                  f"exact rows {run['exact_rows']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

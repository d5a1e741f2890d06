"""Mirrored photos (a front camera, a camera set to flip its picture): which are read mirrored back, and how well.

    .venv/bin/python tests/bench/bench_mirror.py [--scenes 30] [--seed 9] [--mixes 1,2,3,8] [--json]

Held-out rendered scenes of each mix, read as they are and mirrored left to right (their labels mirrored too),
and the shared real photos and the bundled ones, as they are and mirrored. For each: how many are read mirrored back
(a photo as taken so read is a false call), the tiles read right (a label matched by its box, IoU >= 0.5, with
its name) and the hands read exactly (concealed part, winning tile, melds, dora, as `jantaku bench vision` counts
them).
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from device.config import SAMPLE_PHOTOS  # noqa: E402
from vision.bench import HAND_PARTS, PHOTO_LABELS, machine, match, seen_parts, truth_parts  # noqa: E402
from vision.photo import load_photo  # noqa: E402
from vision.recognizer import Recognizer, read_view  # noqa: E402
from vision.synth import make_scene  # noqa: E402

WAYS = ("as taken", "mirrored")


def _mirrored_back(view) -> bool:
    return any("is mirrored" in w or "mirrored back" in w for w in view.warnings)


def scenes(rec: Recognizer, n: int, seed: int, mixes: list[int]) -> dict:
    out = {way: {"scenes": 0, "read_mirrored_back": 0, "tiles": 0, "tiles_right": 0, "hands_exact": 0}
           for way in WAYS}
    for mix in mixes:
        for k in range(n):
            scene = make_scene(seed * 1_000_003 + 700_000 + k, mix=mix)
            width = scene.image.shape[1]
            truth = truth_parts(scene.truth)
            flipped = [dataclasses.replace(lb, box=(width - lb.box[2], lb.box[1], width - lb.box[0], lb.box[3]))
                       for lb in scene.labels]
            for way, img, labels in ((WAYS[0], scene.image, scene.labels),
                                     (WAYS[1], cv2.flip(scene.image, 1), flipped)):
                view = read_view(rec, img)
                seen = seen_parts(view)
                r = out[way]
                r["scenes"] += 1
                r["read_mirrored_back"] += _mirrored_back(view)
                r["tiles"] += len(labels)
                pairs = match(labels, list(view.tiles))
                r["tiles_right"] += sum(labels[i].name == view.tiles[j].tile for i, j in pairs)
                r["hands_exact"] += all(truth[key] == seen[key] for key in HAND_PARTS)
    for r in out.values():
        r["tile_accuracy"] = round(r["tiles_right"] / max(r["tiles"], 1), 4)
    return out


def photos(rec: Recognizer) -> dict:
    paths = sorted(PHOTO_LABELS.parent.glob("*.jp*g")) if PHOTO_LABELS.exists() else []
    paths += sorted(p for p in SAMPLE_PHOTOS.glob("*.jpg") if p.name.startswith(("03", "04")))  # 01, 02: lx01, lx02
    out: dict = {way: {} for way in WAYS}
    for path in paths:
        img = load_photo(path)
        out[WAYS[0]][path.name] = _mirrored_back(read_view(rec, img))
        out[WAYS[1]][path.name] = _mirrored_back(read_view(rec, cv2.flip(img, 1)))
    return {way: {"photos": len(v), "read_mirrored_back": sum(v.values()),
                  "which": sorted(name for name, back in v.items() if back)} for way, v in out.items()}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--scenes", type=int, default=30, help="scenes per mix")
    ap.add_argument("--seed", type=int, default=9)
    ap.add_argument("--mixes", default="1,2,3,8")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    rec = Recognizer()
    result = {"machine": machine(), "seed": args.seed, "scenes_per_mix": args.scenes, "photos": photos(rec),
              "rendered": scenes(rec, args.scenes, args.seed, [int(m) for m in args.mixes.split(",")])}
    if args.json:
        print(json.dumps(result, indent=1))
        return
    for kind in ("photos", "rendered"):
        for way, r in result[kind].items():
            print(f"{kind:8s} {way:9s} {json.dumps(r)}")


if __name__ == "__main__":
    main()

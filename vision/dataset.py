"""Write synthetic training sets to disk: YOLO detection images/labels, classifier crops, and scene truth.

    python -m vision.dataset OUT --train 1200 --val 100 [--seed 1] [--mix 2] [--art PATH] [--shard K/N]

Layout under OUT: det/images/{train,val}/*.jpg, det/labels/{train,val}/*.txt, det/data.yaml,
cls/{train,val}/<crop class>/*.png, truth/{train,val}/*.json. Scene i of a split uses seed `seed * 1_000_003 + i`
(val seeds are offset) so any scene can be re-rendered exactly with `make_scene(seed, mix=MIX)`.

Round 2 (`--mix 2`, the default) draws half the scenes in procedural tile sets and picks each scene's classifier
crops with weights (`CropBalancer`): faces behind an even share first, sideways tiles extra, so every face ends
near an even share of the crops (red fives included, as far as the scenes show them).
`--mix 1 --uniform-crops` writes round 1's data.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
from collections import Counter
from pathlib import Path

import cv2

from vision.classes import CROP_CLASSES, DET_CLASSES, SYMMETRIC, TILE_NAMES, crop_label, is_horizontal
from vision.crops import CROP_SIZE, upright_crop
from vision.progress import progress
from vision.synth import DEFAULT_MIX, MIXES, Scene, TileLabel, make_scene

DET_MAX_SIDE = 640  # detector images are stored at this size; the detector trains at <= this
VAL_OFFSET = 500_000
# Crop sampling (round 2). Uniform sampling of round-1 scenes gave each red five about 0.5 % of the crops, backs
# 16 %, sideways tiles 4 %. `CropBalancer` weights each face by how far it is behind an even share so far, so rare
# faces (red fives, honours) are taken whenever a scene shows them; sideways tiles count extra.
SIDEWAYS_WEIGHT = 3.0
BACK_SHARE = 2.0  # backs may make up this many faces' shares: easy for the classifier, but every scene has them
RED_FIVE_SHARE = 1.5  # red fives are aimed at 1.5 shares (about 3 % each): the weak spot of round 1


def scene_seed(seed: int, split: str, i: int) -> int:
    return seed * 1_000_003 + (VAL_OFFSET if split == "val" else 0) + i


def scene_json(scene: Scene) -> dict:
    return {"labels": [dataclasses.asdict(lb) for lb in scene.labels], "truth": dataclasses.asdict(scene.truth),
            "style": scene.style, "width": scene.image.shape[1], "height": scene.image.shape[0]}


class CropBalancer:
    """Per-face crop weights that even out the classes over a run (deterministic for a given scene order)."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()

    def weight(self, lb: TileLabel) -> float:
        n = sum(self.counts.values())
        fair = (n + 5 * len(TILE_NAMES)) / (len(TILE_NAMES) + BACK_SHARE - 1 + 3 * (RED_FIVE_SHARE - 1))
        share = fair * (BACK_SHARE if lb.name == "back" else RED_FIVE_SHARE if lb.name[0] == "0" else 1.0)
        w = min(max(share / (self.counts[lb.name] + 5), 0.1), 20.0)
        return w * (SIDEWAYS_WEIGHT if lb.sideways else 1.0)

    def pick(self, labels: list[TileLabel], k: int, rng: random.Random) -> list[TileLabel]:
        """k labels without replacement, with chance growing with the weight (Efraimidis-Spirakis keys)."""
        keys = [(rng.random() ** (1.0 / self.weight(lb)), i) for i, lb in enumerate(labels)]
        chosen = [labels[i] for _, i in sorted(keys, reverse=True)[:k]]
        self.counts.update(lb.name for lb in chosen)
        return chosen


def pick_crops(labels: list[TileLabel], k: int, rng: random.Random, balancer: CropBalancer | None) -> list[TileLabel]:
    if balancer is not None:
        return balancer.pick(labels, k, rng)
    chosen = list(labels)
    rng.shuffle(chosen)
    return chosen[:k]


def write_scene(out: Path, split: str, stem: str, scene: Scene, rng: random.Random, crops_per_scene: int,
                balancer: CropBalancer | None = None, crop_size: int = CROP_SIZE) -> None:
    img = scene.image
    h, w = img.shape[:2]
    s = DET_MAX_SIDE / max(h, w)
    small = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(out / "det" / "images" / split / f"{stem}.jpg"), small, [cv2.IMWRITE_JPEG_QUALITY, 92])
    lines = []
    for lb in scene.labels:
        x1, y1, x2, y2 = lb.box
        cx, cy, bw, bh = (x1 + x2) / 2 / w, (y1 + y2) / 2 / h, (x2 - x1) / w, (y2 - y1) / h
        lines.append(f"{lb.det} {cx:.6f} {cy:.6f} {bw:.6f} {bh:.6f}")
    (out / "det" / "labels" / split / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
    (out / "truth" / split / f"{stem}.json").write_text(json.dumps(scene_json(scene)))
    for k, lb in enumerate(pick_crops(scene.labels, crops_per_scene, rng, balancer)):
        x1, y1, x2, y2 = lb.box
        bw, bh = x2 - x1, y2 - y1
        jit = [rng.uniform(-0.07, 0.07) for _ in range(4)]
        box = (x1 + jit[0] * bw, y1 + jit[1] * bh, x2 + jit[2] * bw, y2 + jit[3] * bh)
        crop = upright_crop(img, box, is_horizontal(lb.det), crop_size)
        label = crop_label(lb.name, lb.orientation, SYMMETRIC)
        cv2.imwrite(str(out / "cls" / split / label / f"{stem}_{k}.png"), crop)


def prepare_dirs(out: Path) -> None:
    for split in ("train", "val"):
        for sub in ("det/images", "det/labels", "truth"):
            (out / sub / split).mkdir(parents=True, exist_ok=True)
        for c in CROP_CLASSES:
            (out / "cls" / split / c).mkdir(parents=True, exist_ok=True)
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(DET_CLASSES))
    (out / "det" / "data.yaml").write_text(
        f"path: {(out / 'det').resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n")


def generate(out: Path, n_train: int, n_val: int, seed: int = 1, art: str | None = None, shard: tuple[int, int] =
             (0, 1), crops_per_scene: int = 24, quiet: bool = False, mix: int = DEFAULT_MIX,
             weighted: bool = True, crop_size: int = CROP_SIZE) -> None:
    prepare_dirs(out)
    k, n = shard
    balancer = CropBalancer() if weighted else None
    for split, count in (("train", n_train), ("val", n_val)):
        todo = [i for i in range(count) if i % n == k]
        for i in progress(todo, len(todo), f"{split} scenes", enabled=not quiet):
            s = scene_seed(seed, split, i)
            scene = make_scene(s, art=art, mix=mix)
            write_scene(out, split, f"{s:09d}", scene, random.Random(s ^ 0x5EED), crops_per_scene, balancer,
                        crop_size)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("out", type=Path)
    p.add_argument("--train", type=int, default=1200)
    p.add_argument("--val", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--art", default=None, help="FluffyStuff Export folder (default $JANTAKU_TILE_ART or shared)")
    p.add_argument("--shard", default="0/1", help="K/N: write only scenes i with i %% N == K (parallel runs)")
    p.add_argument("--crops-per-scene", type=int, default=24)
    p.add_argument("--mix", type=int, default=DEFAULT_MIX, choices=sorted(MIXES), help="scene mix (training round)")
    p.add_argument("--crop-size", type=int, default=CROP_SIZE, help="classifier crop side in pixels")
    p.add_argument("--uniform-crops", action="store_true", help="pick crops uniformly (round 1)")
    a = p.parse_args(argv)
    k, n = (int(v) for v in a.shard.split("/"))
    generate(a.out, a.train, a.val, a.seed, a.art, (k, n), a.crops_per_scene, mix=a.mix,
             weighted=not a.uniform_crops, crop_size=a.crop_size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

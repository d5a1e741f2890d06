"""Measure what the floors in tests/test_vision_model.py check, for the models in models/ (or $JANTAKU_MODELS).

    .venv/bin/python tests/bench/vision_floors.py

Prints the located and read-right shares of the four fixed rendered close-ups (round-1 mix, FluffyStuff styles only,
the same scenes on any machine) and the recall on the shared photos lx01 + th01. Set the floors a little below.
"""

from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.art import SHARED  # noqa: E402
from vision.bench import _ours, match, real  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402
from vision.synth import make_scene  # noqa: E402

SCENE_SEEDS = (101, 102, 103, 104)  # as in tests/test_vision_model.py
REAL_IMAGES = ("lx01", "th01")


def main() -> int:
    rec = Recognizer()
    labels = located = correct = 0
    for seed in SCENE_SEEDS:
        scene = make_scene(seed, kind="closeup", fonts=False, mix=1)
        tiles = rec.read_tiles(scene.image)
        pairs = match(scene.labels, tiles)
        labels += len(scene.labels)
        located += len(pairs)
        correct += sum(scene.labels[i].name == tiles[j].tile for i, j in pairs)
    print(f"rendered scenes {SCENE_SEEDS}: located {located / labels:.3f}, read right {correct / labels:.3f} "
          f"of {labels} tiles (floors SYNTHETIC_LOCATED_FLOOR, SYNTHETIC_RECALL_FLOOR)")
    photos = SHARED / "photos" / "labels.json"
    if not photos.exists():
        print(f"{photos} not found: no real-photo figure")
        return 0
    data = json.loads(photos.read_text())
    items = {k: dict(v, file=str(photos.parent / v["file"])) for k, v in data["images"].items() if k in REAL_IMAGES}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "labels.json"
        path.write_text(json.dumps({"images": items}))
        r = real(path, _ours(rec), quiet=True)
    print(f"real photos {REAL_IMAGES}: recall {r['recall']:.3f} (floor REAL_RECALL_FLOOR)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

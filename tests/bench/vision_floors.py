"""Measure what the floors in tests/test_vision_model.py check, for the models in models/ (or $JANTAKU_MODELS).

    .venv/bin/python tests/bench/vision_floors.py

Prints the located and read-right shares of the four fixed rendered close-ups (round-1 mix, FluffyStuff styles only,
the same scenes on any machine) and the recall on the shared photos lx01 + th01. Set the floors a little below.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.bench import PHOTO_LABELS, _ours, closeup_shares, real_subset  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402

SCENE_SEEDS = (101, 102, 103, 104)  # as in tests/test_vision_model.py
REAL_IMAGES = ("lx01", "th01")


def main() -> int:
    rec = Recognizer()
    located, correct, labels = closeup_shares(rec, SCENE_SEEDS)
    print(f"rendered scenes {SCENE_SEEDS}: located {located:.3f}, read right {correct:.3f} "
          f"of {labels} tiles (floors SYNTHETIC_LOCATED_FLOOR, SYNTHETIC_RECALL_FLOOR)")
    photos = PHOTO_LABELS
    if not photos.exists():
        print(f"{photos} not found: no real-photo figure")
        return 0
    r = real_subset(photos, REAL_IMAGES, _ours(rec))
    print(f"real photos {REAL_IMAGES}: recall {r['recall']:.3f} (floor REAL_RECALL_FLOOR)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

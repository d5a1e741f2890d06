"""The shared real photos' labelled rows, each photographed close: how well tiles large in the frame are read.

    .venv/bin/python tests/bench/bench_close_ups.py [--photos labels.json] [--without-shrink] [--json]

Each labelled row's region is cut from its photo and read as a photo of its own (as `jantaku read` reads it), then
scored as `jantaku bench vision` scores the real photos, the cut being the row's whole region. A player takes such
close-ups of a pond to check furiten, of the dora indicators, of a winning tile: the rows whose region is narrow
(lx06's pond, a sixth of its photo's width; lx01's winning tile alone and its dora; lx04's hand) hold tiles two to
eight times larger in the frame than any close-up of a whole hand the generator drew. The rows whose region is the
photo's width read as their photos do. `--without-shrink` reads them without the second reading shrunk
(`vision.recognizer.BIG` and `UNSURE_PICTURE`), for the figure before it.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import vision.recognizer  # noqa: E402
from vision.bench import PHOTO_LABELS, _ours, machine, real, shared_labels  # noqa: E402
from vision.photo import load_photo  # noqa: E402
from vision.recognizer import Recognizer  # noqa: E402


def close_ups(labels: Path, folder: Path) -> Path:
    """A labels file in `folder` whose items are the rows of `labels`, each cut out to its region (a PNG there)."""
    items = {}
    for key, item in json.loads(labels.read_text())["images"].items():
        photo = load_photo(labels.parent / item["file"])
        h, w = photo.shape[:2]
        for row in item["rows"]:
            x0, y0, x1, y1 = row["roi"]
            name = f"{key}-{row['name']}"
            cv2.imwrite(str(folder / f"{name}.png"), photo[round(y0 * h):round(y1 * h), round(x0 * w):round(x1 * w)])
            items[name] = {"file": f"{name}.png", "rows": [dict(row, roi=[0, 0, 1, 1])]}
    path = folder / "labels.json"
    path.write_text(json.dumps({"images": items}))
    return path


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", default=str(PHOTO_LABELS))
    ap.add_argument("--without-shrink", action="store_true", help="never read a photo again shrunk")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    labels = shared_labels(args.photos)
    if labels is None:
        return 2
    if args.without_shrink:
        vision.recognizer.BIG, vision.recognizer.UNSURE_PICTURE = float("inf"), 0.0
    with tempfile.TemporaryDirectory() as tmp:
        r = real(close_ups(labels, Path(tmp)), _ours(Recognizer()), quiet=True)
    report = {"machine": machine(), "shrink": not args.without_shrink,
              **{k: r[k] for k in ("rows", "labels", "precision", "recall", "red_five_recall", "sideways_recall",
                                   "exact_rows", "correct_per_photo")}}
    if args.json:
        print(json.dumps(report, indent=1))
        return 0
    print(f"{r['rows']} rows, {r['labels']} tiles: P {r['precision']:.3f}  R {r['recall']:.3f}  red fives "
          f"{r['red_five_recall']:.2f}  sideways {r['sideways_recall']:.2f}  exact rows {r['exact_rows']:.3f}")
    for name, correct in r["correct_per_photo"].items():
        print(f"  {name}: {correct} right")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

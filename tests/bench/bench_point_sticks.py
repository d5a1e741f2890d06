"""Point sticks and dice on the table in the shared real photos: how many tiles the recognizer reads on them.

    .venv/bin/python tests/bench/bench_point_sticks.py [--photos labels.json] [--sticks 3] [--dice 0] [--gap 0.3]
                                                       [--seeds 3] [--json]

Riichi sticks lie in front of a riichi player's discards, honba sticks beside the dealer, and loose sticks and the
dice anywhere. Each photo is read once to find its tiles and their size; then `--sticks` point sticks (1000, 100,
10000 and 5000 points in turn), drawn to scale (87 x 8.5 mm against a tile's 26 mm width) at random angles with a
soft shadow, and `--dice` dice (14 mm, a random face up) are laid on free table near the tiles, and the photo is read
again. Reported: tiles read on a stick or a die (each one a phantom tile), and precision and recall on the labelled
rows with them there (scored as `jantaku bench vision` scores real photos). They are drawn by
`vision.bench.lay_point_sticks`, not by the scene generator (`vision.synth`, whose sticks and dice train the next
detector), so the figure is no test of the generator's drawing against itself; like any pasted object they are
cleaner than real ones.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision.bench import PHOTO_LABELS, lay_point_sticks, machine, real, shared_labels  # noqa: E402
from vision.photo import load_photo  # noqa: E402
from vision.recognizer import Recognizer, read_view  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--photos", default=str(PHOTO_LABELS))
    ap.add_argument("--sticks", type=int, default=3, help="sticks laid on each photo")
    ap.add_argument("--dice", type=int, default=0, help="dice laid on each photo (14 mm, a face's pips up)")
    ap.add_argument("--gap", type=float, default=0.3, help="least distance from a tile, in tile widths (0.3)")
    ap.add_argument("--seeds", type=int, default=3, help="times each photo is read, with sticks laid elsewhere")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    labels = shared_labels(args.photos)
    if labels is None:
        return 2
    rec = Recognizer()
    found = {}
    for path in sorted({labels.parent / item["file"] for item in json.loads(labels.read_text())["images"].values()}):
        photo = load_photo(path)
        found[path] = (photo, [t.box for t in read_view(rec, photo).tiles])
    report = {"machine": machine(), "sticks": 0, "tiles_on_sticks": 0,
              "dice": 0, "tiles_on_dice": 0, "by_photo": {}, "runs": []}
    for seed in range(args.seeds):
        def read(path, seed=seed):
            photo, boxes = found[Path(path)]
            laid, outlines = lay_point_sticks(photo, boxes, args.sticks, random.Random(f"{seed}{Path(path).name}"),
                                              args.dice, args.gap)
            view = read_view(rec, laid)
            for kind, these in (("sticks", outlines[:args.sticks]), ("dice", outlines[args.sticks:])):
                on = sum(any(cv2.pointPolygonTest(o, t.centre, False) >= 0 for o in these) for t in view.tiles)
                report[kind] += len(these)
                report[f"tiles_on_{kind}"] += on
                report["by_photo"][Path(path).stem] = report["by_photo"].get(Path(path).stem, 0) + on
            return [(t.tile, t.box, t.sideways) for t in view.tiles], (laid.shape[1], laid.shape[0]), \
                [p.tiles for p in view.ponds]

        r = real(labels, read, quiet=True)
        report["runs"].append({k: r[k] for k in ("precision", "recall", "exact_rows")})
    if args.json:
        print(json.dumps(report, indent=1))
    else:
        print(f"{report['sticks']} sticks laid, {report['tiles_on_sticks']} tiles read on them; {report['dice']} dice "
              f"laid, {report['tiles_on_dice']} tiles read on them (by photo {report['by_photo']})")
        for k, run in enumerate(report["runs"]):
            print(f"seed {k}: labelled rows P {run['precision']:.3f}  R {run['recall']:.3f}  "
                  f"exact rows {run['exact_rows']:.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

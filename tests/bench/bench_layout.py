"""Layout-only accuracy of `vision.layout.build_view`, measured apart from the neural model.

    .venv/bin/python tests/bench/bench_layout.py [--scenes 200] [--seed 9] [--mix 2] [--json] [--failures 10]

Renders scenes with `vision.synth.make_scene` and turns their exact labels into the `SeenTile`s a perfect recognizer
would give (`vision.bench.perfect_tiles`, the conversion of `Recognizer.read_tiles`: detector axis from the label,
face orientation through the classifier's crop label, so symmetric faces carry none). `build_view` then reads them,
and each part is compared with the scene's truth by `vision.bench.truth_parts` / `seen_parts` (the comparison
`jantaku bench vision` uses). Two variants:

- perfect: the labels as they are;
- noisy: every box edge moved by up to `--jitter` of the box's side and `--drop` of the tiles missing, as a real
  detector gives. A part counts as *intact* when none of its own tiles was dropped; the intact rate shows whether a
  missing tile elsewhere breaks a part that could still be read.

A part whose truth holds tiles the image does not show (cut by the frame, or hidden behind nearer tiles) is left
out and counted as clipped.
Scenes are split by view, from the camera the generator framed: `diagonal` (the table's rows run 15 degrees or more
off the picture's axes: a corner of the table towards the camera, or a camera turned against the table), else
`overhead` (looking down at 70 degrees or more) or `angled` (a phone held lower). The tile art does not change a
scene's layout or camera, so only the FluffyStuff sets are drawn (`fonts=False`): fast, and the same on any machine.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import random
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from vision import synth  # noqa: E402
from vision.bench import (  # noqa: E402
    EMPTY_POND,
    HAND_PARTS,
    PONDS,
    ROLES,
    machine,
    perfect_tiles,
    seen_parts,
    truth_parts,
    visible_parts,
)
from vision.layout import build_view  # noqa: E402
from vision.view import SeenTile  # noqa: E402

PARTS = (*HAND_PARTS, *PONDS, "hand", "table")  # hand: all of HAND_PARTS right; table: every part right
VIEWS = ("overhead", "angled", "diagonal", "unknown")
SEED_OFFSET = 800_000  # scene k of seed s is s * 1_000_003 + SEED_OFFSET + k (apart from training and bench vision)


def noisy_tiles(tiles: list[SeenTile], rng: random.Random, jitter: float, drop: float
                ) -> tuple[list[SeenTile], set[int]]:
    """Boxes with each edge moved by up to `jitter` of the box side, and a share `drop` of tiles missing.

    Returns the tiles kept and the indices (into `tiles`) of those dropped."""
    kept, dropped = [], set()
    for k, t in enumerate(tiles):
        if rng.random() < drop:
            dropped.add(k)
            continue
        x1, y1, x2, y2 = t.box
        w, h = x2 - x1, y2 - y1
        box = (x1 + rng.uniform(-jitter, jitter) * w, y1 + rng.uniform(-jitter, jitter) * h,
               x2 + rng.uniform(-jitter, jitter) * w, y2 + rng.uniform(-jitter, jitter) * h)
        kept.append(dataclasses.replace(t, box=box))
    return kept, dropped


def view_kind(cam: synth.Camera | None) -> str:
    """overhead, angled or diagonal (see the module docstring); diagonal first, whatever the elevation."""
    if cam is None:
        return "unknown"
    f = cam.forward
    elevation = math.degrees(math.asin(max(-1.0, min(1.0, -float(f[2])))))
    azimuth = math.degrees(math.atan2(float(f[1]), float(f[0]))) % 90
    off_axis = min(azimuth, 90 - azimuth)
    if off_axis >= 15:  # also from straight above: the picture's axes are then turned against the table's
        return "diagonal"
    return "overhead" if elevation >= 70 else "angled"


def judge(truth: dict, seen: dict, visible: set[str], touched: set[str]) -> dict[str, str]:
    """Each part's outcome: ok, wrong, clipped (not all on the picture) or, for a wrong part, dropped (one of its
    own tiles was missing from the detections)."""
    out: dict[str, str] = {}
    for part in (*HAND_PARTS, *PONDS):
        if part not in truth and part not in seen:
            continue
        want, got = truth.get(part, EMPTY_POND), seen.get(part, EMPTY_POND)
        if part not in visible and part in truth:
            out[part] = "clipped"
        elif want == got:
            out[part] = "ok"
        else:
            out[part] = "dropped" if part in touched else "wrong"
    for name, members in (("hand", HAND_PARTS), ("table", tuple(out))):
        states = [out[p] for p in members if p in out]
        out[name] = ("clipped" if "clipped" in states else "dropped" if "dropped" in states
                     else "wrong" if "wrong" in states else "ok")
    return out


class Tally:
    """Outcome counts per (view, part)."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))

    def add(self, view: str, outcome: dict[str, str]) -> None:
        for part, state in outcome.items():
            for v in (view, "all"):
                self.counts[(v, part)][state] += 1

    def rates(self, view: str, part: str) -> dict:
        c = self.counts.get((view, part), {})
        ok, wrong, dropped = c.get("ok", 0), c.get("wrong", 0), c.get("dropped", 0)
        n = ok + wrong + dropped
        return {"exact": round(ok / n, 4) if n else None, "exact_intact": round(ok / (ok + wrong), 4)
                if ok + wrong else None, "n": n, "intact": ok + wrong, "clipped": c.get("clipped", 0)}


def run(scenes: int, seed: int, mix: int, jitter: float, drop: float, failures: int) -> dict:
    tallies = {"perfect": Tally(), "noisy": Tally()}
    views: dict[str, int] = defaultdict(int)
    shown = 0
    t0 = time.perf_counter()
    layout_s = 0.0
    for k in range(scenes):
        s = seed * 1_000_003 + SEED_OFFSET + k
        scene = synth.make_scene(s, mix=mix, fonts=False)
        view = view_kind(scene.camera)
        views[view] += 1
        h, w = scene.image.shape[:2]
        truth, visible = truth_parts(scene.truth), visible_parts(scene)
        tiles = perfect_tiles(scene.labels)
        noisy, dropped = noisy_tiles(tiles, random.Random(s ^ 0x1A70), jitter, drop)
        touched = {part for part, roles in ROLES.items() if any(scene.labels[i].role in roles for i in dropped)}
        for variant, seen_tiles, hit in (("perfect", tiles, set()), ("noisy", noisy, touched)):
            t1 = time.perf_counter()
            table = build_view(seen_tiles, w, h)
            layout_s += time.perf_counter() - t1
            outcome = judge(truth, seen_parts(table), visible, hit)
            tallies[variant].add(view, outcome)
            bad = [p for p, st in outcome.items() if st == "wrong" and p not in ("hand", "table")]
            if bad and shown < failures:
                shown += 1
                print(f"[{variant}] seed {s} ({scene.truth.kind}, {view}, viewer seat {scene.truth.viewer_seat}):",
                      file=sys.stderr)
                seen = seen_parts(table)
                for p in bad:
                    print(f"    {p}: want {truth.get(p, EMPTY_POND)}\n    {' ' * len(p)}  got  "
                          f"{seen.get(p, EMPTY_POND)}", file=sys.stderr)
                if table.warnings:
                    print(f"    warnings: {list(table.warnings)}", file=sys.stderr)
    report = {"machine": machine(), "scenes": scenes, "seed": seed,
              "mix": mix, "jitter": jitter, "drop": drop, "views": dict(views),
              "seconds": round(time.perf_counter() - t0, 1),
              "layout_ms_per_view": round(1000 * layout_s / max(2 * scenes, 1), 2)}
    for variant, tally in tallies.items():
        report[variant] = {v: {p: tally.rates(v, p) for p in PARTS} for v in (*VIEWS, "all") if views.get(v) or
                           v == "all"}
    return report


def _cell(r: dict, key: str) -> str:
    return "   -   " if r[key] is None else f"{r[key]:.3f}".rjust(7)


def print_report(r: dict) -> None:
    print(f"layout bench: {r['scenes']} scenes (seed {r['seed']}, mix {r['mix']}) on {r['machine']}, "
          f"{r['seconds']} s; layout {r['layout_ms_per_view']} ms per view")
    print("views: " + ", ".join(f"{v} {n}" for v, n in sorted(r["views"].items())))
    heads = [p.replace("pond:", "p.") for p in PARTS]
    for variant, key, title in (("perfect", "exact", "perfect detections: exact rate per part"),
                                ("noisy", "exact", f"noisy (jitter {r['jitter']}, drop {r['drop']}): exact rate"),
                                ("noisy", "exact_intact", "noisy: exact rate of parts none of whose tiles dropped")):
        print(f"\n{title}")
        print("view      " + "".join(h[:7].rjust(8) for h in heads))
        for view, parts in r[variant].items():
            print(f"{view:<10}" + "".join(" " + _cell(parts[p], key) for p in PARTS))
        n = r[variant]["all"]
        print("n (all)   " + "".join(str(n[p]["n"]).rjust(8) for p in PARTS))
    clipped = {p: r["perfect"]["all"][p]["clipped"] for p in PARTS if r["perfect"]["all"][p]["clipped"]}
    if clipped:
        print(f"\nparts left out as not all in sight (cut by the frame or hidden): {clipped}")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--scenes", type=int, default=200)
    p.add_argument("--seed", type=int, default=9)
    p.add_argument("--mix", type=int, default=synth.DEFAULT_MIX, choices=sorted(synth.MIXES))
    p.add_argument("--jitter", type=float, default=0.04, help="box edge noise, share of the box side (0.04)")
    p.add_argument("--drop", type=float, default=0.015, help="share of tiles the noisy detector misses (0.015)")
    p.add_argument("--failures", type=int, default=0, help="print up to N wrong parts to stderr")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    a = p.parse_args(argv)
    report = run(a.scenes, a.seed, a.mix, a.jitter, a.drop, a.failures)
    if a.json:
        print(json.dumps(report, indent=1))
    else:
        print_report(report)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

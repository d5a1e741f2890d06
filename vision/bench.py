"""`jantaku bench vision`: per-tile precision/recall, red-five recall, sideways accuracy, exact rows, speed.

(a) Held-out rendered scenes (a seed the training never used): detections are matched to labels by IoU >= 0.5.
    Exact rows are the hand's parts (concealed, winning tile, melds, dora) in full view, exact hands the scenes
    whose hand parts are all in full view (also counted after `score-photo`'s second reading of a hand that does
    not win: `vision.rereading`); exact ponds the discard ponds in sight, in order with the riichi tile,
    and any pond read where the scene has none. A part the frame cuts or nearer tiles hide (a tile of it unlabelled)
    cannot be read exactly: such parts are counted apart, and `exact_rows_with_clipped` counts them as rows too.
(b) The real photos of labels.json: a detection counts for a row when its box centre falls in the row's region (the
    smallest, where regions overlap); tiles marked uncertain are left out; names are matched as multisets
    (order-free), a row is exact when the detections in it, read left to right, equal the labelled row (a pond's
    rows, listed in the order played: when a pond read equals it).
(c) Milliseconds per 12-megapixel photo end to end (decode, EXIF, both models, layout) on this machine, upright and
    held askew, and per 24- and 50-MP photo (read shrunk to `recognizer.MAX_SIDE`), beside the
    PyPI package mahjong-detector (`--peer`; the optional extra `pip install -e .[peer]`: self-contained, its own
    ONNX model inside, onnxruntime and Pillow).
"""

from __future__ import annotations

import dataclasses
import json
import os
import platform
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import cv2
import numpy as np

from vision.art import FONT_CANDIDATES, SHARED
from vision.classes import SYMMETRIC, crop_label, is_horizontal, orientation_from_crop
from vision.faces import find_cjk_fonts
from vision.progress import progress
from vision.recognizer import Recognizer, read_view, unturn_box
from vision.rereading import winning_reading
from vision.synth import DIE, PIPS, STICK_L, STICK_W, TILE_W, Scene, SceneTruth, TileLabel, make_scene
from vision.view import SEAT_NAMES, SeenTile, TableView, box_iou

PEER_NAMES = {"chun": "7z", "haku": "5z", "hatsu": "6z", "nan": "2z", "pe": "4z", "sha": "3z", "tou": "1z"}


def match(labels, tiles: list[SeenTile], thr: float = 0.5) -> list[tuple[int, int]]:
    """Greedy one-to-one (label index, tile index) pairs by IoU."""
    pairs = sorted(((box_iou(lb.box, t.box), i, j) for i, lb in enumerate(labels) for j, t in enumerate(tiles)),
                   reverse=True)
    used_l, used_t, out = set(), set(), []
    for iou, i, j in pairs:
        if iou < thr:
            break
        if i in used_l or j in used_t:
            continue
        used_l.add(i)
        used_t.add(j)
        out.append((i, j))
    return out


HAND_PARTS = ("concealed", "win", "melds", "dora")  # what scoring a photo needs; ponds are "pond:<seat>"
PONDS = tuple(f"pond:{s}" for s in SEAT_NAMES)
ROLES = {"concealed": {"hand"}, "win": {"win"}, "melds": {"meld"}, "dora": {"dora"},
         **{f"pond:{s}": {f"pond{k}"} for k, s in enumerate(SEAT_NAMES)}}  # the labels' roles making up each part
EMPTY_POND = ([], None)


def _meld_part(kind: str, tiles, source) -> tuple:
    """A meld as compared. A closed kan of fives holds every five of its suit, red ones too, but shows only its two
    middle tiles: whether a red five lies under a back is the rules' to say (`score-photo` names it,
    `table.hand.name_hidden_red_fives`), not the photo's, so such a kan is compared as plain fives."""
    if kind == "closed-kan" and all(t[0] in "05" and t[1:] == tiles[0][1:] for t in tiles):
        tiles = ["5" + t[1:] for t in tiles]
    return kind, list(tiles), source


def truth_parts(truth: SceneTruth) -> dict:
    """A scene's truth part by part, in the shape `seen_parts` gives, so a part is read right when they are equal.

    Table seats become the seat names of `TableView` (seat 0 is the winner, `near`); a seat whose pond is empty is
    ([], None), as is a seat the view has no pond for."""
    parts: dict = {"concealed": list(truth.concealed), "win": truth.win,
                   "melds": [_meld_part(m.kind, m.tiles, m.source) for m in truth.melds],
                   "dora": list(truth.dora_indicators)}
    for seat, tiles in truth.ponds.items():
        parts[f"pond:{SEAT_NAMES[seat]}"] = (list(tiles), truth.riichi.get(seat))
    return parts


def seen_parts(view: TableView) -> dict:
    """What the layout read, part by part (see `truth_parts`)."""
    parts: dict = {"concealed": list(view.hand.concealed), "win": view.hand.win,
                   "melds": [_meld_part(m.kind, m.tiles, m.source) for m in view.hand.melds],
                   "dora": list(view.dora_indicators)}
    for p in view.ponds:
        parts[f"pond:{p.seat}"] = (list(p.tiles), p.riichi)
    return parts


def visible_parts(scene: Scene) -> set[str]:
    """Parts whose every tile is labelled (on the picture, not cut by the frame or hidden), so they can be read."""
    roles = [lb.role for lb in scene.labels]
    t = scene.truth
    want = {"concealed": len(t.concealed), "win": 1 if t.win else 0,
            "melds": sum(len(m.tiles) for m in t.melds), "dora": len(t.dora_indicators),
            **{f"pond:{SEAT_NAMES[s]}": len(tiles) for s, tiles in t.ponds.items()}}
    return {part for part, n in want.items() if sum(r in ROLES[part] for r in roles) == n}


def perfect_tiles(labels: list[TileLabel]) -> list[SeenTile]:
    """What a recognizer that never errs reports for these labels (see `Recognizer.read_tiles`): the detector's axis
    from the label, the face's orientation through the classifier's crop label (symmetric faces carry none)."""
    out = []
    for lb in labels:
        name, orientation = orientation_from_crop(lb.det, crop_label(lb.name, lb.orientation, SYMMETRIC), SYMMETRIC)
        out.append(SeenTile(name, lb.box, 1.0, horizontal=is_horizontal(lb.det), orientation=orientation))
    return out


def scene_fonts() -> list[str]:
    """The font files rendered scenes draw faces from (the glyph set, the procedural sets' calligraphy): a seed
    renders other scenes where other fonts are installed, so a figure holds with these."""
    return sorted({os.path.basename(p) for p in FONT_CANDIDATES if os.path.exists(p)}
                  | {os.path.basename(p) for p, _ in find_cjk_fonts()})


FAR_SIZE = (4000, 3000)  # 12 MP: scenes shrunk in the frame are rendered this large first


def far_scene(scene: Scene, share: float) -> Scene:
    """The scene with its picture shrunk to `share` of the frame (`shrunk_in_frame`: the camera higher, a wider
    lens), its labels and props taken along."""
    img, m = shrunk_in_frame(scene.image, share)
    return dataclasses.replace(scene, image=img,
                               labels=[dataclasses.replace(lb, box=_box_back(lb.box, m)) for lb in scene.labels],
                               props=[cv2.perspectiveTransform(o, m) for o in scene.props])


def synthetic(rec: Recognizer, n: int, seed: int, quiet: bool = False, mix: int = 1, share: float = 1.0) -> dict:
    """Held-out rendered scenes read and scored; with `share` under 1, each rendered at 12 MP (FAR_SIZE) and shrunk
    to that share of the frame."""
    found = correct = n_labels = n_tiles = 0
    red = red_ok = side = side_ok = 0
    rows = rows_ok = clipped = clipped_ok = ponds = ponds_ok = props = on_props = 0
    hands: Counter = Counter()
    hands_ok: Counter = Counter()
    hands_clipped: Counter = Counter()
    hands_second: Counter = Counter()  # exact with score-photo's second reading of a hand that does not win
    for k in progress(range(n), n, "synthetic scenes", enabled=not quiet):
        scene = make_scene(seed * 1_000_003 + 700_000 + k, mix=mix, **({"size": FAR_SIZE} if share < 1 else {}))
        if share < 1:
            scene = far_scene(scene, share)
        view = read_view(rec, scene.image)
        tiles = list(view.tiles)
        props += len(scene.props)
        on_props += sum(any(cv2.pointPolygonTest(o, t.centre, False) >= 0 for o in scene.props) for t in tiles)
        pairs = match(scene.labels, tiles)
        n_labels += len(scene.labels)
        n_tiles += len(tiles)
        found += len(pairs)
        for i, j in pairs:
            lb, t = scene.labels[i], tiles[j]
            ok = lb.name == t.tile
            correct += ok
            if lb.name[0] == "0":
                red += 1
                red_ok += ok
            if lb.sideways:
                side += 1
                side_ok += view.tiles[j].sideways
        matched = {i for i, _ in pairs}
        for i, lb in enumerate(scene.labels):  # red fives and sideways tiles the detector missed count as failures
            if i not in matched:
                red += lb.name[0] == "0"
                side += lb.sideways
        t = scene.truth
        truth_rows, seen_rows = truth_parts(t), seen_parts(view)
        visible = visible_parts(scene)
        ok_all = True
        for key in HAND_PARTS:  # a row in full view; one the frame cuts or nearer tiles hide cannot be read exactly
            same = truth_rows[key] == seen_rows[key]
            ok_all &= same
            clipped += key not in visible
            clipped_ok += key not in visible and same
            rows += key in visible
            rows_ok += key in visible and same
        if all(key in visible for key in HAND_PARTS):
            hands[t.kind] += 1
            hands_ok[t.kind] += ok_all
            again = seen_parts(winning_reading(view))
            hands_second[t.kind] += all(truth_rows[key] == again[key] for key in HAND_PARTS)
        else:
            hands_clipped[t.kind] += 1
        for key in PONDS:  # a pond in sight, or one read where the scene has none
            if key in visible or key in seen_rows and key not in truth_rows:
                ponds += 1
                ponds_ok += truth_rows.get(key, EMPTY_POND) == seen_rows.get(key, EMPTY_POND)
    return {"scenes": n, "labels": n_labels, "detections": n_tiles,
            "precision": round(correct / max(n_tiles, 1), 4), "recall": round(correct / max(n_labels, 1), 4),
            "located": round(found / max(n_labels, 1), 4), "red_five_recall": round(red_ok / max(red, 1), 4),
            "red_fives": red, "sideways_accuracy": round(side_ok / max(side, 1), 4), "sideways": side,
            "exact_rows": round(rows_ok / max(rows, 1), 4), "rows": rows, "rows_clipped": clipped,
            "exact_rows_with_clipped": round((rows_ok + clipped_ok) / max(rows + clipped, 1), 4),
            "exact_ponds": round(ponds_ok / ponds, 4) if ponds else None, "ponds": ponds,
            "exact_hands": {k: f"{hands_ok[k]}/{hands[k]}" for k in sorted(hands)},
            "exact_hands_second_reading": {k: f"{hands_second[k]}/{hands[k]}" for k in sorted(hands)},
            "hands_clipped": {k: hands_clipped[k] for k in sorted(hands_clipped)}, "fonts": scene_fonts(),
            **({"props": props, "tiles_on_props": on_props} if props else {})}


def _real_rows(labels_path: Path):
    data = json.loads(labels_path.read_text())
    for key, item in data["images"].items():
        yield key, labels_path.parent / item["file"], item["rows"]


def _is_pond(row: dict) -> bool:
    return "discard" in row.get("name", "")


def _region_of(box, regions) -> int | None:
    """The smallest of `regions` (x0, y0, x1, y1) holding the box's centre, if any."""
    x, y = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    inside = [k for k, (x0, y0, x1, y1) in enumerate(regions) if x0 <= x <= x1 and y0 <= y <= y1]
    return min(inside, key=lambda k: (regions[k][2] - regions[k][0]) * (regions[k][3] - regions[k][1]), default=None)


def real(labels_path: Path, read_fn, quiet: bool = False) -> dict:
    """Score `read_fn(path) -> (list of (name, box, sideways)), (w, h)[, ponds]` on labelled photos, `ponds` the
    discard rows read (tuples of names in the order played).

    A detection counts for the smallest row region its box centre falls in (regions may overlap: a winning tile set
    apart inside the hand's region). A pond's row (its name says discards; its tiles are listed in the order played,
    over two or three rows) is exact when a pond read is exactly it; any other row when its detections, read left to
    right, are."""
    items = list(_real_rows(labels_path))
    n_det = n_lab = correct = red = red_ok = side = side_ok = rows = rows_ok = 0
    per_photo = {}
    for key, path, photo_rows in progress(items, len(items), "real photos", enabled=not quiet):
        tiles, (w, h), *more = read_fn(path)
        ponds = {tuple(p) for p in more[0]} if more else set()
        regions = [(x0 * w, y0 * h, x1 * w, y1 * h) for x0, y0, x1, y1 in (row["roi"] for row in photo_rows)]
        home = [_region_of(t[1], regions) for t in tiles]
        got_photo = 0
        for k, row in enumerate(photo_rows):
            inside = [t for t, at in zip(tiles, home, strict=True) if at == k and t[0] != "back"]
            unc = set(row.get("uncertain", []))
            want = [x for i, x in enumerate(row["tiles"]) if i not in unc]
            seen = [t[0] for t in inside]
            hit = sum((Counter(want) & Counter(seen)).values())
            correct += hit
            got_photo += hit
            n_lab += len(want)
            n_det += max(len(seen) - len(unc), 0) if unc else len(seen)
            reds = [x for x in want if x[0] == "0"]
            red += len(reds)
            red_ok += sum((Counter(reds) & Counter(seen)).values())
            side += len(row.get("sideways", []))
            side_ok += min(sum(1 for t in inside if t[2]), len(row.get("sideways", [])))
            rows += 1
            ordered = [t[0] for t in sorted(inside, key=lambda t: (t[1][0] + t[1][2]) / 2)]
            rows_ok += not unc and (tuple(row["tiles"]) in ponds if _is_pond(row) else ordered == row["tiles"])
        per_photo[key] = got_photo
    return {"photos": len(items), "labels": n_lab, "detections": n_det,
            "precision": round(correct / max(n_det, 1), 4), "recall": round(correct / max(n_lab, 1), 4),
            "red_five_recall": round(red_ok / max(red, 1), 4), "red_fives": red,
            "sideways_recall": round(side_ok / max(side, 1), 4), "sideways": side,
            "exact_rows": round(rows_ok / max(rows, 1), 4), "rows": rows, "correct_per_photo": per_photo}


def _ours(rec: Recognizer, turns: int = 0, change=None, warnings: list | None = None):
    """Photo -> what we read, boxes in the photo as loaded. `change` first alters the photo (another camera's look:
    tests/bench/bench_camera_shifts.py); it returns the changed picture, or the picture and a 3x3 homography from
    the photo's pixels to it (a resize, a camera tilted or turned), by which boxes are taken back. `turns` then turns
    it that many quarter turns (a picture on its side or upside down with no EXIF orientation). Each reading's
    warnings are added to `warnings` when given."""
    from vision.photo import load_photo

    def read(path):
        photo = load_photo(path)
        changed = change(photo) if change else photo
        changed, to_changed = changed if isinstance(changed, tuple) else (changed, None)
        if to_changed is None:  # a plain resize (or none): the corners correspond
            ch, cw = changed.shape[:2]
            to_changed = np.diag([cw / photo.shape[1], ch / photo.shape[0], 1.0])
        img = np.ascontiguousarray(np.rot90(changed, turns))
        h, w = img.shape[:2]
        view = read_view(rec, img)
        if warnings is not None:
            warnings.append(view.warnings)
        back = np.linalg.inv(to_changed)
        boxes = [_box_back(unturn_box(t.box, turns, w, h), back) for t in view.tiles]
        return [(t.tile, b, t.sideways) for t, b in zip(view.tiles, boxes, strict=True)], \
            (photo.shape[1], photo.shape[0]), [p.tiles for p in view.ponds]

    return read


def _box_back(box, homography: np.ndarray) -> tuple[float, float, float, float]:
    """The box around a box's corners taken through a homography (the changed picture's pixels to the photo's)."""
    x1, y1, x2, y2 = box
    pts = cv2.perspectiveTransform(np.array([[[x1, y1], [x2, y1], [x2, y2], [x1, y2]]], np.float64), homography)[0]
    return (*pts.min(axis=0), *pts.max(axis=0))


STICK_PER_TILE = STICK_L / TILE_W  # a point stick's length in tile widths
STICK_WIDTH = STICK_W / STICK_L  # its width in lengths
DIE_PER_TILE = DIE / TILE_W  # a die's edge
STICK_VALUES = (1000, 100, 10000, 5000)
RED, BLACK = (40, 40, 200), (25, 25, 25)


def _stick(length: int, value: int, rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """A stick's picture and alpha, lying along x: ivory plastic rounder across, with its value's dots."""
    width = max(4, round(length * STICK_WIDTH))
    alpha = np.zeros((width, length), np.uint8)
    r = width // 2
    cv2.rectangle(alpha, (r, 0), (length - r, width - 1), 255, -1)
    for x in (r, length - r - 1):
        cv2.circle(alpha, (x, r), r, 255, -1, cv2.LINE_AA)
    across = 0.8 + 0.2 * np.sin(np.linspace(0, np.pi, width))
    img = np.clip(rng.uniform(200, 245) * across[:, None, None] * np.ones((1, length, 3)), 0, 255).astype(np.uint8)
    dot = max(1, width // 5)
    if value == 100:  # two groups of four at the ends
        for x in (0.2, 0.8):
            for dx in (-0.035, 0.035):
                for y in (0.3, 0.7):
                    cv2.circle(img, (round((x + dx) * length), round(y * width)), dot, BLACK, -1, cv2.LINE_AA)
    else:  # a red dot in the middle, black dots either side of it for 5000 and 10000
        cv2.circle(img, (length // 2, r), dot + 1, RED, -1, cv2.LINE_AA)
        for k in range(1, {1000: 1, 5000: 3, 10000: 5}[value]):
            for side in (-1, 1):
                cv2.circle(img, (round((0.5 + side * 0.07 * k) * length), r), dot, BLACK, -1, cv2.LINE_AA)
    return img, alpha


def _die(size: int, face: int, rng: random.Random) -> tuple[np.ndarray, np.ndarray]:
    """A die seen from above: white, its face's pips (the one a large red pip)."""
    img = np.full((size, size, 3), rng.uniform(215, 245), np.uint8)
    for x, y in PIPS[face]:
        cv2.circle(img, (round(x * size), round(y * size)), max(2, size // (5 if face == 1 else 9)),
                   RED if face == 1 else BLACK, -1, cv2.LINE_AA)
    return img, np.full((size, size), 255, np.uint8)


def shrunk_in_frame(img: np.ndarray, share: float) -> tuple[np.ndarray, np.ndarray]:
    """The photo's picture shrunk to `share` of the frame, in its middle, on a plain cloth of its edges' colour (the
    camera higher, or a wider lens: the tiles fill a small part of the photo); and the 3x3 map from the photo's
    pixels to it."""
    h, w = img.shape[:2]
    small = cv2.resize(img, None, fx=share, fy=share, interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    top, left = (h - sh) // 2, (w - sw) // 2
    edges = np.concatenate([img[0], img[-1], img[:, 0], img[:, -1]])
    out = np.clip(np.median(edges, axis=0) + np.random.default_rng(0).normal(0, 6, img.shape), 0, 255)
    out = out.astype(np.uint8)
    out[top:top + sh, left:left + sw] = small
    return out, np.array([[sw / w, 0, left], [0, sh / h, top], [0, 0, 1]])


def lay_point_sticks(photo: np.ndarray, boxes: list[tuple[float, float, float, float]], n: int, rng: random.Random,
                     dice: int = 0, gap: float = 0.3) -> tuple[np.ndarray, list[np.ndarray]]:
    """The photo with `n` point sticks (1000, 100, 10000, 5000 points in turn) and `dice` dice drawn to the scale of
    the tiles (`boxes`), at random angles on free table near them (`gap` tile widths or more from every tile), with a
    soft shadow; and each one's outline. Drawn here, not by the scene generator, so a model trained on the
    generator's sticks and dice is not tested on its own drawing (tests/bench/bench_point_sticks.py)."""
    h, w = photo.shape[:2]
    tile = float(np.median([min(b[2] - b[0], b[3] - b[1]) for b in boxes]))
    length, side, m = round(STICK_PER_TILE * tile), round(DIE_PER_TILE * tile), gap * tile
    taken = np.zeros((h, w), np.uint8)
    for x1, y1, x2, y2 in boxes:
        cv2.rectangle(taken, (int(x1 - m), int(y1 - m)), (int(x2 + m), int(y2 + m)), 255, -1)
    xs, ys = [b[0] for b in boxes] + [b[2] for b in boxes], [b[1] for b in boxes] + [b[3] for b in boxes]
    near = (max(min(xs) - 2 * length, 0), max(min(ys) - 2 * length, 0), min(max(xs) + 2 * length, w),
            min(max(ys) + 2 * length, h))
    out = photo.astype(np.float32)
    outlines = []
    for k in range(n + dice):
        size = (length, max(4, round(length * STICK_WIDTH))) if k < n else (side, side)
        for _ in range(300):
            centre = (rng.uniform(near[0], near[2]), rng.uniform(near[1], near[3]))
            angle = rng.uniform(0, 180)
            clear = cv2.boxPoints((centre, (size[0] * 1.1, size[1] * 2), -angle))  # with room for its shadow
            if clear.min() < 0 or (clear[:, 0].max() >= w) or (clear[:, 1].max() >= h):
                continue
            mask = np.zeros_like(taken)
            cv2.fillConvexPoly(mask, clear.astype(np.int32), 255)
            if (mask & taken).any():
                continue
            img, alpha = (_stick(length, STICK_VALUES[k % len(STICK_VALUES)], rng) if k < n
                          else _die(side, rng.randint(1, 6), rng))
            turn = cv2.getRotationMatrix2D((size[0] / 2, size[1] / 2), angle, 1.0)
            turn[:, 2] += (centre[0] - size[0] / 2, centre[1] - size[1] / 2)
            a = cv2.warpAffine(alpha, turn, (w, h)).astype(np.float32) / 255
            shadow = np.roll(cv2.GaussianBlur(a, (0, 0), max(1.0, length / 60)), (length // 40,) * 2, (0, 1))
            out *= (1 - 0.3 * shadow)[..., None]
            out = out * (1 - a[..., None]) + cv2.warpAffine(img, turn, (w, h)).astype(np.float32) * a[..., None]
            cv2.fillConvexPoly(taken, clear.astype(np.int32), 255)
            outlines.append(cv2.boxPoints((centre, size, -angle)).astype(np.float32))
            break
    return np.clip(out, 0, 255).astype(np.uint8), outlines


def closeup_shares(rec: Recognizer, seeds) -> tuple[float, float, int]:
    """Located and read-right shares of the tiles of fixed rendered close-ups (the model test's floors), and the
    number of tiles: FluffyStuff styles only (`fonts=False`, round-1 mix), so the scenes are the same on any machine."""
    labels = located = correct = 0
    for seed in seeds:
        scene = make_scene(seed, kind="closeup", fonts=False, mix=1)
        tiles = rec.read_tiles(scene.image)
        pairs = match(scene.labels, tiles)
        labels += len(scene.labels)
        located += len(pairs)
        correct += sum(scene.labels[i].name == tiles[j].tile for i, j in pairs)
    return located / labels, correct / labels, labels


def real_subset(labels_path: Path, names, read_fn) -> dict:
    """`real` on only the photos `names` of labels.json (through a scratch copy that points at the same files)."""
    data = json.loads(labels_path.read_text())
    items = {k: dict(v, file=str(labels_path.parent / v["file"])) for k, v in data["images"].items() if k in names}
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "labels.json"
        path.write_text(json.dumps({"images": items}))
        return real(path, read_fn, quiet=True)


def _peer():
    try:
        from mahjong_detector.predict import CLASS_NAMES, predict
        from mahjong_detector.preprocess import preprocess_image
        from PIL import Image, ImageOps
    except Exception as exc:  # noqa: BLE001 - any import failure means the peer is unavailable
        return None, f"mahjong-detector not importable ({type(exc).__name__}: {exc}; pip install -e .[peer])"

    def read(path):
        img = ImageOps.exif_transpose(Image.open(path))
        boxed, pad = preprocess_image(img)
        dets = predict(boxed, pad)
        names = [CLASS_NAMES[d.class_id] for d in dets]
        return [(PEER_NAMES.get(n, n), (d.x1, d.y1, d.x2, d.y2), False) for n, d in zip(names, dets, strict=True)], \
            img.size

    return read, "mahjong-detector 0.0.6 (PyPI), its own preprocessing and thresholds"


def _big_photo(labels_path: Path, folder: str, size: tuple[int, int] = (4000, 3000), askew: float = 0.0,
               share: float = 1.0, zoom: float = 1.0) -> Path:
    """A real photo upscaled to `size` (4000 x 3000: 12 MP) and saved as JPEG, for end-to-end timing; `askew`
    degrees turned about its centre (a phone held askew: read twice, as it is and turned square); its picture
    shrunk to `share` of the frame (a phone held high: read twice, whole and cut to the tiles); its middle
    1/`zoom` of each side only (a close-up: tiles that large are read again shrunk)."""
    _, path, _ = next(iter(_real_rows(labels_path)))
    img = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if img.shape[0] > img.shape[1]:
        img = cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    h, w = img.shape[:2]
    dy, dx = round(h * (1 - 1 / zoom) / 2), round(w * (1 - 1 / zoom) / 2)
    big = cv2.resize(img[dy:h - dy, dx:w - dx], size, interpolation=cv2.INTER_CUBIC)
    if askew:
        big = cv2.warpAffine(big, cv2.getRotationMatrix2D((size[0] / 2, size[1] / 2), askew, 1.0), size,
                             borderMode=cv2.BORDER_REFLECT)
    if share < 1:
        big = shrunk_in_frame(big, share)[0]
    out = Path(folder) / f"photo_{size[0]}_{askew:g}_{share:g}_{zoom:g}.jpg"
    cv2.imwrite(str(out), big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return out


def _time(read, path: Path, repeat: int) -> float:
    read(path)  # warm-up (sessions, caches)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        read(path)
        times.append((time.perf_counter() - t0) * 1000)
    return statistics.median(times)


def _timings(ours, labels: Path, args, quiet: bool, recall: float) -> dict:
    """Milliseconds per photo (12 MP upright, held askew, filling a third and a tenth of the frame, a close-up of its
    middle; 24 and 50 MP), and the peer's beside ours (whose recall on the real photos is `recall`)."""
    report: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        big = _big_photo(labels, tmp)
        report["ms_per_12mp_photo"] = round(_time(ours, big, args.repeat), 1)
        askew = _big_photo(labels, tmp, askew=30)
        report["ms_per_12mp_photo_askew_30"] = round(_time(ours, askew, args.repeat), 1)
        far = _big_photo(labels, tmp, share=1 / 3)
        report["ms_per_12mp_photo_in_a_third_of_the_frame"] = round(_time(ours, far, args.repeat), 1)
        farther = _big_photo(labels, tmp, share=0.1)  # too few tiles found at first: searched in windows
        report["ms_per_12mp_photo_in_a_tenth_of_the_frame"] = round(_time(ours, farther, args.repeat), 1)
        close = _big_photo(labels, tmp, zoom=2.5)  # tiles too large for the detector: read again shrunk
        report["ms_per_12mp_close_up"] = round(_time(ours, close, args.repeat), 1)
        for mp, size in ((24, (5712, 4284)), (50, (8160, 6120))):  # phones' larger modes: read shrunk
            report[f"ms_per_{mp}mp_photo"] = round(_time(ours, _big_photo(labels, tmp, size), args.repeat), 1)
        if args.peer:
            peer, note = _peer()
            report["peer"] = {"note": note}
            if peer is not None:
                report["peer"]["real"] = real(labels, peer, quiet)
                report["peer"]["ms_per_12mp_photo"] = round(_time(peer, big, args.repeat), 1)
                pr = report["peer"]["real"]["recall"]
                report["peer"]["time_ratio_ours_over_peer"] = round(
                    report["ms_per_12mp_photo"] / max(report["peer"]["ms_per_12mp_photo"], 1e-6), 2)
                report["peer"]["recall_ratio_ours_over_peer"] = round(recall / pr, 2) \
                    if pr else None
    return report


PHOTO_LABELS = SHARED / "photos" / "labels.json"


def machine() -> str:
    """The machine a bench ran on, as its report names it."""
    return f"{platform.machine()}, {os.cpu_count()} CPU cores"


def shared_labels(path: str) -> Path | None:
    """The real photos' labels.json at `path`, or None after saying where it was looked for: a bench of the shared
    photos has nothing to read without them (its caller exits 2)."""
    labels = Path(path)
    if labels.exists():
        return labels
    print(f"{labels} not found (shared/ beside the clone)", file=sys.stderr)
    return None


def run(args) -> dict:
    quiet = getattr(args, "json", False)
    rec = Recognizer(getattr(args, "models", None))
    report: dict = {"machine": f"{machine()}, no GPU",
                    "models": str(rec.folder)}
    if args.synthetic:
        share = getattr(args, "share", 1.0)
        report["synthetic"] = synthetic(rec, args.synthetic, args.seed, quiet, getattr(args, "mix", 1), share)
        report["synthetic"]["mix"] = getattr(args, "mix", 1)
        if share < 1:
            report["synthetic"]["share_of_frame"] = share
    labels = Path(args.photos) if getattr(args, "photos", None) else PHOTO_LABELS
    if not labels.exists():
        report["real"] = {"note": f"{labels} not found"}
    else:
        ours = _ours(rec)
        report["real"] = real(labels, ours, quiet)
        report["real_turned"] = {f"{90 * k}": {key: v for key, v in real(labels, _ours(rec, k), quiet).items()
                                               if key in ("precision", "recall", "exact_rows")} for k in (1, 2, 3)}
        if args.repeat > 0:
            report.update(_timings(ours, labels, args, quiet, report["real"]["recall"]))
    if not quiet:
        _print(report)
    return report


def _views(counts: dict) -> str:
    """{"closeup": "23/27", "table": "26/30"} as "23/27 close-ups, 26/30 tables" for the text report."""
    return ", ".join(f"{n} {'close-ups' if kind == 'closeup' else kind + 's'}" for kind, n in counts.items()) or "none"


def _print(r: dict) -> None:
    print(f"jantaku bench vision on {r['machine']}")
    for key in ("synthetic", "real"):
        s = r.get(key)
        if not s or "note" in s:
            print(f"  {key}: {s.get('note') if s else 'skipped'}")
            continue
        print(f"  {key}: precision {s['precision']:.3f}  recall {s['recall']:.3f}  red-five recall "
              f"{s['red_five_recall']:.3f} (n={s['red_fives']})  sideways "
              f"{s.get('sideways_accuracy', s.get('sideways_recall', 0)):.3f} (n={s['sideways']})  exact rows "
              f"{s['exact_rows']:.3f}"
              + (f" (n={s['rows']}; {s['exact_rows_with_clipped']:.3f} with the {s['rows_clipped']} cut or hidden)"
                 if "rows_clipped" in s else "")
              + (f"  exact ponds {s['exact_ponds']:.3f} (n={s['ponds']})" if s.get("ponds") else "")
              + (f"  exact hands {_views(s['exact_hands'])} (in full view; {_views(s['hands_clipped'])} not), "
                 f"{_views(s['exact_hands_second_reading'])} with score-photo's second readings"
                 if "exact_hands" in s else "")
              + (f"  tiles read on {s['props']} point sticks and dice: {s['tiles_on_props']}" if "props" in s else ""))
        if "fonts" in s:
            print(f"    scenes drawn with the fonts {', '.join(s['fonts']) or '(none)'}")
    if "real_turned" in r:
        print("  real, the photos turned (no EXIF): " + "; ".join(
            f"{deg} degrees P {v['precision']:.3f} R {v['recall']:.3f} rows {v['exact_rows']:.3f}"
            for deg, v in r["real_turned"].items()))
    if "ms_per_12mp_photo" in r:
        print(f"  end to end, 12-megapixel JPEG: {r['ms_per_12mp_photo']:.0f} ms (median); held 30 degrees askew "
              f"{r['ms_per_12mp_photo_askew_30']:.0f} ms; in a third of the frame "
              f"{r['ms_per_12mp_photo_in_a_third_of_the_frame']:.0f} ms, a tenth "
              f"{r['ms_per_12mp_photo_in_a_tenth_of_the_frame']:.0f} ms; 24 MP {r['ms_per_24mp_photo']:.0f} ms, 50 MP "
              f"{r['ms_per_50mp_photo']:.0f} ms")
    p = r.get("peer")
    if p:
        print(f"  peer: {p['note']}")
        if "real" in p:
            s = p["real"]
            print(f"  peer real: precision {s['precision']:.3f}  recall {s['recall']:.3f}  exact rows "
                  f"{s['exact_rows']:.3f}; {p['ms_per_12mp_photo']:.0f} ms per 12-MP photo; ours/peer time "
                  f"{p['time_ratio_ours_over_peer']}, recall {p['recall_ratio_ours_over_peer']}")

"""Reading tiles from an image with onnxruntime and OpenCV only (no torch), as on a Raspberry Pi.

Stage 1, the detector, finds every tile on a downscaled copy of the photo and says whether it is face up and whether
its long axis runs vertically or horizontally. Stage 2, the classifier, reads each tile from a crop of the
full-resolution photo (so red fives and small pips stay readable), turned upright by the detector's axis.

A photo whose picture lies on its side or upside down (a camera held turned, no EXIF orientation) is first turned
by the quarter turn the detector is surest of (`Recognizer.detect`); one whose tiles' faces carry a colour cast is
read again white-balanced to them, one whose rows run askew (a phone held at a slant) again turned square to
them, and one whose tiles fill a small part of it again cut to them (`Recognizer.read`). Every box and orientation
is still given in the photo's own frame.
"""

from __future__ import annotations

import dataclasses
import json
import math
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from table.errors import InputError
from vision.classes import BACK, as_face_up, is_face_up, is_horizontal, orientation_from_crop
from vision.crops import MARGIN, upright_crop
from vision.layout import build_view, table_angle
from vision.photo import picture_notes
from vision.view import SeenTile, TableView, box_iou

MODELS = Path(__file__).resolve().parent.parent / "models"
FACE_OVERRULES = 0.9  # classifier probability of a face that turns a face-down detection face up
SAME_TILE = 0.3  # two boxes whose centres are closer than this many short sides are one tile
PART = (0.3, 0.5)  # a face read less surely than this, with this share of its box in a surer box of its face, is
# a part of that tile boxed again (MODEL_CARD.md)
BACK_OVERRULED = 0.6  # below this, a classifier's `back` for a face-up detection gives way to its best face
MIN_CONFIDENCE = 0.2  # tiles the two stages together are less sure of are noise (measured: models/MODEL_CARD.md)
TURN_MARGIN = 0.03  # a quarter turn must beat the photo as it is by this much mean detector score (MODEL_CARD.md)
ON_ITS_SIDE = 60.0  # degrees: a picture read turned further than this lay on its side (or upside down), and is told
IN_PHOTO = 0.6  # share of a box in the photo below which a tile read in the turned frame is cut off (as labelled)
SQUARED_PAD = 0.15  # of the tiles' extent, kept around them when the picture is read again turned square
ROLL = 12.0  # degrees: a picture whose rows run further askew is read again turned square to them
SQUARE_MARGIN = 0.05  # and that reading is kept when it beats the first by this much mean detector score (MODEL_CARD)
SURE = 0.85  # confidence of the tiles that set the scale of tiles around them (and that the size rule spares)
NARROW = 0.55  # a less sure tile narrower than this share of its sure neighbours' is no tile (a point stick)
NEIGHBOURS = 5  # sure tiles nearest to a tile that set its scale
CAST = 0.06  # a photo whose tile faces need a channel gain further from 1 than this is read again white-balanced
APART = 0.3  # a first-pass box overlapping no box of that second reading by this IoU is a tile it lost (MODEL_CARD)
DIM = 40.0  # grey level under which the faces' colour is the sensor's noise, not the light's: left as it is
BACK_HUE = 0.03  # chromaticity apart from the faces' ground at which a back shows the set's back colour (~10 % cast)
BLANK_HUE = 0.01  # and within which a back has the ground's colour: a blank face
BLANK_LIGHT = 0.9  # if lit as the faces are, at this share of their ground's brightness or more (MODEL_CARD.md)
CLIPPED = 250.0  # grey level of faces whose ground is over-exposed: a pale back clips to the same white
CLOTH = 0.5  # a white dragon read less surely than this, its middle lit at a share of the faces' ground within
CLOTH_LIGHT = (0.5, 0.8)  # these, is bare cloth or a tile's side; a black set's blank face is darker (MODEL_CARD.md)
UNSURE = 0.9  # a crop whose best class the ensemble gives less than this is read again cut tighter and wider
RECUT_MARGINS = (0.0, 0.12)  # box margins of those second cuts (training jitters boxes by up to 7 %; MODEL_CARD.md)
ALTERNATIVES = 3  # other faces kept per tile, with odds of at least ALTERNATIVE_ODDS against the face read
ALTERNATIVE_ODDS = 0.02
MAX_SIDE = 4096  # pixels: a longer photo (24 or 50 MP, a Pi Camera Module 3 still) is read shrunk to it; 12 MP is not
ZOOM = 1.5  # a photo whose tiles, with CUT_PAD around them, would show this much larger cut out is read again so
CUT_PAD = 0.15  # of the tiles' extent, plus a tile, kept around them in that cut
SPARSE = 14  # a first reading with fewer tiles than a hand has is searched again for tiles, in overlapping windows:
WINDOWS = 2  # this many a side, overlapping by OVERLAP of their size (the detector sees each 1.7 times larger)
OVERLAP = 0.2
BIG = 72.0  # px at the detector's input: tiles longer than this (a close-up of a few tiles) are read again shrunk
TARGET = 48.0  # to this, about a close-up of a whole hand (the shared photos' largest tiles: 52), at least halved
UNSURE_PICTURE = 0.58  # so is a picture of tiles over MID px the detector is this unsure of: it boxes pieces of tiles
MID = 40.0  # too large for it (real photos score 0.62-0.88 on the whole, rendered scenes 0.71 or more)
MIN_TILE = 6  # pixels: a box narrower in the photo (a thumbnail's specks) is no tile that can be read
MIRROR_SURE = 0.9  # a face the classifiers are this sure of, one way or mirrored, votes for the way they are surer
MIRROR_ODDS = 1.1  # of by this ratio; a photo is read mirrored back when MIRROR_VOTES or more faces vote so and more
MIRROR_VOTES = 3  # than MIRROR_LEAD times as many as vote for the photo as it is (measured: MODEL_CARD.md)
MIRROR_LEAD = 3


@dataclass(frozen=True)
class Detection:
    box: tuple[float, float, float, float]  # in the photo's own frame
    det: int  # detector class, in the frame of the photo turned `turns` quarter turns counter-clockwise
    score: float
    turns: int = 0


def _letterbox(img: np.ndarray, size: int) -> tuple[np.ndarray, float, tuple[int, int]]:
    h, w = img.shape[:2]
    r = size / max(h, w)
    nw, nh = round(w * r), round(h * r)
    resized = cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA)
    out = np.full((size, size, 3), 114, np.uint8)
    top, left = (size - nh) // 2, (size - nw) // 2
    out[top : top + nh, left : left + nw] = resized
    return out, r, (left, top)


def unturn_box(box: tuple[float, float, float, float], turns: int, width: float, height: float
               ) -> tuple[float, float, float, float]:
    """A box in a picture of `width` x `height` that was turned `turns` quarter turns counter-clockwise (as
    `np.rot90`), in the picture as it was."""
    x1, y1, x2, y2 = box
    for _ in range(turns % 4):  # a turn took (x, y) to (y, w - x), w the width before it, now the height
        x1, y1, x2, y2 = height - y2, x1, height - y1, x2
        width, height = height, width
    return x1, y1, x2, y2


@dataclass(frozen=True)
class TileReading:
    """Tiles as read, in the frame they were read in: the photo itself, or (a photo whose rows run askew) the photo
    turned by `angle` degrees counter-clockwise so that its rows run along the frame's axes, cut to the tiles."""
    tiles: list[SeenTile]
    width: int
    height: int
    turns: int = 0  # quarter turns (as `np.rot90`) the frame was read at: 0 unless it lay on its side or upside down
    angle: float = 0.0
    to_photo: np.ndarray | None = None  # 2x3 map from the frame's pixels to the photo's; None: the photo's own
    score: float = 0.0  # the detector's mean score over the frame: how sure it is of the picture as a whole
    mirrored: bool = False  # the frame is the photo mirrored back (`to_photo` mirrors it again)

    @property
    def frame_map(self) -> np.ndarray:
        """`to_photo`, or the identity when the frame is the photo itself."""
        return np.eye(3)[:2] if self.to_photo is None else self.to_photo

    def in_photo(self, tiles: list[SeenTile], width: int, height: int) -> list[SeenTile]:
        """`tiles` of this frame with their boxes in the photo (`width` x `height`): upright boxes around the turned
        ones."""
        if self.to_photo is None:
            return list(tiles)
        return [dataclasses.replace(t, box=_box_through(t.box, self.to_photo, width, height)) for t in tiles]


def read_view(recognizer, img: np.ndarray) -> TableView:
    """The photo read (`recognizer.read`) and laid out in the frame it was read in, boxes then given in the photo;
    a picture that lay on its side, upside down or mirrored says so first (`jantaku read` and the device both tell
    the player). Specks boxed under MIN_TILE pixels (a thumbnail) are left out, with a note."""
    reading = recognizer.read(img)
    h, w = img.shape[:2]
    boxes = [t.box for t in reading.in_photo(reading.tiles, w, h)]
    tiles = [t for t, (x1, y1, x2, y2) in zip(reading.tiles, boxes, strict=True) if min(x2 - x1, y2 - y1) >= MIN_TILE]
    view = build_view(tiles, reading.width, reading.height)
    view = dataclasses.replace(view, width=w, height=h, tiles=tuple(reading.in_photo(list(view.tiles), w, h)))
    notes = picture_notes(img, [t.box for t in view.tiles if t.tile != BACK])
    if len(tiles) < len(reading.tiles):
        notes.insert(0, f"{len(reading.tiles) - len(tiles)} tile(s) boxed under {MIN_TILE} pixels across left out: "
                        f"no face shows that small (the photo is {w}x{h}: use the photo at its full size, or take "
                        "it closer)")
    turned = reading.angle + 90 * reading.turns  # degrees counter-clockwise; up to 45 is a picture held askew
    if tiles and abs((turned + 180) % 360 - 180) >= ON_ITS_SIDE:
        quarter = round(turned / 90) % 4
        notes.insert(0, "the picture lay turned (no EXIF orientation, or a wrong one): read it "
                        f"{'mirrored back, then ' if reading.mirrored else ''}turned {360 - 90 * quarter} degrees "
                        "clockwise; boxes are in the photo as it is")
    elif reading.mirrored:
        notes.insert(0, "the picture is mirrored (a front camera, or a camera set to flip it): read it mirrored "
                        "back; boxes are in the photo as it is")
    return dataclasses.replace(view, warnings=(*notes, *view.warnings)) if notes else view


def _one_per_tile(tiles: list[SeenTile]) -> list[SeenTile]:
    """Faces less a second reading of the same tile: a tilted tile is sometimes found twice, two boxes whose overlap
    stays under the NMS threshold but whose centres nearly coincide; the reading the two stages are surer of stays.
    Neighbouring faces (a row, a called tile, an added kan) have centres at least half a tile apart. So is a part
    of a tile boxed again with what lies beyond it (a point stick behind it), read as its face but far less surely
    (PART). Backs are left alone: a standing row seen edge-on packs them closer than that."""
    def short(t: SeenTile) -> float:
        return min(t.box[2] - t.box[0], t.box[3] - t.box[1])

    def part_of(t: SeenTile, of: SeenTile) -> bool:
        (a0, a1, a2, a3), (b0, b1, b2, b3) = t.box, of.box
        inside = max(0.0, min(a2, b2) - max(a0, b0)) * max(0.0, min(a3, b3) - max(a1, b1))
        return t.confidence < PART[0] and t.tile == of.tile and inside >= PART[1] * (a2 - a0) * (a3 - a1)

    kept: list[int] = []
    for i in sorted(range(len(tiles)), key=lambda i: -tiles[i].confidence):
        t = tiles[i]
        if t.tile == BACK or all(tiles[j].tile == BACK or (math.dist(t.centre, tiles[j].centre)
                                 >= SAME_TILE * min(short(t), short(tiles[j])) and not part_of(t, tiles[j]))
                                 for j in kept):
            kept.append(i)
    return [tiles[i] for i in sorted(kept)]


def _tile_sized(tiles: list[SeenTile], width: int, height: int) -> list[SeenTile]:
    """Tiles less those far narrower than the sure tiles nearest to them. A point stick (a riichi stick by a pond,
    honba sticks) is read as a row of backs and pinzu or bamboo faces as wide as the stick, a third of a tile's
    width, at low confidence; the sure tiles near it show the scale a tile has there. A tile cut by the photo's
    edge is measured along that edge, where it is whole (the digits of a score display at the edge are small both
    ways), and spared in a corner (measured: tests/bench/bench_point_sticks.py, models/MODEL_CARD.md)."""
    sure = np.flatnonzero([t.confidence >= SURE for t in tiles])
    if len(sure) < 2:
        return tiles
    boxes = np.array([t.box for t in tiles], float)
    short = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    centres = (boxes[:, :2] + boxes[:, 2:]) / 2
    margin = 0.01 * max(width, height)
    cut_across = (boxes[:, 1] <= margin) | (boxes[:, 3] >= height - margin)  # at the top or bottom edge
    cut_down = (boxes[:, 0] <= margin) | (boxes[:, 2] >= width - margin)  # at the left or right edge
    whole = np.where(cut_across & cut_down, np.inf, np.where(cut_across, boxes[:, 2] - boxes[:, 0],
                     np.where(cut_down, boxes[:, 3] - boxes[:, 1], short)))  # the side the frame left whole
    keep = []
    for i, t in enumerate(tiles):
        if t.confidence < SURE:
            near = sure[np.argsort(((centres[sure] - centres[i]) ** 2).sum(1))[:NEIGHBOURS]]
            if whole[i] < NARROW * np.median(short[near]):
                continue
        keep.append(t)
    return keep


def _middle(img: np.ndarray, t: SeenTile) -> np.ndarray:
    """The pixels (BGR rows) of the middle of a tile's box, clear of its edges and the table around it."""
    return upright_crop(img, t.box, False, 96)[24:72, 24:72].reshape(-1, 3).astype(np.float32)


def _face_colour(img: np.ndarray, tiles: list[SeenTile]) -> np.ndarray | None:
    """The colour (BGR) of the blank part of the sure face-up tiles' faces, or None with fewer than three. The
    lighter 40 % of each face's middle is its ground, not its ink; a haku is left out (so is a back), since a light
    back and a haku are what a colour cast confuses."""
    grounds = []
    for t in tiles:
        if t.confidence >= SURE and t.tile not in (BACK, "5z"):
            middle = _middle(img, t)
            light = middle.sum(1)
            grounds.append(np.median(middle[light >= np.percentile(light, 60)], 0))
    return np.median(grounds, 0) if len(grounds) >= 3 else None


def _blank_faces(img: np.ndarray, tiles: list[SeenTile], ground: np.ndarray | None) -> list[SeenTile]:
    """Tiles with each back whose middle has the colour of the faces' blank ground named a white dragon (haku).

    A haku's face is blank, and a sharpened or tone-mapped photo (phones do both) makes the detector take it for
    a back. Where backs of the set's own colour (BACK_HUE or more apart from the faces' ground in chromaticity)
    are two at least and as many as those that look blank, a "back" of the ground's hue (within BLANK_HUE) and lit
    as the faces are (BLANK_LIGHT) is a blank face: the white side of a standing tile seen edge-on, or a grey or
    black back, has the ground's hue too, but less light. A set whose backs are white shows fewer backs of another
    colour (shadows or cloth read as backs) than white ones, and its backs stay backs; nor can a photo whose faces
    are over-exposed (CLIPPED) tell a pale back, clipped white too, from a blank face (measured:
    tests/bench/bench_camera_shifts.py, models/MODEL_CARD.md)."""
    backs = [k for k, t in enumerate(tiles) if t.tile == BACK]
    if ground is None or ground.max() >= CLIPPED or not backs:
        return tiles
    colours = {k: np.median(_middle(img, tiles[k]), 0) for k in backs}
    hue = {k: np.abs(c / max(c.sum(), 1.0) - ground / ground.sum()).max() for k, c in colours.items()}
    blank = {k for k in backs if hue[k] < BLANK_HUE and colours[k].sum() >= BLANK_LIGHT * ground.sum()}
    if sum(h >= BACK_HUE for h in hue.values()) < max(2, len(blank)):
        return tiles
    return [dataclasses.replace(t, tile="5z") if k in blank else t for k, t in enumerate(tiles)]


def _cloth_hakus(img: np.ndarray, tiles: list[SeenTile], ground: np.ndarray | None) -> list[SeenTile]:
    """Tiles less the white dragons that are bare cloth. A blank stretch of cloth (the slot of an automatic table,
    a plain mat) passes the detector as a tile's face now and then, and the classifier names a face with nothing on
    it a haku. A real haku's middle is the faces' ground, lit as they are (over 0.9 of it on the shared photos);
    cloth is darker, grey or coloured (0.71-0.79 in them). Sure readings are kept, and so is a middle darker still,
    which is what a black-faced set's haku has against its light pips (measured: models/MODEL_CARD.md)."""
    if ground is None:
        return tiles
    low, high = CLOTH_LIGHT[0] * ground.sum(), CLOTH_LIGHT[1] * ground.sum()
    return [t for t in tiles if t.tile != "5z" or t.confidence >= CLOTH
            or not low <= np.median(_middle(img, t), 0).sum() < high]


def _white_balanced(img: np.ndarray, tiles: list[SeenTile]) -> np.ndarray | None:
    """The photo with its colour cast taken off, so that the tiles' faces are grey-white, or None when they
    already are within CAST, or too few tiles say, or the faces are too dim to tell their colour (DIM). Under warm
    or cool light a haku's blank face takes the colour of a light back and the detector calls it face down
    (measured: tests/bench/bench_camera_shifts.py, models/MODEL_CARD.md); the tile sets' ivory reads better made
    neutral too."""
    ground = _face_colour(img, tiles)
    if ground is None or ground.mean() < DIM:
        return None
    gains = ground.mean() / np.maximum(ground, 1.0)
    if np.abs(gains - 1).max() < CAST:
        return None
    lut = np.clip(np.arange(256)[:, None] * gains, 0, 255).astype(np.uint8)[:, None, :]  # per channel
    return cv2.LUT(img, lut)


def _lost(first: list[Detection], again: list[Detection]) -> list[Detection]:
    """Boxes of the first reading that no box of the white-balanced one overlaps by APART: tiles the balance took
    the detector's score of under its threshold (a tilted red five beside the hand, 0.36 as taken, 0.21 balanced:
    models/MODEL_CARD.md). They are read in the balanced photo with the rest, and kept only as faces read at the
    detector's threshold or surer."""
    return [d for d in first if all(box_iou(d.box, a.box) < APART for a in again)]


def model_input(images: np.ndarray) -> np.ndarray:
    """A batch of BGR uint8 pictures (N, H, W, 3) as the models take it: RGB, 0..1, (N, 3, H, W)."""
    return images[:, :, :, ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255.0


def _probabilities(session, x: np.ndarray) -> np.ndarray:
    """Class probabilities of a batch of crops, in batches the model takes (a fixed batch size, or 64)."""
    inp = session.get_inputs()[0]
    step = inp.shape[0] if isinstance(inp.shape[0], int) and inp.shape[0] > 0 else 64
    p = np.concatenate([session.run(None, {inp.name: np.ascontiguousarray(x[s : s + step])})[0]
                        for s in range(0, len(x), step)])
    if not np.allclose(p.sum(1), 1.0, atol=1e-2):  # logits: softmax them
        e = np.exp(p - p.max(1, keepdims=True))
        p = e / e.sum(1, keepdims=True)
    return p


def _squared(img: np.ndarray, angle: float, tiles: list[SeenTile]) -> tuple[np.ndarray, np.ndarray]:
    """The picture turned `angle` degrees counter-clockwise, so that rows running at `angle` clockwise run along its
    axes, cut to the part around `tiles` (with a margin for tiles they missed); and the 2x3 map from the photo's
    pixels to it."""
    h, w = img.shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    pts = np.array([[x, y, 1] for t in tiles for x, y in ((t.box[0], t.box[1]), (t.box[2], t.box[3]))]) @ m.T
    (x1, y1), (x2, y2) = pts.min(axis=0), pts.max(axis=0)
    pad = SQUARED_PAD * max(x2 - x1, y2 - y1)
    m[:, 2] -= (x1 - pad, y1 - pad)
    size = (math.ceil(x2 - x1 + 2 * pad), math.ceil(y2 - y1 + 2 * pad))
    return cv2.warpAffine(img, m, size, borderValue=(114, 114, 114)), m


def _cut_to_tiles(boxes: list[tuple[float, float, float, float]], width: int, height: int
                  ) -> tuple[int, int, int, int] | None:
    """The part of the photo around the tiles' `boxes` (CUT_PAD of their extent and a tile's length each side) when
    the detector would see it ZOOM times larger than the whole photo; else None."""
    if not boxes:
        return None
    b = np.array(boxes)
    x1, y1 = b[:, :2].min(axis=0)
    x2, y2 = b[:, 2:].max(axis=0)
    pad = CUT_PAD * max(x2 - x1, y2 - y1) + float(np.median(np.maximum(b[:, 2] - b[:, 0], b[:, 3] - b[:, 1])))
    cut = (max(0, int(x1 - pad)), max(0, int(y1 - pad)), min(width, math.ceil(x2 + pad)),
           min(height, math.ceil(y2 + pad)))
    if max(width, height) < ZOOM * max(cut[2] - cut[0], cut[3] - cut[1]):
        return None
    return cut


def _windows(width: int, height: int) -> list[tuple[int, int, int, int]]:
    """WINDOWS x WINDOWS parts of the photo, neighbours overlapping by OVERLAP of their size (a tile cut by one
    window's edge lies whole in the next)."""
    w, h = (side / (WINDOWS - (WINDOWS - 1) * OVERLAP) for side in (width, height))
    return [(round(j * w * (1 - OVERLAP)), round(i * h * (1 - OVERLAP)), round(j * w * (1 - OVERLAP) + w),
             round(i * h * (1 - OVERLAP) + h)) for i in range(WINDOWS) for j in range(WINDOWS)]


def _share_inside(box: tuple[float, float, float, float], turn: np.ndarray, width: int, height: int) -> float:
    """Share of a box of the turned frame that lies inside the photo: the photo's edge runs across the turned frame,
    and tiles it cuts (which the photo read as it is shows cut square, or not at all) are read there as backs."""
    x1, y1, x2, y2 = box
    quad = (np.array([[x1, y1, 1], [x2, y1, 1], [x2, y2, 1], [x1, y2, 1]]) @ turn.T).astype(np.float32)
    frame = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    area = (x2 - x1) * (y2 - y1)
    return cv2.intersectConvexConvex(quad, frame)[0] / area if area > 0 else 0.0


def _box_through(box: tuple[float, float, float, float], turn: np.ndarray, width: int, height: int
                 ) -> tuple[float, float, float, float]:
    """The upright box, in the photo (`width` x `height`), of a tile boxed in a frame that `turn` (a 2x3 rotation
    and shift) takes to the photo. A tile fills less than its box (a far tile's face is a trapezoid, corners are
    round), so the box's own corners taken through would overstate the tile, and the ellipse inside it understate
    it: halfway between the two, as here, matches the generator's labels of turned tiles to within a few per cent
    (rendered scenes, a dev seed)."""
    x1, y1, x2, y2 = box
    w, h = x2 - x1, y2 - y1
    cx, cy = turn @ np.array([(x1 + x2) / 2, (y1 + y2) / 2, 1.0])
    c, s = abs(turn[0, 0]), abs(turn[0, 1])
    half_w = (c * w + s * h + math.hypot(c * w, s * h)) / 4
    half_h = (s * w + c * h + math.hypot(s * w, c * h)) / 4
    return (float(max(cx - half_w, 0)), float(max(cy - half_h, 0)), float(min(cx + half_w, width)),
            float(min(cy + half_h, height)))


def classifier_files(meta: dict) -> list[str]:
    """The classifier files a `recognizer.json` lists: an ensemble's `files`, or one `file` (older folders)."""
    return meta["classifier"].get("files") or [meta["classifier"]["file"]]


class Recognizer:
    """The ONNX models (a detector, one or more classifiers) and their class lists from `models/recognizer.json`."""

    def __init__(self, models: Path | str | None = None, threads: int | None = None,
                 conf: float = 0.25, iou: float = 0.6) -> None:
        import onnxruntime as ort

        self.folder = folder = Path(models or os.environ.get("JANTAKU_MODELS", MODELS))
        meta_path = folder / "recognizer.json"
        if not meta_path.exists():
            raise InputError(f"no tile recognizer in {folder} (recognizer.json missing)")
        meta = json.loads(meta_path.read_text())
        opts = ort.SessionOptions()
        if threads:
            opts.intra_op_num_threads = threads
        providers = ["CPUExecutionProvider"]
        self.det = ort.InferenceSession(str(folder / meta["detector"]["file"]), opts, providers=providers)
        self.classifiers = [ort.InferenceSession(str(folder / f), opts, providers=providers)
                            for f in classifier_files(meta)]
        self.det_size = int(meta["detector"]["imgsz"])
        self.cls_size = int(meta["classifier"]["imgsz"])
        self.cls_names: list[str] = list(meta["classifier"]["classes"])
        self.symmetric = frozenset(meta.get("symmetric", ()))
        self.face_names = sorted({c.removesuffix("_r") for c in self.cls_names} - {BACK})
        self._face_of = np.array([[c.removesuffix("_r") == f for f in self.face_names] for c in self.cls_names], float)
        self._classes_of = {f: [j for j, c in enumerate(self.cls_names) if c.removesuffix("_r") == f]
                            for f in self.face_names}
        self.conf, self.iou = conf, iou
        self._det_input = self.det.get_inputs()[0].name

    def _raw(self, boxed: np.ndarray, turns: int) -> np.ndarray:
        """The detector's (anchors, 4 + classes) output for the letterboxed square turned `turns` quarter turns."""
        turned = np.ascontiguousarray(np.rot90(boxed, turns))
        return self.det.run(None, {self._det_input: model_input(turned[None])})[0][0].T

    def _mean_score(self, raw: np.ndarray) -> float:
        conf = raw[:, 4:].max(1)
        conf = conf[conf >= self.conf]
        return float(conf.mean()) if len(conf) else 0.0

    def detect(self, img: np.ndarray, turns: int | None = 0) -> tuple[list[Detection], float]:
        """Tiles located in the photo turned `turns` quarter turns counter-clockwise (as `np.rot90`) first, boxes in
        the photo's own frame, and the detector's mean score at that turn (how sure it is of the picture as a whole).
        `turns=None` picks the turn that sets the picture upright.

        The detector was trained on upright pictures only (the camera never rolled), where far tiles lie at the top.
        A picture on its side or upside down (a camera held turned, no EXIF orientation) shows tiles on a table seen
        low the way it never saw them, and it scores them low; from straight above every turn scores alike, and the
        margin keeps the photo as it is. So the turn taken is the one whose detections score highest on average,
        when that beats the photo as it is by TURN_MARGIN (measured: models/MODEL_CARD.md)."""
        boxed, r, offset = _letterbox(img, self.det_size)
        if turns is None:
            raws = [self._raw(boxed, k) for k in range(4)]
            scores = [self._mean_score(raw) for raw in raws]
            best = int(np.argmax(scores))
            turns = best if scores[best] > scores[0] + TURN_MARGIN else 0
            out, score = raws[turns], scores[turns]
        else:
            out = self._raw(boxed, turns)
            score = self._mean_score(out)
        scores = out[:, 4:]
        cls = scores.argmax(1)
        conf = scores[np.arange(len(cls)), cls]
        keep = conf >= self.conf
        out, cls, conf = out[keep], cls[keep], conf[keep]
        if not len(out):
            return [], score
        cx, cy, w, h = out[:, 0], out[:, 1], out[:, 2], out[:, 3]
        boxes = np.stack([cx - w / 2, cy - h / 2, w, h], 1)
        idx = cv2.dnn.NMSBoxes(boxes.tolist(), conf.tolist(), self.conf, self.iou)
        dets = []
        ih, iw = img.shape[:2]
        left, top = offset
        for i in np.array(idx).reshape(-1):
            bx, by, bw, bh = boxes[i]
            x1, y1, x2, y2 = unturn_box((bx, by, bx + bw, by + bh), turns, self.det_size, self.det_size)
            x1, y1, x2, y2 = (x1 - left) / r, (y1 - top) / r, (x2 - left) / r, (y2 - top) / r
            dets.append(Detection((float(max(x1, 0)), float(max(y1, 0)), float(min(x2, iw)), float(min(y2, ih))),
                                  int(cls[i]), float(conf[i]), turns))
        return dets, score

    def classify(self, img: np.ndarray, dets: list[Detection]
                 ) -> list[tuple[str, float, tuple[tuple[str, float], ...]]]:
        """(crop class, probability, other faces with their odds against it) per detection, the two stages voting
        on face up or down.

        White dragons and light backs look alike to the detector. The classifier, which sees the crop in colour at
        full resolution, overrules a face-down call only when it is sure of a face, and a face-up call when it
        leans to `back` by no more than a coin toss (measured on held-out scenes: models/MODEL_CARD.md). A crop the
        ensemble is unsure of (`UNSURE`) is read again cut tighter and wider, and the three readings averaged.
        """
        if not dets:
            return []
        p = self._ensemble(img, dets)
        unsure = np.flatnonzero(p.max(1) < UNSURE)
        if len(unsure):  # a far or blurred tile: its reading depends on where the box's edges fell
            again = self._ensemble(img, [dets[i] for i in unsure], RECUT_MARGINS)
            p[unsure] = (p[unsure] + len(RECUT_MARGINS) * again) / (1 + len(RECUT_MARGINS))
        back = self.cls_names.index(BACK)
        faces = p @ self._face_of  # a face's probability, upright and turned round together
        out: list[tuple[str, float, tuple[tuple[str, float], ...]]] = []
        for d, row, face in zip(dets, p, faces, strict=True):
            best = int(row.argmax())
            if is_face_up(d.det):
                c = int(np.argsort(row)[-2]) if best == back and row[back] < BACK_OVERRULED else best  # best face
            else:
                c = best if best != back and row[best] >= FACE_OVERRULES else None
            if c is None or c == back:
                out.append((BACK, d.score if c is None else float(row[c]), ()))
                continue
            # the face is the likeliest upright and turned round together, as its runner-ups' odds are counted (an
            # asymmetric face's weight is split between its two classes); its class, the likelier way round
            name = self.face_names[int(face.argmax())]
            c = max(self._classes_of[name], key=lambda j: row[j])
            read = face[self.face_names.index(name)]
            others = [(f, float(face[k] / read)) for k in np.argsort(-face)[:ALTERNATIVES + 1]
                      if (f := self.face_names[k]) != name and face[k] >= ALTERNATIVE_ODDS * read]
            out.append((self.cls_names[c], float(row[c]), tuple(others[:ALTERNATIVES])))
        return out

    def _ensemble(self, img: np.ndarray, dets: list[Detection], margins: tuple[float, ...] = (MARGIN,)
                  ) -> np.ndarray:
        """Class probabilities of the detections' crops, averaged over the ensemble's classifiers and over the crops
        cut with each of `margins` (one batch per classifier)."""
        crops = np.stack([upright_crop(img, d.box, is_horizontal(d.det), self.cls_size, d.turns, m)
                          for m in margins for d in dets])
        x = model_input(crops)
        p = np.mean([_probabilities(session, x) for session in self.classifiers], axis=0)
        return p.reshape(len(margins), len(dets), -1).mean(axis=0)

    def read_tiles(self, img: np.ndarray) -> list[SeenTile]:
        """The tiles, boxes in the photo's pixels."""
        reading = self.read(img)
        return reading.in_photo(reading.tiles, img.shape[1], img.shape[0])

    def read(self, img: np.ndarray) -> TileReading:
        """The tiles (`_read_whole`), read again from the photo mirrored back when its faces vote so (`mirror_votes`):
        a front camera, or a camera set to flip its picture, mirrors every face, and the classifiers read some
        mirrored faces with confidence as other faces (a mirrored green dragon as North)."""
        reading = self._read_whole(img)
        h, w = img.shape[:2]
        mirrored, kept = self.mirror_votes(img, reading.in_photo(reading.tiles, w, h))
        if mirrored < MIRROR_VOTES or mirrored <= MIRROR_LEAD * kept:
            return reading
        again = self._read_whole(cv2.flip(img, 1))
        to_frame = np.vstack([again.frame_map, [0.0, 0.0, 1.0]])
        return dataclasses.replace(again, to_photo=np.array([[-1.0, 0.0, w], [0.0, 1.0, 0.0]]) @ to_frame,
                                   mirrored=True)

    def mirror_votes(self, img: np.ndarray, tiles: list[SeenTile]) -> tuple[int, int]:
        """Faces among `tiles` (boxes in `img`) that the classifiers read surer mirrored, and surer as they are, by
        MIRROR_ODDS, of those they are MIRROR_SURE of one way. Most faces look alike mirrored (pins, most bamboos)
        and vote neither way; a tile half seen, or lying across its crop, may vote either way, so a photo is only
        taken as mirrored when the votes agree by a wide lead."""
        faces = [t for t in tiles if t.tile != BACK]
        if not faces:
            return 0, 0
        crops = np.stack([upright_crop(img, t.box, t.horizontal, self.cls_size) for t in faces])
        # a tile lying sideways lies across the crop, so the photo's mirror turns its crop upside down
        mirrored = np.stack([c[::-1] if t.horizontal else c[:, ::-1] for c, t in zip(crops, faces, strict=True)])
        best = np.mean([_probabilities(session, model_input(np.concatenate([crops, mirrored])))
                        for session in self.classifiers], axis=0).max(1)
        p, q = best[:len(faces)], best[len(faces):]
        sure = np.maximum(p, q) >= MIRROR_SURE
        return int(np.sum(sure & (q > MIRROR_ODDS * p))), int(np.sum(sure & (p > MIRROR_ODDS * q)))

    def _read_whole(self, img: np.ndarray) -> TileReading:
        """The tiles, read from the photo (white-balanced first when its tiles' faces carry a cast: `_white_balanced`)
        or, when its rows run further than ROLL degrees from the picture's axes (a phone held askew), from the photo
        turned square to them if the detector is surer of that picture by SQUARE_MARGIN. The generator never rolls
        the camera, so the models know rows askew only as a table seen across a corner, far side up (read as well
        either way), not a picture turned about the lens (real photos turned 30 and 45 degrees: recall 0.84 and 0.72
        as they are, 0.99 turned square; models/MODEL_CARD.md).

        The detector sees the whole photo at 640 pixels, so tiles that fill a small part of it (a phone held high, a
        wide lens) are a few pixels wide there, and it misses many. When the tiles found, with a margin, would show
        ZOOM times larger cut out, the cut is read again, its turn chosen afresh (tiles that small mislead the turn
        check), and kept if the detector is surer of it (real photos shrunk to a third of their frame:
        models/MODEL_CARD.md). When it finds fewer tiles than a hand has (tiles a few pixels wide, or none), where
        they lie is searched for in overlapping windows of the photo first (`_search`). Tiles too large for it (a
        close-up of a few tiles) are read again shrunk instead (`_read_shrunk`)."""
        reading = self._read_sized(img)
        h, w = img.shape[:2]
        tiles = reading.in_photo(reading.tiles, w, h)
        boxes = [t.box for t in tiles]
        longs = np.array([max(x2 - x1, y2 - y1) for x1, y1, x2, y2 in boxes])
        faces = longs[[t.tile != BACK for t in tiles]]
        # boxes under half the faces' length are no tiles of theirs: a point stick beside a few large tiles is
        # boxed as a row of small "backs", which would outnumber them and hide how large they are
        sized = longs[longs >= 0.5 * np.median(faces)] if len(faces) else longs
        size = float(np.median(sized)) * self.det_size / max(w, h) if len(sized) else 0.0
        if size > BIG or (size > MID and reading.score < UNSURE_PICTURE):
            return self._read_shrunk(img, reading, max(size / TARGET, 2.0))
        if len(boxes) < SPARSE:
            boxes += self._search(img)
        cut = _cut_to_tiles(boxes, w, h)
        if cut is None:
            return reading
        x1, y1, x2, y2 = cut
        again = self._read_sized(img[y1:y2, x1:x2])
        if again.score <= reading.score:
            return reading
        return dataclasses.replace(again, to_photo=again.frame_map + np.array([[0, 0, x1], [0, 0, y1]]))

    def _read_shrunk(self, img: np.ndarray, reading: TileReading, factor: float) -> TileReading:
        """The photo read again shrunk by `factor` in the middle of a grey frame of its size, kept if the detector is
        surer of it than of the first `reading`. The generator frames a whole hand at the closest, so tiles far
        larger than that (a close-up of a pond or of a few tiles) are pictures the detector never saw: it boxes
        halves and pairs of tiles, at a low mean score (models/MODEL_CARD.md)."""
        h, w = img.shape[:2]
        small = cv2.resize(img, (max(1, round(w / factor)), max(1, round(h / factor))), interpolation=cv2.INTER_AREA)
        frame = np.full_like(img, 114)
        x0, y0 = (w - small.shape[1]) // 2, (h - small.shape[0]) // 2
        frame[y0:y0 + small.shape[0], x0:x0 + small.shape[1]] = small
        again = self._read_sized(frame)
        if again.score <= reading.score:
            return reading
        return dataclasses.replace(again, to_photo=factor * (again.frame_map - np.array([[0, 0, x0], [0, 0, y0]])))

    def _search(self, img: np.ndarray) -> list[tuple[float, float, float, float]]:
        """Boxes of the tiles the detector locates in each of `_windows` of the photo, as it is (the turn does not
        matter to where tiles lie, and checking it would cost four runs a window)."""
        boxes = []
        for x1, y1, x2, y2 in _windows(img.shape[1], img.shape[0]):
            dets, _ = self.detect(img[y1:y2, x1:x2])
            boxes += [(bx1 + x1, by1 + y1, bx2 + x1, by2 + y1) for bx1, by1, bx2, by2 in (d.box for d in dets)]
        return boxes

    def _read_sized(self, img: np.ndarray) -> TileReading:
        """`_read`, of the photo shrunk to MAX_SIDE when it is longer: its tiles are then still far larger than the
        crops the classifier takes, and every step after decoding costs by the pixel (read whole, a 50-MP photo took
        1.8 s against 1.0 s at 12 MP)."""
        scale = MAX_SIDE / max(img.shape[:2])
        if scale >= 1:
            return self._read(img)
        reading = self._read(cv2.resize(img, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA))
        return dataclasses.replace(reading, to_photo=reading.frame_map / scale)

    def _read(self, img: np.ndarray) -> TileReading:
        dets, score = self.detect(img, None)
        tiles = self._tiles(img, dets)
        balanced = _white_balanced(img, tiles)
        if balanced is not None:  # read again at the turn taken: the cast does not change which way is up
            img = balanced
            again, score = self.detect(img, dets[0].turns)
            lost = _lost(dets, again)
            dets = again + lost
            kept = {d.box for d in lost}  # only as a face the two stages are as sure of as the detector's threshold:
            tiles = [t for t in self._tiles(img, dets)  # a back found once is as likely a shadow, a wrist
                     if t.box not in kept or t.tile != BACK and t.confidence >= self.conf]
        h, w = img.shape[:2]
        angle = table_angle(tiles)
        if abs(angle) >= ROLL:
            squared, to_squared = _squared(img, angle, tiles)
            again, again_score = self.detect(squared, None)
            if again_score > score + SQUARE_MARGIN:
                to_photo = cv2.invertAffineTransform(to_squared)
                inside = [t for t in self._tiles(squared, again) if _share_inside(t.box, to_photo, w, h) >= IN_PHOTO]
                return TileReading(inside, squared.shape[1], squared.shape[0], again[0].turns, angle, to_photo,
                                   again_score)
        return TileReading(tiles, w, h, dets[0].turns if dets else 0, score=score)

    def _tiles(self, img: np.ndarray, dets: list[Detection]) -> list[SeenTile]:
        labels = self.classify(img, dets)
        tiles = []
        for d, (label, p, alternatives) in zip(dets, labels, strict=True):
            det = as_face_up(d.det) if label != BACK else d.det
            name, orientation = orientation_from_crop(det, label, self.symmetric)
            if orientation is not None:  # read in the turned frame, where the photo's up points 270 * turns
                orientation = (orientation + 90 * d.turns) % 360
            conf = d.score * (p if label != BACK or is_face_up(d.det) else 1.0)
            if conf >= MIN_CONFIDENCE:  # digits of a score display, a tile-like corner of the table
                tiles.append(SeenTile(name, d.box, conf, horizontal=is_horizontal(d.det) != (d.turns % 2 == 1),
                                      orientation=orientation, alternatives=alternatives))
        tiles = _tile_sized(_one_per_tile(tiles), img.shape[1], img.shape[0])
        ground = _face_colour(img, tiles)
        return _cloth_hakus(img, _blank_faces(img, tiles, ground), ground)

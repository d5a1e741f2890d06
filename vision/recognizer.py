"""Reading tiles from an image with onnxruntime and OpenCV only (no torch), as on a Raspberry Pi.

Stage 1, the detector, finds every tile on a downscaled copy of the photo and says whether it is face up and whether
its long axis runs vertically or horizontally. Stage 2, the classifier, reads each tile from a crop of the
full-resolution photo (so red fives and small pips stay readable), turned upright by the detector's axis.

A photo whose picture lies on its side or upside down (a camera held turned, no EXIF orientation) is first turned
by the quarter turn the detector is surest of (`Recognizer.detect`); every box and orientation is still
given in the photo's own frame.
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
from vision.crops import upright_crop
from vision.layout import build_view
from vision.view import SeenTile, TableView

MODELS = Path(__file__).resolve().parent.parent / "models"
FACE_OVERRULES = 0.9  # classifier probability of a face that turns a face-down detection face up
SAME_TILE = 0.3  # two boxes whose centres are closer than this many short sides are one tile
BACK_OVERRULED = 0.6  # below this, a classifier's `back` for a face-up detection gives way to its best face
MIN_CONFIDENCE = 0.2  # tiles the two stages together are less sure of are noise (measured: models/MODEL_CARD.md)
TURN_MARGIN = 0.03  # a quarter turn must beat the photo as it is by this much mean detector score (MODEL_CARD.md)


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


def read_view(recognizer, img: np.ndarray) -> TableView:
    """The photo read (`recognizer.read`) and laid out; a picture read turned says so first (`jantaku read` and
    the device both tell the player)."""
    tiles, turns = recognizer.read(img)
    view = build_view(tiles, img.shape[1], img.shape[0])
    if not turns:
        return view
    note = (f"the picture lay turned (no EXIF orientation): read it turned {360 - 90 * turns} degrees clockwise; "
            "boxes are in the photo as it is")
    return dataclasses.replace(view, warnings=(note, *view.warnings))


def _one_per_tile(tiles: list[SeenTile]) -> list[SeenTile]:
    """Faces less a second reading of the same tile: a tilted tile is sometimes found twice, two boxes whose overlap
    stays under the NMS threshold but whose centres nearly coincide; the reading the two stages are surer of stays.
    Neighbouring faces (a row, a called tile, an added kan) have centres at least half a tile apart. Backs are left
    alone: a standing row seen edge-on packs them closer than that."""
    def short(t: SeenTile) -> float:
        return min(t.box[2] - t.box[0], t.box[3] - t.box[1])

    kept: list[int] = []
    for i in sorted(range(len(tiles)), key=lambda i: -tiles[i].confidence):
        t = tiles[i]
        if t.tile == BACK or all(tiles[j].tile == BACK or math.dist(t.centre, tiles[j].centre)
                                 >= SAME_TILE * min(short(t), short(tiles[j])) for j in kept):
            kept.append(i)
    return [tiles[i] for i in sorted(kept)]


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


class Recognizer:
    """The ONNX models (a detector, one or more classifiers) and their class lists from `models/recognizer.json`."""

    def __init__(self, models: Path | str | None = None, threads: int | None = None,
                 conf: float = 0.25, iou: float = 0.6) -> None:
        import onnxruntime as ort

        folder = Path(models or os.environ.get("JANTAKU_MODELS", MODELS))
        meta_path = folder / "recognizer.json"
        if not meta_path.exists():
            raise InputError(f"no tile recognizer in {folder} (recognizer.json missing)")
        meta = json.loads(meta_path.read_text())
        opts = ort.SessionOptions()
        if threads:
            opts.intra_op_num_threads = threads
        providers = ["CPUExecutionProvider"]
        self.det = ort.InferenceSession(str(folder / meta["detector"]["file"]), opts, providers=providers)
        cls_meta = meta["classifier"]
        self.classifiers = [ort.InferenceSession(str(folder / f), opts, providers=providers)
                            for f in cls_meta.get("files") or [cls_meta["file"]]]
        self.det_size = int(meta["detector"]["imgsz"])
        self.cls_size = int(meta["classifier"]["imgsz"])
        self.cls_names: list[str] = list(meta["classifier"]["classes"])
        self.symmetric = frozenset(meta.get("symmetric", ()))
        self.conf, self.iou = conf, iou
        self._det_input = self.det.get_inputs()[0].name

    def _raw(self, boxed: np.ndarray, turns: int) -> np.ndarray:
        """The detector's (anchors, 4 + classes) output for the letterboxed square turned `turns` quarter turns."""
        turned = np.ascontiguousarray(np.rot90(boxed, turns))
        x = cv2.cvtColor(turned, cv2.COLOR_BGR2RGB).transpose(2, 0, 1)[None].astype(np.float32) / 255.0
        return self.det.run(None, {self._det_input: x})[0][0].T

    def _mean_score(self, raw: np.ndarray) -> float:
        conf = raw[:, 4:].max(1)
        conf = conf[conf >= self.conf]
        return float(conf.mean()) if len(conf) else 0.0

    def detect(self, img: np.ndarray, turns: int | None = 0) -> list[Detection]:
        """Tiles located in the photo turned `turns` quarter turns counter-clockwise (as `np.rot90`) first, boxes in
        the photo's own frame. `turns=None` picks the turn that sets the picture upright.

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
            out = raws[turns]
        else:
            out = self._raw(boxed, turns)
        scores = out[:, 4:]
        cls = scores.argmax(1)
        conf = scores[np.arange(len(cls)), cls]
        keep = conf >= self.conf
        out, cls, conf = out[keep], cls[keep], conf[keep]
        if not len(out):
            return []
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
        return dets

    def classify(self, img: np.ndarray, dets: list[Detection]) -> list[tuple[str, float]]:
        """(crop class, probability) per detection, the two stages voting on face up or down.

        White dragons and light backs look alike to the detector. The classifier, which sees the crop in colour at
        full resolution, overrules a face-down call only when it is sure of a face, and a face-up call when it
        leans to `back` by no more than a coin toss (measured on held-out scenes: models/MODEL_CARD.md).
        """
        if not dets:
            return []
        crops = np.stack([upright_crop(img, d.box, is_horizontal(d.det), self.cls_size, d.turns) for d in dets])
        x = crops[:, :, :, ::-1].transpose(0, 3, 1, 2).astype(np.float32) / 255.0
        p = np.mean([_probabilities(session, x) for session in self.classifiers], axis=0)  # an ensemble votes
        back = self.cls_names.index(BACK)
        out: list[tuple[str, float]] = []
        for d, row in zip(dets, p, strict=True):
            best = int(row.argmax())
            if is_face_up(d.det):
                c = int(np.argsort(row)[-2]) if best == back and row[back] < BACK_OVERRULED else best  # best face
                out.append((self.cls_names[c], float(row[c])))
            elif best != back and row[best] >= FACE_OVERRULES:
                out.append((self.cls_names[best], float(row[best])))
            else:
                out.append((BACK, d.score))
        return out

    def read_tiles(self, img: np.ndarray) -> list[SeenTile]:
        return self.read(img)[0]

    def read(self, img: np.ndarray) -> tuple[list[SeenTile], int]:
        """The tiles, and the quarter turns (as `np.rot90`) the picture was read at: 0 unless it lay on its side or
        upside down."""
        dets = self.detect(img, None)
        labels = self.classify(img, dets)
        tiles = []
        for d, (label, p) in zip(dets, labels, strict=True):
            det = as_face_up(d.det) if label != BACK else d.det
            name, orientation = orientation_from_crop(det, label, self.symmetric)
            if orientation is not None:  # read in the turned frame, where the photo's up points 270 * turns
                orientation = (orientation + 90 * d.turns) % 360
            conf = d.score * (p if label != BACK or is_face_up(d.det) else 1.0)
            if conf >= MIN_CONFIDENCE:  # digits of a score display, a tile-like corner of the table
                tiles.append(SeenTile(name, d.box, conf, horizontal=is_horizontal(d.det) != (d.turns % 2 == 1),
                                      orientation=orientation))
        return _one_per_tile(tiles), dets[0].turns if dets else 0

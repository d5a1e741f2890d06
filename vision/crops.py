"""Cutting tile crops for the classifier, the same way at training and at reading time."""

from __future__ import annotations

import cv2
import numpy as np

CROP_SIZE = 64  # classifier input, pixels square
MARGIN = 0.06  # fraction of the box added on each side


def upright_crop(img: np.ndarray, box: tuple[float, float, float, float], horizontal: bool,
                 size: int = CROP_SIZE, turns: int = 0, margin: float = MARGIN) -> np.ndarray:
    """The box with a small margin, turned 90 degrees clockwise when the tile lies horizontally, resized square.

    `turns` quarter turns counter-clockwise (as `np.rot90`) come first: the crop as the detector saw it in a photo
    it turned upright, with `horizontal` in that turned frame."""
    h, w = img.shape[:2]
    x1, y1, x2, y2 = box
    mx, my = (x2 - x1) * margin, (y2 - y1) * margin
    xa, ya = max(int(round(x1 - mx)), 0), max(int(round(y1 - my)), 0)
    xb, yb = min(int(round(x2 + mx)), w), min(int(round(y2 + my)), h)
    if xb - xa < 2 or yb - ya < 2:
        return np.zeros((size, size, 3), np.uint8)
    crop = np.rot90(img[ya:yb, xa:xb], turns)
    if horizontal:
        crop = cv2.rotate(crop, cv2.ROTATE_90_CLOCKWISE)
    interp = cv2.INTER_AREA if crop.shape[0] > size else cv2.INTER_LINEAR
    return cv2.resize(crop, (size, size), interpolation=interp)

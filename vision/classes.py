"""Class vocabularies shared by the scene generator, the trainer and the recognizer.

Stage 1 (the detector) only says where a tile lies and how its long axis runs in the image; stage 2 (the crop
classifier) reads the face from a crop turned so that the long axis is vertical, and says whether the face is
upright or turned 180 degrees (suffix `_r`). Faces that look the same turned round (for example 8p) have no
`_r` class: for them the classifier cannot know and the layout takes the orientation of the row.
"""

from __future__ import annotations

FACES: tuple[str, ...] = tuple(
    [f"{n}{s}" for s in "mps" for n in (1, 2, 3, 4, 5, 0, 6, 7, 8, 9)] + [f"{n}z" for n in range(1, 8)]
)
BACK = "back"
# Faces that look alike turned 180 degrees in common tile sets: pips and sticks in point-symmetric patterns, and the
# blank white dragon. The classifier has no `_r` class for them.
SYMMETRIC: frozenset[str] = frozenset(
    {"1p", "2p", "3p", "4p", "5p", "0p", "8p", "9p", "2s", "4s", "5s", "0s", "6s", "8s", "9s", "5z"}
)
CROP_CLASSES: tuple[str, ...] = tuple(
    sorted([*FACES, BACK] + [f + "_r" for f in FACES if f not in SYMMETRIC])
)
TILE_NAMES: tuple[str, ...] = FACES + (BACK,)

# Detector classes: `v` = long axis vertical in the image (tile upright or upside down), `h` = horizontal.
DET_CLASSES: tuple[str, ...] = ("face_v", "face_h", "back_v", "back_h")


def plain_face(name: str) -> str:
    """A red five's face as the plain five it counts as (a kind of tile: four copies in a set); any other name as
    it is."""
    return "5" + name[1] if name[0] == "0" else name


def det_class(face_up: bool, orientation: int) -> int:
    """Detector class of a tile whose face top points `orientation` degrees clockwise from image-up."""
    horizontal = orientation % 180 == 90
    return (0 if face_up else 2) + (1 if horizontal else 0)


def is_horizontal(det: int) -> bool:
    return det % 2 == 1


def is_face_up(det: int) -> bool:
    return det < 2


def as_face_up(det: int) -> int:
    """The face-up class with the same axis (when the classifier reads a face the detector took for a back)."""
    return det % 2


def crop_label(name: str, orientation: int, symmetric: frozenset[str]) -> str:
    """Classifier label of a crop that was turned upright the way `vision.crops.upright_crop` turns it.

    Horizontal boxes are turned 90 degrees clockwise, so a face whose top pointed left (270) ends upright.
    """
    upright = orientation in (0, 270)
    if name == BACK or name in symmetric or upright:
        return name
    return name + "_r"


def orientation_from_crop(det: int, label: str, symmetric: frozenset[str]) -> tuple[str, int | None]:
    """(tile name, orientation in degrees clockwise from image-up, or None when the face cannot tell)."""
    name = label[:-2] if label.endswith("_r") else label
    if not is_face_up(det) or name == BACK:
        return BACK, None
    if name in symmetric:
        return name, None
    flipped = label.endswith("_r")
    if is_horizontal(det):
        return name, 90 if flipped else 270
    return name, 180 if flipped else 0

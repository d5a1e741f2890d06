"""Tile faces for the scene generator: FluffyStuff CC0 art (both styles) and Unicode glyphs from system fonts.

The art is read from a path given by the caller (it is not copied into the repository). Fonts are optional:
when Pillow or the font files are missing, only the FluffyStuff styles are used.
"""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision.classes import FACES

# Shared reference material lives beside the clone (`<repo>/../shared`), as in CI; $JANTAKU_SHARED overrides it.
SHARED = Path(os.environ.get("JANTAKU_SHARED") or Path(__file__).resolve().parents[2] / "shared")
DEFAULT_ART = Path(os.environ.get("JANTAKU_TILE_ART") or SHARED / "tiles" / "fluffystuff" / "Export")
TEXTURE_SIZE = (120, 160)  # width, height of a face texture in pixels (3:4 like a tile face)

_SUIT_FILES = {"m": "Man", "p": "Pin", "s": "Sou"}
_HONOUR_FILES = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")
# Unicode Mahjong Tiles block: winds, dragons (red, green, white), then 1-9 of characters, bamboos, circles.
_GLYPH_BASE = {"m": 0x1F007, "s": 0x1F010, "p": 0x1F019}
_GLYPH_HONOURS = (0x1F000, 0x1F001, 0x1F002, 0x1F003, 0x1F006, 0x1F005, 0x1F004)
_GLYPH_BACK = 0x1F02B
FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf",
    "/usr/share/fonts/truetype/symbola/Symbola.ttf",
    "/usr/share/fonts/truetype/noto/NotoSansSymbols2-Regular.ttf",
    "/usr/share/fonts/opentype/unifont/unifont_upper.otf",
    "/usr/share/fonts/truetype/unifont/unifont_upper.ttf",
)


def art_file(name: str) -> str:
    """FluffyStuff file stem of a face name (`0p` -> `Pin5-Dora`)."""
    n, suit = int(name[0]), name[1]
    if suit == "z":
        return _HONOUR_FILES[n - 1]
    return f"{_SUIT_FILES[suit]}5-Dora" if n == 0 else f"{_SUIT_FILES[suit]}{n}"


@dataclass(frozen=True)
class FaceSet:
    """One drawing style: RGBA-free BGR face textures (with the tile body colour) and a back texture."""

    name: str
    faces: dict[str, np.ndarray]  # face name -> BGR uint8 (h, w, 3)
    body: tuple[int, int, int]  # front body colour, BGR
    back: np.ndarray | None  # BGR texture of the back, None = plain colour chosen per scene


def _read_rgba(path: Path) -> np.ndarray:
    img = cv2.imread(str(path), cv2.IMREAD_UNCHANGED)
    if img is None or img.ndim != 3 or img.shape[2] != 4:
        raise FileNotFoundError(f"tile art missing or not RGBA: {path}")
    return cv2.resize(img, TEXTURE_SIZE, interpolation=cv2.INTER_AREA)


def _over(base: np.ndarray, rgba: np.ndarray) -> np.ndarray:
    a = rgba[:, :, 3:4].astype(np.float32) / 255.0
    return (base.astype(np.float32) * (1 - a) + rgba[:, :, :3].astype(np.float32) * a).astype(np.uint8)


def _inset(rgba: np.ndarray, scale: float = 0.86) -> np.ndarray:
    """The art fills its canvas edge to edge; real faces leave a margin of body colour."""
    h, w = rgba.shape[:2]
    small = cv2.resize(rgba, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
    out = np.zeros_like(rgba)
    y0, x0 = (h - small.shape[0]) // 2, (w - small.shape[1]) // 2
    out[y0 : y0 + small.shape[0], x0 : x0 + small.shape[1]] = small
    return out


def _fluffy(art: Path, style: str) -> FaceSet:
    folder = art / style
    front = _read_rgba(folder / "Front.png")
    body = tuple(int(c) for c in front[TEXTURE_SIZE[1] // 2, TEXTURE_SIZE[0] // 2, :3])
    plain = np.empty((TEXTURE_SIZE[1], TEXTURE_SIZE[0], 3), np.uint8)
    plain[:] = body
    faces = {name: _over(plain, _inset(_read_rgba(folder / f"{art_file(name)}.png"))) for name in FACES}
    back = _read_rgba(folder / "Back.png")
    back_bgr = back[:, :, :3].copy()
    back_bgr[back[:, :, 3] < 128] = back_bgr[TEXTURE_SIZE[1] // 2, TEXTURE_SIZE[0] // 2]
    return FaceSet(f"fluffy-{style.lower()}", faces, body, back_bgr)  # type: ignore[arg-type]


def _glyph_faces(font_path: str) -> FaceSet | None:
    try:
        from PIL import Image, ImageDraw, ImageFont
    except ImportError:
        return None
    w, h = TEXTURE_SIZE
    try:
        font = ImageFont.truetype(font_path, size=int(h * 0.95))
    except OSError:
        return None
    faces: dict[str, np.ndarray] = {}
    for name in FACES:
        n, suit = int(name[0]), name[1]
        code = _GLYPH_HONOURS[n - 1] if suit == "z" else _GLYPH_BASE[suit] + (4 if n == 0 else n - 1)
        ink = (30, 30, 200) if n == 0 and suit != "z" else (20, 20, 20)  # BGR; red fives drawn in red ink
        canvas = Image.new("L", (w * 2, h * 2), 0)
        ImageDraw.Draw(canvas).text((w // 4, h // 8), chr(code), fill=255, font=font)
        mask = np.array(canvas)
        ys, xs = np.nonzero(mask > 40)
        if len(xs) < 20:
            return None  # the font lacks the block
        mask = mask[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
        mask = cv2.resize(mask, (int(w * 0.92), int(h * 0.92)), interpolation=cv2.INTER_AREA)
        face = np.full((h, w, 3), 238, np.uint8)
        a = (mask.astype(np.float32) / 255.0)[:, :, None]
        y0, x0 = (h - mask.shape[0]) // 2, (w - mask.shape[1]) // 2
        roi = face[y0 : y0 + mask.shape[0], x0 : x0 + mask.shape[1]].astype(np.float32)
        face[y0 : y0 + mask.shape[0], x0 : x0 + mask.shape[1]] = (roi * (1 - a) + np.array(ink) * a).astype(np.uint8)
        faces[name] = face
    return FaceSet("glyph-" + Path(font_path).stem.lower(), faces, (238, 238, 238), None)


@functools.lru_cache(maxsize=4)
def load_face_sets(art: str | None = None, fonts: bool = True) -> tuple[FaceSet, ...]:
    """All usable styles. FluffyStuff Regular and Black are required; font glyphs are added when available."""
    root = Path(art) if art else DEFAULT_ART
    sets = [_fluffy(root, "Regular"), _fluffy(root, "Black")]
    if fonts:
        for path in FONT_CANDIDATES:
            if os.path.exists(path):
                fs = _glyph_faces(path)
                if fs is not None:
                    sets.append(fs)
    return tuple(sets)

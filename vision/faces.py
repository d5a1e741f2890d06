"""Procedural tile faces in many drawing styles, so the classifier sees more than one tile set.

Real sets differ in calligraphy, pip drawings, ink colours, red-five marks and back colours; a model trained on one
art set (FluffyStuff) learns that set. Here every face is drawn from parts: CJK characters from the Debian font
packages (fonts-noto-cjk, fonts-ipafont-*, fonts-arphic-*), circles (pinzu) and bamboo sticks (souzu) in the usual
positional layouts, and a `FaceStyle` drawn at random picks colours, designs, weights and margins.

    style = random_style(np.random.default_rng(7))
    face = render_face("0p", style)          # RGB uint8, shape (160, 120, 3)
    back = render_face("back", style)

Fonts are looked up in `JANTAKU_FONT_DIRS` (os.pathsep-separated folders, any .ttf/.otf/.ttc in them) and then in
the standard Debian font folders (known CJK file names only). With fewer fonts there are fewer styles; with none,
`random_style` raises `NoCJKFontError`. Preview: `python -m vision.faces OUT.png --seed N`.
"""

from __future__ import annotations

import argparse
import functools
import math
import os
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
from PIL import Image, ImageDraw, ImageFont

FACE_NAMES: tuple[str, ...] = tuple(
    [f"{n}{s}" for s in "mps" for n in (1, 2, 3, 4, 5, 0, 6, 7, 8, 9)] + [f"{n}z" for n in range(1, 8)]
)
BACK = "back"
DEFAULT_SIZE = (120, 160)  # width, height (3:4 like a tile face), the texture size of vision.art
SUPERSAMPLE = 2  # draw at twice the size and shrink: smooth edges without a blur pass

NUMERALS = "一二三四五六七八九"
WINDS = "東南西北"
CJK_CHARS = NUMERALS + "萬伍" + WINDS + "發中"

SYSTEM_FONT_DIRS: tuple[str, ...] = (
    "/usr/share/fonts/opentype/noto",
    "/usr/share/fonts/opentype/ipafont-mincho",
    "/usr/share/fonts/opentype/ipafont-gothic",
    "/usr/share/fonts/truetype/arphic",
    "/usr/share/fonts/opentype/ipaexfont-mincho",
    "/usr/share/fonts/opentype/ipaexfont-gothic",
    "/usr/share/fonts/truetype/wqy",
    "/usr/share/fonts/truetype/noto",
    "/usr/share/fonts/opentype",
    "/usr/share/fonts/truetype",
    "/usr/local/share/fonts",
)
# Known CJK font files in Debian packages (file name -> collection index; 0 = the Japanese face of Noto CJK).
KNOWN_CJK_FONTS: dict[str, int] = {
    "NotoSansCJK-Regular.ttc": 0,
    "NotoSansCJK-Bold.ttc": 0,
    "NotoSansCJK-Medium.ttc": 0,
    "NotoSansCJK-Black.ttc": 0,
    "NotoSerifCJK-Regular.ttc": 0,
    "NotoSerifCJK-Bold.ttc": 0,
    "NotoSerifCJK-SemiBold.ttc": 0,
    "NotoSerifCJK-Black.ttc": 0,
    "ipam.ttf": 0,
    "ipag.ttf": 0,
    "ipaexm.ttf": 0,
    "ipaexg.ttf": 0,
    "ukai.ttc": 0,
    "uming.ttc": 0,
    "wqy-zenhei.ttc": 0,
    "wqy-microhei.ttc": 0,
}
# Brush (kai) and serif faces look most like engraved tiles; sans faces are the modern "print" sets.
_FONT_WEIGHT = {"ukai": 4.0, "NotoSerifCJK-Bold": 2.0, "NotoSerifCJK-Black": 2.0, "ipam": 1.5, "uming": 1.5}

INSTALL_HINT = ("apt-get install -y fonts-noto-cjk fonts-ipafont-mincho fonts-ipafont-gothic fonts-arphic-ukai "
                "fonts-arphic-uming")

RGB = tuple[int, int, int]
FontRef = tuple[str, int]  # font file path, index in a .ttc collection


class NoCJKFontError(RuntimeError):
    """No usable CJK font: the man characters, winds and dragons cannot be drawn."""


# ---------------------------------------------------------------------------------------------------- fonts


def _search_dirs() -> tuple[tuple[str, bool], ...]:
    """(folder, any_font) pairs: the env folders take any font file, the system folders only known names."""
    extra = [d for d in os.environ.get("JANTAKU_FONT_DIRS", "").split(os.pathsep) if d]
    return tuple((d, True) for d in extra) + tuple((d, False) for d in SYSTEM_FONT_DIRS)


def find_cjk_fonts() -> tuple[FontRef, ...]:
    """Usable CJK fonts (every character a tile needs has a real glyph), env folders first, no duplicates."""
    return _find_cjk_fonts(_search_dirs())


@functools.lru_cache(maxsize=8)
def _find_cjk_fonts(dirs: tuple[tuple[str, bool], ...]) -> tuple[FontRef, ...]:
    found: list[FontRef] = []
    seen: set[str] = set()
    for folder, any_font in dirs:
        try:
            names = sorted(os.listdir(folder))
        except OSError:
            continue
        for name in names:
            path = os.path.join(folder, name)
            if any_font:
                if not name.lower().endswith((".ttf", ".otf", ".ttc")):
                    continue
                index = 0
            elif name in KNOWN_CJK_FONTS:
                index = KNOWN_CJK_FONTS[name]
            else:
                continue
            real = os.path.realpath(path)
            if real in seen or not os.path.isfile(real):
                continue
            seen.add(real)
            if _has_glyphs(path, index, CJK_CHARS):
                found.append((path, index))
    return tuple(found)


@functools.lru_cache(maxsize=64)
def _font(path: str, index: int, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(path, size=size, index=index)


def _raw_mask(font: ImageFont.FreeTypeFont, ch: str, stroke: int = 0) -> np.ndarray:
    left, top, right, bottom = font.getbbox(ch, stroke_width=stroke)
    w, h = max(1, right - left), max(1, bottom - top)
    img = Image.new("L", (w + 4, h + 4), 0)
    ImageDraw.Draw(img).text((2 - left, 2 - top), ch, font=font, fill=255, stroke_width=stroke, stroke_fill=255)
    return np.asarray(img)


def _has_glyphs(path: str, index: int, chars: str) -> bool:
    """True when the font draws every char as something other than its missing-glyph box."""
    try:
        font = _font(path, index, 48)
        notdef = _raw_mask(font, "\U0010fffd")
        for ch in chars:
            m = _raw_mask(font, ch)
            if int((m > 128).sum()) < 20 or (m.shape == notdef.shape and np.array_equal(m, notdef)):
                return False
    except (OSError, ValueError):
        return False
    return True


@functools.lru_cache(maxsize=4096)
def _glyph(font: FontRef, ch: str, weight: int) -> np.ndarray:
    """The glyph's ink as an L mask cropped to its bounding box (drawn at 160 px; `weight` thickens strokes)."""
    m = _raw_mask(_font(font[0], font[1], 160), ch, weight)
    ys, xs = np.nonzero(m > 16)
    return m[ys.min(): ys.max() + 1, xs.min(): xs.max() + 1].copy()


# ---------------------------------------------------------------------------------------------------- styles


@dataclass(frozen=True)
class FaceStyle:
    """One tile set's look. Colours are RGB; sizes are fractions of the face so any output size works."""

    face_colour: RGB
    back_colour: RGB
    numeral_ink: RGB  # man numerals
    man_ink: RGB  # the 萬 character
    wind_ink: RGB
    red: RGB  # 中, red pips/sticks, red fives
    green: RGB  # 發
    pin_blue: RGB
    pin_green: RGB
    stick: RGB
    stick_alt: RGB  # second stick colour of "mixed" sets (equal to `stick` in one-colour sets)
    pin_design: str  # ring | flower | solid | double | spoke
    one_pin: str  # rosette | target | sun
    stick_design: str  # nodes | plain | hollow | split
    one_sou: str  # peacock | sparrow | stick
    white_dragon: str  # blank | frame | double | corners
    red_five: str  # all | dot | crystal
    five_centre_red: bool  # plain 5p/5s with a red centre pip/stick (most Japanese sets)
    nine_sou_red: bool  # 9s middle column red
    five_formal: bool  # 伍 instead of 五 on 5m
    man_split: float  # where the numeral ends and 萬 begins (content coordinates, -1 top .. 1 bottom)
    char_scale: float  # size of the wind and dragon characters
    pip_scale: float
    spread: float  # how far pips and sticks sit from the centre (1 = the default layout)
    line: float  # stroke width as a fraction of the face width
    margin: float  # empty border as a fraction of the face width
    weight: int  # extra glyph stroke in px at 160 px (bolder calligraphy)
    numeral_font: FontRef
    man_font: FontRef
    honour_font: FontRef
    offset: tuple[float, float]  # print offset as fractions of the face size
    edge_shade: float  # darkening towards the edges (curved face, engraving wear)


_FACES = [(246, 242, 228), (250, 250, 246), (242, 234, 210), (246, 240, 205), (238, 236, 226), (252, 248, 236)]
_BACKS = [(236, 186, 46), (240, 130, 30), (40, 90, 180), (30, 60, 130), (40, 140, 70), (20, 90, 60),
          (232, 130, 170), (236, 236, 230), (120, 60, 140), (190, 40, 40), (90, 170, 220), (50, 50, 50)]
_BLACKS = [(20, 20, 20), (34, 30, 32), (25, 28, 45)]
_BLUES = [(25, 40, 110), (30, 70, 160), (20, 60, 190), (20, 80, 140), (40, 50, 130)]
_GREENS = [(20, 110, 50), (30, 130, 60), (10, 90, 60), (60, 140, 50), (20, 120, 90)]
_REDS = [(200, 30, 30), (212, 40, 52), (180, 20, 40), (222, 62, 40), (190, 35, 70)]


def _pick(rng: np.random.Generator, items: list, jitter: int = 0) -> RGB:
    c = items[int(rng.integers(len(items)))]
    if jitter:
        c = tuple(int(np.clip(v + rng.integers(-jitter, jitter + 1), 0, 255)) for v in c)
    return c  # type: ignore[return-value]


def _choice(rng: np.random.Generator, options: dict[str, float]) -> str:
    names = list(options)
    p = np.array([options[n] for n in names], float)
    return names[int(rng.choice(len(names), p=p / p.sum()))]


def _pick_font(rng: np.random.Generator, fonts: tuple[FontRef, ...]) -> FontRef:
    w = np.array([_FONT_WEIGHT.get(Path(p).stem, 1.0) for p, _ in fonts], float)
    return fonts[int(rng.choice(len(fonts), p=w / w.sum()))]


def random_style(rng: np.random.Generator) -> FaceStyle:
    """A random tile set look. Raises NoCJKFontError when no CJK font is installed."""
    fonts = find_cjk_fonts()
    if not fonts:
        raise NoCJKFontError(
            "no CJK font found for the tile characters (萬 東 發 中 ...); install one with `" + INSTALL_HINT
            + "` or point JANTAKU_FONT_DIRS at a folder with a .ttf/.otf/.ttc CJK font")
    black = _pick(rng, _BLACKS, 6)
    blue = _pick(rng, _BLUES, 12)
    green = _pick(rng, _GREENS, 12)
    red = _pick(rng, _REDS, 12)
    scheme = _choice(rng, {"black": 6, "blue": 2, "all-blue": 1})  # man numerals black or blue; 萬 red mostly
    numeral_ink = black if scheme == "black" else blue
    man_ink = red if scheme != "all-blue" else blue
    stick = green if rng.random() < 0.85 else blue
    stick_alt = (blue if stick == green else green) if rng.random() < 0.3 else stick
    calligraphy = _pick_font(rng, fonts)
    return FaceStyle(
        face_colour=_pick(rng, _FACES, 6),
        back_colour=_pick(rng, _BACKS, 18),
        numeral_ink=numeral_ink,
        man_ink=man_ink,
        wind_ink=black if rng.random() < 0.7 else blue,
        red=red,
        green=green,
        pin_blue=blue,
        pin_green=green if rng.random() < 0.7 else blue,
        stick=stick,
        stick_alt=stick_alt,
        pin_design=_choice(rng, {"ring": 3, "flower": 2, "solid": 1, "double": 2, "spoke": 1}),
        one_pin=_choice(rng, {"rosette": 3, "target": 1, "sun": 1}),
        stick_design=_choice(rng, {"nodes": 3, "plain": 1, "hollow": 1, "split": 1}),
        one_sou=_choice(rng, {"peacock": 3, "sparrow": 2, "stick": 1}),
        white_dragon=_choice(rng, {"blank": 2, "frame": 3, "double": 1, "corners": 1}),
        red_five=_choice(rng, {"all": 6, "dot": 1, "crystal": 1.5}),
        five_centre_red=bool(rng.random() < 0.8),
        nine_sou_red=bool(rng.random() < 0.7),
        five_formal=bool(rng.random() < 0.3),
        man_split=float(rng.uniform(-0.3, -0.04)),
        char_scale=float(rng.uniform(0.78, 1.0)),
        pip_scale=float(rng.uniform(0.82, 1.04)),
        spread=float(rng.uniform(0.93, 1.04)),
        line=float(rng.uniform(0.025, 0.06)),
        margin=float(rng.uniform(0.05, 0.13)),
        weight=int(rng.integers(0, 5)),
        numeral_font=calligraphy if rng.random() < 0.6 else _pick_font(rng, fonts),
        man_font=calligraphy,
        honour_font=calligraphy if rng.random() < 0.7 else _pick_font(rng, fonts),
        offset=(float(rng.uniform(-0.025, 0.025)), float(rng.uniform(-0.02, 0.02))),
        edge_shade=float(rng.uniform(0.0, 0.12)),
    )


# ---------------------------------------------------------------------------------------------------- drawing


class _Canvas:
    """Draws in content coordinates: u, v in [-1, 1] across the face inside its margin (v grows downwards)."""

    def __init__(self, style: FaceStyle, w: int, h: int):
        self.style = style
        self.img = Image.new("RGB", (w, h), style.face_colour)
        self.draw = ImageDraw.Draw(self.img)
        m = style.margin * w
        self.cx = w / 2 + style.offset[0] * w
        self.cy = h / 2 + style.offset[1] * h
        self.hw, self.hh = w / 2 - m, h / 2 - m * 1.05
        self.unit = self.hw  # radii and widths are in units of the content half-width
        self.lw = max(1, round(style.line * w))

    def xy(self, u: float, v: float) -> tuple[float, float]:
        return self.cx + u * self.hw, self.cy + v * self.hh

    def disc(self, u: float, v: float, r: float, fill: RGB | None, outline: RGB | None = None, width: float = 0):
        x, y = self.xy(u, v)
        rr = r * self.unit
        self.draw.ellipse((x - rr, y - rr, x + rr, y + rr), fill=fill, outline=outline,
                          width=max(1, round(width * self.unit)) if outline else 0)

    def poly(self, pts: list[tuple[float, float]], fill: RGB) -> None:
        self.draw.polygon([self.xy(u, v) for u, v in pts], fill=fill)

    def line(self, pts: list[tuple[float, float]], fill: RGB, width: float) -> None:
        self.draw.line([self.xy(u, v) for u, v in pts], fill=fill, width=max(1, round(width * self.unit)),
                       joint="curve")

    def ellipse_poly(self, u: float, v: float, ru: float, rv: float, angle: float, fill: RGB, n: int = 28) -> None:
        """A rotated ellipse; ru, rv in half-width units, angle in radians (screen coordinates)."""
        x, y = self.xy(u, v)
        ca, sa = math.cos(angle), math.sin(angle)
        pts = []
        for k in range(n):
            t = 2 * math.pi * k / n
            a, b = ru * self.unit * math.cos(t), rv * self.unit * math.sin(t)
            pts.append((x + a * ca - b * sa, y + a * sa + b * ca))
        self.draw.polygon(pts, fill=fill)

    def text(self, ch: str, font: FontRef, box: tuple[float, float, float, float], ink: RGB, weight: int,
             stretch: float = 1.25) -> None:
        """Fit a glyph into box (u0, v0, u1, v1), keeping its shape unless a small stretch fills the box better."""
        mask = _glyph(font, ch, weight)
        (x0, y0), (x1, y1) = self.xy(box[0], box[1]), self.xy(box[2], box[3])
        bw, bh = x1 - x0, y1 - y0
        gh, gw = mask.shape
        s = min(bw / gw, bh / gh)
        w, h = min(bw, gw * s * stretch), min(bh, gh * s * stretch)
        w, h = max(1, round(w)), max(1, round(h))
        m = Image.fromarray(mask).resize((w, h), Image.Resampling.BILINEAR)
        px, py = round(x0 + (bw - w) / 2), round(y0 + (bh - h) / 2)
        self.img.paste(ink, (px, py, px + w, py + h), m)


def _pip(c: _Canvas, u: float, v: float, r: float, ink: RGB) -> None:
    """One circle (pinzu pip) in the style's design."""
    st, bg = c.style, c.style.face_colour
    lw = max(0.07, st.line * 2.2) * r / 0.35
    d = st.pin_design
    if d == "ring":  # outer disc, a face-coloured ring, a small dashed-looking inner ring and a dot
        c.disc(u, v, r, ink)
        c.disc(u, v, r * 0.74, bg)
        c.disc(u, v, r * 0.56, None, ink, lw * 0.45)
        c.disc(u, v, r * 0.18, ink)
    elif d == "flower":
        c.disc(u, v, r, None, ink, lw * 0.7)
        for k in range(8):
            a = k * math.pi / 4
            c.disc(u + math.cos(a) * r * 0.5, v + math.sin(a) * r * 0.5 * c.hw / c.hh, r * 0.17, ink)
        c.disc(u, v, r * 0.2, st.red if ink != st.red else st.pin_blue)
    elif d == "solid":
        c.disc(u, v, r, ink)
        c.disc(u, v, r * 0.45, None, bg, lw * 0.35)
    elif d == "double":
        c.disc(u, v, r, None, ink, lw * 0.55)
        c.disc(u, v, r * 0.62, None, ink, lw * 0.45)
        c.disc(u, v, r * 0.22, ink)
    else:  # spoke: a ring with radial lines, like a coin
        c.disc(u, v, r, ink)
        c.disc(u, v, r * 0.78, bg)
        sy = c.hw / c.hh
        for k in range(6):
            a = k * math.pi / 6
            du, dv = math.cos(a) * r * 0.78, math.sin(a) * r * 0.78 * sy
            c.line([(u - du, v - dv), (u + du, v + dv)], ink, lw * 0.3)
        c.disc(u, v, r * 0.25, ink)


def _one_pin(c: _Canvas, ink: RGB, accent: RGB, inner: RGB) -> None:
    st, bg = c.style, c.style.face_colour
    r = 0.97 * st.pip_scale ** 0.3
    sy = c.hw / c.hh
    if st.one_pin == "rosette":
        c.disc(0, 0, r, ink)
        c.disc(0, 0, r * 0.9, bg)
        for k in range(16):  # a ring of beads
            a = k * math.pi / 8
            c.disc(math.cos(a) * r * 0.78, math.sin(a) * r * 0.78 * sy, r * 0.09, accent)
        c.disc(0, 0, r * 0.62, ink)
        c.disc(0, 0, r * 0.5, bg)
        for k in range(8):  # petals
            a = k * math.pi / 4
            c.ellipse_poly(math.cos(a) * r * 0.27, math.sin(a) * r * 0.27 * sy, r * 0.2, r * 0.09, a, inner)
        c.disc(0, 0, r * 0.1, accent)
    elif st.one_pin == "target":
        for rad, col in ((1.0, ink), (0.84, bg), (0.74, accent), (0.6, bg), (0.5, ink), (0.36, bg), (0.26, inner)):
            c.disc(0, 0, r * rad, col)
    else:  # sun: a disc with rays
        for k in range(24):
            a = k * math.pi / 12
            c.ellipse_poly(math.cos(a) * r * 0.8, math.sin(a) * r * 0.8 * sy, r * 0.17, r * 0.06, a, accent)
        c.disc(0, 0, r * 0.66, ink)
        c.disc(0, 0, r * 0.54, bg)
        c.disc(0, 0, r * 0.42, inner)
        c.disc(0, 0, r * 0.18, bg)


def _pins(c: _Canvas, n: int, red_five: bool) -> None:
    st = c.style
    b, g, r = st.pin_blue, st.pin_green, st.red
    if red_five and st.red_five != "dot":
        b = g = r
    s, sp = min(st.pip_scale, st.spread), st.spread
    layouts: dict[int, list[tuple[float, float, float, RGB]]] = {
        2: [(0, -0.5, 0.52, g), (0, 0.5, 0.52, g)],
        3: [(-0.52, -0.64, 0.4, b), (0, 0, 0.4, r), (0.52, 0.64, 0.4, b)],
        4: [(-0.48, -0.46, 0.45, b), (0.48, -0.46, 0.45, g), (-0.48, 0.46, 0.45, g), (0.48, 0.46, 0.45, b)],
        5: [(-0.54, -0.6, 0.4, b), (0.54, -0.6, 0.4, g), (-0.54, 0.6, 0.4, g), (0.54, 0.6, 0.4, b),
            (0, 0, 0.4, r if (st.five_centre_red or red_five) else b)],
        6: [(-0.5, -0.68, 0.37, g), (0.5, -0.68, 0.37, g)]
        + [(x, y, 0.37, r) for y in (0.14, 0.7) for x in (-0.5, 0.5)],
        7: [(-0.6, -0.78, 0.3, g), (0, -0.56, 0.3, g), (0.6, -0.34, 0.3, g)]
        + [(x, y, 0.34, r) for y in (0.2, 0.72) for x in (-0.48, 0.48)],
        8: [(x, y, 0.32, b) for y in (-0.75, -0.25, 0.25, 0.75) for x in (-0.48, 0.48)],
        9: [(x, y, 0.3, (r if y == 0 else b)) for y in (-0.66, 0, 0.66) for x in (-0.64, 0, 0.64)],
    }
    if n == 1:
        _one_pin(c, b, g if not red_five else r, r)
        return
    for u, v, rad, ink in layouts[n]:
        _pip(c, u * sp, v * sp, rad * s, ink)


def _stick(c: _Canvas, u: float, v: float, length: float, width: float, angle: float, ink: RGB) -> None:
    """One bamboo stick centred at (u, v); length in half-height units, width in half-width units."""
    st, bg = c.style, c.style.face_colour
    x, y = c.xy(u, v)
    half = length * c.hh / 2
    wpx = width * c.unit
    dx, dy = math.sin(angle), -math.cos(angle)  # along the stick (angle 0 = vertical)
    nx, ny = -dy, dx

    def quad(t0: float, t1: float, w: float, fill: RGB) -> None:
        a, b = t0 * half, t1 * half
        c.draw.polygon([(x + dx * a + nx * w / 2, y + dy * a + ny * w / 2), (x + dx * b + nx * w / 2,
                        y + dy * b + ny * w / 2), (x + dx * b - nx * w / 2, y + dy * b - ny * w / 2),
                        (x + dx * a - nx * w / 2, y + dy * a - ny * w / 2)], fill=fill)

    def cap(t: float, w: float, fill: RGB) -> None:
        px, py = x + dx * t * half, y + dy * t * half
        c.draw.ellipse((px - w / 2, py - w / 2, px + w / 2, py + w / 2), fill=fill)

    d = st.stick_design
    if d == "split":  # two segments with a gap at the middle node
        for t0, t1 in ((-1, -0.08), (0.08, 1)):
            quad(t0 + 0.1, t1 - 0.1, wpx * 0.8, ink)
            cap(t0 + 0.1, wpx * 0.8, ink)
            cap(t1 - 0.1, wpx * 0.8, ink)
        quad(-0.05, 0.05, wpx * 1.15, ink)
        return
    quad(-0.9, 0.9, wpx * (0.75 if d != "plain" else 0.85), ink)
    for t in (-0.9, 0.9):
        cap(t, wpx * (0.95 if d != "plain" else 0.85), ink)
    if d == "plain":
        quad(-0.06, 0.06, wpx * 1.1, ink)
        return
    quad(-0.08, 0.08, wpx * 1.05, ink)  # middle node
    if d == "nodes":  # a light centre line broken at the nodes, as on engraved sticks
        lw = max(1.0, wpx * 0.18)
        quad(-0.72, -0.2, lw, bg)
        quad(0.2, 0.72, lw, bg)
    else:  # hollow: the inside of each segment in face colour
        quad(-0.78, -0.2, wpx * 0.32, bg)
        quad(0.2, 0.78, wpx * 0.32, bg)


def _bird(c: _Canvas, red_five: bool) -> None:
    st = c.style
    body, tail, red = st.stick, st.pin_blue if st.stick != st.pin_blue else st.green, st.red
    sy = c.hw / c.hh
    if st.one_sou == "stick":
        _stick(c, 0, 0.05, 1.75, 0.55 * st.pip_scale, 0, body)
        c.ellipse_poly(0.32, -0.45, 0.28, 0.1, -0.6, body)  # a leaf
        return
    if st.one_sou == "peacock":
        pu, pv = 0.12, 0.2  # the tail fans out from behind the body
        for k in range(11):
            a = math.pi * (1.05 + 0.9 * k / 10)
            for dist, ru, rv, col in ((0.5, 0.45, 0.13, body), (0.86, 0.12, 0.12, tail), (0.86, 0.05, 0.05, red)):
                c.ellipse_poly(pu + math.cos(a) * dist, pv + math.sin(a) * dist * sy, ru, rv, a, col)
        c.ellipse_poly(0.02, 0.36, 0.4, 0.27, -0.2, tail)  # body
        c.ellipse_poly(0.1, 0.36, 0.2, 0.1, -0.2, st.face_colour)  # wing mark
        c.line([(-0.2, 0.3), (-0.36, 0.06)], tail, 0.14)  # neck
        c.disc(-0.4, 0.0, 0.15, tail)  # head
        c.disc(-0.42, -0.03, 0.04, st.face_colour)
        c.poly([(-0.52, -0.03), (-0.76, 0.04), (-0.52, 0.09)], red)  # beak
    else:  # sparrow: a plump bird on a branch
        c.line([(-0.8, 0.62), (0.8, 0.5)], body, 0.1)
        c.ellipse_poly(0.45, -0.15, 0.42, 0.14, -0.9, tail)  # tail up
        c.ellipse_poly(0.0, 0.15, 0.5, 0.36, 0.15, body)
        c.ellipse_poly(0.08, 0.18, 0.3, 0.18, 0.3, tail)  # wing
        c.disc(-0.42, -0.2, 0.24, body)
        c.poly([(-0.62, -0.26), (-0.9, -0.16), (-0.62, -0.1)], red)
        c.disc(-0.46, -0.26, 0.05, st.face_colour)
        c.disc(-0.46, -0.26, 0.025, (10, 10, 10))
    for x in (-0.1, 0.15):  # legs
        c.line([(x, 0.5), (x - 0.03, 0.85)], red, 0.05)
        c.line([(x - 0.14, 0.9), (x - 0.03, 0.85), (x + 0.1, 0.9)], red, 0.04)


def _sous(c: _Canvas, n: int, red_five: bool) -> None:
    st = c.style
    g, a, r = st.stick, st.stick_alt, st.red
    if red_five and st.red_five != "dot":
        g = a = r
    w = 0.4 * st.pip_scale
    if n == 1:
        _bird(c, red_five)
        return
    sticks: list[tuple[float, float, float, float, RGB]]  # u, v, length, angle, colour
    if n == 2:
        sticks = [(0, -0.5, 0.9, 0, g), (0, 0.5, 0.9, 0, a)]
    elif n == 3:
        sticks = [(0, -0.5, 0.9, 0, g), (-0.4, 0.5, 0.9, 0, a), (0.4, 0.5, 0.9, 0, a)]
    elif n == 4:
        sticks = [(-0.42, -0.5, 0.9, 0, g), (0.42, -0.5, 0.9, 0, a), (-0.42, 0.5, 0.9, 0, a), (0.42, 0.5, 0.9, 0, g)]
    elif n == 5:
        centre = r if (st.five_centre_red or red_five) else g
        sticks = [(-0.56, -0.5, 0.9, 0, g), (0.56, -0.5, 0.9, 0, a), (-0.56, 0.5, 0.9, 0, a),
                  (0.56, 0.5, 0.9, 0, g), (0, 0, 0.9, 0, centre)]
    elif n == 6:
        sticks = [(x, -0.5, 0.9, 0, g) for x in (-0.6, 0, 0.6)] + [(x, 0.5, 0.9, 0, a) for x in (-0.6, 0, 0.6)]
    elif n == 7:
        sticks = [(0, -0.64, 0.58, 0, r)] + [(x, y, 0.58, 0, g if y < 0.3 else a) for y in (0.0, 0.64)
                                            for x in (-0.6, 0, 0.6)]
    elif n == 8:
        t = 0.42
        sticks = [(-0.72, -0.5, 0.9, 0, g), (0.72, -0.5, 0.9, 0, g), (-0.26, -0.5, 0.95, t, a),
                  (0.26, -0.5, 0.95, -t, a), (-0.72, 0.5, 0.9, 0, g), (0.72, 0.5, 0.9, 0, g),
                  (-0.26, 0.5, 0.95, -t, a), (0.26, 0.5, 0.95, t, a)]
    else:
        mid = r if st.nine_sou_red or red_five else a
        sticks = [(x, y, 0.58, 0, mid if x == 0 else g) for y in (-0.64, 0, 0.64) for x in (-0.6, 0, 0.6)]
    for u, v, length, ang, ink in sticks:
        _stick(c, u * st.spread, v * st.spread, length, w * (0.8 if n in (6, 8, 9) else 1.0), ang, ink)


def _man(c: _Canvas, n: int, red_five: bool) -> None:
    st = c.style
    num = "伍" if n == 5 and st.five_formal else NUMERALS[n - 1]
    ink_num, ink_man = st.numeral_ink, st.man_ink
    if red_five and st.red_five != "dot":
        ink_num = ink_man = st.red
    if n == 1:  # 一 is one flat stroke: keep its shape instead of stretching it into a block
        c.text(num, st.numeral_font, (-0.7, -0.78, 0.7, -0.38), ink_num, st.weight, stretch=1.0)
    else:
        c.text(num, st.numeral_font, (-0.72, -0.95, 0.72, st.man_split - 0.08), ink_num, st.weight)
    c.text("萬", st.man_font, (-0.92, st.man_split, 0.92, 0.96), ink_man, st.weight)


def _white_dragon(c: _Canvas) -> None:
    st = c.style
    if st.white_dragon == "blank":
        return
    ink = st.pin_blue
    lw = max(0.06, st.line * 2.0)
    c.draw.rectangle((*c.xy(-0.8, -0.82), *c.xy(0.8, 0.82)), outline=ink, width=max(1, round(lw * c.unit)))
    if st.white_dragon == "double":
        c.draw.rectangle((*c.xy(-0.6, -0.66), *c.xy(0.6, 0.66)), outline=ink, width=max(1, round(lw * c.unit * 0.6)))
    elif st.white_dragon == "corners":
        for su in (-1, 1):
            for sv in (-1, 1):
                c.disc(su * 0.8, sv * 0.82, 0.12, ink)


def _honour(c: _Canvas, n: int) -> None:
    st = c.style
    if n == 5:
        _white_dragon(c)
        return
    ch, ink = {1: ("東", st.wind_ink), 2: ("南", st.wind_ink), 3: ("西", st.wind_ink), 4: ("北", st.wind_ink),
               6: ("發", st.green), 7: ("中", st.red)}[n]
    k = st.char_scale
    c.text(ch, st.honour_font, (-0.95 * k, -0.86 * k, 0.95 * k, 0.86 * k), ink, st.weight)


def _shade(img: np.ndarray, amount: float) -> np.ndarray:
    if amount <= 0:
        return img
    h, w = img.shape[:2]
    yy = np.abs(np.linspace(-1, 1, h))[:, None]
    xx = np.abs(np.linspace(-1, 1, w))[None, :]
    k = 1 - amount * np.clip(np.maximum(xx, yy) - 0.6, 0, None) / 0.4
    return np.clip(img.astype(np.float32) * k[:, :, None], 0, 255).astype(np.uint8)


def _crystal(colour: RGB, red: RGB) -> RGB:
    """The pinkish body of a tinted red five."""
    return tuple(int(0.8 * f + 0.2 * r + 0.15 * (255 - f)) if i == 0 else int(0.8 * f + 0.2 * r)
                 for i, (f, r) in enumerate(zip(colour, red, strict=True)))  # type: ignore[return-value]


def render_face(face: str, style: FaceStyle, size: tuple[int, int] = DEFAULT_SIZE) -> np.ndarray:
    """RGB uint8 image of shape (size[1], size[0], 3) of one face (MPSZ code such as "5m", "0p", "7z") or "back"."""
    w, h = int(size[0]), int(size[1])
    if w < 8 or h < 8:
        raise ValueError(f"face size too small: {size}")
    if face == BACK:
        return _back(style, w, h)
    if face not in FACE_NAMES:
        raise ValueError(f"unknown tile face {face!r}: expected one of 1-9m/p/s, 0m/0p/0s (red fives), 1-7z or back")
    n, suit = int(face[0]), face[1]
    red_five = n == 0
    if red_five:
        n = 5
        if style.red_five == "crystal":
            style = replace(style, face_colour=_crystal(style.face_colour, style.red))
    c = _Canvas(style, w * SUPERSAMPLE, h * SUPERSAMPLE)
    if suit == "m":
        _man(c, n, red_five)
    elif suit == "p":
        _pins(c, n, red_five)
    elif suit == "s":
        _sous(c, n, red_five)
    else:
        _honour(c, n)
    if red_five and style.red_five == "dot":
        c.disc(0.78, -0.86, 0.16, style.red)
    img = np.asarray(c.img.resize((w, h), Image.Resampling.BOX))
    return _shade(img, style.edge_shade)


def _back(style: FaceStyle, w: int, h: int) -> np.ndarray:
    """A plain back in the style's colour with a soft light fall-off, as seen from above."""
    base = np.array(style.back_colour, np.float32)
    yy = np.linspace(-1, 1, h, dtype=np.float32)[:, None, None]
    xx = np.linspace(-1, 1, w, dtype=np.float32)[None, :, None]
    img = base * (1.0 + 0.05 * (-yy) - 0.03 * xx ** 2)
    return _shade(np.clip(img, 0, 255).astype(np.uint8), style.edge_shade)


def render_set(style: FaceStyle, size: tuple[int, int] = DEFAULT_SIZE) -> dict[str, np.ndarray]:
    """All 37 faces and the back of one style (RGB); render once per scene, then paste."""
    return {name: render_face(name, style, size) for name in (*FACE_NAMES, BACK)}


def bgr_textures(style: FaceStyle, size: tuple[int, int] = DEFAULT_SIZE
                 ) -> tuple[dict[str, np.ndarray], tuple[int, int, int], np.ndarray]:
    """The 37 faces, the face body colour and the back in OpenCV's BGR order: the fields of a `vision.art.FaceSet`."""
    faces = {name: np.ascontiguousarray(render_face(name, style, size)[:, :, ::-1]) for name in FACE_NAMES}
    body = (style.face_colour[2], style.face_colour[1], style.face_colour[0])
    return faces, body, np.ascontiguousarray(render_face(BACK, style, size)[:, :, ::-1])


def contact_sheet(seed: int, styles: int = 4, size: tuple[int, int] = (72, 96)) -> np.ndarray:
    """Rows of all 38 faces, one row per random style (for a person to look at)."""
    rng = np.random.default_rng(seed)
    gap = 4
    rows = []
    for _ in range(styles):
        st = random_style(rng)
        tiles = [render_face(name, st, size) for name in (*FACE_NAMES, BACK)]
        row = np.full((size[1] + 2 * gap, len(tiles) * (size[0] + gap) + gap, 3), 90, np.uint8)
        for i, t in enumerate(tiles):
            x = gap + i * (size[0] + gap)
            row[gap: gap + size[1], x: x + size[0]] = t
        rows.append(row)
    return np.vstack(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.faces", description=main.__doc__)
    parser.add_argument("out", help="PNG file to write")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--styles", type=int, default=4, help="rows (random styles) on the sheet")
    args = parser.parse_args(argv)
    try:
        sheet = contact_sheet(args.seed, max(1, args.styles))
    except NoCJKFontError as exc:
        print(exc)
        return 2
    Image.fromarray(sheet).save(args.out)
    print(f"wrote {args.out} ({sheet.shape[1]}x{sheet.shape[0]})")
    return 0


main.__doc__ = "Write a contact sheet of all 38 faces in a few random styles."

if __name__ == "__main__":
    raise SystemExit(main())

"""Tile pictures for the pages, `/tiles/<code>.png`, drawn from whatever this machine has.

The CC0 FluffyStuff art is not copied into the repository: it is read from a configured folder (`tile_art`),
else from a `shared/tiles/fluffystuff` folder beside the clone, else from `/usr/share/jantaku/tiles` (where
`deploy/install-pi.sh --tile-art DIR` puts it). Without art the faces are drawn by `vision.faces` in one fixed
style when a CJK font is installed (fonts-ipafont-gothic on a Pi). Without either the route answers 404 and the
pages show a styled text tile instead (`common.js`). Pictures are made once and kept in memory.
"""

from __future__ import annotations

import io
import logging
import threading
import time
from dataclasses import replace
from pathlib import Path

from flask import Blueprint, Response, current_app, jsonify

log = logging.getLogger("jantaku.tiles")
bp = Blueprint("tiles", __name__)

HEIGHT = 96  # px; the pages show tiles 44-48 px high, so this is sharp on a phone's 2x screen
WIDTH = 72
SYSTEM_ART = Path("/usr/share/jantaku/tiles")
FLUFFY_SUBFOLDER = Path("Export") / "Regular"
FACES_SEED = 7  # one fixed, readable style of vision.faces
SUITS = {"m": "Man", "p": "Pin", "s": "Sou"}
HONOURS = ("Ton", "Nan", "Shaa", "Pei", "Haku", "Hatsu", "Chun")
CODES = tuple([f"{n}{s}" for s in "mps" for n in range(10)] + [f"{n}z" for n in range(1, 8)] + ["back"])


def art_file(code: str) -> str:
    """The FluffyStuff file name of one of our codes: 5m -> Man5.png, 0p -> Pin5-Dora.png, 1z -> Ton.png."""
    if code == "back":
        return "Back.png"
    n, suit = int(code[0]), code[1]
    if suit == "z":
        return f"{HONOURS[n - 1]}.png"
    return f"{SUITS[suit]}{5 if n == 0 else n}{'-Dora' if n == 0 else ''}.png"


def _art_folder(folder: Path) -> Path | None:
    """`folder` itself when it holds the exported PNGs, or its `Export/Regular` (a whole FluffyStuff checkout)."""
    for candidate in (folder, folder / FLUFFY_SUBFOLDER):
        if (candidate / "Front.png").is_file() and (candidate / "Man1.png").is_file():
            return candidate
    return None


def find_art(configured: str = "", start: Path | None = None) -> Path | None:
    """The folder of tile art to use: the configured one, a `shared/tiles/fluffystuff` up the tree, or the system's."""
    if configured:
        found = _art_folder(Path(configured).expanduser())
        if found is None:
            log.warning("tile_art %s holds no FluffyStuff PNGs (Front.png, Man1.png ...): drawing tiles instead",
                        configured)
        return found
    here = (start or Path(__file__)).resolve()
    for parent in here.parents:
        found = _art_folder(parent / "shared" / "tiles" / "fluffystuff")
        if found is not None:
            return found
    return _art_folder(SYSTEM_ART)


def _png(image) -> bytes:
    buf = io.BytesIO()
    image.save(buf, format="PNG")
    return buf.getvalue()


class TileArt:
    """Makes and keeps the PNG of every tile code in one mode: "art", "faces" or "text" (no pictures)."""

    def __init__(self, configured: str = "", start: Path | None = None) -> None:
        self._configured = configured
        self._start = start
        self._lock = threading.Lock()
        self._pngs: dict[str, bytes] = {}
        self._mode: str | None = None
        self.source = ""
        self._folder: Path | None = None
        self._style = None
        self._front = None

    @property
    def mode(self) -> str:
        """Chosen on first use (not at start-up: finding fonts takes a moment the table should not wait for)."""
        with self._lock:
            if self._mode is None:
                self._choose()
            return self._mode

    def _choose(self) -> None:
        self._folder = find_art(self._configured, self._start)
        if self._folder is not None:
            self._mode, self.source = "art", f"FluffyStuff art from {self._folder}"
        else:
            try:
                import numpy as np

                from vision.faces import random_style

                style = random_style(np.random.default_rng(FACES_SEED))
                # A calm print: centred, unshaded, red fives all red (they must stand out on a scoreboard).
                self._style = replace(style, offset=(0.0, 0.0), edge_shade=0.0, red_five="all")
                self._mode, self.source = "faces", "drawn by vision.faces"
            except Exception as exc:  # NoCJKFontError, or vision not installed: text tiles in the page
                self._mode, self.source = "text", f"text tiles ({exc})"
        log.info("tile pictures: %s", self.source)

    def png(self, code: str) -> bytes | None:
        """The tile's PNG, or None when this machine has no way to draw it (the page shows text)."""
        if code not in CODES or self.mode == "text":
            return None
        with self._lock:
            if code not in self._pngs:
                self._pngs[code] = self._make(code)
            return self._pngs[code]

    def warm(self) -> None:
        """Make every tile now (`jantaku serve` does it in the background, so the first tile picker is instant)."""
        start = time.monotonic()
        try:
            for code in CODES:
                self.png(code)
        except Exception as exc:  # the route reports it per tile when asked
            log.error("tile pictures: %s", exc)
            return
        log.info("tile pictures ready (%s) in %.1f s", self.mode, time.monotonic() - start)

    def _make(self, code: str) -> bytes:
        from PIL import Image

        if self._mode == "faces":
            from vision.faces import render_face

            return _png(Image.fromarray(render_face(code, self._style, (WIDTH, HEIGHT))))
        if code == "back":
            return _png(self._sheet("Back.png"))
        if self._front is None:
            self._front = self._sheet("Front.png")
        tile = self._front.copy()
        tile.alpha_composite(self._sheet(art_file(code)))  # faces are drawn on a transparent sheet the front's size
        return _png(tile)

    def _sheet(self, name: str):
        """One of the art's 600x800 sheets, shrunk to the tile size."""
        from PIL import Image

        with Image.open(self._folder / name) as sheet:
            sheet.draft("RGBA", (WIDTH, HEIGHT))
            return sheet.convert("RGBA").resize((WIDTH, HEIGHT), Image.Resampling.LANCZOS)


@bp.get("/tiles/<code>.png")
def tile(code: str):
    art: TileArt = current_app.extensions["jantaku.tiles"]
    if code not in CODES:
        return jsonify(error=f"no tile {code!r}: use 1-9 and 0 (red five) with m/p/s, 1-7z, or back"), 404
    try:
        data = art.png(code)
    except Exception as exc:  # an unreadable art file: say so, and the page shows the text tile
        log.error("cannot draw tile %s: %s", code, exc)
        return jsonify(error=f"tile {code} cannot be drawn: {exc}"), 500
    if data is None:
        return jsonify(error=f"no tile pictures on this device ({art.source}): the page shows text tiles"), 404
    return Response(data, mimetype="image/png", headers={"Cache-Control": "public, max-age=86400"})


"""What the camera saw, as plain values: `TableView` and its parts (the output of `vision.layout`).

Seats of the ponds are named from the winner's side of the photo: `near` is the player whose hand is read (the
side the tiles of the hand face), `right` is the next player to act (shimocha), `across` (toimen), `left`
(kamicha). `sideways` and `upside_down` are relative to the row the tile belongs to, as its owner sees it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

SEAT_NAMES = ("near", "right", "across", "left")


def box_iou(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    """Intersection over union of two (x1, y1, x2, y2) boxes."""
    x1, y1 = max(a[0], b[0]), max(a[1], b[1])
    x2, y2 = min(a[2], b[2]), min(a[3], b[3])
    inter = max(0.0, x2 - x1) * max(0.0, y2 - y1)
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


@dataclass(frozen=True)
class SeenTile:
    tile: str  # MPSZ ("5m", "0p" for a red five) or "back"
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 in pixels of the EXIF-rotated image
    confidence: float
    sideways: bool = False
    upside_down: bool = False
    horizontal: bool = False  # long axis horizontal in the image (detector)
    orientation: int | None = None  # degrees clockwise from image-up the face top points; None = cannot tell
    # other faces the classifier gave some weight, likeliest first, each with its odds against the face read
    # (probability ratio): what `score-photo` tries when the hand as read does not win (vision.rereading)
    alternatives: tuple[tuple[str, float], ...] = ()

    @property
    def centre(self) -> tuple[float, float]:
        return (self.box[0] + self.box[2]) / 2, (self.box[1] + self.box[3]) / 2

    def to_json(self) -> dict:
        return {"tile": self.tile, "box": [round(v, 1) for v in self.box], "confidence": round(self.confidence, 3),
                "sideways": self.sideways, "upside_down": self.upside_down,
                "alternatives": [{"tile": t, "odds": round(odds, 3)} for t, odds in self.alternatives]}


@dataclass(frozen=True)
class SeenMeld:
    kind: str  # chi, pon, kan, added-kan, closed-kan, or "unknown" when the tiles make no meld
    tiles: tuple[str, ...]
    source: str | None  # left, across, right (where the called tile came from); None for closed kans
    indices: tuple[int, ...] = ()  # into TableView.tiles

    def to_json(self) -> dict:
        return {"kind": self.kind, "tiles": list(self.tiles), "source": self.source}


@dataclass(frozen=True)
class SeenHand:
    concealed: tuple[str, ...] = ()
    win: str | None = None
    melds: tuple[SeenMeld, ...] = ()
    win_sideways: bool = False
    concealed_indices: tuple[int, ...] = ()  # into TableView.tiles, in the order of `concealed`
    win_index: int | None = None

    def to_json(self) -> dict:
        return {"concealed": list(self.concealed), "win": self.win, "melds": [m.to_json() for m in self.melds]}


@dataclass(frozen=True)
class Pond:
    """A player's discards (kawa) in the order played; `riichi` is the index of the sideways riichi discard."""

    seat: str
    tiles: tuple[str, ...]
    riichi: int | None = None
    indices: tuple[int, ...] = ()  # where each tile lies in `TableView.tiles`, when the layout found them there

    def to_json(self) -> dict:
        return {"seat": self.seat, "tiles": list(self.tiles), "riichi": self.riichi}


@dataclass(frozen=True)
class TableView:
    width: int
    height: int
    tiles: tuple[SeenTile, ...] = ()
    hand: SeenHand = field(default_factory=SeenHand)
    dora_indicators: tuple[str, ...] = ()
    ponds: tuple[Pond, ...] = ()
    warnings: tuple[str, ...] = ()
    dora_indices: tuple[int, ...] = ()  # where each dora indicator lies in `tiles`, when the layout found them there

    def to_json(self) -> dict:
        return {"image": {"width": self.width, "height": self.height},
                "tiles": [t.to_json() for t in self.tiles], "hand": self.hand.to_json(),
                "dora_indicators": list(self.dora_indicators), "ponds": [p.to_json() for p in self.ponds],
                "warnings": list(self.warnings)}

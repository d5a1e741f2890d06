"""Any detections at all give a TableView, never a traceback: rows of tiles at any place, angle, size and facing,
with backs, sideways tiles and stray boxes mixed in (what a detector gives on an unusual photo)."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from vision.layout import SAME_READING, build_view
from vision.view import SeenTile, box_iou

NAMES = [f"{n}{s}" for s in "mps" for n in range(10)] + [f"{n}z" for n in range(1, 8)] + ["back"] * 6
SIZE = 800


@st.composite
def rows(draw) -> list[SeenTile]:
    """A row of touching tiles, upright or lying across, running at an angle near one of the picture's axes."""
    n = draw(st.integers(1, 15))
    short = draw(st.floats(8, 60))
    x, y = draw(st.floats(0, SIZE)), draw(st.floats(0, SIZE))
    angle = math.radians(draw(st.sampled_from([0, 90, 180, 270])) + draw(st.floats(-40, 40)))
    facing = draw(st.sampled_from([0, 90, 180, 270, None]))
    tiles = []
    for _ in range(n):
        across = draw(st.booleans()) if n > 1 else False
        w, h = (1.35 * short, short) if across != (abs(math.sin(angle)) > 0.7) else (short, 1.35 * short)
        name = draw(st.sampled_from(NAMES))
        tiles.append(SeenTile(name, (x - w / 2, y - h / 2, x + w / 2, y + h / 2), 0.9, horizontal=w > h,
                              orientation=None if name == "back" else facing))
        step = (w if abs(math.cos(angle)) > 0.7 else h) * draw(st.floats(1.0, 1.3))
        x, y = x + step * math.cos(angle), y + step * math.sin(angle)
    return tiles


@settings(max_examples=80, deadline=None)
@given(st.lists(rows(), max_size=10))
def test_any_detections_give_a_view(groups: list[list[SeenTile]]) -> None:
    tiles = [t for g in groups for t in g]
    view = build_view(tiles, SIZE, SIZE)
    kept = iter(view.tiles)  # in order, less second readings of the winning tile (a tilted tile found twice)
    win = view.tiles[view.hand.win_index].box if view.hand.win_index is not None else None
    now = next(kept, None)
    for t in tiles:
        if now is not None and (t.tile, t.box) == (now.tile, now.box):
            now = next(kept, None)
        else:
            assert t.tile == view.hand.win and box_iou(t.box, win) >= SAME_READING, f"{t} left out"
    assert now is None
    seen = [t.tile for t in tiles]
    seen += ["5" + n[1] for n in seen if n[0] == "0"]  # a closed kan's backs hide plain fives beside a red one
    hand = [*view.hand.concealed, *([view.hand.win] if view.hand.win else []),
            *(x for m in view.hand.melds for x in m.tiles if x != "back")]
    for name in set(hand) | {x for p in view.ponds for x in p.tiles} | set(view.dora_indicators):
        assert name in seen or name == "5z"  # a back alone between discards is read as a white dragon
    for p in view.ponds:
        assert p.riichi is None or 0 <= p.riichi < len(p.tiles)
    if not tiles:
        assert view.warnings == ("no tiles found in the photo",)

"""Layout from hand-made detections: hand, winning tile, melds, kans, dora, ponds, from every side of the table."""

from __future__ import annotations

import pytest

from vision.layout import build_view
from vision.view import SeenTile

W, H = 30.0, 40.0  # an upright tile's box in pixels
SIZE = 1000.0  # square test image, so turning it keeps the size


def up(name: str, x: float, y_bottom: float) -> SeenTile:
    o = None if name == "back" else 0
    return SeenTile(name, (x, y_bottom - H, x + W, y_bottom), 0.9, horizontal=False, orientation=o)


def side(name: str, x: float, y_bottom: float) -> SeenTile:
    """Lying sideways with its near edge on the row's near edge (its face top pointing left)."""
    return SeenTile(name, (x, y_bottom - W, x + H, y_bottom), 0.9, horizontal=True, orientation=270)


def row(spec: str, x: float, y_bottom: float, gap: float = 1.0) -> tuple[list[SeenTile], float]:
    """`spec` like "1m 2m s:7z b:back": s: sideways, otherwise upright. Returns tiles and the end x."""
    tiles = []
    for item in spec.split():
        if item.startswith("s:"):
            tiles.append(side(item[2:], x, y_bottom))
            x += H + gap
        else:
            tiles.append(up(item, x, y_bottom))
            x += W + gap
    return tiles, x


def turn(tiles: list[SeenTile], quarters: int) -> list[SeenTile]:
    """The same table photographed after turning the camera: every box turned `quarters` x 90 degrees clockwise."""
    out = []
    for t in tiles:
        x1, y1, x2, y2 = t.box
        horizontal, o = t.horizontal, t.orientation
        for _ in range(quarters % 4):
            x1, y1, x2, y2 = SIZE - y2, x1, SIZE - y1, x2
            horizontal = not horizontal
            o = None if o is None else (o + 90) % 360
        out.append(SeenTile(t.tile, (x1, y1, x2, y2), t.confidence, horizontal=horizontal, orientation=o))
    return out


def scoring_photo() -> list[SeenTile]:
    hand, x = row("1m 2m 3m 4p 5p 6p 7s 8s 9s 2z", 100, 800)
    win, x = row("2z", x + 25, 800)
    pon, x = row("s:7z 7z 7z", x + 45, 800)
    dora, _ = row("3m", 300, 700)
    return hand + win + pon + dora


@pytest.mark.parametrize("quarters", [0, 1, 2, 3])
def test_hand_win_meld_and_dora_from_every_side(quarters: int) -> None:
    view = build_view(turn(scoring_photo(), quarters), int(SIZE), int(SIZE))
    assert view.hand.concealed == ("1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z")
    assert view.hand.win == "2z"
    assert [m.to_json() for m in view.hand.melds] == [{"kind": "pon", "tiles": ["7z", "7z", "7z"], "source": "left"}]
    assert view.dora_indicators == ("3m",)
    assert sum(t.sideways for t in view.tiles) == 1
    assert not view.warnings


def test_kans_and_chi_sources() -> None:
    hand, x = row("1m 1m 1m 9p", 100, 800)
    win, x = row("9p", x + 25, 800)
    closed, x = row("back 5s 5s back", x + 45, 800)
    added, x2 = row("6p s:6p 6p", x + 10, 800)
    partner = side("6p", x + 10 + W + 1, 800 - W - 1)  # the added tile lies beyond the called one
    chi, _ = row("s:3p 4p 0p", x2 + 10, 800)
    big, _ = row("s:8m 8m 8m 8m", 100, 900)  # an open kan on a second row is not part of this hand
    view = build_view(hand + win + closed + added + [partner] + chi, int(SIZE), int(SIZE))
    assert view.hand.concealed == ("1m", "1m", "1m", "9p")
    assert view.hand.win == "9p"
    assert [m.to_json() for m in view.hand.melds] == [
        {"kind": "closed-kan", "tiles": ["5s", "5s", "5s", "5s"], "source": None},
        {"kind": "added-kan", "tiles": ["6p", "6p", "6p", "6p"], "source": "across"},
        {"kind": "chi", "tiles": ["3p", "4p", "0p"], "source": "left"},
    ]
    assert big  # built only to show the helper makes four-tile rows


def test_open_kan_called_from_the_right() -> None:
    hand, x = row("2m 3m 4m 6s 6s 6s 8p", 100, 800)
    win, x = row("8p", x + 25, 800)
    kan, _ = row("1z 1z 1z s:1z", x + 45, 800)
    view = build_view(hand + win + kan, int(SIZE), int(SIZE))
    assert [m.to_json() for m in view.hand.melds] == [{"kind": "kan", "tiles": ["1z"] * 4, "source": "right"}]


def test_tsumo_without_a_gap_takes_the_last_tile_and_says_so() -> None:
    hand, _ = row("1m 2m 3m 4p 5p 6p 7s 8s 9s 2z 2z 5z 5z 5z", 100, 800)
    view = build_view(hand, int(SIZE), int(SIZE))
    assert view.hand.concealed[-1] == "5z" and len(view.hand.concealed) == 13
    assert view.hand.win == "5z"
    assert any("not set apart" in w for w in view.warnings)


def test_winning_tile_laid_sideways_beside_the_hand() -> None:
    hand, x = row("1m 2m 3m 4p 5p 6p 7s 8s 9s 2z 2z 5z 5z", 100, 800)
    win, _ = row("s:5z", x + 2, 800)
    view = build_view(hand + win, int(SIZE), int(SIZE))
    assert view.hand.win == "5z" and view.hand.win_sideways
    assert view.hand.melds == ()


def table_with_ponds() -> list[SeenTile]:
    """The winner's hand at the bottom and four ponds around the centre, each turned to its owner."""
    hand, x = row("1m 2m 3m 4p 5p 6p 7s 8s 9s 2z 2z 5z 5z", 260, 990)
    win, _ = row("5z", x + 25, 990)
    tiles = hand + win
    ponds = {0: "1m 2m 3m 4m 5m 6m 7m s:8m", 1: "1p 2p 3p s:4p 5p 6p 7p", 2: "1s 2s", 3: "9m 9p 9s 1z 2z 3z 4z"}
    for seat, spec in ponds.items():
        names = spec.split()
        own = []
        for r in range(0, len(names), 6):
            part, _ = row(" ".join(names[r : r + 6]), 407, 642 + (r // 6) * (H + 1))
            own += part
        # seat 0's pond lies below the centre; turning it anticlockwise by `seat` quarters puts it at the seat
        tiles += turn(own, (4 - seat) % 4)
    return tiles


@pytest.mark.parametrize("quarters", [0, 1, 2, 3])
def test_ponds_are_read_per_seat_with_the_riichi_tile(quarters: int) -> None:
    view = build_view(turn(table_with_ponds(), quarters), int(SIZE), int(SIZE))
    assert view.hand.win == "5z"
    ponds = {p.seat: p for p in view.ponds}
    assert ponds["near"].tiles == ("1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m")
    assert ponds["near"].riichi == 7
    assert ponds["right"].tiles == ("1p", "2p", "3p", "4p", "5p", "6p", "7p")
    assert ponds["right"].riichi == 3
    assert ponds["across"].tiles == ("1s", "2s") and ponds["across"].riichi is None
    assert ponds["left"].tiles == ("9m", "9p", "9s", "1z", "2z", "3z", "4z")


def test_empty_table_gives_a_warning() -> None:
    view = build_view([], 640, 480)
    assert view.tiles == () and view.warnings == ("no tiles found in the photo",)
    assert view.to_json()["image"] == {"width": 640, "height": 480}


def test_json_shape() -> None:
    view = build_view(scoring_photo(), int(SIZE), int(SIZE))
    data = view.to_json()
    assert set(data) == {"image", "tiles", "hand", "dora_indicators", "ponds", "warnings"}
    assert set(data["tiles"][0]) == {"tile", "box", "confidence", "sideways", "upside_down"}
    assert set(data["hand"]) == {"concealed", "win", "melds"}
    assert data["hand"]["win"] == "2z"

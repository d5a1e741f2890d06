"""Session 32: a tile the white-balanced second reading loses is kept from the first; two hands with melds in one
picture. Hand-made detections, and edited copies of the shared photos."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np
import pytest
from test_vision_layout import H, melds, row
from test_vision_layout_edge import PHOTOS, SIZE, _read, needs_photos, scaled

from vision.layout import TWO_HANDS, build_view
from vision.recognizer import Detection, Recognizer, read_view
from vision.view import SeenTile


def test_a_first_reading_box_that_the_balanced_reading_lost_is_kept() -> None:
    """Only boxes that no balanced box overlaps by APART come back: a tile both readings found stays the balanced
    reading's, read once."""
    from vision.recognizer import _lost  # session 32's rule

    first = [Detection((0, 0, 40, 50), 0, 0.9), Detection((100, 0, 140, 50), 0, 0.36),
             Detection((200, 0, 240, 50), 0, 0.5)]
    again = [Detection((2, 0, 42, 50), 0, 0.9), Detection((215, 0, 255, 50), 0, 0.4)]  # IoU 0.9 and 0.45
    assert _lost(first, again) == [first[1]]
    assert _lost(first, []) == first and _lost([], again) == []


@needs_photos
@pytest.mark.parametrize("x0, y0", [(20, 230), (80, 220)])
def test_a_strip_cut_round_lx01_s_hand_keeps_its_winning_red_five(x0: int, y0: int, tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """Fixed (session 31's strips of lx01 near 4:1): the photo's cast is taken off and it is read again; that
    reading scored the tilted red five beside the hand under the detector's threshold, and its detections replaced
    the first's, so the hand had no winning tile. A tile found only in the first reading is now kept."""
    img = cv2.imread(str(PHOTOS / "lx01.jpg"))[y0:y0 + 295, x0:x0 + 1180]
    cv2.imwrite(str(tmp_path / "strip.png"), img)
    out = _read(tmp_path / "strip.png", capsys)
    assert out["hand"]["win"] == "0p"
    assert out["hand"]["concealed"][:7] == ["4s", "5s", "6s", "5p", "5p", "4z", "4z"]


@needs_photos
def test_a_box_only_the_first_reading_found_is_kept_only_as_a_face(tmp_path: Path,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """lx04's first reading boxes a wrist in its top left corner and a mark on the cloth as backs, which the
    balanced reading does not: kept, they were two tiles more that no one laid (a back found once is as likely a
    shadow); as faces, lost boxes stay (the strips above)."""
    out = _read(PHOTOS / "lx04.jpg", capsys)
    assert not [t for t in out["tiles"] if t["box"][0] < 120 and t["box"][1] < 140]
    assert not [t for t in out["tiles"] if t["tile"] == "back" and 1200 < t["box"][0] < 1300 and
                400 < t["box"][1] < 500]


def meld_hand(y: float, concealed: str = "2m 3m 4m 4p 5p 6p 9s", win: str = "9s",
              calls: tuple[str, ...] = ("s:7z 7z 7z", "s:1m 2m 3m")) -> list[SeenTile]:
    """A winning hand with two called melds: a row of seven, its winning tile set apart, the melds after it."""
    hand, x = row(concealed, 20, y)
    won, x = row(win, x + 25, y)
    return hand + won + melds(calls, x + 25, y)


def other_meld_hand(y: float) -> list[SeenTile]:
    return meld_hand(y, "1p 2p 3p 5s 6s 7s 8m", "8m", ("s:6z 6z 6z", "s:4s 5s 6s"))


@pytest.mark.parametrize("where", ["one above the other", "side by side"])
def test_two_hands_with_melds_facing_alike_read_the_nearer_one_and_say_so(where: str) -> None:
    """Fixed (session 31's "not caught"): two hands of two melds each show rows of seven, which the two-hands rule
    (rows of ten) missed; the farther hand was read as the near pond. A line that reads as a whole hand with called
    melds, as large as the hand and far from it, is a second hand now."""
    if where == "one above the other":
        tiles = meld_hand(800) + other_meld_hand(400)
    else:  # pasted side by side, the right-hand picture framed a little higher and smaller
        tiles = scaled(meld_hand(800), 0.5, 0, 0) + scaled(other_meld_hand(800), 0.45, 520, -60)
    view = build_view(tiles, SIZE, SIZE)
    assert view.hand.concealed == ("2m", "3m", "4m", "4p", "5p", "6p", "9s") and view.hand.win == "9s"
    assert [m.tiles for m in view.hand.melds] == [("7z",) * 3, ("1m", "2m", "3m")]
    assert view.ponds == ()
    assert [w for w in view.warnings if w.startswith(TWO_HANDS)] == [
        f"{TWO_HANDS}, facing the same way: read the one nearest the camera; the other's 14 tiles are left out "
        "(photograph one hand at a time)"]


def test_a_hand_with_melds_beside_its_pond_and_wall_is_one_hand() -> None:
    """A normal table: the hand of two melds, its own pond (rows of six, a riichi discard lying) and the dead wall
    facing the same way make no second hand."""
    hand = meld_hand(800)
    pond = [*row("1z 2z 9p s:3z 8s 1m", 300, 650)[0], *row("4z 7p 2s", 300, 650 + H + 1)[0]]
    wall, _ = row("back back 5m back back back back", 600, 350)
    view = build_view(hand + pond + wall, SIZE, SIZE)
    assert view.hand.win == "9s" and len(view.hand.melds) == 2
    assert not any(w.startswith(TWO_HANDS) for w in view.warnings)
    assert [p.seat for p in view.ponds] == ["near"] and len(view.ponds[0].tiles) == 9


def test_melds_laid_in_a_second_row_are_the_hand_s_own() -> None:
    """A hand whose four melds are laid in a row of their own above it: that row reads as no whole hand, so the
    picture shows one hand."""
    hand, x = row("5p 5p", 20, 800)
    won, _ = row("5p", x + 25, 800)
    calls = melds(("s:7z 7z 7z", "s:1m 2m 3m", "s:6z 6z 6z", "s:4s 5s 6s"), 20, 600)
    view = build_view(hand + won + calls, SIZE, SIZE)
    assert not any(w.startswith(TWO_HANDS) for w in view.warnings)


def _lx01_with_two_melds(cut: tuple[int, int]) -> np.ndarray:
    """lx01 with three of its hand tiles cut out (the columns `cut`) and its added kan laid again after it: a
    winning hand of two melds, its row seven tiles long."""
    img = cv2.imread(str(PHOTOS / "lx01.jpg"))
    return np.hstack([img[:, :cut[0]], img[:, cut[1]:1240], img[:, 937:1240]])


@needs_photos
def test_two_copies_of_lx01_with_two_melds_one_above_the_other_read_the_nearer() -> None:
    """Two hands of two melds pasted one above the other, the upper one smaller (farther): the lower is read, with
    the two-hands warning, and the upper's row is no pond. (Read as the device reads a photo: `jantaku read` would
    stop at the pasted kans' sixteen 9m.)"""
    near = _lx01_with_two_melds((550, 790))  # 4z 4z 5z cut: 4s 5s 6s 5p 5p 5z 5z
    far = cv2.resize(_lx01_with_two_melds((710, 945))[:540], None, fx=0.85, fy=0.85,  # 5z 5z 5z cut
                     interpolation=cv2.INTER_AREA)
    far = cv2.copyMakeBorder(far, 0, 0, 0, near.shape[1] - far.shape[1], cv2.BORDER_REPLICATE)
    view = read_view(Recognizer(), np.vstack([far, near]))
    assert view.hand.concealed == ("4s", "5s", "6s", "5p", "5p", "5z", "5z") and view.hand.win == "0p"
    assert [m.kind for m in view.hand.melds] == ["added-kan", "added-kan"]
    assert any(w.startswith(TWO_HANDS) for w in view.warnings)
    assert not any(t in p.tiles for p in view.ponds for t in ("4z", "9m"))


def test_the_other_hand_s_winning_tile_laid_beyond_its_row_is_no_discard() -> None:
    """The farther hand's winning tile laid on the far side of its row (as lx01's red five) belongs to that hand:
    it is left out with it, not read as a pond of one, and counted in the warning."""
    hand, x = row("1p 2p 3p 5s 6s 7s 8m", 20, 400)
    far = hand + row("8m", 100, 400 - H - 4)[0] + melds(("s:6z 6z 6z", "s:4s 5s 6s"), x + 25, 400)
    view = build_view(meld_hand(800) + far, SIZE, SIZE)
    assert view.hand.win == "9s" and view.ponds == ()
    assert f"{TWO_HANDS}, facing the same way: read the one nearest the camera; the other's 14 tiles are left out " \
        "(photograph one hand at a time)" in view.warnings

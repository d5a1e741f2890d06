"""Session 32: a tile the white-balanced second reading loses is kept from the first. Hand-made detections, and
edited copies of the shared photos."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from device.cli import main
from vision.art import SHARED
from vision.recognizer import Detection

PHOTOS = SHARED / "photos"
needs_photos = pytest.mark.skipif(not (PHOTOS / "lx01.jpg").exists(),
                                  reason=f"shared photos not found at {PHOTOS} (shared/ beside the clone)")


def _read(path: Path, capsys: pytest.CaptureFixture[str]) -> dict:
    assert main(["read", str(path), "--json"]) == 0
    return json.loads(capsys.readouterr().out)


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


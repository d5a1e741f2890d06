"""`jantaku score-photo --add/--fix`: the player gives the tiles the photo hid or misread, and the hand is scored
with its melds, winning tile and dora as read, saying what was changed (`vision.corrections`)."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import pytest

from device.cli import main
from device.config import SAMPLE_PHOTOS
from vision.layout import HIDDEN
from vision.view import SeenHand, SeenMeld, SeenTile, TableView

GAP = (f"a gap a tile wide in the hand row between 5p and 7s: {HIDDEN} there (a finger, a shadow?) or not found; the "
       "hand is read without it (retake the photo with the whole row in view)")
CORRECTED = "tiles as corrected by the player: "


def _view(names: list[str], melds: tuple[SeenMeld, ...] = (), dora: tuple[str, ...] = ("1m",),
          alternatives: dict[int, tuple[tuple[str, float], ...]] | None = None,
          warnings: tuple[str, ...] = ()) -> TableView:
    """A hand row of `names` (the last the winning tile), then the melds' tiles and the dora indicators, each tile
    boxed where the layout found it."""
    alternatives = alternatives or {}
    meld_names = [t for m in melds for t in m.tiles]
    tiles = tuple(SeenTile(n, (k * 30.0, 0.0, k * 30.0 + 28, 40.0), 0.9, alternatives=alternatives.get(k, ()))
                  for k, n in enumerate([*names, *meld_names, *dora]))
    at, placed = len(names), []
    for m in melds:
        placed.append(SeenMeld(m.kind, m.tiles, m.source, tuple(range(at, at + len(m.tiles)))))
        at += len(m.tiles)
    hand = SeenHand(tuple(names[:-1]), names[-1], tuple(placed), concealed_indices=tuple(range(len(names) - 1)),
                    win_index=len(names) - 1)
    return TableView(640, 480, tiles, hand, dora, warnings=warnings, dora_indices=tuple(range(at, at + len(dora))))


def _score_photo(view: TableView, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                 *flags: str, as_json: bool = True):
    """`jantaku score-photo` on a photo the layout read as `view`: (exit code, stdout (parsed with --json), stderr)."""
    import vision.cli

    monkeypatch.setattr(vision.cli, "read_photo", lambda path, models=None: (view, None))
    code = main(["score-photo", "table.jpg", *(["--json"] if as_json else []), *flags])
    out = capsys.readouterr()
    return code, (json.loads(out.out) if as_json and out.out else out.out), out.err


# 44m 5p [7p hidden] 777s 666z 777z, won on 6p: a finger across the 7p (sample photo 03, doctored)
HIDDEN_ROW = ["4m", "4m", "5p", "7s", "7s", "7s", "6z", "6z", "6z", "7z", "7z", "7z", "6p"]


def test_a_tile_the_photo_hid_is_added_and_the_hand_scored_with_what_was_read(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    view = _view(HIDDEN_ROW, warnings=(GAP,))
    code, out, err = _score_photo(view, monkeypatch, capsys, "--tsumo")
    assert code == 2 and "but has 12 (44m5p777s666777z) plus 6p" in err
    assert "tiles hidden in the photo (a finger across the row) are given with --add, e.g. --add 4m" in err
    assert out["corrections"] == []

    code, out, _ = _score_photo(view, monkeypatch, capsys, "--tsumo", "--add", "7p")
    assert code == 0 and (out["han"], out["fu"], out["total"]) == (5, 50, 12000)  # the dealer's tsumo mangan
    assert out["corrections"] == [{"tile": "7p", "place": "hand", "read": None}]
    assert out["read"]["hand"]["concealed"][-1] == "7p" and out["read"]["hand"]["win"] == "6p"
    assert out["read"]["warnings"][-1] == CORRECTED + "added 7p to the hand (not seen in the photo)"
    assert {"name": "Dora", "han": 1} not in out["yaku"]  # the indicator read (1m) still counts: no 2m in the hand

    code, text, _ = _score_photo(view, monkeypatch, capsys, "--tsumo", "--add", "7p", as_json=False)
    assert code == 0 and f"Note   {CORRECTED}added 7p to the hand (not seen in the photo)" in text.splitlines()
    assert "Total  12000" in text


def test_a_misread_tile_is_fixed_in_the_hand_the_winning_tile_or_a_meld(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A haku read as 9s in the hand; a pon whose third 7z was read 1z (no meld as read); a winning tile misread."""
    haku_as_9s = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "5z", "5z", "9s", "2z", "2z"]
    code, out, _ = _score_photo(_view(haku_as_9s), monkeypatch, capsys)
    assert code == 1 and out["valid"] is False  # scored as read: no win
    code, out, _ = _score_photo(_view(haku_as_9s), monkeypatch, capsys, "--fix", "9s=5z")
    assert code == 0 and {"name": "Yakuhai (haku)", "han": 1} in out["yaku"]
    assert out["corrections"] == [{"tile": "5z", "place": "hand", "read": "9s"}]
    assert sorted(out["read"]["hand"]["concealed"]).count("5z") == 3
    assert out["read"]["warnings"][-1] == CORRECTED + "9s read in the hand taken as 5z"

    pon = SeenMeld("unknown", ("7z", "7z", "1z"), "left")
    code, out, err = _score_photo(_view(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z"], (pon,)),
                                  monkeypatch, capsys, "--fix", "1z=7z")
    assert code == 0 and {"name": "Yakuhai (chun)", "han": 1} in out["yaku"]
    assert out["read"]["hand"]["melds"] == [{"kind": "pon", "tiles": ["7z", "7z", "7z"], "source": "left"}]
    assert out["corrections"] == [{"tile": "7z", "place": "meld1", "read": "1z"}]
    assert out["read"]["tiles"][13]["tile"] == "7z"  # the box is named as fixed

    code, out, _ = _score_photo(_view([*haku_as_9s[:9], "5z", "5z", "5z", "2z", "3z"]), monkeypatch, capsys,
                                "--fix", "3z=2z")
    assert code == 0 and out["read"]["hand"]["win"] == "2z"
    assert out["corrections"] == [{"tile": "2z", "place": "win", "read": "3z"}]
    assert out["read"]["warnings"][-1] == CORRECTED + "3z read as the winning tile taken as 2z"


def test_a_fix_says_when_the_tile_was_not_read_or_read_in_more_than_one_place(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A shanpon won on 9s with 99s in the hand: which 9s is the haku is the player's to say."""
    names = ["1m", "2m", "3m", "4p", "5p", "6p", "9s", "9s", "5z", "5z", "2z", "2z", "2z", "9s"]
    code, out, err = _score_photo(_view(names), monkeypatch, capsys, "--fix", "9s=5z")
    assert code == 2 and out["valid"] is False and out["corrections"] == []
    assert "--fix 9s=5z: 9s was read in more than one place (hand, win): say which, as --fix hand:9s=5z or " \
           "--fix win:9s=5z" in err
    code, out, _ = _score_photo(_view(names), monkeypatch, capsys, "--fix", "win:9s=5z")
    assert code == 0 and out["read"]["hand"]["win"] == "5z"
    assert out["corrections"] == [{"tile": "5z", "place": "win", "read": "9s"}]

    code, out, err = _score_photo(_view(names), monkeypatch, capsys, "--fix", "7s=5z")
    assert code == 2 and "--fix 7s=5z: no 7s was read among the hand's tiles (hand 1m 2m 3m 4p 5p 6p 9s 9s 5z 5z " \
                         "2z 2z 2z; win 9s)" in err
    code, out, _ = _score_photo(_view(names), monkeypatch, capsys, "--fix", "1m=4m")  # the dora indicator is 1m too
    assert code == 1 and out["corrections"] == [{"tile": "4m", "place": "hand", "read": "1m"}]  # no win, 4m 2m 3m
    assert out["read"]["dora_indicators"] == ["1m"]
    code, _, err = _score_photo(_view(names, dora=("3s",)), monkeypatch, capsys, "--fix", "3s=5s")
    assert code == 2 and "no 3s was read among the hand's tiles" in err
    assert "dora indicators are given with --dora" in err
    code, _, err = _score_photo(_view(names), monkeypatch, capsys, "--fix", "meld1:9s=5z")
    assert code == 2 and "--fix meld1:9s=5z: the hand read has 0 meld(s)" in err
    code, _, err = _score_photo(_view(names), monkeypatch, capsys, "--fix", "hand:2z=5z", "--fix", "hand:1m=6z")
    assert code == 1  # both made (2z 2z 5z, 6z 2m 3m): no winning shape, scored as corrected
    assert err == ""


@pytest.mark.parametrize(("flags", "message"), [
    (("--add", "1m"), "5 copies of 1m (counting hand, melds, winning tile and dora indicators): a set has only 4 (the "
                      "hand as corrected: added 1m to the hand (not seen in the photo))"),
    (("--add", "7p8p"), "wrong tile count: with no melds the hand needs 13 concealed tiles plus the winning tile, but "
                        "has 14"),
    (("--fix", "meld1:1z=4m"), "the tiles 7z 7z 4m beside the hand make no meld"),
])
def test_the_hand_as_corrected_is_checked_as_any_other(flags: tuple[str, ...], message: str,
                                                       monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    if flags[0] == "--fix":
        view = _view(["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z"],
                     (SeenMeld("unknown", ("7z", "7z", "1z"), "left"),))
    else:
        view = _view(["1m", "1m", "1m", *HIDDEN_ROW[3:]], dora=("1m",), warnings=(GAP,))  # 12 tiles and the win
    code, out, err = _score_photo(view, monkeypatch, capsys, *flags)
    assert code == 2 and message in err and message in out["error"]
    assert out["corrections"] and out["read"]["warnings"][-1].startswith(CORRECTED)


def test_the_players_word_stands_no_tile_is_read_again_and_those_fixed_are_not_called_unsure(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """As read, the hand wins when the 9m is taken for its runner-up 5m (a second reading); the player said the 1m
    is a 2m instead, and the hand is scored as they said. A tile fixed has no runner-up left to be unsure of; one
    left as read keeps its Unsure line, even after tiles were added (which have no box to be unsure of)."""
    names = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "4m", "9m", "6m"]
    unsure = {12: (("5m", 0.8),), 0: (("7m", 0.5),)}
    code, out, _ = _score_photo(_view(names, alternatives=unsure), monkeypatch, capsys)
    assert code == 0 and out["read"]["hand"]["concealed"][12] == "5m"  # the second reading, as before
    code, out, _ = _score_photo(_view(names, alternatives=unsure), monkeypatch, capsys, "--fix", "1m=2m")
    assert code == 1 and out["read"]["hand"]["concealed"][12] == "9m"
    assert not any(w.startswith("read as it was") for w in out["read"]["warnings"])
    code, text, err = _score_photo(_view(names, alternatives=unsure), monkeypatch, capsys, "--fix", "1m=7m",
                                   "--add", "5z", as_json=False)
    assert code == 2 and "Unsure 9m (or 5m, 80% as likely)" in err.splitlines()
    assert not any("1m (or 7m" in line for line in err.splitlines())


def test_a_face_down_hand_tile_is_named_with_fix(monkeypatch: pytest.MonkeyPatch,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    """The finger read as a back: the refusal says how to name it, and once named the layout's warning goes."""
    names = ["4m", "4m", "5p", "back", *HIDDEN_ROW[3:]]
    face_down = "1 tile read as face down inside the hand row (a blank white dragon?): name them before scoring"
    view = _view(names, warnings=(face_down,))
    code, out, err = _score_photo(view, monkeypatch, capsys, "--tsumo")
    assert code == 2 and "name them with --fix back=5z (or the tile it is)" in err
    code, out, _ = _score_photo(view, monkeypatch, capsys, "--tsumo", "--fix", "back=7p")
    assert code == 0 and out["total"] == 12000
    assert out["read"]["warnings"] == [CORRECTED + "back read in the hand taken as 7p"]
    assert out["read"]["tiles"][3]["tile"] == "7p"


def test_a_closed_kan_misread_is_fixed_face_by_face(monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    """A closed kan shows two faces between its backs; its hidden ends follow them once both are fixed."""
    kan = SeenMeld("closed-kan", ("9s", "9s", "9s", "9s"), None)
    names = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z"]
    code, _, err = _score_photo(_view(names, (kan,)), monkeypatch, capsys, "--fix", "meld1:9s=6s")
    assert code == 2 and "closed-kan 6969s: a kan must be four identical tiles (the hand as corrected: 9s read in " \
                         "meld 1 taken as 6s)" in err
    code, out, _ = _score_photo(_view(names, (kan,)), monkeypatch, capsys, "--tsumo", "--fix", "meld1:9s=6s",
                                "--fix", "meld1:9s=6s")
    assert code == 0 and out["read"]["hand"]["melds"][0]["tiles"] == ["6s", "6s", "6s", "6s"]
    assert [c["place"] for c in out["corrections"]] == ["meld1", "meld1"]


def test_score_photo_adds_the_tile_a_finger_hid_in_a_real_photo(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Sample photo 03 with the 7p covered by felt (a tile out of sight): read with the models, the layout warns
    that a tile may be hidden, the count is short; --add 7p scores it (the dealer's tsumo: sanankou, two yakuhai)."""
    img = cv2.imread(str(SAMPLE_PHOTOS / "03-synthetic-mangan.jpg"))
    img[485:620, 262:347] = img[350:485, 262:347]
    photo = tmp_path / "finger.jpg"
    cv2.imwrite(str(photo), img)
    assert main(["score-photo", str(photo), "--tsumo"]) == 2
    err = capsys.readouterr().err
    assert HIDDEN in err and "--add" in err
    assert main(["score-photo", str(photo), "--tsumo", "--add", "7p", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["total"] == 12000 and out["corrections"] == [{"tile": "7p", "place": "hand", "read": None}]

"""Second readings of a hand that does not win as read (`vision.rereading`) and their use by `score-photo`."""

from __future__ import annotations

import dataclasses
import json

import pytest

from device.cli import main
from vision.rereading import LEAST_ODDS, reread, rereadings
from vision.view import SeenHand, SeenMeld, SeenTile, TableView

WINNING = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "2z", "4m", "5m", "6m"]


def _view(names: list[str], alternatives: dict[int, tuple[tuple[str, float], ...]],
          melds: tuple[SeenMeld, ...] = ()) -> TableView:
    """A hand row of `names` (the last the winning tile) then the melds' tiles, read with those alternatives."""
    meld_names = [t for m in melds for t in m.tiles]
    tiles = tuple(SeenTile(n, (k * 30.0, 0.0, k * 30.0 + 28, 40.0), 0.9, alternatives=alternatives.get(k, ()))
                  for k, n in enumerate(names + meld_names))
    at = len(names)
    placed = []
    for m in melds:
        placed.append(SeenMeld(m.kind, m.tiles, m.source, tuple(range(at, at + len(m.tiles)))))
        at += len(m.tiles)
    hand = SeenHand(tuple(names[:-1]), names[-1], tuple(placed), concealed_indices=tuple(range(len(names) - 1)),
                    win_index=len(names) - 1)
    return TableView(640, 480, tiles, hand)


def test_the_likeliest_runner_up_that_makes_a_win_comes_first() -> None:
    """The 5m read as 9m: both 5m and its red five make the hand win; the likelier is offered first."""
    names = WINNING[:12] + ["9m", "6m"]
    view = _view(names, {12: (("5m", 0.8), ("0m", 0.15), ("7m", 0.5))})
    found = list(rereadings(view))
    assert [h.concealed[12] for h, _ in found] == ["5m", "0m"]  # 7m makes no win
    hand, changes = found[0]
    again = reread(view, hand, changes)
    assert again.hand.concealed == tuple(WINNING[:13]) and again.hand.win == "6m"
    assert again.tiles[12].tile == "5m" and again.tiles[13].tile == "6m"
    assert again.tiles[12].alternatives == (("9m", 1 / 0.8), ("7m", 0.5 / 0.8), ("0m", 0.15 / 0.8))
    assert again.warnings == ("read as it was, the hand does not win; took 9m as 5m (its next likeliest reading, "
                              "80% as likely), which makes it win: check that tile",)


def test_two_tiles_are_read_again_together_and_unlikely_faces_not_at_all() -> None:
    names = WINNING[:11] + ["1m", "9m", "6m"]
    both = _view(names, {11: (("4m", 0.6),), 12: (("5m", 0.5),)})
    assert [c for _, c in rereadings(both)] == [(((-1, 11), "4m", 0.6), ((-1, 12), "5m", 0.5))]
    assert not list(rereadings(_view(names, {11: (("4m", 0.6),), 12: (("5m", LEAST_ODDS / 2),)})))
    assert not list(rereadings(_view(names, {11: (("4m", 0.3),), 12: (("5m", 0.3),)})))  # 0.09 together


def test_a_winning_tile_and_a_meld_are_read_again_too() -> None:
    """A meld whose tiles made none becomes a pon; a misread winning tile is read as its runner-up."""
    meld = SeenMeld("unknown", ("7z", "7z", "1z"), "right")
    names = WINNING[:10] + ["3z"]
    view = _view(names, {10: (("2z", 0.4),), 13: (("7z", 0.7),)}, (meld,))
    hand, changes = next(rereadings(view))
    assert hand.melds[0].kind == "pon" and hand.melds[0].tiles == ("7z",) * 3 and hand.melds[0].source == "right"
    assert hand.win == "2z" and len(changes) == 2


def test_a_meld_not_read_again_keeps_its_tiles_and_a_closed_kan_read_again_is_one_again() -> None:
    """A closed kan whose hidden red five the rules named keeps it when another tile is read again; one whose
    middle tiles differed becomes a kan when one of them is read as its runner-up."""
    kan = SeenMeld("closed-kan", ("5p", "5p", "5p", "0p"), None)
    names = ["1m", "2m", "3m", "4s", "5s", "6s", "2z", "2z", "4m", "9m", "6m"]  # the 9m misread
    hand, _ = next(rereadings(_view(names, {9: (("5m", 0.5),)}, (kan,))))
    assert hand.concealed[9] == "5m" and hand.melds[0].tiles == ("5p", "5p", "5p", "0p")
    odd = SeenMeld("closed-kan", ("back", "5p", "3p", "back"), None)
    names[9] = "5m"
    hand, _ = next(rereadings(_view(names, {13: (("5p", 0.3),)}, (odd,))))
    assert hand.melds[0].tiles == ("5p", "5p", "5p", "5p")


def test_a_hand_whose_tiles_are_not_placed_is_left_alone() -> None:
    view = _view(WINNING[:12] + ["9m", "6m"], {12: (("5m", 0.8),)})
    assert not list(rereadings(TableView(640, 480, view.tiles, SeenHand(view.hand.concealed, "6m"))))


def test_score_photo_scores_the_second_reading_and_says_so(monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    import vision.cli

    view = _view(WINNING[:12] + ["9m", "6m"], {12: (("5m", 0.8),)})
    monkeypatch.setattr(vision.cli, "read_photo", lambda path, models=None: (view, None))
    assert main(["score-photo", "table.jpg", "--json", "--tsumo"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"name": "Menzen Tsumo", "han": 1} in out["yaku"]
    assert out["read"]["hand"]["concealed"][12] == "5m" and out["read"]["tiles"][12]["tile"] == "5m"
    assert any(w.startswith("read as it was, the hand does not win; took 9m as 5m") for w in out["read"]["warnings"])
    view = _view(WINNING[:12] + ["9m", "6m"], {12: (("7m", 0.8),)})  # no runner-up makes it win: scored as read
    assert main(["score-photo", "table.jpg", "--json", "--tsumo"]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False and out["read"]["hand"]["concealed"][12] == "9m"
    assert out["read"]["tiles"][12]["alternatives"] == [{"tile": "7m", "odds": 0.8}]


def test_the_hand_tiles_with_a_runner_up_are_shown_to_check() -> None:
    from vision.cli import describe

    view = _view(WINNING[:12] + ["9m", "6m"], {12: (("7m", 0.8), ("3m", 0.05)), 2: (("8m", 0.3),)})
    assert "Unsure 3m (or 8m, 30% as likely)  9m (or 7m, 80% as likely)" in describe(view).splitlines()
    assert not any(line.startswith("Unsure") for line in describe(_view(WINNING, {})).splitlines())


def test_a_meld_that_does_not_say_where_its_tiles_lie_keeps_the_rest_of_the_hand_rereadable() -> None:
    """A closed kan with a back not found shows three tiles of its four: its tiles are left as read, the rest of
    the hand may still be read again."""
    from vision.rereading import hand_slots

    kan = SeenMeld("closed-kan", ("5p",) * 4, None, (11, 12, 13))
    hand = SeenHand(tuple(WINNING[:10]), "5m", (kan,), concealed_indices=tuple(range(10)), win_index=10)
    assert [i for _, i in hand_slots(hand)] == list(range(11))


def test_an_unsure_dora_indicator_is_shown_to_check() -> None:
    """Nothing checks an indicator by the hand's shape, so its runner-up is the player's only warning."""
    from vision.cli import describe

    view = _view(WINNING, {})
    dora = SeenTile("6s", (500.0, 0.0, 528.0, 40.0), 0.9, alternatives=(("9s", 0.4), ("3s", 0.02)))
    view = dataclasses.replace(view, tiles=(*view.tiles, dora), dora_indicators=("6s",),
                               dora_indices=(len(view.tiles),))
    assert "Unsure dora indicator 6s (or 9s, 40% as likely)" in describe(view).splitlines()

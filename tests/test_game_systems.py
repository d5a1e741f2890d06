"""Zung Jung and MCR games through the same events, store and `jantaku game` commands as riichi.

Numbers are worked out by hand from shared/rules/sdmc-zungjung-riichi-mcr.txt:
- basic rules: "In Zung Jung and MCR however, the Seat Winds will ALWAYS rotate no matter who won the round";
  "If East is never retained ... a full game of Mahjong is 16 rounds".
- Zung Jung: "the winner receives three times the value of their hand"; self-draw: each pays the value; on a
  discard, 25 or less: "all three players split the payment equally"; over 25: "each player first pays 25
  points, and then the discarder pays the remaining amount" (the 70-point example: 25, 25 and 160);
  same-round immunity moves the responsibility to the first discarder, or to nobody if that was the winner;
  competing claims: "the player who is soonest in the turn order ... wins the hand"; Zung Jung has no table
  wind (value honors are dragons and the seat wind only).
- MCR: "all players pay the winner 8 points automatically as a baseline payment"; the discarder (or, on a
  self-draw, everyone) also pays the hand's value; 8 fan without flowers to win; one winner.
"""

from __future__ import annotations

import csv
import io
import json

import pytest
from helpers_game import ok, refused, state_of

from table.errors import InputError
from table.events import (
    AbortiveDraw,
    Chombo,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    Pao,
    RiichiDeclared,
    Ron,
    Tsumo,
    Win,
    event_from_json,
)
from table.game import apply, check_new, fold, start

# ---------------------------------------------------------------- Zung Jung


def test_a_zung_jung_game_of_16_hands_from_the_shell(jantaku, tmp_path):
    g = ["game"]
    first = json.loads(ok(jantaku, *g, "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "zungjung", "--json"))
    assert first["points"] == [0, 0, 0, 0] and first["system"] == "zungjung"
    assert first["round"] == "Hand 1" and first["round_wind"] is None  # no table wind in Zung Jung
    # Hand 1, Ann East. The text's example: a 70-point hand on Cid's discard. 3 x 70 = 210 to Bob;
    # Ann and Dee pay 25 each, Cid the rest: 210 - 50 = 160.
    ok(jantaku, *g, "ron", "--from", "Cid", "--winner", "Bob", "--points", "70")
    s = state_of(jantaku)
    assert s["points"] == [-25, 210, -160, -25]
    assert s["dealer"] == 1 and s["round"] == "Hand 2"  # the deal passed although the dealer did not win
    # Hand 2, Bob East, so Dee sits West: a concealed West triplet is a Value Honor (seat wind) for Dee.
    # Tiles scored on the spot: 1.2 Concealed Hand 5 + 3.1 Value Honor 10 = 15; self-drawn: 15 from each.
    out = json.loads(ok(jantaku, *g, "tsumo", "Dee", "--hand", "333z123m456p789s5s", "--win", "5s", "--json"))
    win = out["last_hand"]["wins"][0]
    assert win["value"] == 15 and win["patterns"] == [{"name": "1.2 Concealed Hand", "points": 5},
                                                      {"name": "3.1 Value Honor", "points": 10}]
    assert out["points"] == [-25 - 15, 210 - 15, -160 - 15, -25 + 45] == [-40, 195, -175, 20]
    # Hand 3, Cid East. Ann wins 30 points on Dee's discard, but Bob had discarded the same tile first since
    # Ann's last discard: Bob is responsible. 90 to Ann: Cid and Dee 25 each, Bob 90 - 50 = 40.
    # First a mistake (Cid named as winner, Dee paying 90 - 50), taken back with undo; redo puts it back,
    # undo again.
    ok(jantaku, *g, "ron", "--from", "Dee", "--winner", "Cid", "--points", "30")
    assert state_of(jantaku)["points"] == [-40 - 25, 195 - 25, -175 + 90, 20 - 40] == [-65, 170, -85, -20]
    ok(jantaku, *g, "undo")
    assert state_of(jantaku)["points"] == [-40, 195, -175, 20]
    ok(jantaku, *g, "redo")
    assert state_of(jantaku)["points"] == [-65, 170, -85, -20]
    ok(jantaku, *g, "undo")
    out = ok(jantaku, *g, "ron", "--from", "Dee", "--winner", "Ann", "--points", "30", "--first-from", "Bob")
    assert "same-round immunity: Bob responsible" in out
    assert state_of(jantaku)["points"] == [-40 + 90, 195 - 40, -175 - 25, 20 - 25] == [50, 155, -200, -5]
    # Hand 4, Dee East: a draw pays nothing and the deal still passes.
    ok(jantaku, *g, "draw")
    s = state_of(jantaku)
    assert s["points"] == [50, 155, -200, -5] and s["dealer"] == 0 and s["round"] == "Hand 5"
    # Hand 5, Ann East again. Ann discards, Dee and Bob both claim: Bob is first in turn after Ann and
    # intercepts. 20 points is 25 or less: everybody pays 20, the discarder too.
    ok(jantaku, *g, "ron", "--from", "Ann", "--winner", "Dee", "--points", "40", "--winner", "Bob", "--points", "20")
    s = state_of(jantaku)
    assert s["last_hand"]["winners"] == [1] and s["last_hand"]["bumped"] == [3]
    assert s["points"] == [30, 215, -220, -25]
    # Hands 6 to 15 are draws; Hand 16 (Dee East, Cid North): Cid self-draws 40: 40 from each, 120 to Cid.
    for _ in range(10):
        ok(jantaku, *g, "draw")
    assert state_of(jantaku)["round"] == "Hand 16"
    out = ok(jantaku, *g, "tsumo", "Cid", "--points", "40")
    assert "game over: Hand 16 finished" in out
    s = state_of(jantaku)
    assert s["over"] and s["hands_played"] == 16
    assert s["points"] == [30 - 40, 215 - 40, -220 + 120, -25 - 40] == [-10, 175, -100, -65]
    # Standings: the points are the result (no uma, oka or return points).
    assert [(x["name"], x["rank"], x["net_points"]) for x in s["standings"]] == [
        ("Bob", 1, 175), ("Ann", 2, -10), ("Dee", 3, -65), ("Cid", 4, -100)]
    shown = ok(jantaku, *g, "show")
    assert "game over after Hand 16, 16 of 16 hands played" in shown and "1. Bob" in shown and "+175" in shown
    assert "honba" not in shown and "uma" not in shown
    assert "the game is over (Hand 16 finished)" in refused(jantaku, *g, "draw")

    # The CSV has one row per hand; the JSON lines replay to the same state.
    rows = list(csv.reader(io.StringIO(ok(jantaku, *g, "export", "--csv"))))
    assert rows[0] == ["hand", "round", "result", "Ann change", "Bob change", "Cid change", "Dee change",
                       "Ann", "Bob", "Cid", "Dee"]  # no honba, no riichi sticks
    assert rows[1][:3] == ["1", "Hand 1", "ron, Bob from Cid, 70 points"]
    assert rows[16][1] == "Hand 16" and rows[16][-4:] == ["-10", "175", "-100", "-65"]
    assert rows[18:] == [["rank", "name", "raw", "net"], ["1", "Bob", "175", "175"], ["2", "Ann", "-10", "-10"],
                         ["3", "Dee", "-65", "-65"], ["4", "Cid", "-100", "-100"]]  # no uma, oka or return; whole
    log = tmp_path / "zj.jsonl"
    log.write_text(ok(jantaku, *g, "export"))
    events = [json.loads(line) for line in log.read_text().splitlines()]
    assert events[3] == {"type": "ron", "discarder": 3, "wins": [{"seat": 0, "value": 30}], "first_discarder": 1}
    replayed = json.loads(ok(jantaku, *g, "replay", str(log), "--json"))
    assert replayed == {k: v for k, v in s.items() if k != "game_id"}


def test_the_immunity_note_shows_only_when_it_changes_who_pays(jantaku):
    """At 25 points or less everyone pays the value on a discard, so naming a responsible seat misled."""
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "zungjung")
    out = ok(jantaku, "game", "ron", "--from", "Cid", "--winner", "Ann", "--points", "20", "--first-from", "Bob")
    assert "immunity" not in out and state_of(jantaku)["points"] == [60, -20, -20, -20]
    out = ok(jantaku, "game", "ron", "--from", "Cid", "--winner", "Ann", "--points", "30", "--first-from", "Bob")
    assert "same-round immunity: Bob responsible" in out


def test_replay_checks_a_value_as_the_command_line_does(jantaku, tmp_path):
    """A Zung Jung "value": 3 (no hand adds up to it) was replayed, while `game ron --points 3` and an MCR
    "value": 7 were refused."""
    for preset, value, why in (("zungjung", 3, "no Zung Jung hand adds up to 3"), ("mcr", 7, "below the 8-fan")):
        log = tmp_path / f"{preset}.jsonl"
        log.write_text(json.dumps({"type": "game_started", "players": ["A", "B", "C", "D"], "preset": preset})
                       + "\n" + json.dumps({"type": "ron", "discarder": 2, "wins": [{"seat": 0, "value": value}]})
                       + "\n")
        assert why in refused(jantaku, "game", "replay", str(log))
    ok(jantaku, "game", "new", "--players", "A,B,C,D", "--rules", "zungjung")
    assert "no Zung Jung hand adds up to 3" in refused(jantaku, "game", "ron", "--from", "C", "--winner", "A",
                                                       "--points", "3")


def test_a_one_point_hand_is_one_point_and_the_net_a_whole_number(jantaku):
    """"Value 1 points" / "1 points"; a Zung Jung standing's net was 147.0 in the JSON and the CSV."""
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "zungjung")
    out = ok(jantaku, "game", "tsumo", "Bob", "--hand", "67m22z", "--win", "8m", "--meld", "chi:234m", "--meld",
             "chi:567p", "--meld", "pon:888s")
    assert "tsumo, Bob, 1 point " in out and "1 points" not in out
    state = json.loads(ok(jantaku, "game", "end", "--json"))
    assert [s["net"] for s in state["standings"]] == [3, -1, -1, -1]
    assert all(type(s["net"]) is int for s in state["standings"])


def test_zung_jung_hand_number_agrees_with_the_hand_named(jantaku):
    """`round` "Hand 7" came with `hand_number` 3 (the dealer's turn in a table wind Zung Jung has not got)."""
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "zungjung")
    for _ in range(6):
        ok(jantaku, "game", "draw")
    state = state_of(jantaku)
    assert state["round"] == "Hand 7" and state["hand_number"] == 7


def test_zung_jung_refuses_riichi_things(jantaku):
    g = ["game"]
    ok(jantaku, *g, "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "zungjung")
    assert "Zung Jung has no riichi" in refused(jantaku, *g, "riichi", "Ann")
    assert "Zung Jung has no pao" in refused(jantaku, *g, "pao", "Ann", "Bob")
    assert "Zung Jung has no chombo" in refused(jantaku, *g, "chombo", "Ann")
    assert "Zung Jung has no abortive draw" in refused(jantaku, *g, "abort", "four-winds")
    assert "a drawn hand pays nothing" in refused(jantaku, *g, "draw", "--tenpai", "Ann")
    assert "--han is a riichi option" in refused(jantaku, *g, "tsumo", "Bob", "--han", "3", "--fu", "30")
    assert "--dora is a riichi option" in refused(jantaku, *g, "tsumo", "Bob", "--points", "5", "--dora", "1m")
    assert "--fans is for MCR" in refused(jantaku, *g, "tsumo", "Bob", "--fans", "8")
    assert "give the hand (--hand TILES --win TILE) or --points N" in refused(jantaku, *g, "tsumo", "Bob")
    assert "no Zung Jung hand is worth more than 480" in refused(jantaku, *g, "tsumo", "Bob", "--points", "481")
    assert "--points must be 1 or more" in refused(jantaku, *g, "tsumo", "Bob", "--points", "0")
    assert "not both" in refused(jantaku, *g, "tsumo", "Bob", "--points", "5", "--hand", "123m", "--win", "1m")
    assert "counts only when the tiles are scored" in refused(jantaku, *g, "tsumo", "Bob", "--points", "5",
                                                               "--flowers", "1f")
    err = refused(jantaku, *g, "tsumo", "Bob", "--hand", "123m456p789s11z23s", "--win", "9s")
    assert "Bob's hand does not win: not a winning hand" in err
    # 9.2 needs a quad: the engine's own check comes back with the player's name
    err = refused(jantaku, *g, "tsumo", "Bob", "--hand", "123m456p789s11z23s", "--win", "1s", "--rinshan")
    assert err.startswith("jantaku: Bob's hand: 9.2 Out with the Replacement Tile needs a declared quad")
    # Blessings of heaven is the dealer's (East's): Ann's in Hand 1, refused for Bob
    assert "Blessings of Heaven" in refused(jantaku, *g, "tsumo", "Bob", "--hand", "123m456p789s11z23s", "--win",
                                            "1s", "--tenhou")
    assert state_of(jantaku)["events"] == 1  # nothing was stored


def test_a_zung_jung_game_refuses_a_first_turn_win_on_the_last_tile(jantaku):
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "zungjung")
    err = refused(jantaku, "game", "tsumo", "Ann", "--hand", "123m456p789s111z5p", "--win", "5p", "--tenhou",
                  "--haitei")
    assert "Ann's hand: a first-turn win" in err
    assert state_of(jantaku)["events"] == 1  # nothing was stored


def test_zung_jung_flowers_count_with_the_tiles(jantaku):
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "zungjung")
    # Ann (East, seat 1) self-draws 1.1 All Sequences 5 + 1.2 Concealed Hand 5 with flower 1 (11.1.2 seat
    # flower, 4) and season 2 (11.1.1 guest, 2): 16 points, 16 from each.
    out = json.loads(ok(jantaku, "game", "tsumo", "Ann", "--hand", "123m456p789s11z23s", "--win", "1s",
                        "--flowers", "1f2g", "--json"))
    win = out["last_hand"]["wins"][0]
    assert win["value"] == 5 + 5 + 4 + 2 and win["hand"] == "123m456p789s11z23s 1s 1f2g"
    assert out["points"] == [48, -16, -16, -16]


# ---------------------------------------------------------------- MCR


def test_a_short_mcr_game_from_the_shell(jantaku, tmp_path):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB (the jantaku[mcr] extra) is not installed")
    g = ["game"]
    first = json.loads(ok(jantaku, *g, "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "mcr", "--json"))
    assert first["points"] == [0, 0, 0, 0] and first["round"] == "East 1" and first["round_wind"] == "East"
    # East 1, Ann deals. Bob wins 8 fan on Cid's discard: 8 base from each, Cid also pays the 8.
    ok(jantaku, *g, "ron", "--from", "Cid", "--winner", "Bob", "--fans", "8")
    assert state_of(jantaku)["points"] == [-8, 32, -16, -8]
    # East 2, Bob deals (the deal always passes), table wind East, Dee sits West. Dee self-draws
    # 123 456 789m + 5p pair on 5p, East triplet melded, flowers 1f 3g. The club's list: 28 Pure Straight 16
    # + 60 Table Wind 2 (the East triplet; excludes 73) + 75 One Voided Suit 1 (no bamboo) + 79 Single Wait 1
    # + 80 Self-Drawn 1 + 81 Flower Tiles 1 x 2 = 23 fan. Everyone pays 8 + 23 = 31; Dee gets 93.
    out = json.loads(ok(jantaku, *g, "tsumo", "Dee", "--hand", "123456789m5p", "--win", "5p", "--meld", "pon:111z",
                        "--flowers", "1f3g", "--json"))
    win = out["last_hand"]["wins"][0]
    assert win["value"] == 23 and {"name": "60 Table Wind", "points": 2} in win["patterns"]
    assert {"name": "81 Flower Tiles x2", "points": 2} in win["patterns"]
    assert out["points"] == [-8 - 31, 32 - 31, -16 - 31, -8 + 93] == [-39, 1, -47, 85]
    # East 3, Cid deals: a draw pays nothing. East 4, Dee deals: Dee discards, Bob and Ann claim; Ann is
    # first in turn after Dee and takes it: 12 fan, 8 from Bob and Cid, 8 + 12 from Dee.
    ok(jantaku, *g, "draw")
    ok(jantaku, *g, "ron", "--from", "Dee", "--winner", "Bob", "--fans", "9", "--winner", "Ann", "--fans", "12")
    s = state_of(jantaku)
    assert s["last_hand"]["winners"] == [0] and s["last_hand"]["bumped"] == [1]
    assert s["points"] == [-39 + 36, 1 - 8, -47 - 8, 85 - 20] == [-3, -7, -55, 65]
    assert (s["round"], s["round_wind"], s["dealer"]) == ("South 1", "South", 0)  # the table wind moves on
    # South 1: the same shape with a South triplet is now the table wind for Cid (West): 16 + 2 + 1 + 1 + 1 = 21
    # (no flowers). 8 + 21 = 29 from each, 87 to Cid.
    out = json.loads(ok(jantaku, *g, "tsumo", "Cid", "--hand", "123456789m5p", "--win", "5p", "--meld", "pon:222z",
                        "--json"))
    assert out["last_hand"]["wins"][0]["value"] == 21
    assert out["points"] == [-3 - 29, -7 - 29, -55 + 87, 65 - 29] == [-32, -36, 32, 36]
    # Bob declares a false win below the minimum: the text's penalty, 10 to each player, is an adjustment.
    ok(jantaku, *g, "adjust", "Bob=-30", "Ann=10", "Cid=10", "Dee=10", "--reason", "below minimum score")
    # Time is called after five hands ("Players should not feel obligated ... to play a full game").
    ok(jantaku, *g, "end")
    s = state_of(jantaku)
    assert s["over"] and s["over_reason"] == "time called" and s["hands_played"] == 5
    assert [(x["name"], x["rank"], x["raw"], x["net"]) for x in s["standings"]] == [
        ("Dee", 1, 46, 46.0), ("Cid", 2, 42, 42.0), ("Ann", 3, -22, -22.0), ("Bob", 4, -66, -66.0)]
    log = tmp_path / "mcr.jsonl"
    log.write_text(ok(jantaku, *g, "export"))
    replayed = json.loads(ok(jantaku, *g, "replay", str(log), "--json"))
    assert replayed == {k: v for k, v in s.items() if k != "game_id"}


def test_mcr_refusals(jantaku):
    g = ["game"]
    ok(jantaku, *g, "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "mcr")
    assert "below the 8-fan minimum to win" in refused(jantaku, *g, "ron", "--from", "Ann", "--winner", "Bob",
                                                       "--fans", "7")
    assert "same-round immunity (first_discarder) is a Zung Jung rule" in refused(
        jantaku, *g, "ron", "--from", "Ann", "--winner", "Bob", "--fans", "8", "--first-from", "Cid")
    assert "--points is for Zung Jung" in refused(jantaku, *g, "tsumo", "Bob", "--points", "8")
    assert "MCR has no riichi" in refused(jantaku, *g, "riichi", "Bob")
    assert "10 to each player" in refused(jantaku, *g, "chombo", "Bob")
    assert "MCR has no blessings" in refused(jantaku, *g, "tsumo", "Ann", "--hand", "123456789m5p", "--win", "5p",
                                             "--meld", "pon:111z", "--tenhou")
    assert state_of(jantaku)["events"] == 1


def test_mcr_hand_below_the_minimum_is_not_a_win(jantaku):
    pytest.importorskip("MahjongGB", reason="PyMahjongGB (the jantaku[mcr] extra) is not installed")
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "mcr")
    err = refused(jantaku, "game", "ron", "--from", "Ann", "--winner", "Bob", "--hand", "234m567m345p678s5s",
                  "--win", "5s", "--flowers", "1f2f3f4f")
    assert "Bob's hand does not win: below the 8-fan minimum" in err


def test_riichi_games_refuse_the_other_systems_options(jantaku):
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "tenhou")
    assert "--points is for Zung Jung or MCR games" in refused(jantaku, "game", "tsumo", "Bob", "--points", "30")
    assert "--flowers is for Zung Jung or MCR" in refused(jantaku, "game", "tsumo", "Bob", "--han", "1", "--fu",
                                                          "30", "--flowers", "1f")
    assert "same-round immunity" in refused(jantaku, "game", "ron", "--from", "Ann", "--winner", "Bob", "--han",
                                            "1", "--fu", "30", "--first-from", "Cid")


# ---------------------------------------------------------------- the reducer and the events directly


def _game(preset: str):
    return start(GameStarted(("A", "B", "C", "D"), preset))


def test_events_round_trip_with_value_patterns_and_first_discarder():
    ron = Ron(2, (Win(0, value=30, patterns=(("1.2 Concealed Hand", 5),), hand="123m 1m"),), first_discarder=1)
    assert event_from_json(json.loads(json.dumps(ron.to_json()))) == ron
    with pytest.raises(InputError, match="first discarder must be a seat"):
        event_from_json({"type": "ron", "discarder": 2, "wins": [{"seat": 0, "value": 30}], "first_discarder": 7})
    with pytest.raises(InputError, match="value must be a whole number"):
        event_from_json({"type": "tsumo", "win": {"seat": 0, "value": "many"}})


@pytest.mark.parametrize("event, message", [
    (RiichiDeclared(0), "has no riichi"),
    (Pao(0, 1), "has no pao"),
    (Chombo(0), "has no chombo"),
    (AbortiveDraw("four-winds"), "has no abortive draw"),
    (ExhaustiveDraw(tenpai=(0,)), "has no tenpai or nagashi"),
    (Tsumo(Win(0, han=3, fu=30)), "given in riichi terms"),
    (Ron(1, (Win(0, yakuman=1),)), "given in riichi terms"),
    (Tsumo(Win(0)), "needs its value"),
])
def test_reducer_refuses_riichi_events_in_both_systems(event, message):
    for preset in ("zungjung", "mcr"):
        with pytest.raises(InputError, match=message):
            apply(_game(preset), event)


def test_riichi_reducer_refuses_a_system_value():
    with pytest.raises(InputError, match="gives a Zung Jung or MCR value"):
        apply(_game("tenhou"), Tsumo(Win(0, value=30)))
    with pytest.raises(InputError, match="same-round immunity"):
        apply(_game("tenhou"), Ron(1, (Win(0, han=1, fu=30),), first_discarder=2))


def test_zung_jung_immunity_back_to_the_winner_splits_evenly_and_ties_share_the_place():
    state = _game("zungjung")
    # 70 points on C's discard, but A (the winner) discarded that tile first: nobody is responsible,
    # everybody pays 70.
    state = apply(state, Ron(2, (Win(0, value=70),), first_discarder=0))
    assert state.points == (210, -70, -70, -70)
    assert "same-round immunity: nobody responsible" in state.last_hand.summary(state.players)
    state = apply(state, GameEnded())
    # B, C and D are tied at -70: they share second place (the text has no tie-break)
    assert [(s.seat, s.rank) for s in state.standings] == [(0, 1), (1, 2), (2, 2), (3, 2)]


def test_mcr_game_ends_after_north_4_with_the_table_wind_per_rotation():
    state = _game("mcr")
    names = []
    for _ in range(16):
        names.append(state.round_name)
        state = apply(state, ExhaustiveDraw())
    assert names[:5] == ["East 1", "East 2", "East 3", "East 4", "South 1"] and names[-1] == "North 4"
    assert state.over and state.over_reason == "North 4 finished" and state.points == (0, 0, 0, 0)
    assert state.round_name == "North 4" and state.to_json()["round_wind"] == "North"
    assert fold([GameStarted(("A", "B", "C", "D"), "mcr")] + [ExhaustiveDraw()] * 16) == state


def test_scored_win_for_other_callers():
    from table.system_win import scored_win

    state = _game("zungjung")
    win = scored_win(state, 0, "123m456p789s11z23s", "1s", tsumo=False)
    assert win == Win(0, value=10, patterns=(("1.1 All Sequences", 5), ("1.2 Concealed Hand", 5)),
                      hand="123m456p789s11z23s 1s")
    assert apply(state, Ron(2, (win,))).points == (30, -10, -10, -10)  # 10 is 25 or less: split evenly
    with pytest.raises(InputError, match="the tenhou rules are riichi"):
        scored_win(_game("tenhou"), 0, "123m456p789s11z23s", "1s", tsumo=False)
    with pytest.raises(InputError, match="flowers are 1f-4f and seasons 1g-4g only"):
        scored_win(state, 0, "123m456p789s11z23s", "1s", tsumo=False, flowers="1m")


def test_score_with_a_system_preset_scores_that_system(jantaku):
    out = json.loads(ok(jantaku, "score", "234m567m345p678s5s", "--win", "5s", "--rules", "zungjung", "--json"))
    assert out["system"] == "zungjung" and out["total"] == 15 and out["payment"] == {"each": 15}
    assert "cannot be scored with --system mcr" in refused(jantaku, "score", "234m567m345p678s5s", "--win", "5s",
                                                           "--rules", "zungjung", "--system", "mcr")
    from table.hand import parse_hand
    from table.presets import get_preset
    from table.scoring import Situation, score_hand

    with pytest.raises(InputError, match="is not riichi: score its hands with `jantaku score --system mcr`"):
        score_hand(parse_hand("234m567m345p678s5s", "5s"), Situation(), get_preset("mcr"))


def test_zung_jung_variants_named_by_the_text():
    # 'Uniform Payoff Scheme': "each of the three other players pays the winner ... one times the total value",
    # whoever discarded: 70 on C's discard costs everybody 70 (the standard scheme would charge 25, 25, 160).
    uniform = apply(_game("zungjung-uniform"), Ron(2, (Win(0, value=70),)))
    assert uniform.points == (210, -70, -70, -70)
    standard = apply(_game("zungjung"), Ron(2, (Win(0, value=70),)))
    assert standard.points == (210, -25, -160, -25)
    # 'Minimum Requirement to Win': "Competitive Zung Jung typically uses the 5-point minimum".
    competitive = _game("zungjung-competitive")
    with pytest.raises(InputError, match="5"):
        apply(competitive, Tsumo(Win(0, value=4)))
    assert apply(competitive, Tsumo(Win(0, value=5))).points == (15, -5, -5, -5)


def test_a_zung_jung_value_no_hand_makes_is_refused_and_every_other_is_kept(jantaku):
    """Typed by hand: 3 points or 350 is a slip (patterns are multiples of 5 and bonus tiles 2 or 4 each, a Chicken
    Hand 1, and over the 320 limit only single patterns of 400 or 480 count); 2 is a Chicken Hand with a guest
    flower, which the same game also records from the tiles."""
    g = ["game"]
    ok(jantaku, *g, "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "zungjung")
    assert ("Bob's hand cannot be worth 3 points: no Zung Jung hand adds up to 3 (the nearest are 2 and 4)"
            in refused(jantaku, *g, "tsumo", "Bob", "--points", "3"))
    assert "(the nearest are 320 and 400)" in refused(jantaku, *g, "ron", "--from", "Ann", "--winner", "Bob",
                                                       "--points", "350")
    assert state_of(jantaku)["events"] == 1  # nothing was stored
    out = json.loads(ok(jantaku, *g, "tsumo", "Bob", "--hand", "567s123p5m", "--win", "5m", "--meld", "chi:234m",
                        "--meld", "pon:999p", "--flowers", "3g", "--json"))
    assert out["last_hand"]["wins"][0]["value"] == 2
    for value in ("2", "4", "7", "400", "480"):
        ok(jantaku, *g, "tsumo", "Bob", "--points", value)
    with pytest.raises(InputError, match="cannot be worth 3 points"):
        check_new(_game("zungjung"), Ron(2, (Win(0, value=3),)))  # a posted event too
    assert apply(_game("zungjung"), Ron(2, (Win(0, value=3),))).points[0] > 0  # a log kept before still loads


def test_the_uniform_payoff_says_nothing_of_same_round_immunity(jantaku):
    """Under the uniform payoff everybody pays the value: nobody is responsible, so no immunity note, in the
    score, the hand's JSON or the CSV; the standard payoff still names who is responsible."""
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "zungjung-uniform")
    out = ok(jantaku, "game", "ron", "--from", "Dee", "--winner", "Ann", "--points", "30", "--first-from", "Bob")
    assert "last hand: Hand 1: ron, Ann from Dee, 30 points [+90 -30 -30 -30]" in out and "immunity" not in out
    assert state_of(jantaku)["last_hand"]["first_discarder"] is None
    assert "immunity" not in ok(jantaku, "game", "export", "--csv")
    events = [json.loads(line) for line in ok(jantaku, "game", "export").splitlines()]
    assert events[1]["first_discarder"] == 1  # what was typed stays in the log
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "zungjung")
    out = ok(jantaku, "game", "ron", "--from", "Dee", "--winner", "Ann", "--points", "30", "--first-from", "Bob")
    assert "(same-round immunity: Bob responsible), 30 points [+90 -40 -25 -25]" in out


def test_zung_jung_blessing_of_earth_is_recorded_on_a_ron(jantaku):
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "zungjung")
    err = refused(jantaku, "game", "ron", "--from", "Cid", "--winner", "Bob", "--hand", "123m456m789m234p5p", "--win",
                  "5p", "--renhou")
    assert "a win on East's first discard; Cid is not East" in err
    out = json.loads(ok(jantaku, "game", "ron", "--from", "Ann", "--winner", "Bob", "--hand", "123m456m789m234p5p",
                        "--win", "5p", "--renhou", "--json"))
    assert out["last_hand"]["wins"][0]["value"] == 205  # 5 + 5 + 40 + 155 (9.4.2)


def test_a_rejected_new_game_creates_no_file(jantaku, tmp_path):
    db = tmp_path / "club.db"
    assert "player names must differ" in refused(jantaku, "game", "new", "--players", "A,A,C,D", "--rules", "mcr",
                                                 "--db", str(db))
    assert not db.exists()


def test_flat_payment_and_mcr_wins_refuse_what_they_would_drop_or_a_typo(jantaku, tmp_path):
    flat, mcr = str(tmp_path / "flat.db"), str(tmp_path / "mcr.db")
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "uspml", "--db", flat)
    assert "pay a flat amount: --yakuman would be dropped" in refused(
        jantaku, "game", "ron", "--from", "Ann", "--winner", "Bob", "--yakuman", "1", "--db", flat)
    ok(jantaku, "game", "new", "--players", "Ann,Bob,Cid,Dee", "--rules", "mcr", "--db", mcr)
    assert "no MCR hand comes near that" in refused(
        jantaku, "game", "ron", "--from", "Bob", "--winner", "Ann", "--fans", "99999", "--db", mcr)

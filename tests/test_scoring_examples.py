"""Every worked example of the two rule texts, scored through `jantaku score`.

The club rulebook (shared/rules/riichi-club-rulebook.txt §4.2.6 "Scoring example 1-5") shows its hands
as pictures that did not survive into the text; each hand below is built from the text's own
description (winning tile, how it was won, seat, dora, the yaku and fu it lists), so the yaku list, fu
and payment the text states can be checked exactly. Expected values are copied from the text.
"""

from __future__ import annotations

import pytest
from helpers_scoring import run_cli, score_json


def yaku(result: dict) -> dict[str, int]:
    return {y["name"]: y["han"] for y in result["yaku"]}


# ---------------------------------------------------------------- club rulebook §4.2.6, example 1
# 123s 456s 78s + 9s, 234m, 66p: riichi, pinfu, pure straight (ittsu) in sou.
EX1 = ["12345678s234m66p", "--win", "9s", "--rules", "club"]


@pytest.mark.parametrize(("seat", "payment", "total"), [
    ("E", {"tsumo_dealer": None, "tsumo_other": 4000}, 12000),  # "4000 from each ... a total of 12000"
    ("S", {"tsumo_dealer": 4000, "tsumo_other": 2000}, 8000),  # "4000 from East and 2000 from each of the other"
])
def test_club_example_1_riichi_tsumo_is_mangan(capsys, seat, payment, total):
    code, r = score_json(capsys, *EX1, "--riichi", "--tsumo", "--seat", seat)
    assert code == 0
    # "1 yaku for Riichi, 1 ... Fully Concealed Hand, 1 ... Pinfu, 2 ... Pure Straight. Total: 5"
    assert yaku(r) == {"Riichi": 1, "Menzen Tsumo": 1, "Pinfu": 1, "Ittsu": 2}
    assert r["han"] == 5 and r["limit"] == "mangan"
    assert r["payment"] == payment and r["total"] == total


@pytest.mark.parametrize(("seat", "ron"), [("E", 11600), ("S", 7700)])
def test_club_example_1_riichi_ron_is_4_han_30_fu(capsys, seat, ron):
    code, r = score_json(capsys, *EX1, "--riichi", "--seat", seat)
    assert code == 0
    assert yaku(r) == {"Riichi": 1, "Pinfu": 1, "Ittsu": 2}  # "Total: 4 yaku"
    assert (r["han"], r["fu"]) == (4, 30)  # "30 for going out on a discard on a concealed hand"
    assert r["payment"] == {"ron": ron}  # "11600 ... if the winner is East ... he receives 7700"


@pytest.mark.parametrize(("seat", "ron"), [("E", 2900), ("S", 2000)])
def test_club_example_1_open_straight_with_dora(capsys, seat, ron):
    # "The hand contains a melded set. 7 bamboo is dora." -> indicator 6s; chi 123s called.
    code, r = score_json(capsys, "45678s234m66p", "--win", "9s", "--meld", "chi:123s:left", "--dora", "6s",
                         "--seat", seat, "--rules", "club")
    assert code == 0
    assert yaku(r) == {"Ittsu": 1, "Dora": 1}
    # "20 for going out on an open hand, and an additional 2 fus for Open Pinfu. 22 ... rounded up to 30"
    assert (r["han"], r["fu"]) == (2, 30)
    assert r["payment"] == {"ron": ron}


# ---------------------------------------------------------------- example 2: four concealed pons
EX2 = ["222m444p666s88s55m", "--win", "8s", "--rules", "club"]


@pytest.mark.parametrize(("seat", "payment", "total"), [
    ("E", {"tsumo_dealer": None, "tsumo_other": 16000}, 48000),
    ("S", {"tsumo_dealer": 16000, "tsumo_other": 8000}, 32000),
])
def test_club_example_2_suuankou_tsumo(capsys, seat, payment, total):
    code, r = score_json(capsys, *EX2, "--tsumo", "--seat", seat)
    assert code == 0
    assert yaku(r) == {"Suuankou": 13} and r["yakuman"] == 1 and r["limit"] == "yakuman"
    assert r["payment"] == payment and r["total"] == total


@pytest.mark.parametrize(("seat", "ron"), [("E", 24000), ("S", 16000)])
def test_club_example_2_same_hand_on_a_discard_is_baiman(capsys, seat, ron):
    # "4 circles is dora ... the last pon (finished with the claimed tile) is not considered concealed"
    code, r = score_json(capsys, *EX2, "--dora", "3p", "--seat", seat)
    assert code == 0
    assert yaku(r) == {"Sanankou": 2, "Toitoi": 2, "Tanyao": 1, "Dora": 3}
    assert r["han"] == 8 and r["limit"] == "baiman"  # "8 han is the limit hand called Baiman"
    assert r["payment"] == {"ron": ron}


# ---------------------------------------------------------------- example 3: seven pairs
@pytest.mark.parametrize(("seat", "payment", "total"), [
    ("E", {"tsumo_dealer": None, "tsumo_other": 6000}, 18000),
    ("S", {"tsumo_dealer": 6000, "tsumo_other": 3000}, 12000),
])
def test_club_example_3_riichi_ippatsu_tsumo_seven_pairs_haneman(capsys, seat, payment, total):
    code, r = score_json(capsys, "2266m3388p2266s4s", "--win", "4s", "--riichi", "--ippatsu", "--tsumo",
                         "--seat", seat, "--rules", "club")
    assert code == 0
    assert yaku(r) == {"Riichi": 1, "Ippatsu": 1, "Menzen Tsumo": 1, "Tanyao": 1, "Chiitoitsu": 2}
    assert r["han"] == 6 and r["limit"] == "haneman"
    assert r["payment"] == payment and r["total"] == total


@pytest.mark.parametrize(("seat", "ron"), [("E", 2400), ("S", 1600)])
def test_club_example_3_seven_pairs_with_dragon_pair_is_25_fu(capsys, seat, ron):
    code, r = score_json(capsys, "2266m3388p22s77z4s", "--win", "4s", "--seat", seat, "--rules", "club")
    assert code == 0
    assert yaku(r) == {"Chiitoitsu": 2}
    # "25 for going out on Seven Pairs ... no further points even though there is a pair of dragons"
    assert (r["han"], r["fu"]) == (2, 25)
    assert r["payment"] == {"ron": ron}


# ---------------------------------------------------------------- example 4
def test_club_example_4_open_half_flush_double_east(capsys):
    # "winning tile is west on a discard. 7 bamboo is dora. The player is East in an east round."
    code, r = score_json(capsys, "123789999s3z", "--win", "3z", "--meld", "pon:111z:across", "--dora", "6s",
                         "--seat", "E", "--round", "E", "--rules", "club")
    assert code == 0
    # "2 yaku for Half Flush, 1 ... Seat Wind, 1 ... Prevailing Wind and 1 ... Outside Hand ... dora ... 6 han"
    assert yaku(r) == {"Honitsu": 2, "Yakuhai (seat wind east)": 1, "Yakuhai (round wind east)": 1, "Chantai": 1,
                       "Dora": 1}
    assert r["han"] == 6
    assert r["payment"] == {"ron": 18000}  # "The winner scores 18000 from the discarder."


# ---------------------------------------------------------------- example 5
def test_club_example_5_edge_wait_chosen_for_more_fu(capsys):
    # South, concealed pin half flush with a (guest) West triplet, 7p tsumo on a 1-4-7 three-sided wait.
    code, r = score_json(capsys, "1123456789p333z", "--win", "7p", "--tsumo", "--seat", "S", "--rules", "club")
    assert code == 0
    assert yaku(r) == {"Honitsu": 3, "Menzen Tsumo": 1}
    # "20 points for going out, 8 fu for a concealed pon of honors 2 fu for self draw and 2 fu for edge wait"
    assert sorted(r["fu_details"], key=lambda d: d["reason"]) == [
        {"reason": "base", "fu": 20}, {"reason": "closed_terminal_pon", "fu": 8},
        {"reason": "penchan", "fu": 2}, {"reason": "tsumo", "fu": 2}]
    assert (r["han"], r["fu"]) == (4, 40)  # "32 fu are rounded up to 40 ... 4 han 40 fu"
    assert r["payment"] == {"tsumo_dealer": 4000, "tsumo_other": 2000} and r["total"] == 8000


# ---------------------------------------------------------------- riichi-in-brief
def test_brief_waiting_example(capsys):
    # "## Riichi and winning": 234m 123p 77p 34s 88s 1z + 7p, discard 1z -> "waiting for 2s 5s"
    code, out, _ = run_cli(capsys, "waits", "234m123p777p34s88s", "--json")
    assert code == 0
    assert '"waits": [{"tile": "2s", "shapes": ["ryanmen"]}, {"tile": "5s", "shapes": ["ryanmen"]}]' in out


@pytest.mark.parametrize(("hand", "win", "extra", "han", "non_dealer", "dealer"), [
    # "## Scoring": 1 han 1000/1500, 2 han 2000/2900, 3 han 3900/5800, 4 han 7700/11600 ("most hands are 30 fu")
    ("456p678s23s55p", "4s", ["--meld", "chi:234m:left"], 1, 1000, 1500),  # open tanyao, 20 + 2 -> 30 fu
    ("234m456p678s23s99p", "1s", ["--riichi"], 2, 2000, 2900),  # riichi, pinfu
    ("234m456p678s23s55p", "4s", ["--riichi"], 3, 3900, 5800),  # riichi, pinfu, tanyao
    ("234m456p678s23s55p", "4s", ["--riichi", "--dora", "1m"], 4, 7700, 11600),  # + one dora (2m)
])
def test_brief_score_table_30_fu(capsys, hand, win, extra, han, non_dealer, dealer):
    for seat, expected in (("S", non_dealer), ("E", dealer)):
        code, r = score_json(capsys, hand, "--win", win, "--seat", seat, *extra)
        assert code == 0, r
        assert (r["han"], r["fu"]) == (han, 30), r["yaku"]
        assert r["payment"] == {"ron": expected}


def test_brief_fu_example_double_wind_pair_is_4_fu(capsys):
    # "## Fu": "Pair is a yakuhai tile: +2 fu (+4 fu if it's both the round wind and seat wind)"
    code, r = score_json(capsys, "234m456p789s34s11z", "--win", "5s", "--seat", "E", "--round", "E", "--riichi")
    assert code == 0
    assert {"reason": "double_valued_pair", "fu": 4} in r["fu_details"]
    assert (r["han"], r["fu"]) == (1, 40)  # 30 closed ron + 4 -> 34 -> 40


def test_brief_honba_and_sticks(capsys):
    # "you add 300 to the score for every honba, and you pick up all the 1000 riichi bets on the table"
    code, r = score_json(capsys, "234m456p678s23s99p", "--win", "1s", "--riichi", "--seat", "S",
                         "--honba", "2", "--sticks", "3")
    assert code == 0
    assert r["payment"] == {"ron": 2000}
    assert (r["honba_bonus"], r["sticks_bonus"], r["total"]) == (600, 3000, 5600)


def test_brief_yakuman_stack(capsys):
    # "## Yakuman": "Yakuman also stack, multiplying e.g. 32000 into 64000" (tsuuiisou + daisangen)
    code, r = score_json(capsys, "555666777z1122z", "--win", "2z", "--seat", "S")
    assert code == 0
    assert yaku(r) == {"Daisangen": 13, "Tsuuiisou": 13}
    assert r["payment"] == {"ron": 64000} and r["limit"] == "2x yakuman"


@pytest.mark.parametrize(("hand", "win", "name"), [
    ("111222333m44455z", "5z", "Suuankou Tanki"),  # "... concealed triplets, and your final wait is for your pair"
    ("19m19p19s1234567z", "1m", "Kokushi Musou Juusanmen Machi"),
    ("111222333z5m", "5m", "Daisuushii"),  # with a called 444z, so it is not also suuankou
    ("1112345678999p", "9p", "Junsei Chuuren Poutou"),
])
def test_brief_double_yakuman_list(capsys, hand, win, name):
    # "## Yakuman": these four "are considered double yakuman" (Mahjong Soul counts them so; Tenhou does not)
    melds = ["--meld", "pon:444z:left"] if name == "Daisuushii" else []
    code, r = score_json(capsys, hand, "--win", win, "--seat", "S", "--tsumo", *melds, "--rules", "mahjongsoul")
    assert code == 0
    assert yaku(r) == {name: 26} and r["yakuman"] == 2
    assert r["total"] == 64000
    code, r = score_json(capsys, hand, "--win", win, "--seat", "S", "--tsumo", *melds, "--rules", "tenhou")
    assert code == 0 and yaku(r)[name] == 13 and r["total"] == 32000

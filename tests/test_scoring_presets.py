"""The same hand under different presets gives the documented different results
(shared/research/product-and-rules.md §2, shared/rules/naro1-tournament-rules.txt §2.2 and §3.2)."""

from __future__ import annotations

import dataclasses

import pytest
from helpers_scoring import run_cli, score_json

from table.hand import parse_hand
from table.hand_rules import HAND_RULES, KAZOE_LIMITS, RENHOU_VALUES, RIICHI_PRESETS
from table.presets import PRESET_NAMES
from table.scoring import Situation, score_hand

# riichi, pinfu, ittsu, closed ron: 4 han 30 fu (club rulebook scoring example 1)
KIRIAGE_HAND = ["12345678s234m66p", "--win", "9s", "--riichi", "--seat", "S"]


@pytest.mark.parametrize(("rules", "ron", "limit"), [
    ("tenhou", 7700, None), ("naro1", 7700, None), ("ema", 7700, None),
    ("wrc", 8000, "kiriage mangan"), ("mleague", 8000, "kiriage mangan"),
])
def test_kiriage(capsys, rules, ron, limit):
    code, r = score_json(capsys, *KIRIAGE_HAND, "--rules", rules)
    assert code == 0 and (r["han"], r["fu"]) == (4, 30)
    assert r["payment"] == {"ron": ron} and r["limit"] == limit


# riichi, tsumo, pinfu, iipeikou, ittsu, chinitsu + 2 dora (9m indicator -> 1m x2) = 14 han
KAZOE_HAND = ["112233m56m789m99m", "--win", "4m", "--riichi", "--tsumo", "--dora", "9m", "--seat", "S"]


@pytest.mark.parametrize(("rules", "payment", "limit"), [
    ("tenhou", {"tsumo_dealer": 16000, "tsumo_other": 8000}, "kazoe yakuman"),
    ("mahjongsoul", {"tsumo_dealer": 16000, "tsumo_other": 8000}, "kazoe yakuman"),
    ("wrc", {"tsumo_dealer": 12000, "tsumo_other": 6000}, "kazoe sanbaiman"),
    ("mleague", {"tsumo_dealer": 12000, "tsumo_other": 6000}, "kazoe sanbaiman"),
    ("naro1", {"tsumo_dealer": 12000, "tsumo_other": 6000}, "kazoe sanbaiman"),
])
def test_kazoe(capsys, rules, payment, limit):
    code, r = score_json(capsys, *KAZOE_HAND, "--rules", rules)
    assert code == 0 and r["han"] == 14 and r["yakuman"] == 0
    assert r["payment"] == payment and r["limit"] == limit


@pytest.mark.parametrize(("rules", "total", "yakuman"), [
    ("tenhou", 32000, 1), ("wrc", 32000, 1), ("mleague", 32000, 1), ("naro1", 32000, 1), ("mahjongsoul", 64000, 2),
])
def test_double_yakuman_pattern(capsys, rules, total, yakuman):
    # suuankou tanki: double only where the preset lists the pattern
    code, r = score_json(capsys, "111222333m444z5z", "--win", "5z", "--tsumo", "--seat", "S", "--rules", rules)
    assert code == 0
    assert r["yaku"] == [{"name": "Suuankou Tanki", "han": 13 * yakuman}]
    assert r["total"] == total and r["yakuman"] == yakuman


@pytest.mark.parametrize(("rules", "ron", "notes"), [
    ("tenhou", 64000, []), ("wrc", 64000, []), ("mleague", 64000, []),
    ("naro1", 32000, ["yakuman do not stack"]), ("ema", 32000, ["yakuman do not stack"]),
])
def test_stacked_yakuman(capsys, rules, ron, notes):
    code, r = score_json(capsys, "555666777z1122z", "--win", "2z", "--seat", "S", "--rules", rules)
    assert code == 0
    assert r["payment"] == {"ron": ron}
    assert [n.split(" under")[0] for n in r["notes"]] == notes


@pytest.mark.parametrize(("rules", "han", "ron"), [("tenhou", 2, 2000), ("mleague", 2, 2000)])
def test_aka_dora_counts_where_the_set_has_red_fives(capsys, rules, han, ron):
    code, r = score_json(capsys, "456p678s23s50p", "--win", "4s", "--meld", "chi:234m:left", "--seat", "S",
                         "--rules", rules)
    assert code == 0
    assert r["aka"] == 1 and r["han"] == han and r["payment"] == {"ron": ron}


@pytest.mark.parametrize("rules", ["wrc", "naro1", "ema"])
def test_red_five_is_bad_input_without_red_fives(capsys, rules):
    code, out, err = run_cli(capsys, "score", "456p678s23s50p", "--win", "4s", "--meld", "chi:234m:left",
                             "--rules", rules)
    assert code == 2 and out == ""
    assert "red 5p (0p) shown, but these rules" in err and "play without red fives: write 5p" in err


@pytest.mark.parametrize(("rules", "han", "ron", "yaku_names"), [
    ("tenhou", 2, 2000, ["Pinfu", "Tanyao"]),  # no renhou at Tenhou: scored without it, with a note
    ("mahjongsoul", 2, 2000, ["Pinfu", "Tanyao"]),
    ("naro1", 7, 12000, ["Renhou", "Pinfu", "Tanyao"]),  # 5 han that adds to the others (NARO-1 §3.2.4)
    ("wrc", 7, 12000, ["Renhou", "Pinfu", "Tanyao"]),
    ("ema", 5, 8000, ["Renhou"]),  # a mangan limit hand
])
def test_renhou(capsys, rules, han, ron, yaku_names):
    code, r = score_json(capsys, "234m456p678s23s55p", "--win", "4s", "--renhou", "--seat", "S", "--rules", rules)
    assert code == 0
    assert [y["name"] for y in r["yaku"]] == yaku_names
    assert r["han"] == han and r["payment"] == {"ron": ron}
    assert bool(r["notes"]) == (rules in ("tenhou", "mahjongsoul"))


def test_renhou_alone_is_no_yaku_where_it_does_not_exist(capsys):
    args = ["123m456p789s13s99p", "--win", "2s", "--renhou", "--seat", "W"]
    code, r = score_json(capsys, *args, "--rules", "tenhou")
    assert code == 1 and r["valid"] is False and r["error"].startswith("no yaku")
    code, r = score_json(capsys, *args, "--rules", "naro1")
    assert code == 0 and r["payment"] == {"ron": 8000} and r["limit"] == "mangan"


def test_renhou_as_yakuman_option():
    rules = dataclasses.replace(HAND_RULES["tenhou"], renhou="yakuman")
    hand = parse_hand("123m456p789s13s99p", "2s")
    result = score_hand(hand, Situation(renhou=True, seat_wind=2), rules)
    assert result.yaku == [("Renhou", 13)] and result.payment.ron == 32000


def test_double_wind_pair_fu(capsys):
    # closed 111m (8) + East pair for an East seat in the East round, riichi ron on a two-sided wait
    args = ["111m456p789s34s11z", "--win", "5s", "--riichi", "--seat", "E", "--round", "E"]
    code, r = score_json(capsys, *args, "--rules", "tenhou")
    assert code == 0 and r["fu"] == 50 and r["payment"] == {"ron": 2400}  # 30 + 8 + 4 = 42 -> 50
    code, r = score_json(capsys, *args, "--rules", "mleague")
    assert code == 0 and r["fu"] == 40 and r["payment"] == {"ron": 2000}  # 30 + 8 + 2 = 40


def test_naro1_daisharin(capsys):
    code, r = score_json(capsys, "2233445566778s", "--win", "8s", "--seat", "S", "--rules", "naro1")
    assert code == 0 and r["yakuman"] == 1 and r["payment"] == {"ron": 32000}
    code, r = score_json(capsys, "2233445566778s", "--win", "8s", "--seat", "S", "--rules", "tenhou")
    assert code == 0 and r["yakuman"] == 0 and r["limit"] == "sanbaiman"  # pinfu tanyao ryanpeikou chinitsu


def test_every_preset_sets_every_option():
    assert set(PRESET_NAMES) <= set(HAND_RULES)
    assert set(HAND_RULES) == {"tenhou", "mahjongsoul", "wrc", "ema", "mleague", "naro1", "club", "uspml",
                               "zungjung", "zungjung-uniform", "zungjung-competitive", "mcr"}
    assert {name for name, rules in HAND_RULES.items() if rules.system == "riichi"} == set(RIICHI_PRESETS)
    for name, rules in HAND_RULES.items():
        assert rules.title and rules.notes, name
        assert rules.kazoe in KAZOE_LIMITS and rules.renhou in RENHOU_VALUES
        options = rules.to_optional_rules()
        assert options.has_open_tanyao is rules.open_tanyao
        assert options.kiriage is rules.kiriage
        assert options.has_aka_dora is (rules.aka_dora > 0)
    assert "USPML" in HAND_RULES["uspml"].title and "Tenhou" in HAND_RULES["uspml"].notes


def test_unknown_rules(capsys):
    code, _, err = run_cli(capsys, "score", "234m456p678s23s55p", "--win", "4s", "--rules", "nope")
    assert code == 2 and "unknown rules 'nope': choose one of tenhou, mahjongsoul" in err

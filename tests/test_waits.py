"""Waits with their shapes, tenpai (no wait on a tile the hand holds all four of), discard furiten."""

from __future__ import annotations

import json

import pytest
from helpers_scoring import run_cli

from table.errors import InputError
from table.hand import parse_meld
from table.tiles import kind_name, parse_tiles
from table.waits import furiten, is_tenpai, system_waits, waits


def named(hand: str, melds=()) -> dict[str, tuple[str, ...]]:
    return {kind_name(w.tile_kind): w.shapes for w in waits(parse_tiles(hand), [parse_meld(m) for m in melds])}


def test_nine_gates_waits_on_all_nine():
    assert named("1112345678999m") == {
        "1m": ("ryanmen", "shanpon"), "2m": ("tanki",), "3m": ("ryanmen", "penchan"), "4m": ("ryanmen",),
        "5m": ("tanki",), "6m": ("ryanmen",), "7m": ("ryanmen", "penchan"), "8m": ("tanki",),
        "9m": ("ryanmen", "shanpon"),
    }


def test_shapes():
    assert named("123m456p789s11z46s") == {"5s": ("kanchan",)}
    assert named("123m456p789s11z12s") == {"3s": ("penchan",)}
    assert named("123m456p789s11z22s") == {"East": ("shanpon",), "2s": ("shanpon",)}
    assert named("123m456p789s111z5s") == {"5s": ("tanki",)}
    assert named("2266m3388p2266s4s") == {"4s": ("chiitoitsu",)}
    assert named("19m19p19s1234567z") == {k: ("kokushi-13",) for k in
                                          ("1m", "9m", "1p", "9p", "1s", "9s", "East", "South", "West", "North",
                                           "White", "Green", "Red")}
    assert named("19m19p19s1234566z") == {"Red": ("kokushi",)}


def test_riichi_in_brief_wait_example():
    # shared/rules/riichi-in-brief.txt "## Riichi and winning": waiting for 2s and 5s
    assert named("234m123p777p34s88s") == {"2s": ("ryanmen",), "5s": ("ryanmen",)}


def test_waits_with_melds():
    assert named("3455s", ["pon:777z", "chi:123m", "kan:9999p"]) == {"2s": ("ryanmen",), "5s": ("ryanmen", "tanki")}
    assert named("2m", ["pon:333p", "pon:444p", "pon:555s", "chi:678m"]) == {"2m": ("tanki",)}


def test_a_wait_on_a_tile_held_four_times_is_no_wait():
    # club rulebook §3.3.13: "not considered tenpai if he is waiting only for a tile of which he already has 4"
    hand = parse_tiles("1111m234p567s888s")
    assert waits(hand) == [] and not is_tenpai(hand)
    melds = [parse_meld("pon:222m"), parse_meld("pon:333p"), parse_meld("pon:444p"), parse_meld("pon:555s")]
    assert not is_tenpai(parse_tiles("2m"), melds)  # the fourth 2m is already in the pon plus hand
    assert is_tenpai(parse_tiles("123m456p789s11z22s"))


def test_not_tenpai():
    assert not is_tenpai(parse_tiles("1357m2468p13579s"))


@pytest.mark.parametrize(("hand", "discards", "is_furiten", "tiles"), [
    # club rulebook §3.4.5 furiten example 1: a 3-6-9 wait is furiten if any of the three was discarded
    ("123m456p77z45678s", "9s", True, [26]),
    ("123m456p77z45678s", "1m2z", False, []),
    # example 2: waiting 1-4 circles; "a discarded 7 circles does not make the player furiten"
    ("123m456s789s11z23p", "7p", False, []),
    ("123m456s789s11z23p", "4p", True, [12]),
    # example 3: waiting 4p, 7p and red dragon; any one of them among the discards is furiten
    ("123m456s44456p77z", "7z", True, [33]),
    ("123m456s44456p77z", "5p9m", False, []),
])
def test_furiten_examples(hand, discards, is_furiten, tiles):
    result = furiten(parse_tiles(hand), [], parse_tiles(discards))
    assert result.furiten is is_furiten and result.tiles == tiles


def test_furiten_example_3_waits():
    assert set(named("123m456s44456p77z")) == {"4p", "7p", "Red"}


def test_not_tenpai_is_not_furiten():
    result = furiten(parse_tiles("1357m2468p13579s"), [], parse_tiles("1m"))
    assert not result.furiten and result.reason == "not tenpai, so not furiten"


def test_bad_input():
    with pytest.raises(InputError, match="wrong tile count: with 0 meld"):
        waits(parse_tiles("123m456p789s11z2s"))
    with pytest.raises(InputError, match="5 copies of 1m"):
        waits(parse_tiles("11m456p789s11z23p"), [parse_meld("pon:111m")])


def test_waits_cli(capsys):
    code, out, _ = run_cli(capsys, "waits", "123m456p77z45678s", "--discards", "9s")
    assert code == 0
    assert "Tenpai  yes, 3 waits" in out and "Furiten YES: waiting on 3s, 6s, 9s; 9s is in your own discards" in out
    code, out, _ = run_cli(capsys, "waits", "1111m234p567s888s", "--json")
    assert code == 1 and json.loads(out) == {"tenpai": False, "waits": []}
    code, out, _ = run_cli(capsys, "waits", "123m456s44456p77z", "--discards", "5p", "--json")
    assert code == 0
    assert json.loads(out) == {
        "tenpai": True,
        "waits": [{"tile": "4p", "shapes": ["ryanmen", "shanpon"]}, {"tile": "7p", "shapes": ["ryanmen"]},
                  {"tile": "7z", "shapes": ["shanpon"]}],
        "furiten": False, "furiten_tiles": [], "reason": "none of the waits (4p, 7p, Red) is in your discards",
    }
    code, _, err = run_cli(capsys, "waits", "123m")
    assert code == 2 and "wrong tile count" in err
    code, out, err = run_cli(capsys, "waits", "", "--discards", "9m")
    assert code == 2 and out == "" and "no hand given: name the waiting hand's tiles" in err and "not 0" not in err


@pytest.mark.parametrize("discards", ["1s1s1s", "9s9s9s9s9s"])
def test_discards_that_make_a_fifth_copy_are_refused(discards):
    """Two 1s in the hand and three among the discards, or five 9s discarded: no such table exists."""
    with pytest.raises(InputError, match="copies of .* in hand, melds and discards: a set has only 4"):
        furiten(parse_tiles("234m567p11s34s789s"), [], parse_tiles(discards))


def test_red_fives_the_set_does_not_hold_are_refused(capsys):
    """Tenhou's set has one red five per suit; EMA plays without them. `waits` follows the preset as `score` does."""
    code, _, err = run_cli(capsys, "waits", "0m0m123p456s789s11z")
    assert code == 2 and "2 red 5m shown, but the set has only 1" in err
    code, _, err = run_cli(capsys, "waits", "0m5m123p456s789s11z", "--rules", "ema")
    assert code == 2 and "play without red fives: write 5m" in err
    code, _, err = run_cli(capsys, "waits", "0m5m123p456s789s11z", "--discards", "0m")
    assert code == 2 and "2 red 5m shown" in err and "counting hand, melds and discards" in err
    code, out, _ = run_cli(capsys, "waits", "0m5m123p456s789s11z", "--discards", "5m")
    assert code == 0 and "Furiten YES" in out


@pytest.mark.parametrize("args", [
    ("waits", "13m456p789s123s11z", "--discards", "2m", "--discards", "5z"),
    ("waits", "13m456p789s123s11z", "--rules", "ema", "--rules", "tenhou"),
    ("score", "123m456m789m234p5p", "--win", "5p", "--win", "4p"),
    ("score", "123m456m789m234p5p", "--win", "5p", "--seat", "S", "--seat", "W"),
    ("score", "123m456m789m234p5p", "--win", "5p", "--system", "zj", "--minimum", "5", "--minimum", "0"),
    ("score", "123m456m789m234p5p", "--win", "5p", "--system", "zj", "--flowers", "1f", "--flowers", "2f"),
])
def test_an_option_of_one_value_given_twice_is_refused_not_half_dropped(capsys, args):
    """`--discards 2m --discards 5z` kept only 5z and said not furiten while 2m, the wait, was discarded."""
    with pytest.raises(SystemExit) as stop:
        run_cli(capsys, *args)
    assert stop.value.code == 2 and f"{args[-2]} is given twice: give it once" in capsys.readouterr().err


@pytest.mark.parametrize("rules", ["zungjung", "zungjung-competitive", "mcr"])
def test_no_furiten_verdict_under_zung_jung_or_mcr(capsys, rules):
    """The club's text: "no Furiten rules are in effect" in Zung Jung and MCR, so --discards is refused there; the
    waits alone are still listed."""
    code, _, err = run_cli(capsys, "waits", "13m456p789s123s11z", "--rules", rules, "--discards", "2m")
    assert code == 2 and "has none" in err and "no Furiten rules are in effect" in err
    code, out, _ = run_cli(capsys, "waits", "13m456p789s123s11z", "--rules", rules)
    assert code == 0 and "2m" in out and "Furiten" not in out


def system_named(system: str, hand: str, melds=()) -> dict[str, tuple[str, ...]]:
    return {kind_name(w.tile_kind): w.shapes
            for w in system_waits(parse_tiles(hand), [parse_meld(m) for m in melds], system)}


@pytest.mark.parametrize("system", ["zungjung", "mcr"])
def test_seven_pairs_with_a_four_of_a_kind_waits_under_zung_jung_and_mcr(system):
    """Both systems score 1111m22p33p55s66s7z + 7z as Seven Pairs (ZJ 10.2: "may hold four of a kind"); riichi
    does not, so riichi's waits said not tenpai."""
    if system == "mcr":
        pytest.importorskip("MahjongGB")
    assert waits(parse_tiles("1111m22p33p55s66s7z")) == []
    assert system_named(system, "1111m22p33p55s66s7z") == {"Red": ("chiitoitsu",)}


def test_knitted_hands_wait_under_mcr():
    pytest.importorskip("MahjongGB")
    # 147m258p369s (a knitted straight) and four winds: a fifth different honour makes 34 Lesser Honors and
    # Knitted Tiles, scored with 35 Knitted Straight
    assert system_named("mcr", "147m258p369s1234z") == {
        d: ("knitted-straight", "honors-knitted") for d in ("White", "Green", "Red")}
    # 35 Knitted Straight with a triplet and a pair: a dual pon on the two honour pairs
    assert system_named("mcr", "147m258p369s11z55z") == {"East": ("knitted-straight",),
                                                          "White": ("knitted-straight",)}
    # one knitted tile short, with five honours: the 9s, or a sixth honour (Lesser Honors without the straight)
    assert system_named("mcr", "147m258p36s12345z") == {"9s": ("knitted-straight", "honors-knitted"),
                                                         "Green": ("honors-knitted",), "Red": ("honors-knitted",)}
    assert waits(parse_tiles("147m258p369s11z55z")) == []


def test_system_waits_keep_the_regular_shapes_and_the_four_copies_limit():
    assert system_named("zungjung", "123m456p789s11z46s") == {"5s": ("kanchan",)}
    assert system_named("zungjung", "1111m234p567s888s") == {}  # only the fifth 1m would complete it
    assert system_named("zungjung", "3455s", ["pon:777z", "chi:123m", "kan:9999p"]) == {
        "2s": ("ryanmen",), "5s": ("ryanmen", "tanki")}


@pytest.mark.parametrize("rules, hand, tile", [
    ("zungjung", "1111m22p33p55s66s7z", "7z"),
    ("mcr", "1111m22p33p55s66s7z", "7z"),
    ("mcr", "147m258p369s1234z", "7z"),
    ("mcr", "147m258p369s11z55z", "1z"),
])
def test_waits_cli_under_a_system_preset_lists_that_systems_waits(capsys, rules, hand, tile):
    """`jantaku waits --rules zungjung|mcr` said "not tenpai" for hands `score` takes as wins in that system."""
    if rules == "mcr":
        pytest.importorskip("MahjongGB")
    code, out, _ = run_cli(capsys, "waits", hand, "--rules", rules, "--json")
    assert code == 0
    obj = json.loads(out)
    assert obj["tenpai"] is True and tile in [w["tile"] for w in obj["waits"]]
    code, out, _ = run_cli(capsys, "score", hand, "--win", tile, "--rules", rules)
    assert code == 0

"""Hands and melds: notation in and out, and one clear message per physical impossibility."""

from __future__ import annotations

import random

import pytest
from helpers_scoring import run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from table.errors import InputError
from table.hand import (
    Hand,
    Meld,
    meld_from_json,
    name_hidden_red_fives,
    parse_hand,
    parse_meld,
    read_tiles,
    validate_hand,
)
from table.hand_rules import HAND_RULES, RIICHI_PRESETS
from table.random_hands import random_hand
from table.tiles import Tile, parse_tiles, to_mpsz

TENHOU = HAND_RULES["tenhou"]


def test_parse_meld_kinds_and_sources():
    assert parse_meld("pon:777z") == Meld("pon", tuple(parse_tiles("777z")), None)
    assert parse_meld("chi:0p46p:left") == Meld("chi", (Tile(13, True), Tile(12), Tile(14)), "left")
    assert parse_meld("ankan:5555m").kind == "closed-kan"
    assert parse_meld("shouminkan:1111z:across").kind == "added-kan"
    assert str(parse_meld("kan:9999s:right")) == "kan:9999s:right"
    assert parse_meld("closed-kan:2222p").is_open is False


@pytest.mark.parametrize(("text", "message"), [
    ("pong:777z", "unknown meld kind 'pong'"),
    ("pon", "cannot read meld 'pon'"),
    ("pon:777z:behind", "unknown meld source 'behind'"),
    ("closed-kan:1111m:left", "a closed kan is not called from anyone"),
    ("pon:77x", "unknown suit 'x'"),
    ("pon:7z7", "cannot read tiles '7z7'"),
])
def test_parse_meld_errors(text, message):
    with pytest.raises(InputError, match=message):
        parse_meld(text)


def test_meld_from_json():
    assert meld_from_json({"type": "pon", "tiles": "777z", "source": "across"}) == parse_meld("pon:777z:across")
    assert meld_from_json("chi:345s") == parse_meld("chi:345s")
    with pytest.raises(InputError, match="string fields"):
        meld_from_json({"type": "pon"})
    with pytest.raises(InputError, match="a meld must be an object"):
        meld_from_json(3)


def test_parse_hand_accepts_the_winning_tile_inside_a_14_tile_picture():
    a = parse_hand("234m567p11s345s789s", "9s")
    b = parse_hand("234m567p11s345s78s", "9s")
    assert sorted(a.concealed) == sorted(b.concealed) and a.win == b.win
    assert len(a.concealed) == 13


def test_read_tiles_matches_parse_tiles():
    for text in ("123m0p77z", "1z", "0s", "19m19p19s1234567z", "5555m", ""):
        assert read_tiles(text) == parse_tiles(text)
    for bad in ("8z", "0z", "12", "m", "1 2m"):
        try:
            expected = parse_tiles(bad)
        except InputError as exc:
            with pytest.raises(InputError, match=str(exc)[:20]):
                read_tiles(bad)
        else:
            assert read_tiles(bad) == expected


# ---------------------------------------------------------------- validation, one rule per test
def fault(hand: Hand, dora: str = "", ura: str = "", rules=TENHOU) -> str:
    with pytest.raises(InputError) as info:
        validate_hand(hand, tuple(parse_tiles(dora)), tuple(parse_tiles(ura)), rules)
    return str(info.value)


def test_five_copies_counting_melds_and_winning_tile():
    msg = fault(parse_hand("1m234p567s789s", "1m", ["pon:111m"]))
    assert msg == ("5 copies of 1m (counting hand, melds, winning tile and dora indicators): a set has only 4")


def test_five_copies_counting_dora_indicators():
    assert "5 copies of East" in fault(parse_hand("111z234p567s789s2m", "1z"), dora="1z", ura="")
    assert "5 copies of East" in fault(parse_hand("111z234p567s789s2m", "2m"), dora="1z", ura="1z")


def test_wrong_tile_count():
    msg = fault(parse_hand("234m567p11s345s", "4s"))
    assert msg.startswith("wrong tile count: with no melds the hand needs 13 concealed tiles plus the winning tile")
    msg = fault(parse_hand("234m567p11s345s78s", "9s", ["pon:777z"]))
    assert "with 1 meld the hand needs 10 concealed tiles" in msg


@pytest.mark.parametrize(("meld", "message"), [
    ("chi:135s", "chi 135s: a chi must be three consecutive tiles of one suit"),
    ("chi:891m", "a chi must be three consecutive tiles of one suit"),
    ("chi:123z", "honours cannot form a chi"),
    ("chi:3m4p5s", "a chi must be three consecutive tiles of one suit"),
    ("chi:345s:across", "a chi can only be called from the player on the left, not across"),
    ("pon:776z", "a pon must be three identical tiles"),
    ("pon:7777z", "a pon has 3 tiles, not 4"),
    ("kan:2223p", "a kan must be four identical tiles"),
    ("closed-kan:222p", "a kan has 4 tiles, not 3"),
])
def test_bad_melds(meld, message):
    assert message in fault(parse_hand("234m567p11s345s", "2m", [meld]))


def test_too_many_red_fives_for_the_set():
    msg = fault(parse_hand("0m0m234p567s789s2z", "2z", ["pon:111z"]))
    assert "2 red 5m shown, but the set has only 1 (Tenhou" in msg


def test_plain_five_replaced_by_the_red_one():
    msg = fault(parse_hand("5555m234p567s789s2z", "2z"))
    assert "4 plain 5m shown, but 1 of the four 5m in this set is red: write a red five as 0m" in msg
    validate_hand(parse_hand("0555m234p567s789s2z", "2z"), (), (), TENHOU)  # fine
    validate_hand(parse_hand("5555m234p567s789s2z", "2z"), (), (), HAND_RULES["wrc"])  # no reds there


def test_too_many_indicators():
    assert "at most 5 dora indicators" in fault(parse_hand("234m567p11s345s78s", "9s"), dora="123456m")


def test_all_faults_reported_together():
    msg = fault(parse_hand("11112m567p11s34s", "2s", ["chi:135s"]))
    assert "a chi must be three consecutive" in msg and "wrong tile count" in msg


def test_unknown_tile_is_exit_2(capsys):
    code, out, err = run_cli(capsys, "score", "234m567p11s345s78x", "--win", "9s")
    assert code == 2 and out == "" and "unknown suit 'x': use m, p, s or z" in err
    code, out, err = run_cli(capsys, "score", "234m567p11s345s78", "--win", "9s")
    assert code == 2 and "cannot read tiles '234m567p11s345s78'" in err
    code, _, err = run_cli(capsys, "score", "234m567p11s345s78s", "--win", "8z")
    assert code == 2 and "there is no honour tile 8z" in err
    code, _, err = run_cli(capsys, "score", "234m567p11s345s78s", "--win", "1f")
    assert code == 2 and "bonus tiles (1f) are not used in riichi" in err


# ---------------------------------------------------------------- properties
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(sorted(RIICHI_PRESETS)))
def test_random_valid_hand_round_trips_through_notation(seed, rules):
    item = random_hand(random.Random(seed), HAND_RULES[rules])
    hand = item.hand
    validate_hand(hand, item.situation.dora_indicators, item.situation.ura_indicators, HAND_RULES[rules])
    text = hand.notation()
    back = parse_hand(text["hand"], text["win"], [meld_from_json(m) for m in text["melds"]])
    assert sorted(back.concealed) == sorted(hand.concealed)
    assert back.win == hand.win
    assert [(m.kind, sorted(m.tiles), m.source) for m in back.melds] == \
        [(m.kind, sorted(m.tiles), m.source) for m in hand.melds]
    assert to_mpsz(back.all_tiles()) == to_mpsz(hand.all_tiles())


@pytest.mark.parametrize(("meld", "red_fives", "want"), [
    ("closed-kan:5555s", (1, 1, 1), "closed-kan:0555s"),
    ("closed-kan:5555p", (0, 2, 0), "closed-kan:0055p"),  # a set with two red 5p
    ("closed-kan:0555m", (1, 1, 1), "closed-kan:0555m"),  # the red one shows already
    ("closed-kan:5555s", (0, 0, 0), "closed-kan:5555s"),  # no red fives in the set
    ("kan:5555s", (1, 1, 1), "kan:5555s"),  # an open kan shows every tile
    ("closed-kan:7777z", (1, 1, 1), "closed-kan:7777z"),
])
def test_a_closed_kan_of_fives_names_the_red_fives_its_backs_hide(meld: str, red_fives, want: str) -> None:
    assert str(name_hidden_red_fives(parse_meld(meld), red_fives)) == want

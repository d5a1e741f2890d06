"""Zung Jung 3.3 scoring against section 2 of shared/rules/sdmc-zungjung-riichi-mcr.txt.

Pattern values are the ones the rules text prints ("Point Value: N"). Hands written here are ours (the
text's example hands are pictures); where the text states a value for a case ("its true value is 60",
"so its actual value is 160", the 70-point payoff, the 20-point bouquet) the test cites it.
"""

import pytest

from table.errors import InputError
from table.hand import parse_hand
from table.tiles import parse_tiles
from table.zungjung import (
    LIMIT,
    PATTERNS,
    ZungJungRules,
    ZungJungWin,
    bonus_patterns,
    impossible_total,
    possible_totals,
    score_zungjung,
    zungjung_payoff,
)


def zj(concealed, win, melds=(), rules=None, **how):
    bonus = tuple(parse_tiles(how.pop("bonus"), allow_bonus=True)) if "bonus" in how else ()
    return score_zungjung(parse_hand(concealed, win, melds), ZungJungWin(bonus=bonus, **how), rules)


def codes(result):
    return sorted(p.code for p in result.patterns)


def test_pattern_table_matches_the_rules_text():
    # One spot check per category of "Point Value" lines in section 2.
    assert PATTERNS["1.1"] == ("All Sequences", 5)
    assert PATTERNS["2.1.2"] == ("Full Flush", 80)
    assert PATTERNS["3.2.1"] == ("Little Three Dragons", 40)
    assert PATTERNS["3.3.1"] == ("Little Three Winds", 30)
    assert PATTERNS["4.2.3"] == ("Four Concealed Triplets", 125)
    assert PATTERNS["5.1.2"] == ("Two Pure Double Sequences", 60)
    assert PATTERNS["6.1"] == ("Mixed Triple Sequence", 35)
    assert PATTERNS["7.2.2"] == ("Four Pure Shifted Triplets", 200)
    assert PATTERNS["8.1.2"] == ("Full Outside Hand", 50)
    assert PATTERNS["9.4.2"] == ("Blessings of Earth", 155)
    assert PATTERNS["10.2"] == ("Seven Pairs", 30)
    assert PATTERNS["11.1.2"] == ("Seat Flower/Season Tile", 4)
    assert len(PATTERNS) == 48  # 44 patterns of categories 1-10 plus the four of 11.0


# (concealed, win, melds, how, expected total, expected pattern codes); seat East unless said.
HANDS = [
    # 1.0: all sequences + concealed + all simples, won on a discard
    ("234m567m345p678s5s", "5s", (), {}, 15, ["1.1", "1.2", "1.3"]),
    # Chicken Hand: no pattern at all -> 1 point ("Minimum Requirement to Win")
    ("567s123p5m", "5m", ("chi:234m", "pon:999p"), {}, 1, [""]),
    # 2.1.1 Half Flush + 7.1 Pure Straight; a South triplet is no Value Honor for East (no table wind)
    ("123m456m789m1z", "1z", ("pon:222z",), {}, 80, ["2.1.1", "7.1"]),
    # 2.1.2 Full Flush with a concealed hand
    ("11123345567888s", "2s", (), {}, 85, ["1.2", "2.1.2"]),
    # 2.2 Nine Gates: 480 is over the limit, so it is scored alone
    ("1112345678999m", "5m", (), {}, 480, ["2.2"]),
    # 3.2.1 Little Three Dragons "scores 3.1 Value Honor twice so its true value is 60"
    ("7z123m456p", "7z", ("pon:555z", "pon:666z"), {}, 60, ["3.1", "3.1", "3.2.1"]),
    # 3.2.2 Big Three Dragons "scores 3.1 Value Honor three times so its true value is 160"
    ("234p1m", "1m", ("pon:555z", "pon:666z", "pon:777z"), {}, 160, ["3.1", "3.1", "3.1", "3.2.2"]),
    # 3.3.1 Little Three Winds + Value Honor (East is the seat wind) + Half Flush
    ("3z123m456m", "3z", ("pon:111z", "pon:222z"), {}, 80, ["2.1.1", "3.1", "3.3.1"]),
    # 3.3.2 Big Three Winds (South, West, North: none is East's seat wind)
    ("123m5p", "5p", ("pon:222z", "pon:333z", "pon:444z"), {}, 120, ["3.3.2"]),
    # 3.3.3 Little Four Winds (320) is a limit pattern: scored alone
    ("123m4z", "4z", ("pon:111z", "pon:222z", "pon:333z"), {}, 320, ["3.3.3"]),
    # 3.3.4 Big Four Winds
    ("5m", "5m", ("pon:111z", "pon:222z", "pon:333z", "pon:444z"), {}, 400, ["3.3.4"]),
    # 3.4 All Honors
    ("555z666z7z", "7z", ("pon:111z", "pon:222z"), {}, 320, ["3.4"]),
    # 4.1 All Triplets + 4.2.1 (two triplets from the wall, the pair won on a discard)
    ("444s999m5s", "5s", ("pon:222m", "pon:333p"), {}, 35, ["4.1", "4.2.1"]),
    # 4.2.2 Three Concealed Triplets
    ("222m444p666s789s5m", "5m", (), {}, 35, ["1.2", "4.2.2"]),
    # 4.2.3 Four Concealed Triplets on a self-draw: 125 + 30 All Triplets + 5 Concealed + 5 All Simples
    ("222m444p666s888s5m", "5m", (), {"self_drawn": True}, 165, ["1.2", "1.3", "4.1", "4.2.3"]),
    # 4.3.1 One Quad (an open one) + All Simples
    ("345p678s234s5m", "5m", ("kan:2222m",), {}, 10, ["1.3", "4.3.1"]),
    # 4.3.2 Two Quads
    ("678s234s5m", "5m", ("kan:2222m", "closed-kan:3333p"), {}, 25, ["1.3", "4.3.2"]),
    # a declared concealed quad is a concealed triplet for 4.2 and keeps 1.2 Concealed Hand
    ("444s678s5m", "5m", ("closed-kan:2222m", "closed-kan:3333p"), {}, 60, ["1.2", "1.3", "4.2.2", "4.3.2"]),
    # 4.3.3 Three Quads
    ("678s5m", "5m", ("kan:2222m", "kan:3333p", "kan:4444s"), {}, 125, ["1.3", "4.3.3"]),
    # 4.3.4 Four Quads
    ("5m", "5m", ("kan:2222m", "kan:3333p", "kan:4444s", "kan:6666s"), {}, 480, ["4.3.4"]),
    # 5.1.1 Pure Double Sequence
    ("223344m567p888s5p", "5p", (), {}, 20, ["1.2", "1.3", "5.1.1"]),
    # 5.1.2 Two Pure Double Sequences, not 10.2 Seven Pairs ("Freedom to Count" example)
    ("112233m445566p7s", "7s", (), {}, 70, ["1.1", "1.2", "5.1.2"]),
    # 5.1.3 Pure Triple Sequence (open, so it cannot be read as triplets)
    ("123m456p7s", "7s", ("chi:123m", "chi:123m"), {}, 125, ["1.1", "5.1.3"]),
    # 5.1.4 Quadruple Sequence
    ("234m234m5p", "5p", ("chi:234m", "chi:234m"), {}, 480, ["5.1.4"]),
    # 6.1 Mixed Triple Sequence
    ("345m345p345s789s5z", "5z", (), {}, 45, ["1.1", "1.2", "6.1"]),
    # 6.2.1 Double Triplet with a Matching Pair
    ("123s789s5s", "5s", ("pon:555m", "pon:555p"), {}, 30, ["6.2.1"]),
    # 6.2.2 Triple Triplet
    ("555s123s8s", "8s", ("pon:555m", "pon:555p"), {}, 120, ["6.2.2"]),
    # 7.2.2 Four Pure Shifted Triplets + All Triplets
    ("9m", "9m", ("pon:222p", "pon:333p", "pon:444p", "pon:555p"), {}, 230, ["4.1", "7.2.2"]),
    # 8.1.1 Half Outside Hand + Value Honor (Red)
    ("123m789p111s9m", "9m", ("pon:777z",), {}, 50, ["3.1", "8.1.1"]),
    # 8.1.2 Full Outside Hand
    ("123m789p111s789s9m", "9m", (), {}, 55, ["1.2", "8.1.2"]),
    # 8.1.3 All Terminals and Honors + All Triplets + Three Concealed Triplets + Value Honor (East)
    ("111m999p999s1s", "1s", ("pon:111z",), {}, 170, ["3.1", "4.1", "4.2.2", "8.1.3"]),
    # 8.1.4 All Terminals
    ("111m999m111p999p1s", "1s", (), {"self_drawn": True}, 400, ["8.1.4"]),
    # 10.2 Seven Pairs (never with 1.2 Concealed Hand) + All Simples
    ("2233m4455p6677s8s", "8s", (), {}, 35, ["1.3", "10.2"]),
    # 10.2 Seven Pairs of terminals and honours: + 8.1.3
    ("1199m1199p11s112z", "2z", (), {}, 130, ["10.2", "8.1.3"]),
    # 10.1 Thirteen Orphans, which "cannot be scored with" 8.1.3
    ("19m19p19s1234567z", "1z", (), {}, 160, ["10.1"]),
]


@pytest.mark.parametrize("concealed, win, melds, how, total, expected", HANDS)
def test_every_pattern_scores_its_listed_value(concealed, win, melds, how, total, expected):
    result = zj(concealed, win, melds, **how)
    assert result.valid, result.error
    assert codes(result) == sorted(expected)
    assert result.total == total
    assert sum(p.points for p in result.patterns) == total or result.limit == "cap"
    assert total in possible_totals()


def test_the_values_a_hand_can_have_come_from_the_pattern_table():
    """Every pattern of categories 1-10 is 5 points or a multiple of it, so without bonus tiles a hand is a Chicken
    Hand's 1 or a multiple of 5 up to the 320 limit, or a single pattern over it (400, 480). Bonus tiles add 2 (a
    guest flower or season) or 4 (the seat's own) each and 10 a set, so a Chicken Hand with one guest flower is
    worth 2 and a 5-point hand with one 7; only 3, and what lies between 320, 400 and 480, no hand makes."""
    totals = possible_totals()
    assert all(points in totals for code, (_, points) in PATTERNS.items())
    assert {1, 2, 4, 5, 6, 7, 15, 320, 400, 480} <= totals
    assert sorted(set(range(-5, 600)) - totals) == [*range(-5, 1), 3, *range(321, 400), *range(401, 480),
                                                    *range(481, 600)]
    chicken = zj("567s123p5m", "5m", ("chi:234m", "pon:999p"), rules=ZungJungRules(bonus_tiles=True), bonus="3g")
    assert chicken.total == 2
    assert max(totals) == max(points for _, points in PATTERNS.values()) > LIMIT


def test_a_value_no_hand_makes_is_named_with_the_nearest_ones():
    assert impossible_total(3) == "no Zung Jung hand adds up to 3 (the nearest are 2 and 4)"
    assert impossible_total(350) == "no Zung Jung hand adds up to 350 (the nearest are 320 and 400)"
    assert impossible_total(481) == "no Zung Jung hand is worth more than 480"
    assert impossible_total(0) == "no Zung Jung hand adds up to 0 (the nearest is 1)"
    assert impossible_total(1) is impossible_total(2) is impossible_total(35) is impossible_total(400) is None


def test_each_pattern_names_itself_with_its_points():
    result = zj("7z123m456p", "7z", ("pon:555z", "pon:666z"))
    named = [(p.code, p.name, p.points) for p in result.patterns]
    assert ("3.2.1", "Little Three Dragons", 40) in named
    assert named.count(("3.1", "Value Honor", 10)) == 2
    assert result.to_json()["patterns"][0].keys() >= {"code", "name", "points"}


def test_freedom_to_count_takes_the_better_arrangement_and_never_mixes_them():
    # 111222333m: three triplets (7.2.1 Three Pure Shifted Triplets 100 + 4.2.2 30 + 1.2 5 = 135) beats
    # three identical sequences (5.1.3 120 + 1.1 5 + 1.2 5 = 130); the text forbids scoring both.
    result = zj("111222333m456p7s", "7s")
    assert result.total == 135
    assert "7.2.1" in codes(result) and "5.1.3" not in codes(result)
    assert result.arrangement.startswith("111m 222m 333m")


def test_a_triplet_completed_by_a_discard_is_not_concealed():
    # "A Triplet or Quad completed by claiming a discard to complete the winning hand is not considered concealed"
    on_discard = zj("222m44p666s789s55m", "4p")
    assert codes(on_discard) == ["1.2", "4.2.1"] and on_discard.total == 10
    self_drawn = zj("222m44p666s789s55m", "4p", self_drawn=True)
    assert codes(self_drawn) == ["1.2", "4.2.2"] and self_drawn.total == 35


def test_the_winning_tile_may_be_counted_in_a_sequence_to_keep_a_triplet_concealed():
    # 111m + 123m won on 1m by discard: put the claimed 1m in the sequence, so 111m stays concealed.
    result = zj("11123m444p666s55s", "1m")
    assert "4.2.2" in codes(result)  # 111m, 444p, 666s all concealed


def test_two_limits():
    # A sum over 320 is cut to 320: 4.2.3 125 + 4.1 30 + 2.1.2 80 + 7.2.2 200 + 1.2 5 = 440.
    capped = zj("1112223334445m", "5m")
    assert capped.total == 320 and capped.limit == "cap"
    # A single pattern of 320 or more is scored alone (the Value Honor and Half Flush are dropped).
    single = zj("123m4z", "4z", ("pon:111z", "pon:222z", "pon:333z"))
    assert single.limit == "single" and [p.name for p in single.patterns] == ["Little Four Winds"]


def test_incidental_bonuses():
    base = ("234m567m345p678s5s", "5s")
    assert codes(zj(*base, self_drawn=True, last_tile=True)) == ["1.1", "1.2", "1.3", "9.1.1"]
    assert codes(zj(*base, last_tile=True)) == ["1.1", "1.2", "1.3", "9.1.2"]
    assert zj("234m567m345p55p67s", "8s", robbing_quad=True).total == 25
    with pytest.raises(InputError, match="cannot hold another"):
        zj(*base, robbing_quad=True)
    assert codes(zj("345p678s234s5m", "5m", ("kan:2222m",), self_drawn=True, replacement=True)) == [
        "1.3", "4.3.1", "9.2"]


def test_blessings_are_always_with_concealed_hand_for_160():
    # 9.4.1/9.4.2: "always scored with 1.2 Concealed Hand so its actual value is 160".
    heaven = zj("123m456m789m234p5p", "5p", self_drawn=True, heaven=True)
    assert codes(heaven) == ["1.1", "1.2", "7.1", "9.4.1"]
    assert sum(p.points for p in heaven.patterns if p.code in ("1.2", "9.4.1")) == 160
    earth = zj("123m456m789m234p5p", "5p", seat_wind=1, earth=True)
    assert codes(earth) == ["1.1", "1.2", "7.1", "9.4.2"] and earth.total == 205


def test_blessings_need_the_dealt_hand():
    with pytest.raises(InputError, match="Blessings of Heaven"):
        zj("345p678s234s5m", "5m", ("closed-kan:2222m",), self_drawn=True, heaven=True)
    with pytest.raises(InputError, match="Blessings of Earth"):
        zj("123m456m789m234p5p", "5p", seat_wind=0, earth=True)


def test_irregular_hands_never_score_concealed_hand():
    assert "1.2" not in codes(zj("2233m4455p6677s8s", "8s"))
    assert "1.2" not in codes(zj("19m19p19s1234567z", "1z"))


def test_seven_pairs_may_hold_four_of_a_kind_not_declared_as_a_quad():
    result = zj("2222m4455p6677s8s", "8s")
    assert codes(result) == ["1.3", "10.2"] and result.total == 35


def test_minimum_to_win():
    chicken = ("567s123p5m", "5m", ("chi:234m", "pon:999p"))
    assert zj(*chicken).valid and zj(*chicken).chicken
    five = ZungJungRules(minimum=5)
    rejected = zj(*chicken, rules=five)
    assert not rejected.valid and "5-point minimum" in rejected.error
    assert zj("345p678s234s5m", "5m", ("kan:2222m",), rules=five).valid  # 10 points


def test_not_a_winning_hand_is_reported_not_raised():
    # "An All Honors hand can only win if it forms a complete regular hand or ... Seven Pairs"
    result = zj("1122334455667z", "6z")
    assert not result.valid and "not a winning hand" in result.error


@pytest.mark.parametrize(
    "concealed, win, melds, how, message",
    [
        ("123m456m789m234p", "5p", (), {}, "must hold 13 tiles"),
        ("1111m456m789m234p", "1m", (), {}, "only four"),
        ("123m456m789m234p5p", "5p", (), {"replacement": True, "self_drawn": True}, "declared quad"),
        ("123m456m789m234p5p", "5p", (), {"robbing_quad": True, "self_drawn": True}, "not a self-draw"),
        ("123m456m789m234p5p", "5p", (), {"bonus": "1f"}, "without bonus tiles"),
        ("123m456m789m234p5p", "5p", (), {"seat_wind": 4}, "seat wind"),
    ],
)
def test_impossible_input_raises_a_clear_error(concealed, win, melds, how, message):
    with pytest.raises(InputError, match=message):
        zj(concealed, win, melds, **how)


@pytest.mark.parametrize(
    "concealed, win, melds, how, message",
    [
        # 9.4.1/9.4.2 are first-turn wins: never on the Seabed, a quad's replacement tile or a robbed quad
        ("123m456p789s111z5p", "5p", (), {"heaven": True, "self_drawn": True, "last_tile": True}, "first-turn win"),
        ("123m456p789m55p23s", "4s", (), {"earth": True, "seat_wind": 1, "last_tile": True}, "first-turn win"),
        ("123m456p789m55p23s", "4s", (), {"earth": True, "seat_wind": 1, "robbing_quad": True}, "first-turn win"),
        # 9.2's tile comes from the Dead Wall, so it is never the Seabed tile of 9.1.1
        ("456p789s23s99m", "1s", ("kan:2222m",), {"self_drawn": True, "last_tile": True, "replacement": True},
         "9.1.1 Last Tile Draw and 9.2"),
        # 9.1.2 is a win on the discard after the Seabed; a robbed tile (9.3) is no discard
        ("456p789s23s99m", "1s", ("pon:222m",), {"robbing_quad": True, "last_tile": True},
         "9.1.2 Last Tile Claim and 9.3"),
    ],
)
def test_win_situations_that_cannot_happen_together_are_refused(concealed, win, melds, how, message):
    with pytest.raises(InputError, match=message):
        zj(concealed, win, melds, **how)


def test_bonus_tiles_are_cumulative():
    # 11.0 text: a bouquet of four flowers "scores 10 + 4 + 2 + 2 + 2 = 20"; all eight score 40.
    flowers = parse_tiles("1234f", allow_bonus=True)
    assert sum(p.points for p in bonus_patterns(flowers, seat_wind=0)) == 20
    assert sum(p.points for p in bonus_patterns(parse_tiles("1234f1234g", allow_bonus=True), seat_wind=2)) == 40
    # "the point values ... may all be halved"
    assert sum(p.points for p in bonus_patterns(flowers, seat_wind=0, halve=True)) == 10


def test_bonus_tiles_end_the_chicken_and_do_not_count_toward_the_minimum():
    with_bonus = ZungJungRules(bonus_tiles=True)
    chicken = ("567s123p5m", "5m", ("chi:234m", "pon:999p"))
    result = zj(*chicken, rules=with_bonus, bonus="1f3g")  # East: 1f is the seat flower (4), 3g a guest (2)
    assert not result.chicken and result.total == 6 and result.pattern_points == 0
    assert sorted((p.code, p.points) for p in result.patterns) == [("11.1.1", 2), ("11.1.2", 4)]
    strict = ZungJungRules(bonus_tiles=True, minimum=5)
    rejected = zj(*chicken, rules=strict, bonus="1234f")
    assert not rejected.valid and "bonus tiles do not count" in rejected.error


# --- payoff ---------------------------------------------------------------------------------------


def test_standard_payoff_the_texts_70_point_example():
    # "If a 70-point hand wins on discard, the two non-discarders each pay 25 points, and the discarder
    # pays 160 points. The winner receives 210 points total (3 x 70)."
    pay = zungjung_payoff(70, winner=0, self_drawn=False, discarder=2)
    assert pay.paid == (0, 25, 160, 25)
    assert pay.deltas == (210, -25, -160, -25)
    assert pay.responsible == 2


def test_standard_payoff_small_hands_and_self_draws_are_split_equally():
    assert zungjung_payoff(25, winner=1, self_drawn=False, discarder=0).paid == (25, 0, 25, 25)
    assert zungjung_payoff(70, winner=1, self_drawn=True).paid == (70, 0, 70, 70)
    assert zungjung_payoff(26, winner=3, self_drawn=False, discarder=0).paid == (28, 25, 25, 0)


def test_same_round_immunity():
    # Responsibility "goes to whoever first discarded that tile in the round"
    moved = zungjung_payoff(70, winner=0, self_drawn=False, discarder=2, first_discarder=1)
    assert moved.paid == (0, 160, 25, 25) and moved.responsible == 1
    # "If the winner themself discarded it first in the round then no one is responsible"
    nobody = zungjung_payoff(70, winner=0, self_drawn=False, discarder=2, first_discarder=0)
    assert nobody.paid == (0, 70, 70, 70) and nobody.responsible is None


def test_uniform_payoff_everybody_pays_the_value():
    pay = zungjung_payoff(70, winner=0, self_drawn=False, discarder=2, scheme="uniform")
    assert pay.paid == (0, 70, 70, 70) and pay.deltas[0] == 210


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"self_drawn": False}, "needs the discarder"),
        ({"self_drawn": False, "discarder": 0}, "own discard"),
        ({"self_drawn": True, "discarder": 1}, "no discarder"),
        ({"self_drawn": True, "scheme": "flat"}, "unknown Zung Jung payoff"),
    ],
)
def test_payoff_rejects_impossible_wins(kwargs, message):
    with pytest.raises(InputError, match=message):
        zungjung_payoff(30, winner=0, **kwargs)

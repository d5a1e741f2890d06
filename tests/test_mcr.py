"""MCR scoring against section 4 of shared/rules/sdmc-zungjung-riichi-mcr.txt, through PyMahjongGB.

Pattern numbers, names and values are the club's list (the "N-Point Patterns" headings). The text's
example hands are pictures except the ones it writes out in words; those are scored here with the
text cited. PyMahjongGB is in the `test` extra, so these tests run in CI.
"""

import sys

import pytest

from table.errors import InputError
from table.hand import parse_hand
from table.mcr import _CALC_NAMES, FANS, MCRRules, MCRWin, mcr_payment, score_mcr
from table.tiles import parse_tiles

pytest.importorskip("MahjongGB", reason="PyMahjongGB (the jantaku[mcr] extra) is not installed")


def mcr(concealed, win, melds=(), rules=None, **how):
    bonus = tuple(parse_tiles(how.pop("bonus"), allow_bonus=True)) if "bonus" in how else ()
    return score_mcr(parse_hand(concealed, win, melds), MCRWin(bonus=bonus, **how), rules)


def numbers(result):
    return sorted(f.number for f in result.fans for _ in range(f.count))


def test_the_club_list_has_81_patterns_with_the_headed_values():
    assert len(FANS) == 81
    by_number = {n: (name, pts) for n, name, pts in FANS}
    assert by_number[1] == ("Big Four Winds", 88)
    assert by_number[13] == ("Pure Terminal Sequences", 64)
    assert by_number[16] == ("Four Pure Shifted Sequences", 32)
    assert by_number[38] == ("Big Three Winds", 12)
    assert by_number[48] == ("Two Concealed Quads", 8)  # listed under "8-Point Patterns"
    assert by_number[49] == ("All Triplets", 6)
    assert by_number[58] == ("Last Tile", 4)
    assert by_number[68] == ("All Simples", 2)
    assert by_number[81] == ("Flower Tiles", 1)
    tiers = [88] * 7 + [64] * 6 + [48] * 2 + [32] * 3 + [24] * 9 + [16] * 6 + [12] * 5 + [8] * 10 + [6] * 6
    tiers += [4] * 4 + [2] * 10 + [1] * 13
    assert [pts for _, _, pts in FANS] == tiers
    # every fan the calculator can report has a club number, and each number is reached once
    assert sorted(_CALC_NAMES.values()) == list(range(1, 82))


# One hand per pattern (hands are ours; the text's are pictures): the fan is found, under the club's number,
# name and value, and the hand's total is the sum of its fans.
PATTERN_HANDS = [
    ("3 All Green", "223344s666s888s6z", "6z", (), {}),
    ("5 Four Quads", "1m", "1m", ("kan:2222p", "kan:3333s", "kan:4444m", "closed-kan:5555p"), {}),
    ("9 Little Four Winds", "123m4z", "4z", ("pon:111z", "pon:222z", "pon:333z"), {}),
    ("10 Little Three Dragons", "7z123m456p", "7z", ("pon:555z", "pon:666z"), {}),
    ("11 All Honors", "555z666z7z", "7z", ("pon:111z", "pon:222z"), {}),
    ("12 Four Concealed Triplets", "222m444p666s888s5m", "5m", (), {"self_drawn": True}),
    ("13 Pure Terminal Sequences", "1122337788995s", "5s", (), {}),
    ("14 Quadruple Sequence", "234m234m5p", "5p", ("chi:234m", "chi:234m"), {}),
    ("15 Four Pure Shifted Triplets", "9m", "9m", ("pon:222p", "pon:333p", "pon:444p", "pon:555p"), {}),
    ("17 Three Quads", "678s5m", "5m", ("kan:2222m", "kan:3333p", "kan:4444s"), {}),
    ("18 All Terminals and Honors", "111m999p999s1s", "1s", ("pon:111z",), {}),
    ("19 Seven Pairs", "2233m4455p6677s8s", "8s", (), {}),
    ("20 Greater Honors and Knitted Tiles", "147m258p1234567z", "3s", (), {}),
    ("21 All Even Triplets", "222m444p666s88s", "8s", ("pon:444m",), {}),
    ("22 Full Flush", "11123345567888s", "2s", (), {}),
    ("23 Pure Triple Sequence", "123m456p7s", "7s", ("chi:123m", "chi:123m"), {}),
    ("24 Three Pure Shifted Triplets", "111222333p456m7z", "7z", (), {}),
    ("25 Upper Three", "789m789p789s777m8s", "8s", (), {}),
    ("26 Middle Three", "456m456p456s555m4s", "4s", (), {}),
    ("27 Lower Three", "123m123p123s111m2s", "2s", (), {}),
    ("29 Three-Suited Terminal Sequences", "123789m123789p5s", "5s", (), {}),
    ("31 All Fives", "345m456p567s555m5p", "5p", (), {}),
    ("32 Triple Triplet", "555s123s8s", "8s", ("pon:555m", "pon:555p"), {}),
    ("33 Three Concealed Triplets", "222m444p666s789s5m", "5m", (), {}),
    ("34 Lesser Honors and Knitted Tiles", "147m258p369s1235z", "6z", (), {}),
    ("35 Knitted Straight", "147m258p369s11z", "1z", ("pon:222z",), {}),
    ("36 Upper Four", "678m789p666s999s7m", "7m", (), {}),
    ("37 Lower Four", "123m234p444s111s3m", "3m", (), {}),
    ("38 Big Three Winds", "123m5p", "5p", ("pon:222z", "pon:333z", "pon:444z"), {}),
    ("39 Mixed Straight", "123m456p789s11z", "1z", ("pon:777z",), {}),
    ("40 Reversible Tiles", "123p345p888s999p5z", "5z", (), {}),
    ("41 Mixed Triple Sequence", "345m345p345s789s5z", "5z", (), {}),
    ("42 Mixed Shifted Triplets", "5z", "5z", ("pon:222m", "pon:333p", "pon:444s", "chi:789m"), {}),
    ("49 All Triplets", "444s999m5s", "5s", ("pon:222m", "pon:333p"), {}),
    ("50 Half Flush", "123m456m789m1z", "1z", ("pon:222z",), {}),
    ("51 Mixed Shifted Sequences", "789s1z", "1z", ("chi:123m", "chi:234p", "chi:345s"), {}),
    ("52 All Types", "123m456p789s11z", "1z", ("pon:777z",), {}),
    ("53 Melded Hand", "5p", "5p", ("chi:123m", "chi:234p", "chi:345s", "pon:777z"), {}),
    ("54 Two Dragon Triplets", "123m456p99s", "9s", ("pon:555z", "pon:666z"), {}),
    ("57 Two Melded Quads", "678s234s5m", "5m", ("kan:2222m", "kan:3333p"), {}),
    ("59 Dragon Triplet", "123m456p789p9s", "9s", ("pon:555z",), {}),
    ("60 Table Wind", "123m456p789p9s", "9s", ("pon:222z",), {"prevalent_wind": 1, "seat_wind": 0}),
    ("61 Seat Wind", "123m456p789p9s", "9s", ("pon:333z",), {"seat_wind": 2}),
    ("64 Tile Hog", "111m123m456p789s5s", "5s", (), {}),
    ("65 Double Triplet", "444s999m5s", "5s", ("pon:222m", "pon:222p"), {}),
    ("68 All Simples", "234m567m345p678s5s", "5s", (), {}),
    ("71 Short Straight", "123m456m9s", "9s", ("pon:777z", "chi:345p"), {}),
    ("75 One Voided Suit", "123m456m789p99p", "9p", ("pon:777z",), {}),
    ("77 Edge Wait", "12m456m789p11p", "3m", ("pon:777z",), {}),
    ("78 Closed Wait", "13m456m789p11p", "2m", ("pon:777z",), {}),
]


@pytest.mark.parametrize("label, concealed, win, melds, how", PATTERN_HANDS, ids=[h[0] for h in PATTERN_HANDS])
def test_each_pattern_under_its_club_number_and_value(label, concealed, win, melds, how):
    number = int(label.split()[0])
    name, points = {n: (nm, pts) for n, nm, pts in FANS}[number]
    assert label.split(" ", 1)[1] == name
    result = mcr(concealed, win, melds, **how)
    found = [f for f in result.fans if f.number == number]
    assert found and found[0].name == name and found[0].points == points
    assert result.total == sum(f.total for f in result.fans)
    assert all(1 <= f.number <= 81 for f in result.fans)


def test_exclusionary_rule_example_from_the_text():
    # "Dot123, Bam123, Dot123, Bam789, Char11 ... would still be eligible for patterns 55, Outside Hand,
    # and 63, All Sequences", besides 69 Pure Double Sequence (Dot123 x2) and 70 Mixed Double Sequence.
    # Won on a discard of the 1m: + 62 Concealed Hand, 72 Two Terminal Sequences (Bam123 + Bam789) and
    # 79 Single Wait. 4 + 2 + 1 + 1 + 2 + 1 + 1 = 12.
    result = mcr("123p123s123p789s1m", "1m")
    assert {55, 63, 69, 70} <= set(numbers(result))
    assert numbers(result) == [55, 62, 63, 69, 70, 72, 79]
    assert result.total == 12 and result.valid
    assert numbers(result).count(70) == 1  # the non-identical principle: Bam123 is not paired twice


@pytest.mark.parametrize(
    "concealed, win",
    [
        # 16: "Dot123, Dot234, Dot345, Dot456, Bam55 and Dot123, Dot345, Dot567, Dot789, Char77 both are eligible"
        ("123p234p345p456p5s", "5s"),
        ("123p345p567p789p7m", "7m"),
    ],
)
def test_four_pure_shifted_sequences_text_examples(concealed, win):
    result = mcr(concealed, win)
    assert 16 in numbers(result)
    assert next(f for f in result.fans if f.number == 16).points == 32


@pytest.mark.parametrize(
    "concealed, win",
    [
        # 30: "Dot123, Dot234, Dot345, Dot999, Bam55 and Dot123, Dot345, Dot567, Bam999, Char77 both are eligible"
        ("123p234p345p999p5s", "5s"),
        ("123p345p567p999s7m", "7m"),
    ],
)
def test_three_pure_shifted_sequences_text_examples(concealed, win):
    result = mcr(concealed, win)
    assert 30 in numbers(result)
    assert next(f for f in result.fans if f.number == 30).points == 16


def test_research_demo_hand_scores_24():
    # W1-W9 T2T3T4, single wait on B5, self-drawn, one flower: 28 Pure Straight 16 + 56 Fully Concealed 4
    # + 63 All Sequences 2 + 79 Single Wait 1 + 81 Flower 1 = 24.
    result = mcr("123456789m234s5p", "5p", self_drawn=True, bonus="1f")
    assert numbers(result) == [28, 56, 63, 79, 81]
    assert result.total == 24 and result.flowers == 1 and result.fan_points == 23


def test_non_repeat_principle_all_even_triplets_without_all_triplets():
    # "pattern 21, All Even Triplets, cannot be formed without pattern 49, All Triplets ... may not be scored together"
    result = mcr("222m444p666s88s", "8s", ("pon:444m",))
    assert 21 in numbers(result) and 49 not in numbers(result)


def test_non_separation_principle_triple_sequence_or_shifted_triplets_not_both():
    # "pattern 23, Pure Triple Sequence, and pattern 24, Pure Shifted Triplets ... may not be scored together"
    result = mcr("111222333p456m7z", "7z")
    assert len({23, 24} & set(numbers(result))) == 1


@pytest.mark.parametrize(
    "concealed, win, melds, how, present, excluded",
    [
        # 1 Big Four Winds excludes 38, 49, 60, 61, 73
        ("5m", "5m", ("pon:111z", "pon:222z", "pon:333z", "pon:444z"), {}, 1, {38, 49, 60, 61, 73}),
        # 7 Thirteen Orphans excludes 18, 52, 62, 79
        ("19m19p19s1234567z", "1z", (), {}, 7, {18, 52, 62, 79}),
        # 4 Nine Gates excludes 22, 62, 73, 76 (won on a 3: no terminal triplet is left over; see below)
        ("1112345678999m", "3m", (), {}, 4, {22, 62, 73, 76}),
        # 8 All Terminals excludes 18, 49, 55, 65, 73, 76
        ("111m999m111p999p1s", "1s", (), {"self_drawn": True}, 8, {18, 49, 55, 65, 73, 76}),
        # 6 Seven Shifted Pairs excludes 19, 22, 62, 76, 79
        ("1122334455667s", "7s", (), {}, 6, {19, 22, 62, 76, 79}),
        # 2 Big Three Dragons excludes 54, 59
        ("123m5p", "5p", ("pon:555z", "pon:666z", "pon:777z"), {}, 2, {54, 59}),
    ],
)
def test_incompatible_patterns_are_not_scored(concealed, win, melds, how, present, excluded):
    result = mcr(concealed, win, melds, **how)
    assert present in numbers(result)
    assert not excluded & set(numbers(result))


def test_chicken_hand_is_exactly_the_minimum():
    # 43: "A hand otherwise worth 0 points, not including Flower tiles" -> 8 points
    # a two-sided wait (78p on 6p/9p), a non-value pair, three suits and an honour: nothing else applies
    result = mcr("11z78p", "9p", ("chi:234m", "pon:666p", "chi:567s"), seat_wind=1, prevalent_wind=1)
    assert numbers(result) == [43] and result.total == 8 and result.valid


def test_eight_point_minimum_ignores_flowers():
    # "the patterns in the hand must add up to at least 8 points, excluding Flower Tiles"
    result = mcr("345p678s234s5m", "5m", ("chi:234m",), bonus="1f2f3g")
    assert result.fan_points < 8 and result.total == result.fan_points + 3
    assert not result.valid and "8-fan minimum" in result.error
    # the beginner sub-format lowers the threshold to 6
    beginner = mcr("345p678s234s5m", "5m", ("chi:234m",), rules=MCRRules(minimum=result.fan_points))
    assert beginner.valid


def test_club_values_for_quads():
    # 48 Two Concealed Quads is an 8-point pattern in the club's list (the calculator says 6).
    two_concealed = ("1m", "1m", ("closed-kan:2222p", "closed-kan:3333s", "pon:999m", "chi:789s"))
    club = mcr(*two_concealed, self_drawn=True)
    assert (48, 8) in [(f.number, f.points) for f in club.fans]
    official = mcr(*two_concealed, self_drawn=True, rules=MCRRules(club_values=False))
    assert club.total - official.total == 2
    # one concealed and one melded quad: 67 Concealed Quad + 74 Melded Quad (the club has no 5-point pattern)
    mixed = mcr("1m", "1m", ("closed-kan:2222p", "kan:3333s", "pon:999m", "chi:789s"), self_drawn=True)
    assert {67, 74} <= set(numbers(mixed)) and 0 not in numbers(mixed)


def test_win_situations_map_to_their_patterns():
    base = ("123456789m55p23s", "4s")
    assert 44 in numbers(mcr(*base, self_drawn=True, wall_last=True))
    assert 45 in numbers(mcr(*base, wall_last=True))
    assert 47 in numbers(mcr(*base, robbing_quad=True))
    assert 58 in numbers(mcr(*base, last_of_kind=True))
    with pytest.raises(InputError, match="cannot hold another"):
        mcr("123456789m234s5p", "5p", robbing_quad=True)
    assert 46 in numbers(mcr("123456789m5p", "5p", ("closed-kan:2222s",), self_drawn=True, replacement=True))


def test_out_with_the_replacement_tile_after_a_flower():
    """The club's 46: "Winning on the Replacement Tile drawn from a Quad or Bonus Tile". The calculator gives it only
    with a quad, so a flower's replacement adds it (in place of 80 Self-Drawn, as beside a quad); with neither a
    quad nor a flower it is still refused."""
    concealed = mcr("234m456p678s2p333s", "2p", self_drawn=True, replacement=True, bonus="1f")
    assert numbers(concealed) == [46, 56, 68, 79, 81] and concealed.valid and concealed.total == 16
    open_hand = mcr("234m456p2p", "2p", ("pon:333s", "chi:678s"), self_drawn=True, replacement=True, bonus="2g")
    assert numbers(open_hand) == [46, 68, 79, 81]
    with pytest.raises(InputError, match="needs a declared quad or a declared flower"):
        mcr("234m456p678s2p333s", "2p", self_drawn=True, replacement=True)


def test_last_tile_is_refused_when_a_copy_is_hidden_or_the_quad_was_robbed():
    # The club's 58: "the last of its kind based on visible discards and melds". The calculator drops the
    # pattern silently when the winner holds a copy concealed; the player is told instead.
    with pytest.raises(InputError, match="holds one concealed"):
        mcr("123456789m2z111z", "2z", last_of_kind=True)
    assert 58 in numbers(mcr("45m456p789s77z", "3m", ("pon:333m",), last_of_kind=True))
    with pytest.raises(InputError, match="Robbing the Quad already"):
        mcr("123456789m55p23s", "4s", robbing_quad=True, last_of_kind=True)


def test_nine_gates_keeps_one_terminal_triplet_as_the_calculator_reads_the_rule():
    # Won on a 5 the hand is 111 234 55 678 999: the calculator excludes one Terminal/Honor Triplet for
    # Nine Gates (the official book's reading) and scores the other, plus 66 Two Concealed Triplets.
    result = mcr("1112345678999m", "5m")
    assert numbers(result) == [4, 66, 73] and result.total == 91


def test_not_a_winning_hand_is_reported_not_raised():
    result = mcr("123456789m234s6p", "5p")
    assert not result.valid and "not a winning hand" in result.error


@pytest.mark.parametrize(
    "concealed, win, melds, how, message",
    [
        ("123456789m234s", "5p", (), {}, "must hold 13 tiles"),
        ("111122223333m4p", "4p", (), {"seat_wind": 5}, "seat wind"),
        ("123456789m234s5p", "5p", (), {"replacement": True}, "self-draw"),
        ("123456789m234s5p", "5p", (), {"bonus": "1f1f"}, "listed twice"),
    ],
)
def test_impossible_input_raises_a_clear_error(concealed, win, melds, how, message):
    with pytest.raises(InputError, match=message):
        mcr(concealed, win, melds, **how)


def test_last_tile_claim_and_robbing_the_quad_are_refused_together():
    # 45 is a win on the discard after the Seabed tile; the tile robbed for 47 is no discard
    with pytest.raises(InputError, match="45 Last Tile Claim and 47 Robbing the Quad"):
        mcr("456p789s23s99m", "1s", ("pon:222m",), robbing_quad=True, wall_last=True)


def test_last_tile_draw_on_a_replacement_tile_is_kept():
    # MCR has no Dead Wall ("all tiles in the wall have the potential to be drawn"): a replacement tile drawn
    # from the back end can be the last tile in the Wall, so 44 and 46 may both apply
    result = mcr("456p789s23s99m", "1s", ("kan:2222m",), self_drawn=True, wall_last=True, replacement=True)
    assert result.valid and {44, 46} <= set(numbers(result))


def test_missing_extra_gives_a_clear_message(monkeypatch):
    monkeypatch.setitem(sys.modules, "MahjongGB", None)  # import now fails as if not installed
    with pytest.raises(InputError, match=r"jantaku\[mcr\]"):
        mcr("123456789m234s5p", "5p")


# --- payments ---------------------------------------------------------------------------------------


def test_payment_on_a_discard():
    # "all players pay the winner 8 points ... the discarding player pays the winner the value of their hand,
    # in addition to the baseline payment"
    pay = mcr_payment(24, winner=0, self_drawn=False, discarder=2)
    assert pay.paid == (0, 8, 32, 8) and pay.deltas == (48, -8, -32, -8)


def test_payment_on_a_self_draw():
    # "all other players pay the winning player the winning hand's value on top of the baseline payment"
    pay = mcr_payment(24, winner=1, self_drawn=True)
    assert pay.paid == (32, 0, 32, 32) and pay.deltas[1] == 96


def test_beginner_sub_format_has_no_base_payment():
    # "a beginner-friendly subformat of MCR that ... removes the baseline payment"
    assert mcr_payment(6, winner=0, self_drawn=False, discarder=3, base=0).paid == (0, 0, 0, 6)


def test_the_beginner_minimum_of_6_brings_the_beginner_payment():
    # the sub-format "removes the baseline payment, and lowers the required win threshold to 6 points": --minimum 6
    # names it, so its rules carry no base; any other minimum keeps the 8
    assert MCRRules(minimum=6).base == 0
    assert MCRRules().base == MCRRules(minimum=0).base == 8


def test_payment_rejects_impossible_wins():
    with pytest.raises(InputError, match="needs the discarder"):
        mcr_payment(8, winner=0, self_drawn=False)
    with pytest.raises(InputError, match="own discard"):
        mcr_payment(8, winner=0, self_drawn=False, discarder=0)

"""The pure reducer: money flow, dealer rotation, end of game and settlement under each preset.

Hands are entered as han/fu (priced by the real scoring engine, `table.payments`) or as a yakuman
count; every expected number below is worked out by hand in the comments.
"""

from __future__ import annotations

import pytest

from table.errors import InputError
from table.events import (
    AbortiveDraw,
    Adjustment,
    Chombo,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    HandValue,
    Pao,
    Redo,
    RiichiDeclared,
    Ron,
    Tsumo,
    Undo,
    Win,
    event_from_json,
)
from table.game import apply, fold, history, resolve

PLAYERS = ("Ann", "Bob", "Cid", "Dee")
ANN, BOB, CID, DEE = range(4)


def game(preset: str, *events) -> object:
    return fold([GameStarted(PLAYERS, preset), *events])


def ron(discarder: int, *wins: Win) -> Ron:
    return Ron(discarder, wins)


def nets(state) -> dict[str, float]:
    return {s.name: s.net for s in state.standings}


# -- the NARO-1 worked example (§3.4.1) ---------------------------------------------------------------


def test_naro1_scoring_sheet_example():
    # Raw 14600/22300/36900/46200 from a 30000 start; South has a 10000 chombo penalty that counts before
    # placement, so South drops to 4th: East -15.4 - 5 = -20.4, South -7.7 - 10 - 15 = -32.7,
    # West +6.9 + 5 = +11.9, North +16.2 + 15 = +31.2.
    state = game(
        "naro1",
        Adjustment((-15400, -7700, 6900, 16200), "raw scores from the sheet"),
        Chombo(BOB),
        GameEnded("time called"),
    )
    assert state.points == (14600, 22300, 36900, 46200)
    assert nets(state) == {"Ann": -20.4, "Bob": -32.7, "Cid": 11.9, "Dee": 31.2}
    ranks = {s.name: s.rank for s in state.standings}
    assert ranks == {"Dee": 1, "Cid": 2, "Ann": 3, "Bob": 4}
    bob = next(s for s in state.standings if s.name == "Bob")
    assert (bob.raw, bob.uma, bob.penalty, bob.net_points) == (22300, -15000, -10000, -32700)


# -- multiple ron ---------------------------------------------------------------------------------------


def test_double_ron_under_tenhou_gives_counters_and_sticks_to_the_nearest_winner():
    state = game(
        "tenhou",
        ExhaustiveDraw(tenpai=(ANN,)),  # Ann (dealer) tenpai alone: +3000, others -1000; renchan, honba 1
        RiichiDeclared(CID),  # Cid 24000 - 1000 = 23000, one stick on the table
        # Bob discards; Ann (dealer, 2 han 30 fu = 2900) and Cid (3 han 30 fu = 3900) both win.
        # Nearest to Bob's right is Cid: she alone takes the 300 honba and the 1000 stick.
        ron(BOB, Win(ANN, han=2, fu=30), Win(CID, han=3, fu=30)),
    )
    # Ann 28000 + 2900; Bob 24000 - 2900 - 3900 - 300; Cid 23000 + 3900 + 300 + 1000; Dee unchanged.
    assert state.points == (30900, 16900, 28200, 24000)
    assert state.last_hand.winners == (CID, ANN)
    assert (state.dealer, state.round_name, state.honba, state.pot) == (ANN, "East 1", 2, 0)  # dealer won


def test_triple_ron_is_an_abortive_draw_under_tenhou_but_pays_under_mahjongsoul():
    wins = (Win(ANN, han=1, fu=30), Win(CID, han=1, fu=30), Win(DEE, han=1, fu=30))
    tenhou = game("tenhou", RiichiDeclared(ANN), Ron(BOB, wins))
    assert tenhou.last_hand.kind == "abortive_draw" and tenhou.last_hand.reason == "triple-ron"
    assert tenhou.points == (24000, 25000, 25000, 25000)  # no payment, the stick stays
    assert (tenhou.dealer, tenhou.honba, tenhou.riichi_sticks) == (ANN, 1, 1)
    soul = game("mahjongsoul", RiichiDeclared(ANN), Ron(BOB, wins))
    # Bob pays 1500 (dealer) + 1000 + 1000; Cid is nearest to Bob's right and takes Ann's stick.
    assert soul.points == (24000 + 1500, 25000 - 3500, 25000 + 1000 + 1000, 25000 + 1000)


@pytest.mark.parametrize("preset,start", [("wrc", 30000), ("mleague", 25000)])
def test_head_bump_only_the_nearest_winner_scores(preset, start):
    # Dee discards; Ann and Bob both call ron. Ann sits right after Dee, so Ann takes it (atamahane).
    state = game(
        preset,
        RiichiDeclared(BOB),
        ron(DEE, Win(BOB, han=3, fu=30), Win(ANN, han=1, fu=30)),  # Ann is the dealer: 1 han 30 fu = 1500
    )
    assert state.last_hand.winners == (ANN,) and state.last_hand.bumped == (BOB,)
    # Ann + 1500 + Bob's riichi stick; Bob's 3900 is never paid.
    assert state.points == (start + 2500, start - 1000, start, start - 1500)
    assert state.dealer == ANN and state.honba == 1


def test_club_double_ron_pays_counters_to_each_and_winners_keep_their_own_stick():
    state = game(
        "club",
        ExhaustiveDraw(tenpai=(ANN, BOB)),  # +1500 to Ann, Bob; -1500 Cid, Dee; honba 1
        RiichiDeclared(BOB),
        RiichiDeclared(DEE),
        ron(CID, Win(DEE, han=1, fu=30), Win(BOB, han=2, fu=30)),
    )
    # Cid pays Dee 1000 + 300 and Bob 2000 + 300. Bob takes back his own stick; Dee (nearest to Cid's right)
    # takes back hers too, so nothing else moves.
    assert state.points == (26500, 26500 - 1000 + 2300 + 1000, 23500 - 3600, 23500 - 1000 + 1300 + 1000)
    assert state.pot == 0 and state.dealer == BOB


# -- pao -----------------------------------------------------------------------------------------------


def test_pao_on_tsumo_liable_seat_pays_the_whole_yakuman_and_counters():
    state = game(
        "tenhou",
        ExhaustiveDraw(tenpai=(ANN,)),  # Ann +3000, others -1000; honba 1
        Pao(CID, DEE),  # Dee fed Cid's third dragon
        Tsumo(Win(CID, yakuman=1)),
    )
    # Non-dealer yakuman 32000, all from Dee, plus the 300 honba.
    assert state.points == (28000, 24000, 24000 + 32300, 24000 - 32300)
    assert state.over and state.over_reason.startswith("bust")  # Dee below zero under tenhou


def test_pao_on_tsumo_of_a_double_yakuman_the_liable_seat_pays_one_and_shares_the_rest():
    # Tenhou stacks yakuman: Dee pays the first 32000 and, like Bob, a non-dealer's share of the second.
    state = game("tenhou", Pao(CID, DEE), Tsumo(Win(CID, yakuman=2)))
    assert state.points == (25000 - 16000, 25000 - 8000, 25000 + 64000, 25000 - 32000 - 8000)
    # EMA pays a single yakuman whatever is entered: all of it from the liable seat, nothing from the others.
    state = game("ema", Pao(CID, DEE), Tsumo(Win(CID, yakuman=2)))
    assert state.points == (30000, 30000, 30000 + 32000, 30000 - 32000)


def test_pao_on_ron_splits_with_the_discarder():
    state = game("mleague", Pao(CID, DEE), ron(BOB, Win(CID, yakuman=1)))
    assert state.points == (25000, 25000 - 16000, 25000 + 32000, 25000 - 16000)
    liable_discards = game("mleague", Pao(CID, DEE), ron(DEE, Win(CID, yakuman=1)))
    assert liable_discards.points == (25000, 25000, 57000, -7000)


def test_who_pays_the_counters_of_a_pao_ron_follows_the_preset():
    """Sources differ: the discarder pays them with its half (Japanese mahjong wiki, 2013; mleague here), or the
    liable seat does ("riichi in brief", riichi.wiki now; mahjongsoul here). A yakuman ron pays 32000 either way."""
    draw = ExhaustiveDraw(tenpai=(ANN,))  # Ann +3000, others -1000; honba 1
    discarder_pays = game("mleague", draw, Pao(CID, DEE), ron(BOB, Win(CID, yakuman=1)))
    assert discarder_pays.points == (28000, 24000 - 16300, 24000 + 32300, 24000 - 16000)
    liable_pays = game("mahjongsoul", draw, Pao(CID, DEE), ron(BOB, Win(CID, yakuman=1)))
    assert liable_pays.points == (28000, 24000 - 16000, 24000 + 32300, 24000 - 16300)


def test_pao_does_not_apply_to_a_hand_without_yakuman():
    state = game("mleague", Pao(CID, DEE), ron(BOB, Win(CID, han=3, fu=30)))
    assert state.points == (25000, 21100, 28900, 25000)


# -- busting and the end of the game ---------------------------------------------------------------------


def test_busting_under_tenhou_ends_the_game_and_zero_is_not_a_bust():
    zero = game("tenhou", Adjustment((0, -19200, 19200, 0), "setup"), ron(BOB, Win(ANN, han=3, fu=30)))
    assert zero.points[BOB] == 0 and not zero.over  # 5800 - 5800 = 0: still in the game
    bust = game("tenhou", Adjustment((0, -20000, 20000, 0), "setup"), ron(BOB, Win(ANN, han=3, fu=30)))
    assert bust.points[BOB] == -800 and bust.over and bust.over_reason == "bust: Bob below zero"
    assert (bust.round_name, bust.dealer, bust.honba) == ("East 1", ANN, 0)  # no repeat of East 1 to show
    assert [s.name for s in bust.standings] == ["Cid", "Ann", "Dee", "Bob"]
    # Cid 45000: +15 +20 uma +20 oka = +55; Ann 30800: +0.8 +10; Dee -5 -10; Bob -0.8 - 30 - 20.
    assert nets(bust) == {"Cid": 55.0, "Ann": 10.8, "Dee": -15.0, "Bob": -50.8}
    with pytest.raises(InputError, match="the game is over"):
        apply(bust, RiichiDeclared(ANN))
    # The same hand under mleague (no busting) just goes on.
    assert not game("mleague", Adjustment((0, -20000, 20000, 0), "setup"), ron(BOB, Win(ANN, han=3, fu=30))).over


def _to_south_4() -> list:
    return [ExhaustiveDraw()] * 7  # all noten: the deal passes every hand, counters pile up


def test_south_4_ends_a_hanchan_and_honba_follow_the_draws():
    state = game("mleague", *_to_south_4())
    assert (state.round_name, state.honba, state.dealer) == ("South 4", 7, DEE)
    assert not state.over
    over = apply(state, ExhaustiveDraw())
    assert over.over and over.over_reason == "South 4 finished"
    assert (over.round_name, over.honba, over.dealer) == ("South 4", 7, DEE)  # the hand that ended it, not West 1
    # Everyone 25000, tie split under mleague: (30+10-10-30)/4 = 0 uma, oka 20000 shared by all four.
    assert {s.rank for s in over.standings} == {1}
    assert nets(over) == {"Ann": 0.0, "Bob": 0.0, "Cid": 0.0, "Dee": 0.0}
    # Fixed (an acceptance run): three tied for first split 30+10-10 uma and 20000 oka: 16.667 each, where the
    # odd point's seat order had made it 16.667, 16.667 and 16.666 (the point columns still add up whole).
    three = game("mleague", Adjustment((5000, 5000, 5000, -15000), "setup"), GameEnded())
    assert nets(three) == {"Ann": 16.667, "Bob": 16.667, "Cid": 16.667, "Dee": -50.0}
    assert sum(s.net_points for s in three.standings) == 0


def test_agari_yame_tenhou_dealer_first_in_the_last_hand_ends_it():
    lead = Adjustment((-5000, -5000, -5000, 15000), "setup")
    state = game("tenhou", *_to_south_4(), lead, Tsumo(Win(DEE, han=1, fu=30)))
    # Dealer tsumo 500 all plus 7 honba (100 each per honba): 1200 from each.
    assert state.points == (18800, 18800, 18800, 43600)
    assert state.over and state.over_reason.startswith("agari-yame")
    tenpai = game("tenhou", *_to_south_4(), lead, ExhaustiveDraw(tenpai=(DEE,)))
    assert tenpai.over and tenpai.over_reason.startswith("tenpai-yame")
    # M-League has no agari-yame: the dealer's repeat goes on.
    goes_on = game("mleague", *_to_south_4(), lead, Tsumo(Win(DEE, han=1, fu=30)))
    assert not goes_on.over and (goes_on.round_name, goes_on.honba) == ("South 4", 8)


def test_tenhou_plays_into_the_west_round_until_someone_reaches_30000():
    west = game("tenhou", *_to_south_4(), ExhaustiveDraw())
    assert not west.over and west.round_name == "West 1"
    still = apply(west, ExhaustiveDraw(tenpai=(ANN,)))  # Ann 28000: nobody at 30000 yet, Ann repeats
    assert not still.over and (still.round_name, still.honba) == ("West 1", 9)
    done = apply(still, ExhaustiveDraw(tenpai=(ANN, BOB)))  # Ann 28000 + 1500 = 29500: still short
    assert not done.over and done.points == (29500, 25500, 22500, 22500)
    end = apply(done, ron(CID, Win(ANN, han=1, fu=30)))  # 29500 + 1500 (dealer) + 10 honba x 300 = 34000
    assert end.points[ANN] == 34000 and end.over and end.over_reason.startswith("West round")
    assert game("mleague", *_to_south_4(), ExhaustiveDraw()).over  # no West round there
    # Fixed (an acceptance run): a chombo is no hand (club §3.4), so one that pays Bob past 30000 ends nothing;
    # the redeal is played, and the game ends after it.
    paid = apply(done, Chombo(DEE))  # reverse mangan: Dee pays 4000 to the dealer Ann, 2000 to Bob and Cid
    assert paid.points == (33500, 27500, 24500, 14500) and not paid.over and paid.round_name == "West 1"
    assert apply(paid, ExhaustiveDraw(tenpai=(BOB,))).over_reason == "West round: a player reached 30000"
    # Mahjong Soul settles at 25000 but, like Tenhou, plays the West round until someone has 30000.
    assert game("mahjongsoul", *_to_south_4(), ExhaustiveDraw()).round_name == "West 1"
    lead = Adjustment((5000, -5000, 0, 0), "setup")
    assert game("mahjongsoul", lead, *_to_south_4(), ExhaustiveDraw()).over_reason == "South 4 finished"


# -- riichi sticks left at the end -----------------------------------------------------------------------


def test_leftover_sticks_go_to_first_under_tenhou():
    state = game("tenhou", RiichiDeclared(BOB), RiichiDeclared(DEE), GameEnded())
    # Ann and Cid tie at 25000; seat order puts Ann first, and she takes both sticks.
    assert state.points == (27000, 24000, 25000, 24000)
    first = state.standings[0]
    assert (first.name, first.raw, first.oka, first.uma) == ("Ann", 27000, 20000, 20000)
    assert sum(s.net_points for s in state.standings) == 0
    assert state.riichi == (False,) * 4 and state.riichi_sticks == 0  # their sticks went with the pot


def test_leftover_sticks_are_void_under_wrc():
    state = game("wrc", RiichiDeclared(BOB), GameEnded())
    assert state.points == (30000, 29000, 30000, 30000) and state.pot == 0
    # Ann, Cid, Dee tie for 1st-3rd and split 15+5-5 = +5 each; Bob is 4th: -1 - 15.
    assert nets(state) == {"Ann": 5.0, "Cid": 5.0, "Dee": 5.0, "Bob": -16.0}
    assert [s.rank for s in state.standings] == [1, 1, 1, 4]


def test_split_ties_share_uma_under_wrc():
    state = game("wrc", Adjustment((1000, 1000, -1000, -1000), "setup"), GameEnded())
    assert nets(state) == {"Ann": 11.0, "Bob": 11.0, "Cid": -11.0, "Dee": -11.0}


# -- draws, nagashi, abortive, chombo -------------------------------------------------------------------


@pytest.mark.parametrize(
    "tenpai,deltas",
    [((), (0, 0, 0, 0)), ((BOB,), (-1000, 3000, -1000, -1000)), ((BOB, CID), (-1500, 1500, 1500, -1500)),
     ((ANN, BOB, CID), (1000, 1000, 1000, -3000)), ((ANN, BOB, CID, DEE), (0, 0, 0, 0))],
)
def test_tenpai_payments_split_3000(tenpai, deltas):
    state = game("tenhou", ExhaustiveDraw(tenpai=tenpai))
    assert state.last_hand.deltas == deltas
    assert state.dealer == (ANN if ANN in tenpai else BOB) and state.honba == 1


def test_nagashi_mangan_replaces_tenpai_payments():
    state = game("tenhou", ExhaustiveDraw(tenpai=(ANN,), nagashi=(BOB,)))
    assert state.last_hand.deltas == (-4000, 8000, -2000, -2000)
    assert state.dealer == ANN and state.honba == 1
    with pytest.raises(InputError, match="no nagashi mangan"):
        game("wrc", ExhaustiveDraw(nagashi=(BOB,)))


@pytest.mark.parametrize("preset,start", [("club", 25000), ("naro1", 30000)])
def test_a_riichi_hand_declared_dead_is_noten_at_the_draw_not_a_chombo(preset, start):
    # Club rule book §3.4.7 and NARO-1 §4.2.2: a riichi hand declared dead after the riichi pays the noten
    # penalty at an exhaustive draw and is not a chombo; its stick stays on the table for the next winner.
    state = game(preset, RiichiDeclared(BOB), ExhaustiveDraw(tenpai=(CID,), dead=(BOB,)))
    # Cid alone tenpai: +3000; Ann, Bob, Dee pay 1000 each (Bob paid his stick before).
    assert state.points == (start - 1000, start - 2000, start + 3000, start - 1000)
    assert state.riichi_sticks == 1 and state.penalties == (0, 0, 0, 0)
    assert state.last_hand.kind == "draw" and state.last_hand.dead == (BOB,)
    assert "dead hand: Bob" in state.last_hand.summary(PLAYERS)
    assert (state.dealer, state.honba) == (BOB, 1)  # Ann, the dealer, was noten
    with pytest.raises(InputError, match="a dead hand is never tenpai"):
        game(preset, RiichiDeclared(BOB), ExhaustiveDraw(tenpai=(BOB,), dead=(BOB,)))
    draw = ExhaustiveDraw(tenpai=(CID,), dead=(BOB,))
    assert event_from_json(draw.to_json()) == draw and draw.to_json()["dead"] == [BOB]


@pytest.mark.parametrize("preset", ["club", "tenhou"])
def test_a_ron_on_the_riichi_declaration_tile_voids_that_riichi_and_returns_its_stick(preset):
    # Club rule book §4.2.1: a riichi discard that is ronned puts no stick down. Bob and Cid declare; Ann (dealer)
    # rons Bob's declaration tile for 3 han 30 fu = 5800: Bob's stick goes back, Ann takes Cid's alone.
    state = game(preset, RiichiDeclared(BOB), RiichiDeclared(CID),
                 Ron(BOB, (Win(ANN, han=3, fu=30),), riichi_discard=True))
    assert state.points == (25000 + 5800 + 1000, 25000 - 5800, 24000, 25000)
    assert state.riichi_sticks == 0 and state.last_hand.deltas == (6800, -5800, 0, 0)
    assert state.last_hand.riichi_discard
    assert "on Bob's riichi tile: no riichi, the stick goes back" in state.last_hand.summary(PLAYERS)
    # Recorded without the flag, Bob's stick goes to Ann as well.
    plain = game(preset, RiichiDeclared(BOB), RiichiDeclared(CID), ron(BOB, Win(ANN, han=3, fu=30)))
    assert plain.points == (25000 + 5800 + 2000, 24000 - 5800, 24000, 25000)
    event = Ron(BOB, (Win(ANN, han=3, fu=30),), riichi_discard=True)
    assert event_from_json(event.to_json()) == event and event.to_json()["riichi_discard"] is True
    assert "riichi_discard" not in ron(BOB, Win(ANN, han=3, fu=30)).to_json()


def test_a_ron_on_a_riichi_tile_needs_that_riichi():
    with pytest.raises(InputError, match="Bob has not declared riichi this hand"):
        game("tenhou", RiichiDeclared(CID), Ron(BOB, (Win(ANN, han=3, fu=30),), riichi_discard=True))
    with pytest.raises(InputError, match="Zung Jung has no riichi"):
        game("zungjung", Ron(BOB, (Win(ANN, value=30),), riichi_discard=True))
    with pytest.raises(InputError, match="must be true or false"):
        event_from_json({"type": "ron", "discarder": BOB, "wins": [{"seat": ANN, "han": 1, "fu": 30}],
                         "riichi_discard": "yes"})


def test_abortive_draw_keeps_the_deal_and_adds_a_counter():
    state = game("tenhou", RiichiDeclared(CID), AbortiveDraw("nine-terminals"))
    assert (state.dealer, state.honba, state.riichi_sticks, state.points[CID]) == (ANN, 1, 1, 24000)
    with pytest.raises(InputError, match="do not allow a nine-terminals abortive draw"):
        game("wrc", AbortiveDraw("nine-terminals"))
    with pytest.raises(InputError, match="all four players in riichi"):
        game("tenhou", RiichiDeclared(CID), AbortiveDraw("four-riichi"))
    four = game("tenhou", *(RiichiDeclared(s) for s in range(4)), AbortiveDraw("four-riichi"))
    assert four.riichi_sticks == 4 and four.honba == 1


def test_after_four_riichi_the_hand_ends_in_the_abortive_draw_or_a_ron_on_the_last_declaration():
    four = [RiichiDeclared(s) for s in range(4)]
    for end in (ExhaustiveDraw(tenpai=(ANN, BOB, CID, DEE)), Tsumo(Win(BOB, han=1, fu=30))):
        with pytest.raises(InputError, match="all four players declared riichi: under the .* abortive draw"):
            game("tenhou", *four, end)
    assert game("tenhou", *four, ron(DEE, Win(BOB, han=1, fu=30))).last_hand.kind == "ron"
    wrc = game("wrc", *four, ExhaustiveDraw(tenpai=(ANN, BOB, CID, DEE)))  # no four-riichi abortive draw there
    assert wrc.last_hand.kind == "draw"


def test_chombo_at_the_table_is_a_reverse_mangan_and_returns_riichi_sticks():
    state = game("club", RiichiDeclared(BOB), Chombo(CID))
    assert state.points == (29000, 27000, 17000, 27000)
    assert (state.dealer, state.honba, state.pot) == (ANN, 0, 0)
    dealer = game("club", Chombo(ANN))
    assert dealer.points == (13000, 29000, 29000, 29000)


def test_chombo_at_the_end_under_wrc_is_deducted_after_uma():
    state = game("wrc", Chombo(BOB), GameEnded())
    assert state.points == (30000,) * 4
    # Four-way tie: uma splits to 0 each; Bob's -30000 comes after placement.
    assert nets(state) == {"Ann": 0.0, "Bob": -30.0, "Cid": 0.0, "Dee": 0.0}


# -- the USPML beginner game ----------------------------------------------------------------------------


def test_uspml_beginner_game_to_the_end():
    state = game(
        "uspml",
        Tsumo(Win(BOB)),  # non-dealer tsumo: dealer Ann pays 2, Cid and Dee 1 each -> Bob 24; deal to Bob
        ExhaustiveDraw(tenpai=(BOB,)),  # Ann, Cid, Dee noten: 1 each into the pool (3); Bob tenpai keeps the deal
        ron(DEE, Win(CID)),  # non-dealer ron: Dee pays 4, Cid also takes the pool of 3; deal to Cid
        Tsumo(Win(CID)),  # dealer tsumo: 2 from each; Cid keeps the deal
        ExhaustiveDraw(),  # everyone noten: pool 4; the deal passes to Dee
        ron(ANN, Win(DEE)),  # dealer ron: Ann pays 6, Dee takes the pool of 4; Dee keeps the deal
        ron(BOB, Win(ANN), Win(CID)),  # Cid's turn comes first after Bob: she alone wins 4; deal would go to Ann
    )
    assert state.points == (8, 17, 34, 21)
    assert state.over and state.over_reason == "East 4 finished"
    assert [(s.name, s.rank, s.net) for s in state.standings] == [
        ("Cid", 1, 14.0), ("Dee", 2, 1.0), ("Bob", 3, -3.0), ("Ann", 4, -12.0)]


def test_uspml_tie_goes_to_the_first_dealer_side_and_has_no_riichi_or_chombo():
    state = game("uspml", GameEnded())
    assert [s.name for s in state.standings] == ["Ann", "Bob", "Cid", "Dee"]
    assert [s.rank for s in state.standings] == [1, 2, 3, 4]
    with pytest.raises(InputError, match="no riichi"):
        game("uspml", RiichiDeclared(ANN))
    with pytest.raises(InputError, match="no chombo"):
        game("uspml", Chombo(ANN))


# -- rejections -----------------------------------------------------------------------------------------


def test_rejections_say_why():
    base = game("tenhou")
    cases = [
        (ron(BOB, Win(BOB, han=1, fu=30)), "discarded the tile and cannot win on it"),
        (ron(BOB, Win(ANN, han=1, fu=30), Win(ANN, han=2, fu=30)), "listed twice"),
        (Tsumo(Win(BOB)), "needs han and fu, a yakuman count, or a payment"),
        (Tsumo(Win(BOB, han=1, fu=25)), "1 han 25 fu cannot happen"),
        (Tsumo(Win(BOB, payment=HandValue(ron=1000))), "needs a tsumo payment"),
        (Adjustment((1000, 0, 0, 0), "oops"), "sum to zero"),
        (Adjustment((0, 0, 0, 0), "nothing"), "moves no points"),
        (Pao(BOB, BOB), "cannot be liable"),
        (AbortiveDraw("sneezing"), "unknown abortive draw"),
    ]
    for event, message in cases:
        with pytest.raises(InputError, match=message):
            apply(base, event)
    riichi = apply(base, RiichiDeclared(BOB))
    with pytest.raises(InputError, match="already declared riichi"):
        apply(riichi, RiichiDeclared(BOB))
    with pytest.raises(InputError, match="must show a tenpai hand"):
        apply(riichi, ExhaustiveDraw(tenpai=(ANN,)))
    poor = apply(base, Adjustment((0, -24100, 24100, 0), "setup"))
    with pytest.raises(InputError, match="has 900 points; riichi needs at least 1000"):
        apply(poor, RiichiDeclared(BOB))
    # M-League lets a player riichi below 1000 points.
    assert game("mleague", Adjustment((0, -24100, 24100, 0), "setup"), RiichiDeclared(BOB)).points[BOB] == -100
    ended = apply(base, GameEnded())
    for event in (RiichiDeclared(ANN), ExhaustiveDraw(), GameEnded()):
        with pytest.raises(InputError, match="the game is over"):
            apply(ended, event)
    with pytest.raises(InputError, match="already started"):
        apply(base, GameStarted(PLAYERS, "tenhou"))
    with pytest.raises(InputError, match="unknown rules 'poker'"):
        fold([GameStarted(PLAYERS, "poker")])
    with pytest.raises(InputError, match="names must differ"):
        fold([GameStarted(("A", "a", "B", "C"), "tenhou")])


def test_a_rejected_event_in_a_log_names_its_position():
    with pytest.raises(InputError, match=r"event 3 \(riichi\): Bob has already declared riichi"):
        game("tenhou", RiichiDeclared(BOB), RiichiDeclared(BOB))


# -- undo and redo in a log -------------------------------------------------------------------------------


def test_undo_and_redo_resolve_in_the_log():
    start = GameStarted(PLAYERS, "tenhou")
    riichi = RiichiDeclared(BOB)
    assert resolve([start, riichi, Undo()]) == [start]
    assert resolve([start, riichi, Undo(), Redo()]) == [start, riichi]
    assert fold([start, riichi, Undo(), Redo()]).points[BOB] == 24000
    with pytest.raises(InputError, match="nothing to undo"):
        resolve([start, Undo()])
    with pytest.raises(InputError, match="nothing to redo"):
        resolve([start, riichi, Undo(), RiichiDeclared(CID), Redo()])


def test_history_and_json_shape():
    states = history([GameStarted(PLAYERS, "tenhou"), RiichiDeclared(BOB), ExhaustiveDraw(tenpai=(BOB,))])
    assert [s.points[BOB] for s in states] == [25000, 24000, 27000]
    data = states[-1].to_json()
    assert data["round"] == "East 2" and data["honba"] == 1 and data["riichi_sticks"] == 1
    assert data["seat_winds"] == ["North", "East", "South", "West"]
    assert data["last_hand"]["kind"] == "draw" and data["last_hand"]["tenpai"] == [BOB]

"""Table-level rules per preset: every preset present, and the numbers the sources give."""

from __future__ import annotations

import dataclasses

import pytest

from table.game_rules import ABORTIVE_REASONS, GAME_RULES, GameRules
from table.presets import PRESET_NAMES, get_preset

NAMES = ("tenhou", "mahjongsoul", "wrc", "ema", "mleague", "naro1", "club", "uspml", "zungjung", "zungjung-uniform",
         "zungjung-competitive", "mcr")


def test_every_preset_has_game_rules_and_is_offered():
    assert tuple(GAME_RULES) == NAMES
    for name in NAMES:
        assert name in PRESET_NAMES
        assert get_preset(name).game is GAME_RULES[name]


def test_every_field_is_set_explicitly():
    # GameRules has no defaults apart from the notes, so no preset inherits a value by accident.
    defaults = [f.name for f in dataclasses.fields(GameRules)
                if f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING]
    assert defaults == ["notes"]


@pytest.mark.parametrize("name", NAMES)
def test_points_balance(name):
    rules = GAME_RULES[name]
    assert sum(rules.uma) == 0
    # Oka is what the table gives up between start and return, paid to first.
    assert rules.oka == 4 * (rules.return_points - rules.starting_points)
    assert set(rules.abortive_draws) <= set(ABORTIVE_REASONS)
    assert rules.notes, "every preset says where its choices come from"


def test_numbers_from_the_sources():
    tenhou, wrc, mleague = GAME_RULES["tenhou"], GAME_RULES["wrc"], GAME_RULES["mleague"]
    assert (tenhou.starting_points, tenhou.return_points, tenhou.uma) == (25000, 30000, (20000, 10000, -10000, -20000))
    assert tenhou.max_ron_winners == 2 and tenhou.triple_ron_aborts and tenhou.busting and tenhou.agari_yame
    assert tenhou.riichi_min_points == 1000 and tenhou.west_extension and tenhou.leftover_sticks == "first"
    assert tenhou.west_target == GAME_RULES["mahjongsoul"].west_target == 30000
    assert wrc.max_ron_winners == 1 and wrc.leftover_sticks == "void" and wrc.chombo_penalty == 30000
    assert wrc.abortive_draws == frozenset() and not wrc.nagashi_mangan and wrc.tie_rule == "split"
    assert mleague.uma == (30000, 10000, -10000, -30000) and mleague.riichi_min_points is None
    naro = GAME_RULES["naro1"]
    assert (naro.starting_points, naro.uma, naro.chombo_penalty) == (30000, (15000, 5000, -5000, -15000), 10000)
    assert naro.penalty_affects_rank and naro.busting and naro.leftover_sticks == "void"
    club = GAME_RULES["club"]
    assert (club.oka, club.chombo_mode, club.tie_rule, club.multi_ron_honba) == (20000, "table", "seat", "each")
    assert club.abortive_draws == frozenset({"nine-terminals", "four-winds", "four-riichi", "four-kans"})
    uspml = GAME_RULES["uspml"]
    assert uspml.starting_points == 20 and uspml.length == "east" and not uspml.riichi_allowed
    assert uspml.fixed_payments is not None
    assert (uspml.fixed_payments.ron_dealer, uspml.fixed_payments.ron_other) == (6, 4)
    assert uspml.noten_pool_payment == 1 and uspml.tie_rule == "seat"


def test_zungjung_and_mcr_from_the_club_text():
    zj, mcr = GAME_RULES["zungjung"], GAME_RULES["mcr"]
    for rules in (zj, mcr):
        # "the Seat Winds will ALWAYS rotate", "a full game ... is 16 rounds": four rotations of the deal.
        assert not (rules.renchan_on_dealer_win or rules.renchan_on_dealer_tenpai) and rules.length == "north"
        # one winner (interception), no riichi, counters, tenpai payments, pao or chombo; scores from zero
        assert rules.max_ron_winners == 1 and not rules.riichi_allowed and rules.honba_value == 0
        assert rules.tenpai_payment_total == 0 and not rules.pao and rules.chombo_mode == "none"
        assert (rules.starting_points, rules.uma, rules.oka, rules.unit) == (0, (0, 0, 0, 0), 0, 1)
    assert (zj.system, zj.zungjung_payoff, zj.mcr_base) == ("zungjung", "standard", 0)
    assert (mcr.system, mcr.mcr_base) == ("mcr", 8)  # "all players pay the winner 8 points"
    assert get_preset("zungjung").hand.win_minimum == 0 and get_preset("mcr").hand.win_minimum == 8
    with pytest.raises(ValueError, match="zungjung has no riichi, counters"):
        dataclasses.replace(zj, riichi_allowed=True, honba_value=300)
    with pytest.raises(ValueError, match="only MCR has a base payment"):
        dataclasses.replace(zj, mcr_base=8)


def test_rules_refuse_inconsistent_values():
    with pytest.raises(ValueError, match="uma must sum to zero"):
        dataclasses.replace(GAME_RULES["wrc"], uma=(15000, 5000, -5000, -10000))
    with pytest.raises(ValueError, match="unknown abortive draws"):
        dataclasses.replace(GAME_RULES["wrc"], abortive_draws=frozenset({"rain"}))


def test_agrees_with_the_hand_rules_where_both_say_something():
    from table.hand_rules import HAND_RULES

    for name in NAMES:
        game, hand = GAME_RULES[name], HAND_RULES[name]
        assert game.nagashi_mangan == hand.nagashi_mangan, name
        if game.fixed_payments is None:
            assert game.honba_value == hand.honba_value, name
            assert game.pao == bool(hand.pao_yakuman), name

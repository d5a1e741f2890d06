"""Han/fu (or a yakuman count) to points, for hands entered without tiles.

The numbers come from the `mahjong` package's ScoresCalculator, the same code that prices a hand
scored from tiles, so a hand typed in as "3 han 40 fu" and the same hand read from a photo can never
disagree. Kiriage and the kazoe limit come from the preset; the library's kazoe label (overwritten
to plain "yakuman"/"sanbaiman" inside the library) is restored here.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from mahjong.constants import EAST, SOUTH
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.hand_calculating.scores import ScoresCalculator

from table.errors import InputError
from table.hand_rules import HandRules

LIMIT_NAMES = ("mangan", "haneman", "baiman", "sanbaiman", "yakuman")
VALID_FU = (20, 25, 30, 40, 50, 60, 70, 80, 90, 100, 110)


@dataclass(frozen=True, slots=True)
class Payment:
    """What the winner is paid for the hand itself, without honba or riichi sticks.

    Ron: `ron` is paid by the discarder. Tsumo: `tsumo_other` is paid by each non-dealer and
    `tsumo_dealer` by the dealer; when the winner is the dealer `tsumo_dealer` is None and all
    three pay `tsumo_other`. `limit` is "" below mangan, else e.g. "mangan", "kiriage mangan",
    "kazoe yakuman", "2x yakuman".
    """

    ron: int | None
    tsumo_dealer: int | None
    tsumo_other: int | None
    limit: str

    @property
    def tsumo(self) -> bool:
        return self.ron is None

    @property
    def hand_total(self) -> int:
        """Points the winner receives for the hand (before honba and sticks)."""
        if self.ron is not None:
            return self.ron
        if self.tsumo_dealer is None:
            return 3 * (self.tsumo_other or 0)
        return self.tsumo_dealer + 2 * (self.tsumo_other or 0)

    def to_json(self) -> dict[str, int | None]:
        if self.ron is not None:
            return {"ron": self.ron}
        return {"tsumo_dealer": self.tsumo_dealer, "tsumo_other": self.tsumo_other}


@lru_cache(maxsize=256)
def _config(dealer: bool, tsumo: bool, rules: HandRules) -> HandConfig:
    # Only is_dealer, is_tsumo and the options are read by ScoresCalculator; honba is added by us.
    return HandConfig(is_tsumo=tsumo, player_wind=EAST if dealer else SOUTH, options=rules.optional_rules)


def payment_from_scores(
    han: int, fu: int, *, dealer: bool, tsumo: bool, rules: HandRules, is_yakuman: bool = False
) -> Payment:
    """Price a hand from its final han and fu through the library's ScoresCalculator."""
    cost = ScoresCalculator.calculate_scores(han, fu, _config(dealer, tsumo, rules), is_yakuman)
    return payment_from_cost(cost, han, dealer=dealer, tsumo=tsumo, is_yakuman=is_yakuman)


def payment_from_cost(cost: dict, han: int, *, dealer: bool, tsumo: bool, is_yakuman: bool = False) -> Payment:
    """A Payment from the library's ScoresResult (computed without honba or sticks)."""
    label = cost["yaku_level"]
    if not is_yakuman and han >= 13 and label in ("yakuman", "sanbaiman"):
        label = f"kazoe {label}"  # the library computes this label and then overwrites it
    elif not is_yakuman and han >= 26 and label.endswith("yakuman"):
        label = f"kazoe {label}"
    elif not label and cost["main"] == (4000 if tsumo else 12000 if dealer else 8000):
        label = "mangan"  # with kiriage on, the library leaves a 4-han 40-fu (or 3-han 70-fu) mangan unnamed
    if not tsumo:
        return Payment(cost["main"], None, None, label)
    if dealer:
        return Payment(None, None, cost["additional"], label)
    return Payment(None, cost["main"], cost["additional"], label)


def hand_payment(
    han: int, fu: int, *, yakuman: int = 0, dealer: bool, tsumo: bool, rules: HandRules
) -> Payment:
    """Points for a hand given as han and fu, or as a number of yakuman.

    `yakuman` counts single-yakuman units (2 for one double yakuman or two stacked ones); it is
    capped at what the rules allow (`rules.max_yakuman`). Below 5 han the fu must be a value a
    hand can have (20, 25, 30, ..., 110) and the combination must be possible (1 han 25 fu,
    2 han 25 fu tsumo and 1 han 20 fu tsumo cannot happen, nor 20 fu on a discard unless open pinfu scores 20 fu).
    """
    if yakuman:
        if yakuman < 0:
            raise InputError(f"yakuman count must be 1 or more, not {yakuman}")
        count = min(yakuman, rules.max_yakuman)
        return payment_from_scores(13 * count, 0, dealer=dealer, tsumo=tsumo, rules=rules, is_yakuman=True)
    if han < 1:
        raise InputError(f"a winning hand has at least 1 han, not {han}")
    if han < 5:
        if fu not in VALID_FU:
            raise InputError(f"{fu} fu is not a hand value: use one of {', '.join(map(str, VALID_FU))}")
        if han == 1 and fu == 25:
            raise InputError("1 han 25 fu cannot happen: seven pairs is already 2 han")
        if han == 1 and fu == 20 and tsumo:
            raise InputError("1 han 20 fu cannot happen by tsumo (20 fu needs pinfu tsumo: 2 han)")
        if fu == 20 and not tsumo and rules.open_pinfu_fu:
            raise InputError("20 fu cannot be won on a discard under these rules: a closed ron has 30 fu at least, "
                             "and an open hand with no fu scores 30")
        if han == 2 and fu == 25 and tsumo:
            raise InputError("2 han 25 fu cannot be won by tsumo: seven pairs by tsumo is at least 3 han")
    return payment_from_scores(han, fu, dealer=dealer, tsumo=tsumo, rules=rules)


def nagashi_mangan_payment(*, dealer: bool, rules: HandRules) -> Payment:
    """Nagashi mangan pays like a mangan tsumo (paid at the draw, no honba or sticks by itself)."""
    if not rules.nagashi_mangan:
        raise InputError(f"{rules.title} has no nagashi mangan")
    return payment_from_scores(5, 30, dealer=dealer, tsumo=True, rules=rules)


def honba_bonus(honba: int, *, tsumo: bool, rules: HandRules) -> int:
    """What the honba counters add to the winner's takings (all of it, summed over the payers)."""
    if honba < 0:
        raise InputError(f"honba must be 0 or more, not {honba}")
    return honba * rules.honba_value


def honba_per_payer(honba: int, *, tsumo: bool, rules: HandRules) -> int:
    """Honba paid by each payer: the discarder pays all of it on ron, each of three a third on tsumo."""
    total = honba_bonus(honba, tsumo=tsumo, rules=rules)
    return total // 3 if tsumo else total

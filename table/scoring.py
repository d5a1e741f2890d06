"""Score a winning hand through the `mahjong` package with every option taken from the preset.

We own what the library does not do or does awkwardly (scoring-engines.md §1.3, §1.6):
- its input contract: 136-format ids where every meld tile is also in the tile array, meld tiles
  sorted (unsorted chi tiles silently give "hand_not_winning"), red fives as ids 16/52/88;
- error codes returned instead of raised: contradictions (riichi with an open hand, ippatsu without
  riichi, ...) are checked here first and raised as InputError with a sentence; "not winning" and
  "no yaku" come back as `valid=False` with a readable reason;
- the limit labels it gets wrong (kazoe, and a 4-han 40-fu mangan under kiriage: `table.payments`);
- rules it has no switch for: per-pattern double yakuman, whether yakuman stack, a 2-fu
  double-wind pair, renhou as a mangan limit hand, more than one red five per suit;
- honba at the preset's value (the library's is fixed at 100 per payer). In a game the keeper
  (`table.game`) prices each hand without honba or sticks and hands those out itself, by the
  preset's multiple-ron rule.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field
from functools import lru_cache

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig
from mahjong.meld import Meld as LibMeld

from table.errors import InputError
from table.hand import Hand, validate_hand
from table.hand_rules import HandRules
from table.payments import Payment, payment_from_cost, payment_from_scores
from table.tiles import Tile

MAX_HONBA = 100
MAX_STICKS = 100

# Library yaku ids (mahjong 2.1.0 YakuConfig) that need special handling.
_DOUBLE_PATTERN_IDS = {111: "daisuushii", 112: "kokushi_13_wait", 113: "suuankou_tanki", 114: "junsei_chuuren"}
_YAKU_NAMES = {
    29: "Honroutou",
    31: "Sanankou",
    32: "Sankantsu",
    35: "Shousangen",
    102: "Suuankou",
    106: "Suukantsu",
    107: "Tsuuiisou",
    111: "Daisuushii",
    112: "Kokushi Musou Juusanmen Machi",
    113: "Suuankou Tanki",
    114: "Junsei Chuuren Poutou",
    117: "Renhou",
}
_LIB_MELD_KIND = {
    "chi": (LibMeld.CHI, True),
    "pon": (LibMeld.PON, True),
    "kan": (LibMeld.KAN, True),
    "added-kan": (LibMeld.SHOUMINKAN, True),
    "closed-kan": (LibMeld.KAN, False),
}
_LIB_ERRORS = {
    HandCalculator.ERR_HAND_NOT_WINNING: (
        "not a winning hand: the tiles make neither four sets and a pair, nor seven pairs, nor thirteen orphans"
    ),
    HandCalculator.ERR_NO_YAKU: "no yaku: the hand is complete but has no yaku (dora alone do not count)",
}
_LIB_LOCK = threading.Lock()  # the library writes dora han and yaku names into the shared config


@dataclass(frozen=True, slots=True)
class Situation:
    """How the hand was won; every flag the table must tell us (a photo cannot show them).

    Winds are 0..3 = E S W N. `riichi_sticks` counts the 1000-point deposits on the table that the
    winner collects (including the winner's own stick from this hand). `honba` is the counter count.
    """

    tsumo: bool = False
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    rinshan: bool = False
    chankan: bool = False
    haitei: bool = False
    houtei: bool = False
    tenhou: bool = False
    chiihou: bool = False
    renhou: bool = False
    seat_wind: int = 0
    round_wind: int = 0
    dora_indicators: tuple[Tile, ...] = ()
    ura_indicators: tuple[Tile, ...] = ()
    honba: int = 0
    riichi_sticks: int = 0

    @property
    def is_dealer(self) -> bool:
        return self.seat_wind == 0


@dataclass(slots=True)
class ScoreResult:
    """The plain result of scoring one hand. `payment` is the hand value without honba or sticks."""

    valid: bool
    error: str | None
    han: int = 0
    fu: int = 0
    fu_details: list[tuple[str, int]] = field(default_factory=list)
    yaku: list[tuple[str, int]] = field(default_factory=list)
    dora: int = 0
    aka: int = 0
    ura: int = 0
    limit: str = ""
    is_dealer: bool = False
    tsumo: bool = False
    payment: Payment | None = None
    honba_bonus: int = 0
    sticks_bonus: int = 0
    total: int = 0
    yakuman: int = 0
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        """The documented JSON shape (README "Scoring a hand")."""
        return {
            "valid": self.valid,
            "error": self.error,
            "han": self.han,
            "fu": self.fu,
            "fu_details": [{"reason": r, "fu": f} for r, f in self.fu_details],
            "yaku": [{"name": n, "han": h} for n, h in self.yaku],
            "dora": self.dora,
            "aka": self.aka,
            "ura": self.ura,
            "yakuman": self.yakuman,
            "limit": self.limit or None,
            "dealer": self.is_dealer,
            "tsumo": self.tsumo,
            "payment": self.payment.to_json() if self.payment else None,
            "honba_bonus": self.honba_bonus,
            "sticks_bonus": self.sticks_bonus,
            "total": self.total,
            "notes": self.notes,
        }


def _rules_of(preset: object) -> HandRules:
    rules = getattr(preset, "hand", preset)
    if not isinstance(rules, HandRules):
        raise TypeError(f"expected a Preset or HandRules, got {type(preset).__name__}")
    if rules.system != "riichi":
        raise InputError(f"{rules.title} is not riichi: score its hands with `jantaku score --system {rules.system}` "
                         f"(table.{rules.system}), not the riichi engine")
    return rules


def situation_faults(s: Situation) -> list[str]:
    """The flag combinations that cannot happen at a table, whatever the hand: `score-photo` asks them before it
    reads the photo (a second or two), `check_situation` with the hand's own."""
    faults: list[str] = []
    if not (0 <= s.seat_wind <= 3 and 0 <= s.round_wind <= 3):
        faults.append("seat and round wind must be E, S, W or N")
    if not 0 <= s.honba <= MAX_HONBA:
        faults.append(f"honba must be between 0 and {MAX_HONBA}, not {s.honba}")
    if not 0 <= s.riichi_sticks <= MAX_STICKS:
        faults.append(f"riichi sticks must be between 0 and {MAX_STICKS}, not {s.riichi_sticks}")
    if s.ippatsu and not (s.riichi or s.double_riichi):
        faults.append("ippatsu needs riichi")
    if s.rinshan and not s.tsumo:
        faults.append("rinshan kaihou is a tsumo win (on the kan replacement tile)")
    if s.chankan and s.tsumo:
        faults.append("chankan is a ron win (robbing a kan), not tsumo")
    if s.haitei and not s.tsumo:
        faults.append("haitei is a tsumo win on the last tile; on the last discard use houtei")
    if s.houtei and s.tsumo:
        faults.append("houtei is a ron win on the last discard; on the last draw use haitei")
    if s.haitei and s.rinshan:
        faults.append("haitei and rinshan cannot both apply (the replacement tile is not the last wall tile)")
    if s.houtei and s.chankan:
        faults.append("houtei and chankan cannot both apply")
    if s.ippatsu and s.rinshan:
        faults.append("ippatsu and rinshan kaihou cannot both apply (declaring the kan ends the ippatsu chance)")
    if sum((s.tenhou, s.chiihou, s.renhou)) > 1:
        faults.append("tenhou, chiihou and renhou exclude each other")
    if (s.tenhou or s.chiihou or s.renhou) and (s.riichi or s.ippatsu or s.double_riichi):
        faults.append("a first-turn win (tenhou, chiihou, renhou) cannot follow a riichi")
    if (s.tenhou or s.chiihou or s.renhou) and (s.haitei or s.houtei or s.rinshan or s.chankan):
        faults.append("a first-turn win (tenhou, chiihou, renhou) is not on the last tile, a kan's replacement tile "
                      "or a robbed kan (any kan ends the first turn)")
    return faults


def check_situation(hand: Hand, s: Situation) -> None:
    """Raise InputError for flag combinations that cannot happen at a table, or not with this hand."""
    faults = situation_faults(s)
    is_open = not hand.is_closed
    has_kan = any(m.is_kan for m in hand.melds)
    if (s.riichi or s.double_riichi) and is_open:
        faults.append("riichi needs a closed hand (only closed kans allowed), but this hand has called melds")
    if s.rinshan and not has_kan:
        faults.append("rinshan kaihou needs a kan among the melds")
    if s.chankan and sum(t.kind == hand.win.kind for t in hand.all_tiles()) > 1:
        faults.append(f"chankan robs the fourth {hand.win}: three are in the other player's pon, so this hand "
                      "cannot hold another")
    elif s.chankan and any(t.kind == hand.win.kind for t in (*s.dora_indicators, *s.ura_indicators)):
        faults.append(f"chankan robs the fourth {hand.win}: three are in the other player's pon, so no dora "
                      "indicator can show another")
    if s.tenhou and (not s.is_dealer or not s.tsumo or hand.melds):
        faults.append("tenhou is the dealer's tsumo on the first draw, with no melds")
    if s.chiihou and (s.is_dealer or not s.tsumo or hand.melds):
        faults.append("chiihou is a non-dealer's tsumo on the first draw, with no melds")
    if s.renhou and (s.is_dealer or s.tsumo or hand.melds):
        faults.append("renhou is a non-dealer's ron before their first draw, with no melds")
    if len(s.ura_indicators) > max(len(s.dora_indicators), 1):
        faults.append(
            f"{len(s.ura_indicators)} ura dora indicators but {len(s.dora_indicators)} dora indicators: "
            "there is one ura indicator under each dora indicator"
        )
    if faults:
        raise InputError("; ".join(faults))


_LIB_MELDS: dict[tuple, LibMeld] = {}
_COPY_ORDER = tuple((1, 2, 3, 0) if k in (4, 13, 22) else (0, 1, 2, 3) for k in range(34))


def _to_136(hand: Hand) -> tuple[list[int], int, list[LibMeld]]:
    """Give every tile a distinct 136-format id: a red five takes copy 0 (ids 16/52/88), plain
    fives the other copies first. Meld tiles are allocated first and also go into the tile array
    (the library needs both), with each meld's ids sorted."""
    used = [0] * 34
    red_taken = [False] * 34
    order = _COPY_ORDER

    def ident(t: Tile) -> int:
        k = t.kind
        if t.red and not red_taken[k]:
            red_taken[k] = True
            return k * 4
        copy = order[k][used[k]]
        used[k] += 1
        return k * 4 + copy

    lib_melds = []
    tiles: list[int] = []
    for meld in hand.melds:
        ids = sorted([ident(t) for t in meld.tiles])
        key = (meld.kind, *ids)
        lib_meld = _LIB_MELDS.get(key)
        if lib_meld is None:  # the library never changes a Meld; building one is slow (__setattr__ hook)
            kind, opened = _LIB_MELD_KIND[meld.kind]
            lib_meld = _LIB_MELDS[key] = LibMeld(meld_type=kind, tiles=ids, opened=opened)
        lib_melds.append(lib_meld)
        tiles += ids
    tiles += [ident(t) for t in hand.concealed]
    tiles.append(ident(hand.win))
    return tiles, tiles[-1], lib_melds


@lru_cache(maxsize=4096)
def _hand_config(rules: HandRules, s_key: tuple) -> HandConfig:
    (tsumo, riichi, double_riichi, ippatsu, rinshan, chankan, haitei, houtei, tenhou, chiihou, renhou, seat,
     round_) = s_key
    return HandConfig(
        is_tsumo=tsumo,
        is_riichi=riichi or double_riichi,
        is_ippatsu=ippatsu,
        is_rinshan=rinshan,
        is_chankan=chankan,
        is_haitei=haitei,
        is_houtei=houtei,
        is_daburu_riichi=double_riichi,
        is_tenhou=tenhou,
        is_chiihou=chiihou,
        is_renhou=renhou,
        player_wind=27 + seat,
        round_wind=27 + round_,
        options=rules.optional_rules,
    )


def _round_fu(raw: int) -> int:
    return raw if raw == 25 else -(-raw // 10) * 10


def score_hand(hand: Hand, situation: Situation, preset: object) -> ScoreResult:
    """Score `hand` won in `situation` under `preset` (a Preset or its HandRules).

    Raises InputError for an impossible hand or situation; returns `valid=False` with a reason for
    a possible hand that does not win (not complete, or no yaku).
    """
    rules = _rules_of(preset)
    validate_hand(hand, situation.dora_indicators, situation.ura_indicators, rules)
    check_situation(hand, situation)
    notes: list[str] = []
    if situation.ura_indicators and not (situation.riichi or situation.double_riichi):
        notes.append("ura dora count only for a riichi winner: ignored")
    elif situation.ura_indicators and not rules.ura_dora:
        notes.append(f"{rules.title} plays without ura dora: ignored")
    renhou = situation.renhou
    if renhou and rules.renhou == "none":
        notes.append(f"renhou is not a yaku under {rules.title}: scored without it")
        renhou = False
    if renhou and rules.renhou == "mangan":
        return _score_renhou_mangan(hand, situation, rules, notes)
    return _score(hand, situation, rules, renhou, notes)


def _score(hand: Hand, s: Situation, rules: HandRules, renhou: bool, notes: list[str]) -> ScoreResult:
    tiles, win, lib_melds = _to_136(hand)
    riichi = s.riichi or s.double_riichi
    key = (s.tsumo, s.riichi, s.double_riichi, s.ippatsu, s.rinshan, s.chankan, s.haitei, s.houtei, s.tenhou,
           s.chiihou, renhou, s.seat_wind, s.round_wind)
    config = _hand_config(rules, key)
    dora_ind = [t.kind * 4 for t in s.dora_indicators]
    ura_ind = [t.kind * 4 for t in s.ura_indicators] if riichi and rules.ura_dora else None
    with _LIB_LOCK:
        response = HandCalculator.estimate_hand_value(
            tiles, win, melds=lib_melds, dora_indicators=dora_ind, config=config, ura_dora_indicators=ura_ind
        )
        if response.error:
            error = response.error
            lib_yaku: list[tuple[int, str, int, bool]] = []
        else:
            error = None
            is_open = response.is_open_hand
            lib_yaku = [
                (y.yaku_id, y.name, (y.han_open if is_open and y.han_open else y.han_closed), y.is_yakuman)
                for y in response.yaku
            ]
            fu_details = [(d["reason"], d["fu"]) for d in (response.fu_details or [])]
            lib_han, lib_fu, lib_cost = response.han, response.fu, response.cost
    base = ScoreResult(valid=False, error=None, is_dealer=s.is_dealer, tsumo=s.tsumo, notes=notes)
    if error:
        if error not in _LIB_ERRORS:
            raise InputError(f"impossible win: {error.replace('_', ' ')}")
        base.error = _LIB_ERRORS[error]
        return base

    yakuman_yaku = [y for y in lib_yaku if y[3]]
    if yakuman_yaku:
        units: list[int] = []
        yaku_out: list[tuple[str, int]] = []
        for yaku_id, name, _han, _ in yakuman_yaku:
            pattern = _DOUBLE_PATTERN_IDS.get(yaku_id)
            unit = 2 if pattern and pattern in rules.double_yakuman else 1
            units.append(unit)
            yaku_out.append((_YAKU_NAMES.get(yaku_id, name), 13 * unit))
        count = sum(units) if rules.stacked_yakuman else max(units)
        if not rules.stacked_yakuman and len(units) > 1:
            notes.append(f"yakuman do not stack under {rules.title}: counted once")
        count = min(count, 6)
        payment = payment_from_scores(13 * count, 0, dealer=s.is_dealer, tsumo=s.tsumo, rules=rules,
                                      is_yakuman=True)
        base.valid, base.han, base.fu, base.yaku, base.yakuman = True, 13 * count, 0, yaku_out, count
        return _finish(base, payment, s, rules)

    dora = aka = ura = 0
    yaku_out = []
    for yid, name, yaku_han, _ in lib_yaku:
        if yid == 120:
            dora = yaku_han
        elif yid == 121:
            aka = yaku_han
        elif yid == 122:
            ura = yaku_han
        else:
            yaku_out.append((_YAKU_NAMES.get(yid, name), yaku_han))
    han = lib_han
    if max(rules.red_fives) > 1:  # the library knows one red five per suit only
        reds = sum(1 for t in hand.all_tiles() if t.red)
        han += reds - aka
        aka = reds
    fu = lib_fu
    if rules.double_wind_pair_fu == 2 and any(r == "double_valued_pair" for r, _ in fu_details):
        fu_details = [(r, 2 if r == "double_valued_pair" else f) for r, f in fu_details]
        raw = sum(f for _, f in fu_details)
        fu = _round_fu(raw)
        if fu == 20 and hand.melds and not hand.is_closed and not s.tsumo and rules.open_pinfu_fu:
            fu = 30
    for label, count in (("Dora", dora), ("Aka Dora", aka), ("Ura Dora", ura)):
        if count:
            yaku_out.append((label, count))
    if han == lib_han and fu == lib_fu:
        payment = payment_from_cost(lib_cost, han, dealer=s.is_dealer, tsumo=s.tsumo)
    else:
        payment = payment_from_scores(han, fu, dealer=s.is_dealer, tsumo=s.tsumo, rules=rules)
    base.valid, base.han, base.fu, base.fu_details, base.yaku = True, han, fu, fu_details, yaku_out
    base.dora, base.aka, base.ura = dora, aka, ura
    return _finish(base, payment, s, rules)


def _finish(result: ScoreResult, payment: Payment, s: Situation, rules: HandRules) -> ScoreResult:
    result.payment = payment
    result.limit = payment.limit
    result.honba_bonus = s.honba * rules.honba_value
    result.sticks_bonus = 1000 * s.riichi_sticks
    result.total = payment.hand_total + result.honba_bonus + result.sticks_bonus
    return result


def _score_renhou_mangan(hand: Hand, s: Situation, rules: HandRules, notes: list[str]) -> ScoreResult:
    """Renhou as a mangan limit hand: worth a mangan, or the hand's own value if that is higher."""
    plain = _score(hand, s, rules, False, notes)
    if not plain.valid and plain.error == _LIB_ERRORS[HandCalculator.ERR_HAND_NOT_WINNING]:
        return plain
    mangan = payment_from_scores(5, 30, dealer=s.is_dealer, tsumo=s.tsumo, rules=rules)
    if plain.valid and plain.payment is not None and plain.payment.hand_total > mangan.hand_total:
        plain.notes.append("renhou (mangan) not counted: the hand is worth more without it")
        return plain
    result = ScoreResult(valid=True, error=None, han=5, fu=plain.fu or 30, fu_details=plain.fu_details,
                         yaku=[("Renhou", 5)], is_dealer=s.is_dealer, tsumo=s.tsumo, notes=notes)
    return _finish(result, mangan, s, rules)

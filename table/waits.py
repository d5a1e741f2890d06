"""Waits, tenpai and discard furiten for a 13-tile hand (the `mahjong` package has only shanten).

A wait is a tile kind that completes the concealed part into sets and a pair, seven pairs or
thirteen orphans. A kind the hand already holds all four of (concealed plus melds) cannot be drawn,
so it is no wait: a hand waiting only on such a tile is not tenpai (karaten). Furiten here is the
discard kind (a player may not ron while any of their waits is among their own discards); temporary
and riichi furiten depend on turn order that a snapshot of the table does not show.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from table.errors import InputError
from table.hand import Hand, Meld, meld_faults, red_five_faults
from table.hand_rules import HandRules
from table.tiles import HONOR, Tile, kind_name, to_mpsz

SHAPES = {
    "ryanmen": "two-sided (ryanmen)",
    "kanchan": "closed (kanchan)",
    "penchan": "edge (penchan)",
    "shanpon": "dual pon (shanpon)",
    "tanki": "single (tanki)",
    "chiitoitsu": "seven pairs single (chiitoitsu tanki)",
    "kokushi": "thirteen orphans",
    "kokushi-13": "thirteen orphans 13-sided",
    "knitted-straight": "knitted straight (MCR 35)",
    "honors-knitted": "honors and knitted tiles (MCR 20 or 34)",
}
_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)


@dataclass(frozen=True, slots=True)
class Wait:
    """A winning tile kind (0..33) and the shapes it completes (keys of SHAPES)."""

    tile_kind: int
    shapes: tuple[str, ...]

    @property
    def name(self) -> str:
        return kind_name(self.tile_kind)


@dataclass(frozen=True, slots=True)
class FuritenResult:
    furiten: bool
    tiles: list[int]
    reason: str


def _decompose(counts: list[int], need_pair: bool) -> list[list[tuple[str, int]]]:
    """All ways to split `counts` into sets (("pon"|"chi", first kind)) and one pair (("pair", k))."""
    i = next((k for k in range(34) if counts[k]), -1)
    if i < 0:
        return [[]]
    out: list[list[tuple[str, int]]] = []
    if counts[i] >= 3:
        counts[i] -= 3
        out += [[("pon", i), *rest] for rest in _decompose(counts, need_pair)]
        counts[i] += 3
    if i < HONOR and i % 9 <= 6 and counts[i + 1] and counts[i + 2]:
        for k in (i, i + 1, i + 2):
            counts[k] -= 1
        out += [[("chi", i), *rest] for rest in _decompose(counts, need_pair)]
        for k in (i, i + 1, i + 2):
            counts[k] += 1
    if need_pair and counts[i] >= 2:
        counts[i] -= 2
        out += [[("pair", i), *rest] for rest in _decompose(counts, False)]
        counts[i] += 2
    return out


def _shapes_for(counts: list[int], win: int, closed: bool) -> set[str]:
    shapes: set[str] = set()
    for groups in _decompose(counts, True):
        if not any(g == "pair" for g, _ in groups):
            continue
        for g, k in groups:
            if g == "pair" and k == win:
                shapes.add("tanki")
            elif g == "pon" and k == win:
                shapes.add("shanpon")
            elif g == "chi" and k <= win <= k + 2:
                pos = win - k
                if pos == 1:
                    shapes.add("kanchan")
                elif (pos == 2 and k % 9 == 0) or (pos == 0 and k % 9 == 6):
                    shapes.add("penchan")
                else:
                    shapes.add("ryanmen")
    if closed and sum(counts) == 14:
        if sum(1 for c in counts if c == 2) == 7:
            shapes.add("chiitoitsu")
        if all(counts[k] for k in _ORPHANS) and sum(counts[k] for k in _ORPHANS) == 14:
            before = counts[win] - 1
            shapes.add("kokushi-13" if before == 1 else "kokushi")
    return shapes


def _check(hand13: Sequence[Tile], melds: Sequence[Meld], rules: HandRules | None) -> None:
    faults: list[str] = []
    for meld in melds:
        faults.extend(meld_faults(meld))
    if len(melds) > 4:
        faults.append(f"a hand has at most 4 melds, not {len(melds)}")
    expected = 13 - 3 * len(melds)
    if len(hand13) != expected:
        faults.append(
            f"wrong tile count: with {len(melds)} meld(s) a waiting hand has {expected} concealed tiles, "
            f"not {len(hand13)} ({to_mpsz(hand13)})"
        )
    if any(t.is_bonus for t in hand13):
        faults.append("flowers and seasons are not used in riichi")
    counts: dict[int, int] = {}
    for t in [*hand13, *(t for m in melds for t in m.tiles)]:
        counts[t.kind] = counts.get(t.kind, 0) + 1
    for kind, n in sorted(counts.items()):
        if n > 4:
            faults.append(f"{n} copies of {kind_name(kind)} in hand and melds: a set has only 4")
    if rules is not None:
        faults.extend(red_five_faults([*hand13, *(t for m in melds for t in m.tiles)], rules))
    if faults:
        raise InputError("; ".join(dict.fromkeys(faults)))


def _counts(hand13: Sequence[Tile], melds: Sequence[Meld], rules: HandRules | None) -> tuple[list[int], list[int]]:
    """The checked hand's tiles per kind, and those held in hand and melds together (a kind held four times cannot
    come)."""
    _check(hand13, melds, rules)
    counts = [0] * 34
    for t in hand13:
        counts[t.kind] += 1
    held = counts[:]
    for m in melds:
        for t in m.tiles:
            held[t.kind] += 1
    return counts, held


def waits(hand13: Sequence[Tile], melds: Sequence[Meld] = (), rules: HandRules | None = None) -> list[Wait]:
    """The tiles that complete the hand, with their shapes, in kind order.

    Kinds the hand already holds four of (concealed and melds together) are left out: that tile
    cannot come. With `rules`, red fives the set does not hold are bad input too.
    """
    counts, held = _counts(hand13, melds, rules)
    closed = not melds
    result: list[Wait] = []
    for k in range(34):
        if held[k] >= 4:
            continue
        counts[k] += 1
        shapes = _shapes_for(counts, k, closed)
        counts[k] -= 1
        if shapes:
            result.append(Wait(k, tuple(s for s in SHAPES if s in shapes)))
    return result


# MCR's knitted hands, which no riichi shape describes, by the calculator's pattern numbers.
_MCR_KNITTED = {20: "honors-knitted", 34: "honors-knitted", 35: "knitted-straight"}


def system_waits(hand13: Sequence[Tile], melds: Sequence[Meld], system: str,
                 rules: HandRules | None = None) -> list[Wait]:
    """Waits under Zung Jung or MCR: the tiles (not all four already held) that complete a hand the system's own
    scorer takes as a winning shape, whatever it is worth against the minimum.

    Riichi's shapes are not theirs: both count Seven Pairs holding a four of a kind not declared as a quad, and
    MCR has the knitted hands, so each tile is handed to `score_zungjung` or `score_mcr` (no minimum, a win on a
    discard) rather than to `_shapes_for`. The shapes listed describe it: riichi's wait shapes where the hand
    splits into sets and a pair, seven pairs (a four counting as two pairs) and, for MCR, the knitted hand the
    calculator found.
    """
    counts, held = _counts(hand13, melds, rules)
    result: list[Wait] = []
    for k in range(34):
        if held[k] >= 4:
            continue
        hand = Hand(tuple(hand13), Tile(k), tuple(melds))
        knitted = _system_win(system, hand)
        if knitted is None:
            continue
        counts[k] += 1
        shapes = (_shapes_for(counts, k, closed=not melds) - {"chiitoitsu"}) | knitted
        if not melds and sum(counts) == 14 and all(c in (0, 2, 4) for c in counts):
            shapes.add("chiitoitsu")
        counts[k] -= 1
        result.append(Wait(k, tuple(s for s in SHAPES if s in shapes)))
    return result


def _system_win(system: str, hand: Hand) -> set[str] | None:
    """None when the system's scorer does not take `hand` as a win, else the MCR knitted shapes it found (none for
    Zung Jung, whose forms riichi's shapes and seven pairs already name)."""
    if system == "zungjung":
        from table.zungjung import score_zungjung

        return set() if score_zungjung(hand).valid else None
    if system == "mcr":
        from table.mcr import MCRRules, score_mcr

        result = score_mcr(hand, rules=MCRRules(minimum=0))
        return {_MCR_KNITTED[f.number] for f in result.fans if f.number in _MCR_KNITTED} if result.valid else None
    raise InputError(f"system_waits is for zungjung or mcr, not {system!r}: riichi's waits are waits()")


def is_tenpai(hand13: Sequence[Tile], melds: Sequence[Meld] = ()) -> bool:
    """Tenpai: at least one wait on a tile that can still come."""
    return bool(waits(hand13, melds))


def furiten(
    hand13: Sequence[Tile], melds: Sequence[Meld], discards: Iterable[Tile], rules: HandRules | None = None
) -> FuritenResult:
    """Discard furiten: any wait among the player's own discards forbids ron on every wait."""
    discards = list(discards)
    found = waits(hand13, melds, rules)
    if rules is not None and (faults := red_five_faults([*hand13, *(t for m in melds for t in m.tiles), *discards],
                                                        rules)):
        raise InputError(f"{'; '.join(faults)} (counting hand, melds and discards)")
    seen = Counter(t.kind for t in [*hand13, *(t for m in melds for t in m.tiles), *discards])
    if over := [f"{n} copies of {kind_name(k)}" for k, n in sorted(seen.items()) if n > 4]:
        raise InputError(f"{', '.join(over)} in hand, melds and discards: a set has only 4")
    if not found:
        return FuritenResult(False, [], "not tenpai, so not furiten")
    discarded = {t.kind for t in discards}
    hits = [w.tile_kind for w in found if w.tile_kind in discarded]
    wait_names = ", ".join(kind_name(w.tile_kind) for w in found)
    if hits:
        hit_names = ", ".join(kind_name(k) for k in hits)
        return FuritenResult(
            True,
            hits,
            f"waiting on {wait_names}; {hit_names} {'is' if len(hits) == 1 else 'are'} in your own "
            "discards, so no ron on any of them (tsumo is still allowed)",
        )
    return FuritenResult(False, [], f"none of the waits ({wait_names}) is in your discards")

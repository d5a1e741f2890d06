"""Zung Jung 3.3 hand scoring and payoffs (section 2 of the club's rules file), our own code.

Zung Jung is additive: every pattern present in the winning hand adds its points, but only one pattern
per *series* counts (the highest), except 3.1 Value Honor (10 per set) and the optional 11.0 bonus tiles,
which count once per occurrence. Two limits: a total over 320 becomes 320, and a hand holding a single
pattern worth 320 or more scores only its highest such pattern. A hand with no pattern is a Chicken Hand
worth 1 point. The winner may arrange the concealed tiles however suits them best ("freedom to count"),
so every arrangement is scored and the best one is kept; patterns from different arrangements never mix.

Payoff ("fixed payoff principle"): the winner always receives 3x the hand's value. Under the standard
scheme the discarder of a hand over 25 points pays everything above 25 from each of the other two;
the same-round immunity rule moves that responsibility to whoever first discarded the winning tile in
the round (or to no one, if that was the winner). The uniform scheme has everyone pay 1x always.
"""

from __future__ import annotations

import functools
import itertools
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from table.errors import InputError
from table.tiles import (
    DRAGONS,
    FLOWER_KINDS,
    HONOR,
    SEASON_KINDS,
    WIND_LETTERS,
    WINDS,
    Tile,
    kind_name,
    to_mpsz,
)

if TYPE_CHECKING:  # the hand types come from the riichi scoring module; we only read their fields
    from table.hand import Hand, Meld

LIMIT = 320
CHICKEN_POINTS = 1
PAR = 25  # standard payoff: up to this value everyone pays equally on a discard win

# (code, name, points) exactly as section 2 of the rules file lists them.
PATTERNS: dict[str, tuple[str, int]] = {
    "1.1": ("All Sequences", 5),
    "1.2": ("Concealed Hand", 5),
    "1.3": ("All Simples", 5),
    "2.1.1": ("Half Flush", 40),
    "2.1.2": ("Full Flush", 80),
    "2.2": ("Nine Gates", 480),
    "3.1": ("Value Honor", 10),
    "3.2.1": ("Little Three Dragons", 40),
    "3.2.2": ("Big Three Dragons", 130),
    "3.3.1": ("Little Three Winds", 30),
    "3.3.2": ("Big Three Winds", 120),
    "3.3.3": ("Little Four Winds", 320),
    "3.3.4": ("Big Four Winds", 400),
    "3.4": ("All Honors", 320),
    "4.1": ("All Triplets", 30),
    "4.2.1": ("Two Concealed Triplets", 5),
    "4.2.2": ("Three Concealed Triplets", 30),
    "4.2.3": ("Four Concealed Triplets", 125),
    "4.3.1": ("One Quad", 5),
    "4.3.2": ("Two Quads", 20),
    "4.3.3": ("Three Quads", 120),
    "4.3.4": ("Four Quads", 480),
    "5.1.1": ("Pure Double Sequence", 10),
    "5.1.2": ("Two Pure Double Sequences", 60),
    "5.1.3": ("Pure Triple Sequence", 120),
    "5.1.4": ("Quadruple Sequence", 480),
    "6.1": ("Mixed Triple Sequence", 35),
    "6.2.1": ("Double Triplet with a Matching Pair", 30),
    "6.2.2": ("Triple Triplet", 120),
    "7.1": ("Pure Straight", 40),
    "7.2.1": ("Three Pure Shifted Triplets", 100),
    "7.2.2": ("Four Pure Shifted Triplets", 200),
    "8.1.1": ("Half Outside Hand", 40),
    "8.1.2": ("Full Outside Hand", 50),
    "8.1.3": ("All Terminals and Honors", 100),
    "8.1.4": ("All Terminals", 400),
    "9.1.1": ("Last Tile Draw", 10),
    "9.1.2": ("Last Tile Claim", 10),
    "9.2": ("Out with the Replacement Tile", 10),
    "9.3": ("Robbing the Quad", 10),
    "9.4.1": ("Blessings of Heaven", 155),
    "9.4.2": ("Blessings of Earth", 155),
    "10.1": ("Thirteen Orphans", 160),
    "10.2": ("Seven Pairs", 30),
    "11.1.1": ("Guest Flower/Season Tile", 2),
    "11.1.2": ("Seat Flower/Season Tile", 4),
    "11.2.1": ("Four Flowers", 10),
    "11.2.2": ("Four Seasons", 10),
}
CHICKEN_NAME = "Chicken Hand"
PAYOFF_SCHEMES = ("standard", "uniform")
_TERMINAL_HONOR_KINDS = (0, 8, 9, 17, 18, 26, *range(HONOR, HONOR + 7))


@dataclass(frozen=True, slots=True)
class ZungJungRules:
    """Table options. `minimum` is the points in patterns a hand needs to win (0: any complete hand,
    a Chicken Hand included; 5: the competitive 5-point minimum). Bonus-tile points never count toward it."""

    minimum: int = 0
    bonus_tiles: bool = False  # play with the optional 11.0 flowers and seasons
    halve_bonus: bool = False  # 11.0: "the point values ... may all be halved"
    payoff: str = "standard"  # or "uniform"

    def __post_init__(self) -> None:
        if self.minimum < 0:
            raise InputError(f"the minimum to win cannot be negative (got {self.minimum})")
        if self.payoff not in PAYOFF_SCHEMES:
            raise InputError(f"unknown Zung Jung payoff scheme {self.payoff!r}: use standard or uniform")


@dataclass(frozen=True, slots=True)
class ZungJungWin:
    """How the hand was won. `last_tile` is 9.1.1 on a self-draw and 9.1.2 on a discard."""

    self_drawn: bool = False
    seat_wind: int = 0  # 0..3 = East South West North; Zung Jung has no table (prevailing) wind
    last_tile: bool = False
    replacement: bool = False  # 9.2: self-draw on the replacement tile of a quad
    robbing_quad: bool = False  # 9.3: won on the tile another player added to a melded triplet
    heaven: bool = False  # 9.4.1: East wins on the dealt 14 tiles
    earth: bool = False  # 9.4.2: a non-East player wins on East's first discard
    bonus: tuple[Tile, ...] = ()  # melded flowers (1f-4f) and seasons (1g-4g)


@dataclass(frozen=True, slots=True)
class Pattern:
    """One scored pattern: its number in the rules list, its name, its points, and what it was made of."""

    code: str
    name: str
    points: int
    detail: str = ""

    def to_json(self) -> dict:
        out = {"code": self.code, "name": self.name, "points": self.points}
        if self.detail:
            out["detail"] = self.detail
        return out


@dataclass(slots=True)
class ZungJungResult:
    valid: bool
    error: str | None = None
    patterns: list[Pattern] = field(default_factory=list)
    total: int = 0
    limit: str | None = None  # "cap" (sum over 320 cut to 320) or "single" (one pattern >= 320 scored alone)
    chicken: bool = False
    pattern_points: int = 0  # points from patterns other than bonus tiles: what the minimum is checked on
    bonus_points: int = 0
    arrangement: str = ""

    def to_json(self) -> dict:
        return {
            "system": "zungjung",
            "valid": self.valid,
            "error": self.error,
            "patterns": [p.to_json() for p in self.patterns],
            "total": self.total,
            "limit": self.limit,
            "chicken": self.chicken,
            "pattern_points": self.pattern_points,
            "bonus_points": self.bonus_points,
            "arrangement": self.arrangement,
        }


def _pattern(code: str, detail: str = "", points: int | None = None) -> Pattern:
    name, value = PATTERNS[code]
    return Pattern(code, name, value if points is None else points, detail)


# --- the arrangement of a hand into sets -------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Set:
    """A set of the arrangement. `kind` is the lowest tile kind; `concealed` follows the 4.2 rules."""

    shape: str  # "seq", "triplet", "quad", "pair"
    kind: int
    concealed: bool
    melded: bool = False  # claimed from a discard (chi/pon/open quad): breaks 1.2 Concealed Hand

    @property
    def kinds(self) -> tuple[int, ...]:
        if self.shape == "seq":
            return (self.kind, self.kind + 1, self.kind + 2)
        return (self.kind,) * {"triplet": 3, "quad": 4, "pair": 2}[self.shape]

    @property
    def is_triplet(self) -> bool:
        return self.shape in ("triplet", "quad")

    def __str__(self) -> str:
        text = to_mpsz(Tile(k) for k in self.kinds)
        if self.shape == "quad":
            return f"[{text}]" if not self.concealed else f"({text})"
        return f"[{text}]" if self.melded else text


@dataclass(frozen=True, slots=True)
class _Arrangement:
    form: str  # "regular", "seven-pairs", "thirteen-orphans"
    sets: tuple[_Set, ...]  # four sets for a regular hand (melds first)
    pair: _Set | None

    def describe(self) -> str:
        if self.form == "thirteen-orphans":
            return "thirteen orphans"
        parts = [str(s) for s in self.sets]
        if self.pair is not None:
            parts.append(str(self.pair))
        return " ".join(parts) + (" (seven pairs)" if self.form == "seven-pairs" else "")


def _meld_set(meld: Meld) -> _Set:
    kinds = sorted(t.kind for t in meld.tiles)
    if any(k >= 34 for k in kinds):
        raise InputError("flowers and seasons are not melds: give them as bonus tiles")
    if meld.kind == "chi":
        if len(kinds) != 3 or kinds[0] >= HONOR or kinds[0] // 9 != kinds[2] // 9 or kinds != list(
            range(kinds[0], kinds[0] + 3)
        ):
            raise InputError(f"a sequence must be three consecutive tiles of one suit, not {to_mpsz(meld.tiles)}")
        return _Set("seq", kinds[0], concealed=False, melded=True)
    size = {"pon": 3, "kan": 4, "added-kan": 4, "closed-kan": 4}.get(meld.kind)
    if size is None:
        raise InputError(f"unknown meld kind {meld.kind!r}")
    if len(kinds) != size or len(set(kinds)) != 1:
        raise InputError(f"a {meld.kind} is {size} identical tiles, not {to_mpsz(meld.tiles)}")
    if size == 3:
        return _Set("triplet", kinds[0], concealed=False, melded=True)
    closed = meld.kind == "closed-kan"
    return _Set("quad", kinds[0], concealed=closed, melded=not closed)


def _decompose(counts: list[int], start: int = 0) -> Iterator[list[tuple[str, int]]]:
    """Every way to split the counts into triplets and sequences (lowest tile first)."""
    while start < 34 and counts[start] == 0:
        start += 1
    if start >= 34:
        yield []
        return
    if counts[start] >= 3:
        counts[start] -= 3
        for rest in _decompose(counts, start):
            yield [("triplet", start), *rest]
        counts[start] += 3
    if start < HONOR and start % 9 <= 6 and counts[start + 1] and counts[start + 2]:
        for k in (start, start + 1, start + 2):
            counts[k] -= 1
        for rest in _decompose(counts, start):
            yield [("seq", start), *rest]
        for k in (start, start + 1, start + 2):
            counts[k] += 1


def _arrangements(hand: Hand, self_drawn: bool) -> list[_Arrangement]:
    meld_sets = tuple(_meld_set(m) for m in hand.melds)
    tiles = [t.kind for t in hand.concealed] + [hand.win.kind]
    counts = [0] * 34
    for k in tiles:
        counts[k] += 1
    win = hand.win.kind
    found: list[_Arrangement] = []
    for pair in range(34):
        if counts[pair] < 2:
            continue
        counts[pair] -= 2
        for sets in _decompose(counts):
            # Freedom to count: on a discard win the winning tile completes a triplet only if no sequence
            # or the pair of this arrangement can take it, since a claimed tile makes that triplet exposed.
            exposed = None
            if not self_drawn and pair != win and not any(s == "seq" and s_k <= win <= s_k + 2 for s, s_k in sets):
                exposed = win
            hand_sets = tuple(
                _Set(shape, k, concealed=not (shape == "triplet" and k == exposed)) for shape, k in sets
            )
            found.append(_Arrangement("regular", meld_sets + hand_sets, _Set("pair", pair, concealed=True)))
        counts[pair] += 2
    if not hand.melds:
        if all(c in (0, 2, 4) for c in counts) and sum(counts) == 14:
            pairs = tuple(_Set("pair", k, concealed=True) for k in range(34) for _ in range(counts[k] // 2))
            found.append(_Arrangement("seven-pairs", pairs, None))
        if all(counts[k] >= 1 for k in _TERMINAL_HONOR_KINDS) and sum(counts[k] for k in _TERMINAL_HONOR_KINDS) == 14:
            found.append(_Arrangement("thirteen-orphans", (), None))
    return found


# --- patterns ------------------------------------------------------------------------------------------


def _suit(kind: int) -> int:
    return kind // 9 if kind < HONOR else 3


def _is_nine_gates(hand: Hand) -> bool:
    kinds = [t.kind for t in hand.concealed]
    if hand.melds or len(kinds) != 13 or any(k >= HONOR for k in kinds) or len({k // 9 for k in kinds}) != 1:
        return False
    base = kinds[0] // 9 * 9
    return [kinds.count(base + i) for i in range(9)] == [3, 1, 1, 1, 1, 1, 1, 1, 3] and _suit(hand.win.kind) == _suit(
        base
    )


def _hand_patterns(arr: _Arrangement, hand: Hand, win: ZungJungWin) -> list[Pattern]:
    """Patterns of categories 1-10 for one arrangement, one per series (3.1 once per set)."""
    tiles = [t.kind for t in hand.concealed] + [hand.win.kind]
    for m in hand.melds:
        tiles += [t.kind for t in m.tiles]
    out: list[Pattern] = []
    regular = arr.form == "regular"
    sets = arr.sets if regular else ()
    pair = arr.pair
    numbers = [k for k in tiles if k < HONOR]
    honors = [k for k in tiles if k >= HONOR]

    # 1.0 trivial patterns
    if regular and all(s.shape == "seq" for s in sets):
        out.append(_pattern("1.1"))
    if regular and not any(s.melded for s in sets):
        out.append(_pattern("1.2"))
    if all(k < HONOR and k % 9 not in (0, 8) for k in tiles):
        out.append(_pattern("1.3"))

    # 2.0 single-suited patterns
    suits = {k // 9 for k in numbers}
    if regular and _is_nine_gates(hand):
        out.append(_pattern("2.2", "1112345678999 + " + str(hand.win)))
    if len(suits) == 1:
        out.append(_pattern("2.1.1") if honors else _pattern("2.1.2"))

    # 3.0 honour tiles
    triplets = [s for s in sets if s.is_triplet]
    seat = WINDS[win.seat_wind]
    for s in triplets:
        if s.kind in DRAGONS or s.kind == seat:
            why = "seat wind" if s.kind == seat else "dragon"
            out.append(_pattern("3.1", f"{kind_name(s.kind)} ({why})"))
    dragon_sets = sum(1 for s in triplets if s.kind in DRAGONS)
    wind_sets = sum(1 for s in triplets if s.kind in WINDS)
    pair_kind = pair.kind if (regular and pair is not None) else None
    if dragon_sets == 3:
        out.append(_pattern("3.2.2"))
    elif dragon_sets == 2 and pair_kind in DRAGONS:
        out.append(_pattern("3.2.1"))
    if wind_sets == 4:
        out.append(_pattern("3.3.4"))
    elif wind_sets == 3 and pair_kind in WINDS:
        out.append(_pattern("3.3.3"))
    elif wind_sets == 3:
        out.append(_pattern("3.3.2"))
    elif wind_sets == 2 and pair_kind in WINDS:
        out.append(_pattern("3.3.1"))
    if not numbers:
        out.append(_pattern("3.4"))

    # 4.0 triplets and quads
    if regular and len(triplets) == 4:
        out.append(_pattern("4.1"))
    concealed_triplets = sum(1 for s in triplets if s.concealed)
    if concealed_triplets >= 2:
        out.append(_pattern({2: "4.2.1", 3: "4.2.2", 4: "4.2.3"}[concealed_triplets]))
    quads = sum(1 for s in sets if s.shape == "quad")
    if quads:
        out.append(_pattern({1: "4.3.1", 2: "4.3.2", 3: "4.3.3", 4: "4.3.4"}[quads]))

    # 5.0 identical sets
    seqs = Counter(s.kind for s in sets if s.shape == "seq")
    most = max(seqs.values(), default=0)
    if most == 4:
        out.append(_pattern("5.1.4", f"4x {_seq_name(seqs.most_common(1)[0][0])}"))
    elif most == 3:
        out.append(_pattern("5.1.3", f"3x {_seq_name(seqs.most_common(1)[0][0])}"))
    elif sum(1 for n in seqs.values() if n >= 2) == 2:
        out.append(_pattern("5.1.2"))
    elif most == 2:
        out.append(_pattern("5.1.1", f"2x {_seq_name(seqs.most_common(1)[0][0])}"))

    # 6.0 similar sets (number tiles of equal rank in different suits)
    seq_ranks = {(k % 9, k // 9) for k in seqs}
    for rank in range(7):
        if all((rank, suit) in seq_ranks for suit in range(3)):
            out.append(_pattern("6.1", f"{rank + 1}{rank + 2}{rank + 3} in all three suits"))
            break
    trip_ranks = Counter(s.kind % 9 for s in triplets if s.kind < HONOR)
    if trip_ranks and max(trip_ranks.values()) == 3:
        out.append(_pattern("6.2.2", f"three {trip_ranks.most_common(1)[0][0] + 1}s"))
    elif pair_kind is not None and pair_kind < HONOR and trip_ranks.get(pair_kind % 9, 0) == 2:
        out.append(_pattern("6.2.1", f"two {pair_kind % 9 + 1}s and a pair of {pair_kind % 9 + 1}s"))

    # 7.0 consecutive sets
    for suit in range(3):
        if all(suit * 9 + start in seqs for start in (0, 3, 6)):
            out.append(_pattern("7.1", "123 456 789" + "mps"[suit]))
            break
    run = _longest_triplet_run(s.kind for s in triplets if s.kind < HONOR)
    if run >= 4:
        out.append(_pattern("7.2.2"))
    elif run == 3:
        out.append(_pattern("7.2.1"))

    # 8.0 terminal patterns
    terminal_or_honor = all(k >= HONOR or k % 9 in (0, 8) for k in tiles)
    if arr.form != "thirteen-orphans":
        if numbers and not honors and terminal_or_honor:
            out.append(_pattern("8.1.4"))
        elif numbers and terminal_or_honor:
            out.append(_pattern("8.1.3"))
        elif regular and all(_has_terminal(s) for s in (*sets, pair)):
            out.append(_pattern("8.1.2"))
        elif regular and all(_has_terminal(s, honors=True) for s in (*sets, pair)):
            out.append(_pattern("8.1.1"))

    # 9.0 incidental bonuses
    if win.last_tile:
        out.append(_pattern("9.1.1" if win.self_drawn else "9.1.2"))
    if win.replacement:
        out.append(_pattern("9.2"))
    if win.robbing_quad:
        out.append(_pattern("9.3"))
    if win.heaven:
        out.append(_pattern("9.4.1"))
    elif win.earth:
        out.append(_pattern("9.4.2"))

    # 10.0 irregular hands (never with 1.2 Concealed Hand, which is only given to regular hands above)
    if arr.form == "thirteen-orphans":
        out.append(_pattern("10.1", f"pair of {kind_name(Counter(tiles).most_common(1)[0][0])}"))
    elif arr.form == "seven-pairs":
        out.append(_pattern("10.2"))
    return out


def _seq_name(kind: int) -> str:
    return to_mpsz(Tile(k) for k in (kind, kind + 1, kind + 2))


def _has_terminal(s: _Set, *, honors: bool = False) -> bool:
    return any((k < HONOR and k % 9 in (0, 8)) or (honors and k >= HONOR) for k in s.kinds)


def _longest_triplet_run(kinds: Iterable[int]) -> int:
    present = set(kinds)
    best = 0
    for k in present:
        if k - 1 in present and (k - 1) // 9 == k // 9:
            continue
        n = 1
        while k + n in present and (k + n) // 9 == k // 9:
            n += 1
        best = max(best, n)
    return best


def bonus_patterns(bonus: Sequence[Tile], seat_wind: int, *, halve: bool = False) -> list[Pattern]:
    """11.0: every bonus tile scores (seat 4, guest 2), plus 10 for each complete set of four.

    These are cumulative with no exclusions: a bouquet of four flowers is 10 + 4 + 2 + 2 + 2 = 20.
    """
    out: list[Pattern] = []
    for tile in sorted(bonus):
        seat_tile = tile.number == seat_wind + 1
        code = "11.1.2" if seat_tile else "11.1.1"
        out.append(_pattern(code, f"{kind_name(tile.kind)} ({str(tile)})"))
    kinds = {t.kind for t in bonus}
    if all(k in kinds for k in FLOWER_KINDS):
        out.append(_pattern("11.2.1"))
    if all(k in kinds for k in SEASON_KINDS):
        out.append(_pattern("11.2.2"))
    if halve:
        out = [Pattern(p.code, p.name, p.points // 2, p.detail) for p in out]
    return out


# --- the totals a hand can make -----------------------------------------------------------------------

VALUE_HONOR_SETS = 4
"""3.1 Value Honor counts once per dragon or seat-wind set: at most four sets in a hand."""


def series_of(code: str) -> str:
    """The series a pattern belongs to ("4.2" for 4.2.1-4.2.3; a two-part code such as "1.2" is its own series):
    a hand counts one pattern per series."""
    return code.rsplit(".", 1)[0] if code.count(".") == 2 else code


@functools.cache
def possible_totals() -> frozenset[int]:
    """Every value a Zung Jung win can have, worked out from the pattern table, so that a value typed by hand
    that no hand makes is caught (3 points) while none a hand makes is refused.

    It errs on the generous side: any one pattern per series is added to any other (3.1 up to four times),
    whether or not one hand can hold both, then the two limits apply; a Chicken Hand is 1. Bonus tiles (11.0,
    at their full value, as game keeping scores them) add any sum a set of the eight flowers and seasons makes:
    a Chicken Hand with one guest flower is worth 2.
    """
    by_series: dict[str, list[int]] = {}
    for code, (_, points) in PATTERNS.items():
        if not code.startswith("11.") and points < LIMIT:
            by_series.setdefault(series_of(code), []).append(points)
    by_series["3.1"] = [PATTERNS["3.1"][1] * sets for sets in range(1, VALUE_HONOR_SETS + 1)]
    sums = {0}
    for options in by_series.values():
        sums |= {min(total + points, LIMIT) for total in sums for points in options}
    bonus_tiles = [Tile(kind) for kind in (*FLOWER_KINDS, *SEASON_KINDS)]
    bonus_sums = {sum(p.points for p in bonus_patterns(chosen, 0))
                  for n in range(len(bonus_tiles) + 1) for chosen in itertools.combinations(bonus_tiles, n)}
    totals = {CHICKEN_POINTS} | {points for _, points in PATTERNS.values() if points >= LIMIT}
    totals |= {min(hand + bonus, LIMIT) for hand in sums for bonus in bonus_sums if hand or bonus}
    return frozenset(totals)


def impossible_total(value: int) -> str | None:
    """Why no Zung Jung win is worth `value` points (naming the nearest values that are), or None if one can be."""
    totals = possible_totals()
    if value in totals:
        return None
    if value > max(totals):
        return f"no Zung Jung hand is worth more than {max(totals)}"
    nearest = [t for t in (max((t for t in totals if t < value), default=None), min(t for t in totals if t > value))
               if t is not None]
    values = " and ".join(map(str, nearest))
    return f"no Zung Jung hand adds up to {value} (the nearest {'are' if len(nearest) > 1 else 'is'} {values})"


# --- validation -------------------------------------------------------------------------------------


def situation_fault(win: ZungJungWin) -> str | None:
    """Why the win's incidental bonuses (9.1-9.4) cannot all have happened at once, or None.

    Riichi refuses the same combinations (`table.scoring.situation_faults`) in the same words: the blessings are
    first-turn wins, which no Seabed tile, replacement tile or robbed quad can be (any quad ends the first turn);
    a replacement tile comes from the Dead Wall, never the Seabed (the last tile of the Live Wall); and 9.1.2 is
    a win on a discard, which a tile robbed from a quad is not.
    """
    if (win.heaven or win.earth) and (win.last_tile or win.replacement or win.robbing_quad):
        return ("a first-turn win (9.4.1 Blessings of Heaven, 9.4.2 Blessings of Earth) is not on the last tile, "
                "a quad's replacement tile or a robbed quad (any quad ends the first turn)")
    if win.last_tile and win.replacement and win.self_drawn:
        return ("9.1.1 Last Tile Draw and 9.2 Out with the Replacement Tile cannot both apply (the replacement tile "
                "comes from the Dead Wall, not the Seabed)")
    if win.last_tile and win.robbing_quad and not win.self_drawn:
        return ("9.1.2 Last Tile Claim and 9.3 Robbing the Quad cannot both apply (9.1.2 is a win on the discard "
                "after the Seabed tile; a robbed tile is no discard)")
    return None


def validate_zungjung(hand: Hand, win: ZungJungWin, rules: ZungJungRules) -> None:
    """Raise InputError for input that cannot describe a real Zung Jung win (one clear reason)."""
    if not 0 <= win.seat_wind <= 3:
        raise InputError(f"seat wind must be 0..3 (E S W N), not {win.seat_wind}")
    for t in (*hand.concealed, hand.win):
        if t.is_bonus:
            raise InputError(f"{kind_name(t.kind)} is a bonus tile: give flowers and seasons separately")
    meld_sets = [_meld_set(m) for m in hand.melds]
    if len(meld_sets) > 4:
        raise InputError(f"a hand has at most four sets, not {len(meld_sets)} melds")
    expected = 13 - 3 * len(meld_sets)
    if len(hand.concealed) != expected:
        raise InputError(
            f"with {len(meld_sets)} meld(s) the concealed part must hold {expected} tiles before the winning tile, "
            f"not {len(hand.concealed)}"
        )
    counts = Counter(t.kind for t in hand.concealed)
    counts[hand.win.kind] += 1
    for m in hand.melds:
        counts.update(t.kind for t in m.tiles)
    over = sorted(k for k, n in counts.items() if n > 4)
    if over:
        raise InputError(f"there are only four of each tile, but this hand has {counts[over[0]]}x {kind_name(over[0])}")
    kinds = [t.kind for t in win.bonus]
    if any(k < 34 for k in kinds):
        raise InputError("only flowers (1f-4f) and seasons (1g-4g) can be bonus tiles")
    if len(set(kinds)) != len(kinds):
        raise InputError("each flower and season exists once: a bonus tile is listed twice")
    if kinds and not rules.bonus_tiles:
        raise InputError("this table plays without bonus tiles (11.0 is optional): enable them to score flowers")
    if win.replacement and not win.self_drawn:
        raise InputError("9.2 Out with the Replacement Tile is a self-draw win")
    if win.replacement and not any(s.shape == "quad" for s in meld_sets):
        raise InputError("9.2 Out with the Replacement Tile needs a declared quad in the hand")
    if win.robbing_quad and win.self_drawn:
        raise InputError("9.3 Robbing the Quad is a win on another player's tile, not a self-draw")
    if win.robbing_quad and counts[hand.win.kind] > 1:
        raise InputError(
            f"9.3 Robbing the Quad takes the fourth {kind_name(hand.win.kind)}: the winner cannot hold another one"
        )
    if fault := situation_fault(win):
        raise InputError(fault)
    if win.heaven and win.earth:
        raise InputError("a hand cannot be both Blessings of Heaven and Blessings of Earth")
    if win.heaven and (not win.self_drawn or win.seat_wind != 0 or hand.melds):
        raise InputError("9.4.1 Blessings of Heaven is East self-drawing on the dealt hand, with no meld or quad")
    if win.earth and (win.self_drawn or win.seat_wind == 0 or hand.melds):
        raise InputError("9.4.2 Blessings of Earth is a non-East player winning on East's first discard, with no meld")


# --- scoring ------------------------------------------------------------------------------------------


def _total(patterns: list[Pattern]) -> tuple[int, str | None, list[Pattern]]:
    """Apply the two limits; returns (total, limit, the patterns that count)."""
    big = [p for p in patterns if p.points >= LIMIT]
    if big:
        best = max(big, key=lambda p: p.points)
        return best.points, "single", [best]
    total = sum(p.points for p in patterns)
    if total > LIMIT:
        return LIMIT, "cap", patterns
    return total, None, patterns


def score_zungjung(hand: Hand, win: ZungJungWin | None = None, rules: ZungJungRules | None = None) -> ZungJungResult:
    """Score a winning hand under Zung Jung 3.3, choosing the best arrangement of its concealed tiles.

    Never raises for a complete-looking hand that is not a winning one (`valid=False` with the reason);
    raises InputError for input that cannot be a real hand.
    """
    win = win or ZungJungWin()
    rules = rules or ZungJungRules()
    validate_zungjung(hand, win, rules)
    arrangements = _arrangements(hand, win.self_drawn)
    if not arrangements:
        return ZungJungResult(
            valid=False,
            error="not a winning hand: it is neither four sets and a pair, nor Seven Pairs, nor Thirteen Orphans",
        )
    bonus = bonus_patterns(win.bonus, win.seat_wind, halve=rules.halve_bonus)
    bonus_points = sum(p.points for p in bonus)
    best: ZungJungResult | None = None
    for arr in arrangements:
        hand_patterns = _hand_patterns(arr, hand, win)
        pattern_total, _, _ = _total(hand_patterns)
        chicken = not hand_patterns and not bonus
        patterns = hand_patterns + bonus
        if chicken:
            patterns = [Pattern("", CHICKEN_NAME, CHICKEN_POINTS, "no pattern: any complete hand scores 1")]
        total, limit, counted = _total(patterns)
        result = ZungJungResult(
            valid=True,
            patterns=counted,
            total=total,
            limit=limit,
            chicken=chicken,
            pattern_points=CHICKEN_POINTS if chicken else pattern_total,
            bonus_points=bonus_points if limit != "single" else 0,
            arrangement=arr.describe(),
        )
        if best is None or (result.total, result.pattern_points) > (best.total, best.pattern_points):
            best = result
    assert best is not None
    if best.pattern_points < rules.minimum:
        best.valid = False
        best.error = (
            f"below the {rules.minimum}-point minimum: the patterns score {best.pattern_points}"
            + (" (bonus tiles do not count toward it)" if best.bonus_points else "")
        )
    return best


# --- payoff -------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ZungJungPayoff:
    """Who pays what: `paid[seat]` is what that seat pays the winner (0 for the winner), `deltas` the
    score change of each seat (the winner's is always +3x the value)."""

    value: int
    winner: int
    paid: tuple[int, int, int, int]
    responsible: int | None

    @property
    def deltas(self) -> tuple[int, int, int, int]:
        total = sum(self.paid)
        return tuple(total if s == self.winner else -self.paid[s] for s in range(4))  # type: ignore[return-value]

    def to_json(self) -> dict:
        return {
            "value": self.value,
            "winner": self.winner,
            "paid": list(self.paid),
            "responsible": self.responsible,
            "deltas": list(self.deltas),
        }


def zungjung_payoff(
    value: int,
    winner: int,
    *,
    self_drawn: bool,
    discarder: int | None = None,
    first_discarder: int | None = None,
    scheme: str = "standard",
) -> ZungJungPayoff:
    """Split the winner's 3x `value` among the other three seats.

    `discarder` is the seat whose tile was won on (for 9.3 Robbing the Quad: the player adding to the quad).
    `first_discarder` applies same-round immunity: the seat that discarded the same tile first in this round
    (between the winner's last discard and the win), which takes the responsibility; if that was the winner,
    no one is responsible and all pay equally.
    """
    if value < 1:
        raise InputError(f"a winning hand is worth at least 1 point, not {value}")
    if scheme not in PAYOFF_SCHEMES:
        raise InputError(f"unknown Zung Jung payoff scheme {scheme!r}: use standard or uniform")
    _check_seat(winner, "winner")
    responsible: int | None = None
    if self_drawn:
        if discarder is not None or first_discarder is not None:
            raise InputError("a self-drawn win has no discarder")
    else:
        if discarder is None:
            raise InputError("a win on a discard needs the discarder's seat")
        _check_seat(discarder, "discarder")
        if discarder == winner:
            raise InputError("the winner cannot win on their own discard")
        responsible = discarder
        if first_discarder is not None:
            _check_seat(first_discarder, "first discarder")
            responsible = None if first_discarder == winner else first_discarder
    paid = [0, 0, 0, 0]
    for seat in range(4):
        if seat != winner:
            paid[seat] = value
    if scheme == "standard" and responsible is not None and value > PAR:
        for seat in range(4):
            if seat not in (winner, responsible):
                paid[seat] = PAR
        paid[responsible] = 3 * value - 2 * PAR
    if scheme == "uniform":
        responsible = None
    return ZungJungPayoff(value, winner, tuple(paid), responsible)  # type: ignore[arg-type]


def _check_seat(seat: int, what: str) -> None:
    if not isinstance(seat, int) or not 0 <= seat <= 3:
        raise InputError(f"{what} must be a seat 0..3, not {seat!r}")


def seat_wind_letter(seat_wind: int) -> str:
    return WIND_LETTERS[seat_wind]

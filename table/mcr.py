"""MCR (Mahjong Competition Rules, "International", 81 fan) scoring and payments (section 4 of the rules file).

The fan count itself comes from PyMahjongGB, a wrapper of the standard C++ fan calculator, which applies the
non-repeat, non-separation, non-identical, freedom-to-choose and exclusionary principles for us. It is an
optional extra (`pip install 'jantaku[mcr]'`) because it is a C++ build with no ARM wheel; without it scoring
raises InputError saying what to install. What this module adds around it:

* our tile notation and melds in, the club's pattern numbers and names (1-81) out;
* the club's value for 48 Two Concealed Quads (8, where the calculator gives 6) and, as the club's list has
  no such pattern, a concealed plus a melded quad as 67 Concealed Quad + 74 Melded Quad instead of the
  calculator's optional 5-fan "Concealed Kong and Melded Kong" (both switchable with `club_values=False`);
* flowers (1 fan each, 81) that never count toward the 8-fan minimum; the minimum itself (the calculator
  happily returns a 6-fan hand);
* payments: 8 base points from each player, plus the hand's value from the discarder, or from everyone on
  a self-draw.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from table.errors import InputError
from table.tiles import HONOR, Tile, kind_name, to_mpsz

if TYPE_CHECKING:
    from table.hand import Hand, Meld

MINIMUM = 8
BASE = 8  # every loser pays the winner 8 points before the hand's value
BEGINNER_MINIMUM = 6  # the club's beginner sub-format: a 6-fan minimum and no base payment

# The club's numbered list (section 4), in the calculator's order: (number, name, points).
FANS: tuple[tuple[int, str, int], ...] = tuple(
    (i + 1, name, pts)
    for i, (name, pts) in enumerate(
        [(n, 88) for n in ("Big Four Winds", "Big Three Dragons", "All Green", "Nine Gates", "Four Quads",
                           "Seven Shifted Pairs", "Thirteen Orphans")]
        + [(n, 64) for n in ("All Terminals", "Little Four Winds", "Little Three Dragons", "All Honors",
                             "Four Concealed Triplets", "Pure Terminal Sequences")]
        + [(n, 48) for n in ("Quadruple Sequence", "Four Pure Shifted Triplets")]
        + [(n, 32) for n in ("Four Pure Shifted Sequences", "Three Quads", "All Terminals and Honors")]
        + [(n, 24) for n in ("Seven Pairs", "Greater Honors and Knitted Tiles", "All Even Triplets", "Full Flush",
                             "Pure Triple Sequence", "Three Pure Shifted Triplets", "Upper Three", "Middle Three",
                             "Lower Three")]
        + [(n, 16) for n in ("Pure Straight", "Three-Suited Terminal Sequences", "Three Pure Shifted Sequences",
                             "All Fives", "Triple Triplet", "Three Concealed Triplets")]
        + [(n, 12) for n in ("Lesser Honors and Knitted Tiles", "Knitted Straight", "Upper Four", "Lower Four",
                             "Big Three Winds")]
        + [(n, 8) for n in ("Mixed Straight", "Reversible Tiles", "Mixed Triple Sequence", "Mixed Shifted Triplets",
                            "Chicken Hand", "Last Tile Draw", "Last Tile Claim", "Out with the Replacement Tile",
                            "Robbing the Quad", "Two Concealed Quads")]
        + [(n, 6) for n in ("All Triplets", "Half Flush", "Mixed Shifted Sequences", "All Types", "Melded Hand",
                            "Two Dragon Triplets")]
        + [(n, 4) for n in ("Outside Hand", "Fully Concealed Hand", "Two Melded Quads", "Last Tile")]
        + [(n, 2) for n in ("Dragon Triplet", "Table Wind", "Seat Wind", "Concealed Hand", "All Sequences",
                            "Tile Hog", "Double Triplet", "Two Concealed Triplets", "Concealed Quad",
                            "All Simples")]
        + [(n, 1) for n in ("Pure Double Sequence", "Mixed Double Sequence", "Short Straight",
                            "Two Terminal Sequences", "Terminal/Honor Triplet", "Melded Quad", "One Voided Suit",
                            "No Honors", "Edge Wait", "Closed Wait", "Single Wait", "Self-Drawn", "Flower Tiles")]
    )
)
_BY_NUMBER = {n: (name, pts) for n, name, pts in FANS}

# The calculator's English names (its fan table order differs from the club's only in where 48 sits).
_CALC_NAMES = {
    "Big Four Winds": 1, "Big Three Dragons": 2, "All Green": 3, "Nine Gates": 4, "Four Kongs": 5,
    "Seven Shifted Pairs": 6, "Thirteen Orphans": 7, "All Terminals": 8, "Little Four Winds": 9,
    "Little Three Dragons": 10, "All Honors": 11, "Four Concealed Pungs": 12, "Pure Terminal Chows": 13,
    "Quadruple Chow": 14, "Four Pure Shifted Pungs": 15, "Four Pure Shifted Chows": 16, "Three Kongs": 17,
    "All Terminals and Honors": 18, "Seven Pairs": 19, "Greater Honors and Knitted Tiles": 20,
    "All Even Pungs": 21, "Full Flush": 22, "Pure Triple Chow": 23, "Pure Shifted Pungs": 24, "Upper Tiles": 25,
    "Middle Tiles": 26, "Lower Tiles": 27, "Pure Straight": 28, "Three-Suited Terminal Chows": 29,
    "Pure Shifted Chows": 30, "All Five": 31, "Triple Pung": 32, "Three Concealed Pungs": 33,
    "Lesser Honors and Knitted Tiles": 34, "Knitted Straight": 35, "Upper Four": 36, "Lower Four": 37,
    "Big Three Winds": 38, "Mixed Straight": 39, "Reversible Tiles": 40, "Mixed Triple Chow": 41,
    "Mixed Shifted Pungs": 42, "Chicken Hand": 43, "Last Tile Draw": 44, "Last Tile Claim": 45,
    "Out with Replacement Tile": 46, "Robbing The Kong": 47, "Two Concealed Kongs": 48, "All Pungs": 49,
    "Half Flush": 50, "Mixed Shifted Chows": 51, "All Types": 52, "Melded Hand": 53, "Two Dragons Pungs": 54,
    "Outside Hand": 55, "Fully Concealed Hand": 56, "Two Melded Kongs": 57, "Last Tile": 58, "Dragon Pung": 59,
    "Prevalent Wind": 60, "Seat Wind": 61, "Concealed Hand": 62, "All Chows": 63, "Tile Hog": 64,
    "Double Pung": 65, "Two Concealed Pungs": 66, "Concealed Kong": 67, "All Simples": 68,
    "Pure Double Chow": 69, "Mixed Double Chow": 70, "Short Straight": 71, "Two Terminal Chows": 72,
    "Pung of Terminals or Honors": 73, "Melded Kong": 74, "One Voided Suit": 75, "No Honors": 76,
    "Edge Wait": 77, "Closed Wait": 78, "Single Wait": 79, "Self-Drawn": 80, "Flower Tiles": 81,
}
_MIXED_KONGS = "Concealed Kong and Melded Kong"  # calculator extension, 5 fan
FLOWER_FAN = 81
TWO_CONCEALED_QUADS = 48
OUT_WITH_REPLACEMENT = 46
SELF_DRAWN = 80

# Our kinds to the calculator's tile codes: W characters (m), B dots (p), T bamboo (s), F1-4 winds,
# J1 red, J2 green, J3 white (the calculator's dragon order is red-green-white).
_SUIT_CODES = "WBT"
_DRAGON_CODES = {HONOR + 4: "J3", HONOR + 5: "J2", HONOR + 6: "J1"}
_OFFER = {"left": 1, "across": 2, "right": 3, None: 1}

INSTALL_HINT = (
    "MCR scoring needs the optional PyMahjongGB package: pip install 'jantaku[mcr]' "
    "(it compiles a C++ extension, so on a Raspberry Pi install g++ and python3-dev first)"
)


@dataclass(frozen=True, slots=True)
class MCRRules:
    """`minimum` is the fan needed to win, flowers excluded (8; 6 in the club's beginner sub-format).
    `club_values` applies the club's list where it departs from the calculator (see the module docstring)."""

    minimum: int = MINIMUM
    club_values: bool = True

    def __post_init__(self) -> None:
        if self.minimum < 0:
            raise InputError(f"the minimum to win cannot be negative (got {self.minimum})")

    @property
    def base(self) -> int:
        """What every loser pays before the hand's value: 8, or 0 at the 6-fan minimum, which is how the club's
        beginner sub-format is named (it "removes the baseline payment, and lowers the required win threshold to
        6 points"); the two go together, so a 6-fan minimum with the 8 base is no format the club plays."""
        return 0 if self.minimum == BEGINNER_MINIMUM else BASE


@dataclass(frozen=True, slots=True)
class MCRWin:
    """How the hand was won. `wall_last` is 44 Last Tile Draw on a self-draw and 45 Last Tile Claim on a
    discard; `last_of_kind` is 58 Last Tile (the winning tile is the last one of its kind that is not visible)."""

    self_drawn: bool = False
    seat_wind: int = 0  # 0..3 = East South West North
    prevalent_wind: int = 0  # the table (round) wind
    wall_last: bool = False
    replacement: bool = False  # 46: self-draw on a replacement tile
    robbing_quad: bool = False  # 47
    last_of_kind: bool = False  # 58
    bonus: tuple[Tile, ...] = ()  # declared flowers and seasons, 1 fan each


@dataclass(frozen=True, slots=True)
class Fan:
    number: int  # the club's pattern number, 1..81
    name: str
    points: int  # value of one occurrence
    count: int = 1

    @property
    def total(self) -> int:
        return self.points * self.count

    def to_json(self) -> dict:
        return {"number": self.number, "name": self.name, "points": self.points, "count": self.count,
                "total": self.total}


@dataclass(slots=True)
class MCRResult:
    valid: bool
    error: str | None = None
    fans: list[Fan] = field(default_factory=list)
    total: int = 0  # what is paid: all fans, flowers included
    flowers: int = 0
    fan_points: int = 0  # flowers excluded: what the minimum is checked on

    def to_json(self) -> dict:
        return {
            "system": "mcr",
            "valid": self.valid,
            "error": self.error,
            "fans": [f.to_json() for f in self.fans],
            "total": self.total,
            "flowers": self.flowers,
            "fan_points": self.fan_points,
        }


def tile_code(tile: Tile) -> str:
    """The calculator's code of a tile (`5m` -> `W5`, `5p` -> `B5`, `5s` -> `T5`, `1z` -> `F1`, `7z` -> `J1`)."""
    k = tile.kind
    if k >= 34:
        raise InputError(f"{kind_name(k)} is a bonus tile: give flowers and seasons separately")
    if k < HONOR:
        return f"{_SUIT_CODES[k // 9]}{k % 9 + 1}"
    if k < HONOR + 4:
        return f"F{k - HONOR + 1}"
    return _DRAGON_CODES[k]


def _pack(meld: Meld) -> tuple[str, str, int]:
    tiles = sorted(meld.tiles)
    kinds = [t.kind for t in tiles]
    if meld.kind == "chi":
        if len(kinds) != 3 or kinds[0] >= HONOR or kinds != list(range(kinds[0], kinds[0] + 3)) or (
            kinds[0] // 9 != kinds[2] // 9
        ):
            raise InputError(f"a sequence must be three consecutive tiles of one suit, not {to_mpsz(tiles)}")
        return ("CHI", tile_code(tiles[1]), 1)
    size = {"pon": 3, "kan": 4, "added-kan": 4, "closed-kan": 4}.get(meld.kind)
    if size is None:
        raise InputError(f"unknown meld kind {meld.kind!r}")
    if len(kinds) != size or len(set(kinds)) != 1:
        raise InputError(f"a {meld.kind} is {size} identical tiles, not {to_mpsz(tiles)}")
    if meld.kind == "closed-kan":
        return ("GANG", tile_code(tiles[0]), 0)
    offer = _OFFER.get(getattr(meld, "source", None), 1)
    return ("PENG" if size == 3 else "GANG", tile_code(tiles[0]), offer)


def _calculator():
    try:
        from MahjongGB import MahjongFanCalculator
    except ImportError as exc:  # the optional extra is not installed
        raise InputError(INSTALL_HINT) from exc
    return MahjongFanCalculator


def mcr_available() -> bool:
    try:
        _calculator()
    except InputError:
        return False
    return True


def validate_mcr(hand: Hand, win: MCRWin) -> None:
    for name, wind in (("seat wind", win.seat_wind), ("prevalent wind", win.prevalent_wind)):
        if not 0 <= wind <= 3:
            raise InputError(f"{name} must be 0..3 (E S W N), not {wind}")
    if len(hand.melds) > 4:
        raise InputError(f"a hand has at most four sets, not {len(hand.melds)} melds")
    expected = 13 - 3 * len(hand.melds)
    if len(hand.concealed) != expected:
        raise InputError(
            f"with {len(hand.melds)} meld(s) the concealed part must hold {expected} tiles before the winning tile, "
            f"not {len(hand.concealed)}"
        )
    counts: dict[int, int] = {}
    for t in (*hand.concealed, hand.win, *(t for m in hand.melds for t in m.tiles)):
        tile_code(t)  # rejects bonus tiles in the hand
        counts[t.kind] = counts.get(t.kind, 0) + 1
    over = [k for k, n in counts.items() if n > 4]
    if over:
        raise InputError(f"there are only four of each tile, but this hand has {counts[over[0]]}x {kind_name(over[0])}")
    kinds = [t.kind for t in win.bonus]
    if any(k < 34 for k in kinds):
        raise InputError("only flowers (1f-4f) and seasons (1g-4g) can be bonus tiles")
    if len(set(kinds)) != len(kinds):
        raise InputError("each flower and season exists once: a bonus tile is listed twice")
    if win.replacement and not win.self_drawn:
        raise InputError("46 Out with the Replacement Tile is a self-draw win")
    if win.robbing_quad and win.self_drawn:
        raise InputError("47 Robbing the Quad is a win on another player's tile, not a self-draw")
    if win.replacement and win.robbing_quad:
        raise InputError("a win cannot be both on a replacement tile and robbing a quad")
    if win.wall_last and win.robbing_quad and not win.self_drawn:
        # As riichi refuses houtei with chankan and Zung Jung 9.1.2 with 9.3. 44 with 46 stays: MCR has no Dead
        # Wall, so a replacement drawn from the back end of the Wall can be its last tile.
        raise InputError("45 Last Tile Claim and 47 Robbing the Quad cannot both apply (45 is a win on the discard "
                         "after the Seabed tile; a robbed tile is no discard)")
    if win.replacement and not win.bonus and not any(m.kind in ("kan", "added-kan", "closed-kan") for m in hand.melds):
        # the club's 46: "Winning on the Replacement Tile drawn from a Quad or Bonus Tile"
        raise InputError("46 Out with the Replacement Tile needs a declared quad or a declared flower in the hand")
    if win.last_of_kind and win.robbing_quad:
        raise InputError(
            "47 Robbing the Quad already takes the last tile of its kind: it is not scored with 58 Last Tile"
        )
    if win.last_of_kind and any(t.kind == hand.win.kind for t in hand.concealed):
        raise InputError(
            f"58 Last Tile needs the other three {kind_name(hand.win.kind)} visible in discards and melds, "
            "but the hand holds one concealed"
        )
    if win.robbing_quad and counts[hand.win.kind] > 1:
        raise InputError(
            f"47 Robbing the Quad takes the fourth {kind_name(hand.win.kind)}: the winner cannot hold another one"
        )


def _fan(number: int, count: int = 1) -> Fan:
    name, pts = _BY_NUMBER[number]
    return Fan(number, name, pts, count)


def _replacement_after_flower(fans: list[Fan]) -> list[Fan]:
    """The club's 46 is a win "on the Replacement Tile drawn from a Quad or Bonus Tile"; the calculator gives it
    only with a quad, so a flower's replacement adds it here, and 80 Self-Drawn goes, as it does beside 46."""
    return [*(f for f in fans if f.number != SELF_DRAWN), _fan(OUT_WITH_REPLACEMENT)]


def score_mcr(hand: Hand, win: MCRWin | None = None, rules: MCRRules | None = None) -> MCRResult:
    """Score a winning hand under MCR. A hand that is not a win, or is below the minimum, comes back with
    `valid=False` and the reason; impossible input (or the missing extra) raises InputError."""
    win = win or MCRWin()
    rules = rules or MCRRules()
    validate_mcr(hand, win)
    calculate = _calculator()
    try:
        raw = calculate(
            pack=tuple(_pack(m) for m in hand.melds),
            hand=tuple(tile_code(t) for t in hand.concealed),
            winTile=tile_code(hand.win),
            flowerCount=len(win.bonus),
            isSelfDrawn=win.self_drawn,
            is4thTile=win.last_of_kind,
            isAboutKong=win.replacement or win.robbing_quad,
            isWallLast=win.wall_last,
            seatWind=win.seat_wind,
            prevalentWind=win.prevalent_wind,
            verbose=True,
        )
    except TypeError as exc:
        reason = str(exc)
        if "NOT_WIN" in reason:
            return MCRResult(valid=False, error="not a winning hand: no MCR winning shape fits these tiles")
        raise InputError(f"the MCR calculator rejected the hand ({reason})") from exc
    fans: list[Fan] = []
    for _value, count, _name_cn, name_en in raw:
        if name_en == _MIXED_KONGS and rules.club_values:
            fans += [_fan(67), _fan(74)]
        elif name_en == _MIXED_KONGS:
            fans.append(Fan(0, "Concealed Kong and Melded Kong (calculator extension)", 5, count))
        elif name_en in _CALC_NAMES:
            number = _CALC_NAMES[name_en]
            fan = _fan(number, count)
            if number == TWO_CONCEALED_QUADS and not rules.club_values:
                fan = Fan(fan.number, fan.name, 6, count)
            fans.append(fan)
        else:
            raise InputError(f"the MCR calculator reported an unknown fan {name_en!r}")
    if win.replacement and not any(f.number == OUT_WITH_REPLACEMENT for f in fans):
        fans = _replacement_after_flower(fans)
    fans.sort(key=lambda f: f.number)
    flowers = sum(f.total for f in fans if f.number == FLOWER_FAN)
    fan_points = sum(f.total for f in fans if f.number != FLOWER_FAN)
    result = MCRResult(valid=True, fans=fans, total=fan_points + flowers, flowers=flowers, fan_points=fan_points)
    if fan_points < rules.minimum:
        result.valid = False
        result.error = f"below the {rules.minimum}-fan minimum: the hand scores {fan_points} without flowers"
    return result


@dataclass(frozen=True, slots=True)
class MCRPayment:
    """`paid[seat]` is what each seat pays the winner (0 for the winner)."""

    value: int
    winner: int
    paid: tuple[int, int, int, int]

    @property
    def deltas(self) -> tuple[int, int, int, int]:
        total = sum(self.paid)
        return tuple(total if s == self.winner else -self.paid[s] for s in range(4))  # type: ignore[return-value]

    def to_json(self) -> dict:
        return {"value": self.value, "winner": self.winner, "paid": list(self.paid), "deltas": list(self.deltas)}


def mcr_payment(value: int, winner: int, *, self_drawn: bool, discarder: int | None = None,
                base: int = BASE) -> MCRPayment:
    """8 points from each player, plus the hand's value from the discarder, or from everyone on a self-draw.
    `base=0` is the club's beginner sub-format, which "removes the baseline payment"."""
    if value < 0 or base < 0:
        raise InputError(f"a hand's value and the base payment cannot be negative ({value}, {base})")
    for what, seat in (("winner", winner), ("discarder", discarder)):
        if seat is not None and (not isinstance(seat, int) or not 0 <= seat <= 3):
            raise InputError(f"{what} must be a seat 0..3, not {seat!r}")
    if self_drawn and discarder is not None:
        raise InputError("a self-drawn win has no discarder")
    if not self_drawn and discarder is None:
        raise InputError("a win on a discard needs the discarder's seat")
    if discarder == winner:
        raise InputError("the winner cannot win on their own discard")
    paid = [0, 0, 0, 0]
    for seat in range(4):
        if seat != winner:
            paid[seat] = base + (value if self_drawn or seat == discarder else 0)
    return MCRPayment(value, winner, tuple(paid))  # type: ignore[arg-type]

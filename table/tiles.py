"""The tile vocabulary and MPSZ notation (`123m456p789s1122z`, `0m/0p/0s` for red fives).

A tile is identified by its *kind*, an index 0..33 in the usual 34-kind order (man 1-9, pin 1-9,
sou 1-9, then East South West North White Green Red), plus a red flag for the aka fives.
Kinds 34..41 are reserved for the bonus tiles (flowers 1-4, seasons 1-4) that some rule systems use;
riichi code rejects them.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from table.errors import InputError

SUITS = "mpsz"
MAN, PIN, SOU, HONOR = 0, 9, 18, 27
EAST, SOUTH, WEST, NORTH, WHITE, GREEN, RED = range(27, 34)
WINDS = (EAST, SOUTH, WEST, NORTH)
DRAGONS = (WHITE, GREEN, RED)
FLOWER_KINDS = range(34, 38)
SEASON_KINDS = range(38, 42)
RIICHI_KINDS = 34
ALL_KINDS = 42

WIND_LETTERS = "ESWN"
HONOR_NAMES = ("East", "South", "West", "North", "White", "Green", "Red")
BONUS_SUITS = "fg"  # 1f-4f flowers, 1g-4g seasons (notation reserved for bonus-tile systems)


@dataclass(frozen=True, slots=True, order=True)
class Tile:
    """One physical tile face. `red` marks an aka five (written `0m`, `0p`, `0s`)."""

    kind: int
    red: bool = False

    def __post_init__(self) -> None:
        if not 0 <= self.kind < ALL_KINDS:
            raise InputError(f"unknown tile kind {self.kind}")
        if self.red and not (self.kind < HONOR and self.kind % 9 == 4):
            raise InputError(f"only fives can be red, not {kind_name(self.kind)}")

    @property
    def suit(self) -> str:
        if self.kind >= HONOR + 7:
            return BONUS_SUITS[(self.kind - 34) // 4]
        return SUITS[min(self.kind // 9, 3)]

    @property
    def number(self) -> int:
        """1-9 for suits, 1-7 for honours, 1-4 for bonus tiles."""
        if self.kind >= 34:
            return (self.kind - 34) % 4 + 1
        return self.kind - HONOR + 1 if self.kind >= HONOR else self.kind % 9 + 1

    @property
    def is_honor(self) -> bool:
        return HONOR <= self.kind < 34

    @property
    def is_bonus(self) -> bool:
        return self.kind >= 34

    @property
    def is_terminal(self) -> bool:
        return self.kind < HONOR and self.kind % 9 in (0, 8)

    @property
    def is_simple(self) -> bool:
        return self.kind < HONOR and self.kind % 9 not in (0, 8)

    def __str__(self) -> str:
        return f"{0 if self.red else self.number}{self.suit}"


def kind_name(kind: int) -> str:
    """Human name of a kind: `5m`, `East`, `flower 2`."""
    if kind >= 34:
        return f"{'flower' if kind < 38 else 'season'} {(kind - 34) % 4 + 1}"
    if kind >= HONOR:
        return HONOR_NAMES[kind - HONOR]
    return f"{kind % 9 + 1}{SUITS[kind // 9]}"


def kind_of(number: int, suit: str) -> int:
    """Kind index of a numbered tile in suit m/p/s/z (f/g for bonus tiles)."""
    if suit in BONUS_SUITS:
        if not 1 <= number <= 4:
            raise InputError(f"there is no bonus tile {number}{suit}: flowers and seasons are 1-4")
        return 34 + BONUS_SUITS.index(suit) * 4 + number - 1
    if suit == "z":
        if not 1 <= number <= 7:
            raise InputError(f"there is no honour tile {number}z: honours are 1z-7z (E S W N white green red)")
        return HONOR + number - 1
    if suit not in SUITS:
        raise InputError(f"unknown suit {suit!r}: use m, p, s or z")
    if not 1 <= number <= 9:
        raise InputError(f"there is no tile {number}{suit}")
    return SUITS.index(suit) * 9 + number - 1


_GROUP = re.compile(r"([0-9]+)([a-z])")
_NOTATION = re.compile(r"^(?:[0-9]+[a-z])+$")


def parse_tiles(text: str, *, allow_bonus: bool = False) -> list[Tile]:
    """Parse MPSZ notation (`123m0p77z`) into tiles, in the order written.

    Spaces are ignored; an empty string is an empty list. Anything unreadable raises InputError
    naming the offending part, so a typo never turns into a wrong hand silently.
    """
    compact = "".join(text.split())
    if not compact:
        return []
    if not _NOTATION.match(compact):
        raise InputError(
            f"cannot read tiles {text!r}: write digits followed by a suit letter, e.g. 123m456p789s11z"
        )
    tiles: list[Tile] = []
    for digits, suit in _GROUP.findall(compact):
        if suit in BONUS_SUITS and not allow_bonus:
            raise InputError(f"bonus tiles ({digits}{suit}) are not used in riichi")
        for ch in digits:
            n = int(ch)
            if n == 0:
                if suit not in "mps":
                    raise InputError(f"0{suit} is not a tile: only 0m, 0p and 0s (red fives) exist")
                tiles.append(Tile(kind_of(5, suit), red=True))
            else:
                tiles.append(Tile(kind_of(n, suit)))
    return tiles


def parse_tile(text: str, *, allow_bonus: bool = False) -> Tile:
    """Parse exactly one tile (`4s`, `0p`, `7z`)."""
    tiles = parse_tiles(text, allow_bonus=allow_bonus)
    if len(tiles) != 1:
        raise InputError(f"expected one tile, got {text!r}")
    return tiles[0]


def to_mpsz(tiles: Iterable[Tile], *, sort: bool = True) -> str:
    """Write tiles in compact MPSZ notation; sorted by default (red five sorts as a five)."""
    seq = list(tiles)
    if sort:
        seq.sort(key=lambda t: (t.kind, not t.red))
    out: list[str] = []
    digits = ""
    suit = ""
    for t in seq:
        if t.suit != suit and digits:
            out.append(digits + suit)
            digits = ""
        suit = t.suit
        digits += "0" if t.red else str(t.number)
    if digits:
        out.append(digits + suit)
    return "".join(out)


def kind_counts(tiles: Iterable[Tile]) -> Counter[int]:
    return Counter(t.kind for t in tiles)


WIND_WORDS = {**{w: i for i, w in enumerate(WIND_LETTERS)}, **{w: i for i, w in enumerate(HONOR_NAMES[:4])},
              **{w: i for i, w in enumerate(("Ton", "Nan", "Shaa", "Pei"))}, "Sha": 2, "Pe": 3}


def wind_index(word: str) -> int:
    """Seat/round wind (E S W N, East ... North, or the Japanese Ton Nan Shaa Pei) to 0..3. Only whole words: "Nan"
    is South, so a first letter alone would name the wrong wind."""
    index = WIND_WORDS.get(word.strip().capitalize())
    if index is None:
        raise InputError(f"unknown wind {word!r}: use E, S, W or N (or East, South, West, North)")
    return index

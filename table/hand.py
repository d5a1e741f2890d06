"""A winning hand as players see it: concealed tiles, the winning tile, and called melds.

Melds are written `kind:tiles[:source]`, e.g. `pon:777z`, `chi:345s:left`, `closed-kan:5555m`.
Kinds are chi, pon, kan (open kan, daiminkan), added-kan (shouminkan, a pon extended with the
fourth tile) and closed-kan (ankan). The source is the seat the called tile came from, relative to
the caller (left = kamicha, across = toimen, right = shimocha); a closed kan has none.
`validate_hand` names every physical impossibility, so a camera misread or a typo is caught before
it is scored as a wrong hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from table.errors import InputError
from table.hand_rules import HandRules
from table.tiles import HONOR, Tile, kind_name, kind_of, parse_tile, parse_tiles, to_mpsz

MELD_KINDS = ("chi", "pon", "kan", "added-kan", "closed-kan")
KAN_KINDS = frozenset({"kan", "added-kan", "closed-kan"})
SOURCES = ("left", "across", "right")
SUIT_NAMES = {"m": "man (characters)", "p": "pin (circles)", "s": "sou (bamboo)"}
MAX_INDICATORS = 5
_KIND_ALIASES = {
    "ankan": "closed-kan",
    "concealed-kan": "closed-kan",
    "minkan": "kan",
    "daiminkan": "kan",
    "open-kan": "kan",
    "shouminkan": "added-kan",
    "kakan": "added-kan",
    "chii": "chi",
}


@dataclass(frozen=True, slots=True)
class Meld:
    """A called or declared group. `source` is where the called tile came from (None: closed kan
    or not recorded)."""

    kind: str
    tiles: tuple[Tile, ...]
    source: str | None = None

    @property
    def is_open(self) -> bool:
        return self.kind != "closed-kan"

    @property
    def is_kan(self) -> bool:
        return self.kind in KAN_KINDS

    def __str__(self) -> str:
        text = f"{self.kind}:{to_mpsz(self.tiles)}"
        return f"{text}:{self.source}" if self.source else text


@dataclass(frozen=True, slots=True)
class Hand:
    """`concealed` holds the tiles in hand without the winning tile; kans count as three tiles, so
    len(concealed) == 13 - 3 * len(melds) for a well-formed hand."""

    concealed: tuple[Tile, ...]
    win: Tile
    melds: tuple[Meld, ...] = ()

    @property
    def is_closed(self) -> bool:
        return all(not m.is_open for m in self.melds)

    def all_tiles(self) -> list[Tile]:
        """Every tile of the hand: concealed, winning tile and meld tiles (kans with four)."""
        tiles = list(self.concealed)
        tiles.append(self.win)
        for meld in self.melds:
            tiles.extend(meld.tiles)
        return tiles

    def notation(self) -> dict[str, object]:
        """The hand in the CLI/JSON input notation: `hand`, `win`, `melds`."""
        return {
            "hand": to_mpsz(self.concealed),
            "win": str(self.win),
            "melds": [
                {"type": m.kind, "tiles": to_mpsz(m.tiles), **({"source": m.source} if m.source else {})}
                for m in self.melds
            ],
        }


_FAST_TILES: dict[str, dict[str, Tile]] = {
    suit: {str(n): (Tile(kind_of(5, suit), red=True) if n == 0 else Tile(kind_of(n, suit))) for n in range(10)}
    for suit in "mps"
}
_FAST_TILES["z"] = {str(n): Tile(kind_of(n, "z")) for n in range(1, 8)}


_SHORT_CACHE: dict[str, tuple[Tile, ...]] = {}


def read_tiles(text: str) -> list[Tile]:
    """`parse_tiles` with a fast path for plain compact notation (shared Tile objects, no regex);
    anything unusual (spaces, bonus tiles, errors) goes through `parse_tiles` for its messages.
    Short strings (single tiles, melds, indicators) repeat a lot and are remembered."""
    cached = _SHORT_CACHE.get(text)
    if cached is not None:
        return list(cached)
    out = _read_tiles(text)
    if len(text) <= 6:
        if len(_SHORT_CACHE) > 10000:
            _SHORT_CACHE.clear()
        _SHORT_CACHE[text] = tuple(out)
    return out


def _read_tiles(text: str) -> list[Tile]:
    out: list[Tile] = []
    digits = ""
    fast = _FAST_TILES
    for ch in text:
        if "0" <= ch <= "9":
            digits += ch
            continue
        table = fast.get(ch)
        if table is None or not digits:
            return parse_tiles(text)
        try:
            out += [table[d] for d in digits]
        except KeyError:
            return parse_tiles(text)
        digits = ""
    if digits:
        return parse_tiles(text)
    return out


def parse_meld(text: str, source: str | None = None) -> Meld:
    """Read `kind:tiles[:source]` (e.g. `pon:777z`, `chi:0p46p:left`) into a Meld.

    Only the notation is checked here; whether the tiles form the meld is `validate_hand`'s job,
    so that all faults of a hand are reported together.
    """
    parts = text.strip().split(":")
    if len(parts) not in (2, 3) or not parts[0] or not parts[1]:
        raise InputError(
            f"cannot read meld {text!r}: write kind:tiles, e.g. pon:777z, chi:345s, closed-kan:5555m"
        )
    kind = parts[0].strip().lower()
    kind = _KIND_ALIASES.get(kind, kind)
    if kind not in MELD_KINDS:
        raise InputError(f"unknown meld kind {parts[0]!r} in {text!r}: use one of {', '.join(MELD_KINDS)}")
    tiles = tuple(read_tiles(parts[1]))
    src = parts[2].strip().lower() if len(parts) == 3 else source
    if src is not None and src not in SOURCES:
        raise InputError(f"unknown meld source {src!r} in {text!r}: use left, across or right")
    if kind == "closed-kan" and src is not None:
        raise InputError(f"a closed kan is not called from anyone: drop the source from {text!r}")
    return Meld(kind, tiles, src)


def meld_from_json(item: object) -> Meld:
    """A meld from the JSON input form `{"type": "pon", "tiles": "777z", "source": "left"}` or `"pon:777z"`."""
    if isinstance(item, str):
        return parse_meld(item)
    if not isinstance(item, dict):
        raise InputError(f"a meld must be an object like {{\"type\": \"pon\", \"tiles\": \"777z\"}}, not {item!r}")
    kind = item.get("type", item.get("kind"))
    tiles = item.get("tiles")
    if not isinstance(kind, str) or not isinstance(tiles, str):
        raise InputError(f"a meld needs string fields \"type\" and \"tiles\": got {item!r}")
    source = item.get("source")
    if source is not None and not isinstance(source, str):
        raise InputError(f"meld source must be left, across or right, not {source!r}")
    kind = _KIND_ALIASES.get(kind.lower(), kind.lower())
    if kind in MELD_KINDS and (source is None or source in SOURCES) and not (kind == "closed-kan" and source):
        return Meld(kind, tuple(read_tiles(tiles)), source)
    return parse_meld(f"{kind}:{tiles}" + (f":{source}" if source else ""))  # for its error message


def parse_hand(concealed: str, win: str, melds: Iterable[str | Meld] = ()) -> Hand:
    """Build a Hand from MPSZ text. Concealed tiles may include the winning tile once (a 14-tile
    picture of the hand): if there is exactly one tile too many and it includes the winning tile,
    that copy is taken out."""
    meld_list = tuple(m if isinstance(m, Meld) else parse_meld(m) for m in melds)
    tiles = read_tiles(concealed)
    win_tiles = read_tiles(win)
    win_tile = win_tiles[0] if len(win_tiles) == 1 else parse_tile(win)
    expected = 13 - 3 * len(meld_list)
    if len(tiles) == expected + 1 and win_tile in tiles:
        tiles.remove(win_tile)
    return Hand(tuple(tiles), win_tile, meld_list)


def name_hidden_red_fives(meld: Meld, red_fives: Sequence[int]) -> Meld:
    """A closed kan of fives holds every five of its suit, so the red ones of the set (`red_fives` per suit m, p, s)
    too, though its backs hide them and a photo shows two plain fives: the kan with them named (aka dora)."""
    kinds = {t.kind for t in meld.tiles}
    if meld.kind != "closed-kan" or len(kinds) != 1 or (kind := kinds.pop()) >= HONOR or kind % 9 != 4:
        return meld
    tiles = list(meld.tiles)
    hidden = min(red_fives[kind // 9], len(tiles)) - sum(t.red for t in tiles)
    for k in [k for k in (0, 3, 1, 2) if k < len(tiles) and not tiles[k].red][: max(hidden, 0)]:
        tiles[k] = Tile(kind, red=True)  # the ends first: the backs of a closed kan as laid
    return Meld(meld.kind, tuple(tiles), meld.source)


def plain_red_fives(groups: Sequence[Sequence[str]], rules: HandRules) -> tuple[list[tuple[str, ...]], list[str]]:
    """Tile names (one tile each, as a photo is read) with the red fives these rules do not count made plain, and a
    note per suit. A photo shows the table's own set, whose red fives the rules may not have (EMA, WRC) or have
    fewer of: those past the rules' count, the first ones met kept red, are scored as plain fives."""
    kept = dict.fromkeys("mps", 0)
    made_plain = dict.fromkeys("mps", 0)
    out = []
    for group in groups:
        names = []
        for name in group:
            if len(name) == 2 and name[0] == "0" and name[1] in kept:
                suit = name[1]
                if kept[suit] < rules.red_fives["mps".index(suit)]:
                    kept[suit] += 1
                else:
                    made_plain[suit] += 1
                    name = f"5{suit}"
            names.append(name)
        out.append(tuple(names))
    notes = [f"these rules ({rules.title}) play without red fives: the red 5{suit} scored as a plain 5{suit}"
             if not kept[suit] else
             f"these rules ({rules.title}) count {kept[suit]} red 5{suit}; {n} more scored as plain 5{suit}"
             for suit, n in made_plain.items() if n]
    return out, notes


def meld_faults(meld: Meld) -> list[str]:
    """What is wrong with one meld (empty when it is a proper chi, pon or kan)."""
    fault = _meld_fault(meld)
    return [f"{meld.kind} {to_mpsz(meld.tiles, sort=False)}: {fault}"] if fault else []


def _meld_fault(meld: Meld) -> str | None:
    tiles = meld.tiles
    kinds = sorted([t.kind for t in tiles])
    if kinds and kinds[-1] >= 34:
        return "flowers and seasons are not used in riichi"
    if meld.kind == "chi":
        if len(tiles) != 3:
            return f"a chi has 3 tiles, not {len(tiles)}"
        if kinds[-1] >= HONOR:
            return "a chi is a run of one suit; honours cannot form a chi"
        first = kinds[0]
        if first % 9 > 6 or kinds[1] != first + 1 or kinds[2] != first + 2:
            return "a chi must be three consecutive tiles of one suit, like 345s"
        if meld.source not in (None, "left"):
            return f"a chi can only be called from the player on the left, not {meld.source}"
        return None
    size = 3 if meld.kind == "pon" else 4
    if len(tiles) != size:
        return f"a {'pon' if size == 3 else 'kan'} has {size} tiles, not {len(tiles)}"
    if kinds[0] != kinds[-1]:
        return f"a {'pon must be three' if size == 3 else 'kan must be four'} identical tiles"
    return None


def validate_hand(
    hand: Hand,
    dora_indicators: Sequence[Tile] = (),
    ura_indicators: Sequence[Tile] = (),
    rules: HandRules | None = None,
) -> None:
    """Raise InputError naming every fault that makes the hand impossible; return None if it can exist.

    Faults: unknown/bonus tiles, melds that are not a chi/pon/kan, more than four melds, a tile count
    that does not fit the melds, more than four of a kind (hand, melds, winning tile and dora/ura
    indicators together), more red fives of a suit than the preset's set holds (or a plain five
    too many when a red one replaces it), and too many indicators.
    """
    faults: list[str] = []
    melds = hand.melds
    n_melds = len(melds)
    if n_melds > 4:
        faults.append(f"a hand has at most 4 melds, not {n_melds}")
    for meld in melds:
        if _meld_fault(meld):
            faults.extend(meld_faults(meld))
    expected = 13 - 3 * n_melds
    if n_melds <= 4 and len(hand.concealed) != expected:
        meld_words = "no melds" if n_melds == 0 else f"{n_melds} meld{'s' if n_melds > 1 else ''}"
        hint = ""
        if len(hand.concealed) == expected + 1:  # the winning tile typed in the hand too, but not as --win names it
            twin = next((t for t in hand.concealed if t.kind == hand.win.kind), None)
            hint = (f": the tiles hold {twin} where the winning tile is {hand.win} (a red five is 0); name it as in "
                    "the hand, or leave it out of the tiles") if twin else \
                ": leave the winning tile out of the tiles, or name one of them as the winning tile"
        faults.append(
            f"wrong tile count: with {meld_words} the hand needs {expected} concealed tiles plus the winning "
            f"tile, but has {len(hand.concealed)} ({to_mpsz(hand.concealed)}) plus {hand.win}{hint}"
        )
    for label, indicators in (("dora", dora_indicators), ("ura dora", ura_indicators)):
        if len(indicators) > MAX_INDICATORS:
            faults.append(f"at most {MAX_INDICATORS} {label} indicators can be shown, not {len(indicators)}")

    visible = [*hand.concealed, hand.win, *(t for m in melds for t in m.tiles), *dora_indicators, *ura_indicators]
    counts = [0] * 42
    for t in visible:
        counts[t.kind] += 1
    if any(counts[34:]):
        faults.append("flowers and seasons are not used in riichi")
    for kind in range(34):
        if counts[kind] > 4:
            faults.append(
                f"{counts[kind]} copies of {kind_name(kind)} (counting hand, melds, winning tile and dora "
                "indicators): a set has only 4"
            )
    if rules is not None:
        faults.extend(red_five_faults(visible, rules))
    if faults:
        raise InputError("; ".join(dict.fromkeys(faults)))


def red_five_faults(tiles: Iterable[Tile], rules: HandRules) -> list[str]:
    """Red fives the preset's set does not hold, or plain fives standing where its red ones must be."""
    fives = [0, 0, 0]
    reds = [0, 0, 0]
    for t in tiles:
        if t.kind < HONOR and t.kind % 9 == 4:
            fives[t.kind // 9] += 1
            reds[t.kind // 9] += t.red
    faults: list[str] = []
    for suit_index, suit in enumerate("mps"):
        allowed, n_red = rules.red_fives[suit_index], reds[suit_index]
        plain = fives[suit_index] - n_red
        if n_red > allowed:
            if allowed == 0:
                faults.append(
                    f"red 5{suit} (0{suit}) shown, but these rules ({rules.title}) play without red fives: "
                    f"write 5{suit}"
                )
            else:
                faults.append(f"{n_red} red 5{suit} shown, but the set has only {allowed} ({rules.title})")
        elif plain > 4 - allowed and fives[suit_index] <= 4:
            faults.append(
                f"{plain} plain 5{suit} shown, but {allowed} of the four 5{suit} in this set "
                f"{'is' if allowed == 1 else 'are'} red: write a red five as 0{suit}"
            )
    return faults

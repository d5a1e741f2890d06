"""The player's corrections to a hand read from a photo, for `jantaku score-photo`: tiles of the concealed hand the
photo did not show (`--add 4m`: a finger across the row, the layout's "tiles may be hidden"), a kan's fourth tile it
did not show (`--add meld2:5z`: a pon read where a haku kan lies, its last tile taken for a back) and tiles it read
wrong (`--fix 9s=5z`: a blank haku read as a 9s, a back).

Typing the whole hand into `jantaku score` instead would lose the melds, the winning tile and the dora the photo gave
right. Each correction is said in a note and listed as given, so a price never hides that the player changed the
hand; the usual checks (counts, a fifth copy, melds that are melds) then run on the hand as corrected.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from table.errors import InputError
from table.tiles import parse_tile, parse_tiles
from vision.view import SeenHand, SeenMeld, TableView

BACK = "back"
PLACE = re.compile(r"(hand|win|meld(\d+)):", re.IGNORECASE)
MELD_PLACE = re.compile(r"meld(\d+):", re.IGNORECASE)
FIX_EXAMPLE = "give READ=TRUE, e.g. --fix 9s=5z (a tile read as 9s is a white dragon), or hand:9s=5z, win:9s=5z, " \
              "meld1:9s=5z to say where"


@dataclass(frozen=True)
class Fix:
    """`--fix [PLACE:]READ=TRUE`: one tile read as `read` (MPSZ, or `back`) is really `tile`; `place` (`hand`, `win`,
    `meld1`-`meld4`) when the player says where, needed when `read` was read in more than one place."""

    read: str
    tile: str
    place: str | None = None
    text: str = ""


@dataclass(frozen=True)
class Correction:
    """One change made to the hand as read: a tile added (`read` None: the photo did not show it), or a tile read as
    `read` taken as `tile`. `place` is `hand`, `win` or `meld1`-`meld4` (as the Hand line lists the melds)."""

    tile: str
    place: str
    read: str | None = None
    meld: str | None = None  # the kind of a whole meld added (`--meld`): `tile` then holds its tiles

    def to_json(self) -> dict:
        out = {"tile": self.tile, "place": self.place, "read": self.read}
        return {**out, "meld": self.meld} if self.meld else out

    def __str__(self) -> str:
        if self.meld:
            return f"added {self.place.replace('meld', 'meld ')}, {self.meld} {self.tile} (not seen in the photo)"
        if self.read is None and self.place.startswith("meld"):
            return f"added {self.tile} to meld {self.place[4:]}, a kan (its fourth tile not seen in the photo)"
        if self.read is None:
            return f"added {self.tile} to the hand (not seen in the photo)"
        where = {"hand": "in the hand", "win": "as the winning tile"}.get(self.place) \
            or self.place.replace("meld", "in meld ")
        return f"{self.read} read {where} taken as {self.tile}"


@dataclass(frozen=True)
class Corrected:
    """The view with the corrections made and a note saying which; `unsure` is the Unsure line of the tiles left as
    read (`vision.rereading.unsure_tiles`), taken before tiles were added, which have no place in the photo (None with
    no correction: the view's own)."""

    view: TableView
    corrections: tuple[Correction, ...] = ()
    unsure: str | None = None


@dataclass(frozen=True)
class Added:
    """`--add [meldN:]TILES`, one tile: to the concealed hand (`place` "hand"), or as the fourth tile of meld N (a pon
    that is a kan)."""

    tile: str
    place: str = "hand"
    text: str = ""


def parse_added(texts: list[str]) -> tuple[Added, ...]:
    """`--add` values, a tile each; InputError naming the value that is no tiles."""
    added: list[Added] = []
    for text in texts:
        place, rest = "hand", text.strip()
        if m := MELD_PLACE.match(rest):
            place, rest = f"meld{m.group(1)}", rest[m.end():]
            if not 1 <= int(m.group(1)) <= 4:
                raise InputError(f"--add {text}: a hand's melds are meld1 to meld4, as the Hand line lists them")
        try:
            tiles = parse_tiles(rest)
        except InputError as exc:
            raise InputError(f"--add {text}: {exc}") from None
        if not tiles:
            raise InputError(f"--add {text!r}: no tiles given (e.g. --add 4m, or --add 45m for two)")
        if place != "hand" and len(tiles) > 1:
            raise InputError(f"--add {text}: a meld takes one tile more (its fourth: a pon that is a kan)")
        added += [Added(str(t), place, text) for t in tiles]
    return tuple(added)


def parse_melds(texts: list[str]) -> tuple[SeenMeld, ...]:
    """`--meld KIND:TILES[:SOURCE]` values, as `jantaku score` reads them; InputError naming the value."""
    from table.hand import parse_meld

    melds = []
    for text in texts:
        try:
            meld = parse_meld(text)
        except InputError as exc:
            raise InputError(f"--meld {text}: {exc}") from None
        melds.append(SeenMeld(meld.kind, tuple(map(str, meld.tiles)), meld.source))
    return tuple(melds)


def parse_fix(text: str) -> Fix:
    """One `--fix` value; InputError saying how it is written."""
    place, rest = None, text.strip()
    if m := PLACE.match(rest):
        place, rest = m.group(1).lower(), rest[m.end():]
        if m.group(2) and not 1 <= int(m.group(2)) <= 4:
            raise InputError(f"--fix {text}: a hand's melds are meld1 to meld4, as the Hand line lists them")
    read, sep, true = rest.partition("=")
    if not sep or not read.strip() or not true.strip():
        raise InputError(f"--fix {text}: {FIX_EXAMPLE}")
    read, true = read.strip(), true.strip()
    try:
        read = BACK if read.lower() == BACK else str(parse_tile(read))
        true = str(parse_tile(true))
    except InputError as exc:
        raise InputError(f"--fix {text}: {exc} (one tile each side: {FIX_EXAMPLE})") from None
    if read == true:
        raise InputError(f"--fix {text}: the tile read and the tile it is are the same; nothing to fix")
    return Fix(read, true, place, text)


def parse_fixes(texts: list[str]) -> tuple[Fix, ...]:
    return tuple(parse_fix(t) for t in texts)


def with_corrections(view: TableView, added: tuple[Added, ...], fixes: tuple[Fix, ...],
                     melds: tuple[SeenMeld, ...] = ()) -> Corrected:
    """The view with each fix made in turn, then a kan's fourth tiles added to their pons, the melds the photo did not
    show after those read, and the tiles added to the concealed part; InputError when a fix names a tile not read
    where it says, or one read in several places without saying which, or a fourth tile a meld cannot take. The
    layout's warning of face-down tiles in the hand goes once none is left: the player has named them."""
    from vision.layout import FACE_DOWN_IN_HAND
    from vision.rereading import unsure_tiles

    if not added and not fixes and not melds:
        return Corrected(view)
    done: list[Correction] = []
    for fix in fixes:
        view, correction = _fixed(view, fix)
        done.append(correction)
    if BACK not in view.hand.concealed:
        view = replace(view, warnings=tuple(w for w in view.warnings if FACE_DOWN_IN_HAND not in w))
    for add in (a for a in added if a.place != "hand"):
        view = _made_kan(view, add)
        done.append(Correction(add.tile, add.place))
    if melds:
        h = view.hand
        if len(h.melds) + len(melds) > 4:
            raise InputError(f"--meld: a hand has at most 4 melds, and {len(h.melds)} were read ({_read_as(h)}); "
                             "a meld read wrong is fixed with --fix meldN:READ=TRUE")
        view = replace(view, hand=replace(h, melds=(*h.melds, *melds)))
        done += [Correction(_mpsz(m.tiles), f"meld{len(h.melds) + k + 1}", meld=m.kind) for k, m in enumerate(melds)]
    unsure = unsure_tiles(view)
    to_hand = tuple(a.tile for a in added if a.place == "hand")
    if to_hand:
        h = view.hand
        view = replace(view, hand=replace(h, concealed=(*h.concealed, *to_hand), concealed_indices=()))
        done += [Correction(t, "hand") for t in to_hand]
    note = f"tiles as corrected by the player: {summary(tuple(done))}"
    return Corrected(replace(view, warnings=(*view.warnings, note)), tuple(done), unsure)


def _made_kan(view: TableView, add: Added) -> TableView:
    """The view with `add.tile` the fourth tile of the pon at `add.place`, now an open kan (called from the same
    seat): InputError when that meld is no pon of the tile. A kan's fourth tile lies at the meld's end or on its
    called tile, where a haku's blank face is read as a back, or the glare of a lamp hides it."""
    from vision.classes import plain_face

    hand, k = view.hand, int(add.place[4:]) - 1
    if k >= len(hand.melds):
        raise InputError(f"--add {add.text}: the hand read has {len(hand.melds)} meld(s) ({_read_as(hand)})")
    meld = hand.melds[k]
    if meld.kind != "pon" or len(meld.tiles) != 3:
        raise InputError(f"--add {add.text}: {add.place} was read as {meld.kind} {''.join(meld.tiles)}: only a pon "
                         "takes a fourth tile, which makes it a kan (fix its tiles first with --fix "
                         f"{add.place}:READ=TRUE)")
    if plain_face(meld.tiles[0]) != plain_face(add.tile):
        raise InputError(f"--add {add.text}: {add.place} is a pon of {plain_face(meld.tiles[0])}: its fourth tile is "
                         f"one too, not {add.tile}")
    melds = list(hand.melds)
    melds[k] = replace(meld, kind="kan", tiles=(*meld.tiles, add.tile))
    return replace(view, hand=replace(hand, melds=tuple(melds)))


def _mpsz(tiles: tuple[str, ...]) -> str:
    from table.tiles import parse_tile, to_mpsz

    return to_mpsz([parse_tile(t) for t in tiles], sort=False)


def summary(corrections: tuple[Correction, ...]) -> str:
    """The corrections in a few words, for a message about the hand they made."""
    return "; ".join(map(str, corrections))


def _places(hand: SeenHand) -> list[tuple[str, list[str]]]:
    """The hand's parts by the names `--fix` gives them, with their tiles."""
    parts = [("hand", list(hand.concealed))]
    parts += [("win", [hand.win])] if hand.win else []
    return parts + [(f"meld{k + 1}", list(m.tiles)) for k, m in enumerate(hand.melds)]


def _shown(hand: SeenHand, place: str) -> list[int]:
    """Positions in `place` a fix may rename: a closed kan's two faces (its ends are named after them)."""
    if place.startswith("meld"):
        meld = hand.melds[int(place[4:]) - 1]
        if meld.kind == "closed-kan" and len(meld.tiles) == 4:
            return [1, 2]
        return list(range(len(meld.tiles)))
    return list(range(len(hand.concealed))) if place == "hand" else [0]


def _read_as(hand: SeenHand) -> str:
    """The hand's tiles read, by part, for a message: "hand 1m 2m ...; win 9s; meld1 pon 777z"."""
    out = [f"hand {' '.join(hand.concealed) or '-'}", f"win {hand.win or '-'}"]
    return "; ".join(out + [f"meld{k + 1} {m.kind} {''.join(m.tiles)}" for k, m in enumerate(hand.melds)])


def _fixed(view: TableView, fix: Fix) -> tuple[TableView, Correction]:
    hand = view.hand
    parts = dict(_places(hand))
    if fix.place is not None and fix.place not in parts:
        what = "no winning tile was read" if fix.place == "win" else f"the hand read has {len(hand.melds)} meld(s)"
        raise InputError(f"--fix {fix.text}: {what} ({_read_as(hand)})")
    found = [p for p, tiles in parts.items() if (fix.place in (None, p))
             and any(tiles[k] == fix.read for k in _shown(hand, p))]
    if not found:
        where = f" in {fix.place}" if fix.place else " among the hand's tiles"
        hint = "; dora indicators are given with --dora" if fix.place is None and fix.read in view.dora_indicators \
            else ""
        raise InputError(f"--fix {fix.text}: no {fix.read} was read{where} ({_read_as(hand)}){hint}")
    if len(found) > 1:
        named = ", ".join(found)
        ways = " or ".join(f"--fix {p}:{fix.read}={fix.tile}" for p in found)
        raise InputError(f"--fix {fix.text}: {fix.read} was read in more than one place ({named}): say which, as "
                         f"{ways}")
    place = found[0]
    return _renamed(view, place, fix), Correction(fix.tile, place, fix.read)


def _renamed(view: TableView, place: str, fix: Fix) -> TableView:
    """The view with one tile of `place` read as `fix.read` named `fix.tile`, in the hand and on its box (no runner-up
    left: the player has settled it, so it is neither read again nor called unsure). Of several copies in the hand,
    the one the recognizer was least sure of."""
    from vision.layout import closed_kan_tiles, meld_kind

    hand, tiles = view.hand, list(view.tiles)
    if place == "hand":
        at = [k for k in _shown(hand, place) if hand.concealed[k] == fix.read]
        placed = len(hand.concealed_indices) == len(hand.concealed)
        k = min(at, key=lambda k: tiles[hand.concealed_indices[k]].confidence) if placed else at[0]
        box = hand.concealed_indices[k] if placed else None
        concealed = list(hand.concealed)
        concealed[k] = fix.tile
        hand = replace(hand, concealed=tuple(concealed))
    elif place == "win":
        box = hand.win_index
        hand = replace(hand, win=fix.tile)
    else:
        m = int(place[4:]) - 1
        meld = hand.melds[m]
        k = next(k for k in _shown(hand, place) if meld.tiles[k] == fix.read)
        box = meld.indices[k] if len(meld.indices) == len(meld.tiles) else None
        names = list(meld.tiles)
        names[k] = fix.tile
        kind = meld.kind
        if kind == "closed-kan" and len(names) == 4:
            names = list(closed_kan_tiles(names[1], names[2]))
        elif kind in ("chi", "pon", "unknown") and len(names) == 3:
            kind = meld_kind(names)  # a chi's tile fixed may make it a pon, and a meld of no kind a meld
        melds = list(hand.melds)
        melds[m] = replace(meld, kind=kind, tiles=tuple(names))
        hand = replace(hand, melds=tuple(melds))
    if box is not None and 0 <= box < len(tiles):
        tiles[box] = replace(tiles[box], tile=fix.tile, alternatives=())
    return replace(view, tiles=tuple(tiles), hand=hand)

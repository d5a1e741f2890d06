"""Player names and free text: what a new game accepts, and how a typed name finds its player.

The rules apply when a game is started (`GameStore.new_game`) and when a reason is recorded, never when a
stored log is replayed, so a game kept before a rule was added still loads.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from table.errors import InputError

MAX_NAME = 24
"""Characters in a player's name: what the keeper page's name field takes (its `maxlength`)."""

MAX_REASON = 120
"""Characters in an adjustment's or an early end's reason: a line on the scoreboard, not a letter (the keeper
page's limit too)."""

SEAT_WORDS = frozenset({"0", "1", "2", "3", "e", "s", "w", "n", "east", "south", "west", "north", "none"})
"""Words the CLI reads as a seat (a number, a seat wind) or as nobody (`--tenpai none`): a player so named
would shadow a seat. The Japanese wind words (Ton, Nan, Shaa, Pei) stay allowed: Nan and Pei are real
names, and a player's name wins over a wind word when a seat is looked up."""

_JOINERS = frozenset({"\u200c", "\u200d"})
"""Zero-width (non-)joiners: invisible, but Persian names and emoji sequences need them."""


def _bad_character(text: str) -> str | None:
    """The first character that is neither printable nor a space (a control, a bidi override, a zero-width
    space), or None."""
    for ch in text:
        if not ch.isprintable() and unicodedata.category(ch) != "Zs" and ch not in _JOINERS:
            return ch
    return None


def tidy(text: str) -> str:
    """A name as stored: NFC (one code point for a letter with its accent), every run of spaces (an ideographic
    or no-break space included) one plain space, none at the ends."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def name_key(text: str) -> str:
    """What two names must not share and what a typed name is matched by: the tidy name in NFKC (full-width
    letters as plain ones), case-folded, with the invisible joiners left out."""
    key = unicodedata.normalize("NFKC", tidy(text)).casefold()
    return "".join(ch for ch in key if ch not in _JOINERS)


def bare_key(text: str) -> str:
    """`name_key` without accents (José as Jose): how a name typed on a keyboard without them still finds its player,
    when it finds only one."""
    decomposed = unicodedata.normalize("NFKD", name_key(text))
    return unicodedata.normalize("NFC", "".join(ch for ch in decomposed if not unicodedata.combining(ch)))


def check_new_names(players: Sequence[str]) -> tuple[str, ...]:
    """The four names of a new game, tidied, or InputError saying which name cannot be used and why."""
    if len(players) != 4:
        raise InputError(f"a game needs exactly 4 players, got {len(players)}")
    names = []
    for seat, raw in enumerate(players):
        bad = _bad_character(str(raw))
        if bad is not None:
            raise InputError(f"player names must be printable: no control characters or line breaks "
                             f"(name {seat + 1} holds U+{ord(bad):04X})")
        name = tidy(str(raw))
        if not name:
            raise InputError(f"a game needs four player names: name {seat + 1} is empty")
        if len(name) > MAX_NAME:
            raise InputError(f"player names are at most {MAX_NAME} characters: {name!r} has {len(name)}")
        if "," in name:
            raise InputError(f"a player's name cannot hold a comma (`jantaku game` lists seats separated by "
                             f"commas): {name!r}")
        if name_key(name) in SEAT_WORDS:
            raise InputError(f"{name!r} names a seat (0-3, E S W N, East ... North, or none at a draw), so the "
                             "player could not be told from it: spell the name otherwise")
        names.append(name)
    if len({name_key(n) for n in names}) != 4:
        raise InputError(f"player names must differ: {', '.join(names)}")
    return tuple(names)


def check_reason(text: str, what: str = "reason") -> None:
    """A reason written down with an event: one printable line of at most MAX_REASON characters (it is shown on
    the scoreboard and printed to a terminal, where a control character would act)."""
    if not text.strip():  # the log refuses an empty one when it is read back (`table.events`)
        raise InputError(f"the {what} must not be empty")
    bad = _bad_character(text)
    if bad is not None:
        raise InputError(f"the {what} must be one line of printable text (it holds U+{ord(bad):04X})")
    if len(text.strip()) > MAX_REASON:
        raise InputError(f"the {what} is too long (at most {MAX_REASON} characters, not {len(text.strip())})")


def isolate(name: str) -> str:
    """`name` set apart with Unicode isolates (FSI ... PDI) when it is written right to left, for a line of text a
    page shows ("X won by ron from Y"): the words and numbers after a Hebrew or Arabic name then stay after it
    instead of taking its direction. Other names come back as they are."""
    if any(unicodedata.bidirectional(ch) in ("R", "AL") for ch in name):
        return f"\u2068{name}\u2069"
    return name

"""Second readings of a hand that does not win as read, which `score-photo` scores and the device proposes.

A tile of the hand read face down is most often a blank white dragon (haku): it is taken for one first. Then, for
each tile the classifier keeps the other faces it gave some weight (`SeenTile.alternatives`, with their odds
against the face read). A photo that `score-photo` is given shows a winning hand, so a hand that makes no winning
shape as read holds a misread tile far more often than it shows a hand that does not win: a 6s read as 9s at
52 % against 48 % is a common case (models/MODEL_CARD.md). Its tiles are read again, one or two at a time, as a
runner-up, the likeliest change first; the first that makes a winning shape is offered, with a note naming it.
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterator

from vision.layout import FACE_DOWN_IN_HAND, closed_kan_tiles, meld_kind, winning_shape
from vision.view import SeenHand, TableView

MAX_CHANGES = 2
LEAST_ODDS = 0.1  # a change whose runner-ups together are less likely than this against the reading is not tried

Slot = tuple[int, int]  # (part, position): part -1 the concealed tiles, -2 the winning tile, k >= 0 meld k
Change = tuple[Slot, str, float]  # the slot, the face it is taken for, the odds of that face against the reading


def hand_slots(hand: SeenHand) -> list[tuple[Slot, int]]:
    """The hand's tiles with their index into TableView.tiles; none when the hand does not say where they lie, and
    none of a meld that does not (a closed kan with a back not found shows three tiles of its four)."""
    if len(hand.concealed_indices) != len(hand.concealed) or (hand.win is None) != (hand.win_index is None):
        return []
    slots = [((-1, k), i) for k, i in enumerate(hand.concealed_indices)]
    slots += [((-2, 0), hand.win_index)] if hand.win_index is not None else []
    return slots + [((m, k), i) for m, meld in enumerate(hand.melds) if len(meld.indices) == len(meld.tiles)
                    for k, i in enumerate(meld.indices)]


def unsure_tiles(view: TableView) -> str:
    """The hand's tiles and dora indicators with a runner-up of some weight (what they may be read again as), for
    the player to check: "9s (or 6s, 92% as likely)  dora indicator 6p (or 8p, 40% as likely)", or "" when there
    are none. Nothing checks an indicator (any tile may be one), so its misreading changes the price silently."""
    out = []
    for label, i in [("", i) for _, i in hand_slots(view.hand)] + [("dora indicator ", i) for i in view.dora_indices]:
        others = [f"{t}, {odds:.0%}" for t, odds in view.tiles[i].alternatives if odds >= LEAST_ODDS]
        if others:
            out.append(f"{label}{view.tiles[i].tile} (or {'; '.join(others)} as likely)")
    return "  ".join(out)


def _changed(hand: SeenHand, changes: tuple[Change, ...]) -> SeenHand:
    concealed, win = list(hand.concealed), hand.win
    melds = [list(m.tiles) for m in hand.melds]
    for (part, k), name, _ in changes:
        if part == -1:
            concealed[k] = name
        elif part == -2:
            win = name
        else:
            melds[part][k] = name
    reread_melds = {part for (part, _), _, _ in changes if part >= 0}
    new_melds = list(hand.melds)
    for m in reread_melds:  # the others keep their tiles (a closed kan's hidden red five, named by the rules)
        meld, names = hand.melds[m], melds[m]
        if meld.kind == "closed-kan":
            names = list(closed_kan_tiles(names[1], names[2]))
        kind = meld_kind(names) if meld.kind == "unknown" else meld.kind
        new_melds[m] = dataclasses.replace(meld, kind=kind, tiles=tuple(names))
    return dataclasses.replace(hand, concealed=tuple(concealed), win=win, melds=tuple(new_melds))


def rereadings(view: TableView) -> Iterator[tuple[SeenHand, tuple[Change, ...]]]:
    """The hand with one or two of its tiles taken for a runner-up, likeliest first (the odds multiplied), each
    making a winning shape; none under LEAST_ODDS."""
    hand = view.hand
    options = [(slot, name, odds) for slot, i in hand_slots(hand)
               for name, odds in view.tiles[i].alternatives if odds >= LEAST_ODDS]
    tries = [(math.prod(o for _, _, o in combo), combo) for n in range(1, MAX_CHANGES + 1)
             for combo in itertools.combinations(options, n) if len({slot for slot, _, _ in combo}) == n]
    for _, combo in sorted((t for t in tries if t[0] >= LEAST_ODDS), key=lambda t: -t[0]):
        again = _changed(hand, combo)
        if winning_shape(again):
            yield again, combo


def reread(view: TableView, hand: SeenHand, changes: tuple[Change, ...]) -> TableView:
    """The view with its hand read as `hand` (from `rereadings`), the tiles renamed and a note saying which."""
    slots = dict(hand_slots(view.hand))
    tiles = list(view.tiles)
    said = []
    for slot, name, odds in changes:
        i = slots[slot]
        said.append(f"{tiles[i].tile} as {name} (its next likeliest reading, {odds:.0%} as likely)")
        t = tiles[i]  # the face read becomes a runner-up, the odds now against the face taken
        others = [(t.tile, 1 / odds), *((f, o / odds) for f, o in t.alternatives if f != name)]
        tiles[i] = dataclasses.replace(t, tile=name, alternatives=tuple(sorted(others, key=lambda x: -x[1])))
    which = "that tile" if len(changes) == 1 else "those tiles"
    note = f"read as it was, the hand does not win; took {' and '.join(said)}, which makes it win: check {which}"
    return dataclasses.replace(view, tiles=tuple(tiles), hand=hand, warnings=(*view.warnings, note))


def haku_for_backs(view: TableView) -> TableView | None:
    """The view with the hand's face-down tiles taken for white dragons, or None when it has none. A hand shows no
    back outside a closed kan, and the blank face of a haku is what the recognizer most often reads as one."""
    n = view.hand.concealed.count("back")
    if not n:
        return None
    hand = dataclasses.replace(view.hand, concealed=tuple("5z" if t == "back" else t for t in view.hand.concealed))
    which = f"{n} tiles read face down in the hand for white dragons: check them" if n > 1 else \
        "tile read face down in the hand for a white dragon: check it"
    note = f"took the {which} (a haku's blank face is what the recognizer most often takes for a back)"
    warnings = tuple(w for w in view.warnings if FACE_DOWN_IN_HAND not in w)
    return dataclasses.replace(view, hand=hand, warnings=(*warnings, note))


def second_readings(view: TableView) -> Iterator[TableView]:
    """The views to try, in turn, when the hand as read does not win: its face-down tiles taken for white dragons,
    then one or two of its tiles taken for a runner-up (`rereadings`)."""
    haku = haku_for_backs(view)
    if haku is not None:
        yield haku
    base = haku or view
    for hand, changes in rereadings(base):
        yield reread(base, hand, changes)


def winning_reading(view: TableView) -> TableView:
    """The view as read when its hand wins (or has no winning tile to win with), else the first of its second
    readings that makes a winning shape, if any."""
    if view.hand.win is None or winning_shape(view.hand):
        return view
    return next((again for again in second_readings(view) if winning_shape(again.hand)), view)

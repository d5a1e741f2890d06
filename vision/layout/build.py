"""The whole reading: the steps of the package docstring in turn, at the table's angle and, when that reads
no winning hand, at angles near it.
"""

from __future__ import annotations

import dataclasses
from collections import Counter

from vision.layout.dora import _dead_wall, _flipped_indicators, _laid_out_dora, _wall_seat
from vision.layout.hand import (
    _across_gaps,
    _across_hidden,
    _hand,
    _hand_row,
    _lying_beyond,
    hidden_note,
    whole_hand,
    winning_shape,
)
from vision.layout.hands import _nearer_other, _nearest_hand, _same_way_hands, two_hands_note
from vision.layout.ponds import POND_ROW, _blank_faces, _ponds
from vision.layout.rows import _T, _along, _axis, _facing, _lines, _order, _segments, _turn
from vision.layout.turning import _derotate, _unsplit_rows, table_angle
from vision.view import SeenHand, SeenTile, TableView

DIAGONAL = 2.0  # degrees: rows turned further than this from the picture's axes are turned back first
SKEWED = 20.0  # degrees: from here on perspective may turn a row's tiles across the detector's quarter turns
RETRY_ANGLES = (8.0, -8.0, 16.0, -16.0, 24.0, -24.0)  # degrees off the table's angle, tried in turn


def build_view(tiles: list[SeenTile], width: int, height: int) -> TableView:
    """Group recognised tiles into the hand, melds, dora indicators and ponds (see the module docstring)."""
    if not tiles:
        return TableView(width, height, (), SeenHand(), (), (), ("no tiles found in the photo",))
    angle = table_angle(tiles)
    view = _build(tiles, width, height, angle)
    if winning_shape(view.hand):
        return view
    for delta in RETRY_ANGLES:
        other = _build(tiles, width, height, angle + delta)
        if winning_shape(other.hand):
            return other
    return view


def _build(tiles: list[SeenTile], width: int, height: int, angle: float) -> TableView:
    """The view with the rows taken to run at `angle` degrees."""
    warnings: list[str] = []
    original, size = tiles, (width, height)
    if abs(angle) > DIAGONAL:
        tiles, width, height = _derotate(tiles, width, height, angle)
        tiles = _unsplit_rows(tiles, angle)
    base = _turn(tiles, 0, width, height)
    segs = _segments(base)
    lines = _lines(segs)
    face_up = [sum(t.face_up for seg in ln for t in seg) for ln in lines]
    hand_like = [any(_hand_row(seg) for seg in ln) for ln in lines]
    best = max(range(len(lines)), key=lambda k: (hand_like[k], face_up[k], -sum(len(s) for s in lines[k])))
    hands = _same_way_hands(lines, hand_like, best, tiles, width, height)
    best = _nearest_hand(lines, hands)
    hand_line = lines[best]
    apart_ids = {t.i for k in hands if k != best for s in lines[k] for t in s}  # another hand, photographed with it
    axis = _axis(max(hand_line, key=len))
    facing = _facing([t for s in hand_line for t in s], axis)
    if facing == 180:  # photos are usually taken from the hand's side: turning them round needs a clear majority
        votes = Counter(t.orientation for s in hand_line for t in s if t.face_up and not t.horizontal)
        if votes[180] < 2 * votes[0] + 2:
            facing = 0
    hand_warnings: list[str] = []
    if facing is None:
        facing = 0 if axis == "h" else 270
        hand_warnings.append("cannot tell which way the hand faces; assuming it is read from the bottom of the photo")
    turned = _turn(tiles, facing // 90, width, height)
    by_i = {t.i: t for t in turned}
    hand_ids = {t.i for s in hand_line for t in s}
    hand_line_t = [[by_i[t.i] for t in s] for s in hand_line]
    others = [t for t in turned if t.i not in hand_ids]
    for other in hands:  # the other hand's winning tile laid off its row, its added kans' top tiles: no discards
        if other != best:
            loose = [t for t in others if t.i not in apart_ids]
            apart_ids |= _hand([[by_i[t.i] for t in s] for s in lines[other]], loose, [], [])[1]
    beyond = _lying_beyond(hand_line_t, others)
    others = [t for t in others if t not in beyond]
    before = list(hand_warnings)
    hand, used, hand_across, twins = _hand(hand_line_t, others, hand_warnings, beyond)
    if not winning_shape(hand):  # a gap inside the hand row (tiles laid a little apart) splits it: read across the gap
        for merged in _across_gaps(hand_line_t):
            notes = list(before)
            other = _hand(merged, others, notes, beyond)
            if winning_shape(other[0]):
                hand, used, hand_across, twins, hand_warnings = *other, notes
                break
        else:  # a gap a tile or two wide (a finger across the row): one row with tiles hidden, when that makes a hand
            for merged, hidden, names in _across_hidden(hand_line_t) if not whole_hand(hand) else ():
                notes = list(before)
                other = _hand(merged, others, notes, beyond, hidden)
                if whole_hand(other[0], hidden):
                    hand, used, hand_across, twins, hand_warnings = *other, [*notes, hidden_note(hidden, names)]
                    break
    if (hand_like[best] or hand.win or hand.melds or len(hand.concealed) > POND_ROW) and not _kans_in_a_wall(
            hand, hand_line_t):
        warnings += hand_warnings + ([two_hands_note(len(apart_ids))] if apart_ids else [])
    else:  # no hand in the picture (a table seen from above, a pond row the longest line): seats seen from the camera
        hand, used, hand_across, twins, hand_line_t = SeenHand(), set(), set(), set(), []
        turned = _turn(tiles, 0, width, height)

    apart_ids = apart_ids if hand_line_t else set()
    gone = used | twins | apart_ids
    rest = [t for t in turned if t.i not in gone]
    rest_segs = _segments(rest)
    blanks = _blank_faces(rest_segs)
    if blanks:  # named white dragons, the rows are found again (a face links where a back may not)
        rest = [dataclasses.replace(t, name="5z") if t.i in blanks else t for t in rest]
        rest_segs = _segments(rest)
        warnings.append(f"{len(blanks)} tile{'s' if len(blanks) > 1 else ''} read as face down between discards: "
                        "taken for a white dragon (a blank face); check the ponds")
    dora: list[_T] = []
    wall, strays = _dead_wall(rest_segs)
    if wall:
        seat = _wall_seat(wall, rest)
        dora = sorted((t for t in wall if t.face_up), key=lambda t: _along(t, seat))
        taken = {t.i for t in wall}
    else:
        line_tiles = [t for s in hand_line_t for t in s]
        row = _laid_out_dora(rest_segs, sum(t.cy for t in line_tiles) / len(line_tiles),
                             abs(angle) >= SKEWED) if line_tiles else []
        dora = _order(row) if row else []
        taken = {t.i for t in row}
        if strays and not row:
            warnings.append(f"face-down tiles lie against {sum(map(len, strays))} face-up tiles but form no dead wall "
                            "(a straight row of backs with the indicators in it): no dora indicators read; those "
                            "tiles are taken for discards")
    apart_hands = [[t for t in turned if t.i in {u.i for s in lines[k] for u in s}] for k in hands if k != best]
    if apart_ids and _nearer_other(dora, [t for s in hand_line_t for t in s], apart_hands):
        warnings.append(f"the dora indicators {' '.join(t.name for t in dora)} lie nearer the other hand: not read "
                        "with this one (give them with --dora)")
        dora = []
    pond_segs = [s for s in rest_segs if not ({t.i for t in s} & taken) and all(t.face_up for t in s)]
    ponds = _ponds(pond_segs + strays, turned, warnings)
    flipped = _flipped_indicators(ponds, turned) if not dora and (hand.concealed or hand.melds) else []
    if flipped:
        dora, ponds = flipped, ([], {})
        warnings[:] = [w for w in warnings if "sideways tiles in the" not in w]
        warnings.append(f"{len(dora)} tiles lying side by side read as the dora indicators (a pond shows one riichi "
                        "discard at most)")

    # sideways / upside-down flags relative to each tile's own row
    flags: dict[int, tuple[bool, bool]] = {}
    for t in turned:
        if t.i in used:
            flags[t.i] = (t.i in hand_across, t.orientation == 180)
    out = []
    for k, t in enumerate(original):
        side, flip = flags.get(k, ponds[1].get(k, (False, False)))
        out.append(dataclasses.replace(t, sideways=side, upside_down=flip))
    dora_indices = tuple(t.i for t in dora)
    if twins:  # the second reading of a tile leaves the list, and the hand's and the indicators' indices follow
        kept = [k for k in range(len(out)) if k not in twins]
        new = {k: n for n, k in enumerate(kept)}
        out = [out[k] for k in kept]
        hand = dataclasses.replace(
            hand, melds=tuple(dataclasses.replace(m, indices=tuple(new[i] for i in m.indices)) for m in hand.melds),
            concealed_indices=tuple(new[i] for i in hand.concealed_indices),
            win_index=None if hand.win_index is None else new[hand.win_index])
        dora_indices = tuple(new[i] for i in dora_indices)
    return TableView(size[0], size[1], tuple(out), hand, tuple(t.name for t in dora), tuple(ponds[0]),
                     tuple(warnings), dora_indices)


def _kans_in_a_wall(hand: SeenHand, line: list[list[_T]]) -> bool:
    """Whether a "hand" of closed kans and nothing else is the dead wall seen alone. Its indicators between backs
    (two alike, as a kan dora may make them) look like a closed kan, but a kan's backs end it, where a wall's go on
    in step."""
    if hand.concealed or hand.win or not hand.melds or any(m.kind != "closed-kan" for m in hand.melds):
        return False
    wall = {t.i for t in _dead_wall(line)[0]}
    return all(set(m.indices) <= wall for m in hand.melds)

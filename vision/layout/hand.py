"""The winner's hand on its line: the concealed part, the winning tile set apart (or laid beyond or in front
of the row), and the melds after them (step 4 of the package docstring).
"""

from __future__ import annotations

import math
import statistics

from table.errors import InputError
from table.hand import Meld
from table.tiles import parse_tile
from table.waits import waits
from vision.classes import plain_face
from vision.layout.melds import _parse_melds, meld_kind
from vision.layout.rows import (
    _T,
    TOUCH_GAP,
    _across,
    _axis,
    _off_row_ends,
    _offsets,
    _order,
    _runs,
    _same_reading,
    _straight,
)
from vision.view import SeenHand

HAND_LINE = 0.35  # a hand row's centres lie within this share of a short side of a straight line
FACE_DOWN_IN_HAND = "read as face down inside the hand row"  # the warning's words, which score-photo may resolve
NOT_SET_APART = "the winning tile is not set apart"  # a hand laid in one row
BACKS_TOGETHER = 3  # misread hand tiles standing together in a hand row at most (a concealed haku triplet)
HAND_ROW = 10  # tiles in a plain row from which a back or two among them are misread hand tiles (_backs_inside)
HIDDEN = "tiles may be hidden"  # the warning's words for a hand row read across a gap a tile or two wide
HIDDEN_MOST = 2  # tiles a gap in the hand row may hide (a finger is one or two tiles wide)
SHOWN_GAP = 0.6  # tiles' widths: a narrower gap in a hand row is tiles laid a little apart (`_across_gaps`)
SAME_SIZE = 1.25  # the tiles either side of a gap that hides tiles are alike: the taller at most this times as tall


def _off_line(line: list[list[_T]]) -> set[int]:
    """Tiles lying clearly beyond the row (the added tile of an added kan sits above its called tile).

    The least-squares line through the row is refitted without the tile furthest beyond it, one at a time, so that a
    few tiles far off the row (the end of a wall a lone tile brought into the line) cannot tilt the fit so far that
    the row's own far end looks beyond it."""
    tiles = [t for s in line for t in s]
    if len(tiles) < 4:
        return set()
    out: set[int] = set()
    while len(keep := [t for t in tiles if t.i not in out]) > 2:
        n = len(keep)
        mx, my = sum(t.cx for t in keep) / n, sum(t.cy for t in keep) / n
        sxx = sum((t.cx - mx) ** 2 for t in keep) or 1e-6
        slope = sum((t.cx - mx) * (t.cy - my) for t in keep) / sxx
        worst = min(keep, key=lambda t: (t.cy - (my + slope * (t.cx - mx))) / t.short)
        if worst.cy - (my + slope * (worst.cx - mx)) >= -0.6 * worst.short:
            break
        out.add(worst.i)
    return out


def _backs_inside(ordered: list[_T], across: set[int]) -> set[int]:
    """Backs standing among the face-up tiles of a long plain row, left to right: tiles of the hand misread.

    A hand shows no face-down tile except the ends of a closed kan (back, two faces, back) laid after the concealed
    tiles, and a dead wall never holds as many as HAND_ROW tiles face up or beside it. So in a row of HAND_ROW or more
    upright tiles, up to BACKS_TOGETHER backs followed by face-up tiles are tiles of the hand the recognizer read as
    backs (in many sets the white dragon, haku, is a blank face); so is a lone back starting the row, and so are up to
    BACKS_TOGETHER backs ending it against a called tile laid across (a closed kan's backs hold two faces between
    them; a strip cut round the hand leaves out the set's own backs, by which a blank face is told from a back).
    Backs that end the row, or stand before two like faces (a closed kan's), start the melds instead."""
    end = next((k for k, t in enumerate(ordered) if t.i in across), len(ordered))
    plain = ordered[:end]
    if len(plain) < HAND_ROW:
        return set()
    runs = _runs(plain)
    out: set[int] = set()
    called = end < len(ordered)
    for k, (up, run) in enumerate(runs):
        if up:
            continue
        after = runs[k + 1][1] if k + 1 < len(runs) else []
        kan = len(after) == 2 and meld_kind([t.name for t in after] * 2) == "kan"
        if len(run) > (1 if k == 0 else BACKS_TOGETHER) or not (after or called and k > 0) or kan:
            break
        out |= {t.i for t in run}
    faces = len(plain) - len(out)
    return out if 4 * len(out) <= len(plain) or called and faces >= HAND_ROW - BACKS_TOGETHER else set()


def _hand_row(seg: list[_T]) -> bool:
    """A stretch of HAND_ROW or more upright tiles standing side by side with few backs among them (at most a
    quarter, at most BACKS_TOGETHER together): only a hand is laid so, whatever the recognizer made of a blank
    face. Pond rows hold six tiles (a third row a few more), and a wall is all backs."""
    if len(seg) < HAND_ROW:
        return False
    ordered = _order(seg)
    ends = _off_row_ends(ordered)
    ordered = [t for t in ordered if t.i not in ends]
    across = _across(ordered, _axis(seg))
    stretch: list[_T] = []
    for t in [*ordered, None]:
        if t is not None and t.i not in across:
            stretch.append(t)
            continue
        if (len(stretch) >= HAND_ROW and 4 * sum(not x.face_up for x in stretch) <= len(stretch)
                and len({x.horizontal for x in stretch}) == 1 and _straight(stretch, HAND_LINE)
                and all(up or len(run) <= BACKS_TOGETHER for up, run in _runs(stretch))):
            return True
        stretch = []
    return False


def _concealed_segment(segs: list[list[_T]], across: set[int]) -> int:
    """Which segment of the hand line (left to right) starts the concealed part: the longest run of plain upright
    tiles, so that anything collinear on its left is not taken for this hand.

    Segments that are called melds (a sideways tile or a back within their first four tiles, few tiles before it,
    and one meld after it at most or nothing but melds) do not compete: with three or four melds called, a meld can
    be longer than the one or four tiles still concealed, and taking it would throw the concealed tiles and the
    winning tile out of the hand."""
    def plain_run(seg: list[_T]) -> int:
        ordered = sorted(seg, key=lambda t: t.cx)
        inside = _backs_inside(ordered, across)
        return next((k for k, t in enumerate(ordered) if t.i in across or not (t.face_up or t.i in inside)),
                    len(ordered))

    def called(seg: list[_T]) -> bool:
        """Few plain tiles before a sideways tile or a back, and one meld at most after them, or only melds: two
        tiles before a kan's called one, and a chi laid against that kan, leave no concealed tile."""
        run = plain_run(seg)
        if not (run < len(seg) and run <= 3):
            return False
        if len(seg) - run <= 4:
            return True
        notes: list[str] = []
        return bool(_parse_melds(sorted(seg, key=lambda t: t.cx), [], notes, across)[0]) and not notes

    def backs(seg: list[_T]) -> int:
        return sum(not t.face_up for t in seg) - len(_backs_inside(sorted(seg, key=lambda t: t.cx), across))

    scores = [(plain_run(s) - 3 * backs(s) - (100 if called(s) else 0), -k) for k, s in enumerate(segs)]
    return max(range(len(segs)), key=lambda k: scores[k])


def _hand(line: list[list[_T]], others: list[_T], warnings: list[str], beyond: list[_T], hidden: int = 0
          ) -> tuple[SeenHand, set[int], set[int], set[int]]:
    """The hand, the tiles it takes, those of them lying across their row, and second readings of its tiles;
    `beyond` continues its melds (`_lying_beyond`), kept out of the boxes' comparison (`_across`) as lying tiles
    all alike. `hidden` hand tiles are out of sight (`_across_hidden`): they count when the winning tile is looked
    for."""
    strays = {i for s in line for i in _off_row_ends(sorted(s, key=lambda t: t.cx))}
    strays |= _off_line([[t for t in s if t.i not in strays] for s in line])
    strays |= {t.i for s in line if len(s) >= 3 and not any(t.face_up for t in s) for t in s}  # a wall in line
    others = others + [t for s in line for t in s if t.i in strays]
    line = [kept for s in line if (kept := [t for t in s if t.i not in strays])]
    segs = sorted(line, key=lambda s: min(t.x1 for t in s))
    if not segs:  # every tile of the line stands off it
        return SeenHand(), set(), set(), set()
    first = _concealed_segment(segs, _across([t for s in segs for t in s], "h"))
    others = others + [t for s in segs[:first] for t in s]
    segs = segs[first:]
    across = _across([t for s in segs for t in s], "h")
    concealed: list[_T] = []
    win: _T | None = None
    meld_tiles: list[_T] = []
    stacked: list[_T] = []
    for n, seg in enumerate(segs):
        ordered = sorted(seg, key=lambda t: t.cx)
        if n == 0:
            concealed = ordered
            inside = _backs_inside(ordered, across)
            cut = next((k for k, t in enumerate(ordered) if t.i in across or not (t.face_up or t.i in inside)), None)
            if cut is not None:  # melds laid against the hand without a gap
                concealed, meld_tiles = ordered[:cut], ordered[cut:]
            if inside:
                warnings.append(f"{len(inside)} tile{'s' if len(inside) > 1 else ''} {FACE_DOWN_IN_HAND} (a blank "
                                "white dragon?): name them before scoring")
        elif len(ordered) == 1 and any(m.i in across and plain_face(m.name) == plain_face(ordered[0].name)
                                       and m.x1 < ordered[0].cx < m.x2 and ordered[0].cy < m.cy for m in meld_tiles):
            stacked += ordered  # an added kan's top tile over its called one, seen low a row apart: its partner
        elif meld_tiles or len(ordered) > 1 or ordered[0].i in across or not ordered[0].face_up:
            meld_tiles += ordered
        else:  # a lone upright tile before any meld: the winning tile, unless another follows it
            if win is not None:  # a tile of the hand was not found and left a gap the size of the win's
                concealed.append(win)
                gap = "a gap in the hand row (a tile not found?); reading on past it"
                warnings += [] if gap in warnings else [gap]
            win = ordered[0]
    meld_tiles += beyond
    extra = [t for t in others if t.face_up] + stacked
    notes: list[str] = []
    melds, used, called = _parse_melds(meld_tiles, extra, notes, across)
    if win is None and meld_tiles and meld_tiles[0].face_up:
        # a lone tile laid sideways right after the hand is the winning tile, not a meld
        notes2: list[str] = []
        melds2, used2, called2 = _parse_melds(meld_tiles[1:], extra, notes2, across)
        if len(notes2) < len(notes):
            win, melds, used, called, notes = meld_tiles[0], melds2, used2, called2, notes2
    warnings += notes
    across = (across - {i for m in melds for i in m.indices}) | called
    used_ids = {t.i for t in concealed} | {t.i for t in meld_tiles} | used
    slots = (len(concealed) + hidden + 3 * len(melds)) % 3
    twins: set[int] = set()
    if win is None and concealed and slots == 1:
        win = _win_laid_beyond(concealed, [t for t in others if t.i not in used_ids])
        if win is not None:
            twins = {t.i for t in others if t is not win and t.i not in used_ids and _one_tile(t, win, concealed)}
        if twins:
            warnings.append(f"the winning tile {win.name} was found twice (a tilted tile): read as one")
    elif win is None and concealed and slots == 2:
        win = concealed.pop()
        warnings.append(f"{NOT_SET_APART}; taking the rightmost tile of the hand")
    if win is not None:
        used_ids.add(win.i)
    across |= {t.i for t in others if t.i in used_ids and t.horizontal}  # an added kan's top tile, a win beyond
    hand = SeenHand(tuple(t.name for t in concealed), win.name if win else None, tuple(melds),
                    win is not None and win.i in across, tuple(t.i for t in concealed), win.i if win else None)
    return hand, used_ids, across, twins


def _lying_beyond(line: list[list[_T]], others: list[_T]) -> list[_T]:
    """Face-up tiles lying one after another beyond the hand line's far end when that is a tile lying (a meld's
    called tile), each touching the last, in line with it. Seen low, a flat meld's upright tiles can pass the
    detector's quarter turn as its called tile does; tiles lying side by side make no segment (`_row_pairs`), so
    they were left out of the line, and their meld with them."""
    tiles = [t for s in line for t in s]
    if not tiles:
        return []
    end = max(tiles, key=lambda t: t.x2)
    if not end.horizontal:
        return []
    loose = [t for t in others if t.face_up and t.horizontal]
    out: list[_T] = []
    while True:
        nxt = [t for t in loose if t not in out and abs(t.cy - end.cy) < 0.5 * min(t.short, end.short)
               and end.cx < t.cx and t.x1 - end.x2 < TOUCH_GAP * min(t.short, end.short)]
        if len(nxt) != 1:
            return out
        end = nxt[0]
        out.append(end)


def _across_gaps(line: list[list[_T]]):
    """The hand line with two neighbouring segments of plain upright tiles taken as one, each pair in turn."""
    segs = sorted(line, key=lambda s: min(t.x1 for t in s))

    def plain(seg: list[_T]) -> bool:
        return all(t.face_up and not t.horizontal for t in seg)

    for k in range(len(segs) - 1):
        if plain(segs[k]) and plain(segs[k + 1]):
            yield [*segs[:k], segs[k] + segs[k + 1], *segs[k + 2 :]]


def _across_hidden(line: list[list[_T]]):
    """(the hand line with two neighbouring segments taken as one, the tiles that may be hidden between them, the
    names either side), each pair in turn, left to right: a row of upright faces that breaks off, and after a gap
    of one or two tiles' width goes on in line with it, with tiles of its height, is one row with a tile or two out
    of sight (a finger across it, or not found). A finger leaves the tiles either side of it part seen, boxed
    narrower, so the gap is measured between their edges against the width of the tiles beyond them, and may hide
    the number below or above it (the hand's count decides). The part after the gap is two tiles or more: a lone
    tile there is the winning tile set apart, which lies as far off."""
    segs = sorted(line, key=lambda s: min(t.x1 for t in s))
    for k in range(len(segs) - 1):
        left, right = sorted(segs[k], key=lambda t: t.cx), sorted(segs[k + 1], key=lambda t: t.cx)
        if len(right) < 2 or not all(t.face_up and not t.horizontal for t in [*left[-2:], *right[:2]]):
            continue
        a, b = left[-1], right[0]
        beyond = [*left[-4:-1], *right[1:4]]
        width = statistics.median(t.x2 - t.x1 for t in beyond)
        gap = (b.x1 - a.x2) / width
        heights = sorted((a.y2 - a.y1, b.y2 - b.y1))
        ref = left if len(left) >= 2 else right
        if not (SHOWN_GAP <= gap < HIDDEN_MOST + 0.5 and heights[1] <= SAME_SIZE * heights[0]
                and all(abs(o) <= HAND_LINE * t.short for t, o in zip((a, b), _offsets([a, b], ref), strict=True))):
            continue
        merged = [*segs[:k], segs[k] + segs[k + 1], *segs[k + 2:]]
        for hidden in sorted({max(1, math.floor(gap)), min(HIDDEN_MOST, math.ceil(gap))}, key=lambda n: abs(n - gap)):
            yield merged, hidden, (a.name, b.name)


def hidden_note(hidden: int, names: tuple[str, str]) -> str:
    """The warning for a hand row read across a gap that hides `hidden` tiles between the two `names`."""
    tiles, them = ("a tile", "it") if hidden == 1 else (f"{hidden} tiles", "them")
    return (f"a gap {tiles} wide in the hand row between {names[0]} and {names[1]}: {HIDDEN} there (a finger, a "
            f"shadow?) or not found; the hand is read without {them} (retake the photo with the whole row in view)")


def _win_laid_beyond(concealed: list[_T], others: list[_T]) -> _T | None:
    """The winning tile put down off the hand's row, when the hand is a tile short of a winning one: on its far side
    (a tsumo tile shown above the hand, often tilted), its near edge reaching the row's far edge, or in front of it
    (pushed towards the player, where nothing else of the game lies), less than a tile's width from the row's near
    edge; over the row or just past one of its ends, with no other face-up tile beside it (a pond tile has its row).
    Tilted, it may be found twice, or in two parts (`_one_tile`)."""
    x1, x2 = min(t.x1 for t in concealed), max(t.x2 for t in concealed)
    up = [t for t in others if t.face_up]

    def off_row(t: _T) -> bool:
        nearest = sorted(concealed, key=lambda c: abs(c.cx - t.cx))[:3]  # the row's edges there (perspective tilts it)
        far, front = statistics.median(c.y1 for c in nearest), statistics.median(c.y2 for c in nearest)
        return x1 - t.short <= t.cx <= x2 + t.short and (t.cy < far < t.y2 + 0.5 * t.short
                                                           or front < t.cy and t.y1 < front + t.short)

    def alone(t: _T) -> bool:
        reach = 1.5 * max(t.x2 - t.x1, t.y2 - t.y1)
        return not any(o is not t and not _one_tile(o, t, concealed) and math.hypot(o.cx - t.cx, o.cy - t.cy) < reach
                       for o in up)

    near = [t for t in up if off_row(t) and alone(t)]
    return near[0] if near and all(_one_tile(t, near[0], concealed) for t in near) else None


def _one_tile(a: _T, b: _T, row: list[_T]) -> bool:
    """Two like readings of one tile: boxes overlapping by SAME_READING (a tilted tile found twice), or boxes that
    touch and together fit in the box a tile of the `row` fills at any tilt (its diagonal): a tilted tile boxed in two
    parts, each read as the whole face. Two like tiles side by side, or a row apart, need more room than that."""
    if _same_reading(a, b):
        return True
    if a.name != b.name or min(a.x2, b.x2) <= max(a.x1, b.x1) or min(a.y2, b.y2) <= max(a.y1, b.y1):
        return False
    diagonal = math.hypot(statistics.median(t.x2 - t.x1 for t in row), statistics.median(t.y2 - t.y1 for t in row))
    return max(max(a.x2, b.x2) - min(a.x1, b.x1), max(a.y2, b.y2) - min(a.y1, b.y1)) <= diagonal


def winning_shape(hand: SeenHand) -> bool:
    """The hand's tiles make a winning shape: the evidence that a row angle read the hand's own row."""
    try:
        melds = [Meld(m.kind, tuple(parse_tile(t) for t in m.tiles), m.source) for m in hand.melds]
        concealed = [parse_tile(t) for t in hand.concealed]
        return hand.win is not None and parse_tile(hand.win).kind in {w.tile_kind for w in waits(concealed, melds)}
    except InputError:  # a back, a meld that is none, a count that is no hand
        return False


def whole_hand(hand: SeenHand, hidden: int = 0) -> bool:
    """The hand's count is a hand's (13, or 14 with its winning tile; a meld counted as three), `hidden` tiles out of
    sight counted in, and its melds are melds: the evidence that a row read across a gap is one row."""
    shown = len(hand.concealed) + hidden + 3 * len(hand.melds) + (hand.win is not None)
    return shown in (13, 14) and all(m.kind != "unknown" for m in hand.melds)

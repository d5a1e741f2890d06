"""The discard ponds: which seat each row of discards belongs to, the block of rows that is its pond, and the
order its tiles were played in, with the sideways riichi discard (step 6 of the package docstring).
"""

from __future__ import annotations

import itertools
import math
import statistics
from collections.abc import Iterator

from vision.layout.rows import _T, SEAT_FACING, _across, _along, _axis, _facing, _order, _outward
from vision.view import SEAT_NAMES, Pond

POND_REACH = 2.0  # rows of one pond: tile centres this many short sides apart at most (rows touch; a step is ~1.4)
SKEW = 0.5  # a pond's rows run at most this slope off the table's axis once turned back (about 27 degrees)
POND_ROW = 6  # discards in a pond's row (the last row may run on): a plain row of more is a hand, cut by the frame
POND_SHORT = 3  # tiles seen in a pond's row at most that cannot come before a longer row (rows hold six)


def _pond_seat(seg: list[_T], cx: float, cy: float, seen: set[int]) -> int:
    """The seat (0 near, 1 right, 2 across, 3 left) a row of discards belongs to, the table centre at (cx, cy)
    and `seen` the seats whose longer rows are in the picture.

    A row tells by the way its upright tiles face. A lone tile cannot: it may be a riichi discard lying sideways,
    facing a neighbour's way. It goes by the side of the centre it lies on when ponds of two seats or more are in
    sight (so the centre is known) and it is clear of the diagonals; to the winner when no other pond is in sight
    (a close-up of the winner's corner); else to a seat in sight it may be the sideways riichi tile of; else by
    its own facing."""
    mx, my = sum(t.cx for t in seg) / len(seg), sum(t.cy for t in seg) / len(seg)
    dx, dy = mx - cx, my - cy
    axis = _axis(seg)
    f = _facing(seg, axis)
    if f is None:
        f = (0 if dy >= 0 else 180) if axis == "h" else (270 if dx >= 0 else 90)
    upright = SEAT_FACING[f]
    if len(seg) > 1:
        return upright
    if len(seen) >= 2 and abs(abs(dx) - abs(dy)) > 0.5 * seg[0].short:
        return (0 if dy > 0 else 2) if abs(dy) > abs(dx) else (1 if dx > 0 else 3)
    if not seen:  # no other pond in sight: a close-up of the winner's corner, whose own discard this is
        return 0
    if upright not in seen:
        sideways = [k for k in ((upright + 1) % 4, (upright + 3) % 4) if k in seen]
        if len(sideways) == 1:
            return sideways[0]
    return upright


def _blank_faces(segs: list[list[_T]]) -> set[int]:
    """Each back that stands alone between face-up tiles in a row holding no other back: a white dragon. Discards
    lie face up, so such a back is a blank face misread; a dead wall shows more backs and its indicators side by
    side, a closed kan two backs. Left a back, it split the row and made a dead wall of the faces beside it, whose
    tiles were then read as dora."""
    blank: set[int] = set()
    for seg in segs:
        ordered = _order(seg)
        down = [k for k, t in enumerate(ordered) if not t.face_up]
        if len(down) == 1 and 0 < down[0] < len(seg) - 1:
            blank.add(ordered[down[0]].i)
    return blank


def _near(a: list[_T], b: list[_T]) -> bool:
    """Rows of one pond: some tile of one lies within a row's step (POND_REACH) of a tile of the other."""
    return any(math.dist((s.cx, s.cy), (t.cx, t.cy)) <= POND_REACH * max(s.short, t.short) for s in a for t in b)


def _beside(t: _T, row: list[_T], seat: int) -> bool:
    """`t` lies a row beyond `row` from the centre (starting the next row), or across from it (within its ends). In
    line with it but apart (or it would be in it), it may as well be a neighbour's discard lying across."""
    ends = [_along(x, seat) for x in row]
    return _outward([t], seat) > _outward(row, seat) + 0.5 * t.short or min(ends) <= _along(t, seat) <= max(ends)


def _skew(rows: list[list[_T]], seat: int) -> float:
    """How far a pond's rows run off the table's axis once turned back (outward per step along): perspective turns
    a far pond's rows against the hand's, by which the picture was turned. The median slope of its longer rows."""
    slopes = [statistics.linear_regression([_along(t, seat) for t in s], [_outward([t], seat) for t in s]).slope
              for s in rows if len(s) >= 3 and len({_along(t, seat) for t in s}) > 1]
    return max(-SKEW, min(SKEW, statistics.median(slopes))) if slopes else 0.0


def _level(seg: list[_T], seat: int, skew: float) -> float:
    """`_outward` measured across rows that run `skew` off the axis."""
    return sum(_outward([t], seat) - skew * _along(t, seat) for t in seg) / len(seg)


def _pond_lines(rows: list[list[_T]], seat: int, skew: float = 0.0) -> list[list[list[_T]]]:
    """A pond's segments grouped into its rows (a row broken up by tiles not found is one), from the centre out."""
    out: list[list[list[_T]]] = []
    for s in sorted(rows, key=lambda s: _level(s, seat, skew)):
        if out and _level(s, seat, skew) - _level(out[-1][-1], seat, skew) < 0.5 * s[0].short:
            out[-1].append(s)
        else:
            out.append([s])
    return out


def _row_order(line: list[list[_T]], seat: int, skew: float) -> list[list[_T]]:
    """A line's segments in reading order: side by side (one row broken up: a tile not found, or taken back from a
    neighbour's row) along it; overlapping along it (two rows seen low, close in the picture) from the centre out,
    but pieces level with each other (within a quarter tile: a tile the row's segment passed over) as one row."""
    line = [sorted(s, key=lambda t: _along(t, seat)) for s in line]
    spans = sorted((_along(s[0], seat), _along(s[-1], seat)) for s in line)
    step = 0.25 * statistics.median(t.short for s in line for t in s)
    if all(a[1] + step < b[0] for a, b in itertools.pairwise(spans)):
        return sorted(line, key=lambda s: _along(s[0], seat))
    rows: list[list[_T]] = []
    for s in sorted(line, key=lambda s: _level(s, seat, skew)):
        if rows and _level(s, seat, skew) - _level(rows[-1], seat, skew) < step:
            rows[-1] = sorted(rows[-1] + s, key=lambda t: _along(t, seat))
        else:
            rows.append(s)
    return rows


def _clusters(rows: list[list[_T]]) -> list[list[list[_T]]]:
    """The rows grouped into blocks of rows lying against one another."""
    out: list[list[list[_T]]] = []
    for row in rows:
        joined = [c for c in out if any(_near(row, r) for r in c)]
        out = [c for c in out if not any(c is j for j in joined)] + [[r for c in joined for r in c] + [row]]
    return out


def _corner_tiles(by_seat: dict[int, list[list[_T]]]) -> None:
    """Give back the tiles a pond took from a neighbour's where two ponds meet at a corner (in place).

    There a sideways riichi discard ending one seat's row stands as the next seat's tiles do, and an upright tile
    ending it lies as the next seat's riichi tile would: either may join the neighbour's row. A pond's first two
    rows hold six tiles at most, so a tile ending a longer one of them, that touches a neighbour's row of fewer than
    six in line with it, is that neighbour's."""
    for _ in range(2 * POND_ROW):
        move = next(_taken_tiles(by_seat), None)
        if move is None:
            return
        end, seat, other = move
        by_seat[seat] = [kept for s in by_seat[seat] if (kept := [t for t in s if t is not end])]
        by_seat[other].append([end])


def _taken_tiles(by_seat: dict[int, list[list[_T]]]) -> Iterator[tuple[_T, int, int]]:
    """(tile, the seat whose pond holds it, the neighbour's seat it belongs to), as `_corner_tiles` says."""
    for seat, segs in by_seat.items():
        for line in _pond_lines(segs, seat)[:2]:
            row = sorted((t for s in line for t in s), key=lambda t: _along(t, seat))
            if len(row) <= POND_ROW:
                continue
            for end, (other, theirs) in itertools.product((row[0], row[-1]), by_seat.items()):
                in_line = [t for s in theirs for t in s
                           if abs(_outward([t], other) - _outward([end], other)) < 0.5 * end.short]
                if other != seat and in_line and len(in_line) < POND_ROW and _near([end], in_line):
                    yield end, seat, other


def _ponds(segs: list[list[_T]], turned: list[_T], warnings: list[str]) -> tuple[list[Pond], dict]:
    segs = [s for s in segs if sum(t.face_up for t in s) >= 1 and all(t.face_up for t in s)]
    if not segs:
        return [], {}
    everything = [t for s in segs for t in s]
    cx = (min(t.x1 for t in everything) + max(t.x2 for t in everything)) / 2
    cy = (min(t.y1 for t in everything) + max(t.y2 for t in everything)) / 2
    mx, my = (statistics.median(t.cx for t in everything), statistics.median(t.cy for t in everything))
    short = statistics.median(t.short for t in everything)
    rows_seat = {id(s): _pond_seat(s, cx, cy, set()) for s in segs if len(s) > 1}
    seen = set(rows_seat.values())
    by_seat: dict[int, list[list[_T]]] = {}
    for s in segs:
        # a lone tile standing as a pond's tiles do against its rows goes with it (across from a row on the centre's
        # side it is then no discard); one lying across them may be a neighbour's as well as a riichi discard, and so
        # may one off a row's end: they go by _pond_seat
        row = next((r for r in segs if id(r) in rows_seat and s[0].horizontal == (_axis(r) == "v") and _near(s, r)
                    and _beside(s[0], r, rows_seat[id(r)])), None) if len(s) == 1 else None
        seat = rows_seat[id(row)] if row else rows_seat[id(s)] if id(s) in rows_seat else _pond_seat(s, cx, cy, seen)
        by_seat.setdefault(seat, []).append(s)
    _corner_tiles(by_seat)
    ponds: list[Pond] = []
    flags: dict[int, tuple[bool, bool]] = {}
    left_out: list[str] = []
    for seat in sorted(by_seat):
        # a pond lies nearer the centre than its owner's hand and melds: the innermost block of rows that is more
        # than a few tiles (a tile misread on the centre's panel may lie further in), on the owner's side of the
        # centre when ponds of two seats or more show where it is
        middle = (my, mx, -my, -mx)[seat] - POND_REACH * short if len(seen) >= 2 else -math.inf
        blocks = sorted(_clusters(by_seat[seat]), key=lambda c: (
            sum(map(len, c)) <= POND_SHORT, min(_outward(s, seat) for s in c) < middle,
            min(_outward(s, seat) for s in c)))
        rows, apart = blocks[0], [s for c in blocks[1:] for s in c]
        # rows fill from the centre outwards, six to a row: a few tiles on the centre's side of a longer row are none
        skew = _skew(rows, seat)
        lines = _pond_lines(rows, seat, skew)
        full = [k for k, line in enumerate(lines) if sum(map(len, line)) > POND_SHORT]
        if full:
            apart += [s for line in lines[: full[0]] for s in line]
            lines = lines[full[0]:]
            rows = [s for line in lines for s in line]
        if apart:
            left_out.append(f"{sum(map(len, apart))} facing {SEAT_NAMES[seat]}")

        tiles = [t for line in lines for s in _row_order(line, seat, skew) for t in s]
        across: set[int] = set()
        for s in rows + apart:  # tiles apart from the pond are still flagged as they lie in their own rows
            across |= _across(s, _axis(s)) if len(s) >= 3 else {t.i for t in s if t.horizontal == (seat in (0, 2))}
        riichi = [k for k, t in enumerate(tiles) if t.i in across]
        if len(riichi) > 1:
            warnings.append(f"{len(riichi)} sideways tiles in the {SEAT_NAMES[seat]} pond; only one is a riichi")
        own = {0: 0, 1: 270, 2: 180, 3: 90}[seat]
        for t in [*tiles, *(t for s in apart for t in s)]:
            side = t.i in across
            flags[t.i] = (side, not side and t.orientation is not None and t.orientation == (own + 180) % 360)
        ponds.append(Pond(SEAT_NAMES[seat], tuple(t.name for t in tiles), riichi[0] if riichi else None,
                          tuple(t.i for t in tiles)))
    if left_out:
        warnings.append(f"face-up tiles apart from the ponds, not read as discards (called tiles, a hand laid down?): "
                        f"{', '.join(left_out)}")
    return ponds, flags

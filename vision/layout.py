"""From located and named tiles to a `TableView`: rows, the hand with its melds and winning tile, dora, ponds.

Pure geometry on `SeenTile` values, so it is tested with hand-made detections. The steps:

1. Tiles that touch side by side along a row become *segments*. A row of upright tiles runs across their long axis,
   so two tiles link horizontally only when one of them stands vertically in the image (a sideways tile joins a row
   of upright ones, but two stacked rows of upright tiles never merge), and vertically only when one lies
   horizontally.
2. Collinear segments with modest gaps become *lines*. The hand line is the line with the most face-up tiles.
3. Its upright tiles tell which way the hand faces; all boxes are turned by that multiple of 90 degrees, so from
   here on the winner sits at the bottom and reads left to right, whatever side the photo was taken from.
4. On the hand line: the concealed part, then the winning tile set apart (or lying sideways beside the hand), then
   the called melds, each recognised by its sideways tile (which seat it came from) or its two backs (closed kan);
   a sideways tile just beyond a meld's sideways tile makes an added kan.
5. Face-up tiles among backs (the dead wall), or else a short row beyond the hand, are the dora indicators.
6. The rest are discard ponds: each segment is given to a seat by the way its tiles face (or by where it lies
   around the table centre), rows are read from the centre outwards, and a sideways tile marks the riichi discard.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass

from vision.view import SEAT_NAMES, Pond, SeenHand, SeenMeld, SeenTile, TableView

TOUCH_GAP = 0.3  # max gap between touching tiles, in short-side lengths
LINE_GAP = 4.5  # max gap between segments of one line (hand to winning tile to melds), in short-side lengths
ALIGN = 0.45  # max offset across the row between linked tiles, in short-side lengths


@dataclass
class _T:
    """A tile in the working frame: the box after turning, the orientation relative to that frame."""

    i: int
    x1: float
    y1: float
    x2: float
    y2: float
    name: str
    horizontal: bool
    orientation: int | None

    @property
    def cx(self) -> float:
        return (self.x1 + self.x2) / 2

    @property
    def cy(self) -> float:
        return (self.y1 + self.y2) / 2

    @property
    def short(self) -> float:
        return min(self.x2 - self.x1, self.y2 - self.y1)

    @property
    def face_up(self) -> bool:
        return self.name != "back"


def _turn(tiles: list[SeenTile], quarter: int, width: float, height: float) -> list[_T]:
    """Turn the frame `quarter` x 90 degrees counter-clockwise (so a face pointing 90*quarter ends pointing up)."""
    out = []
    for i, t in enumerate(tiles):
        x1, y1, x2, y2 = t.box
        w, h = width, height
        horizontal = t.horizontal
        for _ in range(quarter % 4):  # one step: (x, y) -> (y, w - x); the frame becomes h wide, w high
            x1, y1, x2, y2 = y1, w - x2, y2, w - x1
            w, h = h, w
            horizontal = not horizontal
        o = None if t.orientation is None else (t.orientation - 90 * quarter) % 360
        out.append(_T(i, x1, y1, x2, y2, t.tile, horizontal, o))
    return out


def _linked(a: _T, b: _T) -> bool:
    """Touching neighbours in a row (across the image for upright tiles, down it for tiles lying horizontally)."""
    s = min(a.short, b.short)
    dx, dy = abs(a.cx - b.cx), abs(a.cy - b.cy)
    if not (a.horizontal and b.horizontal):  # a row running across the image (tolerates rows up to ~30 degrees)
        gap = max(a.x1, b.x1) - min(a.x2, b.x2)
        if gap < TOUCH_GAP * s and dx > 0.3 * s and dy < 0.6 * dx + 0.15 * s:
            return True
    if a.horizontal or b.horizontal:  # a row running down the image (a seat to the side)
        gap = max(a.y1, b.y1) - min(a.y2, b.y2)
        if gap < TOUCH_GAP * s and dy > 0.3 * s and dx < 0.6 * dy + 0.15 * s:
            return True
    return False


def _segments(ts: list[_T]) -> list[list[_T]]:
    """Rows of touching tiles. Tiles of one axis link first; a tile of the other axis then joins a row only when it
    is not itself part of a longer row of its own (a riichi or called tile, not the corner of a side seat's pond)."""
    pure = _components(ts, lambda a, b: a.horizontal == b.horizontal and _linked(a, b))
    size = {t.i: len(seg) for seg in pure for t in seg}

    def link(a: _T, b: _T) -> bool:
        if a.horizontal == b.horizontal:
            return _linked(a, b)
        row_h = _row_horizontal(a, b)
        odd = a if a.horizontal == row_h else b  # the tile lying across that row
        # it lies flush with the near (or far) edge of the row, as a called or riichi tile is laid
        flush = min(abs(a.y1 - b.y1), abs(a.y2 - b.y2)) if row_h else min(abs(a.x1 - b.x1), abs(a.x2 - b.x2))
        return size[odd.i] <= 2 and flush < 0.25 * min(a.short, b.short) and _linked(a, b)

    return _components(ts, link)


def _components(ts: list[_T], link) -> list[list[_T]]:
    parent = list(range(len(ts)))

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for a in range(len(ts)):
        for b in range(a + 1, len(ts)):
            if link(ts[a], ts[b]):
                parent[find(a)] = find(b)
    groups: dict[int, list[_T]] = {}
    for k in range(len(ts)):
        groups.setdefault(find(k), []).append(ts[k])
    return list(groups.values())


def _row_horizontal(a: _T, b: _T) -> bool:
    """Whether the row through two touching tiles of different axes runs across the image."""
    return abs(a.cx - b.cx) >= abs(a.cy - b.cy)


def _axis(seg: list[_T]) -> str:
    """'h' when the segment runs horizontally (left to right), else 'v'."""
    if len(seg) == 1:
        return "v" if seg[0].horizontal else "h"
    xs = max(t.cx for t in seg) - min(t.cx for t in seg)
    ys = max(t.cy for t in seg) - min(t.cy for t in seg)
    return "h" if xs >= ys else "v"


def _direction(seg: list[_T]) -> tuple[float, float] | None:
    """Unit vector along a segment of two or more tiles, from its first to its last tile."""
    if len(seg) < 2:
        return None
    o = _order(seg)
    dx, dy = o[-1].cx - o[0].cx, o[-1].cy - o[0].cy
    n = (dx * dx + dy * dy) ** 0.5 or 1.0
    return dx / n, dy / n


def _order(seg: list[_T]) -> list[_T]:
    return sorted(seg, key=(lambda t: t.cx) if _axis(seg) == "h" else (lambda t: t.cy))


def _lines(segs: list[list[_T]]) -> list[list[list[_T]]]:
    """Segments that continue one another along a row (the hand, its winning tile, its melds)."""
    def joined(a: list[_T], b: list[_T]) -> bool:
        if len(b) > len(a):
            a, b = b, a
        s = min(min(t.short for t in a), min(t.short for t in b))
        d = _direction(a)
        if d is None:
            d = (0.0, 1.0) if a[0].horizontal and b[0].horizontal else (1.0, 0.0)
        db = _direction(b)
        if db is not None and abs(d[0] * db[1] - d[1] * db[0]) > 0.35:
            return False
        p0 = (a[0].cx, a[0].cy)

        def along(t: _T) -> float:
            return d[0] * (t.cx - p0[0]) + d[1] * (t.cy - p0[1])

        perp = min(abs(d[0] * (t.cy - p0[1]) - d[1] * (t.cx - p0[0])) for t in b)
        ta, tb = [along(t) for t in a], [along(t) for t in b]
        gap = max(min(tb) - max(ta), min(ta) - max(tb)) - s
        return gap < LINE_GAP * s and perp < 0.5 * s

    n = len(segs)
    parent = list(range(n))

    def find(k: int) -> int:
        while parent[k] != k:
            k = parent[k]
        return k

    for a in range(n):
        for b in range(a + 1, n):
            if joined(segs[a], segs[b]):
                parent[find(a)] = find(b)
    out: dict[int, list[list[_T]]] = {}
    for k in range(n):
        out.setdefault(find(k), []).append(segs[k])
    return list(out.values())


def _facing(ts: list[_T], axis: str) -> int | None:
    """Majority orientation of the upright tiles of a row (its owner's 'up'), None when nothing tells."""
    votes = Counter(t.orientation for t in ts if t.orientation is not None and t.face_up
                    and t.horizontal == (axis == "v"))
    return votes.most_common(1)[0][0] if votes else None


def _across(tiles: list[_T], axis: str) -> set[int]:
    """Tiles lying across their row: a box clearly longer along the row than the row's typical tile.

    Judged against the row rather than by the detector's axis alone, so it holds in oblique phone photos where
    perspective turns every box towards a square.
    """
    def aspect(t: _T) -> float:
        w, h = max(t.x2 - t.x1, 1e-6), max(t.y2 - t.y1, 1e-6)
        return w / h if axis == "h" else h / w

    if len(tiles) < 3:
        return {t.i for t in tiles if t.horizontal == (axis == "h")}
    ordered = sorted(tiles, key=(lambda t: t.cx) if axis == "h" else (lambda t: t.cy))
    ratios = [aspect(t) for t in ordered]
    out = set()
    for k, t in enumerate(ordered):
        near = sorted(ratios[max(k - 3, 0) : k] + ratios[k + 1 : k + 4])
        median = near[len(near) // 2]
        r = ratios[k] / median
        if r > 1.3 or (r > 1.12 and t.horizontal == (axis == "h")):
            out.add(t.i)
    return out


def _meld_kind(names: list[str]) -> str:
    kinds = ["5" + n[1] if n[0] == "0" else n for n in names]
    if "back" in kinds:
        return "unknown"
    if len(set(kinds)) == 1:
        return "pon" if len(kinds) == 3 else "kan"
    if len(kinds) == 3 and len({k[1] for k in kinds}) == 1 and kinds[0][1] != "z":
        nums = sorted(int(k[0]) for k in kinds)
        if nums[1] == nums[0] + 1 and nums[2] == nums[1] + 1:
            return "chi"
    return "unknown"


def _source(pos: int, size: int) -> str:
    if pos == 0:
        return "left"
    return "right" if pos == size - 1 else "across"


def _parse_melds(tiles: list[_T], extra: list[_T], warnings: list[str], across: set[int]) -> tuple[
        list[SeenMeld], set[int]]:
    """Melds from left to right; `extra` are sideways tiles off the line (added-kan partners). Returns used extras."""
    melds: list[SeenMeld] = []
    used: set[int] = set()
    k = 0
    while k < len(tiles):
        t = tiles[k]
        if not t.face_up and k + 3 < len(tiles) and not tiles[k + 3].face_up:
            mid = tiles[k + 1 : k + 3]
            names = [m.name for m in mid]
            melds.append(SeenMeld("closed-kan", (names[0], names[0], names[1], names[1]) if names[0] == names[1]
                                  else ("back", names[0], names[1], "back"), None,
                                  tuple(x.i for x in tiles[k : k + 4])))
            if _meld_kind(names * 2) != "kan":
                warnings.append(f"closed kan shows {names[0]} and {names[1]}, which differ")
            k += 4
            continue
        for size in (4, 3):
            win = tiles[k : k + size]
            if len(win) < size:
                continue
            side = [j for j, x in enumerate(win) if x.i in across]
            if len(side) != 1 or any(not x.face_up for x in win):
                continue
            names = [x.name for x in win]
            kind = _meld_kind(names)
            if size == 4 and kind != "kan":
                continue
            pos = side[0]
            source = _source(pos, size) if size == 3 else ("left" if pos == 0 else "right" if pos == 3 else "across")
            if kind == "pon":  # an added kan: a second sideways tile beyond the called one
                s = win[pos]
                for e in extra:
                    if e.i not in used and abs(e.cx - s.cx) < 0.6 * s.short and s.y1 - 1.6 * s.short < e.cy < s.cy:
                        used.add(e.i)
                        kind = "added-kan"
                        names = [*names, e.name]
                        break
            if kind == "unknown":
                warnings.append(f"called tiles {' '.join(names)} make no chi, pon or kan")
            melds.append(SeenMeld(kind, tuple(names), source, tuple(x.i for x in win)))
            k += size
            break
        else:
            warnings.append(f"tile {t.name} beside the melds belongs to no meld")
            k += 1
    return melds, used


def _off_line(line: list[list[_T]]) -> set[int]:
    """Tiles lying clearly beyond the row (the added tile of an added kan sits above its called tile)."""
    tiles = [t for s in line for t in s]
    if len(tiles) < 4:
        return set()
    out: set[int] = set()
    for _ in range(2):  # least-squares line through the row, refitted without the tiles found beyond it
        keep = [t for t in tiles if t.i not in out]
        n = len(keep)
        mx, my = sum(t.cx for t in keep) / n, sum(t.cy for t in keep) / n
        sxx = sum((t.cx - mx) ** 2 for t in keep) or 1e-6
        slope = sum((t.cx - mx) * (t.cy - my) for t in keep) / sxx
        out = {t.i for t in tiles if t.cy - (my + slope * (t.cx - mx)) < -0.6 * t.short}
    return out


def _hand(line: list[list[_T]], others: list[_T], warnings: list[str]) -> tuple[SeenHand, set[int], set[int]]:
    beyond = _off_line(line)
    others = others + [t for s in line for t in s if t.i in beyond]
    line = [[t for t in s if t.i not in beyond] for s in line]
    line = [s for s in line if s]
    segs = sorted(line, key=lambda s: min(t.x1 for t in s))
    # the concealed part is the longest run; anything collinear on its left is not part of this hand
    first = max(range(len(segs)), key=lambda k: (sum(t.face_up and not t.horizontal for t in segs[k])
                                                  - 3 * sum(not t.face_up for t in segs[k]), -k))
    others = others + [t for s in segs[:first] for t in s]
    segs = segs[first:]
    across = _across([t for s in segs for t in s], "h")
    concealed: list[_T] = []
    win: _T | None = None
    meld_tiles: list[_T] = []
    for n, seg in enumerate(segs):
        ordered = sorted(seg, key=lambda t: t.cx)
        if n == 0:
            concealed = ordered
            cut = next((k for k, t in enumerate(ordered) if t.i in across or not t.face_up), None)
            if cut is not None:  # melds laid against the hand without a gap
                concealed, meld_tiles = ordered[:cut], ordered[cut:]
        elif meld_tiles:
            meld_tiles += ordered
        elif win is None and len(ordered) == 1 and ordered[0].face_up:
            win = ordered[0]
        else:
            meld_tiles += ordered
    extra = [t for t in others if t.face_up]
    notes: list[str] = []
    melds, used = _parse_melds(meld_tiles, extra, notes, across)
    if win is None and meld_tiles and meld_tiles[0].face_up:
        # a lone tile laid sideways right after the hand is the winning tile, not a meld
        notes2: list[str] = []
        melds2, used2 = _parse_melds(meld_tiles[1:], extra, notes2, across)
        if len(notes2) < len(notes):
            win, melds, used, notes = meld_tiles[0], melds2, used2, notes2
    warnings += notes
    used_ids = {t.i for t in concealed} | {t.i for t in meld_tiles} | used
    win_sideways = False
    if win is not None:
        used_ids.add(win.i)
        win_sideways = win.i in across
    else:
        if (len(concealed) + 3 * len(melds)) % 3 == 2 and concealed:
            win = concealed.pop()
            warnings.append("the winning tile is not set apart; taking the rightmost tile of the hand")
    hand = SeenHand(tuple(t.name for t in concealed), win.name if win else None, tuple(melds), win_sideways)
    return hand, used_ids, across


def build_view(tiles: list[SeenTile], width: int, height: int) -> TableView:
    """Group recognised tiles into the hand, melds, dora indicators and ponds (see the module docstring)."""
    warnings: list[str] = []
    if not tiles:
        return TableView(width, height, (), SeenHand(), (), (), ("no tiles found in the photo",))
    base = _turn(tiles, 0, width, height)
    segs = _segments(base)
    lines = _lines(segs)
    face_up = [sum(t.face_up for seg in ln for t in seg) for ln in lines]
    best = max(range(len(lines)), key=lambda k: (face_up[k], -sum(len(s) for s in lines[k])))
    hand_line = lines[best]
    axis = _axis(max(hand_line, key=len))
    facing = _facing([t for s in hand_line for t in s], axis)
    if facing == 180:  # photos are usually taken from the hand's side: turning them round needs a clear majority
        votes = Counter(t.orientation for s in hand_line for t in s if t.face_up and not t.horizontal)
        if votes[180] < 2 * votes[0] + 2:
            facing = 0
    if facing is None:
        facing = 0 if axis == "h" else 270
        warnings.append("cannot tell which way the hand faces; assuming it is read from the bottom of the photo")
    quarter = facing // 90
    turned = _turn(tiles, quarter, width, height)
    by_i = {t.i: t for t in turned}
    hand_ids = {t.i for s in hand_line for t in s}
    hand_line_t = [[by_i[t.i] for t in s] for s in hand_line]
    others = [t for t in turned if t.i not in hand_ids]
    hand, used, hand_across = _hand(hand_line_t, others, warnings)

    rest = [t for t in turned if t.i not in used]
    rest_segs = _segments(rest)
    dora: list[_T] = []
    wall = [s for s in rest_segs if any(not t.face_up for t in s) and any(t.face_up for t in s)]
    if wall:
        seg = max(wall, key=len)
        f = _facing(seg, _axis(seg))
        seat = {0: 0, 270: 1, 180: 2, 90: 3}.get(f if f is not None else 0, 0)
        dora = sorted((t for t in seg if t.face_up), key=lambda t: (t.cx, -t.cy, -t.cx, t.cy)[seat])
        taken = {t.i for t in seg}
    else:
        # no dead wall: a lone short row of upright tiles beyond the hand (the indicators laid out for the photo)
        loose = [s for s in rest_segs if all(t.face_up for t in s)]
        taken = set()
        hand_cy = sum(t.cy for s in hand_line_t for t in s) / sum(len(s) for s in hand_line_t)
        if len(loose) == 1 and len(loose[0]) <= 5 and sum(t.cy for t in loose[0]) / len(loose[0]) < hand_cy:
            dora = _order(loose[0])
            taken = {t.i for t in loose[0]}
    ponds = _ponds([s for s in rest_segs if not ({t.i for t in s} & taken)], turned, warnings)

    # sideways / upside-down flags relative to each tile's own row
    flags: dict[int, tuple[bool, bool]] = {}
    for s in hand_line_t:
        for t in s:
            flags[t.i] = (t.i in hand_across, t.orientation == 180)
    out = []
    for k, t in enumerate(tiles):
        side, flip = flags.get(k, ponds[1].get(k, (False, False)))
        out.append(dataclasses.replace(t, sideways=side, upside_down=flip))
    return TableView(width, height, tuple(out), hand, tuple(t.name for t in dora), tuple(ponds[0]),
                     tuple(warnings))


def _ponds(segs: list[list[_T]], turned: list[_T], warnings: list[str]) -> tuple[list[Pond], dict]:
    segs = [s for s in segs if sum(t.face_up for t in s) >= 1 and all(t.face_up for t in s)]
    if not segs:
        return [], {}
    cx = sum(t.cx for s in segs for t in s) / sum(len(s) for s in segs)
    cy = sum(t.cy for s in segs for t in s) / sum(len(s) for s in segs)
    by_seat: dict[int, list[list[_T]]] = {}
    for s in segs:
        axis = _axis(s)
        f = _facing(s, axis)
        if f is None:
            mx = sum(t.cx for t in s) / len(s)
            my = sum(t.cy for t in s) / len(s)
            f = (0 if my >= cy else 180) if axis == "h" else (270 if mx >= cx else 90)
        by_seat.setdefault({0: 0, 270: 1, 180: 2, 90: 3}[f], []).append(s)
    ponds: list[Pond] = []
    flags: dict[int, tuple[bool, bool]] = {}
    for seat in sorted(by_seat):
        rows = by_seat[seat]
        # turn each row into the owner's frame: rows nearest the centre first, left to right
        def key_row(s: list[_T], seat: int = seat) -> float:
            c = sum((t.cy, t.cx, -t.cy, -t.cx)[seat] for t in s) / len(s)
            return c

        def key_tile(t: _T, seat: int = seat) -> float:
            return (t.cx, -t.cy, -t.cx, t.cy)[seat]

        tiles: list[_T] = []
        for s in sorted(rows, key=key_row):
            tiles += sorted(s, key=key_tile)
        across: set[int] = set()
        for s in rows:
            across |= _across(s, _axis(s)) if len(s) >= 3 else {t.i for t in s if t.horizontal == (seat in (0, 2))}
        riichi = [k for k, t in enumerate(tiles) if t.i in across]
        if len(riichi) > 1:
            warnings.append(f"{len(riichi)} sideways tiles in the {SEAT_NAMES[seat]} pond; only one is a riichi")
        own = {0: 0, 1: 270, 2: 180, 3: 90}[seat]
        for k, t in enumerate(tiles):
            flip = t.orientation is not None and k not in riichi and t.orientation == (own + 180) % 360
            flags[t.i] = (k in riichi, flip)
        ponds.append(Pond(SEAT_NAMES[seat], tuple(t.name for t in tiles), riichi[0] if riichi else None))
    return ponds, flags

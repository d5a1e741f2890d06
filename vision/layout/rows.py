"""Tiles in the working frame and the rows they make: touching neighbours, segments, lines, which way a row
faces and which of its tiles lie across it. Every later step (hand, melds, dead wall, ponds) stands on these.
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass

import numpy as np

from vision.view import SeenTile, box_iou

NEARER = 0.1  # how much a row neighbour's distance along the row counts against its offset across it
TOUCH_GAP = 0.3  # max gap between touching tiles, in short-side lengths
LINE_GAP = 4.5  # max gap between segments of one line (hand to winning tile to melds), in short-side lengths
WIDE = 1.085  # a step between tiles over the upright pitch, above which a tile lying across may lie between
WALL_LINE = 0.25  # and in one straight row: centres within this share of a short side of the line through them
SEAT_FACING = {0: 0, 270: 1, 180: 2, 90: 3}  # a row's facing (its tops, degrees clockwise) -> seat 0 near .. 3 left
ROW_END = 0.2  # a back ending a row of faces stands in it when its centre is within this share of a short side
SAME_READING = 0.3  # like readings whose boxes overlap by this IoU or more: one tilted tile found twice


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


def _mutual_nearest(near: np.ndarray, dist: np.ndarray) -> dict[int, int]:
    """i -> j for each i whose nearest candidate j (row i of `near`, least `dist`, the first of equals) has i as its
    own nearest candidate (column j): the links of a chain, one on each side of a tile."""
    d = np.where(near, dist, np.inf)
    after, before = d.argmin(1), d.argmin(0)
    return {int(i): int(after[i]) for i in np.flatnonzero(near.any(1)) if before[after[i]] == i}


def _row_pairs(ts: list[_T]) -> set[tuple[int, int]]:
    """Pairs (i, j), i < j, of tiles that are each other's nearest-in-line touching neighbour on that side.

    Seen at a slant, the rows of a pond lie so close in the picture that a tile also touches the tiles diagonally
    before and after it in the next row; linking all of them would melt the rows into one blob. A row is a chain:
    each tile has one neighbour on each side, the one most in line with it, and of tiles as much in line the nearer
    (seen low, the boxes of standing tiles are wide enough to touch the tile beyond the next one). Two tiles touch in
    a row running across the image only when one of them stands upright there, and in a row running down it only
    when one lies; rows may slope up to ~30 degrees."""
    if not ts:
        return set()
    x1, y1, x2, y2 = (np.array([getattr(t, k) for t in ts]) for k in ("x1", "y1", "x2", "y2"))
    lying = np.array([t.horizontal for t in ts])
    cx, cy, short = (x1 + x2) / 2, (y1 + y2) / 2, np.minimum(x2 - x1, y2 - y1)
    s = np.minimum.outer(short, short)  # the smaller tile's short side, per pair
    dx, dy = cx[None, :] - cx[:, None], cy[None, :] - cy[:, None]  # from tile a (row) to tile b (column)
    ids = [t.i for t in ts]
    pairs: set[tuple[int, int]] = set()
    for along, off, lo, hi, axis_ok in ((dx, np.abs(dy), x1, x2, ~np.logical_and.outer(lying, lying)),
                                        (dy, np.abs(dx), y1, y2, np.logical_or.outer(lying, lying))):
        gap = np.maximum.outer(lo, lo) - np.minimum.outer(hi, hi)
        near = axis_ok & (along > 0) & (gap < TOUCH_GAP * s) & (along > 0.3 * s) & (off < 0.6 * along + 0.15 * s)
        for a, b in _mutual_nearest(near, off + NEARER * along).items():
            pairs.add((min(ids[a], ids[b]), max(ids[a], ids[b])))
    return pairs


def _segments(ts: list[_T]) -> list[list[_T]]:
    """Rows of touching tiles. Tiles of one axis link first; a tile of the other axis then joins a row only when it
    is not itself part of a longer row of its own (a riichi or called tile, not the corner of a side seat's pond)."""
    pairs = _row_pairs(ts)  # every test below is asked of these pairs only
    pure = _components(ts, pairs, lambda a, b: a.horizontal == b.horizontal)
    size = {t.i: len(seg) for seg in pure for t in seg}
    by_i = {t.i: t for t in ts}
    neighbours: dict[int, set[int]] = {t.i: set() for t in ts}
    for i, j in pairs:
        neighbours[i].add(j)
        neighbours[j].add(i)

    def crossing(a: _T, b: _T) -> bool:
        """a and b lie on different axes: the odd one joins the other's row if laid flush with its near (or far)
        edge, as a called or riichi tile is laid."""
        row_h = _row_horizontal(a, b)
        odd = a if a.horizontal == row_h else b  # the tile lying across that row
        flush = min(abs(a.y1 - b.y1), abs(a.y2 - b.y2)) if row_h else min(abs(a.x1 - b.x1), abs(a.x2 - b.x2))
        # a tile beside it on its own axis may only be the added tile of a kan, linked to no other face-up tile
        # (a back beside it is no row: the edge of a hand tile is sometimes read as one); one that goes on in a row
        # makes the odd tile the end of that row (ponds crowding at a corner), not a riichi tile
        partners = [j for j in neighbours[odd.i] if by_i[j].horizontal == odd.horizontal]
        alone = all(sum(by_i[k].face_up or by_i[k].horizontal == odd.horizontal for k in neighbours[j]) == 1
                    for j in partners)
        return size[odd.i] <= 2 and alone and flush < 0.25 * min(a.short, b.short)

    # tiles laid across a row of the other axis (called or riichi tiles), by whether that row runs across the picture
    odd_in: dict[bool, set[int]] = {True: set(), False: set()}
    for i, j in pairs:
        a, b = by_i[i], by_i[j]
        if a.horizontal != b.horizontal and crossing(a, b):
            row_h = _row_horizontal(a, b)
            odd_in[row_h].add((a if a.horizontal == row_h else b).i)
    called = odd_in[True]  # sideways tiles in a row of upright ones

    def link(a: _T, b: _T) -> bool:
        if a.horizontal != b.horizontal:
            # a tile laid across one row is no member of a row the other way (the next pond row's first tile)
            row_h = _row_horizontal(a, b)
            member = b if a.horizontal == row_h else a
            return crossing(a, b) and member.i not in odd_in[not row_h]
        # the tile stacked beyond a called one is an added kan's, not the start of a row running down the picture,
        # which would bend the hand's row into an L
        stacked = a.horizontal and not _row_horizontal(a, b) and (a.i in called or b.i in called)
        return not stacked

    return _components(ts, pairs, link)


def _groups(n: int, joined) -> list[list[int]]:
    """0..n-1 grouped through the `joined` pairs (union-find): each group in index order, groups by first index."""
    parent = list(range(n))

    def find(k: int) -> int:
        while parent[k] != k:
            parent[k] = parent[parent[k]]
            k = parent[k]
        return k

    for a, b in joined:
        parent[find(a)] = find(b)
    groups: dict[int, list[int]] = {}
    for k in range(n):
        groups.setdefault(find(k), []).append(k)
    return list(groups.values())


def _components(ts: list[_T], pairs: set[tuple[int, int]], link) -> list[list[_T]]:
    """Groups of `ts` joined by those of the row `pairs` for which `link` holds, each in the order of `ts`."""
    pos = {t.i: k for k, t in enumerate(ts)}
    joined = ((pos[i], pos[j]) for i, j in pairs if link(ts[pos[i]], ts[pos[j]]))
    return [[ts[k] for k in group] for group in _groups(len(ts), joined)]


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
    """Segments that continue one another along a row (the hand, its winning tile, its melds).

    A line that holds rows of three or more running across each other is split: a lone tile (the one concealed tile
    left beside four melds) can lie where the dead wall's row runs on, and chain the wall into the hand's line. The
    rows across the one with the most tiles along it leave the line, which is then joined again without them.
    """
    directions = [_direction(seg) for seg in segs]
    shorts = [min(t.short for t in seg) for seg in segs]

    def joined(ka: int, kb: int) -> bool:
        if len(segs[kb]) > len(segs[ka]):
            ka, kb = kb, ka
        a, b = segs[ka], segs[kb]
        s = min(shorts[ka], shorts[kb])
        d = directions[ka]
        if d is None:
            d = (0.0, 1.0) if a[0].horizontal and b[0].horizontal else (1.0, 0.0)
        db = directions[kb]
        if db is not None and _crossed(d, db):
            return False
        p0 = (a[0].cx, a[0].cy)

        def along(t: _T) -> float:
            return d[0] * (t.cx - p0[0]) + d[1] * (t.cy - p0[1])

        perp = min(abs(d[0] * (t.cy - p0[1]) - d[1] * (t.cx - p0[0])) for t in b)
        ta, tb = [along(t) for t in a], [along(t) for t in b]
        gap = max(min(tb) - max(ta), min(ta) - max(tb)) - s
        return gap < LINE_GAP * s and perp < 0.5 * s

    pairs = [(a, b) for a, b in itertools.combinations(range(len(segs)), 2) if joined(a, b)]

    def grouped(members: list[int]) -> list[list[int]]:
        pos = {k: n for n, k in enumerate(members)}
        inside = ((pos[a], pos[b]) for a, b in pairs if a in pos and b in pos)
        return [[members[n] for n in group] for group in _groups(len(members), inside)]

    out: list[list[int]] = []
    for group in grouped(list(range(len(segs)))):
        rows = [k for k in group if len(segs[k]) >= 3 and directions[k]]
        main = max(rows, key=lambda k: sum(len(segs[j]) for j in rows if not _crossed(directions[k], directions[j])),
                   default=None)
        across = [k for k in rows if main is not None and _crossed(directions[main], directions[k])]
        out += grouped([k for k in group if k not in across]) + grouped(across) if across else [group]
    return [[segs[k] for k in group] for group in out]


def _crossed(d: tuple[float, float], e: tuple[float, float]) -> bool:
    """Two unit directions more than about 20 degrees apart."""
    return abs(d[0] * e[1] - d[1] * e[0]) > 0.35


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


def _same_reading(a: _T, b: _T) -> bool:
    return a.name == b.name and box_iou((a.x1, a.y1, a.x2, a.y2), (b.x1, b.y1, b.x2, b.y2)) >= SAME_READING


def _offsets(tiles: list[_T], ref: list[_T]) -> list[float]:
    """How far each tile's centre lies off the straight line (least squares) through the centres of `ref`, across
    the row, in pixels."""
    h = _axis(ref) == "h"
    us = [t.cx if h else t.cy for t in ref]
    vs = [t.cy if h else t.cx for t in ref]
    mu, mv = sum(us) / len(us), sum(vs) / len(vs)
    slope = sum((u - mu) * (v - mv) for u, v in zip(us, vs, strict=True)) / (sum((u - mu) ** 2 for u in us) or 1e-6)
    return [(t.cy - mv - slope * (t.cx - mu)) if h else (t.cx - mv - slope * (t.cy - mu)) for t in tiles]


def _straight(tiles: list[_T], slack: float = WALL_LINE) -> bool:
    """Centres on one straight line (least squares), none further off it than `slack` short sides."""
    if len(tiles) < 3:
        return True
    short = sorted(t.short for t in tiles)[len(tiles) // 2]
    return all(abs(o) <= slack * short for o in _offsets(tiles, tiles))


def _off_row_ends(ordered: list[_T]) -> set[int]:
    """Backs ending a row of faces that stand off its line: in the picture a neighbour's wall or standing hand can
    touch the end of the winner's hand, but a misread hand tile (a blank white dragon) stands in line with it."""
    faces = [t for t in ordered if t.face_up]
    if len(faces) < 3:
        return set()
    out: set[int] = set()
    for end in (ordered, ordered[::-1]):
        backs = list(itertools.takewhile(lambda t: not t.face_up, end))
        for t, off in zip(backs, _offsets(backs, faces), strict=True):
            if abs(off) <= ROW_END * t.short:
                break
            out.add(t.i)
    return out


def _runs(ordered: list[_T]) -> list[tuple[bool, list[_T]]]:
    """Maximal runs of face-up and of face-down tiles, in order: (face_up, tiles)."""
    out: list[tuple[bool, list[_T]]] = []
    for t in ordered:
        if out and out[-1][0] == t.face_up:
            out[-1][1].append(t)
        else:
            out.append((t.face_up, [t]))
    return out


def _outward(seg: list[_T], seat: int) -> float:
    """How far out from the table centre a row of `seat`'s pond lies (its owner's rows run from the centre out)."""
    return sum((t.cy, t.cx, -t.cy, -t.cx)[seat] for t in seg) / len(seg)


def _along(t: _T, seat: int) -> float:
    """Where a tile lies along a row on `seat`'s side of the table (a pond's, a dead wall's), left to right as that
    seat reads it."""
    return (t.cx, -t.cy, -t.cx, t.cy)[seat]

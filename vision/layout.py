"""From located and named tiles to a `TableView`: rows, the hand with its melds and winning tile, dora, ponds.

Pure geometry on `SeenTile` values, so it is tested with hand-made detections. The steps:

0. A photo taken across a corner of the table shows its rows running diagonally. The angle of the rows is measured from
   each tile's nearest neighbour (modulo 90 degrees, so all four seats agree) and the tiles are turned back into a frame
   where the rows run along the axes (`table_angle`, `_derotate`). Near 45 degrees perspective turns part of a row past
   the detector's quarter turn; pairs of such tiles at an upright pitch, and long runs of lying tiles (a hand, a dead
   wall), are put back upright (`_unsplit_rows`). Seen low across a corner, perspective turns the rows apart (the near
   hand more than the far wall), so when the average angle gives no winning hand, angles near it are tried and the first
   that reads one is kept (`RETRY_ANGLES`).
1. Tiles that touch side by side along a row become *segments*. A row of upright tiles runs across their long axis,
   so two tiles link horizontally only when one of them stands vertically in the image (a sideways tile joins a row
   of upright ones, but two stacked rows of upright tiles never merge), and vertically only when one lies
   horizontally. Each tile links only to its nearest neighbour in line on either side, so the rows of a pond seen
   at a slant, which touch diagonally in the picture, stay apart.
2. Collinear segments with modest gaps become *lines*. The hand line is the line with the most face-up tiles,
   among those holding a straight row of ten or more upright tiles if any does (only a hand is laid so; a back or
   two inside it are hand tiles misread, often a blank white dragon).
3. Its upright tiles tell which way the hand faces; all boxes are turned by that multiple of 90 degrees, so from
   here on the winner sits at the bottom and reads left to right, whatever side the photo was taken from.
4. On the hand line (backs touching its ends but standing off its line are a neighbour's): the concealed part (the
   longest plain run that is not a called meld), then the winning tile set apart (or lying sideways beside the
   hand, or lone just off the row, in front of it or against its far side, when the hand is a tile short), then
   the called melds, each recognised by its sideways tile (which seat it came from) or its two backs (closed
   kan); a sideways tile just beyond a meld's sideways tile (seen low: in the row, over it, or two of a kan's
   tiles overlapping there) makes an added kan. Seen low, where no tile of a meld looks wider than the others, the
   longer steps beside the called tile tell it. A hand row split by a gap (tiles laid a little apart) is read
   across the gap when the split one makes no winning hand.
5. The dora indicators: one to five face-up tiles in a dead wall (a straight row of backs of one size, standing evenly,
   read in its owner's order), or else a short row laid out beyond the hand (beyond the winner's own pond in a close-up;
   seen across a corner, even when its tiles all read lying). Backs lying about elsewhere (a jumble pushed aside, a tile
   knocked over beside a pond) make no wall: face-up tiles touching them are discards.
6. The rest are discard ponds: each segment is given to a seat by the way its tiles face (a lone tile standing as
   a pond's tiles do against its rows goes with it; one lying across, maybe a sideways riichi discard, by where it
   lies around the table centre). A seat's pond is its block of touching rows nearest the centre, on its side of the
   centre: tiles facing it further out (its melds, a hand laid down) or beyond the centre are no discards, nor are
   a few tiles on the centre's side of a longer row (rows fill from the centre out; a misread centre panel). Where
   two ponds meet at a corner, a tile ending a first or second row of more than six, touching the neighbour's
   shorter row in line with it, goes back to that neighbour (`_corner_tiles`). Rows are read from the centre
   outwards, measured across the pond's own rows (perspective turns a far pond's rows against the hand's; `_skew`);
   the pieces of one row (side by side, or level with each other) are read along it. A sideways tile marks the
   riichi discard.

A photo whose longest row is no hand (no straight row of ten, no winning tile or meld, no more tiles than a pond's
row: a table seen from above) has no hand: the seats are then named as seen from the camera (near = the bottom).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
import statistics
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np

from table.errors import InputError
from table.hand import Meld
from table.tiles import parse_tile
from table.waits import waits
from vision.classes import plain_face
from vision.view import SEAT_NAMES, Pond, SeenHand, SeenMeld, SeenTile, TableView, box_iou

NEARER = 0.1  # how much a row neighbour's distance along the row counts against its offset across it
TOUCH_GAP = 0.3  # max gap between touching tiles, in short-side lengths
LINE_GAP = 4.5  # max gap between segments of one line (hand to winning tile to melds), in short-side lengths
DIAGONAL = 2.0  # degrees: rows turned further than this from the picture's axes are turned back first
TILE_RATIO = 1.35  # long side over short side of a tile seen from above (35 x 26 mm)
SKEWED = 20.0  # degrees: from here on perspective may turn a row's tiles across the detector's quarter turns
WIDE = 1.085  # a step between tiles over the upright pitch, above which a tile lying across may lie between
MAX_DORA = 5  # indicators a dead wall shows at most: the first and one per kan (four kans end the hand)
WALL_STEP = 1.25  # a dead wall's tiles stand evenly: a step from one to the next within this ratio of the row's pitch
WALL_SIZE = 1.25  # and are of one size: a box side within this ratio of its neighbour's
WALL_LINE = 0.25  # and in one straight row: centres within this share of a short side of the line through them
HAND_LINE = 0.35  # a hand row's centres lie within this share of a short side of a straight line
SEAT_FACING = {0: 0, 270: 1, 180: 2, 90: 3}  # a row's facing (its tops, degrees clockwise) -> seat 0 near .. 3 left
ROW_END = 0.2  # a back ending a row of faces stands in it when its centre is within this share of a short side
FACE_DOWN_IN_HAND = "read as face down inside the hand row"  # the warning's words, which score-photo may resolve
NOT_SET_APART = "the winning tile is not set apart"  # a hand laid in one row
BACKS_TOGETHER = 3  # misread hand tiles standing together in a hand row at most (a concealed haku triplet)
RETRY_ANGLES = (8.0, -8.0, 16.0, -16.0, 24.0, -24.0)  # degrees off the table's angle, tried in turn
POND_REACH = 2.0  # rows of one pond: tile centres this many short sides apart at most (rows touch; a step is ~1.4)
SKEW = 0.5  # a pond's rows run at most this slope off the table's axis once turned back (about 27 degrees)
POND_ROW = 6  # discards in a pond's row (the last row may run on): a plain row of more is a hand, cut by the frame
POND_SHORT = 3  # tiles seen in a pond's row at most that cannot come before a longer row (rows hold six)
SET_OFF = 1.1  # laid-out indicators lie beyond the pond at a step over this many times its rows' (rows touch)
HAND_RUN = 7  # upright faces in a row, more than a meld or a pond's first rows hold: the hand
FLIPPED_RUN = 5  # face-up tiles lying along their row one after another, from which they stand upright, seen low
SAME_READING = 0.3  # like readings whose boxes overlap by this IoU or more: one tilted tile found twice
HAND_ROW = 10  # tiles in a plain row from which a back or two among them are misread hand tiles (_backs_inside)


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


def meld_kind(names: list[str]) -> str:
    kinds = [plain_face(n) for n in names]
    if "back" in kinds:
        return "unknown"
    if len(set(kinds)) == 1:
        return "pon" if len(kinds) == 3 else "kan"
    if len(kinds) == 3 and len({k[1] for k in kinds}) == 1 and kinds[0][1] != "z":
        nums = sorted(int(k[0]) for k in kinds)
        if nums[1] == nums[0] + 1 and nums[2] == nums[1] + 1:
            return "chi"
    return "unknown"


def closed_kan_tiles(a: str, b: str) -> tuple[str, ...]:
    """The four tiles of a closed kan (ankan) whose middle tiles show `a` and `b`, in table order.

    The backs hide two more copies of the same tile, named plain: a set holds one red five per suit at most, and a
    red five behind a back cannot be seen, so plain is the only reading the photo supports (the scorer would
    otherwise count a shown red five twice). Tiles that make no kan keep their backs, so the hand is refused."""
    plain = [plain_face(a), plain_face(b)]
    if plain[0] != plain[1]:
        return ("back", a, b, "back")
    return (plain[0], a, b, plain[0])


def _source(pos: int, size: int) -> str:
    if pos == 0:
        return "left"
    return "right" if pos == size - 1 else "across"


def _parse_melds(tiles: list[_T], extra: list[_T], warnings: list[str], across: set[int]) -> tuple[
        list[SeenMeld], set[int], set[int]]:
    """Melds from left to right; `extra` are sideways tiles off the line (added-kan partners). Returns the melds,
    the extras used, and the tiles read as called (lying across), which may differ from `across`: seen low, the
    steps tell a called tile where the boxes do not."""
    melds: list[SeenMeld] = []
    used: set[int] = set()
    called: set[int] = set()
    k = 0
    while k < len(tiles):
        t = tiles[k]
        size, faces, note = _closed_kan(tiles, k, across)
        if size:
            indices = tuple(x.i for x in tiles[k : k + size])
            melds.append(SeenMeld("closed-kan", closed_kan_tiles(*faces), None, indices))
            warnings += [note] if note else []
            k += size
            continue
        for size in (4, 3):
            win = tiles[k : k + size]
            if len(win) < size:
                continue
            side = [j for j, x in enumerate(win) if x.i in across]
            names = _called_names(win, side)
            if len(side) > 2 or names is None:
                continue
            kind = meld_kind(names)
            if size == 4 and kind != "kan":
                continue
            if size == 4 and len(side) < 2:
                # seen low, an added kan's top tile stands in the row over the called one, and the wide boxes of
                # the flat tiles around may hide that both lie across; two tiles side by side never overlap so
                stacked = [j for j in range(3) if abs(win[j].cx - win[j + 1].cx)
                           < 0.6 * min(win[j].short, win[j + 1].short)]
                side = [stacked[0], stacked[0] + 1] if len(stacked) == 1 else side
            if not side:  # seen low, the called tile may look no wider than the others: its steps tell
                if kind == "unknown" or any(b.x1 - a.x2 > TOUCH_GAP * min(a.short, b.short)
                                            for a, b in itertools.pairwise(win)):  # a meld's tiles touch
                    continue
                side = [0 if kind == "chi" else _called_by_steps(win, range(size))]
            if len(side) == 2:
                a, b = win[side[0]], win[side[1]]
                if size == 4 and abs(a.cx - b.cx) < 0.6 * min(a.short, b.short):
                    # seen low, an added kan's top tile stands in the row, over the called tile
                    top = min(a, b, key=lambda x: x.cy)
                    base = [x for x in win if x is not top]
                    pos = base.index(b if top is a else a)
                    melds.append(SeenMeld("added-kan", (*(x.name for x in base), top.name), _source(pos, 3),
                                          (*(x.i for x in base), top.i)))
                    called |= {base[pos].i, top.i}
                    k += 4
                    break
                # seen low, a flat upright tile can look as wide as a called one: a chi's called tile comes from the
                # left player and lies first; of a pon's, the one whose steps are longer (`_called_by_steps`)
                if not (kind == "chi" and side[0] == 0 or kind == "pon" and size == 3):
                    continue
                side = [_called_by_steps(win, side)] if kind == "pon" else side
            pos = side[0]
            source = _source(pos, size) if size == 3 else ("left" if pos == 0 else "right" if pos == 3 else "across")
            if kind == "pon":  # an added kan: a second sideways tile beyond the called one
                s = win[pos]
                for e in extra:
                    if e.i not in used and abs(e.cx - s.cx) < 0.6 * s.short and s.y1 - 1.6 * s.short < e.cy < s.cy:
                        used.add(e.i)
                        kind = "added-kan"
                        win = [*win, e]
                        names = [*names, e.name]
                        break
            if kind == "unknown":
                warnings.append(f"called tiles {' '.join(names)} make no chi, pon or kan")
            if not all(x.face_up for x in win):
                warnings.append(f"called tiles read face down taken for white dragons (blank faces): {kind} of 5z")
            melds.append(SeenMeld(kind, tuple(names), source, tuple(x.i for x in win)))
            called |= {win[pos].i} | ({win[-1].i} if len(win) > size else set())
            k += size
            break
        else:
            warnings.append(f"tile {t.name} beside the melds belongs to no meld")
            k += 1
    return melds, used, called


def _closed_kan(tiles: list[_T], k: int, across: set[int]) -> tuple[int, list[str], str]:
    """(tiles taken, the two faces shown, a warning or "") for a closed kan at `k`, or (0, [], ""). No tile of a
    closed kan lies across, and its two faces show between its backs. Also read amiss: as back, face, face (or face,
    face, back) beside another meld or at the row's end, one back was not found; as haku, face, face, haku, its
    backs are light ones taken for blank faces."""
    win = tiles[k : k + 4]
    if len(win) < 3 or any(x.i in across for x in win[:3]):
        return 0, [], ""
    names = [x.name for x in win]
    kinds = [plain_face(n) for n in names]
    if len(win) == 4 and win[3].i not in across:
        if kinds[0] == kinds[3] == "back":
            differ = meld_kind(names[1:3] * 2) != "kan"
            return 4, names[1:3], f"closed kan shows {names[1]} and {names[2]}, which differ" if differ else ""
        if kinds[0] == kinds[3] == "5z" and kinds[1] == kinds[2] != "5z":
            return 4, names[1:3], ("a closed kan's backs read as blank white dragons: read as a closed kan of "
                                   f"{names[1]}")
    for down, a, b in ((0, 1, 2), (2, 0, 1)):
        if names[down] == "back" and kinds[a] == kinds[b] not in ("back", "5z") and (len(win) == 3 or win[3].face_up):
            return 3, [names[a], names[b]], f"one back of a closed kan not found: read as a closed kan of {names[a]}"
    return 0, [], ""


def _called_names(win: list[_T], side: list[int]) -> list[str] | None:
    """The names of tiles that may make a called meld, or None. Called tiles lie face up, so backs among three are
    blank white dragons misread (this model's haku/back look-alike) when every face beside them is one too, or when
    one of them lies across (no wall or closed kan shows a back so). Four are not read so: a closed kan's first back
    may follow a pon of haku."""
    names = [x.name for x in win]
    if "back" not in names:
        return names
    faces = set(names) - {"back"}
    return ["5z"] * 3 if len(names) == 3 and faces <= {"5z"} and (faces or side) else None


def _called_by_steps(win: list[_T], candidates) -> int:
    """Which of `candidates` (positions in a called meld, left to right) is the called tile, from the steps between
    the tiles' centres: a tile lying across takes 35 mm of the row where an upright one takes 26, so the steps on
    either side of it are longer. Steps stay true where boxes do not: seen low, a flat upright tile looks as wide as
    a called one, or wider."""
    steps = [b.cx - a.cx for a, b in itertools.pairwise(win)]
    if len(steps) == 2 and 1 in candidates and max(steps) < WIDE * min(steps):
        return 1  # the middle one of three: both steps long alike

    def evidence(j: int) -> float:
        beside = [steps[k] for k in (j - 1, j) if 0 <= k < len(steps)]
        apart = [steps[k] for k in range(len(steps)) if k not in (j - 1, j)]
        return statistics.fmean(beside) / max(statistics.fmean(apart), 1e-6) if apart else 1.0

    return max(candidates, key=evidence)


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
    backs (in many sets the white dragon, haku, is a blank face); so is a lone back starting the row. Backs that end the
    plain stretch, or stand before two like faces (a closed kan's), start the melds instead."""
    end = next((k for k, t in enumerate(ordered) if t.i in across), len(ordered))
    plain = ordered[:end]
    if len(plain) < HAND_ROW:
        return set()
    runs = _runs(plain)
    out: set[int] = set()
    for k, (up, run) in enumerate(runs):
        if up:
            continue
        after = runs[k + 1][1] if k + 1 < len(runs) else []
        kan = len(after) == 2 and meld_kind([t.name for t in after] * 2) == "kan"
        if len(run) > (1 if k == 0 else BACKS_TOGETHER) or not after or kan:
            break
        out |= {t.i for t in run}
    return out if 4 * len(out) <= len(plain) else set()


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


def _hand(line: list[list[_T]], others: list[_T], warnings: list[str], beyond: list[_T]
          ) -> tuple[SeenHand, set[int], set[int], set[int]]:
    """The hand, the tiles it takes, those of them lying across their row, and second readings of its tiles;
    `beyond` continues its melds (`_lying_beyond`), kept out of the boxes' comparison (`_across`) as lying tiles
    all alike."""
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
    slots = (len(concealed) + 3 * len(melds)) % 3
    twins: set[int] = set()
    if win is None and concealed and slots == 1:
        win = _win_laid_beyond(concealed, [t for t in others if t.i not in used_ids])
        if win is not None:
            twins = {t.i for t in others if t is not win and t.i not in used_ids and _same_reading(t, win)}
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


def _win_laid_beyond(concealed: list[_T], others: list[_T]) -> _T | None:
    """The winning tile put down off the hand's row, when the hand is a tile short of a winning one: on its far side
    (a tsumo tile shown above the hand, often tilted), its near edge reaching the row's far edge, or in front of it
    (pushed towards the player, where nothing else of the game lies), less than a tile's width from the row's near
    edge; over the row or just past one of its ends, with no other face-up tile beside it (a pond tile has its row).
    Tilted, it may be found twice: like readings whose boxes overlap by SAME_READING are one tile."""
    x1, x2 = min(t.x1 for t in concealed), max(t.x2 for t in concealed)
    up = [t for t in others if t.face_up]

    def off_row(t: _T) -> bool:
        nearest = sorted(concealed, key=lambda c: abs(c.cx - t.cx))[:3]  # the row's edges there (perspective tilts it)
        far, front = statistics.median(c.y1 for c in nearest), statistics.median(c.y2 for c in nearest)
        return x1 - t.short <= t.cx <= x2 + t.short and (t.cy < far < t.y2 + 0.5 * t.short
                                                           or front < t.cy and t.y1 < front + t.short)

    def alone(t: _T) -> bool:
        reach = 1.5 * max(t.x2 - t.x1, t.y2 - t.y1)
        return not any(o is not t and not _same_reading(o, t) and math.hypot(o.cx - t.cx, o.cy - t.cy) < reach
                       for o in up)

    near = [t for t in up if off_row(t) and alone(t)]
    return near[0] if near and all(_same_reading(t, near[0]) for t in near) else None


def _same_reading(a: _T, b: _T) -> bool:
    return a.name == b.name and box_iou((a.x1, a.y1, a.x2, a.y2), (b.x1, b.y1, b.x2, b.y2)) >= SAME_READING


def table_angle(tiles: list[SeenTile]) -> float:
    """The angle (degrees, -45..45, clockwise in the image) the table's rows make with the picture's axes.

    Every row of a table, whichever seat it belongs to, runs along one of two perpendicular directions, so the
    direction from each tile to its nearest neighbour, taken modulo 90 degrees, points the same way for all of them
    (averaged on the circle of four times the angle so that 44 and -44 degrees agree)."""
    centres = [t.centre for t in tiles]
    sx = sy = 0.0
    for k, (x, y) in enumerate(centres):
        best, vec = math.inf, None
        for j, (u, v) in enumerate(centres):
            d = (u - x) ** 2 + (v - y) ** 2
            if j != k and 0 < d < best:
                best, vec = d, (u - x, v - y)
        if vec is None:
            continue
        a = 4 * math.atan2(vec[1], vec[0])
        sx, sy = sx + math.cos(a), sy + math.sin(a)
    if not sx and not sy:
        return 0.0
    return math.degrees(math.atan2(sy, sx)) / 4


def _derotate(tiles: list[SeenTile], width: int, height: int, angle: float) -> tuple[list[SeenTile], int, int]:
    """The tiles in a frame turned by -angle, so that the rows of a photo taken across a corner of the table run
    along the frame's axes again and the row rules below (gaps, alignment, stacking) hold.

    A box in the photo is the upright rectangle around a turned tile; in the new frame each tile gets back a box of
    a tile's proportions, its long side along the frame's y axis unless the detector saw it lying. Its size comes
    from the sum of the box sides, which is stable at any angle: w + h = (a + b) (|cos| + |sin|). Solving for the
    two sides apart divides by cos(2 angle), which blows up noise and the tile's visible thickness towards 45
    degrees, so whether a tile lies across its row is left to the detector's axis. Orientations stay as they are:
    for |angle| < 45 the nearest quarter turn of a tile does not change."""
    r = math.radians(angle)
    c, s = math.cos(r), math.sin(r)
    ac, as_ = abs(c), abs(s)
    cx, cy = width / 2, height / 2
    corners = [(x * c + y * s, -x * s + y * c) for x in (-cx, cx) for y in (-cy, cy)]
    nw = max(p[0] for p in corners) - min(p[0] for p in corners)
    nh = max(p[1] for p in corners) - min(p[1] for p in corners)
    out = []
    for t in tiles:
        x1, y1, x2, y2 = t.box
        bw, bh = x2 - x1, y2 - y1
        short = (bw + bh) / (ac + as_) / (1 + TILE_RATIO)
        w, h = (TILE_RATIO * short, short) if t.horizontal else (short, TILE_RATIO * short)
        px, py = t.centre[0] - cx, t.centre[1] - cy
        mx, my = px * c + py * s + nw / 2, -px * s + py * c + nh / 2
        out.append(dataclasses.replace(t, box=(mx - w / 2, my - h / 2, mx + w / 2, my + h / 2)))
    return out, round(nw), round(nh)


def _wall_seat(seg: list[_T], rest: list[_T]) -> int:
    """The seat (0 near, 1 right, 2 across, 3 left) whose dead wall this is, so its indicators are read in its
    owner's left-to-right order.

    The face-up indicators tell by the way they face; when they cannot (symmetric faces such as 1p or 8p carry no
    orientation) the wall's axis and its side of the table centre tell: a wall lies in front of its owner, beyond
    the ponds. With nothing else beside the hand in sight (a close-up of the winner's corner) it is the winner's."""
    axis = _axis(seg)
    f = _facing(seg, axis)
    if f is not None:
        return SEAT_FACING[f]
    own = {t.i for t in seg}
    rest = [t for t in rest if t.i not in own]
    if not rest:
        return 0 if axis == "h" else 1
    mx, my = sum(t.cx for t in seg) / len(seg), sum(t.cy for t in seg) / len(seg)
    cx, cy = sum(t.cx for t in rest) / len(rest), sum(t.cy for t in rest) / len(rest)
    if axis == "h":
        return 0 if my >= cy else 2
    return 1 if mx >= cx else 3


def _wall_pieces(seg: list[_T]) -> list[list[_T]]:
    """A row of touching tiles cut wherever it stops looking like one stretch of wall: a change of axis or size, a
    step off the row or out of its pitch. Discards and loose face-down tiles lying against a wall, or a jumble of
    backs (tilted, of mixed axes, crowding each other) lying against a pond, touch in the picture but do not
    stand in step with it."""
    o = _order(seg)
    if len(o) < 2:
        return [o]
    # along the row's own direction: seen low across a corner, a far wall runs slanted even after turning back
    dx, dy = _direction(o)
    moves = [(b.cx - a.cx, b.cy - a.cy) for a, b in zip(o, o[1:], strict=False)]
    steps = [mx * dx + my * dy for mx, my in moves]
    pitch = sorted(steps)[len(steps) // 2]

    pieces = [[o[0]]]
    for a, b, step, (mx, my) in zip(o, o[1:], steps, moves, strict=False):
        if pitch / WALL_STEP <= step <= pitch * WALL_STEP and _wall_alike(a, b, abs(mx * dy - my * dx)):
            pieces[-1].append(b)
        else:
            pieces.append([b])
    return pieces


def _wall_alike(a: _T, b: _T, off: float) -> bool:
    """Two tiles that may stand in one stretch of wall, `off` apart across its line: the same axis, in line, and
    of one size. An indicator lies flat on the wall's top, and seen low its box is near square, so the detector may
    read it lying where the backs beside it stand (or the other way): its box then comes turned a quarter, which
    two backs never do, nor a white dragon (a back misread as one, small or blurred, stands so too)."""
    turned = a.horizontal != b.horizontal
    if turned and not any(t.face_up and t.name != "5z" for t in (a, b)):
        return False
    sides = zip((a.x2 - a.x1, a.y2 - a.y1), (b.y2 - b.y1, b.x2 - b.x1) if turned else (b.x2 - b.x1, b.y2 - b.y1),
                strict=True)
    return (off <= WALL_LINE * min(a.short, b.short)
            and all(max(p, q) <= WALL_SIZE * max(min(p, q), 1e-6) for p, q in sides))


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


def _dead_wall(segs: list[list[_T]]) -> tuple[list[_T], list[list[_T]]]:
    """The dead wall (wanpai), in row order, and the face-up runs of rows holding backs that are not part of it.

    A dead wall is a straight row of tiles of one size and axis standing evenly side by side, with one run of one
    to MAX_DORA indicators turned face up among backs. Face-down tiles lie elsewhere too (a jumble pushed aside,
    the live wall, a tile knocked over beside a pond), so backs touching face-up tiles make no wall by themselves:
    the candidates are each face-up run of a stretch in step (`_wall_pieces`) with the backs that stand in line on
    either side of it, and the one with the most backs is the wall; four tiles laid as a closed kan are none. The
    face-up tiles of the rest are discards lying against backs; they go back to the ponds (runs of six and more
    cannot be indicators anyway)."""
    best: list[_T] = []
    best_key = (0, 0)
    mixed = [s for s in segs if any(not t.face_up for t in s) and any(t.face_up for t in s)]
    loose_backs = [t for s in segs for t in s if not t.face_up]
    kans: set[int] = set()
    for seg in mixed:
        for piece in _wall_pieces(seg):
            runs = _runs(piece)
            for k, (up, run) in enumerate(runs):
                if not up or len(run) > MAX_DORA:
                    continue
                wall = [*(runs[k - 1][1] if k > 0 else []), *run, *(runs[k + 1][1] if k + 1 < len(runs) else [])]
                backs = len(wall) - len(run)
                if len(piece) == 4 and [t.face_up for t in piece] == [False, True, True, False] and meld_kind(
                        [t.name for t in run] * 2) == "kan":
                    kans |= {t.i for t in piece}  # another player's closed kan (back, two like faces, back)
                    continue
                if not backs or not _straight(wall):
                    continue
                # an indicator read across the backs' axis stands in a wall of two backs or more of one axis:
                # discards lying about against a back (a riichi tile, a turned one) look as much like that
                if len({t.horizontal for t in wall}) > 1 and (
                        backs < 2 or len({t.horizontal for t in wall if not t.face_up}) > 1):
                    continue
                # a back and a face-up tile alone touch by chance; a wall goes on, maybe past a tile not found
                if len(wall) < 3 and not _wall_goes_on(wall, loose_backs):
                    continue
                if (backs, len(wall)) > best_key:
                    best, best_key = wall, (backs, len(wall))
    taken = {t.i for t in best} | kans
    strays: list[list[_T]] = []
    for seg in mixed:
        run: list[_T] = []
        for t in [*_order(seg), None]:
            if t is not None and t.face_up and t.i not in taken:
                run.append(t)
            elif run:
                strays.append(run)
                run = []
    return best, strays


def _wall_goes_on(wall: list[_T], backs: list[_T]) -> bool:
    """Whether a back stands in line with a short stretch of wall one tile beyond either end (a tile of the wall the
    detector missed), of its size and axis."""
    a, b = wall[0], wall[-1]
    h = _axis(wall) == "h"
    pitch = ((b.cx - a.cx) if h else (b.cy - a.cy)) / (len(wall) - 1)
    for end, sign in ((a, -1.0), (b, 1.0)):
        for t in backs:
            along = sign * ((t.cx - end.cx) if h else (t.cy - end.cy))
            off = abs(t.cy - end.cy) if h else abs(t.cx - end.cx)
            if 2 * pitch / WALL_STEP <= along <= 2 * pitch * WALL_STEP and _wall_alike(end, t, off):
                return True
    return False


def _runs(ordered: list[_T]) -> list[tuple[bool, list[_T]]]:
    """Maximal runs of face-up and of face-down tiles, in order: (face_up, tiles)."""
    out: list[tuple[bool, list[_T]]] = []
    for t in ordered:
        if out and out[-1][0] == t.face_up:
            out[-1][1].append(t)
        else:
            out.append((t.face_up, [t]))
    return out


def _laid_out_dora(segs: list[list[_T]], hand_cy: float, skewed: bool = False) -> list[_T]:
    """With no dead wall in the photo, the indicators laid out for it: a short row of upright tiles beyond the hand.

    When the winner's own pond is in the picture too (a close-up), its rows face the same way (or it is a lone
    riichi discard lying sideways); the indicators are then the row farthest from the hand, set off from the pond
    by a clear gap (pond rows touch), and no other seat's pond may be in sight (on a whole table they lie on the
    dead wall, which was not found). Seen low a flat tile passes the detector's quarter turn, so a far row with two
    or more tiles lying is laid-out indicators too (a pond never shows two riichi discards), and so is one whose
    every tile lies in a `skewed` view (rows SKEWED degrees or more off the picture's axes) or with nothing else
    loose beyond the hand (a pond of one riichi discard alone, riichi on the first discard, is the rarer sight)."""
    loose = [s for s in segs if all(t.face_up for t in s)]
    if not loose:
        return []
    near = [s for s in loose if len(s) == 1 or (_axis(s) == "h" and _facing(s, "h") in (0, None))]
    if len(near) != len(loose) or len(near) > 4:
        return []

    def middle(s: list[_T]) -> float:
        return statistics.median(t.cy for t in s)

    far = min(near, key=lambda s: sum(t.cy for t in s) / len(s))
    tall = statistics.median(t.y2 - t.y1 for t in far)  # lying tiles side by side make no segment: the lone ones
    row = [s for s in near if (s is far or all(t.horizontal for t in s)) and abs(middle(s) - middle(far)) < tall / 2]
    far = [t for s in row for t in s]  # of the far row join it
    near = [s for s in near if s not in row] + [far]
    n_lying = sum(t.horizontal for t in far)
    flipped = n_lying >= 2 or (n_lying == len(far) and (skewed or len(near) == 1))
    if len(far) > 5 or (n_lying and not flipped) or sum(t.cy for t in far) / len(far) >= hand_cy:
        return []
    height = sorted(t.y2 - t.y1 for t in far)[len(far) // 2]
    below = [s for s in near if s is not far]
    gap = min((min(t.y1 for t in s) - max(t.y2 for t in far) for s in below), default=math.inf)
    if gap > 0.02 * height:
        return far
    # Seen low, a tile's box takes in its side, so the boxes of touching rows overlap and a gap between the boxes
    # shows no more: the step from the pond's rows to this one tells instead, or else that it holds fewer tiles than
    # a pond's row (rows fill from the centre out, six to a row, so a short row on the centre's side of another one
    # is no discards).
    rows = sorted((s for s in below if len(s) > 1), key=middle)
    if len(rows) >= 2:
        return far if middle(rows[0]) - middle(far) > SET_OFF * (middle(rows[1]) - middle(rows[0])) else []
    return far if rows and POND_ROW > len(far) else []


def _chains(tiles: list[SeenTile]) -> list[list[int]]:
    """Rows running across the frame, found from the tile centres alone (no axis, no orientation): each tile is
    linked to its nearest neighbour on the right within its band, when that one has it as its nearest on the left."""
    if not tiles:
        return []
    boxes = np.array([t.box for t in tiles], float)
    cx, cy = (boxes[:, 0] + boxes[:, 2]) / 2, (boxes[:, 1] + boxes[:, 3]) / 2
    short = np.minimum(boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1])
    s = np.minimum.outer(short, short)
    dx, dy = cx[None, :] - cx[:, None], np.abs(cy[None, :] - cy[:, None])  # from tile i (row) to tile j (column)
    links = _mutual_nearest((0.4 * s < dx) & (dx < 2.0 * s) & (dy < 0.35 * s), dx)
    chains = []
    for i in sorted(set(links) - set(links.values()), key=lambda k: tiles[k].centre[0]):
        chain = [i]
        while chain[-1] in links:
            chain.append(links[chain[-1]])
        chains.append(chain)
    return chains


def _unsplit_rows(tiles: list[SeenTile], angle: float) -> list[SeenTile]:
    """Upright tiles of a row across the frame that the detector saw lying, put back upright.

    Seen across a corner, the tiles of one row turn by up to 20 degrees between one end and the other
    (perspective), so near 45 degrees the nearest quarter turn that the detector and the classifier give flips
    partway along the hand, and the rest of its upright tiles read as lying sideways; seen low, a flat row a few
    degrees askew can flip at its near end too (a dead wall's). Two tiles lying sideways never stand side by side at
    an upright tile's pitch (26 mm; beside each other they take 35), so such a pair, at the pitch of the upright
    pairs of the same row, is upright. Seen low as well, a whole row may flip: FLIPPED_RUN
    face-up tiles lying along their row one after another are upright too, since no table shows such a run (a called
    or riichi tile lies alone, a side pond's rows line up four at most), and so is a dead wall's run of as many
    lying tiles with its indicators between backs (backs of standing hands seen from above lie in a row, but show no
    face; a side pond's row runs on into its wall, face first). So is a face lying at either end of HAND_RUN upright
    faces at their pitch: a hand's first tile (a called tile lies further from its neighbour, and a riichi tile
    starts a shorter row). Only that is changed: another lone tile lying across the row keeps the detector's word (it
    may be a called or riichi tile)."""
    out = list(tiles)
    for chain in _chains(tiles):
        flip: set[int] = set()
        for lying, group in itertools.groupby(chain, key=lambda i: tiles[i].horizontal):
            run = list(group)
            faces = [tiles[i].tile != "back" for i in run]
            walled = not faces[0] and not faces[-1]  # a dead wall: its indicators between backs
            if lying and len(run) >= FLIPPED_RUN and any(faces) and (all(faces) or walled):
                flip.update(run)
        steps = [(tiles[b].centre[0] - tiles[a].centre[0], a, b) for a, b in zip(chain, chain[1:], strict=False)]
        upright = sorted(d for d, a, b in steps if not tiles[a].horizontal and not tiles[b].horizontal)
        if len(upright) >= 2:
            pitch = upright[len(upright) // 2]
            flip |= {i for d, a, b in steps if tiles[a].horizontal and tiles[b].horizontal and d < WIDE * pitch
                     for i in (a, b)}
            for d, end, rest in ((steps[0][0], chain[0], chain[1:]), (steps[-1][0], chain[-1], chain[-2::-1])):
                upright_faces = itertools.takewhile(lambda i: not tiles[i].horizontal and tiles[i].tile != "back", rest)
                if tiles[end].horizontal and tiles[end].tile != "back" and d < WIDE * pitch \
                        and len(list(upright_faces)) >= HAND_RUN:
                    flip.add(end)
        ups = Counter(tiles[i].orientation for i in chain
                      if not tiles[i].horizontal and tiles[i].orientation is not None)
        row_up = ups.most_common(1)[0][0] if ups else None
        for i in flip:
            t = tiles[i]
            x, y = t.centre
            w, h = t.box[3] - t.box[1], t.box[2] - t.box[0]  # the box turns a quarter
            up = t.orientation
            if up is not None:  # as the row's upright tiles show, else turned back a quarter the way the row turns
                up = row_up if row_up is not None else int(up - math.copysign(90, angle)) % 360
            out[i] = dataclasses.replace(t, box=(x - w / 2, y - h / 2, x + w / 2, y + h / 2), horizontal=False,
                                         orientation=up)
    return out


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


def winning_shape(hand: SeenHand) -> bool:
    """The hand's tiles make a winning shape: the evidence that a row angle read the hand's own row."""
    try:
        melds = [Meld(m.kind, tuple(parse_tile(t) for t in m.tiles), m.source) for m in hand.melds]
        concealed = [parse_tile(t) for t in hand.concealed]
        return hand.win is not None and parse_tile(hand.win).kind in {w.tile_kind for w in waits(concealed, melds)}
    except InputError:  # a back, a meld that is none, a count that is no hand
        return False


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
    hand_line = lines[best]
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
    if (hand_like[best] or hand.win or hand.melds or len(hand.concealed) > POND_ROW) and not _kans_in_a_wall(
            hand, hand_line_t):
        warnings += hand_warnings
    else:  # no hand in the picture (a table seen from above, a pond row the longest line): seats seen from the camera
        hand, used, hand_across, twins, hand_line_t = SeenHand(), set(), set(), set(), []
        turned = _turn(tiles, 0, width, height)

    gone = used | twins
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


def _flipped_indicators(ponds: tuple[list[Pond], dict], turned: list[_T]) -> list[_T]:
    """The tiles of the one pond in sight when every one of them, two to MAX_DORA, lies sideways: a pond shows one
    riichi discard at most, so they are dora indicators that the detector's quarter turn flipped (a dead wall or a
    laid-out row seen low across a corner), read in the pond's order."""
    if len(ponds[0]) != 1:
        return []
    only = ponds[0][0]
    if not 2 <= len(only.tiles) <= MAX_DORA or not all(ponds[1][i][0] for i in only.indices):
        return []
    by_i = {t.i: t for t in turned}
    return [by_i[i] for i in only.indices]


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


def _outward(seg: list[_T], seat: int) -> float:
    """How far out from the table centre a row of `seat`'s pond lies (its owner's rows run from the centre out)."""
    return sum((t.cy, t.cx, -t.cy, -t.cx)[seat] for t in seg) / len(seg)


def _along(t: _T, seat: int) -> float:
    """Where a tile lies along a row on `seat`'s side of the table (a pond's, a dead wall's), left to right as that
    seat reads it."""
    return (t.cx, -t.cy, -t.cx, t.cy)[seat]


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

"""The dora indicators: face-up tiles in a dead wall, or laid out beyond the hand when no wall is in sight, or
a pond of flipped tiles that can only be indicators (step 5 of the package docstring).
"""

from __future__ import annotations

import math
import statistics

from vision.layout.melds import meld_kind
from vision.layout.ponds import POND_ROW
from vision.layout.rows import _T, SEAT_FACING, WALL_LINE, _axis, _direction, _facing, _order, _runs, _straight
from vision.view import Pond

MAX_DORA = 5  # indicators a dead wall shows at most: the first and one per kan (four kans end the hand)
WALL_STEP = 1.25  # a dead wall's tiles stand evenly: a step from one to the next within this ratio of the row's pitch
WALL_SIZE = 1.25  # and are of one size: a box side within this ratio of its neighbour's
SET_OFF = 1.1  # laid-out indicators lie beyond the pond at a step over this many times its rows' (rows touch)


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

"""Turning a photo taken across a corner of the table back so its rows run along the axes, and putting back
upright the tiles that perspective turned past the detector's quarter turn (step 0 of the package docstring).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections import Counter

import numpy as np

from vision.layout.rows import WIDE, _mutual_nearest
from vision.view import SeenTile

TILE_RATIO = 1.35  # long side over short side of a tile seen from above (35 x 26 mm)
HAND_RUN = 7  # upright faces in a row, more than a meld or a pond's first rows hold: the hand
FLIPPED_RUN = 5  # face-up tiles lying along their row one after another, from which they stand upright, seen low


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

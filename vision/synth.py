"""Synthetic table scenes with exact labels: tiles as 3-D blocks laid out as at a real riichi table.

A scene is built in table coordinates (millimetres, table centre at the origin, z up; seat 0 sits on the -y side,
seat 1 on +x, seat 2 on +y, seat 3 on -x, so seat 1 is seat 0's right-hand neighbour, shimocha). The winner
(seat 0) shows the hand row with the winning tile set apart, the called melds (one tile sideways, added kans, closed
kans with two backs), and the dead wall with dora indicators; the four discard ponds (kawa) lie in rows of six,
each turned to its owner, with the riichi discard sideways. A pinhole camera (the fixed camera over the table or a
hand-held phone at an angle, from any side) projects the blocks, then light, shadow, glare, blur, noise and JPEG are
applied. Every tile's box, face, orientation and role comes from the placement, so the labels are exact.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from vision.art import FaceSet, load_face_sets
from vision.classes import BACK, det_class, plain_face

TILE_W, TILE_H, TILE_T = 26.0, 35.0, 19.0  # mm: width along a row, length, thickness


@dataclass
class Block:
    """A tile on the table. `up` is the direction (radians, counter-clockwise from +x) its face top points."""

    name: str
    x: float
    y: float
    z: float
    up: float
    face_up: bool = True
    labelled: bool = True
    role: str = ""
    sideways: bool = False
    standing: bool = False  # stood on its long edge, face towards its owner (a hand row seen from the player's seat)


@dataclass(frozen=True)
class Prop:
    """Something on the table that is no tile: a point stick (tenbou) or a die. Drawn, never labelled, so the
    detector learns to pass it by."""

    kind: str  # "stick" or "die"
    x: float
    y: float
    angle: float  # radians, the stick's long axis from +x
    marks: int  # a stick's value (100, 1000, 5000, 10000), a die's face up (1-6)
    length: float = 0.0  # mm, a stick's (sets differ: 80-100 x 7.5-11 mm); 0: STICK_L x STICK_W
    width: float = 0.0


@dataclass
class MeldTruth:
    kind: str  # chi, pon, kan, added-kan, closed-kan
    tiles: list[str]
    source: str | None  # left, across, right


@dataclass
class SceneTruth:
    """What a perfect reader would report. Seats are table seats; `viewer_seat` is the side the camera is on."""

    concealed: list[str] = field(default_factory=list)
    win: str | None = None
    melds: list[MeldTruth] = field(default_factory=list)
    dora_indicators: list[str] = field(default_factory=list)
    ponds: dict[int, list[str]] = field(default_factory=dict)
    riichi: dict[int, int | None] = field(default_factory=dict)
    viewer_seat: int = 0
    kind: str = ""


@dataclass
class TileLabel:
    det: int  # detector class (vision.classes.DET_CLASSES)
    box: tuple[float, float, float, float]  # x1, y1, x2, y2 pixels
    name: str  # face or "back"
    orientation: int  # degrees clockwise from image-up that the face top points: 0, 90, 180, 270
    role: str
    sideways: bool = False  # lies across its row (a called tile, a riichi discard)


@dataclass
class Scene:
    image: np.ndarray  # BGR uint8
    labels: list[TileLabel]
    truth: SceneTruth
    style: str = ""  # the tile set drawn: a vision.art FaceSet name or "procedural-<seed>"
    camera: Camera | None = None  # the camera it was seen through (benchmarks split results by view)
    props: list[np.ndarray] = field(default_factory=list)  # outlines of point sticks and dice in the image (no tiles)


@dataclass(frozen=True)
class Mix:
    """What a training round's scenes hold. Round 1 is the generator the committed model was trained on (its seeds
    still render the same scenes); round 2 aims at the weak spots measured on it (models/MODEL_CARD.md): other tile
    sets, red fives, sideways tiles, diagonal views."""

    red_sets: float = 0.85  # share of scenes whose set has red fives (one of each suit)
    procedural: float = 0.0  # share of scenes in a random procedural tile set (vision.faces) when fonts are allowed
    five_bias: float = 0.0  # chance each group of the winning hand is built round a red five still in the pool
    favour_fives: float = 0.0  # chance a red five is moved to where ponds and dora draw from (plain fives: p/4)
    riichi: float = 0.35  # chance a pond holds a sideways riichi discard
    win_sideways: float = 0.1  # chance the winning tile lies sideways beside the hand
    called: tuple[float, ...] = (5, 3, 2, 1, 0.3)  # weights of 0-4 called melds
    closeup_pond: float = 0.0  # chance a close-up also shows the winner's own pond (with its riichi discard)
    diagonal: float = 0.0  # chance the camera looks 20-35 degrees off the table's axes
    pond_jitter: float = 0.0  # mm each pond is shifted along and across (corner ponds crowding a neighbour)
    standing: float = 0.0  # chance the hands stand (faces to their owners), seen by a phone low over the winner's seat
    white_backs: bool = True  # a white back looks exactly like a blank white dragon; real sets rarely have one
    wall_clear: bool = False  # the dead wall lies beyond its seat's fourth pond row (rounds 1-4 could overlap them)
    rolled: float = 0.0  # chance a hand-held camera is turned 10-45 degrees about its axis (a phone held at a slant)
    props: float = 0.0  # chance a scene has point sticks (riichi sticks by the ponds, honba, loose ones) and dice
    win_front: float = 0.0  # chance the winning tile lies flat in front of the hand (pushed towards its owner)
    live_walls: float = 0.0  # chance a whole table shows the live wall left (stacks of two backs round the table)
    macro: float = 0.0  # chance a close-up frames only a few of its tiles (a pond or dora photographed close)


MIXES: dict[int, Mix] = {
    1: Mix(),
    2: Mix(red_sets=0.97, procedural=0.5, five_bias=0.6, favour_fives=0.9, riichi=0.75, win_sideways=0.25,
           called=(3, 3, 2.5, 1.5, 0.5), closeup_pond=0.35, diagonal=0.2, pond_jitter=14.0),
}
# Round 3 adds what the round-2 model missed on real photos: a standing hand photographed from the player's seat.
MIXES[3] = replace(MIXES[2], standing=0.3)
# Round 4: no white backs, so a plain white face is a white dragon (round 3 read blank hakus as backs on real photos;
# a classifier tuned on it read pale backs as hakus instead, so it was not committed: models/MODEL_CARD.md).
MIXES[4] = replace(MIXES[3], white_backs=False)
# Round 5 and later: round 3 with the dead wall clear of the ponds.
MIXES[5] = replace(MIXES[3], wall_clear=True)
# Round 10 on: round 5 with phones held at a slant (real photos turned 30-45 degrees read far worse: MODEL_CARD.md).
MIXES[6] = replace(MIXES[5], rolled=0.25)
# Round 10 on: round 6 with point sticks and dice on the table (the round-8 detector read a riichi stick as a row of
# backs and pinzu: MODEL_CARD.md).
MIXES[7] = replace(MIXES[6], props=0.6)
# A held-out set for the layout (no round trains on it; the tiles look as in round 7): round 7 with the winning tile
# often pushed in front of the hand, which the layout took for a discard until session 19.
MIXES[8] = replace(MIXES[7], win_front=0.4)
# A held-out set for the layout: round 8 with the live wall left on most whole tables, in front of each hand as at a
# real table (the rendered tables had the dead wall alone; real photos' walls read as ponds and dora: MODEL_CARD.md).
MIXES[9] = replace(MIXES[8], live_walls=0.8)
# Round 10's training scenes until session 23: round 7 with the live wall on half the whole tables (mix 9 read
# through the round-8 models: the walls' backs are what the detector misses).
MIXES[10] = replace(MIXES[7], live_walls=0.5)
# Round 10's training scenes since session 23: mix 10 with a fifth of the close-ups framed round 2-8 tiles' width (a
# pond or a few tiles photographed close: the round-8 detector boxes halves and pairs of tiles that large).
MIXES[11] = replace(MIXES[10], macro=0.2)
_COLOURED_BACKS = ((40, 180, 230), (200, 120, 30), (60, 150, 40), (40, 40, 190), (30, 120, 230), (150, 60, 120))
DEFAULT_MIX = 2


# ---------------------------------------------------------------------------------------------- the tiles dealt


def _wall(rng: random.Random, red_fives: bool) -> list[str]:
    """The 136 tiles, shuffled; one five of each suit is red when `red_fives`."""
    tiles = []
    for s in "mps":
        for n in range(1, 10):
            tiles += [f"{n}{s}"] * 4
        if red_fives:
            tiles.remove(f"5{s}")
            tiles.append(f"0{s}")
    tiles += [f"{n}z" for n in range(1, 8) for _ in range(4)]
    rng.shuffle(tiles)
    return tiles


def _take(pool: list[str], kind: str) -> str | None:
    for i, t in enumerate(pool):
        if plain_face(t) == kind:
            return pool.pop(i)
    return None


def _sort_key(t: str) -> tuple[int, float]:
    n = 5.5 if t[0] == "0" else int(t[0])
    return "mpsz".index(t[1]), n


def _favour_fives(rng: random.Random, pool: list[str], p: float) -> None:
    """Move fives (red ones with chance p, plain ones p/4) to the end of the pool, where ponds and dora draw."""
    fives = [t for t in pool if t[0] in "05" and t[1] != "z" and rng.random() < (p if t[0] == "0" else p / 4)]
    for t in fives:
        pool.remove(t)
    rng.shuffle(fives)
    pool.extend(fives)


def _winning_groups(rng: random.Random, pool: list[str], five_bias: float = 0.0
                    ) -> tuple[list[list[str]], list[str]]:
    """Four sets and a pair drawn from the pool, so the shown hand is complete and copies are never exceeded."""
    groups: list[list[str]] = []
    while len(groups) < 4:
        t = rng.choice(pool)
        if five_bias and rng.random() < five_bias:
            reds = [x for x in pool if x[0] == "0"]
            t = rng.choice(reds) if reds else t
        k = plain_face(t)
        if k[1] != "z" and rng.random() < 0.6:
            start = min(int(k[0]), 7) if rng.random() < 0.5 else max(1, int(k[0]) - 2)
            start = min(start, 7)
            kinds = [f"{start + i}{k[1]}" for i in range(3)]
        else:
            kinds = [k] * 3
        taken = []
        for kk in kinds:
            got = _take(pool, kk)
            if got is None:
                break
            taken.append(got)
        if len(taken) == 3:
            groups.append(taken)
        else:
            pool.extend(taken)
    while True:
        k = plain_face(rng.choice(pool))
        a = _take(pool, k)
        b = _take(pool, k)
        if a and b:
            return groups, [a, b]
        pool.extend(t for t in (a, b) if t)


# ---------------------------------------------------------------------------------------------- the layout


def _rot(lx: float, ly: float, seat: int) -> tuple[float, float]:
    """Seat-local coordinates (owner on the -y side, facing +y) to table coordinates."""
    a = seat * math.pi / 2
    c, s = math.cos(a), math.sin(a)
    return lx * c - ly * s, lx * s + ly * c


def _place(blocks: list[Block], name: str, lx: float, ly: float, seat: int, *, sideways: int = 0,
           face_up: bool = True, z: float = 0.0, labelled: bool = True, role: str = "", standing: bool = False) -> None:
    x, y = _rot(lx, ly, seat)
    up = math.pi / 2 + seat * math.pi / 2 + sideways * math.pi / 2
    blocks.append(Block(name, x, y, z, up, face_up, labelled, role, sideways != 0, standing))


def _row(blocks: list[Block], tiles: list[tuple[str, int, bool]], x0: float, y_base: float, seat: int,
         rng: random.Random, role: str, gap: float = 0.6, standing: bool = False) -> float:
    """Lay tiles left to right from x0 with their near edges on y_base; (name, sideways, face_up). Returns end x."""
    x = x0
    for name, side, up in tiles:
        along, across = (TILE_H, TILE_W) if side else (TILE_W, TILE_T if standing else TILE_H)
        _place(blocks, name, x + along / 2, y_base + across / 2 + rng.uniform(-0.8, 0.8), seat, sideways=side,
               face_up=up, role=role, standing=standing and not side)
        x += along + gap + rng.uniform(0, 1.0)
    return x


def _meld_tiles(rng: random.Random, meld: MeldTruth) -> tuple[list[tuple[str, int, bool]], int | None]:
    """Tiles of a called meld in table order; returns also the index of the sideways tile (for an added kan)."""
    turn = rng.choice((1, -1))
    tiles = list(meld.tiles)
    if meld.kind == "closed-kan":
        return [(BACK, 0, False), (tiles[1], 0, True), (tiles[2], 0, True), (BACK, 0, False)], None
    n = 3
    side_at = {"left": 0, "across": 1, "right": n - 1 if meld.kind != "kan" else 3}[meld.source or "left"]
    if meld.kind == "kan" and meld.source == "across":
        side_at = rng.choice((1, 2))
    row = [(t, 0, True) for t in tiles[: 4 if meld.kind == "kan" else 3]]
    row[side_at] = (row[side_at][0], turn, True)
    return row, side_at


def _winner_area(rng: random.Random, pool: list[str], truth: SceneTruth, blocks: list[Block],
                 y_hand: float, seat: int = 0, mix: Mix = MIXES[1], standing: bool = False) -> None:
    groups, pair = _winning_groups(rng, pool, mix.five_bias)
    n_called = rng.choices((0, 1, 2, 3, 4), weights=mix.called)[0]
    called, closed = groups[:n_called], groups[n_called:]
    melds: list[MeldTruth] = []
    for g in called:
        k = plain_face(g[0])
        is_set = all(plain_face(t) == k for t in g)
        fourth = _take(pool, k) if is_set and rng.random() < 0.3 else None
        if fourth:
            kind = rng.choice(("kan", "added-kan", "closed-kan"))
            melds.append(MeldTruth(kind, g + [fourth], None if kind == "closed-kan" else rng.choice(
                ("left", "across", "right"))))
        elif is_set:
            melds.append(MeldTruth("pon", g, rng.choice(("left", "across", "right"))))
        else:
            melds.append(MeldTruth("chi", g, "left"))
    concealed = [t for g in closed for t in g] + pair
    win = concealed.pop(rng.randrange(len(concealed)))
    concealed.sort(key=_sort_key)
    if rng.random() < 0.1:
        rng.shuffle(concealed)
    truth.concealed, truth.win, truth.melds = concealed, win, melds

    x = -rng.uniform(6.5, 8.5) * TILE_W
    x = _row(blocks, [(t, 0, True) for t in concealed], x, y_hand, seat, rng, "hand", standing=standing)
    win_sideways = rng.random() < mix.win_sideways
    x += rng.uniform(0.6, 1.5) * TILE_W
    if mix.win_front and rng.random() < mix.win_front:  # flat, from before the hand's last two tiles to its end
        _row(blocks, [(win, 0, True)], x - rng.uniform(1.5, 3) * TILE_W, y_hand - TILE_H - rng.uniform(1, 8), seat,
             rng, "win")
    else:
        x = _row(blocks, [(win, rng.choice((1, -1)) if win_sideways else 0, True)], x, y_hand, seat, rng, "win",
                 standing=standing)
    x += rng.uniform(0.8, 2.5) * TILE_W
    for meld in melds:
        row, side_at = _meld_tiles(rng, meld)
        start = x
        x = _row(blocks, row, x, y_hand, seat, rng, "meld")
        if meld.kind == "added-kan" and side_at is not None:
            # the added tile lies on the far side of the called (sideways) tile
            offset = sum(TILE_H if s else TILE_W for _, s, _ in row[:side_at]) + 0.6 * side_at
            _place(blocks, meld.tiles[3], start + offset + TILE_H / 2, y_hand + TILE_W * 1.5 + 0.8, seat,
                   sideways=row[side_at][1], role="meld")
        x += rng.uniform(0.15, 0.8) * TILE_W


def _dora(rng: random.Random, pool: list[str], truth: SceneTruth, blocks: list[Block], lx: float, ly: float,
          seat: int, as_wall: bool) -> None:
    n = rng.choices((1, 2, 3, 4, 5), weights=(6, 3, 1.5, 0.8, 0.4))[0]
    indicators = [pool.pop() for _ in range(n)]
    truth.dora_indicators = indicators
    if not as_wall:
        _row(blocks, [(t, 0, True) for t in indicators], lx, ly, seat, rng, "dora", gap=rng.uniform(0.5, 6))
        return
    first = rng.choice((2, 2, 2, 0, 1))
    x = lx
    for i in range(7):
        up_tile = indicators[i - first] if first <= i < first + n else None
        _place(blocks, BACK, x + TILE_W / 2, ly + TILE_H / 2, seat, face_up=False, labelled=False, role="wall")
        _place(blocks, up_tile or BACK, x + TILE_W / 2, ly + TILE_H / 2, seat, face_up=up_tile is not None,
               z=TILE_T, role="dora" if up_tile else "wall")
        x += TILE_W + rng.uniform(0.2, 1.0)


def _live_wall(rng: random.Random, blocks: list[Block], seat: int, lx: float, ly: float, tiles: int) -> None:
    """The live wall left: `tiles` face down in stacks of two, ending at the dead wall that starts at `lx` on
    `seat`'s wall line `ly` (the last tile drawn lies next to it) and going back round the table to the seats
    before, each seat's wall 17 stacks long; the stack drawn from next holds one tile when their number is odd."""
    stacks, x = (tiles + 1) // 2, lx
    for k in range(stacks):
        x -= TILE_W + rng.uniform(0.2, 1.0)
        if x < -8.5 * TILE_W:  # round the corner to the previous seat's wall
            seat, x = (seat - 1) % 4, 8.5 * TILE_W - TILE_W - rng.uniform(0, 8)
        single = k == stacks - 1 and tiles % 2
        _place(blocks, BACK, x + TILE_W / 2, ly + TILE_H / 2, seat, face_up=False, labelled=bool(single),
               role="wall")
        if not single:
            _place(blocks, BACK, x + TILE_W / 2, ly + TILE_H / 2, seat, face_up=False, z=TILE_T, role="wall")


def _pond(rng: random.Random, pool: list[str], truth: SceneTruth, blocks: list[Block], seat: int,
          centre: float, mix: Mix = MIXES[1], most: int = 19) -> None:
    n = rng.randint(0, most)
    tiles = [pool.pop() for _ in range(n)]
    riichi = rng.randrange(n) if n and rng.random() < mix.riichi else None
    truth.ponds[seat], truth.riichi[seat] = tiles, riichi
    dx = dy = 0.0
    if mix.pond_jitter:
        dx, dy = rng.uniform(-mix.pond_jitter, mix.pond_jitter), rng.uniform(-mix.pond_jitter / 2, mix.pond_jitter)
    for r in range(0, n, 6):
        chunk = [(t, rng.choice((1, -1)) if r + i == riichi else 0, True) for i, t in enumerate(tiles[r : r + 6])]
        _row(blocks, chunk, -3 * TILE_W + dx, -(centre + dy + (r // 6 + 1) * (TILE_H + 0.8)), seat, rng,
             f"pond{seat}")


def _hidden_hand(rng: random.Random, pool: list[str], blocks: list[Block], seat: int, y: float,
                 standing: bool = False) -> None:
    """Another player's hand laid face down (backs only) or standing (its back to the other seats)."""
    x = -6.5 * TILE_W
    for _ in range(13):
        name = pool.pop()
        if standing:
            _place(blocks, name, x + TILE_W / 2, y + TILE_T / 2, seat, role="hidden", standing=True)
        else:
            _place(blocks, BACK, x + TILE_W / 2, y + TILE_H / 2, seat, face_up=False, role="hidden")
        x += TILE_W + 0.6


def build_layout(rng: random.Random, kind: str, mix: Mix = MIXES[1], standing: bool = False
                 ) -> tuple[list[Block], SceneTruth, tuple[float, float, float, float]]:
    """Blocks, truth and the region (x1, y1, x2, y2 in table mm) the camera should frame."""
    pool = _wall(rng, red_fives=rng.random() < mix.red_sets)
    if mix.favour_fives:
        _favour_fives(rng, pool, mix.favour_fives)
    truth = SceneTruth(kind=kind)
    blocks: list[Block] = []
    centre = rng.uniform(2.6, 3.4) * TILE_W
    y_hand = -(centre + 3 * TILE_H + rng.uniform(25, 70)) - TILE_H
    # where the wall's near edge may lie: beyond a full four-row pond (shifted by its jitter) and the wall's own depth
    ponds_reach = 4 * (TILE_H + 0.8) + mix.pond_jitter + TILE_H if mix.wall_clear else 3 * TILE_H
    live = kind != "closeup" and mix.live_walls > 0 and rng.random() < mix.live_walls
    if live:  # every hand lies beyond its wall, as at a real table: the wall line first
        y_wall = -(centre + ponds_reach + rng.uniform(15, 30))
        y_hand = y_wall - rng.uniform(22, 45) - TILE_H
    _winner_area(rng, pool, truth, blocks, y_hand, 0, mix, standing)
    if kind == "closeup":
        if mix.closeup_pond and rng.random() < mix.closeup_pond:
            # the winner's own pond (two rows at most) between the hand and the table centre, dora beyond it
            _pond(rng, pool, truth, blocks, 0, centre, mix, most=12)
            _dora(rng, pool, truth, blocks, -rng.uniform(1, 6) * TILE_W, -centre + rng.uniform(12, 40), 0,
                  as_wall=rng.random() < 0.5)
        elif rng.random() < 0.5:
            _dora(rng, pool, truth, blocks, -rng.uniform(1, 6) * TILE_W, y_hand + TILE_H + rng.uniform(20, 90), 0,
                  as_wall=rng.random() < 0.5)
        else:
            _dora(rng, pool, truth, blocks, -rng.uniform(4, 9) * TILE_W, y_hand + TILE_H + rng.uniform(20, 60), 0,
                  as_wall=rng.random() < 0.5)
        xs = [b.x for b in blocks]
        ys = [b.y for b in blocks]
        return blocks, truth, (min(xs) - 20, min(ys) - 20, max(xs) + 20, max(ys) + 20)
    for seat in range(4):
        _pond(rng, pool, truth, blocks, seat, centre, mix)
    wall_seat = rng.randrange(1, 4)
    lx = -rng.uniform(-1, 4) * TILE_W
    if not live:
        y_wall = -(centre + ponds_reach + rng.uniform(15, 30))
    _dora(rng, pool, truth, blocks, lx, y_wall, wall_seat, as_wall=True)
    if live:  # what the deal (13 each and the dealer's 14th) and every discard drawn have not taken, or a few less
        drawn = 53 + sum(map(len, truth.ponds.values())) + len(truth.melds) + rng.randint(0, 4)
        _live_wall(rng, blocks, wall_seat, lx, y_wall, max(0, 136 - 14 - drawn))
    for seat in (1, 2, 3):
        if seat != wall_seat and (standing or rng.random() < 0.35):
            _hidden_hand(rng, pool, blocks, seat, y_hand + rng.uniform(-10, 10), standing)
    xs = [b.x for b in blocks]
    ys = [b.y for b in blocks]
    return blocks, truth, (min(xs) - 25, min(ys) - 25, max(xs) + 25, max(ys) + 25)


# ---------------------------------------------------------------------------------------------- sticks and dice

STICK_L, STICK_W, STICK_T = 87.0, 8.5, 3.5  # mm: a point stick (tenbou)
DIE = 14.0  # mm: a die's edge
STICK_VALUES = (100, 100, 100, 1000, 1000, 5000, 10000)
PIPS = {1: [(0.5, 0.5)], 2: [(0.25, 0.25), (0.75, 0.75)], 3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
        4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)]}  # a die face's pips, as shares of its edge
PIPS[5] = PIPS[4] + PIPS[1]
PIPS[6] = PIPS[4] + [(0.25, 0.5), (0.75, 0.5)]


def _prop_size(p: Prop) -> tuple[float, float, float]:
    return (p.length or STICK_L, p.width or STICK_W, STICK_T) if p.kind == "stick" else (DIE, DIE, DIE)


def _prop_corners(p: Prop) -> tuple[np.ndarray, np.ndarray]:
    """(base, top): the prop's footprint on the table and its top, TL TR BR BL with the length along the top's x."""
    length, width, height = _prop_size(p)
    a = np.array([math.cos(p.angle), math.sin(p.angle), 0.0])
    n = np.array([-a[1], a[0], 0.0])
    c = np.array([p.x, p.y, 0.0])
    base = np.array([c + sa * length / 2 * a + sn * width / 2 * n for sa, sn in ((-1, 1), (1, 1), (1, -1), (-1, -1))])
    return base, base + [0.0, 0.0, height]


def _tile_outline(b: Block) -> np.ndarray:
    """A tile's outline on the table, a little generous (a scene's tiles are up to 12 % larger than TILE_W/H/T)."""
    u = np.array([math.cos(b.up), math.sin(b.up)])
    r = np.array([u[1], -u[0]])
    c = np.array([b.x, b.y]) + (u * TILE_T / 2 if b.standing else 0.0)
    half_u = 0.6 * (TILE_T if b.standing else TILE_H)
    return np.float32([c + sr * 0.6 * TILE_W * r + su * half_u * u for sr, su in ((-1, 1), (1, 1), (1, -1), (-1, -1))])


def place_props(rng: random.Random, blocks: list[Block], truth: SceneTruth) -> list[Prop]:
    """Point sticks and dice where players leave them: a 1000-point stick by each pond with a riichi discard (on the
    table's centre side of it or on its owner's) or beyond a close-up's hand, honba sticks side by side, loose sticks
    and dice anywhere free. A prop is dropped where it would lie on a tile."""
    outlines = [_tile_outline(b) for b in blocks]
    props: list[Prop] = []
    length, width = rng.uniform(80, 100), rng.uniform(7.5, 11)  # one set of sticks per table

    def put(kind: str, x: float, y: float, angle: float, marks: int) -> bool:
        p = Prop(kind, x, y, angle, marks, length, width) if kind == "stick" else Prop(kind, x, y, angle, marks)
        outline = np.float32(_prop_corners(p)[0][:, :2])
        if any(cv2.intersectConvexConvex(outline, o)[0] > 0 for o in outlines):
            return False
        props.append(p)
        outlines.append(outline)
        return True

    def by_seat(roles: tuple[str, ...], seat: int, near: bool, value: int) -> None:
        """A stick along the seat's rows, on the table's centre side of its tiles of `roles` or (`near`) between them
        and their owner."""
        pts = [_rot(b.x, b.y, -seat) for b in blocks if b.role in roles]
        if not pts:
            return
        ys = [y for _, y in pts]
        for _ in range(6):  # the centre side may be crowded by the other ponds: try again, there or on the other
            lx = float(np.mean([x for x, _ in pts])) + rng.uniform(-25, 25)
            ly = min(ys) - TILE_H / 2 - rng.uniform(6, 18) if near else max(ys) + TILE_H / 2 + rng.uniform(6, 40)
            if put("stick", *_rot(lx, ly, seat), seat * math.pi / 2 + rng.uniform(-0.15, 0.15), value):
                return
            near = not near

    for seat, riichi in truth.riichi.items():
        if riichi is not None:
            by_seat((f"pond{seat}",), seat, rng.random() < 0.35, 1000)
    if truth.kind == "closeup" and not truth.riichi and rng.random() < 0.4:
        by_seat(("hand", "win", "meld"), 0, False, 1000)
    xs, ys = [b.x for b in blocks], [b.y for b in blocks]
    x1, y1, x2, y2 = min(xs) - 60, min(ys) - 60, max(xs) + 60, max(ys) + 60
    if rng.random() < 0.35:  # honba: 100-point sticks side by side
        x, y, angle = rng.uniform(x1, x2), rng.uniform(y1, y2), rng.choice((0, 0.5, 1, 1.5)) * math.pi
        n = np.array([-math.sin(angle), math.cos(angle)])
        for k in range(rng.randint(1, 4)):
            if not put("stick", x + k * 11 * n[0], y + k * 11 * n[1], angle + rng.uniform(-0.04, 0.04), 100):
                break
    for _ in range(rng.choice((0, 1, 1, 2, 3))):  # loose sticks
        angle = rng.uniform(0, math.pi) if rng.random() < 0.4 else rng.randrange(4) * math.pi / 2 + rng.uniform(
            -0.2, 0.2)
        for _ in range(8):
            if put("stick", rng.uniform(x1, x2), rng.uniform(y1, y2), angle, rng.choice(STICK_VALUES)):
                break
    if rng.random() < (0.4 if truth.kind == "table" else 0.15):  # the two dice of the deal
        cx, cy = (0.0, 0.0) if truth.kind == "table" else (rng.uniform(x1, x2), rng.uniform(y1, y2))
        for _ in range(2):
            for _ in range(8):
                if put("die", cx + rng.uniform(-45, 45), cy + rng.uniform(-45, 45), rng.uniform(0, math.pi / 2),
                       rng.randint(1, 6)):
                    break
    return props


def _prop_texture(p: Prop, rng: random.Random) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The prop's top (BGR, 4 px per mm), its alpha (a stick's round ends, a die's round corners) and its colour."""
    length, width, _ = _prop_size(p)
    w, h = int(length * 4), int(width * 4)
    colour = np.array(rng.choice([(238, 242, 244), (225, 236, 242), (215, 232, 240), (240, 240, 240)]), float)
    if p.kind == "stick" and rng.random() < 0.15:  # a coloured set
        colour = np.array(rng.choice([(200, 170, 90), (120, 200, 230), (140, 190, 140), (60, 60, 60)]), float)
    across = np.ones(h)
    if p.kind == "stick":  # rounded across, flatter or rounder by set, glossy or matt
        rim = rng.uniform(0.55, 0.9)
        across = rim + (1 - rim) * np.sin(np.linspace(0, np.pi, h)) ** rng.uniform(0.5, 2)
        if rng.random() < 0.5:
            across += rng.uniform(0.05, 0.25) * np.exp(-((np.linspace(0, 1, h) - rng.uniform(0.25, 0.45)) / 0.08) ** 2)
    tex = np.clip(colour[None, None, :] * across[:, None, None] * np.ones((h, w, 1)), 0, 255).astype(np.uint8)
    red, black = (40, 40, rng.randint(170, 220)), (30, 30, 30)
    dot = max(2, round(h * (0.14 if p.kind == "die" else rng.uniform(0.12, 0.25))))

    def spot(fx: float, fy: float, c: tuple[int, int, int], r: int = dot) -> None:
        cv2.circle(tex, (round(fx * w), round(fy * h)), r, c, -1, cv2.LINE_AA)

    if p.kind == "die":
        for fx, fy in PIPS[p.marks]:
            spot(fx, fy, red if p.marks == 1 else black, dot * 2 if p.marks == 1 else dot)
        alpha = _rounded_alpha(w, h, h * 0.15)
    else:
        if p.marks == 100:
            for end in (0.2, 0.8):
                for dx in (-0.04, 0.04):
                    for fy in (0.3, 0.7):
                        spot(end + dx, fy, black, max(1, dot // 2))
        elif p.marks == 1000:
            spot(0.5, 0.5, red, dot + 1)
        else:
            spot(0.5, 0.5, red, dot + 1)
            for k in range(1, 3 if p.marks == 5000 else 5):
                for side in (-1, 1):
                    spot(0.5 + side * k * 0.07, 0.5, black, max(1, dot // 2))
        alpha = _rounded_alpha(w, h, h / 2 - 0.5)
    return tex, alpha, colour


def _draw_prop(img: np.ndarray, p: Prop, cam: Camera, light: np.ndarray, ambient: float, rng: random.Random
               ) -> np.ndarray:
    """Draws the prop; returns its outline in the image (it hides what lies behind it)."""
    base, top = _prop_corners(p)
    tex, alpha, colour = _prop_texture(p, rng)
    a, n = (top[1] - top[0]) / np.linalg.norm(top[1] - top[0]), (top[0] - top[3]) / np.linalg.norm(top[0] - top[3])
    for (i, j), normal in (((0, 1), n), ((1, 2), a), ((2, 3), -n), ((3, 0), -a)):
        mid = (base[i] + top[j]) / 2
        if float(normal @ (cam.centre - mid)) > 0:
            quad = cam.project(np.array([base[i], base[j], top[j], top[i]]))
            cv2.fillConvexPoly(img, quad.astype(np.int32), _shade(colour * 0.9, normal, light, ambient), cv2.LINE_AA)
    lit = ambient + (1 - ambient) * max(float(light[2]), 0.3)
    _paste_texture(img, np.clip(tex * lit, 0, 255).astype(np.uint8), cam.project(top), alpha)
    return cam.project(np.vstack([base, top]))


# ---------------------------------------------------------------------------------------------- the camera


@dataclass
class Camera:
    centre: np.ndarray
    right: np.ndarray
    down: np.ndarray
    forward: np.ndarray
    focal: float
    size: tuple[int, int]  # width, height

    def project(self, pts: np.ndarray) -> np.ndarray:
        rel = pts - self.centre
        x, y, z = rel @ self.right, rel @ self.down, rel @ self.forward
        z = np.maximum(z, 1e-3)
        return np.stack([self.size[0] / 2 + self.focal * x / z, self.size[1] / 2 + self.focal * y / z], axis=-1)


def make_camera(target: np.ndarray, azimuth: float, elevation: float, roll: float, hfov: float,
                distance: float, size: tuple[int, int]) -> Camera:
    v = np.array([math.sin(azimuth), -math.cos(azimuth), 0.0])
    c = target + distance * (math.cos(elevation) * v + np.array([0, 0, math.sin(elevation)]))
    f = target - c
    f /= np.linalg.norm(f)
    r = np.array([math.cos(azimuth), math.sin(azimuth), 0.0])
    d = np.cross(f, r)
    cr, sr = math.cos(roll), math.sin(roll)
    r, d = cr * r + sr * d, -sr * r + cr * d
    focal = size[0] / 2 / math.tan(hfov / 2)
    return Camera(c, r, d, f, focal, size)


def frame_camera(rng: random.Random, region: tuple[float, float, float, float], size: tuple[int, int],
                 kind: str, diagonal: float = 0.0, rolled: float = 0.0) -> Camera:
    """`kind`: "fixed" (over the table), "phone" (hand-held, any side) or "low" (a phone low over seat 0);
    `diagonal` and `rolled`: the chances a camera looks across a corner, and a hand-held one is held at a slant."""
    x1, y1, x2, y2 = region
    target = np.array([(x1 + x2) / 2 + rng.uniform(-15, 15), (y1 + y2) / 2 + rng.uniform(-15, 15), 0.0])
    if kind == "low":  # the player photographs their own standing hand
        azimuth = math.radians(rng.uniform(-20, 20))
        elevation = math.radians(rng.uniform(14, 45))
    elif kind == "fixed":
        azimuth = rng.choice((0, 0, 1, 2, 3)) * math.pi / 2 + math.radians(rng.uniform(-8, 8))
        elevation = math.radians(rng.uniform(72, 90))
    else:
        any_side = rng.random() < 0.3
        azimuth = rng.uniform(0, 2 * math.pi) if any_side else math.radians(rng.uniform(-25, 25))
        elevation = math.radians(rng.uniform(32, 88))
    if diagonal and rng.random() < diagonal:  # a corner of the table towards the camera, rows run diagonally
        azimuth += math.radians(rng.choice((1, -1)) * rng.uniform(20, 35))
    roll = math.radians(rng.uniform(-5, 5))
    if rolled and kind != "fixed" and rng.random() < rolled:  # drawn only then: earlier mixes render as they did
        roll += math.radians(rng.choice((1, -1)) * rng.uniform(10, 45))
    hfov = math.radians(rng.uniform(48, 72))
    fill = rng.uniform(0.6, 0.95)
    corners = np.array([[x1, y1, 0], [x2, y1, 0], [x2, y2, 0], [x1, y2, 0]], float)
    distance = 800.0
    for _ in range(4):
        cam = make_camera(target, azimuth, elevation, roll, hfov, distance, size)
        p = cam.project(corners)
        span = max((p[:, 0].max() - p[:, 0].min()) / size[0], (p[:, 1].max() - p[:, 1].min()) / size[1])
        distance *= span / fill
        distance = max(distance, 150.0)
    return make_camera(target, azimuth, elevation, roll, hfov, distance, size)


# ---------------------------------------------------------------------------------------------- drawing


def _cloth(rng: np.random.Generator, size: int) -> np.ndarray:
    """A table cloth texture (felt, wood or patterned) covering 2 x 2 m at `size` pixels."""
    base = np.array(rng.choice([(40, 110, 30), (120, 80, 20), (90, 90, 90), (40, 40, 140), (30, 30, 30),
                                (60, 100, 140), (140, 140, 150), (20, 70, 20), (100, 60, 90)]), float)
    base *= rng.uniform(0.6, 1.4)
    low = cv2.resize(rng.normal(0, 1, (8, 8)).astype(np.float32), (size, size), interpolation=cv2.INTER_CUBIC)
    high = rng.normal(0, 1, (size, size)).astype(np.float32)
    tex = base[None, None, :] * (1 + 0.12 * low[:, :, None]) + 10 * high[:, :, None]
    style = rng.random()
    if style < 0.2:  # wood grain
        y = np.linspace(0, 60, size, dtype=np.float32)[:, None] + 3 * low
        tex *= (1 + 0.15 * np.sin(y))[:, :, None]
    elif style < 0.3:  # woven / printed pattern
        yy, xx = np.mgrid[0:size, 0:size]
        period = rng.uniform(6, 30)
        tex *= (1 + 0.1 * np.sign(np.sin(xx / period) * np.sin(yy / period)))[:, :, None]
    return np.clip(tex, 0, 255).astype(np.uint8)


def _shade(colour: np.ndarray, normal: np.ndarray, light: np.ndarray, ambient: float) -> tuple[int, ...]:
    k = ambient + (1 - ambient) * max(0.0, float(normal @ light))
    return tuple(int(c) for c in np.clip(colour * k, 0, 255))


def _block_corners(b: Block, w: float, h: float, t: float
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(base, top, up, normal): the back quad, the face quad (TL TR BR BL with the face upright), the face's up
    direction and its outward normal. A lying tile's face looks up; a standing one's looks at its owner."""
    u = np.array([math.cos(b.up), math.sin(b.up), 0.0])
    r = np.array([u[1], -u[0], 0.0])
    if b.standing:
        up, normal = np.array([0.0, 0.0, 1.0]), -u
        c = np.array([b.x, b.y, b.z + h / 2]) + u * t / 2
    else:
        up, normal = u, np.array([0.0, 0.0, 1.0])
        c = np.array([b.x, b.y, b.z])
    base = np.array([c - w / 2 * r + h / 2 * up, c + w / 2 * r + h / 2 * up, c + w / 2 * r - h / 2 * up,
                     c - w / 2 * r - h / 2 * up])
    return base, base + normal * t, up, normal


def _paste_texture(img: np.ndarray, tex: np.ndarray, quad: np.ndarray, alpha: np.ndarray) -> None:
    x1, y1 = np.floor(quad.min(0)).astype(int)
    x2, y2 = np.ceil(quad.max(0)).astype(int) + 1
    x1, y1 = max(x1, 0), max(y1, 0)
    x2, y2 = min(x2, img.shape[1]), min(y2, img.shape[0])
    if x2 <= x1 or y2 <= y1:
        return
    th, tw = tex.shape[:2]
    src = np.float32([[0, 0], [tw, 0], [tw, th], [0, th]])
    m = cv2.getPerspectiveTransform(src, (quad - [x1, y1]).astype(np.float32))
    warped = cv2.warpPerspective(tex, m, (x2 - x1, y2 - y1), flags=cv2.INTER_AREA if tw > (x2 - x1) else
                                 cv2.INTER_LINEAR)
    a = cv2.warpPerspective(alpha, m, (x2 - x1, y2 - y1))[:, :, None].astype(np.float32) / 255.0
    roi = img[y1:y2, x1:x2].astype(np.float32)
    img[y1:y2, x1:x2] = (roi * (1 - a) + warped.astype(np.float32) * a).astype(np.uint8)


def _rounded_alpha(w: int, h: int, radius: float) -> np.ndarray:
    a = np.zeros((h, w), np.uint8)
    r = int(radius)
    cv2.rectangle(a, (r, 0), (w - r, h), 255, -1)
    cv2.rectangle(a, (0, r), (w, h - r), 255, -1)
    for cx, cy in ((r, r), (w - r, r), (r, h - r), (w - r, h - r)):
        cv2.circle(a, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return a


@dataclass
class Look:
    """Per-scene appearance of the tile set."""

    faces: FaceSet
    back: np.ndarray  # texture
    body_tint: np.ndarray
    back_colour: np.ndarray
    body_colour: np.ndarray
    back_frac: float
    size: float  # tile size factor


def _look(rng: random.Random, face_sets: tuple[FaceSet, ...], white_backs: bool = True) -> Look:
    weights = [3.0 if fs.name == "fluffy-regular" else 1.0 if fs.name == "fluffy-black" else 1.2 for fs in face_sets]
    fs = rng.choices(face_sets, weights=weights)[0]
    back_colour = np.array(rng.choice([(40, 180, 230), (200, 120, 30), (60, 150, 40), (40, 40, 190), (30, 120, 230),
                                       (40, 40, 40), (220, 220, 220), (150, 60, 120), (180, 180, 60)]), float)
    if not white_backs and back_colour.min() > 200:
        back_colour = np.array(rng.choice(_COLOURED_BACKS), float)
    back_colour = np.clip(back_colour * rng.uniform(0.7, 1.2), 0, 255)
    if fs.back is not None and rng.random() < 0.4:
        back = fs.back
        back_colour = back[back.shape[0] // 2, back.shape[1] // 2].astype(float)
    else:
        back = np.empty((160, 120, 3), np.uint8)
        back[:] = back_colour
        back = np.clip(back.astype(np.float32) + np.linspace(-12, 12, 160, dtype=np.float32)[:, None, None], 0,
                       255).astype(np.uint8)
    tint = np.array([rng.uniform(0.9, 1.03), rng.uniform(0.92, 1.03), rng.uniform(0.95, 1.05)])
    return Look(fs, back, tint, back_colour, np.array(fs.body, float) * tint, rng.uniform(0.25, 0.5),
                rng.uniform(0.9, 1.12))


def render(blocks: list[Block], cam: Camera, look: Look, rng: random.Random, props: list[Prop] | None = None,
           prop_rng: random.Random | None = None) -> tuple[np.ndarray, list[TileLabel]]:
    """The scene's picture and its labels. `props` are drawn with their own random stream (`prop_rng`), so a scene
    without them renders as it did before they existed."""
    props = props or []
    prop_rng = prop_rng or random.Random(0)
    nrng = np.random.default_rng(rng.randrange(2**31))
    w_img, h_img = cam.size
    # table cloth: warp a 2 m texture onto the table plane with the plane-to-image homography
    tex_px = 700
    cloth = _cloth(nrng, tex_px)
    plane = np.float32([[-1000, -1000], [1000, -1000], [1000, 1000], [-1000, 1000]])
    texc = np.float32([[0, tex_px], [tex_px, tex_px], [tex_px, 0], [0, 0]])
    cx, cy = np.mean([[b.x, b.y] for b in blocks], axis=0) if blocks else (0.0, 0.0)
    near = np.float32([[cx - 100, cy - 100], [cx + 100, cy - 100], [cx + 100, cy + 100], [cx - 100, cy + 100]])
    img_near = cam.project(np.c_[near, np.zeros(4)]).astype(np.float32)
    h_plane_img = cv2.getPerspectiveTransform(near, img_near)
    h_plane_tex = cv2.getPerspectiveTransform(plane, texc)
    tex_from_img = h_plane_tex @ np.linalg.inv(h_plane_img)
    img = cv2.warpPerspective(cloth, tex_from_img, (w_img, h_img), flags=cv2.WARP_INVERSE_MAP | cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_REFLECT)

    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0])
    light /= np.linalg.norm(light)
    ambient = rng.uniform(0.45, 0.75)
    w, h, t = TILE_W * look.size, TILE_H * look.size, TILE_T * look.size

    # drop shadows on the cloth
    shadow = np.zeros((h_img, w_img), np.uint8)
    for b in blocks:
        base, top, _, _ = _block_corners(b, w, h, t)
        if b.z > 0:
            continue
        box = np.vstack([base, top])
        pts = cam.project(box - light[None, :] * (box[:, 2:3] / light[2]))
        cv2.fillConvexPoly(shadow, cv2.convexHull(pts.astype(np.int32)), 255, cv2.LINE_AA)
    for p in props:
        box = np.vstack(_prop_corners(p))
        pts = cam.project(box - light[None, :] * (box[:, 2:3] / light[2]))
        cv2.fillConvexPoly(shadow, cv2.convexHull(pts.astype(np.int32)), 255, cv2.LINE_AA)
    k = max(3, int(w_img / 300) | 1)
    shadow = cv2.GaussianBlur(shadow, (k * 2 + 1, k * 2 + 1), 0).astype(np.float32) / 255.0
    img = (img.astype(np.float32) * (1 - rng.uniform(0.25, 0.5) * shadow[:, :, None])).astype(np.uint8)

    face_alpha = _rounded_alpha(120, 160, 12)

    def far(o: Block | Prop) -> float:
        return -float(np.linalg.norm(np.array([o.x, o.y, getattr(o, "z", 0.0)]) - cam.centre))

    order = sorted([*blocks, *props], key=far)
    owner = np.zeros((h_img, w_img), np.int32)  # which block is in front at each pixel: tiles hidden behind others
    candidates: list[tuple[int, TileLabel, np.ndarray]] = []
    for k, b in enumerate(order, start=1):
        if isinstance(b, Prop):
            pts = _draw_prop(img, b, cam, light, ambient, prop_rng)
            cv2.fillConvexPoly(owner, cv2.convexHull(pts.astype(np.int32)), -1)
            continue
        base, top, up, normal = _block_corners(b, w, h, t)
        r = np.cross(up, normal)
        split = base + normal * t * (1 - look.back_frac if b.face_up else look.back_frac)
        lower_col, upper_col = (look.back_colour, look.body_colour) if b.face_up else (look.body_colour,
                                                                                      look.back_colour)
        sides = [((0, 1), up), ((1, 2), r), ((2, 3), -up), ((3, 0), -r)]
        for (i, j), n in sides:
            mid = (base[i] + base[j]) / 2 + normal * t / 2
            if float(n @ (cam.centre - mid)) <= 0:
                continue
            for lo, hi, col in ((base, split, lower_col), (split, top, upper_col)):
                quad = cam.project(np.array([lo[i], lo[j], hi[j], hi[i]]))
                cv2.fillConvexPoly(img, quad.astype(np.int32), _shade(col, n, light, ambient), cv2.LINE_AA)
        face_seen = float(normal @ (cam.centre - top.mean(0))) > 0
        shown_up = b.face_up if face_seen else not b.face_up  # a standing tile seen from behind shows its back
        quad = cam.project(top if face_seen else base[[1, 0, 3, 2]])
        lit = ambient + (1 - ambient) * max(float((normal if face_seen else -normal) @ light), 0.3)
        if shown_up:
            tex = np.clip(look.faces.faces[b.name].astype(np.float32) * look.body_tint * lit, 0, 255)
        else:
            tex = np.clip(look.back.astype(np.float32) * lit, 0, 255)
        _paste_texture(img, tex.astype(np.uint8), quad, face_alpha)
        pts = cam.project(np.vstack([base, top]))
        cv2.fillConvexPoly(owner, cv2.convexHull(pts.astype(np.int32)), k)
        if not b.labelled:
            continue
        x1, y1 = pts.min(0)
        x2, y2 = pts.max(0)
        full = (x2 - x1) * (y2 - y1)
        cx1, cy1, cx2, cy2 = max(x1, 0), max(y1, 0), min(x2, w_img), min(y2, h_img)
        if cx2 <= cx1 or cy2 <= cy1 or (cx2 - cx1) * (cy2 - cy1) < 0.6 * full:
            continue
        if cv2.contourArea(quad.astype(np.float32)) < 0.3 * cv2.contourArea(cv2.convexHull(pts.astype(np.float32))):
            continue  # seen edge-on: no face or back to read
        shown = (top if face_seen else base).mean(0)
        centre, p1 = cam.project(np.array([shown, shown + up * h / 2]))
        angle = math.degrees(math.atan2(p1[0] - centre[0], -(p1[1] - centre[1]))) % 360
        orientation = int(round(angle / 90.0)) % 4 * 90
        name = b.name if shown_up else BACK
        label = TileLabel(det_class(shown_up, orientation), (float(cx1), float(cy1), float(cx2), float(cy2)), name,
                          orientation, b.role, b.sideways)
        candidates.append((k, label, quad))
    return img, [lb for k, lb, quad in candidates if _in_sight(owner, k, quad) >= 0.5]


def _in_sight(owner: np.ndarray, k: int, quad: np.ndarray) -> float:
    """Share of block k's face (or back) that no nearer block covers, inside the image."""
    x1, y1 = np.maximum(np.floor(quad.min(0)).astype(int), 0)
    x2, y2 = np.minimum(np.ceil(quad.max(0)).astype(int) + 1, owner.shape[::-1])
    if x2 <= x1 or y2 <= y1:
        return 0.0
    mask = np.zeros((y2 - y1, x2 - x1), np.uint8)
    cv2.fillConvexPoly(mask, (quad - [x1, y1]).astype(np.int32), 1)
    area = int(mask.sum())
    return float(np.count_nonzero((owner[y1:y2, x1:x2] == k) & (mask > 0))) / area if area else 0.0


def degrade(img: np.ndarray, rng: random.Random, strength: float = 1.0) -> np.ndarray:
    """Uneven light, a cast shadow, glare, colour cast, blur, noise and JPEG compression."""
    nrng = np.random.default_rng(rng.randrange(2**31))
    h, w = img.shape[:2]
    f = img.astype(np.float32)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    gx, gy = rng.uniform(-0.35, 0.35) * strength, rng.uniform(-0.35, 0.35) * strength
    gain = 1 + gx * (xx / w - 0.5) + gy * (yy / h - 0.5)
    gain *= rng.uniform(0.7, 1.25)
    f *= gain[:, :, None]
    if rng.random() < 0.25 * strength:  # a large soft shadow (a person, a lamp arm)
        mask = np.zeros((h, w), np.float32)
        pts = np.array([[rng.uniform(-0.2, 1.2) * w, rng.uniform(-0.2, 1.2) * h] for _ in range(5)], np.int32)
        cv2.fillConvexPoly(mask, cv2.convexHull(pts), 1.0)
        k = int(w / 20) * 2 + 1
        mask = cv2.GaussianBlur(mask, (k, k), 0)
        f *= (1 - rng.uniform(0.2, 0.45) * mask)[:, :, None]
    if rng.random() < 0.3 * strength:  # glare from a lamp
        mask = np.zeros((h, w), np.float32)
        cv2.ellipse(mask, (int(rng.uniform(0, w)), int(rng.uniform(0, h))),
                    (int(rng.uniform(0.03, 0.15) * w), int(rng.uniform(0.02, 0.08) * w)), rng.uniform(0, 180), 0,
                    360, 1.0, -1)
        k = int(w / 25) * 2 + 1
        f += rng.uniform(60, 160) * cv2.GaussianBlur(mask, (k, k), 0)[:, :, None]
    f *= np.array([rng.uniform(0.88, 1.12) for _ in range(3)], np.float32)
    img = np.clip(f, 0, 255).astype(np.uint8)
    r = rng.random()
    if r < 0.25 * strength:
        s = rng.uniform(0.5, 1.6) * w / 1280
        img = cv2.GaussianBlur(img, (0, 0), s)
    elif r < 0.35 * strength:
        n = max(3, int(rng.uniform(3, 9) * w / 1280))
        kern = np.zeros((n, n), np.float32)
        kern[n // 2, :] = 1.0 / n
        m = cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), rng.uniform(0, 180), 1.0)
        img = cv2.filter2D(img, -1, cv2.warpAffine(kern, m, (n, n)))
    sigma = rng.uniform(0, 7) * strength
    if sigma > 0.5:
        img = np.clip(img.astype(np.float32) + nrng.normal(0, sigma, img.shape).astype(np.float32), 0,
                      255).astype(np.uint8)
    q = int(rng.uniform(35, 95)) if strength > 0 else 95
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, q])
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else img


def _procedural_look(look: Look, seed: int, white_backs: bool = True) -> Look | None:
    """The same scene look with a random procedural tile set (vision.faces); None when no CJK font is installed."""
    from vision import faces

    try:
        style = faces.random_style(np.random.default_rng(seed))
    except faces.NoCJKFontError:
        return None
    if not white_backs and min(style.back_colour) > 200:
        style = replace(style, back_colour=_COLOURED_BACKS[seed % len(_COLOURED_BACKS)])
    textures, body, back = faces.bgr_textures(style)
    fs = FaceSet(f"procedural-{seed}", textures, body, back)
    tint = look.body_tint
    back_colour = back[back.shape[0] // 2, back.shape[1] // 2].astype(float)
    return Look(fs, back, tint, back_colour, np.array(body, float) * tint, look.back_frac, look.size)


def make_scene(seed: int, size: tuple[int, int] | None = None, kind: str | None = None, art: str | None = None,
               fonts: bool = True, strength: float = 1.0, mix: int | Mix = DEFAULT_MIX,
               procedural: float | None = None) -> Scene:
    """One labelled scene, fully determined by `seed`, the mix (round) and the styles available.

    `fonts=False` draws only the FluffyStuff styles (no font glyphs, no procedural faces): the same picture on any
    machine. `procedural` overrides the mix's share of procedural tile sets; when no CJK font is installed those
    scenes fall back to the FluffyStuff/glyph sets. The procedural choice uses its own random stream, so the
    layout, camera and light of a seed do not depend on it.
    """
    m = MIXES[mix] if isinstance(mix, int) else mix
    rng = random.Random(seed)
    face_sets = load_face_sets(art, fonts)
    kind = kind or rng.choices(("closeup", "table"), weights=(0.55, 0.45))[0]
    if size is None:
        size = (1280, 960) if rng.random() < 0.7 else (960, 1280)
    standing = m.standing > 0 and rng.random() < m.standing
    blocks, truth, region = build_layout(rng, kind, m, standing)
    camera_kind = "fixed" if kind == "table" and rng.random() < 0.6 else "phone"
    if standing:
        camera_kind = "low"
    macro_rng = close_part_stream(seed)
    if kind == "closeup" and m.macro and macro_rng.random() < m.macro:
        region = _close_part(macro_rng, [b for b in blocks if b.labelled])
    cam = frame_camera(rng, region, size, camera_kind, m.diagonal, m.rolled)
    look = _look(rng, face_sets, m.white_backs)
    share = m.procedural if procedural is None else procedural
    side = random.Random(seed * 7_919 + 104_729)
    if fonts and share > 0 and side.random() < share:
        look = _procedural_look(look, side.randrange(2**31), m.white_backs) or look
    props: list[Prop] = []
    prop_rng = random.Random(seed * 7_927 + 15_485_863)  # its own stream: earlier mixes render as they did
    if m.props and prop_rng.random() < m.props:
        props = place_props(prop_rng, blocks, truth)
    img, labels = render(blocks, cam, look, rng, props, prop_rng)
    truth.viewer_seat = _viewer_seat(cam)
    outlines = [cv2.convexHull(cam.project(np.vstack(_prop_corners(p))).astype(np.float32)) for p in props]
    return Scene(degrade(img, rng, strength), labels, truth, look.faces.name, cam, outlines)


def close_part_stream(seed: int) -> random.Random:
    """The random stream that decides whether a close-up frames a part only, and which: its own, so that mixes
    without `macro` render as they did."""
    return random.Random(seed * 7_933 + 32_452_843)


def _close_part(rng: random.Random, tiles: list[Block]) -> tuple[float, float, float, float]:
    """A part of the table 2 to 8 tiles wide (and at least a tile and a half deep) round one of the `tiles`, for the
    camera to frame: tiles then fill the picture two to five times as large as in a close-up of the whole hand."""
    width = rng.uniform(2, 8) * TILE_W
    depth = max(width * rng.uniform(0.3, 0.75), 1.5 * TILE_H)
    centre = rng.choice(tiles)
    cx, cy = centre.x + rng.uniform(-0.4, 0.4) * width, centre.y + rng.uniform(-0.3, 0.3) * depth
    return cx - width / 2, cy - depth / 2, cx + width / 2, cy + depth / 2


def _viewer_seat(cam: Camera) -> int:
    """The table seat whose tiles read upright in the image (the side the camera looks from)."""
    # image-down direction on the table points towards the viewer
    d = cam.down[:2]
    angle = math.degrees(math.atan2(d[1], d[0]))  # seat 0 at -90, seat 1 at 0, seat 2 at 90, seat 3 at 180
    return int(round((angle + 90) / 90.0)) % 4

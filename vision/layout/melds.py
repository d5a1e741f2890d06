"""Called melds and closed kans read from the tiles laid beside the hand: which kind, and from the sideways tile
(or the steps between the tiles, seen low) which seat the called tile came from.
"""

from __future__ import annotations

import itertools
import re
import statistics

from vision.classes import plain_face
from vision.layout.rows import _T, TOUCH_GAP, WIDE
from vision.view import SeenMeld


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
            elif kind == "added-kan" and len({plain_face(n) for n in names}) > 1:
                warnings.append(f"called tiles {' '.join(names)} make no kan: the tile laid on the pon is not a "
                                "fourth of its tiles (one of them is misread)")
            if not all(x.face_up for x in win):
                warnings.append(f"called tiles read face down taken for white dragons (blank faces): {kind} of 5z")
            melds.append(SeenMeld(kind, tuple(names), source, tuple(x.i for x in win)))
            called |= {win[pos].i} | ({win[-1].i} if len(win) > size else set())
            k += size
            break
        else:
            warnings.append(stray_warning(t.name))
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


def stray_warning(name: str) -> str:
    """The warning for a tile lying by the melds that none of them takes (`score-photo` reads it back with
    `stray_tile`: a stray tile of a pon's face may be the kan's fourth)."""
    return f"tile {name} beside the melds belongs to no meld"


def stray_tile(warning: str) -> str | None:
    """The tile named by a `stray_warning`, None for any other warning."""
    m = re.fullmatch(r"tile (\S+) beside the melds belongs to no meld", warning)
    return m.group(1) if m else None

"""Two hands in one picture facing the same way: two winning hands photographed together (side by side, one above
the other). At a table a hand laid down faces its owner, so a second hand there (a double ron, a tenpai hand shown
at a draw) faces another way and is left to the ponds' reading; two facing alike are two pictures' worth. The one
nearest the camera is read, and the dora indicators only when they lie nearer it than the other hand.
"""

from __future__ import annotations

import dataclasses
import math
import statistics

from vision.layout.hand import _hand, whole_hand
from vision.layout.rows import _T, SEAT_FACING, _axis, _facing, _outward, _turn
from vision.view import SeenTile

TWO_HANDS = "two hands in view"  # the warning's words
LARGER = 1.1  # a hand whose tiles are this much longer than the other's is the nearer, wherever it lies
WHOLE = 13  # tiles in a line, at least, that may be a hand with melds (its winning tile may lie off the line)
ALIKE = 2.0  # two hands with melds have tiles at most this many times as long as each other's (pictures pasted)
APART = 2.0  # and lie at least this many tile lengths apart: a hand's own pond, melds and wall lie nearer


def _tiles_of(line: list[list[_T]]) -> list[_T]:
    return [t for s in line for t in s]


def _line_facing(line: list[list[_T]]) -> int | None:
    """The way a line's tiles face, along its longest segment."""
    return _facing(_tiles_of(line), _axis(max(line, key=len)))


def _length(line: list[list[_T]]) -> float:
    """The median tile's length along its long side: how near the camera the line lies."""
    return statistics.median(max(t.x2 - t.x1, t.y2 - t.y1) for t in _tiles_of(line))


def _laid_down(line: list[list[_T]]) -> bool:
    """Whether a line, turned to face the camera, reads as a whole hand (13 or 14 tiles, a meld counted as three)
    with a called meld: a hand of two or three melds shows a row of seven or four, as short as a pond's, and its
    count and called tiles are what tell it. A pond row holds six, a wall's row is backs, and a hand's own melds
    laid apart make no count of a hand."""
    return sum(map(len, line)) >= WHOLE and whole_hand(hand := _hand(line, [], [], [])[0]) and any(
        m.kind != "closed-kan" for m in hand.melds)


def _same_way_hands(lines: list[list[list[_T]]], hand_like: list[bool], best: int, tiles: list[SeenTile],
                    width: float, height: float) -> list[int]:
    """The hand rows among `lines` facing the way the `best` one does, it first; only it when no other does. A
    hand row is a straight row of ten upright faces (`hand_like`), which no pond row or wall is, or a line that
    reads as a whole hand with called melds (`_laid_down`, in the frame the line faces), at most ALIKE times the
    other's tile length and APART tile lengths from it."""
    way = _line_facing(lines[best])
    if way is None:
        return [best]
    laid_down: dict[int, bool] = {}

    def meld_hand(k: int) -> bool:
        if k not in laid_down:
            turned = iter(_turn([tiles[t.i] for t in _tiles_of(lines[k])], way // 90, width, height))
            laid_down[k] = _laid_down([[dataclasses.replace(next(turned), i=t.i) for t in s] for s in lines[k]])
        return laid_down[k]

    def alike_apart(k: int) -> bool:
        a, b = sorted((_length(lines[k]), _length(lines[best])))
        ours, theirs = _tiles_of(lines[best]), _tiles_of(lines[k])
        gap = min(math.dist((t.cx, t.cy), (u.cx, u.cy)) for t in ours for u in theirs)
        return b <= ALIKE * a and gap >= APART * b

    def second(k: int) -> bool:  # the cheap tests first: most pictures show one hand
        if hand_like[k] and hand_like[best]:
            return _line_facing(lines[k]) == way
        return sum(map(len, lines[k])) >= WHOLE and _line_facing(lines[k]) == way and alike_apart(k) and meld_hand(k)

    found = [k for k in range(len(lines)) if k != best and second(k)]
    return [best, *found] if found and (hand_like[best] or meld_hand(best)) else [best]


def _nearest_hand(lines: list[list[list[_T]]], hands: list[int]) -> int:
    """Of hand rows facing alike, the one nearest the camera: the one whose tiles are longer by LARGER (perspective
    makes nearer tiles larger), else among those as large the one nearest its owner's edge of the picture (a photo is
    taken from the hand's side)."""
    def edge(k: int) -> float:
        return _outward(_tiles_of(lines[k]), SEAT_FACING.get(_line_facing(lines[k]) or 0, 0))

    largest = max(_length(lines[k]) for k in hands)
    return max((k for k in hands if LARGER * _length(lines[k]) >= largest), key=edge)


def _nearer_other(dora: list[_T], hand: list[_T], others: list[list[_T]]) -> bool:
    """Whether the dora indicators lie nearer another hand than the one read (the other picture's dead wall)."""
    def centre(ts: list[_T]) -> tuple[float, float]:
        return sum(t.cx for t in ts) / len(ts), sum(t.cy for t in ts) / len(ts)

    def gap(ts: list[_T]) -> float:
        return min(math.dist(centre(dora), (t.cx, t.cy)) for t in ts)

    return bool(dora and hand) and any(gap(o) < gap(hand) for o in others if o)


def two_hands_note(n: int) -> str:
    """The warning for a picture of two hands, the other's `n` tiles left out."""
    return (f"{TWO_HANDS}, facing the same way: read the one nearest the camera; the other's {n} tiles are left out "
            "(photograph one hand at a time)")

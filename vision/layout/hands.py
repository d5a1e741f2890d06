"""Two hands in one picture facing the same way: two winning hands photographed together (side by side, one above
the other). At a table a hand laid down faces its owner, so a second hand there (a double ron, a tenpai hand shown
at a draw) faces another way and is left to the ponds' reading; two facing alike are two pictures' worth. The one
nearest the camera is read, and the dora indicators only when they lie nearer it than the other hand.
"""

from __future__ import annotations

import math
import statistics

from vision.layout.rows import _T, SEAT_FACING, _axis, _facing, _outward

TWO_HANDS = "two hands in view"  # the warning's words
LARGER = 1.1  # a hand whose tiles are this much longer than the other's is the nearer, wherever it lies


def _same_way_hands(lines: list[list[list[_T]]], hand_like: list[bool], best: int) -> list[int]:
    """The hand rows among `lines` (`hand_like`: a straight row of ten upright faces, which no pond row or wall is)
    facing the way the `best` one does, it first; only it when no other does."""
    def facing(k: int) -> int | None:
        return _facing([t for s in lines[k] for t in s], _axis(max(lines[k], key=len)))

    way = facing(best)
    if not hand_like[best] or way is None:
        return [best]
    return [best, *(k for k in range(len(lines)) if k != best and hand_like[k] and facing(k) == way)]


def _nearest_hand(lines: list[list[list[_T]]], hands: list[int]) -> int:
    """Of hand rows facing alike, the one nearest the camera: the one whose tiles are longer by LARGER (perspective
    makes nearer tiles larger), else among those as large the one nearest its owner's edge of the picture (a photo is
    taken from the hand's side)."""
    def size(k: int) -> float:
        return statistics.median(max(t.x2 - t.x1, t.y2 - t.y1) for s in lines[k] for t in s)

    def edge(k: int) -> float:
        tiles = [t for s in lines[k] for t in s]
        seat = SEAT_FACING.get(_facing(tiles, _axis(max(lines[k], key=len))) or 0, 0)
        return _outward(tiles, seat)

    largest = max(size(k) for k in hands)
    return max((k for k in hands if LARGER * size(k) >= largest), key=edge)


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

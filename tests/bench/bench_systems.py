"""Hands per second for Zung Jung (our engine) and MCR (PyMahjongGB plus our wrapper) on random winning hands.

    .venv/bin/python tests/bench/bench_systems.py [--hands 3000] [--seed 1]

The hands are four random sets (a quarter of them called, every quad declared) and a pair, the winning
tile one of the concealed tiles; each is scored as a discard win with the Zung Jung and the MCR engine.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from table.hand import Hand, Meld  # noqa: E402
from table.tiles import Tile  # noqa: E402
from table.zungjung import ZungJungWin, score_zungjung  # noqa: E402


def random_hand(rng: random.Random) -> Hand:
    counts: Counter = Counter()
    concealed: list[int] = []
    melds: list[Meld] = []
    sets = 0
    while sets < 4:
        shape = rng.choice(("seq", "seq", "seq", "triplet", "triplet", "quad"))
        if shape == "seq":
            start = rng.randrange(3) * 9 + rng.randrange(7)
            kinds = [start, start + 1, start + 2]
        else:
            kinds = [rng.randrange(34)] * (3 if shape == "triplet" else 4)
        if any(counts[k] + kinds.count(k) > 4 for k in kinds):
            continue
        counts.update(kinds)
        sets += 1
        if shape == "quad":
            melds.append(Meld(rng.choice(("kan", "closed-kan")), tuple(Tile(k) for k in kinds)))
        elif rng.random() < 0.25:
            melds.append(Meld("chi" if shape == "seq" else "pon", tuple(Tile(k) for k in kinds), "left"))
        else:
            concealed += kinds
    pair = rng.choice([k for k in range(34) if counts[k] <= 2])
    concealed += [pair, pair]
    win = rng.choice(concealed)
    concealed.remove(win)
    return Hand(tuple(Tile(k) for k in sorted(concealed)), Tile(win), tuple(melds))


def rate(score, hands: list[Hand], repeat: int = 3) -> tuple[float, float]:
    """Best-of-`repeat` hands/s, and the median microseconds of one hand in the best run."""
    best, per_hand = 0.0, []
    for _ in range(repeat):
        times = []
        for hand in hands:
            start = time.perf_counter()
            score(hand)
            times.append(time.perf_counter() - start)
        total = sum(times)
        if len(hands) / total > best:
            best, per_hand = len(hands) / total, times
    return best, statistics.median(per_hand) * 1e6


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--hands", type=int, default=3000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    hands = [random_hand(rng) for _ in range(args.hands)]
    zj_rate, zj_median = rate(lambda h: score_zungjung(h, ZungJungWin()), hands)
    print(f"hands        {len(hands)} random winning hands (seed {args.seed})")
    print(f"zungjung     {zj_rate:,.0f} hands/s (median {zj_median:.0f} us/hand)")
    from table.mcr import MCRWin, mcr_available, score_mcr

    if mcr_available():
        mcr_rate, mcr_median = rate(lambda h: score_mcr(h, MCRWin()), hands)
        print(f"mcr          {mcr_rate:,.0f} hands/s (median {mcr_median:.0f} us/hand)")
    else:
        print("mcr          skipped: PyMahjongGB (jantaku[mcr]) is not installed")
    return 0


if __name__ == "__main__":
    sys.exit(main())

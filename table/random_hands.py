"""Random complete hands that can physically exist, for the scoring benchmark and property tests.

Mix (as in scoring-engines.md §1.4): about 4 % thirteen orphans, 8 % seven pairs, the rest four
groups and a pair with 0-4 called melds or closed kans; one dora indicator plus one per kan, ura
indicators when in riichi; random winds, tsumo/ron, riichi, ippatsu, honba and sticks. Many of these
hands have no yaku (open hands without one): they are still legal questions for the scorer.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from table.hand import Hand, Meld
from table.hand_rules import HandRules
from table.scoring import Situation
from table.tiles import WIND_LETTERS, Tile

_ORPHANS = (0, 8, 9, 17, 18, 26, 27, 28, 29, 30, 31, 32, 33)
_FIVES = (4, 13, 22)


@dataclass(frozen=True, slots=True)
class RandomHand:
    hand: Hand
    situation: Situation


def _groups(rng: random.Random, counts: list[int]) -> list[tuple[str, int]] | None:
    groups: list[tuple[str, int]] = []
    for _ in range(4):
        for _attempt in range(50):
            if rng.random() < 0.6:
                k = rng.randrange(27)
                if k % 9 > 6 or any(counts[k + i] >= 4 for i in range(3)):
                    continue
                for i in range(3):
                    counts[k + i] += 1
                groups.append(("chi", k))
            else:
                k = rng.randrange(34)
                if counts[k] > 1:
                    continue
                counts[k] += 3
                groups.append(("pon", k))
            break
        else:
            return None
    return groups


def random_hand(rng: random.Random, rules: HandRules) -> RandomHand:
    """One random complete hand with a consistent situation, legal under `rules`."""
    while True:
        made = _try_hand(rng, rules)
        if made is not None:
            return made


def _try_hand(rng: random.Random, rules: HandRules) -> RandomHand | None:
    counts = [0] * 34
    melds_spec: list[tuple[str, list[int]]] = []  # kind, tile kinds
    concealed: list[int] = []
    roll = rng.random()
    if roll < 0.04:
        concealed = list(_ORPHANS) + [rng.choice(_ORPHANS)]
    elif roll < 0.12:
        kinds = rng.sample(range(34), 7)
        concealed = [k for k in kinds for _ in range(2)]
    else:
        groups = _groups(rng, counts)
        if groups is None:
            return None
        pair = rng.randrange(34)
        if counts[pair] > 2:
            return None
        counts[pair] += 2
        n_called = rng.choice((0, 0, 0, 1, 1, 2, 3, 4))
        for i, (g, k) in enumerate(groups):
            if i < n_called:
                if g == "chi":
                    melds_spec.append(("chi", [k, k + 1, k + 2]))
                    continue
                if counts[k] < 4 and rng.random() < 0.15:
                    counts[k] += 1
                    melds_spec.append((rng.choice(("kan", "added-kan", "closed-kan")), [k] * 4))
                else:
                    melds_spec.append(("pon", [k] * 3))
            elif g == "pon" and counts[k] < 4 and rng.random() < 0.05:
                counts[k] += 1
                melds_spec.append(("closed-kan", [k] * 4))
            else:
                concealed += [k, k + 1, k + 2] if g == "chi" else [k] * 3
        concealed += [pair, pair]
    counts = [0] * 34
    for k in concealed:
        counts[k] += 1
    for _, ks in melds_spec:
        for k in ks:
            counts[k] += 1
    n_kans = sum(1 for kind, _ in melds_spec if kind != "chi" and kind != "pon")
    closed = all(kind == "closed-kan" for kind, _ in melds_spec)
    tsumo = rng.random() < 0.4
    riichi = closed and rng.random() < 0.4
    double_riichi = riichi and rng.random() < 0.05
    ippatsu = riichi and not melds_spec and rng.random() < 0.2
    rinshan = tsumo and n_kans > 0 and rng.random() < 0.2
    n_dora = 1 + n_kans
    indicators: list[int] = []
    for _ in range(n_dora * (2 if riichi else 1)):
        free = [k for k in range(34) if counts[k] < 4]
        k = rng.choice(free)
        counts[k] += 1
        indicators.append(k)
    # red fives: a suit showing more plain fives than the set has must show its red one(s)
    slots: list[list[int]] = [concealed, *(ks for _, ks in melds_spec), indicators]
    red_positions: set[tuple[int, int]] = set()
    for suit, five in enumerate(_FIVES):
        allowed = rules.red_fives[suit]
        positions = [(si, i) for si, seq in enumerate(slots) for i, k in enumerate(seq) if k == five]
        need = max(0, len(positions) - (4 - allowed))
        want = min(allowed, len(positions), max(need, rng.randint(0, 1)))
        red_positions.update(rng.sample(positions, want))

    def tiles_of(si: int) -> list[Tile]:
        return [Tile(k, (si, i) in red_positions) for i, k in enumerate(slots[si])]

    hand_tiles = tiles_of(0)
    win = hand_tiles.pop(rng.randrange(len(hand_tiles)))
    melds = []
    for mi, (kind, _) in enumerate(melds_spec):
        source = rng.choice(("left", "across", "right")) if kind != "chi" else "left"
        if kind == "closed-kan":
            source = None
        melds.append(Meld(kind, tuple(tiles_of(mi + 1)), source))
    ind_tiles = tiles_of(len(slots) - 1)
    dora, ura = ind_tiles[:n_dora], ind_tiles[n_dora:]
    seat = rng.randrange(4)
    situation = Situation(
        tsumo=tsumo,
        riichi=riichi and not double_riichi,
        double_riichi=double_riichi,
        ippatsu=ippatsu,
        rinshan=rinshan,
        haitei=tsumo and not rinshan and rng.random() < 0.03,
        houtei=not tsumo and rng.random() < 0.03,
        seat_wind=seat,
        round_wind=rng.randrange(2),
        dora_indicators=tuple(dora),
        ura_indicators=tuple(ura),
        honba=rng.choice((0, 0, 0, 1, 2)),
        riichi_sticks=rng.choice((0, 0, 1, 2)),
    )
    rng.shuffle(hand_tiles)
    return RandomHand(Hand(tuple(hand_tiles), win, tuple(melds)), situation)


def to_jsonl_input(item: RandomHand, rules_name: str) -> dict[str, object]:
    """The `jantaku score --jsonl` input object for a random hand."""
    s = item.situation
    out = item.hand.notation()
    out.update(
        dora=[str(t) for t in s.dora_indicators],
        ura=[str(t) for t in s.ura_indicators],
        tsumo=s.tsumo,
        riichi=s.riichi,
        double_riichi=s.double_riichi,
        ippatsu=s.ippatsu,
        rinshan=s.rinshan,
        haitei=s.haitei,
        houtei=s.houtei,
        seat=WIND_LETTERS[s.seat_wind],
        round=WIND_LETTERS[s.round_wind],
        honba=s.honba,
        riichi_sticks=s.riichi_sticks,
        rules=rules_name,
    )
    return out


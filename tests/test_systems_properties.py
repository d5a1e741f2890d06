"""Properties of Zung Jung and MCR scoring over many generated hands (hypothesis).

The two engines are independent (ours for Zung Jung, the C++ calculator for MCR), and every shape Zung Jung
accepts as a win (four sets and a pair, Seven Pairs, Thirteen Orphans) is an MCR winning shape too, so
they must agree on which hands are complete, except MCR's extra knitted shapes, which Zung Jung rejects.
"""

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from table.hand import Hand, Meld
from table.tiles import Tile
from table.zungjung import LIMIT, PATTERNS, ZungJungRules, ZungJungWin, possible_totals, score_zungjung

MahjongGB = pytest.importorskip("MahjongGB", reason="PyMahjongGB (the jantaku[mcr] extra) is not installed")

from table.mcr import MCRWin, score_mcr  # noqa: E402

SINGLE_SERIES_EXEMPT = {"3.1"}


@st.composite
def winning_hands(draw):
    """Four sets (some called) and a pair, never more than four of a tile; the winning tile is one of the
    concealed ones."""
    counts: Counter = Counter()
    groups: list[tuple[str, int]] = []
    while len(groups) < 4:
        shape = draw(st.sampled_from(["seq", "seq", "seq", "triplet", "triplet", "quad"]))
        if shape == "seq":
            suit, start = draw(st.integers(0, 2)), draw(st.integers(0, 6))
            kinds = [suit * 9 + start + i for i in range(3)]
        else:
            kinds = [draw(st.integers(0, 33))] * (3 if shape == "triplet" else 4)
        if all(counts[k] + kinds.count(k) <= 4 for k in kinds):
            counts.update(kinds)
            groups.append((shape, kinds[0]))
    pair = draw(st.integers(0, 33).filter(lambda k: counts[k] <= 2))
    concealed = [pair, pair]
    melds = []
    for shape, kind in groups:
        called = shape == "quad" or draw(st.integers(0, 3)) == 0  # mostly concealed
        if shape == "seq":
            tiles = [kind, kind + 1, kind + 2]
            if called:
                melds.append(Meld("chi", tuple(Tile(k) for k in tiles), "left"))
            else:
                concealed += tiles
        elif shape == "triplet":
            if called:
                melds.append(Meld("pon", (Tile(kind),) * 3, "across"))
            else:
                concealed += [kind] * 3
        else:
            melds.append(Meld(draw(st.sampled_from(["kan", "closed-kan", "added-kan"])), (Tile(kind),) * 4,
                              None))
    win = draw(st.sampled_from(concealed))
    concealed.remove(win)
    return Hand(tuple(Tile(k) for k in sorted(concealed)), Tile(win), tuple(melds))


@settings(max_examples=300, deadline=None)
@given(winning_hands(), st.booleans(), st.integers(0, 3))
def test_zungjung_scores_every_complete_hand_within_the_rules(hand, self_drawn, seat):
    result = score_zungjung(hand, ZungJungWin(self_drawn=self_drawn, seat_wind=seat))
    assert result.valid, result.error
    assert 1 <= result.total <= max(LIMIT, max(p.points for p in result.patterns))
    for p in result.patterns:
        assert p.code == "" or PATTERNS[p.code][1] == p.points
    series = Counter(p.code.rsplit(".", 1)[0] if p.code.count(".") == 2 else p.code for p in result.patterns)
    assert all(n == 1 for s, n in series.items() if s not in SINGLE_SERIES_EXEMPT)
    if result.limit == "single":
        assert len(result.patterns) == 1 and result.patterns[0].points >= LIMIT


@settings(max_examples=300, deadline=None)
@given(winning_hands(), st.booleans(), st.integers(0, 3), st.booleans(),
       st.sets(st.sampled_from([Tile(k) for k in range(34, 42)])))
def test_every_zungjung_value_is_one_the_game_accepts(hand, self_drawn, seat, last_tile, bonus):
    """The values game keeping accepts typed by hand (`possible_totals`) hold every value a scored hand has,
    with bonus tiles or without."""
    result = score_zungjung(hand, ZungJungWin(self_drawn=self_drawn, seat_wind=seat, last_tile=last_tile,
                                              bonus=tuple(sorted(bonus))), ZungJungRules(bonus_tiles=bool(bonus)))
    assert result.total in possible_totals(), (hand, [(p.code, p.points) for p in result.patterns])


@settings(max_examples=300, deadline=None)
@given(winning_hands(), st.integers(0, 33))
def test_zungjung_and_the_mcr_calculator_agree_on_complete_hands(hand, replacement):
    # Swap the winning tile for another kind: sometimes still a win, mostly not.
    if sum(1 for t in hand.all_tiles() if t.kind == replacement) >= 4 and hand.win.kind != replacement:
        return
    changed = Hand(hand.concealed, Tile(replacement), hand.melds)
    zj = score_zungjung(changed, ZungJungWin())
    mcr = score_mcr(changed, MCRWin())
    mcr_complete = mcr.valid or bool(mcr.fans)
    if zj.valid:
        assert mcr_complete
    knitted = {20, 34, 35}  # MCR-only shapes: honours and knitted tiles, knitted straight
    if mcr_complete and not knitted & {f.number for f in mcr.fans}:
        assert zj.valid, (changed, [f.name for f in mcr.fans])


"""A Zung Jung or MCR win scored from its tiles in the middle of a game, as the event's `Win`.

The game supplies what the tiles cannot show: the winner's seat wind and, for MCR, the table wind;
the preset supplies the minimum to win and the payoff scheme. The CLI (`jantaku game ron/tsumo` with
`--hand`) and any other caller (the web page, the panel) get the same `Win`, so a hand entered either
way replays to the same score.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from table.errors import InputError
from table.events import Win


def scored_win(state: Any, seat: int, concealed: str, win: str, melds: Sequence[str] = (), *, tsumo: bool,
               flowers: str = "", last_tile: bool = False, replacement: bool = False, robbing_quad: bool = False,
               heaven: bool = False, earth: bool = False, last_of_kind: bool = False) -> Win:
    """Score the tiles with the game's system (`state.rules.system`: zungjung or mcr) and return the Win
    with its value and patterns; InputError with the reason when the tiles are impossible or do not win.

    Flags: `last_tile` (ZJ 9.1, MCR 44/45), `replacement` (ZJ 9.2, MCR 46), `robbing_quad` (ZJ 9.3, MCR 47),
    `heaven` / `earth` (ZJ 9.4 only), `last_of_kind` (MCR 58 only). `flowers`: declared 1f-4f / 1g-4g.
    """
    from table.hand import parse_hand
    from table.presets import get_preset
    from table.systems_cli import _score
    from table.tiles import parse_tiles, to_mpsz

    system = state.rules.system
    if system not in ("zungjung", "mcr"):
        raise InputError(f"the {state.preset} rules are riichi: score the hand with table.scoring")
    if system == "mcr" and (heaven or earth):
        raise InputError("MCR has no blessings of heaven or earth")
    if system == "zungjung" and last_of_kind:
        raise InputError("last of its kind (58 Last Tile) is an MCR pattern; Zung Jung has no such pattern")
    name = state.players[seat]
    try:
        hand = parse_hand(concealed, win, list(melds))
        bonus = tuple(parse_tiles(flowers or "", allow_bonus=True))
        if any(t.kind < 34 for t in bonus):
            raise InputError(f"flowers are 1f-4f and seasons 1g-4g only, not {flowers!r}")
        result, _ = _score(
            system, hand, self_drawn=tsumo, seat=state.seat_winds[seat], round_wind=state.round_wind, flowers=bonus,
            last_tile=last_tile, replacement=replacement, robbing_quad=robbing_quad, heaven=heaven, earth=earth,
            last_of_kind=last_of_kind, minimum=get_preset(state.preset).hand.win_minimum,
            payoff=state.rules.zungjung_payoff, halve_bonus=False,
        )
    except InputError as exc:
        raise InputError(f"{name}'s hand: {exc}") from None
    if not result.valid:
        raise InputError(f"{name}'s hand does not win: {result.error}")
    if system == "zungjung":
        patterns = tuple((f"{p.code} {p.name}".strip(), p.points) for p in result.patterns)
    else:
        patterns = tuple((f"{f.number} {f.name}" + (f" x{f.count}" if f.count > 1 else ""), f.total)
                         for f in result.fans)
    text = " ".join([concealed, win, *melds] + ([to_mpsz(bonus)] if bonus else []))
    return Win(seat, value=result.total, patterns=patterns, hand=text)

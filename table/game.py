"""The pure reducer: `state = fold(events)`, `apply(state, event)`.

No I/O and no clock: the same events always give the same state, so the store, the web page, the
panel and a replayed file all agree. `apply` raises InputError when an event makes no sense in the
state it meets (a ron by the discarder, a second riichi, anything after the game ended); the caller's
log is then left as it was.

Money flow follows the preset's `GameRules` (`table.game_rules`): honba (counters), riichi sticks on
the table (kyoutaku), tenpai payments (noten bappu), dealer repeats (renchan), head bump (atamahane),
liability (pao), chombo, busting (tobi), agari-yame, the West-round extension, and the final
settlement with uma, oka and the tie rule.

Zung Jung and MCR games (`GameRules.system`) go through the same events: a win carries the hand's value
(points, fan), priced by `table.zungjung.zungjung_payoff` (with same-round immunity) or
`table.mcr.mcr_payment`; the deal passes after every hand, a draw pays nothing, the game is four
rotations (16 hands), and the riichi-only events (riichi, pao, chombo, abortive draws, tenpai at a draw)
are refused with the reason.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields, replace
from fractions import Fraction
from typing import Any

from table.errors import InputError
from table.events import (
    MAX_POINTS,
    AbortiveDraw,
    Adjustment,
    Chombo,
    Event,
    ExhaustiveDraw,
    GameEnded,
    GameStarted,
    HandValue,
    Pao,
    Penalty,
    Redo,
    RiichiDeclared,
    Ron,
    Tsumo,
    Undo,
    Win,
)
from table.game_rules import ABORTIVE_REASONS, GAME_RULES, GameRules
from table.mcr import mcr_payment
from table.names import check_reason
from table.tiles import HONOR_NAMES
from table.zungjung import PAR, impossible_total, zungjung_payoff
from table.zungjung import PATTERNS as ZUNGJUNG_PATTERNS

WIND_NAMES = HONOR_NAMES[:4]
SYSTEM_TITLES = {"riichi": "Riichi", "zungjung": "Zung Jung", "mcr": "MCR"}
A_SYSTEM = {"riichi": "a riichi", "zungjung": "a Zung Jung", "mcr": "an MCR"}
VALUE_UNITS = {"zungjung": "points", "mcr": "fan"}
ZUNGJUNG_MAX = max(points for _, points in ZUNGJUNG_PATTERNS.values())
"""No Zung Jung hand is worth more than its biggest pattern (a pattern of 320 or more scores alone)."""


def round_label(system: str, round_wind: int, hand_number: int) -> str:
    """"East 3" (riichi, MCR: the table wind and the dealer's turn in it), or "Hand 7" for Zung Jung,
    which has no table wind: its 16 hands are numbered."""
    if system == "zungjung":
        return f"Hand {round_wind * 4 + hand_number}"
    return f"{WIND_NAMES[round_wind]} {hand_number}"
MANGAN_BASE = 2000
YAKUMAN_BASE = 8000


@dataclass(frozen=True, slots=True)
class Standing:
    """One seat's final result, in the parts a club's score sheet shows: `raw` final points, `above_return` their
    difference from the return points (genten; negative below it), `uma`, `oka` (first place's bonus) and
    `penalty`, which add up to `net_points`; `net` is `net_points / unit` (e.g. +31.2 for 31200 points)."""

    seat: int
    name: str
    rank: int
    raw: int
    above_return: int
    uma: int
    oka: int
    penalty: int
    net_points: int
    net: float

    def to_json(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "name": self.name, "rank": self.rank, "raw": self.raw,
            "above_return": self.above_return, "uma": self.uma, "oka": self.oka, "penalty": self.penalty,
            "net_points": self.net_points, "net": self.net,
        }


@dataclass(frozen=True, slots=True)
class HandResult:
    """What one finished hand did: where it was played, how it ended, and who paid what.

    `number` counts results from 1 (a chombo gets its own number), so (game, number) names a hand for good.
    `deltas` is each seat's change in this result (sticks won included; riichi deposits were paid before).
    """

    number: int
    round_wind: int
    hand_number: int
    honba: int
    kind: str
    deltas: tuple[int, int, int, int]
    points: tuple[int, int, int, int]
    winners: tuple[int, ...] = ()
    discarder: int | None = None
    bumped: tuple[int, ...] = ()
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    dead: tuple[int, ...] = ()
    """Seats with a dead hand at a draw: noten, and no chombo for a riichi among them."""
    reason: str = ""
    wins: tuple[Win, ...] = ()
    offender: int | None = None
    system: str = "riichi"
    counters: bool = True
    """Whether honba count under the preset (not under USPML, Zung Jung or MCR): the hand is named with its own."""
    first_discarder: int | None = None
    """Zung Jung same-round immunity: who first discarded the winning tile (None: not given, or moot because
    everybody pays the value: the uniform payoff, or a hand of 25 points or less)."""
    riichi_discard: bool = False
    """The ron was on the discarder's riichi declaration tile: that riichi did not stand, its stick went back."""
    deposits: tuple[int, int, int, int] = (0, 0, 0, 0)
    """Each seat's riichi deposit put down during this hand (paid before `deltas`; a stick given back is in them)."""

    @property
    def changes(self) -> tuple[int, ...]:
        """Each seat's change over the whole hand, its riichi deposits included, as the record's row (`hand_rows`)
        gives it: a stick lost reads -1,000, a winner's own stick back is no gain."""
        return tuple(d - p for d, p in zip(self.deltas, self.deposits, strict=True))

    @property
    def round_name(self) -> str:
        return round_label(self.system, self.round_wind, self.hand_number)

    @property
    def where(self) -> str:
        """The hand's name: its round and, where they count, its honba ("East 1-0"; Zung Jung: "Hand 1")."""
        return f"{self.round_name}-{self.honba}" if self.counters else self.round_name

    def summary(self, players: Sequence[str]) -> str:
        """One line for people: "East 1-0: ron, Bob from Cid" (Zung Jung, MCR: no counter: "Hand 1: ...")."""
        where = self.where
        if self.kind == "ron":
            names = ", ".join(players[s] for s in self.winners)
            text = f"ron, {names} from {players[self.discarder or 0]}"
            if self.bumped:
                head = "head bump" if self.system == "riichi" else "interception"
                text += f" ({head} over {', '.join(players[s] for s in self.bumped)})"
            first = self.first_discarder
            if first is not None and first != self.discarder:
                who = "nobody" if first in self.winners else players[first]
                text += f" (same-round immunity: {who} responsible)"
            if self.riichi_discard:
                text += f" (on {players[self.discarder or 0]}'s riichi tile: no riichi, the stick goes back)"
            if self.system != "riichi":
                text += f", {_values(self.wins, self.winners, self.system)}"
        elif self.kind == "tsumo" and self.system != "riichi":
            text = f"tsumo, {players[self.winners[0]]}, {_values(self.wins, self.winners, self.system)}"
        elif self.kind == "tsumo":
            text = f"tsumo, {players[self.winners[0]]}"
        elif self.kind == "draw" and self.system != "riichi":
            text = "draw"
        elif self.kind == "draw":
            text = "draw, tenpai: " + (", ".join(players[s] for s in self.tenpai) or "none")
            if self.nagashi:
                text += "; nagashi mangan: " + ", ".join(players[s] for s in self.nagashi)
            if self.dead:
                text += "; dead hand: " + ", ".join(players[s] for s in self.dead)
        elif self.kind == "chombo":
            text = f"chombo, {players[self.offender or 0]}"
        else:
            text = f"abortive draw ({self.reason})"
        return f"{where}: {text}"

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number, "round": self.round_name, "honba": self.honba, "kind": self.kind,
            "deltas": list(self.deltas), "changes": list(self.changes), "points": list(self.points),
            "winners": list(self.winners),
            "discarder": self.discarder, "bumped": list(self.bumped), "tenpai": list(self.tenpai),
            "nagashi": list(self.nagashi), "dead": list(self.dead), "reason": self.reason,
            "wins": [w.to_json() for w in self.wins],
            "offender": self.offender, "first_discarder": self.first_discarder, "riichi_discard": self.riichi_discard,
        }


def _values(wins: Sequence[Win], winners: Sequence[int], system: str) -> str:
    """"30 points" / "12 fan" of the scoring win."""
    win = next((w for w in wins if w.seat in winners), None)
    return value_text(win.value if win else 0, system)


def value_text(value: int, system: str) -> str:
    """A hand's value with its unit: "30 points", "1 point", "12 fan"."""
    unit = VALUE_UNITS.get(system, "points")
    return f"{value} {unit.rstrip('s') if value == 1 else unit}"


@dataclass(frozen=True, slots=True)
class GameState:
    """The whole score of a game at one moment. Build it with `fold`; never mutate it."""

    players: tuple[str, str, str, str]
    preset: str
    rules: GameRules
    started_at: str | None
    points: tuple[int, int, int, int]
    dealer: int
    round_wind: int
    honba: int
    pot: int
    """Points on the table waiting for the next winner: riichi deposits (and the USPML draw pool)."""
    riichi: tuple[bool, bool, bool, bool]
    """Who has declared riichi in the hand being played."""
    pao: tuple[tuple[int, int], ...]
    """(winner, liable seat) pairs declared in the hand being played."""
    penalties: tuple[int, int, int, int]
    """End-of-game deductions so far (chombo under presets that settle it at the end), as negative points."""
    hands_played: int
    """Hands finished (a chombo's redeal does not count, as the rule books say)."""
    results: int
    """Hand results recorded, chombo included: `HandResult.number` of the latest one."""
    last_hand: HandResult | None
    over: bool
    over_reason: str | None
    standings: tuple[Standing, ...]
    events: int
    adjustment: tuple[tuple[int, int, int, int], str] | None = None
    """The latest adjustment's amounts and reason, until the next hand ends: what the table sees last."""
    fouls: tuple[tuple[int, int, str], ...] = ()
    """Each penalty recorded as one (a chombo is a hand of its own): the seat, the points it costs, the reason."""

    @property
    def hand_number(self) -> int:
        return self.dealer + 1

    @property
    def round_name(self) -> str:
        return round_label(self.rules.system, self.round_wind, self.hand_number)

    @property
    def system(self) -> str:
        """"riichi", "zungjung" or "mcr": what prices a win and which events make sense."""
        return self.rules.system

    @property
    def seat_winds(self) -> tuple[int, int, int, int]:
        """Seat wind per seat, 0..3 = E S W N (jikaze): in the hand being played, or once the game is over in its
        last hand (the deal may have passed on after it, to a hand never played)."""
        over = self.over and self.last_hand is not None
        dealer = self.last_hand.hand_number - 1 if over else self.dealer  # type: ignore[union-attr]
        return tuple((seat - dealer) % 4 for seat in range(4))  # type: ignore[return-value]

    @property
    def riichi_sticks(self) -> int:
        """Riichi sticks on the table (kyoutaku), counting the pot in deposits."""
        return self.pot // self.rules.riichi_deposit if self.rules.riichi_deposit else 0

    @property
    def on_table(self) -> tuple[tuple[str, int], ...]:
        """What waits on the table for the next winner, by the system's name for it: riichi sticks, the USPML
        draw pool (points), or nothing (Zung Jung and MCR have neither)."""
        if self.rules.riichi_allowed:
            return (("riichi_sticks", self.riichi_sticks),)
        if self.rules.noten_pool_payment:
            return (("pool", self.pot),)
        return ()

    def to_json(self) -> dict[str, Any]:
        return {
            "players": list(self.players),
            "preset": self.preset,
            "system": self.rules.system,
            "started_at": self.started_at,
            "points": list(self.points),
            "dealer": self.dealer,
            "seat_winds": [WIND_NAMES[w] for w in self.seat_winds],
            "round_wind": None if self.rules.system == "zungjung" else WIND_NAMES[self.round_wind],
            # Zung Jung has no table wind to count within: its number is the game's, as in "Hand 7"
            "hand_number": self.round_wind * 4 + self.hand_number if self.rules.system == "zungjung"
            else self.hand_number,
            "round": self.round_name,
            "honba": self.honba,
            "riichi_sticks": self.riichi_sticks,
            "pot": self.pot,
            "riichi": list(self.riichi),
            "pao": [{"winner": w, "liable": liable} for w, liable in self.pao],
            "penalties": list(self.penalties),
            "fouls": [{"seat": seat, "points": points, "reason": reason} for seat, points, reason in self.fouls],
            "hands_played": self.hands_played,
            "results": self.results,
            "last_hand": None if self.last_hand is None else self.last_hand.to_json(),
            "over": self.over,
            "over_reason": self.over_reason,
            "standings": [s.to_json() for s in self.standings],
            "events": self.events,
        }


_STATE_FIELDS: tuple[str, ...] = tuple(f.name for f in fields(GameState))
_STATE_FIELD_SET = frozenset(_STATE_FIELDS)


def _evolve(state: GameState, **changes: Any) -> GameState:
    """`dataclasses.replace` for GameState, without its per-call introspection (the fold's hot path)."""
    if not changes.keys() <= _STATE_FIELD_SET:
        raise TypeError(f"GameState has no field(s) {sorted(changes.keys() - _STATE_FIELD_SET)}")
    new = object.__new__(GameState)
    for name in _STATE_FIELDS:
        object.__setattr__(new, name, changes[name] if name in changes else getattr(state, name))
    return new


# -- folding ------------------------------------------------------------------------------------------


def resolve(log: Iterable[Event]) -> list[Event]:
    """The events still in effect once every Undo and Redo in `log` is played out.

    Undo takes back the latest event in effect (never the game start); Redo puts back what the latest
    undo took, until a new event is recorded. InputError when there is nothing to undo or redo.
    """
    stack: list[Event] = []
    undone: list[Event] = []
    for event in log:
        if isinstance(event, Undo):
            if len(stack) <= 1:
                raise InputError("nothing to undo: only the game start is recorded")
            undone.append(stack.pop())
        elif isinstance(event, Redo):
            if not undone:
                raise InputError("nothing to redo")
            stack.append(undone.pop())
        else:
            stack.append(event)
            undone.clear()
    return stack


def fold(events: Iterable[Event], *, as_new: bool = False) -> GameState:
    """Fold a log (game start first; Undo/Redo allowed) into the current state. `as_new` also makes the checks
    of an event being recorded (`check_new`: a Zung Jung value no hand adds up to ...), for a file a person wrote,
    which the store's old logs skip so that they still load."""
    effective = resolve(events)
    if not effective:
        raise InputError("a game starts with a game_started event; the log is empty")
    state = start(effective[0])
    for index, event in enumerate(effective[1:], start=2):
        try:
            if as_new:
                check_new(state, event)
            state = apply(state, event)
        except InputError as exc:
            raise InputError(f"event {index} ({event.type}): {exc}") from None
    return state


def history(events: Iterable[Event]) -> list[GameState]:
    """The state after every event in effect (the first is the fresh game): for charts and CSV rows."""
    effective = resolve(events)
    if not effective:
        raise InputError("a game starts with a game_started event; the log is empty")
    states = [start(effective[0])]
    for event in effective[1:]:
        states.append(apply(states[-1], event))
    return states


@dataclass(frozen=True, slots=True)
class HandRow:
    """One line of a game's record (the CSV and JSON exports, the history page): a finished hand (chombo included),
    an adjustment, or the game's end. `changes` is each seat's change since the row before, a hand's riichi
    deposits included, so that they add up from the starting points to `state.points`."""

    kind: str  # "hand", "adjustment", "penalty" or "end"
    state: GameState  # after the row
    changes: tuple[int, ...]

    @property
    def hand(self) -> HandResult | None:
        return self.state.last_hand if self.kind == "hand" else None

    @property
    def round_name(self) -> str:
        return self.hand.round_name if self.hand else self.state.round_name

    @property
    def honba(self) -> int:
        return self.hand.honba if self.hand else self.state.honba

    def result(self, players: Sequence[str]) -> str:
        """The row in words: "ron, Bob from Cid", "adjustment", "penalty, Bob -10000 at the end: late", "game over
        (...)"."""
        if self.hand:
            return self.hand.summary(players).split(": ", 1)[1]
        if self.kind == "penalty":
            seat, points, reason = self.state.fouls[-1]
            return f"penalty, {players[seat]} -{points} at the end: {reason}"
        return f"game over ({self.state.over_reason})" if self.kind == "end" else "adjustment"


def hand_rows(states: Sequence[GameState]) -> list[HandRow]:
    """The rows of a game's record from `history`: a riichi deposit or a pao declaration is no row of its own; a
    penalty is, changing no score until the end."""
    rows = []
    base = states[0].points  # the score after the latest row
    for previous, state in itertools.pairwise(states):
        hand = state.last_hand
        if hand is not previous.last_hand and hand is not None:
            kind, since = "hand", base
        elif state.fouls != previous.fouls:
            kind, since = "penalty", base
        elif state.over and not previous.over:
            kind, since = "end", base
        elif state.points != previous.points and state.riichi == previous.riichi:
            kind, since = "adjustment", previous.points
        else:
            continue
        changes = tuple(a - b for a, b in zip(state.points, since, strict=True))
        base = tuple(b + d for b, d in zip(base, changes, strict=True))
        rows.append(HandRow(kind, state, changes))
    return rows


def start(event: Event) -> GameState:
    """The state of a fresh game."""
    if not isinstance(event, GameStarted):
        raise InputError(f"a game starts with a game_started event, not {event.type}")
    players = tuple(name.strip() for name in event.players)
    if len(players) != 4 or any(not name for name in players):
        raise InputError("a game needs four player names")
    if len({name.casefold() for name in players}) != 4:
        raise InputError(f"player names must differ: {', '.join(players)}")
    key = event.preset.strip().lower()
    if key not in GAME_RULES:
        raise InputError(f"unknown rules {event.preset!r}: choose one of {', '.join(GAME_RULES)}")
    rules = GAME_RULES[key]
    return GameState(
        players=players,  # type: ignore[arg-type]
        preset=key,
        rules=rules,
        started_at=event.started_at,
        points=(rules.starting_points,) * 4,  # type: ignore[arg-type]
        dealer=0,
        round_wind=0,
        honba=0,
        pot=0,
        riichi=(False,) * 4,  # type: ignore[arg-type]
        pao=(),
        penalties=(0, 0, 0, 0),
        hands_played=0,
        results=0,
        last_hand=None,
        over=False,
        over_reason=None,
        standings=(),
        events=1,
    )


def apply(state: GameState, event: Event) -> GameState:
    """The state after `event`, or InputError saying why the event cannot happen now."""
    if isinstance(event, (Undo, Redo)):
        raise InputError(f"{event.type} is a log operation: fold the log instead of applying it")
    if isinstance(event, GameStarted):
        raise InputError("the game has already started")
    if state.over and not isinstance(event, Penalty):  # a referee may deduct one as the game ends
        raise InputError(f"the game is over ({state.over_reason}): undo first to change it")
    handler = _HANDLERS.get(type(event))
    if handler is None:
        raise InputError(f"unknown event {event!r}")
    new = handler(state, event)
    if new is state:
        new = _evolve(state)
    object.__setattr__(new, "events", state.events + 1)  # `new` is a fresh object nobody else holds yet
    return new


# -- events within a hand -------------------------------------------------------------------------------


def _not_here(rules: GameRules, what: str) -> str:
    """Why a riichi-only event cannot be recorded in a Zung Jung or MCR game."""
    return f"{SYSTEM_TITLES[rules.system]} has no {what}: that is a riichi rule (this game uses the {rules.name} rules)"


def _riichi(state: GameState, event: RiichiDeclared) -> GameState:
    rules, seat = state.rules, event.seat
    name = state.players[seat]
    if not rules.riichi_allowed:
        if rules.system != "riichi":
            raise InputError(_not_here(rules, "riichi"))
        raise InputError(f"the {rules.name} rules have no riichi")
    if state.riichi[seat]:
        raise InputError(f"{name} has already declared riichi this hand")
    if rules.riichi_min_points is not None and state.points[seat] < rules.riichi_min_points:
        raise InputError(
            f"{name} has {state.points[seat]} points; riichi needs at least {rules.riichi_min_points} "
            f"under the {rules.name} rules"
        )
    points = list(state.points)
    points[seat] -= rules.riichi_deposit
    riichi = list(state.riichi)
    riichi[seat] = True
    return _evolve(state, points=tuple(points), pot=state.pot + rules.riichi_deposit, riichi=tuple(riichi))


def _pao(state: GameState, event: Pao) -> GameState:
    if not state.rules.pao:
        if state.rules.system != "riichi":
            raise InputError(_not_here(state.rules, "pao (liability for a yakuman)"))
        raise InputError(f"the {state.rules.name} rules have no pao (liability)")
    if event.winner == event.liable:
        raise InputError("a player cannot be liable (pao) for their own hand")
    if any(winner == event.winner for winner, _ in state.pao):
        raise InputError(f"{state.players[event.winner]} already has a liable player this hand")
    return _evolve(state, pao=state.pao + ((event.winner, event.liable),))


def _adjustment(state: GameState, event: Adjustment) -> GameState:
    if sum(event.amounts) != 0:
        raise InputError(f"adjustment amounts must sum to zero, they sum to {sum(event.amounts)}")
    if not any(event.amounts):
        raise InputError("adjustment moves no points")
    if max(map(abs, event.amounts)) > MAX_POINTS:
        raise InputError(f"an adjustment moves at most {MAX_POINTS:,} points a seat, not "
                         f"{max(map(abs, event.amounts)):,}")
    if not event.reason.strip():
        raise InputError("an adjustment needs a reason")
    points = tuple(p + a for p, a in zip(state.points, event.amounts, strict=True))
    return _evolve(state, points=points, adjustment=(tuple(event.amounts), event.reason.strip()))  # type: ignore[arg-type]


def _penalty(state: GameState, event: Penalty) -> GameState:
    """Kept apart from the points in play, as a chombo settled at the end is; a game already over is settled
    again with it."""
    if not 0 < event.points <= MAX_POINTS:
        raise InputError(f"a penalty takes 1 to {MAX_POINTS:,} points, not {event.points:,}")
    if not event.reason.strip():
        raise InputError("a penalty needs a reason")
    penalties = list(state.penalties)
    penalties[event.seat] -= event.points
    new = _evolve(state, penalties=tuple(penalties), fouls=(*state.fouls, (event.seat, event.points,
                                                                           event.reason.strip())))
    return _finish(new, new.over_reason or "") if state.over else new


def _game_ended(state: GameState, event: GameEnded) -> GameState:
    return _finish(state, event.reason.strip() or "time called")


# -- hand endings ---------------------------------------------------------------------------------------


def _one_yakuman_ron(dealer: bool) -> int:
    return YAKUMAN_BASE * (6 if dealer else 4)


def _price(state: GameState, win: Win, *, tsumo: bool) -> HandValue:
    """The hand's price without honba or sticks: flat (USPML), as recorded, or from han/fu by the preset."""
    rules = state.rules
    dealer = win.seat == state.dealer
    name = state.players[win.seat]
    fixed = rules.fixed_payments
    if fixed is not None:
        if not tsumo:
            return HandValue(ron=fixed.ron_dealer if dealer else fixed.ron_other)
        if dealer:
            return HandValue(tsumo_other=fixed.tsumo_by_dealer)
        return HandValue(tsumo_dealer=fixed.tsumo_dealer_pays, tsumo_other=fixed.tsumo_other_pays)
    if win.payment is not None:
        value = win.payment
        if tsumo and value.tsumo_other is None:
            raise InputError(f"{name}'s tsumo needs a tsumo payment, not {value.to_json()}")
        if tsumo and not dealer and value.tsumo_dealer is None:
            raise InputError(f"{name} is not the dealer: the tsumo payment needs \"tsumo_dealer\"")
        if not tsumo and value.ron is None:
            raise InputError(f"{name}'s ron needs a ron payment, not {value.to_json()}")
        return value
    if win.yakuman < 1 and win.han < 1:
        raise InputError(f"{name}'s win needs han and fu, a yakuman count, or a payment")
    try:
        from table.payments import hand_payment
        from table.presets import get_preset
    except ImportError as exc:  # pragma: no cover - only while the scoring engine is missing
        raise InputError(f"cannot price han/fu without the scoring engine ({exc}); give the payment") from None
    payment = hand_payment(win.han, win.fu, yakuman=win.yakuman, dealer=dealer, tsumo=tsumo,
                           rules=get_preset(state.preset).hand)
    return HandValue.of(payment)


def _liable(state: GameState, win: Win) -> int | None:
    if not state.rules.pao or win.yakuman < 1:
        return None
    return next((liable for winner, liable in state.pao if winner == win.seat), None)


_PAO_YAKU = {"daisangen", "daisuushi", "daisuushii", "suukantsu"}


def _liable_ron(win: Win, dealer: bool) -> int:
    """What the liable seat answers for: the pao'd yakuman at its own worth (Mahjong Soul's daisuushii is a double
    yakuman, paid "independently for each yakuman"), one yakuman when the win does not name it (typed as a count);
    the rest of a stacked hand is paid as usual."""
    named = [han // 13 for name, han in win.yaku if name.lower().replace(" ", "").replace("-", "") in _PAO_YAKU]
    return _one_yakuman_ron(dealer) * max(1, min(max(named, default=1), win.yakuman))


def _ron(state: GameState, event: Ron) -> GameState:
    rules, discarder = state.rules, event.discarder
    seats = [w.seat for w in event.wins]
    if discarder in seats:
        raise InputError(f"{state.players[discarder]} discarded the tile and cannot win on it")
    if len(set(seats)) != len(seats):
        raise InputError("a winner is listed twice")
    if not 1 <= len(seats) <= 3:
        raise InputError("a ron has one to three winners")
    if event.first_discarder is not None and rules.system != "zungjung":
        raise InputError(f"same-round immunity (first_discarder) is a Zung Jung rule; the {rules.name} rules "
                         "make the discarder pay")
    if event.riichi_discard:
        state = void_riichi(state, discarder)
    if rules.system != "riichi":
        return _system_ron(state, event)
    for win in event.wins:
        _check_riichi_win(state, win)
    # Nearest to the discarder's right (shimocha) first: the order of head bump and of stick collection.
    wins = sorted(event.wins, key=lambda w: (w.seat - discarder) % 4)
    if len(wins) == 3 and rules.triple_ron_aborts:
        return _abort(state, "triple-ron", check=False)
    scoring, bumped = wins[: rules.max_ron_winners], tuple(w.seat for w in wins[rules.max_ron_winners:])
    nearest = scoring[0].seat
    deltas = [0, 0, 0, 0]
    honba_points = state.honba * rules.honba_value
    priced = []  # each win with its price, which han and fu leave out: the pages show what it paid
    for win in scoring:
        value = _price(state, win, tsumo=False)
        priced.append(win if win.payment is not None else replace(win, payment=value))
        counters = honba_points if rules.multi_ron_honba == "each" or win.seat == nearest else 0
        pay = (value.ron or 0) + counters
        liable = _liable(state, win)
        if liable is not None and liable != discarder:
            one = _liable_ron(win, win.seat == state.dealer)
            share = one // 2 if rules.pao_ron_split == "half" else one
            share = min(share, value.ron or 0) + (counters if rules.pao_ron_honba == "liable" else 0)
            deltas[liable] -= share
            deltas[discarder] -= pay - share
        else:
            deltas[discarder] -= pay
        deltas[win.seat] += pay
    _collect_pot(state, [w.seat for w in scoring], deltas)
    dealer_won = any(w.seat == state.dealer for w in scoring)
    result = _result(state, "ron", deltas, winners=tuple(w.seat for w in scoring), discarder=discarder,
                     bumped=bumped, wins=tuple(priced), riichi_discard=event.riichi_discard)
    keep = dealer_won and rules.renchan_on_dealer_win
    return _next_hand(state, deltas, result, keep_deal=keep, honba=state.honba + 1 if keep else 0,
                      pot=0, ending="win")


def void_riichi(state: GameState, seat: int) -> GameState:
    """The state without `seat`'s riichi of this hand: a ron on its declaration tile means the riichi did not stand,
    and its stick goes back (club rule book §4.2.1). So the stick is never won by that ron, whatever came between."""
    rules = state.rules
    if rules.system != "riichi":
        raise InputError(_not_here(rules, "riichi"))
    if not state.riichi[seat]:
        raise InputError(f"{state.players[seat]} has not declared riichi this hand, so the winning tile was no riichi "
                         "declaration tile")
    points, riichi = list(state.points), list(state.riichi)
    points[seat] += rules.riichi_deposit
    riichi[seat] = False
    return _evolve(state, points=tuple(points), pot=state.pot - rules.riichi_deposit, riichi=tuple(riichi))


def _tsumo(state: GameState, event: Tsumo) -> GameState:
    rules, win = state.rules, event.win
    if rules.system != "riichi":
        return _system_tsumo(state, event)
    _check_riichi_win(state, win)
    _check_not_four_riichi(state, "a tsumo")
    value = _price(state, win, tsumo=True)
    dealer = state.dealer
    deltas = [0, 0, 0, 0]
    honba_each = state.honba * rules.honba_value // 3
    shares = [0 if seat == win.seat else _tsumo_share(value, seat, win.seat, dealer) for seat in range(4)]
    liable = _liable(state, win)
    if liable is not None:
        # The liable seat pays the pao'd yakuman whole and the counters; what the hand is worth beyond it (a
        # stacked yakuman, where the preset pays it) the three pay as usual, in proportion.
        total = sum(shares)
        beyond = total - min(_liable_ron(win, win.seat == dealer), total)
        for seat in range(4):
            deltas[seat] -= shares[seat] * beyond // total if beyond else 0
        deltas[liable] -= total - beyond + 3 * honba_each
    else:
        for seat in range(4):
            if seat != win.seat:
                deltas[seat] -= shares[seat] + honba_each
    deltas[win.seat] = -sum(deltas)
    _collect_pot(state, [win.seat], deltas)
    result = _result(state, "tsumo", deltas, winners=(win.seat,),
                     wins=(win if win.payment is not None else replace(win, payment=value),))
    keep = win.seat == dealer and rules.renchan_on_dealer_win
    return _next_hand(state, deltas, result, keep_deal=keep, honba=state.honba + 1 if keep else 0,
                      pot=0, ending="win")


def _check_riichi_win(state: GameState, win: Win) -> None:
    if win.value or win.patterns:
        how = "pay a flat amount" if state.rules.fixed_payments is not None else \
            "price a win by han and fu, a yakuman count or its payment"
        raise InputError(f"{state.players[win.seat]}'s win gives a Zung Jung or MCR value; the {state.rules.name} "
                         f"rules {how}")


# -- Zung Jung and MCR --------------------------------------------------------------------------------------


def _system_value(state: GameState, win: Win) -> int:
    """The hand's value (Zung Jung points, MCR fan with flowers), checked against the system's bounds."""
    rules = state.rules
    name, unit = state.players[win.seat], VALUE_UNITS[rules.system]
    if win.payment is not None or win.han or win.fu or win.yakuman or win.yaku:
        raise InputError(f"{name}'s win is given in riichi terms (han, fu, yakuman or a payment); "
                         f"{A_SYSTEM[rules.system]} win needs its value in {unit}")
    if win.value < 1:
        raise InputError(f"{name}'s win needs its value in {unit} (or the tiles of the hand, scored on the spot)")
    from table.presets import get_preset

    minimum = get_preset(state.preset).hand.win_minimum
    if win.value < minimum:
        raise InputError(f"{name}'s hand is worth {value_text(win.value, rules.system)}, below the "
                         f"{minimum}-{unit.rstrip('s')} minimum to win: not a win")
    if rules.system == "zungjung" and win.value > ZUNGJUNG_MAX:
        raise InputError(f"{name}'s hand cannot be worth {win.value} points: no Zung Jung hand is worth more than "
                         f"{ZUNGJUNG_MAX}")
    return win.value


def check_new(state: GameState, event: Event) -> None:
    """Checks an event must pass as it is recorded, beyond those of `apply`, which a stored log is replayed
    through: a check added after games were kept must not lock one out. A Zung Jung value no hand makes
    (3 points) was taken before. A reason with a control character or longer than a line was taken too, as was a
    win given both a yakuman count and han or fu (the yakuman was paid), and a riichi adjustment not in 100s."""
    if isinstance(event, Penalty):
        check_reason(event.reason, "penalty reason")
        if state.rules.system == "riichi" and event.points % 100:
            raise InputError(f"riichi points are taken in 100s (the smallest stick): not {event.points:,}")
    if isinstance(event, Adjustment):
        check_reason(event.reason, "adjustment reason")
        odd = [a for a in event.amounts if a % 100]
        if state.rules.system == "riichi" and odd:  # no riichi stick is worth less than 100: a typo
            raise InputError(f"riichi points move in 100s (the smallest stick): {odd[0]:+,} cannot be paid")
    elif isinstance(event, GameEnded):
        check_reason(event.reason, "reason for ending the game")
    wins = event.wins if isinstance(event, Ron) else (event.win,) if isinstance(event, Tsumo) else ()
    for win in wins:
        if win.yakuman and (win.han or win.fu):
            raise InputError(f"{state.players[win.seat]}'s win gives {win.yakuman} yakuman and {win.han} han "
                             f"{win.fu} fu: give either the yakuman count or han and fu")
    if state.rules.system != "zungjung":
        return
    for win in wins:
        why = impossible_total(win.value)
        if why:
            raise InputError(f"{state.players[win.seat]}'s hand cannot be worth {win.value} points: {why}")


def _system_ron(state: GameState, event: Ron) -> GameState:
    """One winner (interception: the claimant first in turn after the discarder); the system's payment."""
    rules, discarder = state.rules, event.discarder
    wins = sorted(event.wins, key=lambda w: (w.seat - discarder) % 4)
    for win in wins:
        _system_value(state, win)
    win, bumped = wins[0], tuple(w.seat for w in wins[1:])
    if rules.system == "zungjung":
        pay = zungjung_payoff(win.value, win.seat, self_drawn=False, discarder=discarder,
                              first_discarder=event.first_discarder, scheme=rules.zungjung_payoff)
    else:
        pay = mcr_payment(win.value, win.seat, self_drawn=False, discarder=discarder, base=rules.mcr_base)
    deltas = list(pay.deltas)
    # moot when all pay alike: under the uniform payoff, and at 25 points or less under the standard one
    immunity = event.first_discarder if rules.zungjung_payoff == "standard" and win.value > PAR else None
    result = _result(state, "ron", deltas, winners=(win.seat,), discarder=discarder, bumped=bumped, wins=(win,),
                     first_discarder=immunity)
    return _next_hand(state, deltas, result, keep_deal=False, honba=0, pot=0, ending="win")


def _system_tsumo(state: GameState, event: Tsumo) -> GameState:
    rules, win = state.rules, event.win
    _system_value(state, win)
    if rules.system == "zungjung":
        pay = zungjung_payoff(win.value, win.seat, self_drawn=True, scheme=rules.zungjung_payoff)
    else:
        pay = mcr_payment(win.value, win.seat, self_drawn=True, base=rules.mcr_base)
    deltas = list(pay.deltas)
    result = _result(state, "tsumo", deltas, winners=(win.seat,), wins=(win,))
    return _next_hand(state, deltas, result, keep_deal=False, honba=0, pot=0, ending="win")


def _tsumo_share(value: HandValue, payer: int, winner: int, dealer: int) -> int:
    if winner == dealer or payer != dealer:
        return value.tsumo_other or 0
    return value.tsumo_dealer or 0


def _collect_pot(state: GameState, winners: list[int], deltas: list[int]) -> None:
    """Hand the pot (riichi sticks, USPML pool) to the winners, nearest to the discarder first."""
    rules, pot = state.rules, state.pot
    if len(winners) > 1 and rules.winners_keep_own_riichi:
        for seat in winners:
            if state.riichi[seat]:
                deltas[seat] += rules.riichi_deposit
                pot -= rules.riichi_deposit
    if pot <= 0:
        return
    if rules.multi_ron_sticks == "split" and len(winners) > 1:
        share = pot // len(winners) // 100 * 100
        for seat in winners:
            deltas[seat] += share
        deltas[winners[0]] += pot - share * len(winners)
    else:
        deltas[winners[0]] += pot


def _draw(state: GameState, event: ExhaustiveDraw) -> GameState:
    rules = state.rules
    tenpai, nagashi, dead = set(event.tenpai), set(event.nagashi), set(event.dead)
    if rules.system != "riichi":
        if tenpai or nagashi or dead:
            raise InputError(_not_here(rules, "tenpai or nagashi mangan at a draw") + "; a drawn hand pays nothing: "
                             "record the draw without tenpai seats")
        result = _result(state, "draw", [0, 0, 0, 0])
        return _next_hand(state, [0, 0, 0, 0], result, keep_deal=False, honba=0, pot=state.pot, ending="draw")
    _check_not_four_riichi(state, "an exhaustive draw")
    if tenpai & dead:
        raise InputError(f"a dead hand is never tenpai: {', '.join(state.players[s] for s in sorted(tenpai & dead))}")
    for seat in range(4):
        if state.riichi[seat] and seat not in tenpai | dead:
            raise InputError(
                f"{state.players[seat]} declared riichi and must show a tenpai hand at a draw; "
                "a noten riichi is a chombo: record that instead (a hand declared dead after the riichi "
                "is only noten: list it as dead)"
            )
    if nagashi and not rules.nagashi_mangan:
        raise InputError(f"the {rules.name} rules have no nagashi mangan")
    deltas = [0, 0, 0, 0]
    pot = state.pot
    if nagashi:
        # Nagashi mangan is paid like a mangan tsumo and replaces the tenpai payments; no counters.
        for seat in sorted(nagashi):
            shares = _mangan_shares(seat, state.dealer)
            for payer, each in enumerate(shares):
                deltas[payer] -= each
            deltas[seat] += sum(shares)
    elif rules.noten_pool_payment:
        for seat in range(4):
            if seat not in tenpai:
                deltas[seat] -= rules.noten_pool_payment
                pot += rules.noten_pool_payment
    elif 0 < len(tenpai) < 4 and rules.tenpai_payment_total:
        gain = rules.tenpai_payment_total // len(tenpai)
        loss = rules.tenpai_payment_total // (4 - len(tenpai))
        for seat in range(4):
            deltas[seat] = gain if seat in tenpai else -loss
    result = _result(state, "draw", deltas, tenpai=tuple(sorted(tenpai)), nagashi=tuple(sorted(nagashi)),
                     dead=tuple(sorted(dead)))
    keep = state.dealer in tenpai and rules.renchan_on_dealer_tenpai
    return _next_hand(state, deltas, result, keep_deal=keep, honba=state.honba + 1, pot=pot, ending="draw")


def _check_not_four_riichi(state: GameState, what: str) -> None:
    """Where the rules have the four-riichi abortive draw, the fourth riichi ends the hand once its declaration tile
    passes: no one draws again, so the hand can end only in a ron on that tile or in the abortive draw."""
    if all(state.riichi) and "four-riichi" in state.rules.abortive_draws:
        raise InputError(f"all four players declared riichi: under the {state.rules.name} rules that ends the hand "
                         f"in an abortive draw (four-riichi), unless the last declaration tile was won on by ron, "
                         f"so it cannot end in {what}")


def _mangan_shares(seat: int, dealer: int) -> list[int]:
    """What each seat pays `seat` for a mangan by tsumo (the dealer's share is double; 0 for `seat` itself)."""
    return [0 if other == seat else MANGAN_BASE * (2 if dealer in (seat, other) else 1) for other in range(4)]


def _abortive(state: GameState, event: AbortiveDraw) -> GameState:
    return _abort(state, event.reason.strip().lower(), check=True)


def _abort(state: GameState, reason: str, *, check: bool) -> GameState:
    rules = state.rules
    if check:
        if reason not in ABORTIVE_REASONS:
            raise InputError(f"unknown abortive draw {reason!r}: use one of {', '.join(ABORTIVE_REASONS)}")
        if rules.system != "riichi":
            raise InputError(_not_here(rules, "abortive draw"))
        if reason not in rules.abortive_draws:
            allowed = ", ".join(r for r in ABORTIVE_REASONS if r in rules.abortive_draws) or "none"
            raise InputError(f"the {rules.name} rules do not allow a {reason} abortive draw (allowed: {allowed})")
        if reason == "four-riichi" and not all(state.riichi):
            raise InputError("a four-riichi abortive draw needs all four players in riichi")
    deltas = [0, 0, 0, 0]
    result = _result(state, "abortive_draw", deltas, reason=reason)
    return _next_hand(state, deltas, result, keep_deal=rules.renchan_on_abortive, honba=state.honba + 1,
                      pot=state.pot, ending="abort")


def _chombo(state: GameState, event: Chombo) -> GameState:
    rules, seat = state.rules, event.seat
    if rules.chombo_mode == "none":
        if rules.system == "mcr":
            raise InputError(_not_here(rules, "chombo") + "; record MCR's penalty as an adjustment (below the "
                             "minimum: 10 to each player; false mahjong: 20 to each)")
        if rules.system != "riichi":
            raise InputError(_not_here(rules, "chombo") + "; record a penalty as an adjustment")
        raise InputError(f"the {rules.name} rules have no chombo penalty; record an adjustment instead")
    deltas = [0, 0, 0, 0]
    penalties = list(state.penalties)
    if rules.chombo_mode == "table":
        # Reverse mangan (mangan barai): a dealer pays 4000 to each; otherwise 4000 to the dealer, 2000 to others.
        shares = _mangan_shares(seat, state.dealer)
        for other, each in enumerate(shares):
            deltas[other] += each
        deltas[seat] -= sum(shares)
    else:
        penalties[seat] -= rules.chombo_penalty
    # The hand is replayed: riichi deposits go back, no counter, the dealer keeps the deal.
    pot = state.pot
    for other in range(4):
        if state.riichi[other]:
            deltas[other] += rules.riichi_deposit
            pot -= rules.riichi_deposit
    result = _result(_evolve(state, pot=pot), "chombo", deltas, offender=seat)
    return _next_hand(_evolve(state, penalties=tuple(penalties)), deltas, result, keep_deal=True,  # type: ignore[arg-type]
                      honba=state.honba, pot=pot, ending="chombo")


def _result(state: GameState, kind: str, deltas: list[int], **fields: Any) -> HandResult:
    points = tuple(p + d for p, d in zip(state.points, deltas, strict=True))
    return HandResult(
        number=state.results + 1,
        round_wind=state.round_wind,
        hand_number=state.hand_number,
        honba=state.honba,
        kind=kind,
        deltas=tuple(deltas),  # type: ignore[arg-type]
        points=points,  # type: ignore[arg-type]
        system=state.rules.system,
        counters=state.rules.counts_honba,
        deposits=tuple(state.rules.riichi_deposit if r else 0 for r in state.riichi),  # type: ignore[arg-type]
        **fields,
    )


def _next_hand(state: GameState, deltas: list[int], result: HandResult, *, keep_deal: bool, honba: int, pot: int,
               ending: str) -> GameState:
    """Move the money, pass (or keep) the deal, and decide whether the game is over."""
    rules = state.rules
    points = result.points
    dealer, round_wind = state.dealer, state.round_wind
    if not keep_deal:
        dealer = (dealer + 1) % 4
        if dealer == 0:
            round_wind += 1
    # After North 4 (a 16-hand Zung Jung or MCR game) there is no next hand: the last one stays the current one.
    shown_dealer, shown_round = (state.dealer, state.round_wind) if round_wind > 3 else (dealer, round_wind)
    new = _evolve(
        state,
        points=points,
        dealer=shown_dealer,
        round_wind=shown_round,
        honba=honba,
        pot=pot,
        riichi=(False,) * 4,
        pao=(),
        hands_played=state.hands_played + (0 if ending == "chombo" else 1),
        results=result.number,
        last_hand=result,
        adjustment=None,
    )
    last_round = {"east": 0, "south": 1, "north": 3}[rules.length]
    target = rules.west_target
    all_last = state.dealer == 3 and state.round_wind >= last_round

    def finish(reason: str) -> GameState:  # a game over has no next hand: the one that ended it stays shown
        return _finish(_evolve(new, dealer=state.dealer, round_wind=state.round_wind, honba=state.honba), reason)

    if rules.busting and any(p < 0 for p in points):
        busted = ", ".join(state.players[s] for s in range(4) if points[s] < 0)
        return finish(f"bust: {busted} below zero")
    if rules.west_extension and state.round_wind > last_round and any(p >= target for p in points) \
            and ending != "chombo":  # a chombo is no hand (club §3.4): the redeal is played first
        return finish(f"{WIND_NAMES[state.round_wind]} round: a player reached {target}")
    if keep_deal:
        top = all(points[state.dealer] > points[s] for s in range(4) if s != state.dealer)
        reached = not rules.west_extension or points[state.dealer] >= target
        if all_last and top and reached:
            if ending == "win" and rules.agari_yame:
                return finish("agari-yame: the dealer won the last hand in first place")
            if ending == "draw" and rules.tenpai_yame:
                return finish("tenpai-yame: the dealer was tenpai in the last hand in first place")
        return new
    if round_wind > last_round:
        if rules.west_extension and round_wind == last_round + 1 and all(p < target for p in points):
            return new
        return finish(f"{state.round_name} finished")
    return new


# -- the end -------------------------------------------------------------------------------------------


def _finish(state: GameState, reason: str) -> GameState:
    """Close the game: leftover sticks, placement with the tie rule, uma, oka, penalties."""
    rules = state.rules
    points = list(state.points)
    penalties = state.penalties
    basis = [p + (penalties[s] if rules.penalty_affects_rank else 0) for s, p in enumerate(points)]
    order = sorted(range(4), key=lambda s: (-basis[s], s))
    if rules.tie_rule == "split":
        groups = _tie_groups(order, basis)
    else:
        groups = [[s] for s in order]
    pot = state.pot
    if pot and rules.leftover_sticks == "first":
        firsts = groups[0]
        share = pot // len(firsts)
        for seat in firsts:
            points[seat] += share
        points[firsts[0]] += pot - share * len(firsts)
    pot = 0  # given to first place, or void: either way no longer on the table
    place_bonus = [rules.uma[i] + (rules.oka if i == 0 else 0) for i in range(4)]
    standings: list[Standing] = []
    position = 0
    for group in groups:
        places = range(position, position + len(group))
        uma_total = sum(rules.uma[i] for i in places)
        oka_total = sum(place_bonus[i] - rules.uma[i] for i in places)
        for index, seat in enumerate(group):
            uma = _share(uma_total, len(group), index)
            oka = _share(oka_total, len(group), index)
            above_return = points[seat] - rules.return_points
            net_points = above_return + uma + oka + penalties[seat]
            standings.append(Standing(
                seat=seat, name=state.players[seat], rank=position + 1, raw=points[seat], above_return=above_return,
                uma=uma, oka=oka, penalty=penalties[seat], net_points=net_points,
                net=_in_units(net_points - uma - oka + Fraction(uma_total + oka_total, len(group)), rules),
            ))  # `net` splits a tie's place points exactly: tied seats get the same result, not a point apart
        position += len(group)
    # a riichi of a hand left unfinished (time called) is no longer standing: its stick went with the pot
    return _evolve(state, points=tuple(points), pot=pot, over=True, over_reason=reason,  # type: ignore[arg-type]
                   standings=tuple(standings), riichi=(False,) * 4)


def _in_units(points: Fraction, rules: GameRules) -> float:
    """Points in the preset's unit: riichi's as +31.2 (and 41.0); Zung Jung's and MCR's points are the result,
    so their net is the whole number it is (147, not 147.0: they have no uma or oka to split)."""
    return int(points) if rules.system != "riichi" else round(float(points / rules.unit), 3)


def _tie_groups(order: list[int], basis: list[int]) -> list[list[int]]:
    groups: list[list[int]] = []
    for seat in order:
        if groups and basis[groups[-1][0]] == basis[seat]:
            groups[-1].append(seat)
        else:
            groups.append([seat])
    return groups


def _share(total: int, parts: int, index: int) -> int:
    """Split `total` into `parts` whole points; any odd remainder goes to the earlier seats."""
    base, extra = divmod(total, parts)
    return base + (1 if index < extra else 0)


_HANDLERS: dict[type, Any] = {
    RiichiDeclared: _riichi,
    Ron: _ron,
    Tsumo: _tsumo,
    ExhaustiveDraw: _draw,
    AbortiveDraw: _abortive,
    Chombo: _chombo,
    Pao: _pao,
    Adjustment: _adjustment,
    Penalty: _penalty,
    GameEnded: _game_ended,
}

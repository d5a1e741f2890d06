"""The events of a game: everything that changes the score at the table, as plain JSON-able values.

Riichi is the main system; Zung Jung and MCR games use the same events (a win carries the hand's
`value` instead of han/fu, and the riichi-only events are refused by the reducer under those rules).

The log of events is the truth; the score is a fold over it (`table.game.fold`). An event records what
happened at the table, never a derived number, with one deliberate exception: a win stores the hand's
price (`payment`) as the scorer gave it when the hand was entered, so an old game replays to the same
numbers even if the scoring code or a preset changes later. A hand-written event may leave `payment`
out and give han/fu/yakuman; the reducer prices it with the game's preset. A Zung Jung or MCR win stores
its value (points, fan): what each seat pays follows from it and the system's payment rule.

Seats are 0..3 in the order the players were given (seat 0 is the first dealer, chiicha).
The JSON form of each event is `{"type": <TYPE>, ...fields}`; README "Keeping a game" documents it.
An event a person wrote (`jantaku game replay FILE`) is read `typed`: also refused where the command line would refuse
it (a draw that does not say who was tenpai, a payment of 0 or not in 100s, 14 han without a price), checks a stored
log skips so that a game kept before them still loads.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any, ClassVar

from table.errors import InputError

MAX_POINTS = 1_000_000  # no hand pays, no adjustment moves, more: six dealer yakuman by ron are 288,000
MAX_HAN, MAX_YAKUMAN = 13, 6  # what `jantaku game ron --han/--yakuman` take: more han count as 13


def _seat(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 3:
        raise InputError(f"{what} must be a seat number 0-3, not {value!r}")
    return value


def _seats(value: Any, what: str) -> tuple[int, ...]:
    if not isinstance(value, (list, tuple)):
        raise InputError(f"{what} must be a list of seat numbers, not {value!r}")
    seats = tuple(_seat(v, what) for v in value)
    if len(set(seats)) != len(seats):
        raise InputError(f"{what} lists a seat twice: {list(seats)}")
    return tuple(sorted(seats))


def _int(value: Any, what: str, *, minimum: int | None = 0, maximum: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InputError(f"{what} must be a whole number, not {value!r}")
    if minimum is not None and value < minimum:
        raise InputError(f"{what} must be {minimum} or more, not {value}")
    if maximum is not None and value > maximum:
        raise InputError(f"{what} must be at most {maximum:,}, not {value:,}")
    return value


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{what} must be a non-empty text")
    return value.strip()


def _record(value: Any, what: str) -> str:
    """Text kept for the record (a hand's tiles, a yaku's name): a number or an object there is a slip, which `str`
    would have kept as "123" or "{'a': 1}"."""
    if not isinstance(value, str):
        raise InputError(f"{what} must be text, not {value!r}")
    return value


def _named(entries: Any, what: str, one: str, number: str) -> tuple[tuple[str, int], ...]:
    """A win's `yaku` ({"name", "han"}) or `patterns` ({"name", "points"}), each with no other field."""
    entries = entries or []
    shape = f"{what} must be a list of {{\"name\", \"{number}\"}} objects"
    if not isinstance(entries, list) or not all(isinstance(e, Mapping) and "name" in e for e in entries):
        raise InputError(shape)
    for entry in entries:
        extra = sorted(set(entry) - {"name", number})
        if extra:
            raise InputError(f"{shape}, not with {', '.join(extra)}")
    return tuple((_record(e["name"], f"a {one}'s name"), _int(e.get(number, 0), f"{one} {number}")) for e in entries)


def _started_at(value: Any, *, typed: bool) -> str | None:
    """When the game started: ISO 8601 text, as `GameStore.new_game` writes it (a file's is checked, so the pages do
    not show "yesterday" or a number as the start)."""
    if value is None:
        return None
    if not isinstance(value, str):
        raise InputError(f"started_at must be a date and time as text (ISO 8601), not {value!r}")
    if typed:
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise InputError(f"started_at {value[:40]!r} is not a date and time in ISO 8601, e.g. "
                             "2026-03-14T19:30:00+00:00") from None
    return value


@dataclass(frozen=True, slots=True)
class HandValue:
    """A hand's price without honba or sticks (same shape as `table.payments.Payment`).

    Ron: `ron` from the discarder. Tsumo: `tsumo_dealer` from the dealer and `tsumo_other` from each
    non-dealer; when the winner is the dealer `tsumo_dealer` is None and all three pay `tsumo_other`.
    """

    ron: int | None = None
    tsumo_dealer: int | None = None
    tsumo_other: int | None = None
    limit: str = ""

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        if self.ron is not None:
            out["ron"] = self.ron
        else:
            out["tsumo_dealer"] = self.tsumo_dealer
            out["tsumo_other"] = self.tsumo_other
        if self.limit:
            out["limit"] = self.limit
        return out

    @classmethod
    def from_json(cls, data: Any, *, typed: bool = False) -> HandValue:
        """`typed`: a price a person wrote, which the scorer never gives: 0, or not in 100s (riichi pays in sticks
        of 100, and only riichi wins carry a price)."""
        if not isinstance(data, Mapping):
            raise InputError(f"payment must be an object like {{\"ron\": 3900}}, not {data!r}")
        unknown = set(data) - {"ron", "tsumo_dealer", "tsumo_other", "limit"}
        if unknown:
            raise InputError(f"payment has unknown fields: {', '.join(sorted(unknown))}")

        def opt(key: str) -> int | None:
            if data.get(key) is None:
                return None
            amount = _int(data[key], f"payment {key}", minimum=100 if typed else 0, maximum=MAX_POINTS)
            if typed and amount % 100:
                raise InputError(f"payment {key} must be in 100s (the smallest stick), not {amount:,}")
            return amount

        value = cls(opt("ron"), opt("tsumo_dealer"), opt("tsumo_other"),
                    "" if data.get("limit") is None else _record(data["limit"], "payment limit"))
        if value.ron is None and value.tsumo_other is None:
            raise InputError("payment needs \"ron\" or \"tsumo_other\" (and \"tsumo_dealer\" for a non-dealer)")
        if value.ron is not None and (value.tsumo_dealer, value.tsumo_other) != (None, None):
            # one of the two was dropped when the event was stored: a tsumo read back as a ron's price
            raise InputError("payment gives both a ron price and a tsumo price: give \"ron\" for a ron, "
                             "\"tsumo_dealer\" and \"tsumo_other\" for a tsumo")
        return value

    @classmethod
    def of(cls, payment: Any) -> HandValue:
        """Copy a `table.payments.Payment` (or anything with the same fields)."""
        return cls(payment.ron, payment.tsumo_dealer, payment.tsumo_other, getattr(payment, "limit", "") or "")


@dataclass(frozen=True, slots=True)
class Win:
    """One winner's hand: priced (`payment`), or han/fu/yakuman to be priced by the preset (riichi); or,
    under Zung Jung and MCR, the hand's `value` (Zung Jung points, MCR fan with flowers), which the
    preset's payment rule turns into money.

    `yaku` ((name, han) pairs), `patterns` ((name, points) pairs of a Zung Jung or MCR hand) and `hand`
    (MPSZ text) are kept for the record and the scoreboard; they never change the score. Presets with
    flat payments (uspml) need none of the numbers.
    """

    seat: int
    han: int = 0
    fu: int = 0
    yakuman: int = 0
    payment: HandValue | None = None
    yaku: tuple[tuple[str, int], ...] = ()
    hand: str | None = None
    value: int = 0
    patterns: tuple[tuple[str, int], ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat}
        if self.han or self.fu:
            out["han"], out["fu"] = self.han, self.fu
        if self.yakuman:
            out["yakuman"] = self.yakuman
        if self.payment is not None:
            out["payment"] = self.payment.to_json()
        if self.yaku:
            out["yaku"] = [{"name": name, "han": han} for name, han in self.yaku]
        if self.value:
            out["value"] = self.value
        if self.patterns:
            out["patterns"] = [{"name": name, "points": points} for name, points in self.patterns]
        if self.hand:
            out["hand"] = self.hand
        return out

    @classmethod
    def from_json(cls, data: Any, *, typed: bool = False) -> Win:
        """`typed`: a win a person wrote; without a price, its han and yakuman are held to what `jantaku game ron`
        takes (a priced win keeps the scorer's count, a kazoe hand's 14 han among them, for the record)."""
        if not isinstance(data, Mapping):
            raise InputError(f"a win must be an object with a \"seat\", not {data!r}")
        unknown = set(data) - {"seat", "han", "fu", "yakuman", "payment", "yaku", "hand", "value", "patterns"}
        if unknown:
            raise InputError(f"a win has unknown fields: {', '.join(sorted(unknown))}")
        if "seat" not in data:
            raise InputError("a win needs a \"seat\"")
        priced = data.get("payment") is not None
        most = {"han": MAX_HAN, "yakuman": MAX_YAKUMAN} if typed and not priced else {}
        return cls(
            seat=_seat(data["seat"], "winner"),
            han=_int(data.get("han", 0), "han", maximum=most.get("han")),
            fu=_int(data.get("fu", 0), "fu"),
            yakuman=_int(data.get("yakuman", 0), "yakuman", maximum=most.get("yakuman")),
            payment=HandValue.from_json(data["payment"], typed=typed) if priced else None,
            yaku=_named(data.get("yaku"), "yaku", "yaku", "han"),
            hand=None if data.get("hand") is None else _record(data["hand"], "a win's hand"),
            value=_int(data.get("value", 0), "value"),
            patterns=_named(data.get("patterns"), "patterns", "pattern", "points"),
        )


class Event:
    """Base of all events: `type` names the event in JSON."""

    type: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:  # pragma: no cover - every subclass overrides
        raise NotImplementedError


@dataclass(frozen=True, slots=True)
class GameStarted(Event):
    """The first event of every game: four names in seat order and the preset's name."""

    type: ClassVar[str] = "game_started"
    players: tuple[str, str, str, str]
    preset: str
    started_at: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "players": list(self.players), "preset": self.preset}
        if self.started_at:
            out["started_at"] = self.started_at
        return out


@dataclass(frozen=True, slots=True)
class RiichiDeclared(Event):
    """A seat declares riichi and puts its deposit (kyoutaku) on the table."""

    type: ClassVar[str] = "riichi"
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Ron(Event):
    """One or more winners on one discard. Which of them score (head bump, triple ron) is the preset's call.

    `first_discarder` is Zung Jung's same-round immunity: the seat that first discarded the winning tile
    between the winner's last discard and the win, who is responsible instead of the discarder (nobody
    is when it was the winner). None: the discarder is responsible. Other systems refuse it.

    `riichi_discard`: the winning tile was the discarder's riichi declaration tile, so that riichi does not stand
    and its stick goes back (club rule book §4.2.1): recorded with the ron, whatever was recorded after the riichi.
    """

    type: ClassVar[str] = "ron"
    discarder: int
    wins: tuple[Win, ...]
    first_discarder: int | None = None
    riichi_discard: bool = False

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "discarder": self.discarder, "wins": [w.to_json() for w in self.wins]}
        if self.first_discarder is not None:
            out["first_discarder"] = self.first_discarder
        if self.riichi_discard:
            out["riichi_discard"] = True
        return out


@dataclass(frozen=True, slots=True)
class Tsumo(Event):
    """A self-drawn win."""

    type: ClassVar[str] = "tsumo"
    win: Win

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "win": self.win.to_json()}


@dataclass(frozen=True, slots=True)
class ExhaustiveDraw(Event):
    """The wall ran out (ryuukyoku): the tenpai seats, and nagashi mangan seats where the preset has it.

    `dead` names seats whose hand was declared dead: noten, so a riichi seat among them pays the noten
    penalty instead of committing a chombo (club rule book §3.4.7, NARO-1 §4.2.2).
    """

    type: ClassVar[str] = "draw"
    tenpai: tuple[int, ...] = ()
    nagashi: tuple[int, ...] = ()
    dead: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "tenpai": list(self.tenpai)}
        if self.nagashi:
            out["nagashi"] = list(self.nagashi)
        if self.dead:
            out["dead"] = list(self.dead)
        return out


@dataclass(frozen=True, slots=True)
class AbortiveDraw(Event):
    """The hand is stopped (tochuu ryuukyoku); `reason` is one of `table.game_rules.ABORTIVE_REASONS`."""

    type: ClassVar[str] = "abortive_draw"
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Chombo(Event):
    """A seat commits a chombo: the hand is replayed and the preset's penalty applies."""

    type: ClassVar[str] = "chombo"
    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat}


@dataclass(frozen=True, slots=True)
class Penalty(Event):
    """Points taken off a seat's final result for a foul that is no hand (NARO-1 §3.4.3: 10,000 for being late
    or for a drink on the table): nobody is paid, and the deal, the counters and the score in play stay as they are.
    """

    type: ClassVar[str] = "penalty"
    seat: int
    points: int
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "seat": self.seat, "points": self.points, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Pao(Event):
    """`liable` fed the call that made `winner`'s yakuman certain (sekinin barai); applies this hand."""

    type: ClassVar[str] = "pao"
    winner: int
    liable: int

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "winner": self.winner, "liable": self.liable}


@dataclass(frozen=True, slots=True)
class Adjustment(Event):
    """A manual correction: points per seat, summing to zero, with the reason written down.

    It fixes a count, it is not a hand: the deal, the counters and the bust check are left alone.
    """

    type: ClassVar[str] = "adjustment"
    amounts: tuple[int, int, int, int]
    reason: str

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "amounts": list(self.amounts), "reason": self.reason}


@dataclass(frozen=True, slots=True)
class GameEnded(Event):
    """The game is stopped before its natural end (time called)."""

    type: ClassVar[str] = "game_ended"
    reason: str = "time called"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class Undo(Event):
    """Takes back the latest event still in effect. Log operation: nothing is erased."""

    type: ClassVar[str] = "undo"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


@dataclass(frozen=True, slots=True)
class Redo(Event):
    """Puts back the event the latest undo took back (until a new event is recorded)."""

    type: ClassVar[str] = "redo"

    def to_json(self) -> dict[str, Any]:
        return {"type": self.type}


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (GameStarted, RiichiDeclared, Ron, Tsumo, ExhaustiveDraw, AbortiveDraw, Chombo, Penalty, Pao,
                Adjustment, GameEnded, Undo, Redo)
}

_FIELDS: dict[str, set[str]] = {kind: {f.name for f in fields(cls)} for kind, cls in EVENT_TYPES.items()}


def event_from_json(data: Any, *, typed: bool = False) -> Event:
    """Build an event from its JSON object, or InputError naming the first fault. `typed`: an event a person wrote
    (an event file), also held to what the command line takes; a stored log is read without, so that it loads."""
    if not isinstance(data, Mapping):
        raise InputError(f"an event must be a JSON object, not {type(data).__name__}")
    kind = data.get("type")
    if kind not in EVENT_TYPES:
        raise InputError(f"unknown event type {kind!r}: use one of {', '.join(EVENT_TYPES)}")
    unknown = set(data) - _FIELDS[kind] - {"type"}
    if unknown:
        raise InputError(f"{kind} event has unknown fields: {', '.join(sorted(unknown))}")

    def need(key: str) -> Any:
        if key not in data:
            raise InputError(f"{kind} event needs \"{key}\"")
        return data[key]

    if kind == "game_started":
        players = need("players")
        if not isinstance(players, list) or len(players) != 4:
            raise InputError("game_started needs \"players\": a list of 4 names in seat order")
        names = tuple(_text(p, "a player's name") for p in players)
        return GameStarted(names, _text(need("preset"), "preset"), _started_at(data.get("started_at"), typed=typed))
    if kind == "riichi":
        return RiichiDeclared(_seat(need("seat"), "riichi seat"))
    if kind == "ron":
        wins = need("wins")
        if not isinstance(wins, list) or not wins:
            raise InputError("ron needs \"wins\": a list of one to three winners")
        first, declared = data.get("first_discarder"), data.get("riichi_discard", False)
        if not isinstance(declared, bool):
            raise InputError("ron's \"riichi_discard\" must be true or false")
        return Ron(_seat(need("discarder"), "discarder"), tuple(Win.from_json(w, typed=typed) for w in wins),
                   None if first is None else _seat(first, "first discarder"), declared)
    if kind == "tsumo":
        return Tsumo(Win.from_json(need("win"), typed=typed))
    if kind == "draw":
        if typed and "tenpai" not in data:  # left out, a tenpai dealer lost the deal: `game draw` asks too
            raise InputError("draw needs \"tenpai\": the seats that were tenpai, [] when all four were noten (and in "
                             "Zung Jung and MCR, which keep no tenpai)")
        return ExhaustiveDraw(_seats(data.get("tenpai", []), "tenpai"), _seats(data.get("nagashi", []), "nagashi"),
                              _seats(data.get("dead", []), "dead"))
    if kind == "abortive_draw":
        return AbortiveDraw(_text(need("reason"), "abortive draw reason"))
    if kind == "chombo":
        return Chombo(_seat(need("seat"), "chombo seat"))
    if kind == "penalty":
        return Penalty(_seat(need("seat"), "penalty seat"), _int(need("points"), "penalty points", minimum=1,
                                                                   maximum=MAX_POINTS),
                       _text(need("reason"), "penalty reason"))
    if kind == "pao":
        return Pao(_seat(need("winner"), "pao winner"), _seat(need("liable"), "liable seat"))
    if kind == "adjustment":
        amounts = need("amounts")
        if not isinstance(amounts, list) or len(amounts) != 4:
            raise InputError("adjustment needs \"amounts\": a list of 4 numbers, one per seat")
        values = tuple(_int(a, "an adjustment amount", minimum=None) for a in amounts)
        return Adjustment(values, _text(need("reason"), "adjustment reason"))  # type: ignore[arg-type]
    if kind == "game_ended":
        return GameEnded(_text(data.get("reason", "time called"), "reason"))
    if kind == "undo":
        return Undo()
    return Redo()

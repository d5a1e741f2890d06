"""`jantaku bench game`: what the event log costs on this machine.

Three figures: durable appends per second (each one a committed WAL transaction with
synchronous=FULL, through `GameStore.append`, validation included), the time to fold a long log
(default 10,000 events) from memory, and the time to rebuild a normal evening's game (300 events)
from the database file cold, which is what a restarted server or a fresh CLI call pays.
"""

from __future__ import annotations

import platform
import tempfile
import time
from pathlib import Path

from table.events import Adjustment, Event, ExhaustiveDraw, GameStarted, RiichiDeclared, Ron, Tsumo, Win
from table.game import fold


def long_game(length: int) -> list[Event]:
    """A game that never ends (M-League: no busting) with riichi, draws and dealer wins in a cycle."""
    events: list[Event] = [GameStarted(("A", "B", "C", "D"), "mleague")]
    cycle: list[Event] = [
        RiichiDeclared(1),
        ExhaustiveDraw(tenpai=(0, 1)),  # dealer tenpai: renchan, counters grow
        RiichiDeclared(2),
        Ron(3, (Win(0, han=2, fu=30),)),  # the dealer wins: renchan again, takes the sticks
        Tsumo(Win(0, han=1, fu=30)),
        Adjustment((100, -100, 0, 0), "bench"),
    ]
    while len(events) < length:
        events.append(cycle[(len(events) - 1) % len(cycle)])
    return events[:length]


def run_bench(*, appends: int = 300, events: int = 10000, evening: int = 300, directory: Path | None = None) -> str:
    from table.store import GameStore

    lines = [f"machine: {platform.machine()}, {platform.system()}, Python {platform.python_version()}"]
    log = long_game(events)
    fold(log[:50])  # warm the imports and the payment cache
    started = time.perf_counter()
    state = fold(log)
    replay = time.perf_counter() - started
    lines.append(f"replay: {len(log)} events folded in {replay * 1000:.1f} ms "
                 f"({len(log) / replay:,.0f} events/s; {state.hands_played} hands)")

    with tempfile.TemporaryDirectory(dir=directory) as tmp:
        path = Path(tmp) / "bench.db"
        with GameStore(path) as store:
            game_id = store.new_game(["A", "B", "C", "D"], "mleague")
            body = long_game(appends + 1)[1:]
            started = time.perf_counter()
            for event in body:
                store.append(game_id, event)
            elapsed = time.perf_counter() - started
        lines.append(f"append: {len(body)} events, each committed (WAL, synchronous=FULL), in {elapsed:.2f} s "
                     f"= {len(body) / elapsed:,.0f} events/s ({elapsed / len(body) * 1000:.2f} ms each)")

        with GameStore(path) as store:
            game_id = store.new_game(["A", "B", "C", "D"], "mleague")
            for event in long_game(evening)[1:]:
                store.append(game_id, event)
        started = time.perf_counter()
        with GameStore(path) as store:
            state = store.state(game_id)
        cold = time.perf_counter() - started
        lines.append(f"evening: a {evening}-event game rebuilt from the database file (open + read + fold) "
                     f"in {cold * 1000:.1f} ms")
    return "\n".join(lines)

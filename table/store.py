"""The durable event log: many games in one SQLite file, one row per event, append-only.

Durability: WAL journal with `synchronous=FULL`, and every append is its own transaction committed
before `append` returns, so an acknowledged event survives a killed process or a pulled plug (as far
as the storage honours fsync). Rows are never updated or deleted (triggers refuse it): undo and redo
are themselves rows (`Undo`/`Redo` events), so taking a hand back loses nothing and the whole history,
mistakes included, stays in the file. The state is always `table.game.fold` of the rows.

One `GameStore` may be shared by threads (web workers, the button panel): calls are serialised by a
lock. Several processes may open the same file; writes are serialised by SQLite (`BEGIN IMMEDIATE`).

A file that goes bad while open is refused, not written around: a full or read-only disk fails the write
(`LogUnusable`, with what a test write into the folder met), and a file removed or replaced under a running
server (SQLite would go on writing into the old file, which goes when the process ends) stops all writes until
it is back, after the games held are copied beside it (`check_file`).
"""

from __future__ import annotations

import contextlib
import csv
import errno
import functools
import io
import json
import os
import sqlite3
import threading
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from table.errors import InputError, NotFound
from table.events import Event, GameStarted, Redo, Undo, event_from_json
from table.game import GameState, apply, check_new, fold, hand_rows, history, resolve, start
from table.names import check_new_names

STANDING_PARTS = ("raw", "above_return", "uma", "oka", "penalty", "net")
DAMAGED = "damaged log"  # a listed game's round when its events cannot be read back
"""A riichi game's standings columns: final points, their difference from the return, uma, oka, the end-of-game
penalty, and the result `net` = above_return + uma + oka + penalty in the preset's unit (1000: +31.2)."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id INTEGER PRIMARY KEY,
    created_at TEXT NOT NULL,
    preset TEXT NOT NULL,
    players TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS log (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    seq INTEGER NOT NULL,
    type TEXT NOT NULL,
    payload TEXT NOT NULL,
    recorded_at TEXT NOT NULL,
    UNIQUE (game_id, seq)
);
CREATE TABLE IF NOT EXISTS resumed (
    id INTEGER PRIMARY KEY,
    game_id INTEGER NOT NULL REFERENCES games(id),
    newest INTEGER NOT NULL,
    at TEXT NOT NULL
);
CREATE TRIGGER IF NOT EXISTS log_no_update BEFORE UPDATE ON log
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS log_no_delete BEFORE DELETE ON log
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS resumed_no_update BEFORE UPDATE ON resumed
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
CREATE TRIGGER IF NOT EXISTS resumed_no_delete BEFORE DELETE ON resumed
BEGIN SELECT RAISE(ABORT, 'the event log is append-only'); END;
"""
"""`resumed`: an older game made the current one again (a new game started by mistake, a game continued another
night); in effect while `newest` is still the newest game. A file without it (older, or read-only) has none."""


Expect = Callable[[int, GameState], None]  # GameStore.append's check of the game as its caller saw it

SCHEMA_VERSION = 1  # PRAGMA user_version: a file written by a later format is refused, not called damaged
COLUMNS = {"games": {"id", "created_at", "preset", "players"},
           "log": {"id", "game_id", "seq", "type", "payload", "recorded_at"}}


def default_db_path() -> Path:
    """`$JANTAKU_DB`, else `$XDG_DATA_HOME/jantaku/jantaku.db` (`~/.local/share/jantaku/jantaku.db`)."""
    env = os.environ.get("JANTAKU_DB")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "jantaku" / "jantaku.db"


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One stored row: its place in the game's log, the event and when it was recorded (UTC, ISO 8601)."""

    seq: int
    event: Event
    recorded_at: str


@dataclass(frozen=True, slots=True)
class GameSummary:
    id: int
    created_at: str
    preset: str
    players: tuple[str, ...]
    round_name: str
    over: bool
    current: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"id": self.id, "created_at": self.created_at, "preset": self.preset, "players": list(self.players),
                "round": self.round_name, "over": self.over, "current": self.current}


@dataclass
class _Cached:
    last_seq: int
    log: list[Event]
    state: GameState


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


class LogUnusable(InputError):
    """The game database cannot be used now (its disk full or read-only, the file removed, replaced or damaged,
    locked by another program): the device's fault, not the request's. The web answers 503; the CLI exits 2."""


def disk_trouble(folder: Path) -> int | None:
    """The errno a small durable write into `folder` meets now, or None when it goes through. SQLite says "disk I/O
    error" both for a card the kernel set read-only after an error (EROFS) and for a failing one (EIO)."""
    probe = folder / f".jantaku-write-test-{os.getpid()}"
    try:
        fd = os.open(probe, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            os.write(fd, bytes(4096))
            os.fsync(fd)
        finally:
            os.close(fd)
    except OSError as exc:
        return exc.errno
    finally:
        with contextlib.suppress(OSError):
            probe.unlink()
    return None


def _db_problem(path: object, exc: sqlite3.Error, trouble: int | None = None) -> str:
    """A sentence for a database that cannot be used, so the CLI says it (exit 2) and the web a 503 instead of a
    traceback; nothing was recorded by the command that met it. `trouble`: what `disk_trouble` met, for a write."""
    text = str(exc)
    if "locked" in text or "busy" in text:
        return f"the game database {path} is busy: another program holds it locked; try again in a moment"
    if trouble in (errno.ENOSPC, errno.EDQUOT):
        return (f"the game database {path} cannot be written: its disk is full; nothing was recorded. Free some "
                "space on it and try again")
    if trouble == errno.EROFS:
        return (f"the game database {path} is read-only (its file, folder or disk): nothing was recorded. Its disk "
                "turned read-only (a card the system locks after a disk error): check the card, remount it "
                "read-write and try again")
    if trouble in (errno.EACCES, errno.EPERM):
        return (f"the game database {path} is read-only (its file, folder or disk): nothing was recorded. This user "
                "may no longer write its folder")
    if trouble == errno.EIO:
        return (f"the game database {path} cannot be written: its disk reports errors (a failing card?); nothing "
                "was recorded. Copy the log off it with SQLite's backup and replace the card")
    if "full" in text or "disk I/O" in text:
        return (f"the game database {path} cannot be written ({text}): is its disk full? Free some space and try "
                "again; nothing was recorded")
    if "readonly" in text:
        return f"the game database {path} is read-only (its file, folder or disk): nothing was recorded"
    if "unable to open" in text and Path(str(path)).is_dir():
        return f"{path} is a folder, not the game database (in a data folder it is games.sqlite3)"
    if "unable to open" in text:
        return f"cannot open the game database {path}: does its folder exist, and may this user write there?"
    return f"the game database {path} cannot be used ({text}): is it a jantaku database, and is it intact?"


def _guarded(method):
    """Turn SQLite failures (locked, damaged, someone else's file) into LogUnusable with a reason."""

    @functools.wraps(method)
    def wrapper(self: GameStore, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except sqlite3.Error as exc:
            raise LogUnusable(_db_problem(self.path, exc)) from None

    return wrapper


def _writes(method):
    """A write: made only into the file this store opened (`check_file`), its failure looked into (`disk_trouble`)
    and kept as `problem` until a write goes through again."""

    @functools.wraps(method)
    def wrapper(self: GameStore, *args: Any, **kwargs: Any) -> Any:
        with self._lock:
            self.check_file()
            try:
                result = method(self, *args, **kwargs)
            except sqlite3.Error as exc:
                text = str(exc)
                disk = self._identity is not None and any(w in text for w in ("disk", "full", "readonly"))
                why = _db_problem(self.path, exc, disk_trouble(self.path.parent) if disk else None)
                if "busy" not in why:  # another program's lock passes by itself
                    self._write_problem = why
                raise LogUnusable(why) from None
            self._write_problem = ""
            return result

    return wrapper


_FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


class _SafeCsv:
    """A csv writer whose text cells cannot run as a spreadsheet formula: a name such as `=HYPERLINK(...)` or
    `-2` gets a leading `'` (OWASP's advice for CSV injection); numbers stay numbers. The JSON export keeps the
    text as it was given."""

    def __init__(self, writer: Any) -> None:
        self._writer = writer

    def writerow(self, row: list[object]) -> None:
        self._writer.writerow([f"'{c}" if isinstance(c, str) and c.startswith(_FORMULA_STARTS) else c for c in row])


def _identity(path: Path, *, strict: bool = False) -> tuple[int, int] | None:
    """The file's (device, inode): which file a path names now. None when there is none (`strict`: raise)."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        if strict:
            raise
        return None
    return st.st_dev, st.st_ino


def _decode(game_id: int, seq: int, payload: str) -> Event:
    try:
        return event_from_json(json.loads(payload))
    except (ValueError, InputError) as exc:
        raise InputError(f"event {seq} of game {game_id} in the database is damaged: {exc}") from None


class GameStore:
    """Games and their event logs in one SQLite file.

    Every method that changes a game validates first (folding the log plus the new event) and stores
    nothing when the event is rejected (InputError with the reason).
    """

    def __init__(self, path: str | os.PathLike[str], *, busy_timeout: float = 10.0) -> None:
        """Open (creating if needed) the database; `busy_timeout` is how long a write waits for another
        process's lock before giving up with InputError."""
        self.path = Path(path)
        if str(path) != ":memory:":
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise InputError(f"cannot make the folder {self.path.parent} for the game database: {exc.strerror}") \
                    from None
        self._lock = threading.RLock()
        self.read_only = False
        try:
            self._db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False,
                                       timeout=busy_timeout)
        except sqlite3.Error as exc:
            raise InputError(_db_problem(path, exc)) from None
        try:
            version = self._refuse_foreign()
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=FULL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(SCHEMA)
            if version < SCHEMA_VERSION:  # a new file, or one from before the format was kept
                self._db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as exc:
            self._db.close()
            if not self._open_read_only(exc, busy_timeout):
                raise InputError(_db_problem(path, exc)) from None
        self._cache: dict[int, _Cached] = {}
        self._resumes = "resumed" in self._tables()
        self._identity = None if str(path) == ":memory:" else _identity(self.path)
        self._side = {} if self._identity is None else {
            name: ident for name in ("-wal", "-shm") if (ident := _identity(Path(f"{self.path}{name}")))}
        self._file_problem = self._write_problem = self._rescued = self._rescue_failed = ""

    def _open_read_only(self, exc: sqlite3.Error, busy_timeout: float) -> bool:
        """A log this user or medium cannot write (a backup on a locked SD card or a CD, the server's file read by
        another user) can still be shown and exported: open it read-only, where a write then says it is read-only.
        SQLite reads a WAL file read-only only beside its `-shm`; with none there (no server has it open: nothing
        can be writing) the file is read as immutable."""
        if not ("readonly" in str(exc) or "unable to open" in str(exc)) or not self.path.is_file():
            return False
        for mode in ("mode=ro", "immutable=1"):
            try:
                self._db = sqlite3.connect(f"{self.path.resolve().as_uri()}?{mode}", uri=True, isolation_level=None,
                                           check_same_thread=False, timeout=busy_timeout)
            except sqlite3.Error:
                continue
            try:
                self._refuse_foreign()  # another program's file, or a later format, is named as such
                if set(COLUMNS) <= self._tables():
                    self.read_only = True
                    return True
            except sqlite3.Error:
                pass
            self._db.close()
        return False

    def _refuse_foreign(self) -> int:
        """Stop before touching another program's SQLite file: opening it must not add our tables or switch
        its journal to WAL (a mistyped `--db` would otherwise change someone else's database). Nor a log of a later
        format. Returns the file's format (0: new, or kept before formats were)."""
        tables = self._tables()
        columns = {table: {row[1] for row in self._db.execute(f"PRAGMA table_info({table})")}
                   for table in COLUMNS if table in tables}
        if tables and any(not want <= columns.get(table, set()) for table, want in COLUMNS.items()):
            self._db.close()
            raise InputError(f"the game database {self.path} is another program's SQLite file (tables: "
                             f"{', '.join(sorted(tables))}), not a jantaku game log: choose another file")
        version = int(self._db.execute("PRAGMA user_version").fetchone()[0])
        if version > SCHEMA_VERSION:
            self._db.close()
            raise InputError(f"the game database {self.path} was written by a newer jantaku (log format {version}; "
                             f"this one reads format {SCHEMA_VERSION} and older): upgrade jantaku to use it")
        return version

    def _tables(self) -> set[str]:
        return {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
                if not name.startswith("sqlite_")}

    # -- lifecycle --------------------------------------------------------------------------------

    def close(self) -> None:
        with self._lock:
            self._identity = None  # nothing of the file to look after once closed
            self._db.close()

    @property
    def problem(self) -> str:
        """Why the log takes no writes now ("" when it does): its file gone or replaced (until it is back), or the
        last write's failure (until a write goes through)."""
        return self._file_problem or self._write_problem

    def check_file(self) -> None:
        """Raise LogUnusable when the file at `path` is no longer the one opened: removed or replaced. SQLite would go
        on writing into the old file, whose games go with the process (and whose `-wal` left beside a new file would
        be read into it at the next start), and a restart would begin an empty log under the same name. So writes
        stop until the file is back, and the games held are copied beside it first, once (`-rescued-` file; tried
        again at each look while the copy fails)."""
        with self._lock:
            if self._identity is None:
                return
            why = self._file_changed()
            if why is None:
                self._file_problem = self._rescued = ""
                return
            if not self._rescued:
                self._rescued = self._rescue()
            self._file_problem = (f"the game database {self.path} {why} while jantaku had it open: nothing was "
                                  f"recorded, nor will be until the file is back or jantaku restarts. "
                                  f"{self._rescued or self._rescue_failed}")
            raise LogUnusable(self._file_problem)

    def _file_changed(self) -> str | None:
        """Only a stat: a file of its own opened on the log and closed would drop SQLite's POSIX locks on it."""
        try:
            if _identity(self.path, strict=True) == self._identity:
                return None
        except FileNotFoundError:
            return "was removed"
        except OSError as exc:
            return f"cannot be looked at ({exc.strerror or exc})"
        return "was replaced by another file"

    def _rescue(self) -> str:
        """Copy the games this connection holds to a new file beside the log (SQLite's backup); the sentence saying
        where, or "" when it failed (`_rescue_failed` says why). Then this connection's own `-wal` and `-shm` (found by
        identity) are removed from beside the path, so that a file put there is not read with them."""
        stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
        target = self.path.with_name(f"{self.path.stem}-rescued-{stamp}{self.path.suffix}")
        for n in range(2, 100):
            if not os.path.lexists(target):
                break
            target = self.path.with_name(f"{self.path.stem}-rescued-{stamp}-{n}{self.path.suffix}")
        try:
            copy = sqlite3.connect(target)
            try:
                self._db.backup(copy)
            finally:
                copy.close()
        except (sqlite3.Error, OSError) as exc:
            for leftover in (target, Path(f"{target}-journal")):
                with contextlib.suppress(OSError):
                    leftover.unlink()
            self._rescue_failed = (f"A copy of the games it held could not be saved ({exc}): keep the server "
                                   "running (they go when it stops) and free space beside the file; it tries again "
                                   "every second")
            return ""
        for name, ident in self._side.items():
            side = Path(f"{self.path}{name}")
            if _identity(side) == ident:
                with contextlib.suppress(OSError):
                    side.unlink()
        return (f"The games it held are saved in {target.name} beside it: to go on with them, stop the server, "
                f"move that file to {self.path.name} and start it again")

    def data_version(self) -> int:
        """A number that changes when another connection (a `jantaku game` command, another process) has written
        to the file since this one last looked; this connection's own writes leave it as it is."""
        with self._lock:
            return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def __enter__(self) -> GameStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- writing ----------------------------------------------------------------------------------

    @_writes
    def new_game(self, players: list[str] | tuple[str, ...], preset_name: str, started_at: str | None = None) -> int:
        """Start a game (its first event is GameStarted) and return its id."""
        names = check_new_names(players)  # checked here, not in the fold: old logs load
        event = GameStarted(names, preset_name.strip().lower(), started_at or _now())  # type: ignore[arg-type]
        state = start(event)  # validates names and preset
        with self._lock:
            self._begin()
            try:
                cur = self._db.execute(
                    "INSERT INTO games (created_at, preset, players) VALUES (?, ?, ?)",
                    (_now(), state.preset, json.dumps(list(state.players))),
                )
                game_id = int(cur.lastrowid or 0)
                self._insert(game_id, 1, event)
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
            self._cache[game_id] = _Cached(1, [event], state)
            return game_id

    @_writes
    def append(self, game_id: int, event: Event, *, expect: Expect | None = None) -> GameState:
        """Validate `event` against the game and store it; returns the new state once it is on disk. `expect` is
        called with the game's last row and state inside the write's own transaction, where no other process can
        write: it raises (Conflict) when the game is no longer as the caller saw it."""
        if isinstance(event, GameStarted):
            raise InputError("a game_started event starts a new game: use new_game")
        with self._lock:
            self._begin()
            try:
                cached = self._load(game_id)
                if expect is not None:
                    expect(cached.last_seq, cached.state)
                if isinstance(event, (Undo, Redo)):
                    log = cached.log + [event]
                    state = fold(log)
                else:
                    state = apply(cached.state, event)
                    check_new(cached.state, event)
                    log = cached.log + [event]
                seq = cached.last_seq + 1
                self._insert(game_id, seq, event)
                self._db.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
            self._cache[game_id] = _Cached(seq, log, state)
            return state

    @_writes
    def resume(self, game_id: int) -> None:
        """Make an older game the current one again, the one the device and the CLI act on, until a newer game
        starts. Nothing in any game's log changes."""
        with self._lock:
            self._check_game(game_id)
            if game_id == self.current_game():
                raise InputError(f"game {game_id} is already the current game")
            newest = self._db.execute("SELECT MAX(id) FROM games").fetchone()[0]
            self._db.execute("INSERT INTO resumed (game_id, newest, at) VALUES (?, ?, ?)", (game_id, newest, _now()))

    def undo(self, game_id: int, *, expect: Expect | None = None) -> GameState:
        """Take back the latest event in effect (stored as an Undo row; nothing is erased)."""
        return self.append(game_id, Undo(), expect=expect)

    def redo(self, game_id: int, *, expect: Expect | None = None) -> GameState:
        """Put back what the latest undo took back."""
        return self.append(game_id, Redo(), expect=expect)

    # -- reading ----------------------------------------------------------------------------------

    @_guarded
    def state(self, game_id: int) -> GameState:
        with self._lock:
            return self._load(game_id).state

    @_guarded
    def version(self, game_id: int) -> int:
        """The game's last row number: it grows with every event, undo and redo, so two looks at the game that give
        the same number saw the same game."""
        with self._lock:
            return self._load(game_id).last_seq

    @_guarded
    def log(self, game_id: int) -> list[LogEntry]:
        """Every stored row of the game, undo and redo rows included, in order."""
        with self._lock:
            self._check_game(game_id)
            rows = self._db.execute(
                "SELECT seq, payload, recorded_at FROM log WHERE game_id = ? ORDER BY seq", (game_id,)
            ).fetchall()
        return [LogEntry(seq, _decode(game_id, seq, payload), at) for seq, payload, at in rows]

    @_guarded
    def events(self, game_id: int) -> list[Event]:
        """The events in effect (undone ones left out, Undo/Redo rows resolved)."""
        with self._lock:
            return resolve(self._load(game_id).log)

    @_guarded
    def history(self, game_id: int) -> list[GameState]:
        """The state after each event in effect: for the points chart and the CSV export."""
        with self._lock:
            log = list(self._load(game_id).log)
        return history(log)

    @_guarded
    def games(self) -> list[GameSummary]:
        """All games, newest first."""
        with self._lock:
            rows = self._db.execute("SELECT id, created_at, preset, players FROM games ORDER BY id DESC").fetchall()
            current = self.current_game()
            out = []
            for game_id, created, preset, players in rows:
                try:
                    state = self._load(game_id).state
                    where, over = state.round_name, state.over
                except InputError:  # one game's damaged log (edited outside jantaku) hides none of the others
                    where, over = DAMAGED, False
                out.append(GameSummary(game_id, created, preset, tuple(json.loads(players)), where, over,
                                       game_id == current))
            return out

    @_guarded
    def current_game(self) -> int | None:
        """The game the CLI and the panel act on: the newest, or an older one resumed since it started; None when
        there is none."""
        with self._lock:
            newest = self._db.execute("SELECT MAX(id) FROM games").fetchone()[0]
            resumed = self._resumes and self._db.execute(
                "SELECT game_id FROM resumed WHERE newest = ? ORDER BY id DESC LIMIT 1", (newest,)).fetchone()
        return int(resumed[0]) if resumed else None if newest is None else int(newest)

    @_guarded
    def export_json(self, game_id: int) -> dict[str, Any]:
        """The game as JSON: the events in effect (replayable), the full log with times, the state, and the CSV's
        rows (`hands`: each with every seat's `changes` and `points` after it, so a han-and-fu win's payments
        are there without pricing it again)."""
        entries = self.log(game_id)
        log = [e.event for e in entries]
        states = history(log)
        players, counters = states[0].players, states[0].rules.counts_honba
        return {
            "game_id": game_id,
            "events": [e.to_json() for e in resolve(log)],
            "log": [{"seq": e.seq, "recorded_at": e.recorded_at, "event": e.event.to_json()} for e in entries],
            "state": states[-1].to_json(),
            "hands": [{"hand": row.hand.number if row.hand else None, "round": row.round_name,
                       **({"honba": row.honba} if counters else {}), "result": row.result(players),
                       "changes": list(row.changes), "points": list(row.state.points)}
                      for row in hand_rows(states)],
        }

    @_guarded
    def export_csv(self, game_id: int) -> str:
        """One row per finished hand (chombo included), per adjustment and for an early end, with each seat's
        change and score after it; the final standings follow a blank line once the game is over.

        A hand's change includes the riichi deposits made during it, so each change column adds up from the
        starting points to the score column (a riichi stick is not a row of its own). Each system has the
        columns it keeps: riichi the hand's honba and the riichi sticks after it (USPML: the draw pool, no honba), and
        standings with the return, uma and oka apart; Zung Jung and MCR neither counters nor sticks, and their
        points are the result."""
        states = self.history(game_id)
        players, riichi, counters = states[0].players, states[0].system == "riichi", states[0].rules.counts_honba
        buf = io.StringIO()
        writer = _SafeCsv(csv.writer(buf, lineterminator="\n"))
        fixed = ["hand", "round", *(["honba"] if counters else []), "result"]
        on_table = [name for name, _ in states[0].on_table]
        header = [*fixed, *(f"{p} change" for p in players), *players, *on_table]
        if len({h.casefold() for h in header}) < len(header):  # "Ann change" as a name, or "Round": each its seat
            header = [*fixed, *(f"change (seat {i}: {p})" for i, p in enumerate(players)),
                      *(f"points (seat {i}: {p})" for i, p in enumerate(players)), *on_table]
        writer.writerow(header)

        for row in hand_rows(states):
            number = row.hand.number if row.hand else ""
            writer.writerow([number, row.round_name, *([row.honba] if counters else []), row.result(players),
                             *row.changes, *row.state.points, *(count for _, count in row.state.on_table)])
        final = states[-1]
        if final.over:
            parts = STANDING_PARTS if riichi else ("raw", "net")
            writer.writerow([])
            writer.writerow(["rank", "name", *parts])
            for s in final.standings:
                writer.writerow([s.rank, s.name, *(getattr(s, part) for part in parts)])
        return buf.getvalue()

    # -- internals --------------------------------------------------------------------------------

    def _begin(self) -> None:
        self._db.execute("BEGIN IMMEDIATE")

    def _rollback(self) -> None:
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.OperationalError:
            pass

    def _insert(self, game_id: int, seq: int, event: Event) -> None:
        self._db.execute(
            "INSERT INTO log (game_id, seq, type, payload, recorded_at) VALUES (?, ?, ?, ?, ?)",
            (game_id, seq, event.type, json.dumps(event.to_json(), separators=(",", ":")), _now()),
        )

    def _check_game(self, game_id: int) -> None:
        if self._db.execute("SELECT 1 FROM games WHERE id = ?", (game_id,)).fetchone() is None:
            raise NotFound(f"there is no game {game_id}")

    def _load(self, game_id: int) -> _Cached:
        """The game's log and state, from the cache when no other process has written since."""
        row = self._db.execute("SELECT MAX(seq) FROM log WHERE game_id = ?", (game_id,)).fetchone()
        last = row[0] if row else None
        if last is None:
            raise NotFound(f"there is no game {game_id}")
        cached = self._cache.get(game_id)
        if cached is not None and cached.last_seq == last:
            return cached
        rows = self._db.execute(  # to `last` only: a row another process commits meanwhile is read next time, once
            "SELECT seq, payload FROM log WHERE game_id = ? AND seq > ? AND seq <= ? ORDER BY seq",
            (game_id, cached.last_seq if cached else 0, last),
        ).fetchall()
        new = [_decode(game_id, seq, payload) for seq, payload in rows]
        if cached is not None and not any(isinstance(e, (Undo, Redo)) for e in new):
            state = cached.state
            for event in new:
                state = apply(state, event)
            log = cached.log + new
        else:
            log = (cached.log if cached else []) + new
            state = fold(log)
        fresh = _Cached(int(last), log, state)
        self._cache[game_id] = fresh
        return fresh

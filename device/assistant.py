"""The application service: one object owns the game log, the camera and the recognizer, and exposes the actions.

The web pages, the JSON API and the button panel all call these same methods, so a click and a button press
behave the same way and are tested once. Every action runs under one lock (gpiozero callbacks and waitress
threads arrive concurrently), bumps `version`, and wakes whoever waits for a change (live page streams,
the panel's LEDs).
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from device import game_port as gp
from device.camera import Camera, CameraError, Capture, ReplayCamera
from device.config import Config
from device.recognition import Reader, load_reader
from table.errors import Conflict, InputError, NotFound
from table.names import MAX_REASON
from vision.view import SEAT_NAMES

log = logging.getLogger("jantaku.assistant")

OUTSIDE_WRITES = 1.0  # seconds between looks at the game file for writes by other processes
UNRECORDED_SCANS_KEPT = 30  # photos that never became a recorded hand, newest first (about 3 MB each)
FURITEN_CAVEAT = ("discard furiten only: temporary and riichi furiten are not checked (they need the turn order, "
                  "which one look at the table does not show)")
SITUATION_FLAGS = ("ippatsu", "double_riichi", "rinshan", "chankan", "haitei", "houtei", "tenhou", "chiihou", "renhou")


@dataclass(frozen=True, slots=True)
class Proposal:
    """A hand read from a photo (or typed), waiting for the scorekeeper to fix and confirm it before it counts."""

    scan_id: str | None = None
    photo: str = ""
    image: dict[str, int] = field(default_factory=dict)
    tiles: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    concealed: str = ""
    win: str = ""
    melds: list[str] = field(default_factory=list)
    dora_indicators: str = ""
    ura_indicators: str = ""
    ponds: dict[str, str] = field(default_factory=dict)
    winner: int | None = None
    discarder: int | None = None
    tsumo: bool = False
    riichi_discard: bool = False
    """A ron on the discarder's riichi declaration tile: that riichi does not stand (its stick is not won)."""
    flags: dict[str, bool] = field(default_factory=dict)
    score: dict[str, Any] | None = None
    error: str = ""
    hand: list[int] | None = None
    """`Assistant.hand_key()` when it was made: it belongs to that hand, and goes when the game moves on (the hand
    recorded from the page, the panel or `jantaku game`, an earlier one undone, or the game ended)."""

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["photo_url"] = f"/photo/{self.scan_id}.jpg" if self.scan_id else None
        return data


class Assistant:
    """One table: the game store, the camera, the recognizer, the pending proposal and the panel status."""

    def __init__(self, config: Config, camera: Camera | None = None, reader: Reader | None = None) -> None:
        self.config = config
        self.data = config.data_path
        try:
            (self.data / "scans").mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise InputError(f"cannot use {self.data} as the data folder: {exc.strerror or exc}") from None
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._listeners: list[Callable[[], None]] = []
        self.closing = threading.Event()
        self._seen = threading.local()  # `expecting`'s game version, per request thread
        self.version = 0
        self._busy = 0
        self.status_message = ""
        self.error_until = 0.0
        self.game_port_error = gp.unavailable()
        self.store = gp.open_store(self.data / "games.sqlite3") if self.game_port_error is None else None
        if self.game_port_error:
            log.error("game keeping unavailable: %s", self.game_port_error)
        self.camera = camera
        self.reader = reader if reader is not None else load_reader(config.recognizer)
        self._scan_lock = threading.Lock()
        self._scans: dict[str, dict[str, Any]] = {}
        self._links = self._load_links()
        self.proposal: Proposal | None = self._load_proposal()
        self.furiten: dict[str, Any] | None = None
        self._cache: tuple[int, dict[str, Any]] | None = None
        self._shown_game: dict[str, Any] | None = None
        self.panel_description = "off"
        if self.store is not None:
            self._drop_stale_proposal()  # its hand may have ended while the server was down, or by its own confirm
            threading.Thread(target=self._watch_store, name="store-watch", daemon=True).start()

    # ---- observation -------------------------------------------------------------------------------------

    def subscribe(self, callback: Callable[[], None]) -> None:
        """Call `callback()` (outside the lock) after every change; the panel uses it to set its LEDs."""
        self._listeners.append(callback)

    def unsubscribe(self, callback: Callable[[], None]) -> None:
        if callback in self._listeners:
            self._listeners.remove(callback)

    def _watch_store(self) -> None:
        """Games kept in the same file by `jantaku game` (another process) show on the page within a second, and so
        does a game log that turned unusable (its file removed or replaced, whose games the store then copies aside
        at once, or a write that failed): said once in the log, and on the status LED until it is mended."""
        try:
            seen: int | None = self.store.data_version()
        except sqlite3.Error:
            seen = None
        said = ""
        while not self.closing.wait(OUTSIDE_WRITES):
            try:
                self.store.check_file()
                now = self.store.data_version()
            except sqlite3.ProgrammingError:  # the store was closed: the table is shutting down
                return
            except (InputError, sqlite3.Error):  # the file is gone or failing: its `problem` says why, below
                now = seen
            changed = seen is not None and now != seen
            if changed:
                self._drop_stale_proposal()  # `jantaku game` may have recorded the hand
            seen, problem = now, self.store.problem
            if problem != said:
                if problem:
                    log.error("status error until the game log takes writes again: %s", problem)
                else:
                    log.info("the game log takes writes again")
                said, changed = problem, True
            if changed:
                self._bump()

    def hand_key(self) -> list[int] | None:
        """The current game's `_hand_key`: what a proposal or a half-done panel action belongs to."""
        gid = self.game_id()
        return None if gid is None else _hand_key(gid, self.store.state(gid))

    def _drop_stale_proposal(self) -> bool:
        """A proposal read for a hand that has ended by another route would be recorded again for the next one.
        Reads the game file (the store checks it for other writers), so it is as fresh as the file; True when the
        proposal was dropped."""
        with self._lock:
            p = self.proposal
            if p is None or p.hand is None or self.store is None:
                return False
            try:
                if p.hand == self.hand_key():
                    return False
            except InputError:  # the game file cannot be read now: keep the proposal, the page says why
                return False
            self.proposal = None
            self._save_proposal()
            log.info("proposal dropped: the game moved on from the hand it was read for")
            return True

    def _bump(self) -> None:
        with self._changed:
            self.version += 1
            self._changed.notify_all()
        for cb in list(self._listeners):
            try:
                cb()
            except Exception:  # a broken LED must never break the game
                log.exception("change listener failed")

    def wait_for_change(self, since: int, timeout: float) -> int:
        """Block until `version` differs from `since` or `timeout` passes; returns the current version."""
        with self._changed:
            self._changed.wait_for(lambda: self.version != since or self.closing.is_set(), timeout=timeout)
            return self.version

    def shutdown(self) -> None:
        """Release every waiting live stream (the server is stopping) and close the store."""
        self.closing.set()
        with self._changed:
            self._changed.notify_all()

    @property
    def status(self) -> str:
        """What the status LED shows: ready (steady), busy (blinking), error (fast blinking: a press that made no
        sense, for a few seconds, or a game log that takes no writes, until it does)."""
        if self._busy:
            return "busy"
        if time.monotonic() < self.error_until or self.store is not None and self.store.problem:
            return "error"  # a game log that takes no writes stays an error until a write goes through
        return "ready"

    @contextmanager
    def busy(self, what: str):
        with self._lock:
            self._busy += 1
            self.status_message = what
        self._bump()
        try:
            yield
        finally:
            with self._lock:
                self._busy -= 1
                if not self._busy and self.status_message == what:
                    self.status_message = ""
            self._bump()

    def flag_error(self, message: str, seconds: float = 4.0) -> None:
        """Show an error on the status LED and the page for a few seconds (a panel press that made no sense)."""
        log.warning("%s", message)
        self.status_message = message
        self.error_until = time.monotonic() + seconds
        self._bump()

        def back_to_ready() -> None:  # the LED and the page go back to "ready" (unless the server is stopping)
            with self._lock:
                if self.status == "ready" and self.status_message == message:
                    self.status_message = ""
            if not self.closing.is_set():
                self._bump()

        timer = threading.Timer(seconds + 0.05, back_to_ready)
        timer.daemon = True
        timer.start()

    def clear_error(self) -> None:
        """A press that worked ends the error a wrong one showed: the status LED and the page say ready at once."""
        with self._lock:
            if not self.error_until:
                return
            self.error_until = 0.0
            if not self._busy:
                self.status_message = ""
        self._bump()

    def _require_store(self):
        if self.store is None:
            raise InputError(f"game keeping is not available on this build: {self.game_port_error}")
        return self.store

    def game_id(self) -> int | None:
        if self.store is None:
            return None
        return gp.current_game(self.store)

    def _require_game(self) -> int:
        gid = self.game_id()
        if gid is None:
            raise InputError("no game is running: start a new game first")
        return gid

    def require_device_scoring(self) -> None:
        """The device prices riichi hands only: a Zung Jung or MCR game's wins are recorded with `jantaku game`. The
        panel asks before a TSUMO or RON picks seats, so the player hears it at the first press."""
        state = self.state()
        if state is not None:
            gp.require_riichi(state.preset)

    def state(self):
        """The folded GameState of the current game, or None."""
        gid = self.game_id()
        return None if gid is None else self.store.state(gid)

    def snapshot(self) -> dict[str, Any]:
        """The public scoreboard as JSON-ready data, cached per version (30 spectators read the same dict)."""
        with self._lock:
            if self._cache and self._cache[0] == self.version:
                return self._cache[1]
            version = self.version
            game = None
            if self.store is not None:
                try:
                    gid = gp.current_game(self.store)
                    game = None if gid is None else gp.game_view(self.store, gid, self._links, self._scans.get)
                    self._shown_game = game
                except InputError:  # a log that cannot be read now: the score last read stays, `game_log` says why
                    game = self._shown_game
            data = {
                "version": version,
                "game": game,
                "device": {
                    "status": self.status,
                    "message": without_paths(self.status_message),
                    "camera": without_paths(getattr(self.camera, "description", "none")),
                    "panel": without_paths(self.panel_description),
                    "recognizer": without_paths(self.reader.description),
                    "game_keeping": without_paths(self.game_port_error or "ok"),
                    "game_log": without_paths(self.store and self.store.problem or "ok"),
                },
            }
            self._cache = (version, data)
            return data

    def keeper_snapshot(self) -> dict[str, Any]:
        """The scoreboard plus what only the scorekeeper sees: the pending proposal, the furiten check, the camera."""
        with self._lock:
            data = dict(self.snapshot())
            data["proposal"] = self.proposal.to_json() if self.proposal else None
            data["furiten"] = self.furiten
            data["presets"] = gp.preset_names()
            data["game_version"] = self.game_version() if self.store is not None else None
            replay = self.camera if isinstance(self.camera, ReplayCamera) else None
            data["next_photo"] = replay.peek() if replay else None
            data["replay_photos"] = [p.name for p in replay.photos] if replay else []
            return data

    # ---- game actions ------------------------------------------------------------------------------------

    def game_version(self) -> list[int] | None:
        """[game id, its last log row]: changes with every write, undo and redo, and with the current game."""
        gid = self.game_id()
        return None if gid is None else [gid, self.store.version(gid)]

    @contextmanager
    def expecting(self, seen: list[int] | None):
        """Writes made inside (on this thread) are refused with Conflict unless the game is still at `seen`, the
        `game_version` the page showed: two phones recording the same hand, or an undo aimed at a hand that is no
        longer the last, record nothing. None: no check (a script, the panel, which acts on the game as it is)."""
        self._seen.value = seen
        try:
            yield
        finally:
            self._seen.value = None

    def _check_seen(self) -> None:
        """The `expecting` check of a correction, which writes nothing; the caller holds the lock."""
        seen = getattr(self._seen, "value", None)
        if seen is not None and seen != self.game_version():
            raise Conflict(CHANGED)

    def _expect(self, gid: int, hand: list[int] | None = None):
        """The `expecting` check, and with `hand` that the hand in play is still that one (a confirm's proposal), as
        the store's `expect`: made inside the write's own transaction, so neither another phone nor another process
        (`jantaku game`) can write between the check and the event."""
        seen = getattr(self._seen, "value", None)
        if seen is not None and seen[0] != gid:
            raise Conflict(CHANGED)

        def expect(last_row: int, state) -> None:
            if seen is not None and seen[1] != last_row:
                raise Conflict(CHANGED)
            if hand is not None and _hand_key(gid, state) != hand:
                raise Conflict(ENDED)

        return expect

    def _append(self, event_json: dict[str, Any], what: str, hand: list[int] | None = None):
        store = self._require_store()
        with self._lock:
            gid = self._require_game()
            state = gp.append(store, gid, event_json, self._expect(gid, hand))
            self.furiten = None if event_json.get("type") not in ("riichi",) else self.furiten
            log.info("%s", what)
            self._drop_stale_proposal()
        self._bump()
        return state

    def start_game(self, players: list[str], preset: str | None = None) -> int:
        names = [p.strip() for p in players]
        if len(names) != 4 or any(not n for n in names):
            raise InputError("a game needs four player names, in seat order from the first East")
        # the store checks the rest (`table.names.check_new_names`): too long, alike, a comma, a seat word
        store = self._require_store()
        with self._lock:
            gid = gp.new_game(store, names, preset or self.config.preset)
            self.proposal = None
            self.furiten = None
            self._save_proposal()
            log.info("new game %s: %s (%s)", gid, ", ".join(names), preset or self.config.preset)
        self._bump()
        return gid

    def resume_game(self, game_id: Any) -> None:
        """An older game made the current one again: a new game started by mistake, or one continued another night.
        What was pending belongs to the game left (its hand key names it), so it goes."""
        store = self._require_store()
        with self._lock:
            store.resume(_game_number(game_id))
            self.furiten = None
            self._drop_stale_proposal()
            log.info("game %s resumed", game_id)
        self._bump()

    def declare_riichi(self, seat: int) -> None:
        seat = _seat(seat)
        self._append(gp.riichi_event(seat), f"riichi declared by seat {seat}")

    def record_ron(self, discarder: int, winners: list[dict[str, Any]], riichi_discard: bool = False) -> None:
        """`winners`: one per winner, {"seat", and "han"+"fu", or "yakuman", or "hand" (tiles, scored here)};
        `riichi_discard`: the winning tile was the discarder's riichi declaration tile (that riichi does not stand)."""
        discarder = _seat(discarder, "discarder")
        riichi_discard = _flag(riichi_discard, "riichi_discard")
        if not isinstance(winners, list):
            raise InputError("winners must be a list of {seat, han, fu} or {seat, hand}")
        if not winners:
            raise InputError("a ron needs at least one winner")
        with self._lock:
            wins = [self._win_entry(w, tsumo=False) for w in winners]
            if any(w["seat"] == discarder for w in wins):
                raise InputError("the discarder cannot win on their own discard")
            by = [w["seat"] for w in wins]
            self._append(gp.ron_event(discarder, wins, riichi_discard), f"ron on seat {discarder}'s discard by {by}")

    def record_tsumo(self, winner: dict[str, Any]) -> None:
        """`winner`: {"seat", and "han"+"fu", or "yakuman", or "hand" (tiles, scored here)}."""
        with self._lock:
            win = self._win_entry(winner, tsumo=True)
            self._append(gp.tsumo_event(win), f"tsumo by seat {win['seat']}")

    def _win_entry(self, w: Any, *, tsumo: bool) -> dict[str, Any]:
        """One winner of a ron or tsumo as the event's Win: priced here from tiles, or han/fu for the preset."""
        gp.require_riichi(self._preset_name())  # han, fu and riichi hands: not a Zung Jung or MCR win
        if not isinstance(w, dict):
            raise InputError("each winner must be an object with a seat and a hand, han/fu or yakuman")
        seat = _seat(w.get("seat"), "winner seat")
        priced = [k for k in ("han", "fu", "yakuman") if w.get(k) is not None]
        if w.get("hand") is not None and priced:
            raise InputError(f"give either the hand or {'/'.join(priced)}, not both")
        if w.get("yakuman") and {"han", "fu"} & set(priced):
            raise InputError("give either the yakuman count or han and fu, not both")
        if w.get("hand") is not None:
            if not isinstance(w["hand"], dict):
                raise InputError('hand must be {"concealed": "...", "win": "5p", "melds": [...]}')
            hand = clean_hand(w["hand"])
            score = gp.score_hand_json(hand, winner=seat, tsumo=tsumo, state=self.state(), preset=self._preset_name())
            if not score.get("valid"):
                raise InputError(f"that hand does not win: {score.get('error')}")
            text = gp.hand_text(hand.get("concealed", ""), hand.get("win", ""), hand.get("melds", []))
            return gp.win_from_score(seat, score, text)
        if w.get("yakuman"):
            return {"seat": seat, "yakuman": _int(w["yakuman"], "yakuman", 1, 6)}
        if "han" in w:
            han = _int(w.get("han"), "han", 1, 13)
            if han < 5 and w.get("fu") is None:
                raise InputError("below 5 han the fu are needed")
            return {"seat": seat, "han": han, "fu": _int(w.get("fu", 30), "fu", 20, 110)}
        raise InputError("a winner needs a hand, han and fu, or a yakuman count")

    def record_draw(self, tenpai: list[int], nagashi: list[int] | None = None, dead: list[int] | None = None) -> None:
        """`dead`: seats whose hand was declared dead (noten; a riichi among them is no chombo)."""
        if not all(isinstance(seats, list) for seats in (tenpai, nagashi or [], dead or [])):
            raise InputError("tenpai, nagashi and dead must be lists of seats")
        tenpai_seats = _seats(tenpai, "tenpai seat")
        nagashi_seats = _seats(nagashi or [], "nagashi seat")
        dead_seats = _seats(dead or [], "dead hand seat")
        self._append(gp.draw_event(tenpai_seats, nagashi_seats, dead_seats), f"exhaustive draw, tenpai {tenpai_seats}")

    def record_abortive_draw(self, reason: str) -> None:
        reason = _reason(reason)
        self._append(gp.abortive_event(reason), f"abortive draw ({reason})")

    def record_chombo(self, seat: int) -> None:
        seat = _seat(seat)
        self._append(gp.chombo_event(seat), f"chombo by seat {seat}")

    def record_pao(self, winner: int, liable: int) -> None:
        """The liable seat fed the call that made the winner's yakuman certain (sekinin barai), this hand."""
        winner, liable = _seat(winner, "pao winner"), _seat(liable, "liable seat")
        if winner == liable:
            raise InputError("a player cannot be liable for their own yakuman")
        self._append(gp.pao_event(winner, liable), f"pao: seat {liable} liable for seat {winner}'s yakuman")

    def record_adjustment(self, amounts: list[int], reason: str) -> None:
        if not isinstance(amounts, list) or len(amounts) != 4:
            raise InputError("an adjustment needs four amounts, one per seat")
        values = [_int(a, "amount", -1_000_000, 1_000_000) for a in amounts]
        if sum(values) != 0:
            raise InputError(f"adjustment amounts must sum to zero, not {sum(values)}")
        reason = _reason(reason)
        if not reason:
            raise InputError("an adjustment needs a reason")
        self._append(gp.adjust_event(values, reason), f"adjustment {values}: {reason}")

    def record_penalty(self, seat: int, points: int, reason: str) -> None:
        """Points off a seat's final result for a foul that is no hand; also once the game is over."""
        seat, points, reason = _seat(seat, "penalty seat"), _int(points, "penalty points", 1, 1_000_000), \
            _reason(reason)
        if not reason:
            raise InputError("a penalty needs a reason")
        self._append(gp.penalty_event(seat, points, reason), f"penalty of {points} on seat {seat}: {reason}")

    def end_game(self, reason: str = "time called") -> None:
        reason = _reason(reason)
        self._append(gp.end_event(reason), f"game ended early ({reason})")

    def undo(self) -> None:
        store = self._require_store()
        with self._lock:
            gid = self._require_game()
            gp.undo(store, gid, self._expect(gid))
            self.furiten = None
            log.info("undo")
            self._drop_stale_proposal()
        self._bump()

    def redo(self) -> None:
        store = self._require_store()
        with self._lock:
            gid = self._require_game()
            gp.redo(store, gid, self._expect(gid))
            log.info("redo")
            self._drop_stale_proposal()
        self._bump()

    # ---- camera, proposal, confirm -----------------------------------------------------------------------

    def capture(self) -> tuple[str, Capture]:
        """Take one photo and keep it under data/scans/; returns its id."""
        if self.camera is None:
            raise CameraError("no camera is configured")
        try:
            cap = self.camera.capture()
        except InputError as exc:
            self.flag_error(str(exc))
            raise
        except Exception as exc:  # a camera unplugged mid-game, a driver error: say so, keep the table running
            log.exception("the camera failed")
            self.flag_error(f"camera failed: {exc}")
            raise CameraError(f"camera failed: {type(exc).__name__}: {exc}") from None
        if not cap.jpeg:
            raise CameraError(f"camera: the photo {cap.name} is empty")
        scan_id = time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)
        path = self.data / "scans" / f"{scan_id}.jpg"
        try:
            path.write_bytes(cap.jpeg)
        except OSError:  # a full disk: no half-written photo is left to be shown as this scan
            path.unlink(missing_ok=True)
            raise
        self._prune_scans()
        return scan_id, cap

    def _prune_scans(self) -> None:
        """Photos of recorded hands are kept for good; of the others (hands never confirmed, furiten checks) the
        newest UNRECORDED_SCANS_KEPT, so a season of club nights does not fill the Pi's SD card."""
        with self._lock:  # a furiten check may capture while a hand is scanned
            pending = self.proposal.scan_id if self.proposal else None
            loose = [p for p in (self.data / "scans").glob("*.jpg")
                     if p.stem != pending and not p.with_suffix(".json").exists()]
            loose.sort(key=lambda p: p.stat().st_mtime_ns)
            for path in loose[:-UNRECORDED_SCANS_KEPT]:
                path.unlink(missing_ok=True)

    def _read(self, scan_id: str, cap: Capture):
        return self.reader.read(cap.jpeg, self.data / "scans" / f"{scan_id}.jpg")

    def _select_replay(self, photo: str | None) -> None:
        """With the replay camera, the next photo taken is `photo` (a live camera takes what it sees)."""
        if photo is not None and not isinstance(photo, str):
            raise InputError("photo must be the name of a replay photo")
        if photo and isinstance(self.camera, ReplayCamera):
            self.camera.select(photo)

    def scan_hand(self, winner: int | None = None, discarder: int | None = None, tsumo: bool | None = None,
                  photo: str | None = None, riichi_discard: bool | None = None) -> Proposal:
        """Capture, read, and propose the hand; the proposal is scored but nothing is recorded until confirmed."""
        tsumo = None if tsumo is None else _flag(tsumo, "tsumo")
        riichi_discard = None if riichi_discard is None else _flag(riichi_discard, "riichi_discard")
        if winner is not None:
            winner = _seat(winner, "winner")
        if discarder is not None:
            discarder = _seat(discarder, "discarder")
            if discarder == winner:
                raise InputError("the winner cannot ron their own discard")
        state = self.state()
        if state is not None and state.over:  # a hand scanned now could not be recorded
            raise InputError("the game is over: start a new game before scanning a hand")
        self.require_device_scoring()  # before the photo: a Zung Jung or MCR hand is not scored here
        self._select_replay(photo)
        hand = self.hand_key()  # the hand in play as the photo is taken: the one the proposal belongs to
        if not self._scan_lock.acquire(blocking=False):
            raise InputError("a scan is already running")
        try:
            with self.busy("reading the table"):
                scan_id, cap = self.capture()
                reading = self._read(scan_id, cap)
        finally:
            self._scan_lock.release()
        prior = self.proposal
        if winner is None and prior is not None:
            winner = prior.winner
            if tsumo is None and discarder is None:
                tsumo, discarder = prior.tsumo, prior.discarder
        if winner is None and not (reading.concealed or reading.win or reading.melds):  # a stray SCAN press
            why = f" ({reading.warnings[0]})" if reading.warnings else ""
            raise InputError(f"no hand was read from the photo{why} and no winner was named, so nothing was "
                             "proposed: lay the hand face up in view of the camera, or name the winner, and scan again")
        tsumo = bool(tsumo) if tsumo is not None else discarder is None
        if riichi_discard is None:  # the same ron scanned again keeps its mark
            riichi_discard = prior is not None and (prior.winner, prior.discarder) == (winner, discarder) \
                and prior.riichi_discard
        concealed, win, dora, melds, notes = gp.with_set_red_fives(
            reading.concealed, reading.win, reading.dora_indicators, reading.melds, self._preset_name())
        proposal = Proposal(
            scan_id=scan_id, photo=cap.name, image=reading.image, tiles=reading.tiles,
            warnings=[*reading.warnings, *notes], concealed=concealed, win=win, melds=melds,
            dora_indicators=dora, ponds=reading.ponds,
            winner=winner, discarder=None if tsumo else discarder, tsumo=tsumo,
            riichi_discard=riichi_discard and not tsumo, hand=hand,
        )
        with self._lock:
            if hand != self.hand_key():  # recorded elsewhere while the photo was read: it would be recorded twice
                raise InputError("the hand ended (recorded, undone or the game ended elsewhere) while the photo was "
                                 "read: nothing was proposed; scan again if a hand is still to be recorded")
            self.proposal = self._scored(proposal)
            self._save_proposal()
            log.info("scan %s from %s: %s + %s %s", scan_id, cap.name, proposal.concealed, proposal.win,
                     " ".join(proposal.melds))
        self._bump()
        return self.proposal

    def propose(self, /, **changes: Any) -> Proposal:  # `/`: a field called "self" is an unknown field, not a 500
        """Correct the pending proposal (misread tiles, winner, flags) or type one from scratch; it is re-scored."""
        allowed = {"concealed", "win", "melds", "dora_indicators", "ura_indicators", "winner", "discarder", "tsumo",
                   "riichi_discard", "flags"}
        unknown = sorted(set(changes) - allowed)
        if unknown:
            raise InputError(f"unknown proposal field(s): {', '.join(unknown)}")
        clean = clean_hand(changes)
        for key in ("winner", "discarder"):
            if key in changes:
                clean[key] = None if changes[key] in (None, "") else _seat(changes[key], key)
        for key in ("tsumo", "riichi_discard"):
            if key in changes:
                clean[key] = _flag(changes[key], key)
        with self._lock:
            self._check_seen()
            base = self.proposal or Proposal(hand=self.hand_key())
            proposal = replace(base, **clean)
            if proposal.tsumo:
                proposal = replace(proposal, discarder=None, riichi_discard=False)
            self.proposal = self._scored(proposal)
            self._save_proposal()
        self._bump()
        return self.proposal

    def _scored(self, proposal: Proposal) -> Proposal:
        """Score the proposal against the current game (seat wind, riichi, honba, sticks); errors become text."""
        if proposal.winner is None or not (proposal.concealed or proposal.win):
            need = "who won" if proposal.winner is None else "the tiles"
            return replace(proposal, score=None, error=f"say {need} to score this hand")
        if not proposal.tsumo and proposal.discarder is None:
            return replace(proposal, score=None, error="say who dealt in (the discarder), or mark it a tsumo")
        if not proposal.tsumo and proposal.discarder == proposal.winner:
            return replace(proposal, score=None, error="the winner cannot ron their own discard: pick the discarder")
        try:
            state = self.state()
            result = gp.score_proposal(proposal, state, self._preset_name())
        except InputError as exc:
            return replace(proposal, score=None, error=str(exc))
        error = "" if result.get("valid") else (result.get("error") or "not a winning hand")
        return replace(proposal, score=result, error=error)

    def _preset_name(self) -> str:
        gid = self.game_id()
        return gp.preset_of(self.store, gid) if gid is not None else self.config.preset

    def confirm_proposal(self) -> None:
        """Record the pending proposal as a ron or tsumo with its scored price, linking its photo to the hand.

        Its hand is checked against the game file first, not left to the watcher's look each second: a hand that
        `jantaku game` (another process) recorded or undid meanwhile drops the proposal, which would otherwise be
        recorded into a hand nobody played."""
        try:
            with self._lock:
                try:
                    if self._drop_stale_proposal():
                        raise Conflict(ENDED)
                    self._record_proposal()
                except Conflict:  # also when the hand ended between that look and the write: dropped now
                    self._drop_stale_proposal()
                    raise
        finally:
            self._bump()

    def _record_proposal(self) -> None:
        """confirm_proposal's work; the caller holds the lock."""
        p = self.proposal
        if p is None:
            raise InputError("there is no proposed hand to confirm: scan or enter one first")
        p = self._scored(p)
        if p.error or not p.score:
            self.proposal = p
            raise InputError(f"cannot record this hand: {p.error or 'it does not score'}")
        text = gp.hand_text(p.concealed, p.win, p.melds)
        win = gp.win_from_score(p.winner, p.score, text)
        self.proposal = None  # being recorded: no proposal left for the hand's end to call stale and drop
        try:
            if p.tsumo:
                state = self._append(gp.tsumo_event(win), f"tsumo by seat {p.winner} (scanned)", p.hand)
            else:
                state = self._append(gp.ron_event(p.discarder, [win], p.riichi_discard),
                                     f"ron by seat {p.winner} on seat {p.discarder}'s discard (scanned)", p.hand)
        except Exception:
            self.proposal = p
            raise
        if p.scan_id and state.last_hand is not None:
            meta = {"game": self.game_id(), "hand_number": state.last_hand.number, "hand": text,
                    "image": p.image, "tiles": p.tiles, "photo": p.photo}
            _atomic_write(self.data / "scans" / f"{p.scan_id}.json", json.dumps(meta))
            self._scans[p.scan_id] = meta
            self._links[(meta["game"], meta["hand_number"])] = p.scan_id
        self.proposal = None
        self._save_proposal()

    def discard_proposal(self) -> None:
        with self._lock:
            if self.proposal is None:
                raise InputError("there is no proposed hand to discard")
            self.proposal = None
            self._save_proposal()
        self._bump()

    def photo_path(self, scan_id: str) -> Path:
        core = scan_id.replace("-", "")
        if len(scan_id) > 64 or not core.isascii() or not core.isalnum():
            raise InputError("bad photo id")
        path = self.data / "scans" / f"{scan_id}.jpg"
        if not path.is_file():
            raise InputError(f"no photo {scan_id}")
        return path

    # ---- furiten -----------------------------------------------------------------------------------------

    def check_furiten(self, seat: int, hand: str | None = None, melds: list[str] | None = None,
                      discards: str | None = None, read_pond: bool = False,
                      photo: str | None = None) -> dict[str, Any]:
        """Is this seat's waiting hand furiten against its own pond? Pond and hand typed, or read from the camera.
        A check that fails clears the last result: the furiten LED says what the last check found."""
        try:
            return self._check_furiten(seat, hand, melds, discards, read_pond, photo)
        except Exception:
            with self._lock:
                had, self.furiten = self.furiten, None
            if had is not None:
                self._bump()
            raise

    def _check_furiten(self, seat: Any, hand: str | None, melds: list[str] | None, discards: str | None,
                       read_pond: bool, photo: str | None) -> dict[str, Any]:
        seat = _seat(seat)
        _flag(read_pond, "read_pond")
        if melds is not None and not isinstance(melds, list):
            raise InputError('melds must be a list like ["pon:777z"]')
        melds = None if melds is None else _melds(melds)
        read: dict[str, Any] = {}
        if read_pond or hand is None or hand == "":
            hand, melds, discards, read = self._furiten_reading(seat, hand, melds, discards, read_pond, photo)
        hand, melds, discards = _text(hand or "", "hand"), _melds(melds), _text(discards or "", "discards")
        result = gp.furiten_check(hand, melds, discards, self._preset_name())
        result = {"seat": seat, "hand": hand, "melds": melds, "discards": discards, **result, **read,
                  "caveat": FURITEN_CAVEAT}
        with self._lock:
            self.furiten = result
        self._bump()
        return result

    def _furiten_reading(self, seat: int, hand: str | None, melds: list[str] | None, discards: str | None,
                         read_pond: bool, photo: str | None) -> tuple[str, list[str] | None, str | None, dict]:
        """The hand (when none was typed) and the seat's pond (with `read_pond`) from a photo, with lines saying
        what was read; red fives the game's set does not count are read as plain, as a scan reads them."""
        self._select_replay(photo)
        with self.busy("reading the table"):
            scan_id, cap = self.capture()
            reading = self._read(scan_id, cap)
        read: dict[str, Any] = {}
        hand_read, melds_read = hand in (None, ""), hand in (None, "") and not melds  # a form sends [] for none
        if hand_read:
            melds = melds or reading.melds
            hand, read["hand_read"] = gp.waiting_hand(reading.concealed, reading.win, melds)
            if not hand:
                raise InputError("no hand was typed and none was read from the photo: type the waiting hand "
                                 "(13 tiles, melds counted), or lay it face up in a row in view of the camera "
                                 "and check again")
        if read_pond:
            discards, read["pond"] = self._seat_pond(seat, reading.ponds)
        # The set's red fives are counted over all of it, but only what the photo gave is made plain: what was
        # typed is the keeper's word.
        plain_hand, _, plain_pond, plain_melds, notes = gp.with_set_red_fives(
            hand, "", discards or "", list(melds or []), self._preset_name())
        hand = plain_hand if hand_read else hand
        melds = plain_melds if melds_read else melds
        discards = plain_pond if read_pond else discards
        if notes:
            read["red_fives"] = notes
        return hand, melds, discards, read

    def _seat_pond(self, seat: int, ponds: dict[str, str]) -> tuple[str, str]:
        """The discards of `seat`'s pond in a photo, and a line saying which pond that was. The photo names ponds
        by where they lie from the camera; the camera's near side is `camera.near_seat`'s (0 by default), and
        the seats go round counterclockwise, so the next seat's pond is on the right."""
        near = self.config.camera.near_seat
        side = SEAT_NAMES[(seat - near) % 4]  # a photo's ponds: the next seat sits on the near one's right
        where = "nearest the camera" if side == "near" else f"{side} from the camera"
        if side not in ponds:
            seen = ", ".join(ponds) or "none"
            raise InputError(f"seat {seat}'s pond ({where}, as seat {near} sits nearest it) was not read from the "
                             f"photo (ponds read: {seen}): enter the discards, or turn off reading the pond")
        return ponds[side], f"read from the pond {where} (seat {seat}'s, as seat {near} sits nearest the camera)"

    # ---- history and export ------------------------------------------------------------------------------

    def games(self) -> list[dict[str, Any]]:
        return gp.games_view(self._require_store())

    def history(self) -> dict[str, Any]:
        gid = self.game_id()
        if gid is None:
            return {"game": None, "names": [], "points": [], "hands": []}
        return gp.history_view(self.store, gid)

    def export(self, game_id: Any, kind: str) -> str:
        return gp.export(self._require_store(), _game_number(game_id), kind)

    # ---- persistence of what is not an event -------------------------------------------------------------

    def _load_links(self) -> dict[tuple[int, int], str]:
        """Which scan photo belongs to which recorded hand, from the scan records kept beside the photos."""
        links: dict[tuple[int, int], str] = {}
        for meta_path in (self.data / "scans").glob("*.json"):
            try:
                meta = json.loads(meta_path.read_text(encoding="utf-8"))
                links[(int(meta["game"]), int(meta["hand_number"]))] = meta_path.stem
                self._scans[meta_path.stem] = meta
            except (OSError, ValueError, KeyError, TypeError):
                log.warning("ignoring unreadable scan record %s", meta_path)
        return links

    def _load_proposal(self) -> Proposal | None:
        """The pending proposal survives a restart (it is not an event until confirmed, but retyping it is tedious)."""
        path = self.data / "proposal.json"
        if not path.is_file():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            data.pop("photo_url", None)
            return Proposal(**data)
        except (OSError, ValueError, TypeError):
            log.warning("ignoring unreadable pending proposal %s", path)
            return None

    def _save_proposal(self) -> None:
        path = self.data / "proposal.json"
        if self.proposal is None:
            path.unlink(missing_ok=True)
        else:
            _atomic_write(path, json.dumps(self.proposal.to_json()))



_PATH = re.compile(r"(?<![\w.~-])(?:/[^\s/:;,()'\"]+)+/([^\s/:;,()'\"]+)")


def without_paths(text: str) -> str:
    """The device's descriptions as anyone in the room sees them: a folder named by its last part only (the full
    paths of the server's files are the journal's business, not the Wi-Fi's)."""
    return _PATH.sub(r"\1", text)


def _whole(value: Any, what: str) -> int:
    """A whole number from JSON or a form: 3, 3.0 and "3" are fine; 1.5, true, [3] and "three" are not."""
    if isinstance(value, bool) or value is None:
        raise InputError(f"{what} must be a whole number")
    if isinstance(value, float) and not value.is_integer():
        raise InputError(f"{what} must be a whole number, not {value!r}")
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        raise InputError(f"{what} must be a whole number, not {str(value)[:40]!r}") from None


CHANGED = ("the game changed since this page showed it (a hand, an undo or a riichi was recorded elsewhere): nothing "
           "was recorded; look at the score again and retry if still needed")
ENDED = ("the hand it was read for has ended (recorded, undone or the game ended elsewhere): the proposal was "
         "dropped and nothing was recorded; scan again if this hand is still to be recorded")


def _hand_key(game_id: int, state) -> list[int]:
    """`Assistant.hand_key` of a game's state: [id, results], and a 1 once the game is over (an end records no
    result, yet leaves no hand to record)."""
    return [game_id, state.results, 1] if state.over else [game_id, state.results]


def _game_number(game_id: Any) -> int:
    """A game's id from a URL or a request: digits only (not "２", " 2" or "+2"), in SQLite's INTEGER range."""
    text = str(game_id)
    gid = int(text) if text.isascii() and text.isdigit() and len(text) < 20 else 0
    if not 0 < gid < 2**63:
        raise NotFound(f"there is no game {text[:40]!r}")
    return gid


def _seat(value: Any, what: str = "seat") -> int:
    try:
        seat = _whole(value, what)
    except InputError:
        raise InputError(f"{what} must be 0-3 (0 is the first East)" + _not(value)) from None
    if not 0 <= seat <= 3:
        raise InputError(f"{what} must be 0-3 (0 is the first East), not {str(seat)[:40]}")
    return seat


def _not(value: Any) -> str:
    return "" if value is None or isinstance(value, bool) else f", not {str(value)[:40]!r}"


def _flag(value: Any, what: str) -> bool:
    """A yes/no field of a request: JSON true or false, never a string or a number that looks like one."""
    if not isinstance(value, bool):
        raise InputError(f"{what} must be true or false")
    return value


def _int(value: Any, what: str, low: int, high: int) -> int:
    n = _whole(value, what)
    if not low <= n <= high:
        raise InputError(f"{what} must be between {low} and {high}, not {str(n)[:40]}")
    return n


def _text(value: Any, what: str, limit: int = 200) -> str:
    if not isinstance(value, str):
        raise InputError(f"{what} must be text in MPSZ notation")
    if len(value) > limit:
        raise InputError(f"{what} is too long (at most {limit} characters)")
    return value.strip()


def _seats(values: list[Any], what: str) -> list[int]:
    """Seats of a list, in order; one named twice is refused as the CLI refuses it (a slip, not a wish)."""
    seats = [_seat(s, what) for s in values]
    if len(set(seats)) != len(seats):
        raise InputError(f"a {what} is listed twice: {values}")
    return sorted(seats)


def _reason(value: Any, what: str = "reason") -> str:
    """Free text stored in an event (an adjustment's or early end's reason): text, short enough for a page."""
    if not isinstance(value, str):
        raise InputError(f"{what} must be text")
    if len(value) > MAX_REASON:
        raise InputError(f"{what} is too long (at most {MAX_REASON} characters)")
    return value.strip()


def _melds(value: Any) -> list[str]:
    """Called melds as a list of texts ("pon:777z"); one space-separated string is accepted from a form."""
    if value is None:
        return []
    if isinstance(value, str):
        value = value.split()
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise InputError('melds must be a list like ["pon:777z", "chi:213m"]')
    if len(value) > 4:
        raise InputError(f"a hand has at most 4 melds, not {len(value)}")
    return [m.strip() for m in value if m.strip()]


def _flags(value: Any) -> dict[str, bool]:
    if value is None:
        return {}
    if not isinstance(value, dict) or not all(k in SITUATION_FLAGS and isinstance(v, bool) for k, v in value.items()):
        raise InputError(f"flags must map some of {', '.join(SITUATION_FLAGS)} to true/false")
    return dict(value)


def clean_hand(fields: dict[str, Any]) -> dict[str, Any]:
    """The hand fields present in `fields` (a proposal correction or a winner's hand), type-checked."""
    clean: dict[str, Any] = {}
    for key in ("concealed", "win", "dora_indicators", "ura_indicators"):
        if key in fields:
            clean[key] = "" if fields[key] is None else _text(fields[key], key)
    if "melds" in fields:
        clean["melds"] = _melds(fields["melds"])
    if "flags" in fields:
        clean["flags"] = _flags(fields["flags"])
    return clean


def _atomic_write(path: Path, text: str) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    with open(tmp, "w", encoding="utf-8") as fh:
        fh.write(text)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(tmp, path)

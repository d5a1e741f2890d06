"""The button-and-LED panel on the table, through gpiozero (the mock pin factory when no Raspberry Pi is found).

Buttons: one riichi button per seat, scan, tsumo, ron and draw; a long press of the undo button (scan by
default) undoes. LEDs: riichi and dealer per seat, status (steady ready, blinking busy, fast blinking error, off
once the game is over) and furiten. Presses call the same assistant actions as the page.

A win takes a few presses, because the panel has no screen: TSUMO, then the winner's seat button, and the
hand is scanned and proposed (the page shows it); RON, the winner's seat, then the discarder's seat. Pressing
TSUMO/RON again confirms the proposal; a long press on undo drops it. Before confirming a ron, the discarder's seat
button, when that seat is in riichi, marks the win as on the riichi declaration tile (that riichi does not stand: its
LED goes out) or takes the mark back. DRAW, then the tenpai seats (their riichi LEDs light), then DRAW again records
the exhaustive draw; a seat in riichi pressed a second time is a dead hand (declared dead after the riichi: noten, no
chombo; its LED goes out), a third time neither. A Zung Jung or MCR game has no tenpai: DRAW twice records its draw;
its TSUMO and RON are refused at once (its wins are recorded with `jantaku game`). While the panel waits for a seat,
the seats' riichi LEDs blink; after `select_timeout` seconds without a press it goes back to idle.

gpiozero runs callbacks on its own threads, so they only queue the press; one worker thread runs the
actions in order, so a slow scan never blocks a button and two presses never race.
"""

from __future__ import annotations

import logging
import os
import queue
import threading
import time
from typing import Any

from device.config import PanelConfig, on_raspberry_pi
from table.errors import InputError
from table.game import A_SYSTEM

log = logging.getLogger("jantaku.panel")

SEATS = range(4)
ACTION_BUTTONS = ("scan", "tsumo", "ron", "draw")


def make_pin_factory(name: str):
    """The gpiozero pin factory for `name`; `auto` means gpiozero's own choice on a Pi and MockFactory elsewhere."""
    if name == "auto":
        if os.environ.get("GPIOZERO_PIN_FACTORY") or on_raspberry_pi():
            from gpiozero import Device

            return Device._default_pin_factory() if Device.pin_factory is None else Device.pin_factory
        name = "mock"
    if name == "mock":
        from gpiozero import Device
        from gpiozero.pins.mock import MockFactory

        factory = MockFactory()
        Device.pin_factory = factory
        return factory
    if name == "lgpio":
        from gpiozero.pins.lgpio import LGPIOFactory

        return LGPIOFactory()
    if name == "rpigpio":
        from gpiozero.pins.rpigpio import RPiGPIOFactory

        return RPiGPIOFactory()
    if name == "pigpio":
        from gpiozero.pins.pigpio import PiGPIOFactory

        return PiGPIOFactory()
    from gpiozero.pins.native import NativeFactory

    return NativeFactory()


class Panel:
    def __init__(self, assistant, config: PanelConfig, pin_factory=None) -> None:
        from gpiozero import LED, Button
        from gpiozero.pins.mock import MockFactory

        self.assistant = assistant
        self.config = config
        self.factory = pin_factory if pin_factory is not None else make_pin_factory(config.pin_factory)
        self.is_mock = isinstance(self.factory, MockFactory)
        bounce = None if self.is_mock else config.bounce_seconds
        f = self.factory

        def button(pin: int) -> Any:
            return Button(pin, pull_up=True, bounce_time=bounce, hold_time=config.hold_seconds, pin_factory=f)

        self.buttons: dict[str, Any] = {f"riichi{s}": button(config.riichi_buttons[s]) for s in SEATS}
        self.buttons.update(
            scan=button(config.scan_button), tsumo=button(config.tsumo_button), ron=button(config.ron_button),
            draw=button(config.draw_button),
        )
        self.leds: dict[str, Any] = {f"riichi{s}": LED(config.riichi_leds[s], pin_factory=f) for s in SEATS}
        self.leds.update({f"dealer{s}": LED(config.dealer_leds[s], pin_factory=f) for s in SEATS})
        self.leds.update(status=LED(config.status_led, pin_factory=f), furiten=LED(config.furiten_led, pin_factory=f))
        self._led_modes: dict[str, str] = {}
        self._led_lock = threading.Lock()
        self._tickets = self._landed = 0  # update_leds: plans in the order they were made

        self.mode = "idle"
        self.mode_data: dict[str, Any] = {}
        self._mode_hand: list[int] | None = None  # the hand a half-done TSUMO, RON or DRAW belongs to
        proposal = assistant.proposal  # kept over a restart: TSUMO or RON records it, as before the restart
        if proposal is not None and proposal.winner is not None:
            self.mode_data = {"kind": "tsumo" if proposal.tsumo else "ron", "winner": proposal.winner,
                              **({} if proposal.tsumo else {"discarder": proposal.discarder}),
                              "scan_id": proposal.scan_id}
            self.mode = "confirm"
        self._mode_since = time.monotonic()
        self._held: set[str] = set()
        self._queue: queue.Queue = queue.Queue()
        self._stop = threading.Event()
        for name, btn in self.buttons.items():
            if name == config.undo_button:
                btn.when_pressed = lambda n=name: self._held.discard(n)
                btn.when_held = lambda n=name: self._on_held(n)
                btn.when_released = lambda n=name: self._on_released(n)
            else:
                btn.when_pressed = lambda n=name: self._queue.put(("press", n))
        self._worker = threading.Thread(target=self._run, name="panel-worker", daemon=True)
        self._worker.start()
        assistant.subscribe(self._on_change)
        factory_name = type(self.factory).__name__
        assistant.panel_description = f"mock pins ({factory_name})" if self.is_mock else f"GPIO ({factory_name})"
        self.update_leds()
        log.info("panel ready on %s: riichi buttons %s, scan %d, tsumo %d, ron %d, draw %d, undo = long %s",
                 factory_name, config.riichi_buttons, config.scan_button, config.tsumo_button, config.ron_button,
                 config.draw_button, config.undo_button)

    # ---- gpiozero callbacks (their threads): only queue -----------------------------------------------------

    def _on_change(self) -> None:
        """After any change (the page's, `jantaku game`'s, the panel's own): the LEDs follow at once, and the worker
        looks whether the hand it waits to confirm is still pending (only the worker changes the mode)."""
        self._queue.put(("sync", ""))
        self.update_leds()

    def _on_held(self, name: str) -> None:
        self._held.add(name)
        self._queue.put(("undo", name))

    def _on_released(self, name: str) -> None:
        if name in self._held:
            self._held.discard(name)
            return
        self._queue.put(("press", name))

    # ---- the worker: one action at a time ----------------------------------------------------------------

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                kind, name = self._queue.get(timeout=0.25)
            except queue.Empty:
                self._expire_mode()
                continue
            if kind == "stop":
                self._queue.task_done()
                return
            try:
                if kind == "sync":
                    self._sync_confirm()
                    continue
                if kind == "undo":
                    self._undo()
                else:
                    self._press(name)
                self.assistant.clear_error()
            except InputError as exc:  # a mode stays as it was (the message says what to press), its time anew
                self._mode_since = time.monotonic()
                self.assistant.flag_error(f"panel: {exc}")
            except Exception as exc:  # keep the panel alive whatever an action does
                log.exception("panel action %s failed", name)
                self.assistant.flag_error(f"panel: {name} failed: {exc}")
            finally:
                self._queue.task_done()
                self.update_leds()

    def wait_idle(self, timeout: float = 10.0) -> bool:
        """Block until every queued press has run (tests, and the mock-press API, use it)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self._queue.unfinished_tasks == 0:
                return True
            time.sleep(0.01)
        return False

    def _set_mode(self, mode: str, **data: Any) -> None:
        self.mode_data = data  # before the mode: a reader never sees the new mode with the old mode's data
        self.mode = mode
        self._mode_since = time.monotonic()
        self._mode_hand = None if mode == "idle" else self.assistant.hand_key()
        log.info("panel mode %s %s", mode, data or "")
        self.update_leds()

    def _expire_mode(self) -> None:
        if self.mode.startswith(("pick", "draw")) and time.monotonic() - self._mode_since > self.config.select_timeout:
            log.info("panel: no seat chosen in %.0f s, back to idle", self.config.select_timeout)
            self._set_mode("idle")

    def _sync_confirm(self) -> None:
        """Confirm mode belongs to the proposal this panel scanned: once it is recorded, dropped or replaced
        elsewhere, there is nothing of it to confirm, and the panel goes back to idle."""
        if self.mode == "confirm" and not self._proposal_pressed():
            self._set_mode("idle")

    def _undo(self) -> None:
        """A long press: cancels a half-done TSUMO, RON or DRAW (saying so: the player may have meant to undo),
        else drops a pending proposal, else undoes the last event. One thing per press, the least first."""
        a = self.assistant
        if self.mode.startswith(("pick", "draw")):
            entry = "DRAW" if self.mode.startswith("draw") else self.mode_data["kind"].upper()
            self._set_mode("idle")
            then = "drop the proposed hand" if a.proposal is not None else "undo the last event"
            raise InputError(f"the long press cancelled {entry}: nothing was undone (hold again to {then})")
        self._set_mode("idle")
        if a.proposal is not None:
            a.discard_proposal()
            return
        a.undo()

    def _press(self, name: str) -> None:
        a = self.assistant
        seat = int(name[-1]) if name.startswith("riichi") else None
        mode = self.mode
        if mode != "confirm" and mode != "idle" and self._mode_hand != a.hand_key():
            self._set_mode("idle")  # the hand ended (or was undone) on the page meanwhile: these picks belong to none
            raise InputError(f"the game moved on from the page while the panel waited: {mode.split('-')[0].upper()} "
                             "was cancelled; start it again if it is still wanted")
        if mode == "pick-winner":
            if seat is None:
                if name == self.mode_data["kind"]:
                    self._set_mode("idle")  # pressed the same button again: cancel
                    return
                raise InputError(f"press the winner's seat button (or {self.mode_data['kind'].upper()} again to "
                                 "cancel)")
            if self.mode_data["kind"] == "ron":
                self._set_mode("pick-discarder", kind="ron", winner=seat)
                return
            self._set_mode("idle")  # a scan that fails leaves nothing to confirm
            scanned = a.scan_hand(winner=seat, tsumo=True)
            self._set_mode("confirm", kind="tsumo", winner=seat, scan_id=scanned.scan_id)
            return
        if mode == "pick-discarder":
            if seat is None:
                if name == "ron":
                    self._set_mode("idle")
                    return
                raise InputError("press the seat button of the player who dealt in (or RON again to cancel)")
            winner = self.mode_data["winner"]
            if seat == winner:
                raise InputError("the winner cannot ron their own discard: press the discarder's seat (or RON again "
                                 "to cancel)")
            self._set_mode("idle")
            scanned = a.scan_hand(winner=winner, discarder=seat, tsumo=False)
            self._set_mode("confirm", kind="ron", winner=winner, discarder=seat, scan_id=scanned.scan_id)
            return
        if mode == "draw-confirm":  # Zung Jung and MCR: no tenpai to pick, DRAW twice so a slip records nothing
            if name == "draw":
                a.record_draw([])
                self._set_mode("idle")
                return
            raise InputError(f"{A_SYSTEM[self.mode_data['system']]} game has no tenpai seats to pick: press DRAW "
                             "again to record the draw, or hold undo to cancel")
        if mode == "draw-tenpai":
            if seat is not None:
                tenpai, dead = set(self.mode_data["tenpai"]), set(self.mode_data["dead"])
                state = a.state()
                if seat in tenpai and state and state.riichi[seat]:  # tenpai -> dead hand -> neither
                    tenpai.discard(seat)
                    dead.add(seat)
                elif seat in dead:
                    dead.discard(seat)
                else:
                    tenpai ^= {seat}
                self.mode_data = {"tenpai": sorted(tenpai), "dead": sorted(dead)}
                self._mode_since = time.monotonic()
                return
            if name == "draw":  # refused (a riichi seat not picked), the picks stay for another try
                a.record_draw(list(self.mode_data["tenpai"]), dead=list(self.mode_data["dead"]))
                self._set_mode("idle")
                return
            raise InputError("press the tenpai seats, then DRAW again")
        if mode == "confirm" and not self._proposal_pressed():
            self._set_mode("idle")  # the page dropped or replaced the hand scanned here: nothing of it to confirm
            mode = "idle"
        own_proposal = mode == "confirm"  # a new TSUMO or RON may replace the panel's own scan, not the page's
        if mode == "confirm":
            if name == self.mode_data["kind"]:
                a.confirm_proposal()
                self._set_mode("idle")
                return
            if name == "scan":
                d = self.mode_data
                d["scan_id"] = a.scan_hand(winner=d["winner"], discarder=d.get("discarder"),
                                           tsumo=d["kind"] == "tsumo").scan_id
                return
            state = a.state()
            marked = a.proposal.riichi_discard
            if seat == self.mode_data.get("discarder") is not None and (marked or state and state.riichi[seat]):
                a.propose(riichi_discard=not marked)  # on the riichi tile, or not after all (also once undone)
                return
            if seat is not None:  # a riichi declared now would be a slip: the hand is waiting to be recorded
                why = " (the discarder is not in riichi: no riichi tile to mark)" \
                    if seat == self.mode_data.get("discarder") else ""
                raise InputError(f"the hand waits to be recorded{why}: press {self.mode_data['kind'].upper()} to "
                                 "record it, or hold undo to drop it")
            self._set_mode("idle")  # anything else leaves confirm mode and acts as from idle
        if seat is not None and a.proposal is not None:  # a slip: the hand is over, only its recording waits
            raise InputError("a hand waits to be recorded (see the keeper page), so no riichi is declared: record "
                             "it there, or hold undo to drop it")
        if seat is not None:
            a.declare_riichi(seat)
        elif name in ("tsumo", "ron", "draw"):
            state = a.state()
            if state is None:
                raise InputError("no game is running")
            system = state.rules.system
            if state.over:  # refused now, not after the seats are picked and the photo read
                raise InputError("the game is over: " + ("start a new game on the keeper page" if system == "riichi"
                                 else f"start the next one with `jantaku game new --rules {state.preset}` (the "
                                 "keeper page starts riichi games only)"))
            if name == "draw":
                if system == "riichi":
                    self._set_mode("draw-tenpai", tenpai=[], dead=[])
                else:
                    self._set_mode("draw-confirm", system=system)
                return
            a.require_device_scoring()  # a Zung Jung or MCR win: said now, not after the seats and the photo
            if a.proposal is not None and not own_proposal:  # its edits would be lost unasked
                raise InputError("a proposed hand waits to be recorded (see the keeper page): confirm it there, or "
                                 f"hold undo to drop it and press {name.upper()} again")
            self._set_mode("pick-winner", kind=name)
        elif name == "scan":
            a.scan_hand()

    def _proposal_pressed(self) -> bool:
        """The pending proposal is still the hand this panel's presses scanned: the same photo (the page may have
        fixed its tiles), with the same winner, win and discarder."""
        p, d = self.assistant.proposal, self.mode_data
        return p is not None and (p.scan_id, p.winner, p.tsumo, p.discarder) == (
            d.get("scan_id"), d.get("winner"), d.get("kind") == "tsumo", d.get("discarder"))

    # ---- LEDs follow the state ---------------------------------------------------------------------------

    def led_plan(self) -> dict[str, str]:
        """What each LED should do now: on, off, blink (busy) or fast (error / choose a seat)."""
        snap = self.assistant.snapshot()
        game = snap["game"]
        over = bool(game and game["over"])  # no dealer then (the pages show none), and nothing to be ready for
        plan: dict[str, str] = {}
        proposal = self.assistant.proposal
        void = proposal.discarder if proposal and proposal.riichi_discard else None  # that riichi does not stand
        for s in SEATS:
            seat = game["seats"][s] if game else None
            plan[f"dealer{s}"] = "on" if seat and seat["dealer"] and not over else "off"
            riichi = "on" if seat and seat["riichi"] and s != void else "off"
            if self.mode.startswith("pick"):
                riichi = "blink" if not (self.mode == "pick-discarder" and s == self.mode_data.get("winner")) else "on"
            elif self.mode == "draw-tenpai":
                riichi = "on" if s in self.mode_data["tenpai"] else "off" if s in self.mode_data["dead"] else "blink"
            plan[f"riichi{s}"] = riichi
        status = self.assistant.status
        plan["status"] = {"ready": "off" if over else "on", "busy": "blink", "error": "fast"}[status]
        furiten = self.assistant.furiten
        plan["furiten"] = "on" if furiten and furiten.get("furiten") else "off"
        return plan

    def update_leds(self) -> None:
        """Called from any thread after any change. A plan made before a change must not land after the plan made
        after it, so each carries a ticket and an older one is dropped; the plan itself is made outside the LED
        lock, since a caller may hold the assistant's lock, which making a plan takes."""
        with self._led_lock:
            self._tickets += 1
            ticket = self._tickets
        plan = self.led_plan()
        with self._led_lock:
            if ticket < self._landed:
                return
            self._landed = ticket
            for name, mode in plan.items():
                if self._led_modes.get(name) == mode:
                    continue
                led = self.leds[name]
                if mode == "on":
                    led.on()
                elif mode == "off":
                    led.off()
                elif mode == "blink":
                    led.blink(on_time=0.5, off_time=0.5)
                else:
                    led.blink(on_time=0.1, off_time=0.1)
                self._led_modes[name] = mode

    # ---- mock presses and description (the panel page) -----------------------------------------------------

    def press(self, name: str, hold: bool = False) -> None:
        """Press a mock button (drive its pin low, then high); `undo` means holding the undo button."""
        if not self.is_mock:
            raise InputError("only mock pins can be pressed from software")
        if name == "undo":
            name, hold = self.config.undo_button, True
        if name not in self.buttons:
            raise InputError(f"no button {name!r}: riichi0-riichi3, {', '.join(ACTION_BUTTONS)} or undo")
        pin = self.buttons[name].pin
        pin.drive_low()
        time.sleep(self.config.hold_seconds + 0.5 if hold else 0.02)
        pin.drive_high()
        self.wait_idle()

    def describe(self) -> dict[str, Any]:
        mode, data = self.mode, self.mode_data
        if mode == "confirm" and not self._proposal_pressed():  # gone elsewhere: the worker is about to go idle
            mode, data = "idle", {}
        kind = data.get("kind", "").upper()
        texts = {
            "idle": "",
            "pick-winner": f"{kind}: press the winner's seat",
            "pick-discarder": "RON: press the seat that dealt in",
            "confirm": f"press {kind} again to record, long press undo to drop",
            "draw-tenpai": "DRAW: press the tenpai seats (a seat in riichi twice: dead hand), then DRAW again",
            "draw-confirm": "DRAW: press DRAW again to record the draw",
        }
        with self._led_lock:
            modes = dict(self._led_modes)
        return {
            "mock": self.is_mock,
            "factory": type(self.factory).__name__,
            "mode": mode,
            "mode_data": data,
            "mode_text": texts.get(mode, mode),
            "error": self.assistant.status_message if self.assistant.status == "error" else "",
            "leds": {name: bool(led.is_lit) for name, led in self.leds.items()},
            "led_modes": modes,
            "buttons": sorted(self.buttons),
            "undo_button": self.config.undo_button,
        }

    def close(self) -> None:
        self.assistant.unsubscribe(self._on_change)
        self._stop.set()
        self._queue.put(("stop", ""))
        self._worker.join(timeout=2)
        for btn in self.buttons.values():  # stop every hold thread at once, not 0.1 s each in turn
            thread = getattr(btn, "_hold_thread", None)
            if thread is not None:
                thread.stopping.set()
        for dev in [*self.buttons.values(), *self.leds.values()]:
            dev.close()

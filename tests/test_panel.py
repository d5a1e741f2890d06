"""The button-and-LED panel under gpiozero's MockFactory: a press changes the game, an LED follows the state."""

from __future__ import annotations

import threading
import time
from dataclasses import replace

import pytest
from gpiozero.pins.mock import MockFactory
from helpers_device import make_assistant

from device.panel import Panel


def _rig(tmp_path):
    factory = MockFactory()
    assistant = make_assistant(tmp_path)
    assistant.start_game(["Aki", "Ben", "Cid", "Dee"], "tenhou")
    panel = Panel(assistant, assistant.config.panel, pin_factory=factory)
    yield assistant, panel, factory
    panel.close()
    factory.reset()
    assistant.store.close()


@pytest.fixture
def rig(tmp_path):
    yield from _rig(tmp_path)


def pin(factory, number):
    return factory.pin(number)


def tap(factory, number, hold=0.0):
    p = pin(factory, number)
    p.drive_low()
    time.sleep(hold or 0.02)
    p.drive_high()


def settle(panel):
    assert panel.wait_idle(10)
    time.sleep(0.02)


def scan_tsumo(factory, panel, seat):
    """TSUMO, then the winner's seat button: the panel scans the table for that seat's self-drawn win."""
    tap(factory, panel.config.tsumo_button)
    tap(factory, panel.config.riichi_buttons[seat])
    settle(panel)


def seats(assistant):
    return assistant.snapshot()["game"]["seats"]


def test_leds_start_from_the_state(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    assert pin(factory, cfg.dealer_leds[0]).state is True  # seat 0 deals first
    assert [pin(factory, n).state for n in cfg.dealer_leds[1:]] == [False, False, False]
    assert [pin(factory, n).state for n in cfg.riichi_leds] == [False] * 4
    assert pin(factory, cfg.status_led).state is True  # steady: ready
    assert pin(factory, cfg.furiten_led).state is False


def test_riichi_button_declares_and_its_led_lights(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    tap(factory, cfg.riichi_buttons[2])
    settle(panel)
    assert seats(assistant)[2]["riichi"] is True
    assert assistant.snapshot()["game"]["riichi_sticks"] == 1
    assert pin(factory, cfg.riichi_leds[2]).state is True
    assert pin(factory, cfg.riichi_leds[1]).state is False


def test_led_follows_a_change_made_on_the_page(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.declare_riichi(3)  # what the keeper page's button calls
    assert pin(factory, cfg.riichi_leds[3]).state is True
    assistant.record_ron(1, [{"seat": 3, "han": 1, "fu": 30}])
    assert pin(factory, cfg.riichi_leds[3]).state is False  # new hand: sticks collected
    assert pin(factory, cfg.dealer_leds[1]).state is True  # dealer passed to seat 1
    assert pin(factory, cfg.dealer_leds[0]).state is False


def test_tsumo_flow_scan_and_confirm_from_the_panel(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    tap(factory, cfg.tsumo_button)
    settle(panel)
    assert panel.mode == "pick-winner"
    assert panel.describe()["led_modes"]["riichi0"] == "blink"  # choose a seat
    tap(factory, cfg.riichi_buttons[1])
    settle(panel)
    assert panel.mode == "confirm"
    proposal = assistant.proposal
    assert proposal.winner == 1 and proposal.tsumo and proposal.photo == "01-added-kan.jpg"
    assert proposal.score["limit"] == "baiman"
    tap(factory, cfg.tsumo_button)  # again: record it
    settle(panel)
    assert panel.mode == "idle" and assistant.proposal is None
    game = assistant.snapshot()["game"]
    assert game["seats"][1]["points"] == 25000 + 16000
    assert game["seats"][0]["points"] == 25000 - 8000
    assert game["last"]["photo"] is not None


def test_ron_flow_picks_winner_then_discarder(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.camera.select("02-seven-pairs.jpg")
    tap(factory, cfg.ron_button)
    tap(factory, cfg.riichi_buttons[2])
    settle(panel)
    assert panel.mode == "pick-discarder"
    assert panel.describe()["led_modes"]["riichi2"] == "on"  # the winner's LED stays lit
    tap(factory, cfg.riichi_buttons[2])  # the winner again: refused, error shown, still waiting for the discarder
    settle(panel)
    assert assistant.status == "error" and panel.mode == "pick-discarder"
    assert "or RON again to cancel" in assistant.status_message
    assert pin(factory, cfg.status_led).state in (True, False)
    assert panel.describe()["led_modes"]["status"] == "fast"
    tap(factory, cfg.ron_button)  # cancelled, as the message says
    settle(panel)
    assert panel.mode == "idle"
    tap(factory, cfg.ron_button)
    tap(factory, cfg.riichi_buttons[0])
    tap(factory, cfg.riichi_buttons[3])
    settle(panel)
    assert assistant.proposal.winner == 0 and assistant.proposal.discarder == 3
    tap(factory, cfg.ron_button)
    settle(panel)
    assert seats(assistant)[3]["points"] < 25000 and seats(assistant)[0]["points"] > 25000


def test_the_discarders_seat_button_marks_a_ron_on_their_riichi_tile(rig):
    """Club rule book 4.2.1: a ronned riichi declaration tile puts no stick down. Before RON confirms, the
    discarder's seat button (in riichi) marks it: their riichi LED goes out, a rescan keeps the mark, a second
    press takes it back, and the recorded ron returns the stick."""
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.camera.select("02-seven-pairs.jpg")
    tap(factory, cfg.riichi_buttons[3])
    tap(factory, cfg.ron_button)
    tap(factory, cfg.riichi_buttons[0])
    tap(factory, cfg.riichi_buttons[3])
    settle(panel)
    assert panel.mode == "confirm" and panel.describe()["led_modes"]["riichi3"] == "on"
    tap(factory, cfg.riichi_buttons[3])
    settle(panel)
    assert assistant.proposal.riichi_discard and panel.describe()["led_modes"]["riichi3"] == "off"
    assert assistant.proposal.score["sticks_bonus"] == 0
    tap(factory, cfg.scan_button)  # read again: still the same ron, still on the riichi tile
    settle(panel)
    assert assistant.proposal.riichi_discard and panel.mode == "confirm"
    tap(factory, cfg.riichi_buttons[3])
    settle(panel)
    assert not assistant.proposal.riichi_discard and panel.describe()["led_modes"]["riichi3"] == "on"
    tap(factory, cfg.riichi_buttons[3])
    settle(panel)
    assert assistant.proposal.riichi_discard and panel.describe()["led_modes"]["riichi3"] == "off"
    tap(factory, cfg.ron_button)
    settle(panel)
    payment = assistant.state().last_hand.deltas[3]
    assert seats(assistant)[3]["points"] == 25000 + payment and assistant.state().riichi_sticks == 0
    assert assistant.state().last_hand.riichi_discard and not seats(assistant)[3]["riichi"]


def test_draw_flow_toggles_tenpai_seats(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    tap(factory, cfg.draw_button)
    tap(factory, cfg.riichi_buttons[0])
    tap(factory, cfg.riichi_buttons[1])
    tap(factory, cfg.riichi_buttons[1])  # pressed twice: not tenpai after all
    tap(factory, cfg.riichi_buttons[3])
    settle(panel)
    assert panel.mode_data == {"tenpai": [0, 3], "dead": []}
    assert pin(factory, cfg.riichi_leds[0]).state is True
    tap(factory, cfg.draw_button)
    settle(panel)
    assert [s["points"] for s in seats(assistant)] == [26500, 23500, 23500, 26500]
    assert assistant.snapshot()["game"]["honba"] == 1


def test_a_riichi_seat_pressed_twice_at_a_draw_is_a_dead_hand(rig):
    """Club rule book 3.4.7: a riichi hand declared dead is noten at the draw, no chombo. At DRAW a seat in riichi
    goes tenpai, then dead (its LED out), then neither; a seat not in riichi only toggles tenpai."""
    assistant, panel, factory = rig
    cfg = panel.config
    tap(factory, cfg.riichi_buttons[1])
    tap(factory, cfg.draw_button)
    tap(factory, cfg.riichi_buttons[2])
    tap(factory, cfg.riichi_buttons[1])
    settle(panel)
    assert panel.mode_data == {"tenpai": [1, 2], "dead": []}
    tap(factory, cfg.riichi_buttons[1])
    tap(factory, cfg.riichi_buttons[2])
    tap(factory, cfg.riichi_buttons[2])
    settle(panel)
    assert panel.mode_data == {"tenpai": [2], "dead": [1]}
    assert panel.describe()["led_modes"]["riichi1"] == "off" and panel.describe()["led_modes"]["riichi2"] == "on"
    tap(factory, cfg.riichi_buttons[1])
    settle(panel)
    assert panel.mode_data == {"tenpai": [2], "dead": []}  # a third press: neither
    tap(factory, cfg.riichi_buttons[1])
    tap(factory, cfg.riichi_buttons[1])
    tap(factory, cfg.draw_button)
    settle(panel)
    # Cid alone tenpai: +3000; Aki, Ben and Dee pay 1000 each (Ben paid his stick before): no chombo.
    assert [s["points"] for s in seats(assistant)] == [24000, 23000, 28000, 24000]
    assert assistant.state().last_hand.dead == (1,) and assistant.state().riichi_sticks == 1


def test_long_press_undoes_and_short_press_scans(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.declare_riichi(1)
    tap(factory, cfg.scan_button, hold=cfg.hold_seconds + 0.6)
    settle(panel)
    assert seats(assistant)[1]["riichi"] is False
    assert pin(factory, cfg.riichi_leds[1]).state is False
    assert assistant.proposal is None  # a long press is not also a short press
    tap(factory, cfg.scan_button)
    settle(panel)
    assert assistant.proposal is not None and assistant.proposal.concealed == "456s55p44z555z"


def test_long_press_drops_a_pending_proposal_first(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.declare_riichi(1)
    assistant.scan_hand(winner=1, tsumo=True)
    tap(factory, cfg.scan_button, hold=cfg.hold_seconds + 0.6)
    settle(panel)
    assert assistant.proposal is None
    assert seats(assistant)[1]["riichi"] is True  # the riichi stays; only the proposal went


def test_furiten_led_follows_the_check(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.check_furiten(1, hand="4466s88s2233z667z", discards="7z")
    assert pin(factory, cfg.furiten_led).state is True
    assistant.check_furiten(1, hand="4466s88s2233z667z", discards="1m")
    assert pin(factory, cfg.furiten_led).state is False


def test_status_led_blinks_while_busy(rig):
    assistant, panel, factory = rig
    with assistant.busy("test"):
        assert panel.describe()["led_modes"]["status"] == "blink"
    assert panel.describe()["led_modes"]["status"] == "on"


def test_selection_times_out_back_to_idle(rig):
    assistant, panel, factory = rig
    panel.config = replace(panel.config, select_timeout=1.5)  # long enough to see the selection on a busy CI box
    tap(factory, panel.config.tsumo_button)
    settle(panel)
    assert panel.mode == "pick-winner"
    deadline = time.monotonic() + 10
    while panel.mode != "idle" and time.monotonic() < deadline:
        time.sleep(0.05)
    assert panel.mode == "idle"


def test_press_without_a_game_flags_an_error(tmp_path):
    factory = MockFactory()
    assistant = make_assistant(tmp_path)
    panel = Panel(assistant, assistant.config.panel, pin_factory=factory)
    try:
        tap(factory, panel.config.riichi_buttons[0])
        settle(panel)
        assert assistant.status == "error"
        assert "no game is running" in assistant.status_message
        assert panel.describe()["led_modes"]["status"] == "fast"
    finally:
        panel.close()
        factory.reset()
        assistant.store.close()


def test_a_failed_scan_leaves_nothing_to_confirm(rig):
    """The panel's scan for seat 2 fails: pressing TSUMO again starts a new win, it records nothing."""
    assistant, panel, factory = rig
    cfg = panel.config
    camera, assistant.camera = assistant.camera, None  # the camera fails
    scan_tsumo(factory, panel, 2)
    assert assistant.status == "error" and "no camera" in assistant.status_message and panel.mode == "idle"
    assert assistant.proposal is None
    assistant.camera = camera
    tap(factory, cfg.tsumo_button)
    settle(panel)
    assert panel.mode == "pick-winner" and assistant.status == "ready"
    assert [s["points"] for s in seats(assistant)] == [25000] * 4


def test_a_hand_replaced_on_the_page_is_not_confirmed_from_the_panel(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    scan_tsumo(factory, panel, 1)
    assert panel.mode == "confirm"
    assistant.scan_hand(winner=3, tsumo=True)  # the keeper scans another winner on the page
    tap(factory, cfg.tsumo_button)
    settle(panel)
    assert panel.mode == "idle" and assistant.proposal.winner == 3  # refused: the page's hand waits
    assert [s["points"] for s in seats(assistant)] == [25000] * 4


def test_an_error_is_shown_while_the_led_blinks_and_then_cleared(rig):
    assistant, panel, _ = rig
    assistant.flag_error("the winner cannot ron their own discard", seconds=0.2)
    assert panel.describe()["error"] == "the winner cannot ron their own discard"
    assert assistant.snapshot()["device"]["message"] == "the winner cannot ron their own discard"
    time.sleep(0.5)
    assert panel.describe()["error"] == "" and assistant.snapshot()["device"] == {
        **assistant.snapshot()["device"], "status": "ready", "message": ""}


def test_a_press_that_works_ends_the_error_a_wrong_one_showed(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    tap(factory, cfg.riichi_buttons[1])
    tap(factory, cfg.riichi_buttons[1])  # already in riichi: refused
    settle(panel)
    assert assistant.status == "error" and "already declared riichi" in panel.describe()["error"]
    tap(factory, cfg.riichi_buttons[2])  # within the error's four seconds
    settle(panel)
    assert seats(assistant)[2]["riichi"] and assistant.status == "ready"
    assert panel.describe()["error"] == "" and panel.describe()["led_modes"]["status"] == "on"


def test_a_seat_pressed_while_a_ron_waits_declares_no_riichi(rig):
    """Before RON confirms, the discarder's button marks their riichi tile; pressed when they made no riichi (or any
    other seat's), it says so and the hand still waits, where it once declared a riichi and left confirm mode."""
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.camera.select("02-seven-pairs.jpg")
    for button in (cfg.ron_button, cfg.riichi_buttons[0], cfg.riichi_buttons[3]):
        tap(factory, button)
    settle(panel)
    assert panel.mode == "confirm"
    for seat in (3, 1):
        tap(factory, cfg.riichi_buttons[seat])
        settle(panel)
        assert panel.mode == "confirm" and assistant.status == "error"
        assert "the hand waits to be recorded" in panel.describe()["error"]
    assert "the discarder is not in riichi" not in panel.describe()["error"]  # seat 1 is no discarder
    assert not any(s["riichi"] for s in seats(assistant)) and assistant.state().riichi_sticks == 0
    tap(factory, cfg.ron_button)
    settle(panel)
    assert assistant.state().last_hand.kind == "ron" and panel.mode == "idle"


def test_tsumo_ron_and_draw_are_refused_at_once_when_the_game_is_over(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.end_game("time called")
    photos = len(list((assistant.data / "scans").glob("*.jpg")))
    for button in (cfg.tsumo_button, cfg.ron_button, cfg.draw_button):
        tap(factory, button)
        settle(panel)
        assert panel.mode == "idle" and "the game is over" in panel.describe()["error"]
    tap(factory, cfg.riichi_buttons[1])  # would have picked the winner and read a photo
    tap(factory, cfg.scan_button)  # nor is a hand read to be recorded
    settle(panel)
    assert "the game is over" in panel.describe()["error"]
    assert assistant.proposal is None and len(list((assistant.data / "scans").glob("*.jpg"))) == photos


def test_a_proposal_kept_over_a_restart_is_recorded_by_the_panel(rig):
    """The proposal outlives a restart (the data folder keeps it); the panel starts waiting for it, so TSUMO records
    the hand as edited instead of picking a winner and reading a new photo over it."""
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.camera.select("02-seven-pairs.jpg")
    kept = assistant.scan_hand(winner=2, tsumo=True)
    panel.close()
    factory.reset()
    again = Panel(assistant, cfg, pin_factory=factory)
    try:
        assert again.mode == "confirm" and again.mode_data == {"kind": "tsumo", "winner": 2, "scan_id": kept.scan_id}
        tap(factory, cfg.tsumo_button)
        settle(again)
        assert assistant.state().last_hand.kind == "tsumo" and assistant.proposal is None and again.mode == "idle"
    finally:
        again.close()


def test_a_hand_recorded_on_the_page_ends_what_the_panel_was_doing_for_it(rig):
    """The keeper recorded by han/fu the tsumo the panel had scanned: TSUMO at the table recorded it a second time,
    priced in the next hand; and DRAW with seats picked recorded a draw in a hand nobody had played."""
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.camera.select("02-seven-pairs.jpg")
    scan_tsumo(factory, panel, 0)
    assert panel.mode == "confirm" and assistant.proposal is not None
    assistant.record_tsumo({"seat": 0, "han": 2, "fu": 30})  # the same win, typed on the page
    assert assistant.proposal is None  # it belonged to the hand just recorded
    hands = assistant.state().results
    tap(factory, cfg.tsumo_button)
    settle(panel)
    assert assistant.state().results == hands and panel.mode == "pick-winner"  # a new win begins, none recorded
    tap(factory, cfg.tsumo_button)  # cancel
    tap(factory, cfg.draw_button)
    tap(factory, cfg.riichi_buttons[1])
    settle(panel)
    assistant.record_tsumo({"seat": 2, "han": 1, "fu": 30})  # the keeper records this hand meanwhile
    hands = assistant.state().results
    tap(factory, cfg.draw_button)
    settle(panel)
    assert assistant.state().results == hands and panel.mode == "idle"
    assert "the game moved on from the page while the panel waited: DRAW was cancelled" in assistant.status_message


def test_no_riichi_by_a_slip_while_any_hand_waits_and_a_stale_riichi_tile_mark_comes_off(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.scan_hand(winner=2, tsumo=True)  # proposed on the keeper page
    tap(factory, cfg.riichi_buttons[1])
    settle(panel)
    assert not assistant.state().riichi[1] and "a hand waits to be recorded" in assistant.status_message
    assistant.discard_proposal()
    # a ron marked as on the discarder's riichi tile, then that riichi undone on the page: the mark comes off
    assistant.camera.select("02-seven-pairs.jpg")
    tap(factory, cfg.riichi_buttons[3])
    tap(factory, cfg.ron_button)
    tap(factory, cfg.riichi_buttons[0])
    tap(factory, cfg.riichi_buttons[3])
    tap(factory, cfg.riichi_buttons[3])
    settle(panel)
    assert assistant.proposal.riichi_discard
    assistant.undo()  # seat 3's riichi
    tap(factory, cfg.riichi_buttons[3])
    settle(panel)
    assert not assistant.proposal.riichi_discard
    tap(factory, cfg.ron_button)
    settle(panel)
    assert assistant.state().last_hand.kind == "ron"


def test_a_draw_refused_keeps_the_seats_picked(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.declare_riichi(2)
    tap(factory, cfg.draw_button)
    tap(factory, cfg.riichi_buttons[0])
    tap(factory, cfg.draw_button)  # seat 2 is in riichi and not picked: refused
    settle(panel)
    assert panel.mode == "draw-tenpai" and panel.mode_data["tenpai"] == [0]
    tap(factory, cfg.riichi_buttons[2])
    tap(factory, cfg.draw_button)
    settle(panel)
    assert assistant.state().last_hand.tenpai == (0, 2) and panel.mode == "idle"


@pytest.fixture
def unwatched_rig(tmp_path, monkeypatch):
    """The rig with the assistant's once-a-second look at the game file turned off: what another process writes is
    seen only where an action reads the file itself."""
    import device.assistant as assistant_module

    monkeypatch.setattr(assistant_module, "OUTSIDE_WRITES", 3600.0)
    yield from _rig(tmp_path)


def outside_draw(assistant):
    """An exhaustive draw recorded by `jantaku game draw` (its own connection to the game file)."""
    from device import game_port as gp
    from table.events import ExhaustiveDraw

    other = gp.open_store(assistant.data / "games.sqlite3")
    other.append(assistant.game_id(), ExhaustiveDraw(tenpai=()))
    other.close()


def test_tsumo_does_not_record_a_scan_whose_hand_another_process_ended(unwatched_rig):
    """Fixed (an acceptance run): `jantaku game draw` ended the hand, and TSUMO pressed within the watcher's second
    recorded the scanned tsumo into the next hand."""
    assistant, panel, factory = unwatched_rig
    cfg = panel.config
    scan_tsumo(factory, panel, 1)
    assert panel.mode == "confirm"
    outside_draw(assistant)
    tap(factory, cfg.tsumo_button)
    settle(panel)
    assert assistant.state().results == 1 and assistant.state().last_hand.kind == "draw"
    assert assistant.proposal is None and panel.describe()["led_modes"]["status"] == "fast"
    assert "the hand it was read for has ended" in panel.describe()["error"]


def test_a_game_ended_on_the_page_ends_the_hand_the_panel_waited_to_record(rig):
    """Fixed (an acceptance run): after *end game* the scanned tsumo still waited; a seat button said "the hand waits
    to be recorded: press TSUMO" while TSUMO said the game was over, and the first long press only dropped it."""
    assistant, panel, factory = rig
    cfg = panel.config
    scan_tsumo(factory, panel, 1)
    assistant.end_game("time called")
    assert assistant.proposal is None
    tap(factory, cfg.riichi_buttons[1])
    settle(panel)
    assert "the game is over" in panel.describe()["error"] and panel.mode == "idle"


@pytest.mark.parametrize("elsewhere", ["confirmed", "dropped"])
def test_the_panel_stops_waiting_when_its_hand_is_confirmed_or_dropped_on_the_page(rig, elsewhere):
    """Fixed (an acceptance run): the panel's scanned tsumo, confirmed on the page, left the panel saying "press TSUMO
    again"; the next hand's tsumo of the same seat scanned on the page was then recorded by one TSUMO at the table,
    unchecked, as if it were the panel's."""
    assistant, panel, factory = rig
    cfg = panel.config
    scan_tsumo(factory, panel, 2)
    assert panel.mode == "confirm" and "press TSUMO again" in panel.describe()["mode_text"]
    if elsewhere == "confirmed":
        assistant.confirm_proposal()
    else:
        assistant.discard_proposal()
    assert panel.describe()["mode_text"] == ""  # at once, as the panel page reads it
    settle(panel)
    assert panel.mode == "idle"
    results = assistant.state().results
    assistant.scan_hand(winner=2, tsumo=True)  # the keeper's own scan, to be checked on the page
    tap(factory, cfg.tsumo_button)
    settle(panel)
    assert assistant.state().results == results and panel.mode != "confirm"


@pytest.mark.parametrize("button", ["tsumo", "ron"])
def test_tsumo_or_ron_is_refused_while_a_hand_proposed_on_the_page_waits(rig, button):
    """Fixed (an acceptance run): TSUMO or RON at the table scanned over the keeper's pending hand, edits and all,
    without a word. Now it is refused at once (as a seat button is while a hand waits), saying how to go on."""
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.scan_hand(winner=2, discarder=1, tsumo=False, photo="02-seven-pairs.jpg")
    edited = assistant.propose(dora_indicators="5s")
    tap(factory, getattr(cfg, f"{button}_button"))
    settle(panel)
    assert panel.mode == "idle" and assistant.proposal == edited
    assert "a proposed hand waits to be recorded (see the keeper page)" in panel.describe()["error"]
    assert "hold undo to drop it" in panel.describe()["error"]
    tap(factory, cfg.scan_button, hold=cfg.hold_seconds + 0.6)  # as the message says
    tap(factory, getattr(cfg, f"{button}_button"))
    settle(panel)
    assert assistant.proposal is None and panel.mode == "pick-winner"


def test_the_panel_may_turn_its_own_scanned_tsumo_into_a_ron(rig):
    """The refusal is for hands proposed elsewhere: while the panel waits to confirm its own scan, RON starts over."""
    assistant, panel, factory = rig
    cfg = panel.config
    for button in (cfg.tsumo_button, cfg.riichi_buttons[2], cfg.ron_button):
        tap(factory, button)
    settle(panel)
    assert panel.mode == "pick-winner" and panel.mode_data == {"kind": "ron"}


def test_once_the_game_is_over_no_dealer_led_is_lit_and_the_status_led_goes_out(rig):
    """Fixed (an acceptance run): after the last hand the dealer LED stayed lit, though the pages show no dealer."""
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.end_game("time called")
    assert [pin(factory, n).state for n in cfg.dealer_leds] == [False] * 4
    assert pin(factory, cfg.status_led).state is False and panel.describe()["led_modes"]["status"] == "off"
    assistant.undo()  # the end taken back: a dealer again, and ready
    assert pin(factory, cfg.dealer_leds[0]).state is True and panel.describe()["led_modes"]["status"] == "on"
    assistant.end_game("time called")
    tap(factory, cfg.tsumo_button)  # a press refused still blinks fast
    settle(panel)
    assert panel.describe()["led_modes"]["status"] == "fast"


@pytest.fixture(params=["zungjung", "mcr"])
def other_rig(tmp_path, request):
    """A Zung Jung or MCR game, started as `jantaku game new --rules zungjung|mcr` starts it."""
    factory = MockFactory()
    assistant = make_assistant(tmp_path)
    assistant.store.new_game(["Aki", "Ben", "Cid", "Dee"], request.param)
    panel = Panel(assistant, assistant.config.panel, pin_factory=factory)
    yield assistant, panel, factory
    panel.close()
    factory.reset()
    assistant.store.close()


def test_a_zung_jung_or_mcr_game_refuses_tsumo_and_ron_at_once_and_draws_on_a_second_draw(other_rig):
    """Fixed (an acceptance run): TSUMO and RON took their seats before saying the device does not score these
    games' hands; DRAW asked for tenpai seats, lit them, then refused them (these systems have no tenpai)."""
    assistant, panel, factory = other_rig
    cfg = panel.config
    title = "Zung Jung" if assistant.state().preset == "zungjung" else "MCR"
    for button in (cfg.tsumo_button, cfg.ron_button):
        tap(factory, button)
        settle(panel)
        assert panel.mode == "idle" and f"{title} game, whose hands the table device does not score" in \
            panel.describe()["error"]
    tap(factory, cfg.draw_button)
    settle(panel)
    assert panel.mode == "draw-confirm" and "press DRAW again" in panel.describe()["mode_text"]
    assert set(panel.describe()["led_modes"][f"riichi{s}"] for s in range(4)) == {"off"}  # no seats to pick
    tap(factory, cfg.riichi_buttons[0])
    settle(panel)
    assert panel.mode == "draw-confirm" and f"{title} game has no tenpai" in panel.describe()["error"]
    tap(factory, cfg.draw_button)
    settle(panel)
    assert assistant.state().last_hand.kind == "draw" and panel.mode == "idle"


def test_the_end_of_a_zung_jung_or_mcr_game_names_the_command_that_starts_the_next(other_rig):
    """The keeper page starts riichi games only: "start a new game on the keeper page" was wrong for these."""
    assistant, panel, factory = other_rig
    preset = assistant.state().preset
    assistant.end_game("time called")
    tap(factory, panel.config.draw_button)
    settle(panel)
    assert f"the game is over: start the next one with `jantaku game new --rules {preset}`" in \
        panel.describe()["error"]


def test_a_long_press_during_a_half_done_entry_cancels_it_and_says_so(rig):
    """Fixed (an acceptance run): a long press while DRAW waited for seats only cancelled it, without a word, where
    the player meant to undo. It still only cancels (the safe reading of a hold mid-entry), and says so."""
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.declare_riichi(1)
    tap(factory, cfg.draw_button)
    tap(factory, cfg.riichi_buttons[1])
    tap(factory, cfg.scan_button, hold=cfg.hold_seconds + 0.6)
    settle(panel)
    assert panel.mode == "idle" and assistant.state().riichi[1]  # nothing undone
    assert "the long press cancelled DRAW: nothing was undone" in panel.describe()["error"]


def test_a_stray_scan_of_no_hand_leaves_nothing_that_holds_back_riichi(rig):
    assistant, panel, factory = rig
    cfg = panel.config
    assistant.camera.select("04-table-from-above.jpg")
    tap(factory, cfg.scan_button)
    settle(panel)
    assert assistant.proposal is None and "no hand was read from the photo" in panel.describe()["error"]
    tap(factory, cfg.riichi_buttons[1])
    settle(panel)
    assert assistant.state().riichi[1]


def test_an_led_plan_made_before_a_change_does_not_land_after_the_one_made_after_it(rig):
    """Fixed (a flaky CI run): the worker's plan, made just before the status went busy, landed after the busy
    plan and put the status LED back on while the table was busy."""
    assistant, panel, factory = rig
    made, release = threading.Event(), threading.Event()
    plan = panel.led_plan

    def slow_plan():
        stale = plan()
        if threading.current_thread().name == "stale":
            made.set()
            release.wait(5)
        return stale

    panel.led_plan = slow_plan
    worker = threading.Thread(target=panel.update_leds, name="stale")
    worker.start()
    assert made.wait(5)
    with assistant.busy("test"):  # a newer plan lands while the stale one waits
        release.set()
        worker.join(5)
        assert panel.describe()["led_modes"]["status"] == "blink"

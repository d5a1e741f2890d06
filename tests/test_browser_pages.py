"""The pages as a club reads them, in a real browser (Debian's chromium, headless) against a live `jantaku serve`:
what a screen reader is told about a hand's tiles, where the tile picker writes, long names at game over, and the
last hand's change with its riichi deposits."""

from __future__ import annotations

import re

import pytest
from helpers_browser import needs_chromium
from test_browser import ARTIFACTS, PIN, keeper_with_a_new_game, log_in

from device.loadtest import ServerProcess

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with ServerProcess(tmp_path_factory.mktemp("pages") / "data", pin=PIN) as srv:
        yield srv


def images_said(page, selector: str) -> list[str]:
    """The names of the images chromium's own accessibility tree holds under `selector` (what a screen reader
    can land on), not what the DOM's alt texts suggest."""
    cdp = page.context.new_cdp_session(page)
    root = cdp.send("DOM.getDocument", {"depth": 0})["root"]["nodeId"]
    node = cdp.send("DOM.querySelector", {"nodeId": root, "selector": selector})["nodeId"]
    found = cdp.send("Accessibility.queryAXTree", {"nodeId": node, "role": "image"})["nodes"]
    return [n.get("name", {}).get("value", "") for n in found if not n.get("ignored")]


def test_a_hands_tiles_are_said_once_and_the_winning_tile_as_part_of_the_hand(server, browser):
    """Fixed: each tile drawn under a field was a button named "0p, tile 1 of 1 in Winning tile" holding a picture that
    chromium still exposed as an image ("0p"), so a screen reader could land on every tile twice and on the winning
    tile as a stray picture; a red five was "0p". Now the button alone says it, the winning tile as part of the
    hand ("winning tile red 5p"), and the pictures inside the buttons (the picker's too) are hidden from it."""
    from playwright.sync_api import expect

    for text_tiles in (False, True):  # tile art, and a device without it (text tiles)
        context = browser.new_context()
        if text_tiles:
            context.route("**/tiles/*", lambda route: route.fulfill(status=404, content_type="application/json",
                                                                    body='{"error": "no tile pictures"}'))
        page = context.new_page()
        page.on("dialog", lambda d: d.accept())
        page.goto(server.url + "/keeper/login")
        log_in(page)
        page.click("#new-game")
        expect(page.locator("#status")).to_have_text("new game started")
        page.click("#type-hand")
        expect(page.locator("#proposal")).to_be_visible()
        page.fill("#p-concealed", "234m567p11s345s44p")
        page.fill("#p-win", "0p")
        page.fill("#p-dora", "1m")
        win = page.locator(".tile-row[data-for='p-win'] button")
        expect(win).to_have_accessible_name("winning tile red 5p")
        expect(page.locator(".tile-row[data-for='p-concealed'] button").nth(1)).to_have_accessible_name(
            "3m, tile 2 of 13 in Concealed")
        expect(page.locator("#picker [data-tile='0s']")).to_have_accessible_name("red 5s")
        if text_tiles:
            expect(page.locator(".tile-row[data-for='p-win'] .tile-text")).to_have_text("5p")
        else:
            expect(win.locator("img")).to_have_js_property("complete", True)
        assert images_said(page, ".tile-fields") == [], text_tiles
        assert images_said(page, "#picker") == [], text_tiles
        win.focus()  # chosen for replacing: the picker's line names it the same way
        page.keyboard.press("Enter")
        expect(page.locator("#picking-into")).to_have_text(
            "Replacing red 5p, tile 1 in Winning tile: pick the right tile, or ⌫ remove")
        page.click("#discard")
        context.close()


def test_only_a_tile_field_becomes_the_pickers_target(server, browser):
    """A name, a reason, the melds or a number focused before a tap in the picker: the tile goes into the tile
    field the picker names, never into the text field last focused."""
    from playwright.sync_api import expect

    page = keeper_with_a_new_game(browser, server.url, ["Ann", "Bob", "Cid", "Dee"])
    page.click("#type-hand")
    expect(page.locator("#proposal")).to_be_visible()
    page.focus("#p-dora")
    expect(page.locator("#picking-into")).to_have_text("Picking into: Dora indicators")
    fields = {"input.player[data-seat='0']": "Ann", "#adjust-reason": "", "#penalty-reason": "", "#p-melds": "",
              "#q-han": "1", "#p-concealed": ""}
    for selector, value in fields.items():
        page.fill(selector, value)
        page.focus(selector)
        page.click("#picker [data-tile='9s']")
        expect(page.locator(selector)).to_have_value("9s" if selector == "#p-concealed" else value)
    expect(page.locator("#p-dora")).to_have_value("99999s")
    expect(page.locator("#picking-into")).to_have_text("Picking into: Concealed")
    page.click("#discard")
    page.close()


CLUB_NAMES = ["Maximilian von Hohenberg-Lindqvist", "Alexandra Wiśniewska-Kowalczyk", "Jean-Baptiste Fontaine",
              "Hannelore Schmidtbauer-Øvergaard"]
"""A club's names as an older log may hold them (new games take at most 24 letters)."""

WHOLE_NAMES = """() => [...document.querySelectorAll('.seat .name')].filter((e) => {
  const r = document.createRange(); r.selectNodeContents(e); const box = e.getBoundingClientRect();
  return [...r.getClientRects()].some((q) => q.bottom > box.bottom + 1 || q.right > box.right + 1);
}).map((e) => e.textContent)"""
"""The seats' names with text outside their box (cut by a clamp, or run past it)."""

BROKEN_WORDS = """() => [...document.querySelectorAll('#standings td:nth-child(2), .seat .name')].flatMap((e) => {
  const text = e.firstChild, out = [], room = e.clientWidth;
  const words = text ? [...text.data.matchAll(/[^\\s-]+-?/g)] : [];
  for (const m of words) {
    const r = document.createRange(); r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
    const rects = [...r.getClientRects()], width = r.getBoundingClientRect().width;
    if (new Set(rects.map((q) => Math.round(q.top))).size > 1 && width < room) out.push(m[0]);
  }
  return out;
})"""
"""Words of a name broken across two lines although they would fit the line whole ("Maximilia-n")."""


def test_long_club_names_are_read_whole_at_game_over_on_a_tv_and_a_phone(tmp_path, browser):
    """Fixed: at game over a long name was cut to two lines in its seat (an ellipsis on a TV, which has no pointer to
    read it by), and on a phone the standings squeezed the player column to 50-70 px, breaking "Maximilia / n
    Hohenber / g-Lin". Now a seat's name is never cut (set the smaller the longer it is), and on a phone each
    player's line of the standings has the card's width to itself, its numbers on the line below."""
    from playwright.sync_api import expect

    from table import store as store_module
    from table.events import event_from_json

    data = tmp_path / "data"
    data.mkdir()
    store = store_module.GameStore(data / "games.sqlite3")
    real_check = store_module.check_new_names
    store_module.check_new_names = lambda players: tuple(players)  # a game kept before names had a limit
    try:
        game = store.new_game(CLUB_NAMES, "tenhou")
    finally:
        store_module.check_new_names = real_check
    for event in ({"type": "riichi", "seat": 2},
                  {"type": "ron", "discarder": 1, "wins": [{"seat": 0, "han": 3, "fu": 30}]},
                  {"type": "game_ended", "reason": "time called"}):
        store.append(game, event_from_json(event))
    store.close()
    with ServerProcess(data, pin=PIN) as srv:
        for width, height in ((1920, 1080), (1280, 720), (390, 844), (360, 740)):
            board = browser.new_page(viewport={"width": width, "height": height})
            board.goto(srv.url + "/")
            expect(board.locator("#standings td").nth(1)).to_have_text(CLUB_NAMES[0])
            board.screenshot(path=str(ARTIFACTS / f"scoreboard-club-names-{width}.png"), full_page=True)
            assert board.evaluate(WHOLE_NAMES) == [], width
            assert board.evaluate(BROKEN_WORDS) == [], width
            assert board.evaluate("() => document.documentElement.scrollWidth <= innerWidth"), width
            box = board.locator("#standings .standings-box")
            assert box.evaluate("b => b.scrollWidth <= b.clientWidth"), width  # the result in view, no scrolling
            if width > 1000:  # a TV cannot scroll: all of it on the screen
                assert board.evaluate("() => document.documentElement.scrollHeight <= innerHeight"), width
            board.close()


def test_the_history_page_gives_each_hands_change_with_its_riichi_deposits_as_the_csv_does(server, browser):
    """Fixed: the history page gave only the points after each hand, so the only change a player could read was the
    scoreboard's, which leaves a riichi deposit out; the CSV's change counts it. Now the history page gives the
    CSV's change under each score: a stick lost in a hand is -1,000 there."""
    import csv
    import io

    from playwright.sync_api import expect

    page = keeper_with_a_new_game(browser, server.url, ["Ann", "Bob", "Cid", "Dee"])
    page.evaluate("() => J.api('POST', '/api/riichi', {seat: 2})")  # Cid's stick goes to Ann's ron
    page.evaluate("() => J.api('POST', '/api/ron', {discarder: 1, winners: [{seat: 0, han: 3, fu: 30}]})")
    game = page.evaluate("() => J.api('GET', '/api/state').then((s) => s.game.id)")
    page.goto(server.url + "/keeper/history")
    row = page.locator("#hands tbody tr").first
    expect(row.locator("td")).to_have_count(7)
    cells = row.locator("td.num")
    expect(cells.locator(".change")).to_have_text(["+6,800", "-5,800", "-1,000"])
    expect(cells.nth(2)).to_have_text(re.compile(r"^24,000\s*-1,000$"))
    expect(cells.nth(3)).to_have_text("25,000")  # no change, nothing under it
    exported = page.request.get(f"{server.url}/api/games/{game}/export.csv").text()
    first = next(csv.DictReader(io.StringIO(exported)))
    assert [int(first[f"{name} change"]) for name in ("Ann", "Bob", "Cid", "Dee")] == [6800, -5800, -1000, 0]
    page.close()


def test_the_scoreboards_change_counts_the_riichi_deposits_as_the_history_does(server, browser):
    """Fixed: the scoreboard's change for the last hand left the riichi deposits out, so a player who had lost a
    stick read nothing and a winner whose own stick came back read it as a gain; the CSV and the history page count
    them. Now the scoreboard gives their change."""
    from playwright.sync_api import expect

    keeper = keeper_with_a_new_game(browser, server.url, ["Ann", "Bob", "Cid", "Dee"])
    keeper.evaluate("() => J.api('POST', '/api/riichi', {seat: 0})")  # Ann's own stick comes back with her win
    keeper.evaluate("() => J.api('POST', '/api/riichi', {seat: 2})")  # Cid's goes to Ann
    keeper.evaluate("() => J.api('POST', '/api/ron', {discarder: 1, winners: [{seat: 0, han: 3, fu: 30}]})")
    board = browser.new_page(viewport={"width": 1280, "height": 900})
    board.goto(server.url + "/")
    changes = board.locator(".seat .delta")
    expect(changes).to_have_text(["+6,800", "-5,800", "-1,000", ""])  # seats 0-3: Ann 25,000 -> 31,800
    expect(board.locator(".seat[data-seat='0'] .points")).to_have_text("31,800")
    expect(board.locator("#last-body .deltas span")).to_have_text(["Ann +6,800", "Bob -5,800", "Cid -1,000"])
    keeper.goto(server.url + "/keeper/history")
    expect(keeper.locator("#hands tbody tr").first.locator(".change")).to_have_text(["+6,800", "-5,800", "-1,000"])
    board.close()
    keeper.close()

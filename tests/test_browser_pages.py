"""The pages as a club reads them, in a real browser (Debian's chromium, headless) against a live `jantaku serve`:
what a screen reader is told about a hand's tiles, where the tile picker writes, long names at game over, and the
last hand's change with its riichi deposits."""

from __future__ import annotations

import pytest
from test_browser import ARGS, CHROMIUM, PIN, keeper_with_a_new_game

from device.loadtest import ServerProcess

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(),
                                reason="Debian's chromium is not installed (apt-get install chromium)")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with ServerProcess(tmp_path_factory.mktemp("pages") / "data", pin=PIN) as srv:
        yield srv


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield b
        b.close()


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
        page.fill("#pin", PIN)
        page.click("button[type=submit]")
        page.wait_for_url("**/keeper", wait_until="load")
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

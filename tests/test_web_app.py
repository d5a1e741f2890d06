"""The Flask app through its test client: every route, and every rejection (401, 403, 400, 404, 405, 429, 503)."""

from __future__ import annotations

import json

import pytest
from gpiozero.pins.mock import MockFactory
from helpers_device import make_assistant

from device.panel import Panel
from table.errors import InputError
from web import create_app

PIN = "13579"


@pytest.fixture
def env(tmp_path):
    assistant = make_assistant(tmp_path)
    assistant.start_game(["Aki", "Ben", "Cid", "Dee"], "tenhou")
    factory = MockFactory()
    panel = Panel(assistant, assistant.config.panel, pin_factory=factory)
    app = create_app(assistant.config, assistant)
    app.extensions["jantaku.panel"] = panel
    app.testing = True
    yield app, assistant, panel
    panel.close()
    factory.reset()
    assistant.store.close()


@pytest.fixture
def client(env):
    return env[0].test_client()


def login(client) -> dict[str, str]:
    resp = client.post("/api/login", json={"pin": PIN})
    assert resp.status_code == 200
    return {"X-CSRF-Token": resp.get_json()["csrf_token"]}


# ---- public pages ---------------------------------------------------------------------------------------


def test_scoreboard_page_is_public_and_local_only(client):
    resp = client.get("/")
    assert resp.status_code == 200
    html = resp.get_data(as_text=True)
    assert 'class="seat bottom" data-seat="0"' in html and 'class="seat right" data-seat="1"' in html
    assert "http://" not in html and "https://" not in html  # no CDN, no web fonts
    assert "default-src 'self'" in resp.headers["Content-Security-Policy"]
    for asset in ("/static/app.css", "/static/common.js", "/static/scoreboard.js"):
        assert client.get(asset).status_code == 200, asset


def test_state_json(client):
    data = client.get("/api/state").get_json()
    assert data["game"]["round"] == "East 1"
    assert [s["name"] for s in data["game"]["seats"]] == ["Aki", "Ben", "Cid", "Dee"]
    assert data["device"]["panel"].startswith("mock pins")
    assert data["device"]["camera"].startswith("replay of 4 photo")


def test_stream_sends_state_then_changes(env):
    app, assistant, _ = env
    client = app.test_client()
    resp = client.get("/api/stream", buffered=False)
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
    chunks = iter(resp.response)
    assert next(chunks) == b"retry: 1000\n\nevent: keepalive\ndata: 5\n\n"  # the interval, before one is missed
    first = next(chunks).decode()
    assert first.startswith(f"id: {assistant.version}\nevent: state\ndata: ")
    assistant.declare_riichi(3)
    second = next(chunks).decode()
    data = json.loads(second.split("data: ", 1)[1])
    assert data["game"]["seats"][3]["riichi"] is True
    resp.close()
    assert app.extensions["jantaku.live"].open == 0


def test_the_stream_keep_alive_is_an_event_a_page_can_hear(env):
    """A comment line never reaches a page's script, so a connection gone silent (a phone asleep) looked live for ever:
    the keep-alive is a `keepalive` event whose data is its interval, which pages without a listener ignore."""
    app = env[0]
    hub = app.extensions["jantaku.live"]
    chunks = hub.stream(hub.try_open("10.0.0.8"), keepalive=0.01)
    assert next(chunks) == b"retry: 1000\n\nevent: keepalive\ndata: 0.01\n\n"
    assert next(chunks).startswith(b"id: ")
    assert next(chunks) == b"event: keepalive\ndata: 0.01\n\n"  # nothing changed within the interval
    chunks.close()
    assert hub.open == 0


def test_stream_slots_are_capped_and_the_rest_poll(env):
    app, _, _ = env
    hub = app.extensions["jantaku.live"]
    hub.open = hub.max_streams
    resp = app.test_client().get("/api/stream")
    assert resp.status_code == 503
    assert "poll /api/state" in resp.get_json()["error"]
    hub.open = 0


def test_one_address_holds_a_few_stream_slots_not_all(env):
    """One client reopening streams every few seconds could hold every slot; each address gets STREAMS_PER_CLIENT."""
    from web.live import STREAMS_PER_CLIENT

    app = env[0]
    hub = app.extensions["jantaku.live"]
    greedy = app.test_client()
    greedy.environ_base["REMOTE_ADDR"] = "10.0.0.7"
    held = [greedy.get("/api/stream", buffered=False) for _ in range(STREAMS_PER_CLIENT)]
    for resp in held:
        next(iter(resp.response))  # the stream has started and holds its slot
    assert greedy.get("/api/stream").status_code == 503
    other = app.test_client().get("/api/stream", buffered=False)
    assert other.status_code == 200
    for resp in (*held, other):
        resp.close()
    assert hub.open == 0
    again = greedy.get("/api/stream", buffered=False)
    assert again.status_code == 200
    again.close()


def test_a_stream_whose_body_is_never_read_frees_its_slot(env):
    """Werkzeug answers HEAD without starting the body, so the stream's `finally` never ran: 40 HEADs took every slot
    for good (live updates off for the room until a restart). A body never read must free its slot at the close."""
    app = env[0]
    hub = app.extensions["jantaku.live"]
    client = app.test_client()
    for _ in range(hub.max_streams + 1):
        resp = client.head("/api/stream")
        assert resp.status_code == 200
        resp.close()  # what a WSGI server does with every response
    unread = client.get("/api/stream", buffered=False)  # a GET whose client left before the first byte
    unread.close()
    assert hub.open == 0
    resp = client.get("/api/stream", buffered=False)
    assert resp.status_code == 200
    next(iter(resp.response))
    resp.close()  # the stream's own end and the close both free: the slot is freed once, not twice
    assert hub.open == 0


def test_healthz(client):
    data = client.get("/healthz").get_json()
    assert data["ok"] is True and data["device"]["game_keeping"] == "ok"


def test_photo_route(env):
    app, assistant, _ = env
    client = app.test_client()
    scan_id, _ = assistant.capture()
    resp = client.get(f"/photo/{scan_id}.jpg")
    assert resp.status_code == 200 and resp.mimetype == "image/jpeg" and resp.data[:2] == b"\xff\xd8"
    assert client.get("/photo/nothere.jpg").status_code == 404
    assert client.get("/photo/..%2Fsecret_key.jpg").status_code == 404


def test_photo_route_with_the_default_relative_data_folder(tmp_path, monkeypatch):
    """`jantaku serve` keeps its data in ./data by default; Flask's send_file reads a relative path from the app's
    own folder, so the scan must be found from where the server was started."""
    monkeypatch.chdir(tmp_path)
    assistant = make_assistant(tmp_path, data_dir="data")
    try:
        client = create_app(assistant.config, assistant).test_client()
        scan_id, _ = assistant.capture()
        assert (tmp_path / "data" / "scans" / f"{scan_id}.jpg").is_file()
        assert client.get(f"/photo/{scan_id}.jpg").status_code == 200
    finally:
        assistant.store.close()


def test_a_new_pin_ends_the_sessions_opened_with_the_old_one(env):
    """A club that changes a leaked PIN (config, restart) expects the old PIN's sessions to end, though the key that
    signs the cookies (data/secret_key) stays, so that sessions outlive an ordinary restart."""
    from dataclasses import replace

    app, _, _ = env
    client = app.test_client()
    h = login(client)
    assert client.post("/api/riichi", json={"seat": 1}, headers=h).status_code == 200
    app.config["JANTAKU"] = replace(app.config["JANTAKU"], pin="97531")
    resp = client.post("/api/riichi", json={"seat": 2}, headers=h)
    assert resp.status_code == 401 and "PIN required" in resp.get_json()["error"]
    assert client.post("/api/login", json={"pin": PIN}).status_code == 403
    resp = client.post("/api/login", json={"pin": "97531"})
    assert client.post("/api/riichi", json={"seat": 2}, headers={"X-CSRF-Token": resp.get_json()["csrf_token"]}
                       ).status_code == 200


def test_favicon_is_a_tile_drawn_in_svg_and_every_page_links_it(client):
    """Browsers ask for /favicon.ico whether or not a page links one: it must not be a 404."""
    resp = client.get("/favicon.ico")
    assert resp.status_code == 200 and resp.mimetype == "image/svg+xml"
    svg = resp.get_data(as_text=True)
    assert svg.lstrip().startswith("<svg") and "<text" not in svg and "href" not in svg  # drawn, no font, no link
    assert client.get("/static/favicon.svg").get_data(as_text=True) == svg
    login(client)
    for path in ("/", "/keeper", "/keeper/history", "/keeper/furiten", "/keeper/panel", "/keeper/login"):
        html = client.get(path).get_data(as_text=True)
        assert '<link rel="icon" type="image/svg+xml" href="/static/favicon.svg">' in html, path


def test_unknown_api_path_and_wrong_method_answer_json(client):
    resp = client.get("/api/nothing")
    assert resp.status_code == 404 and "no such page" in resp.get_json()["error"]
    resp = client.get("/api/riichi")
    assert resp.status_code == 405 and "GET is not allowed" in resp.get_json()["error"]


# ---- PIN, session, CSRF, rate limit ---------------------------------------------------------------------


def test_keeper_pages_redirect_to_login_without_pin(client):
    for path in ("/keeper", "/keeper/history", "/keeper/furiten", "/keeper/panel"):
        resp = client.get(path)
        assert resp.status_code == 302 and "/keeper/login" in resp.headers["Location"], path


def test_login_page_and_form(client):
    assert client.get("/keeper/login").status_code == 200
    resp = client.post("/keeper/login", data={"pin": "0000", "next": "/keeper/history"})
    assert resp.status_code == 403 and "wrong PIN" in resp.get_data(as_text=True)
    resp = client.post("/keeper/login", data={"pin": PIN, "next": "/keeper/history"})
    assert resp.status_code == 302 and resp.headers["Location"].endswith("/keeper/history")
    for path in ("/keeper", "/keeper/history", "/keeper/furiten", "/keeper/panel"):
        page = client.get(path)
        assert page.status_code == 200, path
        assert 'name="csrf-token"' in page.get_data(as_text=True)
    cookie = resp.headers["Set-Cookie"]
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie


def test_login_next_cannot_leave_the_site(client):
    resp = client.post("/keeper/login", data={"pin": PIN, "next": "//evil.example/x"})
    assert resp.headers["Location"].endswith("/keeper")


def test_pin_attempts_are_rate_limited(client, caplog):
    for _ in range(5):
        assert client.post("/api/login", json={"pin": "0000"}).status_code == 403
    # logged where the server's other lines are (a soak: a filter on jantaku.* missed them under Flask's "web")
    assert [r.name for r in caplog.records if "wrong PIN" in r.getMessage()] == ["jantaku.web"] * 5
    resp = client.post("/api/login", json={"pin": PIN})  # even the right PIN waits
    assert resp.status_code == 429
    assert int(resp.headers["Retry-After"]) > 0
    assert "too many wrong PINs" in resp.get_json()["error"]


def test_login_next_with_a_tab_or_a_newline_stays_on_the_site(client):
    """A browser drops a tab from a Location, so "/<tab>/evil.example" would go to //evil.example; a newline broke
    the redirect's header (a 500 after the PIN was taken)."""
    for target in ("/\t/evil.example", "/\n/x", "/keeper history"):
        resp = client.post("/keeper/login", data={"pin": PIN, "next": target})
        assert resp.status_code == 302 and resp.headers["Location"].endswith("/keeper"), target


def test_the_whole_room_gets_20_wrong_pins_a_window_however_many_addresses_it_uses(env):
    """The room's cap held back only addresses that had failed already, so each new address brought 5 fresh tries:
    2,469 guesses from as many loopback addresses found the PIN in 1.3 s. It now holds new addresses too, for at most
    the window; and addresses whose failures are older than the window are forgotten."""
    app = env[0]
    limiter = app.extensions["jantaku.login"]
    now = [1000.0]
    limiter.clock = lambda: now[0]

    def try_pin(address: str, pin: str) -> int:
        client = app.test_client()
        client.environ_base["REMOTE_ADDR"] = address
        return client.post("/api/login", json={"pin": pin}).status_code

    answers = [try_pin(f"10.0.{n // 250}.{1 + n % 250}", f"{n:04d}") for n in range(100)]  # one guess per address
    assert answers.count(403) == 20 and answers.count(429) == 80
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = "10.0.9.9"  # the keeper, who typed none, waits too: at most the window
    resp = client.post("/api/login", json={"pin": PIN})
    assert resp.status_code == 429 and 0 < int(resp.headers["Retry-After"]) <= 301
    now[0] += 300
    assert try_pin("10.0.9.9", PIN) == 200
    assert len(limiter._fails) == 0  # the 20 addresses that failed are forgotten with their failures


def test_wrong_pins_from_other_addresses_do_not_lock_out_a_keeper_who_logged_in_from_theirs(env):
    app = env[0]
    keeper = app.test_client()
    keeper.environ_base["REMOTE_ADDR"] = "10.0.0.1"
    assert keeper.post("/api/login", json={"pin": PIN}).status_code == 200
    for n in range(4):  # 5 wrong PINs from each of 4 addresses: the whole room's cap
        stranger = app.test_client()
        stranger.environ_base["REMOTE_ADDR"] = f"10.0.0.{n + 2}"
        for _ in range(5):
            assert stranger.post("/api/login", json={"pin": "0000"}).status_code == 403
    latecomer = app.test_client()
    latecomer.environ_base["REMOTE_ADDR"] = "10.0.0.99"
    assert latecomer.post("/api/login", json={"pin": PIN}).status_code == 429
    again = app.test_client()  # logged out, or another browser on the same phone
    again.environ_base["REMOTE_ADDR"] = "10.0.0.1"
    assert again.post("/api/login", json={"pin": "0000"}).status_code == 403  # held by its own limit only
    assert again.post("/api/login", json={"pin": PIN}).status_code == 200


def test_a_copied_session_cookie_ends_with_the_logout(env):
    app = env[0]
    keeper = app.test_client()
    headers = login(keeper)
    assert keeper.post("/api/riichi", json={"seat": 2}, headers=headers).status_code == 200
    cookie = keeper.get_cookie("jantaku_session").value
    assert "Set-Cookie" not in keeper.get("/api/keeper/state").headers  # 12 hours from the login, not refreshed
    assert keeper.post("/keeper/logout", headers=headers).status_code == 302
    copy = app.test_client()
    copy.set_cookie("jantaku_session", cookie)
    resp = copy.post("/api/riichi", json={"seat": 3}, headers=headers)
    assert resp.status_code == 401 and env[1].snapshot()["game"]["seats"][3]["riichi"] is False
    assert login(copy)  # a new login works


def test_keeper_data_is_not_cached_and_public_state_names_no_server_paths(client):
    headers = login(client)
    for path in ("/keeper", "/api/keeper/state", "/api/games", "/api/history", "/api/games/1/export.csv"):
        assert client.get(path, headers=headers).headers["Cache-Control"] == "no-store", path
    assert "no-store" not in client.get("/static/app.css").headers.get("Cache-Control", "")
    device = client.get("/api/state").get_json()["device"]
    assert device["camera"] == "replay of 4 photo(s) from sample_photos"
    assert "/" not in json.dumps(client.get("/healthz").get_json()["device"])


def test_odd_photo_and_game_ids_are_404s_not_500s(client):
    login(client)
    assert client.get("/photo/" + "a" * 300 + ".jpg").status_code == 404
    for game in ("%EF%BC%92", "%D9%A2", "+1", "%201"):  # a full-width or Arabic-Indic digit, a sign, a space
        resp = client.get(f"/api/games/{game}/export.csv")
        assert resp.status_code == 404 and "there is no game" in resp.get_json()["error"], game
    assert client.get("/api/games/1/export.csv").status_code == 200


def test_a_wrong_method_says_which_are_allowed(client):
    resp = client.put("/")
    assert resp.status_code == 405 and set(resp.headers["Allow"].split(", ")) == {"GET", "HEAD", "OPTIONS"}


def test_login_body_must_be_json_pin(client):
    resp = client.post("/api/login", data="pin=1")
    assert resp.status_code == 400 and "pin" in resp.get_json()["error"]


WRITES = [
    ("POST", "/api/game", {"players": ["A", "B", "C", "D"]}),
    ("POST", "/api/riichi", {"seat": 0}),
    ("POST", "/api/ron", {"discarder": 1, "winners": [{"seat": 0, "han": 1, "fu": 30}]}),
    ("POST", "/api/tsumo", {"seat": 0, "han": 1, "fu": 30}),
    ("POST", "/api/draw", {"tenpai": []}),
    ("POST", "/api/abortive", {"reason": "four-winds"}),
    ("POST", "/api/chombo", {"seat": 0}),
    ("POST", "/api/adjust", {"amounts": [0, 0, 0, 0], "reason": "x"}),
    ("POST", "/api/pao", {"winner": 0, "liable": 1}),
    ("POST", "/api/penalty", {"seat": 0, "points": 10000, "reason": "late"}),
    ("POST", "/api/end", {}),
    ("POST", "/api/undo", {}),
    ("POST", "/api/redo", {}),
    ("POST", "/api/scan", {}),
    ("PUT", "/api/proposal", {}),
    ("POST", "/api/proposal/confirm", {}),
    ("DELETE", "/api/proposal", None),
    ("POST", "/api/furiten", {"seat": 0}),
    ("POST", "/api/panel/press", {"button": "scan"}),
]
READS = ["/api/keeper/state", "/api/games", "/api/history", "/api/games/1/export.json", "/api/games/1/export.csv",
         "/api/panel"]


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_writes_need_the_pin(client, method, path, body):
    resp = client.open(path, method=method, json=body)
    assert resp.status_code == 401
    assert "PIN required" in resp.get_json()["error"]


@pytest.mark.parametrize(("method", "path", "body"), WRITES)
def test_writes_need_the_csrf_token(client, method, path, body):
    login(client)
    resp = client.open(path, method=method, json=body, headers={"X-CSRF-Token": "forged"})
    assert resp.status_code == 403
    assert "CSRF" in resp.get_json()["error"]


@pytest.mark.parametrize("path", READS)
def test_keeper_reads_need_the_pin(client, path):
    assert client.get(path).status_code == 401
    login(client)
    assert client.get(path).status_code == 200


# ---- the API does the game ------------------------------------------------------------------------------


def test_whole_hand_through_the_api(env):
    app, assistant, _ = env
    client = app.test_client()
    h = login(client)
    resp = client.post("/api/game", json={"players": ["Ann", "Bo", "Cy", "Di"], "preset": "wrc"}, headers=h)
    assert resp.status_code == 200 and resp.get_json()["state"]["game"]["preset"] == "wrc"
    assert client.post("/api/riichi", json={"seat": 2}, headers=h).get_json()["state"]["game"]["riichi_sticks"] == 1
    resp = client.post("/api/scan", json={"winner": 2, "tsumo": False, "discarder": 0,
                                          "photo": "02-seven-pairs.jpg"}, headers=h)
    proposal = resp.get_json()["proposal"]
    assert proposal["concealed"] == "4466s88s2233z6677z" and proposal["photo"] == "02-seven-pairs.jpg"
    # riichi + chiitoitsu + honitsu = 6 han: haneman 12000 from the dealer
    assert proposal["score"]["han"] == 6 and proposal["score"]["payment"] == {"ron": 12000}
    resp = client.put("/api/proposal", json={"ura_indicators": "1z"}, headers=h)  # ura 2z: a pair of 2z, 2 dora
    assert resp.get_json()["proposal"]["score"]["han"] == 8 and resp.get_json()["proposal"]["score"]["ura"] == 2
    resp = client.post("/api/proposal/confirm", headers=h, json={})
    game = resp.get_json()["state"]["game"]
    assert game["seats"][2]["points"] > 25000 and game["seats"][0]["points"] < 25000
    assert game["last"]["photo"]["url"].startswith("/photo/")
    assert client.get(game["last"]["photo"]["url"]).status_code == 200
    hist = client.get("/api/history").get_json()
    assert hist["names"] == ["Ann", "Bo", "Cy", "Di"]
    assert hist["points"] == [[30000] * 4, [14000, 30000, 46000, 30000]]  # WRC: 30000 start; baiman 16000 + stick
    assert hist["hands"][0]["title"] == "ron, Cy from Ann"
    export = client.get(f"/api/games/{game['id']}/export.json")
    assert export.status_code == 200 and "attachment" in export.headers["Content-Disposition"]
    assert [e["type"] for e in json.loads(export.data)["events"]] == ["game_started", "riichi", "ron"]
    download = client.get(f"/api/games/{game['id']}/export.csv")
    assert download.headers["Content-Type"] == "text/csv; charset=utf-8"
    assert download.data.startswith(b"\xef\xbb\xbf")  # Excel's cue that the file is UTF-8
    csv_text = download.get_data(as_text=True).removeprefix("\ufeff")
    assert csv_text == assistant.export(game["id"], "csv")  # otherwise the CLI's export, byte for byte
    assert csv_text.splitlines()[0].startswith("hand,round,honba,result")
    games = client.get("/api/games").get_json()["games"]
    assert games[0]["id"] == game["id"] and games[0]["players"] == ["Ann", "Bo", "Cy", "Di"]
    client.post("/api/adjust", json={"amounts": [1000, -1000, 0, 0], "reason": "a wrong payment"}, headers=h)
    last = client.get("/api/state").get_json()["game"]["last"]  # the table sees why the points moved (an acceptance
    assert (last["kind"], last["title"], last["deltas"]) == (  # run: it kept showing the hand before)
        "adjustment", "Adjustment: a wrong payment", [1000, -1000, 0, 0])
    client.post("/api/draw", json={"tenpai": [2]}, headers=h)
    assert client.get("/api/state").get_json()["game"]["last"]["kind"] == "draw"  # until the next hand ends
    hist = client.get("/api/history").get_json()  # numbered as the CSV numbers them: an adjustment is no hand
    assert [(row["number"], row["title"], row["changes"]) for row in hist["hands"]] == [
        (1, "ron, Cy from Ann", [-16000, 0, 16000, 0]), (None, "adjustment", [1000, -1000, 0, 0]),
        (2, "draw, tenpai: Cy", [-1000, -1000, 3000, -1000])]


def test_the_furiten_page_checks_the_hand_and_melds_read_from_the_photo(client):
    h = login(client)
    resp = client.post("/api/furiten", json={"seat": 1, "hand": "", "melds": [], "discards": "",
                                             "photo": "01-added-kan.jpg"}, headers=h)
    assert resp.status_code == 200, resp.get_json()
    result = resp.get_json()["furiten"]
    assert (result["hand"], result["melds"], result["furiten"]) == ("456s55p44z555z", ["added-kan:9999m"], False)


def test_a_riichi_hand_declared_dead_is_recorded_at_the_draw(env):
    """Club rulebook 3.4.7: a riichi hand declared dead pays the noten penalty at the draw; it is no chombo."""
    app, _, _ = env
    client = app.test_client()
    h = login(client)
    client.post("/api/game", json={"players": ["Ann", "Bo", "Cy", "Di"], "preset": "club"}, headers=h)
    client.post("/api/riichi", json={"seat": 1}, headers=h)
    refused = client.post("/api/draw", json={"tenpai": [2]}, headers=h)
    assert refused.status_code == 400 and "list it as dead" in refused.get_json()["error"]
    game = client.post("/api/draw", json={"tenpai": [2], "dead": [1]}, headers=h).get_json()["state"]["game"]
    assert [s["points"] for s in game["seats"]] == [24000, 23000, 28000, 24000]  # the stick stays on the table
    assert game["riichi_sticks"] == 1 and game["counters"] is True
    assert game["last"]["title"] == "East 1-0: Exhaustive draw" and "dead hand: Bo" in game["last"]["detail"]


def test_a_ron_on_the_riichi_declaration_tile_returns_its_stick(env):
    """Club rulebook 4.2.1: a riichi discard that is ronned puts no stick down; the page's ron says so."""
    app, _, _ = env
    client = app.test_client()
    h = login(client)
    client.post("/api/game", json={"players": ["Ann", "Bo", "Cy", "Di"], "preset": "club"}, headers=h)
    client.post("/api/riichi", json={"seat": 1}, headers=h)
    win = {"discarder": 1, "winners": [{"seat": 0, "han": 3, "fu": 30}]}
    refused = client.post("/api/ron", json={**win, "riichi_discard": "yes"}, headers=h)
    assert refused.status_code == 400 and "riichi_discard must be true or false" in refused.get_json()["error"]
    refused = client.post("/api/ron", json={**win, "discarder": 2, "riichi_discard": True}, headers=h)
    assert refused.status_code == 400 and "Cy has not declared riichi" in refused.get_json()["error"]
    game = client.post("/api/ron", json={**win, "riichi_discard": True}, headers=h).get_json()["state"]["game"]
    assert [s["points"] for s in game["seats"]] == [30800, 19200, 25000, 25000] and game["riichi_sticks"] == 0
    assert "on Bo's riichi tile: no riichi, the stick goes back" in game["last"]["detail"]


def test_a_game_without_counters_shows_none(env):
    """USPML counts no honba and has no riichi: the page is told not to show them, nor the hand's counter."""
    app, _, _ = env
    client = app.test_client()
    h = login(client)
    client.post("/api/game", json={"players": ["Ann", "Bo", "Cy", "Di"], "preset": "uspml"}, headers=h)
    game = client.post("/api/draw", json={"tenpai": [2]}, headers=h).get_json()["state"]["game"]
    assert game["counters"] is False and game["last"]["title"] == "East 1: Exhaustive draw"


def test_final_standings_carry_the_return_uma_and_oka_apart(env):
    """Tenhou: 30000 return, oka 20000 to first, uma +20/+10/-10/-20: each part on the page's data and the CSV."""
    app, _, _ = env
    client = app.test_client()
    h = login(client)
    client.post("/api/adjust", json={"amounts": [8000, -3000, 0, -5000], "reason": "sheet"}, headers=h)
    game = client.post("/api/end", json={"reason": "time called"}, headers=h).get_json()["state"]["game"]
    assert client.get("/api/state").get_json()["game"]["standings"] == game["standings"]
    assert (game["return_points"], game["unit"]) == (30000, 1000)
    parts = [(r["name"], r["points"], r["above_return"], r["uma"], r["oka"], r["penalty"], r["net_points"], r["net"])
             for r in game["standings"]]
    assert parts == [("Aki", 33000, 3000, 20000, 20000, 0, 43000, 43.0), ("Cid", 25000, -5000, 10000, 0, 0, 5000, 5.0),
                     ("Ben", 22000, -8000, -10000, 0, 0, -18000, -18.0),
                     ("Dee", 20000, -10000, -20000, 0, 0, -30000, -30.0)]
    csv_text = client.get(f"/api/games/{game['id']}/export.csv").get_data(as_text=True).removeprefix("\ufeff")
    assert csv_text.splitlines()[-5:] == ["rank,name,raw,above_return,uma,oka,penalty,net",
                                          "1,Aki,33000,3000,20000,20000,0,43.0", "2,Cid,25000,-5000,10000,0,0,5.0",
                                          "3,Ben,22000,-8000,-10000,0,0,-18.0", "4,Dee,20000,-10000,-20000,0,0,-30.0"]
    assert json.loads(client.get(f"/api/games/{game['id']}/export.json").data)["state"]["standings"][0][
        "above_return"] == 3000


@pytest.mark.parametrize(
    ("method", "path", "body", "message"),
    [
        ("POST", "/api/game", {"players": "Ann,Bo"}, "players must be a list"),
        ("POST", "/api/game", {}, "missing field 'players'"),
        ("POST", "/api/game", {"players": ["a\u0000", "B", "C", "D"]}, "must be printable"),
        ("POST", "/api/game", {"players": ["Mary Ann, Jr", "B", "C", "D"]}, "cannot hold a comma"),
        ("POST", "/api/game", {"players": ["Ann", "B", "C", "East"]}, "names a seat"),
        ("POST", "/api/game", {"players": ["Ann", "B", "C", "ANN"]}, "must differ"),
        ("POST", "/api/adjust", {"amounts": [100, -100, 0, 0], "reason": "<b>\u001b[31m"}, "printable"),
        ("POST", "/api/game", {"players": ["A", "B", "C", "D"], "preset": "chess"}, "unknown rules"),
        ("POST", "/api/game", {"players": ["A", "B", "C", "D"], "preset": "mcr"}, "keeps riichi games only"),
        ("POST", "/api/riichi", {"seat": 9}, "seat must be 0-3"),
        ("POST", "/api/riichi", [1, 2], "must be a JSON object"),
        ("POST", "/api/ron", {"discarder": 0, "winners": {}}, "winners must be a list"),
        ("POST", "/api/ron", {"discarder": 0, "winners": [{"seat": 0, "han": 1, "fu": 30}]}, "own discard"),
        ("POST", "/api/tsumo", {"seat": 1, "han": 2}, "below 5 han the fu are needed"),
        ("POST", "/api/tsumo", {"seat": 1, "hand": {"concealed": "123m", "win": "4m"}}, ""),
        ("POST", "/api/draw", {"tenpai": "0,1"}, "lists of seats"),
        ("POST", "/api/abortive", {"reason": 3}, "reason must be text"),
        ("POST", "/api/adjust", {"amounts": [1, 2, 3, 4], "reason": "x"}, "sum to zero"),
        ("POST", "/api/end", {"reason": 5}, "reason must be text"),
        ("POST", "/api/pao", {"winner": 1, "liable": 1}, "own yakuman"),
        ("POST", "/api/pao", {"winner": 1}, "missing field 'liable'"),
        ("POST", "/api/penalty", {"seat": 1, "points": 0, "reason": "late"}, "between 1 and 1000000"),
        ("POST", "/api/penalty", {"seat": 1, "points": 1050, "reason": "late"}, "in 100s"),
        ("POST", "/api/penalty", {"seat": 1, "points": 1000, "reason": " "}, "needs a reason"),
        ("POST", "/api/redo", {}, "nothing to redo"),
        ("POST", "/api/scan", {"tsumo": "yes"}, "tsumo must be true or false"),
        ("POST", "/api/scan", {"winner": 1, "discarder": 1}, "own discard"),
        ("POST", "/api/scan", {"photo": "cat.jpg"}, "no photo called"),
        ("PUT", "/api/proposal", {"winner": "Ann"}, "winner must be 0-3"),
        ("POST", "/api/proposal/confirm", {}, "no proposed hand"),
        ("POST", "/api/furiten", {"seat": 0, "hand": "123m", "discards": ""}, "13 tiles"),
        ("POST", "/api/furiten", {"seat": 0, "melds": "pon:111z"}, "melds must be a list"),
        ("POST", "/api/furiten", {"seat": 0, "hand": "", "photo": "04-table-from-above.jpg"},
         "no hand was typed and none was read from the photo"),
        ("POST", "/api/panel/press", {"button": "explode"}, "no button"),
        ("POST", "/api/riichi", {"seat": 1.5}, "seat must be 0-3"),
        ("POST", "/api/ron", {"discarder": 0, "winners": [{"seat": 1, "han": 2.5, "fu": 30}]}, "whole number"),
        ("POST", "/api/ron", {"discarder": 0, "winners": [
            {"seat": 1, "hand": {"concealed": "123m456p789s1122z", "win": "2z", "melds": [5]}}]},
         "melds must be a list"),
        ("POST", "/api/ron", {"discarder": 0, "winners": [
            {"seat": 1, "hand": {"concealed": "123m456p789s1122z", "win": "2z", "flags": {"bogus": True}}}]},
         "flags must map"),
        ("POST", "/api/tsumo", {"seat": 1, "hand": {"concealed": 5, "win": "2z"}}, "concealed must be text"),
        ("POST", "/api/furiten", {"seat": 0, "hand": "123m456p789s112z", "melds": [5]}, "melds must be a list"),
        ("POST", "/api/end", {"reason": "x" * 500}, "too long"),
        ("POST", "/api/draw", {"tenpai": [], "dead": "1"}, "lists of seats"),
        ("POST", "/api/draw", {}, "missing field 'tenpai'"),
        ("POST", "/api/draw", {"tenpai": [0, 0]}, "tenpai seat is listed twice"),
        ("POST", "/api/tsumo", {"seat": 1, "han": 2, "fu": 30, "yakuman": 1}, "give either the yakuman count"),
        ("POST", "/api/tsumo", {"seat": 1, "han": 2, "fu": 30, "hand": {"concealed": "123m", "win": "4m"}},
         "give either the hand or han/fu, not both"),
        ("POST", "/api/adjust", {"amounts": [100, -100, 0, 0], "reason": 5}, "reason must be text"),
        ("GET", "/api/games/99999999999999999999999/export.csv", None, "no game"),
    ],
)
def test_bad_input_is_a_4xx_with_the_reason(client, method, path, body, message):
    h = login(client)
    resp = client.open(path, method=method, json=body, headers=h)
    assert 400 <= resp.status_code < 500, resp.get_data(as_text=True)
    assert message in resp.get_json()["error"]
    assert resp.get_json()["error"]


def test_a_game_that_is_not_there_is_a_404(client):
    h = login(client)
    for path in ("/api/games/99999999999999999999999/export.csv", "/api/games/77/export.json",
                 "/api/games/x/export.json"):
        resp = client.get(path, headers=h)
        assert resp.status_code == 404 and "there is no game" in resp.get_json()["error"], path


def test_non_json_body_is_rejected(client):
    h = login(client)
    resp = client.post("/api/riichi", data="seat=1", headers={**h, "Content-Type": "text/plain"})
    assert resp.status_code == 400 and "must be JSON" in resp.get_json()["error"]


def test_json_nested_too_deep_for_the_parser_is_a_400_not_a_500(client):
    deep = "[" * 5000 + "]" * 5000  # 10 KB: under the size limit, over the parser's recursion limit
    assert client.post("/api/login", data=deep, content_type="application/json").status_code == 400
    h = login(client)
    resp = client.post("/api/riichi", data=deep, headers={**h, "Content-Type": "application/json"})
    assert resp.status_code == 400 and resp.get_json()["error"] == "the request body is nested too deep"


@pytest.mark.parametrize(
    "raw, message",
    [
        ('{"reason": "Zo\u00eb"}'.encode("latin-1"), "the request body is not UTF-8 text (a bad byte at position 14)"),
        (b'{"seat": 1', "the request body is not valid JSON: Expecting ',' delimiter at line 1 column 11"),
        (b"null", "the request body must be a JSON object"),
        (b'{"seat": ' + b"9" * 5000 + b"}", "a number in the request body is too long (over 4300 digits)"),
        (b"[" * 50000, "the request body is nested too deep"),
    ],
)
def test_a_json_body_that_is_not_an_object_says_what_is_wrong(client, raw, message):
    """Each used to get "must be JSON (Content-Type: application/json)", though the Content-Type was that already."""
    h = login(client)
    resp = client.post("/api/riichi", data=raw, headers={**h, "Content-Type": "application/json"})
    assert resp.status_code == 400 and resp.get_json()["error"] == message


def test_a_proposal_field_named_like_a_python_parameter_is_an_unknown_field(client):
    """`propose(**body)` took "self" for its own first parameter: a TypeError, a 500, where "bogus" got the 400."""
    h = login(client)
    for field in ("self", "bogus"):
        resp = client.put("/api/proposal", json={field: 1}, headers=h)
        assert resp.status_code == 400 and resp.get_json()["error"] == f"unknown proposal field(s): {field}", field


def test_malformed_json_is_rejected_and_nothing_is_recorded(env):
    app, assistant, _ = env
    client = app.test_client()
    h = login(client)
    before = len(assistant.store.events(assistant.game_id()))
    for raw in ('{"seat": 1', "null", "[1, 2", '{"seat": 1}}'):
        resp = client.post("/api/riichi", data=raw, headers={**h, "Content-Type": "application/json"})
        assert resp.status_code == 400, raw
        assert "JSON" in resp.get_json()["error"], raw
    assert len(assistant.store.events(assistant.game_id())) == before


def test_body_too_large(client):
    h = login(client)
    resp = client.post("/api/riichi", data="x" * 100_000, headers={**h, "Content-Type": "application/json"})
    assert resp.status_code == 413


def test_panel_press_through_the_api_changes_the_game(env):
    app, assistant, panel = env
    client = app.test_client()
    h = login(client)
    resp = client.post("/api/panel/press", json={"button": "riichi1"}, headers=h)
    assert resp.status_code == 200
    assert resp.get_json()["panel"]["leds"]["riichi1"] is True
    assert assistant.snapshot()["game"]["seats"][1]["riichi"] is True
    resp = client.post("/api/panel/press", json={"button": "undo"}, headers=h)
    assert assistant.snapshot()["game"]["seats"][1]["riichi"] is False
    assert resp.get_json()["panel"]["leds"]["riichi1"] is False


def test_logout_needs_session_and_csrf(client):
    assert client.post("/keeper/logout").status_code == 302
    login(client)
    assert client.post("/keeper/logout", data={"csrf_token": "forged"}).status_code == 403


def test_logout_ends_the_session(client):
    h = login(client)
    resp = client.post("/keeper/logout", data={"csrf_token": h["X-CSRF-Token"]})
    assert resp.status_code == 302
    assert client.get("/api/keeper/state").status_code == 401


def test_app_without_game_keeping_degrades_with_a_message(tmp_path, monkeypatch):
    from device import game_port

    monkeypatch.setattr(game_port, "unavailable", lambda: "table.store cannot be imported (test)")
    assistant = make_assistant(tmp_path)
    app = create_app(assistant.config, assistant)
    client = app.test_client()
    data = client.get("/api/state").get_json()
    assert data["game"] is None and "table.store" in data["device"]["game_keeping"]
    h = login(client)
    resp = client.post("/api/riichi", json={"seat": 0}, headers=h)
    assert resp.status_code == 400 and "game keeping is not available" in resp.get_json()["error"]


def test_an_internal_error_is_json_and_logged(env, monkeypatch):
    app, assistant, _ = env
    app.testing = False  # let the 500 handler answer instead of raising into the test

    def broken():
        raise RuntimeError("disk on fire")

    monkeypatch.setattr(assistant, "snapshot", broken)
    resp = app.test_client().get("/api/state")
    assert resp.status_code == 500
    assert "internal error" in resp.get_json()["error"]


def test_a_full_disk_is_a_503_with_the_reason_and_leaves_no_empty_photo(env, monkeypatch):
    """Fixed (an acceptance run on a full tmpfs): a scan and a logout answered 500 "internal error", and the scan
    left an empty photo behind."""
    import errno
    from pathlib import Path

    app, assistant, _ = env
    app.testing = False
    client = app.test_client()
    h = login(client)
    client.post("/api/game", json={"players": ["Aki", "Ben", "Cid", "Dee"], "preset": "tenhou"}, headers=h)
    real = Path.write_bytes

    def full(path, data):
        real(path, data[:0])  # the file is made, then the disk is full
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(Path, "write_bytes", full)
    before = sorted((assistant.data / "scans").glob("*.jpg"))
    resp = client.post("/api/scan", json={"winner": 1, "tsumo": True}, headers=h)
    assert resp.status_code == 503
    assert resp.get_json()["error"].startswith("the device cannot write its data folder (No space left on device)")
    assert sorted((assistant.data / "scans").glob("*.jpg")) == before

    def refused(path, data):  # not the disk: a fault of ours, answered as one
        raise ConnectionRefusedError(errno.ECONNREFUSED, "Connection refused")

    monkeypatch.setattr(Path, "write_bytes", refused)
    resp = client.post("/api/scan", json={"winner": 1, "tsumo": True}, headers=h)
    assert resp.status_code == 500 and "internal error" in resp.get_json()["error"]


def test_a_game_kept_from_the_shell_in_the_same_file_shows_on_the_page(env):
    """`jantaku game` writes the device's game file from another process: the page and its live stream see it
    within a second or two, with no action on the page."""
    from device.cli import main

    app, assistant, _ = env
    client = app.test_client()
    before = client.get("/api/state").get_json()
    db = str(assistant.data / "games.sqlite3")
    assert main(["game", "riichi", "Ben", "--db", db]) == 0
    assert assistant.wait_for_change(before["version"], timeout=5) != before["version"]
    seats = client.get("/api/state").get_json()["game"]["seats"]
    assert seats[1]["riichi"] and seats[1]["points"] == 24000


def test_a_game_left_in_play_is_resumed_from_the_page(client, env):
    """A new game started by mistake left the one in play with no way back from the device."""
    _, assistant, _ = env
    h = login(client)
    first = client.post("/api/game", json={"players": ["Ann", "Bo", "Cy", "Di"]}, headers=h).get_json()["game_id"]
    client.post("/api/riichi", json={"seat": 1}, headers=h)
    client.post("/api/game", json={"players": ["Kim", "Lee", "Max", "Ned"]}, headers=h)
    resp = client.post(f"/api/games/{first}/resume", headers=h, json={})
    assert resp.status_code == 200
    game = resp.get_json()["state"]["game"]
    assert game["id"] == first and game["riichi_sticks"] == 1
    assert [(g["id"], g["current"]) for g in client.get("/api/games").get_json()["games"]][:2] == [
        (first + 1, False), (first, True)]
    client.post("/api/riichi", json={"seat": 2}, headers=h)  # recorded into the resumed game
    assert assistant.store.state(first).riichi_sticks == 2
    again = client.post(f"/api/games/{first}/resume", headers=h, json={})
    assert again.status_code == 400 and "already the current game" in again.get_json()["error"]
    assert client.post("/api/games/99/resume", headers=h, json={}).status_code == 404
    assert client.post("/api/games/２/resume", headers=h, json={}).status_code == 404
    assert client.post(f"/api/games/{first + 1}/resume", json={}).status_code in (401, 403)  # keepers only


def test_two_phones_recording_one_hand_record_it_once(client, env):
    """Fixed (an acceptance run): two keepers sending the same ron, or an undo aimed at a hand that was no longer
    the last, each went through: a ron counted twice, a draw undone instead. A write carrying the game as the page
    showed it (`seen`) is refused with 409 once the game has changed."""
    _, assistant, _ = env
    h = login(client)
    seen = client.get("/api/keeper/state").get_json()["game_version"]
    ron = {"discarder": 2, "winners": [{"seat": 0, "han": 3, "fu": 30}], "seen": seen}
    assert client.post("/api/ron", json=ron, headers=h).status_code == 200
    again = client.post("/api/ron", json=ron, headers=h)  # the second phone, which showed the same hand
    assert again.status_code == 409 and "the game changed since this page showed it" in again.get_json()["error"]
    assert assistant.state().results == 1 and assistant.state().points[0] == 30800
    paid = client.get("/api/state").get_json()["game"]["last"]["winners"][0]["payment"]
    assert paid == {"ron": 5800}  # a han-and-fu win shows what it paid (an acceptance run: it showed no payment)
    seen = client.get("/api/keeper/state").get_json()["game_version"]
    client.post("/api/draw", json={"tenpai": []}, headers=h)  # recorded elsewhere meanwhile
    assert client.post("/api/undo", json={"seen": seen}, headers=h).status_code == 409  # the draw stays
    assert assistant.state().results == 2
    assert client.post("/api/undo", json={"seen": [seen[0], "7"]}, headers=h).status_code == 400
    assert client.post("/api/undo", json={}, headers=h).status_code == 200  # a script without `seen`: as before
    assert assistant.state().results == 1


def test_a_second_phone_confirming_a_scanned_hand_the_first_recorded_is_refused(client, env):
    """Fixed (an acceptance run): the page confirms by correcting the proposal first (PUT) and then confirming; the
    second phone's correction, arriving after the first phone recorded the hand, started a new proposal for the next
    hand, and its confirm (now with the fresh game version) recorded the hand a second time."""
    _, assistant, _ = env
    h = login(client)
    client.post("/api/scan", json={"winner": 2, "tsumo": True, "photo": "02-seven-pairs.jpg"}, headers=h)
    seen = client.get("/api/keeper/state").get_json()["game_version"]  # both phones show the proposal
    fields = {"winner": 2, "tsumo": True, "flags": {"haitei": False}, "seen": seen}  # as the page sends its fields
    assert client.put("/api/proposal", json=fields, headers=h).status_code == 200  # phone A
    assert client.post("/api/proposal/confirm", json={"seen": seen}, headers=h).status_code == 200
    late = client.put("/api/proposal", json=fields, headers=h)  # phone B, a moment later
    assert late.status_code == 409 and "nothing was recorded" in late.get_json()["error"]
    assert assistant.proposal is None and assistant.state().results == 1


def test_a_hand_recorded_while_its_photo_is_read_is_not_proposed_again(env, monkeypatch):
    """Fixed (an acceptance run): a ron recorded by another phone while a scan of the same hand was being read left
    a proposal stamped with the next hand, which its confirm then recorded a second time."""
    _, assistant, _ = env
    read = assistant._read

    def read_while_another_phone_records(scan_id, cap):
        reading = read(scan_id, cap)
        assistant.record_ron(2, [{"seat": 0, "han": 5, "fu": 30}])
        return reading

    monkeypatch.setattr(assistant, "_read", read_while_another_phone_records)
    with pytest.raises(InputError, match="the hand ended .* while the photo was read: nothing was proposed"):
        assistant.scan_hand(winner=0, discarder=2, tsumo=False, photo="02-seven-pairs.jpg")
    assert assistant.proposal is None and assistant.state().results == 1


def test_a_login_from_another_sites_page_is_refused_and_a_lone_surrogate_is_a_wrong_pin(client):
    """Fixed (an acceptance run): a page elsewhere, opened by guests, posted wrong PINs to the login and locked the
    keeper out; and a PIN holding a lone surrogate answered 500 with a logged traceback, never counted as wrong."""
    for headers in ({"Sec-Fetch-Site": "cross-site"}, {"Origin": "http://attacker.example"}):
        for _ in range(6):
            refused = client.post("/api/login", json={"pin": "0000"}, headers=headers)
            assert refused.status_code == 403 and "must come from this device's own page" in refused.get_json()["error"]
    wrong = client.post("/api/login", data='{"pin": "\\ud800"}', content_type="application/json")
    assert wrong.status_code == 403 and wrong.get_json()["error"] == "wrong PIN"
    assert client.post("/api/login", json={"pin": PIN}, headers={"Sec-Fetch-Site": "same-origin"}).status_code == 200


def test_a_penalty_is_taken_off_at_the_end_and_can_follow_the_game(client):
    """NARO-1 §3.4.3: a 10,000-point deduction for a foul that is no hand (late, a drink on the table), which
    counts for placement there; nothing could record one, since an adjustment must pay it to someone."""
    h = login(client)
    client.post("/api/game", json={"players": ["Ann", "Bo", "Cy", "Di"], "preset": "naro1"}, headers=h)
    resp = client.post("/api/penalty", json={"seat": 1, "points": 10000, "reason": "late (over 10 s)"}, headers=h)
    assert resp.status_code == 200, resp.get_json()
    game = client.get("/api/state").get_json()["game"]
    assert [s["points"] for s in game["seats"]] == [30000] * 4 and game["seats"][1]["penalty"] == -10000
    client.post("/api/end", json={"reason": "time called"}, headers=h)
    assert client.post("/api/penalty", json={"seat": 2, "points": 10000, "reason": "a drink on the table"},
                       headers=h).status_code == 200  # the referee's deduction as the game ends
    standings = client.get("/api/state").get_json()["game"]["standings"]
    assert [(s["name"], s["rank"], s["penalty"]) for s in standings][2:] == [("Bo", 3, -10000), ("Cy", 3, -10000)]
    rows = client.get("/api/history").get_json()["hands"]
    assert [(row["number"], row["title"]) for row in rows] == [
        (None, "penalty, Bo -10000 at the end: late (over 10 s)"), (None, "game over (time called)"),
        (None, "penalty, Cy -10000 at the end: a drink on the table")]


LOCAL_HOSTS = ("localhost", "localhost:8080", "127.0.0.1:8080", "[::1]:8080", "192.168.1.20", "jantaku",
               "raspberrypi:8080", "jantaku.local", "JANTAKU.LOCAL.:8080", "pi.lan", "pi.home", "pi.home.arpa",
               "pi.internal", "pi.localdomain")
REBINDING_HOSTS = ("evil.example", "evil.example:8080", "192-168-1-20.nip.io", "jantaku.local.evil.example",
                   "localhost.evil.example")


def test_a_page_reached_through_another_sites_name_is_refused(env, caplog):
    """Fixed: any Host was answered, so a page of another site whose name its owner then pointed at the device (DNS
    rebinding) read the scoreboard and tried PINs from a guest's browser, its requests same-origin to the browser.
    Now a name the room does not use is refused (421) with the setting that lets a club's own name in."""
    app, _, _ = env
    client = app.test_client()
    for host in LOCAL_HOSTS:
        assert client.get("/api/state", headers={"Host": host}).status_code == 200, host
    for host in REBINDING_HOSTS:
        page = client.get("/", headers={"Host": host})
        assert page.status_code == 421 and page.mimetype == "text/plain", host
        assert f"does not answer to the name '{host}'" in page.get_data(as_text=True)
        assert "add it to allowed_hosts in the config file (or start jantaku serve with --allow-host NAME)" in \
            page.get_data(as_text=True)
        tried = client.post("/api/login", json={"pin": PIN}, headers={"Host": host, "Sec-Fetch-Site": "same-origin"})
        assert tried.status_code == 421 and "allowed_hosts" in tried.get_json()["error"]
        assert client.get("/api/state", headers={"Host": host}).status_code == 421
    refused = [r.getMessage() for r in caplog.records if "refused requests for the host name" in r.getMessage()]
    assert len(refused) == len(REBINDING_HOSTS)  # once per name, however often it comes
    login(client)  # the test client's own Host (localhost) still works


def test_a_clubs_own_names_are_let_in_by_allowed_hosts(env):
    from dataclasses import replace

    _, assistant, _ = env
    config = replace(assistant.config, allowed_hosts=("scores.myclub.org", ".club.example"))
    client = create_app(config, assistant).test_client()
    for host in ("scores.myclub.org", "SCORES.MYCLUB.ORG:8080", "club.example", "table2.club.example", "jantaku.local"):
        assert client.get("/api/state", headers={"Host": host}).status_code == 200, host
    for host in ("other.myclub.org", "myclub.org", "evilclub.example", "evil.example"):
        assert client.get("/api/state", headers={"Host": host}).status_code == 421, host
    anyone = create_app(replace(assistant.config, allowed_hosts=("*",)), assistant).test_client()
    assert anyone.get("/api/state", headers={"Host": "evil.example"}).status_code == 200

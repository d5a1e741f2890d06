"""Pull the plug: kill -9 a live `jantaku serve` in the middle of a game, start it again, nothing is lost."""

from __future__ import annotations

import http.client
import threading

from device.loadtest import Keeper, ServerProcess

PIN = "97531"


def test_kill_mid_game_and_restart_loses_nothing(tmp_path):
    data = tmp_path / "data"
    server = ServerProcess(data, pin=PIN, extra=["--no-recognizer"]).start()
    try:
        keeper = Keeper(server.port, PIN)
        status, _ = keeper.call("POST", "/api/game", {"players": ["Aki", "Ben", "Cid", "Dee"], "preset": "tenhou"})
        assert status == 200
        script = [
            ("/api/riichi", {"seat": 1}),
            ("/api/ron", {"discarder": 0, "winners": [{"seat": 1, "han": 2, "fu": 40}]}),
            ("/api/draw", {"tenpai": [1]}),
            ("/api/tsumo", {"seat": 3, "han": 1, "fu": 30}),
        ]
        for path, body in script:
            status, data_ = keeper.call("POST", path, body)
            assert status == 200, data_
        status, scan = keeper.call("POST", "/api/scan", {"winner": 2, "tsumo": True})
        assert status == 200
        acked = keeper.call("GET", "/api/state")[1]

        # a burst of riichi/undo writes while the process is killed: every acknowledged write must survive
        acknowledged: list[int] = []
        refused: list[object] = []  # a write refused before the kill (asserted below: a thread's assert is lost)
        stop = threading.Event()

        def burst() -> None:
            i = 0
            while not stop.is_set():
                try:
                    path, body = ("/api/riichi", {"seat": 0}) if i % 2 == 0 else ("/api/undo", {})
                    status, reply = keeper.call("POST", path, body)
                except (OSError, http.client.HTTPException):  # killed mid-request or mid-reply: not acknowledged
                    return
                if status != 200:
                    refused.append(reply)
                    return
                acknowledged.append(reply["state"]["version"])
                i += 1

        writer = threading.Thread(target=burst)
        writer.start()
        threading.Event().wait(0.5)
        server.kill()
        stop.set()
        writer.join(10)
        writes_before_kill = len(acknowledged)
        assert writes_before_kill > 0 and not refused, refused
    finally:
        server.stop()

    server2 = ServerProcess(data, pin=PIN, extra=["--no-recognizer"]).start()
    try:
        keeper2 = Keeper(server2.port, PIN)
        after = keeper2.call("GET", "/api/keeper/state")[1]
        game = after["game"]
        before = acked["game"]
        assert game["id"] == before["id"]
        assert [s["name"] for s in game["seats"]] == ["Aki", "Ben", "Cid", "Dee"]
        assert game["hands_played"] == before["hands_played"] == 3
        assert game["round"] == before["round"]
        assert game["honba"] == before["honba"]
        # The burst alternated riichi(seat 0)/undo: n stored writes leave seat 0 in riichi exactly when n is odd.
        # Every acknowledged write is stored; at most one more (committed, killed before the reply) may be.
        in_riichi = [s["seat"] for s in game["seats"] if s["riichi"]]

        def expected(n: int) -> list[int]:
            return [0] if n % 2 else []

        assert in_riichi in (expected(writes_before_kill), expected(writes_before_kill + 1))
        points_without_riichi = [s["points"] + (1000 if s["riichi"] else 0) for s in game["seats"]]
        assert points_without_riichi == [s["points"] for s in before["seats"]]
        # the pending scanned proposal is still there, with its photo
        assert after["proposal"] is not None and after["proposal"]["scan_id"] == scan["proposal"]["scan_id"]
        photo = after["proposal"]["photo_url"]
        conn_status, _ = keeper2.call("GET", photo)
        assert conn_status == 200
        # and the game goes on
        in_riichi = [s["seat"] for s in game["seats"] if s["riichi"]]
        status, reply = keeper2.call("POST", "/api/draw", {"tenpai": in_riichi})
        assert status == 200, reply
        assert reply["state"]["game"]["hands_played"] == 4
    finally:
        server2.stop()

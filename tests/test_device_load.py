"""A small, bounded version of `jantaku bench serve`: 30 live spectators while the scorekeeper records hands.

The full run (and the figures in the README) is `jantaku bench serve`; this one only checks the room
stays served: every stream opens and sees every change, and page loads stay under 200 ms.
"""

from __future__ import annotations

from device.loadtest import run_load_test


def test_thirty_spectators_while_hands_are_recorded():
    result = run_load_test(spectators=30, hands=8, page_loads=30)
    assert result["streams_open"] == 30, result
    assert result["stream_errors"] == 0, result
    assert result["updates_missed"] == 0, result
    assert result["hands_recorded"] >= 7, result
    assert result["page_ms_p95"] < 200, result
    assert result["update_delay_ms_max"] < 1000, result
    assert result["ok"] is True


def test_a_huge_body_is_refused_before_it_is_received(tmp_path):
    """Flask's 64 KB limit came after waitress had spooled the whole body to disk: anyone on the Wi-Fi could fill
    the Pi's card with a few 1 GB "logins". waitress now answers 413 from the Content-Length alone."""
    import socket

    from device.loadtest import ServerProcess

    with ServerProcess(tmp_path / "data", extra=["--no-recognizer"]) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as conn:
            conn.sendall(b"POST /api/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 209715200\r\n\r\n" + b"x" * 1024)
            reply = conn.recv(200)
    assert reply.startswith(b"HTTP/1.1 413")


def test_heads_of_the_live_stream_take_no_slot_under_waitress(tmp_path):
    """A HEAD's body is never run, so its slot was never freed: 41 HEADs turned every later viewer away (503) until a
    restart. Under the real server the slot is freed when the response closes."""
    import http.client

    from device.loadtest import ServerProcess

    with ServerProcess(tmp_path / "data", extra=["--no-recognizer"]) as server:
        for _ in range(41):
            conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
            conn.request("HEAD", "/api/stream")
            assert conn.getresponse().status == 200
            conn.close()
        conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        conn.request("GET", "/api/stream")
        resp = conn.getresponse()
        assert resp.status == 200 and resp.read(12) == b"retry: 1000\n"
        conn.close()

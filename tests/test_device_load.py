"""A small, bounded version of `jantaku bench serve`: 30 live spectators while the scorekeeper records hands.

The full run (and the figures in the README) is `jantaku bench serve`; this one only checks the room
stays served: every stream opens and sees every change, and page loads stay under 200 ms.
"""

from __future__ import annotations

import pytest

from device import loadtest
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


def test_page_loads_are_spread_over_the_writes(monkeypatch):
    """The page loads ran back to back and were over in a third of the writes' time, mostly not under write load:
    each now waits for its share of the hands to have started, the last ones for the last hand."""
    order: list[str] = []
    get_ms, call = loadtest._get_ms, loadtest.Keeper.call
    writes = {path for _, path, _ in loadtest.HAND_SCRIPT}

    def timed_get(port: int, path: str) -> float:
        if path == "/":
            order.append("page")
        return get_ms(port, path)

    def keeper_call(self, method: str, path: str, body=None):
        if path in writes:
            order.append("write")
        return call(self, method, path, body)

    monkeypatch.setattr(loadtest, "_get_ms", timed_get)
    monkeypatch.setattr(loadtest.Keeper, "call", keeper_call)
    result = run_load_test(spectators=1, hands=8, page_loads=16)
    assert result["page_loads"] == 16 and result["hands_recorded"] == 8, result
    pages = [n for n, what in enumerate(order) if what == "page"]
    seventh_write = [n for n, what in enumerate(order) if what == "write"][6]
    assert pages[-1] > seventh_write  # the last loads came once the last hand had started


def test_viewers_over_the_stream_cap_poll_and_are_counted_apart():
    """Viewers refused a stream (over `max_streams`: they poll, by design) were counted as stream errors and as
    having missed every update, so a run with more viewers than slots could never pass."""
    result = run_load_test(spectators=4, hands=2, page_loads=2, max_streams=2)
    assert (result["streams_open"], result["streams_refused"], result["stream_errors"]) == (2, 2, 0), result
    assert result["updates_missed"] == 0 and result["ok"] is True, result


@pytest.mark.parametrize("argv", [["--spectators", "0", "--hands", "0", "--page-loads", "0"], ["--hands", "-3"]])
def test_bench_serve_refuses_counts_that_measure_nothing(argv, capsys):
    """`--spectators 0 --hands 0 --page-loads 0` printed ok True from an empty run; a negative count, ok False with no
    reason. Both are now refused before a server starts: exit 2 and the reason."""
    from device.cli import main

    assert main(["bench", "serve", *argv]) == 2
    err = capsys.readouterr().err
    assert "must each be 1 or more" in err and argv[1] in err


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

"""Load test of a live `jantaku serve` on loopback: spectators streaming while the scorekeeper records hands.

Measures what a room notices: how long a page load takes while every stream is open, and how long after
the scorekeeper's write every spectator sees the change. Used by `jantaku bench serve` and, smaller, by
the test suite. Loopback only: the server is started here on 127.0.0.1 with a throw-away data folder.
"""

from __future__ import annotations

import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from device.config import Config
from table.errors import InputError

ROOT = Path(__file__).resolve().parent.parent


class ServerProcess:
    """`jantaku serve` as a child process on a free loopback port, with its own data folder."""

    def __init__(self, data_dir: str | Path, pin: str = "13579", extra: list[str] | None = None,
                 env: dict[str, str] | None = None) -> None:
        self.data_dir = Path(data_dir)
        self.pin = pin
        self.extra = extra or []
        self.env = env
        self.proc: subprocess.Popen | None = None
        self.port = 0
        self.log_path = self.data_dir.parent / f"{self.data_dir.name}-serve.log"

    def start(self, timeout: float = 60.0) -> ServerProcess:
        cmd = [sys.executable, "-m", "device.cli", "serve", "--host", "127.0.0.1", "--port", "0",
               "--data", str(self.data_dir), "--pin", self.pin, "--pins", "mock", "--camera", "replay", *self.extra]
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **(self.env or {})}
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        self.log = open(self.log_path, "ab")
        offset = self.log_path.stat().st_size  # a restart appends: only this run's lines count
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT)
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            text = self.log_path.read_bytes()[offset:].decode(errors="replace")
            found = re.findall(r"jantaku: serving on port (\d+)", text)
            if found:
                self.port = int(found[-1])
                return self
            if self.proc.poll() is not None:
                raise RuntimeError(f"jantaku serve exited with {self.proc.returncode}:\n{text[-3000:]}")
            time.sleep(0.05)
        self.kill()
        raise RuntimeError(f"jantaku serve did not start in {timeout} s:\n{text[-3000:]}")

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def kill(self) -> None:
        """SIGKILL: what a pulled plug looks like to the process (no clean shutdown at all)."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.kill()
        if getattr(self, "log", None):
            self.log.close()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


class Keeper:
    """A scorekeeper's HTTP session: logs in with the PIN, keeps the cookie and CSRF token."""

    def __init__(self, port: int, pin: str) -> None:
        self.port = port
        self.cookie = ""
        self.csrf = ""
        status, data = self.call("POST", "/api/login", {"pin": pin})
        if status != 200:
            raise RuntimeError(f"login failed: {status} {data}")
        self.csrf = data["csrf_token"]

    def call(self, method: str, path: str, body: Any = None) -> tuple[int, Any]:
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        headers = {"Content-Type": "application/json", "Accept": "application/json"}
        if self.cookie:
            headers["Cookie"] = self.cookie
        if self.csrf:
            headers["X-CSRF-Token"] = self.csrf
        conn.request(method, path, body=None if body is None else json.dumps(body), headers=headers)
        resp = conn.getresponse()
        raw = resp.read()
        cookie = resp.getheader("Set-Cookie")
        if cookie:
            self.cookie = cookie.split(";", 1)[0]
        conn.close()
        try:
            return resp.status, json.loads(raw)
        except ValueError:
            return resp.status, raw.decode(errors="replace")


class Spectator(threading.Thread):
    """Holds `/api/stream` open and notes when each state version arrives. Each viewer comes from its own loopback
    address (127.0.1.N), as each phone in the room has its own: the server allows a few streams per address."""

    def __init__(self, port: int, stop: threading.Event, number: int = 0) -> None:
        super().__init__(daemon=True)
        self.port = port
        self.source = (f"127.0.{1 + number // 250}.{1 + number % 250}", 0)
        self.stop_event = stop
        self.seen: dict[int, float] = {}
        self.connected = threading.Event()
        self.error: str | None = None
        self.status = 0

    def run(self) -> None:
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30, source_address=self.source)
            conn.request("GET", "/api/stream", headers={"Accept": "text/event-stream"})
            resp = conn.getresponse()
            self.status = resp.status
            if resp.status == 503:  # over the stream cap: the page polls /api/state instead, by design
                self.connected.set()
                return
            if resp.status != 200:
                self.error = f"stream refused: {resp.status}"
                self.connected.set()
                return
            buf = b""
            while not self.stop_event.is_set():
                chunk = resp.fp.readline()
                if not chunk:
                    break
                buf += chunk
                if chunk == b"\n":
                    for line in buf.split(b"\n"):
                        if line.startswith(b"id: "):
                            self.seen.setdefault(int(line[4:]), time.monotonic())
                            self.connected.set()
                    buf = b""
            conn.close()
        except Exception as exc:  # reported in the result, not raised in a thread
            self.error = repr(exc)
            self.connected.set()


def _get_ms(port: int, path: str) -> float:
    start = time.perf_counter()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    conn.request("GET", path)
    resp = conn.getresponse()
    resp.read()
    conn.close()
    if resp.status != 200:
        raise RuntimeError(f"GET {path}: {resp.status}")
    return (time.perf_counter() - start) * 1000


def _pct(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)


HAND_SCRIPT = [
    ("POST", "/api/riichi", {"seat": 1}),
    ("POST", "/api/tsumo", {"seat": 1, "han": 2, "fu": 30}),
    ("POST", "/api/ron", {"discarder": 2, "winners": [{"seat": 0, "han": 1, "fu": 30}]}),
    ("POST", "/api/draw", {"tenpai": [0, 3]}),
]


def _check_arguments(**counts: int) -> None:
    """Each count must be a whole number of 1 or more: 0 of any measures nothing (an empty run passed as ok) and a
    negative one failed with no reason given."""
    bad = [f"--{name.replace('_', '-')} {value}" for name, value in counts.items()
           if isinstance(value, bool) or not isinstance(value, int) or value < 1]
    if bad:
        raise InputError(f"bench serve: {', '.join(bad)}: --spectators, --hands and --page-loads must each be 1 "
                         "or more")


def page_load_turn(i: int, hands: int, page_loads: int) -> int:
    """The hand whose write page load `i` waits for: the loads are spread evenly over the writes, so they are timed
    under write load (run back to back they were over in a third of the writes' time)."""
    return i * hands // page_loads


def run_load_test(spectators: int = 30, hands: int = 40, page_loads: int = 200, budget_ms: float = 200.0,
                  data_dir: str | None = None, max_streams: int | None = None) -> dict[str, Any]:
    """Start a server, open the streams, record `hands` hands while timing `page_loads` page loads spread over them.

    Viewers over the server's stream cap (`max_streams`: the built-in default, 40, unless given) are refused by
    design and poll: they are counted apart (`streams_refused`), not as missed updates."""
    _check_arguments(spectators=spectators, hands=hands, page_loads=page_loads)
    cap = max_streams or Config().max_streams
    with tempfile.TemporaryDirectory(prefix="jantaku-load-") as tmp:
        extra = ["--no-recognizer"]
        if max_streams:
            config = Path(tmp) / "load.toml"
            config.write_text(f"max_streams = {max_streams}\n")
            extra += ["--config", str(config)]
        server = ServerProcess(Path(data_dir or tmp) / "data", extra=extra)
        with server:
            keeper = Keeper(server.port, server.pin)
            stop = threading.Event()
            viewers = [Spectator(server.port, stop, n) for n in range(spectators)]
            for v in viewers:
                v.start()
            for v in viewers:
                v.connected.wait(10)
            page_ms: list[float] = []
            state_ms: list[float] = []
            write_ms: list[float] = []
            versions: list[tuple[int, float]] = []
            load_errors: list[str] = []
            progress = threading.Condition()
            started = [-1]  # the hand whose write has started: -1 before the first, `hands` once all are done

            def load_pages() -> None:
                try:
                    for i in range(page_loads):
                        with progress:
                            progress.wait_for(lambda i=i: started[0] >= page_load_turn(i, hands, page_loads))
                        page_ms.append(_get_ms(server.port, "/"))
                        state_ms.append(_get_ms(server.port, "/api/state"))
                        if i % 10 == 0:
                            _get_ms(server.port, "/static/app.css")
                except Exception as exc:  # reported in the result, not raised in a thread
                    load_errors.append(repr(exc))

            def start_hand(number: int) -> None:
                with progress:
                    started[0] = number
                    progress.notify_all()

            reader = threading.Thread(target=load_pages)
            reader.start()
            recorded = 0
            try:
                keeper.call("POST", "/api/game", {"players": ["Aki", "Ben", "Cid", "Dee"], "preset": "tenhou"})
                for i in range(hands):
                    method, path, body = HAND_SCRIPT[i % len(HAND_SCRIPT)]
                    start_hand(i)
                    t0 = time.perf_counter()
                    sent = time.monotonic()  # delays count from the keeper's click, write time included
                    status, data = keeper.call(method, path, body)
                    write_ms.append((time.perf_counter() - t0) * 1000)
                    if status != 200:
                        if "over" in str(data):  # the game ended (busting): start another and go on
                            keeper.call("POST", "/api/game", {"players": ["Aki", "Ben", "Cid", "Dee"]})
                            continue
                        raise RuntimeError(f"{method} {path}: {status} {data}")
                    recorded += 1
                    versions.append((data["state"]["version"], sent))
                    time.sleep(0.05)
            finally:
                start_hand(hands)  # the reader never waits for a hand that will not come
                reader.join()
            time.sleep(1.0)
            stop.set()
            streaming = [v for v in viewers if v.status == 200]
            delays = []
            missed = 0
            for version, sent in versions:
                for v in streaming:
                    got = v.seen.get(version)
                    if got is None:
                        # a later version implies this change was shown (coalesced into the next message)
                        later = [t for ver, t in v.seen.items() if ver > version]
                        got = min(later) if later else None
                    if got is None:
                        missed += 1
                    else:
                        delays.append(max(0.0, (got - sent) * 1000))
            errors = [v.error for v in viewers if v.error] + load_errors
            result = {
                "spectators": spectators,
                "streams_open": len(streaming),
                "streams_refused": sum(1 for v in viewers if v.status == 503),
                "stream_errors": len(errors) - len(load_errors),
                "hands_recorded": recorded,
                "page_loads": len(page_ms),
                "page_ms_p50": _pct(page_ms, 0.5),
                "page_ms_p95": _pct(page_ms, 0.95),
                "page_ms_max": round(max(page_ms), 1) if page_ms else 0.0,
                "state_ms_p50": _pct(state_ms, 0.5),
                "state_ms_p95": _pct(state_ms, 0.95),
                "write_ms_p50": _pct(write_ms, 0.5),
                "write_ms_p95": _pct(write_ms, 0.95),
                "update_delay_ms_p50": _pct(delays, 0.5),
                "update_delay_ms_p95": _pct(delays, 0.95),
                "update_delay_ms_max": round(max(delays), 1) if delays else 0.0,
                "updates_missed": missed,
                "mean_page_ms": round(statistics.fmean(page_ms), 1) if page_ms else 0.0,
            }
            result["ok"] = bool(
                result["streams_open"] == min(spectators, cap)
                and result["streams_refused"] == spectators - result["streams_open"]
                and not errors and missed == 0 and len(page_ms) == page_loads
                and result["page_ms_p95"] < budget_ms and result["update_delay_ms_max"] < 1000
            )
            if errors:
                result["first_error"] = errors[0]
            return result

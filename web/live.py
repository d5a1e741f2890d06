"""Live updates by server-sent events, sized so spectators can never starve the scorekeeper of threads.

Each open stream holds one waitress thread, so streams are capped (`max_streams`, below `threads`); a page
turned away gets 503 and polls `/api/state` instead. A stream sends the state on connect and on every change,
a `keepalive` event every KEEPALIVE_SECONDS (its data: that interval, so a page that hears nothing for three of
them knows the connection went silent, a phone asleep or a Wi-Fi blip, and reopens it: EventSource shows a page
no comment lines), and closes after a few minutes so reconnects spread the load (EventSource reconnects by itself
after `retry`). A viewer gone is noticed at the second write into its dead socket (waitress buffers the first),
so its slot is free again within about two keep-alives.
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterator

KEEPALIVE_SECONDS = 5.0  # a viewer gone is noticed at the second write into its socket: its slot is free that soon
STREAMS_PER_CLIENT = 4  # one phone reloading, a TV and a laptop behind one address; not every slot
STREAM_SECONDS = 300.0


class StreamHub:
    def __init__(self, assistant, max_streams: int) -> None:
        self.assistant = assistant
        self.max_streams = max_streams
        self.open = 0
        self._lock = threading.Lock()
        self._by_client: dict[str, int] = {}
        self._encoded: tuple[int, bytes] | None = None
        # the browser tests shorten it (JANTAKU_KEEPALIVE_SECONDS) to see a silent connection noticed in a second
        self.keepalive = float(os.environ.get("JANTAKU_KEEPALIVE_SECONDS") or KEEPALIVE_SECONDS)

    def try_open(self, client: str) -> Callable[[], None] | None:
        """A slot for `client`, as the function that frees it, or None when none is left. The function frees the slot
        once however often it is called: both the stream's end and the response's close call it, since a body never
        iterated (a HEAD, a client gone before the first byte) never runs the stream's `finally`."""
        with self._lock:
            if self.open >= self.max_streams or self._by_client.get(client, 0) >= STREAMS_PER_CLIENT:
                return None
            self.open += 1
            self._by_client[client] = self._by_client.get(client, 0) + 1
        freed = False

        def release() -> None:
            nonlocal freed
            with self._lock:
                if freed:
                    return
                freed = True
                self.open -= 1
                self._by_client[client] -= 1
                if not self._by_client[client]:
                    del self._by_client[client]

        return release

    def message(self) -> tuple[int, bytes]:
        """The current state as one SSE message, encoded once per version for every stream."""
        snap = self.assistant.snapshot()
        cached = self._encoded
        if cached and cached[0] == snap["version"]:
            return cached
        body = json.dumps(snap, separators=(",", ":"))
        encoded = (snap["version"], f"id: {snap['version']}\nevent: state\ndata: {body}\n\n".encode())
        self._encoded = encoded
        return encoded

    def stream(self, release: Callable[[], None], keepalive: float | None = None,
               lifetime: float = STREAM_SECONDS) -> Iterator[bytes]:
        """Yield SSE bytes until `lifetime` passes or the client goes away; the slot (`release`) is freed either way.
        The first keep-alive goes out at once, so a page knows the interval before it has to miss one."""
        keepalive = keepalive or self.keepalive
        ping = f"event: keepalive\ndata: {keepalive:g}\n\n".encode()
        try:
            yield b"retry: 1000\n\n" + ping
            version, msg = self.message()
            yield msg
            end = time.monotonic() + lifetime
            while not self.assistant.closing.is_set():
                left = end - time.monotonic()
                if left <= 0:
                    return
                now_version = self.assistant.wait_for_change(version, min(keepalive, left))
                if now_version == version:
                    yield ping
                    continue
                version, msg = self.message()
                yield msg
        finally:
            release()

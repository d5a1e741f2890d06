"""`jantaku serve` (the table device: page, panel, camera in one process) and `jantaku bench serve` (load test)."""

from __future__ import annotations

import argparse
import contextlib
import ipaddress
import logging
import os
import signal
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import IO

from table.errors import InputError

MAX_BODY = 128 * 1024  # waitress refuses a larger body unread (Flask's 64 KB would come after it was spooled to disk)
CONFIG_ERROR = 78  # EX_CONFIG: the unit does not restart on it (a busy port or a locked folder, exit 2, may clear)
DATA_ERROR = 73  # EX_CANTCREAT: the data folder or its game database cannot be used; not restarted on either


class DataFolderError(InputError):
    """The data folder or its game database cannot be used (not writable, a file, a damaged database): unlike a
    folder locked by another server or a busy port, waiting does not mend it (exit 73)."""


def register(commands, bench) -> None:
    p = commands.add_parser(
        "serve", help="run the table device: scoreboard page, scorekeeper pages, JSON API, button panel, camera",
        description="Run the table device in one process (waitress). Every setting has a default; a TOML "
                    "config file (deploy/jantaku.example.toml) sets the PIN, pins, camera, preset and port, "
                    "and the options below override it.",
    )
    p.add_argument("--config", metavar="FILE", help="TOML config file (default: none, built-in defaults)")
    p.add_argument("--host", help="address to listen on (default 0.0.0.0: every phone in the room)")
    p.add_argument("--port", type=int, help="port (default 8080; 0 picks a free one and logs it)")
    p.add_argument("--data", dest="data_dir", metavar="DIR", help="data folder: game log, photos (default ./data)")
    p.add_argument("--pin", help="scorekeeper PIN, 4-8 digits (default 2468: set your own)")
    p.add_argument("--rules", dest="preset", help="preset for new games (default tenhou)")
    p.add_argument("--camera", dest="camera_source", choices=("auto", "picamera2", "opencv", "replay"),
                   help="camera source (default auto: Picamera2, else OpenCV, else, off a Pi, the replay photos)")
    p.add_argument("--photos", dest="camera_replay_folder", metavar="DIR",
                   help="folder of photos the replay camera returns in name order (default: bundled samples)")
    p.add_argument("--pins", dest="panel_pin_factory", choices=("auto", "mock", "lgpio", "rpigpio", "pigpio", "native"),
                   help="gpiozero pin factory (default auto: the real pins on a Pi, mock pins elsewhere)")
    p.add_argument("--tile-art", dest="tile_art", metavar="DIR",
                   help="folder of FluffyStuff tile PNGs (default: shared/tiles/fluffystuff beside the clone, "
                        "else /usr/share/jantaku/tiles, else tiles drawn with a CJK font, else text)")
    p.add_argument("--threads", type=int, help="waitress worker threads (default 48: 40 live viewers + page loads)")
    p.add_argument("--allow-host", dest="allowed_hosts", action="append", metavar="NAME",
                   help="a host name the pages answer to besides IP addresses, localhost, one-word names and .local, "
                        ".lan, .home, .home.arpa, .internal, .localdomain ones; repeatable; replaces the config "
                        "file's allowed_hosts (.example.org: every name under it)")
    p.add_argument("--no-panel", action="store_true", help="run without the button panel")
    p.add_argument("--no-recognizer", action="store_true", help="do not load the tile recognizer (type hands)")
    p.set_defaults(func=serve)

    b = bench.add_parser("serve", help="load test: spectators streaming while the scorekeeper records hands")
    b.add_argument("--spectators", type=int, default=30, help="live viewers holding an event stream (default 30)")
    b.add_argument("--hands", type=int, default=40, help="hands the scorekeeper records (default 40)")
    b.add_argument("--page-loads", type=int, default=200, help="timed page loads during the run (default 200)")
    b.add_argument("--json", action="store_true", help="print the figures as JSON")
    b.set_defaults(func=bench_serve)


def setup_logging(level: str = "INFO") -> None:
    """Plain lines on stderr (journald adds the time on a Pi; we add it for terminals and files)."""
    logging.basicConfig(stream=sys.stderr, level=getattr(logging, level.upper(), logging.INFO),
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s", force=True)


def build(config, *, panel: bool = True):
    """The assistant, its panel and the app, wired as `jantaku serve` runs them (tests build the same)."""
    from device.assistant import Assistant
    from device.camera import open_camera_or_none
    from web import create_app

    log = logging.getLogger("jantaku.serve")
    camera = open_camera_or_none(config.camera)
    log.info("camera: %s", camera.description)
    assistant = Assistant(config, camera=camera)
    log.info("recognizer: %s", assistant.reader.description)
    if config.auto_start and assistant.store is not None and assistant.game_id() is None:
        assistant.start_game(list(config.players), config.preset)
    the_panel = None
    if panel and config.panel.enabled:
        from device.panel import Panel

        try:
            the_panel = Panel(assistant, config.panel)
        except Exception as exc:  # no GPIO access (not in the gpio group), pins busy: keep the page running
            log.error("panel not started: %s", exc)
            assistant.panel_description = f"off ({exc})"
    app = create_app(config, assistant)
    app.extensions["jantaku.panel"] = the_panel
    threading.Thread(target=app.extensions["jantaku.tiles"].warm, name="tiles", daemon=True).start()
    return assistant, the_panel, app


def _few_malloc_arenas() -> None:
    """glibc gives each thread that allocates its own heap (up to 8 per core), and each keeps the memory of the
    12-MP photos its scans decoded: the server grew by about 7 MB a scan, 799 MB after 83, as scans fell to one
    web thread after another; capped at 2 (MALLOC_ARENA_MAX), it stayed at 330-370 MB. Must run before threads."""
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        libc.mallopt(-8, 2)  # M_ARENA_MAX
    except (OSError, AttributeError):  # not glibc (musl, macOS): their allocators keep no such per-thread heaps
        pass


def serve(args: argparse.Namespace) -> int:
    from waitress import create_server

    _few_malloc_arenas()

    from device.config import DEFAULT_PIN, load_config

    overrides = {k: getattr(args, k) for k in ("host", "port", "data_dir", "pin", "preset", "camera_source",
                                               "camera_replay_folder", "panel_pin_factory", "threads",
                                               "tile_art")}
    if args.allowed_hosts:
        overrides["allowed_hosts"] = tuple(args.allowed_hosts)
    if args.no_panel:
        overrides["panel_enabled"] = False
    if args.no_recognizer:
        overrides["recognizer"] = False
    try:
        config = load_config(args.config, **overrides)
    except InputError as exc:
        print(f"jantaku: {exc}", file=sys.stderr)
        return CONFIG_ERROR
    setup_logging(config.log_level)
    log = logging.getLogger("jantaku.serve")
    # os.path.exists: Path.exists raises where this user may not look (a data folder left to root)
    made = [p for p in (config.data_path / "serve.lock", config.data_path) if not os.path.exists(p)]
    try:
        lock = lock_data_folder(config.data_path)
    except DataFolderError as exc:
        print(f"jantaku: {exc}", file=sys.stderr)
        return DATA_ERROR
    late = _LateApp()  # the port is taken before the slow start (recognizer, panel), so a busy one fails at once
    try:
        server = create_server(late, host=config.host, port=config.port, threads=config.threads,
                               connection_limit=max(500, 8 * config.threads), channel_timeout=30, ident="jantaku",
                               max_request_body_size=MAX_BODY)
    except (OSError, ValueError) as exc:  # ValueError: waitress finds no such address (a host that is not one)
        lock.close()
        with contextlib.suppress(OSError):  # a refused start leaves no empty data folder behind (the lock is
            for path in made:  # taken before the port so that a second server on the folder is named as such)
                path.unlink() if path.is_file() else path.rmdir()
        raise InputError(f"cannot listen on {config.host}:{config.port}: {getattr(exc, 'strerror', None) or exc}"
                         ) from None
    try:
        check_game_database(config.data_path)
    except DataFolderError as exc:
        server.close()
        lock.close()
        print(f"jantaku: {exc}", file=sys.stderr)
        return DATA_ERROR
    limit_per_address(server)
    try:
        assistant, panel, late.app = build(config)
    except BaseException:
        server.close()
        raise
    app = late.app
    port = int(server.effective_port)
    log.info("data folder: %s", config.data_path.resolve())
    if config.pin == DEFAULT_PIN:
        log.warning("the scorekeeper PIN is the default %s: set pin in the config file", DEFAULT_PIN)
    log.info("listening on http://%s:%d/ (scorekeeper: /keeper)", config.host, port)
    sys.stderr.write(f"jantaku: serving on port {port}\n")  # one write: a log line of another thread cannot split it
    sys.stderr.flush()

    def stop(signum, frame):
        log.info("stopping (signal %d)", signum)
        assistant.shutdown()  # live streams end now instead of holding their threads ...
        hub = app.extensions["jantaku.live"]
        deadline = time.monotonic() + 2.0
        while hub.open and time.monotonic() < deadline:  # ... and are let finish before the sockets close
            time.sleep(0.02)
        server.close()
        raise SystemExit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)  # Ctrl-C ends the live streams as promptly
    try:
        server.run()
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        if panel is not None:
            panel.close()
        if assistant.store is not None:
            assistant.store.close()
        lock.close()
        log.info("stopped")
    return 0


PER_ADDRESS = 32  # connections one address may hold: a browser opens at most 6 to a host, a few tabs a few more


def _loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def limit_per_address(server, most: int = PER_ADDRESS, exempt: Callable[[str], bool] = _loopback) -> None:
    """One device may hold at most `most` of the server's connections. A slowloris (hundreds of requests each fed a
    header line now and then, which no idle timeout closes) from one guest's laptop would otherwise take them all
    and lock the room out; waitress has no such limit, so the factory of its connections counts them. The Pi's own
    address (a proxy in front of it, a kiosk browser on it) is not held to it."""
    make = server.channel_class
    said: dict[str, float] = {}  # when each address was last named in the log: once a minute, not per attempt

    def channel(srv, conn, addr, adj, map=None):  # noqa: A002 (waitress's own parameter name)
        host = addr[0] if isinstance(addr, tuple) else addr
        held = 0 if exempt(host) else sum(
            1 for ch in list((map or {}).values()) if isinstance(ch, make) and ch.addr[0] == host)
        if held >= most:
            if time.monotonic() - said.get(host, -60.0) >= 60:
                said[host] = time.monotonic()
                logging.getLogger("jantaku.serve").warning("refusing connections from %s past %d", host, most)
            conn.close()
            return None
        return make(srv, conn, addr, adj, map=map)

    server.channel_class = channel


class _LateApp:
    """The WSGI app, set once built: requests wait in the socket's queue until the server runs."""

    app = None

    def __call__(self, environ, start_response):
        return self.app(environ, start_response)


def lock_data_folder(folder: Path) -> IO[str]:
    """One server per data folder: a second would keep its own idea of the game and the proposal, and the two
    would overwrite each other's. The lock is the kernel's, so a crashed server leaves none behind."""
    import fcntl

    try:
        folder.mkdir(parents=True, exist_ok=True)
        handle = (folder / "serve.lock").open("a+", encoding="utf-8")
    except OSError as exc:  # not writable by this user, a read-only disk, a file of that name
        raise DataFolderError(f"cannot use {folder} as the data folder: {exc.strerror or exc}") from None
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        pid = handle.read().strip()
        handle.close()
        raise InputError(f"the data folder {folder} is in use by another jantaku serve"
                         f"{f' (process {pid})' if pid.isdigit() else ''}: stop it, or give this one --data DIR"
                         ) from None
    handle.truncate(0)
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def check_game_database(folder: Path) -> None:
    """Open the game database (made if new) and the photo folder once, before the slow start: a database that is
    damaged, another program's, of a newer jantaku or read-only is DataFolderError; one held locked by another
    program past the store's busy timeout stays InputError (exit 2: that clears)."""
    from device import game_port as gp

    if gp.unavailable() is not None:  # no game keeping in this build: the assistant says so on the page
        return
    path = folder / "games.sqlite3"
    try:
        (folder / "scans").mkdir(exist_ok=True)
        store = gp.open_store(path)
    except OSError as exc:
        raise DataFolderError(f"cannot use {folder} as the data folder: {exc.strerror or exc}") from None
    except InputError as exc:
        if " is busy" in str(exc):  # table.store's words for a lock held by another program
            raise
        raise DataFolderError(str(exc)) from None
    read_only = store.read_only
    store.close()
    if read_only:
        raise DataFolderError(f"the game database {path} is read-only for this user: the table cannot record hands")


def bench_serve(args: argparse.Namespace) -> int:
    import json

    from device.loadtest import run_load_test

    result = run_load_test(spectators=args.spectators, hands=args.hands, page_loads=args.page_loads)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        for key, value in result.items():
            print(f"{key:32s} {value}")
    return 0 if result["ok"] else 1

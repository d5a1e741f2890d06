"""The Flask app: the scoreboard (anyone), the scorekeeper pages (PIN), the JSON API, the live stream.

`create_app(config)` builds the app around one `Assistant` (the application service); the pages never
compute a score themselves, they call the assistant's actions and show its snapshots.
"""

from __future__ import annotations

import errno
import logging
import os
import secrets
from pathlib import Path
from typing import Any

from flask import Flask, jsonify, request
from flask.json.provider import DefaultJSONProvider

from device.assistant import without_paths
from device.camera import CameraError
from table.errors import Conflict, InputError, NotFound

log = logging.getLogger("jantaku.web")
SESSION_SECONDS = 12 * 3600  # a keeper's login lasts the evening
DISK_ERRORS = {errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EIO}  # the data folder unwritable
CACHEABLE = ("/static/", "/tiles/", "/photo/", "/favicon.ico")  # the same bytes for anyone: the rest is no-store


class _JSON(DefaultJSONProvider):
    """Nesting too deep for the parser (a 10 KB body of brackets) is a body that is not JSON, a 400, not a 500."""

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deeply") from None


def _secret_key(data: Path) -> str:
    """A per-device secret kept in the data folder, so keeper sessions survive a restart of the service."""
    path = data / "secret_key"
    if path.is_file():
        key = path.read_text().strip()
        if len(key) >= 32:
            return key
    key = secrets.token_hex(32)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w") as fh:
        fh.write(key)
    return key


def create_app(config: Any = None, assistant: Any = None) -> Flask:
    """The app for one table. `config` is a `device.config.Config` (or None: `JANTAKU_CONFIG` or the defaults).

    Pass a ready `assistant` to share one with the panel (what `jantaku serve` does); otherwise one is built
    with the configured camera and no panel.
    """
    from device.config import Config, load_config

    if config is None:
        config = load_config(os.environ.get("JANTAKU_CONFIG") or None)
    if not isinstance(config, Config):
        raise TypeError("create_app needs a device.config.Config")
    if assistant is None:
        from device.assistant import Assistant
        from device.camera import open_camera_or_none

        assistant = Assistant(config, camera=open_camera_or_none(config.camera))

    app = Flask(__name__)
    app.json = _JSON(app)
    data = config.data_path
    data.mkdir(parents=True, exist_ok=True)
    app.config.update(
        SECRET_KEY=_secret_key(data),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Strict",
        SESSION_COOKIE_NAME="jantaku_session",
        PERMANENT_SESSION_LIFETIME=SESSION_SECONDS,
        SESSION_REFRESH_EACH_REQUEST=False,  # 12 hours from the login, not from the latest request
        MAX_CONTENT_LENGTH=64 * 1024,
        JANTAKU=config,
    )
    app.json.sort_keys = False
    app.extensions["jantaku"] = assistant

    from web import api, auth, display, keeper, live, tiles

    app.extensions["jantaku.live"] = live.StreamHub(assistant, config.max_streams)
    app.extensions["jantaku.login"] = auth.LoginLimiter(config.login_attempts, config.login_window_seconds)
    app.extensions["jantaku.sessions"] = auth.EndedSessions(data / "ended_sessions.json", SESSION_SECONDS)
    app.before_request(auth.check_host)
    app.register_blueprint(display.bp)
    app.register_blueprint(auth.bp)
    app.register_blueprint(keeper.bp)
    app.register_blueprint(api.bp)
    app.register_blueprint(tiles.bp)
    app.extensions["jantaku.tiles"] = tiles.TileArt(config.tile_art)

    @app.errorhandler(InputError)
    def input_error(exc: InputError):
        return jsonify(error=str(exc)), 404 if isinstance(exc, NotFound) else 409 if isinstance(exc, Conflict) else 400

    try:
        from table.store import LogUnusable
    except ImportError:  # a build without game keeping: the page says so (device.game_port.unavailable)
        pass
    else:
        @app.errorhandler(LogUnusable)
        def log_unusable(exc: LogUnusable):  # its disk full or read-only, its file gone: the device's fault
            log.error("game log unusable on %s %s: %s", request.method, request.path, exc)
            return jsonify(error=f"{without_paths(str(exc))}. The score shown is the last one stored."), 503

    @app.errorhandler(CameraError)
    def camera_error(exc: CameraError):  # the device's fault, not the request's: try again or fix the camera
        return jsonify(error=str(exc)), 503

    @app.errorhandler(OSError)
    def disk_error(exc: OSError):  # a full or read-only disk under the data folder: the device's fault, say which
        if exc.errno not in DISK_ERRORS:  # any other OSError is a fault of ours, as before
            return server_error(exc)
        log.error("cannot write the data folder on %s %s: %s", request.method, request.path, exc)
        return jsonify(error=f"the device cannot write its data folder ({exc.strerror or exc}): free space on its "
                             "disk, or check the folder; nothing more was recorded"), 503

    @app.errorhandler(404)
    def not_found(exc):
        if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
            return jsonify(error=f"no such page: {request.path}"), 404
        return exc

    @app.errorhandler(405)
    def bad_method(exc):
        allowed = {"Allow": ", ".join(exc.valid_methods)} if getattr(exc, "valid_methods", None) else {}
        return jsonify(error=f"{request.method} is not allowed on {request.path}"), 405, allowed

    @app.errorhandler(500)
    def server_error(exc):
        log.error("internal error on %s %s: %s", request.method, request.path, getattr(exc, "original_exception", exc))
        return jsonify(error="internal error: the server logged it; the game log is unchanged"), 500

    @app.errorhandler(413)
    def too_large(exc):
        return jsonify(error="request body too large"), 413

    @app.after_request
    def headers(resp):
        resp.headers.setdefault("X-Content-Type-Options", "nosniff")
        resp.headers.setdefault("X-Frame-Options", "DENY")
        resp.headers.setdefault("Referrer-Policy", "no-referrer")
        resp.headers.setdefault(
            "Content-Security-Policy",
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'",
        )
        if not request.path.startswith(CACHEABLE):  # keeper pages and data hold the CSRF token and the log
            resp.headers.setdefault("Cache-Control", "no-store")
        if request.method != "GET":
            log.info("%s %s %s", request.method, request.path, resp.status_code)
        return resp

    return app

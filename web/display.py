"""The read-only pages anyone in the room may open: the scoreboard, its state, its live stream, hand photos."""

from __future__ import annotations

from flask import Blueprint, Response, current_app, jsonify, render_template, request, send_file, send_from_directory

from device.assistant import without_paths
from table.errors import InputError

bp = Blueprint("display", __name__)


def assistant():
    return current_app.extensions["jantaku"]


@bp.get("/")
def scoreboard():
    return render_template("scoreboard.html")


@bp.get("/favicon.ico")
def favicon():
    """Browsers ask for /favicon.ico whatever the pages link: answer with the same SVG tile, not a 404."""
    return send_from_directory(current_app.static_folder, "favicon.svg", mimetype="image/svg+xml", max_age=86400)


@bp.get("/api/state")
def state():
    resp = jsonify(assistant().snapshot())
    resp.headers["Cache-Control"] = "no-store"
    return resp


@bp.get("/api/stream")
def stream():
    hub = current_app.extensions["jantaku.live"]
    client = request.remote_addr or "?"
    release = hub.try_open(client)
    if release is None:
        resp = jsonify(error="too many live viewers: poll /api/state instead")
        resp.status_code = 503
        resp.headers["Retry-After"] = "5"
        return resp
    resp = Response(hub.stream(release), mimetype="text/event-stream")
    resp.call_on_close(release)  # a body never iterated (HEAD) never runs the stream's own `finally`
    resp.headers["Cache-Control"] = "no-store"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


@bp.get("/photo/<scan_id>.jpg")
def photo(scan_id: str):
    try:
        path = assistant().photo_path(scan_id)
    except InputError as exc:
        return jsonify(error=str(exc)), 404
    return send_file(path, mimetype="image/jpeg", max_age=3600)


@bp.get("/healthz")
def health():
    snap = assistant().snapshot()
    tiles = current_app.extensions["jantaku.tiles"]
    return jsonify(ok=True, version=snap["version"],
                   device={**snap["device"], "tiles": tiles.mode, "tiles_source": without_paths(tiles.source)})

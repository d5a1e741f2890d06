"""The scorekeeper's PIN: a signed session cookie, a CSRF token for every write, and rate-limited PIN attempts.

A 4-digit PIN on plain HTTP in a club room only stops casual edits, so attempts are limited per client
address (and in total) and every write needs the session's CSRF token in `X-CSRF-Token` or the form.
"""

from __future__ import annotations

import hmac
import secrets
import threading
import time
from collections import deque
from functools import wraps

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, session, url_for

bp = Blueprint("auth", __name__)


class LoginLimiter:
    """At most `attempts` failed PINs per client address per `window` seconds, and 4x that from everyone."""

    def __init__(self, attempts: int, window: float) -> None:
        self.attempts = attempts
        self.window = window
        self._fails: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()
        self._lock = threading.Lock()

    def _trim(self, q: deque[float], now: float) -> None:
        while q and q[0] <= now - self.window:
            q.popleft()

    def retry_after(self, client: str) -> int:
        """Seconds until this client may try again; 0 when it may try now."""
        now = time.monotonic()
        with self._lock:
            q = self._fails.get(client, deque())
            self._trim(q, now)
            self._trim(self._all, now)
            waits = []
            if len(q) >= self.attempts:
                waits.append(q[0] + self.window - now)
            if len(self._all) >= 4 * self.attempts:
                waits.append(self._all[0] + self.window - now)
            return int(max(waits) + 1) if waits else 0

    def failed(self, client: str) -> None:
        now = time.monotonic()
        with self._lock:
            self._fails.setdefault(client, deque()).append(now)
            self._all.append(now)

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._fails.pop(client, None)


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = session["csrf"] = secrets.token_urlsafe(24)
    return token


def _pin_tag() -> str:
    """A mark of the PIN in force, kept in the session at login: a new PIN (a leaked one changed in the config and
    the server restarted) ends every session opened with the old one, though the key that signs them stays."""
    key, pin = str(current_app.secret_key).encode(), current_app.config["JANTAKU"].pin.encode()
    return hmac.new(key, pin, "sha256").hexdigest()[:16]


def is_keeper() -> bool:
    return bool(session.get("keeper")) and hmac.compare_digest(str(session.get("pin_tag", "")), _pin_tag())


def _csrf_ok() -> bool:
    expected = session.get("csrf")
    sent = request.headers.get("X-CSRF-Token") or request.form.get("csrf_token") or ""
    return bool(expected) and hmac.compare_digest(str(expected), str(sent))


def keeper_required(view):
    """Pages: redirect to the PIN page. API: 401 without a session, 403 without the CSRF token on a write."""

    @wraps(view)
    def wrapper(*args, **kwargs):
        api = request.path.startswith("/api/")
        if not is_keeper():
            if api:
                return jsonify(error="scorekeeper PIN required: log in at /keeper/login"), 401
            return redirect(url_for("auth.login", next=request.path))
        if request.method not in ("GET", "HEAD") and not _csrf_ok():
            return jsonify(error="missing or wrong CSRF token (send X-CSRF-Token from the page's meta tag)"), 403
        return view(*args, **kwargs)

    return wrapper


def _check_pin(pin: str) -> tuple[str, int, dict[str, str]] | None:
    """None when the PIN is right (this session is now the keeper's), else (reason, status, headers)."""
    limiter = current_app.extensions["jantaku.login"]
    client = request.remote_addr or "?"
    wait = limiter.retry_after(client)
    if wait:
        return f"too many wrong PINs: try again in {wait} s", 429, {"Retry-After": str(wait)}
    expected = current_app.config["JANTAKU"].pin
    if not hmac.compare_digest(pin.encode(), expected.encode()):
        limiter.failed(client)
        current_app.logger.warning("wrong PIN from %s", client)
        return "wrong PIN", 403, {}
    limiter.succeeded(client)
    session.clear()
    session.permanent = True
    session["keeper"] = True
    session["pin_tag"] = _pin_tag()
    csrf_token()
    return None


@bp.get("/keeper/login")
def login():
    return render_template("login.html", error=None, next=_safe_next(request.args.get("next")))


@bp.post("/keeper/login")
def login_post():
    fault = _check_pin(request.form.get("pin", ""))
    if fault:
        reason, status, headers = fault
        return render_template("login.html", error=reason, next=_safe_next(request.form.get("next"))), status, headers
    return redirect(_safe_next(request.form.get("next")))


@bp.post("/api/login")
def api_login():
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("pin"), str):
        return jsonify(error='send {"pin": "1234"} as JSON'), 400
    fault = _check_pin(body["pin"])
    if fault:
        reason, status, headers = fault
        return jsonify(error=reason), status, headers
    return jsonify(ok=True, csrf_token=csrf_token())


@bp.post("/keeper/logout")
@keeper_required
def logout():
    session.clear()
    return redirect(url_for("display.scoreboard"))


def _safe_next(target: str | None) -> str:
    """Only same-site paths: a crafted `next` must not send the keeper elsewhere."""
    if target and target.startswith("/") and not target.startswith("//") and "\\" not in target:
        return target
    return "/keeper"

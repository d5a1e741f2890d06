"""The scorekeeper's PIN: a signed session cookie, a CSRF token for every write, and rate-limited PIN attempts.

A 4-digit PIN on plain HTTP in a club room only stops casual edits, so attempts are limited per client
address and for the whole room, and every write needs the session's CSRF token in `X-CSRF-Token` or the form.
Requests name the device by a name the room uses (`check_host`), so that a page of another site cannot reach it
through DNS rebinding.
"""

from __future__ import annotations

import hmac
import ipaddress
import json
import logging
import re
import secrets
import threading
import time
from collections import deque
from collections.abc import Callable
from functools import wraps
from pathlib import Path

from flask import Blueprint, current_app, jsonify, redirect, render_template, request, session, url_for

bp = Blueprint("auth", __name__)
log = logging.getLogger("jantaku.web")

LOCAL_SUFFIXES = (".local", ".lan", ".home", ".home.arpa", ".internal", ".localdomain", ".localhost")
"""Names a club's own network gives (mDNS's .local, which deploy/jantaku.avahi.service advertises, and the names
home routers hand out): no one outside can make them point at the device, as they can any public name."""


def host_allowed(host: str, allowed: tuple[str, ...] = ()) -> bool:
    """Whether a Host header names this device as the room does: an IP address (with or without a port),
    localhost, a one-word name (the Pi's hostname), a name under LOCAL_SUFFIXES, or one of `allowed` (the config's
    `allowed_hosts`: a name, `.example.org` for it and every name under it, or `*`). A DNS-rebinding page comes
    with its own public name (evil.example, 192-168-1-20.nip.io), which none of these is."""
    host = host.strip().lower()
    if host.startswith("["):  # [::1]:8080
        name = host[1:host.find("]")]
    else:  # 192.168.1.20:8080, jantaku.local:8080, or an IPv6 address sent without brackets
        name = host.rsplit(":", 1)[0] if host.count(":") == 1 else host
    name = name.rstrip(".")
    if "*" in allowed:
        return True
    try:
        ipaddress.ip_address(name)
        return True
    except ValueError:
        pass
    if name == "localhost" or name.endswith(LOCAL_SUFFIXES) or name and "." not in name:
        return True
    return any(name == entry.lower().strip(".") or entry.startswith(".") and name.endswith(entry.lower().rstrip("."))
               for entry in allowed)


def check_host():
    """Before every request: one naming the device by a name the room does not use is refused (421), with the
    setting that lets a club's own name in. A request with no Host header (HTTP/1.0, a script) is no browser's."""
    host = request.headers.get("Host")
    if host is None or host_allowed(host, current_app.config["JANTAKU"].allowed_hosts):
        return None
    name = host.strip()[:80]
    said = current_app.extensions.setdefault("jantaku.hosts_refused", set())
    if name not in said and len(said) < 64:  # once per name: a page retrying in a loop is not a log storm
        said.add(name)
        log.warning("refused requests for the host name %r: not a local name nor in allowed_hosts", name)
    reason = (f"this table device does not answer to the name {name!r}: a page of another site may be trying to "
              "reach it (DNS rebinding). If it is the name your club uses for the device, add it to allowed_hosts "
              "in the config file (or start jantaku serve with --allow-host NAME).")
    if request.path.startswith("/api/") or request.accept_mimetypes.best == "application/json":
        return jsonify(error=reason), 421
    return reason, 421, {"Content-Type": "text/plain; charset=utf-8"}


class LoginLimiter:
    """At most `attempts` failed PINs per client address per `window` seconds, and 4x that from the whole room. The
    room's cap holds new addresses too (else each address a stranger takes on brings fresh tries: 2,500 addresses
    found a 4-digit PIN in a second) and holds for at most `window`: it ends when its oldest failure is that old. An
    address the right PIN came from in this run (the keeper's phone) is held only by its own limit, so a stranger
    guessing from other addresses does not lock the keeper out of logging in again."""

    TRUSTED = 64  # addresses remembered for a successful login, the oldest dropped first

    def __init__(self, attempts: int, window: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.attempts = attempts
        self.window = window
        self.clock = clock  # the tests' clock, so a window passes without waiting for it
        self._fails: dict[str, deque[float]] = {}
        self._all: deque[float] = deque()
        self._trusted: dict[str, None] = {}  # ordered: the oldest first
        self._lock = threading.Lock()

    def _trim(self, q: deque[float], now: float) -> None:
        while q and q[0] <= now - self.window:
            q.popleft()

    def _prune(self, now: float) -> None:
        """Forget addresses whose failures are all older than the window: the map would grow with each one."""
        self._trim(self._all, now)
        for client in [c for c, q in self._fails.items() if not q or q[-1] <= now - self.window]:
            del self._fails[client]

    def retry_after(self, client: str) -> int:
        """Seconds until this client may try again; 0 when it may try now."""
        now = self.clock()
        with self._lock:
            self._prune(now)
            q = self._fails.get(client, deque())
            self._trim(q, now)
            waits = []
            if len(q) >= self.attempts:
                waits.append(q[0] + self.window - now)
            if client not in self._trusted and len(self._all) >= 4 * self.attempts:
                waits.append(self._all[0] + self.window - now)
            return int(max(waits) + 1) if waits else 0

    def failed(self, client: str) -> None:
        now = self.clock()
        with self._lock:
            self._prune(now)
            self._fails.setdefault(client, deque()).append(now)
            self._all.append(now)

    def succeeded(self, client: str) -> None:
        with self._lock:
            self._fails.pop(client, None)
            self._trusted.pop(client, None)
            self._trusted[client] = None
            while len(self._trusted) > self.TRUSTED:
                del self._trusted[next(iter(self._trusted))]


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


class EndedSessions:
    """Sessions ended by logging out: the cookie is signed, not stored, so a copy taken before the logout (plain HTTP
    on a club's Wi-Fi) would go on working until it expires. Kept in the data folder, a restart does not revive
    them; those older than a session's lifetime are dropped."""

    def __init__(self, path: Path, lifetime: float) -> None:
        self.path = path
        self.lifetime = lifetime
        self._lock = threading.Lock()
        try:
            self._ended: dict[str, float] = {str(k): float(v) for k, v in json.loads(path.read_text()).items()}
        except (OSError, ValueError, AttributeError):
            self._ended = {}

    def __contains__(self, sid: str) -> bool:
        return sid in self._ended

    def end(self, sid: str) -> None:
        now = time.time()
        with self._lock:
            self._ended = {s: t for s, t in self._ended.items() if t > now - self.lifetime}
            self._ended[sid] = now
            tmp = self.path.with_suffix(".tmp")
            try:
                tmp.write_text(json.dumps(self._ended))
                tmp.replace(self.path)
            except OSError:  # a full disk: the session ends now, but would come back at a restart; say so (503)
                tmp.unlink(missing_ok=True)
                raise


def is_keeper() -> bool:
    sid = str(session.get("sid", ""))
    return bool(session.get("keeper")) and hmac.compare_digest(str(session.get("pin_tag", "")), _pin_tag()) \
        and bool(sid) and sid not in current_app.extensions["jantaku.sessions"]


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


def _from_elsewhere() -> bool:
    """A login posted by another site's page (a form or a fetch in a guest's browser): it would spend the room's
    wrong-PIN allowance and lock the keeper out. Browsers say where a request comes from (Sec-Fetch-Site, Origin);
    a script or curl that says nothing is let through, to the same limits."""
    site = request.headers.get("Sec-Fetch-Site")
    if site is not None:
        return site not in ("same-origin", "none")
    origin = request.headers.get("Origin")
    return origin is not None and origin != request.host_url.rstrip("/")


def _check_pin(pin: str) -> tuple[str, int, dict[str, str]] | None:
    """None when the PIN is right (this session is now the keeper's), else (reason, status, headers)."""
    if _from_elsewhere():
        return "a login must come from this device's own page", 403, {}
    limiter = current_app.extensions["jantaku.login"]
    client = request.remote_addr or "?"
    wait = limiter.retry_after(client)
    if wait:
        return f"too many wrong PINs: try again in {wait} s", 429, {"Retry-After": str(wait)}
    expected = current_app.config["JANTAKU"].pin
    sent = pin.encode("utf-8", "surrogatepass")  # a lone surrogate from JSON is a wrong PIN, not a 500
    if not hmac.compare_digest(sent, expected.encode()):
        limiter.failed(client)
        log.warning("wrong PIN from %s", client)
        return "wrong PIN", 403, {}
    limiter.succeeded(client)
    session.clear()
    session.permanent = True
    session["keeper"] = True
    session["pin_tag"] = _pin_tag()
    session["sid"] = secrets.token_urlsafe(16)
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
    current_app.extensions["jantaku.sessions"].end(str(session.get("sid", "")))
    session.clear()
    return redirect(url_for("display.scoreboard"))


def _safe_next(target: str | None) -> str:
    """Only same-site paths of printable characters: a crafted `next` must not send the keeper elsewhere (a browser
    drops a tab or a newline, so "/<tab>/evil.example" is "//evil.example"), nor break the redirect's header."""
    if target and re.fullmatch(r"/[!-~]*", target) and not target.startswith("//") and "\\" not in target:
        return target
    return "/keeper"

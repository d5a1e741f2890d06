"""Settings of one table device, read from a TOML file where every key has a default.

A club sets the PIN, the GPIO pins of its panel, the camera and the preset once in a file
(see `deploy/jantaku.example.toml`); a fresh clone runs with no file at all.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from table.errors import InputError
from table.names import check_new_names

SAMPLE_PHOTOS = Path(__file__).with_name("sample_photos")
DEFAULT_PIN = "2468"
CAMERA_SOURCES = ("auto", "picamera2", "opencv", "replay")
PIN_FACTORIES = ("auto", "mock", "lgpio", "rpigpio", "pigpio", "native")
UNDO_BUTTONS = ("scan", "tsumo", "ron", "draw")


def on_raspberry_pi() -> bool:
    """The board's model says Raspberry Pi (what `auto` pins and camera go by)."""
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="ignore").lower()
    except OSError:
        return False


@dataclass(frozen=True, slots=True)
class PanelConfig:
    """BCM pin numbers of the button-and-LED panel. Seat tuples run East, South, West, North of the first deal."""

    enabled: bool = True
    pin_factory: str = "auto"
    riichi_buttons: tuple[int, ...] = (5, 6, 13, 19)
    riichi_leds: tuple[int, ...] = (12, 16, 20, 21)
    dealer_leds: tuple[int, ...] = (14, 15, 18, 23)
    scan_button: int = 17
    tsumo_button: int = 27
    ron_button: int = 22
    draw_button: int = 10
    status_led: int = 24
    furiten_led: int = 25
    undo_button: str = "scan"
    hold_seconds: float = 1.5
    select_timeout: float = 10.0
    bounce_seconds: float = 0.05

    def all_pins(self) -> list[int]:
        return [
            *self.riichi_buttons, *self.riichi_leds, *self.dealer_leds, self.scan_button, self.tsumo_button,
            self.ron_button, self.draw_button, self.status_led, self.furiten_led,
        ]


@dataclass(frozen=True, slots=True)
class CameraConfig:
    source: str = "auto"
    device: int = 0
    width: int = 4056
    height: int = 3040
    replay_folder: str = str(SAMPLE_PHOTOS)
    near_seat: int = 0
    """The seat (0-3, 0 the first East) whose side of the table is at the bottom of the camera's photos."""


@dataclass(frozen=True, slots=True)
class Config:
    host: str = "0.0.0.0"
    port: int = 8080
    threads: int = 48
    max_streams: int = 40
    data_dir: str = "data"
    preset: str = "tenhou"
    pin: str = DEFAULT_PIN
    players: tuple[str, ...] = ("Player 1", "Player 2", "Player 3", "Player 4")
    login_attempts: int = 5
    login_window_seconds: int = 300
    log_level: str = "INFO"
    recognizer: bool = True
    auto_start: bool = True
    tile_art: str = ""
    """Folder of FluffyStuff tile PNGs; empty: `shared/tiles/fluffystuff` beside the clone, /usr/share/jantaku/tiles."""
    allowed_hosts: tuple[str, ...] = ()
    """Host names the pages answer to besides IP addresses and the local network's names (`web.auth.host_allowed`): a
    name, `.example.org` for it and every name under it, or `*` for any (no guard against DNS rebinding)."""
    camera: CameraConfig = field(default_factory=CameraConfig)
    panel: PanelConfig = field(default_factory=PanelConfig)

    @property
    def data_path(self) -> Path:
        return Path(self.data_dir).expanduser().absolute()  # send_file reads a relative path from the app folder


def _coerce(cls: type, table: dict[str, Any], where: str) -> Any:
    """Build dataclass `cls` from a TOML table, rejecting unknown keys and wrong types with the key's name."""
    known = {f.name: f for f in fields(cls)}
    values: dict[str, Any] = {}
    default = cls()
    for key, value in table.items():
        name = key.replace("-", "_")
        if name not in known:
            raise InputError(f"config: unknown setting '{where}{key}' (known: {', '.join(sorted(known))})")
        current = getattr(default, name)
        if isinstance(current, CameraConfig | PanelConfig):
            if not isinstance(value, dict):
                raise InputError(f"config: [{where}{key}] must be a table")
            values[name] = _coerce(type(current), value, f"{where}{key}.")
            continue
        values[name] = _check_type(current, value, f"{where}{key}")
    return replace(default, **values)


def _check_type(current: Any, value: Any, key: str) -> Any:
    if isinstance(current, bool):
        if not isinstance(value, bool):
            raise InputError(f"config: {key} must be true or false, not {value!r}")
        return value
    if isinstance(current, int):
        if isinstance(value, bool) or not isinstance(value, int):
            raise InputError(f"config: {key} must be a whole number, not {value!r}")
        return value
    if isinstance(current, float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise InputError(f"config: {key} must be a number, not {value!r}")
        return float(value)
    if isinstance(current, tuple) and not current:  # a list of any length: allowed_hosts
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            raise InputError(f"config: {key} must be a list of names, not {value!r}")
        return tuple(value)
    if isinstance(current, tuple):
        if not isinstance(value, list) or len(value) != len(current):
            raise InputError(f"config: {key} must be a list of {len(current)} values, not {value!r}")
        kind = type(current[0])
        if not all(isinstance(v, kind) and not isinstance(v, bool) for v in value):
            raise InputError(f"config: every entry of {key} must be a {kind.__name__}, not {value!r}")
        return tuple(value)
    if not isinstance(value, str):
        raise InputError(f"config: {key} must be text, not {value!r}")
    return value


LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR")
HOST_NAME = re.compile(r"\.?[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?(\.[a-z0-9_]([a-z0-9_-]*[a-z0-9_])?)*\.?")


def validate(config: Config) -> Config:
    """Reject settings that would only fail later (a pin used twice, a PIN that is not 4-8 digits)."""
    if not (config.pin.isascii() and config.pin.isdigit() and 4 <= len(config.pin) <= 8):
        # ASCII only: str.isdigit() also takes full-width "１２３４" or "²³⁴⁵", which the login page never sends
        raise InputError("config: pin must be 4 to 8 digits, each 0-9 (not full-width or other digits)")
    if not 0 <= config.port <= 65535:
        raise InputError(f"config: port {config.port} is not between 0 and 65535")
    if config.threads < 4:
        raise InputError("config: threads must be at least 4")
    if not 0 < config.max_streams < config.threads:
        raise InputError(f"config: max_streams ({config.max_streams}) must be above 0 and below threads "
                         f"({config.threads}): leave threads for page loads (set both in the config file)")
    if config.camera.source not in CAMERA_SOURCES:
        raise InputError(f"config: camera.source must be one of {', '.join(CAMERA_SOURCES)}")
    if not 0 <= config.camera.near_seat <= 3:
        raise InputError("config: camera.near_seat must be 0-3 (0 is the first East)")
    panel = config.panel
    if panel.pin_factory not in PIN_FACTORIES:
        raise InputError(f"config: panel.pin_factory must be one of {', '.join(PIN_FACTORIES)}")
    if panel.undo_button not in UNDO_BUTTONS:
        raise InputError(f"config: panel.undo_button must be one of {', '.join(UNDO_BUTTONS)}")
    pins = panel.all_pins()
    twice = sorted({p for p in pins if pins.count(p) > 1})
    if twice:
        raise InputError(f"config: GPIO pin(s) {', '.join(map(str, twice))} used more than once in [panel]")
    if any(not 0 <= p <= 27 for p in pins):
        raise InputError("config: panel pins must be BCM numbers 0-27")
    if len(config.players) != 4 or any(not p.strip() for p in config.players):
        raise InputError("config: players must be four non-empty names")
    try:
        check_new_names(config.players)  # the first game starts with them: refused now, not at the first start
    except InputError as exc:
        raise InputError(f"config: players: {exc}") from None
    if not 0.1 <= panel.hold_seconds <= 10:
        raise InputError("config: panel.hold_seconds must be between 0.1 and 10")
    if not 1 <= panel.select_timeout <= 600:
        raise InputError("config: panel.select_timeout must be between 1 and 600 seconds")
    if not 0 <= panel.bounce_seconds <= 1:
        raise InputError("config: panel.bounce_seconds must be between 0 and 1")
    if config.login_attempts < 1 or config.login_window_seconds < 1:
        raise InputError("config: login_attempts and login_window_seconds must be 1 or more")
    if not config.data_dir.strip():
        raise InputError("config: data_dir must name a folder (\".\" for the current one)")
    if config.camera.width < 64 or config.camera.height < 64 or config.camera.device < 0:
        raise InputError("config: camera.width and camera.height must be at least 64, camera.device 0 or more")
    if config.log_level.upper() not in LOG_LEVELS:
        raise InputError(f"config: log_level must be one of {', '.join(LOG_LEVELS)}")
    for name in config.allowed_hosts:
        if name != "*" and not HOST_NAME.fullmatch(name.lower()):
            raise InputError(f"config: allowed_hosts: {name[:80]!r} is not a host name: give names such as "
                             "scores.myclub.org (.myclub.org: every name under it), without http:// or a port")
    _check_preset(config.preset)
    return config


def _check_preset(name: str) -> None:
    """A preset the table device keeps (riichi): refused now, not when the first game starts, which a service
    would do again at every restart."""
    from device.game_port import preset_names
    from table.presets import get_preset

    riichi = preset_names()
    try:
        chosen = get_preset(name)
    except InputError:
        raise InputError(f"config: preset {name!r} is not a rule preset: choose one of {', '.join(riichi)}") from None
    if chosen.name not in riichi:
        raise InputError(f"config: preset {name!r} is {chosen.title}: the table device keeps riichi games only (keep "
                         f"that one with `jantaku game`); choose one of {', '.join(riichi)}")


def load_config(path: str | Path | None = None, **overrides: Any) -> Config:
    """The defaults, updated from the TOML file at `path` (when given), then from `overrides` (command line)."""
    config = Config()
    if path is not None:
        p = Path(path)
        try:
            data = tomllib.loads(p.read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise InputError(f"config file {p} does not exist") from None
        except IsADirectoryError:
            raise InputError(f"config file {p} is a folder, not a TOML file") from None
        except UnicodeDecodeError as exc:
            raise InputError(f"config file {p} is not UTF-8 text (byte {exc.start}): TOML files are UTF-8") from None
        except OSError as exc:
            raise InputError(f"config file {p} cannot be read: {exc.strerror or exc}") from None
        except tomllib.TOMLDecodeError as exc:
            raise InputError(f"config file {p} is not valid TOML: {exc}") from None
        config = _coerce(Config, data, "")
    clean = {k: v for k, v in overrides.items() if v is not None}
    camera = {k.removeprefix("camera_"): clean.pop(k) for k in list(clean) if k.startswith("camera_")}
    panel = {k.removeprefix("panel_"): clean.pop(k) for k in list(clean) if k.startswith("panel_")}
    if camera:
        config = replace(config, camera=replace(config.camera, **camera))
    if panel:
        config = replace(config, panel=replace(config.panel, **panel))
    return validate(replace(config, **clean))

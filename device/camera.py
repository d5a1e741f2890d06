"""Where the table photo comes from: Picamera2 on a Pi, an OpenCV device (USB webcam), or a folder replayed in order.

All three give the same `Capture` (JPEG bytes plus the decoded frame), so the assistant and the tests never
care which one is plugged in. On the libcamera stack `cv2.VideoCapture` opens a CSI camera but returns no
frames, hence Picamera2 first.
"""

from __future__ import annotations

import io
import json
import logging
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from device.config import CameraConfig, on_raspberry_pi
from table.errors import InputError

log = logging.getLogger("jantaku.camera")
KEPT_AS_JPEG = (".heic", ".heif", ".avif")  # a phone's formats that a browser may not show or OpenCV not decode
KEPT_AS_PNG = (".gif", ".tif", ".tiff")  # formats a browser may not show (TIFF) or OpenCV not decode (GIF, some TIFF)
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", *KEPT_AS_JPEG, *KEPT_AS_PNG)
NOTES_KEY = "jantaku-notes"  # names the file's notes written into a replayed photo (`_with_notes`, `file_notes`)


class CameraError(InputError):
    """The camera cannot give a photo (unplugged, busy, a replay photo gone): the page answers 503 with this."""


@dataclass(frozen=True, slots=True)
class Capture:
    """One photo of the table. `jpeg` is what we store and show (a JPEG, or a PNG the replay camera made of a lossless
    file), with what its file says written into it (`file_notes`); `name` says where it came from."""

    jpeg: bytes
    name: str


class Camera(Protocol):
    description: str

    def capture(self) -> Capture: ...

    def close(self) -> None: ...


def _encode_jpeg(frame_bgr) -> bytes:
    import cv2

    ok, buf = cv2.imencode(".jpg", frame_bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
    if not ok:
        raise CameraError("camera: could not encode the frame as JPEG")
    return buf.tobytes()


def _with_notes(image_bgr, notes: tuple[str, ...], lossless: bool) -> bytes:
    """The picture encoded, the file's notes written into it (a PNG's text chunk, a JPEG's comment), so the scan
    keeps what `jantaku read` says of the file (an animation read from its first frame, a file cut short) and the
    reader finds it there (`file_notes`). Lossless when the file was (a GIF's palette is a note of its own)."""
    from PIL import Image, PngImagePlugin

    picture = Image.fromarray(image_bgr[..., ::-1])
    out = io.BytesIO()
    text = json.dumps(list(notes), ensure_ascii=False)
    if lossless:
        info = PngImagePlugin.PngInfo()
        if notes:
            info.add_itxt(NOTES_KEY, text)
        picture.save(out, "PNG", pnginfo=info, compress_level=1)  # the least squeezing: a replay scan is kept a while
    else:
        picture.save(out, "JPEG", quality=90, **({"comment": f"{NOTES_KEY}\n{text}".encode()} if notes else {}))
    return out.getvalue()


def file_notes(photo: bytes) -> tuple[str, ...]:
    """The notes `_with_notes` wrote into a photo; none in any other (a camera's frame, a phone's JPEG replayed as
    it is), nor in one that is no image: the reader says that itself."""
    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(io.BytesIO(photo)) as im:
            if im.format == "JPEG":
                head, _, text = bytes(im.info.get("comment", b"")).decode("utf-8", "replace").partition("\n")
                text = text if head == NOTES_KEY else ""
            else:
                text = str(im.info.get(NOTES_KEY, ""))
        notes = json.loads(text) if text else []
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):  # json's errors are ValueErrors
        return ()
    return tuple(str(n) for n in notes) if isinstance(notes, list) else ()


def _is_photo(path: Path) -> bool:
    """A file that starts as a JPEG, PNG, WebP, BMP, GIF, TIFF or ISO media (HEIC, AVIF) file does: a camera
    replaying a renamed text file would fail at every scan instead of once, at start."""
    try:
        with path.open("rb") as f:
            head = f.read(12)
    except OSError:  # a folder named x.jpg, no permission
        return False
    return (head.startswith((b"\xff\xd8", b"\x89PNG\r\n\x1a\n", b"BM", b"GIF87a", b"GIF89a", b"II*\0", b"MM\0*"))
            or (head[:4] == b"RIFF" and head[8:12] == b"WEBP") or head[4:8] == b"ftyp")


def _replayed(path: Path) -> Capture:
    """A replay photo as `jantaku read` sees the file: a JPEG as it is (it has no notes of its file: a cut one decodes
    to flat grey, which the reader's own notes say); a PNG, WebP or BMP as it is when whole and still; any other
    decoded (`vision.photo.open_photo`: a HEIC upright, an animation's first frame, a file cut short as far as it
    goes) and kept with its notes, as a JPEG when the file was lossy (HEIC, AVIF), else as a PNG (same pixels)."""
    from vision.photo import open_photo

    data = path.read_bytes()
    if data[:2] == b"\xff\xd8" and path.suffix.lower() not in KEPT_AS_JPEG:
        return Capture(jpeg=data, name=path.name)
    photo = open_photo(path)
    if not photo.notes and path.suffix.lower() not in (*KEPT_AS_JPEG, *KEPT_AS_PNG):
        return Capture(jpeg=data, name=path.name)
    lossless = path.suffix.lower() not in KEPT_AS_JPEG
    return Capture(jpeg=_with_notes(photo.image, photo.notes, lossless), name=path.name)


class ReplayCamera:
    """Photos from a folder, one per capture, in name order, starting again after the last."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder).expanduser()
        if not self.folder.is_dir():
            raise InputError(f"camera: replay folder {self.folder} does not exist")
        named = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        self.photos = [p for p in named if _is_photo(p)]
        if skipped := [p.name for p in named if p not in self.photos]:
            log.warning("replay folder %s: skipping %s (not a photo inside, whatever the name says)", self.folder,
                        ", ".join(skipped[:5]) + (f" and {len(skipped) - 5} more" if len(skipped) > 5 else ""))
        if not self.photos:
            raise InputError(f"camera: replay folder {self.folder} holds no photos ({', '.join(PHOTO_SUFFIXES)})"
                             + (f"; {len(skipped)} named so are not photos inside" if skipped else ""))
        self._next = 0
        self._lock = threading.Lock()
        self.description = f"replay of {len(self.photos)} photo(s) from {self.folder}"

    def capture(self) -> Capture:
        with self._lock:
            path = self.photos[self._next % len(self.photos)]
            self._next += 1
        try:
            return _replayed(path)
        except InputError as exc:
            raise CameraError(f"camera: replay photo {path.name} cannot be read ({exc})") from None
        except OSError as exc:
            raise CameraError(f"camera: replay photo {path.name} cannot be read ({exc.strerror or exc})") from None

    def peek(self) -> str:
        """Name of the photo the next capture returns (the keeper page shows it)."""
        with self._lock:
            return self.photos[self._next % len(self.photos)].name

    def select(self, name: str) -> None:
        """Make the next capture return the photo called `name`."""
        with self._lock:
            for i, p in enumerate(self.photos):
                if p.name == name:
                    self._next = i
                    return
        raise InputError(f"camera: no photo called {name!r} in the replay folder {self.folder.name}")

    def close(self) -> None:
        pass


class NoCamera:
    """No camera could be opened: the table still keeps the score, and every scan says why there is no photo."""

    def __init__(self, why: str) -> None:
        self.why = why
        self.description = f"none ({why})"

    def capture(self) -> Capture:
        raise CameraError(f"no camera: {self.why}")

    def close(self) -> None:
        pass


class OpenCVCamera:
    """A V4L2 device through OpenCV: right for USB webcams, not for CSI modules on libcamera."""

    def __init__(self, index: int, width: int, height: int) -> None:
        import cv2

        self._cap = cv2.VideoCapture(index)
        if not self._cap.isOpened():
            self._cap.release()
            raise InputError(f"camera: no OpenCV device {index}")
        self._cap.set(cv2.CAP_PROP_FRAME_WIDTH, width)
        self._cap.set(cv2.CAP_PROP_FRAME_HEIGHT, height)
        ok, _ = self._cap.read()
        if not ok:
            self._cap.release()
            raise InputError(f"camera: OpenCV device {index} opened but gives no frames (a CSI camera needs Picamera2)")
        self._lock = threading.Lock()
        self.index = index
        self.description = f"OpenCV device {index}"

    def capture(self) -> Capture:
        with self._lock:
            for _ in range(2):  # the first read after idle is often a stale buffered frame
                ok, frame = self._cap.read()
        if not ok or frame is None:
            raise CameraError(f"camera: OpenCV device {self.index} gave no frame")
        return Capture(jpeg=_encode_jpeg(frame), name=f"video{self.index}")

    def close(self) -> None:
        self._cap.release()


class Picamera2Camera:
    """The Raspberry Pi camera module through libcamera, full-resolution stills."""

    def __init__(self, width: int, height: int) -> None:
        from picamera2 import Picamera2  # apt: python3-picamera2, venv with --system-site-packages

        self._cam = Picamera2()
        config = self._cam.create_still_configuration(main={"size": (width, height), "format": "RGB888"})
        self._cam.configure(config)
        self._cam.start()
        self._lock = threading.Lock()
        self.description = f"Picamera2 {width}x{height}"

    def capture(self) -> Capture:
        with self._lock:
            frame = self._cam.capture_array()  # RGB888 in libcamera terms is BGR byte order, what OpenCV wants
        return Capture(jpeg=_encode_jpeg(frame), name="picamera2")

    def close(self) -> None:
        self._cam.close()


def open_camera(config: CameraConfig) -> Camera:
    """The configured source; `auto` tries Picamera2, then OpenCV, then the replay folder, logging why each failed.

    A source that cannot be opened raises CameraError with the reason (`jantaku serve` then runs without one).
    """
    makers = {
        "picamera2": lambda: Picamera2Camera(config.width, config.height),
        "opencv": lambda: OpenCVCamera(config.device, config.width, config.height),
        "replay": lambda: ReplayCamera(config.replay_folder),
    }
    if config.source != "auto":
        return _open(config.source, makers[config.source])
    tried = []
    try:
        return makers["picamera2"]()
    except Exception as exc:  # ImportError off the Pi; RuntimeError with no module attached
        tried.append(f"Picamera2: {exc}")
    if Path(f"/dev/video{config.device}").exists():
        try:
            return makers["opencv"]()
        except Exception as exc:
            tried.append(f"OpenCV: {exc}")
    else:
        tried.append(f"OpenCV: /dev/video{config.device} missing")
    if on_raspberry_pi():  # the table's own camera failed: scoring the bundled sample photos instead would be wrong
        raise CameraError(f"camera: no camera could be opened on this Raspberry Pi ({'; '.join(tried)}); check "
                          "the cable and picamera2, or set camera.source = \"replay\" to read photos from a folder")
    log.info("no camera (%s): replaying photos", "; ".join(tried))
    return _open("replay", makers["replay"])


def open_camera_or_none(config: CameraConfig) -> Camera:
    """The configured camera, or a NoCamera saying why not: a loose camera cable must not take the scoreboard down."""
    try:
        return open_camera(config)
    except CameraError as exc:
        log.error("%s: running without a camera", exc)
        return NoCamera(str(exc).removeprefix("camera: "))


def _open(source: str, make) -> Camera:
    try:
        return make()
    except InputError as exc:
        raise CameraError(str(exc)) from None
    except Exception as exc:  # picamera2 not installed, libcamera busy, a driver error
        raise CameraError(f"camera: {source} cannot be opened ({type(exc).__name__}: {exc})") from None

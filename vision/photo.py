"""Loading photos (EXIF rotation applied, as a phone shows them) and drawing what was read over them."""

from __future__ import annotations

import io
import struct
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from table.errors import InputError
from vision.view import TableView

MAX_PIXELS = 80_000_000
MAX_BYTES = 500_000_000  # more than any photo of MAX_PIXELS holds, even 16-bit uncompressed (480 MB)
GREY = (120, 136)  # what a JPEG decoder fills the rows missing from a cut file with
BURNT = 250  # a pixel whose every channel is this light or more is clipped white
OVER_EXPOSED = 1 / 3  # share of face-up tiles whose middle is mostly clipped that makes a photo over-exposed
OVER_EXPOSED_NOTE = "the photo is over-exposed"
DARK = 72  # grey level: a photo whose lightest parts (tile faces) are darker is too dark for colour to show
PALETTE = 256  # colours: a photo with no more was saved with a palette (GIF), which shifts the red pips' colour
GLARE = 0.01  # share of the photo a patch of clipped white must cover to be a glare spot (`_glare_note`)
GLARE_NEAR = 4  # tile sizes (short side of a face read) from the nearest face a glare spot may lie
GLARE_NO_TILES = 0.06  # with no face read, a tile's size taken as this share of the photo's short side
GLARE_SIDE = 512  # pixels: the long side the photo is shrunk to for finding the spot
ANIMATION_NOTE = "the photo is an animation"
ANIMATED = {"GIF": "a GIF", "PNG": "an animated PNG", "WEBP": "an animated WebP", "AVIF": "an animated AVIF",
            "TIFF": "pages"}  # formats whose further frames are a player's pictures (a JPEG's are not: `_frames_note`)
TINT_SPREAD = 24  # chroma units (0-255) a colour stands from the mean of its brightness for a photo to have colour


@dataclass(frozen=True)
class Photo:
    """A photo decoded, with what its file says beside the picture: an animation read from its first frame, a file
    cut short read as far as it goes. The picture's own faults (colour, light) are `picture_notes`."""

    image: np.ndarray
    notes: tuple[str, ...] = ()


def load_photo(path: str | Path) -> np.ndarray:
    """BGR image turned upright by its EXIF orientation tag; InputError when it is not a readable image."""
    return open_photo(path).image


def open_photo(path: str | Path) -> Photo:
    """`load_photo` with the file's notes (`Photo`), for the reader to say beside what it read."""
    if not str(path):  # Path("") is the working folder
        raise InputError("no photo given: the path is empty")
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file")
    if p.is_dir():
        raise InputError(f"{p} is a folder, not a photo")
    if not p.is_file():  # a device or a pipe may never end (/dev/zero): read whole, it would fill the memory
        raise InputError(f"{p} is not a regular file (a device or a pipe?), not a photo")
    if (size := p.stat().st_size) > MAX_BYTES:
        raise InputError(f"{p} is {size // 1_000_000} MB; photos over {MAX_BYTES // 1_000_000} MB are refused")
    data = p.read_bytes()
    if not data:
        raise InputError(f"{p} is empty, not a photo")
    w, h, frames = _header(p)
    _too_large(p, w, h)
    cut = _cut_short(data)
    notes: list[str] = []
    if cut:
        img = _cut_photo(p, data, cut, notes)
    else:  # IMREAD_COLOR applies the EXIF orientation (OpenCV >= 3.1), but not the transform boxes that turn a HEIF
        # file (HEIC, AVIF: an ISO media file, "ftyp" at byte 4) upright
        img = None if data[4:8] == b"ftyp" else _opencv_photo(p)
        img = _pillow_photo(p) if img is None else img
    if img is None:
        raise InputError(f"{p} is not an image that can be read (JPEG, HEIC, PNG, WebP, AVIF, TIFF, BMP)")
    h, w = img.shape[:2]
    _too_large(p, w, h)
    if min(h, w) < 32:
        raise InputError(f"{p} is only {w}x{h} pixels: too small to show tiles")
    if frames:
        notes.insert(0, frames)
    return Photo(img, tuple(notes))


def _too_large(p: Path, w: int, h: int) -> None:
    if h * w > MAX_PIXELS:
        raise InputError(f"{p} is {w}x{h} pixels; photos over {MAX_PIXELS // 1_000_000} megapixels are refused")


def _opencv_photo(p: Path) -> np.ndarray | None:
    """`cv2.imread`, silent: what it cannot read (a TIFF with an orientation tag) goes to Pillow, so OpenCV's error
    lines would only alarm the player."""
    logging = cv2.utils.logging
    level = logging.getLogLevel()
    logging.setLogLevel(logging.LOG_LEVEL_SILENT)
    try:
        return cv2.imread(str(p), cv2.IMREAD_COLOR)
    finally:
        logging.setLogLevel(level)


def _cut_short(data: bytes) -> str | None:
    """The format's name when the file ends before its picture does (cut short in copying, or still downloading),
    by the end mark or the lengths its format writes; None when it is whole, or of a format not known here."""
    if data[:2] == b"\xff\xd8":
        cut, name = b"\xff\xd9" not in data[-64:], "JPEG"
    elif data[:8] == b"\x89PNG\r\n\x1a\n":
        cut, name = b"IEND" not in data[-16:], "PNG"
    elif data[:6] in (b"GIF87a", b"GIF89a"):
        cut, name = not data.rstrip(b"\0").endswith(b";"), "GIF"
    elif data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        cut, name = int.from_bytes(data[4:8], "little") + 8 > len(data), "WebP"
    elif data[:2] == b"BM":
        cut, name = int.from_bytes(data[2:6], "little") > len(data), "BMP"
    elif data[4:8] == b"ftyp":
        cut, name = _boxes_cut(data), "AVIF" if data[8:11] == b"avi" else "HEIC"
    elif data[:4] in (b"II*\0", b"MM\0*"):
        cut, name = _tiff_cut(data), "TIFF"
    else:
        return None
    return name if cut else None


def _boxes_cut(data: bytes) -> bool:
    """An ISO media file (HEIC, AVIF) is a chain of boxes, each led by its length: cut short, the last one runs past
    the end of the file."""
    at = 0
    while at + 8 <= len(data):
        size = int.from_bytes(data[at:at + 4], "big")
        if size == 1 and at + 16 <= len(data):
            size = int.from_bytes(data[at + 8:at + 16], "big")
        if size < 8:  # 0: the last box runs to the end of the file; 2-7: no chain of boxes, the decoder says what
            return False
        at += size
    return at > len(data)


def _tiff_cut(data: bytes) -> bool:
    """A TIFF whose directory (written last by many programs) or picture strips lie past the end of the file."""
    from PIL import Image

    order = "little" if data[:2] == b"II" else "big"
    if int.from_bytes(data[4:8], order) + 2 > len(data):
        return True
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", UserWarning)  # "Corrupt EXIF data": the file cut short is said plainly
            with Image.open(io.BytesIO(data)) as im:
                tags = im.tag_v2
                offsets, counts = tags.get(273) or tags.get(324), tags.get(279) or tags.get(325)
    except (OSError, ValueError, SyntaxError, struct.error):
        return False
    return bool(offsets and counts) and max(o + c for o, c in zip(offsets, counts, strict=False)) > len(data)


def _cut_photo(p: Path, data: bytes, name: str, notes: list[str]) -> np.ndarray:
    """A file cut short: its picture when all of it is there (the end of an animation is missing, or only the end
    mark), else the part that is there where the format keeps its rows in order and the decoder gives them as they
    are (JPEG: the rest flat grey, `picture_notes` says so; PNG, TIFF: the rest black, said here); any other refused,
    saying it is cut short, not that it is no image."""
    img = _pillow_photo(p)
    if img is not None:
        return img
    interlaced = name == "PNG" and data[28:29] == b"\x01"  # Adam7: what is there is a coarse sketch of it all
    img = _pillow_photo(p, cut=True) if name in ("JPEG", "PNG", "TIFF") and not interlaced else None
    if img is not None and name != "JPEG":
        missing = _flat_bottom(img)
        if missing < len(img):
            notes.append(f"the file is cut short (copied only in part?): the bottom {_share(missing, len(img))} of "
                         "the photo is missing (drawn black), so tiles there were not seen; copy the photo again")
        else:
            img = None
    if img is None:
        raise InputError(f"{p} is cut short: the {name} file ends before its picture does (copied only in part, or "
                         "not yet fully downloaded?); copy the photo again") from None
    return img


def _flat_bottom(img: np.ndarray) -> int:
    """Rows at the bottom of one flat colour, the colour of the last: what a decoder fills a file cut short with."""
    last = img[-1, 0]
    flat = 0
    for row in img[::-1]:
        if (row != last).any():
            break
        flat += 1
    return flat


def _share(part: int, whole: int) -> str:
    share = part / whole
    return f"{share:.0%}" if share >= 0.005 else "under 1%"


def _header(p: Path) -> tuple[int, int, str | None]:
    """Width and height from the file's header, before any decoding: a small PNG can hold a 900-megapixel picture,
    which OpenCV would decode whole (gigabytes, more than a Pi has) before its size could be refused; and a note when
    the file holds more than one picture (an animation, of which the decoders give the first frame). (0, 0, None) when
    Pillow does not know the format; the decoded size is checked then."""
    from PIL import Image, UnidentifiedImageError

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        warnings.simplefilter("ignore", UserWarning)  # "Corrupt EXIF data" of a TIFF cut short: said plainly later
        try:
            with Image.open(p) as im:
                return (*im.size, _frames_note(im))
        except Image.DecompressionBombError:
            raise InputError(f"{p} has too many pixels; photos over {MAX_PIXELS // 1_000_000} megapixels are "
                             "refused") from None
        except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
            return 0, 0, None


def _frames_note(im) -> str | None:
    """What the player is told of a file of several pictures: an animation (GIF, APNG, animated WebP or AVIF) or a
    TIFF of pages; a JPEG's second picture (MPO: a depth map, a preview) is none of the player's."""
    if im.format not in ANIMATED:
        return None
    try:
        frames = im.n_frames
        count = f"{frames} frames"
    except (OSError, ValueError, EOFError, SyntaxError):  # counting them runs into the end of a file cut short
        frames, count = (2, "several frames") if getattr(im, "is_animated", False) else (1, "")
    if frames < 2:
        return None
    if im.format == "TIFF":
        return (f"the file holds {frames} pictures (a TIFF of pages): its first was read; to read another, save "
                "it as a photo of its own")
    return (f"{ANIMATION_NOTE} ({ANIMATED[im.format]}, {count}): its first frame was read; if the tiles show better "
            "in another, save that frame as a still photo and read it")


def _pillow_photo(p: Path, cut: bool = False) -> np.ndarray | None:
    """HEIC (an iPhone's default) and AVIF, which OpenCV does not decode or does not turn, a JPEG cut short, and
    whatever else OpenCV cannot decode. pillow-heif applies a HEIC's transform boxes and sets its EXIF orientation
    to 1; Pillow gives an AVIF's as its EXIF orientation, applied here as any other's. `cut`: a file cut short
    decoded as far as it goes (`_cut_photo`). None when Pillow cannot read it."""
    from PIL import Image, ImageFile, ImageOps, UnidentifiedImageError
    from pillow_heif import register_heif_opener

    register_heif_opener()
    ImageFile.LOAD_TRUNCATED_IMAGES = cut
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", Image.DecompressionBombWarning)
            warnings.simplefilter("ignore", UserWarning)  # a TIFF cut short: "Corrupt EXIF data"
            with Image.open(p) as im:
                _too_large(p, *im.size)
                rgb = ImageOps.exif_transpose(im).convert("RGB")
    except Image.DecompressionBombError:
        raise InputError(f"{p} has too many pixels; photos over {MAX_PIXELS // 1_000_000} megapixels are "
                         "refused") from None
    except (UnidentifiedImageError, OSError, ValueError, SyntaxError):
        return None
    finally:
        ImageFile.LOAD_TRUNCATED_IMAGES = False
    return np.ascontiguousarray(np.asarray(rgb)[..., ::-1])


def picture_notes(img: np.ndarray, faces: Sequence[tuple[float, float, float, float]] = ()) -> list[str]:
    """What the picture itself leaves out, for the reader to say beside what it read: colour (a black-and-white
    photo cannot show a red five, and a blank white dragon looks like a light back), its lower part (a JPEG cut
    short in copying decodes to rows of flat grey), or the faces' detail (the boxes of the face-up tiles read:
    over-exposed, more than half the middle of a third of them clipped white, which no white balance brings back;
    measured: tests/bench/bench_camera_shifts.py, models/MODEL_CARD.md), or, where they are not, the tiles a glare
    spot among them hides (`_glare_note`)."""
    flat = 0
    for row in img[::-1]:
        if row.min() != row.max() or not GREY[0] <= row[0, 0] <= GREY[1]:
            break
        flat += 1
    if flat == len(img):
        return ["the whole photo is one flat grey: there is nothing in it to read"]
    notes = []
    burnt = sum(_burnt(img, box) for box in faces)
    if faces and burnt >= OVER_EXPOSED * len(faces):
        notes.append(f"{OVER_EXPOSED_NOTE}: {burnt} of {len(faces)} tile faces are burnt white in the middle, "
                     "so a white dragon looks like a light back and faint marks fade; check them, or take it again "
                     "with less light")
    elif glare := _glare_note(img, faces):  # an over-exposed photo is told to take less light already
        notes.append(glare)
    colour = _colour_note(img)
    if colour:
        notes.append(colour)
    if flat >= 0.02 * len(img):
        notes.append(f"the bottom {flat / len(img):.0%} of the photo is flat grey (a file cut short?): tiles there "
                     "were not seen")
    return notes


def _glare_note(img: np.ndarray, faces: Sequence[tuple[float, float, float, float]]) -> str | None:
    """A flash's or a lamp's hot spot: a patch of clipped white (GLARE share of the photo or more) solid enough to
    hold a disc a tile across, where burnt faces would still show their marks and the gaps between them, lying
    within GLARE_NEAR tile sizes of a face read (or anywhere, when none was: it may have hidden them all). The
    over-exposure note counts the faces read only, and tiles under such a spot are not read at all. Measured on glare
    copies of the shared photos and on clean photos and rendered scenes for false notes (models/MODEL_CARD.md)."""
    h, w = img.shape[:2]
    scale = min(1.0, GLARE_SIDE / max(h, w))  # the patch is large: a small copy shows it, at a fraction of the cost
    small = cv2.resize(img, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA) \
        if scale < 1 else img
    clipped = (small.min(axis=2) >= BURNT).astype(np.uint8)
    n, labels, stats, centres = cv2.connectedComponentsWithStats(clipped, connectivity=8)
    shorts = sorted(min(x2 - x1, y2 - y1) * scale for x1, y1, x2, y2 in faces)
    tile = shorts[len(shorts) // 2] if shorts else min(clipped.shape) * GLARE_NO_TILES
    for k in sorted(range(1, n), key=lambda k: -stats[k, cv2.CC_STAT_AREA]):
        x, y, bw, bh, area = (int(v) for v in stats[k])
        if area < GLARE * clipped.size:
            break
        patch = np.pad((labels[y:y + bh, x:x + bw] == k).astype(np.uint8), 1)
        if cv2.distanceTransform(patch, cv2.DIST_L2, 5).max() < tile / 2:
            continue
        if shorts and min(_gap((x, y, x + bw, y + bh), [v * scale for v in box]) for box in faces) > GLARE_NEAR * tile:
            continue
        cx, cy = centres[k] / scale
        where = " ".join(dict.fromkeys((("top", "middle", "bottom")[min(2, int(3 * cy / h))],
                                         ("left", "middle", "right")[min(2, int(3 * cx / w))])))
        return (f"a bright glare spot (clipped white, {area / clipped.size:.0%} of the photo) covers part of the "
                f"table in the {where} of the photo, around ({cx:.0f}, {cy:.0f}): tiles there may be missed; take it "
                "again without the flash or from another angle")
    return None


def _gap(a: Sequence[float], b: Sequence[float]) -> float:
    """Distance between two boxes (x1, y1, x2, y2); 0 when they touch or overlap."""
    return float(np.hypot(max(0, b[0] - a[2], a[0] - b[2]), max(0, b[1] - a[3], a[1] - b[3])))


def _colour_note(img: np.ndarray) -> str | None:
    """Why red fives may not show, if the photo's colour says so; each measure taken only when the ones before it
    said nothing."""
    sample = img[::7, ::7]
    wide = sample.astype(np.int16)
    if np.abs(wide[..., 0] - wide[..., 1]).max() <= 2 and np.abs(wide[..., 1] - wide[..., 2]).max() <= 2:
        return ("the photo has no colour: red fives read as plain fives and blank white dragons may read as backs; "
                "check them")
    light = int(np.percentile(cv2.cvtColor(sample, cv2.COLOR_BGR2GRAY), 99.5))
    if light < DARK:
        return (f"the photo is dark (its lightest parts at {light} of 255): colours and faint marks hardly show, so a "
                "red five may read as a plain five and tiles may be missed; take it again with more light")
    pixels = img.reshape(-1, 3)[::max(1, img.shape[0] * img.shape[1] // 250_000)].astype(np.int32)
    colours = len(np.unique(pixels @ np.array([1, 256, 65536], np.int32)))
    if colours <= PALETTE < len(pixels) // 4:
        return (f"the photo has only {colours} colours (a GIF, or a PNG saved with a palette): red fives may read as "
                "plain fives and faint marks may be lost; check them, or use the original photo")
    if _one_tint(img):
        return "the photo's colours are one tint (a sepia or toned black-and-white filter): red fives read as plain " \
               "fives; check them"
    return None


def _one_tint(img: np.ndarray) -> bool:
    """Every pixel's colour follows from its brightness alone, as a sepia filter makes it: no pixel's chroma is more
    than TINT_SPREAD from the mean of those as bright. A colour photo has some (pips, red fives, backs, cloth) even
    when the tiles are small in the frame. Halved first, as a JPEG keeps its colour (one chroma sample per 2 x 2
    pixels: at a sharp edge a toned photo's chroma would not match the pixel's brightness); pixels with a channel
    clipped are left out (where a filter clips one channel, the colour no longer follows the brightness)."""
    half = cv2.resize(img, (img.shape[1] // 2, img.shape[0] // 2), interpolation=cv2.INTER_AREA)
    step = max(1, int((half.shape[0] * half.shape[1] / 250_000) ** 0.5))  # about 250,000 pixels whatever the size
    sample = np.ascontiguousarray(half[::step, ::step]).reshape(-1, 1, 3)
    sample = sample[sample.max(axis=2)[:, 0] < BURNT]
    if len(sample) < 1000:  # nearly all white: nothing to say
        return False
    ycc = cv2.cvtColor(sample, cv2.COLOR_BGR2YCrCb).reshape(-1, 3)
    level = ycc[:, 0] // 8
    n = np.bincount(level, minlength=32)
    spread = np.zeros(len(ycc), np.float32)
    for channel in (1, 2):
        chroma = ycc[:, channel].astype(np.float32)
        mean = np.bincount(level, chroma, 32) / np.maximum(n, 1)
        spread = np.maximum(spread, np.abs(chroma - mean[level]))
    return int((spread > TINT_SPREAD).sum()) <= 2


def _burnt(img: np.ndarray, box: tuple[float, float, float, float]) -> bool:
    """More than half the middle of the box (its inner half each way) clipped white."""
    x1, y1, x2, y2 = box
    dx, dy = (x2 - x1) / 4, (y2 - y1) / 4
    middle = img[max(0, round(y1 + dy)):round(y2 - dy), max(0, round(x1 + dx)):round(x2 - dx)]
    return middle.size > 0 and (middle.min(axis=2) >= BURNT).mean() > 0.5


def draw_overlay(img: np.ndarray, view: TableView) -> np.ndarray:
    """Every box with its tile name (green face up, blue face down, orange sideways)."""
    out = img.copy()
    scale = max(out.shape[:2]) / 1500
    thick = max(1, int(round(2 * scale)))
    for t in view.tiles:
        x1, y1, x2, y2 = (int(round(v)) for v in t.box)
        colour = (200, 120, 0) if t.tile == "back" else (0, 140, 255) if t.sideways else (0, 200, 0)
        cv2.rectangle(out, (x1, y1), (x2, y2), colour, thick)
        label = t.tile + ("^" if t.upside_down else "")
        size = 0.6 * scale
        (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, size, thick)
        cv2.rectangle(out, (x1, max(y1 - th - 4, 0)), (x1 + tw + 4, y1), colour, -1)
        cv2.putText(out, label, (x1 + 2, max(y1 - 3, th)), cv2.FONT_HERSHEY_SIMPLEX, size, (0, 0, 0), thick,
                    cv2.LINE_AA)
    return out

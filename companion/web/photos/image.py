"""Checking and cleaning an uploaded photo before it is scanned or stored.

Representation: ``inspect(data, max_pixels)`` opens the upload with Pillow (header
only) and returns the Pillow format name, or raises ``PhotoRefused`` with one
translated sentence. ``normalise(data, ...)`` returns a ``CleanPhoto``: the pixels
after EXIF orientation, downscaled so the long side is at most ``long_side``,
re-encoded from the bare pixels as JPEG (``quality``), so nothing of the original
file survives (no EXIF: no location, no camera data; no ICC, XMP or comments).
``bgr`` is the same pixels as a numpy BGR array; ``original`` is the oriented photo at
full resolution, what the scanner reads (``to_stored`` maps its pixels, such as the
scanner's ``center_px``, to the stored JPEG's).

Accepted formats: JPEG, PNG, WebP and HEIC/HEIF (through pillow-heif). A photo with
more than ``max_pixels`` pixels is refused from its header, before any pixel is
decoded (decompression bombs); a truncated file is refused when decoding fails.
"""

from __future__ import annotations

import io
import warnings
from dataclasses import dataclass

import numpy as np
from flask_babel import gettext as _
from PIL import Image, ImageOps

try:  # HEIC/HEIF photos from iPhones
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:  # pragma: no cover - pillow-heif is a dependency
    pass

ACCEPTED = {"JPEG": "JPEG", "PNG": "PNG", "WEBP": "WebP", "HEIF": "HEIC", "MPO": "JPEG"}
LONG_SIDE = 2000
QUALITY = 85
MAX_PIXELS = 40_000_000


class PhotoRefused(ValueError):
    """An upload that is not a photo we can read; ``str(err)`` is one sentence."""


@dataclass(frozen=True)
class CleanPhoto:
    jpeg: bytes
    width: int
    height: int
    bgr: np.ndarray
    original_size: tuple[int, int]
    original: np.ndarray
    """The oriented pixels at full resolution (BGR): what the scanner reads, since marks
    as small as flags need the camera's resolution, not the stored copy's."""

    def to_stored(self, point: tuple[float, float]) -> tuple[float, float]:
        """A pixel of ``original`` in the stored copy's pixels."""
        scale = self.width / self.original_size[0]
        return (point[0] * scale, point[1] * scale)


def _open(data: bytes, max_pixels: int) -> Image.Image:
    if not data:
        raise PhotoRefused(_("The file is empty. Choose a photo of the table."))
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img = Image.open(io.BytesIO(data))
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoRefused(_("This photo has far too many pixels to be a phone photo.")) from None
    except (OSError, SyntaxError, ValueError):
        raise PhotoRefused(_("This file is not a photo the companion can read. "
                             "Use a JPEG, PNG, WebP or HEIC photo.")) from None
    if img.format not in ACCEPTED:
        raise PhotoRefused(_("%(kind)s files are not accepted. Use a JPEG, PNG, WebP or HEIC "
                             "photo.", kind=img.format or _("These")))
    width, height = img.size
    if width * height > max_pixels:
        raise PhotoRefused(_("This photo has %(mp).0f million pixels; the limit is %(limit).0f "
                             "million.", mp=width * height / 1e6, limit=max_pixels / 1e6))
    if width < 32 or height < 32:
        raise PhotoRefused(_("This picture is too small to show any tiles."))
    return img


def inspect(data: bytes, max_pixels: int = MAX_PIXELS) -> str:
    """The accepted format name of ``data`` (header only), or ``PhotoRefused``."""
    return ACCEPTED[str(_open(data, max_pixels).format)]


def decoded_bytes(data: bytes, max_pixels: int = MAX_PIXELS) -> int:
    """The memory its decoded pixels will take (width x height x channels, from the header
    only), or ``PhotoRefused``: what the scan pool budgets before anything is decoded."""
    img = _open(data, max_pixels)
    return img.width * img.height * max(3, len(img.getbands()))


def _decode(img: Image.Image) -> Image.Image:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            img.load()
            img = ImageOps.exif_transpose(img)
            if img.mode in ("RGBA", "LA") or (img.mode == "P" and "transparency" in img.info):
                rgba = img.convert("RGBA")
                flat = Image.new("RGB", rgba.size, (255, 255, 255))
                flat.paste(rgba, mask=rgba.getchannel("A"))
                return flat
            return img.convert("RGB")
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise PhotoRefused(_("This photo has far too many pixels to be a phone photo.")) from None
    except (OSError, SyntaxError, ValueError):
        raise PhotoRefused(_("The photo file is incomplete or damaged (was the upload cut "
                             "off?). Take or choose the photo again.")) from None


def normalise(data: bytes, *, long_side: int = LONG_SIDE, quality: int = QUALITY,
              max_pixels: int = MAX_PIXELS) -> CleanPhoto:
    """The upload oriented, downscaled and re-encoded without any metadata."""
    img = _decode(_open(data, max_pixels))
    original = img.size
    full = np.ascontiguousarray(np.asarray(img)[:, :, ::-1])
    if max(img.size) > long_side:
        img.thumbnail((long_side, long_side), Image.Resampling.LANCZOS)
    # Rebuild the image from its bare pixels: no info dict, no EXIF, ICC or XMP.
    clean = Image.frombytes("RGB", img.size, img.tobytes())
    out = io.BytesIO()
    clean.save(out, "JPEG", quality=quality, optimize=True)
    rgb = np.asarray(clean)
    bgr = np.ascontiguousarray(rgb[:, :, ::-1])
    return CleanPhoto(out.getvalue(), clean.width, clean.height, bgr, original, full)

"""Loading photos: path, bytes or a BGR array in; a working-resolution BGR array out.

Representation: ``Photo`` holds ``image`` (uint8 BGR, H x W x 3, downscaled so the
long side is at most ``config.io.working_long_side``), ``scale`` (original pixels per
working pixel) and ``original_size`` (width, height after EXIF orientation). Any
point found at working resolution is reported as ``point * scale``. A photo over
twice the working size also has a ``detail`` copy at twice it (for pennants and
marker digits), downscaled in a background thread while the tiles are located.

``brought_up`` brightens both copies of a photo exposed well under what a camera would
give (``config.io.exposure_floor_grey``).

JPEG, PNG, WebP and (with pillow-heif) HEIC are decoded by Pillow; EXIF orientation
is applied; photos over ``config.io.max_pixels`` and decompression bombs are refused
before any pixel is decoded.
"""

from __future__ import annotations

import dataclasses
import io as _io
import warnings
from dataclasses import dataclass
from functools import partial
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageOps

from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.errors import ScanError
from companion.vision.in_background import Background

try:  # HEIC/HEIF support is optional at import time
    import pillow_heif

    pillow_heif.register_heif_opener()
except ImportError:  # pragma: no cover - pillow-heif is a dependency
    pass

ImageInput = str | Path | bytes | bytearray | np.ndarray


@dataclass(frozen=True)
class Photo:
    image: np.ndarray
    scale: float
    original_size: tuple[int, int]
    detail_size: tuple[int, int] | None = None
    """(width, height) of ``detail``; None when there is no detail image."""
    pending: Background[np.ndarray] | None = None
    """``detail`` being made in a background thread: the decoded photo is downscaled to
    the detail size while the tiles are located on the working image."""

    @property
    def detail(self) -> np.ndarray | None:
        """The decoded photo before downscaling (at most twice the working size), for
        reading small things such as marker digits; ``None`` when equal to ``image``.
        Waits for the background thread the first time."""
        return None if self.pending is None else self.pending.result()

    @property
    def detail_factor(self) -> float:
        """Detail pixels per working pixel."""
        if self.detail_size is None:
            return 1.0
        return self.detail_size[0] / float(self.image.shape[1])

    def detail_image(self) -> np.ndarray:
        detail = self.detail
        return self.image if detail is None else detail

    def to_original(self, point: tuple[float, float]) -> tuple[float, float]:
        return (float(point[0]) * self.scale, float(point[1]) * self.scale)


def load_photo(image: ImageInput, config: ScanConfig = DEFAULT_CONFIG) -> Photo:
    """Decode ``image`` and downscale it to the working resolution (never modifies input)."""
    if isinstance(image, np.ndarray):
        return _from_array(image, config)
    if isinstance(image, (bytes, bytearray)):
        if len(image) > config.io.max_bytes:
            raise ScanError(f"photo too large: {len(image)} bytes (limit {config.io.max_bytes})")
        return _from_bytes(bytes(image), config)
    if isinstance(image, (str, Path)):
        path = Path(image)
        try:
            size = path.stat().st_size
        except OSError as err:
            raise ScanError(f"cannot read {path}: {err.strerror or err}") from None
        if path.is_dir():
            raise ScanError(f"not an image: {path} is a directory")
        if size > config.io.max_bytes:
            raise ScanError(f"photo too large: {size} bytes (limit {config.io.max_bytes})")
        try:
            data = path.read_bytes()
        except OSError as err:
            raise ScanError(f"cannot read {path}: {err.strerror or err}") from None
        return _from_bytes(data, config)
    raise ScanError(f"not an image: unsupported input of type {type(image).__name__}")


def _from_array(array: np.ndarray, config: ScanConfig) -> Photo:
    if array.dtype != np.uint8 or array.ndim not in (2, 3):
        raise ScanError("not an image: expected a uint8 array of shape HxW or HxWx3")
    if array.ndim == 2:
        array = cv2.cvtColor(array, cv2.COLOR_GRAY2BGR)
    elif array.shape[2] == 4:
        array = cv2.cvtColor(array, cv2.COLOR_BGRA2BGR)
    elif array.shape[2] != 3:
        raise ScanError("not an image: expected 1, 3 or 4 colour channels")
    h, w = array.shape[:2]
    if h * w > config.io.max_pixels:
        raise ScanError(f"photo too large: {w}x{h} is over {config.io.max_pixels // 1_000_000} MP")
    if min(h, w) < 32:
        raise ScanError(f"photo too small: {w}x{h}")
    return _downscale(array, (w, h), config)


def _from_bytes(data: bytes, config: ScanConfig) -> Photo:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", Image.DecompressionBombWarning)
        try:
            im: Image.Image = Image.open(_io.BytesIO(data))
        except Image.DecompressionBombError:
            raise ScanError("refused: the image declares an enormous size "
                            "(decompression bomb)") from None
        except Exception:  # noqa: BLE001 - Pillow raises many types for junk input
            raise ScanError("not an image: the file is not a JPEG, PNG, WebP or HEIC photo"
                            ) from None
        w, h = im.size
        if w <= 0 or h <= 0:
            raise ScanError("not an image: zero size")
        if w * h > config.io.max_pixels:
            raise ScanError(f"photo too large: {w}x{h} is over "
                            f"{config.io.max_pixels // 1_000_000} MP (or a decompression bomb)")
        if min(w, h) < 32:
            raise ScanError(f"photo too small: {w}x{h}")
        orientation = _exif_orientation(im)
        long_side = max(w, h)
        if im.format == "JPEG" and long_side > 2 * config.io.working_long_side:
            # Decode at a reduced DCT scale: much faster, still >= twice working size.
            factor = long_side / (2 * config.io.working_long_side)
            im.draft("RGB", (int(w / factor) + 1, int(h / factor) + 1))
        try:
            im.load()
        except Image.DecompressionBombError:
            raise ScanError("refused: decompression bomb") from None
        except (OSError, SyntaxError, ValueError) as err:
            if "truncat" in str(err).lower():
                raise ScanError("truncated image: the file ends before the picture does"
                                ) from None
            raise ScanError(f"not an image: cannot decode ({err})") from None
        except Exception as err:  # noqa: BLE001
            raise ScanError(f"not an image: cannot decode ({type(err).__name__})") from None
        if orientation not in (None, 1):
            im = ImageOps.exif_transpose(im)
        if orientation in (5, 6, 7, 8):
            w, h = h, w
        if im.mode != "RGB":
            im = im.convert("RGB")
    # Downscaled before the channels are swapped: each channel is resized alone, so the
    # result is the same, and the swap costs a fraction of a full photo's.
    return _downscale(np.asarray(im), (w, h), config, rgb=True)


def brightest_grey(image: np.ndarray) -> float:
    """The grey the brightest 1 % of ``image`` reaches (sampled every 4th pixel each
    way)."""
    grey = cv2.cvtColor(image[::4, ::4], cv2.COLOR_BGR2GRAY)
    return float(np.percentile(grey, 99))


def exposure_gain(image: np.ndarray, config: ScanConfig = DEFAULT_CONFIG) -> float:
    """The gain ``brought_up`` gives ``image``: 1 unless its ``brightest_grey`` is under
    ``io.exposure_floor_grey``; 1 too when it is under ``io.too_dark_grey`` (too few grey
    levels left to bring up: such a photo is refused as too dark when no tiles are found
    in it)."""
    floor = config.io.exposure_floor_grey
    if floor <= 0:
        return 1.0
    bright = brightest_grey(image)
    if bright < config.io.too_dark_grey or bright >= floor:
        return 1.0
    return float(min(floor / bright, config.io.photo_gain_max))


def brought_up(photo: Photo, config: ScanConfig = DEFAULT_CONFIG) -> Photo:
    """``photo`` with its working image and its detail copy brightened by
    ``exposure_gain`` (the same photo when that is 1; the detail copy in a thread of its
    own). Tiles, table and clutter are told apart by thresholds made for a photo a
    camera exposed, and pennants are judged by a model learned on such photos; a photo
    well under that is brought up to it first."""
    gain = exposure_gain(photo.image, config)
    if gain <= 1.0:
        return photo
    pending = photo.pending
    if pending is not None:
        dim = pending
        pending = Background(lambda: cv2.convertScaleAbs(dim.result(), alpha=gain),
                             "photo-detail-up")
    return dataclasses.replace(photo, image=cv2.convertScaleAbs(photo.image, alpha=gain),
                               pending=pending)


def _exif_orientation(im: Image.Image) -> int | None:
    try:
        value = im.getexif().get(0x0112)
    except Exception:  # noqa: BLE001 - broken EXIF must not stop a scan
        return None
    return int(value) if isinstance(value, int) else None


def _downscale(bgr: np.ndarray, original: tuple[int, int], config: ScanConfig,
               rgb: bool = False) -> Photo:
    """The working copy of ``bgr`` and its detail copy (made in a thread when it must be
    downscaled or swapped); ``rgb``: the array holds RGB, swapped to BGR in each copy."""
    h, w = bgr.shape[:2]
    long_side = max(w, h)
    pending: Background[np.ndarray] | None = None
    detail_size: tuple[int, int] | None = None

    def as_bgr(array: np.ndarray) -> np.ndarray:
        out: np.ndarray = cv2.cvtColor(array, cv2.COLOR_RGB2BGR) if rgb else array
        return out

    if long_side > config.io.working_long_side:
        f = config.io.working_long_side / long_side
        size = (max(1, round(w * f)), max(1, round(h * f)))
        if long_side > 2 * config.io.working_long_side:
            f2 = 2 * config.io.working_long_side / long_side
            detail_size = (max(1, round(w * f2)), max(1, round(h * f2)))
            full = bgr
            pending = Background(lambda: as_bgr(cv2.resize(full, detail_size,
                                                           interpolation=cv2.INTER_AREA)),
                                 "photo-detail")
        elif rgb:
            detail_size = (w, h)
            pending = Background(partial(as_bgr, bgr), "photo-detail")
        else:
            detail_size = (w, h)
            pending = Background.ready(
                bgr if not bgr.flags.writeable or bgr.base is not None else bgr.copy())
        bgr = as_bgr(cv2.resize(bgr, size, interpolation=cv2.INTER_AREA))
    else:
        bgr = as_bgr(bgr) if rgb else bgr.copy()
    scale = original[0] / bgr.shape[1]
    return Photo(image=bgr, scale=scale, original_size=original, detail_size=detail_size,
                 pending=pending)

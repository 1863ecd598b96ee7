"""Loading photos: formats, EXIF orientation, and refusals with a clear reason."""

from __future__ import annotations

import io
import struct
import zlib

import cv2
import numpy as np
import pytest
from PIL import Image

from companion.vision.config import ScanConfig
from companion.vision.errors import ScanError
from companion.vision.io import load_photo


def _encode(img: Image.Image, fmt: str, **kw: object) -> bytes:
    buf = io.BytesIO()
    img.save(buf, fmt, **kw)
    return buf.getvalue()


def _picture(w: int = 300, h: int = 200) -> Image.Image:
    arr = np.zeros((h, w, 3), np.uint8)
    arr[:, : w // 2] = (200, 30, 30)  # red left half (RGB)
    return Image.fromarray(arr)


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP"])
def test_formats_decode_to_bgr(fmt: str) -> None:
    photo = load_photo(_encode(_picture(), fmt))
    assert photo.image.shape == (200, 300, 3)
    b, g, r = photo.image[100, 20]
    assert r > 150 and b < 80  # BGR order: red stays red
    assert photo.scale == pytest.approx(1.0)


def test_heic_decodes() -> None:
    try:
        data = _encode(_picture(), "HEIF")
    except (KeyError, OSError, ValueError):
        pytest.skip("this libheif build cannot encode HEIC")
    assert load_photo(data).image.shape == (200, 300, 3)


def test_exif_orientation_is_applied() -> None:
    exif = Image.Exif()
    exif[0x0112] = 6  # rotate 90 degrees clockwise to view
    photo = load_photo(_encode(_picture(), "JPEG", exif=exif))
    assert photo.image.shape[:2] == (300, 200)
    assert photo.original_size == (200, 300)
    # The red half was on the left; after a clockwise turn it is at the top.
    assert photo.image[20, 100, 2] > 150 and photo.image[280, 100, 2] < 80


def test_downscales_and_reports_original_scale() -> None:
    config = ScanConfig().tuned(working_long_side=150)
    photo = load_photo(_encode(_picture(600, 400), "PNG"), config)
    assert max(photo.image.shape[:2]) == 150
    assert photo.scale == pytest.approx(4.0)
    assert photo.to_original((10.0, 5.0)) == pytest.approx((40.0, 20.0))


def test_array_input_is_not_modified() -> None:
    arr = np.full((100, 120, 3), 7, np.uint8)
    photo = load_photo(arr)
    photo.image[:] = 0
    assert int(arr.max()) == 7


def test_not_an_image(tmp_path: object) -> None:
    with pytest.raises(ScanError, match="not an image"):
        load_photo(b"hello, this is text and not a photo")


def test_truncated_file() -> None:
    data = _encode(Image.fromarray(
        np.random.default_rng(0).integers(0, 255, (400, 400, 3), dtype=np.uint8)), "JPEG")
    with pytest.raises(ScanError, match="truncated"):
        load_photo(data[: len(data) // 2])


def _png_header_only(w: int, h: int) -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return (struct.pack(">I", len(body)) + kind + body
                + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF))

    ihdr = struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", ihdr)
            + chunk(b"IDAT", zlib.compress(b"\x00" * 16)) + chunk(b"IEND", b""))


@pytest.mark.parametrize("side", [8000, 60000])
def test_decompression_bomb_and_oversize_refused(side: int) -> None:
    with pytest.raises(ScanError, match="too large|bomb"):
        load_photo(_png_header_only(side, side))


def test_oversize_array_refused() -> None:
    config = ScanConfig().tuned(max_pixels=10_000)
    with pytest.raises(ScanError, match="too large"):
        load_photo(np.zeros((200, 200, 3), np.uint8), config)


def test_missing_file(tmp_path: object) -> None:
    with pytest.raises(ScanError, match="cannot read"):
        load_photo("/nonexistent/photo.jpg")


def test_grayscale_array_accepted() -> None:
    photo = load_photo(cv2.cvtColor(np.zeros((64, 64, 3), np.uint8), cv2.COLOR_BGR2GRAY))
    assert photo.image.shape == (64, 64, 3)


def test_the_detail_copy_is_the_photo_at_twice_the_working_size() -> None:
    rng = np.random.default_rng(2)
    big = cv2.GaussianBlur(rng.integers(0, 256, (900, 1200, 3), np.uint8), (0, 0), 2)
    config = ScanConfig().tuned(working_long_side=400)
    photo = load_photo(big, config)
    assert photo.image.shape == (300, 400, 3)
    assert photo.detail_factor == pytest.approx(2.0)  # known before the copy is made
    expected = cv2.resize(big, (800, 600), interpolation=cv2.INTER_AREA)
    assert np.array_equal(photo.detail_image(), expected)
    assert photo.detail is photo.detail_image()
    # under twice the working size the decoded photo itself is the detail
    near = load_photo(big, ScanConfig().tuned(working_long_side=800))
    assert near.detail_factor == pytest.approx(1.5)
    assert np.array_equal(near.detail_image(), big)
    small = load_photo(big, ScanConfig().tuned(working_long_side=1600))
    assert small.detail is None and small.detail_factor == 1.0
    assert small.detail_image() is small.image

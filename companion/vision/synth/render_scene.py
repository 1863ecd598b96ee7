"""Camera, table and photo effects for the renderer.

Representation: the *board plane* is measured in tile units, ``Layout(1.0)`` of
``companion.rules.hexgrid`` (circumradius 1, ``Hex(0, 0)`` at the origin, y down).
A camera is a 3x3 homography ``H`` taking board-plane points ``(x, y, 1)`` to image
pixels. Backgrounds and effects work on BGR ``uint8`` images of the final size;
every random choice comes from the ``numpy`` generator passed in.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

BACKGROUNDS = ("wood", "cloth", "mat")


def camera_homography(tilt_deg: float, yaw_deg: float, centre: tuple[float, float],
                      distance: float, focal: float = 1.0) -> np.ndarray:
    """Homography board -> normalised camera image (principal point at 0, 0).

    The camera looks at ``centre`` from ``distance`` (tile units), pitched by ``tilt_deg``
    from straight down, standing on the +y side (the bottom of the photo is nearest);
    ``yaw_deg`` turns the board about its normal (clockwise on screen).
    """
    t = math.radians(tilt_deg)
    cx, cy = centre
    cam = np.array([cx, cy + distance * math.sin(t), distance * math.cos(t)])
    x_axis = np.array([1.0, 0.0, 0.0])
    y_axis = np.array([0.0, math.cos(t), -math.sin(t)])
    forward = np.array([0.0, -math.sin(t), -math.cos(t)])
    rot = np.stack([x_axis, y_axis, forward])
    trans = -rot @ cam
    k = np.diag([focal, focal, 1.0])
    h_cam = k @ np.column_stack([rot[:, 0], rot[:, 1], trans])
    y = math.radians(yaw_deg)
    c, s = math.cos(y), math.sin(y)
    turn = np.array([[c, -s, cx - c * cx + s * cy], [s, c, cy - s * cx - c * cy], [0, 0, 1]])
    return h_cam @ turn


def project(h: np.ndarray, points: np.ndarray) -> np.ndarray:
    """Apply a homography to an ``(N, 2)`` array of points."""
    pts = np.asarray(points, dtype=np.float64).reshape(-1, 1, 2)
    return cv2.perspectiveTransform(pts, h).reshape(-1, 2)


def fit_to_image(h: np.ndarray, board_points: np.ndarray, size: tuple[int, int],
                 fill: float, rng: np.random.Generator) -> np.ndarray:
    """Scale and shift ``h`` in the image so that the board fills ``fill`` of the image."""
    w, hgt = size
    pts = project(h, board_points)
    lo, hi = pts.min(axis=0), pts.max(axis=0)
    scale = fill * min(w / (hi[0] - lo[0]), hgt / (hi[1] - lo[1]))
    free_x = w - scale * (hi[0] - lo[0])
    free_y = hgt - scale * (hi[1] - lo[1])
    ox = free_x * rng.uniform(0.3, 0.7) - scale * lo[0]
    oy = free_y * rng.uniform(0.3, 0.7) - scale * lo[1]
    sim = np.array([[scale, 0, ox], [0, scale, oy], [0, 0, 1.0]])
    out = sim @ h
    return out / out[2, 2]


def local_scale(h: np.ndarray, point: tuple[float, float]) -> float:
    """Largest image length of a unit board step at ``point`` (pixels per tile unit)."""
    x, y = point
    p = project(h, np.array([[x, y], [x + 0.01, y], [x, y + 0.01]]))
    return float(max(np.linalg.norm(p[1] - p[0]), np.linalg.norm(p[2] - p[0])) / 0.01)


def _smooth_noise(shape: tuple[int, int], cells: tuple[int, int],
                  rng: np.random.Generator) -> np.ndarray:
    small = rng.normal(0.0, 1.0, (cells[1], cells[0])).astype(np.float32)
    return cv2.resize(small, (shape[1], shape[0]), interpolation=cv2.INTER_CUBIC)


def background(kind: str, size: tuple[int, int], rng: np.random.Generator) -> np.ndarray:
    """A table surface: ``wood`` (planks with grain), ``cloth`` (white, folds), ``mat``."""
    w, h = size
    sw, sh = max(8, w // 4), max(8, h // 4)
    if kind == "wood":
        base = np.array(rng.choice([(60, 105, 150), (45, 80, 125), (80, 125, 165)]), np.float32)
        yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
        warp = _smooth_noise((sh, sw), (6, 24), rng) * 6.0
        angle = rng.uniform(-0.3, 0.3)
        along = yy * math.cos(angle) - xx * math.sin(angle)
        grain = np.sin((along + warp * 2.0) * (2 * math.pi / rng.uniform(10, 18)))
        plank_w = sh / rng.uniform(3, 6)
        seam = (np.abs(((along % plank_w) / plank_w) - 0.5) > 0.49).astype(np.float32)
        shade = 1.0 + 0.08 * grain + 0.06 * _smooth_noise((sh, sw), (4, 3), rng) - 0.35 * seam
        img = base[None, None, :] * shade[..., None]
    elif kind == "cloth":
        base = np.array(rng.choice([(228, 230, 232), (215, 220, 222), (236, 236, 230)]), np.float32)
        folds = _smooth_noise((sh, sw), (5, 4), rng)
        shade = 1.0 + 0.025 * folds + 0.008 * _smooth_noise((sh, sw), (40, 30), rng)
        img = base[None, None, :] * shade[..., None]
    elif kind == "mat":
        base = np.array(rng.choice([(50, 62, 48), (40, 40, 42), (90, 70, 45)]), np.float32)
        shade = 1.0 + 0.05 * _smooth_noise((sh, sw), (3, 3), rng)
        img = base[None, None, :] * shade[..., None]
    else:
        raise ValueError(f"unknown background {kind!r} (one of {', '.join(BACKGROUNDS)})")
    fine = np.empty((sh * 2, sw * 2, 3), np.int16)
    seeded_randn(fine, 4 if kind == "cloth" else 3, rng)
    small8 = cv2.resize(np.clip(img, 0, 255).astype(np.uint8), (sw * 2, sh * 2),
                        interpolation=cv2.INTER_LINEAR)
    textured = cv2.add(small8, fine, dtype=cv2.CV_8U)
    return cv2.resize(textured, (w, h), interpolation=cv2.INTER_LINEAR)


def gain_field(size: tuple[int, int], lighting: float, shadow: float, glare: float,
               rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    """Multiplicative light (gradient, vignette, a soft cast shadow) and additive glare.

    Returns two float32 fields of the image size: ``gain`` (around 1) and ``glare`` (0..1).
    """
    w, h = size
    sw, sh = max(16, w // 8), max(16, h // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    u, v = xx / sw - 0.5, yy / sh - 0.5
    a = rng.uniform(0, 2 * math.pi)
    gradient = (u * math.cos(a) + v * math.sin(a)) * 2.0
    vignette = u * u + v * v
    gain = 1.0 + lighting * gradient - 0.6 * lighting * vignette
    if shadow > 0:
        # a soft blob shadow (a person or phone between light and table)
        cx, cy = rng.uniform(-0.5, 0.5), rng.uniform(-0.5, 0.5)
        rx, ry = rng.uniform(0.15, 0.35), rng.uniform(0.15, 0.35)
        d = ((u - cx) / rx) ** 2 + ((v - cy) / ry) ** 2
        blob = 1.0 / (1.0 + np.exp(np.minimum((d - 1.0) * 4.0, 50.0)))
        gain *= 1.0 - shadow * blob
    glare_small = np.zeros_like(gain)
    if glare > 0:
        gx, gy = rng.uniform(-0.3, 0.3), rng.uniform(-0.3, 0.3)
        gr = rng.uniform(0.04, 0.12)
        d2 = ((u - gx) ** 2 + ((v - gy) * 1.4) ** 2) / (gr * gr)
        glare_small = glare * np.exp(-d2).astype(np.float32)
    gain_full = cv2.resize(gain.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    glare_full = cv2.resize(glare_small.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)
    return gain_full, glare_full


def apply_light(img: np.ndarray, gain: np.ndarray, glare: np.ndarray,
                white_balance: tuple[float, float, float]) -> np.ndarray:
    """``img * gain * white_balance``, then blend towards white by ``glare``."""
    gains = [cv2.convertScaleAbs(gain, alpha=128.0 * float(b)) for b in white_balance]
    out = cv2.multiply(img, cv2.merge(gains), scale=1.0 / 128.0)
    if float(glare.max()) > 0.001:
        white = np.full_like(out, 255)
        out = cv2.blendLinear(out, white, 1.0 - glare, glare)
    return out


def seeded_randn(out: np.ndarray, sigma: float, rng: np.random.Generator) -> None:
    """Fill ``out`` with Gaussian noise, reproducibly for ``rng``.

    OpenCV's ``randn`` is ten times faster than numpy's at 12 MP; its generator is
    seeded from ``rng`` right before use, so the same seed gives the same noise.
    """
    cv2.setRNGSeed(int(rng.integers(0, 2**31 - 1)))
    channels = out.shape[2] if out.ndim == 3 else 1
    cv2.randn(out, np.zeros(channels), np.full(channels, float(sigma)))


def sensor(img: np.ndarray, blur: float, noise: float, jpeg_quality: int | None,
           rng: np.random.Generator) -> np.ndarray:
    """Defocus blur (Gaussian sigma in pixels), Gaussian noise (sigma), JPEG round trip."""
    out = img
    if blur > 0:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if noise > 0:
        n = np.empty(out.shape, np.int16)
        seeded_randn(n, noise, rng)
        out = cv2.add(out, n, dtype=cv2.CV_8U)
    if jpeg_quality is not None:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg_quality)])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR)
        if decoded is None:
            raise RuntimeError("JPEG decoding failed")
        out = decoded
    return out

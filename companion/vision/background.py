"""Table/background separation.

Representation: ``foreground_mask(image, config)`` returns a uint8 mask (255 = tile,
0 = table) of the same height and width as the BGR ``image``.

The table is modelled from the image border (a strip ``config.background.border_frac`` wide),
which in a photo of tiles on a table shows mostly table, as a Gaussian in Lab
(``table_model``: the border's median and covariance, lightness weighted down so shadows
on a white cloth stay background): a pixel is foreground when its Mahalanobis distance
from the table is large or when it is strongly saturated (tile art). Wood grain, a weave
or a lamp's gradient stretch the table only along the colours it shows, so tile art off
those colours stands out; the threshold adapts to the table's own texture, and its floors
shrink with a dim table's lightness (colour differences shrink with the light).
A map, a mat or a score pad the frame cuts through is not table: the border is cut
into segments, and those whose median colour is foreground beside the median segment's
are left out of the model (``table_segments``).
``ColourOdds`` judges whole cells once tiles are known: colours likelier among this
photo's tiles or on its table. A cast
shadow on the table (``table_in_shadow``) is table too: darker than the table, of its
chromaticity, and as smooth as the table is; so is a checked cloth wherever it shows
(``table_checks``: gradients two ways at right angles, not one way, over a wide region),
also where a lamp washes its checks out of the border's colours.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import partial

import cv2
import numpy as np

from companion.vision.config import ScanConfig
from companion.vision.in_background import Background
from companion.vision.lab import lab_of


def _border(values: np.ndarray, config: ScanConfig) -> np.ndarray:
    """The pixels (rows of channels) of the image border strip."""
    return np.concatenate(_border_segments(values, config, 1))


def _border_segments(values: np.ndarray, config: ScanConfig, parts: int | None = None
                     ) -> list[np.ndarray]:
    """The border strip (``background.border_frac`` of the short side wide; top, bottom,
    left, right) cut into ``parts`` pieces a side, by default
    ``background.border_segments`` (each a block of rows of channels)."""
    h, w = values.shape[:2]
    b = max(2, int(min(h, w) * config.background.border_frac))
    channels = 1 if values.ndim == 2 else values.shape[2]
    parts = max(1, config.background.border_segments if parts is None else parts)
    out: list[np.ndarray] = []
    for strip, along in ((values[:b], 1), (values[-b:], 1), (values[:, :b], 0),
                         (values[:, -b:], 0)):
        for piece in np.array_split(strip, parts, axis=along):
            out.append(piece.reshape(-1, channels))
    return out


def table_segments(lab: np.ndarray, config: ScanConfig, weights: np.ndarray,
                   floor: float) -> np.ndarray:
    """Which border segments (``_border_segments``) show the table: those whose median
    chromaticity, at the lightness of the median segment (a shadow or a lamp's gradient
    changes the light, not the colour), lies within ``floor`` of the median segment's.
    A map, a mat or a score pad cut by the frame is not table, though the border is
    mostly table; when fewer than half the segments agree, every one counts."""
    return _table_segments(_border_segments(lab, config), config, weights, floor)


def _table_segments(segments: list[np.ndarray], config: ScanConfig, weights: np.ndarray,
                    floor: float) -> np.ndarray:
    """``table_segments`` of the border's Lab ``segments``, cut already."""
    medians = np.array([np.median(seg, axis=0) for seg in segments])
    centre = np.median(medians, axis=0)
    lit = _at_table_light(medians[None, :, :], float(_lightness(centre)))[0]
    chroma = (lit - centre)[:, 1:] * weights[1:]
    keep: np.ndarray = np.sqrt((chroma ** 2).sum(axis=1)) <= floor
    if config.background.border_segments <= 0 or keep.sum() * 2 < len(keep):
        return np.ones(len(keep), bool)
    return keep


def _table_border(values: np.ndarray, config: ScanConfig, keep: np.ndarray) -> np.ndarray:
    """The border pixels of the segments ``keep`` marks as table."""
    return _kept(_border_segments(values, config), keep)


def _kept(segments: list[np.ndarray], keep: np.ndarray) -> np.ndarray:
    """The pixels of the ``segments`` that ``keep`` marks, in one block."""
    return np.concatenate([seg for seg, k in zip(segments, keep, strict=True) if k])


def _lightness(lab: np.ndarray) -> np.ndarray:
    """L* + 16 of an OpenCV 8-bit-scaled Lab image (a* and b* of one surface scale with it)."""
    out: np.ndarray = lab[..., 0] * (100.0 / 255.0) + 16.0
    return out


def _at_table_light(lab: np.ndarray, table_light: float) -> np.ndarray:
    """``lab`` with a and b rescaled to the lightness ``table_light`` (L* + 16): the
    chromaticity a surface would show in the table's light (rescaled at most 2.5 times
    up or 2 times down)."""
    scale = np.clip(table_light / np.maximum(_lightness(lab), 1.0), 0.5, 2.5)
    out = lab.copy()
    out[:, :, 1] = 128.0 + (lab[:, :, 1] - 128.0) * scale
    out[:, :, 2] = 128.0 + (lab[:, :, 2] - 128.0) * scale
    return out


def table_model(border: np.ndarray, floor: float) -> tuple[np.ndarray, np.ndarray]:
    """The table's colour as a Gaussian fitted to the border pixels (rows of weighted Lab):
    its median and a whitening matrix ``W`` with ``|W d|`` the Mahalanobis distance of
    ``d`` in units of ``floor``. The covariance is taken over the 90 % of pixels nearest
    the median (tiles touching the border are not table) and gets ``floor`` squared on its
    diagonal, so a smooth cloth gives plain Lab distances while wood grain, a weave or a
    light gradient only stretches the table along the colours it really shows.
    """
    data = border.astype(np.float64)
    median = np.median(data, axis=0)
    off = np.sqrt(((data - median) ** 2).sum(axis=1))
    core = data[off <= np.percentile(off, 90)]
    cov = np.cov(core.T) if len(core) > 3 else np.zeros((3, 3))
    cov = cov + np.eye(3) * floor * floor
    chol = np.linalg.cholesky(cov)
    whiten = floor * np.linalg.inv(chol)
    return median, whiten


def background_distance(image: np.ndarray, config: ScanConfig
                        ) -> tuple[np.ndarray, float, np.ndarray]:
    """Per-pixel weighted Lab distance to the table colour, the foreground threshold and
    which border segments the table was modelled from (``table_segments``).

    When the table's own light varies strongly (its border's L* + 16 spans more than
    ``background.shading_spread`` from the 10th to the 90th percentile: a lamp to one side),
    a and b are compared at the table's lightness, so the table's shading leaves its
    colour, and the threshold, where they are.
    """
    lab = lab_of(image).astype(np.float32)
    border_light = _lightness(_border(lab, config))
    low, high = np.percentile(border_light, [10, 90])
    if high > config.background.shading_spread * max(float(low), 1.0):
        lab = _at_table_light(lab, float(np.median(border_light)))
    bg = config.background
    # Colour differences shrink with the light: a dim table's floors shrink with it.
    # (``_at_table_light`` leaves lightness as it is.)
    dim = float(np.clip(np.median(border_light) / bg.bright_table_light, bg.dim_scale_min, 1.0))
    weights = np.array([bg.lightness_weight, 1.0, 1.0], np.float32)
    segments = _border_segments(lab, config)  # cut once, for the choice and the model
    keep = _table_segments(segments, config, weights, bg.distance_min * dim)
    border = _kept(segments, keep)
    model, whiten = table_model(border * weights, bg.table_noise_floor * dim)
    affine = np.hstack([whiten @ np.diag(weights), -(whiten @ model)[:, None]])
    scaled = cv2.transform(lab, affine.astype(np.float32))
    dist = cv2.sqrt(cv2.transform(scaled * scaled, np.ones((1, 3), np.float32)))
    bscaled = (border * weights - model) @ whiten.T
    bdist = np.sqrt((bscaled ** 2).sum(axis=1))
    # Most of the border is table; tiles touching it only raise the upper percentiles.
    threshold = max(bg.distance_min * dim, bg.distance_factor * float(np.percentile(bdist, 90)))
    return dist, threshold, keep


def foreground_mask(image: np.ndarray, config: ScanConfig, fill: bool = True) -> np.ndarray:
    """Mask of tile pixels (255) against the table (0), specks removed; holes filled
    unless ``fill`` is false (an assembled map's empty cells are real holes)."""
    mask = foreground_and_table(image, config)[0]
    return fill_holes(mask) if fill else mask


def _half_size(image: np.ndarray) -> np.ndarray:
    """``image`` at half its width and height (area-averaged), for judgements made on
    regions wider than a few pixels."""
    h, w = image.shape[:2]
    out: np.ndarray = cv2.resize(image, (max(1, w // 2), max(1, h // 2)),
                                 interpolation=cv2.INTER_AREA)
    return out


def table_in_shadow(image: np.ndarray, config: ScanConfig) -> np.ndarray:
    """Boolean mask of table under a cast shadow.

    Light blocked by a hand or a phone scales the table's colour down: the lightness
    drops, the chromaticity stays (Lab a* and b* shrink with L* + 16), and the cloth or
    wood stays as smooth as elsewhere. Tile art differs in chromaticity (meadow, fields)
    or in texture (cobbles, rails, the tiles' rims). Judged at half resolution (a
    shadow's edge is soft).
    """
    return _judged_at_half_size(_table_in_shadow, image, config)


def _table_in_shadow(image: np.ndarray, config: ScanConfig) -> np.ndarray:
    lab = cv2.cvtColor(image, cv2.COLOR_BGR2Lab).astype(np.float32)
    light = _lightness(lab)
    model = np.median(_border(lab, config), axis=0)
    model_light = float(_lightness(model))
    # The rescaling's limits never bind where ``darker`` below holds.
    seen = _at_table_light(lab, model_light)
    chroma_off = cv2.magnitude(seen[:, :, 1] - float(model[1]), seen[:, :, 2] - float(model[2]))
    k = max(3, int(round(min(image.shape[:2]) * config.background.shadow_texture_frac)) | 1)
    grey = lab[:, :, 0]
    mean = cv2.blur(grey, (k, k))
    spread = cv2.sqrt(np.maximum(cv2.blur(grey * grey, (k, k)) - mean * mean, 0.0))
    bg = config.background
    smooth = max(bg.shadow_spread_min,
                 bg.distance_factor * float(np.percentile(_border(spread, config), 90)))
    darker = (light < model_light * 0.97) & (light > model_light * bg.shadow_depth_max)
    out: np.ndarray = darker & (chroma_off < bg.shadow_chroma_max) & (spread < smooth)
    return out


def table_in_glare(image: np.ndarray, config: ScanConfig) -> np.ndarray:
    """Boolean mask of table in a pool of brighter light or under glare.

    Light reflected off the table's surface adds the light's own colour, white after
    the camera's white balance, to the table's (the dichromatic model): the table in any
    light and glare lies in the plane of colours spanned by its colour and white. There
    it is table when it is brighter than the border (``background.glare_light_min``) or
    white makes a share of it (``glare_share_min``), and as smooth as the border. Tile
    art has colours of its own, off that plane, or texture. A table near grey spans no
    plane: its light and glare are the greys brighter than it. Judged at half
    resolution (glare's edge is soft).
    """
    return _judged_at_half_size(_table_in_glare, image, config)


def _judged_at_half_size(judge: Callable[[np.ndarray, ScanConfig], np.ndarray],
                         image: np.ndarray, config: ScanConfig) -> np.ndarray:
    """The boolean mask ``judge`` makes of ``image`` at half size, at full size again."""
    h, w = image.shape[:2]
    small = judge(_half_size(image), config).astype(np.uint8)
    out: np.ndarray = cv2.resize(small, (w, h), interpolation=cv2.INTER_NEAREST) > 0
    return out


def _table_in_glare(image: np.ndarray, config: ScanConfig) -> np.ndarray:
    bg = config.background
    bgr = image.astype(np.float32)
    border = _border(bgr, config)
    table = np.median(border, axis=0)
    white = np.full(3, 255.0, np.float32)
    cos = float(table @ white) / max(float(np.linalg.norm(table) * np.linalg.norm(white)), 1e-6)
    greyish = np.degrees(np.arccos(min(cos, 1.0))) < bg.glare_table_angle_min
    basis = (white[:, None] if greyish else np.stack([table, white], axis=1)).astype(np.float32)
    unmix = np.linalg.pinv(basis).astype(np.float32)  # colour -> its (table and) white parts
    parts = cv2.transform(bgr, unmix).reshape(*bgr.shape[:2], basis.shape[1])
    off = np.linalg.norm(bgr - cv2.transform(parts, basis).reshape(bgr.shape), axis=2)
    border_off = np.linalg.norm(border - (border @ unmix.T) @ basis.T, axis=1)
    near = max(bg.glare_off_min, bg.distance_factor * float(np.percentile(border_off, 90)))
    bright = np.linalg.norm(bgr, axis=2)
    lit = bright >= bg.glare_light_min * float(np.linalg.norm(table))
    if not greyish:
        shine = parts[:, :, 1] * float(np.linalg.norm(white))
        lit = (parts[:, :, 0] > -0.1) & (lit | (shine >= bg.glare_share_min * bright))
    # Glare rises too steeply for the shadow's spread: smooth is what differs little from
    # the lightness blurred.
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    k = max(3, int(round(min(image.shape[:2]) * bg.shadow_texture_frac)) | 1)
    rough = cv2.blur(np.abs(grey - cv2.GaussianBlur(grey, (0, 0), k / 2)), (k, k))
    smooth = max(bg.glare_rough_min,
                 bg.distance_factor * float(np.percentile(_border(rough, config), 90)))
    out: np.ndarray = lit & (off < near) & (rough < smooth)
    return out


def foreground_and_table(image: np.ndarray, config: ScanConfig
                         ) -> tuple[np.ndarray, np.ndarray]:
    """``foreground_mask`` with holes left open and, per pixel, whether the table model
    takes it for table (boolean) before specks are removed and gaps closed: the table a
    hole in a map shows, which the closing may bridge."""
    # The table's shadows and checks are judged in threads while the distance is measured
    # (OpenCV and large numpy arrays release the GIL).
    shadow = (Background(partial(table_in_shadow, image, config), "table-shadow")
              if config.background.shadow_as_table else None)
    checks = (Background(partial(table_checks, image, config), "table-checks")
              if config.background.checks_as_table else None)
    glare = (Background(partial(table_in_glare, image, config), "table-glare")
             if config.background.glare_as_table else None)
    dist, threshold, keep = background_distance(image, config)
    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
    sat = hsv[:, :, 1]
    border_sat = _table_border(sat, config, keep).ravel()
    # A saturated table (wood, a coloured mat) must not count as tile art.
    sat_thr = max(config.background.tile_saturation_min, float(np.percentile(border_sat, 90)) + 40)
    far = dist > threshold
    if shadow is not None:
        far &= ~shadow.result()
    if glare is not None:
        far &= ~glare.result()
    mask = far | (sat > sat_thr)
    mask_u8 = tidied(mask.astype(np.uint8) * 255)
    table = ~mask
    if checks is not None:
        seen = checks.result()
        mask_u8[seen] = 0
        table |= seen
    return mask_u8, table


def tidied(mask: np.ndarray) -> np.ndarray:
    """A foreground ``mask`` (uint8, 255 foreground) opened once and closed twice by a disc
    a 300th of its short side: specks and hairline gaps removed."""
    k = max(3, int(round(min(mask.shape[:2]) / 300)) | 1)
    kernel = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k))
    out: np.ndarray = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
    out = cv2.morphologyEx(out, cv2.MORPH_CLOSE, kernel, iterations=2)
    return out


def table_checks(image: np.ndarray, config: ScanConfig) -> np.ndarray:
    """Boolean mask of checked cloth: the pixels whose window
    (``background.checks_window_frac``) has gradients running two ways at right angles
    and not one way.

    Two ways at right angles: the gradient-weighted mean of the angles' fourfold
    phasors is long (``checks_crossing_min``; a check's four sides agree). Not one way:
    the doubled-angle structure tensor is near isotropic (``checks_coherence_max``; a
    grain field's stripes, a track's rails or wood grain run one way, and one way is
    also long in the fourfold phasor). Tile art and a score pad's ruled lines are
    neither; the corner of a card or a lid is, over a window or two, so only checks
    spreading over ``checks_min_area_frac`` of the image count. Looked for at half
    resolution first (a quarter of the work): a photo without such checks there, most
    photos, is not judged at full resolution. Checks larger than the window, faint in
    the sensor's noise, are looked for with a second, larger window
    (``checks_large_window_frac``) at a quarter of the resolution, where the noise is
    averaged away.
    """
    h, w = image.shape[:2]
    bg = config.background
    small = _half_size(image)
    out = np.zeros((h, w), bool)
    if bg.checks_large_window_frac > 0:
        large = _table_checks(_half_size(small), config, bg.checks_large_window_frac)
        if large.any():
            out = cv2.resize(large.astype(np.uint8), (w, h),
                             interpolation=cv2.INTER_NEAREST) > 0
    if _table_checks(small, config, bg.checks_window_frac).any():
        out |= _table_checks(image, config, bg.checks_window_frac)
    return out


def _table_checks(image: np.ndarray, config: ScanConfig, window_frac: float) -> np.ndarray:
    bg = config.background
    k = max(5, int(round(min(image.shape[:2]) * window_frac)) | 1)
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    gx = cv2.Sobel(grey, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(grey, cv2.CV_32F, 0, 1, ksize=3)
    xx, yy, xy = gx * gx, gy * gy, gx * gy
    power = xx + yy
    weight = np.sqrt(power)
    cube = np.maximum(power * weight, 1e-6)
    # |g| cos(4 theta) and |g| sin(4 theta), written without the angle.
    cos4 = (xx * xx - 6.0 * xx * yy + yy * yy) / cube
    sin4 = 4.0 * xy * (xx - yy) / cube

    def pooled(values: np.ndarray) -> np.ndarray:
        out: np.ndarray = cv2.boxFilter(values, -1, (k, k))
        return out

    crossing = cv2.magnitude(pooled(cos4), pooled(sin4)) / np.maximum(pooled(weight), 1e-6)
    coherence = (cv2.magnitude(pooled(xx - yy), pooled(2.0 * xy))
                 / np.maximum(pooled(power), 1e-6))
    checks = ((crossing > bg.checks_crossing_min)
              & (coherence < bg.checks_coherence_max)).astype(np.uint8)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(checks, connectivity=8)
    wide = stats[:, cv2.CC_STAT_AREA] >= bg.checks_min_area_frac * checks.size
    wide[0] = False
    out: np.ndarray = wide[labels]
    return out


def fill_holes(mask: np.ndarray) -> np.ndarray:
    """Fill enclosed holes of a binary mask (returns a new array)."""
    h, w = mask.shape
    padded = np.zeros((h + 2, w + 2), np.uint8)
    padded[1:-1, 1:-1] = mask
    flood = padded.copy()
    ff_mask = np.zeros((h + 4, w + 4), np.uint8)
    cv2.floodFill(flood, ff_mask, (0, 0), 255)
    holes = cv2.bitwise_not(flood)[1:-1, 1:-1]
    return cv2.bitwise_or(mask, holes)


def border_pixels(image: np.ndarray, config: ScanConfig) -> np.ndarray:
    """The BGR pixels (N x 3) of the image border strip: mostly table."""
    return _border(image, config)


def _colour_index(bgr: np.ndarray, bins: int) -> np.ndarray:
    """Each BGR pixel's Lab histogram bin (``bins`` per channel)."""
    lab = cv2.cvtColor(np.ascontiguousarray(bgr, np.uint8).reshape(-1, 1, 3),
                       cv2.COLOR_BGR2Lab).reshape(-1, 3).astype(np.int64)
    q = lab * bins // 256
    out: np.ndarray = (q[:, 0] * bins + q[:, 1]) * bins + q[:, 2]
    return out


def _density(bgr: np.ndarray, bins: int) -> np.ndarray:
    """The Lab histogram of BGR pixels, add-half smoothed, summing to 1."""
    counts = np.bincount(_colour_index(bgr, bins), minlength=bins ** 3).astype(np.float64)
    counts += 0.5
    out: np.ndarray = counts / counts.sum()
    return out


_TABLE_DENSITIES: dict[tuple[int, int, float], tuple[weakref.ref[np.ndarray], np.ndarray]] = {}
"""``ColourOdds.of_photo``'s table log densities by image (checked to be the same image
still alive: an id may be reused once the image is freed)."""


class ColourOdds:
    """Whether pixels look more like this photo's tiles or its table, by colour alone.

    Two colour histograms (Lab, ``bins`` per channel, add-half smoothing) built from
    this photo's own samples: the table (``border_pixels``) and the tiles (cells the
    silhouette found). ``mean_log_odds`` is the average over some pixels of
    log p(colour | tile) - log p(colour | table): positive when they look like tile
    art. Learned per photo, so wood in dim light, a green mat or a grey cloth is
    judged against the tiles lying on it, not against fixed colours.
    """

    def __init__(self, tile_bgr: np.ndarray, table_bgr: np.ndarray | None, bins: int = 12,
                 table_log_density: np.ndarray | None = None) -> None:
        """``table_log_density``: ``np.log`` of the table's density when already known
        (``of_photo``), else measured on ``table_bgr``."""
        self.bins = bins
        if table_log_density is None:
            assert table_bgr is not None
            table_log_density = np.log(_density(table_bgr, bins))
        self._log_ratio = np.log(_density(tile_bgr, bins)) - table_log_density

    @classmethod
    def of_photo(cls, tile_bgr: np.ndarray, image: np.ndarray, config: ScanConfig,
                 bins: int = 12) -> ColourOdds:
        """Odds against the table of ``image`` (its ``border_pixels``), whose density is
        measured once per image (a scan asks for it several times)."""
        key = (id(image), bins, config.background.border_frac)
        kept = _TABLE_DENSITIES.get(key)
        if kept is not None and kept[0]() is image:
            table = kept[1]
        else:
            table = np.log(_density(border_pixels(image, config), bins))
            if len(_TABLE_DENSITIES) >= 8:
                _TABLE_DENSITIES.clear()
            _TABLE_DENSITIES[key] = (weakref.ref(image), table)
        return cls(tile_bgr, None, bins, table)

    def mean_log_odds(self, bgr: np.ndarray) -> float:
        if bgr.size == 0:
            return 0.0
        return float(self._log_ratio[_colour_index(bgr, self.bins)].mean())

"""Debug drawings of a scan, written only on request (``--debug DIR``).

Representation: ``draw_scan`` returns a new BGR image (the working-resolution photo
with the foreground dimmed outside the tiles, each tile's hexagon, its position and
code, low-confidence edges in red and mismatched edges in magenta); ``write_debug``
saves it and a contact sheet of the rectified tiles as PNG files in a folder.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import cv2
import numpy as np


def draw_tiles(image: np.ndarray, corners: list[np.ndarray], labels: list[str],
               confidences: list[tuple[float, ...]], mismatches: Sequence[Sequence[int]],
               mask: np.ndarray | None = None) -> np.ndarray:
    """Annotated copy of ``image`` (never modifies the input)."""
    out = image.copy()
    if mask is not None:
        out[mask == 0] = (out[mask == 0] * 0.4).astype(np.uint8)
    for pts, label, conf, bad in zip(corners, labels, confidences, mismatches, strict=True):
        poly = np.round(pts).astype(np.int32)
        cv2.polylines(out, [poly], True, (255, 255, 255), 1, cv2.LINE_AA)
        for e in range(6):
            a = poly[(e + 4) % 6]
            b = poly[(e + 5) % 6]
            colour = None
            if e in bad:
                colour = (255, 0, 255)
            elif conf[e] < 0.8:
                colour = (0, 0, 255)
            if colour is not None:
                cv2.line(out, tuple(int(v) for v in a), tuple(int(v) for v in b), colour, 3)
        cx, cy = pts.mean(axis=0)
        for i, text in enumerate(label.split("\n")):
            org = (int(cx) - 30, int(cy) - 4 + 14 * i)
            cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.4, (0, 0, 0), 3)
            cv2.putText(out, text, org, cv2.FONT_HERSHEY_SIMPLEX, 0.4, (255, 255, 255), 1)
    return out


def contact_sheet(tiles: list[np.ndarray], labels: list[str], per_row: int = 8) -> np.ndarray:
    """The rectified tiles side by side, each with its label."""
    if not tiles:
        return np.zeros((10, 10, 3), np.uint8)
    h, w = tiles[0].shape[:2]
    rows = []
    for i in range(0, len(tiles), per_row):
        row = []
        for j in range(per_row):
            cell = np.zeros((h + 14, w, 3), np.uint8)
            if i + j < len(tiles):
                cell[14:] = tiles[i + j]
                cv2.putText(cell, labels[i + j], (2, 11), cv2.FONT_HERSHEY_SIMPLEX, 0.35,
                            (255, 255, 255), 1)
            row.append(cell)
        rows.append(np.hstack(row))
    return np.vstack(rows)


def write_debug(folder: str | Path, images: dict[str, np.ndarray]) -> list[Path]:
    """Write each image as ``folder/NAME.png``; return the paths."""
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    written = []
    for name, img in images.items():
        target = path / f"{name}.png"
        if not cv2.imwrite(str(target), img):
            raise OSError(f"could not write {target}")
        written.append(target)
    return written

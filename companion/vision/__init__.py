"""Photo scanner: a photo of the table becomes a record in the Dorf notation.

``scan(image, config=None) -> Scan`` accepts a path, encoded bytes or a BGR numpy
array; see ``scan.py`` for the stages and ``config.py`` for every threshold.
Failures raise ``ScanError`` (a ``ValueError``) with a one-line reason.
"""

from __future__ import annotations

from companion.vision.config import DEFAULT_CONFIG, ScanConfig
from companion.vision.errors import ScanError
from companion.vision.scan import Scan, ScannedTile, scan

__all__ = ["scan", "Scan", "ScannedTile", "ScanConfig", "ScanError", "DEFAULT_CONFIG"]

"""A standardised logistic model kept as JSON: the form of the scanner's small learned
judgements (``doubt.Calibrator``: is an edge wrong; ``cell_art.CellModel``: does a cell
hold a tile).

Representation: ``features`` names the input columns, ``mean`` and ``scale`` standardise
them, ``weights`` and ``bias`` give the log-odds, ``threshold`` is the probability at
which the judgement turns, ``meta`` records how the model was fitted. A file names its
columns, so one fitted on other columns is refused rather than misread.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

import numpy as np


@dataclass(frozen=True)
class LogisticModel:
    features: tuple[str, ...]
    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float
    threshold: float
    meta: dict[str, Any]

    def probability_of(self, columns: np.ndarray) -> np.ndarray:
        """The probability of each row of input ``columns`` (n x len(features))."""
        z = ((np.atleast_2d(columns) - self.mean) / self.scale) @ self.weights + self.bias
        return 1.0 / (1.0 + np.exp(-np.clip(z, -50.0, 50.0)))

    def to_json(self) -> dict[str, Any]:
        def rounded(v: np.ndarray) -> list[float]:
            return [round(float(x), 6) for x in v]

        return {"features": list(self.features), "mean": rounded(self.mean),
                "scale": rounded(self.scale), "weights": rounded(self.weights),
                "bias": round(self.bias, 6), "threshold": round(self.threshold, 6),
                "meta": self.meta}

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n", "utf-8")

    @classmethod
    def read(cls, data: dict[str, Any], columns: tuple[str, ...], refusal: str) -> Self:
        """The model in ``data``, which must be fitted on ``columns`` (else ValueError
        with ``refusal``)."""
        if tuple(data["features"]) != columns:
            raise ValueError(refusal)
        return cls(columns, np.asarray(data["mean"], np.float64),
                   np.asarray(data["scale"], np.float64),
                   np.asarray(data["weights"], np.float64), float(data["bias"]),
                   float(data["threshold"]), dict(data.get("meta", {})))

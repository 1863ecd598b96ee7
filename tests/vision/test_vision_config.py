"""ScanConfig: one frozen sub-config per stage, every setting reachable by name."""

from __future__ import annotations

import dataclasses

import pytest

from companion.vision.config import DEFAULT_CONFIG, ScanConfig


def test_each_setting_lives_in_exactly_one_stage() -> None:
    names = [f.name for stage in dataclasses.fields(ScanConfig)
             for f in dataclasses.fields(getattr(DEFAULT_CONFIG, stage.name))]
    assert len(names) == len(set(names))


def test_tuned_changes_the_setting_in_its_stage_and_nothing_else() -> None:
    tuned = DEFAULT_CONFIG.tuned(time_limit_s=1.5, radius=80)
    assert tuned.io.time_limit_s == 1.5
    assert tuned.rectify.radius == 80
    assert tuned.lattice == DEFAULT_CONFIG.lattice
    assert DEFAULT_CONFIG.io.time_limit_s != 1.5  # the default is untouched


def test_an_unknown_setting_is_refused_by_name() -> None:
    with pytest.raises(TypeError, match="rectified_radius"):
        DEFAULT_CONFIG.tuned(rectified_radius=80)

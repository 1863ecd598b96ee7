"""Held-out evaluation photos read by the scanner in tests.

Representation: ``held_out_case(first, skip)`` is photo ``first + skip`` (its case);
``read_held_out(first, skip, **off)`` renders photo ``first + skip`` of
the evaluation's ``--set rendered --real-table --count 30 --seed first`` (``--set
composite`` with ``composite=True``; a larger ``--count`` where ``skip`` is 30 or more:
each photo is drawn alone from its seed, so the first 30 are the same) and returns the
``Tally`` of the scan as it is, that of the scan with the settings ``off`` (the
counterfactual), and the photo's tile count. A refused scan tallies as an error with
every tile missed (``evaluate.run_case``). ``loose_case(seed, count, clutter, **light)``
is loose composite ``seed`` of ``count`` real crops under the real-table conditions
(``--set loose-composite --real-table``) and its parameters.
"""

from __future__ import annotations

from companion.vision.config import DEFAULT_CONFIG
from companion.vision.scan import scan
from companion.vision.synth import composite as composite_module
from companion.vision.synth.evaluate import (
    Case,
    Tally,
    _encode,
    composite_cases,
    rendered_cases,
    run_case,
    truth_of_rendered,
)


def held_out_case(first: int, skip: int, composite: bool = False) -> Case:
    cases = composite_cases if composite else rendered_cases
    return next(cases(max(30, skip + 1), first, (4000, 3000), real_table=True, skip=skip))


def read_held_out(first: int, skip: int, composite: bool = False, **off: object
                  ) -> tuple[Tally, Tally, int]:
    case = held_out_case(first, skip, composite)
    slow = DEFAULT_CONFIG.tuned(time_limit_s=120.0)
    changed = slow.tuned(**off)
    return (run_case(case, lambda photo: scan(photo, slow)),
            run_case(case, lambda photo: scan(photo, changed)), len(case.truth))


def loose_case(seed: int, count: int, clutter: bool = False, **light: float
               ) -> tuple[Case, dict[str, object]]:
    r = composite_module.loose_composite_record(
        seed=seed, count=count, size_px=(4000, 3000), jpeg_quality=None, real_table=True,
        clutter=clutter, **light)
    case = Case(f"loose-composite-{seed}", _encode(r.image, 90), truth_of_rendered(r.tiles),
                "loose")
    return case, r.params

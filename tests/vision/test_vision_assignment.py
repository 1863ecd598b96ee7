"""The least-cost assignment (``vision.assignment``): optimal against every permutation
of small matrices, equal in cost to SciPy's on larger ones, each row and column used
once, and refusing what it cannot solve."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from companion.vision.assignment import least_cost_assignment


def _brute_force(cost: np.ndarray) -> float:
    n, m = cost.shape
    if n > m:
        return _brute_force(cost.T)
    return min((sum(cost[i, j] for i, j in enumerate(cols))
                for cols in itertools.permutations(range(m), n)), default=0.0)


_costs = st.tuples(st.integers(0, 5), st.integers(0, 6)).flatmap(
    lambda shape: arrays(np.float64, shape,
                         elements=st.one_of(st.integers(-3, 3).map(float),
                                            st.floats(-100, 100), st.just(1e6))))


@settings(max_examples=300, deadline=None)
@given(_costs)
def test_the_assignment_is_a_cheapest_matching(cost: np.ndarray) -> None:
    rows, cols = least_cost_assignment(cost)
    n, m = cost.shape
    assert len(rows) == len(cols) == min(n, m)
    assert list(rows) == sorted(set(rows.tolist())) and len(set(cols.tolist())) == len(cols)
    assert float(cost[rows, cols].sum()) == pytest.approx(_brute_force(cost), abs=1e-6)


def test_it_costs_what_scipy_finds_on_a_map_sized_problem() -> None:
    """Forty photo tiles against a hundred catalogue tiles and forty off-catalogue
    columns, as ``inventory.assign`` poses it (SciPy only as the reference)."""
    from scipy.optimize import linear_sum_assignment

    rng = np.random.default_rng(5)
    for _ in range(20):
        cost = rng.gamma(2.0, 3.0, (40, 140))
        cost[:, 100:] = np.where(np.eye(40, dtype=bool), 25.0, 1e6)
        cost[rng.random(cost.shape) < 0.05] = 1e6
        rows, cols = least_cost_assignment(cost)
        ref_rows, ref_cols = linear_sum_assignment(cost)
        assert list(rows) == list(range(40))
        assert cost[rows, cols].sum() == pytest.approx(cost[ref_rows, ref_cols].sum())


def test_what_cannot_be_solved_is_refused() -> None:
    with pytest.raises(ValueError, match="two-dimensional"):
        least_cost_assignment(np.zeros(3))
    with pytest.raises(ValueError, match="finite"):
        least_cost_assignment(np.array([[0.0, np.inf]]))
    rows, cols = least_cost_assignment(np.zeros((0, 4)))
    assert rows.size == cols.size == 0

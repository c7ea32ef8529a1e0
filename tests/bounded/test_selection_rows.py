"""Order-free reductions over a masked selection never compact: ``x[m].sum()`` reduces
``x`` under ``m`` (``BoundedArray._rows``).  Values match NumPy; the programs prove the
compaction is absent (no routine, no extern call) and that sum/mean/var share passes."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazynum as lnp
from lazynum.backends.llvm.program import ExternStep, RoutineStep

from .. import strategies as S
from ..compile.llvm_harness import on_llvm
from ..strategies import assert_same

pytestmark = pytest.mark.filterwarnings("ignore:Mean of empty slice", "ignore:Degrees of freedom",
                                        "ignore:invalid value encountered")

vectors = S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=1, max_dims=1, min_side=0, max_side=9),
                   small=True)
matrices = S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=2, max_dims=2, min_side=1, max_side=5),
                    small=True)


def _no_compaction(program):
    return not any(isinstance(s, (RoutineStep, ExternStep)) for s in program.steps)


def _stats(x, t):
    y = x[x > t]
    return y.sum(), y.mean(), y.var()


def test_masked_statistics_are_one_kernel_of_two_passes_and_never_compact():
    x = np.random.default_rng(1).standard_normal(5000)
    with on_llvm() as programs:
        results = _stats(lnp.asarray(x), 0.25)
        lnp.sync(*results)
    (program,) = programs
    assert _no_compaction(program)
    # count and sum share the first pass (the mean's sum and count are the sum's and the
    # size's nodes: literals CSE); the variance's pass needs the mean: one kernel, 2 passes.
    assert program.kernel_count == 1
    assert [sum(1 for p in k.phases if p.reductions) for k in program.kernels_ir] == [2]
    expected = _stats(x, 0.25)
    for got, want in zip(results, expected):
        assert float(got) == pytest.approx(want, rel=1e-12)


@given(vectors, st.floats(-1e3, 1e3), st.floats(-1e3, 1e3))
def test_a_mask_of_a_mask_reduces_the_source_under_both_masks(x, t, u):
    a = lnp.asarray(x)
    y = a[a > t]
    z = y[y < u]
    expected = x[x > t]
    expected = expected[expected < u]
    assert_same(z.sum(), expected.sum(), rtol=1e-12, atol=1e-12)
    assert_same(z, expected)
    assert int(len(z)) == len(expected)


@given(vectors, st.floats(-1e3, 1e3))
def test_updating_the_selected_elements_in_place(x, t):
    expected = x.copy()
    expected[x > t] = x[x > t] * 2 + 1
    a = lnp.asarray(x)
    with on_llvm() as programs:
        m = a > t
        a[m] = a[m] * 2 + 1
        got = np.asarray(a)
    np.testing.assert_array_equal(got, expected)
    assert _no_compaction(programs[-1])       # one mask node: the rows are already in place
    b = lnp.asarray(x)
    b[b > t] = b[b > t] * 2 + 1                  # two masks (scalars are separate parameters)
    np.testing.assert_array_equal(np.asarray(b), expected)


@given(vectors, st.floats(-1e3, 1e3), st.floats(-1e3, 1e3))
def test_writes_into_a_selection_drop_its_source_rows(x, t, s):
    a = lnp.asarray(x)
    y = a[a > t]
    y[y > s] = 0.0
    y += 1.0
    expected = x[x > t]
    expected[expected > s] = 0.0
    expected += 1.0
    assert_same(y.sum(), expected.sum(), rtol=1e-12, atol=1e-12)
    assert_same(y.max() if len(expected) else 0.0, expected.max() if len(expected) else 0.0)


def test_an_operand_that_varies_along_the_selection_is_not_moved_to_the_source():
    x = np.arange(10.0)
    a = lnp.asarray(x)
    y = a[a > 5.5]                               # 4 elements, bound 10
    z = lnp.asarray(np.array([1.0, 10.0, 100.0, 1000.0]))
    assert_same((y * z).sum(), (x[x > 5.5] * np.array([1.0, 10.0, 100.0, 1000.0])).sum())


@given(matrices, st.floats(-1e3, 1e3), st.sampled_from(["sum", "mean", "max", "var"]),
       st.sampled_from([0, 1, None]))
def test_row_selections_reduce_along_and_across_the_rows(x, t, name, axis):
    a = lnp.asarray(x)
    keep = x[:, 0] > t
    selected = x[keep]
    y = a[lnp.asarray(keep)]
    try:
        expected = getattr(selected, name)(axis=axis)
    except ValueError:
        with pytest.raises(ValueError):
            np.asarray(getattr(y, name)(axis=axis))
        return
    with np.errstate(all="ignore"):
        assert_same(getattr(y, name)(axis=axis), expected, rtol=1e-12, atol=1e-12)
        # a reduction across the rows keeps them selectable: its sum is the source's too
        assert_same((y * 2).sum(axis=1).sum(), (selected * 2).sum(axis=1).sum(), rtol=1e-12,
                    atol=1e-12)


def test_nonzero_positions_reduce_without_compaction():
    x = np.array([0.0, 3.0, 0.0, 4.0, 5.0, 0.0])
    with on_llvm() as programs:
        # (no name holds the positions: a live pending array is computed with the sync)
        total = (lnp.nonzero(lnp.asarray(x))[0] * 10).sum().item()
    assert total == 10 * (1 + 3 + 4)
    assert _no_compaction(programs[-1])


@given(S.selection_programs())
def test_random_chains_on_a_selection_match_numpy(program):
    data, threshold, steps, name, axis = program
    with np.errstate(all="ignore"):
        expected_y = S.apply_selection_program(np, data, threshold, steps)
    y = S.apply_selection_program(lnp, lnp.asarray(data), threshold, steps)
    rtol = 1e-4 if expected_y.dtype == np.float32 else 1e-9

    def reduce_lazy():
        return getattr(y, name)(axis=axis)

    def reduce_numpy():
        return getattr(expected_y, name)(axis=axis)
    with np.errstate(all="ignore"):
        got, expected = S.same_error(reduce_lazy, reduce_numpy)
        if expected is not None:
            assert_same(got, expected, rtol=rtol, atol=rtol)
    assert_same(y, expected_y, rtol=rtol, atol=rtol)

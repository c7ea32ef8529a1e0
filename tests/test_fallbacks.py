"""The long tail of NumPy: lazy where lazynum has it, counted NumPy fallbacks elsewhere."""
import numpy as np
import pytest
from hypothesis import given, strategies as st

import lazynum as lnp

from . import strategies as S


@given(S.lazy_views(S.arrays(S.float_dtypes, S.shapes(min_dims=1, max_dims=1, min_side=1), small=True)),
       st.sampled_from([None, 1, 2, np.inf, -np.inf, 0, 3, 0.5]))
def test_vector_norm_is_lazy_and_matches_numpy(pair, ord):
    a, x = pair
    lnp.reset_metrics()
    result = lnp.linalg.norm(x, ord)
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    S.assert_same(result, np.linalg.norm(a, ord), rtol=1e-5 if a.dtype == np.float32 else 1e-12)


@given(S.lazy_views(S.arrays(S.st.just(np.dtype(np.float64)), S.shapes(min_dims=2, max_dims=3, min_side=1),
                             small=True)),
       st.sampled_from([None, "fro", 1, -1, np.inf, -np.inf]), st.booleans())
def test_matrix_norm_is_lazy_and_matches_numpy(pair, ord, keepdims):
    a, x = pair
    axis = (a.ndim - 1, 0)
    lnp.reset_metrics()
    result = lnp.linalg.norm(x, ord, axis=axis, keepdims=keepdims)
    assert lnp.metrics()["fallbacks"] == 0
    S.assert_same(result, np.linalg.norm(a, ord, axis=axis, keepdims=keepdims))


def test_numpy_linalg_norm_dispatches_to_the_lazy_norm():
    x = lnp.asarray(np.arange(6.0)).reshape(2, 3) * 2
    result = np.linalg.norm(x)
    assert isinstance(result, lnp.ndarray) and lnp.metrics()["fallbacks"] == 0
    S.assert_same(result, np.linalg.norm(np.arange(6.0).reshape(2, 3) * 2))


def test_linalg_without_a_lazy_form_falls_back_and_is_counted():
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    x = lnp.asarray(a) * 1.0
    S.assert_same(lnp.linalg.norm(x, 2), np.linalg.norm(a, 2))      # lazy: an SVD in the program
    S.assert_same(lnp.linalg.inv(x), np.linalg.inv(a))                # lazy: LAPACK in the program
    assert lnp.metrics()["fallbacks"] == 0
    S.assert_same(lnp.linalg.eigvals(x), np.linalg.eigvals(a))
    S.assert_same(lnp.linalg.eig(x).eigenvalues, np.linalg.eig(a).eigenvalues)
    assert lnp.metrics()["fallbacks"] == 2
    # NumPy's named result type survives the fallback (a plain tuple lost .eigenvectors)
    assert type(lnp.linalg.eig(x)) is type(np.linalg.eig(a))
    report = lnp.metrics_report()
    assert "numpy.linalg.eigvals" in report and "test_fallbacks.py" in report


def test_top_level_numpy_functions_without_lazy_versions_fall_back():
    a = np.arange(10.0)
    x = lnp.asarray(a) * 1.0
    # roots: the result's dtype depends on the data; apply_along_axis calls Python per slice
    S.assert_same(lnp.roots(x[:3] + 1.0), np.roots(a[:3] + 1.0))
    S.assert_same(lnp.apply_along_axis(np.cumsum, 0, x), np.apply_along_axis(np.cumsum, 0, a))
    assert lnp.metrics()["fallbacks"] == 2


def test_unknown_names_are_attribute_errors():
    with pytest.raises(AttributeError):
        lnp.not_a_numpy_function
    with pytest.raises(AttributeError):
        lnp.linalg.not_a_function


def test_resolved_names_are_cached():
    assert lnp.random is lnp.random and lnp.fft is lnp.fft
    assert lnp.percentile is lnp.percentile and lnp.random.rand is lnp.random.rand
    assert "percentile" in vars(lnp) and "rand" in vars(lnp.random)
    assert lnp.shape is np.shape       # metadata-only NumPy functions are NumPy's own


# -- NumPy functions that write into their arguments ------------------------------------------
def _grid():
    x = np.arange(12.0).reshape(3, 4) - 4.0
    return x, lnp.asarray(x) * 1.0      # pending: the fallback syncs it


IN_PLACE = {
    "copyto": lambda m, a: m.copyto(a, 5.0),
    "copyto_where": lambda m, a: m.copyto(a, -a, where=a > 0),
    "copyto_row": lambda m, a: m.copyto(a[1], m.arange(4.0)),
    "putmask": lambda m, a: m.putmask(a, a > 2, -1.0),
    "fill_diagonal": lambda m, a: m.fill_diagonal(a, 9.0),
    "place": lambda m, a: m.place(a, a > 0, [10.0, 20.0]),
    "place_into_view": lambda m, a: m.place(a[:, ::2], a[:, ::2] < 0, [7.0]),
    "put": lambda m, a: m.put(a, [0, 5], [1.0, 2.0]),
}


@pytest.mark.parametrize("name", sorted(IN_PLACE))
@pytest.mark.parametrize("namespace", ["numpy", "lazynum"])
def test_numpy_writes_into_lazy_arguments_are_kept(name, namespace):
    x, a = _grid()
    row = a[1]                           # a view made before the write sees it
    expected = IN_PLACE[name](np, x)
    result = IN_PLACE[name](np if namespace == "numpy" else lnp, a)
    assert result is None and expected is None
    S.assert_same(a, x)
    S.assert_same(row, x[1])


def test_lazy_out_argument_of_a_fallback_is_written_and_returned():
    x, a = _grid()
    out, base = np.zeros(4), lnp.zeros((2, 4))
    expected = np.percentile(x, 50, axis=0, out=out)
    view = base[1]
    result = np.percentile(a, 50, axis=0, out=view)
    assert result is view and expected is out
    S.assert_same(view, out)
    S.assert_same(base, np.stack([np.zeros(4), out]))
    scalar_out = lnp.zeros(())
    assert np.percentile(a, 30, out=scalar_out) is scalar_out
    S.assert_same(scalar_out, np.percentile(x, 30, out=np.zeros(())))


def test_mixed_numpy_and_lazy_outs_of_a_ufunc_fallback():
    x = np.arange(6.0)
    quotient, remainder = np.zeros(6), lnp.zeros(6)
    result = np.divmod(lnp.asarray(x), 4.0, out=(quotient, remainder))
    assert result[0] is quotient and result[1] is remainder
    expected = np.divmod(x, 4.0)
    S.assert_same(quotient, expected[0])
    S.assert_same(remainder, expected[1])


def test_unchanged_arguments_are_not_rewritten_and_bits_count():
    x, a = _grid()
    source = lnp.asarray(x) * 2.0
    target = lnp.zeros((3, 4))
    np.copyto(target, source)
    source_node = source._n()
    np.copyto(target, source)            # same values: nothing is written back
    assert source._n() is source_node
    a_node = a._n()
    np.percentile(a, 50)
    assert a._n() is a_node
    zeros = lnp.zeros(3)
    np.copyto(zeros, -0.0)               # equal to 0.0, but a different value
    assert np.signbit(np.asarray(zeros)).all()


def test_writes_into_read_only_lazy_views_raise_like_numpy():
    x, a = _grid()
    view = lnp.broadcast_to(a[0], (2, 4))
    with pytest.raises(ValueError, match="read-only"):
        np.copyto(np.broadcast_to(x[0], (2, 4)), 1.0)
    with pytest.raises(ValueError, match="read-only"):
        np.copyto(view, 1.0)
    with pytest.raises(ValueError, match="read-only"):
        lnp.putmask(view, view > 0, 1.0)
    S.assert_same(a, x)


def test_copyto_of_a_window_onto_itself_is_a_no_op_as_in_numpy():
    # NumPy's copyto returns before its read-only check when source and destination are the
    # same window (data pointer, strides, dtype): a read-only broadcast of an array onto it.
    def calls(xp, base, bounded):
        return [lambda: xp.copyto(xp.broadcast_to(base, base.shape), base),
                lambda: xp.copyto(xp.broadcast_to(base[:0], (0, 4)), base[:0]),
                lambda: xp.copyto(xp.broadcast_to(bounded, bounded.shape), bounded),
                lambda: xp.copyto(xp.broadcast_to(base, base.shape), base * 1.0),
                lambda: xp.copyto(xp.broadcast_to(base[0], (3, 4)), base[0])]

    x, a = _grid()
    bounded = a[a > 100]                     # a BoundedArray, empty at run time
    for lazy_call, numpy_call in zip(calls(lnp, a, bounded), calls(np, x, x[x > 100])):
        S.same_error(lazy_call, numpy_call)
    S.assert_same(a, x)


def test_a_fallback_syncs_all_its_lazy_arguments_at_once():
    a = np.array([[2.0, 1.0], [1.0, 3.0]])
    x, y = lnp.asarray(a) * 2.0, lnp.asarray(a) > 1.5
    lnp.reset_metrics()
    pieces = [lambda v: v * 3, lambda v: -v]
    result = lnp.piecewise(x, [y], pieces)         # Python callbacks: NumPy's own
    assert lnp.metrics()["syncs"] == 1 and lnp.metrics()["fallbacks"] == 1
    S.assert_same(result, np.piecewise(a * 2.0, [a > 1.5], pieces))


# -- dtype and shape inquiries: no recursion, no sync -----------------------------------------
def test_dtype_and_shape_inquiries_on_lazy_arrays_never_sync():
    x = np.arange(6.0).reshape(2, 3)
    a = lnp.asarray(x) * 1.0
    i = lnp.arange(3) + 1
    lnp.reset_metrics()
    for casting in ("safe", "same_kind", "unsafe"):
        assert np.can_cast(a, np.float32, casting) == np.can_cast(x, np.float32, casting)
        assert lnp.can_cast(i, np.int8, casting) == np.can_cast(np.arange(3), np.int8, casting)
    assert np.can_cast(a, a.dtype) and lnp.can_cast(i, a.dtype)
    with pytest.raises(TypeError):        # as NumPy: ``to`` is a dtype, not an array
        np.can_cast(a, a)
    assert np.result_type(a, 1) == np.result_type(x, 1)
    assert np.result_type(i, np.float32) == lnp.result_type(i, np.float32) == np.float64
    assert np.min_scalar_type(i) == np.min_scalar_type(np.arange(3))
    assert np.shape(a) == lnp.shape(a) == (2, 3) and np.ndim(a) == lnp.ndim(a) == 2
    assert np.size(a) == 6 and np.size(a, 1) == 3 and lnp.size(a, axis=(0, 1)) == 6
    assert np.common_type(a, i) is np.common_type(x, np.arange(3))
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0
    with pytest.raises(TypeError):        # NumPy 2: no Python scalars
        lnp.can_cast(1, np.int8)
    scalar = lnp.asarray(300) + 0        # 0-d: value-based, a counted fallback
    assert np.min_scalar_type(scalar) == np.min_scalar_type(300)


# -- lazynum's own ufunc methods fall back like NumPy's -------------------------------------
UFUNC_METHODS = {
    "power.at": lambda m, a: m.power.at(a, [0, 0, 2], 2.0),
    "logical_and.at": lambda m, a: m.logical_and.at(a, ([0, 0], [1, 1]), [3.0, 0.0]),
    "bitwise_or.reduce": lambda m, a: m.bitwise_or.reduce(m.asarray(a, dtype=m.int64) + 3),
    "bitwise_xor.reduce": lambda m, a: m.bitwise_xor.reduce(
        m.asarray(a, dtype=m.int64), axis=None, keepdims=True, initial=5),
    "logaddexp.accumulate": lambda m, a: m.logaddexp.accumulate(a, axis=1),
    "add.reduceat": lambda m, a: m.add.reduceat(a, [0, 2], axis=1),
    "multiply.reduceat": lambda m, a: m.multiply.reduceat(a.ravel(), [0, 3, 3, 7]),
}


@pytest.mark.parametrize("name", sorted(UFUNC_METHODS))
def test_lazynum_ufunc_methods_fall_back_like_numpy_dispatch(name):
    x, a = _grid()
    expected = UFUNC_METHODS[name](np, x)
    lnp.reset_metrics()
    result = UFUNC_METHODS[name](lnp, a)
    assert lnp.metrics()["fallbacks"] == 1
    assert f"numpy.{name}" in lnp.metrics_report()
    if expected is None:
        assert result is None
    else:
        S.assert_same(result, expected)
    S.assert_same(a, x)
    _, b = _grid()
    through_numpy = UFUNC_METHODS[name](np, b)    # NumPy's dispatch: the same fallback
    if expected is not None:
        S.assert_same(through_numpy, expected)
    S.assert_same(b, x)


def test_lazynum_ufunc_methods_with_lazy_and_numpy_outs():
    x, a = _grid()
    out = lnp.zeros(4, dtype=np.int64)
    result = lnp.bitwise_or.reduce(a.astype(np.int64), axis=0, out=out)
    assert result is out
    S.assert_same(out, np.bitwise_or.reduce(x.astype(np.int64), axis=0))
    target = np.arange(4.0)
    assert lnp.multiply.at(target, [1, 1], lnp.asarray(3.0)) is None    # a NumPy target
    assert lnp.add.at(target, [0, 0], 1.0) is None
    expected = np.arange(4.0)
    np.multiply.at(expected, [1, 1], 3.0)
    np.add.at(expected, [0, 0], 1.0)
    S.assert_same(target, expected)
    S.assert_same(lnp.add.outer(a[0], a[:, 0]), np.add.outer(x[0], x[:, 0]))


# -- shares_memory / may_share_memory ----------------------------------------------------------
MEMORY_PAIRS = {
    "same": lambda b: (b, b),
    "shifted": lambda b: (b, b[1:]),
    "rows": lambda b: (b[0], b[1]),
    "row_and_column": lambda b: (b[:, 0], b[0, :]),
    "row_and_other_column": lambda b: (b[1:, 0], b[0, 1:]),
    "interleaved_columns": lambda b: (b[:, ::2], b[:, 1::2]),
    "interleaved_rows": lambda b: (b[::2], b[1::2]),
    "transpose": lambda b: (b.T, b),
    "reshaped": lambda b: (b.reshape(6, 4)[1:], b[3]),
    "reversed": lambda b: (b[::-1], b[:1]),
    "reversed_disjoint": lambda b: (b[::-1][:2], b[2:]),
    "empty": lambda b: (b[:0], b),
    "blocks": lambda b: (b[1:3, 1:3], b[2:, 2:]),
    "disjoint_blocks": lambda b: (b[:2, :3], b[2:, 3:]),
    "ravel_strided": lambda b: (b.ravel()[5::7], b[1:, :1]),
    "copy": lambda b: (b, b.copy()),
    "result": lambda b: (b, b + 0),
}


@pytest.mark.parametrize("name", sorted(MEMORY_PAIRS))
def test_shares_memory_matches_numpy_without_syncing(name):
    x = np.arange(24.0).reshape(4, 6)
    a = lnp.asarray(x) * 1.0
    p, q = MEMORY_PAIRS[name](x)
    lp, lq = MEMORY_PAIRS[name](a)
    lnp.reset_metrics()
    assert lnp.shares_memory(lp, lq) == np.shares_memory(lp, lq) == np.shares_memory(p, q)
    assert lnp.may_share_memory(lp, lq) == np.may_share_memory(lp, lq) \
        == np.may_share_memory(p, q)
    for work in (1, 100):
        assert lnp.may_share_memory(lp, lq, max_work=work) == \
            np.may_share_memory(p, q, max_work=work)
    got, expected = S.same_error(lambda: lnp.shares_memory(lp, lq, max_work=0),
                                 lambda: np.shares_memory(p, q, max_work=0))
    assert got == expected
    assert lnp.metrics()["syncs"] == 0 and lnp.metrics()["fallbacks"] == 0


def test_shares_memory_with_numpy_arrays_and_after_writes():
    x = np.arange(6.0)
    a = lnp.asarray(x)
    view = a[2:]
    a[3] = 9.0                            # a new storage version: still the same memory
    assert np.shares_memory(a, view) and lnp.may_share_memory(view, a)
    assert not np.shares_memory(a, x) and not lnp.shares_memory(x, a)
    assert not lnp.may_share_memory(a, [1.0, 2.0])
    assert lnp.shares_memory(x, x[1:]) and not lnp.shares_memory(x[:2], x[2:])
    assert "shares_memory" in lnp.__all__ and "may_share_memory" in lnp.__all__
    assert lnp.metrics()["fallbacks"] == 0

"""The llvm backend against NumPy: random fused graphs, NumPy's edge-case semantics,
vectorized transcendentals, accurate float sums, threads, buffer reuse, serialization."""
import re

import numpy as np
import pytest
from hypothesis import given, settings

import lazynum as lnp
import lazynum.backends.llvm as llvm_backend
from lazynum.backends import buffer_pool
from lazynum.backends.llvm import codegen, workers
from lazynum.backends.llvm import program as llvm_program
from lazynum.compile import loop_strategy

from .. import strategies as S
from ..compile.llvm_harness import compiled, on_llvm

RNG = np.random.default_rng(11)


@settings(max_examples=60)
@given(S.fused_programs())
def test_random_fused_graphs_match_numpy(program):
    data, steps = program
    value, _ = compiled(lambda m, x: S.apply_fused_program(m, x, steps), data)
    with np.errstate(all="ignore"):
        expected = S.apply_fused_program(np, data, steps)
    rtol = 1e-4 if data.dtype == np.float32 else 1e-10
    S.assert_same(value, expected, rtol=rtol, atol=rtol)


@given(pair=S.lazy_views(S.arrays(S.numeric_dtypes, S.shapes(min_dims=1), small=True)))
def test_non_contiguous_inputs_are_read_through_their_run_time_strides(pair):
    base, lazy = pair
    with on_llvm():
        got = np.asarray(lazy * 2 + 1)
    S.assert_same(got, base * 2 + 1)


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.uint8, np.uint64])
def test_integer_division_shifts_and_overflow_follow_numpy(dtype):
    info = np.iinfo(dtype)
    a = np.array([info.min, info.max, -7 if info.min else 7, 0, 5, 9], dtype)
    b = np.array([-1 if info.min else 1, 0, 2, 0, 3, 2], dtype)
    shift = np.array([0, 1, info.bits - 1, info.bits, info.bits + 3, 2], dtype)
    for fn in (lambda m, a, b: a // b, lambda m, a, b: a % b, lambda m, a, b: m.fmod(a, b),
               lambda m, a, b: a * b + a, lambda m, a, b: a << (b % info.bits if False else b)):
        with np.errstate(all="ignore"):
            expected = fn(np, a, b)
        got, _ = compiled(fn, a, b)
        S.assert_same(got, expected)
    got, _ = compiled(lambda m, a, s: (a << s, a >> s), a, shift)
    with np.errstate(all="ignore"):
        np.testing.assert_array_equal(got[0], a << shift)
        np.testing.assert_array_equal(got[1], a >> shift)


def test_float_edge_cases_propagate_like_numpy():
    a = np.array([np.nan, np.inf, -np.inf, 0.0, -0.0, 1.5, -2.5, 1e308])
    b = np.array([1.0, np.inf, 2.0, 0.0, -3.0, 0.0, np.nan, 10.0])
    fns = [lambda m, a, b: m.maximum(a, b), lambda m, a, b: m.fmin(a, b),
           lambda m, a, b: a // b, lambda m, a, b: a % b, lambda m, a, b: m.sign(a),
           lambda m, a, b: m.isfinite(a) & m.isnan(b), lambda m, a, b: a * b,
           lambda m, a, b: m.heaviside(a, b), lambda m, a, b: m.logaddexp(a, b),
           lambda m, a, b: m.copysign(a, b), lambda m, a, b: m.rint(a)]
    for fn in fns:
        with np.errstate(all="ignore"):
            expected = fn(np, a, b)
        got, _ = compiled(fn, a, b)
        S.assert_same(got, expected)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", ["exp", "log", "sin", "cos", "tanh", "arctan", "expm1", "exp2"])
def test_vectorized_transcendentals_are_accurate(name, dtype):
    x = RNG.uniform(0.01, 20, 4099).astype(dtype)
    fn = getattr(np, name)
    got, _ = compiled(lambda m, x: getattr(m, name)(x), x)
    rtol = 2e-6 if dtype == np.float32 else 4e-15
    np.testing.assert_allclose(got, fn(x), rtol=rtol, atol=rtol)


def test_inner_loops_vectorize_and_call_libmvec():
    x = RNG.random((64, 256), dtype=np.float32)
    _, program = compiled(lambda m, x: m.exp(x - x.max(axis=1, keepdims=True)).sum(axis=1), x)
    ir = program.llvm_ir()
    assert re.search(r"<(4|8|16) x float>", ir), "no vector types in the optimized kernel"
    from lazynum.backends.llvm import jit
    if jit._initialized():
        assert "_ZGV" in jit.use_libmvec(ir), "exp was not mapped to libmvec"


def test_long_float32_sums_stay_within_numpys_pairwise_accuracy():
    x = np.full(10_000_003, 0.1, dtype=np.float32)
    got, _ = compiled(lambda m, x: x.sum(), x)
    exact = float(np.float32(0.1)) * x.size
    assert abs(float(got) - exact) / exact <= max(1e-6, abs(float(x.sum()) - exact) / exact)
    rows = RNG.random((3, 2_000_001), dtype=np.float32)
    got, _ = compiled(lambda m, x: x.sum(axis=1), rows)
    np.testing.assert_allclose(got, rows.astype(np.float64).sum(axis=1), rtol=1e-6)


def test_threads_split_the_outer_loop_without_changing_results():
    x = RNG.random((512, 300))
    fn = lambda m, x: m.exp(x - x.max(axis=1, keepdims=True)) * 2  # noqa: E731
    with lnp.config(threads=1):
        one, _ = compiled(fn, x)
    with lnp.config(threads=4):
        four, _ = compiled(fn, x)
    np.testing.assert_array_equal(one, four)
    np.testing.assert_allclose(one, fn(np, x), rtol=1e-13)


def test_buffers_are_reused_across_syncs_but_never_while_the_user_holds_them():
    x = lnp.asarray(RNG.random(1 << 16))
    with on_llvm():
        held = np.asarray(x * 2.0)
        before = buffer_pool.stats["reused"]
        for _ in range(3):
            np.asarray(x * 3.0)          # dropped at once: its buffer comes back
        assert buffer_pool.stats["reused"] > before
        np.testing.assert_array_equal(held, np.asarray(x) * 2.0)


def test_large_products_are_written_into_pooled_buffers_never_into_held_ones():
    """An extern matmul's large result goes into a pooled buffer (fresh pages at every call
    cost as much as a small product's BLAS work), never into one the user still holds."""
    a, b = RNG.standard_normal((640, 40)), RNG.standard_normal((40, 512))    # 2.5 MiB results
    assert 640 * 512 * 8 >= llvm_program.WRITES_INTO_BYTES
    la, lb = lnp.asarray(a), lnp.asarray(b)
    with on_llvm():
        held = [np.asarray(la @ (lb + float(k))) for k in range(3)]
        before = buffer_pool.stats["reused"]
        for _ in range(3):                   # dropped at once: one buffer serves them all
            np.testing.assert_allclose(np.asarray(la @ lb), a @ b, rtol=1e-12)
        assert buffer_pool.stats["reused"] >= before + 2
    for k, result in enumerate(held):
        np.testing.assert_allclose(result, a @ (b + k), rtol=1e-12)
    assert not any(np.shares_memory(held[i], held[j]) for i, j in ((0, 1), (1, 2), (0, 2)))

def test_programs_round_trip_through_bytes_and_reject_garbage():
    x = RNG.random((5, 7))
    _, program = compiled(lambda m, x: m.sort(m.exp(x), axis=1).sum(axis=0), x)
    again = llvm_backend.load(program.to_bytes())
    inputs, sizes = program.last_call
    got = again.run(inputs, sizes, None)[0]
    np.testing.assert_allclose(got, np.sort(np.exp(x), axis=1).sum(axis=0), rtol=1e-12)
    assert again.kernel_count == program.kernel_count
    data = program.to_bytes()
    for bad in (b"", b"junk" * 10, data[:20], data[:8] + b"\xff" * 8 + data[16:]):
        with pytest.raises(ValueError):
            llvm_backend.load(bad)


def test_reduction_identities():
    assert codegen.identity("add", np.dtype(np.float32)) == 0
    assert codegen.identity("maximum", np.dtype(np.int8)) == -128
    assert np.isnan(codegen.identity("fmax", np.dtype(np.float64)))


def test_an_in_place_stencil_is_one_kernel_per_sweep():
    # a[1:-1, 1:-1] = f(a) is where(inside the box, f(old a), old a) written to a fresh
    # buffer: NumPy's right-hand-side-first semantics with no copy and no extern call.
    def jacobi(m, a, steps=4):
        a = a * 1.0
        for _ in range(steps):
            a[1:-1, 1:-1] = 0.25 * (a[:-2, 1:-1] + a[2:, 1:-1] + a[1:-1, :-2] + a[1:-1, 2:])
        return a
    a = RNG.random((40, 30))
    got, program = compiled(jacobi, a)
    np.testing.assert_allclose(got, jacobi(np, a), rtol=1e-13)
    assert program.extern_count == 0 and program.kernel_count == 4


def test_box_writes_match_numpy_at_every_position_and_length():
    # Slices with negative bounds, integer indices, inserted axes, empty regions, a write
    # of a broadcast value, and writes reading their target at shifted points: each a
    # box write computed in a kernel; lengths around the vector width and thread splits.
    def program(m, a):
        b = a * 2.0
        b[3:-2] = b[:-5] + b[5:]
        b[-1] = b[0]
        b[2:2] = 7.0
        b[1:4, None] = b[4:7, None] * 0.5
        b[len(b) // 2:] = b[: len(b) - len(b) // 2][::-1]
        return b
    for n in (8, 9, 31, 32, 33, 70, 4099):
        a = RNG.random(n)
        got, program_ = compiled(program, a)
        np.testing.assert_array_equal(got, program(np, a.copy()))
        assert program_.extern_count == 0


@pytest.mark.parametrize("exponent", [2.0, 3.0, 0.5, -1.0])
def test_power_by_a_scalar_matches_numpy(exponent):
    x = RNG.uniform(0.1, 10, 3001)
    got, _ = compiled(lambda m, x: m.power(x, exponent) + x ** exponent, x)
    np.testing.assert_allclose(got, np.power(x, exponent) + x ** exponent, rtol=1e-14)


@settings(max_examples=40, deadline=None)
@given(x=S.arrays(S.st.sampled_from(S.NUMERIC), S.shapes(min_dims=2, max_dims=3, min_side=1, max_side=70),
                  small=True),
       name=S.st.sampled_from(["sum", "max", "min", "mean", "var", "prod"]),
       threads=S.st.sampled_from([1, 2]))
def test_reductions_over_leading_axes_run_in_column_order_and_match_numpy(x, name, threads):
    axes = tuple(range(x.ndim - 1))              # every axis but the last: a column reduction
    with lnp.config(threads=threads):
        got, program = compiled(lambda m, a: getattr(a, name)(axis=axes), x)
    wide = x.astype(np.float64) if x.dtype == np.float32 else x   # f32 sums accumulate in f64
    with np.errstate(all="ignore"):
        expected = getattr(wide, name)(axis=axes)
        want_dtype = getattr(x, name)(axis=axes).dtype
    assert got.dtype == want_dtype and got.shape == expected.shape
    rtol = 1e-4 if x.dtype == np.float32 else 1e-9
    S.assert_same(got, expected.astype(want_dtype), rtol=rtol, atol=rtol)


def test_column_order_is_chosen_only_for_reductions_over_leading_axes():
    x = RNG.random((300, 200))
    _, by_column = compiled(lambda m, a: a.sum(axis=0), x)
    _, by_row = compiled(lambda m, a: a.sum(axis=1), x)
    _, standardized = compiled(lambda m, a: (a - a.mean(axis=0)) / a.std(axis=0), x)
    column = [loop_strategy.column_order(k) for k in _kernels(by_column)]
    assert column == [True]
    assert not any(loop_strategy.column_order(k) for k in _kernels(by_row))
    assert any(loop_strategy.column_order(k) for k in _kernels(standardized))


@settings(max_examples=40, deadline=None)
@given(x=S.arrays(S.st.sampled_from(S.NUMERIC), S.st.tuples(S.st.integers(1, 150), S.st.integers(1, 20)),
                  small=True),
       name=S.st.sampled_from(["softmax", "sum", "max", "mean", "centred"]),
       strided=S.st.booleans(), threads=S.st.sampled_from([1, 2]))
def test_row_wise_kernels_over_short_rows_match_numpy(x, name, strided, threads):
    """Rows shorter than loop_strategy.SHORT_ROWS run in column order (a block of rows side
    by side) where a thread has enough of them, longer ones and few rows in row order:
    every mix of the two gives NumPy's values, through strided inputs too."""
    fns = {"softmax": lambda m, a: m.exp(a - a.max(axis=1, keepdims=True))
                      / m.exp(a - a.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True),
           "sum": lambda m, a: a.sum(axis=1), "max": lambda m, a: a.max(axis=1),
           "mean": lambda m, a: a.mean(axis=1), "centred": lambda m, a: a - a.mean(axis=1, keepdims=True)}
    fn = fns[name]
    if strided:
        x = np.repeat(x, 2, axis=1)[:, ::2]          # the same values through a stride of 2
    if name == "softmax":
        x = x.astype(np.float64) if x.dtype.kind in "iub" else x
    with lnp.config(threads=threads):
        got, _ = compiled(fn, x)
    wide = x.astype(np.float64) if x.dtype == np.float32 else x   # f32 sums accumulate in f64
    with np.errstate(all="ignore"):
        expected = fn(np, wide)
        want_dtype = fn(np, x).dtype
    assert got.dtype == want_dtype and got.shape == expected.shape
    rtol = 1e-4 if x.dtype == np.float32 else 1e-9
    S.assert_same(got, expected.astype(want_dtype), rtol=rtol, atol=rtol)


def test_short_rows_are_a_strategy_of_row_wise_kernels_only():
    x = RNG.random((300, 10)).astype(np.float32)
    _, softmax = compiled(lambda m, a: m.exp(a - a.max(axis=1, keepdims=True))
                          / m.exp(a - a.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True), x)
    (kernel,) = _kernels(softmax)
    assert kernel.strategy.short_rows == loop_strategy.SHORT_ROWS and not kernel.strategy.column_order
    _, columns = compiled(lambda m, a: a.sum(axis=0), x)
    _, pairs = compiled(lambda m, a: (a[:, None, :] - a[None, :, :]).sum(axis=(1, 2)), x[:20])
    assert not any(k.strategy.short_rows for k in _kernels(columns) + _kernels(pairs))
    np.testing.assert_allclose(softmax.run([x], (300, 10))[0].sum(axis=1), 1.0, rtol=1e-6)

def _kernels(program):
    """The kernel IR of a program compiled in this process (rebuilt from its cut)."""
    return program.kernels_ir


@settings(max_examples=40, deadline=None)
@given(x=S.arrays(S.st.sampled_from(S.ALL), S.shapes(min_dims=1, max_dims=3, min_side=1, max_side=9),
                  small=True),
       name=S.st.sampled_from(["argmax", "argmin"]), data=S.st.data())
def test_arg_reductions_are_kernels_with_numpys_first_position_and_nan_rules(x, name, data):
    axis = data.draw(S.st.integers(0, x.ndim - 1))
    if x.dtype.kind == "f":                      # NaNs and infinities at drawn places
        specials = data.draw(S.st.lists(S.st.sampled_from([np.nan, np.inf, -np.inf]), max_size=3))
        for value in specials:
            x.flat[data.draw(S.st.integers(0, x.size - 1))] = value
    got, program = compiled(lambda m, a: getattr(a, name)(axis=axis) + 0, x)
    expected = getattr(x, name)(axis=axis)
    assert got.dtype == expected.dtype and np.array_equal(got, expected)
    # a kernel over rows (the last axis, other axes kept); NumPy's SIMD call for one long run
    row_wise = x.ndim > 1 and axis == x.ndim - 1
    assert program.extern_count == (0 if row_wise else 1)


@pytest.mark.parametrize("threads", [1, 2, 3])
@pytest.mark.parametrize("name", ["sum", "prod", "max", "min", "mean", "any", "all", "count_and_sum"])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int64, np.bool_])
def test_full_reductions_split_across_threads_match_one_thread_and_numpy(threads, name, dtype):
    n = 3 * workers.MIN_PARALLEL_WORK + 17                       # large enough to split
    x = np.random.default_rng(11).standard_normal(n) * 3         # the same data in any test order
    x[n // 2 + 5] = 40.0                                         # the max lies in a later part
    x = (x > 0) if dtype == np.bool_ else x.astype(dtype)
    if name == "prod":
        x = x[:60] if dtype != np.bool_ else x                    # keep products far from overflow
    fns = {"count_and_sum": lambda m, a: (a > 0).sum() + a.sum() * 2}
    fn = fns.get(name, lambda m, a: getattr(a, name)())
    with lnp.config(threads=threads):
        got, program = compiled(fn, x)
    assert program.steps[0].split or len(x) < workers.MIN_PARALLEL_WORK
    with np.errstate(all="ignore"):
        expected = fn(np, x)
    # a float32 sum of n terms is good to ~1e-6 of the sum of their magnitudes (a mean near
    # zero has no relative accuracy to compare)
    scale = float(np.abs(x).astype(np.float64).sum()) / (n if name == "mean" else 1)
    S.assert_same(got, np.asarray(expected), rtol=1e-5 if dtype == np.float32 else 1e-10,
                  atol=1e-6 * scale if dtype == np.float32 and name != "prod" else 0.0)


def test_split_reductions_keep_nan_and_first_position_rules():
    n = 4 * workers.MIN_PARALLEL_WORK
    x = RNG.standard_normal(n)
    x[3 * n // 4] = np.nan                                       # a NaN in the last part only
    with lnp.config(threads=4):
        got, _ = compiled(lambda m, a: m.stack([a.max(), a.min(), m.nanmax(a)]), x)
    np.testing.assert_array_equal(got, [np.nan, np.nan, np.nanmax(x)])


def test_a_reversed_view_of_a_computed_result_reads_the_right_elements():
    """(-2*i + j + 2) // 2 was split into (-2*i + j) // 2 + 1 and divided with truncation:
    the reversed view of b + flip(b) read the wrong row (found by bench/fuzz).  Index
    division and remainder have floor semantics."""
    x = np.array([[0.0, 1.0], [-0.5, 3.0]], dtype=np.float32)
    b = lnp.asarray(x)
    b += lnp.flip(b, axis=0)
    got = lnp.maximum(lnp.flip(b, axis=0), -1.0)
    y = x + np.flip(x, axis=0)
    np.testing.assert_array_equal(np.asarray(got), np.maximum(np.flip(y, axis=0), -1.0))


@pytest.mark.parametrize("shape, axes", [((4, 3), (0,)), ((3, 4), (1,)), ((2, 3, 4), (0, 2)),
                                         ((5, 2), (0, 1))])
def test_reversed_and_reshaped_views_of_computed_results(shape, axes):
    x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape) - 7
    a = lnp.asarray(x)
    y = lnp.flip(a * 2 + lnp.flip(a, axis=axes), axis=axes)
    expected = np.flip(x * 2 + np.flip(x, axis=axes), axis=axes)
    np.testing.assert_array_equal(np.asarray(y.reshape(-1) + 1), expected.reshape(-1) + 1)
    np.testing.assert_array_equal(np.asarray(lnp.abs(y.T)), np.abs(expected.T))

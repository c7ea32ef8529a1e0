"""Real lazynum programs on ``LAZYNUM_BACKEND=cuda`` through the CPU emulator, against NumPy.

Grids are forced small (``cuda_max_blocks=2``: two blocks of 256 threads), so every
grid-stride loop wraps and ends in a partial tail, blocks stride over rows, and full
reductions split into two parts.  Each test syncs its results together (one program, one
emulated module: a host compile is the expensive part).  Tolerances: the emulator computes
transcendentals with the host's libm and reductions in the GPU's fixed tree order, so
float results match NumPy within a few ulps, not bit for bit (docs/cuda.md).
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings

import lazynum
from lazynum.backends.cuda import nvrtc, runtime
from lazynum.runtime import compile_cache

from ... import strategies as S
from .plans import _layernorm, _softmax, traced_always

RNG = np.random.default_rng(1717)


def on_emulator(**extra):
    return lazynum.config(backend="cuda", cuda_device="emulator", cuda_max_blocks=2, **extra)


def run(fn, *arrays, **config):
    """``fn(lazynum, *arrays)`` synced on the emulator: (results as NumPy arrays, program)."""
    compile_cache.clear_memory()
    with on_emulator(**config), traced_always(), np.errstate(all="ignore"):
        results = fn(lazynum, *[lazynum.asarray(a) for a in arrays])
        results = results if isinstance(results, tuple) else (results,)
        lazynum.sync(*results)
        program = compile_cache.most_recent().program
        return [np.asarray(r) for r in results], program


def expect(fn, *arrays, rtol=1e-12, atol=0.0, **config):
    """Run ``fn`` on the emulator and on NumPy; compare dtype, shape and values."""
    got, program = run(fn, *arrays, **config)
    with np.errstate(all="ignore"):
        want = fn(np, *arrays)
    want = want if isinstance(want, tuple) else (want,)
    for g, w in zip(got, want):
        w = np.asarray(w)
        assert g.dtype == w.dtype and g.shape == w.shape, (g.dtype, g.shape, w.dtype, w.shape)
        if w.dtype.kind == "f":
            np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, equal_nan=True)
        else:
            np.testing.assert_array_equal(g, w)
    if not program.on_host:                 # what the emulator ran is what a GPU would load
        assert nvrtc.compile_cubin(program.source(32), "sm_90")[:4] == b"\x7fELF"
    return program


def _f(shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


def test_elementwise_broadcasts_and_strided_views_in_grid_stride_loops():
    a, b = _f((37, 41)), _f(41)
    program = expect(lambda m, a, b: (m.exp(a) * b + 2.0 * m.sin(a - b),
                                      m.sqrt(m.abs(a.T[::2, ::-1])) + 1.0,
                                      a[:, :1] * b[None, ::-1] - 1.0), a, b, rtol=1e-14)
    assert not program.on_host and program.kernel_count >= 1
    assert program.launches >= 1


def test_float32_chains_stay_float32_within_libm_ulps():
    a, b = _f(3001, np.float32), _f(3001, np.float32)
    expect(lambda m, a, b: (m.tanh(a) * b + m.log1p(m.abs(b)), (a > b) & (b < 0.5)), a, b,
           rtol=2e-6, atol=1e-6)   # (cancellation near 0: ulps of O(1) terms)


def test_integer_floor_division_modulo_and_casts_follow_numpy():
    a = RNG.integers(-50, 50, (23, 45)).astype(np.int64)
    b = RNG.integers(-5, 5, 45).astype(np.int32)
    b[::4] = 0
    x = _f(1000) * 1e3
    expect(lambda m, a, b: (a // b, a % b, (a * 3).astype(np.int16) >> 2), a, b)
    expect(lambda m, x: (x.astype(np.int32).astype(np.float32) + (x > 0.5)), x)


def test_row_and_column_reductions_with_blocks_striding_over_rows():
    x = _f((7, 300))
    x[2, 17] = np.nan
    expect(lambda m, x: (x.sum(axis=1), x.mean(axis=0), x.max(axis=1), x.min(axis=0),
                         (x > 0).sum(axis=1), x.std(axis=1)), x, rtol=1e-12)


def test_full_reductions_split_into_parts_and_finish_in_order():
    x = _f(5000)
    ints = RNG.integers(-1000, 1000, 5000).astype(np.int32)
    program = expect(lambda m, x, i: (x.sum(), x.max(), x.mean(), (i * 3).sum(),
                                      x[x > 0.3].sum()), x, ints, rtol=1e-12)
    splits = [name for name, shape in program.shapes.items() if shape.form == "split"]
    assert splits and program.launches >= 2 * len(splits)   # a part and a finish each


def test_softmax_and_layernorm_read_rows_in_phases():
    x = _f((9, 333))
    expect(_softmax, x, rtol=1e-13)
    expect(_layernorm, _f((9, 333), np.float32), rtol=3e-6, atol=1e-6)


def test_arg_reductions_keep_numpys_first_maximum_and_first_nan():
    x = np.round(_f((6, 700)), 1)           # many ties
    x[3, 400] = np.nan
    x[3, 650] = np.nan
    x[5, :] = 2.0                            # all equal: position 0
    expect(lambda m, x: (x.argmax(axis=1), x.argmin(axis=1)), x)


def test_a_result_does_not_depend_on_the_order_threads_run_in():
    """Reductions combine in a fixed tree: the same bits in every order."""
    x = _f((5, 700))
    fn = lambda m, x: (_softmax(m, x), x.sum(), x.argmax(axis=1))   # noqa: E731
    forward, _ = run(fn, x, cuda_emulator_order="forward")
    for order in ("reversed", "12345"):
        other, _ = run(fn, x, cuda_emulator_order=order)
        for f, o in zip(forward, other):
            np.testing.assert_array_equal(f, o)


def test_a_program_compiles_its_module_once():
    x = _f((4, 300))
    with on_emulator(), traced_always():
        device = runtime.current_device()
        before = len(device._modules)
        for k in range(3):
            r = (lazynum.asarray(x) * (k + 1)).sum(axis=1)
            np.testing.assert_allclose(np.asarray(r), (x * (k + 1)).sum(axis=1), rtol=1e-13)
        assert len(device._modules) - before <= 1


def test_extern_steps_run_on_the_host_and_are_named():
    a, b = _f((20, 30)), _f((30, 10))
    program = expect(lambda m, a, b: m.exp(a @ b).sum(axis=0), a, b, rtol=1e-12)
    assert "matmul" in program.host_steps and not program.on_host
    text = program.describe()
    assert "host: matmul" in text and "(rows form)" in text


def test_scatters_combine_private_copies_in_part_order():
    idx = RNG.integers(0, 9, 1000)
    w = _f(1000)
    program = expect(lambda m, i, w: (m.bincount(i, weights=w, minlength=11),
                                      m.bincount(i * 2 % 7)), idx, w, rtol=1e-13)
    assert not program.on_host
    assert "scatter" in {shape.form for shape in program.shapes.values()}
    base, at = _f(13), RNG.integers(-13, 13, 500)

    def add_at(m, base, at, w):
        out = base * 2.0                    # a computed base: the finishing step loads it
        m.add.at(out, at, w)
        return out
    expect(add_at, base, at, _f(500), rtol=1e-13)


def test_kmeans_assignment_and_sums_in_one_scatter_kernel():
    points = _f((300, 2)) + RNG.integers(0, 3, (300, 1)) * 4.0
    centers = points[:5].copy()

    def step(m, p, c):
        labels = ((p[:, None, :] - c[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)
        counts = m.bincount(labels, minlength=5)
        return m.bincount(labels, weights=p[:, 1], minlength=5) / counts, counts
    program = expect(step, points, centers, rtol=1e-12)
    assert not program.on_host


def test_a_kernel_not_rendered_yet_runs_the_program_on_the_host_and_says_why(monkeypatch):
    from lazynum.backends.cuda import codegen

    def refuse(self):
        raise codegen.UnsupportedKernel(f"kernel {self.kernel.name}: not rendered (test)")
    monkeypatch.setattr(codegen.KernelRenderer, "scatter_part", refuse)
    idx = RNG.integers(0, 9, 100)
    program = expect(lambda m, i: m.bincount(i * 2 % 7, minlength=9) + 1, idx)
    assert program.on_host and "not rendered (test)" in program.why
    assert "not rendered (test)" in program.describe()


def test_a_reduction_nested_in_its_consumers_loop_runs_per_thread():
    points, centers = _f((401, 3)), _f((7, 3))
    points[5] = centers[2]                      # a distance of exactly 0
    program = expect(lambda m, p, c: ((p[:, None, :] - c[None, :, :]) ** 2).sum(axis=2).argmin(axis=1),
                     points, centers)
    assert not program.on_host
    assert any(phase.nested for k in program.plan.kernels for phase in k.phases)


@settings(max_examples=10)
@given(S.fused_programs())
def test_random_fused_chains_agree_with_numpy(program):
    """The project's random fused chains (pointwise ops, broadcasts, views, reductions),
    their data tiled to a few thousand elements so two blocks' grid-stride loops wrap."""
    data, steps = program
    data = np.tile(data, (3, 97))
    got, _ = run(lambda m, x: S.apply_fused_program(m, x, steps), data)
    with np.errstate(all="ignore"):
        want = S.apply_fused_program(np, data, steps)
    tolerance = {2: 1e-3, 4: 1e-4}.get(data.dtype.itemsize, 1e-10)
    S.assert_same(got[0], want, rtol=tolerance, atol=tolerance)


def test_the_64_bit_index_module_gives_the_same_results(monkeypatch):
    """Sizes at or above 2^30 select 64-bit index arithmetic (too large to run here): the
    width is forced, and the program builds and runs its second module."""
    x = _f((6, 300))
    fn = lambda m, x: (_softmax(m, x), x.T[::-1] * 2.0, x.sum())      # noqa: E731
    narrow, _ = run(fn, x)
    monkeypatch.setattr(runtime, "index_bits", lambda counts: 64)
    wide, program = run(fn, x)
    assert [key[2] for key in program._modules] == [64]
    assert "typedef lz_i64 lz_idx;" in program.source(64)
    for a, b in zip(narrow, wide):
        np.testing.assert_array_equal(a, b)


def test_extern_steps_report_numpys_floating_point_errors_and_kernels_none():
    """Complex ops are extern on CUDA (NumPy's calls): their errors follow errstate as
    NumPy's do.  Kernels raise none (a GPU has no sticky flags): log(0.0) in a kernel is
    -inf silently, a documented difference from NumPy (docs/cuda.md)."""
    zeros = np.zeros(3, complex)
    with on_emulator(), traced_always():
        with np.errstate(divide="raise"), pytest.raises(FloatingPointError, match="divide by zero"):
            np.asarray(lazynum.log(lazynum.asarray(zeros) * 1.0))
        with np.errstate(divide="raise"):
            got = np.asarray(lazynum.log(lazynum.asarray(np.zeros(3)) * 1.0))
    np.testing.assert_array_equal(got, np.full(3, -np.inf))

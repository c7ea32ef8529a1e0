"""Pairwise interactions (issue 14 item 2): a reduction over a broadcast pair's last axis
read by a reduction over the pairs (k-means' distances -> argmin/min) is computed inside
the consumer's loop (``kernel_ir.Phase.nested``): one kernel, no (N, K) buffer.  n-body's
r2 (a sum over 3 coordinates read at each coordinate of the force) is recomputed 3 times
per pair instead of stored; over many features it keeps its buffer and the refusal says
why."""
import numpy as np
import pytest
from hypothesis import given

import lazynum as lnp
from lazynum.compile.kernel_ir import walk_phases

from .. import strategies as S
from ..strategies import rngs, st
from .llvm_harness import compiled, on_llvm


def _distances(m, points, centers):
    return ((points[:, None, :] - centers[None, :, :]) ** 2).sum(axis=-1)


def _nearest(m, points, centers):
    d = _distances(m, points, centers)
    return d.argmin(axis=1), d.min(axis=1)


def _nbody(m, pos, mass):
    diff = pos[:, None, :] - pos[None, :, :]
    r2 = (diff ** 2).sum(-1) + 1e-3
    inv = r2 ** -1.5
    return (diff * inv[..., None] * mass[None, :, None]).sum(1)


def _nested_count(program) -> int:
    return sum(len(p.nested) for k in program.kernels_ir for p in walk_phases(k.phases))


def test_distances_then_argmin_and_min_are_one_kernel_with_no_distance_buffer():
    rng = np.random.default_rng(0)
    points, centers = rng.standard_normal((500, 3)), rng.standard_normal((7, 3))
    (labels, best), program = _run_pair(_nearest, points, centers)
    assert program.kernel_count == 1 and program.extern_count == 0, program.describe()
    # only the two outputs are allocated: no (500, 7) matrix
    assert len(program.values) == 2 and all(len(shape) == 1 for _, shape in program.values)
    assert _nested_count(program) == 1
    want = _nearest(np, points, centers)
    S.assert_same(labels, want[0])
    S.assert_same(best, want[1])


def _run_pair(fn, *arrays):
    with on_llvm() as programs:
        out = fn(lnp, *[lnp.asarray(a) for a in arrays])
        lnp.sync(*out)
    return tuple(np.asarray(o) for o in out), programs[-1]


def test_a_distance_matrix_that_is_an_output_keeps_its_buffer():
    rng = np.random.default_rng(1)
    points, centers = rng.standard_normal((50, 2)), rng.standard_normal((4, 2))

    def fn(m, p, c):
        d = _distances(m, p, c)
        return d, d.argmin(axis=1)
    (d, labels), program = _run_pair(fn, points, centers)
    assert _nested_count(program) == 0
    want = fn(np, points, centers)
    S.assert_same(d, want[0])
    S.assert_same(labels, want[1])


def test_nbody_accelerations_are_one_kernel_with_no_pair_buffer(capsys):
    rng = np.random.default_rng(2)
    pos, mass = rng.standard_normal((60, 3)), rng.random(60)
    with lnp.config(logs="fusion"):
        value, program = compiled(_nbody, pos, mass)
    S.assert_same(value, _nbody(np, pos, mass), rtol=1e-10)
    assert program.kernel_count == 1 and program.extern_count == 0, program.describe()
    assert len(program.values) == 1            # the (60, 3) result: no (60, 60) matrix
    assert _nested_count(program) == 1
    assert "3 times per value" in capsys.readouterr().err


def test_a_pair_sum_recomputed_along_many_features_keeps_its_buffer_and_says_why(capsys):
    # r2 summed over 20 features, read at each of 20 feature columns: 20 recomputations
    rng = np.random.default_rng(3)
    pos, mass = rng.standard_normal((30, 20)), rng.random(30)
    with lnp.config(logs="fusion"):
        value, program = compiled(_nbody, pos, mass)
    S.assert_same(value, _nbody(np, pos, mass), rtol=1e-10)
    assert _nested_count(program) == 0 and program.kernel_count == 2
    assert "would be recomputed at every point of the loops they do not vary along" in (
        capsys.readouterr().err)


@given(n=st.integers(1, 40), k=st.integers(1, 9), d=st.integers(1, 5),
       dtype=st.sampled_from([np.float32, np.float64]), rng=rngs())
def test_nearest_centre_matches_numpy(n, k, d, dtype, rng):
    points = rng.standard_normal((n, d)).astype(dtype)
    centers = rng.standard_normal((k, d)).astype(dtype)
    labels, best = _nearest(lnp, lnp.asarray(points), lnp.asarray(centers))
    want = _nearest(np, points, centers)
    S.assert_same(best, want[1])
    # (a near tie may round apart: the chosen centre is as near as NumPy's)
    chosen = _distances(np, points, centers)[np.arange(n), np.asarray(labels)]
    S.assert_same(chosen, want[1])


@given(n=st.integers(1, 30), d=st.integers(1, 4), dtype=st.sampled_from([np.float32, np.float64]),
       rng=rngs())
def test_nbody_accelerations_match_numpy(n, d, dtype, rng):
    pos = rng.standard_normal((n, d)).astype(dtype)
    mass = rng.random(n).astype(dtype)
    got = _nbody(lnp, lnp.asarray(pos), lnp.asarray(mass))
    S.assert_same(got, _nbody(np, pos, mass), rtol=1e-4 if dtype == np.float32 else 1e-10,
                  atol=1e-3 if dtype == np.float32 else 1e-9)


@pytest.mark.parametrize("reduce", ["sum", "max", "min"])
def test_a_full_reduction_over_pairwise_distances_matches_numpy(reduce):
    rng = np.random.default_rng(4)
    a, c = rng.standard_normal((70, 3)), rng.standard_normal((20, 3))

    def fn(m, a, c):
        return getattr(_distances(m, a, c).min(axis=1), reduce)()
    value, _ = compiled(fn, a, c)
    S.assert_same(value, fn(np, a, c))

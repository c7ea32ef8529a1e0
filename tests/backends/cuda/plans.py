"""Plans of canonical programs, planned with the CUDA capability object.

``plan_of(fn, *arrays)`` traces ``fn(lazynum, *arrays)`` and returns the plan
``compile.plan.make_plan`` gives its last cut (the llvm backend runs it, so the trace is a
real program; the plan is made before the run, as ``tests/compile/test_plan.py`` does).
``CANONICAL`` names the programs every generated kernel is compiled for.
"""
from __future__ import annotations

import contextlib

import numpy as np

import lazynum
import lazynum.backends.llvm as llvm_backend
from lazynum.backends.cuda.capabilities import SUPPORTS
from lazynum.compile.plan import make_plan
from lazynum.control import settings

from ...compile.llvm_harness import on_llvm

RNG = np.random.default_rng(17)


def traced_always():
    """A config block in which every op is recorded (no immediate tier, where the build has
    one: small arrays would run as NumPy calls at once and never reach a kernel)."""
    if "immediate_below" in settings.SETTINGS_TABLE:
        return lazynum.config(immediate_below=0)
    return contextlib.nullcontext()


def plan_of(fn, *arrays):
    """The CUDA plan of the last program ``fn`` compiles."""
    plans = []
    with on_llvm(), traced_always():
        recording = llvm_backend.compile

        def planning(cut):
            plans.append(make_plan(cut, SUPPORTS))
            return recording(cut)
        llvm_backend.compile = planning
        with np.errstate(all="ignore"):
            results = fn(lazynum, *[lazynum.asarray(a) for a in arrays])
            lazynum.sync(*(results if isinstance(results, tuple) else (results,)))
    return plans[-1]


def _black_scholes(m, s, k, t):
    r, v = 0.02, 0.3
    d1 = (m.log(s / k) + (r + 0.5 * v * v) * t) / (v * m.sqrt(t))
    d2 = d1 - v * m.sqrt(t)
    cdf1 = 0.5 * (1.0 + m.tanh(0.7978845608 * (d1 + 0.044715 * d1 ** 3)))
    cdf2 = 0.5 * (1.0 + m.tanh(0.7978845608 * (d2 + 0.044715 * d2 ** 3)))
    return s * cdf1 - k * m.exp(-r * t) * cdf2


def _softmax(m, x):
    e = m.exp(x - x.max(axis=1, keepdims=True))
    return e / e.sum(axis=1, keepdims=True)


def _layernorm(m, x):
    mu = x.mean(axis=1, keepdims=True)
    var = ((x - mu) ** 2).mean(axis=1, keepdims=True)
    return (x - mu) / m.sqrt(var + 1e-5)


def _floor_int(m, a, b):
    return a // b + a % b


def _masked(m, x, y):
    mask = (x > 0.5) & ~(y < 0.1)
    return m.where(mask, x, -y), mask.sum(axis=0)


def _float_zoo(m, a, b):
    return (m.maximum(a, b) + m.fmin(a, b) + m.logaddexp(a, b) + m.logaddexp2(a, b)
            + m.hypot(a, b) + m.arctan2(a, b) + m.heaviside(a - 0.5, b) + m.copysign(a, b - 0.5)
            + m.sign(a - 0.5) + a ** 2.5 + m.nextafter(a, b) + m.isnan(a) + m.signbit(b)
            + m.rint(a * 3) + m.cbrt(b) + m.arcsinh(a) + m.fmod(a, b) + m.reciprocal(b))


def _int_zoo(m, a, b, c):
    shifted = (a << (b & 7)) ^ (a >> 3) | ~b
    return (m.abs(a) + m.sign(b) + m.maximum(a, b) + shifted, c > a.astype(np.int64),
            m.minimum(a, b) // 3)


def _f(shape, dtype=np.float64):
    return RNG.random(shape).astype(dtype)


def _ints(shape, dtype=np.int64):
    """Small ints, the first one 0 (divisors include zero)."""
    out = RNG.integers(-20, 20, shape).astype(dtype)
    out.flat[0] = 0
    return out


def _nearest_center(m, points, centers):
    """k-means' assignment: the sum over coordinates nested in the argmin over centres."""
    return ((points[:, None, :] - centers[None, :, :]) ** 2).sum(axis=2).argmin(axis=1)


def _kmeans_sums(m, points, centers):
    """k-means' update: the nearest centre (argmin) scattered into per-centre sums and
    counts (bincount) in one kernel with scatter targets."""
    labels = _nearest_center(m, points, centers)
    return (m.bincount(labels, weights=points[:, 0], minlength=len(centers)),
            m.bincount(labels, minlength=len(centers)))


CANONICAL = {
    "fused_elementwise": (lambda m, a, b: m.exp(a) * b + 2.0 * m.sin(a - b), _f((64, 50)), _f(50)),
    "fused_elementwise_f32": (lambda m, a, b: m.exp(a) * b + 2.0, _f((64, 50), np.float32),
                              _f(50, np.float32)),
    "black_scholes": (_black_scholes, _f(1000) + 1, _f(1000) + 1, _f(1000) + 0.1),
    "black_scholes_f32": (_black_scholes, _f(1000, np.float32) + 1, _f(1000, np.float32) + 1,
                          _f(1000, np.float32) + 0.1),
    "row_softmax": (_softmax, _f((40, 300))),
    "row_softmax_f32": (_softmax, _f((40, 300), np.float32)),
    "layernorm": (_layernorm, _f((40, 300))),
    "layernorm_f32": (_layernorm, _f((40, 300), np.float32)),
    "sum_axis1": (lambda m, x: x.sum(axis=1), _f((40, 300))),
    "sum_axis0": (lambda m, x: x.sum(axis=0), _f((300, 40))),
    "mean_axis0_f32": (lambda m, x: x.mean(axis=0), _f((300, 40), np.float32)),
    "max_axis1": (lambda m, x: x.max(axis=1), _f((40, 300))),
    "argmax_axis1": (lambda m, x: x.argmax(axis=1), _f((40, 300))),
    "argmin_axis1_f32": (lambda m, x: x.argmin(axis=1), _f((40, 300), np.float32)),
    "full_sum": (lambda m, x: x.sum(), _f((300, 200))),
    "full_sum_f32": (lambda m, x: x.sum(), _f((300, 200), np.float32)),
    "full_max_and_mean": (lambda m, x: (x.max(), x.mean()), _f(5000)),
    "int_full_sum": (lambda m, x: (x * 3).sum(), _ints(5000, np.int32)),
    "transposed_view": (lambda m, x: m.sqrt(x.T[::2, ::-1]) + 1.0, _f((50, 60))),
    "broadcast": (lambda m, a, b: a[:, None] * b[None, :] - 1.0, _f(30), _f(40)),
    "int_floor_divide_modulo": (_floor_int, _ints((20, 30)), _ints(30)),
    "int32_floor_divide_modulo": (_floor_int, _ints((20, 30), np.int32), _ints(30, np.int32)),
    "uint8_floor_divide_modulo": (_floor_int, _ints((20, 30), np.int64).astype(np.uint8),
                                  _ints(30).astype(np.uint8)),
    "float_floor_divide_modulo": (_floor_int, _f((20, 30)) * 10 - 5, _f(30) * 4 - 2),
    "bool_masks": (_masked, _f((30, 40)), _f((30, 40))),
    "float32_floor_divide_modulo": (_floor_int, _f((20, 30), np.float32) * 10 - 5,
                                    _f(30, np.float32) * 4 - 2),
    "float32_assorted_ops": (_float_zoo, _f(500, np.float32), _f(500, np.float32)),
    "float64_assorted_ops": (_float_zoo, _f(500), _f(500)),
    "int16_assorted_ops": (_int_zoo, _ints(500, np.int16), _ints(500, np.int16),
                           np.arange(500, dtype=np.uint64)),
    "nearest_center": (_nearest_center, _f((500, 3)), _f((7, 3))),
    "kmeans_sums": (_kmeans_sums, _f((500, 2)), _f((5, 2))),
    "bincount_weights": (lambda m, i, w: m.bincount(i, weights=w * 2.0, minlength=12),
                         np.abs(_ints(300)), _f(300)),
    "casts": (lambda m, x: (x * 1e3).astype(np.int32).astype(np.float32) + (x > 0.5),
              _f(1000) - 0.5),
}

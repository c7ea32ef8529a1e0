"""Random shapes, dtypes and array values for fuzz programs, and their literal source text.

Values are chosen so that exact comparisons stay meaningful: small integers, and floats that
are multiples of 1/2 (so sums, products and float32 round trips are exact), with a few NaNs,
infinities and signed zeros now and then.  ``is_clean`` tells whether a float value is still
exact enough for the operations whose result would flip on a last-bit difference
(comparisons, floor division, casts to integers, unique).
"""
from __future__ import annotations

import math

import numpy

BOOL = "bool"
SIGNED = ("int8", "int16", "int32", "int64")
UNSIGNED = ("uint8", "uint16", "uint32", "uint64")
INTEGER = SIGNED + UNSIGNED
FLOAT = ("float32", "float64")
HALF = "float16"                       # float16 and complex join the draws, not the float-only
COMPLEX = ("complex64", "complex128")  # statement filters (FLOAT): NumPy's errors are compared
ALL_DTYPES = (BOOL,) + INTEGER + FLOAT + (HALF,) + COMPLEX
SUPPORTED = frozenset(numpy.dtype(name) for name in ALL_DTYPES)

MAX_SIZE = 150          # no variable grows past this many elements (programs stay fast)
CLEAN_STEP = 2.0 ** -8  # clean floats are multiples of this ...
CLEAN_LIMIT = 2.0 ** 20  # ... below this magnitude (so float32 holds them exactly too)


def dtype_text(name: str) -> str:
    """How a statement names a dtype (the same text works for numpy and lazynum)."""
    return "np.bool_" if name == BOOL else f"np.{name}"


def random_dtype(rng, weights=None) -> str:
    if weights is None:
        weights = {"bool": 2, "int8": 2, "int16": 1, "int32": 2, "int64": 3, "uint8": 2,
                   "uint16": 1, "uint32": 1, "uint64": 1, "float32": 3, "float64": 5,
                   "float16": 1, "complex64": 1, "complex128": 1}
    names = list(weights)
    return rng.choices(names, weights=[weights[n] for n in names])[0]


def random_shape(rng, max_ndim=3, allow_empty=True) -> tuple:
    ndim = rng.choices([0, 1, 2, 3, 4][: max_ndim + 1], weights=[2, 5, 6, 3, 1][: max_ndim + 1])[0]
    sides = []
    for _ in range(ndim):
        if allow_empty and rng.random() < 0.06:
            sides.append(0)
        else:
            sides.append(rng.choices([1, 2, 3, 4, 5, 6], weights=[3, 5, 5, 4, 2, 1])[0])
    while math.prod(sides) > 60:
        sides[sides.index(max(sides))] -= 1
    return tuple(sides)


def related_shape(rng, shape: tuple) -> tuple:
    """A shape that broadcasts with ``shape`` most of the time: equal, a suffix, or 1s."""
    choice = rng.random()
    if choice < 0.45:
        return shape
    if choice < 0.7 and shape:
        return shape[rng.randrange(len(shape) + 1):]
    if choice < 0.9:
        return tuple(1 if rng.random() < 0.4 else side for side in shape)
    return random_shape(rng)


def random_scalar(rng, dtype: str):
    """One Python value that ``dtype`` holds exactly (small, clean)."""
    if dtype in COMPLEX:
        return complex(random_scalar(rng, "float64"), random_scalar(rng, "float64"))
    if dtype == BOOL:
        return rng.random() < 0.5
    if dtype in SIGNED:
        if dtype == "int8" and rng.random() < 0.03:
            return rng.choice([127, -128])
        return rng.randint(-6, 6)
    if dtype in UNSIGNED:
        if dtype == "uint8" and rng.random() < 0.03:
            return 255
        return rng.randint(0, 9)
    special = rng.random()
    if special < 0.015:
        return math.nan
    if special < 0.025:
        return rng.choice([math.inf, -math.inf])
    if special < 0.035:
        return -0.0
    return rng.randint(-8, 8) * 0.5


def random_array(rng, shape: tuple, dtype: str) -> numpy.ndarray:
    count = math.prod(shape)
    values = [random_scalar(rng, dtype) for _ in range(count)]
    return numpy.array(values, dtype=dtype).reshape(shape)


def is_clean(value) -> bool:
    """Whether every float in ``value`` is exactly representable by the fuzz's clean grid."""
    array = numpy.asarray(value)
    if array.dtype.kind == "c":
        return is_clean(array.real) and is_clean(array.imag)
    if array.dtype.kind != "f" or array.size == 0:
        return True
    finite = array[numpy.isfinite(array)].astype(numpy.float64)
    if finite.size == 0:
        return True
    if numpy.abs(finite).max() >= CLEAN_LIMIT:
        return False
    scaled = finite / CLEAN_STEP
    return bool(numpy.all(scaled == numpy.round(scaled)))


def has_signaling_nan(value) -> bool:
    """Whether a float16 ``value`` holds a signaling NaN (quiet bit clear).  NumPy 2.4's
    float16 quicksort writes NaNs back as 0x7c01, and its ``fmax``/``fmin`` then return NaN
    where a quiet NaN gives the other operand: NumPy's own quirk, not a value to compare."""
    array = numpy.asarray(value)
    if array.dtype != numpy.float16 or array.size == 0:
        return False
    bits = array.view(numpy.uint16)
    return bool(numpy.any(((bits & 0x7C00) == 0x7C00) & ((bits & 0x03FF) != 0) & ((bits & 0x0200) == 0)))


def cast_is_defined(value, dtype: str) -> bool:
    """NumPy leaves float-to-integer casts of NaN, infinities and out-of-range values
    undefined (lazynum documents its own answer), so programs avoid them."""
    array = numpy.asarray(value)
    if array.dtype.kind == "c":          # a complex cast drops the imaginary part (a warning)
        return dtype in COMPLEX or cast_is_defined(array.real, dtype)
    if array.dtype.kind != "f" or numpy.dtype(dtype).kind not in "iu":
        return True
    if array.size == 0:
        return True
    if not numpy.all(numpy.isfinite(array)):
        return False
    info = numpy.iinfo(dtype)
    truncated = numpy.trunc(array.astype(numpy.float64))
    # int64/uint64 bounds are not exact in float64; stay well inside them
    return bool(truncated.min() >= max(info.min, -2.0 ** 52) and truncated.max() <= min(info.max, 2.0 ** 52))


def python_literal(value) -> str:
    """Source text for a Python scalar (NaN and infinities through numpy's names)."""
    if isinstance(value, (bool, numpy.bool_)):
        return repr(bool(value))
    if isinstance(value, (int, numpy.integer)):
        return repr(int(value))
    if isinstance(value, (complex, numpy.complexfloating)):
        return f"complex({python_literal(value.real)}, {python_literal(value.imag)})"
    value = float(value)
    if math.isnan(value):
        return "numpy.nan"
    if math.isinf(value):
        return "numpy.inf" if value > 0 else "-numpy.inf"
    return repr(value)


def _nested(values) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_nested(v) for v in values) + "]"
    return python_literal(values)


def array_literal(array: numpy.ndarray) -> str:
    """``numpy.array(...)`` source text that rebuilds ``array`` exactly (dtype, shape, values)."""
    array = numpy.asarray(array)
    dtype = f"numpy.{array.dtype.name}" if array.dtype.name != "bool" else "numpy.bool_"
    if array.size == 0:
        return f"numpy.zeros({tuple(array.shape)!r}, dtype={dtype})"
    return f"numpy.array({_nested(array.tolist())}, dtype={dtype})"

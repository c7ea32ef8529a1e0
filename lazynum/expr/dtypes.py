"""Dtypes lazynum supports and NumPy 2 (NEP 50) promotion.

Promotion follows NumPy exactly by asking NumPy's own type resolution: lazynum's contract
is "the same result dtype as NumPy for every op", so the table is NumPy's, not a copy.
Python scalars are *weak*: they take the array's dtype when they fit (NEP 50).
"""
from __future__ import annotations

import numpy as _np

bool_ = _np.bool_
int8, int16, int32, int64 = _np.int8, _np.int16, _np.int32, _np.int64
uint8, uint16, uint32, uint64 = _np.uint8, _np.uint16, _np.uint32, _np.uint64
float16, float32, float64 = _np.float16, _np.float32, _np.float64
complex64, complex128 = _np.complex64, _np.complex128
half, csingle, cdouble, complexfloating = _np.float16, _np.complex64, _np.complex128, _np.complexfloating
intp, uintp = _np.intp, _np.uintp
float_, int_ = _np.float64, _np.int64
double, single = _np.float64, _np.float32
byte, short, intc, longlong = _np.byte, _np.short, _np.intc, _np.longlong
ubyte, ushort, uintc, ulonglong = _np.ubyte, _np.ushort, _np.uintc, _np.ulonglong
dtype = _np.dtype
finfo, iinfo = _np.finfo, _np.iinfo
generic, number, integer, signedinteger, unsignedinteger, floating, inexact = (
    _np.generic, _np.number, _np.integer, _np.signedinteger, _np.unsignedinteger,
    _np.floating, _np.inexact)
issubdtype, can_cast, promote_types = _np.issubdtype, _np.can_cast, _np.promote_types

SUPPORTED = frozenset(_np.dtype(t) for t in (
    bool_, int8, int16, int32, int64, uint8, uint16, uint32, uint64, float16, float32, float64,
    complex64, complex128))
BOOL = _np.dtype(bool_)
INT64 = _np.dtype(int64)
UINT64 = _np.dtype(uint64)
FLOAT64 = _np.dtype(float64)
FLOAT16 = _np.dtype(float16)
COMPLEX = frozenset((_np.dtype(complex64), _np.dtype(complex128)))


class UnsupportedDtype(TypeError):
    """A dtype lazynum has no lazy form of (datetime, strings, structured, object,
    longdouble): the namespace catches it and runs the operation on NumPy-backed arrays
    (``lazynum.eager``); without that layer it is the TypeError users see."""


def check(dt: _np.dtype, what: str = "array") -> _np.dtype:
    """Raise UnsupportedDtype (a TypeError) unless ``dt`` is a dtype lazynum computes with."""
    if dt not in SUPPORTED:
        raise UnsupportedDtype(f"lazynum does not support dtype {dt} (for {what}); supported: "
                        + ", ".join(sorted(str(d) for d in SUPPORTED)))
    return dt


def normalize(spec, what: str = "dtype argument") -> _np.dtype:
    """``numpy.dtype(spec)`` restricted to the supported set (TypeError otherwise)."""
    try:
        dt = _np.dtype(spec)
    except TypeError as exc:
        raise TypeError(f"{spec!r} is not a valid dtype ({what})") from exc
    return check(dt, what)


def result_type(*operands) -> _np.dtype:
    """``numpy.result_type`` over arrays, dtypes and weak Python scalars (NEP 50)."""
    converted = [op.dtype if hasattr(op, "dtype") and not isinstance(op, _np.generic) and not
                 isinstance(op, type) else op for op in operands]
    return check(_np.result_type(*converted), "result")


def sum_dtype(dt: _np.dtype) -> _np.dtype:
    """Accumulator dtype NumPy's ``sum``/``prod``/``cumsum`` use when no dtype is given."""
    if dt == BOOL or (dt.kind == "i" and dt.itemsize < 8):
        return INT64
    if dt.kind == "u" and dt.itemsize < 8:
        return UINT64
    return dt

"""``fmax.at``/``fmin.at`` between +0.0 and -0.0: which zero NumPy keeps is its loop's choice.

NumPy 2.4 keeps the value on a tie when ``at`` runs its indexed loop (the array's dtype is
the loop's) and the array's element when it casts (a float32 array and float64 values run
the float64 loop one element at a time); its plain ``fmax`` even differs between the SIMD
body and the remainder of one call.  lazynum keeps one answer per backend (README: known
deviations).  The runner accepts exactly that difference: when NumPy's run met such a tie,
a variable whose bytes, read as the tied array's dtype, differ from NumPy's only in the
sign of zeros matches (a float variable already compares zeros without their sign; a
bit view of the tied array, such as an int64 array it was viewed from, needs this).
"""
from __future__ import annotations

import ast

import numpy

_UFUNCS = ("fmax", "fmin")


def _at_call(text: str):
    """(ufunc name, target source, index source, values source) of ``np.fmax.at(x, i, v)``."""
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return None
    if len(tree.body) != 1 or not isinstance(tree.body[0], ast.Expr):
        return None
    call = tree.body[0].value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "at"
            and isinstance(call.func.value, ast.Attribute) and call.func.value.attr in _UFUNCS
            and len(call.args) == 3 and not call.keywords):
        return None
    return (call.func.value.attr,) + tuple(ast.unparse(arg) for arg in call.args)


def zero_tie(text: str, ns: dict):
    """The target's dtype when statement ``text``, about to run with NumPy in ``ns``, is
    an ``fmax.at``/``fmin.at`` that meets +0.0 against -0.0; else None."""
    found = _at_call(text)
    if found is None:
        return None
    name, target, index, values = found
    try:
        x = numpy.array(eval(target, ns))          # noqa: S307  (the program's own text)
        rows = numpy.asarray(eval(index, ns)).reshape(-1)
        v = numpy.broadcast_to(eval(values, ns), rows.shape + x.shape[1:])
    except Exception:                              # noqa: BLE001  (NumPy's run reports it)
        return None
    if x.dtype.kind != "f" or numpy.asarray(v).dtype.kind not in "fiub":
        return None
    ufunc = getattr(numpy, name)
    with numpy.errstate(all="ignore"):
        for j, row in enumerate(rows):
            if not -len(x) <= row < len(x):
                return None
            old, new = x[row], numpy.asarray(v[j], dtype=numpy.float64)
            if numpy.any((old == 0) & (new == 0) & (numpy.signbit(old) != numpy.signbit(new))):
                return x.dtype
            x[row] = ufunc(old, new)
    return None


def zero_signs_only(want: numpy.ndarray, got: numpy.ndarray, dtype) -> bool:
    """Whether ``got``'s bytes, read as ``dtype``, differ from ``want``'s only where both
    hold a zero (of either sign)."""
    dtype = numpy.dtype(dtype)
    if want.shape != got.shape or want.dtype != got.dtype or want.nbytes % dtype.itemsize:
        return False
    a = numpy.ascontiguousarray(want).reshape(-1).view(dtype)
    b = numpy.ascontiguousarray(got).reshape(-1).view(dtype)
    bits = numpy.dtype(f"u{dtype.itemsize}")
    differ = a.view(bits) != b.view(bits)
    return bool(numpy.all((a[differ] == 0) & (b[differ] == 0)))

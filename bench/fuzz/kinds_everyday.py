"""Statement kinds for everyday NumPy the other kinds leave out: one-argument ``where``,
sort kinds, ``take_along_axis``/``put_along_axis``, ``searchsorted`` forms, scans with
``dtype=``, NaN-ignoring reductions, wrapping integer casts, writes through views of views,
more ``out=`` (and ``where=``) forms, and NEP 50 promotion with Python and NumPy scalars."""
from __future__ import annotations

import numpy

from .program import Candidate
from .texts import (axis_text, basic_index, broadcasts_to, dtype_name, dtype_text, partner,
    rhs_for, scalar_literal, threshold)
from .values import BOOL, FLOAT, INTEGER, SIGNED, UNSIGNED, cast_is_defined, is_clean

SORT_KINDS = ["quicksort", "mergesort", "heapsort", "stable"]


def _no_ties(value, axis) -> bool:
    """Whether every lane along ``axis`` holds distinct values (NaN counts as a tie), so an
    argsort of any kind has one answer."""
    array = numpy.asarray(value)
    if array.dtype.kind in "fc" and numpy.isnan(array).any():
        return False
    if axis is None:
        array, axis = array.ravel(), 0
    ordered = numpy.sort(array, axis=axis)
    return not numpy.any(numpy.diff(ordered, axis=axis) == 0)


def where_one(g):
    """``np.where(x)`` (nonzero's tuple, bounded), unpacked or indexed."""
    x = g.pick(clean=True)
    if x is None:
        return None
    ndim = numpy.ndim(g.value(x))
    condition = x if g.chance(0.5) else f"{x} > {threshold(g, x)}"
    if 1 <= ndim <= 2 and g.chance(0.5):
        targets = ", ".join(g.fresh() for _ in range(ndim))
        return Candidate(f"{targets} = np.where({condition})", "produce.where1", bounded=True)
    part = f"[{g.rng.randrange(ndim)}]" if ndim else ""
    return Candidate(f"{g.fresh()} = np.where({condition}){part}", "produce.where1", bounded=True)


def sort_kinds(g):
    """``np.sort``/``x.sort`` with every ``kind`` and ``axis=None``; ``argsort`` with a
    non-stable kind only where no lane has ties (else NumPy's own answer is one of many)."""
    x = g.pick(lambda v: numpy.ndim(v) >= 1)
    if x is None:
        return None
    value = g.value(x)
    ndim = numpy.ndim(value)
    kind = g.rng.choice(SORT_KINDS)
    axis = None if g.chance(0.2) else g.rng.randrange(-ndim, ndim)
    roll = g.rng.random()
    if roll < 0.45:
        return Candidate(f"{g.fresh()} = np.sort({x}, axis={axis}, kind='{kind}')", "sort.kinds")
    if roll < 0.6 and isinstance(value, numpy.ndarray) and axis is not None and x not in g.frozen:
        return Candidate(f"{x}.sort(axis={axis}, kind='{kind}')", "write.sort:kinds")
    if roll < 0.75:
        return Candidate(f"{g.fresh()} = np.argsort({x}, axis={axis}, stable=True)", "sort.kinds")
    if not _no_ties(value, axis):
        kind = "stable"
    return Candidate(f"{g.fresh()} = np.argsort({x}, axis={axis}, kind='{kind}')", "sort.kinds")


def _along_indices(g, x, axis):
    """Indices with one answer: argmax/argmin per lane (keepdims) or a stable argsort."""
    if g.chance(0.5) and numpy.shape(g.value(x))[axis] > 0:
        return f"np.{g.rng.choice(['argmax', 'argmin'])}({x}, axis={axis}, keepdims=True)"
    return f"np.argsort({x}, axis={axis}, kind='stable')"


def _along_operand(g, writable):
    accept = lambda v: numpy.ndim(v) >= 1 and dtype_name(v) != BOOL      # noqa: E731
    return g.pick(accept, clean=True, writable=writable)


def take_along(g):
    """``take_along_axis`` with argsort/argmax indices (and axis=None on a ravel)."""
    x = _along_operand(g, writable=False)
    if x is None:
        return None
    ndim = numpy.ndim(g.value(x))
    axis = g.rng.randrange(-ndim, ndim)
    form = f"np.take_along_axis({x}, {_along_indices(g, x, axis)}, axis={axis})"
    if g.chance(0.15):
        form = f"np.take_along_axis({x}.ravel(), np.argsort({x}, axis=None, kind='stable'), axis=None)"
    return Candidate(f"{g.fresh()} = {form}", "along_axis.take")


def put_along(g):
    """``put_along_axis`` (one index per lane, or a permutation: no position written twice)
    of a scalar or of values taken along the same indices."""
    x = _along_operand(g, writable=True)
    if x is None:
        return None
    value = g.value(x)
    axis = g.rng.randrange(-value.ndim, value.ndim)
    indices = _along_indices(g, x, axis)
    rhs = scalar_literal(g, dtype_name(value))
    if g.chance(0.3):
        rhs = f"np.take_along_axis({x}, {indices}, axis={axis}) * 2"
    return Candidate(f"np.put_along_axis({x}, {indices}, {rhs}, axis={axis})", "write.along_axis")


def searchsorted(g):
    """``searchsorted`` of scalars or arrays, both sides, with a ``sorter`` now and then."""
    x = g.pick(lambda v: numpy.ndim(v) >= 1 and dtype_name(v) not in (BOOL, "complex64", "complex128"))
    if x is None:
        return None
    value = g.value(x)
    haystack = f"np.sort({x}.ravel())" if numpy.ndim(value) > 1 or g.chance(0.6) else x
    sorter = ""
    if haystack == x:
        sorter = f", sorter=np.argsort({x}, kind='stable')"
    side = g.rng.choice(["", ", side='left'", ", side='right'"])
    needles = partner(g, x) if g.chance(0.4) else None
    if needles is None or dtype_name(g.value(needles)) in ("complex64", "complex128"):
        needles = threshold(g, x)
    return Candidate(f"{g.fresh()} = np.searchsorted({haystack}, {needles}{side}{sorter})", "searchsorted")


SCAN_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint32", "float32", "float64"]


def scan_dtype(g):
    """``cumsum``/``cumprod`` (and ``cumulative_sum``) with ``dtype=``: accumulation in the
    named type, wrapping where it is a narrow integer."""
    x = g.pick(lambda v: dtype_name(v) not in ("complex64", "complex128"))
    if x is None:
        return None
    value = g.value(x)
    dtype = g.rng.choice(SCAN_DTYPES)
    if not cast_is_defined(value, dtype):
        return None
    ndim = numpy.ndim(value)
    axis = axis_text(g, ndim, allow_tuple=False)
    func = g.rng.choice(["cumsum", "cumsum", "cumprod"])
    if g.chance(0.2) and ndim:
        initial = ", include_initial=True" if g.chance(0.5) else ""
        axis = axis if axis != "None" or ndim == 1 else "0"
        form = f"np.cumulative_sum({x}, axis={axis}, dtype={dtype_text(dtype)}{initial})"
    elif g.chance(0.5):
        form = f"np.{func}({x}, axis={axis}, dtype={dtype_text(dtype)})"
    else:
        form = f"{x}.{func}(axis={axis}, dtype={dtype_text(dtype)})"
    return Candidate(f"{g.fresh()} = {form}", "reduce.scan_dtype")


NAN_REDUCTIONS = {     # name -> whether an ulp of the operand decides the result
    "nansum": False, "nanprod": False, "nanmean": False, "nanvar": False, "nanstd": False,
    "nanmax": True, "nanmin": True, "nanmedian": False, "nancumsum": False, "nancumprod": False,
}


def nan_reduction(g):
    """NaN-ignoring reductions and scans (an all-NaN lane warns, as NumPy does)."""
    name = g.rng.choice(list(NAN_REDUCTIONS))
    x = g.pick(lambda v: dtype_name(v) not in ("complex64", "complex128"), clean=NAN_REDUCTIONS[name])
    if x is None:
        return None
    ndim = numpy.ndim(g.value(x))
    scan = name.startswith("nancum")
    axis = axis_text(g, ndim, allow_tuple=not scan)
    keepdims = ", keepdims=True" if not scan and g.chance(0.25) else ""
    ddof = ", ddof=1" if name in ("nanvar", "nanstd") and g.chance(0.3) else ""
    return Candidate(f"{g.fresh()} = np.{name}({x}, axis={axis}{keepdims}{ddof})", "reduce.nan")


def nan_arg(g):
    """``nanargmax``/``nanargmin``, whose ValueError on an all-NaN lane only the data reveal."""
    x = g.pick(lambda v: dtype_name(v) not in ("complex64", "complex128"), clean=True)
    if x is None:
        return None
    ndim = numpy.ndim(g.value(x))
    keepdims = ", keepdims=True" if g.chance(0.25) else ""
    name = g.rng.choice(["nanargmax", "nanargmin"])
    return Candidate(f"{g.fresh()} = np.{name}({x}, axis={axis_text(g, ndim, allow_tuple=False)}{keepdims})",
                     "reduce.nanarg")


def wrapping_cast(g):
    """Integer casts that wrap (NumPy's modular conversion), from arithmetic that overflows
    or values out of the target's range."""
    x = g.pick(lambda v: dtype_name(v) in INTEGER + (BOOL,))
    if x is None:
        return None
    target = g.rng.choice(["int8", "uint8", "int16", "uint16", "int32", "uint32", "uint64"])
    source = g.rng.choice([x, f"({x} * 100)", f"({x} - 3)", f"({x}.astype(np.int64) * 40000)"])
    form = g.rng.choice([f"{source}.astype({dtype_text(target)})",
                         f"np.asarray({source}, dtype={dtype_text(target)})",
                         f"{source}.astype({dtype_text(target)}).astype(np.int64)"])
    return Candidate(f"{g.fresh()} = {form}", "cast.wrapping")


def view_of_view_write(g):
    """A write through a view of a view: ``x[i][j] op= v``, ``x.T[i] = v``, ``x[i].fill(v)``."""
    x = g.pick(lambda v: numpy.ndim(v) >= 1, clean=False, writable=True)
    if x is None:
        return None
    value = g.value(x)
    roll = g.rng.random()
    first = (f"{x}[{basic_index(g, value.shape)}]" if roll < 0.6 else
             f"{x}.T" if roll < 0.8 else f"np.swapaxes({x}, 0, -1)" if g.chance(0.5) else f"{x}[::-1]")
    try:
        middle = g.value(first)
    except Exception:                  # noqa: BLE001  (NumPy will say at the statement)
        return None
    if not isinstance(middle, numpy.ndarray) or middle.ndim == 0:
        return None                    # a NumPy scalar: lazynum's 0-d view differs by design
    target = f"{first}[{basic_index(g, middle.shape)}]"
    try:
        region = g.value(target)
    except Exception:                  # noqa: BLE001
        region = middle
    shape, dtype = numpy.shape(region), value.dtype.name
    if not isinstance(region, numpy.ndarray):
        return None
    form = g.rng.random()
    if form < 0.4:
        text = f"{target} = {rhs_for(g, shape, dtype)}"
    elif form < 0.8:
        op = g.rng.choice(["+=", "-=", "*=", "+="])
        text = f"{target} {op} {rhs_for(g, shape, dtype)}"
    else:
        text = f"{target}.fill({scalar_literal(g, dtype)})"
    return Candidate(text, "write.view_of_view")


OUT_UFUNCS = ["np.add", "np.subtract", "np.multiply", "np.maximum", "np.minimum", "np.true_divide",
              "np.floor_divide"]


def out_forms(g):
    """``out=`` into a view, ``out=`` of another dtype (NumPy's same_kind rule), ``where=``
    with ``out=``, and ``out=`` of clip, cumsum, sum and sqrt."""
    x = g.pick(lambda v: numpy.ndim(v) >= 1, clean=False, writable=True)
    if x is None:
        return None
    value = g.value(x)
    roll = g.rng.random()
    if roll < 0.35:
        view = f"{x}[{basic_index(g, value.shape)}]"
        try:
            region = g.value(view)
        except Exception:                  # noqa: BLE001
            return None
        if not isinstance(region, numpy.ndarray) or region.ndim == 0:
            return None
        y = g.pick(lambda v: broadcasts_to(numpy.shape(v), region.shape), clean=True) or scalar_literal(g, value.dtype.name)
        text = f"{g.rng.choice(OUT_UFUNCS)}({view}, {y}, out={view})"
    elif roll < 0.55:
        y = g.pick(lambda v: broadcasts_to(numpy.shape(v), value.shape), clean=True)
        if y is None:
            return None
        mask = g.pick(lambda v: dtype_name(v) == BOOL and broadcasts_to(numpy.shape(v), value.shape), clean=False)
        mask = mask or f"{y} > {threshold(g, y)}"
        text = f"{g.rng.choice(OUT_UFUNCS[:5])}({x}, {y}, out={x}, where={mask})"
    elif roll < 0.7:
        lo, hi = threshold(g, x), threshold(g, x)
        y = g.pick(lambda v: numpy.shape(v) == value.shape and dtype_name(v) == value.dtype.name) or x
        text = f"np.clip({y}, {lo}, {hi}, out={x})"
    elif roll < 0.85:
        y = g.pick(lambda v: numpy.shape(v) == value.shape, clean=False) or x
        axis = g.rng.randrange(value.ndim)
        text = f"np.{g.rng.choice(['cumsum', 'cumprod'])}({y}, axis={axis}, out={x})"
    else:
        ndim = value.ndim + 1
        y = g.pick(lambda v: numpy.ndim(v) == ndim and numpy.shape(v)[-1:] == value.shape[-1:]
                   and numpy.shape(v)[1:] == value.shape, clean=False)
        text = (f"np.sum({y}, axis=0, out={x})" if y is not None else
                f"np.sqrt(np.abs({x}), out={x})" if value.dtype.kind in "fc" else None)
        if text is None:
            return None
    return Candidate(text, "write.out_forms")


def promotion(g):
    """NEP 50: Python scalars are weak (``float32 + 3`` stays float32, ``int8 + 300`` raises
    OverflowError, ``uint8 < -1`` compares), NumPy scalars and arrays are strong
    (``float32 + np.float64(2)`` is float64, ``int64 + float32`` is float64)."""
    x = g.pick(lambda v: dtype_name(v) in INTEGER + FLOAT + (BOOL, "float16"))
    if x is None:
        return None
    name = dtype_name(g.value(x))
    roll = g.rng.random()
    op = g.rng.choice(["+", "-", "*", "/", "<", "==", "//"])
    if roll < 0.3:
        scalar = g.rng.choice(["3", "-1", "2.5", "-0.5", "300", "-129", "70000", "2 ** 33", "True",
                               "1e40", "numpy.inf"])
        text = f"{x} {op} {scalar}" if g.chance(0.7) else f"{scalar} {op} {x}"
    elif roll < 0.55:
        kind = g.rng.choice(["float64", "float32", "int64", "int8", "uint8", "int16", "float16"])
        literal = "2.5" if kind in FLOAT + ("float16",) else "3"
        text = f"{x} {op} numpy.{kind}({literal})" if g.chance(0.6) else f"numpy.{kind}({literal}) {op} {x}"
    elif roll < 0.8:
        other = g.pick(lambda v: dtype_name(v) != name and dtype_name(v) in INTEGER + FLOAT + (BOOL, "float16"))
        if other is None:
            return None
        text = f"{x} {op} {other}"
    else:
        dtype = g.rng.choice(["float32", "float64", "int64", "int32", "int16"])
        func = g.rng.choice(["np.add", "np.multiply", "np.subtract"])
        scalar = g.rng.choice(["3", "2.5", "-1"])
        text = f"{func}({x}, {scalar}, dtype={dtype_text(dtype)})"
    if op == "//" and name in SIGNED + UNSIGNED and "numpy.float" not in text and not is_clean(g.value(x)):
        return None
    return Candidate(f"{g.fresh()} = {text}", "promotion")


KINDS = {
    "produce.where1": (where_one, 1),
    "sort.kinds": (sort_kinds, 2),
    "along_axis.take": (take_along, 1),
    "write.along_axis": (put_along, 1),
    "searchsorted": (searchsorted, 2),
    "reduce.scan_dtype": (scan_dtype, 2),
    "reduce.nan": (nan_reduction, 3),
    "reduce.nanarg": (nan_arg, 1),
    "cast.wrapping": (wrapping_cast, 2),
    "write.view_of_view": (view_of_view_write, 4),
    "write.out_forms": (out_forms, 3),
    "promotion": (promotion, 4),
}

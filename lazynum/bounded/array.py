"""``BoundedArray``: an array whose dims may be bounded (``docs/bounded-dims.md``).

A bounded dim has an upper bound (static or symbolic) and a run-time size that is a lazy
int64 0-d array.  The data is a plain lazynum array padded to the bounds (its *physical*
shape); the padding never reaches a result: reductions mask it, syncs slice it off.

The contract is narrow on purpose: the operations of ``ops_table`` (ufuncs and operators,
reductions, scans, sorting, indexing) run lazily on the padded data; anything else
*materializes* the array (one counted sync, reason ``bounded``), then runs on the
true-size result.  Slower, never wrong.
"""
from __future__ import annotations

import functools
import operator

import numpy as np

from ..array.arraytype import ndarray, wrap
from ..array.layout import new_array_order
from ..runtime import sync_nodes
from ..frontend import creation


class LazySize:
    """A bounded dim's run-time size as ``shape`` shows it: lazy until Python needs an int.

    Arithmetic with ints and other LazySizes stays lazy (and keeps an upper bound, so the
    result can size a new bounded array), and so does arithmetic with lazy arrays (the
    size is a lazy 0-d int64 there).  Everything else behaves as NumPy's int does and syncs
    (counted as ``bounded_size``): ``int()``, ``index``, ``str``, ``format`` and f-strings,
    ``float``, ``bool``, comparisons, hashing, ``numpy.asarray``, true division and any
    arithmetic with floats.  ``repr`` shows ``<=bound`` without syncing.
    """
    __slots__ = ("value", "bound")

    def __init__(self, value: ndarray, bound):
        self.value = value          # a lazy 0-d int64 array
        self.bound = bound          # an int (maybe a SymInt) or None when not known

    def __repr__(self):
        return f"<={int(self.bound)}" if self.bound is not None else "<=?"

    def _concrete(self) -> int:
        return int(_value(self.value, "bounded_size"))

    __int__ = __index__ = _concrete

    def __str__(self):
        return str(self._concrete())

    def __format__(self, spec):
        return format(self._concrete(), spec)

    def __float__(self):
        return float(self._concrete())

    def __bool__(self):
        return self._concrete() != 0

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self._concrete(), dtype=dtype)

    def __hash__(self):
        return hash(self._concrete())

    def __neg__(self):
        return -self._concrete()

    def __pos__(self):
        return self._concrete()

    def __abs__(self):
        return self._concrete()

    def _arith(name, bound_rule):  # noqa: N805 - a method factory used in the class body
        def method(self, other):
            if isinstance(other, LazySize):
                value, other_bound = getattr(self.value, name)(other.value), other.bound
            elif isinstance(other, (int, np.integer)) and not isinstance(other, bool):
                value, other_bound = getattr(self.value, name)(int(other)), int(other)
            else:
                return _eager(self, other, name)
            bound = None if self.bound is None or other_bound is None else bound_rule(self.bound, other_bound)
            return LazySize(value, bound)
        return method

    __add__ = __radd__ = _arith("__add__", lambda a, b: a + b)
    __mul__ = __rmul__ = _arith("__mul__", lambda a, b: a * b if b >= 0 else None)
    __floordiv__ = _arith("__floordiv__", lambda a, b: a // b if b > 0 else None)
    del _arith

    def __sub__(self, other):
        if isinstance(other, LazySize):      # size - size <= bound (sizes are >= 0)
            return LazySize(self.value - other.value, self.bound)
        if isinstance(other, (int, np.integer)) and not isinstance(other, bool):
            bound = None if self.bound is None else self.bound - int(other)
            return LazySize(self.value - int(other), bound)
        return _eager(self, other, "__sub__")

    def _compare(op):  # noqa: N805
        return lambda self, other: op(self._concrete(), int(other))

    __eq__ = _compare(int.__eq__)
    __ne__ = _compare(int.__ne__)
    __lt__ = _compare(int.__lt__)
    __le__ = _compare(int.__le__)
    __gt__ = _compare(int.__gt__)
    __ge__ = _compare(int.__ge__)
    del _compare


def _eager(size, other, name):
    """``size <name> other`` where the result is not a size: with a lazy array the size's
    lazy value takes part (no sync); with a Python or NumPy number, NumPy's int does."""
    if isinstance(other, ndarray):
        return getattr(size.value, name)(other)
    if isinstance(other, LazySize):
        other = other._concrete()
    if not isinstance(other, (int, float, np.number)):
        return NotImplemented
    if name.startswith("__r"):
        return getattr(operator, name[3:-2])(other, size._concrete())
    return getattr(operator, name[2:-2])(size._concrete(), other)


def _number_op(name):
    return lambda self, other: _eager(self, other, name)


for _name in ("truediv", "mod", "pow"):
    setattr(LazySize, f"__{_name}__", _number_op(f"__{_name}__"))
for _name in ("truediv", "mod", "pow", "sub", "floordiv"):
    setattr(LazySize, f"__r{_name}__", _number_op(f"__r{_name}__"))


def bounded_form(function, original):
    """``function`` as the namespace's ``original`` with a bounded form: NumPy's
    ``__array_function__`` on a bounded array calls exactly these, never a fallback
    wrapper (which would hand the bounded array back to NumPy, forever)."""
    functools.update_wrapper(function, original)
    function._bounded_form = True
    return function


def valid_mask(shape, sizes, axes=None) -> ndarray:
    """Bool array of the padded ``shape``: True inside the run-time ``sizes`` (one per dim,
    None for a regular dim) of the bounded ``axes`` (all when None)."""
    mask = None
    for k, size in enumerate(sizes):
        if size is None or (axes is not None and k not in axes):
            continue
        view = [1] * len(shape)
        view[k] = shape[k]
        inside = creation.arange(shape[k]).reshape(view) < size
        mask = inside if mask is None else mask & inside
    if mask is None:
        return creation.ones(shape, dtype=bool)
    return mask


def _snapshot(array):
    """``array``'s value now, as an array later writes to ``array`` do not reach."""
    return wrap(array._n()) if isinstance(array, ndarray) else array


def _value(array: ndarray, reason: str) -> np.ndarray:
    node = array._n()
    if node.buffer is None:
        sync_nodes([node], reason)
    return node.buffer


class BoundedArray:
    """A lazy array with bounded dims: padded ``data`` plus one size per bounded dim.

    Parameters
    ----------
    data : lazynum.ndarray
        The padded values; ``data.shape`` is the bound shape.
    sizes : tuple
        Per dim: None (a regular dim) or a lazy 0-d int64 array (the run-time size).
    rows : tuple, optional
        ``(source, keep)`` when ``data`` is ``compact(source, keep)`` along axis 0 (the
        only bounded dim): the same values before compaction, in place, with the mask that
        selects them.  Order-free reductions over axis 0 read ``source`` under ``keep``
        instead of ``data`` and so never need the compaction (both forms stay lazy: the
        one no result reads is never computed).  Both are taken at their current version
        (a selection is a value: later writes to the source do not reach it), and the
        pair is used only while ``data`` is unwritten (``_uncompacted``).

    Writes (``fill``, ``sort``, in-place operators, item/slice/mask assignment, ``out=``)
    go into ``data``'s storage, so views of a bounded array (its slices, transposes and
    reshapes, and the true-size array ``materialize`` returns) see them, as in NumPy.
    """
    __slots__ = ("_data", "_sizes", "_rows", "_rows_of", "_concrete", "__weakref__")
    __array_priority__ = 101

    def __init__(self, data: ndarray, sizes: tuple, rows: tuple | None = None):
        if len(sizes) != data.ndim:
            raise ValueError("one size (or None) per dim")
        self._data = data
        self._sizes = tuple(sizes)
        self._rows = None if rows is None else (_snapshot(rows[0]), _snapshot(rows[1]))
        self._rows_of = None if rows is None else data._n()
        self._concrete = None

    @property
    def _uncompacted(self) -> tuple | None:
        """``(source, keep)`` while the data is as compaction left it, else None."""
        if self._rows is not None and self._data._n() is not self._rows_of:
            self._rows = self._rows_of = None       # written since: the pair is stale
        return self._rows

    def _store(self, value: ndarray) -> None:
        """Write physical values (this dtype, each dim at most its bound) into the data,
        from its start: the one write every in-place form ends in."""
        region = tuple(slice(0, int(e)) for e in value.shape)
        self._data[region] = value

    # -- shape -------------------------------------------------------------------------------
    @property
    def shape(self) -> tuple:
        return tuple(d if s is None else LazySize(s, d) for s, d in zip(self._sizes, self._data.shape))

    @property
    def strides(self) -> tuple:
        """NumPy's strides for the true-size array: a new array in the memory order of the
        padded data (argwhere's is F order, so its column stride is the true row count times
        the itemsize).  A bounded size is synced only where a stride depends on it; data that
        is not contiguous in its order (a view) gives the synced true-size array's."""
        shape, element_strides, _ = self._data._layout()
        order = new_array_order((shape, element_strides, 0), "K") or tuple(range(len(shape)))
        step = 1
        for axis in reversed(order):
            if int(shape[axis]) > 1 and element_strides[axis] != step:
                return self.materialize("strides").strides
            step *= int(shape[axis])
        strides, step = [0] * len(shape), self.dtype.itemsize
        for k, axis in enumerate(reversed(order)):
            strides[axis] = step
            if k < len(order) - 1:       # the slowest axis's size never enters a stride
                size = self._sizes[axis]
                step *= int(shape[axis]) if size is None else int(LazySize(size, shape[axis]))
        return tuple(strides)

    @property
    def bound_shape(self) -> tuple:
        return tuple(int(d) for d in self._data.shape)

    @property
    def ndim(self) -> int:
        return self._data.ndim

    @property
    def dtype(self):
        return self._data.dtype

    @property
    def size(self):
        total = 1
        for d in self.shape:
            total = d * total if isinstance(d, LazySize) else total * d
        return total

    def __len__(self):
        if not self.ndim:
            raise TypeError("len() of unsized object")
        return int(self.shape[0])

    def valid_mask(self, axes=None) -> ndarray:
        """Bool data-shaped array: True inside the run-time sizes of the bounded ``axes``."""
        return valid_mask(self._data.shape, self._sizes, axes)

    # -- values ---------------------------------------------------------------------------------
    def materialize(self, reason: str = "bounded") -> ndarray:
        """The true-size array: a view of the data (one sync of the data and the sizes;
        cached), so what is written through it is written into this array."""
        if self._concrete is None:
            pending = self._pending_nodes()
            if pending:
                sync_nodes(pending, reason)
            key = tuple(slice(None) if s is None else slice(0, int(s._n().buffer)) for s in self._sizes)
            self._concrete = self._data[key] if key else self._data[...]
        return self._concrete

    def sync(self) -> "BoundedArray":
        """Compute the data and the sizes now (an explicit sync); returns ``self``."""
        sync_nodes(self._pending_nodes(), "explicit", explicit=True)
        return self

    def _pending_nodes(self) -> list:
        """The data's and the sizes' nodes still to compute (one sync computes them all)."""
        held = [self._data._n()] + [s._n() for s in self._sizes if s is not None]
        return [n for n in held if n.buffer is None]

    def __lazynum_array__(self) -> ndarray:
        """The lazynum array the front end reads this one as: the true-size view (a sync),
        so a function-form view (``np.transpose(y)``, ``np.broadcast_to``, ...) shares
        ``y``'s storage like the method forms."""
        return self.materialize("bounded")

    def __lazynum_sync_arrays__(self) -> list:
        """What a sync of this array computes: its padded data and its run-time sizes."""
        return [self._data, *[s for s in self._sizes if s is not None]]

    def __lazynum_graph_line__(self) -> str:
        """Its line in ``lazynum.graph_text``: ``bounded: float64[<=N] = data %a, sizes %b``."""
        dims = ", ".join(repr(d) if not isinstance(d, int) else str(d) for d in self.shape)
        sizes = ", ".join(f"%{s._n().id}" for s in self._sizes if s is not None)
        return f"bounded: {self.dtype}[{dims}] = data %{self._data._n().id}, sizes {sizes}"

    def __array__(self, dtype=None, copy=None):
        return self.materialize("__array__").__array__(dtype=dtype, copy=copy)

    def item(self, *args):
        return self.materialize("item").item(*args)

    def tolist(self):
        return self.materialize("tolist").tolist()

    def __repr__(self):
        return repr(self.materialize("print"))

    def __str__(self):
        return str(self.materialize("print"))

    def __getattr__(self, name):
        # Everything without a bounded implementation runs on the true-size array.
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.materialize("bounded"), name)

    # __array_function__ and __array_ufunc__: installed by bounded.dispatch (its forms).


def _through_true_size(reason, convert):
    return lambda self: convert(self.materialize(reason))


# Python's conversions need the values: each syncs (with its reason) and converts the
# true-size array exactly as a lazynum array converts.
for _name, _reason, _convert in (("__bool__", "bool", bool), ("__int__", "int", int),
                                 ("__float__", "float", float), ("__iter__", "iter", iter),
                                 ("__index__", "index", lambda a: a.__index__())):
    setattr(BoundedArray, _name, _through_true_size(_reason, _convert))


def materialized(value):
    """``value`` with every BoundedArray (also inside lists/tuples) made true-size."""
    if isinstance(value, BoundedArray):
        return value.materialize()
    if isinstance(value, (list, tuple)):
        return type(value)(materialized(v) for v in value)
    return value

"""Slices whose start or stop is data: writable windows with a run-time offset.

NumPy's ``x[s:e]`` with 0-d integer arrays ``s``, ``e`` is a basic slice, a view.  Here the
slice's length is data, so the result is a ``BoundedArray`` (bound = the sliced extent);
its padded data is a window over a ``DynamicWindowStorage``: the rows ``[start, start +
bound)`` of the base along one axis, read by a gather whose positions are clamped into
the base (padding rows repeat the last row, never read past it), and written back by a
select that replaces only the base's rows ``[start, start + size)``: the padding rows of a
write (``fill``, ``+=``, ``sort`` touch them) never reach the base.  Versions are the
base storage's, so the window sees later writes to the base and the base sees the
window's, and nothing computes (the pattern of ``array.reinterpret.BitcastStorage``).

``start`` and ``size`` are taken when the slice is (NumPy evaluates the bounds then): 0-d
int64 arrays with ``0 <= start``, ``start + size <= extent``; ``start`` None is a static 0
(a prefix ``x[:n]``: the read is the base itself, no gather).
"""
from __future__ import annotations

from ..array import layout as layouts
from ..array.arraytype import DerivedStorage, Storage, ViewState, ndarray, view_node, wrap
from ..expr import node as nodes
from ..expr.movement import VIEW_SCATTER
from ..frontend import creation, mathfuncs
from ..runtime import register_live
from ..runtime.writes import remember as remember_write


class DynamicWindowStorage(DerivedStorage):
    """Rows ``[start, start + bound)`` along ``axis`` of ``whole`` seen through ``span``."""
    __slots__ = ("span", "axis", "start", "size")

    def __init__(self, whole: Storage, span, axis: int, start, size):
        super().__init__(whole)
        self.span, self.axis, self.start, self.size = span, axis, start, size

    def _base(self, whole_node) -> ndarray:
        """The sliced array's value at ``whole_node`` (the base before the offset)."""
        return wrap(view_node(whole_node, self.span))

    def read(self, whole_node):
        return _shifted(self._base(whole_node), self.axis, self.start)._n()

    def back(self, value, whole) -> None:
        base = self._base(whole)
        n = base.shape[self.axis]
        rows = creation.arange(n)
        start = 0 if self.start is None else self.start
        inside = (rows >= start) & (rows < start + self.size)
        inside = inside.reshape(tuple(n if k == self.axis else 1 for k in range(base.ndim)))
        # base row j takes window row j - start (clamped: rows outside are not selected)
        back = mathfuncs.where(inside, _shifted(wrap(value), self.axis, None if self.start is None
                                                else -self.start), base)._n()
        if not layouts.is_identity(self.span, whole.shape):
            back = nodes.apply(VIEW_SCATTER, (whole, back), self.span)
        # Also remembered on the whole: undoing a failed write restores the whole's value
        # from before it (the window's own undo selects into the failed value).
        remember_write(self.whole, whole, back)
        self.whole.node = back


def _shifted(array: ndarray, axis: int, offset) -> ndarray:
    """``array``'s rows ``j + offset`` along ``axis`` (clamped into the array), for every
    row ``j``; ``offset`` None is 0 (the array itself)."""
    n = int(array.shape[axis])
    if offset is None or n == 0:
        return array
    positions = mathfuncs.clip(creation.arange(n) + offset, 0, n - 1)
    return array.take(positions, axis=axis)


def dynamic_window(base: ndarray, axis: int, start, size) -> ndarray:
    """A writable window over ``base``'s storage: its rows ``[start, start + bound)``
    along ``axis`` (``bound = base.shape[axis]``), of which the first ``size`` are the
    slice's (see the module docstring).  ``start`` (None: 0) and ``size``: lazy 0-d int64
    arrays, ``0 <= start <= start + size <= base.shape[axis]``."""
    view = base._view
    readonly = view is not None and view.readonly
    storage = DynamicWindowStorage(base._storage(), base._layout(), axis,
                                   None if start is None else wrap(start._n()), wrap(size._n()))
    array = object.__new__(ndarray)
    array._view = ViewState(storage, layouts.identity(tuple(base.shape)), readonly)
    array._node = None
    if array._n().buffer is None:
        register_live(array)
    return array

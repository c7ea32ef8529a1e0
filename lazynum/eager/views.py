"""Lazy views into NumPy-backed arrays: ``x['b']`` of a float field, ``d.view('i8')``.

A view NumPy gives of a NumPy-backed array whose dtype lazynum computes with is a lazy
array again (its reads are lazy leaves), but a window in NumPy's sense: it sees later writes
to the NumPy-backed array, and writes through it reach that array.  It is a window over a
``NumpyViewStorage``: a storage whose value is a snapshot of NumPy's view, taken again
after any eager operation ran (an eager operation may have written the array), and whose
writes are computed at once (a counted fallback: the array they reach is NumPy's) and
stored into NumPy's view.
"""
from __future__ import annotations

import numpy as np

from ..array.arraytype import Storage, ViewState, ndarray
from ..array.conversion import numpy_constant
from ..array import layout as layouts
from ..control import telemetry as metrics
from ..runtime import sync_nodes

_generation = [0]       # eager operations run so far (any of them may have written an array)


def eager_operation_ran() -> None:
    """Mark that NumPy ran on NumPy-backed data: lazy views take a new snapshot."""
    _generation[0] += 1


class NumpyViewStorage(Storage):
    """The value of ``target``, a NumPy view of a NumPy-backed array's data."""
    __slots__ = ("target", "_seen", "_node", "_version")

    def __init__(self, target: np.ndarray):         # noqa: super().__init__ not called:
        self.target = target                         # node and version are properties
        self._seen, self._node, self._version = -1, None, 0

    def _refresh(self) -> None:
        if self._seen != _generation[0]:
            self._node = numpy_constant(self.target)
            self._seen = _generation[0]
            self._version += 1

    @property
    def node(self):
        self._refresh()
        return self._node

    @node.setter
    def node(self, value):
        """A write through a lazy window: computed now and stored into NumPy's array."""
        if value.buffer is None:
            metrics.record_fallback("a write into a NumPy-backed array's view",
                                    metrics.user_frame())
            sync_nodes([value], "fallback")
        self.target[...] = value.buffer
        eager_operation_ran()
        self._node, self._seen = value, _generation[0]

    @property
    def version(self):
        self._refresh()
        return self._version

    @version.setter
    def version(self, value):
        self._version = value


def lazy_view(target: np.ndarray) -> ndarray:
    """A lazy window over NumPy's view ``target`` (read-only where ``target`` is)."""
    storage = NumpyViewStorage(target)
    array = object.__new__(ndarray)
    array._view = ViewState(storage, layouts.identity(target.shape),
                            readonly=not target.flags.writeable)
    array._node = None
    array._n()
    return array

"""``z.real`` and ``z.imag`` of a complex array: writable views in NumPy's sense.

NumPy's parts are strided views of the complex array's float storage.  Here a storage
holds whole complex elements, so a part is a window over a ``PartStorage``: a storage whose
value is the part of the complex storage it stands for (read lazily by the ``real``/
``imag`` primitives) and whose writes rebuild the complex value with the other part kept
(``make_complex``).  Windows of a part (``z.real[1:3]``, ``z.imag.T``) and writes through
them (``z.real[...] = 1``, ``z.imag[mask] = 0``, ``z.real += 1``) behave as NumPy's views:
they see later writes to ``z`` and ``z`` sees theirs, nothing computes.
"""
from __future__ import annotations

from ..expr.complex_parts import complex_node, imag_node, real_node
from ..runtime import register_live
from .arraytype import Storage, ViewState, ndarray, scalar_result, wrap_scalar


class PartStorage(Storage):
    """The real (``part == 0``) or imaginary part of a complex ``Storage``."""
    __slots__ = ("whole", "part", "_read", "_value")

    def __init__(self, whole: Storage, part: int):          # noqa: super().__init__ not called:
        self.whole, self.part = whole, part                  # node and version are the whole's
        self._read = self._value = None

    @property
    def node(self):
        whole = self.whole.node
        if whole is not self._read:
            self._read, self._value = whole, (real_node if self.part == 0 else imag_node)(whole)
        return self._value

    @node.setter
    def node(self, value):
        whole = self.whole.node
        re, im = (value, imag_node(whole)) if self.part == 0 else (real_node(whole), value)
        self.whole.node = complex_node(re, im)

    @property
    def version(self):
        return self.whole.version

    @version.setter
    def version(self, value):
        self.whole.version = value


def part(z, which: int):
    """``z.real`` (``which == 0``) or ``z.imag`` of a complex lazynum array ``z``."""
    if isinstance(z, scalar_result):        # a NumPy scalar's part is a new scalar
        node = z._n()
        return wrap_scalar(real_node(node) if which == 0 else imag_node(node))
    storage = PartStorage(z._storage(), which)
    array = object.__new__(ndarray)
    array._view = ViewState(storage, z._layout(), z._view.readonly)
    array._node = None
    if array._n().buffer is None:
        register_live(array)
    return array

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
from .arraytype import DerivedStorage, Storage, ViewState, ndarray, scalar_result, wrap_scalar


class PartStorage(DerivedStorage):
    """The real (``part == 0``) or imaginary part of a complex ``Storage``."""
    __slots__ = ("part",)

    def __init__(self, whole: Storage, part: int):
        super().__init__(whole)
        self.part = part

    def read(self, whole_node):
        return (real_node if self.part == 0 else imag_node)(whole_node)

    def back(self, value, whole_node) -> None:
        re, im = (value, imag_node(whole_node)) if self.part == 0 else (real_node(whole_node), value)
        self.whole.node = complex_node(re, im)


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
